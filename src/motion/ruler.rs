//! The grid as a ruler: where a line the robot drew lies, from one sweep of the sensor across
//! it, so that a sheet knocked or a pinion that skipped teeth shows as the line's offset.
//!
//! Under a spot wider than the line, crossing it dims the reading by the length of the spot's
//! chord over the line: a dip as wide as the spot, rounded, deepest where the line crosses the
//! spot's centre. Its darkest reading alone places the line only to within the few degrees the
//! noise moves it; fitting the whole dip's shape to every reading of the crossing, as a
//! matched filter does, uses all of them. The paper's level and its slope are fitted with it,
//! so paper that is not equally white, or brightens from one side, does not move the line.

/// Where a crossing placed its line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineFix {
    /// The line's centre, in degrees of the swept axis.
    pub at_deg: f64,
    /// How much darker than the paper the line reads at its deepest, in percent.
    pub depth_percent: f64,
    /// That depth as a multiple of its own uncertainty, from the fit's residuals: how sure the
    /// fit is that it found a line at all.
    pub sigmas: f64,
    /// How far the line's centre may be from `at_deg`, one standard deviation, in degrees:
    /// half the stretch of centres whose fit leaves no more than one noise variance more
    /// unexplained than the best (the profile likelihood's one-sigma interval). How precisely
    /// it was placed, where `sigmas` says whether there is a line at all.
    pub uncertainty_deg: f64,
}

/// The dip a line makes under a spot `spot_deg` across when the spot's centre is `x` degrees
/// from it: the spot's chord there, as a share of its diameter.
fn chord(x: f64, spot_deg: f64) -> f64 {
    let r = 2.0 * x / spot_deg;
    if r.abs() >= 1.0 {
        0.0
    } else {
        (1.0 - r * r).sqrt()
    }
}

/// Fits a line's dip to `readings` (position along the sweep in degrees, percent), its centre
/// within `search_deg` of `drawn_deg`: the centre, in steps of a quarter degree, where the
/// least-squares fit of paper level minus a depth times the dip's shape leaves the least.
/// `None` when no centre there fits a dip darker than the paper, or too few readings fall
/// under the dip to fit it (fewer than six).
pub fn locate_line(
    readings: &[(f64, f64)],
    drawn_deg: f64,
    search_deg: f64,
    spot_deg: f64,
) -> Option<LineFix> {
    let steps = (search_deg * 4.0).round() as i32;
    let crossing = Crossing::new(readings, spot_deg)?;
    // Every candidate centre's fit: (centre, depth, what the dip leaves unexplained).
    let mut fits: Vec<(f64, f64, f64)> = Vec::new();
    let mut best: Option<(f64, LineFix)> = None;
    for step in -steps..=steps {
        let centre = drawn_deg + f64::from(step) / 4.0;
        let Some((depth, explained, residual, under)) = crossing.fit_at(centre) else {
            continue;
        };
        if depth <= 0.0 || under < 6 {
            continue;
        }
        fits.push((centre, depth, residual));
        if best.as_ref().is_none_or(|(most, _)| explained > *most) {
            let freedom = (readings.len() as f64 - 4.0).max(1.0);
            let noise = (residual / freedom).sqrt().max(0.5);
            // The depth's standard error: the noise over the spread of the dip's shape.
            let spread = (explained / (depth * depth)).sqrt();
            best = Some((
                explained,
                LineFix {
                    at_deg: centre,
                    depth_percent: depth,
                    sigmas: depth * spread / noise,
                    uncertainty_deg: 0.0,
                },
            ));
        }
    }
    let (_, mut fix) = best?;
    let least = fits.iter().find(|f| f.0 == fix.at_deg).map_or(0.0, |f| f.2);
    // The noise's variance, at least that of whole-percent steps (1/12): a fit through
    // noiseless readings is still only as sure as the rounding lets it be.
    let variance = (least / (readings.len() as f64 - 4.0).max(1.0)).max(1.0 / 12.0);
    let scanned: Vec<(f64, f64)> = fits.iter().map(|f| (f.0, f.2)).collect();
    // The grid of centres is a quarter degree apart: no fit is placed finer than that.
    fix.uncertainty_deg = one_sigma(&scanned, fix.at_deg, least + variance).max(0.125);
    Some(fix)
}

/// One line placed from several crossings of it, each a fit and whether it ran away from the
/// axis's zero: the place and its one standard deviation, in degrees. `None` unless crossings
/// ran both ways.
///
/// Each way's crossings are weighed by their fits' precision, and the line lies midway between
/// the two ways' places: a reading's age and the gears' play put a line late in the direction
/// of travel, and a read of three rows crosses each line twice one way and once the other, so
/// a mean over all three would keep a third of that lateness. A way's place is as uncertain
/// as its fits say, or as their scatter about it says where that is more (the fits' own figure
/// is optimistic: it knows nothing of the readings' ages), and the midway place half the two
/// ways' together.
pub fn place_from_both_ways(fixes: &[(LineFix, bool)]) -> Option<(f64, f64)> {
    let one_way = |away: bool| {
        let way: Vec<(f64, f64)> = fixes
            .iter()
            .filter(|(_, a)| *a == away)
            .map(|(fix, _)| (fix.at_deg, fix.uncertainty_deg.powi(-2)))
            .collect();
        let weight: f64 = way.iter().map(|(_, w)| w).sum();
        if weight <= 0.0 {
            return None;
        }
        let at = way.iter().map(|(x, w)| w * x).sum::<f64>() / weight;
        let scatter = if way.len() > 1 {
            way.iter().map(|(x, w)| w * (x - at).powi(2)).sum::<f64>()
                / weight
                / (way.len() - 1) as f64
        } else {
            0.0
        };
        Some((at, scatter.max(1.0 / weight)))
    };
    let ((away, away_variance), (back, back_variance)) = (one_way(true)?, one_way(false)?);
    Some((
        (away + back) / 2.0,
        (away_variance + back_variance).sqrt() / 2.0,
    ))
}

/// Half the stretch of the values in `scanned` (value, what its fit leaves unexplained) whose
/// fit leaves at most `bound`, around `best`: the profile likelihood's one standard deviation
/// when `bound` is the least left plus one noise variance.
pub(crate) fn one_sigma(scanned: &[(f64, f64)], best: f64, bound: f64) -> f64 {
    let (low, high) = scanned
        .iter()
        .filter(|f| f.1 <= bound)
        .fold((best, best), |(l, h), f| (l.min(f.0), h.max(f.0)));
    (high - low) / 2.0
}

/// `deg` in quarter degrees, when it is a whole number of them (and not absurdly far).
fn whole_quarters(deg: f64) -> Option<i64> {
    let quarters = deg * 4.0;
    (quarters.fract() == 0.0 && quarters.abs() < 1e15).then_some(quarters as i64)
}

/// One crossing's readings, prepared once for the fits at every candidate centre. On the
/// EV3's ARM926, which has no FPU, every f64 operation is a library call: fitting each centre
/// afresh over every reading took 59 % of the program's own instructions over a whole game
/// (`scripts/arm-instructions.sh`). What does not depend on the centre (the readings' means,
/// their spread, the paper's slope) is summed here once; a centre's fit then sums only the
/// readings under its spot, and takes the dip's shape from a table.
struct Crossing {
    /// (position, its difference from the mean position, the reading's from the mean
    /// reading), sorted by position.
    readings: Vec<(f64, f64, f64)>,
    /// Each of `readings`' positions in quarter degrees, when it is a whole number of them:
    /// the shape's place in the table is then found in integers, which the ARM926 has.
    quarters: Vec<Option<i64>>,
    n: f64,
    /// The sums of those differences (zero but for rounding), and of their squares and
    /// products: the centred sums of squares of the positions and readings.
    sum_dx: f64,
    sum_dv: f64,
    sxx: f64,
    sxv: f64,
    svv: f64,
    spot_deg: f64,
    /// The dip's shape at every quarter degree from its middle to its edge: readings are taken
    /// at whole degrees of a motor and centres are tried a quarter degree apart, so this is
    /// every value the fits need.
    quarter_chords: Vec<f64>,
}

impl Crossing {
    /// `None` for fewer than four readings: too few to fit a level, a slope and a dip.
    fn new(readings: &[(f64, f64)], spot_deg: f64) -> Option<Crossing> {
        if readings.len() < 4 {
            return None;
        }
        let n = readings.len() as f64;
        let mean_at = readings.iter().map(|r| r.0).sum::<f64>() / n;
        let mean_percent = readings.iter().map(|r| r.1).sum::<f64>() / n;
        let mut sorted: Vec<(f64, f64, f64)> = readings
            .iter()
            .map(|&(at, percent)| (at, at - mean_at, percent - mean_percent))
            .collect();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
        let sum = |f: &dyn Fn(&(f64, f64, f64)) -> f64| sorted.iter().map(f).sum::<f64>();
        let quarters = (spot_deg * 2.0).ceil().max(0.0) as usize + 1;
        Some(Crossing {
            quarters: sorted.iter().map(|r| whole_quarters(r.0)).collect(),
            sum_dx: sum(&|r| r.1),
            sum_dv: sum(&|r| r.2),
            sxx: sum(&|r| r.1 * r.1),
            sxv: sum(&|r| r.1 * r.2),
            svv: sum(&|r| r.2 * r.2),
            readings: sorted,
            n,
            spot_deg,
            quarter_chords: (0..quarters)
                .map(|k| chord(k as f64 / 4.0, spot_deg))
                .collect(),
        })
    }

    /// The dip's shape at `at` for a line at `centre`, `quarters` quarter degrees apart when
    /// that is known: from the table then (it holds exactly what [`chord`] gives there, and 0
    /// beyond the spot's edge, as [`chord`] does), with no floating-point arithmetic at all.
    fn shape(&self, at: f64, centre: f64, quarters: Option<i64>) -> f64 {
        match quarters {
            Some(q) => {
                let table = usize::try_from(q.unsigned_abs()).ok();
                table.map_or(0.0, |i| self.quarter_chords.get(i).copied().unwrap_or(0.0))
            }
            None => chord(at - centre, self.spot_deg),
        }
    }

    /// The least-squares fit of `percent = paper + slope * position - depth * chord(position -
    /// centre)`: the depth, the sum of squares the dip explains beyond the paper's level and
    /// slope, what is left, and how many readings fall under it. The slope is there because
    /// paper is not equally white: lit from one side, or shaded, it brightens across a crossing
    /// by as much as the dip is deep, and a level alone then pulls the fitted centre toward the
    /// darker side by a different amount at every crossing. Measured in the simulator, whose
    /// paper varies by 6 % across the sheet: with a level alone the same line was found up to
    /// 3.75 degrees (0.8 mm) apart between one pair of squares and the next, with the slope
    /// within a degree.
    fn fit_at(&self, centre: f64) -> Option<(f64, f64, f64, usize)> {
        // Only the readings under the spot have a shape; a degree more each way leaves the
        // edge's rounding to the shape itself.
        let reach = self.spot_deg / 2.0 + 1.0;
        let (low, high) = (centre - reach, centre + reach);
        let from = self.readings.partition_point(|r| r.0 < low);
        let to = self.readings.partition_point(|r| r.0 <= high);
        let centre_quarters = whole_quarters(centre);
        let (mut sum_w, mut sum_xw, mut sum_ww, mut sum_wv, mut under) = (0.0, 0.0, 0.0, 0.0, 0);
        for (&(at, dx, dv), &at_quarters) in
            self.readings[from..to].iter().zip(&self.quarters[from..to])
        {
            let quarters = at_quarters
                .zip(centre_quarters)
                .map(|(at, centre)| at - centre);
            let w = self.shape(at, centre, quarters);
            // The shape is never negative: a zero's bits are all clear, found without a
            // floating-point comparison.
            if w.to_bits() == 0 {
                continue;
            }
            under += 1;
            sum_w += w;
            sum_xw += dx * w;
            sum_ww += w * w;
            sum_wv += w * dv;
        }
        // Centred on the shape's mean: the sums over every reading, those outside the spot
        // adding nothing but the mean.
        let mean_shape = sum_w / self.n;
        let sxw = sum_xw - mean_shape * self.sum_dx;
        let sww = sum_ww - sum_w * mean_shape;
        let swv = sum_wv - mean_shape * self.sum_dv;
        let (sxx, sxv, svv) = (self.sxx, self.sxv, self.svv);
        // The paper's slope taken out of the shape and the readings first.
        let (sww, swv, svv) = if sxx > f64::EPSILON {
            (
                sww - sxw * sxw / sxx,
                swv - sxw * sxv / sxx,
                svv - sxv * sxv / sxx,
            )
        } else {
            (sww, swv, svv)
        };
        if sww <= f64::EPSILON {
            return None;
        }
        // The slope against the shape is minus the depth: the line darkens.
        let depth = -swv / sww;
        let explained = swv * swv / sww;
        Some((depth, explained, (svv - explained).max(0.0), under))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// A sweep across a line at `line_deg` every `step_deg` from -60 to 60, paper at 70 %
    /// drifting by `drift` percent over the sweep, the line dimming a 56-degree spot by 8 %
    /// at most, and `noise(i)` added to the i-th reading.
    fn crossing(
        line_deg: f64,
        step_deg: f64,
        drift: f64,
        noise: impl Fn(usize) -> f64,
    ) -> Vec<(f64, f64)> {
        let count = (120.0 / step_deg) as usize;
        (0..=count)
            .map(|i| {
                let at = -60.0 + i as f64 * step_deg;
                let paper = 70.0 + drift * at / 120.0;
                let percent = paper - 8.0 * chord(at - line_deg, 56.0) + noise(i);
                (at, percent.round())
            })
            .collect()
    }

    #[test]
    fn a_clean_crossing_places_the_line_within_a_degree() {
        for line in [-12.0, 0.0, 7.5, 14.0] {
            let fix = locate_line(&crossing(line, 4.0, 0.0, |_| 0.0), 0.0, 20.0, 56.0).unwrap();
            assert!((fix.at_deg - line).abs() <= 1.0, "{line}: {fix:?}");
            assert!((fix.depth_percent - 8.0).abs() < 1.0, "{fix:?}");
        }
    }

    #[test]
    fn noise_and_paper_that_drifts_move_the_line_by_little() {
        // Noise of +-2 % (a fixed, irregular pattern) and paper 3 % whiter at one end.
        let noise = |i: usize| [1.6, -1.9, 0.4, -0.8, 2.0, -1.2, 0.9, -0.3, 1.1, -2.0][i % 10];
        let fix = locate_line(&crossing(5.0, 4.0, 3.0, noise), 0.0, 20.0, 56.0).unwrap();
        assert!((fix.at_deg - 5.0).abs() <= 3.0, "{fix:?}");
        assert!(fix.sigmas > 6.0, "{fix:?}");
    }

    #[test]
    fn paper_brightening_across_the_crossing_as_much_as_the_dip_is_deep_leaves_the_line_put() {
        // Paper 8 % whiter at one end of the sweep than the other: as much as the dip.
        for line in [-10.0, 0.0, 10.0] {
            let fix = locate_line(&crossing(line, 2.0, 8.0, |_| 0.0), 0.0, 20.0, 56.0).unwrap();
            assert!((fix.at_deg - line).abs() <= 0.5, "{line}: {fix:?}");
        }
    }

    #[test]
    fn blank_paper_shows_no_line_it_could_be_sure_of() {
        let noise = |i: usize| [1.6, -1.9, 0.4, -0.8, 2.0, -1.2, 0.9, -0.3, 1.1, -2.0][i % 10];
        let paper: Vec<(f64, f64)> = (0..=30)
            .map(|i| (-60.0 + 4.0 * f64::from(i), 70.0 + noise(i as usize)))
            .collect();
        let sure = locate_line(&paper, 0.0, 20.0, 56.0).is_some_and(|fix| fix.sigmas >= 6.0);
        assert!(!sure);
    }

    /// The straightforward fit the prepared one must agree with: every reading's shape
    /// computed afresh for the centre, every sum taken over every reading.
    fn fit_afresh(readings: &[(f64, f64)], centre: f64, spot_deg: f64) -> Option<(f64, f64)> {
        let n = readings.len() as f64;
        let shapes: Vec<f64> = readings
            .iter()
            .map(|r| chord(r.0 - centre, spot_deg))
            .collect();
        let mean_at = readings.iter().map(|r| r.0).sum::<f64>() / n;
        let mean_shape = shapes.iter().sum::<f64>() / n;
        let mean_percent = readings.iter().map(|r| r.1).sum::<f64>() / n;
        let (mut sxx, mut sxw, mut sxv, mut sww, mut swv) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for (w, &(x, v)) in shapes.iter().zip(readings) {
            let (dx, dw, dv) = (x - mean_at, w - mean_shape, v - mean_percent);
            (sxx, sxw, sxv) = (sxx + dx * dx, sxw + dx * dw, sxv + dx * dv);
            (sww, swv) = (sww + dw * dw, swv + dw * dv);
        }
        let sww = sww - sxw * sxw / sxx;
        let swv = swv - sxw * sxv / sxx;
        (sww > f64::EPSILON).then(|| (-swv / sww, swv * swv / sww))
    }

    #[test]
    fn the_prepared_fit_finds_the_line_and_depth_that_fitting_every_reading_afresh_finds() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(32);
        for case in 0..200 {
            let line = rng.random_range(-15.0..15.0);
            let spot = [56.0, 28.0, 80.5][case % 3];
            // Whole degrees, as a motor reports them, and (every fourth case) positions in
            // between, which the table does not hold.
            let noise: Vec<f64> = (0..=120).map(|_| rng.random_range(-3.0..3.0)).collect();
            let mut readings = crossing(line, 1.0 + (case % 4) as f64, 4.0, |i| noise[i]);
            if case % 4 == 3 {
                readings.iter_mut().for_each(|r| r.0 += 0.37);
            }
            // Out and back, as the ruler crosses: every position read twice or more, with
            // noise of its own each time.
            for _ in 0..case % 3 {
                let back: Vec<(f64, f64)> = readings
                    .iter()
                    .rev()
                    .map(|&(at, percent)| (at, percent + rng.random_range(-3.0..3.0)))
                    .collect();
                readings.extend(back);
            }
            let Some(fix) = locate_line(&readings, 0.0, 20.0, spot) else {
                continue;
            };
            let afresh = (-80..=80)
                .filter_map(|step| {
                    let centre = f64::from(step) / 4.0;
                    fit_afresh(&readings, centre, spot)
                        .map(|(depth, explained)| (centre, depth, explained))
                })
                .filter(|f| f.1 > 0.0)
                .max_by(|a, b| a.2.total_cmp(&b.2))
                .unwrap();
            assert_eq!(fix.at_deg, afresh.0, "case {case}");
            assert!(
                (fix.depth_percent - afresh.1).abs() < 1e-9,
                "case {case}: {fix:?} {afresh:?}"
            );
        }
    }

    fn fix(at_deg: f64, uncertainty_deg: f64) -> LineFix {
        LineFix {
            at_deg,
            depth_percent: 8.0,
            sigmas: 20.0,
            uncertainty_deg,
        }
    }

    #[test]
    fn crossings_both_ways_place_a_line_midway_between_the_ways_not_at_the_mean_of_all() {
        // Two crossings away from the zero see the line 1 degree late, one coming back sees it
        // 1 degree late the other way: the line is at 0, where the mean of the three says 1/3.
        let fixes = [
            (fix(1.0, 0.2), true),
            (fix(-1.0, 0.2), false),
            (fix(1.0, 0.2), true),
        ];
        let (at, uncertainty) = place_from_both_ways(&fixes).unwrap();
        assert!(at.abs() < 1e-12, "{at}");
        // Away: two crossings, variance 0.02; back: one, 0.04; midway: sqrt(0.06) / 2.
        assert!(
            (uncertainty - 0.06f64.sqrt() / 2.0).abs() < 1e-12,
            "{uncertainty}"
        );
    }

    #[test]
    fn a_surer_crossing_weighs_more_within_its_way() {
        let fixes = [
            (fix(2.0, 0.1), true),
            (fix(0.0, 0.3), true),
            (fix(1.0, 0.2), false),
        ];
        let (at, _) = place_from_both_ways(&fixes).unwrap();
        // Away: (2 * 100 + 0 * 11.1) / 111.1 = 1.8; back: 1.0.
        assert!((at - 1.4).abs() < 1e-9, "{at}");
    }

    #[test]
    fn crossings_of_one_way_that_disagree_more_than_their_fits_say_make_the_place_less_sure() {
        let agreeing = [
            (fix(1.0, 0.2), true),
            (fix(1.0, 0.2), true),
            (fix(-1.0, 0.2), false),
        ];
        let disagreeing = [
            (fix(0.0, 0.2), true),
            (fix(2.0, 0.2), true),
            (fix(-1.0, 0.2), false),
        ];
        let (at, sure) = place_from_both_ways(&agreeing).unwrap();
        let (same_at, unsure) = place_from_both_ways(&disagreeing).unwrap();
        assert!((at - same_at).abs() < 1e-12);
        // Away: the two lie 1 degree either side of their mean, a variance of the mean of 1
        // where the fits say 0.02; back: 0.04.
        assert!((unsure - 1.04f64.sqrt() / 2.0).abs() < 1e-12, "{unsure}");
        assert!(unsure > 4.0 * sure, "{sure} {unsure}");
    }

    #[test]
    fn crossings_one_way_only_place_no_line() {
        let fixes = [(fix(1.0, 0.2), true), (fix(1.2, 0.2), true)];
        assert_eq!(place_from_both_ways(&fixes), None);
        assert_eq!(place_from_both_ways(&[]), None);
    }
}
