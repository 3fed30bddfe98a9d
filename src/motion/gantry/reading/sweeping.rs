//! Sweeps: the sensor carried along the rows of squares at a pace its readings keep up with,
//! and each reading placed where the spot was when the sensor measured it.

use super::sensor_timing::{fresh_period, spread_between_reads};
use crate::config::AxisPoint;
use crate::game::Cell;
use crate::motion::gantry::{Finish, Gantry, Pace, Result};
use crate::motion::leg::at_speed;
use crate::motion::plan::{self, Sweep};
use crate::motion::sensing::{self, Sample};
use crate::motion::Axis;
use std::time::Duration;

/// The shortest run-up before a sweep's first window and run-out past its last (see
/// [`Gantry::sweep_run_deg`]).
const SWEEP_RUN_DEG: i32 = 10;

/// A sweep may start with the rows axis this close to its line, still settling.
const ROWS_SETTLED_DEG: i32 = 1;

/// One sweep along a row and every reading it took.
pub(in crate::motion::gantry) type SweptRow = (Sweep, Vec<Sample>);

/// Each square's readings out of the sweeps' (those in its window).
pub(super) fn by_square(rows: &[SweptRow]) -> Vec<(Cell, Vec<Sample>)> {
    rows.iter()
        .flat_map(|(sweep, samples)| {
            sweep
                .squares
                .iter()
                .map(|(cell, window)| (*cell, sensing::in_window(samples, window)))
        })
        .collect()
}

impl Gantry {
    /// Sweeps the sensor across `cells` (pen up) at `speed_deg_per_s`, along each row's centre
    /// line moved by `rows_offset_deg`, and returns each square's readings.
    pub fn sweep_squares(
        &mut self,
        cells: &[Cell],
        speed_deg_per_s: u32,
        rows_offset_deg: i32,
    ) -> Result<Vec<(Cell, Vec<Sample>)>> {
        let rows = self.sweep_rows(cells, speed_deg_per_s, &[rows_offset_deg])?;
        Ok(by_square(&rows))
    }

    /// As [`Gantry::sweep_squares`] along each of the lines `rows_offsets_deg` from the rows'
    /// centre lines, in one snake (see [`plan::sweeps`]): each sweep with every reading it took,
    /// the ones between the squares' windows (over the grid's lines) included.
    pub(super) fn sweep_rows(
        &mut self,
        cells: &[Cell],
        speed_deg_per_s: u32,
        rows_offsets_deg: &[i32],
    ) -> Result<Vec<SweptRow>> {
        self.sweep_rows_pausing(cells, speed_deg_per_s, rows_offsets_deg, &mut |_, _| Ok(()))
    }

    /// As [`Gantry::sweep_rows`], handing the gantry and the sweeps so far to `between` after
    /// each sweep but the last: it may move the carriage (the next sweep starts from wherever
    /// it is left).
    pub(super) fn sweep_rows_pausing(
        &mut self,
        cells: &[Cell],
        speed_deg_per_s: u32,
        rows_offsets_deg: &[i32],
        between: &mut dyn FnMut(&mut Gantry, &[SweptRow]) -> Result<()>,
    ) -> Result<Vec<SweptRow>> {
        self.guarded(|g| {
            g.move_pen(0)?;
            let offset = g.config.sensing.sensor_offset_deg;
            let at = g.position()?;
            let sensor_at = AxisPoint::new(at.columns - offset.columns, at.rows - offset.rows);
            let plan = plan::sweeps(&g.config, cells, sensor_at, rows_offsets_deg);
            // A reading may be of where the spot was up to a period ago (see `sweep`): a
            // window keeps only readings that were inside it whenever they were measured.
            let lag = g.reading_lag_deg(speed_deg_per_s).ceil() as i32;
            let mut out = Vec::new();
            let sweeps = plan.len();
            for mut sweep in plan {
                let samples = g.sweep(&sweep, speed_deg_per_s)?;
                for (_, window) in &mut sweep.squares {
                    *window = window.start() + lag..=window.end() - lag;
                }
                out.push((sweep, samples));
                if out.len() < sweeps {
                    between(g, &out)?;
                }
            }
            // The sensor may be slower now than it was (a busy CPU): time it again, on all of
            // this look's rows together, as one row's few dozen readings leave the period
            // uncertain by a tenth.
            let sweeps: Vec<&[Sample]> = out.iter().map(|(_, samples)| &samples[..]).collect();
            if let Some(period) = fresh_period(&sweeps, g.noise_percent) {
                g.read_period = Some(period);
            }
            g.between_reads = spread_between_reads(&sweeps).or(g.between_reads);
            Ok(out)
        })
    }

    /// Half the distance the spot travels in one of the sensor's periods at `speed`: a reading
    /// returns the sensor's latest measurement, taken anywhere up to a period before, so its
    /// spot was this far behind on average, give or take as much again. At 400 deg/s and a
    /// fresh value every 12 ms that is 2.4 degrees, enough for the edge of a 12 mm spot to
    /// reach a grid line that its reading's own position says is clear. At most a quarter of
    /// the reading window: on paper so even that its readings hardly change, the period is
    /// measured long (see `fresh_period`), and a window cut to nothing would read nothing.
    pub(super) fn reading_lag_deg(&self, speed_deg_per_s: u32) -> f64 {
        let most = f64::from(self.config.reading_geometry().window_half_deg) / 2.0;
        (f64::from(speed_deg_per_s) * self.pace_period().as_secs_f64() / 2.0).min(most)
    }

    /// Runs the sensor along `sweep` at `speed` and returns its readings, each placed where
    /// the spot was on average when it was measured. The sensor starts
    /// [`SWEEP_RUN_DEG`] before the first window, so it is up to pace when it gets there, and
    /// the sweep counts as done once the last window is passed, while the motor runs out and
    /// slows down: the next move starts then, with no wait for a motor to settle on a point no
    /// reading needs.
    pub(super) fn sweep(&mut self, sweep: &Sweep, speed: u32) -> Result<Vec<Sample>> {
        self.sweep_line(
            Axis::Columns,
            sweep.rows_deg,
            sweep.from_columns_deg,
            sweep.to_columns_deg,
            speed,
        )
    }

    /// How far before a sweep's first window the motor starts, and past its last window it is
    /// sent: the distance it speeds up from standing to `speed` in at its acceleration, and
    /// slows down to standing in (`speed² / (2 acceleration)`, 25 degrees at 400 deg/s and
    /// 3200 deg/s²). Read while still speeding up or already slowing down, a window's readings
    /// would come closer together than its pace was set for, and each one's lag (the time the
    /// sensor's value is old, at the speed asked for) would place it too far along.
    fn sweep_run_deg(&self, axis: Axis, speed: u32) -> i32 {
        let ramp =
            f64::from(speed).powi(2) / (2.0 * f64::from(self.config.acceleration_deg_per_s2(axis)));
        (ramp.ceil() as i32).max(SWEEP_RUN_DEG)
    }

    /// Runs the sensor's spot along `axis` from `first` to `last` (in the spot's own frame),
    /// the other axis at `across`, at `speed`, and returns its readings as [`Gantry::sweep`]
    /// does.
    pub(in crate::motion::gantry) fn sweep_line(
        &mut self,
        axis: Axis,
        across: i32,
        first: i32,
        last: i32,
        speed: u32,
    ) -> Result<Vec<Sample>> {
        let offset = self.config.sensing.sensor_offset_deg;
        let (along_offset, across_offset) = match axis {
            Axis::Rows => (offset.rows, offset.columns),
            _ => (offset.columns, offset.rows),
        };
        let across_motor = across + across_offset;
        let (first, last) = (first + along_offset, last + along_offset);
        let direction = if last < first { -1 } else { 1 };
        let travel = self.config.travel_deg(axis);
        let run = self.sweep_run_deg(axis, speed);
        let start_along = (first - direction * run).clamp(0, travel);
        let end_along = (last + direction * run).clamp(0, travel);
        let point = |along: i32, across: i32| match axis {
            Axis::Rows => AxisPoint::new(across, along),
            _ => AxisPoint::new(along, across),
        };
        // Straight there: a reading does not need the play taken up, so no approach move. The
        // swept axis only needs to be short of the first window when the sweep starts, and the
        // other near its line: the spot is ten times wider than what is left to settle.
        let close_enough = match axis {
            Axis::Rows => AxisPoint::new(ROWS_SETTLED_DEG, run / 2),
            _ => AxisPoint::new(run / 2, ROWS_SETTLED_DEG),
        };
        let finish = Finish::Within(close_enough);
        self.move_both(
            point(start_along, across_motor),
            Pace::Travel,
            finish,
            &mut |_, _, _| Ok(()),
        )?;
        self.check_target(axis, end_along)?;
        // A read returns the sensor's latest measurement, which may still be of the way here
        // until one of its periods has passed; the run-up is read in that time.
        let fresh_from = self.clock().now() + self.pace_period();
        let lag = direction * self.reading_lag_deg(speed).round() as i32;
        let sample_every = Duration::from_millis(self.config.sensing.sample_ms);
        let mut samples = Vec::new();
        let mut next_sample = fresh_from;
        let run_out = (end_along - last).abs();
        let mut leg = self.start_leg(axis, start_along, end_along, speed, run_out)?;
        // The bound sweeps the windows at the configured speed, whatever pace the sensor
        // allows; from standing, the motor must first reach it, which takes speed /
        // acceleration before the first window. The run-up is ours to pay for.
        let (span, most) = (
            (last - first).abs(),
            self.config.sensing.sweep_speed_deg_per_s,
        );
        leg.at_speed = at_speed(span, most);
        leg.ideal = leg.at_speed;
        if self.starts_from_rest(axis, direction) {
            leg.ideal += Duration::from_secs_f64(
                f64::from(most) / f64::from(self.config.acceleration_deg_per_s2(axis)),
            );
        }
        self.wait_for(&[leg], &mut |g, now, positions| {
            if now >= next_sample {
                // On the schedule, not from now: a poll a little late must not push every
                // later reading back by a whole poll.
                next_sample = (next_sample + sample_every).max(now);
                // The position the wait has just read: one attribute read less.
                let along = positions[0] - along_offset - lag;
                let percent = g.robot.light.reflected_percent()?;
                samples.push(Sample {
                    at: point(along, across),
                    time: now,
                    percent,
                });
            }
            Ok(())
        })?;
        Ok(samples)
    }
}
