//! A position: which cells hold an X, which an O, under which rules.

use super::{winning_lines, Rules, RulesError};
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// A player's mark. X always moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mark {
    X,
    O,
}

impl Mark {
    /// The opponent's mark.
    pub fn other(self) -> Mark {
        match self {
            Mark::X => Mark::O,
            Mark::O => Mark::X,
        }
    }

    /// `'X'` or `'O'`.
    pub fn symbol(self) -> char {
        match self {
            Mark::X => 'X',
            Mark::O => 'O',
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

/// A square on the board, counted from 0 at the top left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    pub row: usize,
    pub col: usize,
}

impl Cell {
    /// The square's name for people, the same everywhere a person reads or types one: its
    /// number counted row by row from 1 at the top left (as the keys of `sim` and the
    /// squares of `console`), with where it is. On 3 x 3 that is a word ("square 3 (top
    /// right)"); on bigger boards, its row and column counted from 1 ("square 7 (row 2,
    /// column 3)").
    ///
    /// ```
    /// use tictactoe_engine::game::Cell;
    /// assert_eq!(Cell { row: 1, col: 1 }.name(3), "square 5 (centre)");
    /// assert_eq!(Cell { row: 1, col: 2 }.name(4), "square 7 (row 2, column 3)");
    /// ```
    pub fn name(self, size: usize) -> String {
        let number = self.index(size) + 1;
        match self.place(size) {
            Some(place) => format!("square {number} ({place})"),
            None => format!(
                "square {number} (row {}, column {})",
                self.row + 1,
                self.col + 1
            ),
        }
    }

    /// Where the cell lies on a 3 x 3 board, in the words people use ("top left", "centre");
    /// `None` on other sizes, where cells go by number.
    pub fn place(self, size: usize) -> Option<&'static str> {
        const WORDS: [&str; 9] = [
            "top left",
            "top middle",
            "top right",
            "middle left",
            "centre",
            "middle right",
            "bottom left",
            "bottom middle",
            "bottom right",
        ];
        (size == 3).then(|| WORDS[self.index(3)])
    }

    /// The cell at a row-major index on a board of side `size`.
    pub fn from_index(index: usize, size: usize) -> Cell {
        Cell {
            row: index / size,
            col: index % size,
        }
    }

    /// The row-major index on a board of side `size`.
    pub fn index(self, size: usize) -> usize {
        self.row * size + self.col
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.row, self.col)
    }
}

/// Where a game stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The game goes on and this mark moves next.
    ToMove(Mark),
    /// `winner` has a full line; `line` holds its cells in order along the line, for the robot
    /// to strike through. Where a move completed several lines, the first in the order of
    /// [`winning_lines`](super::winning_lines) is given.
    Won { winner: Mark, line: Vec<Cell> },
    /// Every cell is taken and nobody has a line.
    Draw,
}

/// Why a text or a set of marks is not a position of the game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    #[error(
        "the board is empty: give the rows from top to bottom separated by '/', e.g. X.O/.X./..O"
    )]
    Empty,
    #[error("row {row} has {len} cells but the board has {rows} row{}: it must be square", if *rows == 1 { "" } else { "s" })]
    NotSquare { rows: usize, row: usize, len: usize },
    #[error(
        "row {row} is empty: a '/' too many? Rows are separated by '/', with none at either end"
    )]
    EmptyRow { row: usize },
    #[error("the board is {found}x{found} but the size asked for is {expected}x{expected}")]
    WrongSize { found: usize, expected: usize },
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error("bad character {ch:?} at row {row}, column {col}: a cell is X, O or '.'")]
    BadCharacter { ch: char, row: usize, col: usize },
    #[error("impossible counts: {x} X and {o} O (X moves first, so X has as many marks as O or one more)")]
    ImpossibleCounts { x: u32, o: u32 },
    #[error("impossible position: both X and O have {in_a_row} in a row")]
    BothWon { in_a_row: usize },
    #[error("impossible position: {winner} has {in_a_row} in a row but {loser} moved after that")]
    MovedAfterWin {
        winner: Mark,
        loser: Mark,
        in_a_row: usize,
    },
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("{cell} is off the {size}x{size} board")]
    OffBoard { cell: Cell, size: usize },
    #[error("{cell} already holds an {by}")]
    Occupied { cell: Cell, by: Mark },
    #[error("the game is already over")]
    GameOver,
}

/// A legal position: marks on a board, X having as many as O or one more, at most one winner.
///
/// ```
/// use tictactoe_engine::game::{Board, Cell, Mark, Status};
/// let board = Board::parse("XX./OO./...", None, None).unwrap();
/// assert_eq!(board.status(), Status::ToMove(Mark::X));
/// let won = board.play(Cell { row: 0, col: 2 }).unwrap();
/// assert!(matches!(won.status(), Status::Won { winner: Mark::X, .. }));
/// assert_eq!(won.to_string(), "XXX/OO./...");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rules: Rules,
    x: u128,
    o: u128,
}

impl Board {
    /// The empty board of a variant.
    pub fn empty(rules: Rules) -> Board {
        Board { rules, x: 0, o: 0 }
    }

    /// Reads the rows from top to bottom separated by `/`, each cell `X`, `O` or `.` (letters in
    /// either case). The size is taken from the text and, when `size` is given, must match it;
    /// `in_a_row` defaults to a whole row ([`Rules::whole_row`]).
    pub fn parse(
        text: &str,
        size: Option<usize>,
        in_a_row: Option<usize>,
    ) -> Result<Board, BoardError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(BoardError::Empty);
        }
        let rows: Vec<&str> = text.split('/').collect();
        if let Some(row) = rows.iter().position(|cells| cells.is_empty()) {
            return Err(BoardError::EmptyRow { row });
        }
        for (row, cells) in rows.iter().enumerate() {
            if let Some((col, ch)) = cells
                .chars()
                .enumerate()
                .find(|(_, ch)| !matches!(ch, 'X' | 'x' | 'O' | 'o' | '.'))
            {
                return Err(BoardError::BadCharacter { ch, row, col });
            }
        }
        let found = rows.len();
        for (row, cells) in rows.iter().enumerate() {
            let len = cells.chars().count();
            if len != found {
                return Err(BoardError::NotSquare {
                    rows: found,
                    row,
                    len,
                });
            }
        }
        if let Some(expected) = size {
            if found != expected {
                return Err(BoardError::WrongSize { found, expected });
            }
        }
        let rules = Rules::new(found, in_a_row.unwrap_or(found))?;
        let (mut x, mut o) = (0u128, 0u128);
        for (row, cells) in rows.iter().enumerate() {
            for (col, ch) in cells.chars().enumerate() {
                let bit = 1u128 << (row * found + col);
                match ch {
                    'X' | 'x' => x |= bit,
                    'O' | 'o' => o |= bit,
                    _ => {}
                }
            }
        }
        Board::from_bits(rules, x, o)
    }

    /// Builds a position from the cells of each player (bit `i` is row-major cell `i`), checking
    /// that it can arise in a game.
    pub fn from_bits(rules: Rules, x: u128, o: u128) -> Result<Board, BoardError> {
        let (nx, no) = (x.count_ones(), o.count_ones());
        let outside = !0u128 << rules.cells() >> rules.cells() << rules.cells();
        debug_assert!(x & o == 0 && (x | o) & outside == 0);
        if nx != no && nx != no + 1 {
            return Err(BoardError::ImpossibleCounts { x: nx, o: no });
        }
        let board = Board { rules, x, o };
        let in_a_row = rules.in_a_row();
        match (board.line_of(Mark::X), board.line_of(Mark::O)) {
            (Some(_), Some(_)) => Err(BoardError::BothWon { in_a_row }),
            (Some(_), None) if nx == no => Err(BoardError::MovedAfterWin {
                winner: Mark::X,
                loser: Mark::O,
                in_a_row,
            }),
            (None, Some(_)) if nx > no => Err(BoardError::MovedAfterWin {
                winner: Mark::O,
                loser: Mark::X,
                in_a_row,
            }),
            _ => Ok(board),
        }
    }

    /// The variant this board is played under.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The mark on a cell, if any. Cells off the board read as empty.
    pub fn get(&self, cell: Cell) -> Option<Mark> {
        if !self.on_board(cell) {
            return None;
        }
        let bit = 1u128 << cell.index(self.rules.size());
        if self.x & bit != 0 {
            Some(Mark::X)
        } else if self.o & bit != 0 {
            Some(Mark::O)
        } else {
            None
        }
    }

    /// The cells holding `mark`, as bits in row-major order.
    pub fn bits(&self, mark: Mark) -> u128 {
        match mark {
            Mark::X => self.x,
            Mark::O => self.o,
        }
    }

    /// How many marks `mark` has on the board.
    pub fn count(&self, mark: Mark) -> u32 {
        self.bits(mark).count_ones()
    }

    /// The mark whose turn it is by the counts (whether or not the game is over).
    pub fn side_to_move(&self) -> Mark {
        if self.x.count_ones() == self.o.count_ones() {
            Mark::X
        } else {
            Mark::O
        }
    }

    /// The empty cells, top left first.
    pub fn empty_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        let size = self.rules.size();
        (0..self.rules.cells())
            .filter(move |&i| (self.x | self.o) >> i & 1 == 0)
            .map(move |i| Cell::from_index(i, size))
    }

    /// Whether the game goes on, and if not, how it ended.
    pub fn status(&self) -> Status {
        for mark in [Mark::X, Mark::O] {
            if let Some(line) = self.line_of(mark) {
                let size = self.rules.size();
                let line = (0..self.rules.cells())
                    .filter(|&i| line >> i & 1 == 1)
                    .map(|i| Cell::from_index(i, size))
                    .collect();
                return Status::Won { winner: mark, line };
            }
        }
        if (self.x | self.o).count_ones() as usize == self.rules.cells() {
            Status::Draw
        } else {
            Status::ToMove(self.side_to_move())
        }
    }

    /// The board after the side to move marks `cell`.
    pub fn play(&self, cell: Cell) -> Result<Board, MoveError> {
        if !self.on_board(cell) {
            return Err(MoveError::OffBoard {
                cell,
                size: self.rules.size(),
            });
        }
        let Status::ToMove(mark) = self.status() else {
            return Err(MoveError::GameOver);
        };
        if let Some(by) = self.get(cell) {
            return Err(MoveError::Occupied { cell, by });
        }
        let bit = 1u128 << cell.index(self.rules.size());
        let mut next = *self;
        match mark {
            Mark::X => next.x |= bit,
            Mark::O => next.o |= bit,
        }
        Ok(next)
    }

    fn on_board(&self, cell: Cell) -> bool {
        cell.row < self.rules.size() && cell.col < self.rules.size()
    }

    fn line_of(&self, mark: Mark) -> Option<u128> {
        let mine = self.bits(mark);
        winning_lines(self.rules)
            .iter()
            .copied()
            .find(|&line| line & mine == line)
    }
}

impl fmt::Display for Board {
    /// The engine's text form: rows top to bottom separated by `/`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.rules.size();
        for row in 0..size {
            if row > 0 {
                f.write_str("/")?;
            }
            for col in 0..size {
                let ch = self
                    .get(Cell { row, col })
                    .map_or('.', |mark| mark.symbol());
                write!(f, "{ch}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        Board::parse(text, None, None).unwrap_err().to_string()
    }

    #[test]
    fn parsing_and_printing_round_trip() {
        for text in ["X.O/.X./..O", ".../.../...", "XO../..../..X./...."] {
            assert_eq!(Board::parse(text, None, None).unwrap().to_string(), text);
        }
        assert_eq!(
            Board::parse(" x.o/.x./..o\n", None, None)
                .unwrap()
                .to_string(),
            "X.O/.X./..O"
        );
    }

    #[test]
    fn each_malformed_board_names_its_problem() {
        assert!(err("").contains("empty"));
        assert_eq!(
            err("X../.../.."),
            "row 2 has 2 cells but the board has 3 rows: it must be square"
        );
        assert_eq!(
            err("X.Z/.../..."),
            "bad character 'Z' at row 0, column 2: a cell is X, O or '.'"
        );
        assert!(err("X../.../.../").starts_with("row 3 is empty: a '/' too many?"));
        assert!(err("/X../.../...").starts_with("row 0 is empty"));
        assert!(err("X..//.../...").starts_with("row 1 is empty"));
        assert!(err("XX./.../...").starts_with("impossible counts: 2 X and 0 O"));
        assert!(err("O../.../...").starts_with("impossible counts: 0 X and 1 O"));
        assert!(err("XXX/OOO/X..").contains("both X and O"));
        assert!(err("XXX/OO./O..").contains("X has 3 in a row but O moved after"));
        assert!(err("../..").contains("board size 2 is not supported"));
        assert_eq!(
            Board::parse(".../.../...", Some(4), None)
                .unwrap_err()
                .to_string(),
            "the board is 3x3 but the size asked for is 4x4"
        );
        assert!(Board::parse(".../.../...", None, Some(4))
            .unwrap_err()
            .to_string()
            .contains("4 in a row cannot be played on a 3x3 board"));
    }

    #[test]
    fn status_reports_winner_line_draw_and_turn() {
        let board = Board::parse("XO./XO./X..", None, None).unwrap();
        assert_eq!(
            board.status(),
            Status::Won {
                winner: Mark::X,
                line: vec![
                    Cell { row: 0, col: 0 },
                    Cell { row: 1, col: 0 },
                    Cell { row: 2, col: 0 }
                ]
            }
        );
        let draw = Board::parse("XOX/XOO/OXX", None, None).unwrap();
        assert_eq!(draw.status(), Status::Draw);
        let open = Board::parse("X../.../...", None, None).unwrap();
        assert_eq!(open.status(), Status::ToMove(Mark::O));
    }

    #[test]
    fn moves_are_refused_off_the_board_on_a_taken_cell_and_after_the_end() {
        let board = Board::parse("X../.../...", None, None).unwrap();
        assert_eq!(
            board.play(Cell { row: 0, col: 0 }),
            Err(MoveError::Occupied {
                cell: Cell { row: 0, col: 0 },
                by: Mark::X
            })
        );
        assert!(matches!(
            board.play(Cell { row: 3, col: 0 }),
            Err(MoveError::OffBoard { .. })
        ));
        let over = Board::parse("XXX/OO./...", None, None).unwrap();
        assert_eq!(over.play(Cell { row: 2, col: 2 }), Err(MoveError::GameOver));
    }
}
