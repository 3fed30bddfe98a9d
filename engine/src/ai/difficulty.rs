//! Difficulty levels as data: a name, how often the best move is played, and what beating the
//! level is worth on the scoreboard.

use crate::game::Cell;
use rand::Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A level of play.
///
/// ```
/// use tictactoe_engine::ai::Difficulty;
/// let medium = Difficulty::named("medium").unwrap();
/// assert_eq!(medium.optimal_move_probability, 0.5);
/// assert_eq!(medium.win_points, 2);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Difficulty {
    /// What the menu and the scoreboard call it.
    pub name: String,
    /// The chance, from 0 to 1, that a move is one of the engine's best moves; otherwise the move
    /// is drawn uniformly from all legal moves (which may happen to be a best one too).
    pub optimal_move_probability: f64,
    /// What a human win at this level adds to the current score.
    pub win_points: u32,
}

/// A name that is not a level.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown difficulty {name:?}: choose easy, medium, hard or a percentage of best moves from 0% to 100%")]
pub struct DifficultyError {
    pub name: String,
}

/// How a move was picked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    pub cell: Cell,
    /// True when the level decided to play a best move (rather than a random one).
    pub played_best: bool,
}

impl Difficulty {
    /// A random legal move, always. A win is worth 1 point.
    pub fn easy() -> Difficulty {
        Difficulty::new("easy", 0.0, 1)
    }

    /// A best move half the time, a random one otherwise, as the original robot did. 2 points.
    pub fn medium() -> Difficulty {
        Difficulty::new("medium", 0.5, 2)
    }

    /// Always a best move: never loses where the search is exact. 3 points.
    pub fn hard() -> Difficulty {
        Difficulty::new("hard", 1.0, 3)
    }

    /// The three built-in levels, easiest first.
    pub fn levels() -> [Difficulty; 3] {
        [Difficulty::easy(), Difficulty::medium(), Difficulty::hard()]
    }

    /// The built-in level of that name (any case).
    pub fn named(name: &str) -> Result<Difficulty, DifficultyError> {
        Difficulty::levels()
            .into_iter()
            .find(|level| level.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| DifficultyError {
                name: name.to_string(),
            })
    }

    /// The level that plays a best move `percent` times in a hundred, as the LED game (seed 001)
    /// offers 50, 75 and 100 %. It is named by its percentage ("75%"), and a win is worth
    /// points as the named levels below it: 1 under 50 %, 2 from 50 %, 3 at 100 %.
    ///
    /// ```
    /// use tictactoe_engine::ai::Difficulty;
    /// let level = Difficulty::best_moves_percent(75).unwrap();
    /// assert_eq!((level.name.as_str(), level.win_points), ("75%", 2));
    /// assert_eq!(level.optimal_move_probability, 0.75);
    /// ```
    pub fn best_moves_percent(percent: u32) -> Result<Difficulty, DifficultyError> {
        if percent > 100 {
            return Err(DifficultyError {
                name: format!("{percent}%"),
            });
        }
        Ok(Difficulty::new(
            &format!("{percent}%"),
            f64::from(percent) / 100.0,
            1 + percent / 50,
        ))
    }

    /// A built-in level's name (any case) or a percentage of best moves ("75%").
    ///
    /// ```
    /// use tictactoe_engine::ai::Difficulty;
    /// assert_eq!(Difficulty::parse("Hard").unwrap(), Difficulty::hard());
    /// assert_eq!(Difficulty::parse("75%").unwrap().name, "75%");
    /// assert!(Difficulty::parse("120%").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Difficulty, DifficultyError> {
        let Some(number) = text.trim().strip_suffix('%') else {
            return Difficulty::named(text);
        };
        let unknown = || DifficultyError {
            name: text.to_string(),
        };
        let percent = number.trim().parse::<u32>().map_err(|_| unknown())?;
        Difficulty::best_moves_percent(percent).map_err(|_| unknown())
    }

    /// A level of one's own, as a robot config names the menu's levels.
    pub fn new(name: &str, optimal_move_probability: f64, win_points: u32) -> Difficulty {
        Difficulty {
            name: name.to_string(),
            optimal_move_probability,
            win_points,
        }
    }

    /// Picks a move: with the level's probability one of `best` uniformly, otherwise one of
    /// `legal` uniformly. Both lists must be non-empty. A probability outside 0 to 1 counts as
    /// the nearest bound, and one that is not a number as 0.
    pub fn choose<R: Rng + ?Sized>(&self, best: &[Cell], legal: &[Cell], rng: &mut R) -> Choice {
        let p = self.optimal_move_probability;
        let probability = if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
        let played_best = rng.random_bool(probability);
        let pool = if played_best { best } else { legal };
        Choice {
            cell: pool[rng.random_range(0..pool.len())],
            played_best,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn levels_are_found_by_name_in_any_case_and_unknown_names_are_named() {
        assert_eq!(Difficulty::named("HARD").unwrap(), Difficulty::hard());
        assert_eq!(
            Difficulty::named("expert").unwrap_err().to_string(),
            "unknown difficulty \"expert\": choose easy, medium, hard or a percentage of best moves from 0% to 100%"
        );
    }

    #[test]
    fn a_probability_out_of_range_or_not_a_number_is_bounded_not_a_panic() {
        let best = [Cell { row: 1, col: 1 }];
        let legal: Vec<Cell> = (0..9).map(|i| Cell::from_index(i, 3)).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let level = |p| Difficulty::new("odd", p, 1);
        for _ in 0..50 {
            assert!(level(7.0).choose(&best, &legal, &mut rng).played_best);
            assert!(!level(-1.0).choose(&best, &legal, &mut rng).played_best);
            assert!(!level(f64::NAN).choose(&best, &legal, &mut rng).played_best);
        }
    }

    #[test]
    fn hard_only_picks_from_the_best_moves_and_spreads_over_all_of_them() {
        let best = [Cell { row: 0, col: 0 }, Cell { row: 2, col: 2 }];
        let legal: Vec<Cell> = (0..9).map(|i| Cell::from_index(i, 3)).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let picks: Vec<Cell> = (0..200)
            .map(|_| Difficulty::hard().choose(&best, &legal, &mut rng).cell)
            .collect();
        assert!(picks.iter().all(|c| best.contains(c)));
        assert!(best.iter().all(|b| picks.contains(b)));
    }
}
