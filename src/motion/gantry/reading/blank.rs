//! The blank read once the grid is drawn: each square's paper, the grid's own ink, and a sheet
//! already used found before the grid is drawn.

use super::blank_light::Bracketed;
use super::sensor_timing::{
    eye_speed, fresh_period, reading_speed, second_read_readings, second_read_speed,
    slowest_second_read_speed, too_quiet_to_time,
};
use super::sweeping::{by_square, SweptRow};
use super::FIRST_LOOK_SPACING;
use crate::config::RobotConfig;
use crate::game::Cell;
use crate::motion::gantry::{Gantry, Result};
use crate::motion::sensing::{self, BlankSquare, GridSighting, Sample};
use crate::motion::MotionError;
use std::time::Duration;

/// How far from where it was drawn a grid line is looked for, in degrees: a moved sheet or a
/// slipped gear up to this far is measured; the marks inside the squares stay out of reach.
const GRID_SEARCH_DEG: i32 = 15;

/// An old grid's crossings must agree this closely, in degrees, to be taken for a grid.
const GRID_SPREAD_DEG: f64 = 8.0;

/// Every length the robot reads by, in millimetres and degrees, one sentence each: the
/// square, the marks and the pen's line, the sensor's spot, where in a square it reads, how
/// far apart its readings fall, and the thinnest line the spot can tell from paper. Logged
/// at each game's start and printed by `calibrate`, so a person can set them against a
/// ruler and the sheet. `period` is the time between two fresh readings; `second_read`, the
/// pace the blank read's second read went at, once it has read.
pub fn describe_eye(
    config: &RobotConfig,
    period: Duration,
    second_read: Option<u32>,
) -> Vec<String> {
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
            "a fresh reading every {:.1} ms: the first look (and the sheet's check) at {}; the \
             blank paper's read after the grid at {}",
            period.as_secs_f64() * 1000.0,
            spacing(reading_speed(
                config,
                period,
                FIRST_LOOK_SPACING,
                config.sensing.sweep_speed_deg_per_s
            )),
            second_read.map_or_else(
                || format!(
                    "{} (at the first look's pace under a sensor too quiet to time)",
                    spacing(slowest_second_read_speed(config, period))
                ),
                spacing
            ),
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
    /// Squares whose paper holds ink that is no one's move (see [`BlankPaper::take_as_paper`]):
    /// paper to read marks against, but no place to cross a grid line, whose fit the ink would
    /// pull.
    pub stray_ink: Vec<Cell>,
}

impl BlankPaper {
    /// The paper of a board of side `size`, from its squares row by row; `None` when they are
    /// not `size` x `size`.
    pub fn new(size: usize, squares: Vec<BlankSquare>) -> Option<BlankPaper> {
        (squares.len() == size * size).then_some(BlankPaper {
            size,
            squares,
            stray_ink: Vec::new(),
        })
    }

    pub fn of(&self, cell: Cell) -> BlankSquare {
        self.squares[cell.index(self.size)]
    }

    /// Takes `cell`'s paper as it reads now, `darker` (a share) under its level in the light
    /// it was read in: a person has said the ink the robot saw there is not a mark of theirs (a
    /// slip of the pen, a smudge, a lamp's dim corner), so it is paper from now on, and a mark
    /// drawn there later shows against it. Its level stays as sure as it was.
    pub fn take_as_paper(&mut self, cell: Cell, darker: f64) {
        let square = &mut self.squares[cell.index(self.size)];
        square.level *= 1.0 - darker.clamp(0.0, 0.9);
        if !self.stray_ink.contains(&cell) {
            self.stray_ink.push(cell);
        }
    }

    /// Each square's level, rounded to whole percent, row by row.
    pub fn levels(&self) -> Vec<u8> {
        self.squares.iter().map(|s| s.level.round() as u8).collect()
    }
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

impl Gantry {
    /// Reads every square's blank paper: level and noise, as [`Gantry::read_blank_grid`]
    /// does, without looking for the grid's lines.
    pub fn take_blank_readings(&mut self) -> Result<BlankPaper> {
        self.blank_readings(false)
    }

    /// Reads every square of a sheet with no grid yet, pen up: the squares that already hold
    /// ink (see [`sensing::used_squares`]) and a grid already drawn where the robot draws its
    /// own, as on a sheet left from the last game. Under a wide spot a thin mark may not stand
    /// out clearly enough, but the old grid's lines, crossed by every row, do.
    ///
    /// The check is bracketed in time (see `blank_light`): a lamp switched on while it reads
    /// has it read the squares again. A blank sheet's read, in a light that held, is kept: it
    /// is the first of the blank read's two.
    pub fn used_sheet(&mut self) -> Result<UsedSheet> {
        let cells = self.all_squares();
        self.sheet_read = None;
        let fast = self.first_look_speed();
        let read = self.sweep_bracketed(&cells, fast)?;
        let checked = self.read_in_one_light(&cells, fast, read, Bracketed::SheetCheck)?;
        let (rows, light_held) = (checked.rows, checked.held);
        let squares: Vec<(Cell, Vec<u8>)> = by_square(&rows)
            .into_iter()
            .map(|(cell, samples)| (cell, samples.iter().map(|s| s.percent).collect()))
            .collect();
        let faint = f64::from(self.config.sensing.faint_contrast_percent) / 100.0;
        let grid = self
            .sight_grid(&rows, faint)
            .filter(|seen| seen.crossings >= 3 && seen.spread_deg <= GRID_SPREAD_DEG);
        let used = UsedSheet {
            marked: sensing::used_squares(&squares, &self.config.sensing),
            grid,
        };
        if !used.is_used() && light_held {
            self.sheet_read = Some(rows);
        }
        Ok(used)
    }

    /// The grid's inner lines across the columns axis, as drawn: the ones every row crosses.
    pub(super) fn grid_columns(&self) -> Vec<i32> {
        let board = &self.config.board;
        (1..board.size as i32)
            .map(|k| board.grid_origin_deg.columns + k * board.square_deg)
            .collect()
    }

    /// Where the sweeps `rows` crossed the grid's lines, counting a crossing at least
    /// `least_depth` darker than the paper.
    pub(super) fn sight_grid(&self, rows: &[SweptRow], least_depth: f64) -> Option<GridSighting> {
        // From the first window to the last: readings on a sweep's run-up and run-out, off the
        // squares toward the sheet's edges, would pull a row's paper level, and let noise near
        // the grid's places pass for an old grid (3 blank sheets in 450 once the ramps made
        // the run-ups longer).
        let kept: Vec<Vec<Sample>> = rows
            .iter()
            .map(|(sweep, samples)| {
                let (a, b) = (sweep.from_columns_deg, sweep.to_columns_deg);
                let span = a.min(b)..=a.max(b);
                samples
                    .iter()
                    .filter(|s| span.contains(&s.at.columns))
                    .copied()
                    .collect()
            })
            .collect();
        let sweeps: Vec<&[Sample]> = kept.iter().map(|samples| &samples[..]).collect();
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
        let mut lines = describe_eye(&self.config, self.read_period(), self.second_read_speed);
        if self.config.sensing.spot_mm != self.configured_spot_mm() {
            lines.push(format!(
                "the spot as the grid's crossings measured it, not sensing.spot_mm's {:.1} mm",
                self.configured_spot_mm()
            ));
        }
        lines
    }

    /// A grid sighting in words, in both units.
    pub(super) fn describe_sighting(&self, seen: &GridSighting) -> String {
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

    /// Reads every square's blank paper on a grid just drawn (level and noise), checks that
    /// the grid's lines are there (the pen inked), measures the eye on them, and measures
    /// where the lines are (the ruler).
    ///
    /// The squares' paper is read twice, and the two reads are held to one light (see
    /// `blank_light`): the first is the sheet's check before the grid was drawn
    /// ([`Gantry::used_sheet`], at the first look's pace), when there was one since homing,
    /// for the squares' insides are the same paper with the grid around them; the second is
    /// read once the grid is drawn, at twelve fresh readings a square. A slow read of its own, as
    /// before session 16, took 10 s of the 39 s a person waited for their first move on the
    /// simulator, and its levels were no surer than two reads' together.
    ///
    /// When the ruler finds the sensor elsewhere than configured (see `sensor_place`), every
    /// window was placed by the wrong figure: the paper is read again, from its first read, by
    /// the measured one.
    pub fn read_blank_grid(&mut self) -> Result<BlankPaper> {
        let began = self.clock().now();
        let mut blank = self.blank_readings(true)?;
        let mut swept = self.clock().now();
        if self.note_grid_as_drawn()? {
            log::info!("reading the blank paper again where the sensor truly looks");
            self.sheet_read = None;
            blank = self.blank_readings(true)?;
            swept = self.clock().now();
            if self.note_grid_as_drawn()? {
                return Err(MotionError::SensorNotFound {
                    offset: self.sensor_offset_deg(),
                });
            }
        }
        log::info!(
            "the blank read took {:.1} s: the squares' paper (read again, to hold it to one \
             light with the sheet's check) and the sensor held still {:.1} s, the ruler's \
             crossings of the grid's lines {:.1} s",
            (self.clock().now() - began).as_secs_f64(),
            (swept - began).as_secs_f64(),
            (self.clock().now() - swept).as_secs_f64()
        );
        Ok(blank)
    }

    /// Every square of the board, row by row.
    pub fn all_squares(&self) -> Vec<Cell> {
        let size = self.config.board.size;
        (0..size * size)
            .map(|i| Cell::from_index(i, size))
            .collect()
    }

    pub(super) fn blank_readings(&mut self, grid_drawn: bool) -> Result<BlankPaper> {
        let size = self.config.board.size;
        let cells = self.all_squares();
        // The light is measured against this read from now on.
        self.paper_light = crate::motion::sensing::PaperLight::as_at_blank(size);
        let fast = self.first_look_speed();
        let first = match self.sheet_read.take() {
            Some(rows) => rows,
            None => self.sweep_rows(&cells, fast, &[0])?,
        };
        let first_squares = self.each_square(&first)?;
        let first_noise = pooled_squares(&first_squares).and_then(|p| p.first().map(|s| s.noise));
        // A sensor too quiet for its changes to time it is timed by the sources' bound (see
        // `fresh_period`) before the second read is paced, on the first read's noise; a noisy
        // one keeps the slow estimate until both reads' noise is pooled, as it always has.
        if let (None, Some(noise)) = (self.noise_percent, first_noise) {
            self.time_a_quiet_sensor(&first, noise);
        }
        let readings = second_read_readings(first_noise.unwrap_or(f64::INFINITY));
        let paced = second_read_speed(&self.config, self.read_period(), readings);
        self.second_read_speed = Some(paced);
        let mut second = self.sweep_bracketed(&cells, paced)?;
        if grid_drawn {
            self.check_grid_ink(&second.rows)?;
            let faint = f64::from(self.config.sensing.faint_contrast_percent) / 100.0;
            if let Some(seen) = self.sight_grid(&second.rows, faint / 2.0) {
                log::info!("the grid's lines: {}", self.describe_sighting(&seen));
            }
            if !self.measure_the_eye(&mut second.rows) {
                // Too few readings across the lines at the second read's pace (a spot far wider
                // than configured spreads each line's dip thin): the squares are read again
                // slowly, and that read is the blank read's second.
                log::info!("reading the squares again, slowly, to measure the eye by");
                let slow = eye_speed(&self.config, self.read_period());
                second = self.sweep_bracketed(&cells, slow)?;
                self.measure_the_eye(&mut second.rows);
            }
            self.swept_grid_lines = self.lines_in_sweeps(&second.rows);
        }
        let (second, drift) = if grid_drawn {
            let read = self.read_in_one_light(&cells, paced, second, Bracketed::SecondRead)?;
            (read.rows, read.drift)
        } else {
            self.quiet_sensor = self.reads_quiet_when_still()?.0;
            (second.rows, None)
        };
        let second_squares = self.each_square(&second)?;
        // One noise for both reads' squares: the sensor's.
        let pooled =
            pooled_squares(first_squares.iter().chain(&second_squares)).ok_or_else(|| {
                MotionError::Unread {
                    square: self.square_name(cells[0]),
                }
            })?;
        self.noise_percent = Some(pooled[0].noise);
        // The sweeps were timed before the noise was known: time them again with it.
        let sweeps: Vec<&[Sample]> = first
            .iter()
            .chain(&second)
            .map(|(_, samples)| &samples[..])
            .collect();
        if let Some(period) = fresh_period(&sweeps, self.noise_percent) {
            self.read_period = Some(period);
        }
        // A level rests on its fresh measurements, not on the readings that repeat them.
        let period = self.read_period();
        let mut squares: Vec<BlankSquare> = pooled[..cells.len()].to_vec();
        for (square, samples) in squares.iter_mut().zip(&first_squares) {
            let repeats = sensing::readings_per_measurement(samples, period);
            square.readings = ((samples.len() as f64 / repeats) as usize).max(1);
        }
        for (i, square) in squares.iter().enumerate() {
            if square.level < f64::from(self.config.sensing.min_blank_percent) {
                return Err(MotionError::NoPaper {
                    square: self.square_name(cells[i]),
                    percent: square.level.round() as u8,
                });
            }
        }
        let first = BlankPaper {
            size,
            squares,
            stray_ink: Vec::new(),
        };
        self.blank_in_one_light(first, second, drift)
    }

    /// Times the sensor on `rows`, a read of the squares, with `noise`, the noise their paper
    /// shows, when that is too small for fresh values to differ (see `fresh_period`).
    fn time_a_quiet_sensor(&mut self, rows: &[SweptRow], noise: f64) {
        let sweeps: Vec<&[Sample]> = rows.iter().map(|(_, samples)| &samples[..]).collect();
        if too_quiet_to_time(noise) {
            if let Some(period) = fresh_period(&sweeps, Some(noise)) {
                self.read_period = Some(period);
            }
        }
    }

    /// Each square's readings in `rows`, row by row; an error naming the first square with
    /// none.
    fn each_square(&self, rows: &[SweptRow]) -> Result<Vec<Vec<Sample>>> {
        let size = self.config.board.size;
        let mut squares = vec![Vec::new(); size * size];
        for (cell, samples) in by_square(rows) {
            squares[cell.index(size)] = samples;
        }
        match squares.iter().position(Vec::is_empty) {
            Some(i) => Err(MotionError::Unread {
                square: self.square_name(Cell::from_index(i, size)),
            }),
            None => Ok(squares),
        }
    }

    /// Checks that the grid just drawn is on the paper: every sweep across a row of squares
    /// crosses the two lines between them, and a line of the robot's pen darkens the spot far
    /// more than any noise. If no crossing reads even half as dark as a clear mark, the pen
    /// left no ink: a dry pen, no pen, or a pen held above the paper.
    pub(super) fn check_grid_ink(&self, rows: &[SweptRow]) -> Result<()> {
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
}

/// Each square's readings as blank paper, every square with one noise, the sensor's (see
/// [`BlankSquare::pooled`]).
fn pooled_squares<'a>(
    squares: impl IntoIterator<Item = &'a Vec<Sample>>,
) -> Option<Vec<BlankSquare>> {
    let percents: Vec<Vec<u8>> = squares
        .into_iter()
        .map(|samples| samples.iter().map(|s| s.percent).collect())
        .collect();
    BlankSquare::pooled(&percents)
}
