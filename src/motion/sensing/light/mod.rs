//! The light on the paper now against the light at the blank read, measured on the paper the
//! read itself crosses.
//!
//! Why: in reflected-light mode the colour sensor is not blind to the room. White paper read
//! 95 to 100 % with a room's lights on and 55 to 83 % with them off, black 2 to 6 % either way
//! (`docs/sensor.md`, "The room"): room light scales paper and ink alike. Judged against the
//! level its paper read when the grid was drawn, every square of a board read under a
//! person's shadow or after a cloud came out several percent darker, and a 12 mm spot's
//! whole-window test took those squares for marks. So each read measures the light as it is:
//! every empty square's centre-line readings against its own blank level give one ratio per
//! square; one move makes one mark, so the squares, less at most one that stands darker than
//! the rest, are paper, and the ratios they show are the light. A plane through them (once
//! there are enough: [`PLANE_SQUARES`]) follows light that is brighter at one side of the
//! sheet than the other; with fewer, one level for all.
//!
//! And why a read can be unsteady: a shadow that lifts in the middle of a read, or a corner of
//! the sheet that settles, changes some squares and not others in a way no plane follows. Then
//! the paper squares' ratios scatter past what the sensor's noise makes, and the read says so
//! ([`PaperLight::steady`] false), so the turn can look again once hands have left the board
//! rather than believe it.

mod at_rest;
mod fit;
mod in_time;

use crate::game::Cell;
pub use at_rest::PaperAtRest;
pub use fit::Step;
use fit::{median, plane, rms_error, Plane};
use in_time::{mean_read_at, seconds_per_row, time_spanned};
use std::time::Duration;

/// A slope across the board, a step or a scatter of the light smaller than this share is not
/// a change: paper varies by a percent or two between looks along the same line (the spot
/// never lands twice on the very same fibres), and every correction carries the estimate's own
/// error into each comparison, so the firmware corrects only what it can tell from noise. (A
/// level has no such floor: see `LEVEL_SIGMAS`.)
pub const LIGHT_CHANGED: f64 = 0.02;

/// From this many paper squares on, the light is fitted as a plane over the board (its level
/// and a slope along each axis); with fewer, one level. Three numbers from fewer than five
/// squares would follow the noise as closely as the light.
pub const PLANE_SQUARES: usize = 5;

/// A slope (across the columns, or along the rows within a read) is kept for the next look only
/// from a look resting on this many paper squares (see [`PaperLight::measure`]).
pub const SLOPE_SQUARES: usize = 6;

/// The fastest the light may drift smoothly, as a share a second, and still not count as a
/// change between two looks of one read: each look measures the light it is judged in, so a
/// drift between them fools neither; a lamp switched or a shadow come or gone between them
/// moves it at once. The harsh room's drift, 15 % from lowest to highest over a 90 s swing
/// (docs/sensor.md, "The room"), is steepest at 15 % x pi / 90 s = 0.52 % a second; a drift
/// steeper than this costs a read again, not a mark.
pub const DRIFT_PER_S: f64 = 0.006;

/// A step of the light in time is fitted with at least this many paper squares read on each
/// side of it: one level from one square is that square's noise.
const STEP_SIDE: usize = 2;

/// The fewest paper squares on which a step in time can show (see [`PaperLight::tells_a_step`]).
const STEP_SQUARES: usize = 2 * STEP_SIDE;

/// A square's ratio this many of the ratios' standard errors below the rest is named as the
/// read's likely new mark in the log. Noise alone reaches it about once in 700 squares.
const DARKER_THAN_THE_REST: f64 = 3.0;

/// How much dimmer than the board's middle square a square beside it may be in light uneven
/// across the sheet, and as much again for each square further: a lamp to one side at the
/// harsh end of `docs/sensor.md` ("The room") makes one side 10 % brighter than the other
/// across the 72 mm the robot reaches, 2.9 % over a 21 mm square.
const UNEVEN_SQUARE: f64 = 0.03;

/// A slope counts as a change of the light only past this many of its standard errors (and
/// [`LIGHT_CHANGED`] across the board).
const SIGNIFICANT_SIGMAS: f64 = 3.0;

/// How far apart, as a share, two measures of the light taken `seconds` apart may lie and
/// still be one light: a change of the light ([`LIGHT_CHANGED`]) or `sigmas` of their
/// combined standard `error` (a share), whichever is more, and what a smooth drift
/// ([`DRIFT_PER_S`]) moves it over the time between.
pub fn one_light_within(error: f64, sigmas: f64, seconds: f64) -> f64 {
    LIGHT_CHANGED.max(sigmas * error) + DRIFT_PER_S * seconds
}

/// A level counts as a change of the light past this many of its standard errors, however
/// small. Why: a level left at the blank read's when it is not is a bias in every comparison
/// of the look, as large as the floor that let it stand. In the harsh drift (0.52 % a
/// second) a look of five seconds sees the light move 2.5 %; held to a floor of 2 % (as
/// the slopes are) and three errors, a level of 0.982 measured to 0.7 % stood at 1, and an
/// empty corner read last in that look, 5 % darker than its paper then, was taken for a mark
/// (twelve draws of drift and shadow, seed 2, 12 mm spot, 2 % noise). At two errors and no
/// floor: none taken for a mark in the twelve draws, the matrix or the lamp switched on at
/// 20, 30, 40 or 60 s, and 7 marks fewer seen in the matrix's steady light (3,849 against
/// 3,856; docs/figures.md, session 16, measured before the blank read's second read was
/// slowed): noise alone moves a level past two errors in one look of twenty, and the small
/// correction then carries its error. Every level applied, whatever its error, saw 2.5 %
/// fewer marks in steady light over the twelve draws.
const LEVEL_SIGMAS: f64 = 2.0;

/// The paper squares' ratios scatter about a plane by more than this many of their standard
/// errors before a step of the light in time is tried.
const STEP_SIGMAS: f64 = 2.0;

/// A step of the light is taken over the plane when its paper squares lie at most this share
/// as far from their levels as the plane's do.
const STEP_BETTER: f64 = 0.6;

/// The paper squares' ratios may scatter about the fitted light by this many standard errors
/// (and [`LIGHT_CHANGED`]) before the read is called unsteady.
const UNSTEADY_SIGMAS: f64 = 4.0;

/// The standard error of a median over that of a mean of the same normal readings:
/// sqrt(pi / 2).
const MEDIAN_ERROR: f64 = 1.2533;

/// How the paper a light is measured on was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReadAs {
    /// In one look, one square after another: the light may have stepped in time within it.
    OneLook,
    /// In two groups, each at its own moment, already held to one light: no step is fitted
    /// between them, and they may lie half a drift over the time between apart.
    OneLightAtTwoMoments,
}

/// One empty square as the read saw it: how its centre line's readings now compare with its
/// blank level (their median over that level), and how uncertain that ratio is (its standard
/// error, as a share).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PaperRatio {
    pub cell: Cell,
    pub ratio: f64,
    pub error: f64,
    /// When the look crossed the square (the last of its readings).
    pub read_at: Duration,
}

/// The light on the paper during a read, as a factor on each square's blank level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PaperLight {
    /// The factor at the board's middle square.
    pub level: f64,
    /// How the factor changes per square along the columns and along the rows.
    pub per_column: f64,
    pub per_row: f64,
    /// The board's middle, in squares.
    middle: f64,
    /// The level's own standard error, as a share: every corrected comparison carries it.
    pub error: f64,
    /// How far the paper squares stray from a fitted step of the light beyond their own noise,
    /// as a share (`fit::unexplained`): light the step does not follow. One square judged
    /// in this light is that uncertain as well ([`PaperLight::error_at_a_square`]). 0 for a
    /// level or a plane: see [`PaperLight::error_at_a_square`].
    pub unexplained: f64,
    /// False when the paper squares scatter past noise about the fitted light (see the
    /// module's docs).
    pub steady: bool,
    /// How many squares it rests on; 0 for the light at the blank read.
    pub squares: usize,
    /// The square left out as darker than the rest, if one was.
    pub darker: Option<Cell>,
    /// The largest scatter of a paper square about the fit, as a share.
    pub scatter: f64,
    /// How far the light moved between two looks of the read, as a share (0: not past their
    /// noise): a change in time, where scatter may also be a second mark in space.
    pub moved: f64,
    /// The light stepped once during the look: the squares read before the step are in the
    /// light it gives, the rest in `level`.
    pub step: Option<Step>,
    /// When the squares it rests on were read, on average; zero for the light at the blank
    /// read.
    pub read_at: Duration,
    /// Whether the later looks of the same read hold its slope along the rows: one steeper
    /// than a drift makes in the time its look took from row to row is the room's, not the
    /// drift's (see [`PaperLight::of_an_earlier_read`]).
    pub rows_slope_holds: bool,
    /// How far the light's slope may be from the slopes it holds, where its squares lie (see
    /// [`PaperLight::error_at`]); `None` for the light as at the blank read, or within
    /// [`LIGHT_CHANGED`] of it and holding no slope.
    pub slope_doubt: Option<SlopeDoubt>,
}

/// How far a measured light's slope may be from the slopes it holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SlopeDoubt {
    /// Where on the board the paper squares the light rests on lie, on average (column, row,
    /// in squares): where its level holds whatever its slope.
    pub around: (f64, f64),
    /// How far, a square, its slope along the columns and along the rows may be from the
    /// slopes it holds, as a share: a standard error.
    pub per_square: (f64, f64),
}

impl PaperLight {
    /// The light as it was at the blank read, on a board of side `size`.
    pub fn as_at_blank(size: usize) -> PaperLight {
        PaperLight {
            level: 1.0,
            per_column: 0.0,
            per_row: 0.0,
            middle: (size as f64 - 1.0) / 2.0,
            error: 0.0,
            unexplained: 0.0,
            steady: true,
            squares: 0,
            darker: None,
            scatter: 0.0,
            moved: 0.0,
            step: None,
            read_at: Duration::ZERO,
            rows_slope_holds: false,
            slope_doubt: None,
        }
    }

    /// This light as the next read starts from it: its slope along the rows is not held. A
    /// read's looks seconds apart share the room's slope, but the next read comes after a
    /// person's move, and a steep slope a look measured may have been the light changing
    /// while it went on (a lamp switched, a shadow lifting), which a read again must not
    /// carry: held from read to read, the matrix's harsh room read 41 boards a third time,
    /// where it read none.
    pub fn of_an_earlier_read(self) -> PaperLight {
        PaperLight {
            rows_slope_holds: false,
            ..self
        }
    }

    /// The light the `ratios` of a read's empty squares show, on a board of side `size`;
    /// `before` (the last look's) where they are too few to tell light from ink: a single
    /// square cannot say whether it darkened by a mark or by the light.
    pub fn measure(size: usize, ratios: &[PaperRatio], before: PaperLight) -> PaperLight {
        PaperLight::measured(size, ratios, before, ReadAs::OneLook)
    }

    /// As [`PaperLight::measure`], for paper known to have been read in one light (two
    /// groups of squares, each read at its own moment, held to each other first): no step in
    /// time is fitted between them, only a level or a plane, and they may scatter about it by
    /// half what a smooth drift moves the light over the time they span before the light is
    /// called unsteady.
    pub fn measure_in_one_light(
        size: usize,
        ratios: &[PaperRatio],
        before: PaperLight,
    ) -> PaperLight {
        PaperLight::measured(size, ratios, before, ReadAs::OneLightAtTwoMoments)
    }

    /// [`PaperLight::measure`] of paper read as `read`.
    fn measured(
        size: usize,
        ratios: &[PaperRatio],
        before: PaperLight,
        read: ReadAs,
    ) -> PaperLight {
        let steady_before = PaperLight {
            steady: true,
            darker: None,
            squares: 0,
            scatter: 0.0,
            moved: 0.0,
            ..before
        };
        if ratios.len() < 2 {
            return steady_before;
        }
        let mut paper: Vec<PaperRatio> = ratios.to_vec();
        paper.sort_by(|a, b| a.ratio.total_cmp(&b.ratio));
        // One move makes one mark, and a mark only darkens: the darkest square is left out
        // and the light measured on the rest, which are paper. (Left out only when it stood
        // clearly darker, a faint mark's few percent pulled the light down with it and hid
        // itself; left out always, blank paper's light comes out a few tenths of a percent
        // bright.) It is named when it stands clearly below the rest.
        let rest_median = median(paper[1..].iter().map(|r| r.ratio));
        let error = paper[0].error.max(rest_median * 0.005);
        let darker = (paper[0].ratio < rest_median - DARKER_THAN_THE_REST * 2f64.sqrt() * error)
            .then_some(paper[0].cell);
        paper.remove(0);
        let middle = (size as f64 - 1.0) / 2.0;
        // A second square alone darker than the rest, past what the light's unevenness and
        // the noise can make, is ink too (a person who drew two marks at once, which the read
        // must name as two): measured with it, the light tilted towards it, and it was judged
        // against paper 9 % dimmer than it was. Past the unevenness: the dim side of a lamp to
        // one side stands below the rest's median (left out so, a corner took the slope with
        // it, read 5 % dark and was taken for a mark twice in the matrix's harsh room with
        // the lamp switched on at 20 s), over as many squares as it lies from the rest. Over
        // one square only, the one paper square of a lamp's dim row, two squares from the
        // rest, was left out 6.5 % under them; the other rows showed no slope along the rows,
        // and it read 6 % dark: a second mark, and a game void (docs/figures.md, session 35).
        // Alone: squares read before a lamp was switched or a shadow lifted stand out
        // together, and they are the light's step, not ink.
        if paper.len() > PLANE_SQUARES {
            let rest_median = median(paper[2..].iter().map(|r| r.ratio));
            let rest_place = mean_place(&paper[2..]);
            let stands_out = |r: &PaperRatio| {
                let error = r.error.max(rest_median * 0.005);
                let squares_away = (r.cell.col as f64 - rest_place.0)
                    .hypot(r.cell.row as f64 - rest_place.1)
                    .max(1.0);
                r.ratio
                    < rest_median
                        - UNEVEN_SQUARE * squares_away
                        - DARKER_THAN_THE_REST * 2f64.sqrt() * error
            };
            if stands_out(&paper[0]) && !stands_out(&paper[1]) {
                paper.remove(0);
            }
        }
        let mean_error = rms_error(&paper).max(0.005);
        let level_error = mean_error / (paper.len() as f64).sqrt();
        // A change the estimate cannot tell from its own noise is no change: every correction
        // carries the estimate's error into each comparison, and in steady light that only
        // blurs the marks (measured: with every estimate applied, steady light saw 6 % fewer
        // marks in the matrix's noisiest rows).
        let significant = |value: f64, error: f64, least: f64| {
            value.abs() > least.max(SIGNIFICANT_SIGMAS * error)
        };
        // Light brighter at one side of the sheet than the other (a lamp to one side) stays
        // so from look to look: the slope along the columns a look over most of the board
        // measured is kept by the next unless that one measures another, past its errors. A
        // later look over a few squares cannot measure a slope, and judged in the row's mean
        // light, a square at the dim side read 3 % dark under the harsh lamp, which a close
        // look took for a faint mark. Only from a look resting on [`SLOPE_SQUARES`] paper
        // squares: a slope fitted to five, three figures from five, can be noise (a steady
        // room's 9 % slope, kept, hid a person's O at the side it made dim). The slope along
        // the rows only within one read, and only where it is steeper than a drift makes in
        // the time the look took from row to row (`rows_slope_holds`): the rows are read one
        // after another, so a gentler one may be the drift over the look's seconds, and the
        // next look, reading the rows the other way round, would find the drift's part turned
        // about. A lamp by the rows' far end makes one (docs/sensor.md, "The room"): not held,
        // the look off centre, whose paper off the centre lines is too uncertain to measure it
        // again, judged the dim row in the light of the middle one and took a square there
        // for a mark (docs/figures.md, session 34).
        let (prior_column, prior_row) = if before.squares >= SLOPE_SQUARES {
            let held = if before.rows_slope_holds {
                before.per_row
            } else {
                0.0
            };
            (before.per_column, held)
        } else {
            (0.0, 0.0)
        };
        let level_with = |per_column: f64, per_row: f64| {
            paper
                .iter()
                .map(|r| {
                    r.ratio
                        - per_column * (r.cell.col as f64 - middle)
                        - per_row * (r.cell.row as f64 - middle)
                })
                .sum::<f64>()
                / paper.len() as f64
        };
        // How much steeper or shallower than the slope held the light may slope along each
        // way (see [`PaperLight::error_at`]), as a standard error: the plane's own slope, not
        // held, and its error together (their root sum of squares), at most the room's
        // unevenness; that unevenness itself with no plane.
        let doubt = |measured: f64, held: f64, error: f64| {
            (measured - held).hypot(error).min(UNEVEN_SQUARE)
        };
        let flat = (
            level_with(prior_column, prior_row),
            prior_column,
            prior_row,
            (UNEVEN_SQUARE, UNEVEN_SQUARE),
        );
        let (level, per_column, per_row, slope_doubt) = match plane(&paper, middle) {
            Some(Plane {
                per_column: fitted_column,
                per_row: fitted_row,
                column_error,
                row_error,
                ..
            }) if paper.len() >= PLANE_SQUARES => {
                let across = (size as f64 - 1.0).max(1.0);
                let least = LIGHT_CHANGED / across;
                let per_column = if significant(fitted_column - prior_column, column_error, least) {
                    fitted_column
                } else {
                    prior_column
                };
                let per_row = if significant(fitted_row - prior_row, row_error, least) {
                    fitted_row
                } else {
                    prior_row
                };
                (
                    level_with(per_column, per_row),
                    per_column,
                    per_row,
                    (
                        doubt(fitted_column, per_column, column_error),
                        doubt(fitted_row, per_row, row_error),
                    ),
                )
            }
            _ => flat,
        };
        // Light uneven across the board comes with a change of it (a lamp switched on, a
        // shadow): a light within LIGHT_CHANGED of the blank read's that holds no slope is
        // not doubted for one.
        let past_a_change =
            (level - 1.0).abs() > LIGHT_CHANGED || per_column != 0.0 || per_row != 0.0;
        let slope_doubt = past_a_change.then(|| SlopeDoubt {
            around: mean_place(&paper),
            per_square: slope_doubt,
        });
        let fitted = PaperLight {
            level,
            per_column,
            per_row,
            middle,
            error: level_error,
            unexplained: 0.0,
            steady: true,
            squares: paper.len(),
            darker,
            scatter: 0.0,
            moved: 0.0,
            step: None,
            read_at: mean_read_at(&paper),
            rows_slope_holds: false,
            slope_doubt,
        };
        // A slope along the rows steeper than a drift makes while this look went from row to
        // row is the room's: the read's later looks hold it.
        let fitted = PaperLight {
            rows_slope_holds: fitted.changed_along_the_rows(seconds_per_row(&paper)),
            ..fitted
        };
        let scatter = paper
            .iter()
            .map(|r| (r.ratio - fitted.at(r.cell)).abs())
            .fold(0.0, f64::max);
        // Paper known to lie in one light was read in two groups seconds apart, held within a
        // drift of each other (`measure_in_one_light`): a level between them leaves each up
        // to half that drift off, which no plane across the board follows. Traced in the
        // harsh room's steepest drift: squares read again two to three seconds after the
        // first look's others scattered 2.5 % about one plane, past the 2 % allowed, and the
        // read was doubted whole (44 of the matrix's 556 doubts; none of its marks changed).
        let drift_between = match read {
            ReadAs::OneLook => 0.0,
            ReadAs::OneLightAtTwoMoments => DRIFT_PER_S * time_spanned(&paper) / 2.0,
        };
        let allowed = LIGHT_CHANGED.max(UNSTEADY_SIGMAS * mean_error) + drift_between;
        if read == ReadAs::OneLook && scatter > STEP_SIGMAS * mean_error {
            // Perhaps the light stepped once while the look went on (a shadow lifting as the
            // person stepped back, a lamp switched): two levels, one before the step and one
            // after, then follow the paper far more closely than any plane, which only tilts
            // towards the step and leaves the squares near it a few percent off.
            let better = |step: &Step| step.scatter < scatter * STEP_BETTER;
            if let Some(step) = Step::fitted(ratios, &paper, allowed, middle).filter(better) {
                let light = PaperLight {
                    level: step.after,
                    per_column: step.after_per_column,
                    per_row: 0.0,
                    error: mean_error / (step.fewest as f64).sqrt(),
                    step: Some(step),
                    scatter: step.scatter,
                    // A step with a slope (a lamp to one side switched) is followed, but a
                    // read in it is doubted, as one no plane followed was before: a slope on
                    // each side of a step follows noise too (see `Step::fitted`).
                    steady: !step.is_sloped(),
                    ..fitted
                };
                let levels = if step.is_sloped() { 4 } else { 2 };
                return PaperLight {
                    unexplained: fit::unexplained(&paper, |cell| light.at(cell), levels),
                    ..light
                };
            }
        }
        let steady = scatter <= allowed;
        let changed =
            per_column != 0.0 || per_row != 0.0 || (level - 1.0).abs() > LEVEL_SIGMAS * level_error;
        let light = if changed {
            fitted
        } else {
            PaperLight {
                squares: paper.len(),
                darker,
                read_at: fitted.read_at,
                ..PaperLight::as_at_blank(size)
            }
        };
        PaperLight {
            steady,
            scatter,
            ..light
        }
    }

    /// How uncertain the factor on one square is, as a share: the level's error and the light
    /// a step leaves unexplained. A lamp to one side switched on during a read is a step with
    /// a slope that the few squares on each side fit loosely: with the level's error alone
    /// (0.35 %) said to be all the doubt, where the squares strayed 1.6 % from the step, a
    /// square at the dim side read 4 to 6 % dark and a close look under the 6 mm spot (whose
    /// window holds no paper beside a stroke, so the corrected blank level stands in) took it
    /// for a mark. Measured over the detection matrix's harsh room (lamp 30 s in): 8 squares
    /// taken for a mark wrongly, against 18 without it.
    ///
    /// Not for a level or a plane: their scatter over a read's paper squares is as often a
    /// second mark left among them as light. Counted there, it cut the harsh room's false
    /// marks to 1, but two X's drawn at once were read as one: each read's fit, dragged by
    /// the other X, said the light was uncertain by 3 to 8 %, and that hid it.
    pub fn error_at_a_square(&self) -> f64 {
        self.error.hypot(self.unexplained)
    }

    /// How uncertain the factor on `cell` is, as a share: [`PaperLight::error_at_a_square`],
    /// and the slope the light may still have between `cell` and the middle of the paper
    /// squares it was measured on ([`SlopeDoubt`], for each square between). A level
    /// measured on a few squares to one side holds where they are; a lamp to one side leaves
    /// a square a square and a half away up to 4.5 % dimmer (`UNEVEN_SQUARE`). A plane
    /// fitted over five squares or more bounds the slope by its own and its error.
    ///
    /// For the close look (slow and dense: its own readings' noise is small, so the light's
    /// doubt at the square is most of what its test against the blank level must clear) and
    /// for the light a close look's mark is judged again in (`fresh_light`). Traced in the
    /// detection matrix's harsh room with the lamp on, 4 % noise: a blank bottom left square
    /// read 5 to 7 % under a level taken across the board, under the 9 mm spot, and the
    /// close look took it for a mark. Not for the first look and the look off centre: with
    /// the room's unevenness counted there for every square away from the board's middle,
    /// the harsh room saw 11.5 % fewer marks than steady light where it saw 1.5 %.
    pub fn error_at(&self, cell: Cell) -> f64 {
        self.error_at_a_square().hypot(self.slope_doubt_at(cell))
    }

    /// The part of [`PaperLight::error_at`] the light's slope leaves at `cell`: 0 at the
    /// middle of the squares it was measured on and for the light as at the blank read.
    pub fn slope_doubt_at(&self, cell: Cell) -> f64 {
        self.slope_doubt.map_or(0.0, |doubt| {
            let ((column, row), (across, along)) = (doubt.around, doubt.per_square);
            (across * (cell.col as f64 - column)).hypot(along * (cell.row as f64 - row))
        })
    }

    /// The factor on `cell`'s blank level.
    pub fn at(&self, cell: Cell) -> f64 {
        let after = self.level
            + self.per_column * (cell.col as f64 - self.middle)
            + self.per_row * (cell.row as f64 - self.middle);
        if let Some(step) = self.step {
            if step.straddles(cell) {
                return step.before_at(cell, self.middle).max(after);
            }
            if step.before_it(cell) {
                return step.before_at(cell, self.middle);
            }
        }
        after
    }

    /// True when the blank levels are used as they were read.
    pub fn is_as_at_blank(&self) -> bool {
        self.level == 1.0 && self.per_column == 0.0 && self.per_row == 0.0
    }

    /// The change in words, for the log: "the paper reads 8 % darker than at the start: the
    /// light changed", with how uneven it is across the board; `None` when nothing changed.
    pub fn describe(&self, size: usize) -> Option<String> {
        if self.is_as_at_blank() {
            return None;
        }
        let percent = (self.level - 1.0) * 100.0;
        let way = if percent < 0.0 { "darker" } else { "brighter" };
        let across = (size as f64 - 1.0) * (self.per_column.abs() + self.per_row.abs()) * 100.0;
        let uneven = if across >= 1.0 {
            format!(", {across:.0} % more at one side of the board than the other")
        } else {
            String::new()
        };
        Some(format!(
            "the paper reads {:.0} % {way} than at the start{uneven}: the light changed \
             (measured on {} empty squares; marks are judged against the paper as it is now)",
            percent.abs(),
            self.squares
        ))
    }
}

/// Where the squares of `ratios` lie on the board, on average: (column, row), in squares.
fn mean_place(ratios: &[PaperRatio]) -> (f64, f64) {
    let count = ratios.len().max(1) as f64;
    let column = ratios.iter().map(|r| r.cell.col as f64).sum::<f64>() / count;
    let row = ratios.iter().map(|r| r.cell.row as f64).sum::<f64>() / count;
    (column, row)
}

#[cfg(test)]
mod tests;
