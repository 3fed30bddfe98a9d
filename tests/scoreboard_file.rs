//! The scoreboard file: round trip, missing and corrupt files, atomic replacement, and the
//! `scores` and `reset-scores` subcommands.

use assert_cmd::Command;
use ev3_tictactoe::ai::Difficulty;
use ev3_tictactoe::scoreboard::store::{Notice, ResetOutcome, ScoreFile};
use ev3_tictactoe::scoreboard::{GameResult, Scoreboard};
use predicates::prelude::*;
use std::io::Read;
use std::time::SystemTime;

fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn recorded_games_survive_a_round_trip_through_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = ScoreFile::new(dir.path().join("scoreboard.json"));
    file.record(&Difficulty::hard(), GameResult::HumanWon, SystemTime::now())
        .unwrap();
    file.record(&Difficulty::easy(), GameResult::HumanWon, SystemTime::now())
        .unwrap();
    let (scores, notice) = file.load().unwrap();
    assert_eq!(notice, None);
    assert_eq!(scores.current_score, 4);
    assert_eq!(scores.level("hard").high_score, 3);
    assert_eq!(scores.level("easy").high_score, 4);
    assert_eq!(scores.level("easy").wins, 1);
}

#[test]
fn a_missing_file_is_created_empty_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scoreboard.json");
    let (scores, notice) = ScoreFile::new(&path).load().unwrap();
    assert_eq!(scores, Scoreboard::new());
    assert_eq!(notice, Some(Notice::Created { path: path.clone() }));
    let written: Scoreboard = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(written, Scoreboard::new());
}

#[test]
fn a_damaged_scoreboard_is_moved_aside_with_its_bytes_and_play_goes_on() {
    for (bad, why) in [
        (
            &b"{\"current_score\": 3, \"levels\": "[..],
            "not a valid scoreboard",
        ),
        (b"", "it is empty"),
        (
            b"{\"levels\": {\"hard\": {\"wins\": -1}}}",
            "not a valid scoreboard",
        ),
        (b"{\"version\": 99, \"levels\": {}}", "version 99"),
        (b"{\"levels\": {}, \"levels\": {}}", "given twice"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("scoreboard.json");
        std::fs::write(&path, bad).unwrap();
        let (scores, notice) = ScoreFile::new(&path).load().unwrap();
        assert_eq!(scores, Scoreboard::new());
        let Some(Notice::SetAside {
            moved_to, reason, ..
        }) = notice
        else {
            panic!("no notice for {bad:?}");
        };
        assert_eq!(std::fs::read(&moved_to).unwrap(), bad, "bytes kept");
        assert!(reason.contains(why), "{reason}");
        assert!(moved_to
            .to_string_lossy()
            .contains("scoreboard.json.unreadable-"));
        assert_eq!(
            files_in(dir.path()).len(),
            2,
            "the new file and the old one, nothing else"
        );
    }
}

#[test]
fn a_file_that_is_not_a_scoreboard_is_refused_untouched_naming_it() {
    let robot_config = ev3_tictactoe::config::RobotConfig::default_json();
    for (bad, why) in [
        (robot_config.as_bytes(), "neither \"format\""),
        (&b"[1, 2, 3]"[..], "not an object"),
        (b"\xff\xfe not even text", "not text"),
        (b"# My notes\nnot json", "not JSON"),
        (b"{\"format\": \"something else\"}", "its format is"),
        (b"{\"name\": \"a package\"}", "neither \"format\""),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("robot.json");
        std::fs::write(&path, bad).unwrap();
        let file = ScoreFile::new(&path);
        for error in [
            file.load().unwrap_err(),
            file.record(&Difficulty::easy(), GameResult::Draw, SystemTime::now())
                .unwrap_err(),
            file.reset().unwrap_err(),
        ] {
            let said = error.to_string();
            assert!(said.contains("robot.json is not a scoreboard"), "{said}");
            assert!(said.contains(why), "{said}");
        }
        assert_eq!(std::fs::read(&path).unwrap(), bad, "left as it was");
        assert_eq!(files_in(dir.path()), ["robot.json"]);
    }
}

#[test]
fn a_folder_or_a_fifo_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("scores");
    std::fs::create_dir(&folder).unwrap();
    let said = ScoreFile::new(&folder).load().unwrap_err().to_string();
    assert!(said.contains("it is a folder"), "{said}");
    let fifo = dir.path().join("fifo.json");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    // Reading a FIFO would wait for a writer for ever.
    let said = ScoreFile::new(&fifo).load().unwrap_err().to_string();
    assert!(said.contains("not a regular file"), "{said}");
}

#[test]
fn a_symlinked_scoreboard_stays_a_symlink_and_its_file_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.json");
    let link = dir.path().join("scoreboard.json");
    ScoreFile::new(&real).save(&Scoreboard::new()).unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let file = ScoreFile::new(&link);
    file.record(&Difficulty::hard(), GameResult::HumanWon, SystemTime::now())
        .unwrap();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::metadata(&real).unwrap().permissions().mode() & 0o777,
        0o640
    );
    assert_eq!(
        ScoreFile::new(&real).load().unwrap().0.level("hard").wins,
        1
    );
    let fresh = dir.path().join("new.json");
    ScoreFile::new(&fresh).save(&Scoreboard::new()).unwrap();
    let mode = std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777;
    assert_eq!(
        mode & 0o022,
        0,
        "a new file is not writable by others: {mode:o}"
    );
}

#[test]
fn temporary_files_a_killed_writer_left_are_removed_by_the_next_writer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scoreboard.json");
    let file = ScoreFile::new(&path);
    file.save(&Scoreboard::new()).unwrap();
    std::fs::write(dir.path().join(".scoreboard.json.a1B2c3"), "{").unwrap();
    std::fs::write(dir.path().join(".scoreboard.json.notes"), "mine").unwrap();
    file.record(&Difficulty::easy(), GameResult::Draw, SystemTime::now())
        .unwrap();
    assert_eq!(
        files_in(dir.path()),
        [".scoreboard.json.notes", "scoreboard.json"]
    );
}

#[test]
fn two_writers_at_once_lose_no_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scoreboard.json");
    let writers: Vec<_> = (0..2)
        .map(|_| {
            let file = ScoreFile::new(&path);
            std::thread::spawn(move || {
                for _ in 0..100 {
                    file.record(&Difficulty::easy(), GameResult::Draw, SystemTime::now())
                        .unwrap();
                }
            })
        })
        .collect();
    for writer in writers {
        writer.join().unwrap();
    }
    assert_eq!(
        ScoreFile::new(&path).load().unwrap().0.level("easy").draws,
        200
    );
}

#[test]
fn saving_replaces_the_file_whole_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scoreboard.json");
    let file = ScoreFile::new(&path);
    file.save(&Scoreboard::new()).unwrap();
    let before = std::fs::read_to_string(&path).unwrap();
    // A reader that opened the old file keeps reading the old file, whole: the new scores
    // arrive by rename, not by rewriting the bytes in place.
    let mut reader = std::fs::File::open(&path).unwrap();
    file.record(
        &Difficulty::medium(),
        GameResult::HumanWon,
        SystemTime::now(),
    )
    .unwrap();
    let mut seen = String::new();
    reader.read_to_string(&mut seen).unwrap();
    assert_eq!(seen, before);
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .contains("\"current_score\": 2"));
    assert_eq!(files_in(dir.path()), ["scoreboard.json"]);
}

#[test]
fn reset_keeps_the_old_scores_beside_the_new_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scoreboard.json");
    let file = ScoreFile::new(&path);
    file.record(&Difficulty::hard(), GameResult::HumanWon, SystemTime::now())
        .unwrap();
    let old = std::fs::read(&path).unwrap();
    let ResetOutcome::KeptAt(kept) = file.reset().unwrap() else {
        panic!("the old file was not kept");
    };
    assert_eq!(std::fs::read(kept).unwrap(), old);
    assert_eq!(file.load().unwrap().0, Scoreboard::new());
    let empty = tempfile::tempdir().unwrap();
    let fresh = ScoreFile::new(empty.path().join("scoreboard.json"));
    assert_eq!(fresh.reset().unwrap(), ResetOutcome::NothingToKeep);
}

#[test]
fn the_scores_commands_use_the_path_from_the_flag_or_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.json");
    ScoreFile::new(&path)
        .record(
            &Difficulty::medium(),
            GameResult::HumanWon,
            SystemTime::now(),
        )
        .unwrap();
    Command::cargo_bin("ev3-tictactoe")
        .unwrap()
        .args(["scores", "--scores"])
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains("Current score: 2"))
        .stdout(predicate::str::is_match(r"medium +2 +1 +0 +0 +0").unwrap());
    let out = Command::cargo_bin("ev3-tictactoe")
        .unwrap()
        .args(["scores", "--json"])
        .env("EV3_TICTACTOE_SCORES", &path)
        .assert()
        .success();
    let json: Scoreboard = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(json.level("medium").wins, 1);
    Command::cargo_bin("ev3-tictactoe")
        .unwrap()
        .arg("reset-scores")
        .env("EV3_TICTACTOE_SCORES", &path)
        .assert()
        .success()
        .stdout(predicate::str::contains("The old scores are kept in"))
        .stdout(predicate::str::contains("mine.json.before-reset-"));
}

/// Only valid, not empty: playing in the repository's folder (the README's first command)
/// records the game there. CI checks that the committed file is the empty scoreboard.
#[test]
fn the_scoreboard_in_the_repository_follows_the_schema() {
    let shipped = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/scoreboard.json")).unwrap();
    let scores: Scoreboard = serde_json::from_slice(&shipped).unwrap();
    assert_eq!(scores.version, ev3_tictactoe::scoreboard::SCHEMA_VERSION);
}

/// Not a test on its own: the writer process the tests below start (this test binary again),
/// recording draws into the file `SCOREBOARD_WRITER` names and saying each one it recorded.
#[test]
#[ignore = "run by the multi-process tests"]
fn writer_process() {
    let Ok(path) = std::env::var("SCOREBOARD_WRITER") else {
        return;
    };
    let games: u32 = std::env::var("SCOREBOARD_GAMES").unwrap().parse().unwrap();
    let file = ScoreFile::new(path);
    for _ in 0..games {
        file.record(&Difficulty::easy(), GameResult::Draw, SystemTime::now())
            .unwrap();
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(out, "recorded").unwrap();
        out.flush().unwrap();
    }
}

fn writer(path: &std::path::Path, games: u32) -> std::process::Command {
    let mut command = std::process::Command::new(std::env::current_exe().unwrap());
    command
        .args([
            "--ignored",
            "--exact",
            "writer_process",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("SCOREBOARD_WRITER", path)
        .env("SCOREBOARD_GAMES", games.to_string())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    command
}

#[test]
fn two_processes_writing_at_once_record_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scoreboard.json");
    let children: Vec<_> = (0..2)
        .map(|_| writer(&path, 100).spawn().unwrap())
        .collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success());
    }
    assert_eq!(
        ScoreFile::new(&path).load().unwrap().0.level("easy").draws,
        200
    );
    assert_eq!(files_in(dir.path()), ["scoreboard.json"]);
}

#[test]
fn a_writer_killed_at_random_loses_no_game_and_leaves_nothing_behind() {
    use rand::{Rng, SeedableRng};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scoreboard.json");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(290);
    let (mut confirmed, mut unreadable) = (0u32, 0u32);
    const KILLS: u32 = 200;
    for _ in 0..KILLS {
        let mut child = writer(&path, 1000).spawn().unwrap();
        std::thread::sleep(std::time::Duration::from_micros(
            rng.random_range(0..20_000),
        ));
        child.kill().unwrap();
        let output = child.wait_with_output().unwrap();
        // The harness's own "test writer_process ... " may share the first one's line.
        confirmed += String::from_utf8_lossy(&output.stdout)
            .matches("recorded\n")
            .count() as u32;
        if let Ok(bytes) = std::fs::read(&path) {
            if serde_json::from_slice::<Scoreboard>(&bytes).is_err() {
                unreadable += 1;
            }
        }
    }
    assert_eq!(unreadable, 0, "the file was unreadable after a kill");
    let left_by_kills = files_in(dir.path()).len() - 1;
    // The next writer clears what the killed ones left.
    let file = ScoreFile::new(&path);
    file.record(&Difficulty::hard(), GameResult::Draw, SystemTime::now())
        .unwrap();
    let draws = file.load().unwrap().0.level("easy").draws;
    // A writer killed between its rename and its word recorded a game nobody heard of; none
    // may be missing.
    assert!(
        (confirmed..=confirmed + KILLS).contains(&draws),
        "{draws} draws on file, {confirmed} confirmed"
    );
    assert_eq!(files_in(dir.path()), ["scoreboard.json"]);
    println!(
        "{KILLS} kills: {confirmed} games confirmed, {draws} on file, 0 unreadable; \
         {left_by_kills} temporary files left by kills, 0 after the next write"
    );
}

#[test]
fn scores_only_reads_it_makes_no_file_and_moves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    Command::cargo_bin("ev3-tictactoe")
        .unwrap()
        .current_dir(dir.path())
        .env_remove("EV3_TICTACTOE_SCORES")
        .arg("scores")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "no scoreboard at scoreboard.json yet",
        ));
    assert!(files_in(dir.path()).is_empty());
    std::fs::write(dir.path().join("scoreboard.json"), "{\"levels\": ").unwrap();
    Command::cargo_bin("ev3-tictactoe")
        .unwrap()
        .current_dir(dir.path())
        .env_remove("EV3_TICTACTOE_SCORES")
        .arg("scores")
        .assert()
        .success()
        .stderr(predicate::str::contains("cannot be used"));
    assert_eq!(files_in(dir.path()), ["scoreboard.json"]);
}

#[test]
fn reset_keeps_a_copy_only_of_a_board_that_holds_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scoreboard.json");
    let file = ScoreFile::new(&path);
    file.save(&Scoreboard::new()).unwrap();
    assert_eq!(file.reset().unwrap(), ResetOutcome::NothingToKeep);
    assert_eq!(
        files_in(dir.path()),
        ["scoreboard.json"],
        "no copy of zeros"
    );
    file.record(
        &Difficulty::easy(),
        GameResult::HumanLost,
        SystemTime::now(),
    )
    .unwrap();
    assert!(matches!(file.reset().unwrap(), ResetOutcome::KeptAt(_)));
    assert_eq!(
        files_in(dir.path()).len(),
        2,
        "a lost game is worth keeping"
    );
}
