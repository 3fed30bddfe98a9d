//! A game between two people with the robot as referee: the same sheet, grid and reading as a
//! game against the robot ([`super::game`]), every turn a person's, and the result kept in the
//! scoreboard's two-person record, apart from the robot's scores.

use super::game::{Finish, Players};
use super::journal::{GameJournal, TWO_PEOPLE};
use super::{Flow, Program, Stop};
use crate::game::{Board, Cell, Mark};
use crate::motion::gantry::BlankPaper;
use crate::scoreboard::{PairRecord, PairResult};
use crate::ui::cues::{Activity, Cue};
use crate::ui::view::View;
use anyhow::Context;
use std::time::{Duration, SystemTime};

/// A finished game between two people.
#[derive(Debug, Clone)]
pub struct RefereeReport {
    /// Every move in order.
    pub moves: Vec<(Mark, Cell)>,
    pub board: Board,
    pub result: PairResult,
    /// The two-person record after the game.
    pub record: PairRecord,
    /// The winning line as struck, if anyone won.
    pub line: Option<Vec<Cell>>,
    /// Robot-clock time from the start of homing to the end.
    pub took: Duration,
    /// The screen that announced the result.
    pub result_view: View,
}

impl Program<'_> {
    /// Referees one game between two people: draws the grid, reads each move, strikes the
    /// winning line, and keeps the result in the two-person record. The robot's scores are not
    /// touched. An idle timeout while waiting for a move counts the game as void.
    pub fn referee_game(&mut self) -> Flow<RefereeReport> {
        self.scores
            .check_usable()
            .context("the scoreboard cannot keep this game's result")?;
        let started = self.gantry.clock().now();
        log::info!("game: two people, the robot as referee");
        if self.sheet_used {
            self.gantry.park()?;
            self.ask_for_a_fresh_sheet("The last game is on this sheet.")?;
        }
        let players = Players::TwoPeople;
        let blank = match self.set_up_sheet(&players) {
            Ok(blank) => blank,
            Err(Stop::Idle) => {
                self.record_two_people(PairResult::Void)?;
                return Err(Stop::Idle);
            }
            Err(other) => return Err(other),
        };
        let journal = GameJournal::new(TWO_PEOPLE, Mark::X, &blank);
        self.keep_journal(&journal);
        let board = Board::empty(self.rules());
        self.referee_on(blank, board, journal, started)
    }

    /// Referees the game between two people that `journal` holds to its end from `board`,
    /// records it apart from the robot's scores and shows the result.
    pub(super) fn referee_on(
        &mut self,
        mut blank: BlankPaper,
        mut board: Board,
        mut journal: GameJournal,
        started: Duration,
    ) -> Flow<RefereeReport> {
        let players = Players::TwoPeople;
        let finish = match self.turns(&players, &mut blank, &mut board, &mut journal) {
            Ok(finish) => finish,
            Err(Stop::Idle) => {
                self.record_two_people(PairResult::Void)?;
                self.journal.clear();
                return Err(Stop::Idle);
            }
            // Anything else may end the program: the journal stays for the next run.
            Err(other) => return Err(other),
        };
        let (result, title, summary) = match &finish {
            Finish::Won {
                winner: Mark::X, ..
            } => (PairResult::XWon, "X wins!", "Well played, X.".to_string()),
            Finish::Won {
                winner: Mark::O, ..
            } => (PairResult::OWon, "O wins!", "Well played, O.".to_string()),
            Finish::Draw => (PairResult::Draw, "A draw", "Nobody has a line.".to_string()),
            Finish::Void { squares } => (
                PairResult::Void,
                "Game void",
                format!(
                    "I saw new marks at {}: one at a time, please.",
                    self.list(squares)
                ),
            ),
        };
        let record = self.record_two_people(result)?;
        self.journal.clear();
        let line = match finish {
            Finish::Won { line, .. } => {
                self.strike(&line)?;
                Some(line)
            }
            _ => None,
        };
        self.gantry.park()?;
        self.panel.activity(Activity::Menu);
        self.panel.cue(match result {
            PairResult::Void => Cue::Invalid,
            PairResult::Draw => Cue::Draw,
            _ => Cue::HumanWon,
        });
        let result_view = View {
            title: title.into(),
            paragraphs: vec![
                summary,
                format!(
                    "Two people: X {} O {}, {} drawn",
                    record.x_wins, record.o_wins, record.draws
                ),
            ],
            board: Some(board),
        };
        self.panel.show(result_view.clone());
        let took = self.gantry.clock().now() - started;
        log::info!(
            "game over: {} after {} moves, {:.1} s",
            result.describe(),
            journal.moves.len(),
            took.as_secs_f64()
        );
        Ok(RefereeReport {
            moves: journal.marked().collect(),
            board,
            result,
            record,
            line,
            took,
            result_view,
        })
    }

    pub(super) fn record_two_people(&mut self, result: PairResult) -> Flow<PairRecord> {
        let at = SystemTime::now();
        match self.scores.record_two_people(result, at) {
            Ok((record, notice)) => {
                if let Some(notice) = notice {
                    self.panel.note(&notice.to_string());
                }
                log::info!(
                    "recorded {} between two people: X {} O {}, {} drawn, {} void",
                    result.describe(),
                    record.x_wins,
                    record.o_wins,
                    record.draws,
                    record.void
                );
                Ok(record)
            }
            Err(error) => {
                let kept = match self.scores.save_unrecorded("two people", result, at) {
                    Ok(path) => format!("the result is kept in {}", path.display()),
                    Err(why) => format!("and could not be kept beside it either: {why}"),
                };
                log::error!(
                    "recording {} between two people failed: {error}; {kept}",
                    result.describe()
                );
                Err(Stop::Failed(
                    anyhow::Error::new(error).context(format!("recording the game ({kept})")),
                ))
            }
        }
    }
}
