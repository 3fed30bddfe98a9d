//! The game in progress, kept beside the scoreboard after every move, so a game the program
//! did not live to finish (a crash, a kill, a flat battery) can be taken up again: the next run
//! homes, reads the paper, checks it against these moves and plays on.
//!
//! The file (`<scoreboard>.game-in-progress`) is written atomically like the scoreboard, and
//! removed once the game's result is recorded. It holds the blank paper read when the grid was
//! drawn, since the marks now on the sheet would hide it.

use crate::game::{Cell, Mark};
use crate::motion::gantry::BlankPaper;
use crate::motion::sensing::BlankSquare;
use crate::scoreboard::store::ScoreFile;
use atomic_write_file::AtomicWriteFile;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What the file says it is.
const FORMAT: &str = "ev3-tictactoe game in progress";

/// How many readings a journalled square's blank level is taken to rest on.
const JOURNALLED_BLANK_READINGS: usize = 4;

/// The level a game between two people is journalled at: no difficulty has a space in its name.
pub const TWO_PEOPLE: &str = "two people";

/// A game in progress, as journalled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameJournal {
    format: String,
    /// The level's name ("hard"), or [`TWO_PEOPLE`] for a game the robot referees.
    pub level: String,
    /// The person's mark (X moves first).
    pub human: Mark,
    /// Every move so far, X's first.
    pub moves: Vec<Cell>,
    /// Each square's blank paper (level, noise) in percent, row by row.
    blank: Vec<(f64, f64)>,
    /// Squares whose paper holds ink that is no one's move (see [`BlankPaper::stray_ink`]).
    #[serde(default)]
    stray_ink: Vec<Cell>,
}

impl GameJournal {
    pub fn new(level: &str, human: Mark, blank: &BlankPaper) -> GameJournal {
        let mut journal = GameJournal {
            format: FORMAT.to_string(),
            level: level.to_string(),
            human,
            moves: Vec::new(),
            blank: Vec::new(),
            stray_ink: Vec::new(),
        };
        journal.keep_blank(blank);
        journal
    }

    /// Keeps `blank` as the game's blank paper: a square the person said holds no mark of
    /// theirs is taken as paper as it read then (see [`BlankPaper::take_as_paper`]).
    pub fn keep_blank(&mut self, blank: &BlankPaper) {
        self.blank = blank.squares.iter().map(|s| (s.level, s.noise)).collect();
        self.stray_ink = blank.stray_ink.clone();
    }

    /// The blank paper as it was read before the first move, with any square taken as paper
    /// since.
    pub fn blank(&self) -> Option<BlankPaper> {
        let squares: Vec<BlankSquare> = self
            .blank
            .iter()
            // The journal keeps level and noise; the count behind them is taken as a first
            // look's few, which only makes later comparisons with the level more careful.
            .map(|&(level, noise)| BlankSquare {
                level,
                noise,
                readings: JOURNALLED_BLANK_READINGS,
                light_share: 0.0,
            })
            .collect();
        let size = (1..=crate::game::MAX_SIZE).find(|n| n * n == squares.len())?;
        let mut blank = BlankPaper::new(size, squares)?;
        blank.stray_ink = self.stray_ink.clone();
        Some(blank)
    }

    /// The mark each move put down, in order.
    pub fn marked(&self) -> impl Iterator<Item = (Mark, Cell)> + '_ {
        self.moves.iter().enumerate().map(|(i, &cell)| {
            let mark = if i % 2 == 0 { Mark::X } else { Mark::O };
            (mark, cell)
        })
    }
}

/// The journal's file, beside the scoreboard.
#[derive(Debug, Clone)]
pub struct JournalFile {
    path: PathBuf,
}

impl JournalFile {
    pub fn beside(scores: &ScoreFile) -> JournalFile {
        let mut name = scores
            .path()
            .file_name()
            .map(|n| n.to_os_string())
            .unwrap_or_else(|| "scoreboard.json".into());
        name.push(".game-in-progress");
        JournalFile {
            path: scores.path().with_file_name(name),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes the journal whole, replacing the last one.
    pub fn save(&self, journal: &GameJournal) -> std::io::Result<()> {
        let text = serde_json::to_vec_pretty(journal).map_err(std::io::Error::other)?;
        let mut file = AtomicWriteFile::open(&self.path)?;
        file.write_all(&text)?;
        file.commit()
    }

    /// The game in progress, if one was cut short; `Err` if the file cannot be used.
    pub fn load(&self) -> Result<Option<GameJournal>, String> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot read {}: {e}", self.path.display())),
        };
        let journal: GameJournal = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not a game journal: {e}", self.path.display()))?;
        if journal.format != FORMAT || journal.blank().is_none() {
            return Err(format!("{} is not a game journal", self.path.display()));
        }
        Ok(Some(journal))
    }

    /// The game is over and recorded (or given up): nothing to take up again.
    pub fn clear(&self) {
        if let Err(error) = std::fs::remove_file(&self.path) {
            if error.kind() != std::io::ErrorKind::NotFound {
                log::warn!("cannot remove {}: {error}", self.path.display());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paper() -> BlankPaper {
        let square = BlankSquare {
            level: 80.0,
            noise: 1.0,
            readings: 12,
            light_share: 0.0,
        };
        BlankPaper::new(3, vec![square; 9]).unwrap()
    }

    #[test]
    fn a_square_taken_as_paper_mid_game_is_journalled_with_its_new_level_and_its_ink() {
        let mut blank = paper();
        let mut journal = GameJournal::new("hard", Mark::X, &blank);
        let smudged = Cell { row: 2, col: 0 };
        blank.take_as_paper(smudged, 0.10);
        journal.keep_blank(&blank);
        let text = serde_json::to_string(&journal).unwrap();
        let back: GameJournal = serde_json::from_str(&text).unwrap();
        let taken_up = back.blank().unwrap();
        assert!((taken_up.of(smudged).level - 72.0).abs() < 1e-9);
        assert_eq!(taken_up.of(Cell { row: 0, col: 0 }).level, 80.0);
        assert_eq!(taken_up.stray_ink, vec![smudged]);
    }

    #[test]
    fn a_journal_written_before_stray_ink_was_kept_loads_with_none() {
        let journal = GameJournal::new("hard", Mark::X, &paper());
        let mut value = serde_json::to_value(&journal).unwrap();
        value.as_object_mut().unwrap().remove("stray_ink");
        let back: GameJournal = serde_json::from_value(value).unwrap();
        assert!(back.blank().unwrap().stray_ink.is_empty());
    }
}
