//! The high scores: the scoring rules (pure) and the JSON file that keeps them ([`store`]).
//!
//! Scoring follows the original robot: beating the robot adds the level's points (1 on easy, 2 on
//! medium, 3 on hard) to the current score, a loss, a draw or an abandoned game sets it back to 0,
//! and each level keeps the best current score reached by a win there. Unlike the original, a
//! level's high score only moves on a win at that level (the original also copied a streak won
//! elsewhere into the level of a lost game). The human's wins, draws, losses and abandoned games
//! are counted per level, with the time of the last game.
//!
//! # The file (`scoreboard.json`, schema version 1)
//!
//! ```json
//! {
//!   "format": "ev3-tictactoe scoreboard",
//!   "version": 1,
//!   "current_score": 0,
//!   "levels": {
//!     "easy":   { "high_score": 0, "wins": 0, "draws": 0, "losses": 0, "abandoned": 0, "last_played": null },
//!     "medium": { "high_score": 0, "wins": 0, "draws": 0, "losses": 0, "abandoned": 0, "last_played": null },
//!     "hard":   { "high_score": 0, "wins": 0, "draws": 0, "losses": 0, "abandoned": 0, "last_played": null }
//!   }
//! }
//! ```
//!
//! - `format`: what the file is; a file without it is read as a scoreboard only if it has
//!   `levels` or `current_score` (it was written before the marker), so no other JSON is taken
//!   for one.
//! - `version`: the schema; a file without it is read as version 1, a newer one is set aside.
//! - `current_score`: the running score described above; counts are whole numbers from 0.
//! - `levels`: one record per difficulty name; a missing level reads as all zeros.
//! - `last_played`: when the last game at that level ended, RFC 3339 in UTC, or `null`.
//! - `two_people`: games two people played each other with the robot as referee (`x_wins`,
//!   `o_wins`, `draws`, `void`, `last_played`). They never touch `current_score` or `levels`:
//!   nobody beat the robot. The field is left out until the first such game.
//! - Any missing field reads as 0 (or `null`); fields this version does not know are kept as they
//!   are when the file is written back, so a newer program's additions survive an older one.

pub mod store;

use crate::ai::Difficulty;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::time::SystemTime;

/// The schema version this program writes.
pub const SCHEMA_VERSION: u32 = 1;

/// What every scoreboard file says it is, so that no other JSON is taken for one.
pub const FORMAT: &str = "ev3-tictactoe scoreboard";

/// How a game ended, from the human's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    HumanWon,
    Draw,
    HumanLost,
    /// The game was voided (two marks at once) or left before its end.
    Abandoned,
}

impl GameResult {
    /// In words, from the person's side: "a win for you".
    pub fn describe(self) -> &'static str {
        match self {
            GameResult::HumanWon => "a win for you",
            GameResult::Draw => "a draw",
            GameResult::HumanLost => "a loss for you",
            GameResult::Abandoned => "an abandoned game",
        }
    }
}

/// How a game between two people ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairResult {
    XWon,
    OWon,
    Draw,
    /// Several new marks at once, or left before its end.
    Void,
}

impl PairResult {
    pub fn describe(self) -> &'static str {
        match self {
            PairResult::XWon => "a win for X",
            PairResult::OWon => "a win for O",
            PairResult::Draw => "a draw",
            PairResult::Void => "a void game",
        }
    }
}

/// The games two people played each other, kept apart from the scores against the robot.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PairRecord {
    pub x_wins: u32,
    pub o_wins: u32,
    pub draws: u32,
    pub void: u32,
    pub last_played: Option<String>,
    #[serde(flatten)]
    pub unknown_fields: Map<String, Value>,
}

impl PairRecord {
    /// Every game the two people played, however it ended.
    pub fn games(&self) -> u32 {
        self.x_wins + self.o_wins + self.draws + self.void
    }
}

/// One level's record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LevelRecord {
    pub high_score: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub abandoned: u32,
    pub last_played: Option<String>,
    #[serde(flatten)]
    pub unknown_fields: Map<String, Value>,
}

impl LevelRecord {
    /// Every game played at the level, however it ended.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses + self.abandoned
    }
}

/// All scores, as stored in `scoreboard.json`.
///
/// ```
/// use ev3_tictactoe::ai::Difficulty;
/// use ev3_tictactoe::scoreboard::{GameResult, Scoreboard};
/// use std::time::SystemTime;
/// let mut scores = Scoreboard::new();
/// scores.record(&Difficulty::hard(), GameResult::HumanWon, SystemTime::UNIX_EPOCH);
/// scores.record(&Difficulty::easy(), GameResult::HumanWon, SystemTime::UNIX_EPOCH);
/// assert_eq!(scores.current_score, 4);
/// assert_eq!(scores.level("hard").high_score, 3);
/// assert_eq!(scores.level("easy").high_score, 4);
/// scores.record(&Difficulty::easy(), GameResult::Draw, SystemTime::UNIX_EPOCH);
/// assert_eq!(scores.current_score, 0);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Scoreboard {
    /// Always [`FORMAT`].
    pub format: String,
    pub version: u32,
    pub current_score: u32,
    pub levels: BTreeMap<String, LevelRecord>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub two_people: Option<PairRecord>,
    #[serde(flatten)]
    pub unknown_fields: Map<String, Value>,
}

/// What recording a game changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// Points the game added to the current score.
    pub points: u32,
    /// The current score after the game.
    pub current_score: u32,
    /// True when the game raised the level's high score.
    pub new_high_score: bool,
}

impl Default for Scoreboard {
    fn default() -> Self {
        Scoreboard::new()
    }
}

impl Scoreboard {
    /// All zeros, with a record for each built-in level.
    pub fn new() -> Scoreboard {
        Scoreboard {
            format: FORMAT.to_string(),
            version: SCHEMA_VERSION,
            current_score: 0,
            levels: Difficulty::levels()
                .into_iter()
                .map(|level| (level.name, LevelRecord::default()))
                .collect(),
            two_people: None,
            unknown_fields: Map::new(),
        }
    }

    /// The record of a level (zeros if it has none yet).
    pub fn level(&self, name: &str) -> LevelRecord {
        self.levels.get(name).cloned().unwrap_or_default()
    }

    /// Applies the scoring rules to a finished game played at `difficulty` that ended at `at`.
    pub fn record(
        &mut self,
        difficulty: &Difficulty,
        result: GameResult,
        at: SystemTime,
    ) -> Recorded {
        let record = self.levels.entry(difficulty.name.clone()).or_default();
        record.last_played = Some(humantime::format_rfc3339_seconds(at).to_string());
        let mut points = 0;
        let mut new_high_score = false;
        match result {
            GameResult::HumanWon => {
                record.wins = record.wins.saturating_add(1);
                points = difficulty.win_points;
                self.current_score = self.current_score.saturating_add(points);
                if self.current_score > record.high_score {
                    record.high_score = self.current_score;
                    new_high_score = true;
                }
            }
            GameResult::Draw => record.draws = record.draws.saturating_add(1),
            GameResult::HumanLost => record.losses = record.losses.saturating_add(1),
            GameResult::Abandoned => record.abandoned = record.abandoned.saturating_add(1),
        }
        if result != GameResult::HumanWon {
            self.current_score = 0;
        }
        Recorded {
            points,
            current_score: self.current_score,
            new_high_score,
        }
    }

    /// Counts a game two people played each other, ended at `at`. The robot's scores stay as
    /// they are.
    pub fn record_two_people(&mut self, result: PairResult, at: SystemTime) -> &PairRecord {
        let record = self.two_people.get_or_insert_with(PairRecord::default);
        record.last_played = Some(humantime::format_rfc3339_seconds(at).to_string());
        let count = match result {
            PairResult::XWon => &mut record.x_wins,
            PairResult::OWon => &mut record.o_wins,
            PairResult::Draw => &mut record.draws,
            PairResult::Void => &mut record.void,
        };
        *count = count.saturating_add(1);
        record
    }

    /// True once any game was recorded, or the file holds something this program does not
    /// know: then it is worth keeping a copy of.
    pub fn holds_a_game(&self) -> bool {
        self.current_score > 0
            || self.two_people.is_some()
            || !self.unknown_fields.is_empty()
            || self.levels.values().any(|level| {
                level.games() > 0
                    || level.high_score > 0
                    || level.last_played.is_some()
                    || !level.unknown_fields.is_empty()
            })
    }

    /// Level names for display: the built-in levels easiest first, then any others by name.
    pub fn level_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Difficulty::levels().into_iter().map(|l| l.name).collect();
        names.extend(
            self.levels
                .keys()
                .filter(|k| !names.contains(k))
                .cloned()
                .collect::<Vec<_>>(),
        );
        names
    }

    /// The scores as a table for a terminal (and, later, the brick's screen).
    pub fn render_table(&self) -> String {
        let mut out = format!("Current score: {}\n", self.current_score);
        out.push_str("level    high  wins draws losses abandoned  last game\n");
        for name in self.level_names() {
            let r = self.level(&name);
            out.push_str(&format!(
                "{:<8} {:>4} {:>5} {:>5} {:>6} {:>9}  {}\n",
                name,
                r.high_score,
                r.wins,
                r.draws,
                r.losses,
                r.abandoned,
                r.last_played.as_deref().unwrap_or("never")
            ));
        }
        if let Some(pair) = &self.two_people {
            out.push_str(&format!(
                "\nTwo people (the robot as referee): X won {}, O won {}, draws {}, void {}; last game {}\n",
                pair.x_wins,
                pair.o_wins,
                pair.draws,
                pair.void,
                pair.last_played.as_deref().unwrap_or("never")
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at() -> SystemTime {
        SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000)
    }

    #[test]
    fn a_win_adds_the_level_points_and_raises_that_levels_high_score() {
        let mut scores = Scoreboard::new();
        let won = scores.record(&Difficulty::medium(), GameResult::HumanWon, at());
        assert_eq!(
            won,
            Recorded {
                points: 2,
                current_score: 2,
                new_high_score: true
            }
        );
        let won = scores.record(&Difficulty::medium(), GameResult::HumanWon, at());
        assert_eq!(won.current_score, 4);
        assert_eq!(scores.level("medium").high_score, 4);
        assert_eq!(scores.level("medium").wins, 2);
        assert_eq!(scores.level("easy").high_score, 0);
        assert_eq!(
            scores.level("medium").last_played.as_deref(),
            Some("2023-11-14T22:13:20Z")
        );
    }

    #[test]
    fn a_loss_a_draw_or_an_abandoned_game_resets_the_current_score_but_not_high_scores() {
        type Counter = fn(&LevelRecord) -> u32;
        let counters: [(GameResult, Counter); 3] = [
            (GameResult::HumanLost, |r| r.losses),
            (GameResult::Draw, |r| r.draws),
            (GameResult::Abandoned, |r| r.abandoned),
        ];
        for (result, counted) in counters {
            let mut scores = Scoreboard::new();
            scores.record(&Difficulty::hard(), GameResult::HumanWon, at());
            scores.record(&Difficulty::hard(), GameResult::HumanWon, at());
            let after = scores.record(&Difficulty::hard(), result, at());
            assert_eq!(after.current_score, 0, "{result:?}");
            assert_eq!(after.points, 0);
            assert!(!after.new_high_score);
            assert_eq!(scores.level("hard").high_score, 6);
            assert_eq!(counted(&scores.level("hard")), 1, "{result:?}");
        }
    }

    #[test]
    fn a_lower_streak_does_not_lower_a_high_score() {
        let mut scores = Scoreboard::new();
        for _ in 0..3 {
            scores.record(&Difficulty::easy(), GameResult::HumanWon, at());
        }
        scores.record(&Difficulty::easy(), GameResult::HumanLost, at());
        let again = scores.record(&Difficulty::easy(), GameResult::HumanWon, at());
        assert!(!again.new_high_score);
        assert_eq!(scores.level("easy").high_score, 3);
    }

    #[test]
    fn missing_fields_read_as_zero_and_unknown_fields_survive_a_round_trip() {
        let text = r#"{"current_score": 5, "levels": {"hard": {"wins": 2, "colour": "red"}},
                       "owner": "Ada"}"#;
        let scores: Scoreboard = serde_json::from_str(text).unwrap();
        assert_eq!(scores.version, SCHEMA_VERSION);
        assert_eq!(scores.current_score, 5);
        assert_eq!(scores.level("hard").wins, 2);
        assert_eq!(scores.level("hard").high_score, 0);
        let written = serde_json::to_value(&scores).unwrap();
        assert_eq!(written["owner"], "Ada");
        assert_eq!(written["levels"]["hard"]["colour"], "red");
        let again: Scoreboard = serde_json::from_value(written).unwrap();
        assert_eq!(again, scores);
    }

    #[test]
    fn the_table_lists_every_level_easiest_first() {
        let table = Scoreboard::new().render_table();
        let easy = table.find("easy").unwrap();
        let medium = table.find("medium").unwrap();
        let hard = table.find("hard").unwrap();
        assert!(easy < medium && medium < hard, "{table}");
        assert!(table.contains("never"));
    }
}
