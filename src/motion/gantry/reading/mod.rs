//! Reading the paper with the colour sensor: sweeps along the rows of squares, the blank paper
//! read when the grid is drawn (its level, its noise, and the grid's own ink), and the looks at
//! the board on every turn, judged by [`crate::motion::sensing`]. The sensor's timing is
//! measured as it is used: its period, and the spread of the time between reads.
//!
//! Here, a read of the board on a turn and its stages; `sweeping` carries the sensor along
//! the rows, `sensor_timing` measures the sensor and sets the sweeps' pace, `blank` reads the
//! blank paper and the grid's ink, `own_mark` confirms the robot's own mark by its shape.

mod blank;
mod own_mark;
mod sensor_timing;
mod sweeping;

pub use blank::{describe_eye, BlankPaper, UsedSheet};
pub use own_mark::OwnMarkCheck;
pub(super) use sensor_timing::SLOWEST_SWEEP_DEG_PER_S;
pub use sensor_timing::{blank_speed, reading_speed, ReadSpread};
use sweeping::by_square;

use super::{Gantry, Result};
use crate::game::Cell;
use crate::game::Mark;
use crate::motion::plan::Sweep;
use crate::motion::sensing::{self, Evidence, Look, NewMarks, Sample, SquareReading};
use crate::motion::MotionError;
use std::time::Duration;

/// The first look's readings come at most this share of the spot apart.
pub const FIRST_LOOK_SPACING: f64 = 0.5;

impl Gantry {
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
