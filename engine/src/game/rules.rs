//! Which game is being played: the board's size and how many marks in a row win.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Smallest board side the firmware plays on.
pub const MIN_SIZE: usize = 3;
/// Largest board side: 100 cells still fit one `u128` per player.
pub const MAX_SIZE: usize = 10;

/// The variant of noughts and crosses: an `size` x `size` board where `in_a_row` marks in a row,
/// column or diagonal win. X always moves first.
///
/// ```
/// use tictactoe_engine::game::Rules;
/// let classic = Rules::classic();
/// assert_eq!((classic.size(), classic.in_a_row()), (3, 3));
/// assert!(Rules::new(4, 5).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RulesRepr", into = "RulesRepr")]
pub struct Rules {
    size: usize,
    in_a_row: usize,
}

/// A size or run length that no game can have.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    /// The board side is outside 3..=10.
    #[error("board size {size} is not supported: it must be from {MIN_SIZE} to {MAX_SIZE}")]
    SizeOutOfRange { size: usize },
    /// The winning run is shorter than 3 or longer than the board side.
    #[error("{in_a_row} in a row cannot be played on a {size}x{size} board: it must be from 3 to {size}")]
    InARowOutOfRange { size: usize, in_a_row: usize },
}

impl Rules {
    /// Checks and builds a variant.
    pub fn new(size: usize, in_a_row: usize) -> Result<Rules, RulesError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(RulesError::SizeOutOfRange { size });
        }
        if !(3..=size).contains(&in_a_row) {
            return Err(RulesError::InARowOutOfRange { size, in_a_row });
        }
        Ok(Rules { size, in_a_row })
    }

    /// The variant played when only the size is given: a whole row, column or diagonal wins,
    /// as in the classic game (so 4 x 4 is the usual four-in-a-row variant).
    pub fn whole_row(size: usize) -> Result<Rules, RulesError> {
        Rules::new(size, size)
    }

    /// 3 x 3, three in a row: the game the robot draws on paper.
    pub const fn classic() -> Rules {
        Rules {
            size: 3,
            in_a_row: 3,
        }
    }

    /// Cells along one side.
    pub const fn size(self) -> usize {
        self.size
    }

    /// Marks in a row needed to win.
    pub const fn in_a_row(self) -> usize {
        self.in_a_row
    }

    /// Cells on the board.
    pub const fn cells(self) -> usize {
        self.size * self.size
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::classic()
    }
}

impl std::fmt::Display for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{0}x{0}, {1} in a row", self.size, self.in_a_row)
    }
}

#[derive(Serialize, Deserialize)]
struct RulesRepr {
    size: usize,
    in_a_row: usize,
}

impl TryFrom<RulesRepr> for Rules {
    type Error = RulesError;
    fn try_from(repr: RulesRepr) -> Result<Rules, RulesError> {
        Rules::new(repr.size, repr.in_a_row)
    }
}

impl From<Rules> for RulesRepr {
    fn from(rules: Rules) -> RulesRepr {
        RulesRepr {
            size: rules.size,
            in_a_row: rules.in_a_row,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_from_three_to_ten_with_every_run_up_to_the_side_is_accepted() {
        for size in 3..=10 {
            for in_a_row in 3..=size {
                assert!(Rules::new(size, in_a_row).is_ok(), "{size} {in_a_row}");
            }
        }
    }

    #[test]
    fn out_of_range_variants_say_which_number_is_wrong() {
        assert_eq!(
            Rules::new(11, 3).unwrap_err().to_string(),
            "board size 11 is not supported: it must be from 3 to 10"
        );
        assert_eq!(
            Rules::new(5, 6).unwrap_err().to_string(),
            "6 in a row cannot be played on a 5x5 board: it must be from 3 to 5"
        );
        assert!(Rules::new(4, 2).is_err());
    }
}
