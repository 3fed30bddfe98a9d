//! The robot's own eye, measured on every sheet from the grid it has just drawn.
//!
//! Why: `sensing.spot_mm` is a guess from a person's ruler, and the footprint changes with the
//! sensor's height (6 mm nearly touching, 12 mm and more a centimetre up: `docs/sensor.md`). A
//! spot believed twice its size reads only the middle of each square and misses a small O's
//! ring; one believed half its size lets the grid's lines into the windows. The grid is a
//! known target: lines of the robot's own pen, `pen.line_mm` wide, crossed by every row of
//! the blank read.
//!
//! How: a line `w` wide under a round spot `d` across darkens a reading by the share of the
//! spot it covers (a strip through a disc, [`strip_cover`]) times the ink's contrast. The
//! dip's width says the spot (it spans `d + w`), its depth for that spot says the ink (the
//! deeper, the darker), and both come from one least-squares fit: each crossing gets its own
//! paper level and slope and a depth, the spot is shared, and the spot is the one whose dips
//! leave the least unexplained. Its uncertainty is the stretch of spots that leave no more
//! than one noise variance more (the profile likelihood's one sigma), as the ruler places a
//! line.
//!
//! What it assumes: a spot that weighs the paper evenly over a disc. A real LED's spot may be
//! brighter in its middle; the disc fitted to a spot whose weight falls to nothing at its rim
//! (a paraboloid) is four fifths of the rim's width (12.5 mm of 16: the tests below). A 1 mm
//! black line in the ring outside it darkens such a spot by about 1 %, under the sensor's
//! noise, so reading windows set by the fitted disc stay clear of the grid.

use super::super::ruler;
use crate::physical::strip_cover;
use std::collections::HashMap;

/// One sweep across one grid line: each reading's place along the sweep (degrees) and value
/// (percent), and where the line was drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct LineCrossing {
    pub readings: Vec<(f64, f64)>,
    pub drawn_deg: f64,
}

/// What the grid's crossings say of the sensor and the robot's ink.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EyeMeasure {
    /// The spot's diameter on the paper.
    pub spot_mm: f64,
    /// One standard deviation of it.
    pub spot_uncertainty_mm: f64,
    /// How much darker than the paper the robot's ink reads where it lies, from 0 (no ink) to
    /// 1 (black): `1 - ink / paper`, the median over the crossings.
    pub ink_contrast: f64,
    /// The crossings that showed a line, out of those offered.
    pub crossings: usize,
    pub offered: usize,
    /// The dips ran on as far as the readings reach on either side of a line: the spot is at
    /// least `spot_mm` across, and may be wider.
    pub at_least: bool,
}

/// The spots tried, in mm: the range `sensing.spot_mm` accepts.
const SMALLEST_SPOT_MM: f64 = 2.0;
const LARGEST_SPOT_MM: f64 = 30.0;

/// A crossing shows a line when its fit is this many standard deviations deep: the ruler's
/// own test (see `gantry::line_crossing`), so paper's unevenness is never measured as ink.
const LINE_SIGMAS: f64 = 6.0;

/// Paper must be read at least this far beyond the dip on either side, in mm, for a spot to
/// be judged: without it a wider dip could hide in the level and slope.
const PAPER_BEYOND_MM: f64 = 1.0;

/// A measure is acted on when at least this many crossings showed the line, its spot is
/// known to within [`TRUSTED_SHARE`] of itself (or [`TRUSTED_MM`], whichever is more) and
/// its best fit is not at the end of the spots the readings could judge. With the default
/// 12 mm spot, 3 % noise and the blank read's six crossings the uncertainty measured about
/// 0.3 mm; a tenth keeps a misfit (a smudge on a line, a shadow) from moving the windows.
const TRUSTED_CROSSINGS: usize = 3;
const TRUSTED_SHARE: f64 = 0.1;
const TRUSTED_MM: f64 = 0.5;

impl EyeMeasure {
    /// Sure enough to read by: at least three crossings, and the spot known to a tenth of
    /// itself or half a millimetre.
    /// A spot known only to be at least so wide is read by as that wide: nearer the truth
    /// than a guess it has just shown too narrow.
    pub fn trusted(&self) -> bool {
        self.crossings >= TRUSTED_CROSSINGS
            && (self.at_least
                || self.spot_uncertainty_mm <= (self.spot_mm * TRUSTED_SHARE).max(TRUSTED_MM))
            && self.ink_contrast > 0.0
    }
}

/// Each line is placed first as under each of these spots, in mm, keeping the place the
/// surest of them gives: the sensor's smallest footprint (its LED and photodiode are 5.5 mm
/// apart: `docs/sensor.md`), the default's 12 mm less a sixth, and the widest the blank read's
/// crossings can judge. One shape will not do: a shape much narrower than the dip fits it too
/// weakly (a 14 mm spot's line placed with a 6 mm shape: 5.6 standard deviations, under the
/// six a line needs), one much wider fits best where it runs off the readings (a 9 mm spot's
/// line put at the edge of the search by a 20 mm shape).
const PLACING_SPOTS_MM: [f64; 3] = [6.0, 10.0, 16.0];

/// Measures the spot and the ink from `crossings` of lines `line_mm` wide, each reading
/// `mm_per_deg` mm a degree along the sweep, each line looked for within `search_deg` of
/// where it was drawn. `None` when fewer than two crossings show a line, or their readings
/// are too short to judge any spot.
pub fn measure_eye(
    crossings: &[LineCrossing],
    mm_per_deg: f64,
    line_mm: f64,
    search_deg: f64,
) -> Option<EyeMeasure> {
    let placed = |spots_mm: &[f64]| -> Vec<(&LineCrossing, f64)> {
        crossings
            .iter()
            .filter_map(|crossing| {
                let fix = spots_mm
                    .iter()
                    .filter_map(|&spot_mm| {
                        ruler::locate_line(
                            &crossing.readings,
                            crossing.drawn_deg,
                            search_deg,
                            spot_mm / mm_per_deg,
                        )
                    })
                    .max_by(|a, b| a.sigmas.total_cmp(&b.sigmas))?;
                // A best fit at the edge of the search is a line beyond it or noise, not a
                // place (measured: one such crossing at 4 % noise cut the spots the others
                // could judge to 12.8 mm, and a 12 mm spot was read as "at least 12.8").
                let inside = (fix.at_deg - crossing.drawn_deg).abs() < search_deg - 1.0;
                (fix.sigmas >= LINE_SIGMAS && inside).then_some((crossing, fix.at_deg))
            })
            .collect()
    };
    let first = placed(&PLACING_SPOTS_MM);
    if first.len() < 2 {
        return None;
    }
    // Both scans and the contrast try many of the same spots: each spot's covers are kept
    // for them all.
    let mut spot_covers = SpotCovers {
        mm_per_deg,
        line_mm,
        by_spot: HashMap::new(),
    };
    let guess = best_spot(&first, &mut spot_covers)?;
    // Placed again with the spot just found, then the spot measured on those places; unless
    // it is only a least width, whose shape runs off the readings and places nothing well.
    let lines = if guess.at_least {
        first
    } else {
        placed(&[guess.mm])
    };
    if lines.len() < 2 {
        return None;
    }
    let SpotFit {
        mm: spot_mm,
        uncertainty_mm: spot_uncertainty_mm,
        at_least,
    } = best_spot(&lines, &mut spot_covers)?;
    let covers = spot_covers.of(spot_mm);
    let mut contrasts: Vec<f64> = lines
        .iter()
        .filter_map(|&(crossing, centre)| {
            let fit = fit_dip(&crossing.readings, centre, covers)?;
            (fit.level > 0.0).then(|| fit.depth / fit.level)
        })
        .collect();
    contrasts.sort_by(f64::total_cmp);
    let ink_contrast = *contrasts.get(contrasts.len() / 2)?;
    Some(EyeMeasure {
        spot_mm,
        spot_uncertainty_mm,
        ink_contrast,
        crossings: lines.len(),
        offered: crossings.len(),
        at_least,
    })
}

/// The spot that fits the dips best.
struct SpotFit {
    mm: f64,
    /// One standard deviation (see [`best_spot`]).
    uncertainty_mm: f64,
    /// The best fit is the widest spot the readings can judge: the spot may be wider still.
    at_least: bool,
}

/// The spot whose dips at `lines`' centres leave the least unexplained, and its one-sigma
/// half-width: first in whole millimetres, then in tenths around the best.
fn best_spot(lines: &[(&LineCrossing, f64)], spot_covers: &mut SpotCovers) -> Option<SpotFit> {
    let (mm_per_deg, line_mm) = (spot_covers.mm_per_deg, spot_covers.line_mm);
    // The widest dip every crossing has paper beyond on both sides.
    let widest = lines
        .iter()
        .filter_map(|&(crossing, centre)| {
            let (low, high) = crossing
                .readings
                .iter()
                .fold((f64::MAX, f64::MIN), |(l, h), r| (l.min(r.0), h.max(r.0)));
            let room_mm = (centre - low).min(high - centre) * mm_per_deg - PAPER_BEYOND_MM;
            (room_mm > 0.0).then_some(2.0 * room_mm - line_mm)
        })
        .fold(f64::MAX, f64::min)
        .min(LARGEST_SPOT_MM);
    if widest < SMALLEST_SPOT_MM {
        return None;
    }
    let mut unexplained = |spot_mm: f64| -> Option<f64> {
        let covers = spot_covers.of(spot_mm);
        lines
            .iter()
            .map(|&(crossing, centre)| {
                fit_dip(&crossing.readings, centre, covers).map(|fit| fit.residual)
            })
            .sum()
    };
    let mut scan = |from: f64, to: f64, step: f64| -> Vec<(f64, f64)> {
        let steps = ((to - from) / step).round() as i32;
        (0..=steps)
            .map(|i| from + f64::from(i) * step)
            .filter(|&spot| (SMALLEST_SPOT_MM..=widest + 1e-9).contains(&spot))
            .filter_map(|spot| unexplained(spot).map(|r| (spot, r)))
            .collect()
    };
    let least = |fits: &[(f64, f64)]| fits.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1));
    let (coarse, _) = least(&scan(SMALLEST_SPOT_MM, widest, 1.0))?;
    let fine = scan(coarse - 1.0, coarse + 1.0, 0.1);
    let (best, residual) = least(&fine)?;
    let readings: usize = lines.iter().map(|(c, _)| c.readings.len()).sum();
    let freedom = (readings as f64 - 4.0 * lines.len() as f64 - 1.0).max(1.0);
    // At least the variance of whole-percent steps, as the ruler's.
    let variance = (residual / freedom).max(1.0 / 12.0);
    Some(SpotFit {
        mm: best,
        uncertainty_mm: ruler::one_sigma(&fine, best, residual + variance).max(0.05),
        at_least: best > widest - 0.15,
    })
}

/// One crossing's least-squares fit of `percent = level + slope * (at - centre) - depth *
/// cover(at - centre)`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct DipFit {
    /// The paper's level under the line, in percent.
    level: f64,
    /// How much the ink would darken a spot it covered whole, in percent.
    depth: f64,
    /// The sum of squares left unexplained.
    residual: f64,
}

/// The share of a spot that a line covers, [`strip_cover`], kept for each quarter degree from
/// the line out to where the spot clears it as the fits ask for it: readings are taken at whole
/// degrees and lines placed a quarter degree apart, so the fits of every crossing for one spot
/// ask for the same few, and on the brick's FPU-less CPU each is two arcsines and two square
/// roots (measured: a quarter of the program's own instructions over a game went to them,
/// `scripts/arm-instructions.sh`).
struct Covers {
    mm_per_deg: f64,
    line_mm: f64,
    spot_mm: f64,
    /// The cover at `k / 4` degrees either side of the line for `k` in `0..=reach`, once asked
    /// for: a strip through the middle of a disc covers it alike at the same distance either
    /// side, and [`strip_cover`] gives the two bit for bit (its arcsine and square root are
    /// odd and even, IEEE arithmetic rounds a sum and its negation alike).
    quarters: Vec<Option<f64>>,
    reach: i64,
}

/// The [`Covers`] of every spot tried for one sheet's lines, by the spot's width.
struct SpotCovers {
    mm_per_deg: f64,
    line_mm: f64,
    by_spot: HashMap<u64, Covers>,
}

impl SpotCovers {
    /// The covers of a spot `spot_mm` wide, kept from any earlier fit with that spot.
    fn of(&mut self, spot_mm: f64) -> &mut Covers {
        let (mm_per_deg, line_mm) = (self.mm_per_deg, self.line_mm);
        self.by_spot
            .entry(spot_mm.to_bits())
            .or_insert_with(|| Covers::new(mm_per_deg, line_mm, spot_mm))
    }
}

impl Covers {
    fn new(mm_per_deg: f64, line_mm: f64, spot_mm: f64) -> Covers {
        let clear_deg = (spot_mm + line_mm) / 2.0 / mm_per_deg;
        let reach = (clear_deg * 4.0).ceil().clamp(0.0, 4096.0) as i64;
        Covers {
            mm_per_deg,
            line_mm,
            spot_mm,
            quarters: vec![None; reach as usize + 1],
            reach,
        }
    }

    /// The cover `x_deg` from the line: kept when `x_deg` is a whole number of quarter degrees
    /// (what [`strip_cover`] gives there, computed the first time).
    fn at(&mut self, x_deg: f64) -> f64 {
        let direct = |x_deg: f64| strip_cover(x_deg * self.mm_per_deg, self.line_mm, self.spot_mm);
        let quarters = x_deg * 4.0;
        if quarters.fract() != 0.0 || quarters.abs() > self.reach as f64 {
            return direct(x_deg);
        }
        let k = quarters.abs() as usize;
        match self.quarters[k] {
            Some(cover) => cover,
            None => {
                let cover = direct(x_deg);
                self.quarters[k] = Some(cover);
                cover
            }
        }
    }
}

fn fit_dip(readings: &[(f64, f64)], centre: f64, covers: &mut Covers) -> Option<DipFit> {
    if readings.len() < 6 {
        return None;
    }
    let n = readings.len() as f64;
    let covers: Vec<f64> = readings
        .iter()
        .map(|&(at, _)| covers.at(at - centre))
        .collect();
    let mean_x = readings.iter().map(|r| r.0 - centre).sum::<f64>() / n;
    let mean_c = covers.iter().sum::<f64>() / n;
    let mean_v = readings.iter().map(|r| r.1).sum::<f64>() / n;
    let (mut sxx, mut sxc, mut scc, mut sxv, mut scv, mut svv) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    for (&(at, v), &c) in readings.iter().zip(&covers) {
        let (dx, dc, dv) = (at - centre - mean_x, c - mean_c, v - mean_v);
        sxx += dx * dx;
        sxc += dx * dc;
        scc += dc * dc;
        sxv += dx * dv;
        scv += dc * dv;
        svv += dv * dv;
    }
    // Normal equations for the slope and the cover's coefficient (minus the depth).
    let det = sxx * scc - sxc * sxc;
    if det.abs() <= f64::EPSILON || scc <= f64::EPSILON {
        return None;
    }
    let slope = (sxv * scc - scv * sxc) / det;
    let k = (scv * sxx - sxv * sxc) / det;
    let explained = slope * sxv + k * scv;
    Some(DipFit {
        level: mean_v - slope * mean_x - k * mean_c,
        depth: -k,
        residual: (svv - explained).max(0.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MM_PER_DEG: f64 = 0.2133;

    /// A sweep across a line drawn at 100 degrees but lying `off_deg` from there, every
    /// degree from 50 to 150, paper at `paper` percent with `slope` percent a degree, under a
    /// spot whose weight at a share `rho` of its radius is `weight(rho)`, the ink reading
    /// `ink_of_paper` of the paper's light, and `noise(i)` on the i-th reading.
    fn crossing(
        spot_mm: f64,
        off_deg: f64,
        paper: f64,
        ink_of_paper: f64,
        weight: &dyn Fn(f64) -> f64,
        noise: &dyn Fn(usize) -> f64,
    ) -> LineCrossing {
        let line_mm = 1.0;
        let r = spot_mm / 2.0;
        // The spot summed on a raster a fifth of a mm fine.
        let cell = 0.2;
        let cells = (r / cell).ceil() as i32;
        let readings = (0..=100)
            .map(|i| {
                let at = 50.0 + f64::from(i);
                let from_line = (at - 100.0 - off_deg) * MM_PER_DEG;
                let (mut all, mut inked) = (0.0, 0.0);
                for y in -cells..=cells {
                    for x in -cells..=cells {
                        let (px, py) = (f64::from(x) * cell, f64::from(y) * cell);
                        let rho = px.hypot(py) / r;
                        if rho > 1.0 {
                            continue;
                        }
                        all += weight(rho);
                        if (px + from_line).abs() <= line_mm / 2.0 {
                            inked += weight(rho);
                        }
                    }
                }
                let dark = (1.0 - ink_of_paper) * inked / all;
                let percent = paper * (1.0 - dark) + noise(i as usize);
                (at, percent.round())
            })
            .collect();
        LineCrossing {
            readings,
            drawn_deg: 100.0,
        }
    }

    fn even(_: f64) -> f64 {
        1.0
    }

    /// Noise of about 2 % (one standard deviation), a fixed irregular pattern that differs
    /// from crossing to crossing.
    fn noise(seed: usize) -> impl Fn(usize) -> f64 {
        move |i| {
            let pattern = [
                1.6, -1.9, 0.4, -0.8, 2.9, -1.2, 0.9, -0.3, 1.1, -2.6, 3.1, -3.0, 0.2,
            ];
            pattern[(i * 7 + seed * 5) % pattern.len()] * 1.1
        }
    }

    fn six_crossings(
        spot_mm: f64,
        ink_of_paper: f64,
        weight: &dyn Fn(f64) -> f64,
    ) -> Vec<LineCrossing> {
        (0..6)
            .map(|k| {
                let off = [-3.0, 1.0, 2.5, -0.5, 4.0, 0.0][k];
                crossing(
                    spot_mm,
                    off,
                    64.0 + 2.0 * k as f64,
                    ink_of_paper,
                    weight,
                    &noise(k),
                )
            })
            .collect()
    }

    #[test]
    fn the_spot_and_the_ink_are_measured_from_a_spot_nearly_touching_to_one_a_centimetre_up() {
        for spot in [3.0, 5.5, 9.0, 12.0, 16.0] {
            let eye = measure_eye(
                &six_crossings(spot, 1.0 / 7.0, &even),
                MM_PER_DEG,
                1.0,
                20.0,
            )
            .unwrap_or_else(|| panic!("spot {spot}: no measure"));
            assert!(eye.trusted(), "spot {spot}: {eye:?}");
            assert!(
                (eye.spot_mm - spot).abs() <= 0.1 * spot,
                "spot {spot}: {eye:?}"
            );
            assert!(
                (eye.ink_contrast - 6.0 / 7.0).abs() <= 0.15,
                "spot {spot}: {eye:?}"
            );
            assert_eq!(eye.crossings, 6);
        }
    }

    #[test]
    fn a_pale_ink_measures_pale() {
        let eye = measure_eye(&six_crossings(8.0, 0.5, &even), MM_PER_DEG, 1.0, 20.0).unwrap();
        assert!((eye.ink_contrast - 0.5).abs() <= 0.1, "{eye:?}");
    }

    #[test]
    fn a_spot_brighter_in_its_middle_measures_as_a_disc_inside_its_rim() {
        // Weight falling from the middle to nothing at the rim (a paraboloid), 16 mm across:
        // measured 12.5 mm.
        let bell = |rho: f64| 1.0 - rho * rho;
        let eye = measure_eye(
            &six_crossings(16.0, 1.0 / 7.0, &bell),
            MM_PER_DEG,
            1.0,
            20.0,
        )
        .unwrap();
        assert!((11.0..14.0).contains(&eye.spot_mm), "{eye:?}");
    }

    #[test]
    fn blank_paper_measures_no_eye() {
        let blank = |k: usize| LineCrossing {
            readings: (0..=100)
                .map(|i| (50.0 + f64::from(i), (68.0 + noise(k)(i as usize)).round()))
                .collect(),
            drawn_deg: 100.0,
        };
        let crossings: Vec<LineCrossing> = (0..6).map(blank).collect();
        assert_eq!(measure_eye(&crossings, MM_PER_DEG, 1.0, 20.0), None);
    }

    #[test]
    fn readings_too_short_for_the_dip_say_only_how_wide_the_spot_is_at_least() {
        // Under a 16 mm spot the dip spans 80 degrees; a crossing 40 degrees either side of
        // the line cannot tell it from a wider one, only that it is wider than it can judge.
        let short: Vec<LineCrossing> = six_crossings(16.0, 1.0 / 7.0, &even)
            .into_iter()
            .map(|mut c| {
                c.readings.retain(|r| (r.0 - 100.0).abs() <= 40.0);
                c
            })
            .collect();
        let eye = measure_eye(&short, MM_PER_DEG, 1.0, 20.0).unwrap();
        assert!(eye.at_least && eye.trusted(), "{eye:?}");
        assert!((8.0..16.0).contains(&eye.spot_mm), "{eye:?}");
        let whole = measure_eye(
            &six_crossings(16.0, 1.0 / 7.0, &even),
            MM_PER_DEG,
            1.0,
            20.0,
        );
        assert!(whole.is_some_and(|eye| !eye.at_least), "{whole:?}");
    }

    #[test]
    fn the_covers_kept_are_what_the_strip_cover_gives_on_and_between_quarter_degrees() {
        for spot_mm in [4.0, 12.0, 19.3] {
            let mut covers = Covers::new(MM_PER_DEG, 1.0, spot_mm);
            // Twice over: computed the first time, kept the second.
            for k in (-400..=400).chain(-400..=400) {
                for x in [f64::from(k) / 4.0, f64::from(k) / 4.0 + 0.1] {
                    let direct = strip_cover(x * MM_PER_DEG, 1.0, spot_mm);
                    assert_eq!(covers.at(x), direct, "{x} degrees under {spot_mm} mm");
                }
            }
        }
    }
}
