//! The hard level plays perfectly on 3 x 3: checked position by position against the port of the
//! original robot's minimax, which searches every root move with a full window and so scores
//! each one exactly.

use ev3_tictactoe::ai::original::{robot_view, root_scores};
use ev3_tictactoe::ai::{Engine, Outcome};
use ev3_tictactoe::game::{open_positions, Cell, Rules};

#[test]
fn every_reachable_position_gets_exactly_the_best_moves_and_the_true_outcome() {
    let rules = Rules::classic();
    let mut engine = Engine::new(rules);
    let positions = open_positions(rules);
    assert_eq!(
        positions.len(),
        4520,
        "reachable 3x3 positions with the game still on"
    );
    for board in positions {
        let analysis = engine.analyse(&board).unwrap();
        let scores = root_scores(&mut robot_view(&board));
        let top = scores.iter().flatten().max().copied().unwrap();
        let expected_best: Vec<Cell> = (0..9)
            .filter(|&i| scores[i] == Some(top))
            .map(|i| Cell::from_index(i, 3))
            .collect();
        assert_eq!(analysis.best_moves, expected_best, "best moves on {board}");
        // The original scores a win 100 minus the plies after the robot's move.
        let expected_outcome = match top {
            0 => Outcome::Draw,
            s if s > 0 => Outcome::Win {
                plies: (100 - s + 1) as u32,
            },
            s => Outcome::Loss {
                plies: (100 + s + 1) as u32,
            },
        };
        assert_eq!(
            analysis.outcome,
            Some(expected_outcome),
            "outcome of {board}"
        );
    }
}
