//! One game on paper: home, draw the grid, read the blank paper, then turns until the end; strike
//! through a win, record the result, and say it. The turns are the same whoever plays
//! ([`Players`]); a game the robot only referees is in [`super::referee`].

use super::journal::GameJournal;
use super::{Flow, Program, Stop};
use crate::ai::Difficulty;
use crate::game::{Board, Cell, Mark, Rules, Status};
use crate::motion::gantry::ruler::GridCheck;
use crate::motion::gantry::{BlankPaper, OwnMarkCheck};
use crate::motion::plan;
use crate::motion::sensing::NewMarks;
use crate::read_record::folder::RecordFolder;
use crate::read_record::ReadRecord;
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
        blank: BlankPaper,
        mut board: Board,
        mut journal: GameJournal,
        started: Duration,
    ) -> Flow<GameReport> {
        let human = journal.human;
        let players = Players::AgainstRobot {
            difficulty: difficulty.clone(),
            human,
        };
        let finish = self.turns(&players, &blank, &mut board, &mut journal);
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

    /// Homes, draws the grid and reads each square's blank paper.
    pub(super) fn set_up_sheet(&mut self, players: &Players) -> Flow<BlankPaper> {
        self.panel.activity(Activity::Busy);
        let level = players.introduce();
        self.panel.show(View::new(
            "Homing",
            &[&level, "Finding the end stops. Hands off the robot."],
        ));
        let homing = self.gantry.home()?;
        log::info!("{homing}");
        self.make_sure_the_sheet_is_fresh(&level)?;
        self.panel.show(View::new(
            "Drawing the grid",
            &[&level, "Hands off the paper."],
        ));
        let began = self.gantry.clock().now();
        self.sheet_used = true;
        self.gantry.draw_grid()?;
        log::info!("grid drawn in {:.1} s", self.since(began));
        self.panel.show(View::new(
            "Reading the paper",
            &[&level, "Hands off the paper."],
        ));
        let blank = self.gantry.read_blank_grid()?;
        log::info!(
            "blank paper per square (%): {:?}; the sensor's noise {:.1}%",
            blank.levels(),
            blank.squares[0].noise
        );
        for line in self.gantry.describe_eye() {
            log::info!("the eye: {line}");
        }
        self.warn_if_the_sensor_is_slow();
        self.gantry.park()?;
        Ok(blank)
    }

    /// Reads the sheet where the grid will go and, while it holds marks, names them and asks
    /// for a fresh one: old marks would be read as new ones and void the game.
    fn make_sure_the_sheet_is_fresh(&mut self, level: &str) -> Flow<()> {
        loop {
            self.panel.show(View::new(
                "Checking the sheet",
                &[level, "Is it blank? Hands off the paper."],
            ));
            let used = self.gantry.used_sheet()?;
            if !used.is_used() {
                return Ok(());
            }
            let seen = match (used.marked.is_empty(), &used.grid) {
                (false, None) => format!("I see marks at {}.", self.list(&used.marked)),
                (false, Some(_)) => format!(
                    "I see marks at {}, and a grid already drawn.",
                    self.list(&used.marked)
                ),
                (true, _) => "I see a grid already drawn on it.".to_string(),
            };
            log::info!("the sheet is not blank: {seen} ({used:?})");
            self.gantry.park()?;
            self.ask_for_a_fresh_sheet(&seen)?;
        }
    }

    /// Asks for a fresh sheet (saying `why`), with a sound, and waits until the person says it
    /// is in: the touch sensor or the centre button.
    pub(super) fn ask_for_a_fresh_sheet(&mut self, why: &str) -> Flow<()> {
        self.panel.activity(Activity::YourMove);
        self.panel.cue(Cue::Invalid);
        self.panel.show(View::new(
            "Fresh sheet, please",
            &[
                why,
                "Put a blank sheet under the pen, then press the touch sensor (or the centre \
                 button).",
            ],
        ));
        self.person.new_sheet();
        self.wait_for_touch_or_centre()?;
        self.sheet_used = false;
        self.panel.activity(Activity::Busy);
        Ok(())
    }

    /// Says so, with figures, when the colour sensor answers too slowly for the configured sweep
    /// speed: the robot then reads slower, not worse, and the person should know why.
    fn warn_if_the_sensor_is_slow(&mut self) {
        let sensing = &self.gantry.config().sensing;
        let (asked_ms, most) = (sensing.sample_ms, sensing.sweep_speed_deg_per_s);
        let period = self.gantry.read_period();
        let speed = self.gantry.first_look_speed();
        let spread = self
            .gantry
            .between_reads()
            .map_or_else(String::new, |spread| format!(" ({spread})"));
        log::info!(
            "the colour sensor gives a fresh value every {:.1} ms{spread}; reading sweeps at \
             {speed} deg/s",
            period.as_secs_f64() * 1000.0
        );
        // Somewhat slower is the brick's ordinary state and costs little; half the speed or
        // less doubles the time every reading takes.
        if speed <= most / 2 {
            let line = format!(
                "The colour sensor answers only every {} ms (sensing.sample_ms asks for \
                 {asked_ms}), so I read the board at {speed} deg/s instead of {most}, to keep \
                 readings close enough to see thin lines. Is the brick busy?",
                period.as_millis()
            );
            log::warn!("{line}");
            self.panel.note(&line);
        }
    }

    pub(super) fn turns(
        &mut self,
        players: &Players,
        blank: &BlankPaper,
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
                    let cell = self.robot_turn(difficulty, mark, board)?;
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
                            self.keep_journal(journal);
                        }
                        Err(squares) => return Ok(Finish::Void { squares }),
                    }
                }
            }
        }
    }

    /// Shows `asked`, waits for a person to draw `mark` and reads it: the square, or `Err`
    /// with the squares where several new marks were seen.
    fn human_turn(
        &mut self,
        asked: View,
        human: Mark,
        blank: &BlankPaper,
        board: &Board,
        unconfirmed: &mut Vec<Unconfirmed>,
    ) -> Flow<Result<Cell, Vec<Cell>>> {
        let mut view = asked.with_board(board);
        // Set once the grid has been checked after a read that saw several new marks: the
        // board is then read again at once, with no new press.
        let mut grid_checked = false;
        let mut read_again = false;
        // The picture of a read that saw no new mark, kept once its answer is on the screen:
        // drawing it takes the brick's CPU most of a second.
        let mut unkept: Option<PendingPicture> = None;
        let mut spoken = speech::YOUR_TURN.to_string();
        loop {
            if !read_again {
                self.panel.activity(Activity::YourMove);
                self.panel.show(view.clone());
                self.panel.say(&spoken);
                if let Some(picture) = unkept.take() {
                    picture.keep();
                }
                self.person.your_move(board, human);
                self.wait_for_touch()?;
            }
            read_again = false;
            self.panel.activity(Activity::Busy);
            self.panel
                .show(View::new("Reading the board", &["Hands off the paper."]).with_board(board));
            let empty: Vec<Cell> = board.empty_cells().collect();
            let began = self.gantry.clock().now();
            let own: Vec<(Cell, Mark)> = unconfirmed.iter().map(|u| (u.cell, u.mark)).collect();
            let (marks, readings, own_checks) = self.gantry.read_board(blank, &empty, &own)?;
            for r in &readings {
                log::info!("read {}: {}", self.gantry.square_name(r.cell), r.describe());
            }
            let saw = match &marks {
                NewMarks::None => "no new mark".to_string(),
                NewMarks::One(cell) => format!("a new mark at {}", self.gantry.square_name(*cell)),
                NewMarks::Several(cells) => format!("new marks at {}", self.list(cells)),
            };
            log::info!("board read in {:.1} s: {saw}", self.since(began));
            unkept = self.read_picture(board, &marks, &saw, &readings);
            self.confirm_own_marks(blank, &own_checks)?;
            unconfirmed.clear();
            self.gantry.park()?;
            match marks {
                NewMarks::One(cell) => {
                    self.panel.cue(Cue::MoveSeen);
                    if let Some(picture) = unkept.take() {
                        picture.keep();
                    }
                    return Ok(Ok(cell));
                }
                NewMarks::None => {
                    self.panel.cue(Cue::Invalid);
                    // A faint dip on one line only, after the slow look: the robot is unsure,
                    // and says where, rather than that it sees nothing.
                    let unsure: Vec<Cell> = readings
                        .iter()
                        .filter(|r| r.unsure())
                        .map(|r| r.cell)
                        .collect();
                    let size = board.rules().size();
                    spoken = if unsure.is_empty() {
                        speech::NO_NEW_MARK.to_string()
                    } else {
                        speech::not_sure(&unsure, size)
                    };
                    view = if unsure.is_empty() {
                        View::new(
                            "No new mark",
                            &["I see no new mark: fill your square darker and press again."],
                        )
                    } else {
                        log::info!(
                            "I may see a faint mark at {}, too faint to be sure: asking for it \
                             darker",
                            self.list(&unsure)
                        );
                        View::new(
                            "Not sure",
                            &[&format!(
                                "A faint mark at {}? Draw it darker and press again.",
                                self.list(&unsure)
                            )],
                        )
                    }
                    .with_board(board);
                }
                NewMarks::Several(cells) => {
                    // Ink in several squares at once may be the sheet's own grid and marks
                    // moved under the robot (a sheet knocked, a pinion that skipped): the grid,
                    // crossed clear of those squares, tells, and a grid that has moved is
                    // followed or named before anyone's game is voided.
                    if !grid_checked {
                        grid_checked = true;
                        log::info!(
                            "new marks at {}: checking the grid before believing it",
                            self.list(&cells)
                        );
                        if let Some(picture) = unkept.take() {
                            picture.keep();
                        }
                        if self.check_the_grid_is_where_it_was(board, &cells)? {
                            read_again = true;
                            continue;
                        }
                    }
                    self.panel.cue(Cue::Invalid);
                    log::warn!("new marks at {}: the game is void", self.list(&cells));
                    if let Some(picture) = unkept.take() {
                        picture.keep();
                    }
                    return Ok(Err(cells));
                }
            }
        }
    }

    /// The picture of the read just made, which `saw` what it says, and its readings (see
    /// [`crate::read_record`]), to keep: every read's when the person asked for them, and otherwise a read's that saw no
    /// new mark or several, so a person told so can look at what the sensor saw.
    fn read_picture(
        &self,
        board: &Board,
        marks: &NewMarks,
        saw: &str,
        readings: &[crate::motion::sensing::SquareReading],
    ) -> Option<PendingPicture> {
        let reads = &self.settings.reads;
        let folder = match (&reads.every, &reads.doubtful, marks) {
            (Some(every), _, _) => every,
            (None, Some(beside_log), NewMarks::None | NewMarks::Several(_)) => beside_log,
            _ => return None,
        };
        let turn = board.count(Mark::X) + board.count(Mark::O) + 1;
        Some(PendingPicture {
            record: ReadRecord::new(
                format!("turn {turn}: {saw}"),
                &self.gantry.config().board,
                self.gantry.last_read_samples(),
                readings,
            ),
            folder: RecordFolder::new(folder),
            name: format!("turn{turn}"),
        })
    }

    /// Looks for the robot's own marks in what the reading saw. One the look did not see gets
    /// a closer look, fitted to its shape; one that look does not see either may not have
    /// inked (a pen skipping or running dry), so it is drawn once more and looked at closely
    /// again. One that still does not show is a doubt, not a failure: the grid's lines showed
    /// that the pen inks, and the robot knows where its marks are, so it says what it measured
    /// (the screen, the terminal and the log) and the game goes on.
    fn confirm_own_marks(&mut self, blank: &BlankPaper, checks: &[OwnMarkCheck]) -> Flow<()> {
        let geometry = self.gantry.config().board.clone();
        for check in checks {
            let (mark, name) = (check.mark, self.gantry.square_name(check.cell));
            let measured = |fit: Option<crate::motion::own_ink::OwnInkFit>| {
                fit.map_or_else(
                    || "no reading where its ink should be".into(),
                    |f| f.describe(),
                )
            };
            if check.seen {
                log::info!(
                    "my {mark} at {name} is on the paper: {}",
                    measured(check.fit)
                );
                continue;
            }
            log::info!(
                "my {mark} at {name} was not seen on the first look ({}): looking closer",
                measured(check.fit)
            );
            let closer = self.gantry.look_closely_at_own(blank, check.cell, mark)?;
            if closer.is_some_and(|f| f.seen()) {
                log::info!("my {mark} at {name} is on the paper: {}", measured(closer));
                continue;
            }
            log::warn!(
                "my {mark} at {name} was not seen on a closer look either ({}): drawing it again",
                measured(closer)
            );
            self.gantry.draw(&plan::mark(&geometry, check.cell, mark))?;
            let after = self.gantry.look_closely_at_own(blank, check.cell, mark)?;
            if after.is_some_and(|f| f.seen()) {
                log::info!(
                    "my {mark} at {name} is on the paper now: {}",
                    measured(after)
                );
                continue;
            }
            let line = format!(
                "I cannot see my {mark} at {name} although I drew it twice ({}). The grid showed \
                 that my pen inks, so I play on: I know where my marks are. If the {mark} is not \
                 on the paper, draw it in for me.",
                measured(after)
            );
            log::warn!("{line}");
            self.panel.note(&line);
            self.panel.cue(Cue::Invalid);
            self.panel.show(View::new(
                format!("My {mark}?"),
                &[&format!(
                    "I cannot see my {mark} at {name}. I play on; if it is missing, draw it in \
                     for me."
                )],
            ));
            self.pause(self.settings.result_shown_for)?;
        }
        Ok(())
    }

    fn robot_turn(&mut self, difficulty: &Difficulty, mark: Mark, board: &Board) -> Flow<Cell> {
        self.panel.activity(Activity::Busy);
        self.panel
            .show(View::new("Thinking", &["Hands off the paper."]).with_board(board));
        let (choice, analysis) = self
            .engine
            .choose(board, difficulty, &mut self.rng)
            .context("choosing the robot's move")?;
        let cell = choice.cell;
        log::info!(
            "chose {} ({}; best moves {:?}, outcome {:?}, {} nodes)",
            self.gantry.square_name(cell),
            if choice.played_best {
                "a best move"
            } else {
                "a random move"
            },
            analysis.best_moves,
            analysis.outcome,
            analysis.nodes
        );
        let after = board.play(cell).context("the robot's move")?;
        self.panel.show(
            View::new(
                "My move",
                &[
                    &format!("I play {}.", self.gantry.square_name(cell)),
                    "Hands off the paper.",
                ],
            )
            .with_board(&after),
        );
        self.panel.say(&speech::my_move(cell, board.rules().size()));
        self.check_the_grid_is_where_it_was(board, &[])?;
        let geometry = self.gantry.config().board.clone();
        let began = self.gantry.clock().now();
        self.gantry.draw(&plan::mark(&geometry, cell, mark))?;
        self.gantry.park()?;
        log::info!(
            "drew {mark} at {} in {:.1} s",
            self.gantry.square_name(cell),
            self.since(began)
        );
        Ok(cell)
    }

    /// Before the robot draws, and before a read that saw several new marks is believed: the
    /// grid's lines, crossed between squares `board` has empty and not `inked` (a person's new
    /// mark would pull the fit), must be where they were when it drew them. A grid nudged a little is followed; an axis that slipped is
    /// put right by re-homing, and the person is told; a sheet that moved further ends the
    /// game with how far and which way (see [`crate::motion::gantry::ruler`]). Says whether
    /// the squares are now anywhere else than before the check.
    fn check_the_grid_is_where_it_was(&mut self, board: &Board, inked: &[Cell]) -> Flow<bool> {
        let empty: Vec<Cell> = board.empty_cells().filter(|c| !inked.contains(c)).collect();
        let moved = match self.gantry.check_grid(&empty)? {
            GridCheck::InPlace { place, followed } => {
                log::info!(
                    "the grid is in place: {}",
                    self.gantry.describe_grid_place(&place)
                );
                followed
            }
            GridCheck::Rehomed { before, after } => {
                let line = format!(
                    "The grid had moved ({}), so an axis had slipped: I found my end stops \
                     again, and now it is {}.",
                    self.gantry.describe_grid_place(&before),
                    self.gantry.describe_grid_place(&after)
                );
                log::warn!("{line}");
                self.panel.note(&line);
                true
            }
        };
        self.gantry.park()?;
        Ok(moved)
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

/// A picture of a read, to be kept in its folder.
struct PendingPicture {
    record: ReadRecord,
    folder: RecordFolder,
    name: String,
}

impl PendingPicture {
    /// Keeps it; one that cannot be kept (a full card) is a warning in the log, and the game
    /// goes on.
    fn keep(self) {
        match self.folder.keep(&self.record, &self.name) {
            Ok(kept) => log::info!(
                "what the sensor saw on this read: {} (its readings: {})",
                kept.picture.display(),
                kept.readings.display()
            ),
            Err(error) => log::warn!(
                "could not keep the picture of this read in {}: {error}",
                self.folder.dir().display()
            ),
        }
    }
}
