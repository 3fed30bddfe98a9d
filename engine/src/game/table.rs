//! The game for two to six people at one board, as the DM536 game (seed 002) plays it: each
//! person has a mark of their own, they take turns in seat order, and the first to make
//! `in_a_row` wins.
//!
//! [`Board`](super::Board) stays the two-player position the search works on; a [`Table`] is
//! what a screen or a referee needs when more people sit down, and it asks the same
//! [`winning_lines`](super::winning_lines) so the two can never disagree about a win.

use super::{winning_lines, Cell, Rules};
use std::fmt;
use thiserror::Error;

/// The most people at one board: one letter each from [`SEAT_LETTERS`].
pub const MAX_SEATS: usize = 6;

/// The seats' marks, in playing order. The first two are the classic game's X and O; the
/// others are letters that neither look like a digit (squares are typed by number) nor like
/// each other.
pub const SEAT_LETTERS: [char; MAX_SEATS] = ['X', 'O', 'A', 'H', 'K', 'V'];

/// A place at the table, counted from 0 in playing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seat(pub usize);

impl Seat {
    /// The seat's mark on the board.
    pub fn letter(self) -> char {
        SEAT_LETTERS[self.0]
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Where a game at the table stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableStatus {
    ToMove(Seat),
    /// `winner` has `in_a_row` marks along `line`, given in order along it.
    Won {
        winner: Seat,
        line: Vec<Cell>,
    },
    /// Every square is taken and nobody has a line.
    Draw,
}

/// A table that cannot be set, or a move that cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TableError {
    #[error("{seats} players cannot sit at one board: it takes from 2 to {MAX_SEATS}")]
    Seats { seats: usize },
    #[error("{seats} players need more than a {size}x{size} board: each must get at least {in_a_row} turns")]
    TooSmall {
        seats: usize,
        size: usize,
        in_a_row: usize,
    },
    #[error("row {}, column {} is off the {size}x{size} board", cell.row + 1, cell.col + 1)]
    OffBoard { cell: Cell, size: usize },
    #[error("{square} already holds {by}")]
    Occupied { square: String, by: Seat },
    #[error("the game is over")]
    Over,
}

/// A game for several people: whose mark is where, and whose turn it is.
///
/// ```
/// use tictactoe_engine::game::{Cell, Rules, Seat, Table, TableStatus};
/// let mut table = Table::new(Rules::new(4, 3).unwrap(), 3).unwrap();
/// for index in [0, 4, 8, 1, 5, 9, 2] {
///     table.play(Cell::from_index(index, 4)).unwrap();
/// }
/// // X took the top row's first three squares.
/// assert!(matches!(table.status(), TableStatus::Won { winner: Seat(0), .. }));
/// assert_eq!(table.to_string(), "XXX./OO../AA../....");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    rules: Rules,
    marks: Vec<u128>,
    moves: usize,
}

impl Table {
    /// An empty board for `seats` people. Every seat must be able to place `in_a_row` marks
    /// before the squares run out, or someone could never win.
    pub fn new(rules: Rules, seats: usize) -> Result<Table, TableError> {
        if !(2..=MAX_SEATS).contains(&seats) {
            return Err(TableError::Seats { seats });
        }
        if rules.cells() < seats * rules.in_a_row() {
            return Err(TableError::TooSmall {
                seats,
                size: rules.size(),
                in_a_row: rules.in_a_row(),
            });
        }
        Ok(Table {
            rules,
            marks: vec![0; seats],
            moves: 0,
        })
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn seats(&self) -> usize {
        self.marks.len()
    }

    /// Who has marked `cell`, if anyone.
    pub fn get(&self, cell: Cell) -> Option<Seat> {
        let size = self.rules.size();
        if cell.row >= size || cell.col >= size {
            return None;
        }
        let bit = 1u128 << cell.index(size);
        self.marks.iter().position(|m| m & bit != 0).map(Seat)
    }

    /// The squares `seat` has marked, as bits in row-major order (as [`Board::bits`]).
    ///
    /// [`Board::bits`]: super::Board::bits
    pub fn marks(&self, seat: Seat) -> u128 {
        self.marks.get(seat.0).copied().unwrap_or(0)
    }

    /// Whose turn it is, by the moves made so far.
    pub fn seat_to_move(&self) -> Seat {
        Seat(self.moves % self.seats())
    }

    pub fn status(&self) -> TableStatus {
        let size = self.rules.size();
        for (seat, &mine) in self.marks.iter().enumerate() {
            if let Some(&line) = winning_lines(self.rules)
                .iter()
                .find(|&&line| line & mine == line)
            {
                let line = (0..self.rules.cells())
                    .filter(|&i| line >> i & 1 == 1)
                    .map(|i| Cell::from_index(i, size))
                    .collect();
                return TableStatus::Won {
                    winner: Seat(seat),
                    line,
                };
            }
        }
        if self.moves == self.rules.cells() {
            TableStatus::Draw
        } else {
            TableStatus::ToMove(self.seat_to_move())
        }
    }

    /// The seat to move marks `cell`.
    pub fn play(&mut self, cell: Cell) -> Result<(), TableError> {
        let size = self.rules.size();
        if cell.row >= size || cell.col >= size {
            return Err(TableError::OffBoard { cell, size });
        }
        let TableStatus::ToMove(seat) = self.status() else {
            return Err(TableError::Over);
        };
        if let Some(by) = self.get(cell) {
            return Err(TableError::Occupied {
                square: cell.name(size),
                by,
            });
        }
        self.marks[seat.0] |= 1u128 << cell.index(size);
        self.moves += 1;
        Ok(())
    }
}

/// The rows from top to bottom separated by `/`, each square a seat's letter or `.`.
impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.rules.size();
        for row in 0..size {
            if row > 0 {
                write!(f, "/")?;
            }
            for col in 0..size {
                let cell = Cell { row, col };
                match self.get(cell) {
                    Some(seat) => write!(f, "{seat}")?,
                    None => write!(f, ".")?,
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(table: &mut Table, squares: &[usize]) {
        let size = table.rules().size();
        for &i in squares {
            table.play(Cell::from_index(i, size)).unwrap();
        }
    }

    #[test]
    fn seats_take_turns_in_order_and_each_has_its_own_letter() {
        let mut table = Table::new(Rules::new(7, 3).unwrap(), 6).unwrap();
        play_all(&mut table, &[0, 1, 2, 3, 4, 5]);
        assert_eq!(table.seat_to_move(), Seat(0));
        let letters: Vec<char> = (0..6)
            .map(|i| table.get(Cell::from_index(i, 7)).unwrap().letter())
            .collect();
        assert_eq!(letters, SEAT_LETTERS);
    }

    #[test]
    fn a_diagonal_win_by_the_third_seat_names_its_line() {
        let mut table = Table::new(Rules::new(4, 3).unwrap(), 3).unwrap();
        // A (seat 2) takes 1, 6, 11: the diagonal from the top row's second square.
        play_all(&mut table, &[0, 5, 1, 3, 9, 6, 14, 15, 11]);
        let TableStatus::Won { winner, line } = table.status() else {
            panic!("{table}");
        };
        assert_eq!(winner, Seat(2));
        let indices: Vec<usize> = line.iter().map(|c| c.index(4)).collect();
        assert_eq!(indices, [1, 6, 11]);
        assert_eq!(table.play(Cell::from_index(15, 4)), Err(TableError::Over));
    }

    #[test]
    fn a_full_board_without_a_line_is_a_draw() {
        let mut table = Table::new(Rules::new(3, 3).unwrap(), 3).unwrap();
        // X O A / X O A / O A X: no seat has three in a row.
        play_all(&mut table, &[0, 1, 2, 3, 4, 5, 8, 6, 7]);
        assert_eq!(table.to_string(), "XOA/XOA/OAX");
        assert_eq!(table.status(), TableStatus::Draw);
    }

    #[test]
    fn a_taken_square_and_a_square_off_the_board_are_named() {
        let mut table = Table::new(Rules::classic(), 2).unwrap();
        play_all(&mut table, &[4]);
        assert_eq!(
            table.play(Cell { row: 1, col: 1 }).unwrap_err().to_string(),
            "square 5 (centre) already holds X"
        );
        assert!(matches!(
            table.play(Cell { row: 3, col: 0 }),
            Err(TableError::OffBoard { .. })
        ));
    }

    #[test]
    fn tables_nobody_could_win_at_are_refused() {
        assert_eq!(
            Table::new(Rules::classic(), 7).unwrap_err().to_string(),
            "7 players cannot sit at one board: it takes from 2 to 6"
        );
        assert!(matches!(
            Table::new(Rules::classic(), 4),
            Err(TableError::TooSmall { .. })
        ));
    }
}
