//! Reading the paper with the colour sensor: sweeps along the rows of squares, the blank paper
//! read when the grid is drawn (its level, its noise, and the grid's own ink), and the looks at
//! the board on every turn, judged by [`crate::motion::sensing`]. The sensor's timing is
//! measured as it is used: its period, and the spread of the time between reads.
//!
//! Here, a read of the board on a turn and its stages; `sweeping` carries the sensor along
//! the rows, `sensor_timing` measures the sensor and sets the sweeps' pace, `blank` reads the
//! blank paper and the grid's ink, `own_mark` confirms the robot's own mark by its shape.

mod blank;
mod blank_light;
mod eye;
mod fresh_light;
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
use crate::motion::sensing::{
    self, Evidence, Look, NewMarks, PaperLight, PaperRatio, Sample, SquareReading, OFF_CENTRE_PAPER,
};
use crate::motion::MotionError;
use std::time::Duration;

/// How long after a press a person's shadow may still lie on the paper: 1.5 s in the account
/// that opened this work (docs/sensor.md, "The room"), and half a second more. A mark the
/// first look saw sooner than this after the read began is looked at again before it counts.
pub const SHADOW_AFTER_PRESS: Duration = Duration::from_secs(2);

/// How many empty squares besides the one looked at again measure the light for that look.
const LIGHT_BESIDE: usize = 3;

/// The most looks again at a square the first look took for a mark while the light may have
/// fooled it: one, and one more when the light changed during the first of them (see
/// `Gantry::look_again_after_shadow`).
const LOOKS_AGAIN: usize = 2;

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
            .map(|&cell| SquareReading::unread(cell, blank.of(cell)))
            .collect();
        let fast = self.first_look_speed();
        let offset = self.config.reading_geometry().look_offset_deg;
        let read_began = self.clock().now();
        self.last_read = ReadStages::default();
        self.last_read_samples.clear();
        let mut stage = self.start_stage();
        let light = (blank, empty);
        let first_rows = self.look(&mut readings, &first, fast, &[0], light)?;
        // The light as the centre lines, where the blank paper was read, showed it: what the
        // turn is told, whatever the later looks measure for themselves.
        let first_light = self.paper_light;
        // How far the light moved between this look and a later one (0: not past its noise).
        let mut moved: f64 = 0.0;
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
        // A change of the light during the first look passes for a mark in one square when it
        // touched that square alone: the first square read (a person's shadow still there,
        // docs/sensor.md "The room") or one read just as the light stepped; two or more
        // squares on either side of a step scatter the paper's light past a plane, and are
        // followed as a step or doubted as unsteady. So the one new mark the first look found
        // there, or while the shadow of the press may still have lain on the paper, is looked
        // at again once that shadow cannot, and stays a mark only if that look sees it too; if
        // not, that look stands for the first in the read that goes on. (The last square read
        // is as exposed to a lamp switched as the look ends, but a lamp is switched far less
        // often than a person presses, and the look again cost 0.3 s a read on average in
        // steady light: measured, it spared no square of the harsh rows.)
        let marked: Vec<Cell> = readings
            .iter()
            .filter(|r| r.marked())
            .map(|r| r.cell)
            .collect();
        if let [cell] = marked[..] {
            if light_may_have_fooled(&first_look, &first_light, cell, empty, read_began) {
                stage = self.start_stage();
                let again =
                    self.look_again_after_shadow(blank, empty, cell, read_began, first_light)?;
                let looked = self.end_stage(stage, 1);
                self.last_read.add_close(looked);
                if let Some(seen_in_good_light) = again {
                    let reading = readings
                        .iter_mut()
                        .find(|r| r.cell == cell)
                        .expect("a marked square has a reading");
                    *reading = seen_in_good_light;
                }
            }
        }
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
            self.look_closely(&mut readings, &borderline, slow(self), &lines, light)?;
            moved = moved.max(self.paper_light.changed_since(&first_light).unwrap_or(0.0));
            looked_closely = borderline;
        }
        if !readings.iter().any(SquareReading::marked) {
            stage = self.start_stage();
            self.look(&mut readings, empty, fast, &[offset, -offset], light)?;
            moved = moved.max(self.paper_light.changed_since(&first_light).unwrap_or(0.0));
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
            self.look_closely(&mut readings, &doubtful, slow(self), &lines, light)?;
            moved = moved.max(self.paper_light.changed_since(&first_light).unwrap_or(0.0));
        }
        // The light as the first look measured it, unsteady if it scattered then or moved
        // between the looks.
        self.paper_light = first_light.moved_by(moved);
        Ok((NewMarks::from_readings(&readings), readings, own_checks))
    }

    /// The slow, dense look at `cells` along `lines`, its mark (if it makes one) judged in the
    /// light of its own moment (see `fresh_light`), counted among the read's close looks.
    fn look_closely(
        &mut self,
        readings: &mut [SquareReading],
        cells: &[Cell],
        speed_deg_per_s: u32,
        lines: &[i32],
        (blank, empty): (&BlankPaper, &[Cell]),
    ) -> Result<()> {
        let stage = self.start_stage();
        let before = (readings.to_vec(), self.paper_light, self.clock().now());
        let rows = self.look(readings, cells, speed_deg_per_s, lines, (blank, empty))?;
        self.judge_close_look_in_its_light(blank, empty, readings, cells, &rows, before)?;
        let close = self.end_stage(stage, cells.len());
        self.last_read.add_close(close);
        Ok(())
    }

    /// Looks again at `cell`, which the first look took for the one new mark while a person's
    /// shadow may still have lain on the paper: once [`SHADOW_AFTER_PRESS`] has passed since
    /// the read began, along the centre lines of its row's empty squares and the nearest
    /// rows' (whose paper measures the light anew), and judges it by that look alone: ink
    /// stays, a shadow goes. `None` when that look sees a mark there too, or a faint one; else
    /// the square as that look saw it, to stand for the first look's. (A hint of a dip is not
    /// enough: at 4 % noise one look shows a hint on blank paper often enough to keep a
    /// shadow's mark.)
    ///
    /// A look again that still sees the mark, in light that has changed since the look before
    /// it (`light_before`, the first look's), is taken once more: the light may have changed
    /// in the middle of it, and a look over a few squares cannot tell that from ink. Traced on
    /// a row of the harsh room with a lamp switched on 40 s in (one of 16 that took the same
    /// square for a mark under the 12 mm spot at 4 % noise): the lamp came on a moment after
    /// the look again had read the square, the squares read after it 15 % brighter; judged in
    /// their light, the square read 11 % dark.
    fn look_again_after_shadow(
        &mut self,
        blank: &BlankPaper,
        empty: &[Cell],
        cell: Cell,
        read_began: Duration,
        light_before: PaperLight,
    ) -> Result<Option<SquareReading>> {
        let gone = read_began + SHADOW_AFTER_PRESS;
        let now = self.clock().now();
        if now < gone {
            self.clock().sleep(gone - now);
        }
        // Its row's empty squares, and the nearest rows' until three others measure the light
        // beside it.
        let mut row = fresh_light::light_beside(empty, cell, &[cell]);
        row.push(cell);
        let mut light_before = light_before;
        for look in 1..=LOOKS_AGAIN {
            let mut again: Vec<SquareReading> = row
                .iter()
                .map(|&c| SquareReading::unread(c, blank.of(c)))
                .collect();
            // The light is measured anew: the first look's, a shadow perhaps lifting across
            // it, may hold a slope across the board that was the shadow, not a lamp.
            self.paper_light.per_column = 0.0;
            let fast = self.first_look_speed();
            self.look(&mut again, &row, fast, &[0], (blank, empty))?;
            let Some(reading) = again.into_iter().find(|r| r.cell == cell) else {
                return Ok(None);
            };
            if reading.evidence == Evidence::Blank {
                log::info!(
                    "{} looked like a new mark on the first look, read while a shadow may still \
                     have lain on the paper or as the light changed, but not on a second look: \
                     it was the light",
                    self.square_name(cell)
                );
                return Ok(Some(reading));
            }
            let Some(moved) = self.paper_light.changed_since(&light_before) else {
                return Ok(None);
            };
            if look < LOOKS_AGAIN {
                log::info!(
                    "{} still looked marked on the look again, but the paper's light had \
                     changed by {:.0} % since the look before it: looking once more",
                    self.square_name(cell),
                    moved * 100.0
                );
            }
            light_before = self.paper_light;
        }
        Ok(None)
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

    /// The light on the paper the last read of the board measured (see
    /// [`crate::motion::sensing::PaperLight`]).
    pub fn paper_light(&self) -> PaperLight {
        self.paper_light
    }

    /// Sweeps `cells` along the lines at `offsets` from their centres and judges them again with
    /// what every look so far showed; returns its sweeps, every reading kept. Each look first
    /// measures the light on the paper from the readings of the empty squares it crosses
    /// (`light`: the blank paper and the squares that were empty), and judges what it saw
    /// against the paper in that light: a shadow may lift between the first look and the next.
    fn look(
        &mut self,
        readings: &mut [SquareReading],
        cells: &[Cell],
        speed_deg_per_s: u32,
        offsets: &[i32],
        (blank, empty): (&BlankPaper, &[Cell]),
    ) -> Result<Vec<(Sweep, Vec<Sample>)>> {
        let rows = self.sweep_rows(cells, speed_deg_per_s, offsets)?;
        for (_, samples) in &rows {
            self.last_read_samples.extend_from_slice(samples);
        }
        // As timed on these very sweeps.
        let period = self.read_period();
        self.measure_the_light(blank, readings, &rows, empty, period);
        self.judge_looks(readings, cells, &rows, period)?;
        Ok(rows)
    }

    /// Adds to `readings` what `rows` showed of each of `cells`, judged against its blank paper
    /// as it now stands, and judges them again with every look so far.
    fn judge_looks(
        &self,
        readings: &mut [SquareReading],
        cells: &[Cell],
        rows: &[(Sweep, Vec<Sample>)],
        period: Duration,
    ) -> Result<()> {
        let sensing = &self.config.sensing;
        let spot_deg = self.config.reading_geometry().spot_columns_deg;
        for (sweep, samples) in rows {
            for (cell, window) in sweep.squares.iter().filter(|(c, _)| cells.contains(c)) {
                let samples = sensing::in_window(samples, window);
                let reading = readings
                    .iter_mut()
                    .find(|r| r.cell == *cell)
                    .expect("every swept square has a reading");
                let look = Look::of(
                    &reading.blank,
                    &samples,
                    sensing,
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
            reading.evidence = sensing::judge(&reading.blank, &reading.looks, sensing);
        }
        Ok(())
    }
}

impl Gantry {
    /// Measures the light on the paper from the readings of the `empty` squares in `rows`
    /// (see [`PaperLight::measure`]), keeps it, and puts every one of `readings` in it:
    /// `blank`'s paper, scaled by the light.
    ///
    /// A square's centre line, where its blank paper was read, measures the light best. A look
    /// along other lines only (the off-centre look) measures it too, for a shadow may have
    /// lifted since the first look, but off the centre line the paper itself is lighter or
    /// darker by up to [`OFF_CENTRE_PAPER`], which each square's ratio then carries as error.
    fn measure_the_light(
        &mut self,
        blank: &BlankPaper,
        readings: &mut [SquareReading],
        rows: &[(Sweep, Vec<Sample>)],
        empty: &[Cell],
        period: Duration,
    ) {
        let ratios = paper_ratios(blank, rows, empty, period);
        let light = PaperLight::measure(self.config.board.size, &ratios, self.paper_light);
        self.paper_light = light;
        for reading in readings.iter_mut() {
            reading.blank = blank
                .of(reading.cell)
                .in_light(light.at(reading.cell), light.error_at_a_square());
        }
    }
}

/// Each of the `empty` squares that `rows` crossed, as its readings there compare with its
/// `blank` level: on the centre lines alone if any row is one.
pub(super) fn paper_ratios(
    blank: &BlankPaper,
    rows: &[(Sweep, Vec<Sample>)],
    empty: &[Cell],
    period: Duration,
) -> Vec<PaperRatio> {
    let on_centre = rows.iter().any(|(sweep, _)| sweep.line_offset_deg == 0);
    let mut seen: Vec<(Cell, Vec<Sample>)> = Vec::new();
    for (sweep, samples) in rows {
        if on_centre && sweep.line_offset_deg != 0 {
            continue;
        }
        for (cell, window) in &sweep.squares {
            if !empty.contains(cell) {
                continue;
            }
            let inside = sensing::in_window(samples, window);
            match seen.iter_mut().find(|(c, _)| c == cell) {
                Some((_, all)) => all.extend(inside),
                None => seen.push((*cell, inside)),
            }
        }
    }
    seen.into_iter()
        .filter(|(_, samples)| !samples.is_empty())
        .filter_map(|(cell, samples)| {
            let blank = blank.of(cell);
            // The mean, not the median: a blank square's window holds paper alone, and the
            // mean of its readings is the surer measure (a median's variance is about pi/2
            // times a mean's); the one square that may hold the new mark is left out of the
            // light altogether. The blank level's own uncertainty is in the ratio too, and off
            // the centre line the paper's own.
            let now =
                samples.iter().map(|s| f64::from(s.percent)).sum::<f64>() / samples.len() as f64;
            let fresh = (samples.len() as f64
                / sensing::readings_per_measurement(&samples, period))
            .max(1.0);
            let spread = blank.noise / blank.level.max(1.0);
            let paper = if on_centre { 0.0 } else { OFF_CENTRE_PAPER };
            let error = (spread.powi(2) * (1.0 / fresh + blank.level_variance_share())
                + paper.powi(2))
            .sqrt();
            Some(PaperRatio {
                cell,
                ratio: now / blank.level.max(1.0),
                error,
                read_at: samples.last()?.time,
            })
        })
        .collect()
}

/// True when the first look, which measured `light`, saw `cell` first of the `empty` squares,
/// within [`SHADOW_AFTER_PRESS`] of the read's start, or as the light stepped: where a change
/// of the light could make a mark of it alone.
fn light_may_have_fooled(
    first_look: &[(Cell, Vec<Sample>)],
    light: &PaperLight,
    cell: Cell,
    empty: &[Cell],
    read_began: Duration,
) -> bool {
    let mut seen: Vec<(Duration, Cell)> = first_look
        .iter()
        .filter(|(c, samples)| empty.contains(c) && !samples.is_empty())
        .filter_map(|(c, samples)| samples.last().map(|s| (s.time, *c)))
        .collect();
    seen.sort();
    let first = seen.first().map(|&(_, c)| c) == Some(cell);
    let early = seen
        .iter()
        .any(|&(at, c)| c == cell && at < read_began + SHADOW_AFTER_PRESS);
    let at_the_step = light.step.is_some_and(|s| s.straddles(cell));
    first || early || at_the_step
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

impl ReadStages {
    /// Counts `close` among the read's close looks, beside any it already took.
    fn add_close(&mut self, close: ReadStage) {
        self.close = Some(match self.close {
            Some(earlier) => earlier.and(close),
            None => close,
        });
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
