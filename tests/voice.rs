//! The robot's voice: the key moments of a game said aloud through espeak, in order, never
//! holding up the game; and a machine without espeak gets one note and a silent game.

use assert_cmd::Command;
use ev3_tictactoe::game::Cell;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// A stand-in for espeak in `dir`: it writes the sentence it was given (its last argument) as a
/// line of `spoken`.
fn stand_in_espeak(dir: &Path, spoken: &Path) {
    let script = format!(
        "#!/bin/sh\nfor word; do last=$word; done\nprintf '%s\\n' \"$last\" >> '{}'\n",
        spoken.display()
    );
    let path = dir.join("espeak");
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The spoken name of square `number` (1 to 9), as a person at the board says it.
fn spoken(number: usize) -> String {
    let place = Cell::from_index(number - 1, 3)
        .place(3)
        .expect("a 3 x 3 square");
    format!("the {place}")
}

/// A stand-in espeak in a folder of `dir`, and the PATH that finds it first: the sentences it
/// is given go to the file returned.
fn with_stand_in_espeak(dir: &Path) -> (std::path::PathBuf, String) {
    let bin = dir.join("bin");
    std::fs::create_dir(&bin).unwrap();
    let spoken_file = dir.join("spoken.txt");
    stand_in_espeak(&bin, &spoken_file);
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (spoken_file, path)
}

/// What the robot should have said in a demo game, from the line the demo prints for it:
/// "Game 1: human first as X. Moves X4 O5 ...: the robot wins, ...".
fn expected_sentences(game_line: &str) -> Vec<String> {
    let human_first = game_line.contains("human first");
    let moves = game_line
        .split("Moves ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .expect("the game's moves");
    let mut said = Vec::new();
    for (ply, token) in moves.split_whitespace().enumerate() {
        let square: usize = token[1..].parse().expect("a square number");
        let humans_move = (ply % 2 == 0) == human_first;
        if humans_move {
            said.push("Your turn.".to_string());
        } else {
            said.push(format!("I play {}.", spoken(square)));
        }
    }
    said.push(
        if game_line.contains("the robot wins") {
            "I win."
        } else if game_line.contains("the human wins") || game_line.contains("you win") {
            "You win! Well played."
        } else {
            "A draw."
        }
        .to_string(),
    );
    said
}

#[test]
fn a_demo_game_with_speak_says_each_turn_each_move_and_the_result_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let (spoken_file, path) = with_stand_in_espeak(dir.path());
    let output = Command::cargo_bin("ev3-tictactoe")
        .unwrap()
        .current_dir(dir.path())
        .env("PATH", path)
        .args(["demo", "--games", "1", "--seed", "5", "--speak"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let game = stdout
        .lines()
        .find(|l| l.starts_with("Game 1:"))
        .unwrap_or_else(|| panic!("the demo names its game: {stdout}"));
    let said: Vec<String> = std::fs::read_to_string(&spoken_file)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(said, expected_sentences(game), "{game}");
}

#[test]
fn without_espeak_one_note_says_so_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("no-programs-here");
    std::fs::create_dir(&empty).unwrap();
    let output = Command::cargo_bin("ev3-tictactoe")
        .unwrap()
        .current_dir(dir.path())
        .env("PATH", &empty)
        .args(["demo", "--games", "2", "--speak"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(all.matches("espeak is not installed").count(), 1, "{all}");
    assert!(all.contains("Game 2:"), "{all}");
}

#[test]
fn the_demo_is_quiet_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let (spoken_file, path) = with_stand_in_espeak(dir.path());
    Command::cargo_bin("ev3-tictactoe")
        .unwrap()
        .current_dir(dir.path())
        .env("PATH", path)
        .args(["demo", "--games", "1"])
        .assert()
        .success();
    assert!(!spoken_file.exists());
}
