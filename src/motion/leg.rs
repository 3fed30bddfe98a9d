//! The verdict on one axis's part of a move, as a pure decision: handed the time and the motor's
//! readings, [`LegWatch`] says whether the leg is still moving, has arrived, has touched the
//! paper, or has failed, and how. The gantry's wait loop only reads the motors and acts on the
//! verdicts; the stall judge ([`Stillness`]) is the one homing uses.

use super::stall::Stillness;
use super::Axis;
use crate::config::HomingConfig;
use crate::hw::MotorState;
use std::time::Duration;

/// A leg that ends on its target has arrived once its run has ended and it is this close to it,
/// in degrees: the gears' play, and a degree of the hold's own give.
const SETTLED_DEG: i32 = 2;

/// A leg whose run has ended off its target has arrived once this many readings in a row find
/// it still: a motor swinging back through its target is still for a reading at the end of
/// its swing, not for five. The pen going down has touched the paper once as many find it
/// still inside its contact band (see [`LegWatch::judge`]).
const STILL_OFF_TARGET_READINGS: u32 = 5;

/// One axis's part of a move in progress.
#[derive(Debug, Clone, Copy)]
pub struct Leg {
    pub axis: Axis,
    /// Where the motor is sent.
    pub target_deg: i32,
    /// Where the leg ends: the target, or short of it when the motor is sent on through a
    /// corner of a drawing so as not to slow down for it.
    pub done_at_deg: i32,
    /// +1 or -1: the way the motor turns to the target (0: it is there).
    pub direction: i32,
    /// The most the leg may take.
    pub limit: Duration,
    /// The leg counts as done once this close to `done_at_deg` or past it, while still moving
    /// (0: once stopped).
    pub close_enough_deg: i32,
    /// For the pen going down: stopping this close above the target is meeting the paper.
    pub touch_down_band_deg: Option<i32>,
    /// The least time the leg can take at its configured speed and acceleration, speeding up
    /// and slowing down only where it must (see [`least_time`]): its part of the physical
    /// bound on a turn.
    pub ideal: Duration,
    /// The leg's distance at its configured speed alone, as if the motor were at speed from
    /// its first instant to its last (the bound before acceleration was counted).
    pub at_speed: Duration,
}

/// The time `distance_deg` takes at `speed` (deg/s) from its first instant to its last, as no
/// motor can: the bound as it was counted before acceleration was.
pub fn at_speed(distance_deg: i32, speed: u32) -> Duration {
    Duration::from_secs_f64(f64::from(distance_deg.unsigned_abs()) / f64::from(speed.max(1)))
}

/// The least time a motor can cover `distance_deg` in at `speed` (deg/s) and `acceleration`
/// (deg/s²): from standing if `from_rest`, to standing if `to_rest`, at full speed in
/// between. A trapezoid of speed against time: each end at rest costs `speed / acceleration`
/// of speeding up or slowing down over `speed² / (2 acceleration)` of the distance, which is
/// `speed / (2 acceleration)` more than the same distance at speed; a move too short to reach
/// speed is a triangle.
pub fn least_time(
    distance_deg: f64,
    speed: f64,
    acceleration: f64,
    from_rest: bool,
    to_rest: bool,
) -> Duration {
    let distance = distance_deg.abs();
    let (speed, acceleration) = (speed.max(1e-9), acceleration.max(1e-9));
    let ends = f64::from(u8::from(from_rest) + u8::from(to_rest));
    let ramps_cover = ends * speed * speed / (2.0 * acceleration);
    let seconds = if distance >= ramps_cover {
        distance / speed + ends * speed / (2.0 * acceleration)
    } else {
        // Never at speed: up to a peak and down again (or only one of the two).
        let peak = (2.0 * acceleration * distance / ends).sqrt();
        ends * peak / acceleration
    };
    Duration::from_secs_f64(seconds)
}

/// What one reading of a leg's motor says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegVerdict {
    Moving,
    /// The run has ended, or the leg is close enough to where it ends.
    Arrived,
    /// The pen stopped on the paper within its band above the set depth: hold it there.
    TouchedDown,
    /// The pen stopped above its band: something holds it off the paper.
    PenBlocked {
        at_deg: i32,
        band_deg: i32,
    },
    /// The motor stopped short of its target.
    Jammed {
        at_deg: i32,
    },
    /// The leg took longer than its limit.
    TimedOut {
        at_deg: i32,
        waited: Duration,
    },
}

/// Watches one leg from its start.
#[derive(Debug, Clone)]
pub struct LegWatch {
    leg: Leg,
    stillness: Stillness,
    /// A motor starting from rest reads as still for a moment: not judged before this.
    ignore_start: Duration,
    /// Where the last reading found the motor.
    last_at_deg: Option<i32>,
    /// The furthest past its target the motor was found, in degrees.
    overshot_deg: i32,
    /// How many readings in a row have found the motor within a degree of the last.
    still_readings: u32,
    /// Whether some reading has found the motor more than a degree from the last: it has
    /// moved, so a stillness since is its stopping, not its start.
    moved: bool,
}

impl LegWatch {
    pub fn new(leg: Leg, settings: &HomingConfig) -> LegWatch {
        LegWatch {
            leg,
            stillness: Stillness::new(settings),
            ignore_start: Duration::from_millis(settings.ignore_start_ms),
            last_at_deg: None,
            overshot_deg: 0,
            still_readings: 0,
            moved: false,
        }
    }

    pub fn leg(&self) -> &Leg {
        &self.leg
    }

    /// The furthest past its target the motor has been found, in degrees: more than the play
    /// means it could not slow down in time, as a motor weaker than its ramps cannot.
    pub fn overshot_deg(&self) -> i32 {
        self.overshot_deg
    }

    /// Whether the motor's state is worth a read at this position: at the leg's first reading,
    /// and, for a leg that ends on its target, where the position says the motor may have
    /// stopped (within a degree of the last reading, or within the stall judge's still band).
    /// Only there can the state change the verdict: a run's end counts once the motor is
    /// still, and the driver's stall flag only shortens a stillness the positions already
    /// show. A leg that ends close enough is told by its position, and its stall by its
    /// positions alone: a slow sweep moves a degree a reading, and would read its state at
    /// every one.
    pub fn wants_state_at(&self, at_deg: i32) -> bool {
        let still_deg = self.stillness.still_deg().max(1);
        self.last_at_deg
            .is_none_or(|last| self.leg.close_enough_deg == 0 && (at_deg - last).abs() <= still_deg)
    }

    /// Judges one reading: `elapsed` since the leg started, the time `now`, the position, and
    /// the motor's state as last read.
    pub fn judge(
        &mut self,
        elapsed: Duration,
        now: Duration,
        at_deg: i32,
        state: MotorState,
    ) -> LegVerdict {
        let leg = &self.leg;
        let close = leg.close_enough_deg > 0
            && (at_deg - leg.done_at_deg) * leg.direction >= -leg.close_enough_deg;
        // ev3dev ends a run to a position as the motor reaches it, still moving if it could
        // not slow down in time (no ramp down, or one steeper than it can follow): it then
        // holds, pulling back from past the target, and may swing through it again. A leg
        // that ends on its target waits until it is there and no longer moving: within a
        // degree of where the last poll found it.
        if leg.close_enough_deg == 0 {
            self.overshot_deg = self
                .overshot_deg
                .max((at_deg - leg.target_deg) * leg.direction);
        }
        let last = self.last_at_deg.replace(at_deg);
        let still = last.is_some_and(|last| (at_deg - last).abs() <= 1);
        self.moved |= last.is_some() && !still;
        self.still_readings = if still { self.still_readings + 1 } else { 0 };
        // Off its target but still for a while, it is held there (friction against a hold that
        // pushes a few percent of duty a degree): waiting longer would change nothing.
        let settled = leg.close_enough_deg > 0
            || (still
                && ((at_deg - leg.target_deg).abs() <= SETTLED_DEG
                    || self.still_readings >= STILL_OFF_TARGET_READINGS));
        if (!state.running && settled) || close {
            return LegVerdict::Arrived;
        }
        // The pen that has come down and stopped inside its band is on the paper: stopping
        // there is meeting it. The stall judge would first wait out its guard against a start
        // from rest and then half its window, 0.18 s of every pen-down that changes nothing.
        let in_band = leg
            .touch_down_band_deg
            .is_some_and(|band| (0..=band).contains(&(leg.target_deg - at_deg)));
        if in_band && self.moved && self.still_readings >= STILL_OFF_TARGET_READINGS {
            return LegVerdict::TouchedDown;
        }
        if elapsed >= self.ignore_start && self.stillness.update(now, at_deg, state.stalled) {
            return match leg.touch_down_band_deg {
                Some(band) if (0..=band).contains(&(leg.target_deg - at_deg)) => {
                    LegVerdict::TouchedDown
                }
                Some(band) => LegVerdict::PenBlocked {
                    at_deg,
                    band_deg: band,
                },
                None => LegVerdict::Jammed { at_deg },
            };
        }
        if elapsed > leg.limit {
            return LegVerdict::TimedOut {
                at_deg,
                waited: elapsed,
            };
        }
        LegVerdict::Moving
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> HomingConfig {
        crate::config::RobotConfig::default().columns.homing
    }

    fn leg(target_deg: i32) -> Leg {
        Leg {
            axis: Axis::Columns,
            target_deg,
            done_at_deg: target_deg,
            direction: target_deg.signum(),
            limit: Duration::from_secs(2),
            close_enough_deg: 0,
            touch_down_band_deg: None,
            ideal: Duration::ZERO,
            at_speed: Duration::ZERO,
        }
    }

    const RUNNING: MotorState = MotorState {
        running: true,
        ramping: false,
        holding: false,
        stalled: false,
        overloaded: false,
    };

    /// Feeds readings every 10 ms from `at(ms)` until a verdict other than moving, or 3 s.
    fn watch(watch: LegWatch, at: impl Fn(u64) -> (i32, MotorState)) -> (u64, LegVerdict) {
        let (ms, verdict, _) = watch_reading_state(watch, at);
        (ms, verdict)
    }

    /// As [`watch`], reading the motor's state only where the watch wants it, as the gantry's
    /// wait does (the last state read stands in between); also how many times it read it.
    fn watch_reading_state(
        mut watch: LegWatch,
        at: impl Fn(u64) -> (i32, MotorState),
    ) -> (u64, LegVerdict, usize) {
        let (mut state, mut reads) = (MotorState::default(), 0);
        for ms in (10..3000).step_by(10) {
            let (position, motor_state) = at(ms);
            if watch.wants_state_at(position) {
                state = motor_state;
                reads += 1;
            }
            let t = Duration::from_millis(ms);
            let verdict = watch.judge(t, t, position, state);
            if verdict != LegVerdict::Moving {
                return (ms, verdict, reads);
            }
        }
        (3000, LegVerdict::Moving, reads)
    }

    #[test]
    fn a_leg_reads_its_motor_s_state_at_its_first_reading_and_where_the_motor_may_have_stopped() {
        // To its target at 500 deg/s, the run ending at 200 ms: the first reading, then the one
        // that finds it still, where the run's end is read.
        let (ms, verdict, reads) =
            watch_reading_state(LegWatch::new(leg(100), &settings()), |ms| {
                let at = (ms as i32 / 2).min(100);
                (
                    at,
                    MotorState {
                        running: at < 100,
                        ..RUNNING
                    },
                )
            });
        assert_eq!((ms, verdict, reads), (210, LegVerdict::Arrived, 2));
        // A sweep past its last window, at 100 deg/s (a degree a reading): its position says
        // when it is done, so its state is read once, however slowly it goes.
        let sweep = Leg {
            target_deg: 120,
            done_at_deg: 120,
            direction: 1,
            close_enough_deg: 20,
            ..leg(120)
        };
        let (ms, verdict, reads) = watch_reading_state(LegWatch::new(sweep, &settings()), |ms| {
            (ms as i32 / 10, RUNNING)
        });
        assert_eq!((ms, verdict, reads), (1000, LegVerdict::Arrived, 1));
    }

    #[test]
    fn a_motor_its_driver_calls_stalled_is_jammed_in_half_the_window() {
        // Still from the start, with the state read there: after ignore_start (200 ms), half
        // the confirm window (75 ms) rather than all of it.
        let stalled = MotorState {
            stalled: true,
            ..RUNNING
        };
        let (ms, verdict) = watch(LegWatch::new(leg(100), &settings()), |_| (0, stalled));
        assert_eq!(verdict, LegVerdict::Jammed { at_deg: 0 });
        assert!((270..=290).contains(&ms), "{ms}");
    }

    #[test]
    fn a_leg_arrives_when_its_run_ends() {
        let (ms, verdict) = watch(LegWatch::new(leg(100), &settings()), |ms| {
            let at = (ms as i32 / 2).min(100);
            let state = MotorState {
                running: at < 100,
                ..RUNNING
            };
            (at, state)
        });
        // Ended at 200 ms, and still there at the next reading.
        assert_eq!((ms, verdict), (210, LegVerdict::Arrived));
    }

    #[test]
    fn a_run_that_ends_past_its_target_has_not_arrived_until_it_is_back_and_still() {
        // No ramp down (or one the motor cannot follow): ev3dev ends the run as the target is
        // passed, at speed; the hold brings it back 12 degrees, through the target once more.
        let (ms, verdict) = watch(LegWatch::new(leg(100), &settings()), |ms| {
            let at = match ms {
                0..=190 => ms as i32 / 2,
                200 => 104,
                210 => 110,
                220 => 112,
                230 => 106,
                240 => 99,
                250 => 97,
                _ => 100,
            };
            let state = MotorState {
                running: ms < 200,
                holding: ms >= 200,
                ..RUNNING
            };
            (at, state)
        });
        assert_eq!((ms, verdict), (270, LegVerdict::Arrived));
    }

    #[test]
    fn a_run_held_still_off_its_target_arrives_after_a_few_readings_not_never() {
        // Friction holds the motor 4 degrees short against a hold that pushes gently.
        let (ms, verdict) = watch(LegWatch::new(leg(100), &settings()), |ms| {
            let at = (ms as i32 / 2).min(96);
            let state = MotorState {
                running: ms < 200,
                holding: ms >= 200,
                ..RUNNING
            };
            (at, state)
        });
        // Still from 200 ms on: the fifth still reading in a row, at 240 ms.
        assert_eq!((ms, verdict), (240, LegVerdict::Arrived));
    }

    #[test]
    fn a_leg_through_a_corner_arrives_close_to_the_corner_while_still_moving() {
        let through = Leg {
            target_deg: 120,
            done_at_deg: 100,
            direction: 1,
            close_enough_deg: 3,
            ..leg(120)
        };
        // 300 deg/s: at 330 ms the leg reads 99, the first reading within 3 degrees of 100.
        let (ms, verdict) = watch(LegWatch::new(through, &settings()), |ms| {
            (ms as i32 * 3 / 10, RUNNING)
        });
        assert_eq!((ms, verdict), (330, LegVerdict::Arrived));
    }

    #[test]
    fn a_motor_still_short_of_its_target_is_jammed_but_not_in_its_first_instants() {
        // Still from the start: judged only after ignore_start (200 ms), then still for the
        // confirm window (150 ms).
        let (ms, verdict) = watch(LegWatch::new(leg(100), &settings()), |_| (0, RUNNING));
        assert_eq!(verdict, LegVerdict::Jammed { at_deg: 0 });
        assert!((350..=360).contains(&ms), "{ms}");
        // Moving, then stuck at 40.
        let (_, verdict) = watch(LegWatch::new(leg(100), &settings()), |ms| {
            ((ms as i32 / 5).min(40), RUNNING)
        });
        assert_eq!(verdict, LegVerdict::Jammed { at_deg: 40 });
    }

    #[test]
    fn a_leg_that_crawls_past_its_limit_times_out() {
        let slow = Leg {
            limit: Duration::from_millis(500),
            ..leg(100)
        };
        // 20 deg/s: always seen moving, never there in time.
        let (ms, verdict) = watch(LegWatch::new(slow, &settings()), |ms| {
            (ms as i32 / 50, RUNNING)
        });
        assert_eq!(ms, 510);
        assert_eq!(
            verdict,
            LegVerdict::TimedOut {
                at_deg: 10,
                waited: Duration::from_millis(510)
            }
        );
    }

    #[test]
    fn the_pen_stopping_on_the_paper_within_its_band_touches_down_and_above_it_is_blocked() {
        let down = Leg {
            axis: Axis::Pen,
            touch_down_band_deg: Some(8),
            ..leg(30)
        };
        let (_, verdict) = watch(LegWatch::new(down, &settings()), |ms| {
            ((ms as i32 / 5).min(26), RUNNING)
        });
        assert_eq!(verdict, LegVerdict::TouchedDown);
        let (_, verdict) = watch(LegWatch::new(down, &settings()), |ms| {
            ((ms as i32 / 5).min(12), RUNNING)
        });
        assert_eq!(
            verdict,
            LegVerdict::PenBlocked {
                at_deg: 12,
                band_deg: 8
            }
        );
    }

    #[test]
    fn the_pen_come_down_and_still_inside_its_band_has_touched_down_after_five_readings() {
        let down = Leg {
            axis: Axis::Pen,
            touch_down_band_deg: Some(8),
            ..leg(30)
        };
        // Down at 200 deg/s onto paper 4 degrees above the set depth, there at 130 ms: five
        // readings still, 180 ms into the leg, before the stall judge's guard has passed.
        let (ms, verdict) = watch(LegWatch::new(down, &settings()), |ms| {
            ((ms as i32 / 5).min(26), RUNNING)
        });
        assert_eq!((ms, verdict), (180, LegVerdict::TouchedDown));
        // A pen that never moved is still for its start, not on the paper: the stall judge
        // decides, once its guard has passed.
        let (ms, verdict) = watch(LegWatch::new(down, &settings()), |_| (26, RUNNING));
        assert_eq!(verdict, LegVerdict::TouchedDown);
        assert!(ms > settings().ignore_start_ms, "{ms} ms");
    }

    fn seconds(d: Duration) -> f64 {
        d.as_secs_f64()
    }

    #[test]
    fn a_move_at_speed_from_end_to_end_takes_its_distance_over_its_speed() {
        let t = least_time(600.0, 600.0, 3200.0, false, false);
        assert!((seconds(t) - 1.0).abs() < 1e-9, "{t:?}");
    }

    #[test]
    fn each_end_at_rest_costs_half_the_time_to_reach_speed() {
        // 600 deg/s at 3200 deg/s² takes 0.1875 s to reach, over 56.25 degrees.
        let one = least_time(600.0, 600.0, 3200.0, true, false);
        let both = least_time(600.0, 600.0, 3200.0, true, true);
        assert!((seconds(one) - (1.0 + 0.09375)).abs() < 1e-9, "{one:?}");
        assert!((seconds(both) - (1.0 + 0.1875)).abs() < 1e-9, "{both:?}");
    }

    #[test]
    fn a_move_too_short_to_reach_speed_is_up_and_down_again() {
        // 40 degrees at 3200 deg/s²: half of it speeding up, for sqrt(2 * 20 / 3200) s.
        let t = least_time(40.0, 600.0, 3200.0, true, true);
        let half = (2.0 * 20.0 / 3200.0_f64).sqrt();
        assert!((seconds(t) - 2.0 * half).abs() < 1e-9, "{t:?}");
        assert!(t > least_time(40.0, 600.0, 3200.0, false, false));
    }

    #[test]
    fn the_least_time_never_beats_the_distance_at_speed() {
        for distance in [0.5, 5.0, 50.0, 500.0] {
            for (from_rest, to_rest) in [(false, false), (true, false), (false, true), (true, true)]
            {
                let t = least_time(distance, 400.0, 3200.0, from_rest, to_rest);
                assert!(seconds(t) >= distance / 400.0 - 1e-12, "{distance} {t:?}");
            }
        }
    }
}
