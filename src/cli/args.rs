//! The command line's grammar: every subcommand and option, their help and how each value is
//! checked as it is parsed (clap's derive).

use super::{default_file, robot};
use crate::ai::Difficulty;
use crate::app::MIN_IDLE_TIMEOUT;
use crate::config::CONFIG_VARIABLE;
use crate::scoreboard::store::{ScoreFile, DEFAULT_FILE, PATH_VARIABLE};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};

#[derive(Debug, Parser)]
#[command(
    name = "ev3-tictactoe",
    version,
    about = "A LEGO EV3 robot that plays noughts and crosses with a pen on paper",
    long_about = "A LEGO EV3 robot that plays noughts and crosses with a pen on paper.\n\n\
                  On the brick, `play` runs the menu and the games; with no command at all (as \
                  the brick's File Browser starts it) it plays too. Its scoreboard, robot config \
                  and log are beside the program's own file there. Anywhere, `demo` plays whole \
                  games on the simulated robot by itself, `sim` lets you play it from this \
                  terminal, and `console` plays the engine without a robot."
)]
pub struct Cli {
    /// None: on a brick, `play` (as the File Browser starts it, with no arguments); elsewhere
    /// the short help.
    #[command(subcommand)]
    pub command: Option<Command>,
}

impl Cli {
    /// The command line as given, or, with no command, `play` on a brick; `None` elsewhere
    /// (the caller prints the short help).
    pub fn or_play_on_a_brick(self) -> Option<Cli> {
        match self.command {
            Some(_) => Some(self),
            None if crate::hw::ev3dev::is_ev3dev() => {
                Cli::try_parse_from(["ev3-tictactoe", "play"]).ok()
            }
            None => None,
        }
    }
}

/// The scoreboard a command reads or keeps.
#[derive(Debug, Clone, Args)]
pub struct ScoresOption {
    /// The scoreboard file [default: scoreboard.json beside the program on a brick, else in
    /// the current folder]
    #[arg(long, env = PATH_VARIABLE, value_name = "PATH")]
    pub scores: Option<PathBuf>,
}

impl ScoresOption {
    pub(super) fn file(&self) -> ScoreFile {
        ScoreFile::new(
            self.scores
                .clone()
                .unwrap_or_else(|| default_file(DEFAULT_FILE)),
        )
    }
}

/// The robot config of a command that drives the robot.
#[derive(Debug, Clone, Args)]
pub struct ConfigOption {
    /// The robot config file [default: robot.json beside the program on a brick, else in the
    /// current folder, if there is one; else the built-in defaults that `config` prints]
    #[arg(long, env = CONFIG_VARIABLE, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

impl ConfigOption {
    /// The robot config this option names (see [`robot::load_config`]), and where it came from.
    pub fn load(&self) -> anyhow::Result<(crate::config::RobotConfig, String)> {
        robot::load_config(self.config.as_deref())
    }

    /// The file this option names, or robot.json in its place: where calibration writes.
    pub fn file(&self) -> std::path::PathBuf {
        robot::config_file(self.config.as_deref())
    }
}

/// The log of a command that drives the robot.
#[derive(Debug, Clone, Args)]
pub struct LogOption {
    /// The log file, appended to: what was read, decided and how long it took, with times
    /// (moved to PATH.1 once past 1 MB) [default: ev3-tictactoe.log beside the program on a
    /// brick, else in the current folder]
    #[arg(long, value_name = "PATH")]
    pub log: Option<PathBuf>,
}

impl LogOption {
    pub fn path(&self) -> PathBuf {
        self.log
            .clone()
            .unwrap_or_else(|| default_file("ev3-tictactoe.log"))
    }
}

/// The files of a run of the robot program: its scores, its robot, its log, and pictures of
/// what it saw.
#[derive(Debug, Clone, Args)]
pub struct RunFiles {
    #[command(flatten)]
    pub scores: ScoresOption,
    #[command(flatten)]
    pub config: ConfigOption,
    #[command(flatten)]
    pub log: LogOption,
    /// Keep a picture of every read of the board in this folder: the sheet as the colour sensor
    /// saw it (PNG) and its raw readings (CSV), the oldest removed past 20 MB. Without it, a
    /// read that saw no new mark, or several, is kept all the same, in ev3-tictactoe-reads
    /// beside the log
    #[arg(long, value_name = "FOLDER")]
    pub record: Option<PathBuf>,
}

impl RunFiles {
    /// Where this run keeps pictures of its reads.
    pub fn read_pictures(&self) -> crate::app::ReadPictures {
        let log = self.log.path();
        let beside_log = log
            .parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
            .join(READS_FOLDER);
        crate::app::ReadPictures {
            every: self.record.clone(),
            doubtful: Some(beside_log),
        }
    }
}

/// The folder beside the log that keeps pictures of the reads a person may want to see.
pub const READS_FOLDER: &str = "ev3-tictactoe-reads";

/// A part of `bench`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchPart {
    Motion,
    Engine,
    Reading,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play on the brick: the menu on the LCD and buttons, or one game with --difficulty
    ///
    /// Start it through brickrun, which hands it the LCD and buttons, with `--` before the
    /// program so that brickrun does not take the program's options for its own:
    /// brickrun -r -- ./ev3-tictactoe play --difficulty hard
    Play(PlayArgs),
    /// Play the simulated robot from this terminal: keys for the buttons, touch sensor and pen
    ///
    /// Keys: the arrows (or h j k l) are the brick's left, right, up and down buttons; Enter,
    /// space or c its centre button; 1 to 9 draw your mark in that square (1 top left, 9 bottom
    /// right, as on a phone's keypad read from the top); t presses the touch sensor; q or Esc
    /// stops the robot safely and ends; Ctrl-C too.
    Sim(SimArgs),
    /// Watch the simulated robot play whole games against a scripted human
    Demo(DemoArgs),
    /// Play a game against the robot's engine in this terminal
    Console(ConsoleArgs),
    /// Answer positions with the robot's move, one JSON line each
    ///
    /// BOARD is the rows from top to bottom separated by '/', each cell X, O or '.', e.g.
    /// X.O/.X./..O; X moves when the counts are equal, O when X has one more. Without BOARD, one
    /// board per line is read from standard input and each line is answered in order.
    Engine(EngineArgs),
    /// Show the scoreboard
    Scores {
        /// Print the scoreboard file's JSON instead of the table
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        scores: ScoresOption,
    },
    /// Reset the scoreboard to zero, keeping the old file beside it if it holds a game
    ResetScores {
        #[command(flatten)]
        scores: ScoresOption,
    },
    /// Time the robot's motions and the engine against the original robot's, and read every
    /// kind of mark across the sensor's physical ranges (a few minutes)
    Bench {
        /// Only this part: `motion` (the robot's turn and game against the original's),
        /// `engine` (the search), or `reading` (the detection matrix) [default: all three]
        #[arg(long, value_enum)]
        only: Option<BenchPart>,
    },
    /// Print the default robot config, ready to save as robot.json and edit
    Config,
    /// Home the robot, measure its travel, read the paper and a mark, and suggest thresholds
    Calibrate(CalibrateArgs),
    /// Started by the program itself on the brick: stops the motors if the program is killed
    #[command(hide = true)]
    Sentinel {
        /// The motors' kinds, ports and polarity, as JSON
        wiring: String,
        /// The pen lift's homing duty, percent
        pen_duty: String,
    },
}

/// What every way of running the robot program shares.
#[derive(Debug, Args)]
pub struct ProgramArgs {
    /// Waiting for you this long with nothing pressed, park and exit to save the battery (at
    /// least 30s; the robot's own work does not count)
    #[arg(long, default_value = "5m", value_parser = idle_timeout, value_name = "TIME", allow_hyphen_values = true)]
    pub idle_timeout: std::time::Duration,
    /// Save every picture shown on the LCD as a PNG in this folder
    #[arg(long, value_name = "FOLDER")]
    pub lcd_dir: Option<PathBuf>,
    /// Seed for the robot's random choices [default: random]
    #[arg(long, allow_hyphen_values = true)]
    pub seed: Option<u64>,
    /// Do not speak. The robot says the key moments aloud through espeak where it is
    /// installed (ev3dev ships it): your turn, its move, a mark not seen, the result, an error
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub program: ProgramArgs,
    #[command(flatten)]
    pub files: RunFiles,
    /// Skip the menu and play one game at this level: easy, medium, hard (or the robot
    /// config's names for them), or a share of best moves such as 75%
    #[arg(long, value_parser = level, value_name = "LEVEL", allow_hyphen_values = true)]
    pub difficulty: Option<Difficulty>,
    /// With --difficulty: who moves first (and plays X)
    #[arg(long, value_enum, default_value_t = Starter::Human, requires = "difficulty")]
    pub first: Starter,
    /// Skip the menu: 2 referees one game between two people (X, then O), the robot drawing
    /// the grid and reading the moves
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2), conflicts_with = "difficulty", allow_hyphen_values = true)]
    pub players: Option<u8>,
}

#[derive(Debug, Args)]
pub struct SimArgs {
    #[command(flatten)]
    pub files: RunFiles,
    #[command(flatten)]
    pub program: ProgramArgs,
    /// How many times faster than real time the simulated robot moves
    #[arg(long, default_value_t = 3.0, value_parser = positive_speed, allow_hyphen_values = true)]
    pub speed: f64,
    /// Save the sheet here at the end (.svg, or .png)
    #[arg(long, value_name = "FILE", value_parser = sheet_file)]
    pub paper: Option<PathBuf>,
    /// The simulated world: a JSON file of pen widths, inks, sensor noise and timing (see
    /// src/hw/sim/settings_file.rs) [default: the built-in world, no kinder than a brick]
    #[arg(long, value_name = "FILE")]
    pub world: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct DemoArgs {
    #[command(flatten)]
    pub files: RunFiles,
    /// How many games to play
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000), allow_hyphen_values = true)]
    pub games: u32,
    /// How well the robot plays: easy, medium, hard, or a share of best moves such as 75%
    #[arg(long, value_parser = level, default_value = "hard", value_name = "LEVEL", allow_hyphen_values = true)]
    pub difficulty: Difficulty,
    /// 1: the scripted human plays the robot; 2: two scripted people play each other, the
    /// robot as referee
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2), allow_hyphen_values = true)]
    pub players: u8,
    /// How the scripted human plays
    #[arg(long, value_enum, default_value_t = HumanStrategy::Random)]
    pub human: HumanStrategy,
    /// Who moves first in each game (and plays X)
    #[arg(long, value_enum, default_value_t = Starter::Coin)]
    pub first: Starter,
    /// Seed for the robot's and the human's choices, so a demo can be repeated
    #[arg(long, default_value_t = 1, allow_hyphen_values = true)]
    pub seed: u64,
    /// Save the last game's sheet here (.svg, or .png)
    #[arg(long, value_name = "FILE", default_value = "demo-sheet.svg", value_parser = sheet_file)]
    pub paper: PathBuf,
    /// Save every picture shown on the LCD as a PNG in this folder
    #[arg(long, value_name = "FOLDER")]
    pub lcd_dir: Option<PathBuf>,
    /// Print every screen as the LCD shows it, not only the moves
    #[arg(long)]
    pub screens: bool,
    /// Say the key moments aloud through espeak, as play and sim do (the demo is quiet
    /// without it)
    #[arg(long)]
    pub speak: bool,
    /// The simulated world: a JSON file of pen widths, inks, sensor noise and timing (see
    /// src/hw/sim/settings_file.rs) [default: the built-in world, no kinder than a brick]
    #[arg(long, value_name = "FILE")]
    pub world: Option<PathBuf>,
}

/// Who moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Starter {
    Human,
    Robot,
    /// A coin toss before each game
    Coin,
}

impl Starter {
    pub fn first_move(self) -> crate::ui::menu::FirstMove {
        use crate::ui::menu::FirstMove;
        match self {
            Starter::Human => FirstMove::Human,
            Starter::Robot => FirstMove::Robot,
            Starter::Coin => FirstMove::CoinToss,
        }
    }
}

/// How the demo's scripted human plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HumanStrategy {
    /// A random empty square
    Random,
    /// Always a best move (it never loses)
    Perfect,
}

/// An idle timeout: a duration ("90s", "5m") no shorter than [`MIN_IDLE_TIMEOUT`].
fn idle_timeout(text: &str) -> Result<std::time::Duration, String> {
    if text.trim_start().starts_with('-') {
        return Err(format!(
            "{text:?} is negative; give a time such as 90s or 5m"
        ));
    }
    let duration = humantime::parse_duration(text)
        .map_err(|error| format!("{text:?} is not a time such as 90s or 5m ({error})"))?;
    if duration < MIN_IDLE_TIMEOUT {
        return Err(format!(
            "{text:?} is shorter than the least the robot waits for a person, {}",
            humantime::format_duration(MIN_IDLE_TIMEOUT)
        ));
    }
    Ok(duration)
}

/// A file to save a sheet in: the name says SVG or PNG, the two formats the sheet is drawn in.
fn sheet_file(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match extension.as_deref() {
        Some("svg" | "png") => Ok(path),
        _ => Err(format!(
            "{text:?} does not end in .svg or .png, the formats the sheet is saved in"
        )),
    }
}

fn positive_speed(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(speed) if (0.1..=1000.0).contains(&speed) => Ok(speed),
        _ => Err(format!("{text:?} is not a speed from 0.1 to 1000")),
    }
}

#[derive(Debug, Args)]
pub struct CalibrateArgs {
    #[command(flatten)]
    pub config: ConfigOption,
    #[command(flatten)]
    pub log: LogOption,
    /// Calibrate the simulated robot instead of the brick's
    #[arg(long)]
    pub sim: bool,
    /// How long to wait for the touch sensor after asking for a mark, in seconds
    #[arg(
        long,
        default_value_t = 120,
        value_name = "SECONDS",
        allow_hyphen_values = true
    )]
    pub wait: u64,
    /// With --sim: save the simulated sheet here (.svg, or .png)
    #[arg(long, value_name = "FILE", requires = "sim", value_parser = sheet_file)]
    pub paper: Option<PathBuf>,
    /// With --sim: the simulated world, a JSON file (see src/hw/sim/settings_file.rs)
    #[arg(long, value_name = "FILE", requires = "sim")]
    pub world: Option<PathBuf>,
    /// Work out each axis's mm_per_deg from a grid this config drew, measured with a ruler:
    /// a line the columns axis drew, end to end, then one the rows axis drew, in mm (for
    /// example 65x64, or 65 for both). Needs no robot; prints the settings and the sensing
    /// lengths they give
    #[arg(
        long,
        value_name = "COLUMNSxROWS",
        value_parser = ruler_lengths,
        allow_hyphen_values = true,
        conflicts_with_all = ["sim", "paper", "world"]
    )]
    pub grid_mm: Option<(f64, f64)>,
}

/// `65x64` (or `65` for both): two lengths in millimetres, each more than 0 and at most a
/// metre.
fn ruler_lengths(text: &str) -> Result<(f64, f64), String> {
    let length = |part: &str| -> Result<f64, String> {
        match part.trim().parse::<f64>() {
            Ok(mm) if mm > 0.0 && mm <= 1000.0 => Ok(mm),
            _ => Err(format!(
                "{part:?} is not a length in mm from 0 to 1000 (give two as 65x64, or one)"
            )),
        }
    };
    match text.split_once(['x', 'X']) {
        Some((columns, rows)) => Ok((length(columns)?, length(rows)?)),
        None => length(text).map(|mm| (mm, mm)),
    }
}

/// The variant of the game.
#[derive(Debug, Clone, Args)]
pub struct VariantArgs {
    /// Board side, from 3 to 10 [default: 3; for `engine`, the size of the BOARD given]
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=10), allow_hyphen_values = true)]
    pub size: Option<u8>,
    /// Marks in a row that win, from 3 to the board side [default: the board side]
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=10), allow_hyphen_values = true)]
    pub k: Option<u8>,
}

#[derive(Debug, Args)]
pub struct EngineArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// How well the robot plays: easy, medium, hard, or a share of best moves such as 75%
    #[arg(long, value_parser = level, default_value = "hard", value_name = "LEVEL", allow_hyphen_values = true)]
    pub difficulty: Difficulty,
    /// Seed for every random choice, so that answers can be reproduced [default: random]
    #[arg(long, allow_hyphen_values = true)]
    pub seed: Option<u64>,
    /// The position to answer; without it, positions are read from standard input
    pub board: Option<String>,
}

#[derive(Debug, Args)]
pub struct ConsoleArgs {
    #[command(flatten)]
    pub scores: ScoresOption,
    #[command(flatten)]
    pub variant: VariantArgs,
    /// How well the robot plays: easy, medium, hard, or a share of best moves such as 75%
    #[arg(long, value_parser = level, default_value = "medium", value_name = "LEVEL", allow_hyphen_values = true)]
    pub difficulty: Difficulty,
    /// Who makes the first move (and plays X)
    #[arg(long, value_enum, default_value_t = Starter::Human, conflicts_with = "players")]
    pub first: Starter,
    /// People at the keyboard, 2 to 6, taking turns on one board, each with a letter of their
    /// own (X, O, A, H, K, V); with 3 or more the board defaults to one square more a side than
    /// there are players, and 3 in a row wins. Not kept on the scoreboard
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=6), allow_hyphen_values = true)]
    pub players: Option<u8>,
    /// With --players 2: the seats the robot takes, X, O or both (X,O), at --difficulty
    #[arg(long, value_name = "SEATS", value_parser = engine_seats, requires = "players")]
    pub engine: Option<EngineSeats>,
    /// Seed for the robot's random choices [default: random]
    #[arg(long, allow_hyphen_values = true)]
    pub seed: Option<u64>,
    /// Do not speak. The robot says the key moments aloud through espeak where it is
    /// installed (ev3dev ships it): your turn, its move, a mark not seen, the result, an error
    #[arg(long)]
    pub quiet: bool,
}

/// The seats the engine takes in a two-player `console` game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSeats(pub Vec<crate::game::Seat>);

/// The seats the engine takes: letters of the first two seats, X and O, separated by commas.
fn engine_seats(text: &str) -> Result<EngineSeats, String> {
    let mut seats = Vec::new();
    for part in text.split(',') {
        let seat = match part.trim().to_ascii_uppercase().as_str() {
            "X" => crate::game::Seat(0),
            "O" => crate::game::Seat(1),
            other => {
                return Err(format!(
                    "{other:?} is not a seat the robot can take: give X, O or X,O (its search \
                     plays two-player games)"
                ))
            }
        };
        if !seats.contains(&seat) {
            seats.push(seat);
        }
    }
    Ok(EngineSeats(seats))
}

/// A level: a built-in name (easy 0 % best moves, medium 50 %, hard 100 %) or a share of best
/// moves ("75%", as the LED game of seed 001 offers).
fn level(text: &str) -> Result<Difficulty, String> {
    Difficulty::parse(text).map_err(|error| error.to_string())
}
