//! The colour sensor and how squares are read.

use super::{check, check_speed, AxisPoint, Checked, MotorKind};
use serde::{Deserialize, Serialize};

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

impl SensingConfig {
    /// `columns` is the motor that sweeps.
    pub(super) fn validate(&self, columns: MotorKind) -> Checked {
        let sensing = self;
        check(
            sensing.sensor_offset_deg.columns.abs() <= 10_000
                && sensing.sensor_offset_deg.rows.abs() <= 10_000,
            "sensing.sensor_offset_deg",
            format!(
                "is {}, {}; each must be from -10000 to 10000",
                sensing.sensor_offset_deg.columns, sensing.sensor_offset_deg.rows
            ),
        )?;
        check(
            (2.0..=30.0).contains(&sensing.spot_mm),
            "sensing.spot_mm",
            format!("is {}; it must be from 2 to 30", sensing.spot_mm),
        )?;
        check_speed(
            "sensing.sweep_speed_deg_per_s",
            sensing.sweep_speed_deg_per_s,
            columns,
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
