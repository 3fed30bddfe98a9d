//! Running each axis's leg of a move: its time limit, its start at the configured ramps, the
//! wait that polls the motors and acts on each leg's watch (arrived, stalled, touched down,
//! too slow), and what a motor that overshot its target says about the ramps.

use super::{Gantry, OnTick, Result};
use crate::hw::{MotorState, Ramps, StopAction};
use crate::motion::leg::{at_speed, least_time, Leg, LegVerdict, LegWatch};
use crate::motion::{Axis, MotionError};
use std::time::Duration;

/// A motor found further than this past a target it was to stop on, in degrees, could not
/// slow down at its ramp: the gears' play (2 degrees) and a degree of the hold's give are not.
const OVERSHOOT_NOTED_DEG: i32 = 3;

impl Gantry {
    /// The time a move of `distance_deg` at `speed` may take: its time at full speed plus the
    /// configured slack, which covers speeding up and slowing down.
    pub(super) fn time_limit(&self, distance_deg: i32, speed_deg_per_s: u32) -> Duration {
        let moving_ms =
            u64::from(distance_deg.unsigned_abs()) * 1000 / u64::from(speed_deg_per_s.max(1));
        Duration::from_millis(moving_ms + self.config.motion_timeout_slack_ms)
    }

    /// Whether a leg of `axis` the way `direction` must start from standing: the axis stood
    /// still at the end of its last leg, or must turn back (which takes it through standing).
    /// A leg that follows one that ended still moving the same way is not charged for speeding
    /// up at all, so the bound stays below what any motor can do.
    pub(super) fn starts_from_rest(&self, axis: Axis, direction: i32) -> bool {
        match self.last_leg[axis as usize] {
            None => true,
            Some((way, still_moving)) => !still_moving || way != direction,
        }
    }

    /// The least time `axis` can move `distance_deg` in at `speed` (see [`least_time`]),
    /// ending at standing if `to_rest`.
    pub(super) fn least_time(
        &self,
        axis: Axis,
        distance_deg: i32,
        speed: u32,
        to_rest: bool,
    ) -> Duration {
        least_time(
            f64::from(distance_deg),
            f64::from(speed),
            f64::from(self.config.acceleration_deg_per_s2(axis)),
            self.starts_from_rest(axis, distance_deg.signum()),
            to_rest,
        )
    }

    /// Starts `axis` from `from_deg` toward `target_deg` and returns its leg to wait for. The
    /// motor speeds up and slows down at the axis's acceleration: without ramps, ev3dev would
    /// run it at full speed to the target and pull it back from past it (see [`Ramps`]).
    pub(super) fn start_leg(
        &mut self,
        axis: Axis,
        from_deg: i32,
        target_deg: i32,
        speed_deg_per_s: u32,
        close_enough_deg: i32,
    ) -> Result<Leg> {
        let ramps = Ramps::both(self.config.acceleration_deg_per_s2(axis));
        let motor = self.motor(axis);
        motor.set_ramps(ramps)?;
        motor.run_to_position(target_deg, speed_deg_per_s)?;
        let distance = target_deg - from_deg;
        Ok(Leg {
            axis,
            target_deg,
            done_at_deg: target_deg,
            direction: (target_deg - from_deg).signum(),
            limit: self.time_limit(target_deg - from_deg, speed_deg_per_s),
            close_enough_deg,
            touch_down_band_deg: None,
            ideal: self.least_time(axis, distance, speed_deg_per_s, close_enough_deg == 0),
            at_speed: at_speed(distance, speed_deg_per_s),
        })
    }

    /// Runs one axis to `target_deg` and waits until it is there.
    pub(super) fn run_axis_to(
        &mut self,
        axis: Axis,
        target_deg: i32,
        speed_deg_per_s: u32,
    ) -> Result<()> {
        let from_deg = self.motor(axis).position_deg()?;
        let leg = self.start_leg(axis, from_deg, target_deg, speed_deg_per_s, 0)?;
        self.wait_for(&[leg], &mut |_, _, _| Ok(()))
    }

    /// Waits until every leg has arrived. `on_tick` runs at every poll, while the motors move.
    /// The verdicts are [`LegWatch`]'s; this loop reads the motors and acts on them.
    pub(super) fn wait_for(&mut self, legs: &[Leg], on_tick: OnTick<'_>) -> Result<()> {
        let start = self.clock().now();
        // Each axis's stall is debounced with its own settings, as when homing.
        let mut watches: Vec<LegWatch> = legs
            .iter()
            .map(|&l| LegWatch::new(l, self.config.homing(l.axis)))
            .collect();
        let poll = legs
            .iter()
            .map(|l| self.config.homing(l.axis).poll_ms)
            .min()
            .map_or(Duration::from_millis(10), Duration::from_millis);
        self.ideal_motion += legs.iter().map(|l| l.ideal).max().unwrap_or_default();
        self.motion_at_speed += legs.iter().map(|l| l.at_speed).max().unwrap_or_default();
        let mut last_leg = [None; 3];
        for leg in legs {
            last_leg[leg.axis as usize] = Some((leg.direction, leg.close_enough_deg > 0));
        }
        let mut arrived = vec![false; legs.len()];
        let mut positions = vec![0; legs.len()];
        let mut states = vec![MotorState::default(); legs.len()];
        // Polls keep a steady beat: the time the reads take (on the brick each is a system
        // call, later when the CPU is busy) comes out of the wait, not on top of it.
        let mut next_poll = start;
        while arrived.iter().any(|a| !a) {
            next_poll += poll;
            let before = self.clock().now();
            if next_poll > before {
                self.clock().sleep(next_poll - before);
            } else {
                next_poll = before;
            }
            self.check_stop()?;
            let now = self.clock().now();
            for (i, watch) in watches.iter_mut().enumerate() {
                if arrived[i] {
                    continue;
                }
                let leg = *watch.leg();
                // On the brick every attribute read takes time the colour sensor's readings
                // wait for. The position is read every tick; the state only where the position
                // says the motor may have stopped (see `LegWatch::wants_state_at`). Read every
                // third tick and at every tick near a target, states were a quarter of the
                // program's accesses over a game.
                let motor = self.motor(leg.axis);
                let at_deg = motor.position_deg()?;
                positions[i] = at_deg;
                if watch.wants_state_at(at_deg) {
                    states[i] = motor.state()?;
                }
                match watch.judge(now - start, now, at_deg, states[i]) {
                    LegVerdict::Moving => {}
                    LegVerdict::Arrived => arrived[i] = true,
                    LegVerdict::TouchedDown => {
                        // The pen is on the paper a little above its set depth: hold it there
                        // rather than push on.
                        self.motor(leg.axis).stop(StopAction::Hold)?;
                        arrived[i] = true;
                    }
                    LegVerdict::PenBlocked { at_deg, band_deg } => {
                        return Err(MotionError::PenBlocked {
                            at_deg,
                            down_deg: leg.target_deg,
                            band_deg,
                        })
                    }
                    LegVerdict::Jammed { at_deg } => {
                        return Err(MotionError::Jammed {
                            axis: leg.axis,
                            at_deg,
                            target_deg: leg.target_deg,
                        })
                    }
                    LegVerdict::TimedOut { at_deg, waited } => {
                        return Err(MotionError::TimedOut {
                            axis: leg.axis,
                            target_deg: leg.target_deg,
                            at_deg,
                            waited_ms: waited.as_millis() as u64,
                        })
                    }
                }
            }
            on_tick(self, now, &positions)?;
        }
        // An axis the wait did not move has come to a stop on its last target meanwhile.
        self.last_leg = last_leg;
        for watch in &watches {
            self.note_overshoot(watch.leg().axis, watch.overshot_deg());
        }
        Ok(())
    }

    /// Keeps the furthest `axis` has run past a target, and says so in the log the first time
    /// it is more than the gears' play and a degree: the motor could not slow down at the ramp
    /// the config asks of it (a heavy carriage, a tired battery), so drawings bulge.
    pub(super) fn note_overshoot(&mut self, axis: Axis, overshot_deg: i32) {
        let worst = self.overshoot_deg[axis as usize];
        if overshot_deg > OVERSHOOT_NOTED_DEG && worst <= OVERSHOOT_NOTED_DEG {
            let acceleration = self.config.acceleration_deg_per_s2(axis);
            let field = match axis {
                Axis::Columns => "columns",
                Axis::Rows => "rows",
                Axis::Pen => "pen",
            };
            log::warn!(
                "the {axis} ran {overshot_deg} degrees past a target it was to stop on: it cannot \
                 slow down at {acceleration} deg/s²; set {field}.acceleration_deg_per_s2 lower \
                 in the robot config (drawings bulge meanwhile)"
            );
        }
        self.overshoot_deg[axis as usize] = worst.max(overshot_deg);
    }

    /// The furthest `axis` has run past a target it was to stop on, in degrees, since the
    /// gantry was made.
    pub fn overshoot_deg(&self, axis: Axis) -> i32 {
        self.overshoot_deg[axis as usize]
    }

    /// Refuses a target on an axis that is not homed or outside its travel.
    pub(super) fn check_target(&self, axis: Axis, target_deg: i32) -> Result<()> {
        if !self.is_homed(axis) {
            return Err(MotionError::NotHomed { axis });
        }
        let travel_deg = self.config.travel_deg(axis);
        if !(0..=travel_deg).contains(&target_deg) {
            return Err(MotionError::OutsideTravel {
                axis,
                target_deg,
                travel_deg,
            });
        }
        Ok(())
    }
}
