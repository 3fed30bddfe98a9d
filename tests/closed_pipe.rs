//! Output to a reader that has already gone (`ev3-tictactoe scores | grep -q ...`) ends the
//! program quietly with status 0; it must not panic, which in a release build aborts. Any other
//! failure to write what the user asked for (a full disk) is an error, with a non-zero status.

use std::process::{Command, Stdio};

fn run_into_a_closed_pipe(args: &[&str], stdin: Option<&str>) -> std::process::Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut child = Command::new(env!("CARGO_BIN_EXE_ev3-tictactoe"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(text) = stdin {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    child.wait_with_output().unwrap()
}

#[test]
fn every_printing_command_ends_quietly_when_its_reader_has_gone() {
    let dir = tempfile::tempdir().unwrap();
    let scores = dir.path().join("s.json");
    let scores = scores.to_str().unwrap();
    let cases: [(&[&str], Option<&str>); 7] = [
        // The simulated robot stops mid-game, safely, with nobody left to watch.
        (&["demo", "--games", "3"], None),
        (&["demo", "--games", "1", "--screens"], None),
        (&["scores", "--scores", scores], None),
        (&["scores", "--scores", scores, "--json"], None),
        (&["reset-scores", "--scores", scores], None),
        (&["engine", ".../.../..."], None),
        (&["engine"], Some(".../.../...\nX../.../...\n")),
    ];
    for (args, stdin) in cases {
        let out = run_into_a_closed_pipe(args, stdin);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.contains("internal error"), "{args:?}: {stderr}");
    }
}

/// Runs the program with its standard output on `/dev/full`, where every write fails with
/// "no space left on device", in a folder of its own.
fn run_into_a_full_disk(args: &[&str]) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full is on every Linux");
    Command::new(env!("CARGO_BIN_EXE_ev3-tictactoe"))
        .args(args)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

#[test]
fn output_lost_to_anything_but_a_reader_gone_is_an_error_with_a_non_zero_status() {
    let cases: [&[&str]; 6] = [
        // The demo stops its robot safely, then says its output was lost.
        &["demo", "--games", "1"],
        &["--help"],
        &["demo", "--help"],
        &["--version"],
        &["engine", ".../.../..."],
        &["config"],
    ];
    for args in cases {
        let out = run_into_a_full_disk(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("No space left on device"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn scores_promise_the_first_game_makes_the_file_only_where_a_game_could() {
    let dir = tempfile::tempdir().unwrap();
    let nowhere = dir.path().join("no such folder").join("s.json");
    let out = Command::new(env!("CARGO_BIN_EXE_ev3-tictactoe"))
        .args(["scores", "--scores", nowhere.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("does not exist"), "{stderr}");
    assert!(
        !stderr.contains("the first game played makes it"),
        "{stderr}"
    );
    let here = dir.path().join("s.json");
    let out = Command::new(env!("CARGO_BIN_EXE_ev3-tictactoe"))
        .args(["scores", "--scores", here.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the first game played makes it"),
        "{stderr}"
    );
}
