//! Enumerating the positions a game can reach, for tests and the benchmark.

use super::{Board, Rules, Status};
use std::collections::HashSet;

/// Every position reachable from the empty board where the game is still on, each once, sorted
/// by their text form. Only small boards finish in reasonable time: 4,520 positions on 3 x 3,
/// about ten million on 4 x 4.
///
/// ```
/// use tictactoe_engine::game::{open_positions, Rules};
/// assert_eq!(open_positions(Rules::classic()).len(), 4520);
/// ```
pub fn open_positions(rules: Rules) -> Vec<Board> {
    let mut seen = HashSet::new();
    let mut stack = vec![Board::empty(rules)];
    let mut open = Vec::new();
    while let Some(board) = stack.pop() {
        if !seen.insert(board) {
            continue;
        }
        if let Status::ToMove(_) = board.status() {
            open.push(board);
            stack.extend(board.empty_cells().filter_map(|cell| board.play(cell).ok()));
        }
    }
    open.sort_by_key(|b| b.to_string());
    open
}
