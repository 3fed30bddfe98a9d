//! Homing: each joint driven gently into its end stop until the stall is sure, then backed off
//! to its zero; the pen first, so nothing drags over the paper.

use super::{Gantry, Result};
use crate::hw::StopAction;
use crate::motion::stall::{StallWatch, Verdict};
use crate::motion::{Axis, MotionError};
use std::time::Duration;

/// What homing found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HomingReport {
    /// How far each joint travelled before it met its end stop.
    pub columns_travelled_deg: i32,
    pub rows_travelled_deg: i32,
    pub pen_travelled_deg: i32,
    pub took: Duration,
}

impl std::fmt::Display for HomingReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "homed in {:.1} s: to the end stops the pen travelled {} deg, the columns axis {} \
             deg, the rows axis {} deg",
            self.took.as_secs_f64(),
            self.pen_travelled_deg,
            self.columns_travelled_deg,
            self.rows_travelled_deg
        )
    }
}

/// Where an axis driven toward a stop stalled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum StallFound {
    /// At its stop, after travelling this far.
    AtStop { travelled_deg: i32 },
    /// Before it moved: already at its stop, or blocked.
    BeforeMoving,
}

impl Gantry {
    /// Homes the pen to its top, then both axes at once, each by driving gently into its end
    /// stop until a stall lasts; each backs off and calls that zero.
    pub fn home(&mut self) -> Result<HomingReport> {
        self.guarded(|g| {
            let start = g.clock().now();
            g.homed = [false; 3];
            g.sheet_read = None;
            let pen = g.seek_end_stops(&[Axis::Pen])?;
            g.back_off_to_zero(&[Axis::Pen])?;
            let axes = g.seek_end_stops(&[Axis::Columns, Axis::Rows])?;
            g.back_off_to_zero(&[Axis::Columns, Axis::Rows])?;
            Ok(HomingReport {
                columns_travelled_deg: axes[0],
                rows_travelled_deg: axes[1],
                pen_travelled_deg: pen[0],
                took: g.clock().now() - start,
            })
        })
    }

    /// Drives `axes` toward their end stops together; returns how far each travelled. An axis
    /// that stalls before moving may already be at its stop: it is driven clear and tried again.
    pub(super) fn seek_end_stops(&mut self, axes: &[Axis]) -> Result<Vec<i32>> {
        let found = self.drive_until_stalled(axes, -1)?;
        let mut travelled = Vec::with_capacity(axes.len());
        for (&axis, found) in axes.iter().zip(found) {
            let deg = match found {
                StallFound::AtStop { travelled_deg } => travelled_deg,
                StallFound::BeforeMoving => {
                    self.drive_clear_of_stop(axis)?;
                    match self.drive_until_stalled(&[axis], -1)?.first() {
                        Some(StallFound::AtStop { travelled_deg }) => *travelled_deg,
                        _ => return Err(MotionError::StalledBeforeMoving { axis }),
                    }
                }
            };
            travelled.push(deg);
        }
        Ok(travelled)
    }

    /// Drives each axis at its homing duty in `direction` until it stalls, and says per axis
    /// where. Other failures end it.
    pub(super) fn drive_until_stalled(
        &mut self,
        axes: &[Axis],
        direction: i8,
    ) -> Result<Vec<StallFound>> {
        let now = self.clock().now();
        let mut watches = Vec::new();
        for &axis in axes {
            let settings = self.config.homing(axis).clone();
            let max_travel = self.config.travel_deg(axis) * 3 / 2;
            // The slowest axis the stall judge always sees moving covers `still_deg` + 1 (one
            // count of rounding) per confirm window; at that pace it crosses the whole travel
            // within this limit, which is only a backstop for a motor that never settles.
            let slowest_deg_per_ms =
                f64::from(settings.still_deg.max(0) + 1) / settings.stall_confirm_ms.max(1) as f64;
            let limit = Duration::from_millis(
                settings.ignore_start_ms
                    + settings.stall_confirm_ms
                    + (f64::from(max_travel) / slowest_deg_per_ms) as u64
                    + self.config.motion_timeout_slack_ms,
            );
            let start = self.motor(axis).position_deg()?;
            watches.push(StallWatch::new(&settings, now, start, max_travel, limit));
            let duty = direction * settings.duty_percent as i8;
            self.motor(axis).run_duty(duty)?;
        }
        let poll = axes
            .iter()
            .map(|&a| self.config.homing(a).poll_ms)
            .min()
            .unwrap_or(10);
        let mut results: Vec<Option<StallFound>> = vec![None; axes.len()];
        while results.iter().any(Option::is_none) {
            self.clock().sleep(Duration::from_millis(poll));
            self.check_stop()?;
            let now = self.clock().now();
            for (i, &axis) in axes.iter().enumerate() {
                if results[i].is_some() {
                    continue;
                }
                let motor = self.motor(axis);
                let position = motor.position_deg()?;
                let state = motor.state()?;
                let verdict = watches[i].update(now, position, state);
                match verdict {
                    Verdict::Continue => {}
                    Verdict::AtEndStop { travelled_deg } => {
                        self.motor(axis).stop(StopAction::Brake)?;
                        results[i] = Some(StallFound::AtStop { travelled_deg });
                    }
                    Verdict::StalledBeforeMoving => {
                        self.motor(axis).stop(StopAction::Brake)?;
                        results[i] = Some(StallFound::BeforeMoving);
                    }
                    Verdict::NoStall { travelled_deg } => {
                        return Err(MotionError::NoStall {
                            axis,
                            travelled_deg,
                        })
                    }
                    Verdict::TimedOut => {
                        return Err(MotionError::HomingTimedOut {
                            axis,
                            waited_ms: now.saturating_sub(watches[i].started()).as_millis() as u64,
                        })
                    }
                }
            }
        }
        // The loop ends when every axis has one.
        Ok(results.into_iter().flatten().collect())
    }

    /// Drives an axis that stalled at once away from its stop, proving that it can move.
    pub(super) fn drive_clear_of_stop(&mut self, axis: Axis) -> Result<()> {
        let settings = self.config.homing(axis).clone();
        let start = self.motor(axis).position_deg()?;
        let wanted = settings.backoff_deg + 2 * settings.moved_deg;
        let began = self.clock().now();
        let limit = Duration::from_millis(settings.ignore_start_ms + 1000);
        self.motor(axis).run_duty(settings.duty_percent as i8)?;
        loop {
            self.clock().sleep(Duration::from_millis(settings.poll_ms));
            self.check_stop()?;
            let position = self.motor(axis).position_deg()?;
            if (position - start).abs() >= wanted {
                self.motor(axis).stop(StopAction::Brake)?;
                return Ok(());
            }
            if self.clock().now() - began > limit {
                return Err(MotionError::StalledBeforeMoving { axis });
            }
        }
    }

    /// Declares each stalled axis to be `backoff_deg` below zero, and moves it to zero.
    pub(super) fn back_off_to_zero(&mut self, axes: &[Axis]) -> Result<()> {
        let mut legs = Vec::new();
        for &axis in axes {
            let backoff = self.config.homing(axis).backoff_deg;
            let speed = self.homing_speed(axis);
            self.motor(axis).set_position_deg(-backoff)?;
            legs.push(self.start_leg(axis, -backoff, 0, speed, 0)?);
        }
        self.wait_for(&legs, &mut |_, _, _| Ok(()))?;
        for &axis in axes {
            self.homed[axis as usize] = true;
        }
        Ok(())
    }

    pub(super) fn homing_speed(&self, axis: Axis) -> u32 {
        let settings = self.config.homing(axis);
        (self.config.kind(axis).max_speed_deg_per_s() * u32::from(settings.duty_percent) / 100)
            .max(1)
    }
}
