//! The two gantry axes and how each (and the pen) finds its end stop.

use super::{check, check_acceleration, check_speed, Checked, MotorKind, Polarity};
use serde::{Deserialize, Serialize};

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
    /// How fast the axis speeds up and slows down, in deg/s² (default: 3200, the figure
    /// pybricks plans an EV3 large motor's runs with; 683 mm/s² at 0.2133 mm a degree): set as
    /// ev3dev's ramps, so a run stops on its target instead of overshooting it and coming back
    /// from the other side of the gears' play, and the pinion is not jerked on its rack.
    pub acceleration_deg_per_s2: u32,
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
            acceleration_deg_per_s2: 3200,
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

impl AxisConfig {
    pub(super) fn validate(&self, axis: &str) -> Checked {
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
        check_acceleration(
            &format!("{axis}.acceleration_deg_per_s2"),
            self.acceleration_deg_per_s2,
        )?;
        self.homing.validate(&format!("{axis}.homing"))
    }
}

impl HomingConfig {
    pub(super) fn validate(&self, field: &str) -> Checked {
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
