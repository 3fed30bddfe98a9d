//! Helpers shared by the integration tests.
#![allow(dead_code)]

use ev3_tictactoe::game::{Board, Rules, Status};
use std::collections::HashSet;

/// Every position reachable in a game of `rules` where the game is still on, each once.
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
            for cell in board.empty_cells() {
                stack.push(board.play(cell).expect("an empty cell of an open game"));
            }
        }
    }
    open
}
