//! Seeing the robot's own marks: the robot knows exactly what it drew, where, and with what
//! pen, so it can say how much of the sensor's spot its ink should cover at every point of a
//! sweep, and ask how well the readings fit that shape (a matched filter).
//!
//! Why not the test a person's mark gets: a person's mark is unknown, so it is judged by how
//! dark and how unlikely its darkest stretch is. The robot's O is a ring, and a sweep along the
//! square's centre line crosses it only near the square's edges, or, under a spot wider than
//! the ring's gap, never squarely: the darkest stretch of such a line is faint, and the O was
//! taken for missing although the pen had inked it. Fitted to the shape the ring should make,
//! every reading counts: the fit weighs each reading by how much ink should be under the spot
//! there, and the line to sweep is the one where the mark's ink should show most.
//!
//! The fit's answer is the ink's contrast (how much darker than the paper the ink is where it
//! lies: about 0.85 for a black marker on white paper, 0 for no ink) with its standard
//! deviation, from the readings' noise and the blank level's.

use super::plan::Path;
use super::sensing::{BlankSquare, Sample};
use std::time::Duration;

/// The spot and the pen, in degrees of the axes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InkModel {
    /// Half the spot's diameter along each axis.
    pub spot_half_columns_deg: f64,
    pub spot_half_rows_deg: f64,
    /// Half the pen line's width.
    pub line_half_deg: f64,
}

impl InkModel {
    /// The share of the spot centred at (`columns`, `rows`) that the ink of `paths` covers,
    /// from 0 to 1, counted on a one-degree raster.
    pub fn cover(&self, paths: &[Path], columns: f64, rows: f64) -> f64 {
        let (rx, ry) = (self.spot_half_columns_deg, self.spot_half_rows_deg);
        let segments: Vec<((f64, f64), (f64, f64))> = paths
            .iter()
            .flat_map(|path| {
                let single = (path.len() == 1).then(|| (path[0], path[0]));
                path.windows(2).map(|w| (w[0], w[1])).chain(single)
            })
            .map(|(a, b)| {
                (
                    (f64::from(a.columns), f64::from(a.rows)),
                    (f64::from(b.columns), f64::from(b.rows)),
                )
            })
            // Only the strokes that reach the spot at all.
            .filter(|&(a, b)| {
                squared_distance_to_segment((columns, rows), a, b)
                    <= (rx.max(ry) + self.line_half_deg).powi(2)
            })
            .collect();
        // Squared distances throughout: this runs for every cell of the spot against every
        // stroke near it, on a brick whose CPU has no floating-point unit (measured: a fifth
        // of the program's own instructions over a game, `scripts/arm-instructions.sh`).
        let line_half2 = self.line_half_deg * self.line_half_deg;
        // A cell within the line's half width of a stroke lies in the stroke's box grown by
        // that much; the margin keeps rounding from leaving out a cell on the edge.
        let reach = self.line_half_deg + 1e-9;
        let boxes: Vec<(f64, f64, f64, f64)> = segments
            .iter()
            .map(|&(a, b)| {
                (
                    a.0.min(b.0) - reach,
                    a.0.max(b.0) + reach,
                    a.1.min(b.1) - reach,
                    a.1.max(b.1) + reach,
                )
            })
            .collect();
        let (mut inked, mut all) = (0u32, 0u32);
        let (cx, cy) = (rx.ceil() as i32, ry.ceil() as i32);
        let mut in_row: Vec<usize> = Vec::with_capacity(segments.len());
        for dy in -cy..=cy {
            let y = f64::from(dy);
            let row = rows + y;
            in_row.clear();
            in_row
                .extend((0..segments.len()).filter(|&i| (boxes[i].2..=boxes[i].3).contains(&row)));
            for dx in -cx..=cx {
                let x = f64::from(dx);
                if (x / rx).powi(2) + (y / ry).powi(2) > 1.0 {
                    continue;
                }
                all += 1;
                let p = (columns + x, row);
                if in_row.iter().any(|&i| {
                    let (a, b) = segments[i];
                    (boxes[i].0..=boxes[i].1).contains(&p.0)
                        && squared_distance_to_segment(p, a, b) <= line_half2
                }) {
                    inked += 1;
                }
            }
        }
        f64::from(inked) / f64::from(all.max(1))
    }

    /// Of the lines at rows `centre_rows + offset` for `offset` from `-most_offset` to
    /// `most_offset`, swept over `window` of columns, those along which `paths` should show
    /// best (the sum of the squared covers, which sets how far the fit stands out of the
    /// noise), best first: the best, and its mirror image if that does nearly as well (an O's
    /// top and bottom).
    pub fn best_lines(
        &self,
        paths: &[Path],
        window: (i32, i32),
        centre_rows: i32,
        most_offset: i32,
    ) -> Vec<i32> {
        let strength = |offset: i32| -> f64 {
            (window.0..=window.1)
                .step_by(2)
                .map(|columns| {
                    self.cover(paths, f64::from(columns), f64::from(centre_rows + offset))
                        .powi(2)
                })
                .sum()
        };
        let step = (most_offset / 6).max(1) as usize;
        let mut scored: Vec<(i32, f64)> = (-most_offset..=most_offset)
            .step_by(step)
            .map(|offset| (offset, strength(offset)))
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.abs().cmp(&b.0.abs())));
        let Some(&(best, top)) = scored.first() else {
            return vec![centre_rows];
        };
        let mut lines = vec![centre_rows + best];
        if best != 0 {
            if let Some(&(_, mirror)) = scored.iter().find(|(offset, _)| *offset == -best) {
                if mirror >= 0.8 * top {
                    lines.push(centre_rows - best);
                }
            }
        }
        lines
    }
}

/// What the readings along some lines say of a mark the robot drew there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OwnInkFit {
    pub samples: usize,
    /// The most of the spot the mark should cover on these lines.
    pub peak_cover: f64,
    /// How much darker than the paper the ink is where it lies, as the readings fit it: about
    /// 0.85 for black marker on white paper, 0 where nothing was drawn.
    pub ink_contrast: f64,
    /// That contrast in units of its standard deviation.
    pub sigmas: f64,
    /// The least contrast that counts as the ink being there (see [`OWN_INK_SHARE`]).
    pub least_contrast: f64,
}

/// The fit must stand this many standard deviations out of the noise (as a faint mark must:
/// see [`super::sensing::FAINT_SIGMAS`]).
pub const OWN_INK_SIGMAS: f64 = super::sensing::FAINT_SIGMAS;

/// The least contrast the fitted ink may have, as a share of the contrast the robot's pen
/// showed on the sheet's grid (see [`crate::motion::sensing::measure_eye`]): about a third. A
/// pen running dry leaves a grey line, and still a mark a person reads; much paler, and the
/// fit is more likely paper that is a little darker where the mark is than ink.
pub const OWN_INK_SHARE: f64 = 0.35;

/// That share of black ink's contrast on white paper (`1 - 1/7`: `docs/sensor.md`), for a
/// sheet whose grid gave no measure.
pub const OWN_INK_CONTRAST: f64 = OWN_INK_SHARE * (1.0 - crate::physical::BLACK_INK_OF_PAPER);

impl OwnInkFit {
    /// Fits `samples` (each with the cover the mark should give it, `covers`) against the
    /// square's blank paper, read with a sensor that measures every `read_period`; the ink
    /// counts as seen from `least_contrast`. `None` when no reading should see any ink.
    pub fn of(
        blank: &BlankSquare,
        samples: &[Sample],
        covers: &[f64],
        read_period: Duration,
        least_contrast: f64,
    ) -> Option<OwnInkFit> {
        let level = blank.level.max(1.0);
        let (mut cd, mut cc, mut c_sum) = (0.0, 0.0, 0.0);
        for (sample, &c) in samples.iter().zip(covers) {
            let darker = (level - f64::from(sample.percent)) / level;
            cd += c * darker;
            cc += c * c;
            c_sum += c;
        }
        if cc <= 1e-9 {
            return None;
        }
        let ink_contrast = cd / cc;
        // A reading sooner than the sensor's period repeats the last: its noise is not new.
        let repeats = super::sensing::readings_per_measurement(samples, read_period);
        let reading_noise = blank.noise / level;
        // The blank level errs the same way for every reading.
        let level_noise = reading_noise * blank.level_variance_share().sqrt();
        let variance = reading_noise.powi(2) * repeats / cc + (level_noise * c_sum / cc).powi(2);
        Some(OwnInkFit {
            samples: samples.len(),
            peak_cover: covers.iter().copied().fold(0.0, f64::max),
            ink_contrast,
            sigmas: ink_contrast / variance.sqrt(),
            least_contrast,
        })
    }

    /// The ink is there: dark enough and far enough out of the noise.
    pub fn seen(&self) -> bool {
        self.ink_contrast >= self.least_contrast && self.sigmas >= OWN_INK_SIGMAS
    }

    /// "12 readings where the mark should cover up to 9 % of the spot: ink 0.82 as dark as a
    /// black marker would make it... ".
    pub fn describe(&self) -> String {
        format!(
            "{} readings where it should cover up to {:.0} % of the spot: they fit ink {:.0} % \
             darker than the paper, {:.1} times its noise",
            self.samples,
            self.peak_cover * 100.0,
            self.ink_contrast * 100.0,
            self.sigmas
        )
    }
}

/// The square of the shortest distance from `p` to the segment `a`-`b`.
fn squared_distance_to_segment(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let length2 = dx * dx + dy * dy;
    let t = if length2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / length2).clamp(0.0, 1.0)
    };
    let (ex, ey) = (p.0 - a.0 - t * dx, p.1 - a.1 - t * dy);
    ex * ex + ey * ey
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{AxisPoint, BoardGeometry};
    use crate::game::{Cell, Mark};
    use crate::motion::plan;

    /// A 12 mm spot and a 1 mm pen on the default gantry (0.2133 mm a degree).
    const MODEL: InkModel = InkModel {
        spot_half_columns_deg: 28.1,
        spot_half_rows_deg: 28.1,
        line_half_deg: 2.3,
    };

    fn centre_o() -> (Vec<Path>, AxisPoint) {
        let board = BoardGeometry::default();
        let cell = Cell { row: 1, col: 1 };
        (plan::mark(&board, cell, Mark::O), board.cell_centre(cell))
    }

    #[test]
    fn an_o_about_as_wide_as_the_spot_covers_its_rim_at_its_centre_and_more_on_its_ring() {
        let (o, c) = centre_o();
        let (x, y) = (f64::from(c.columns), f64::from(c.rows));
        // The ring's inner edge (16 flat sides 29.4 degrees out, less half a line) just
        // reaches into a spot 28 degrees across the centre.
        let at_centre = MODEL.cover(&o, x, y);
        assert!((0.0..0.08).contains(&at_centre), "{at_centre}");
        let on_ring = MODEL.cover(&o, x, y + 30.0);
        assert!(on_ring > 1.5 * at_centre, "{on_ring} against {at_centre}");
        assert_eq!(MODEL.cover(&o, x + 100.0, y), 0.0, "the next square");
    }

    #[test]
    fn the_cover_counts_every_cell_a_stroke_inks_as_checking_each_cell_against_every_stroke_does() {
        let board = BoardGeometry::default();
        let cell = Cell { row: 1, col: 1 };
        let c = board.cell_centre(cell);
        let ovals = InkModel {
            spot_half_columns_deg: 20.5,
            spot_half_rows_deg: 31.0,
            line_half_deg: 2.0,
        };
        for mark in [Mark::O, Mark::X] {
            let paths = plan::mark(&board, cell, mark);
            for model in [MODEL, ovals] {
                for (dx, dy) in [
                    (0.0, 0.0),
                    (7.0, -13.0),
                    (-29.0, 3.5),
                    (30.0, 30.0),
                    (0.5, 44.0),
                ] {
                    let (x, y) = (f64::from(c.columns) + dx, f64::from(c.rows) + dy);
                    assert_eq!(
                        model.cover(&paths, x, y),
                        every_cell_against_every_stroke(&model, &paths, x, y),
                        "{mark:?} at {dx}, {dy} under {model:?}"
                    );
                }
            }
        }
    }

    /// The cover counted the plain way, for the test above.
    fn every_cell_against_every_stroke(model: &InkModel, paths: &[Path], x: f64, y: f64) -> f64 {
        let (rx, ry) = (model.spot_half_columns_deg, model.spot_half_rows_deg);
        let (mut inked, mut all) = (0u32, 0u32);
        for dy in -(ry.ceil() as i32)..=ry.ceil() as i32 {
            for dx in -(rx.ceil() as i32)..=rx.ceil() as i32 {
                let (px, py) = (f64::from(dx), f64::from(dy));
                if (px / rx).powi(2) + (py / ry).powi(2) > 1.0 {
                    continue;
                }
                all += 1;
                let strokes = paths.iter().flat_map(|p| p.windows(2));
                let inks = strokes.clone().any(|w| {
                    let point = |a: AxisPoint| (f64::from(a.columns), f64::from(a.rows));
                    squared_distance_to_segment((x + px, y + py), point(w[0]), point(w[1]))
                        <= model.line_half_deg * model.line_half_deg
                });
                inked += u32::from(inks);
            }
        }
        f64::from(inked) / f64::from(all.max(1))
    }

    #[test]
    fn the_best_lines_for_an_o_run_off_its_centre_both_ways_and_for_an_x_through_it() {
        let (o, c) = centre_o();
        let window = (c.columns - 16, c.columns + 16);
        let lines = MODEL.best_lines(&o, window, c.rows, 21);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(
            lines[0] - c.rows,
            c.rows - lines[1],
            "mirror images: {lines:?}"
        );
        assert_ne!(lines[0], c.rows, "{lines:?}");
        let board = BoardGeometry::default();
        let x = plan::mark(&board, Cell { row: 1, col: 1 }, Mark::X);
        assert_eq!(MODEL.best_lines(&x, window, c.rows, 21), [c.rows]);
    }

    fn samples(percents: &[u8]) -> Vec<Sample> {
        percents
            .iter()
            .enumerate()
            .map(|(i, &percent)| Sample {
                at: AxisPoint::new(i as i32 * 4, 0),
                time: Duration::from_millis(10 * i as u64),
                percent,
            })
            .collect()
    }

    const PAPER: BlankSquare = BlankSquare {
        level: 70.0,
        noise: 1.5,
        readings: 12,
        light_share: 0.0,
    };

    #[test]
    fn readings_that_darken_where_the_ink_should_be_fit_ink_and_flat_ones_do_not() {
        let covers: [f64; 12] = [
            0.0, 0.05, 0.1, 0.12, 0.1, 0.05, 0.0, 0.05, 0.1, 0.12, 0.1, 0.05,
        ];
        // Ink 85 % darker than the paper under those covers.
        let inked: Vec<u8> = covers
            .iter()
            .map(|c| (70.0 * (1.0 - 0.85 * c)).round() as u8)
            .collect();
        let fit = OwnInkFit::of(
            &PAPER,
            &samples(&inked),
            &covers,
            Duration::from_millis(10),
            OWN_INK_CONTRAST,
        )
        .unwrap();
        assert!((fit.ink_contrast - 0.85).abs() < 0.1, "{fit:?}");
        assert!(fit.seen(), "{fit:?}");
        let flat = OwnInkFit::of(
            &PAPER,
            &samples(&[70, 71, 69, 70, 70, 71, 69, 70, 70, 71, 69, 70]),
            &covers,
            Duration::from_millis(10),
            OWN_INK_CONTRAST,
        )
        .unwrap();
        assert!(!flat.seen(), "{flat:?}");
        assert!(OwnInkFit::of(
            &PAPER,
            &samples(&[70, 70]),
            &[0.0, 0.0],
            Duration::ZERO,
            OWN_INK_CONTRAST
        )
        .is_none());
    }

    #[test]
    fn a_few_noisy_readings_are_not_enough_to_call_faint_ink_seen() {
        // Half a marker's contrast under a tenth of the spot, four readings, noise of 3 %.
        let covers = [0.1, 0.1, 0.1, 0.1];
        let fit = OwnInkFit::of(
            &BlankSquare {
                level: 70.0,
                noise: 3.0,
                readings: 12,
                light_share: 0.0,
            },
            &samples(&[67, 66, 67, 67]),
            &covers,
            Duration::from_millis(10),
            OWN_INK_CONTRAST,
        )
        .unwrap();
        assert!(!fit.seen(), "{fit:?}");
    }

    #[test]
    fn a_pale_pen_is_seen_against_the_contrast_it_showed_on_the_grid() {
        // A grey pen, a quarter darker than the paper where it lies, under a fifth of the spot
        // on twelve readings with 1 % noise: too pale for black ink's floor, not for its own.
        let covers = [0.2; 12];
        let fit = |least| {
            OwnInkFit::of(
                &PAPER,
                &samples(&[66, 67, 66, 67, 66, 66, 67, 66, 67, 66, 67, 66]),
                &covers,
                Duration::from_millis(10),
                least,
            )
            .unwrap()
        };
        assert!(!fit(OWN_INK_CONTRAST).seen());
        assert!(
            fit(0.25 * OWN_INK_SHARE).seen(),
            "{:?}",
            fit(0.25 * OWN_INK_SHARE)
        );
    }
}
