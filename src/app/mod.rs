//! The program a person runs: the menu, whole games, and the rules around them (idle timeout,
//! battery warning, stop requests, errors told in words), written once over the hardware
//! traits. `play` runs it on the brick, `sim` on the simulated robot in a terminal, and `demo`
//! and the tests on the simulator with a scripted person ([`Person`]).

pub mod brick;
mod calibration_page;
pub mod game;
pub mod journal;
pub mod panel;
pub mod preferences;
pub mod referee;
pub mod resume;
pub mod safety;
pub mod scripted;
pub mod sentinel;
pub mod session;
mod settings_page;

use crate::ai::{Difficulty, Engine};
use crate::game::{Board, Cell, Mark};
use crate::hw::{Battery, ButtonPad, Buttons};
use crate::motion::calibrate::{touch_released, Step, PRESS_POLL};
use crate::motion::{Axis, Gantry, MotionError, StopRequest};
use crate::scoreboard::store::ScoreFile;
use crate::ui::cues::{Activity, Cue};
use crate::ui::menu::{Action, FirstMove, Key, Menu};
use crate::ui::view::View;
use game::GameReport;
use journal::JournalFile;
use panel::Panel;
use preferences::PreferencesFile;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::time::Duration;

/// Someone at the robot, told what the program is waiting for. On the brick and in `sim` the
/// person reads the screen and needs no telling; the demo and the tests script one here.
pub trait Person {
    /// The program asks for a fresh sheet and waits for the touch sensor (or the centre
    /// button): the last game's sheet is under the pen.
    fn new_sheet(&mut self) {}
    /// The program waits for a button on `menu`.
    fn at_menu(&mut self, _menu: &Menu) {}
    /// The program asks whether to go on with a game that was cut short (centre: yes, down:
    /// no) and waits for a button.
    fn asked_to_go_on(&mut self) {}
    /// The program waits for the human, who plays `mark`, to move on `board` and press the
    /// touch sensor.
    fn your_move(&mut self, _board: &Board, _mark: Mark) {}
    /// The program shows the page `title`, a question of the buttons (measure the robot now?
    /// keep this measurement?), and waits for one.
    fn asked(&mut self, _title: &str) {}
    /// The program saw new marks in `candidates` on two reads and asks which one is the
    /// person's (left and right: another, centre: this one, up: none of them, down: they drew
    /// more than one); it offers `offered` now and waits for a button.
    fn which_is_yours(&mut self, _candidates: &[Cell], _offered: Cell) {}
    /// Calibration has begun `step`; at [`Step::FillIn`] it waits for the mark and the touch
    /// sensor.
    fn calibrating(&mut self, _step: Step) {}
}

/// Nobody scripted: the person at the brick acts on their own.
pub struct NoOne;

impl Person for NoOne {}

/// The shortest idle timeout: a person needs this long to read the screen, pick up the pen,
/// draw a mark and press the touch sensor, even a slow first-timer.
pub const MIN_IDLE_TIMEOUT: Duration = Duration::from_secs(30);

/// The program's settings beyond the robot config.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Waiting for the person this long with no button or touch, the robot parks and the
    /// program exits. At least [`MIN_IDLE_TIMEOUT`].
    pub idle_timeout: Duration,
    /// Below this battery voltage a warning is shown at start.
    pub low_battery_v: f32,
    /// How long the battery warning stays up unless a button is pressed.
    pub warning_shown_for: Duration,
    /// How long a game's result stays up before the scores, unless a button is pressed.
    pub result_shown_for: Duration,
    /// How long an error that ends the program stays on the LCD, with the red lights, unless
    /// a button is pressed: started from the brick's File Browser nobody sees the terminal, and
    /// brickman takes the screen back as soon as the program ends.
    pub error_shown_for: Duration,
    /// The seed of every random choice (the levels' mistakes, the coin for who starts), so a
    /// run can be repeated; `None`: a fresh one each run.
    pub seed: Option<u64>,
    /// Each move is journalled beside the scores, and a game cut short is offered again at the
    /// next start. Off for a simulated sheet, which does not outlive the program.
    pub resumable: bool,
    /// Where pictures of what the sensor saw are kept (see [`crate::read_record`]).
    pub reads: ReadPictures,
    /// No robot.json was found: the robot plays on the built-in defaults, and the start says
    /// so, since they may not fit the robot in front of the person (and from the menu offers
    /// to measure it).
    pub without_robot_config: bool,
    /// Where calibration from the menu keeps what it measured: the robot config's file (robot.json
    /// beside the program on a brick, or the file `--config` named). `None`: nowhere (the demo's
    /// simulated robot), and the setup page says so.
    pub robot_config_file: Option<PathBuf>,
}

/// Where pictures of reads of the board go.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadPictures {
    /// Every read's, when the person asked (`--record`).
    pub every: Option<PathBuf>,
    /// Otherwise a read's that saw no new mark or several, so a person told so can look at
    /// what the sensor saw: beside the log.
    pub doubtful: Option<PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            idle_timeout: Duration::from_secs(5 * 60),
            // Six fresh AA cells give 9 V and the rechargeable pack 7.4 V; below about 6.5 V
            // under load the motors lose speed and homing's stall detection gets unreliable.
            low_battery_v: 6.5,
            warning_shown_for: Duration::from_secs(3),
            result_shown_for: Duration::from_secs(5),
            error_shown_for: Duration::from_secs(30),
            resumable: true,
            reads: ReadPictures::default(),
            without_robot_config: false,
            robot_config_file: None,
            seed: None,
        }
    }
}

/// Why the program stopped before it was asked to exit.
#[derive(Debug)]
pub enum Stop {
    /// A signal or the stop key; the machine has been made safe.
    Interrupted { cause: String },
    /// Nobody pressed anything for the idle timeout.
    Idle,
    /// Something failed; the message says what, in words a person can act on.
    Failed(anyhow::Error),
}

impl From<MotionError> for Stop {
    fn from(error: MotionError) -> Stop {
        match error {
            MotionError::Interrupted { cause } => Stop::Interrupted { cause },
            other => Stop::Failed(other.into()),
        }
    }
}

impl From<anyhow::Error> for Stop {
    fn from(error: anyhow::Error) -> Stop {
        Stop::Failed(error)
    }
}

pub type Flow<T> = Result<T, Stop>;

/// How a run of the program ended.
#[derive(Debug)]
pub enum Ending {
    /// The person chose to exit, or the games asked for were played.
    Done,
    /// Parked after the idle timeout.
    Idle,
    /// Stopped by a signal or the stop key.
    Interrupted { cause: String },
    /// Stopped by an error, already shown; this is it for the exit status.
    Failed(anyhow::Error),
}

impl std::fmt::Display for Ending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ending::Done => f.write_str("done"),
            Ending::Idle => f.write_str("parked after the idle timeout"),
            Ending::Interrupted { cause } => write!(f, "stopped by {cause}"),
            Ending::Failed(error) => write!(f, "failed: {error:#}"),
        }
    }
}

/// The robot as the program drives it: the gantry, and the brick's buttons and battery.
pub struct Machine {
    pub gantry: Gantry,
    /// The brick's buttons, or why they cannot be used (then only a game chosen on the command
    /// line can be played).
    pub buttons: Result<Box<dyn ButtonPad>, String>,
    pub battery: Option<Box<dyn Battery>>,
}

/// The program: the robot, its buttons and outputs, the scoreboard, and whoever stands by.
pub struct Program<'p> {
    pub gantry: Gantry,
    /// The brick's buttons, or why they cannot be used.
    pub buttons: Result<Box<dyn ButtonPad>, String>,
    pub battery: Option<Box<dyn Battery>>,
    pub panel: Panel,
    pub scores: ScoreFile,
    /// The game in progress, beside the scores.
    journal: JournalFile,
    /// The person's settings (the voice), beside the scores.
    preferences: PreferencesFile,
    /// What the robot's eye measured on this run's last sheet.
    last_eye: Option<crate::ui::eye_page::EyeReport>,
    pub rng: ChaCha8Rng,
    pub person: &'p mut dyn Person,
    pub stop: StopRequest,
    pub settings: Settings,
    engine: Engine,
    /// The levels on the menu's left, centre and right buttons.
    menu_levels: [Difficulty; 3],
    buttons_before: Buttons,
    /// When the wait for the person began, or they last pressed anything since (robot clock).
    waiting_since: Duration,
    /// The sheet under the pen holds a game of this run: the next one needs a fresh sheet.
    sheet_used: bool,
}

impl<'p> Program<'p> {
    /// The program over `machine`, showing on `panel`, keeping scores in `scores`, with
    /// `person` standing by; every motion obeys `stop` (a [`session::Session`]'s).
    pub fn new(
        machine: Machine,
        panel: Panel,
        scores: ScoreFile,
        person: &'p mut dyn Person,
        stop: StopRequest,
        settings: Settings,
    ) -> Program<'p> {
        let Machine {
            mut gantry,
            buttons,
            battery,
        } = machine;
        gantry.obey(stop.clone());
        let waiting_since = gantry.clock().now();
        let rng = match settings.seed {
            Some(seed) => ChaCha8Rng::seed_from_u64(seed),
            None => ChaCha8Rng::from_os_rng(),
        };
        let engine = Engine::new(gantry.config().board.rules());
        Program {
            menu_levels: gantry.config().menu_levels(),
            gantry,
            buttons,
            battery,
            panel,
            journal: JournalFile::beside(&scores),
            preferences: PreferencesFile::beside(&scores),
            last_eye: None,
            scores,
            rng,
            person,
            stop,
            settings,
            engine,
            buttons_before: Buttons::default(),
            waiting_since,
            sheet_used: false,
        }
    }

    /// The menu, until the person exits, the robot idles out, or something stops it.
    pub fn run_menu(&mut self) -> Ending {
        let flow = self.start().and_then(|()| match &self.buttons {
            Ok(_) => {
                self.offer_calibration_at_first_start()?;
                self.take_up_a_cut_short_game()?;
                self.menu_loop()
            }
            Err(why) => Err(Stop::Failed(anyhow::anyhow!(
                "the brick's buttons cannot be read ({why}), so the menu cannot be used; \
                 play without it: ev3-tictactoe play --difficulty easy|medium|hard"
            ))),
        });
        self.finish(flow)
    }

    /// Plays `games` games at `difficulty` without the menu, then exits. A game cut short in
    /// the last run, if the person goes on with it, is the first of them.
    pub fn run_games(&mut self, difficulty: &Difficulty, first: FirstMove, games: u32) -> Ending {
        self.run_games_reporting(difficulty, first, games, &mut |_| {})
    }

    /// As [`Program::run_games`], handing each finished game to `report`.
    pub fn run_games_reporting(
        &mut self,
        difficulty: &Difficulty,
        first: FirstMove,
        games: u32,
        report: &mut dyn FnMut(&GameReport),
    ) -> Ending {
        self.run_series(
            games,
            resume::TakenUp::against_robot,
            &mut |program| program.play_game(difficulty, first),
            report,
        )
    }

    /// Referees `games` games between two people without the menu, then exits.
    pub fn run_referee_games(
        &mut self,
        games: u32,
        report: &mut dyn FnMut(&referee::RefereeReport),
    ) -> Ending {
        self.run_series(
            games,
            resume::TakenUp::two_people,
            &mut |program| program.referee_game(),
            report,
        )
    }

    /// Plays `games` games of one kind without the menu, then exits. A game cut short in the
    /// last run that `of_this_kind` keeps, if the person goes on with it, is the first of them;
    /// `next` plays each new one.
    fn run_series<G>(
        &mut self,
        games: u32,
        of_this_kind: fn(resume::TakenUp) -> Option<G>,
        next: &mut dyn FnMut(&mut Self) -> Flow<G>,
        report: &mut dyn FnMut(&G),
    ) -> Ending {
        let flow = self.start().and_then(|()| {
            self.say_if_there_is_no_robot_config()?;
            let mut left = games;
            if let Some(game) = self.take_up_a_cut_short_game()?.and_then(of_this_kind) {
                report(&game);
                left = left.saturating_sub(1);
            }
            for _ in 0..left {
                let game = next(self)?;
                report(&game);
            }
            Ok(())
        });
        self.finish(flow)
    }

    /// Greets, warns about a low battery, and says if the buttons cannot be used.
    fn start(&mut self) -> Flow<()> {
        log::info!("program started");
        self.apply_preferences()?;
        let volts = self.battery.as_mut().map(|b| b.voltage_v());
        match volts {
            Some(Ok(v)) if v < self.settings.low_battery_v => {
                log::warn!("battery low: {v:.2} V");
                self.panel.cue(Cue::Invalid);
                self.panel.show(View::new(
                    "Battery low",
                    &[
                        &format!("{v:.1} V. Motors may slow and homing may fail."),
                        "Charge or change the batteries soon.",
                    ],
                ));
                self.pause(self.settings.warning_shown_for)?;
            }
            Some(Ok(v)) => log::info!("battery {v:.2} V"),
            Some(Err(error)) => log::warn!("battery not read: {error}"),
            None => {}
        }
        Ok(())
    }

    fn menu_loop(&mut self) -> Flow<()> {
        let mut menu = Menu::Main;
        loop {
            let scores = self.load_scores();
            let view = View::of_menu(&menu, &self.menu_levels, &scores, &self.setup_facts());
            self.panel.activity(Activity::Menu);
            self.panel.show(view);
            self.person.at_menu(&menu);
            let key = self.wait_for_key()?;
            log::info!("button {} at {}", key.name(), menu.describe());
            let (next, action) = menu.press(key, &self.menu_levels);
            menu = next;
            match action {
                Action::Show | Action::Ignore => {}
                Action::Exit => return Ok(()),
                Action::Play { difficulty, first } => {
                    self.play_game(&difficulty, first)?;
                    // The result stays up for a moment (or until a key), then the scores until
                    // a key goes back to the menu.
                    self.pause(self.settings.result_shown_for)?;
                    menu = Menu::Scores;
                }
                Action::Referee => {
                    self.referee_game()?;
                    self.pause(self.settings.result_shown_for)?;
                    menu = Menu::Scores;
                }
                Action::Calibrate => self.calibrate_from_menu()?,
                Action::ToggleVoice => self.toggle_voice(),
                Action::ResetScores => self.reset_scores_from_menu()?,
            }
        }
    }

    fn load_scores(&mut self) -> crate::scoreboard::Scoreboard {
        match self.scores.load() {
            Ok((scores, notice)) => {
                if let Some(notice) = notice {
                    self.panel.note(&notice.to_string());
                }
                scores
            }
            Err(error) => {
                self.panel.note(&format!("Scores unavailable: {error}"));
                crate::scoreboard::Scoreboard::new()
            }
        }
    }

    /// Parks and makes the machine safe however the run ended, and tells the person why.
    fn finish(&mut self, flow: Flow<()>) -> Ending {
        let ending = match flow {
            Ok(()) => Ending::Done,
            Err(Stop::Idle) => Ending::Idle,
            Err(Stop::Interrupted { cause }) => Ending::Interrupted { cause },
            Err(Stop::Failed(error)) => Ending::Failed(error),
        };
        if matches!(ending, Ending::Done | Ending::Idle) && self.gantry.is_homed(Axis::Columns) {
            if let Err(error) = self.gantry.park() {
                log::warn!("parking at exit failed: {error}");
            }
        }
        let safe = self.gantry.ensure_safe().describe();
        match &ending {
            Ending::Done => {
                self.panel.activity(Activity::Off);
                self.panel.show(View::new("Goodbye", &[&safe]));
            }
            Ending::Idle => {
                let waited = humantime::format_duration(self.settings.idle_timeout);
                self.panel.activity(Activity::Off);
                self.panel.show(View::new(
                    "Parked",
                    &[&format!(
                        "Nothing was pressed for {waited}, so I parked and stopped to save the battery. {safe}"
                    )],
                ));
            }
            Ending::Interrupted { cause } => {
                self.panel.activity(Activity::Off);
                self.panel.show(View::new(
                    "Stopped",
                    &[&format!("Stopped by {cause}. {safe}")],
                ));
            }
            Ending::Failed(error) => {
                self.panel.activity(Activity::Error);
                self.panel.cue(Cue::Error);
                self.panel.say(crate::ui::speech::SOMETHING_WENT_WRONG);
                let mut message = format!("{error:#}");
                if !message.ends_with(['.', '?', '!']) {
                    message.push('.');
                }
                self.panel.show(View::new(
                    "Error",
                    &[
                        &message,
                        &format!("{safe} Fix this, then start again."),
                        "Any button closes this.",
                    ],
                ));
                // Held for the person to read; a signal still ends it at once. The machine is
                // already safe.
                let held = self.gantry.clock().now();
                let _ = self.pause(self.settings.error_shown_for);
                log::info!(
                    "the error stayed on the screen for {:.0} s",
                    (self.gantry.clock().now() - held).as_secs_f64()
                );
            }
        }
        log::info!("program ended: {ending}");
        ending
    }

    /// Fails if a stop was requested.
    fn check_stop(&self) -> Flow<()> {
        match self.stop.signal() {
            Some(_) => Err(Stop::Interrupted {
                cause: self.stop.cause(),
            }),
            None => Ok(()),
        }
    }

    /// Fails if a stop was requested, or the person has been waited for the idle timeout
    /// without touching anything. Only the waits for the person call this, and each starts
    /// the count afresh, so the robot's own homing, drawing and thinking never count.
    fn check_attention(&mut self) -> Flow<()> {
        self.check_stop()?;
        let now = self.gantry.clock().now();
        if now.saturating_sub(self.waiting_since) >= self.settings.idle_timeout {
            log::info!(
                "nothing pressed for {} while waiting for the person",
                humantime::format_duration(self.settings.idle_timeout)
            );
            return Err(Stop::Idle);
        }
        Ok(())
    }

    /// Reads the buttons: the key newly pressed, if any. A press counts as attention.
    fn read_key(&mut self) -> Flow<Option<Key>> {
        let Ok(buttons) = &mut self.buttons else {
            return Ok(None);
        };
        let now = match buttons.pressed() {
            Ok(now) => now,
            Err(error) => {
                let why = error.to_string();
                self.panel
                    .note(&format!("The buttons stopped working: {why}"));
                self.buttons = Err(why);
                return Ok(None);
            }
        };
        let key = Key::pressed(self.buttons_before, now);
        if now != self.buttons_before {
            self.waiting_since = self.gantry.clock().now();
        }
        self.buttons_before = now;
        Ok(key)
    }

    fn wait_for_key(&mut self) -> Flow<Key> {
        self.waiting_since = self.gantry.clock().now();
        loop {
            self.check_attention()?;
            if let Some(key) = self.read_key()? {
                return Ok(key);
            }
            self.gantry.clock().sleep(PRESS_POLL);
        }
    }

    /// Waits for `duration`, or less if a key is pressed.
    fn pause(&mut self, duration: Duration) -> Flow<()> {
        let until = self.gantry.clock().now() + duration;
        while self.gantry.clock().now() < until {
            self.check_stop()?;
            if self.read_key()?.is_some() {
                break;
            }
            self.gantry.clock().sleep(PRESS_POLL);
        }
        Ok(())
    }

    /// Waits for the touch sensor to be pressed and released, or the centre button.
    fn wait_for_touch_or_centre(&mut self) -> Flow<()> {
        self.wait_for_touch_or(Some(Key::Centre))
    }

    /// Waits for the touch sensor to be pressed and released.
    fn wait_for_touch(&mut self) -> Flow<()> {
        self.wait_for_touch_or(None)
    }

    /// Waits for the touch sensor to be pressed and released, or `key` if one is given. Other
    /// keys are read (a press is attention) and let be.
    fn wait_for_touch_or(&mut self, key: Option<Key>) -> Flow<()> {
        self.waiting_since = self.gantry.clock().now();
        let mut pressed = false;
        loop {
            self.check_attention()?;
            let read = self.read_key()?;
            if key.is_some() && read == key {
                return Ok(());
            }
            let released = touch_released(&mut self.gantry, &mut pressed)?;
            if pressed || released {
                self.waiting_since = self.gantry.clock().now();
            }
            if released {
                return Ok(());
            }
            self.gantry.clock().sleep(PRESS_POLL);
        }
    }
}
