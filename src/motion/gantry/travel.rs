//! Measuring the machine, for `calibrate`: how far each axis really reaches, and where the pen
//! meets the paper.

use super::homing::StallFound;
use super::{Gantry, Result};
use crate::config::AxisPoint;
use crate::motion::{Axis, MotionError};

impl Gantry {
    /// Drives a homed axis forward into its far stop and returns where that is, then goes back
    /// to zero. For calibration: the usable travel is a little less than this.
    pub fn measure_travel(&mut self, axis: Axis) -> Result<i32> {
        self.guarded(|g| {
            if !g.is_homed(axis) {
                return Err(MotionError::NotHomed { axis });
            }
            if axis != Axis::Pen {
                g.move_pen(0)?;
            }
            let found = g.drive_until_stalled(&[axis], 1)?;
            if !matches!(found.first(), Some(StallFound::AtStop { .. })) {
                return Err(MotionError::StalledBeforeMoving { axis });
            }
            let far = g.motor(axis).position_deg()?;
            let speed = g.homing_speed(axis);
            let leg = g.start_leg(axis, far, 0, speed, 0)?;
            g.wait_for(&[leg], &mut |_, _, _| Ok(()))?;
            Ok(far)
        })
    }

    /// Lowers the pen at a corner of the sheet, outside the grid, until it stops on the paper,
    /// and returns that depth, then lifts it. It leaves a dot there. For calibration: where the
    /// pen meets the paper depends on the paper and the pen, and `pen.down_deg` should lie just
    /// below it.
    pub fn measure_pen_contact(&mut self) -> Result<i32> {
        let sheet = self.config.board.sheet_min_deg;
        let corner = AxisPoint::new(sheet.columns + 5, sheet.rows + 5);
        self.move_to(corner)?;
        self.measure_travel(Axis::Pen)
    }
}
