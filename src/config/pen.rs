//! The pen lift and the pen's line.

use super::{check, check_acceleration, check_speed, Checked, HomingConfig, MotorKind, Polarity};
use serde::{Deserialize, Serialize};

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
    /// How fast the pen speeds up and slows down, in deg/s² (default: 8000, the figure
    /// pybricks plans an EV3 medium motor's runs with): set as ev3dev's ramps, so each run
    /// stops on its target instead of overshooting it.
    pub acceleration_deg_per_s2: u32,
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

impl Default for PenConfig {
    fn default() -> Self {
        PenConfig {
            port: "outB".into(),
            kind: MotorKind::Medium,
            polarity: Polarity::Normal,
            down_deg: 30,
            travel_deg: 50,
            speed_deg_per_s: 600,
            acceleration_deg_per_s2: 8000,
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

impl PenConfig {
    pub(super) fn validate(&self) -> Checked {
        let pen = self;
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
        check_acceleration("pen.acceleration_deg_per_s2", pen.acceleration_deg_per_s2)?;
        pen.homing.validate("pen.homing")?;
        check(
            (0.1..=5.0).contains(&pen.line_mm),
            "pen.line_mm",
            format!("is {}; it must be from 0.1 to 5", pen.line_mm),
        )?;
        Ok(())
    }
}
