//! The `engine` subcommand's contract, through the real binary.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn engine() -> Command {
    let mut cmd = Command::cargo_bin("ev3-tictactoe").unwrap();
    cmd.arg("engine");
    cmd
}

fn json_lines(output: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn one_board_gets_one_json_line_with_every_field() {
    let out = engine()
        .args(["--seed", "1", "X.O/.X./..."])
        .assert()
        .success();
    let lines = json_lines(&out.get_output().stdout);
    assert_eq!(lines.len(), 1);
    let a = &lines[0];
    assert_eq!(a["board"], "X.O/.X./...");
    assert_eq!(a["to_move"], "O");
    // O must block the diagonal at the bottom right; X's next threats can all be met.
    assert_eq!(a["move"], serde_json::json!({"row": 2, "col": 2}));
    assert_eq!(a["outcome"], "draw");
    assert!(a["nodes"].as_u64().unwrap() >= 1);
    assert_eq!(a.as_object().unwrap().len(), 5);
    // Fields come in the documented order, for people reading the stream.
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let at = |key: &str| text.find(&format!("\"{key}\":")).unwrap();
    assert!(at("board") < at("to_move") && at("to_move") < at("move"));
    assert!(at("move") < at("outcome") && at("outcome") < at("nodes"));
}

#[test]
fn a_bad_board_exits_with_status_2_and_names_the_problem() {
    let cases = [
        ("X.O/.X", "row 0 has 3 cells but the board has 2 rows"),
        ("X.Q/.../...", "bad character 'Q' at row 0, column 2"),
        ("XX./X../...", "impossible counts: 3 X and 0 O"),
        ("XXX/OO./...", "the game is already over: X has 3 in a row"),
        ("XOX/XOO/OXX", "the board is full (a draw)"),
    ];
    for (board, message) in cases {
        engine()
            .arg(board)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(message));
    }
    engine()
        .args(["--size", "4", ".../.../..."])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the board is 3x3 but the size asked for is 4x4",
        ));
    engine()
        .args(["--k", "4", ".../.../..."])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "4 in a row cannot be played on a 3x3 board",
        ));
}

#[test]
fn batch_mode_answers_every_line_in_order_even_after_a_bad_one() {
    let mut input = b"X.O/.X./...\nnonsense\n\n..../..../..../....\nXX./OO./...\n".to_vec();
    input.extend_from_slice(b"X\xff./.../...\n");
    let out = engine()
        .args(["--seed", "5"])
        .write_stdin(input)
        .assert()
        .success();
    let lines = json_lines(&out.get_output().stdout);
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[0]["move"], serde_json::json!({"row": 2, "col": 2}));
    assert_eq!(lines[1]["board"], "nonsense");
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .contains("bad character 'n' at row 0, column 0"));
    assert!(lines[2]["error"]
        .as_str()
        .unwrap()
        .contains("the board is empty"));
    assert_eq!(
        lines[3]["outcome"], "draw",
        "4x4 needs four in a row by default"
    );
    assert_eq!(lines[4]["move"], serde_json::json!({"row": 0, "col": 2}));
    assert_eq!(lines[4]["outcome"], "win");
    assert!(lines[5]["error"]
        .as_str()
        .unwrap()
        .contains("bad character '\u{fffd}' at row 0, column 1"));
}

#[test]
fn a_seed_makes_the_answers_reproducible() {
    let run = |seed: &str| {
        engine()
            .args(["--difficulty", "easy", "--seed", seed])
            .write_stdin(".../.../...\n".repeat(30))
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    assert_eq!(run("9"), run("9"));
    assert_ne!(run("9"), run("10"));
}

#[test]
fn large_boards_come_back_with_a_move_and_no_claimed_outcome() {
    let out = engine()
        .args(["--size", "7", "--k", "4", "--seed", "1"])
        .arg("......./......./......./...X.../......./......./.......")
        .assert()
        .success();
    let a = &json_lines(&out.get_output().stdout)[0];
    assert_eq!(a["to_move"], "O");
    assert!(a["outcome"].is_null());
    let (row, col) = (
        a["move"]["row"].as_u64().unwrap(),
        a["move"]["col"].as_u64().unwrap(),
    );
    assert!(row < 7 && col < 7 && (row, col) != (3, 3));
}

#[test]
fn every_subcommand_has_help_and_usage_errors_exit_with_status_2() {
    for sub in ["engine", "console", "scores", "reset-scores", "bench"] {
        Command::cargo_bin("ev3-tictactoe")
            .unwrap()
            .args([sub, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains("Usage:"));
    }
    Command::cargo_bin("ev3-tictactoe")
        .unwrap()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::contains(env!("CARGO_PKG_VERSION")));
    engine()
        .args(["--difficulty", "impossible"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid value 'impossible'"));
    engine()
        .args(["--size", "11"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("11 is not in 3..=10"));
    Command::cargo_bin("ev3-tictactoe")
        .unwrap()
        .arg("fly")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unrecognized subcommand 'fly'"));
}
