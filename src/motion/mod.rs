//! The gantry: homing, moving, drawing and reading the paper, on top of the [`crate::hw`] traits.
//!
//! The split follows Klipper's: [`plan`] decides *where* (pure geometry: the grid, the marks, the
//! sweeps that read the squares), [`gantry`] decides *how* (homing, moves with time limits, the
//! pen), and [`stall`], [`leg`] and [`sensing`] are the pure decisions those loops apply, handed
//! the time and the readings. Every error leaves the machine safe first: motors stopped, pen lifted
//! where it still can be.

pub mod calibrate;
pub mod gantry;
pub mod leg;
pub mod original;
pub mod own_ink;
pub mod plan;
pub mod ruler;
pub mod safe_state;
pub mod sensing;
pub mod stall;
pub mod stop;

pub use gantry::Gantry;
pub use safe_state::{PenAfterStop, SafeState};
pub use stop::StopRequest;

use crate::config::AxisPoint;
use crate::hw::HwError;

pub use crate::config::Axis;

/// Why a motion failed, naming the axis and what it was doing.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MotionError {
    #[error(transparent)]
    Hardware(#[from] HwError),
    #[error(
        "{axis}: no stall after {travelled_deg} degrees of homing (1.5 times its travel): \
         is the end stop missing or the gear slipping?"
    )]
    NoStall { axis: Axis, travelled_deg: i32 },
    #[error("{axis}: stalled before it moved while homing: is it jammed or blocked?")]
    StalledBeforeMoving { axis: Axis },
    #[error("{axis}: homing found no end stop within {waited_ms} ms: is the motor turning?")]
    HomingTimedOut { axis: Axis, waited_ms: u64 },
    #[error("{axis}: not homed yet, so it cannot move to a position")]
    NotHomed { axis: Axis },
    #[error("{axis}: {target_deg} degrees is outside its travel (0 to {travel_deg})")]
    OutsideTravel {
        axis: Axis,
        target_deg: i32,
        travel_deg: i32,
    },
    #[error(
        "the pen would touch down at columns {}, rows {}, outside the sheet",
        at.columns,
        at.rows
    )]
    PenOutsideSheet { at: AxisPoint },
    #[error("{axis}: jammed at {at_deg} degrees on the way to {target_deg}")]
    Jammed {
        axis: Axis,
        at_deg: i32,
        target_deg: i32,
    },
    #[error(
        "pen lift: stopped at {at_deg} degrees on the way down to {down_deg}, more than \
         pen.contact_band_deg ({band_deg}) above it: is something under the pen, or the paper \
         thicker than pen.down_deg allows? (calibrate measures where the pen meets the paper)"
    )]
    PenBlocked {
        at_deg: i32,
        down_deg: i32,
        band_deg: i32,
    },
    #[error(
        "{axis}: did not reach {target_deg} degrees within {waited_ms} ms (it is at {at_deg})"
    )]
    TimedOut {
        axis: Axis,
        target_deg: i32,
        at_deg: i32,
        waited_ms: u64,
    },
    #[error("stopped by {cause}")]
    Interrupted { cause: String },
    #[error("the blank paper in {square} reads only {percent}%: is the sheet under the sensor?")]
    NoPaper { square: String, percent: u8 },
    #[error(
        "the pen left no ink on the grid: check the pen and pen.down_deg (crossing the grid's \
         lines, the sensor read at most {darkest_percent}% darker than the paper)"
    )]
    NoInk { darkest_percent: u8 },
    #[error(
        "the colour sensor did not see the grid's lines where it had just found them: check \
         that the sensor is held firmly and set sensing.sensor_offset_deg (measured as \
         {{\"columns\": {}, \"rows\": {}}})",
        offset.columns,
        offset.rows
    )]
    SensorNotFound { offset: AxisPoint },
    #[error(
        "the sheet has moved {mm:.1} mm ({deg} deg) along the {axis}, {} its end stop, \
         since the grid was drawn (re-homing did not bring the grid back): put the sheet back \
         where the grid lines up, or start a new game on a fresh sheet",
        gantry::ruler::toward(*away_from_stop)
    )]
    SheetMoved {
        axis: Axis,
        mm: f64,
        deg: i32,
        away_from_stop: bool,
    },
    #[error("the sensor took no readings in {square}: sample more often or sweep slower")]
    Unread { square: String },
}
