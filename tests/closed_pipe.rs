//! Output to a reader that has already gone (`ev3-tictactoe scores | grep -q ...`) ends the
//! program quietly with status 0; it must not panic, which in a release build aborts.

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
