//! A 4 x 4 board on paper, on the simulator: the robot draws, reads and plays the bigger grid
//! with smaller squares, and hard stays exact there.

mod sim_rig;

use ev3_tictactoe::ai::Difficulty;
use ev3_tictactoe::app::scripted::{Strategy, Turn};
use ev3_tictactoe::config::RobotConfig;
use ev3_tictactoe::game::{Cell, Status};
use ev3_tictactoe::hw::sim::SimSettings;
use ev3_tictactoe::scoreboard::{GameResult, PairResult};
use ev3_tictactoe::ui::menu::FirstMove;
use sim_rig::*;

/// The default robot drawing a 4 x 4 board, `k` in a row, in squares of 75 degrees: the
/// smaller squares take smaller marks, sweeps and win-line overhangs.
fn four_by_four(k: usize) -> RobotConfig {
    let mut config = RobotConfig::default();
    config.board.size = 4;
    config.board.k = Some(k);
    config.board.square_deg = 75;
    config.board.mark_size_deg = 45;
    config.board.win_line_overhang_deg = 20;
    config.sensing.spot_mm = 8.0;
    config
}

#[test]
fn hard_never_loses_four_in_a_row_on_four_by_four_whoever_starts() {
    for (first, seed) in [(FirstMove::Human, 5), (FirstMove::Robot, 6)] {
        let mut rig = Rig::of(
            four_by_four(4),
            SimSettings::default(),
            Strategy::Perfect,
            seed,
        );
        let (games, ending) = rig.play(&Difficulty::hard(), first, 1, seed);
        assert_done(&ending);
        let game = &games[0];
        assert_eq!(game.board.rules().size(), 4);
        assert_eq!(game.result, result_by_the_rules(game), "{first:?}");
        assert_ne!(
            game.result,
            GameResult::HumanWon,
            "{first:?}: {}",
            game.board
        );
        assert_ne!(game.result, GameResult::Abandoned, "{first:?}");
        // Six grid lines, and each of the robot's marks, are on the paper.
        let robot_moves = game.moves.iter().filter(|(m, _)| *m != game.human).count();
        assert!(robot_strokes(&rig).len() >= 6 + robot_moves, "{first:?}");
        rig.assert_safe();
    }
}

#[test]
fn on_four_by_four_three_in_a_row_hard_moving_first_wins_against_perfect_play() {
    // Three in a row on 4 x 4 is a win for whoever starts: hard, exact, finds it.
    let mut rig = Rig::of(
        four_by_four(3),
        SimSettings::default(),
        Strategy::Perfect,
        7,
    );
    let (games, ending) = rig.play(&Difficulty::hard(), FirstMove::Robot, 1, 7);
    assert_done(&ending);
    let game = &games[0];
    assert_eq!(game.result, GameResult::HumanLost, "{}", game.board);
    // The line struck runs through three squares of the 4 x 4 grid.
    let Status::Won { line, .. } = game.board.status() else {
        panic!("{}", game.board)
    };
    assert_eq!(line.len(), 3);
}

#[test]
fn two_people_play_on_four_by_four_and_the_squares_are_named_on_it() {
    let mut rig = Rig::of(four_by_four(4), SimSettings::default(), Strategy::Random, 8);
    // X takes the first column, 1, 5, 9, 13; O answers in the second.
    rig.human.turns = [1, 2, 5, 6, 9, 10, 13]
        .iter()
        .map(|n| Turn::Mark(vec![Cell::from_index(n - 1, 4)]))
        .collect();
    let (games, ending) = rig.referee(1, 8);
    assert_done(&ending);
    let game = &games[0];
    assert_eq!(game.result, PairResult::XWon);
    let line: Vec<usize> = game
        .line
        .as_ref()
        .unwrap()
        .iter()
        .map(|c| c.index(4) + 1)
        .collect();
    assert_eq!(line, [1, 5, 9, 13]);
    assert_eq!(robot_strokes(&rig).len(), 6 + 1, "grid and the line");
    rig.assert_safe();
}
