//! Stall detection for homing, as a pure decision: handed the time and a motor's readings, it
//! says whether the end stop has been found, or how homing failed.
//!
//! Why debounced, after pybricks' observer: a motor starting from rest reads as not turning for
//! a moment, and one slow reading is noise. So the first instants are ignored and a stall counts
//! only once it has lasted `stall_confirm_ms`. Why limits: without them a missing end stop or a
//! slipping gear would drive the axis forever, which is what the original robot did.

use crate::config::HomingConfig;
use crate::hw::MotorState;
use std::time::Duration;

/// What homing should do after one reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Keep driving toward the end stop.
    Continue,
    /// The end stop is found: the axis has travelled and then stopped for long enough.
    AtEndStop { travelled_deg: i32 },
    /// Stopped for long enough without having moved: jammed, or already at the stop.
    StalledBeforeMoving,
    /// Moved further than the axis can without stalling.
    NoStall { travelled_deg: i32 },
    /// Neither moved far nor stalled in the time allowed.
    TimedOut,
}

/// Watches one axis while it drives toward its end stop.
#[derive(Debug, Clone)]
pub struct StallWatch {
    settings: HomingConfig,
    started: Duration,
    start_deg: i32,
    max_travel_deg: i32,
    time_limit: Duration,
    stopped_since: Option<Duration>,
}

impl StallWatch {
    /// Starts watching at `now`, with the axis at `start_deg`. Homing fails after
    /// `max_travel_deg` of travel or `time_limit`.
    pub fn new(
        settings: &HomingConfig,
        now: Duration,
        start_deg: i32,
        max_travel_deg: i32,
        time_limit: Duration,
    ) -> StallWatch {
        StallWatch {
            settings: settings.clone(),
            started: now,
            start_deg,
            max_travel_deg,
            time_limit,
            stopped_since: None,
        }
    }

    /// When watching began.
    pub fn started(&self) -> Duration {
        self.started
    }

    /// Takes one reading and decides.
    pub fn update(
        &mut self,
        now: Duration,
        position_deg: i32,
        speed_deg_per_s: i32,
        state: MotorState,
    ) -> Verdict {
        let travelled_deg = (position_deg - self.start_deg).abs();
        if travelled_deg > self.max_travel_deg {
            return Verdict::NoStall { travelled_deg };
        }
        let elapsed = now.saturating_sub(self.started);
        if elapsed < Duration::from_millis(self.settings.ignore_start_ms) {
            return Verdict::Continue;
        }
        let stopped =
            state.stalled || speed_deg_per_s.unsigned_abs() < self.settings.stall_speed_deg_per_s;
        if !stopped {
            self.stopped_since = None;
        } else {
            let since = *self.stopped_since.get_or_insert(now);
            if now.saturating_sub(since) >= Duration::from_millis(self.settings.stall_confirm_ms) {
                return if travelled_deg < self.settings.moved_deg {
                    Verdict::StalledBeforeMoving
                } else {
                    Verdict::AtEndStop { travelled_deg }
                };
            }
        }
        if elapsed > self.time_limit {
            Verdict::TimedOut
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    fn watch() -> StallWatch {
        StallWatch::new(&HomingConfig::default(), MS(1000), 0, 300, MS(5000))
    }

    fn stalled() -> MotorState {
        MotorState {
            running: true,
            stalled: true,
            ..MotorState::default()
        }
    }

    fn turning() -> MotorState {
        MotorState {
            running: true,
            ..MotorState::default()
        }
    }

    #[test]
    fn a_stall_in_the_first_instants_is_ignored() {
        let mut w = watch();
        assert_eq!(w.update(MS(1050), 0, 0, stalled()), Verdict::Continue);
        assert_eq!(w.update(MS(1150), 1, 0, stalled()), Verdict::Continue);
    }

    #[test]
    fn a_stall_counts_only_once_it_has_lasted() {
        let mut w = watch();
        assert_eq!(w.update(MS(1300), -80, -250, turning()), Verdict::Continue);
        assert_eq!(w.update(MS(1400), -100, 0, stalled()), Verdict::Continue);
        assert_eq!(w.update(MS(1450), -100, 0, stalled()), Verdict::Continue);
        assert_eq!(
            w.update(MS(1500), -100, 0, stalled()),
            Verdict::AtEndStop { travelled_deg: 100 }
        );
    }

    #[test]
    fn one_slow_reading_between_fast_ones_is_not_a_stall() {
        let mut w = watch();
        assert_eq!(w.update(MS(1300), -50, 10, turning()), Verdict::Continue);
        assert_eq!(w.update(MS(1350), -60, -250, turning()), Verdict::Continue);
        assert_eq!(w.update(MS(1420), -70, 10, turning()), Verdict::Continue);
        assert_eq!(w.update(MS(1480), -90, -250, turning()), Verdict::Continue);
    }

    #[test]
    fn a_stall_without_travel_is_reported_as_such() {
        let mut w = watch();
        w.update(MS(1250), 1, 0, stalled());
        assert_eq!(
            w.update(MS(1350), 1, 0, stalled()),
            Verdict::StalledBeforeMoving
        );
    }

    #[test]
    fn travel_beyond_the_limit_and_time_beyond_the_limit_end_homing() {
        let mut w = watch();
        assert_eq!(
            w.update(MS(1300), -301, -250, turning()),
            Verdict::NoStall { travelled_deg: 301 }
        );
        let mut w = watch();
        assert_eq!(w.update(MS(6001), -20, -40, turning()), Verdict::TimedOut);
    }
}
