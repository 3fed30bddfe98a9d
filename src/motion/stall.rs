//! Stall detection, as pure decisions: handed the time and a motor's readings, they say whether
//! the motor has stopped, and for homing whether the end stop has been found or how homing
//! failed.
//!
//! Why by position: ev3dev's own `stalled` flag means "driven, and the speed read 0 for 100 ms",
//! and a speed threshold ("slower than 30 deg/s") cannot tell an end stop from an axis that
//! crawls, as an unregulated 25 % duty does under load on a low battery. What an end stop does
//! that a crawl does not is keep the encoder still. So a motor counts as stopped when its
//! position has changed by no more than `still_deg` over the last `stall_confirm_ms`
//! ([`Stillness`]); the driver's flag is a second witness that may shorten the wait to half of
//! that window, never a verdict on its own. A motor starting from rest reads as not turning for
//! a moment, so the first `ignore_start_ms` are not judged (after pybricks' observer). Why
//! limits: without them a missing end stop or a slipping gear would drive the axis forever,
//! which is what the original robot did.
//!
//! What the defaults (`still_deg` 1, `stall_confirm_ms` 150) hold for: the encoder counts whole
//! degrees, so a true movement of d degrees reads as d rounded either way; an axis that moves
//! `still_deg` + 1 degrees per window (13 deg/s) is always seen moving, one that moves under
//! `still_deg` (7 deg/s) always counts as stopped, and an end stop may give or flicker by one
//! count under the homing duty and still count as one. The old "slower than 30 deg/s" took any
//! crawl below 30 deg/s for an end stop. A longer window sees slower crawls and costs that
//! much more time at every stop.

use crate::config::HomingConfig;
use crate::hw::MotorState;
use std::collections::VecDeque;
use std::time::Duration;

/// Whether a motor's position has stayed put: the pure judge shared by homing and by moves.
#[derive(Debug, Clone)]
pub struct Stillness {
    still_deg: i32,
    window: Duration,
    /// Readings of the last `window` and one before it, oldest first.
    readings: VecDeque<(Duration, i32)>,
}

impl Stillness {
    pub fn new(settings: &HomingConfig) -> Stillness {
        Stillness {
            still_deg: settings.still_deg,
            window: Duration::from_millis(settings.stall_confirm_ms),
            readings: VecDeque::new(),
        }
    }

    /// Takes one reading; true when the motor has been still long enough to count as stopped:
    /// within `still_deg` for the whole window, or for half of it when the driver also says
    /// it is stalled.
    pub fn update(&mut self, now: Duration, position_deg: i32, driver_stalled: bool) -> bool {
        self.readings.push_back((now, position_deg));
        // Keep one reading at least a window old, and nothing older than that one.
        while self.readings.len() > 1 && now.saturating_sub(self.readings[1].0) >= self.window {
            self.readings.pop_front();
        }
        let needed = if driver_stalled {
            self.window / 2
        } else {
            self.window
        };
        // From the newest reading back to the first one that is `needed` old: all within
        // `still_deg` of each other?
        let (mut low, mut high) = (position_deg, position_deg);
        for &(time, position) in self.readings.iter().rev() {
            low = low.min(position);
            high = high.max(position);
            if high - low > self.still_deg {
                return false;
            }
            if now.saturating_sub(time) >= needed {
                return true;
            }
        }
        false
    }

    /// How far the motor may move, in degrees, and still count as still.
    pub fn still_deg(&self) -> i32 {
        self.still_deg
    }

    /// Forgets the readings (after the motor was told something new).
    pub fn reset(&mut self) {
        self.readings.clear();
    }
}

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
    stillness: Stillness,
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
            stillness: Stillness::new(settings),
        }
    }

    /// When watching began.
    pub fn started(&self) -> Duration {
        self.started
    }

    /// Takes one reading and decides.
    pub fn update(&mut self, now: Duration, position_deg: i32, state: MotorState) -> Verdict {
        let travelled_deg = (position_deg - self.start_deg).abs();
        if travelled_deg > self.max_travel_deg {
            return Verdict::NoStall { travelled_deg };
        }
        let elapsed = now.saturating_sub(self.started);
        if elapsed < Duration::from_millis(self.settings.ignore_start_ms) {
            return Verdict::Continue;
        }
        if self.stillness.update(now, position_deg, state.stalled) {
            return if travelled_deg < self.settings.moved_deg {
                Verdict::StalledBeforeMoving
            } else {
                Verdict::AtEndStop { travelled_deg }
            };
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

    /// Feeds `watch` a reading every 10 ms from `from` to `to` (inclusive), the position given
    /// by `at`; the first verdict other than `Continue` (or `Continue`).
    fn drive(
        watch: &mut StallWatch,
        from: u64,
        to: u64,
        at: impl Fn(u64) -> i32,
        state: MotorState,
    ) -> Verdict {
        drive_timed(watch, from, to, at, state).1
    }

    /// As [`drive`], with the time of the verdict in ms.
    fn drive_timed(
        watch: &mut StallWatch,
        from: u64,
        to: u64,
        at: impl Fn(u64) -> i32,
        state: MotorState,
    ) -> (u64, Verdict) {
        for t in (from..=to).step_by(10) {
            let verdict = watch.update(MS(t), at(t), state);
            if verdict != Verdict::Continue {
                return (t, verdict);
            }
        }
        (to, Verdict::Continue)
    }

    #[test]
    fn a_stall_in_the_first_instants_is_ignored() {
        let mut w = watch();
        assert_eq!(
            drive(&mut w, 1000, 1190, |_| 0, stalled()),
            Verdict::Continue
        );
    }

    #[test]
    fn a_stop_counts_once_the_position_has_kept_still_for_the_window() {
        let mut w = watch();
        // Moving at 200 deg/s until 1400 ms, then at the stop.
        let at = |t: u64| -((t.min(1400) - 1000) as i32) / 5;
        let (when, verdict) = drive_timed(&mut w, 1000, 2000, at, turning());
        assert_eq!(verdict, Verdict::AtEndStop { travelled_deg: 80 });
        // A window (150 ms) after it stopped.
        assert!((1540..=1560).contains(&when), "{when}");
    }

    #[test]
    fn the_drivers_stalled_flag_is_a_second_witness_that_shortens_the_wait() {
        let mut w = watch();
        let at = |t: u64| -((t.min(1400) - 1000) as i32) / 5;
        assert_eq!(drive(&mut w, 1000, 1400, at, turning()), Verdict::Continue);
        let (when, verdict) = drive_timed(&mut w, 1410, 2000, at, stalled());
        assert_eq!(verdict, Verdict::AtEndStop { travelled_deg: 80 });
        assert!((1470..=1490).contains(&when), "half a window: {when}");
    }

    #[test]
    fn a_crawl_is_not_a_stall_even_if_the_speed_reads_low() {
        // 20 deg/s, slower than the old speed threshold, for three seconds: 3 degrees per
        // window of 150 ms, more than still_deg and its count of rounding.
        let mut w = watch();
        let crawl = |t: u64| -((t - 1000) as i32) / 50;
        assert_eq!(
            drive(&mut w, 1000, 4000, crawl, turning()),
            Verdict::Continue
        );
    }

    #[test]
    fn the_drivers_flag_alone_does_not_stop_an_axis_that_moves() {
        let mut w = watch();
        let moving = |t: u64| -((t - 1000) as i32) / 5;
        assert_eq!(
            drive(&mut w, 1000, 1800, moving, stalled()),
            Verdict::Continue
        );
    }

    #[test]
    fn one_count_of_encoder_jitter_at_the_stop_is_still_a_stop() {
        let mut w = watch();
        let at = |t: u64| {
            if t < 1300 {
                -((t - 1000) as i32) / 5
            } else {
                -60 - (t / 10 % 2) as i32
            }
        };
        assert!(matches!(
            drive(&mut w, 1000, 1600, at, turning()),
            Verdict::AtEndStop { .. }
        ));
    }

    #[test]
    fn a_stall_without_travel_is_reported_as_such() {
        let mut w = watch();
        assert_eq!(
            drive(&mut w, 1200, 1400, |_| 1, turning()),
            Verdict::StalledBeforeMoving
        );
    }

    #[test]
    fn travel_beyond_the_limit_and_time_beyond_the_limit_end_homing() {
        let mut w = watch();
        assert_eq!(
            w.update(MS(1300), -301, turning()),
            Verdict::NoStall { travelled_deg: 301 }
        );
        let mut w = watch();
        let crawl = |t: u64| -((t - 1000) as i32) / 20;
        assert_eq!(
            drive(&mut w, 1000, 7000, crawl, turning()),
            Verdict::TimedOut
        );
    }
}
