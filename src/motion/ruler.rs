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
    // Every candidate centre's fit: (centre, depth, what the dip leaves unexplained).
    let mut fits: Vec<(f64, f64, f64)> = Vec::new();
    let mut best: Option<(f64, LineFix)> = None;
    for step in -steps..=steps {
        let centre = drawn_deg + f64::from(step) / 4.0;
        let Some((depth, explained, residual, under)) = fit_at(readings, centre, spot_deg) else {
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

/// The least-squares fit of `percent = paper + slope * position - depth * chord(position -
/// centre)`: the depth, the sum of squares the dip explains beyond the paper's level and
/// slope, what is left, and how many readings fall under it. The slope is there because paper
/// is not equally white: lit from one side, or shaded, it brightens across a crossing by as
/// much as the dip is deep, and a level alone then pulls the fitted centre toward the darker
/// side by a different amount at every crossing. Measured in the simulator, whose paper
/// varies by 6 % across the sheet: with a level alone the same line was found up to 3.75
/// degrees (0.8 mm) apart between one pair of squares and the next, with the slope within a
/// degree.
fn fit_at(readings: &[(f64, f64)], centre: f64, spot_deg: f64) -> Option<(f64, f64, f64, usize)> {
    let n = readings.len() as f64;
    if readings.len() < 4 {
        return None;
    }
    let shapes: Vec<f64> = readings
        .iter()
        .map(|&(at, _)| chord(at - centre, spot_deg))
        .collect();
    let under = shapes.iter().filter(|&&w| w > 0.0).count();
    let mean = |f: &dyn Fn(usize) -> f64| (0..readings.len()).map(f).sum::<f64>() / n;
    let mean_at = mean(&|i| readings[i].0);
    let mean_shape = mean(&|i| shapes[i]);
    let mean_percent = mean(&|i| readings[i].1);
    let (mut sxx, mut sxw, mut sxv, mut sww, mut swv, mut svv) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    for (w, &(x, v)) in shapes.iter().zip(readings) {
        let (dx, dw, dv) = (x - mean_at, w - mean_shape, v - mean_percent);
        sxx += dx * dx;
        sxw += dx * dw;
        sxv += dx * dv;
        sww += dw * dw;
        swv += dw * dv;
        svv += dv * dv;
    }
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
