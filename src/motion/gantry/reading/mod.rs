//! Reading the paper with the colour sensor: sweeps along the rows of squares, the blank paper
//! read when the grid is drawn (its level, its noise, and the grid's own ink), and the looks at
//! the board on every turn, judged by [`crate::motion::sensing`]. The sensor's timing is
//! measured as it is used: its period, and the spread of the time between reads.
//!
//! Here, a read of the board on a turn and its stages; `sweeping` carries the sensor along
//! the rows, `sensor_timing` measures the sensor and sets the sweeps' pace, `blank` reads the
//! blank paper and the grid's ink, `own_mark` confirms the robot's own mark by its shape,
//! `after_press` settles what the shadow of the person who has just pressed did to the first
//! look, and `fresh_light` holds a close look's mark to the light of its own moment.

mod after_press;
mod blank;
mod blank_light;
mod eye;
mod fresh_light;
mod own_mark;
mod sensor_timing;
mod sweeping;

pub use blank::{describe_eye, BlankPaper, UsedSheet};
pub(super) use eye::readings_across;
pub use own_mark::OwnMarkCheck;
pub(super) use sensor_timing::SLOWEST_SWEEP_DEG_PER_S;
pub use sensor_timing::{reading_speed, ReadSpread};
use sweeping::by_square;
pub(super) use sweeping::SweptRow;

use super::{Gantry, Result};
use crate::game::Cell;
use crate::game::Mark;
use crate::motion::sensing::{
    self, Evidence, Look, NewMarks, PaperLight, PaperRatio, Sample, SquareReading, OFF_CENTRE_PAPER,
};
use crate::motion::MotionError;
use std::time::Duration;

/// How many empty squares besides the one looked at again measure the light for that look.
const LIGHT_BESIDE: usize = 3;

/// The first look's readings come at most this share of the spot apart.
pub const FIRST_LOOK_SPACING: f64 = 0.5;

impl Gantry {
    /// Reads the squares in `empty` and says which now hold a new mark.
    ///
    /// The first look runs along each row's centre line; squares it read while the person who
    /// pressed may still have shadowed the paper are read again if the light changed during
    /// it (see `after_press`). If it finds no clear mark, the empty
    /// squares are read again along two lines `sensing.second_look_offset_deg` either side of
    /// the centre, so a mark drawn off centre is found before the robot says there is none.
    /// A square still borderline then (one faint dip), or if no square is marked yet one with
    /// a hint of a dip, gets a last, slow and dense look along all three lines. So reading is
    /// as fast as before when the mark is plain, and only the doubtful squares cost more.
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
        // The light the last read left, which the first look's squares start from.
        self.paper_light = self.paper_light.of_an_earlier_read();
        let light_before_read = self.paper_light;
        self.last_read = ReadStages::default();
        self.last_read_samples.clear();
        let mut stage = self.start_stage();
        self.wait_for_the_shadow_to_lift(read_began)?;
        let light = (blank, empty);
        let first_rows = self.look(&mut readings, &first, fast, &[0], light)?;
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
        // A person who has just pressed may still shadow the paper (see `after_press`). The
        // light as the centre lines, where the blank paper was read, showed it then is what
        // the turn is told, whatever the later looks measure for themselves; `moved`, how far
        // it moved between this look and a later one (0: not past noise and drift).
        let (first_light, mut moved) = self.settle_the_press(
            light,
            &mut readings,
            &first_rows,
            read_began,
            light_before_read,
        )?;
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
            let off_centre_lines = [offset, -offset];
            let rows = self.look(&mut readings, empty, fast, &off_centre_lines, light)?;
            let moved_since_first = self.paper_light.changed_since(&first_light).unwrap_or(0.0);
            moved = moved.max(moved_since_first);
            let look = self.end_stage(stage, empty.len());
            self.last_read.off_centre = Some(look);
            if let Some(cell) = self.marked_as_the_light_changed(
                &readings,
                (blank, empty),
                &rows,
                look.took,
                moved_since_first > 0.0,
            ) {
                let light_then = self.paper_light;
                self.look_again_at_lone_mark(
                    light,
                    &mut readings,
                    cell,
                    read_began,
                    light_then,
                    &off_centre_lines,
                )?;
            }
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

    /// The one new mark a look over the `empty` squares (its `sweeps`, taking `took`) found where
    /// the light changed along its rows faster than a drift
    /// ([`PaperLight::changed_along_the_rows`]), stepped across it, or may have stepped with it,
    /// the squares read with it as dark ([`PaperLight::step_may_explain`]), or just after it, the
    /// look's first square (the one whose readings ended first) where the light moved since the
    /// first look (`light_moved`) or stepped during this one. A square read just before a lamp came
    /// on, judged against light measured mostly after, reads as dark as ink. Traced in the harsh
    /// room with the lamp switched on 40 s in (12 mm spot, a noiseless sensor every 10 ms): the
    /// look off centre read the middle left square 0.15 s before the lamp came on, and against a
    /// slope of 5 % a row through the others it read 6 and 7 % dark on both its lines, a mark. And
    /// one square alone before a step cannot show the step: in the lamp sweep (seed 14, the lamp by
    /// the rows' far end on 40 s in, the 12 mm spot at 2 % noise, every 20 ms), the look off centre
    /// read the bottom left square a moment before the lamp came on and every other square after.
    /// Left out as the likely mark, it could not show the step; the lamp's dim top row passed for
    /// the light stepping down, and the square, 11.5 % under the light before that, was taken for a
    /// mark.
    fn marked_as_the_light_changed(
        &self,
        readings: &[SquareReading],
        (blank, empty): (&BlankPaper, &[Cell]),
        sweeps: &[SweptRow],
        took: Duration,
        light_moved: bool,
    ) -> Option<Cell> {
        let NewMarks::One(cell) = NewMarks::from_readings(readings) else {
            return None;
        };
        let ratios = paper_ratios(blank, sweeps, empty, self.read_period());
        let read_first = ratios.iter().min_by_key(|r| r.read_at).map(|r| r.cell) == Some(cell);
        let mut rows: Vec<usize> = empty.iter().map(|c| c.row).collect();
        rows.sort_unstable();
        rows.dedup();
        let seconds_per_row = took.as_secs_f64() / rows.len().max(1) as f64;
        let light = self.paper_light;
        let how = if light.step.is_some_and(|step| step.straddles(cell)) {
            "the light stepped as it was read".to_string()
        } else if light.changed_along_the_rows(seconds_per_row) {
            format!(
                "the light changed by {:+.1} % a row while the look went on",
                light.per_row * 100.0
            )
        } else if PaperLight::step_may_explain(&ratios, cell) {
            "the squares read with it were as dark: the light may have stepped just then"
                .to_string()
        } else if read_first && (light_moved || light.step.is_some()) {
            "it was read first, and the light changed since the first look or while this look \
             went on: it may have changed just after it"
                .to_string()
        } else {
            return None;
        };
        log::info!(
            "{} looked marked on the look off centre, but {how}: looking at it again",
            self.square_name(cell)
        );
        Some(cell)
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
        // Dense and slow, its readings' own noise is small against the light's doubt at the
        // square, and that doubt is the slope the light may have as well as the level's error
        // (see `PaperLight::error_at`): a blank corner square in a lamp's dim side, judged in
        // a level measured across the board, read 5 to 7 % dark on a close look, and a faint
        // mark's test against the blank level passed.
        for reading in readings.iter_mut().filter(|r| cells.contains(&r.cell)) {
            reading.blank = reading
                .blank
                .doubted_by(self.paper_light.slope_doubt_at(reading.cell));
        }
        // Every square it reads is in doubt, a likely mark: none is paper to measure the
        // light by. (Measured by the brighter of two, in the harsh room's lamp light that
        // left one side of the board dim, a dot under a 6 mm spot read 5 % dark all along
        // its line and was taken for a mark.) So it is judged in the light of the look
        // before it, and again in the light of its own moment if it marks a square
        // (`fresh_light`).
        let rows = self.look_measuring(readings, cells, speed_deg_per_s, lines, None)?;
        self.judge_close_look_in_its_light(blank, empty, readings, cells, &rows, before)?;
        let close = self.end_stage(stage, cells.len());
        self.last_read.add_close(close);
        Ok(())
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
        light: (&BlankPaper, &[Cell]),
    ) -> Result<Vec<SweptRow>> {
        self.look_measuring(readings, cells, speed_deg_per_s, offsets, Some(light))
    }

    /// As [`Gantry::look`], measuring the light first only with `light`; with `None` the
    /// squares are judged in the light the last look measured.
    fn look_measuring(
        &mut self,
        readings: &mut [SquareReading],
        cells: &[Cell],
        speed_deg_per_s: u32,
        offsets: &[i32],
        light: Option<(&BlankPaper, &[Cell])>,
    ) -> Result<Vec<SweptRow>> {
        let (rows, period) = self.sweep_for_the_read(cells, speed_deg_per_s, offsets)?;
        if let Some((blank, empty)) = light {
            self.measure_the_light(blank, readings, &rows, empty, period);
        }
        self.judge_looks(readings, cells, &rows, period)?;
        Ok(rows)
    }

    /// Sweeps `cells` along the lines at `offsets` as a look of the read does, keeping every
    /// reading for the read's picture; with the sensor's period as timed on these very sweeps.
    fn sweep_for_the_read(
        &mut self,
        cells: &[Cell],
        speed_deg_per_s: u32,
        offsets: &[i32],
    ) -> Result<(Vec<SweptRow>, Duration)> {
        let rows = self.sweep_rows(cells, speed_deg_per_s, offsets)?;
        for (_, samples) in &rows {
            self.last_read_samples.extend_from_slice(samples);
        }
        Ok((rows, self.read_period()))
    }

    /// Adds to `readings` what `rows` showed of each of `cells`, judged against its blank paper
    /// as it now stands, and judges them again with every look so far.
    fn judge_looks(
        &self,
        readings: &mut [SquareReading],
        cells: &[Cell],
        rows: &[SweptRow],
        period: Duration,
    ) -> Result<()> {
        let sensing = &self.config.sensing;
        let spot_deg = self.config.reading_geometry().spot_columns_deg;
        // The light's slope across the squares, along a square's line.
        let light = self.paper_light;
        let light_along =
            light.per_column / light.level.max(0.1) / f64::from(self.config.board.square_deg);
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
                    light_along,
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
        rows: &[SweptRow],
        empty: &[Cell],
        period: Duration,
    ) {
        let ratios = paper_ratios(blank, rows, empty, period);
        let light = PaperLight::measure(self.config.board.size, &ratios, self.paper_light);
        self.put_in_light(blank, readings, light);
    }

    /// Keeps `light` as the paper's and puts every one of `readings` in it: `blank`'s paper,
    /// scaled by the light.
    fn put_in_light(
        &mut self,
        blank: &BlankPaper,
        readings: &mut [SquareReading],
        light: PaperLight,
    ) {
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
    rows: &[SweptRow],
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
