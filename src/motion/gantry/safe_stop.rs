//! The safe stop: every motor stopped and the pen lifted, however the program got here (a
//! failed motion, a stop request, the end of a run). ev3dev's motors keep running after the
//! process that started them has gone, so nothing else stops them.

use super::Gantry;
use crate::hw::StopAction;
use crate::motion::{Axis, PenAfterStop, SafeState};

impl Gantry {
    /// Stops every motor, lifts the pen if it can, lets everything coast, and says what that
    /// achieved (also kept for [`Gantry::ensure_safe`]). It does not stop at an error: this
    /// runs when something has already gone wrong, and must reach the end.
    pub fn make_safe(&mut self) -> SafeState {
        // Lifting the pen must not be cut short by the stop request (or a second press of a
        // button) that may have caused this.
        let stop = self.stop.take();
        let buttons = self.stop_buttons.take();
        for axis in [Axis::Columns, Axis::Rows, Axis::Pen] {
            let _ = self.motor(axis).stop(StopAction::Brake);
        }
        let pen = if self.is_homed(Axis::Pen) {
            match self.run_axis_to(Axis::Pen, 0, self.config.pen.speed_deg_per_s) {
                Ok(()) => PenAfterStop::Up,
                Err(error) => PenAfterStop::NotLifted(error.to_string()),
            }
        } else {
            // Homing the pen is driving it up until it stalls: the same, without the back-off.
            match self.drive_until_stalled(&[Axis::Pen], -1) {
                Ok(_) => PenAfterStop::DrivenUpUnhomed,
                Err(error) => PenAfterStop::NotLifted(error.to_string()),
            }
        };
        let mut not_stopped = Vec::new();
        for axis in [Axis::Columns, Axis::Rows, Axis::Pen] {
            if let Err(error) = self.motor(axis).stop(StopAction::Coast) {
                not_stopped.push((axis, error.to_string()));
            }
        }
        self.stop = stop;
        self.stop_buttons = buttons;
        let state = SafeState { not_stopped, pen };
        if !state.is_all_safe() {
            log::warn!("after the safe stop: {}", state.describe());
        }
        self.last_safe_state = Some(state.clone());
        state
    }

    /// Makes the machine safe unless that was done after the last motion (a failed motion does
    /// it at once), and says what the safe stop achieved. A second safe stop would know less:
    /// after a failure the pen is no longer homed, so it could only be driven to a stop.
    pub fn ensure_safe(&mut self) -> SafeState {
        match &self.last_safe_state {
            Some(state) => state.clone(),
            None => self.make_safe(),
        }
    }
}
