//! Fitting the light to what the paper squares of a look show: its mean, a plane over the
//! board, or a step in time (see [`super::PaperLight::measure`]).

use super::{PaperRatio, LIGHT_CHANGED};
use crate::game::Cell;

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
    /// Paper squares on the smaller side of the step.
    pub(super) fewest: usize,
    pub(super) scatter: f64,
}

impl Step {
    /// Every split of the `paper` squares by the time they were read, with two or more on
    /// each side, fitted as a level before and a level after; the one whose paper squares lie
    /// closest to their levels, if all lie within `allowed` of them and the levels differ by
    /// more than [`LIGHT_CHANGED`]. `all` (every square the look measured, the one left out
    /// as darker too) gives each square its side.
    pub(super) fn fitted(all: &[PaperRatio], paper: &[PaperRatio], allowed: f64) -> Option<Step> {
        let mut by_time: Vec<PaperRatio> = paper.to_vec();
        by_time.sort_by_key(|r| r.read_at);
        let n = by_time.len();
        (2..n.saturating_sub(1))
            .filter_map(|k| {
                let (early, late) = by_time.split_at(k);
                let (before, after) = (mean(early), mean(late));
                let scatter = early
                    .iter()
                    .map(|r| (r.ratio - before).abs())
                    .chain(late.iter().map(|r| (r.ratio - after).abs()))
                    .fold(0.0, f64::max);
                let (last_early, first_late) = (early[k - 1].read_at, late[0].read_at);
                let set = |keep: &dyn Fn(&PaperRatio) -> bool| {
                    all.iter()
                        .filter(|r| keep(r))
                        .fold(0u32, |bits, r| bits | bit(r.cell))
                };
                let earlier = set(&|r| r.read_at <= last_early);
                let either = set(&|r| r.read_at > last_early && r.read_at < first_late);
                ((before - after).abs() > LIGHT_CHANGED && scatter <= allowed).then_some(Step {
                    earlier,
                    either,
                    before,
                    after,
                    fewest: k.min(n - k),
                    scatter,
                })
            })
            .min_by(|a, b| a.scatter.total_cmp(&b.scatter))
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
    let error = (ratios.iter().map(|r| r.error.powi(2)).sum::<f64>() / n).sqrt();
    Some(Plane {
        level: mz - per_column * mx - per_row * my,
        per_column,
        per_row,
        column_error: error * (syy / det).sqrt(),
        row_error: error * (sxx / det).sqrt(),
    })
}
