//! Taking up a game the program did not live to finish (see [`super::journal`]): ask, home,
//! read the sheet, check it holds the journalled moves and nothing else, then play on.

use super::game::{GameReport, Players};
use super::journal::{GameJournal, TWO_PEOPLE};
use super::referee::RefereeReport;
use super::{Flow, Program, Stop};
use crate::ai::Difficulty;
use crate::game::{Board, Cell, Mark, Status};
use crate::motion::sensing::NewMarks;
use crate::scoreboard::GameResult;
use crate::ui::cues::{Activity, Cue};
use crate::ui::menu::Key;
use crate::ui::view::View;

/// A game the program did not live to finish, taken up again and played to its end.
#[derive(Debug, Clone)]
pub enum TakenUp {
    AgainstRobot(GameReport),
    TwoPeople(RefereeReport),
}

impl TakenUp {
    pub fn against_robot(self) -> Option<GameReport> {
        match self {
            TakenUp::AgainstRobot(game) => Some(game),
            TakenUp::TwoPeople(_) => None,
        }
    }

    pub fn two_people(self) -> Option<RefereeReport> {
        match self {
            TakenUp::TwoPeople(game) => Some(game),
            TakenUp::AgainstRobot(_) => None,
        }
    }
}

impl Program<'_> {
    /// Keeps `journal` beside the scores; a journal that cannot be written costs only the
    /// chance to resume, so it is said, not fatal.
    pub(super) fn keep_journal(&mut self, journal: &GameJournal) {
        if !self.settings.resumable {
            return;
        }
        if let Err(error) = self.journal.save(journal) {
            log::warn!(
                "cannot keep the game in progress in {}: {error}",
                self.journal.path().display()
            );
        }
    }

    /// If a game was cut short, offers to go on with it and, if the person wants to, plays it
    /// to its end. Giving it up counts it as abandoned.
    pub(super) fn take_up_a_cut_short_game(&mut self) -> Flow<Option<TakenUp>> {
        if !self.settings.resumable {
            return Ok(None);
        }
        let journal = match self.journal.load() {
            Ok(None) => return Ok(None),
            Ok(Some(journal)) => journal,
            Err(why) => {
                self.panel.note(&format!(
                    "A game in progress was kept, but {why}; it is ignored."
                ));
                self.journal.clear();
                return Ok(None);
            }
        };
        let players = if journal.level == TWO_PEOPLE {
            Players::TwoPeople
        } else if let Some(difficulty) = self.level_named(&journal.level) {
            Players::AgainstRobot {
                difficulty,
                human: journal.human,
            }
        } else {
            self.panel.note(&format!(
                "A game at level {:?} was cut short; this program has no such level, so it is \
                 ignored.",
                journal.level
            ));
            self.journal.clear();
            return Ok(None);
        };
        let size = self.rules().size();
        if journal.blank().map(|blank| blank.size) != Some(size) {
            self.panel.note(&format!(
                "A game on another board was cut short; this robot now draws {size} x {size}, \
                 so it is ignored."
            ));
            self.journal.clear();
            return Ok(None);
        }
        let mut board = Board::empty(self.rules());
        for &cell in &journal.moves {
            match board.play(cell) {
                Ok(next) => board = next,
                Err(error) => {
                    self.panel.note(&format!(
                        "The game that was cut short cannot be replayed ({error}); it is ignored."
                    ));
                    self.journal.clear();
                    return Ok(None);
                }
            }
        }
        log::info!(
            "a game at {} was cut short after {} moves",
            journal.level,
            journal.moves.len()
        );
        if !self.person_wants_to_go_on(&journal, &board)? {
            self.give_up(&players)?;
            self.journal.clear();
            return Ok(None);
        }
        let started = self.gantry.clock().now();
        self.panel.activity(Activity::Busy);
        self.panel.show(
            View::new(
                "Going on",
                &["Finding the end stops, then reading the sheet. Hands off the robot."],
            )
            .with_board(&board),
        );
        let homing = self.gantry.home()?;
        log::info!("{homing}");
        let blank = journal
            .blank()
            .expect("a loaded journal has its blank paper");
        let empty: Vec<Cell> = board.empty_cells().collect();
        // Every mark on the sheet so far, whoever drew it: each must still be there.
        let drawn: Vec<(Cell, Mark)> = journal
            .moves
            .iter()
            .filter_map(|&cell| board.get(cell).map(|mark| (cell, mark)))
            .collect();
        let (seen, readings, checks) = self.gantry.read_board(&blank, &empty, &drawn)?;
        // A mark the first look did not see gets the closer look a game gives the robot's own
        // marks before it is called missing: a doubt is not a sheet that does not match.
        let mut missing: Vec<Cell> = Vec::new();
        for check in checks.iter().filter(|check| !check.seen) {
            let name = self.gantry.square_name(check.cell);
            let closer = self
                .gantry
                .look_closely_at_own(&blank, check.cell, check.mark)?;
            match closer {
                Some(fit) if fit.seen() => log::info!(
                    "the {} at {name} was not seen on the first look; a closer look finds it: {}",
                    check.mark,
                    fit.describe()
                ),
                other => {
                    log::info!(
                        "the {} at {name} is not seen on a closer look either ({})",
                        check.mark,
                        other.map_or("no reading where its ink should be".into(), |f| f
                            .describe())
                    );
                    missing.push(check.cell);
                }
            }
        }
        for reading in &readings {
            log::info!(
                "read {}: {}",
                self.gantry.square_name(reading.cell),
                reading.describe()
            );
        }
        self.gantry.park()?;
        let human_to_move =
            matches!(board.status(), Status::ToMove(mark) if players.person_plays(mark));
        let mut journal = journal;
        let mut problems: Vec<String> = missing
            .iter()
            .map(|&cell| {
                let mark = board
                    .get(cell)
                    .map_or_else(|| "?".into(), |m| m.to_string());
                format!(
                    "{} should hold {mark} but looks blank",
                    self.gantry.square_name(cell)
                )
            })
            .collect();
        match seen {
            NewMarks::None => {}
            // Drawn while the program was away: the person's move.
            NewMarks::One(cell) if human_to_move && problems.is_empty() => {
                log::info!(
                    "the person moved at {} while the program was away",
                    self.gantry.square_name(cell)
                );
                board = board.play(cell).map_err(|e| Stop::Failed(e.into()))?;
                journal.moves.push(cell);
                self.keep_journal(&journal);
            }
            NewMarks::One(cell) => problems.push(format!(
                "{} has a mark this game does not know",
                self.gantry.square_name(cell)
            )),
            NewMarks::Several(cells) => problems.extend(cells.iter().map(|&cell| {
                format!(
                    "{} has a mark this game does not know",
                    self.gantry.square_name(cell)
                )
            })),
        }
        if !problems.is_empty() {
            let said = problems.join("; ");
            log::warn!("the sheet does not match the game that was cut short: {said}");
            self.give_up(&players)?;
            self.journal.clear();
            self.panel.cue(Cue::Invalid);
            self.panel.show(
                View::new(
                    "Not the same sheet",
                    &[
                        &format!("This sheet does not match the game that was cut short: {said}."),
                        "That game counts as abandoned. Put in a fresh sheet for the next one.",
                    ],
                )
                .with_board(&board),
            );
            self.pause(self.settings.result_shown_for)?;
            return Ok(None);
        }
        // This sheet holds a game now: the next one asks for a fresh sheet.
        self.sheet_used = true;
        match players {
            Players::AgainstRobot { difficulty, .. } => self
                .play_on(&difficulty, blank, board, journal, started)
                .map(|game| Some(TakenUp::AgainstRobot(game))),
            Players::TwoPeople => self
                .referee_on(blank, board, journal, started)
                .map(|game| Some(TakenUp::TwoPeople(game))),
        }
    }

    /// The level a journal names, as this robot plays it: one of its menu's, or a built-in
    /// level or percentage (with the config's points if it names one so).
    fn level_named(&self, name: &str) -> Option<Difficulty> {
        self.menu_levels
            .iter()
            .find(|level| level.name == name)
            .cloned()
            .or_else(|| {
                Difficulty::parse(name)
                    .ok()
                    .map(|level| self.gantry.config().level(&level))
            })
    }

    /// Counts a game cut short that will not be played on: abandoned against the robot, void
    /// between two people.
    fn give_up(&mut self, players: &Players) -> Flow<()> {
        match players {
            Players::AgainstRobot { difficulty, .. } => {
                self.record(difficulty, GameResult::Abandoned)?;
            }
            Players::TwoPeople => {
                self.record_two_people(crate::scoreboard::PairResult::Void)?;
            }
        }
        Ok(())
    }

    /// Asks whether to go on with the game cut short: centre yes, down no. Without buttons
    /// (`play --difficulty`), it goes on: the person started the program to play.
    fn person_wants_to_go_on(&mut self, journal: &GameJournal, board: &Board) -> Flow<bool> {
        self.panel.activity(Activity::Menu);
        self.panel.show(
            View::new(
                "Go on?",
                &[
                    &format!(
                        "A game {} was cut short after {} moves.",
                        if journal.level == TWO_PEOPLE {
                            "between two people".to_string()
                        } else {
                            format!("at {}", journal.level)
                        },
                        journal.moves.len()
                    ),
                    "Centre: go on with it, on the same sheet. Down: give it up (it counts as \
                     abandoned).",
                ],
            )
            .with_board(board),
        );
        if self.buttons.is_err() {
            return Ok(true);
        }
        self.person.asked_to_go_on();
        loop {
            match self.wait_for_key()? {
                Key::Centre => return Ok(true),
                Key::Down => return Ok(false),
                _ => {}
            }
        }
    }
}
