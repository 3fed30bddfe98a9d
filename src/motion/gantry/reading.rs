//! Reading the paper with the colour sensor: sweeps along the rows of squares, the blank paper
//! read when the grid is drawn (its level, its noise, and the grid's own ink), and the looks at
//! the board on every turn, judged by [`crate::motion::sensing`]. The sensor's timing is
//! measured as it is used: its period, and the spread of the time between reads.

use super::{Finish, Gantry, Pace, Result};
use crate::config::AxisPoint;
use crate::game::Cell;
use crate::motion::plan::{self, Sweep};
use crate::motion::sensing::{self, BlankSquare, Evidence, Look, NewMarks, Sample, SquareReading};
use crate::motion::{Axis, MotionError};
use std::time::Duration;

/// No sweep runs slower than this, however slow the sensor: the stall judge takes an axis
/// moving under about 13 deg/s for one that has stopped (see [`super::stall`]).
const SLOWEST_SWEEP_DEG_PER_S: u32 = 40;

/// A sweep's run-up before its first window and run-out past its last. At the sweeping speeds
/// (up to 400 deg/s) the simulator's large motor reaches its pace within about 13 degrees; a
/// shorter run-up only means the first readings of a window come a little closer together.
const SWEEP_RUN_DEG: i32 = 10;

/// The first look's readings come at most this share of the spot apart.
pub const FIRST_LOOK_SPACING: f64 = 0.5;

/// A sweep may start with the rows axis this close to its line, still settling.
const ROWS_SETTLED_DEG: i32 = 1;

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
        let rows = self.sweep_rows(cells, speed_deg_per_s, rows_offset_deg)?;
        Ok(by_square(&rows))
    }

    /// As [`Gantry::sweep_squares`], each sweep with every reading it took, the ones between
    /// the squares' windows (over the grid's lines) included.
    fn sweep_rows(
        &mut self,
        cells: &[Cell],
        speed_deg_per_s: u32,
        rows_offset_deg: i32,
    ) -> Result<Vec<(Sweep, Vec<Sample>)>> {
        self.guarded(|g| {
            g.move_pen(0)?;
            let offset = g.config.sensing.sensor_offset_deg;
            let at = g.position()?;
            let sensor_at = AxisPoint::new(at.columns - offset.columns, at.rows - offset.rows);
            let plan = plan::sweeps(&g.config, cells, sensor_at);
            let mut out = Vec::new();
            for mut sweep in plan {
                sweep.rows_deg += rows_offset_deg;
                let samples = g.sweep(&sweep, speed_deg_per_s)?;
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

    /// Runs the sensor along `sweep` at `speed` and returns its readings. The sensor starts
    /// [`SWEEP_RUN_DEG`] before the first window, so it is up to pace when it gets there, and
    /// the sweep counts as done once the last window is passed, while the motor runs out and
    /// slows down: the next move starts then, with no wait for a motor to settle on a point no
    /// reading needs.
    fn sweep(&mut self, sweep: &Sweep, speed: u32) -> Result<Vec<Sample>> {
        let offset = self.config.sensing.sensor_offset_deg;
        let rows = sweep.rows_deg + offset.rows;
        let first = sweep.from_columns_deg + offset.columns;
        let last = sweep.to_columns_deg + offset.columns;
        let direction = if last < first { -1 } else { 1 };
        let travel = self.config.travel_deg(Axis::Columns);
        let start = AxisPoint::new((first - direction * SWEEP_RUN_DEG).clamp(0, travel), rows);
        let end_columns = (last + direction * SWEEP_RUN_DEG).clamp(0, travel);
        // Straight there: a reading does not need the play taken up, so no approach move. The
        // columns only need to be short of the first window when the sweep starts, and the rows
        // near the line: the spot is ten times wider than what is left to settle.
        let close_enough = AxisPoint::new(SWEEP_RUN_DEG / 2, ROWS_SETTLED_DEG);
        let finish = Finish::Within(close_enough);
        self.move_both(start, Pace::Travel, finish, &mut |_, _, _| Ok(()))?;
        self.check_target(Axis::Columns, end_columns)?;
        // A read returns the sensor's latest measurement, which may still be of the way here
        // until one of its periods has passed; the run-up is read in that time.
        let fresh_from = self.clock().now() + self.read_period();
        let sample_every = Duration::from_millis(self.config.sensing.sample_ms);
        let mut samples = Vec::new();
        let mut next_sample = fresh_from;
        let run_out = (end_columns - last).abs();
        let mut leg = self.start_leg(Axis::Columns, start.columns, end_columns, speed, run_out)?;
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
                // The columns position the wait has just read: one attribute read less.
                let columns = positions[0];
                let percent = g.robot.light.reflected_percent()?;
                samples.push(Sample {
                    at: AxisPoint::new(columns - offset.columns, sweep.rows_deg),
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

    /// The speed at which readings come at most `fraction` of the sensor's spot apart, and at
    /// most `most_deg_per_s`.
    pub fn reading_speed(&self, fraction: f64, most_deg_per_s: u32) -> u32 {
        let spacing_deg = f64::from(self.config.sensing.spot_deg) * fraction;
        let fits = spacing_deg / self.read_period().as_secs_f64().max(1e-3);
        (fits as u32).clamp(
            SLOWEST_SWEEP_DEG_PER_S.min(most_deg_per_s),
            most_deg_per_s.max(1),
        )
    }

    /// Reads every square's blank paper: level and noise. The sweep runs at the first look's
    /// pace, not at travel speed: the noise that every threshold is a multiple of needs its
    /// readings (see [`BlankSquare::pooled`]).
    pub fn take_blank_readings(&mut self) -> Result<BlankPaper> {
        self.blank_readings(false)
    }

    /// Reads every square of a sheet with no grid yet, pen up, and returns those that already
    /// hold ink (see [`sensing::used_squares`]): a sheet left from the last game.
    pub fn used_squares(&mut self) -> Result<Vec<Cell>> {
        let cells = self.all_squares();
        let rows = self.sweep_rows(&cells, self.first_look_speed(), 0)?;
        let squares: Vec<(Cell, Vec<u8>)> = by_square(&rows)
            .into_iter()
            .map(|(cell, samples)| (cell, samples.iter().map(|s| s.percent).collect()))
            .collect();
        Ok(sensing::used_squares(&squares, &self.config.sensing))
    }

    /// As [`Gantry::take_blank_readings`], on a grid just drawn, checking that the grid's
    /// lines are there: the pen inked.
    pub fn read_blank_grid(&mut self) -> Result<BlankPaper> {
        self.blank_readings(true)
    }

    /// Every square of the board, row by row.
    pub fn all_squares(&self) -> Vec<Cell> {
        let size = self.config.board.size;
        (0..size * size)
            .map(|i| Cell::from_index(i, size))
            .collect()
    }

    fn blank_readings(&mut self, grid_drawn: bool) -> Result<BlankPaper> {
        let size = self.config.board.size;
        let cells = self.all_squares();
        let rows = self.sweep_rows(&cells, self.first_look_speed(), 0)?;
        if grid_drawn {
            self.check_grid_ink(&rows)?;
        }
        let mut percents = vec![Vec::new(); cells.len()];
        for (cell, samples) in by_square(&rows) {
            if samples.is_empty() {
                return Err(MotionError::Unread {
                    square: self.square_name(cell),
                });
            }
            percents[cell.index(size)] = samples.iter().map(|s| s.percent).collect();
        }
        let pooled = BlankSquare::pooled(&percents).ok_or_else(|| MotionError::Unread {
            square: self.square_name(cells[0]),
        })?;
        self.noise_percent = Some(pooled[0].noise);
        // The sweeps were timed before the noise was known: time them again with it.
        let sweeps: Vec<&[Sample]> = rows.iter().map(|(_, samples)| &samples[..]).collect();
        if let Some(period) = fresh_period(&sweeps, self.noise_percent) {
            self.read_period = Some(period);
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
        let reach = (self.config.sensing.spot_deg / 2) as i32 + 3;
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
    /// look (they lie on the rows it sweeps anyway): the third part is those of them not seen,
    /// a mark the pen did not leave.
    pub fn read_board(
        &mut self,
        blank: &BlankPaper,
        empty: &[Cell],
        own: &[Cell],
    ) -> Result<(NewMarks, Vec<SquareReading>, Vec<Cell>)> {
        let sensing = self.config.sensing.clone();
        // The robot's own squares go last, so they split off after the first look.
        let first: Vec<Cell> = empty.iter().chain(own).copied().collect();
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
        let offset = sensing.second_look_offset_deg;
        self.look(&mut readings, &first, fast, &[0])?;
        let own_readings: Vec<SquareReading> = readings.split_off(empty.len());
        let own_missing: Vec<Cell> = own_readings
            .iter()
            .filter(|r| !r.marked())
            .map(|r| r.cell)
            .collect();
        if !readings.iter().any(SquareReading::marked) {
            self.look(&mut readings, empty, fast, &[offset, -offset])?;
        }
        // The person says they have moved: with no square marked yet, a square with only a
        // hint of a dip is worth the slow look too.
        let nothing_seen = !readings.iter().any(SquareReading::marked);
        let doubtful: Vec<Cell> = readings
            .iter()
            .filter(|r| r.evidence == Evidence::Borderline || (nothing_seen && r.hinted()))
            .map(|r| r.cell)
            .collect();
        if !doubtful.is_empty() {
            // Twice as dense: a faint line's darkest point is then read nearly dead on.
            let slow = self.reading_speed(0.2, sensing.sweep_speed_deg_per_s / 2);
            self.look(&mut readings, &doubtful, slow, &[0, offset, -offset])?;
        }
        Ok((NewMarks::from_readings(&readings), readings, own_missing))
    }

    /// Sweeps `cells` along the lines at `offsets` from their centres and judges them again with
    /// what every look so far showed.
    fn look(
        &mut self,
        readings: &mut [SquareReading],
        cells: &[Cell],
        speed_deg_per_s: u32,
        offsets: &[i32],
    ) -> Result<()> {
        let sensing = self.config.sensing.clone();
        for &offset in offsets {
            let squares = self.sweep_squares(cells, speed_deg_per_s, offset)?;
            // As timed on these very sweeps.
            let period = self.read_period();
            for (cell, samples) in squares {
                let reading = readings
                    .iter_mut()
                    .find(|r| r.cell == cell)
                    .expect("every swept square has a reading");
                let look =
                    Look::of(&reading.blank, &samples, &sensing, period).ok_or_else(|| {
                        MotionError::Unread {
                            square: self.square_name(cell),
                        }
                    })?;
                reading.looks.push(look);
            }
        }
        for reading in readings.iter_mut().filter(|r| cells.contains(&r.cell)) {
            reading.evidence = sensing::judge(&reading.blank, &reading.looks, &sensing);
        }
        Ok(())
    }
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
