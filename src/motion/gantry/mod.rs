//! The gantry as the firmware uses it: moves with the safety net here, each axis's leg run with its
//! time limit in `legs.rs`; homing in `homing.rs`, the pen and drawing in `drawing.rs`, reading the
//! paper in `reading/`, the grid as a ruler in `ruler.rs`, measuring the machine for calibration in
//! `travel.rs`.
//!
//! Every motion has a time limit derived from its distance and speed, and every failure makes
//! the machine safe before it is returned (Klipper's rule): all motors stopped, the pen lifted if
//! it still can be. A motor's stall flag is trusted only once it has lasted, after the first
//! instants of a move, because a motor starting from rest reads as stalled for a moment.

use super::leg::at_speed;
use super::{Axis, MotionError, SafeState, StopRequest};
use crate::config::{AxisPoint, RobotConfig};
use crate::game::Cell;
use crate::hw::{ButtonPad, Buttons, Clock, Motor, Robot};
use std::time::Duration;

mod drawing;
mod homing;
mod legs;
mod line_crossing;
use line_crossing::JUST_DRAWN_SEARCH_MM;
mod reading;
pub mod ruler;
mod safe_stop;
mod sensor_place;
mod travel;

pub use homing::HomingReport;
pub use reading::{
    describe_eye, reading_speed, BlankPaper, OwnMarkCheck, ReadSpread, ReadStage, ReadStages,
    UsedSheet, FIRST_LOOK_SPACING,
};

type Result<T> = std::result::Result<T, MotionError>;

/// What a wait runs at every poll while the motors move, handed the time and the legs'
/// positions just read.
type OnTick<'a> = &'a mut dyn FnMut(&mut Gantry, Duration, &[i32]) -> Result<()>;

/// How a move is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pace {
    /// Pen up: each axis at its travel speed.
    Travel,
    /// Pen down: a straight line at the drawing speed, or at `most` deg/s if that is slower
    /// (a path whose corners the motors could not turn on at the drawing speed).
    Draw { most: Option<u32> },
}

/// When a move of both axes counts as done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Finish {
    /// Each axis within these degrees of the target, or past it, while still moving (0: once
    /// stopped on it).
    Within(AxisPoint),
    /// The motors are sent on toward `aim`, beyond the target on the same straight line, and
    /// the move is done as each axis comes within `within_deg` of the target: the pen passes a
    /// corner of a drawing at speed instead of slowing down to stop at it.
    Through { aim: AxisPoint, within_deg: i32 },
}

impl Finish {
    /// Each axis stopped on the target.
    const EXACTLY: Finish = Finish::Within(AxisPoint::new(0, 0));
}

/// The brick's buttons lent to the gantry (see [`Gantry::stop_on_any_button`]).
struct LentButtons {
    pad: Box<dyn ButtonPad>,
    /// How they read at the last poll: a press is a button held now that was not then.
    before: Buttons,
    /// False once a read failed: they are not read again.
    readable: bool,
}

/// The robot's gantry: three motors, the colour sensor, the touch sensor and the clock.
pub struct Gantry {
    robot: Robot,
    config: RobotConfig,
    homed: [bool; 3],
    /// Honoured at every poll of every motion; `None` while the machine is being made safe.
    stop: Option<StopRequest>,
    /// The brick's buttons while any press of them stops the motions too (calibration from the
    /// menu).
    stop_buttons: Option<LentButtons>,
    /// The time between two fresh colour measurements, as measured on the last sweep (it can
    /// be longer than `sensing.sample_ms` asks: a busy CPU, a slow sensor).
    read_period: Option<Duration>,
    /// The least time every motion so far could have taken at its configured speed and
    /// acceleration, with no waiting: the physical bound the benchmark compares with.
    ideal_motion: Duration,
    /// The same motions at their configured speeds from their first instant to their last.
    motion_at_speed: Duration,
    /// Each axis's last leg, while it may still be moving: its way (+1 or -1), and whether it
    /// ended before the motor stopped (a sweep's run-out, a corner passed through, a move
    /// close enough). `None`: standing. The bound counts a leg's speeding up only where it
    /// must start from standing.
    last_leg: [Option<(i32, bool)>; 3],
    /// The furthest each axis has run past a target it was to stop on, in degrees (see
    /// [`Gantry::overshoot_deg`]).
    overshoot_deg: [i32; 3],
    /// The sensor's noise on blank paper (one standard deviation, percent), once read.
    noise_percent: Option<f64>,
    /// Whether the sensor, held still over the blank paper, kept one value (see
    /// [`Gantry::reads_quiet_when_still`]).
    quiet_sensor: bool,
    /// The pace of the blank read's second read, set by the noise the first showed: see
    /// [`Gantry::describe_eye`].
    second_read_speed: Option<u32>,
    /// The time between two readings taken on the last look: see [`Gantry::between_reads`].
    between_reads: Option<ReadSpread>,
    /// How long each stage of the last read of the board took: see [`Gantry::last_read`].
    last_read: ReadStages,
    /// Every reading of the last read of the board: see [`Gantry::last_read_samples`].
    last_read_samples: Vec<crate::motion::sensing::Sample>,
    /// The light on the paper the last read measured, against the blank read's: see
    /// [`Gantry::paper_light`].
    paper_light: crate::motion::sensing::PaperLight,
    /// The paper under the parked sensor as the person's turn began, and where the carriage
    /// stood: see [`Gantry::note_the_paper_at_rest`]. Taken by the turn's first read.
    paper_at_rest: Option<(crate::motion::sensing::PaperAtRest, AxisPoint)>,
    /// What the last safe stop achieved.
    last_safe_state: Option<SafeState>,
    /// The sensor's spot and the robot's ink as the last grid's crossings measured them, and
    /// the spot the robot config gave (see [`Gantry::eye`]).
    eye: Option<crate::motion::sensing::EyeMeasure>,
    configured_spot_mm: f64,
    /// Where the ruler found the grid's lines just after drawing them (see [`ruler`]).
    grid_as_drawn: Option<ruler::GridAsDrawn>,
    /// The sheet's check's read of the squares, when it found them blank: the blank read's
    /// first (see [`Gantry::read_blank_grid`]). Taken by the blank read, and dropped at homing.
    sheet_read: Option<Vec<reading::SweptRow>>,
    /// The columns axis's lines as the blank read's sweeps placed them, each (line, offset from
    /// where the pen was sent, in degrees): set by the blank read of a grid just drawn, taken by
    /// the ruler, which then need not cross them (see [`Gantry::read_blank_grid`]).
    swept_grid_lines: Option<Vec<(usize, f64)>>,
    /// The board as the robot config places it, before the squares follow a grid that has
    /// moved a little (see [`Gantry::check_grid`]); `config.board` is where they are now.
    board_as_configured: crate::config::BoardGeometry,
}

impl Gantry {
    pub fn new(robot: Robot, config: RobotConfig) -> Gantry {
        let board_size = config.board.size;
        Gantry {
            robot,
            board_as_configured: config.board.clone(),
            configured_spot_mm: config.sensing.spot_mm,
            eye: None,
            config,
            homed: [false; 3],
            stop: Some(StopRequest::new()),
            stop_buttons: None,
            read_period: None,
            ideal_motion: Duration::ZERO,
            motion_at_speed: Duration::ZERO,
            last_leg: [None; 3],
            overshoot_deg: [0; 3],
            noise_percent: None,
            quiet_sensor: false,
            second_read_speed: None,
            between_reads: None,
            last_read: ReadStages::default(),
            last_read_samples: Vec::new(),
            paper_light: crate::motion::sensing::PaperLight::as_at_blank(board_size),
            paper_at_rest: None,
            last_safe_state: None,
            grid_as_drawn: None,
            sheet_read: None,
            swept_grid_lines: None,
        }
    }

    /// Makes every motion end, safely, soon after `stop` is requested.
    pub fn obey(&mut self, stop: StopRequest) {
        self.stop = Some(stop);
    }

    /// Makes a press of any of the brick's buttons (`pad`, which read `before` at its last
    /// reading) end every motion as a stop request does, until [`Gantry::give_back_buttons`].
    /// Reading them at every poll costs the brick a system call each time, so only a procedure
    /// a person may want to cut short lends them (calibration from the menu).
    pub fn stop_on_any_button(&mut self, pad: Box<dyn ButtonPad>, before: Buttons) {
        self.stop_buttons = Some(LentButtons {
            pad,
            before,
            readable: true,
        });
    }

    /// The buttons lent by [`Gantry::stop_on_any_button`], with how they last read.
    pub fn give_back_buttons(&mut self) -> Option<(Box<dyn ButtonPad>, Buttons)> {
        self.stop_buttons.take().map(|lent| (lent.pad, lent.before))
    }

    /// Fails if a stop was requested, or a lent button pressed: for waits outside the motions
    /// (the touch sensor) as well as within them.
    pub fn check_stop(&mut self) -> Result<()> {
        if let Some(stop) = self.stop.as_ref().filter(|s| s.signal().is_some()) {
            return Err(MotionError::Interrupted {
                cause: stop.cause(),
            });
        }
        if let Some(lent) = self.stop_buttons.as_mut().filter(|lent| lent.readable) {
            match lent.pad.pressed() {
                Ok(now) => {
                    let newly = now.newly_pressed(lent.before);
                    lent.before = now;
                    if let Some(name) = newly {
                        return Err(MotionError::Interrupted {
                            cause: format!("the {name} button"),
                        });
                    }
                }
                // Buttons that cannot be read stop nothing (signals still do); said once, not
                // at every poll.
                Err(error) => {
                    log::warn!("the buttons could not be read, so they stop nothing: {error}");
                    lent.readable = false;
                }
            }
        }
        Ok(())
    }

    pub fn config(&self) -> &RobotConfig {
        &self.config
    }

    /// Goes on with `config` (calibration measured it): the next homing, drawing and reading
    /// follow it. What was measured on the last sheet is its own and is forgotten.
    pub fn reconfigure(&mut self, config: RobotConfig) {
        self.board_as_configured = config.board.clone();
        self.configured_spot_mm = config.sensing.spot_mm;
        self.eye = None;
        self.grid_as_drawn = None;
        self.config = config;
    }

    pub fn clock(&self) -> &dyn Clock {
        &*self.robot.clock
    }

    /// The devices, for what the gantry does not do itself (the touch sensor).
    pub fn robot_mut(&mut self) -> &mut Robot {
        &mut self.robot
    }

    pub fn is_homed(&self, axis: Axis) -> bool {
        self.homed[axis as usize]
    }

    fn motor(&mut self, axis: Axis) -> &mut dyn Motor {
        self.robot.motor(axis)
    }

    /// Runs `action`; if it fails, makes the machine safe and returns the first error. After a
    /// jam, a time-out or a device fault the positions cannot be trusted (teeth may have
    /// skipped), so the axes must be homed again; a move refused before anything moved keeps them.
    fn guarded<T>(&mut self, action: impl FnOnce(&mut Gantry) -> Result<T>) -> Result<T> {
        self.last_safe_state = None;
        let result = action(self);
        if let Err(error) = &result {
            self.make_safe();
            let refused_before_moving = matches!(
                error,
                MotionError::NotHomed { .. }
                    | MotionError::OutsideTravel { .. }
                    | MotionError::PenOutsideSheet { .. }
            );
            if !refused_before_moving {
                self.homed = [false; 3];
            }
        }
        result
    }

    /// Where the pen is, by the encoders.
    pub fn position(&mut self) -> Result<AxisPoint> {
        Ok(AxisPoint::new(
            self.robot.columns.position_deg()?,
            self.robot.rows.position_deg()?,
        ))
    }

    /// Moves both axes at once to `target` and waits for both, until each has arrived as
    /// `finish` says. With the pen up each axis runs at its travel speed; drawing, the speeds
    /// are shared out so the pen goes straight.
    fn move_both(
        &mut self,
        target: AxisPoint,
        pace: Pace,
        finish: Finish,
        on_tick: OnTick<'_>,
    ) -> Result<()> {
        let from = self.position()?;
        self.move_both_from(from, target, pace, finish, on_tick)
    }

    /// As [`Gantry::move_both`], from `from` as the axes stand (or, in a drawing, as they were
    /// sent: each read of a position costs the brick a system call, and a path's points follow
    /// on from each other).
    fn move_both_from(
        &mut self,
        from: AxisPoint,
        target: AxisPoint,
        pace: Pace,
        finish: Finish,
        on_tick: OnTick<'_>,
    ) -> Result<()> {
        self.check_target(Axis::Columns, target.columns)?;
        self.check_target(Axis::Rows, target.rows)?;
        let (sent_to, close_enough) = match finish {
            Finish::Within(close_enough) => (target, close_enough),
            Finish::Through { aim, within_deg } => {
                self.check_target(Axis::Columns, aim.columns)?;
                self.check_target(Axis::Rows, aim.rows)?;
                (aim, AxisPoint::new(within_deg, within_deg))
            }
        };
        let through = sent_to != target;
        let distance = [
            (sent_to.columns - from.columns).abs(),
            (sent_to.rows - from.rows).abs(),
        ];
        let longest = distance[0].max(distance[1]);
        let mut legs = Vec::new();
        for (i, (axis, target_deg, done_at_deg)) in [
            (Axis::Columns, sent_to.columns, target.columns),
            (Axis::Rows, sent_to.rows, target.rows),
        ]
        .into_iter()
        .enumerate()
        {
            // An axis already there is left alone, unless it may still be running on through
            // the corner before.
            if distance[i] == 0 && !through {
                continue;
            }
            let axis_config = match axis {
                Axis::Columns => &self.config.columns,
                _ => &self.config.rows,
            };
            let speed = match pace {
                Pace::Travel => axis_config.speed_deg_per_s,
                Pace::Draw { most } => {
                    let share = f64::from(distance[i]) / f64::from(longest);
                    let speed = axis_config
                        .draw_speed_deg_per_s
                        .min(most.unwrap_or(u32::MAX));
                    ((f64::from(speed) * share).round() as u32).max(1)
                }
            };
            let (from_deg, close_enough_deg) = if axis == Axis::Columns {
                (from.columns, close_enough.columns)
            } else {
                (from.rows, close_enough.rows)
            };
            let mut leg = self.start_leg(axis, from_deg, target_deg, speed, close_enough_deg)?;
            leg.done_at_deg = done_at_deg;
            leg.ideal = self.least_time(
                axis,
                done_at_deg - from_deg,
                speed,
                close_enough_deg == 0 && !through,
            );
            leg.at_speed = at_speed(done_at_deg - from_deg, speed);
            legs.push(leg);
        }
        self.wait_for(&legs, on_tick)
    }

    /// Moves the pen (which must be up) to `target`, arriving moving forward on both axes so
    /// the gears' play is always taken up the same way.
    pub fn move_to(&mut self, target: AxisPoint) -> Result<()> {
        self.guarded(|g| g.move_to_unguarded(target, &mut |_, _, _| Ok(())))
    }

    fn move_to_unguarded(&mut self, target: AxisPoint, on_tick: OnTick<'_>) -> Result<()> {
        self.check_target(Axis::Columns, target.columns)?;
        self.check_target(Axis::Rows, target.rows)?;
        let from = self.position()?;
        let approach = self.config.board.approach_deg;
        let before = |target: i32, from: i32| {
            if target < from {
                (target - approach).max(0)
            } else {
                target
            }
        };
        let via = AxisPoint::new(
            before(target.columns, from.columns),
            before(target.rows, from.rows),
        );
        if via != target {
            self.move_both(via, Pace::Travel, Finish::EXACTLY, &mut |_, _, _| Ok(()))?;
        }
        self.move_both(target, Pace::Travel, Finish::EXACTLY, on_tick)
    }

    /// Lifts the pen and moves to the axes' zero, out of the human's way.
    pub fn park(&mut self) -> Result<()> {
        let parked = self.guarded(|g| {
            g.move_pen(0)?;
            g.move_to_unguarded(AxisPoint::new(0, 0), &mut |_, _, _| Ok(()))
        });
        match parked {
            // Stopped short of its zero, close to it, on the way home: the carriage met its
            // end stop early, as it does when its pinion has skipped teeth on the rack (it is
            // nearer the stop than the encoder says). Homing again finds the stop anew.
            Err(MotionError::Jammed {
                axis,
                at_deg,
                target_deg: 0,
            }) if axis != Axis::Pen && at_deg.abs() <= self.config.board.square_deg / 4 => {
                log::warn!(
                    "the {axis} met its end stop {at_deg} degrees before its zero: its pinion \
                     has skipped on the rack, so it homes again"
                );
                self.home()?;
                self.guarded(|g| {
                    g.move_pen(0)?;
                    g.move_to_unguarded(AxisPoint::new(0, 0), &mut |_, _, _| Ok(()))
                })
            }
            other => other,
        }
    }

    /// A square of the board on this robot's paper as people name it: "square 3 (top right)"
    /// (see [`Cell::name`]).
    pub fn square_name(&self, cell: Cell) -> String {
        cell.name(self.config.board.size)
    }

    /// The least time all motions so far could have taken at their configured speeds and
    /// accelerations, with no waiting (see [`crate::motion::leg::least_time`]).
    pub fn ideal_motion(&self) -> Duration {
        self.ideal_motion
    }

    /// The same motions at their configured speeds alone, as if each motor were at speed from
    /// its first instant to its last: no motor can be, so this is below any real time.
    pub fn motion_at_speed(&self) -> Duration {
        self.motion_at_speed
    }
}
