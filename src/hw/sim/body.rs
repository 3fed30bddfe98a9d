//! The simulated machine's build: which motor sits on which port, where each axis's hard stops
//! are, how deep the pen goes, where the colour sensor's spot lies beside the pen and where the
//! sheet begins. This is all the simulator knows of the robot; it never sees the robot config,
//! just as the brick's own hardware does not.
//!
//! [`SimBody::as_configured`] builds the machine a config describes, which is what the program
//! and most tests want. A test may change a field to build a robot its config does not describe
//! (a travel measured short, a sensor mounted elsewhere) and see how the firmware copes.

use super::PaperPoint;
use crate::config::{Axis, RobotConfig};
use crate::hw::Wiring;
use crate::physical::Scale;

/// How far one axis reaches, in degrees of its motor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reach {
    /// How far the homed zero lies from the low hard stop (homing backs off this far).
    pub zero_deg: f64,
    /// From the zero to the far end of the usable travel; the far hard stop lies a margin
    /// beyond ([`super::SimSettings::end_margin_deg`]).
    pub travel_deg: f64,
}

/// The simulated machine's build.
#[derive(Debug, Clone, PartialEq)]
pub struct SimBody {
    /// Which motor kind is on which port (the ports name the devices in messages).
    pub wiring: Wiring,
    pub columns: Reach,
    pub rows: Reach,
    /// The pen lift's reach: zero is the pen up, `travel_deg` its lowest point with no paper.
    pub pen: Reach,
    /// How far below its zero the pen is sent to draw; it touches the paper a little above
    /// ([`super::SimSettings::pen_contact_above_down_deg`]).
    pub pen_down_deg: f64,
    /// Where the colour sensor's spot lies from the pen tip, in axis degrees.
    pub sensor_offset_deg: PaperPoint,
    /// The sheet's corner nearest the axes' zero, in axis degrees.
    pub sheet_min_deg: PaperPoint,
    /// How far each axis truly moves per degree of its motor.
    pub scale: Scale,
    /// The patch of paper the colour sensor truly averages over, at the height it is mounted
    /// at: its diameter in mm.
    pub sensor_spot_mm: f64,
}

impl SimBody {
    /// The machine `config` describes.
    pub fn as_configured(config: &RobotConfig) -> SimBody {
        let reach = |axis: Axis| Reach {
            zero_deg: f64::from(config.homing(axis).backoff_deg),
            travel_deg: f64::from(config.travel_deg(axis)),
        };
        SimBody {
            wiring: config.wiring(),
            columns: reach(Axis::Columns),
            rows: reach(Axis::Rows),
            pen: reach(Axis::Pen),
            pen_down_deg: f64::from(config.pen.down_deg),
            sensor_offset_deg: PaperPoint::new(
                f64::from(config.sensing.sensor_offset_deg.columns),
                f64::from(config.sensing.sensor_offset_deg.rows),
            ),
            sheet_min_deg: PaperPoint::new(
                f64::from(config.board.sheet_min_deg.columns),
                f64::from(config.board.sheet_min_deg.rows),
            ),
            scale: config.scale(),
            sensor_spot_mm: config.sensing.spot_mm,
        }
    }

    /// The reach of `axis`.
    pub fn reach(&self, axis: Axis) -> Reach {
        match axis {
            Axis::Columns => self.columns,
            Axis::Rows => self.rows,
            Axis::Pen => self.pen,
        }
    }
}
