//! Reading the paper with the colour sensor: sweeps along the rows of squares, the blank paper
//! read when the grid is drawn (its level, its noise, and the grid's own ink), and the looks at
//! the board on every turn, judged by [`crate::motion::sensing`]. The sensor's timing is
//! measured as it is used: its period, and the spread of the time between reads.

use super::{Finish, Gantry, Pace, Result};
use crate::config::{AxisPoint, RobotConfig};
use crate::game::Cell;
use crate::game::Mark;
use crate::motion::own_ink::{InkModel, OwnInkFit};
use crate::motion::plan::{self, Sweep};
use crate::motion::sensing::{
    self, BlankSquare, Evidence, GridSighting, Look, NewMarks, Sample, SquareReading,
};
use crate::motion::{Axis, MotionError};
use std::time::Duration;

/// No sweep runs slower than this, however slow the sensor: the stall judge takes an axis
/// moving under about 13 deg/s for one that has stopped (see [`super::stall`]).
pub(super) const SLOWEST_SWEEP_DEG_PER_S: u32 = 40;

/// A sweep's run-up before its first window and run-out past its last. At the sweeping speeds
/// (up to 400 deg/s) the simulator's large motor reaches its pace within about 13 degrees; a
/// shorter run-up only means the first readings of a window come a little closer together.
const SWEEP_RUN_DEG: i32 = 10;

/// The first look's readings come at most this share of the spot apart.
pub const FIRST_LOOK_SPACING: f64 = 0.5;

/// The blank paper's level is the median of at least this many fresh readings in each square:
/// every later look is compared with it, so its own error counts in every verdict.
pub const BLANK_READINGS: f64 = 20.0;

/// How far from where it was drawn a grid line is looked for, in degrees: a moved sheet or a
/// slipped gear up to this far is measured; the marks inside the squares stay out of reach.
const GRID_SEARCH_DEG: i32 = 15;

/// An old grid's crossings must agree this closely, in degrees, to be taken for a grid.
const GRID_SPREAD_DEG: f64 = 8.0;

/// The fewest fresh readings a look takes along a square's window: fewer, and the mean of a
/// line (the test a wide spot relies on) is too noisy to tell a faint mark from paper.
pub const WINDOW_READINGS: f64 = 6.0;

/// Reads of the sensor held still that must all agree for it to count as quiet: a third of
/// a second at a read every 10 ms. A sensor that flickers by a count (noise of 0.5 %) keeps one
/// value that long about once in thirty thousand tries.
const STILL_READINGS: usize = 32;

/// The most polls waited for the carriage to hold still before the still reads (half a second
/// at 10 ms): its run-out takes a few.
const STILL_SETTLE_POLLS: usize = 50;

/// A sweep may start with the rows axis this close to its line, still settling.
const ROWS_SETTLED_DEG: i32 = 1;

/// [`Gantry::reading_speed`] for a robot `config` whose sensor reads every `period`.
pub fn reading_speed(
    config: &RobotConfig,
    period: Duration,
    fraction: f64,
    most_deg_per_s: u32,
) -> u32 {
    let geometry = config.reading_geometry();
    let period = period.as_secs_f64().max(1e-3);
    let spacing_deg = (geometry.spot_columns_deg * fraction)
        .min(2.0 * f64::from(geometry.window_half_deg) / WINDOW_READINGS);
    let fits = spacing_deg / period;
    (fits as u32).clamp(
        SLOWEST_SWEEP_DEG_PER_S.min(most_deg_per_s),
        most_deg_per_s.max(1),
    )
}

/// The pace of the blank read: `BLANK_READINGS` fresh readings in each square's window
/// (three quarters of it, what a window keeps of its readings at speed), and no faster than
/// the first look.
pub fn blank_speed(config: &RobotConfig, period: Duration) -> u32 {
    let window = 1.5 * f64::from(config.reading_geometry().window_half_deg);
    let fits = window / (BLANK_READINGS * period.as_secs_f64().max(1e-3));
    let first_look = reading_speed(
        config,
        period,
        FIRST_LOOK_SPACING,
        config.sensing.sweep_speed_deg_per_s,
    );
    (fits as u32).clamp(SLOWEST_SWEEP_DEG_PER_S, first_look.max(1))
}

/// Every length the robot reads by, in millimetres and degrees, one sentence each: the
/// square, the marks and the pen's line, the sensor's spot, where in a square it reads, how
/// far apart its readings fall, and the thinnest line the spot can tell from paper. Logged
/// at each game's start and printed by `calibrate`, so a person can set them against a
/// ruler and the sheet. `period` is the time between two fresh readings.
pub fn describe_eye(config: &RobotConfig, period: Duration) -> Vec<String> {
    let scale = config.scale();
    let board = &config.board;
    let geometry = config.reading_geometry();
    let square = f64::from(board.square_deg);
    let spacing = |speed: u32| {
        let deg = f64::from(speed) * period.as_secs_f64();
        format!("{speed} deg/s, a reading every {}", scale.both_columns(deg))
    };
    let faint = f64::from(config.sensing.faint_contrast_percent) / 100.0;
    let thinnest = |ink_of_paper: f64| {
        crate::physical::thinnest_line_mm(config.sensing.spot_mm, ink_of_paper, faint).map_or_else(
            || "none, however wide".to_string(),
            |mm| scale.both_columns(scale.columns_deg(mm)),
        )
    };
    vec![
        format!(
            "squares {} along the columns axis by {} along the rows; the robot's marks {} \
             across; its pen's line {}",
            scale.both_columns(square),
            scale.both_rows(square),
            scale.both_columns(f64::from(board.mark_size_deg)),
            scale.both_columns(scale.columns_deg(config.pen.line_mm)),
        ),
        format!(
            "the sensor's spot {} across ({:.0} deg of the rows axis); it reads {} either \
             side of a square's centre, clear of the grid lines, and a second look {} off it",
            scale.both_columns(geometry.spot_columns_deg),
            geometry.spot_rows_deg,
            scale.both_columns(f64::from(geometry.window_half_deg)),
            scale.both_rows(f64::from(geometry.look_offset_deg)),
        ),
        format!(
            "a fresh reading every {:.1} ms: the first look at {}; the blank read at {}",
            period.as_secs_f64() * 1000.0,
            spacing(reading_speed(
                config,
                period,
                FIRST_LOOK_SPACING,
                config.sensing.sweep_speed_deg_per_s
            )),
            spacing(blank_speed(config, period)),
        ),
        format!(
            "the thinnest line this spot tells from paper ({:.0} % darker, \
             sensing.faint_contrast_percent): black ink {}, pencil {}",
            faint * 100.0,
            thinnest(crate::physical::BLACK_INK_OF_PAPER),
            thinnest(crate::physical::GRAPHITE_OF_PAPER),
        ),
    ]
}

/// Each square's blank paper (level and noise), measured once the grid is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct BlankPaper {
    /// Squares along each side of the board.
    pub size: usize,
    /// Row by row.
    pub squares: Vec<BlankSquare>,
}

impl BlankPaper {
    /// The paper of a board of side `size`, from its squares row by row; `None` when they are
    /// not `size` x `size`.
    pub fn new(size: usize, squares: Vec<BlankSquare>) -> Option<BlankPaper> {
        (squares.len() == size * size).then_some(BlankPaper { size, squares })
    }

    pub fn of(&self, cell: Cell) -> BlankSquare {
        self.squares[cell.index(self.size)]
    }

    /// Each square's level, rounded to whole percent, row by row.
    pub fn levels(&self) -> Vec<u8> {
        self.squares.iter().map(|s| s.level.round() as u8).collect()
    }
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
    fn sweep_rows(
        &mut self,
        cells: &[Cell],
        speed_deg_per_s: u32,
        rows_offsets_deg: &[i32],
    ) -> Result<Vec<(Sweep, Vec<Sample>)>> {
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
            for mut sweep in plan {
                let samples = g.sweep(&sweep, speed_deg_per_s)?;
                for (_, window) in &mut sweep.squares {
                    *window = window.start() + lag..=window.end() - lag;
                }
                out.push((sweep, samples));
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
    fn reading_lag_deg(&self, speed_deg_per_s: u32) -> f64 {
        let most = f64::from(self.config.reading_geometry().window_half_deg) / 2.0;
        (f64::from(speed_deg_per_s) * self.pace_period().as_secs_f64() / 2.0).min(most)
    }

    /// Runs the sensor along `sweep` at `speed` and returns its readings, each placed where
    /// the spot was on average when it was measured. The sensor starts
    /// [`SWEEP_RUN_DEG`] before the first window, so it is up to pace when it gets there, and
    /// the sweep counts as done once the last window is passed, while the motor runs out and
    /// slows down: the next move starts then, with no wait for a motor to settle on a point no
    /// reading needs.
    fn sweep(&mut self, sweep: &Sweep, speed: u32) -> Result<Vec<Sample>> {
        self.sweep_line(
            Axis::Columns,
            sweep.rows_deg,
            sweep.from_columns_deg,
            sweep.to_columns_deg,
            speed,
        )
    }

    /// Runs the sensor's spot along `axis` from `first` to `last` (in the spot's own frame),
    /// the other axis at `across`, at `speed`, and returns its readings as [`Gantry::sweep`]
    /// does.
    pub(super) fn sweep_line(
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
        let start_along = (first - direction * SWEEP_RUN_DEG).clamp(0, travel);
        let end_along = (last + direction * SWEEP_RUN_DEG).clamp(0, travel);
        let point = |along: i32, across: i32| match axis {
            Axis::Rows => AxisPoint::new(across, along),
            _ => AxisPoint::new(along, across),
        };
        // Straight there: a reading does not need the play taken up, so no approach move. The
        // swept axis only needs to be short of the first window when the sweep starts, and the
        // other near its line: the spot is ten times wider than what is left to settle.
        let close_enough = match axis {
            Axis::Rows => AxisPoint::new(ROWS_SETTLED_DEG, SWEEP_RUN_DEG / 2),
            _ => AxisPoint::new(SWEEP_RUN_DEG / 2, ROWS_SETTLED_DEG),
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
        // allows; the run-up is ours to pay for.
        leg.ideal = Duration::from_secs_f64(
            f64::from((last - first).unsigned_abs())
                / f64::from(self.config.sensing.sweep_speed_deg_per_s.max(1)),
        );
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

    /// The time between two readings the robot took on its last look, once it has looked: the
    /// 5th percentile, the median and the 95th. The sweep asks for one every
    /// `sensing.sample_ms`; on a busy brick each read of an attribute takes longer and they come
    /// later, which stretches the upper figure first.
    pub fn between_reads(&self) -> Option<ReadSpread> {
        self.between_reads
    }

    /// Whether the sensor, held still over the paper, keeps one value for
    /// [`STILL_READINGS`] reads. A sensor that flickers by even a count shows its fresh
    /// measurements as changes, and the sweeps time it by them (see [`fresh_period`]). One that
    /// does not cannot be timed so: over even paper its fresh values repeat the last, and
    /// counting its changes had taken a 12 ms sensor for a 20 ms one and slowed every sweep by
    /// a third. Its sweeps are paced by the robot's own reads instead (see
    /// [`Gantry::pace_period`]): the pace guards the count of independent readings a window's
    /// mean averages against the noise, and a quiet sensor has no noise to average. (The EV3
    /// colour sensor's firmware sends a value when it changes, so a repeat of a quiet one is
    /// its current value; see `docs/sensor.md`.) The judging keeps the slow count, as paper's
    /// own texture under a still sensor is not averaged away by reading it more often.
    fn reads_quiet_when_still(&mut self) -> Result<bool> {
        let every = Duration::from_millis(self.config.sensing.sample_ms.max(1));
        // The sweep's run-out ends first: the carriage holds within a few polls.
        for _ in 0..STILL_SETTLE_POLLS {
            self.check_stop()?;
            if !self.motor(Axis::Columns).state()?.running {
                break;
            }
            self.clock().sleep(every);
        }
        let mut values = Vec::with_capacity(STILL_READINGS);
        for _ in 0..STILL_READINGS {
            self.check_stop()?;
            values.push(self.robot.light.reflected_percent()?);
            self.clock().sleep(every);
        }
        let (least, most) = (
            values.iter().min().copied().unwrap_or(0),
            values.iter().max().copied().unwrap_or(0),
        );
        let quiet = least == most;
        log::info!(
            "the sensor held still read {least} to {most} % over {} reads: {}",
            values.len(),
            if quiet {
                "quiet, so the sweeps are paced by the reads"
            } else {
                "it flickers, so its changes time it"
            }
        );
        Ok(quiet)
    }

    /// Whether the sensor kept one value held still over the blank paper, read just after the
    /// blank paper itself: a sensor that does not flicker cannot be timed by how often its value
    /// changes, so its sweeps are paced by the robot's reads.
    pub fn sensor_is_quiet(&self) -> bool {
        self.quiet_sensor
    }

    /// The time between two readings that a sweep's pace and the reading's lag rest on: the
    /// sensor's [`Gantry::read_period`], or for a quiet sensor (see
    /// [`Gantry::reads_quiet_when_still`]) the time between the robot's own reads, all such a
    /// sensor's freshness can be known by; never shorter than `sensing.sample_ms`.
    fn pace_period(&self) -> Duration {
        let asked = Duration::from_millis(self.config.sensing.sample_ms);
        match (self.quiet_sensor, self.between_reads) {
            (true, Some(spread)) => spread.median.max(asked),
            _ => self.read_period(),
        }
    }

    /// The time between two colour readings: as last measured, or as configured before any
    /// sweep, whichever is longer.
    pub fn read_period(&self) -> Duration {
        let asked = Duration::from_millis(self.config.sensing.sample_ms);
        self.read_period
            .map_or(asked, |measured| measured.max(asked))
    }

    /// The speed of the first look at the board: readings at most half the spot apart. A
    /// stroke crossing the line darkens the spot over a spot plus its own width of travel, so
    /// at least two readings fall on even the thinnest; the faint ones a fast look cannot tell
    /// from noise get the slow, dense look.
    pub fn first_look_speed(&self) -> u32 {
        self.reading_speed(
            FIRST_LOOK_SPACING,
            self.config.sensing.sweep_speed_deg_per_s,
        )
    }

    /// The speed at which readings come at most `fraction` of the sensor's spot apart, at
    /// least `WINDOW_READINGS` of them fall in a square's window, and at most
    /// `most_deg_per_s`. Under a narrow spot the first bounds the speed; under a wide one,
    /// whose window is short, the second.
    pub fn reading_speed(&self, fraction: f64, most_deg_per_s: u32) -> u32 {
        reading_speed(&self.config, self.pace_period(), fraction, most_deg_per_s)
    }

    /// Reads every square's blank paper: level and noise. The sweep runs at the first look's
    /// pace, not at travel speed: the noise that every threshold is a multiple of needs its
    /// readings (see [`BlankSquare::pooled`]).
    pub fn take_blank_readings(&mut self) -> Result<BlankPaper> {
        self.blank_readings(false)
    }

    /// Reads every square of a sheet with no grid yet, pen up: the squares that already hold
    /// ink (see [`sensing::used_squares`]) and a grid already drawn where the robot draws its
    /// own, as on a sheet left from the last game. Under a wide spot a thin mark may not stand
    /// out clearly enough, but the old grid's lines, crossed by every row, do.
    pub fn used_sheet(&mut self) -> Result<UsedSheet> {
        let cells = self.all_squares();
        let rows = self.sweep_rows(&cells, self.first_look_speed(), &[0])?;
        let squares: Vec<(Cell, Vec<u8>)> = by_square(&rows)
            .into_iter()
            .map(|(cell, samples)| (cell, samples.iter().map(|s| s.percent).collect()))
            .collect();
        let faint = f64::from(self.config.sensing.faint_contrast_percent) / 100.0;
        let grid = self
            .sight_grid(&rows, faint)
            .filter(|seen| seen.crossings >= 3 && seen.spread_deg <= GRID_SPREAD_DEG);
        Ok(UsedSheet {
            marked: sensing::used_squares(&squares, &self.config.sensing),
            grid,
        })
    }

    /// The grid's inner lines across the columns axis, as drawn: the ones every row crosses.
    fn grid_columns(&self) -> Vec<i32> {
        let board = &self.config.board;
        (1..board.size as i32)
            .map(|k| board.grid_origin_deg.columns + k * board.square_deg)
            .collect()
    }

    /// Where the sweeps `rows` crossed the grid's lines, counting a crossing at least
    /// `least_depth` darker than the paper.
    fn sight_grid(&self, rows: &[(Sweep, Vec<Sample>)], least_depth: f64) -> Option<GridSighting> {
        let sweeps: Vec<&[Sample]> = rows.iter().map(|(_, samples)| &samples[..]).collect();
        sensing::find_grid_lines(
            &sweeps,
            &self.grid_columns(),
            GRID_SEARCH_DEG,
            self.config.reading_geometry().spot_columns_deg,
            least_depth,
        )
    }

    /// [`describe_eye`] at the read period measured so far.
    pub fn describe_eye(&self) -> Vec<String> {
        describe_eye(&self.config, self.read_period())
    }

    /// A grid sighting in words, in both units.
    fn describe_sighting(&self, seen: &GridSighting) -> String {
        let scale = self.config.scale();
        format!(
            "{} crossings, {:.0} % darker than the paper, {} {} where they were drawn",
            seen.crossings,
            seen.depth * 100.0,
            crate::physical::both(
                scale.columns_mm(seen.offset_deg.abs()),
                seen.offset_deg.abs()
            ),
            if seen.offset_deg >= 0.0 {
                "beyond"
            } else {
                "short of"
            }
        )
    }

    /// As [`Gantry::take_blank_readings`], on a grid just drawn, checking that the grid's
    /// lines are there: the pen inked.
    pub fn read_blank_grid(&mut self) -> Result<BlankPaper> {
        let blank = self.blank_readings(true)?;
        self.note_grid_as_drawn()?;
        Ok(blank)
    }

    /// Every square of the board, row by row.
    pub fn all_squares(&self) -> Vec<Cell> {
        let size = self.config.board.size;
        (0..size * size)
            .map(|i| Cell::from_index(i, size))
            .collect()
    }

    fn blank_speed(&self) -> u32 {
        blank_speed(&self.config, self.read_period())
    }

    fn blank_readings(&mut self, grid_drawn: bool) -> Result<BlankPaper> {
        let size = self.config.board.size;
        let cells = self.all_squares();
        let rows = self.sweep_rows(&cells, self.blank_speed(), &[0])?;
        if grid_drawn {
            self.check_grid_ink(&rows)?;
            let faint = f64::from(self.config.sensing.faint_contrast_percent) / 100.0;
            if let Some(seen) = self.sight_grid(&rows, faint / 2.0) {
                log::info!("the grid's lines: {}", self.describe_sighting(&seen));
            }
        }
        let mut percents = vec![Vec::new(); cells.len()];
        let mut swept = vec![Vec::new(); cells.len()];
        for (cell, samples) in by_square(&rows) {
            if samples.is_empty() {
                return Err(MotionError::Unread {
                    square: self.square_name(cell),
                });
            }
            percents[cell.index(size)] = samples.iter().map(|s| s.percent).collect();
            swept[cell.index(size)] = samples;
        }
        let mut pooled = BlankSquare::pooled(&percents).ok_or_else(|| MotionError::Unread {
            square: self.square_name(cells[0]),
        })?;
        self.noise_percent = Some(pooled[0].noise);
        self.quiet_sensor = self.reads_quiet_when_still()?;
        // The sweeps were timed before the noise was known: time them again with it.
        let sweeps: Vec<&[Sample]> = rows.iter().map(|(_, samples)| &samples[..]).collect();
        if let Some(period) = fresh_period(&sweeps, self.noise_percent) {
            self.read_period = Some(period);
        }
        // A level rests on its fresh measurements, not on the readings that repeat them.
        let period = self.read_period();
        for (square, samples) in pooled.iter_mut().zip(&swept) {
            let repeats = sensing::readings_per_measurement(samples, period);
            square.readings = ((samples.len() as f64 / repeats) as usize).max(1);
        }
        for (i, square) in pooled.iter().enumerate() {
            if square.level < f64::from(self.config.sensing.min_blank_percent) {
                return Err(MotionError::NoPaper {
                    square: self.square_name(cells[i]),
                    percent: square.level.round() as u8,
                });
            }
        }
        Ok(BlankPaper {
            size,
            squares: pooled,
        })
    }

    /// Checks that the grid just drawn is on the paper: every sweep across a row of squares
    /// crosses the two lines between them, and a line of the robot's pen darkens the spot far
    /// more than any noise. If no crossing reads even half as dark as a clear mark, the pen
    /// left no ink: a dry pen, no pen, or a pen held above the paper.
    fn check_grid_ink(&self, rows: &[(Sweep, Vec<Sample>)]) -> Result<()> {
        let board = &self.config.board;
        let reach = (self.config.reading_geometry().spot_columns_deg / 2.0).ceil() as i32 + 3;
        let lines = [1, 2].map(|k| board.grid_origin_deg.columns + k * board.square_deg);
        let wanted = f64::from(self.config.sensing.mark_contrast_percent) / 200.0;
        let mut darkest = 0.0f64;
        for (_, samples) in rows {
            let readings: Vec<u8> = samples.iter().map(|s| s.percent).collect();
            let Some(paper) = sensing::blank_level(&readings).map(f64::from) else {
                continue;
            };
            for sample in samples {
                if lines
                    .iter()
                    .any(|&l| (sample.at.columns - l).abs() <= reach)
                {
                    darkest = darkest.max((paper - f64::from(sample.percent)) / paper.max(1.0));
                }
            }
        }
        if darkest < wanted {
            return Err(MotionError::NoInk {
                darkest_percent: (darkest * 100.0).round() as u8,
            });
        }
        Ok(())
    }

    /// Reads the squares in `empty` and says which now hold a new mark.
    ///
    /// The first look runs along each row's centre line. If it finds no clear mark, the empty
    /// squares are read again along two lines `sensing.second_look_offset_deg` either side of
    /// the centre, so a mark drawn off centre is found before the robot says there is none.
    /// A square still borderline then (one faint dip), or if no square is marked yet one with
    /// a hint of a dip, gets a last, slow and dense look along all three lines. So reading is as fast as before when the mark is plain, and only the
    /// doubtful squares cost more.
    pub fn read_new_marks(
        &mut self,
        blank: &BlankPaper,
        empty: &[Cell],
    ) -> Result<(NewMarks, Vec<SquareReading>)> {
        let (marks, readings, _) = self.read_board(blank, empty, &[])?;
        Ok((marks, readings))
    }

    /// As [`Gantry::read_new_marks`], also reading the robot's own marks in `own` on the first
    /// look (they lie on the rows it sweeps anyway): the third part is what that look showed
    /// of each, fitted to the shape it should make (see [`crate::motion::own_ink`]).
    pub fn read_board(
        &mut self,
        blank: &BlankPaper,
        empty: &[Cell],
        own: &[(Cell, Mark)],
    ) -> Result<(NewMarks, Vec<SquareReading>, Vec<OwnMarkCheck>)> {
        let sensing = self.config.sensing.clone();
        // The robot's own squares go last, so they split off after the first look.
        let first: Vec<Cell> = empty
            .iter()
            .copied()
            .chain(own.iter().map(|&(cell, _)| cell))
            .collect();
        let mut readings: Vec<SquareReading> = first
            .iter()
            .map(|&cell| SquareReading {
                cell,
                blank: blank.of(cell),
                looks: Vec::new(),
                evidence: Evidence::Blank,
            })
            .collect();
        let fast = self.first_look_speed();
        let offset = self.config.reading_geometry().look_offset_deg;
        self.last_read = ReadStages::default();
        self.last_read_samples.clear();
        let mut stage = self.start_stage();
        let first_rows = self.look(&mut readings, &first, fast, &[0])?;
        self.last_read.first = self.end_stage(stage, first.len());
        let first_look = by_square(&first_rows);
        let own_readings: Vec<SquareReading> = readings.split_off(empty.len());
        let period = self.read_period();
        let own_checks: Vec<OwnMarkCheck> = own
            .iter()
            .zip(&own_readings)
            .map(|(&(cell, mark), reading)| {
                let samples = first_look
                    .iter()
                    .find(|(c, _)| *c == cell)
                    .map_or(&[][..], |(_, s)| &s[..]);
                let fit = self.fit_own_mark(&reading.blank, cell, mark, samples, period);
                OwnMarkCheck {
                    cell,
                    mark,
                    seen: reading.marked() || fit.is_some_and(|f| f.seen()),
                    fit,
                }
            })
            .collect();
        // Twice as dense: a faint line's darkest point is then read nearly dead on. At the pace
        // the sensor was last timed at, so after the off-centre look's sweeps, at theirs.
        let slow = |g: &Gantry| g.reading_speed(0.2, sensing.sweep_speed_deg_per_s / 2);
        let lines = [0, offset, -offset];
        let mut looked_closely: Vec<Cell> = Vec::new();
        // A faint dip on the first look is most likely the person's mark: the slow look
        // settles it at that square alone, where the off-centre look would cross every empty
        // one first (measured on the matrix's slowest row, a ballpoint O: 2.8 + 5.1 + 2.0 s
        // read that way).
        let borderline: Vec<Cell> = readings
            .iter()
            .filter(|r| r.evidence == Evidence::Borderline)
            .map(|r| r.cell)
            .collect();
        if !readings.iter().any(SquareReading::marked) && !borderline.is_empty() {
            stage = self.start_stage();
            self.look(&mut readings, &borderline, slow(self), &lines)?;
            self.last_read.close = Some(self.end_stage(stage, borderline.len()));
            looked_closely = borderline;
        }
        if !readings.iter().any(SquareReading::marked) {
            stage = self.start_stage();
            self.look(&mut readings, empty, fast, &[offset, -offset])?;
            self.last_read.off_centre = Some(self.end_stage(stage, empty.len()));
        }
        // The person says they have moved: with no square marked yet, a square with only a
        // hint of a dip is worth the slow look too.
        let nothing_seen = !readings.iter().any(SquareReading::marked);
        let doubtful: Vec<Cell> = readings
            .iter()
            .filter(|r| r.evidence == Evidence::Borderline || (nothing_seen && r.hinted()))
            .map(|r| r.cell)
            .filter(|cell| !looked_closely.contains(cell))
            .collect();
        if !doubtful.is_empty() {
            stage = self.start_stage();
            self.look(&mut readings, &doubtful, slow(self), &lines)?;
            let close = self.end_stage(stage, doubtful.len());
            self.last_read.close = Some(match self.last_read.close {
                Some(earlier) => earlier.and(close),
                None => close,
            });
        }
        Ok((NewMarks::from_readings(&readings), readings, own_checks))
    }

    /// Every reading the last [`Gantry::read_board`] took, in order, over the squares' windows
    /// and between them: what [`crate::read_record`] draws.
    pub fn last_read_samples(&self) -> &[Sample] {
        &self.last_read_samples
    }

    /// How long each stage of the last [`Gantry::read_board`] took, against its motions'
    /// physical bound.
    pub fn last_read(&self) -> ReadStages {
        self.last_read
    }

    fn start_stage(&self) -> (Duration, Duration) {
        (self.clock().now(), self.ideal_motion)
    }

    fn end_stage(&self, (began, ideal): (Duration, Duration), squares: usize) -> ReadStage {
        ReadStage {
            took: self.clock().now() - began,
            bound: self.ideal_motion - ideal,
            squares,
        }
    }

    /// The spot and the pen in degrees, for predicting where the robot's own ink shows.
    fn ink_model(&self) -> InkModel {
        let geometry = self.config.reading_geometry();
        let scale = self.config.scale();
        let line_mm = self.config.pen.line_mm;
        InkModel {
            spot_half_columns_deg: geometry.spot_columns_deg / 2.0,
            spot_half_rows_deg: geometry.spot_rows_deg / 2.0,
            line_half_deg: (scale.columns_deg(line_mm) + scale.rows_deg(line_mm)) / 4.0,
        }
    }

    /// How well `samples` of `cell` fit the robot's `mark` drawn there.
    fn fit_own_mark(
        &self,
        blank: &BlankSquare,
        cell: Cell,
        mark: Mark,
        samples: &[Sample],
        period: Duration,
    ) -> Option<OwnInkFit> {
        let paths = plan::mark(&self.config.board, cell, mark);
        let model = self.ink_model();
        let covers: Vec<f64> = samples
            .iter()
            .map(|s| model.cover(&paths, f64::from(s.at.columns), f64::from(s.at.rows)))
            .collect();
        OwnInkFit::of(blank, samples, &covers, period)
    }

    /// A closer look at the robot's own `mark` in `cell`: slow and dense, along the lines where
    /// its ink should show most (an O's ring above and below the centre, an X's crossing).
    pub fn look_closely_at_own(
        &mut self,
        blank: &BlankPaper,
        cell: Cell,
        mark: Mark,
    ) -> Result<Option<OwnInkFit>> {
        let paths = plan::mark(&self.config.board, cell, mark);
        let window = plan::reading_window(&self.config, cell);
        let centre_rows = self.config.board.cell_centre(cell).rows;
        let lines = self.ink_model().best_lines(
            &paths,
            (*window.start(), *window.end()),
            centre_rows,
            self.config.reading_geometry().look_offset_deg,
        );
        let slow = self.reading_speed(0.2, self.config.sensing.sweep_speed_deg_per_s / 2);
        let mut samples = Vec::new();
        for rows in lines {
            for (_, swept) in self.sweep_squares(&[cell], slow, rows - centre_rows)? {
                samples.extend(swept);
            }
        }
        let period = self.read_period();
        Ok(self.fit_own_mark(&blank.of(cell), cell, mark, &samples, period))
    }

    /// Sweeps `cells` along the lines at `offsets` from their centres and judges them again with
    /// what every look so far showed; returns its sweeps, every reading kept.
    fn look(
        &mut self,
        readings: &mut [SquareReading],
        cells: &[Cell],
        speed_deg_per_s: u32,
        offsets: &[i32],
    ) -> Result<Vec<(Sweep, Vec<Sample>)>> {
        let sensing = self.config.sensing.clone();
        let spot_deg = self.config.reading_geometry().spot_columns_deg;
        let rows = self.sweep_rows(cells, speed_deg_per_s, offsets)?;
        for (_, samples) in &rows {
            self.last_read_samples.extend_from_slice(samples);
        }
        // As timed on these very sweeps.
        let period = self.read_period();
        for (sweep, samples) in &rows {
            for (cell, window) in &sweep.squares {
                let samples = sensing::in_window(samples, window);
                let reading = readings
                    .iter_mut()
                    .find(|r| r.cell == *cell)
                    .expect("every swept square has a reading");
                let look = Look::of(
                    &reading.blank,
                    &samples,
                    &sensing,
                    period,
                    spot_deg,
                    sweep.line_offset_deg == 0,
                )
                .ok_or_else(|| MotionError::Unread {
                    square: self.square_name(*cell),
                })?;
                reading.looks.push(look);
            }
        }
        for reading in readings.iter_mut().filter(|r| cells.contains(&r.cell)) {
            reading.evidence = sensing::judge(&reading.blank, &reading.looks, &sensing);
        }
        Ok(rows)
    }
}

/// One stage of a read of the board: how long it took, how long its motions would take at
/// their set speeds with no speeding up, slowing down or waiting (its physical bound), and
/// how many squares it read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReadStage {
    pub took: Duration,
    pub bound: Duration,
    pub squares: usize,
}

impl ReadStage {
    /// This stage and `later`, one of the same kind, as one.
    fn and(self, later: ReadStage) -> ReadStage {
        ReadStage {
            took: self.took + later.took,
            bound: self.bound + later.bound,
            squares: self.squares + later.squares,
        }
    }
}

/// The stages of one read of the board: the first look along the centre lines; the look along
/// two lines off centre, when the first found no clear mark; the slow, dense look at doubtful
/// squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReadStages {
    pub first: ReadStage,
    pub off_centre: Option<ReadStage>,
    pub close: Option<ReadStage>,
}

/// What the robot saw on a sheet before drawing its grid.
#[derive(Debug, Clone, PartialEq)]
pub struct UsedSheet {
    /// Squares that already hold a clear mark.
    pub marked: Vec<Cell>,
    /// A grid already drawn where the robot draws its own.
    pub grid: Option<GridSighting>,
}

impl UsedSheet {
    pub fn is_used(&self) -> bool {
        !self.marked.is_empty() || self.grid.is_some()
    }
}

/// What a look showed of one of the robot's own marks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OwnMarkCheck {
    pub cell: Cell,
    pub mark: Mark,
    /// Seen: the square reads as marked, or the readings fit the mark's shape.
    pub seen: bool,
    /// The fit to the mark's shape, if any reading should have seen its ink.
    pub fit: Option<OwnInkFit>,
}

/// Each square's readings out of the sweeps' (those in its window).
fn by_square(rows: &[(Sweep, Vec<Sample>)]) -> Vec<(Cell, Vec<Sample>)> {
    rows.iter()
        .flat_map(|(sweep, samples)| {
            sweep
                .squares
                .iter()
                .map(|(cell, window)| (*cell, sensing::in_window(samples, window)))
        })
        .collect()
}

/// The time between two fresh measurements of the colour sensor, from the readings of sweeps.
///
/// The sensor measures on its own clock: on noisy paper a reading that repeats the last one is
/// most likely the same measurement read again, so the period is the time over the number of
/// fresh values. Two fresh whole-percent readings with noise of standard deviation s come out
/// equal about once in 2 s sqrt(pi) (3.5 for the default simulator's 1.7 %), so the changes are
/// scaled up by that share once the noise is known; without it the estimate errs slow, the safe
/// way. Quiet paper changes little even when fresh, so no more than four readings to a
/// measurement are assumed, which a sensor that slow would still be read safely at.
fn fresh_period(sweeps: &[&[Sample]], noise_percent: Option<f64>) -> Option<Duration> {
    let (mut intervals, mut changes, mut took) = (0.0, 0.0, Duration::ZERO);
    for samples in sweeps {
        let (Some(first), Some(last)) = (samples.first(), samples.last()) else {
            continue;
        };
        intervals += samples.len().saturating_sub(1) as f64;
        changes += samples
            .windows(2)
            .filter(|w| w[0].percent != w[1].percent)
            .count() as f64;
        took += last.time - first.time;
    }
    if intervals < 2.0 {
        return None;
    }
    let honest_repeats = noise_percent.map_or(0.0, |s| {
        (1.0 / (2.0 * s * std::f64::consts::PI.sqrt())).min(0.5)
    });
    let fresh = (changes / (1.0 - honest_repeats)).clamp((intervals / 4.0).max(1.0), intervals);
    Some(took.div_f64(fresh))
}

/// The time between two readings the robot took while sweeping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadSpread {
    /// The 5th percentile.
    pub low: Duration,
    pub median: Duration,
    /// The 95th percentile: a busy brick stretches it first.
    pub high: Duration,
}

impl std::fmt::Display for ReadSpread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "read every {} ms, 5-95 % of the time from {} to {} ms",
            self.median.as_millis(),
            self.low.as_millis(),
            self.high.as_millis()
        )
    }
}

/// The spread of the time between two readings in a sweep, over `sweeps`; `None` with fewer
/// than two readings in every sweep.
fn spread_between_reads(sweeps: &[&[Sample]]) -> Option<ReadSpread> {
    let mut between: Vec<Duration> = sweeps
        .iter()
        .flat_map(|samples| samples.windows(2).map(|w| w[1].time - w[0].time))
        .collect();
    if between.is_empty() {
        return None;
    }
    between.sort_unstable();
    let at = |share: usize| between[(between.len() - 1) * share / 100];
    Some(ReadSpread {
        low: at(5),
        median: at(50),
        high: at(95),
    })
}
