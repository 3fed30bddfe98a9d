//! How the light changed in time: between two looks of one read, along a look's rows, in a
//! step that may have come with a mark, and against paper read at another moment.

use super::fit::{median, rms_error};
use super::{
    one_light_within, PaperLight, PaperRatio, DRIFT_PER_S, LIGHT_CHANGED, MEDIAN_ERROR, STEP_SIDE,
    STEP_SQUARES, UNSTEADY_SIGMAS,
};
use crate::game::Cell;
use std::time::Duration;

impl PaperLight {
    /// How far apart this light and `other`, both measured within one read, are at the
    /// board's middle, when that is more than [`LIGHT_CHANGED`] and their own errors allow,
    /// beyond what a smooth drift (`DRIFT_PER_S`) makes in the time between them: the light
    /// changed between two looks of one read (a lamp switched, a shadow come or gone). `None`
    /// when either rests on fewer than two squares.
    pub fn changed_since(&self, other: &PaperLight) -> Option<f64> {
        if self.squares < 2 || other.squares < 2 {
            return None;
        }
        let apart = (self.level - other.level).abs();
        self.past_drift(apart, other.error, other.read_at)
    }

    /// True when the light's slope along the rows is steeper than a smooth drift makes over
    /// `seconds_per_row`, the time its look took from one row to the next: a look reads the
    /// rows one after another, so such a slope is the light changing while it went on (a lamp
    /// switched), which a plane through the squares follows only roughly.
    pub fn changed_along_the_rows(&self, seconds_per_row: f64) -> bool {
        self.per_row.abs() > DRIFT_PER_S * seconds_per_row
    }

    /// True when the light's slope along the rows makes it brighter at `cell` than at the
    /// board's middle row: against that light, paper there reads darker than against its
    /// level. Over paper read at two moments, such a slope may be the drift between them.
    pub fn rows_slope_brightens(&self, cell: Cell) -> bool {
        self.per_row * (cell.row as f64 - self.middle) > 0.0
    }

    /// Whether the darkness of `marked`, one of the squares a look measured (`ratios`), may
    /// be the light stepping in time rather than ink: read in order, it lies in the first or
    /// the last squares of the look, and every other square read on its side of some moment
    /// reads darker than the paper after (or before) that moment by more than a change of
    /// the light and half as far as `marked` does, with two squares or more on the far side.
    /// Not a test that the light stepped, only that it may have: enough to look again. The
    /// light's own fit cannot show such a step: one move makes one mark, so the darkest
    /// square is left out of it, and with only one other square left before the step, no
    /// step has two squares a side. Traced in the harsh room with the lamp switched on 40 s
    /// in (a dot, the 12 mm spot at 4 % noise): the look off centre read the top row's two
    /// empty squares before the lamp came on and the rest after; the dimmer was left out as
    /// the mark, the other taken for a slope across the columns, and the mark stood, 11 %
    /// dark.
    pub fn step_may_explain(ratios: &[PaperRatio], marked: Cell) -> bool {
        let mut in_order: Vec<&PaperRatio> = ratios.iter().collect();
        in_order.sort_by_key(|r| r.read_at);
        let Some(at) = in_order.iter().position(|r| r.cell == marked) else {
            return false;
        };
        // Each split that leaves the mark and at least one other square on the near side and
        // two on the far: the first squares read (before the split) or the last.
        (1..in_order.len()).any(|split| {
            let (before, after) = in_order.split_at(split);
            let (near, far) = if at < split {
                (before, after)
            } else {
                (after, before)
            };
            if near.len() < 2 || far.len() < STEP_SIDE {
                return false;
            }
            let far_level = median(far.iter().map(|r| r.ratio));
            let mark_below = far_level - in_order[at].ratio;
            near.iter()
                .filter(|r| r.cell != marked)
                .all(|r| far_level - r.ratio > LIGHT_CHANGED.max(mark_below / 2.0))
        })
    }

    /// How far the paper squares in `blank` (read at another moment, each judged blank on
    /// its centre line) lie from this light, the median of their differences, when that is
    /// more than [`LIGHT_CHANGED`] and the errors allow, beyond a smooth drift (`DRIFT_PER_S`)
    /// over the time between: the light changed between them. `None` when it did not, or
    /// when `blank` is empty.
    ///
    /// The median, not the mean: a square judged blank on its centre line may still hold the
    /// person's mark drawn off centre, whose edge darkens the line's readings a few percent,
    /// while a lamp or a shadow moves every square alike. Traced in the harsh room (a
    /// ballpoint X off centre under the 6 mm spot, noiseless, 85 s in): four squares kept,
    /// three of them 1.6 to 2 % off the light read again two seconds later (the drift at its
    /// steepest), the fourth, the new mark's, 7.7 %; their mean, 3.3 %, passed the 3.2 %
    /// allowed and the read was doubted and taken again. The median's error is the mean's
    /// times 1.25 (its efficiency on normal noise). Over the detection matrix's harsh room,
    /// one run each (docs/figures.md): reads doubted and read again 556 where there were 769,
    /// a mean read of a mark 6.80 s where it was 7.05 s, no square taken for a mark.
    pub fn strays_from(&self, blank: &[PaperRatio]) -> Option<f64> {
        if blank.is_empty() {
            return None;
        }
        let n = blank.len() as f64;
        let apart = median(blank.iter().map(|r| r.ratio - self.at(r.cell)));
        let error = MEDIAN_ERROR * rms_error(blank) / n.sqrt();
        self.past_drift(apart.abs(), error, mean_read_at(blank))
    }

    /// `apart`, when it is more than this light and another measure (its `error`, taken at
    /// `read_at`) can tell from noise and from a drift over the time between them.
    fn past_drift(&self, apart: f64, error: f64, read_at: Duration) -> Option<f64> {
        let error = self.error.hypot(error);
        let seconds = self.read_at.abs_diff(read_at).as_secs_f64();
        (apart > one_light_within(error, UNSTEADY_SIGMAS, seconds)).then_some(apart)
    }

    /// This light, unsteady too if it `moved` (a share, 0 for not at all) before the read was
    /// done (see [`PaperLight::changed_since`]).
    pub fn moved_by(self, moved: f64) -> PaperLight {
        PaperLight {
            steady: self.steady && moved == 0.0,
            scatter: self.scatter.max(moved),
            moved,
            ..self
        }
    }

    /// True when this light was measured on enough empty squares to show a step in time (two
    /// read before it and two after), had there been one.
    pub fn tells_a_step(&self) -> bool {
        self.squares >= STEP_SQUARES
    }
}

/// The seconds between the first and the last of `ratios` read.
pub(super) fn time_spanned(ratios: &[PaperRatio]) -> f64 {
    let first = ratios.iter().map(|r| r.read_at).min().unwrap_or_default();
    let last = ratios.iter().map(|r| r.read_at).max().unwrap_or_default();
    (last - first).as_secs_f64()
}

/// How long the look that read `ratios` took from one row to the next, on average, in
/// seconds: 0 when they lie on one row.
pub(super) fn seconds_per_row(ratios: &[PaperRatio]) -> f64 {
    let rows = ratios.iter().map(|r| r.cell.row);
    match (rows.clone().min(), rows.max()) {
        (Some(first), Some(last)) if last > first => time_spanned(ratios) / (last - first) as f64,
        _ => 0.0,
    }
}

/// When the squares of `ratios` were read, on average.
pub(super) fn mean_read_at(ratios: &[PaperRatio]) -> Duration {
    ratios.iter().map(|r| r.read_at).sum::<Duration>() / ratios.len().max(1) as u32
}
