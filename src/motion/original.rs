//! The original robot's way of moving, ported from its RobotC source onto the [`crate::hw`]
//! traits, so the benchmark can time both on the same simulator.
//!
//! What it did, and what this port keeps: it re-homed both axes before every square it read and
//! before every move; it moved one axis at a time, timing each move by polling the encoder
//! until the distance was covered; it waited fixed times (500 ms before each reading, 750 ms
//! after lowering the pen for a grid line, 1000 ms after lowering it for its mark); and it
//! found the end stops by checking every 100 ms whether the axis had moved less than a
//! threshold. Its mark was a dot: the pen lowered and lifted at the square's centre.
//!
//! What the port changes, for a fair comparison: motors run at the speeds of our robot config
//! (the original used motor powers of 20 to 40 percent), and its endless loops have time limits.

use crate::config::{Axis, AxisPoint, RobotConfig};
use crate::game::Cell;
use crate::hw::{HwError, Motor, Robot, StopAction};
use std::time::Duration;

/// The original's fixed waits.
const BEFORE_READING: Duration = Duration::from_millis(500);
const AFTER_PEN_DOWN_FOR_LINE: Duration = Duration::from_millis(750);
const AFTER_PEN_DOWN_FOR_MARK: Duration = Duration::from_millis(1000);
/// Its homing loop: a 200 ms start, then a check every 100 ms.
const HOMING_START: Duration = Duration::from_millis(200);
const HOMING_CHECK: Duration = Duration::from_millis(100);
/// Degrees per 100 ms below which it took an axis (rows, columns) or the pen to be stopped.
const ROWS_STOPPED_DEG: i32 = 9;
const COLUMNS_STOPPED_DEG: i32 = 14;
const PEN_STOPPED_DEG: i32 = 7;
/// A limit the original did not have, so a port on a faulty robot cannot hang.
const GIVE_UP: Duration = Duration::from_secs(20);
/// How often the port polls an encoder while moving (the original spun without waiting).
const POLL: Duration = Duration::from_millis(5);

/// The original robot's motions on our hardware traits.
pub struct OriginalRobot<'a> {
    robot: &'a mut Robot,
    config: &'a RobotConfig,
}

fn duty_for(speed_deg_per_s: u32, max_deg_per_s: u32) -> i8 {
    ((speed_deg_per_s * 100).div_ceil(max_deg_per_s)).clamp(1, 100) as i8
}

impl<'a> OriginalRobot<'a> {
    pub fn new(robot: &'a mut Robot, config: &'a RobotConfig) -> OriginalRobot<'a> {
        OriginalRobot { robot, config }
    }

    fn sleep(&self, duration: Duration) {
        self.robot.clock.sleep(duration);
    }

    /// `trackReset`: both axes toward their stops until each moves less than its threshold in
    /// 100 ms; then both encoders are zeroed there.
    pub fn track_reset(&mut self) -> Result<(), HwError> {
        let rows_duty = self.config.rows.homing.duty_percent as i8;
        let columns_duty = self.config.columns.homing.duty_percent as i8;
        self.robot.rows.run_duty(-rows_duty)?;
        self.robot.columns.run_duty(-columns_duty)?;
        self.sleep(HOMING_START);
        let began = self.robot.clock.now();
        let (mut rows_going, mut columns_going) = (true, true);
        let mut rows_from = self.robot.rows.position_deg()?;
        let mut columns_from = self.robot.columns.position_deg()?;
        while rows_going || columns_going {
            self.sleep(HOMING_CHECK);
            let rows_at = self.robot.rows.position_deg()?;
            let columns_at = self.robot.columns.position_deg()?;
            if rows_going && (rows_at - rows_from).abs() < ROWS_STOPPED_DEG {
                rows_going = false;
                self.robot.rows.stop(StopAction::Brake)?;
            }
            if columns_going && (columns_at - columns_from).abs() < COLUMNS_STOPPED_DEG {
                columns_going = false;
                self.robot.columns.stop(StopAction::Brake)?;
            }
            (rows_from, columns_from) = (rows_at, columns_at);
            if self.robot.clock.now() - began > GIVE_UP {
                break;
            }
        }
        self.robot.rows.stop(StopAction::Brake)?;
        self.robot.columns.stop(StopAction::Brake)?;
        self.robot.rows.set_position_deg(0)?;
        self.robot.columns.set_position_deg(0)
    }

    /// `penReset`: the pen up until it moves less than its threshold in 100 ms.
    pub fn pen_reset(&mut self) -> Result<(), HwError> {
        let duty = self.config.pen.homing.duty_percent as i8;
        self.robot.pen.run_duty(-duty)?;
        self.sleep(HOMING_START);
        let began = self.robot.clock.now();
        let mut from = self.robot.pen.position_deg()?;
        loop {
            self.sleep(HOMING_CHECK);
            let at = self.robot.pen.position_deg()?;
            if (at - from).abs() < PEN_STOPPED_DEG || self.robot.clock.now() - began > GIVE_UP {
                break;
            }
            from = at;
        }
        self.robot.pen.stop(StopAction::Brake)?;
        self.robot.pen.set_position_deg(0)
    }

    /// `moveMotor`: one motor forward until its encoder has covered `distance_deg` from zero.
    fn move_motor(
        &mut self,
        which: Axis,
        distance_deg: i32,
        speed_deg_per_s: u32,
    ) -> Result<(), HwError> {
        let max = self.config.kind(which).max_speed_deg_per_s();
        let duty = duty_for(speed_deg_per_s, max);
        let began = self.robot.clock.now();
        // Field by field, so the clock can be used while the motor is.
        let motor: &mut Box<dyn Motor> = match which {
            Axis::Columns => &mut self.robot.columns,
            Axis::Rows => &mut self.robot.rows,
            Axis::Pen => &mut self.robot.pen,
        };
        motor.run_duty(duty)?;
        while motor.position_deg()?.abs() < distance_deg {
            self.robot.clock.sleep(POLL);
            if self.robot.clock.now() - began > GIVE_UP {
                break;
            }
        }
        motor.stop(StopAction::Brake)
    }

    fn pen_down(&mut self) -> Result<(), HwError> {
        self.move_motor(
            Axis::Pen,
            self.config.pen.down_deg + self.config.pen.homing.backoff_deg,
            self.config.pen.speed_deg_per_s,
        )
    }

    /// `movePenSense`: from home, the columns axis to the square, then the rows axis; with the
    /// sensor's offset added for reading.
    fn go_to_square(&mut self, cell: Cell, for_sensor: bool) -> Result<(), HwError> {
        let centre = self.config.board.cell_centre(cell);
        let offset = if for_sensor {
            self.config.sensing.sensor_offset_deg
        } else {
            AxisPoint::new(0, 0)
        };
        let columns = centre.columns + offset.columns + self.config.columns.homing.backoff_deg;
        let rows = centre.rows + offset.rows + self.config.rows.homing.backoff_deg;
        self.move_motor(Axis::Columns, columns, self.config.columns.speed_deg_per_s)?;
        self.move_motor(Axis::Rows, rows, self.config.rows.speed_deg_per_s)
    }

    /// `drawBoard`: each grid line from home, one axis to the line, pen down, a wait, the other
    /// axis across.
    pub fn draw_board(&mut self) -> Result<(), HwError> {
        self.pen_reset()?;
        self.track_reset()?;
        let board = &self.config.board;
        let (origin, square) = (board.grid_origin_deg, board.square_deg);
        let lines = [
            (Axis::Columns, origin.columns + square, Axis::Rows),
            (Axis::Columns, origin.columns + 2 * square, Axis::Rows),
            (Axis::Rows, origin.rows + square, Axis::Columns),
            (Axis::Rows, origin.rows + 2 * square, Axis::Columns),
        ];
        for (to_line, at, along) in lines {
            let (backoff_to, backoff_along, start_along) = match to_line {
                Axis::Columns => (
                    self.config.columns.homing.backoff_deg,
                    self.config.rows.homing.backoff_deg,
                    origin.rows,
                ),
                _ => (
                    self.config.rows.homing.backoff_deg,
                    self.config.columns.homing.backoff_deg,
                    origin.columns,
                ),
            };
            let speed = self.config.columns.speed_deg_per_s;
            self.move_motor(to_line, at + backoff_to, speed)?;
            self.move_motor(along, start_along + backoff_along, speed)?;
            self.pen_down()?;
            self.sleep(AFTER_PEN_DOWN_FOR_LINE);
            let draw = self.config.columns.draw_speed_deg_per_s;
            self.move_motor(along, start_along + backoff_along + 3 * square, draw)?;
            self.pen_reset()?;
            self.track_reset()?;
        }
        Ok(())
    }

    /// The human's turn: home, then for each empty square home again, go there, wait, read.
    /// Returns the readings of the squares read.
    pub fn read_board(&mut self, empty: &[Cell]) -> Result<Vec<(Cell, u8)>, HwError> {
        self.track_reset()?;
        let mut readings = Vec::new();
        for i in 0..9 {
            self.track_reset()?;
            let cell = Cell::from_index(i, 3);
            if empty.contains(&cell) {
                self.go_to_square(cell, true)?;
                self.sleep(BEFORE_READING);
                readings.push((cell, self.robot.light.reflected_percent()?));
            }
        }
        Ok(readings)
    }

    /// The robot's turn: home, go to the square, pen down, wait, pen up (a dot).
    pub fn draw_mark(&mut self, cell: Cell) -> Result<(), HwError> {
        self.track_reset()?;
        self.go_to_square(cell, false)?;
        self.pen_down()?;
        self.sleep(AFTER_PEN_DOWN_FOR_MARK);
        self.pen_reset()
    }
}
