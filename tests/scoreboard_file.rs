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
fn a_corrupt_file_is_moved_aside_with_its_bytes_and_play_goes_on() {
    for bad in [
        &b"{\"current_score\": 3, \"levels\": "[..],
        b"",
        b"[1, 2, 3]",
        b"{\"levels\": {\"hard\": {\"wins\": -1}}}",
        b"{\"version\": 99}",
        b"\xff\xfe not even text",
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
        assert!(
            reason.contains("valid scoreboard") || reason.contains("version 99"),
            "{reason}"
        );
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
