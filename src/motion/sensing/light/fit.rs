//! Fitting the light to what the paper squares of a look show: its mean, a plane over the
//! board, or a step in time (see [`super::PaperLight::measure`]); and whether the blank
//! paper read twice lies on one plane ([`PaperLight::one_light`]).

use super::{
    PaperLight, PaperRatio, LIGHT_CHANGED, SIGNIFICANT_SIGMAS, STEP_SIDE, UNSTEADY_SIGMAS,
};
use crate::game::Cell;

impl PaperLight {
    /// Whether paper read twice, its second `ratios` against its first on every square of a
    /// board of side `size`, was read in one light both times: `Err` with the worst square's
    /// distance from the plane through them all (a change of level, or a slope, is one light
    /// still: a drift, a lamp to one side) when that is past what noise makes. No square is
    /// left out as a mark: blank paper has none.
    ///
    /// In one light, `Ok` holds the light's factor on each square, in the order of `ratios`:
    /// the ratios' level, with each slope of the plane that stands past
    /// `SIGNIFICANT_SIGMAS` of its error. Why not the plane itself: a slope fitted to nine
    /// noisy squares follows their noise, and a read brought to another's light by it carries
    /// that noise into every level (measured: under the dim sensor of `gantry_on_sim`, 5 %
    /// noise at half the gain, factors from 0.94 to 1.07 between two reads in steady light).
    pub fn one_light(size: usize, ratios: &[PaperRatio]) -> std::result::Result<Vec<f64>, f64> {
        let middle = (size as f64 - 1.0) / 2.0;
        let Some(fit) = plane(ratios, middle) else {
            let mean = ratios.iter().map(|r| r.ratio).sum::<f64>() / ratios.len().max(1) as f64;
            return Ok(vec![mean; ratios.len()]);
        };
        let sloped = |per_column: f64, per_row: f64| {
            move |r: &PaperRatio| {
                fit.level
                    + per_column * (r.cell.col as f64 - middle)
                    + per_row * (r.cell.row as f64 - middle)
            }
        };
        let on_plane = sloped(fit.per_column, fit.per_row);
        let kept = |slope: f64, error: f64| {
            if slope.abs() > SIGNIFICANT_SIGMAS * error {
                slope
            } else {
                0.0
            }
        };
        let light = sloped(
            kept(fit.per_column, fit.column_error),
            kept(fit.per_row, fit.row_error),
        );
        let mean_error = rms_error(ratios).max(0.005);
        let scatter = ratios
            .iter()
            .map(|r| (r.ratio - on_plane(r)).abs())
            .fold(0.0, f64::max);
        if scatter > LIGHT_CHANGED.max(UNSTEADY_SIGMAS * mean_error) {
            Err(scatter)
        } else {
            Ok(ratios.iter().map(light).collect())
        }
    }
}

/// A step of the light in the middle of a look: the squares read before it, and the level
/// they read in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// The squares read before the step, by index (row by row).
    earlier: u32,
    /// The squares read between the last paper square before the step and the first after
    /// it, which may lie on either side: judged in the brighter light, where a change of the
    /// light cannot hide a mark, and looked at again before they count (it can make one).
    either: u32,
    pub before: f64,
    pub after: f64,
    /// The light's slope across the columns on each side, per column from the board's
    /// middle: a lamp to one side switched on (or off) is a step and a slope at once, its
    /// side of the sheet brighter. 0 where one side's squares do not show one past their
    /// errors.
    pub before_per_column: f64,
    pub after_per_column: f64,
    /// Paper squares on the smaller side of the step.
    pub(super) fewest: usize,
    pub(super) scatter: f64,
}

impl Step {
    /// Every split of the `paper` squares by the time they were read, with two or more on
    /// each side, fitted as a level before and a level after, on a board whose middle column
    /// is `middle`; the one whose paper squares lie closest to their light, if all lie within
    /// `allowed` of it and the levels differ by more than [`LIGHT_CHANGED`]. `all` (every
    /// square the look measured, the one left out as darker too) gives each square its side.
    ///
    /// Only where no flat step fits, each side may have a slope across the columns as well
    /// (see [`side_light`]): a lamp to one side switched on or off is a step and a slope at
    /// once. The harsh room's lamp, 10 % brighter at one side of the sheet than the other,
    /// switched on after the first two paper squares of a look, left the five after it 4 %
    /// apart about their mean, more than `allowed`: no flat step fitted, the read was called
    /// unsteady but not a change in time, and the read again, in the same light, named two
    /// marks and voided a game. Not always: a shadow that lifts is even, and a slope on each
    /// side follows noise as well. Over twelve draws of the noise in a room that drifts and
    /// shadows (`tests/reading_marks.rs`), slopes from three squares up: with a slope tried on
    /// every step 3,552 marks seen, tried only where no flat step fits 3,559, and with reads
    /// in a sloped step doubted as well (see [`super::PaperLight::measure`]) 3,586, against
    /// 3,591 with no slope at all (3,586 with the rules below too).
    pub(super) fn fitted(
        all: &[PaperRatio],
        paper: &[PaperRatio],
        allowed: f64,
        middle: f64,
    ) -> Option<Step> {
        Step::fitted_as(all, paper, allowed, middle, false)
            .or_else(|| Step::fitted_as(all, paper, allowed, middle, true))
    }

    /// As [`Step::fitted`], flat, or `sloped` with a slope on each side.
    fn fitted_as(
        all: &[PaperRatio],
        paper: &[PaperRatio],
        allowed: f64,
        middle: f64,
        sloped: bool,
    ) -> Option<Step> {
        let light = |side: &[PaperRatio]| {
            if sloped {
                side_light(side, middle)
            } else {
                (mean(side), 0.0)
            }
        };
        let mut by_time: Vec<PaperRatio> = paper.to_vec();
        by_time.sort_by_key(|r| r.read_at);
        let n = by_time.len();
        (STEP_SIDE..=n.saturating_sub(STEP_SIDE))
            .filter_map(|k| {
                let (early, late) = by_time.split_at(k);
                let (before, before_per_column) = light(early);
                let (after, after_per_column) = light(late);
                let off = |r: &PaperRatio, level: f64, per_column: f64| {
                    (r.ratio - level - per_column * (r.cell.col as f64 - middle)).abs()
                };
                let scatter = early
                    .iter()
                    .map(|r| off(r, before, before_per_column))
                    .chain(late.iter().map(|r| off(r, after, after_per_column)))
                    .fold(0.0, f64::max);
                let (last_early, first_late) = (early[k - 1].read_at, late[0].read_at);
                let set = |keep: &dyn Fn(&PaperRatio) -> bool| {
                    all.iter()
                        .filter(|r| keep(r))
                        .fold(0u32, |bits, r| bits | bit(r.cell))
                };
                let earlier = set(&|r| r.read_at <= last_early);
                let either = set(&|r| r.read_at > last_early && r.read_at < first_late);
                // A lamp's unevenness is part of its light: one side of the sheet brighter
                // than the other by no more than it brightens the middle (the harsh room's
                // lamp: 10 % across, 15 % at the middle). A steeper slope is a mark's dark
                // square pulling the fit, not a lamp.
                let across = 2.0 * middle * before_per_column.abs().max(after_per_column.abs());
                let lamp_like = across <= (before - after).abs();
                ((before - after).abs() > LIGHT_CHANGED && scatter <= allowed && lamp_like)
                    .then_some(Step {
                        earlier,
                        either,
                        before,
                        after,
                        before_per_column,
                        after_per_column,
                        fewest: k.min(n - k),
                        scatter,
                    })
            })
            .min_by(|a, b| a.scatter.total_cmp(&b.scatter))
    }

    /// True when either side of the step has a slope across the columns: a lamp to one side.
    pub fn is_sloped(&self) -> bool {
        self.before_per_column != 0.0 || self.after_per_column != 0.0
    }

    /// The light before the step at `cell`, on a board whose middle column is `middle`.
    pub(super) fn before_at(&self, cell: Cell, middle: f64) -> f64 {
        self.before + self.before_per_column * (cell.col as f64 - middle)
    }

    pub(super) fn before_it(&self, cell: Cell) -> bool {
        self.earlier & bit(cell) != 0
    }

    /// True when `cell` was read about when the light stepped, on either side of it.
    pub fn straddles(&self, cell: Cell) -> bool {
        self.either & bit(cell) != 0
    }
}

/// A square's bit in a set of squares of a board at most 4 wide.
fn bit(cell: Cell) -> u32 {
    1 << (cell.row * 4 + cell.col).min(31)
}

fn mean(ratios: &[PaperRatio]) -> f64 {
    ratios.iter().map(|r| r.ratio).sum::<f64>() / ratios.len() as f64
}

/// The root mean square of the `ratios`' own errors: the error of one of them, typically; 0
/// for none.
pub(super) fn rms_error(ratios: &[PaperRatio]) -> f64 {
    if ratios.is_empty() {
        return 0.0;
    }
    (ratios.iter().map(|r| r.error.powi(2)).sum::<f64>() / ratios.len() as f64).sqrt()
}

/// How far the `paper` squares' ratios stray from `light` past their own errors, as a share:
/// the root of their variance about it (over the squares left when the fit's `figures` are
/// taken off, as a variance's estimate asks) less their mean squared error. 0 unless the
/// variance is past what noise makes by [`UNEXPLAINED_SIGMAS`] standard deviations of such an
/// estimate: noise alone leaves some excess half the time, and counting it blurs a faint mark
/// in light the fit follows well.
///
/// The square darkest against the light is left out, and the rest taken about their own mean:
/// the darkest may be ink the read has yet to judge, which pulls the fitted light down with it
/// and leaves the paper above; light the fit does not follow leaves more than one square
/// astray, on both sides.
pub(super) fn unexplained(
    paper: &[PaperRatio],
    light: impl Fn(Cell) -> f64,
    figures: usize,
) -> f64 {
    // Each square's distance from the light, and its error, darkest first.
    let mut off: Vec<(f64, f64)> = paper
        .iter()
        .map(|r| (r.ratio - light(r.cell), r.error))
        .collect();
    off.sort_by(|a, b| a.0.total_cmp(&b.0));
    let kept = off.get(1..).unwrap_or_default();
    if kept.len() <= figures {
        return 0.0;
    }
    let left = (kept.len() - figures) as f64;
    let mean = kept.iter().map(|(o, _)| o).sum::<f64>() / kept.len() as f64;
    let squared = kept.iter().map(|(o, _)| (o - mean).powi(2)).sum::<f64>() / left;
    let noise = kept.iter().map(|(_, e)| e.powi(2)).sum::<f64>() / kept.len() as f64;
    if squared <= noise * (1.0 + UNEXPLAINED_SIGMAS * (2.0 / left).sqrt()) {
        return 0.0;
    }
    (squared - noise).sqrt()
}

/// See [`unexplained`]: a variance estimated from `k` squares' distances scatters by
/// `sqrt(2 / k)` of itself.
const UNEXPLAINED_SIGMAS: f64 = 2.0;

/// The light one side of a step shows: its level at the board's `middle` column, and its
/// slope across the columns where four squares or more over two columns or more show one
/// past [`SIGNIFICANT_SIGMAS`] of its error (else flat: two squares fit any slope, and three
/// leave one figure to judge it by).
fn side_light(side: &[PaperRatio], middle: f64) -> (f64, f64) {
    let level = mean(side);
    let n = side.len() as f64;
    let mean_column = side.iter().map(|r| r.cell.col as f64).sum::<f64>() / n;
    let spread: f64 = side
        .iter()
        .map(|r| (r.cell.col as f64 - mean_column).powi(2))
        .sum();
    if side.len() < 4 || spread < 1.0 {
        return (level, 0.0);
    }
    let per_column = side
        .iter()
        .map(|r| (r.cell.col as f64 - mean_column) * (r.ratio - level))
        .sum::<f64>()
        / spread;
    let error = rms_error(side) / spread.sqrt();
    if per_column.abs() > SIGNIFICANT_SIGMAS * error {
        (level - per_column * (mean_column - middle), per_column)
    } else {
        (level, 0.0)
    }
}

pub(super) fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut sorted: Vec<f64> = values.collect();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// A plane of the light over the board, with each slope's standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Plane {
    pub level: f64,
    pub per_column: f64,
    pub per_row: f64,
    pub column_error: f64,
    pub row_error: f64,
}

/// The least-squares plane `level + per_column (col - middle) + per_row (row - middle)`
/// through the ratios, with each slope's standard error from the ratios' own; `None` when the
/// squares all lie on one line (no slope across it).
pub(super) fn plane(ratios: &[PaperRatio], middle: f64) -> Option<Plane> {
    let n = ratios.len() as f64;
    let xs: Vec<(f64, f64, f64)> = ratios
        .iter()
        .map(|r| {
            (
                r.cell.col as f64 - middle,
                r.cell.row as f64 - middle,
                r.ratio,
            )
        })
        .collect();
    let (mx, my, mz) = xs.iter().fold((0.0, 0.0, 0.0), |(a, b, c), &(x, y, z)| {
        (a + x / n, b + y / n, c + z / n)
    });
    let (mut sxx, mut syy, mut sxy, mut sxz, mut syz) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for &(x, y, z) in &xs {
        let (dx, dy, dz) = (x - mx, y - my, z - mz);
        sxx += dx * dx;
        syy += dy * dy;
        sxy += dx * dy;
        sxz += dx * dz;
        syz += dy * dz;
    }
    let det = sxx * syy - sxy * sxy;
    if det.abs() < 1e-9 {
        return None;
    }
    let per_column = (sxz * syy - syz * sxy) / det;
    let per_row = (syz * sxx - sxz * sxy) / det;
    let error = rms_error(ratios);
    Some(Plane {
        level: mz - per_column * mx - per_row * my,
        per_column,
        per_row,
        column_error: error * (syy / det).sqrt(),
        row_error: error * (sxx / det).sqrt(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::PaperLight;
    use super::*;
    use std::time::Duration;

    /// The paper of a 3x3 board read row by row, a third of a second a square, in `light`,
    /// each ratio known to half a percent.
    fn read_in(light: impl Fn(usize, Cell) -> f64) -> Vec<PaperRatio> {
        (0..9)
            .map(|i| {
                let cell = Cell::from_index(i, 3);
                PaperRatio {
                    cell,
                    ratio: light(i, cell),
                    error: 0.005,
                    read_at: Duration::from_millis(333 * i as u64),
                }
            })
            .collect()
    }

    #[test]
    fn a_lamp_to_one_side_switched_on_during_a_look_is_a_step_with_a_slope_and_the_read_is_doubted()
    {
        // The first row read before the lamp; after it the paper reads 15 % brighter in the
        // middle, 10 % more at the right than at the left.
        let truth = |i: usize, c: Cell| {
            if i < 3 {
                1.0 + 0.002 * i as f64
            } else {
                1.15 + 0.05 * (c.col as f64 - 1.0)
            }
        };
        let paper = read_in(truth);
        // No flat step follows the lamp's side within 2 %: its squares lie 5 % either side.
        assert!(Step::fitted_as(&paper, &paper, 0.02, 1.0, false).is_none());
        let light = PaperLight::measure(3, &paper, PaperLight::as_at_blank(3));
        let step = light.step.expect("a step in time");
        assert!(
            step.is_sloped() && step.before_per_column == 0.0,
            "{step:?}"
        );
        assert!((step.after_per_column - 0.05).abs() < 0.005, "{step:?}");
        for i in 0..9 {
            let cell = Cell::from_index(i, 3);
            assert!(
                (light.at(cell) - truth(i, cell)).abs() < 0.01,
                "{cell:?} {light:?}"
            );
        }
        // A changed light the read follows, but doubts: a slope fitted to each side of a step
        // can follow noise too.
        assert!(!light.steady);
    }

    #[test]
    fn a_shadow_that_lifts_is_a_flat_step_though_a_slope_would_fit_its_noise_closer() {
        // Even light before and after, with a wobble across the columns that a slope on each
        // side would follow (a percent a column: past three of its errors), within 2 % flat.
        let lifts = |i: usize, c: Cell| {
            let wobble = 0.01 * (c.col as f64 - 1.0);
            if i < 4 {
                0.8 + wobble
            } else {
                1.0 + wobble
            }
        };
        let light = PaperLight::measure(3, &read_in(lifts), PaperLight::as_at_blank(3));
        let step = light.step.expect("a step in time");
        assert!(!step.is_sloped() && light.steady, "{light:?}");
    }

    #[test]
    fn light_a_fit_leaves_astray_on_both_sides_is_unexplained_and_one_dark_square_is_not() {
        // A flat level through paper that a lamp's unfitted slope leaves 3 % either side.
        let uneven = read_in(|_, c| 1.0 + 0.03 * (c.col as f64 - 1.0));
        let left = unexplained(&uneven, |_| 1.0, 1);
        assert!((left - 0.024).abs() < 0.004, "{left}");
        // Even paper but one square 14 % dark (a second mark the read has yet to judge), the
        // level dragged 1.5 % down by it: the rest agree, and nothing is unexplained.
        let one_dark = read_in(|i, _| if i == 4 { 0.86 } else { 1.0 });
        assert_eq!(unexplained(&one_dark, |_| 0.985, 1), 0.0);
        // Noise alone, within the estimate's own scatter, is nothing either.
        let noisy =
            read_in(|i, _| 1.0 + 0.005 * [1.0, -1.0, 0.5, -0.5, 1.0, 0.0, -1.0, 0.5, -0.5][i]);
        assert_eq!(unexplained(&noisy, |_| 1.0, 1), 0.0);
    }

    #[test]
    fn a_second_mark_read_among_the_first_squares_is_not_taken_for_a_lamps_slope() {
        // Steady light, an X in the top middle square (the darkest, left out) and an O in the
        // bottom right, read first (rows from the bottom up): its square 14 % dark. A slope
        // of 7 % a column over the first row read, and a step of 4 %, would follow it: no
        // lamp that brightens the middle by 4 % makes one side 14 % brighter than the other.
        // Standing out alone, the O is left out of the light as the X is, and judged against
        // the paper as it is.
        let order = [8, 7, 6, 3, 4, 5, 2, 1, 0];
        let ratio = [0.978, 0.837, 0.99, 1.011, 1.007, 0.981, 1.004, 1.0, 0.863];
        let paper: Vec<PaperRatio> = order
            .iter()
            .enumerate()
            .map(|(t, &i)| PaperRatio {
                cell: Cell::from_index(i, 3),
                ratio: ratio[i],
                error: 0.012,
                read_at: Duration::from_millis(333 * t as u64),
            })
            .collect();
        let light = PaperLight::measure(3, &paper, PaperLight::as_at_blank(3));
        assert!(light.step.is_none_or(|s| !s.is_sloped()), "{light:?}");
        let o = Cell::from_index(8, 3);
        assert!((light.at(o) - 1.0).abs() < 0.01, "{light:?}");
        assert_eq!(light.squares, 7, "{light:?}");
    }
}
