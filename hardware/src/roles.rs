//! The motors' roles and kinds: what the robot config names and the hardware opens.

use serde::{Deserialize, Serialize};

/// One of the three motors of the gantry, by what it moves: the one name for each motor's role,
/// from the config through the hardware layer and the simulator to the messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Axis {
    Columns,
    Rows,
    Pen,
}

impl Axis {
    pub const ALL: [Axis; 3] = [Axis::Columns, Axis::Rows, Axis::Pen];

    /// What it moves, for messages about a motion: "columns axis".
    pub fn name(self) -> &'static str {
        match self {
            Axis::Columns => "columns axis",
            Axis::Rows => "rows axis",
            Axis::Pen => "pen lift",
        }
    }

    /// Its motor, for messages about a device: "columns motor".
    pub fn motor_name(self) -> &'static str {
        match self {
            Axis::Columns => "columns motor",
            Axis::Rows => "rows motor",
            Axis::Pen => "pen motor",
        }
    }
}

impl std::fmt::Display for Axis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which motor drives a joint, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MotorKind {
    /// EV3 large motor (`lego-ev3-l-motor`): at most 1050 deg/s.
    Large,
    /// EV3 medium motor (`lego-ev3-m-motor`): at most 1560 deg/s.
    Medium,
}

impl MotorKind {
    /// The motor's top speed with no load, from LEGO's figures.
    pub fn max_speed_deg_per_s(self) -> u32 {
        match self {
            MotorKind::Large => 1050,
            MotorKind::Medium => 1560,
        }
    }

    /// The name ev3dev's driver gives this motor.
    pub fn driver_name(self) -> &'static str {
        match self {
            MotorKind::Large => "lego-ev3-l-motor",
            MotorKind::Medium => "lego-ev3-m-motor",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            MotorKind::Large => "large motor",
            MotorKind::Medium => "medium motor",
        }
    }
}

/// Which way the motor turns for positive positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Polarity {
    Normal,
    Inversed,
}
