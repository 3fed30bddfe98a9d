//! The rules of noughts and crosses on boards from 3 x 3 to 10 x 10: no I/O, no hardware.
//!
//! [`Board`] is the one place that decides what a legal position, a move and a win are; the
//! search in [`crate::ai`] and everything above it ask it rather than re-deriving the rules.

mod bits;
mod board;
mod lines;
mod positions;
mod rules;
mod symmetry;
mod table;

pub use bits::{CellBits, Cells};
pub use board::{Board, BoardError, Cell, Mark, MoveError, Status};
pub use lines::winning_lines;
pub use positions::open_positions;
pub use rules::{Rules, RulesError, MAX_SIZE, MIN_SIZE};
pub use symmetry::Symmetry;
pub use table::{Seat, Table, TableError, TableStatus, MAX_SEATS, SEAT_LETTERS};
