//! Hard never loses: every game against every possible human strategy, with the robot moving
//! first and second, and with the robot free to play any of the moves it considers best (hard
//! picks among them at random).

use ev3_tictactoe::ai::Engine;
use ev3_tictactoe::game::{Board, Mark, Rules, Status};
use std::collections::HashSet;

/// Which of its best moves the robot is followed through.
#[derive(Clone, Copy)]
enum RobotMoves {
    /// Every one: covers every choice hard can make at random.
    EveryBest,
    /// Only the first: every human strategy against one fixed hard policy (far fewer positions).
    FirstBest,
}

/// Plays out every game in which the human tries every legal move and the robot its best moves;
/// returns how many positions and finished games were met. Panics on a game the human wins.
fn explore_every_game(rules: Rules, robot: Mark, robot_moves: RobotMoves) -> (usize, usize) {
    let mut engine = Engine::new(rules);
    let mut seen = HashSet::new();
    let mut stack = vec![Board::empty(rules)];
    let mut finished_games = 0;
    while let Some(board) = stack.pop() {
        if !seen.insert(board) {
            continue;
        }
        match board.status() {
            Status::Won { winner, .. } => {
                assert_eq!(winner, robot, "the human won on {board} against hard");
                finished_games += 1;
            }
            Status::Draw => finished_games += 1,
            Status::ToMove(mark) if mark == robot => {
                let analysis = engine.analyse(&board).unwrap();
                assert!(analysis.outcome.is_some(), "not solved exactly: {board}");
                let followed = match robot_moves {
                    RobotMoves::EveryBest => analysis.best_moves.len(),
                    RobotMoves::FirstBest => 1,
                };
                for &cell in &analysis.best_moves[..followed] {
                    stack.push(board.play(cell).unwrap());
                }
            }
            Status::ToMove(_) => {
                for cell in board.empty_cells() {
                    stack.push(board.play(cell).unwrap());
                }
            }
        }
    }
    (seen.len(), finished_games)
}

#[test]
fn on_3x3_the_robot_moving_first_never_loses_to_any_strategy() {
    let (positions, endings) = explore_every_game(Rules::classic(), Mark::X, RobotMoves::EveryBest);
    assert!(
        positions > 100 && endings > 10,
        "{positions} positions, {endings} endings"
    );
}

#[test]
fn on_3x3_the_robot_moving_second_never_loses_to_any_strategy() {
    let (positions, endings) = explore_every_game(Rules::classic(), Mark::O, RobotMoves::EveryBest);
    assert!(
        positions > 100 && endings > 10,
        "{positions} positions, {endings} endings"
    );
}

#[test]
fn on_4x4_four_in_a_row_one_hard_policy_never_loses_to_any_strategy() {
    let rules = Rules::new(4, 4).unwrap();
    for robot in [Mark::X, Mark::O] {
        let (positions, endings) = explore_every_game(rules, robot, RobotMoves::FirstBest);
        assert!(
            positions > 10_000,
            "{positions} positions, {endings} endings"
        );
    }
}

/// About 8 million positions per side, some 70 seconds each in release, the two sides on
/// threads of their own: CI runs it.
#[test]
#[ignore = "minutes long: cargo test --release --test hard_never_loses -- --ignored"]
fn on_4x4_four_in_a_row_every_hard_choice_never_loses_to_any_strategy() {
    let rules = Rules::new(4, 4).unwrap();
    std::thread::scope(|scope| {
        for robot in [Mark::X, Mark::O] {
            scope.spawn(move || explore_every_game(rules, robot, RobotMoves::EveryBest));
        }
    });
}
