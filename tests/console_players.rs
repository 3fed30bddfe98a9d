//! `console --players N`: the DM536 game (seed 002) for two to six people at one keyboard,
//! driven through standard input as people type it.

use assert_cmd::Command;

/// Runs `console` with `args`, typing `squares` one per line and then declining another game.
/// Returns what it printed, after checking it ended well and kept no scoreboard.
fn console(args: &[&str], squares: &[u32]) -> String {
    let folder = tempfile::tempdir().unwrap();
    let scores = folder.path().join("scoreboard.json");
    let mut typed: String = squares.iter().map(|s| format!("{s}\n")).collect();
    typed.push_str("n\n");
    let out = Command::cargo_bin("ev3-tictactoe")
        .unwrap()
        .arg("console")
        .args(args)
        .args(["--scores", scores.to_str().unwrap()])
        .write_stdin(typed)
        .assert()
        .success();
    assert!(
        !scores.exists(),
        "games between people are not kept on the robot's scoreboard"
    );
    String::from_utf8_lossy(&out.get_output().stdout).into_owned()
}

#[test]
fn three_people_on_the_default_four_by_four_board_play_to_a_win() {
    // X takes 1, 5 and 9: the first column's top three, on a board of side 3 + 1.
    let out = console(&["--players", "3"], &[1, 2, 3, 5, 6, 7, 9]);
    assert!(
        out.contains("4x4, 3 in a row, 3 players in this order: X, O, A."),
        "{out}"
    );
    assert!(
        out.contains(
            "X wins with 3 in a row: square 1 (row 1, column 1), square 5 (row 2, column 1), \
             square 9 (row 3, column 1)."
        ),
        "{out}"
    );
}

#[test]
fn three_people_fill_the_board_without_a_line_for_a_draw() {
    // Every square taken, no seat with three in a row, column or diagonal:
    //   X O X A / O X X O / O A A X / A A O X
    let order = [1, 2, 4, 3, 5, 10, 6, 8, 11, 7, 9, 13, 12, 15, 14, 16];
    let out = console(&["--players", "3"], &order);
    assert!(out.contains("A draw: every square is taken."), "{out}");
    assert!(!out.contains("wins"), "{out}");
}

#[test]
fn six_people_each_have_a_letter_of_their_own_and_play_to_a_win() {
    // Each of the six takes a square of the first two rows; X's third, square 15, completes
    // the first column's top three on the 7 x 7 board.
    let order = [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 15];
    let out = console(&["--players", "6"], &order);
    assert!(
        out.contains("7x7, 3 in a row, 6 players in this order: X, O, A, H, K, V."),
        "{out}"
    );
    // The board before X's winning move shows every letter.
    assert!(out.contains("  X |  O |  A |  H |  K |  V |  7 "), "{out}");
    assert!(out.contains("X wins with 3 in a row: square 1"), "{out}");
}

#[test]
fn six_people_fill_the_seven_by_seven_board_without_a_line_for_a_draw() {
    let order = [
        1, 2, 5, 6, 13, 3, 8, 4, 16, 12, 17, 7, 27, 10, 20, 14, 18, 9, 34, 11, 22, 15, 21, 23, 37,
        19, 28, 30, 24, 29, 39, 26, 31, 35, 25, 33, 45, 40, 32, 43, 36, 38, 47, 46, 41, 44, 48, 42,
        49,
    ];
    let out = console(&["--players", "6"], &order);
    assert!(out.contains("A draw: every square is taken."), "{out}");
    assert!(!out.contains("wins"), "{out}");
}

#[test]
fn a_taken_square_and_a_typo_are_refused_and_the_same_person_tries_again() {
    let out = console(&["--players", "3"], &[1, 1, 99, 2, 3, 5, 6, 7, 9]);
    assert!(
        out.contains("Square 1 (row 1, column 1) already holds X; try again."),
        "{out}"
    );
    assert!(
        out.contains("\"99\" is not a square: type a number from 1 to 16; try again."),
        "{out}"
    );
    assert!(out.contains("X wins with 3 in a row"), "{out}");
}

#[test]
fn the_robot_can_take_a_seat_in_a_game_for_two() {
    // The robot plays O at hard: X can do no better than a draw.
    let out = console(
        &[
            "--players",
            "2",
            "--engine",
            "O",
            "--difficulty",
            "hard",
            "--seed",
            "4",
        ],
        &[1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
    assert!(
        out.contains("3x3, 3 in a row, 2 players in this order: X, O (the robot, hard)."),
        "{out}"
    );
    assert!(
        out.contains("O (the robot) plays square 5 (centre)."),
        "{out}"
    );
    assert!(!out.contains("X wins"), "{out}");
}

#[test]
fn the_robot_can_take_both_seats_and_play_itself() {
    let out = console(
        &["--players", "2", "--engine", "X,O", "--difficulty", "100%"],
        &[],
    );
    assert!(out.contains("A draw: every square is taken."), "{out}");
    assert_eq!(out.matches("(the robot) plays").count(), 9, "{out}");
}

#[test]
fn tables_that_cannot_be_played_are_refused_before_the_game() {
    let refused = |args: &[&str], says: &str| {
        let out = Command::cargo_bin("ev3-tictactoe")
            .unwrap()
            .arg("console")
            .args(args)
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(err.contains(says), "{args:?}: {err}");
    };
    refused(
        &["--players", "6", "--size", "4"],
        "6 players need more than a 4x4 board: each must get at least 3 turns",
    );
    refused(&["--players", "7"], "7 is not in 2..=6");
    refused(
        &["--players", "3", "--engine", "O"],
        "--engine takes seats in a game for two (--players 2), not 3",
    );
    refused(
        &["--players", "2", "--engine", "A"],
        "\"A\" is not a seat the robot can take",
    );
    refused(&["--engine", "O"], "--players");
}
