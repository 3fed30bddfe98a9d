//! The robot's configuration: ports, motors, geometry, sensing thresholds and time limits.
//!
//! One JSON schema, every field defaulted, so a file needs to hold only what differs from the
//! robot in the original report (`ev3-tictactoe config` prints the whole default file, ready to
//! edit). Positions and moves are in encoder degrees of the motor that makes them, because that
//! is what the robot measures; each axis also says how many millimetres a degree moves it
//! (`mm_per_deg`), and what is physical by nature (the sensor's spot, the pen's line) is given in
//! millimetres, so the robot knows every length it senses in both units (see
//! [`crate::physical`]).
//!
//! Coordinates: the columns axis carries the arm across the paper, the rows axis moves the arm
//! along its length. Each axis's zero is where homing leaves it, a little way off its end stop,
//! and positions grow away from that stop. The pen's zero is its top; down is positive.

use serde::{Deserialize, Serialize};
use std::path::Path;
use tictactoe_hardware::Wiring;

/// The version of the config schema this program writes.
pub const CONFIG_VERSION: u32 = 1;

/// Environment variable that names the robot config file.
pub const CONFIG_VARIABLE: &str = "EV3_TICTACTOE_CONFIG";

/// The whole robot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RobotConfig {
    /// Schema version (default: 1).
    pub version: u32,
    /// The motor that moves the carriage along the columns axis (default: large motor on outC).
    pub columns: AxisConfig,
    /// The motor that moves the arm along the rows axis (default: large motor on outA).
    pub rows: AxisConfig,
    /// The pen-lift motor (default: medium motor on outB).
    pub pen: PenConfig,
    /// Where the grid is drawn.
    pub board: BoardGeometry,
    /// The colour sensor and how the board is read.
    pub sensing: SensingConfig,
    /// The touch sensor's port (default: in4).
    pub touch_port: String,
    /// Slack allowed on every motion's time limit, added to the time the motion should take
    /// (default: 1000 ms).
    pub motion_timeout_slack_ms: u64,
    /// The levels on the menu's left, centre and right buttons (default: easy 0 % best moves
    /// for 1 point, medium 50 % for 2, hard 100 % for 3).
    pub levels: [LevelConfig; 3],
}

/// A level on the brick's menu: what it is called, how often it plays a best move, and what
/// beating it is worth.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelConfig {
    /// The name on the menu and the scoreboard, up to 6 characters so it fits the LCD.
    pub name: String,
    /// How many moves in a hundred are a best move (the rest are random), 0 to 100.
    pub best_moves_percent: u8,
    /// Points a win at this level adds to the score, 1 to 100.
    pub points: u32,
}

impl LevelConfig {
    pub fn difficulty(&self) -> crate::ai::Difficulty {
        crate::ai::Difficulty::new(
            &self.name,
            f64::from(self.best_moves_percent) / 100.0,
            self.points,
        )
    }
}

pub use tictactoe_hardware::{Axis, MotorKind, Polarity};

/// One axis of the gantry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AxisConfig {
    /// EV3 output port, `outA` to `outD` (default: outC for columns, outA for rows).
    pub port: String,
    /// `large` or `medium` (default: large).
    pub kind: MotorKind,
    /// `inversed` if the axis moves toward its end stop when the motor turns forward
    /// (default: normal).
    pub polarity: Polarity,
    /// Usable travel from the homed zero, in degrees; moves beyond it are refused (default: 520
    /// for columns, 340 for rows).
    pub travel_deg: i32,
    /// How far the axis moves per degree of its motor, in mm (default: 0.2133, a 24-tooth gear
    /// on a LEGO rack: 24 teeth of 3.2 mm a turn). `calibrate --grid-mm` measures it from the
    /// grid the robot drew.
    pub mm_per_deg: f64,
    /// Speed for moves with the pen up, in deg/s (default: 600).
    pub speed_deg_per_s: u32,
    /// Speed while drawing, in deg/s: slower, so the ink takes (default: 400).
    pub draw_speed_deg_per_s: u32,
    /// How the axis finds its end stop.
    pub homing: HomingConfig,
}

/// How an axis (or the pen) finds its end stop. See [`crate::motion::stall`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HomingConfig {
    /// Duty cycle toward the end stop, in percent; low, to spare the rack's teeth (default: 25
    /// for the axes, 30 for the pen).
    pub duty_percent: u8,
    /// Readings in the first instants are ignored, in ms: a motor starting from rest reads as
    /// stalled (default: 200).
    pub ignore_start_ms: u64,
    /// A stall counts only once it has lasted this long, in ms (default: 150).
    pub stall_confirm_ms: u64,
    /// The axis counts as stopped once its position has changed by no more than this over
    /// `stall_confirm_ms`, in degrees (default: 1; see [`crate::motion::stall`]).
    pub still_deg: i32,
    /// After the stall, the axis backs off this far and calls that zero, in degrees
    /// (default: 10 for the axes, 3 for the pen).
    pub backoff_deg: i32,
    /// An axis that has turned less than this, in degrees, has not moved more than the gears'
    /// play (default: 4).
    pub moved_deg: i32,
    /// How often the motor is read, in ms (default: 10).
    pub poll_ms: u64,
}

/// The pen lift.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PenConfig {
    /// EV3 output port, `outA` to `outD` (default: outB).
    pub port: String,
    /// `large` or `medium` (default: medium).
    pub kind: MotorKind,
    /// `inversed` if the motor lifts the pen when it turns forward (default: normal).
    pub polarity: Polarity,
    /// How far below the top (after backing off) the pen touches the paper, in degrees
    /// (default: 30).
    pub down_deg: i32,
    /// The pen's whole travel, top stop to bottom stop, in degrees; homing gives up after 1.5
    /// times this (default: 50).
    pub travel_deg: i32,
    /// Speed up and down, in deg/s (default: 600).
    pub speed_deg_per_s: u32,
    /// Time for the ink to take after the pen lands, before it moves (default: 50 ms).
    pub settle_ms: u64,
    /// The width of the pen's line on the paper, in mm (default: 1.0, a fine-point marker).
    pub line_mm: f64,
    /// Going down, the pen may meet the paper (and stop) up to this many degrees above
    /// `down_deg`: that is touching down, not a jam. Stopping higher up is an error. The
    /// height the pen meets the paper at depends on the paper's thickness and the pen's length,
    /// so `calibrate` measures it, in degrees (default: 8).
    pub contact_band_deg: i32,
    /// How the pen finds its top stop.
    pub homing: HomingConfig,
}

/// Where things are on the paper, as positions of the pen in axis degrees.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BoardGeometry {
    /// Squares along each side of the grid, 3 or 4 (default: 3). A 4 x 4 grid needs smaller
    /// squares on the same sheet: `square_deg` 75 fits the default robot.
    pub size: usize,
    /// Marks in a row that win, from 3 to `size` (default: null, meaning `size`).
    pub k: Option<usize>,
    /// The grid's corner nearest both axes' zero, in degrees (default: columns 20, rows 20).
    pub grid_origin_deg: AxisPoint,
    /// The side of one square, in degrees (default: 100).
    pub square_deg: i32,
    /// The robot's mark: `letter` (an X or an O), or `dot` where drawing letters is not wanted
    /// (default: letter).
    pub mark_style: MarkStyle,
    /// The width and height of the robot's X or O, in degrees (default: 60).
    pub mark_size_deg: i32,
    /// Sides of the polygon that draws an O (default: 16).
    pub o_segments: u32,
    /// Drawing a path, the pen moves on to the next corner once this close to the current one,
    /// in degrees, instead of stopping there (0: stop at every corner; default: 3).
    pub corner_blend_deg: i32,
    /// How far the line through a winning three reaches past the outer squares' centres, in
    /// degrees (default: 30).
    pub win_line_overhang_deg: i32,
    /// The sheet of paper's corner nearest both axes' zero: the pen is never lowered outside
    /// the sheet (default: columns 0, rows 0).
    pub sheet_min_deg: AxisPoint,
    /// The sheet's far corner (default: columns 340, rows 340).
    pub sheet_max_deg: AxisPoint,
    /// Targets are always approached moving forward, from this far below, in degrees, so
    /// backlash is taken up the same way every time (default: 15).
    pub approach_deg: i32,
}

/// A position of the two gantry axes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AxisPoint {
    pub columns: i32,
    pub rows: i32,
}

impl AxisPoint {
    pub const fn new(columns: i32, rows: i32) -> AxisPoint {
        AxisPoint { columns, rows }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MarkStyle {
    Letter,
    Dot,
}

/// The colour sensor and the reading of squares.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SensingConfig {
    /// EV3 input port, `in1` to `in4` (default: in1).
    pub colour_port: String,
    /// To put the sensor over a point, the pen goes to the point plus this offset, in degrees
    /// (default: columns 170, rows 0).
    pub sensor_offset_deg: AxisPoint,
    /// Sweep speed, in deg/s of the columns axis: the most a sweep that reads marks may run;
    /// it runs slower when the readings come too slowly to be half of the spot apart
    /// (default: 400).
    pub sweep_speed_deg_per_s: u32,
    /// The diameter of the patch of paper the colour sensor averages over, in mm: 6 with the
    /// sensor nearly touching the paper, about 12 a centimetre above it (default: 12.0; see
    /// `docs/sensor.md`). It sets how much of each square can be read clear of the grid lines
    /// (the sweep's window and the second look's lines, see [`crate::physical`]) and how far
    /// apart the readings may fall.
    pub spot_mm: f64,
    /// Time between two samples while sweeping, in ms (default: 10, as often as ev3dev polls a
    /// UART sensor).
    pub sample_ms: u64,
    /// A square is marked when its darkest stretch on any line reads at least this many percent
    /// darker than the same square's blank paper, or five times its noise if that is more
    /// (default: 15; see [`crate::motion::sensing`]).
    pub mark_contrast_percent: u8,
    /// A dip at least this many percent darker, and 4.5 times its noise, is a faint mark if it
    /// shows on two lines, and a reason to look again if on one (default: 6).
    pub faint_contrast_percent: u8,
    /// Consecutive samples averaged into one stretch, so one noisy sample is not a mark
    /// (default: 2).
    pub samples_per_stretch: usize,
    /// Reflected light below which nothing is trusted: paper this dark is no paper
    /// (default: 20).
    pub min_blank_percent: u8,
}

impl RobotConfig {
    /// What the hardware layer opens: each motor's kind, port and polarity, and the sensors'
    /// ports.
    pub fn wiring(&self) -> Wiring {
        let motor = |axis| {
            (
                self.kind(axis),
                self.port(axis).to_string(),
                self.polarity(axis),
            )
        };
        Wiring {
            columns: motor(Axis::Columns),
            rows: motor(Axis::Rows),
            pen: motor(Axis::Pen),
            colour_port: self.sensing.colour_port.clone(),
            touch_port: self.touch_port.clone(),
        }
    }

    /// The port of `axis`'s motor.
    pub fn port(&self, axis: Axis) -> &str {
        match axis {
            Axis::Columns => &self.columns.port,
            Axis::Rows => &self.rows.port,
            Axis::Pen => &self.pen.port,
        }
    }

    /// The kind of `axis`'s motor.
    pub fn kind(&self, axis: Axis) -> MotorKind {
        match axis {
            Axis::Columns => self.columns.kind,
            Axis::Rows => self.rows.kind,
            Axis::Pen => self.pen.kind,
        }
    }

    /// Which way `axis`'s motor turns.
    pub fn polarity(&self, axis: Axis) -> Polarity {
        match axis {
            Axis::Columns => self.columns.polarity,
            Axis::Rows => self.rows.polarity,
            Axis::Pen => self.pen.polarity,
        }
    }

    /// How `axis` finds its end stop.
    pub fn homing(&self, axis: Axis) -> &HomingConfig {
        match axis {
            Axis::Columns => &self.columns.homing,
            Axis::Rows => &self.rows.homing,
            Axis::Pen => &self.pen.homing,
        }
    }

    /// How many millimetres a degree of each gantry axis moves it.
    pub fn scale(&self) -> crate::physical::Scale {
        crate::physical::Scale {
            columns_mm_per_deg: self.columns.mm_per_deg,
            rows_mm_per_deg: self.rows.mm_per_deg,
        }
    }

    /// Where in each square the sensor reads, clear of the grid lines (see
    /// [`crate::physical::ReadingGeometry`]).
    pub fn reading_geometry(&self) -> crate::physical::ReadingGeometry {
        crate::physical::ReadingGeometry::new(
            self.scale(),
            self.sensing.spot_mm,
            self.pen.line_mm,
            self.board.square_deg,
        )
    }

    /// How far `axis` may move from its homed zero.
    pub fn travel_deg(&self, axis: Axis) -> i32 {
        match axis {
            Axis::Columns => self.columns.travel_deg,
            Axis::Rows => self.rows.travel_deg,
            Axis::Pen => self.pen.travel_deg,
        }
    }
}

impl Default for RobotConfig {
    fn default() -> Self {
        RobotConfig {
            version: CONFIG_VERSION,
            columns: AxisConfig {
                port: "outC".into(),
                travel_deg: 520,
                ..AxisConfig::default()
            },
            rows: AxisConfig {
                port: "outA".into(),
                travel_deg: 340,
                ..AxisConfig::default()
            },
            pen: PenConfig::default(),
            board: BoardGeometry::default(),
            sensing: SensingConfig::default(),
            touch_port: "in4".into(),
            motion_timeout_slack_ms: 1000,
            levels: crate::ai::Difficulty::levels().map(|level| LevelConfig {
                name: level.name,
                best_moves_percent: (level.optimal_move_probability * 100.0).round() as u8,
                points: level.win_points,
            }),
        }
    }
}

impl Default for AxisConfig {
    fn default() -> Self {
        AxisConfig {
            port: "outA".into(),
            kind: MotorKind::Large,
            polarity: Polarity::Normal,
            travel_deg: 340,
            // physical::rack_mm_per_deg(24), to four places, so it prints and reads back exactly.
            mm_per_deg: 0.2133,
            speed_deg_per_s: 600,
            draw_speed_deg_per_s: 400,
            homing: HomingConfig::default(),
        }
    }
}

impl Default for HomingConfig {
    fn default() -> Self {
        HomingConfig {
            duty_percent: 25,
            ignore_start_ms: 200,
            stall_confirm_ms: 150,
            still_deg: 1,
            backoff_deg: 10,
            moved_deg: 4,
            poll_ms: 10,
        }
    }
}

impl Default for PenConfig {
    fn default() -> Self {
        PenConfig {
            port: "outB".into(),
            kind: MotorKind::Medium,
            polarity: Polarity::Normal,
            down_deg: 30,
            travel_deg: 50,
            speed_deg_per_s: 600,
            settle_ms: 50,
            line_mm: 1.0,
            contact_band_deg: 8,
            homing: HomingConfig {
                duty_percent: 30,
                backoff_deg: 3,
                ..HomingConfig::default()
            },
        }
    }
}

impl BoardGeometry {
    /// The game drawn on the paper. Only meaningful on a checked config: an unchecked size or
    /// run falls back to the classic game.
    pub fn rules(&self) -> crate::game::Rules {
        crate::game::Rules::new(self.size, self.k.unwrap_or(self.size))
            .unwrap_or_else(|_| crate::game::Rules::classic())
    }

    /// Where the pen is over the centre of `cell`. Row 0 is nearest the rows axis's zero,
    /// column 0 nearest the columns axis's zero.
    /// The same board on a sheet that lies `by` further from both axes' end stops: the grid
    /// and the sheet's corners move together, as they do when the paper slides.
    pub fn shifted(&self, by: AxisPoint) -> BoardGeometry {
        let moved = |p: AxisPoint| AxisPoint::new(p.columns + by.columns, p.rows + by.rows);
        BoardGeometry {
            grid_origin_deg: moved(self.grid_origin_deg),
            sheet_min_deg: moved(self.sheet_min_deg),
            sheet_max_deg: moved(self.sheet_max_deg),
            ..self.clone()
        }
    }

    pub fn cell_centre(&self, cell: crate::game::Cell) -> AxisPoint {
        let half = self.square_deg / 2;
        AxisPoint::new(
            self.grid_origin_deg.columns + cell.col as i32 * self.square_deg + half,
            self.grid_origin_deg.rows + cell.row as i32 * self.square_deg + half,
        )
    }
}

impl Default for BoardGeometry {
    fn default() -> Self {
        BoardGeometry {
            size: 3,
            k: None,
            grid_origin_deg: AxisPoint::new(20, 20),
            square_deg: 100,
            mark_style: MarkStyle::Letter,
            mark_size_deg: 60,
            o_segments: 16,
            corner_blend_deg: 3,
            win_line_overhang_deg: 30,
            sheet_min_deg: AxisPoint::new(0, 0),
            sheet_max_deg: AxisPoint::new(340, 340),
            approach_deg: 15,
        }
    }
}

impl Default for SensingConfig {
    fn default() -> Self {
        SensingConfig {
            colour_port: "in1".into(),
            sensor_offset_deg: AxisPoint::new(170, 0),
            sweep_speed_deg_per_s: 400,
            spot_mm: 12.0,
            sample_ms: 10,
            mark_contrast_percent: 15,
            faint_contrast_percent: 6,
            samples_per_stretch: 2,
            min_blank_percent: 20,
        }
    }
}

/// A config that cannot be used, naming the field and the problem.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read robot config {path}: {cause}")]
    Read { path: String, cause: std::io::Error },
    #[error("robot config {path}: {message}")]
    Parse { path: String, message: String },
    #[error("robot config {path}: {field} {problem}")]
    Invalid {
        path: String,
        field: String,
        problem: String,
    },
}

/// Settings an older robot.json may still hold, each with what took its place: a file written
/// for an earlier version gets a sentence saying what to change, not just "unknown field".
const RETIRED_FIELDS: [(&str, &str, &str); 3] = [
    (
        "sensing",
        "spot_deg",
        "give the sensor's spot on the paper in millimetres as sensing.spot_mm (docs/sensor.md)",
    ),
    (
        "sensing",
        "sweep_deg",
        "the stretch read in each square follows from sensing.spot_mm, pen.line_mm, \
         board.square_deg and the axes' mm_per_deg",
    ),
    (
        "sensing",
        "second_look_offset_deg",
        "a second look runs up to a quarter of a square off the first, clear of the grid lines",
    ),
];

impl RobotConfig {
    /// Reads and checks a config file.
    pub fn load(path: &Path) -> Result<RobotConfig, ConfigError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|cause| ConfigError::Read {
            path: shown.clone(),
            cause,
        })?;
        RobotConfig::parse(&text, &shown)
    }

    /// Parses and checks config text; `path` only names it in errors.
    pub fn parse(text: &str, path: &str) -> Result<RobotConfig, ConfigError> {
        let parse_error = |message: String| ConfigError::Parse {
            path: path.to_string(),
            message,
        };
        let given = crate::strict_json::parse(text).map_err(|e| parse_error(e.to_string()))?;
        if !given.is_object() {
            return Err(parse_error("must be a JSON object".to_string()));
        }
        for (section, name, instead) in RETIRED_FIELDS {
            if given.get(section).and_then(|s| s.get(name)).is_some() {
                return Err(parse_error(format!(
                    "{section}.{name} is no longer a setting: {instead}"
                )));
            }
        }
        // Fields left out take the default robot's values, at every depth: a file that names only
        // `rows.port` keeps the rows axis's own travel, not some generic axis's.
        let mut merged = serde_json::to_value(RobotConfig::default()).expect("serialises");
        merge(&mut merged, given);
        let config: RobotConfig = serde_path_to_error::deserialize(merged).map_err(|e| {
            let field = e.path().to_string();
            parse_error(format!("{field}: {}", e.into_inner()))
        })?;
        config
            .validate()
            .map_err(|(field, problem)| ConfigError::Invalid {
                path: path.to_string(),
                field,
                problem,
            })?;
        Ok(config)
    }

    /// The default config as the JSON `ev3-tictactoe config` prints.
    pub fn default_json() -> String {
        serde_json::to_string_pretty(&RobotConfig::default()).expect("the config serialises") + "\n"
    }

    /// Every square, in the order people number them, must lie on the sheet (the pen draws its
    /// edges), and every point the pen or the sensor visits for it, approach included, inside
    /// the travel. The first square that does not is named, with how far it misses: on a
    /// bigger board that is what tells a person which setting to shrink.
    pub(crate) fn check_every_square_is_reachable(&self) -> Checked {
        let board = &self.board;
        let sensor = self.sensing.sensor_offset_deg;
        let size = board.size;
        for index in 0..size * size {
            let cell = crate::game::Cell::from_index(index, size);
            let square = cell.name(size);
            let near = AxisPoint::new(
                board.grid_origin_deg.columns + cell.col as i32 * board.square_deg,
                board.grid_origin_deg.rows + cell.row as i32 * board.square_deg,
            );
            let far = AxisPoint::new(
                near.columns + board.square_deg,
                near.rows + board.square_deg,
            );
            for (axis, near, far, sheet_min, sheet_max, offset, travel) in [
                (
                    "columns",
                    near.columns,
                    far.columns,
                    board.sheet_min_deg.columns,
                    board.sheet_max_deg.columns,
                    sensor.columns,
                    self.columns.travel_deg,
                ),
                (
                    "rows",
                    near.rows,
                    far.rows,
                    board.sheet_min_deg.rows,
                    board.sheet_max_deg.rows,
                    sensor.rows,
                    self.rows.travel_deg,
                ),
            ] {
                check(
                    near >= sheet_min,
                    "board.grid_origin_deg",
                    format!(
                        "puts {square} at {axis} {near}, {} before the sheet (board.sheet_min_deg {axis} {sheet_min})",
                        sheet_min - near
                    ),
                )?;
                // Where even the first square misses, the grid starts too far; else the
                // squares are too big for this many of them.
                let first_misses = index == 0;
                check(
                    far <= sheet_max,
                    if first_misses {
                        "board.grid_origin_deg"
                    } else {
                        "board.square_deg"
                    },
                    if first_misses {
                        format!(
                            "puts {square} at {axis} {near}..{far}, {} past the sheet (board.sheet_max_deg {axis} {sheet_max})",
                            far - sheet_max
                        )
                    } else {
                        format!(
                            "is {}, so {square} reaches {axis} {far}, {} past the sheet (board.sheet_max_deg {axis} {sheet_max}): make the squares smaller or the grid start nearer zero",
                            board.square_deg,
                            far - sheet_max
                        )
                    },
                )?;
                for (who, shift) in [("pen", 0), ("sensor", offset)] {
                    let low = near + shift - board.approach_deg;
                    let high = far + shift + board.approach_deg;
                    check(
                        low >= 0,
                        &format!("{axis}.travel_deg"),
                        format!(
                            "starts at 0, but the {who} over {square} needs {axis} {low}, {} below it",
                            -low
                        ),
                    )?;
                    check(
                        high <= travel,
                        &format!("{axis}.travel_deg"),
                        format!(
                            "is {travel}, but the {who} over {square} needs {axis} {high}, {} beyond it",
                            high - travel
                        ),
                    )?;
                }
            }
        }
        Ok(())
    }

    /// The levels on the menu's buttons, left to right.
    pub fn menu_levels(&self) -> [crate::ai::Difficulty; 3] {
        [0, 1, 2].map(|i| self.levels[i].difficulty())
    }

    /// `asked` as this robot plays it: a menu level of the same name, with its points and
    /// share of best moves, or `asked` itself (a built-in level or a percentage).
    pub fn level(&self, asked: &crate::ai::Difficulty) -> crate::ai::Difficulty {
        self.levels
            .iter()
            .find(|level| level.name.eq_ignore_ascii_case(&asked.name))
            .map_or_else(|| asked.clone(), LevelConfig::difficulty)
    }

    /// Checks what serde cannot: ranges and how the parts fit together.
    pub fn validate(&self) -> Checked {
        check(
            self.version == CONFIG_VERSION,
            "version",
            format!(
                "is {}, but this program reads version {CONFIG_VERSION}",
                self.version
            ),
        )?;
        for (field, port) in [
            ("columns.port", &self.columns.port),
            ("rows.port", &self.rows.port),
            ("pen.port", &self.pen.port),
        ] {
            check(
                matches!(port.as_str(), "outA" | "outB" | "outC" | "outD"),
                field,
                format!("is {port:?}; an EV3 output port is outA, outB, outC or outD"),
            )?;
        }
        for (field, port) in [
            ("sensing.colour_port", &self.sensing.colour_port),
            ("touch_port", &self.touch_port),
        ] {
            check(
                matches!(port.as_str(), "in1" | "in2" | "in3" | "in4"),
                field,
                format!("is {port:?}; an EV3 input port is in1, in2, in3 or in4"),
            )?;
        }
        let motors = [
            ("columns.port", &self.columns.port),
            ("rows.port", &self.rows.port),
            ("pen.port", &self.pen.port),
        ];
        for (i, (field, port)) in motors.iter().enumerate() {
            for (other, other_port) in &motors[..i] {
                check(
                    port != other_port,
                    field,
                    format!("is {port}, which {other} already uses"),
                )?;
            }
        }
        check(
            self.sensing.colour_port != self.touch_port,
            "touch_port",
            format!(
                "is {}, which sensing.colour_port already uses",
                self.touch_port
            ),
        )?;
        check(
            self.motion_timeout_slack_ms <= 60_000,
            "motion_timeout_slack_ms",
            format!(
                "is {}; it must be from 0 to 60000 (a minute)",
                self.motion_timeout_slack_ms
            ),
        )?;
        for (field, axis) in [("columns", &self.columns), ("rows", &self.rows)] {
            axis.validate(field)?;
        }
        let pen = &self.pen;
        check(
            (10..=3600).contains(&pen.travel_deg),
            "pen.travel_deg",
            format!("is {}; it must be from 10 to 3600", pen.travel_deg),
        )?;
        check(
            pen.settle_ms <= 5_000,
            "pen.settle_ms",
            format!("is {}; it must be from 0 to 5000", pen.settle_ms),
        )?;
        check(
            pen.down_deg > 0 && pen.down_deg + pen.homing.backoff_deg < pen.travel_deg,
            "pen.down_deg",
            format!(
                "is {}; it must be above 0, and with the back-off ({}) below pen.travel_deg ({})",
                pen.down_deg, pen.homing.backoff_deg, pen.travel_deg
            ),
        )?;
        check(
            (0..=pen.down_deg).contains(&pen.contact_band_deg),
            "pen.contact_band_deg",
            format!(
                "is {}; it must be from 0 to pen.down_deg ({})",
                pen.contact_band_deg, pen.down_deg
            ),
        )?;
        check_speed("pen.speed_deg_per_s", pen.speed_deg_per_s, pen.kind)?;
        pen.homing.validate("pen.homing")?;
        let board = &self.board;
        // Positions stay far inside i32, so no sum of them can overflow.
        for (field, point) in [
            ("board.grid_origin_deg", board.grid_origin_deg),
            ("board.sheet_min_deg", board.sheet_min_deg),
            ("board.sheet_max_deg", board.sheet_max_deg),
            ("sensing.sensor_offset_deg", self.sensing.sensor_offset_deg),
        ] {
            check(
                point.columns.abs() <= 10_000 && point.rows.abs() <= 10_000,
                field,
                format!(
                    "is {}, {}; each must be from -10000 to 10000",
                    point.columns, point.rows
                ),
            )?;
        }
        check(
            (3..=4).contains(&board.size),
            "board.size",
            format!(
                "is {}; the robot draws 3 x 3 or 4 x 4 (bigger boards are played in `console`)",
                board.size
            ),
        )?;
        if let Some(k) = board.k {
            check(
                (3..=board.size).contains(&k),
                "board.k",
                format!("is {k}; it must be from 3 to board.size ({})", board.size),
            )?;
        }
        for (i, level) in self.levels.iter().enumerate() {
            let field = format!("levels[{i}]");
            check(
                !level.name.trim().is_empty()
                    && level.name.chars().count() <= 6
                    && level.name.trim() == level.name,
                &format!("{field}.name"),
                format!(
                    "is {:?}; a level's name is 1 to 6 characters, so it fits the LCD",
                    level.name
                ),
            )?;
            check(
                !self.levels[..i]
                    .iter()
                    .any(|other| other.name.eq_ignore_ascii_case(&level.name)),
                &format!("{field}.name"),
                format!("is {:?}, which an earlier level already has", level.name),
            )?;
            check(
                level.best_moves_percent <= 100,
                &format!("{field}.best_moves_percent"),
                format!("is {}; it must be from 0 to 100", level.best_moves_percent),
            )?;
            check(
                (1..=100).contains(&level.points),
                &format!("{field}.points"),
                format!("is {}; it must be from 1 to 100", level.points),
            )?;
        }
        check(
            board.sheet_min_deg.columns < board.sheet_max_deg.columns
                && board.sheet_min_deg.rows < board.sheet_max_deg.rows,
            "board.sheet_max_deg",
            "must lie beyond board.sheet_min_deg on both axes".to_string(),
        )?;
        check(
            (10..=1000).contains(&board.square_deg),
            "board.square_deg",
            format!("is {}; it must be from 10 to 1000", board.square_deg),
        )?;
        check(
            board.mark_size_deg > 0 && board.mark_size_deg < board.square_deg,
            "board.mark_size_deg",
            format!(
                "is {}; it must be above 0 and smaller than a square ({})",
                board.mark_size_deg, board.square_deg
            ),
        )?;
        check(
            (3..=64).contains(&board.o_segments),
            "board.o_segments",
            format!("is {}; it must be from 3 to 64", board.o_segments),
        )?;
        check(
            (0..=board.mark_size_deg / 4).contains(&board.corner_blend_deg),
            "board.corner_blend_deg",
            format!(
                "is {}; it must be from 0 to a quarter of the mark's size ({})",
                board.corner_blend_deg,
                board.mark_size_deg / 4
            ),
        )?;
        check(
            (0..=1000).contains(&board.approach_deg),
            "board.approach_deg",
            format!("is {}; it must be from 0 to 1000", board.approach_deg),
        )?;
        // The winning line runs through the end squares' centres and this far beyond: up to
        // half a square keeps it on the grid, which must lie on the sheet and in the travel.
        check(
            (0..=board.square_deg / 2).contains(&board.win_line_overhang_deg),
            "board.win_line_overhang_deg",
            format!(
                "is {}; it must be from 0 to half a square ({}), or the line leaves the grid",
                board.win_line_overhang_deg,
                board.square_deg / 2
            ),
        )?;
        self.check_every_square_is_reachable()?;
        let sensing = &self.sensing;
        check(
            (0.1..=5.0).contains(&pen.line_mm),
            "pen.line_mm",
            format!("is {}; it must be from 0.1 to 5", pen.line_mm),
        )?;
        check(
            (2.0..=30.0).contains(&sensing.spot_mm),
            "sensing.spot_mm",
            format!("is {}; it must be from 2 to 30", sensing.spot_mm),
        )?;
        if let Err(small) = crate::physical::ReadingGeometry::fits(
            self.scale(),
            sensing.spot_mm,
            pen.line_mm,
            board.square_deg,
        ) {
            let scale = self.scale();
            return Err((
                "board.square_deg".into(),
                format!(
                    "is {} ({}), too small to read with the sensor's {} mm spot: to read a \
                     square clear of its grid lines, squares must be at least {} deg ({:.0} mm), \
                     or the sensor mounted lower (sensing.spot_mm)",
                    board.square_deg,
                    crate::physical::both(
                        scale.columns_mm(f64::from(board.square_deg)),
                        f64::from(board.square_deg)
                    ),
                    sensing.spot_mm,
                    small.needed_deg,
                    small.needed_mm
                ),
            ));
        }
        check_speed(
            "sensing.sweep_speed_deg_per_s",
            sensing.sweep_speed_deg_per_s,
            self.columns.kind,
        )?;
        check(
            (1..=1000).contains(&sensing.sample_ms),
            "sensing.sample_ms",
            format!("is {}; it must be from 1 to 1000", sensing.sample_ms),
        )?;
        check(
            (5..=95).contains(&sensing.mark_contrast_percent),
            "sensing.mark_contrast_percent",
            format!(
                "is {}; it must be from 5 to 95",
                sensing.mark_contrast_percent
            ),
        )?;
        check(
            (1..=sensing.mark_contrast_percent).contains(&sensing.faint_contrast_percent),
            "sensing.faint_contrast_percent",
            format!(
                "is {}; it must be from 1 to sensing.mark_contrast_percent ({})",
                sensing.faint_contrast_percent, sensing.mark_contrast_percent
            ),
        )?;
        check(
            (1..=20).contains(&sensing.samples_per_stretch),
            "sensing.samples_per_stretch",
            format!(
                "is {}; it must be from 1 to 20",
                sensing.samples_per_stretch
            ),
        )?;
        check(
            sensing.min_blank_percent < 100,
            "sensing.min_blank_percent",
            format!("is {}; it must be below 100", sensing.min_blank_percent),
        )?;
        Ok(())
    }
}

/// Writes `given` over `base`, object by object.
fn merge(base: &mut serde_json::Value, given: serde_json::Value) {
    match (base, given) {
        (serde_json::Value::Object(base), serde_json::Value::Object(given)) => {
            for (key, value) in given {
                match base.get_mut(&key) {
                    Some(slot) => merge(slot, value),
                    None => {
                        base.insert(key, value);
                    }
                }
            }
        }
        (slot, value) => *slot = value,
    }
}

/// The outcome of a check: the field at fault and what is wrong with it.
pub type Checked = Result<(), (String, String)>;

fn check(ok: bool, field: &str, problem: String) -> Checked {
    if ok {
        Ok(())
    } else {
        Err((field.to_string(), problem))
    }
}

fn check_speed(field: &str, speed: u32, kind: MotorKind) -> Checked {
    let max = kind.max_speed_deg_per_s();
    check(
        speed > 0 && speed <= max,
        field,
        format!(
            "is {speed}; a {} runs from 1 to {max} deg/s",
            kind.describe()
        ),
    )
}

impl AxisConfig {
    fn validate(&self, axis: &str) -> Checked {
        check(
            (20..=10_000).contains(&self.travel_deg),
            &format!("{axis}.travel_deg"),
            format!("is {}; it must be from 20 to 10000", self.travel_deg),
        )?;
        // From an 8-tooth gear on a rack (0.07 mm) to a wheel on a belt, with room both ways.
        check(
            (0.01..=2.0).contains(&self.mm_per_deg),
            &format!("{axis}.mm_per_deg"),
            format!("is {}; it must be from 0.01 to 2", self.mm_per_deg),
        )?;
        check_speed(
            &format!("{axis}.speed_deg_per_s"),
            self.speed_deg_per_s,
            self.kind,
        )?;
        check_speed(
            &format!("{axis}.draw_speed_deg_per_s"),
            self.draw_speed_deg_per_s,
            self.kind,
        )?;
        self.homing.validate(&format!("{axis}.homing"))
    }
}

impl HomingConfig {
    fn validate(&self, field: &str) -> Checked {
        let problem = if !(5..=100).contains(&self.duty_percent) {
            Some(format!(
                "duty_percent is {}; it must be from 5 to 100",
                self.duty_percent
            ))
        } else if !(1..=5_000).contains(&self.stall_confirm_ms) {
            Some(format!(
                "stall_confirm_ms is {}; it must be from 1 to 5000 (a stall must last to count)",
                self.stall_confirm_ms
            ))
        } else if self.ignore_start_ms > 5_000 {
            Some(format!(
                "ignore_start_ms is {}; it must be from 0 to 5000",
                self.ignore_start_ms
            ))
        } else if !(1..=500).contains(&self.poll_ms) {
            Some(format!(
                "poll_ms is {}; it must be from 1 to 500",
                self.poll_ms
            ))
        } else if !(1..=90).contains(&self.moved_deg) {
            Some(format!(
                "moved_deg is {}; it must be from 1 to 90",
                self.moved_deg
            ))
        } else if !(0..=360).contains(&self.backoff_deg) {
            Some(format!(
                "backoff_deg is {}; it must be from 0 to 360",
                self.backoff_deg
            ))
        } else if !(0..=20).contains(&self.still_deg) {
            Some(format!(
                "still_deg is {}; it must be from 0 to 20",
                self.still_deg
            ))
        } else {
            None
        };
        match problem {
            Some(problem) => Err((field.to_string(), problem)),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each config struct's fields, with their doc comments, read from this file.
    fn documented_fields(source: &str, name: &str) -> Vec<(String, String)> {
        let start = source
            .find(&format!("pub struct {name} {{"))
            .unwrap_or_else(|| panic!("no struct {name}"));
        let body = &source[start..];
        let body = &body[..body.find("\n}").expect("the struct ends")];
        let mut fields = Vec::new();
        let mut doc = String::new();
        for line in body.lines().skip(1).map(str::trim) {
            if let Some(text) = line.strip_prefix("///") {
                doc.push_str(text);
                doc.push(' ');
            } else if let Some(field) = line.strip_prefix("pub ") {
                let name = field.split(':').next().unwrap_or_default().to_string();
                fields.push((name, std::mem::take(&mut doc)));
            }
        }
        fields
    }

    #[test]
    fn every_setting_says_what_it_is_and_its_default_as_config_prints_it() {
        let source = include_str!("config.rs");
        let defaults = serde_json::to_value(RobotConfig::default()).unwrap();
        let structs: [(&str, &[&str]); 6] = [
            ("RobotConfig", &[""]),
            ("AxisConfig", &["/columns", "/rows"]),
            (
                "HomingConfig",
                &["/columns/homing", "/rows/homing", "/pen/homing"],
            ),
            ("PenConfig", &["/pen"]),
            ("BoardGeometry", &["/board"]),
            ("SensingConfig", &["/sensing"]),
        ];
        let mut wrong = Vec::new();
        for (name, places) in structs {
            for (field, doc) in documented_fields(source, name) {
                if doc.trim().is_empty() {
                    wrong.push(format!("{name}.{field} has no doc"));
                    continue;
                }
                for place in places {
                    let value = defaults
                        .pointer(&format!("{place}/{field}"))
                        .unwrap_or_else(|| panic!("config prints no {place}/{field}"));
                    let shown = match value {
                        serde_json::Value::Object(point) if point.len() == 2 => {
                            format!("columns {}, rows {}", point["columns"], point["rows"])
                        }
                        // A whole part of the config: its own fields say their defaults.
                        serde_json::Value::Object(_) => continue,
                        // The menu's levels: the doc gives each one's values in words.
                        serde_json::Value::Array(_) => continue,
                        serde_json::Value::String(text) => text.clone(),
                        other => other.to_string(),
                    };
                    if !doc.contains("default") || !doc.contains(&shown) {
                        wrong.push(format!(
                            "{name}.{field} ({place}) does not say its default {shown}: {doc}"
                        ));
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    fn refusal(text: &str) -> String {
        RobotConfig::parse(text, "robot.json")
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn a_board_too_big_for_the_sheet_is_refused_naming_the_first_square_that_misses() {
        assert_eq!(
            refusal(r#"{"board": {"size": 4}}"#),
            "robot config robot.json: board.square_deg is 100, so square 4 (row 1, column 4) \
             reaches columns 420, 80 past the sheet (board.sheet_max_deg columns 340): make the \
             squares smaller or the grid start nearer zero"
        );
    }

    #[test]
    fn a_board_the_sensor_cannot_reach_is_refused_naming_the_square_and_how_far() {
        // 75-degree squares fit the sheet, but the sensor rides 170 degrees beside the pen:
        // over the last column it needs 20 + 300 + 170 + 15 (approach) = 505.
        let text = r#"{"board": {"size": 4, "square_deg": 75, "mark_size_deg": 45,
            "win_line_overhang_deg": 20}, "sensing": {"spot_mm": 8},
            "columns": {"travel_deg": 480}}"#;
        assert_eq!(
            refusal(text),
            "robot config robot.json: columns.travel_deg is 480, but the sensor over square 4 \
             (row 1, column 4) needs columns 505, 25 beyond it"
        );
        let fits = text.replace("480", "520");
        let config = RobotConfig::parse(&fits, "robot.json").unwrap();
        assert_eq!(config.board.rules(), crate::game::Rules::new(4, 4).unwrap());
    }

    #[test]
    fn boards_the_robot_does_not_draw_and_runs_longer_than_the_board_are_refused() {
        assert!(refusal(r#"{"board": {"size": 5}}"#)
            .contains("board.size is 5; the robot draws 3 x 3 or 4 x 4"));
        assert!(refusal(r#"{"board": {"k": 4}}"#)
            .contains("board.k is 4; it must be from 3 to board.size (3)"));
    }

    #[test]
    fn the_menu_levels_are_data_and_a_level_asked_by_name_plays_as_the_config_says() {
        let config = RobotConfig::parse(
            r#"{"levels": [
                {"name": "50%", "best_moves_percent": 50, "points": 1},
                {"name": "75%", "best_moves_percent": 75, "points": 2},
                {"name": "expert", "best_moves_percent": 100, "points": 5}]}"#,
            "robot.json",
        )
        .unwrap();
        let [left, centre, right] = config.menu_levels();
        assert_eq!(
            (left.name.as_str(), left.optimal_move_probability),
            ("50%", 0.5)
        );
        assert_eq!((centre.name.as_str(), centre.win_points), ("75%", 2));
        assert_eq!((right.name.as_str(), right.win_points), ("expert", 5));
        // `--difficulty 75%` is the config's 75 % level, with its points.
        let asked = crate::ai::Difficulty::parse("75%").unwrap();
        assert_eq!(config.level(&asked), centre);
        // A level the config does not name is played as asked.
        assert_eq!(
            config.level(&crate::ai::Difficulty::hard()),
            crate::ai::Difficulty::hard()
        );
    }

    #[test]
    fn menu_levels_that_do_not_fit_the_lcd_or_repeat_a_name_are_refused() {
        let levels = |a: &str, b: &str, percent: u32, points: u32| {
            format!(
                r#"{{"levels": [{{"name": "{a}", "best_moves_percent": 0, "points": 1}},
                {{"name": "{b}", "best_moves_percent": {percent}, "points": {points}}},
                {{"name": "hard", "best_moves_percent": 100, "points": 3}}]}}"#
            )
        };
        assert!(refusal(&levels("beginner", "medium", 50, 2))
            .contains("levels[0].name is \"beginner\""));
        assert!(refusal(&levels("easy", "Easy", 50, 2))
            .contains("levels[1].name is \"Easy\", which an earlier level already has"));
        assert!(refusal(&levels("easy", "medium", 101, 2))
            .contains("levels[1].best_moves_percent is 101"));
        assert!(refusal(&levels("easy", "medium", 50, 0)).contains("levels[1].points is 0"));
        assert!(refusal(r#"{"levels": []}"#).contains("levels"));
    }

    #[test]
    fn the_printed_defaults_read_back_as_the_defaults() {
        let text = RobotConfig::default_json();
        assert_eq!(
            RobotConfig::parse(&text, "x").unwrap(),
            RobotConfig::default()
        );
    }

    #[test]
    fn an_empty_object_is_the_default_robot() {
        assert_eq!(
            RobotConfig::parse("{}", "x").unwrap(),
            RobotConfig::default()
        );
    }

    #[test]
    fn a_partial_file_changes_only_what_it_names() {
        let config = RobotConfig::parse(r#"{"rows": {"port": "outD"}}"#, "x").unwrap();
        assert_eq!(config.rows.port, "outD");
        assert_eq!(
            config.rows.travel_deg,
            RobotConfig::default().rows.travel_deg
        );
        assert_eq!(config.columns, RobotConfig::default().columns);
    }

    #[test]
    fn errors_name_the_field_and_the_problem() {
        let cases = [
            (r#"{"rows": {"port": "outE"}}"#, "rows.port is \"outE\""),
            (
                r#"{"pen": {"port": "outC"}}"#,
                "pen.port is outC, which columns.port already uses",
            ),
            (
                r#"{"columns": {"speed_deg_per_s": 2000}}"#,
                "columns.speed_deg_per_s is 2000; a large motor runs from 1 to 1050",
            ),
            (
                r#"{"columns": {"travel_deg": 300}}"#,
                "columns.travel_deg is 300, but the sensor over square 1 (top left) needs columns 305, 5 beyond it",
            ),
            (
                r#"{"board": {"mark_size_deg": 100}}"#,
                "board.mark_size_deg is 100",
            ),
            (
                r#"{"rows": {"homing": {"duty_percent": 0}}}"#,
                "rows.homing duty_percent is 0",
            ),
            (
                r#"{"touch_port": "in1"}"#,
                "touch_port is in1, which sensing.colour_port already uses",
            ),
            (r#"{"colums": {}}"#, "unknown field `colums`"),
            (
                r#"{"pen": {"down_deg": "far"}}"#,
                "invalid type: string \"far\"",
            ),
            (
                r#"{"version": 2}"#,
                "version is 2, but this program reads version 1",
            ),
        ];
        for (text, expected) in cases {
            let message = RobotConfig::parse(text, "robot.json")
                .unwrap_err()
                .to_string();
            assert!(
                message.starts_with("robot config robot.json: ") && message.contains(expected),
                "{text}: {message}"
            );
        }
    }
}
