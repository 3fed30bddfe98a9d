//! The engine on boards too large to solve: it still sees wins and threats, keeps to its node
//! budget, and turns exact as soon as the rest of the game is small enough.

use ev3_tictactoe::ai::{Engine, SearchLimits};
use ev3_tictactoe::game::{Board, Cell, Rules, Status};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn board(rows: &[&str], k: usize) -> Board {
    Board::parse(&rows.join("/"), None, Some(k)).unwrap()
}

#[test]
fn on_a_seven_by_seven_board_an_immediate_win_is_taken() {
    let b = board(
        &[
            ".......", ".......", ".XXX...", ".......", "OO.....", ".......", "O......",
        ],
        4,
    );
    let analysis = Engine::new(b.rules()).analyse(&b).unwrap();
    assert_eq!(
        analysis.best_moves,
        vec![Cell { row: 2, col: 0 }, Cell { row: 2, col: 4 }]
    );
}

#[test]
fn on_a_seven_by_seven_board_a_three_against_the_edge_is_blocked() {
    let b = board(
        &[
            "XXX....", ".......", ".......", "...O...", ".......", ".......", "O......",
        ],
        4,
    );
    let analysis = Engine::new(b.rules()).analyse(&b).unwrap();
    assert_eq!(analysis.best_moves, vec![Cell { row: 0, col: 3 }]);
}

#[test]
fn every_size_answers_within_its_node_budget() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for size in 5..=10 {
        let rules = Rules::new(size, size.min(5)).unwrap();
        let limits = SearchLimits {
            heuristic_nodes: 20_000,
            ..SearchLimits::for_rules(rules)
        };
        let mut engine = Engine::with_limits(rules, limits);
        let mut b = Board::empty(rules);
        for _ in 0..size {
            let analysis = engine.analyse(&b).unwrap();
            // The first, unlimited iteration visits the root and one child per move.
            let ceiling = limits.heuristic_nodes + rules.cells() as u64 + 2;
            assert!(analysis.nodes <= ceiling, "{} nodes on {b}", analysis.nodes);
            assert!(analysis.depth >= 1);
            let moves = analysis.best_moves;
            b = b.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
    }
}

#[test]
fn a_large_board_with_few_empty_cells_left_is_solved_exactly() {
    let rules = Rules::new(6, 4).unwrap();
    let mut engine = Engine::new(rules);
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut solved = 0;
    for _ in 0..20 {
        // Random games until at most 12 cells are left (or the game ends first).
        let mut b = Board::empty(rules);
        while b.empty_cells().count() > 12 {
            let empty: Vec<Cell> = b.empty_cells().collect();
            let next = b.play(empty[rng.random_range(0..empty.len())]).unwrap();
            if !matches!(next.status(), Status::ToMove(_)) {
                break;
            }
            b = next;
        }
        if b.empty_cells().count() <= 12 {
            assert!(engine.analyse(&b).unwrap().outcome.is_some(), "{b}");
            solved += 1;
        }
    }
    assert!(solved >= 5, "only {solved} games reached the endgame");
}
