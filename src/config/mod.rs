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
//!
//! One file a subject, each struct with its defaults and its checks: `axes` (and homing),
//! `pen`, `board` (and whether the gantry reaches every square), `sensing`, `levels`; `load`
//! reads a file over the defaults. [`RobotConfig::validate`] runs the parts' checks in an
//! order where each may rely on what came before.

mod axes;
mod board;
mod levels;
mod load;
mod pen;
mod sensing;

pub use axes::{AxisConfig, HomingConfig};
pub use board::{AxisPoint, BoardGeometry, MarkStyle};
pub use levels::LevelConfig;
pub use load::ConfigError;
pub use pen::PenConfig;
pub use sensing::SensingConfig;
pub use tictactoe_hardware::{Axis, MotorKind, Polarity};

use serde::{Deserialize, Serialize};
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

    /// How fast `axis` speeds up and slows down, in deg/s²: its ramps.
    pub fn acceleration_deg_per_s2(&self, axis: Axis) -> u32 {
        match axis {
            Axis::Columns => self.columns.acceleration_deg_per_s2,
            Axis::Rows => self.rows.acceleration_deg_per_s2,
            Axis::Pen => self.pen.acceleration_deg_per_s2,
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

impl RobotConfig {
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
        self.pen.validate()?;
        // The board's checks add the sensor's offset and the pen's line to its positions:
        // those are known to be in range first.
        self.sensing.validate(self.columns.kind)?;
        self.check_board()?;
        levels::validate(&self.levels)?;
        Ok(())
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

/// A run's ramps: ev3dev takes them as 1 to 60000 ms from standing to the motor's top speed
/// (the large motor's 1050 deg/s in 60 s is 18 deg/s²); from 100 deg/s², a crawl to speed,
/// to 50000, beyond any figure published for an EV3 motor.
fn check_acceleration(field: &str, deg_per_s2: u32) -> Checked {
    check(
        (100..=50_000).contains(&deg_per_s2),
        field,
        format!("is {deg_per_s2}; it must be from 100 to 50000 deg/s²"),
    )
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
        let source = [
            include_str!("mod.rs"),
            include_str!("axes.rs"),
            include_str!("pen.rs"),
            include_str!("board.rs"),
            include_str!("sensing.rs"),
        ]
        .concat();
        let source = source.as_str();
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

    /// The message a config is refused with.
    pub(super) fn refusal(text: &str) -> String {
        RobotConfig::parse(text, "robot.json")
            .unwrap_err()
            .to_string()
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
