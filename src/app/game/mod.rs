//! One game on paper: home, draw the grid, read the blank paper, then turns until the end; strike
//! through a win, record the result, and say it. The turns are the same whoever plays
//! ([`Players`]); a game the robot only referees is in [`super::referee`].
//!
//! The game's course is here; the sheet it is played on (set up, checked between turns) is in
//! `sheet`, and each kind of turn in `turns`.

mod sheet;
mod turns;
mod which_is_yours;

use super::journal::GameJournal;
use super::{Flow, Program, Stop};
use crate::ai::Difficulty;
use crate::game::{Board, Cell, Mark, Rules, Status};
use crate::motion::gantry::BlankPaper;
use crate::motion::plan;
use crate::scoreboard::{GameResult, Recorded};
use crate::ui::cues::{Activity, Cue};
use crate::ui::menu::FirstMove;
use crate::ui::speech;
use crate::ui::view::View;
use anyhow::Context;
use rand::Rng;
use std::time::{Duration, SystemTime};

/// A finished game.
#[derive(Debug, Clone)]
pub struct GameReport {
    pub difficulty: String,
    /// The human's mark: X moved first.
    pub human: Mark,
    /// Every move in order.
    pub moves: Vec<(Mark, Cell)>,
    pub board: Board,
    pub result: GameResult,
    /// What recording it changed on the scoreboard.
    pub recorded: Recorded,
    /// Robot-clock time from the start of homing to the end.
    pub took: Duration,
    /// The screen that announced the result.
    pub result_view: View,
}

/// Who plays the marks on the paper.
#[derive(Debug, Clone, PartialEq)]
pub enum Players {
    /// A person against the robot at `difficulty`; the person plays `human` (X moves first).
    AgainstRobot { difficulty: Difficulty, human: Mark },
    /// Two people, X first, then O; the robot draws the grid, reads each move and judges.
    TwoPeople,
}

impl Players {
    /// True when a person draws `mark`, false when the robot does.
    pub(super) fn person_plays(&self, mark: Mark) -> bool {
        match self {
            Players::AgainstRobot { human, .. } => mark == *human,
            Players::TwoPeople => true,
        }
    }

    /// The level and who starts, in a line for the screens before the game.
    fn introduce(&self) -> String {
        match self {
            Players::AgainstRobot { difficulty, human } => format!(
                "Level {}. {}",
                difficulty.name,
                if *human == Mark::X {
                    "You are X and start."
                } else {
                    "I am X and start; you are O."
                }
            ),
            Players::TwoPeople => "Two people: X starts, then O. I keep the score.".into(),
        }
    }

    /// The screen that asks for `mark`'s move.
    fn ask_for(&self, mark: Mark) -> View {
        match self {
            Players::AgainstRobot { .. } => View::new(
                format!("Your move ({mark})"),
                &["Draw your mark in a square, then press the touch sensor."],
            ),
            Players::TwoPeople => View::new(
                format!("{mark} to move"),
                &[&format!(
                    "{mark}: draw your {mark} in a square, then press the touch sensor."
                )],
            ),
        }
    }
}

/// One of the robot's marks, until the next reading of the board has looked for it.
#[derive(Debug, Clone, Copy)]
struct Unconfirmed {
    cell: Cell,
    mark: Mark,
}

/// How the turns ended.
pub(super) enum Finish {
    Won {
        winner: Mark,
        line: Vec<Cell>,
    },
    Draw,
    /// Several new marks at once.
    Void {
        squares: Vec<Cell>,
    },
}

impl Program<'_> {
    /// Plays one game. Errors and stop requests end it without touching the scoreboard; an
    /// idle timeout while waiting for the human counts it as abandoned.
    pub fn play_game(&mut self, difficulty: &Difficulty, first: FirstMove) -> Flow<GameReport> {
        // Found now, not after a whole game that then could not be kept.
        self.scores
            .check_usable()
            .context("the scoreboard cannot keep this game's result")?;
        let human = match first {
            FirstMove::Human => Mark::X,
            FirstMove::Robot => Mark::O,
            FirstMove::CoinToss => {
                if self.rng.random_bool(0.5) {
                    Mark::X
                } else {
                    Mark::O
                }
            }
        };
        let started = self.gantry.clock().now();
        log::info!(
            "game: difficulty {}, human plays {human} ({})",
            difficulty.name,
            if human == Mark::X {
                "moves first"
            } else {
                "robot first"
            }
        );
        if self.sheet_used {
            self.gantry.park()?;
            self.ask_for_a_fresh_sheet("The last game is on this sheet.")?;
        }
        let players = Players::AgainstRobot {
            difficulty: difficulty.clone(),
            human,
        };
        let blank = match self.set_up_sheet(&players) {
            Ok(blank) => blank,
            Err(Stop::Idle) => {
                self.record(difficulty, GameResult::Abandoned)?;
                return Err(Stop::Idle);
            }
            Err(other) => return Err(other),
        };
        let journal = GameJournal::new(&difficulty.name, human, &blank);
        self.keep_journal(&journal);
        let board = Board::empty(self.rules());
        self.play_on(difficulty, blank, board, journal, started)
    }

    /// The game drawn on this robot's paper.
    pub(super) fn rules(&self) -> Rules {
        self.gantry.config().board.rules()
    }

    /// Plays the game `journal` holds to its end from `board`, records it and shows the
    /// result.
    pub(super) fn play_on(
        &mut self,
        difficulty: &Difficulty,
        mut blank: BlankPaper,
        mut board: Board,
        mut journal: GameJournal,
        started: Duration,
    ) -> Flow<GameReport> {
        let human = journal.human;
        let players = Players::AgainstRobot {
            difficulty: difficulty.clone(),
            human,
        };
        let finish = self.turns(&players, &mut blank, &mut board, &mut journal);
        let finish = match finish {
            Ok(finish) => finish,
            Err(Stop::Idle) => {
                self.record(difficulty, GameResult::Abandoned)?;
                self.journal.clear();
                return Err(Stop::Idle);
            }
            // Anything else may end the program: the journal stays for the next run.
            Err(other) => return Err(other),
        };
        let moves: Vec<(Mark, Cell)> = journal.marked().collect();
        let (result, title, cue, spoken) = match &finish {
            Finish::Won { winner, .. } => {
                if *winner == human {
                    (
                        GameResult::HumanWon,
                        "You win!",
                        Cue::HumanWon,
                        speech::Ending::YouWin,
                    )
                } else {
                    (
                        GameResult::HumanLost,
                        "I win",
                        Cue::HumanLost,
                        speech::Ending::IWin,
                    )
                }
            }
            Finish::Draw => (GameResult::Draw, "A draw", Cue::Draw, speech::Ending::Draw),
            Finish::Void { .. } => (
                GameResult::Abandoned,
                "Game void",
                Cue::Invalid,
                speech::Ending::Void,
            ),
        };
        // Kept before the robot moves again, so a jam while striking the line loses nothing.
        let (recorded, scores) = self.record(difficulty, result)?;
        self.journal.clear();
        if let Finish::Won { line, .. } = &finish {
            self.strike(line)?;
        }
        self.gantry.park()?;
        self.panel.activity(Activity::Menu);
        self.panel.cue(cue);
        self.panel.say(speech::ending(spoken));
        let summary = match (&finish, result) {
            (Finish::Void { squares }, _) => format!(
                "I saw new marks at {}: one at a time, please.",
                self.list(squares)
            ),
            (_, GameResult::HumanWon) => format!(
                "+{} points.{}",
                recorded.points,
                if recorded.new_high_score {
                    " A new high score!"
                } else {
                    ""
                }
            ),
            _ => "Your score goes back to 0.".into(),
        };
        let best = scores.level(&difficulty.name).high_score;
        let result_view = View {
            title: title.into(),
            paragraphs: vec![
                summary,
                format!("Your score: {}", recorded.current_score),
                format!("Best at {}: {best}", difficulty.name),
            ],
            board: Some(board),
        };
        self.panel.show(result_view.clone());
        let took = self.gantry.clock().now() - started;
        log::info!(
            "game over: {result:?} after {} moves, {:.1} s",
            moves.len(),
            took.as_secs_f64()
        );
        Ok(GameReport {
            difficulty: difficulty.name.clone(),
            human,
            moves,
            board,
            result,
            recorded,
            took,
            result_view,
        })
    }

    pub(super) fn turns(
        &mut self,
        players: &Players,
        blank: &mut BlankPaper,
        board: &mut Board,
        journal: &mut GameJournal,
    ) -> Flow<Finish> {
        let mut unconfirmed = Vec::new();
        loop {
            let mark = match board.status() {
                Status::Won { winner, line } => return Ok(Finish::Won { winner, line }),
                Status::Draw => return Ok(Finish::Draw),
                Status::ToMove(mark) => mark,
            };
            match players {
                Players::AgainstRobot { difficulty, human } if mark != *human => {
                    let cell = self.robot_turn(difficulty, mark, board, blank)?;
                    *board = board.play(cell).context("the robot's move")?;
                    journal.moves.push(cell);
                    self.keep_journal(journal);
                    unconfirmed.push(Unconfirmed { cell, mark });
                }
                _ => {
                    let asked = players.ask_for(mark);
                    match self.human_turn(asked, mark, blank, board, &mut unconfirmed)? {
                        Ok(cell) => {
                            *board = board.play(cell).context("the human's move")?;
                            journal.moves.push(cell);
                            journal.keep_blank(blank);
                            self.keep_journal(journal);
                            // The next person draws next: out of their way. (The robot's own
                            // move, or the game's end, moves the carriage on from the read.)
                            if matches!(players, Players::TwoPeople)
                                && matches!(board.status(), Status::ToMove(_))
                            {
                                self.gantry.park()?;
                            }
                        }
                        Err(squares) => return Ok(Finish::Void { squares }),
                    }
                }
            }
        }
    }

    pub(super) fn strike(&mut self, line: &[Cell]) -> Flow<()> {
        let (Some(&first), Some(&last)) = (line.first(), line.last()) else {
            return Ok(());
        };
        let geometry = self.gantry.config().board.clone();
        let began = self.gantry.clock().now();
        self.gantry
            .draw(&[plan::win_line(&geometry, first, last)])?;
        log::info!("struck the winning line in {:.1} s", self.since(began));
        Ok(())
    }

    pub(super) fn record(
        &mut self,
        difficulty: &Difficulty,
        result: GameResult,
    ) -> Flow<(Recorded, crate::scoreboard::Scoreboard)> {
        let at = SystemTime::now();
        let (recorded, scores, notice) = match self.scores.record(difficulty, result, at) {
            Ok(done) => done,
            Err(error) => {
                // Never dropped: the result goes to a file of its own beside the scoreboard.
                let kept = self.scores.save_unrecorded(&difficulty.name, result, at);
                let kept = match kept {
                    Ok(path) => format!("the result is kept in {}", path.display()),
                    Err(why) => format!("and could not be kept beside it either: {why}"),
                };
                log::error!(
                    "recording {} at {} failed: {error}; {kept}",
                    result.describe(),
                    difficulty.name
                );
                return Err(Stop::Failed(
                    anyhow::Error::new(error).context(format!("recording the game ({kept})")),
                ));
            }
        };
        if let Some(notice) = notice {
            self.panel.note(&notice.to_string());
        }
        log::info!(
            "recorded {} at {}: +{} points, score {}{}",
            result.describe(),
            difficulty.name,
            recorded.points,
            recorded.current_score,
            if recorded.new_high_score {
                ", a new high score"
            } else {
                ""
            }
        );
        Ok((recorded, scores))
    }

    /// "square 1 (top left) and square 6 (middle right)".
    pub(super) fn list(&self, cells: &[Cell]) -> String {
        let names: Vec<String> = cells.iter().map(|&c| self.gantry.square_name(c)).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.join(""),
        }
    }

    pub(super) fn since(&self, began: Duration) -> f64 {
        (self.gantry.clock().now() - began).as_secs_f64()
    }
}
