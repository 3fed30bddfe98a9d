//! The robot's eye measured on the grid it has just drawn (see [`crate::motion::sensing::eye`
//! ](crate::motion::sensing::measure_eye)), and read by from then on: the spot sets every
//! reading window, the looks' lines, the ruler's dip and the shape the robot's own marks are
//! fitted to; the ink's contrast sets how dark the robot's own ink must read to count.

use super::sweeping::SweptRow;
use crate::motion::gantry::Gantry;
use crate::motion::own_ink::{OWN_INK_CONTRAST, OWN_INK_SHARE};
use crate::motion::plan;
use crate::motion::sensing::{self, EyeMeasure, LineCrossing, Sample};
use crate::physical::ReadingGeometry;

/// A measured spot within this share of `sensing.spot_mm` agrees with it, and the config's
/// figure stays: measured over six seeds at each of the simulator's noise and timing corners,
/// a 12 mm spot came out from 11.4 to 12.7 mm (within 6 %). Reading by every such wobble would
/// move every window and pace by a fraction of a degree from sheet to sheet for nothing.
const AGREES_SHARE: f64 = 0.1;

/// A row's readings within `reach` degrees of the columns line at `line_deg`, each as (its
/// place along the columns axis, percent): one crossing of the line, for a fit of its dip.
/// Within half a square, no other line's dip reaches.
pub(in crate::motion::gantry) fn readings_across(
    samples: &[Sample],
    line_deg: i32,
    reach: i32,
) -> Vec<(f64, f64)> {
    samples
        .iter()
        .filter(|s| (s.at.columns - line_deg).abs() <= reach)
        .map(|s| (f64::from(s.at.columns), f64::from(s.percent)))
        .collect()
}

impl Gantry {
    /// What the last grid's crossings measured, if they showed the grid's lines at all.
    pub fn eye(&self) -> Option<EyeMeasure> {
        self.eye
    }

    /// The spot the robot config gives (`sensing.spot_mm`): the starting guess, read by until
    /// a grid is drawn and measured.
    pub fn configured_spot_mm(&self) -> f64 {
        self.configured_spot_mm
    }

    /// How much darker than the paper the robot's own ink must read to count as seen: a
    /// share of what its pen measured on this sheet's grid, or, before any measure, of black
    /// ink's (see [`OWN_INK_SHARE`]).
    pub(super) fn own_ink_least_contrast(&self) -> f64 {
        self.eye
            .filter(EyeMeasure::trusted)
            .map_or(OWN_INK_CONTRAST, |eye| eye.ink_contrast * OWN_INK_SHARE)
    }

    /// The blank read's crossings of the grid's lines across the columns axis: each sweep's
    /// readings within half a square of each line, where no other line reaches.
    fn grid_crossings(&self, rows: &[SweptRow]) -> Vec<LineCrossing> {
        let half_square = self.config.board.square_deg / 2;
        let lines = self.grid_columns();
        rows.iter()
            .flat_map(|(_, samples)| {
                lines.iter().map(move |&line| LineCrossing {
                    readings: readings_across(samples, line, half_square),
                    drawn_deg: f64::from(line),
                })
            })
            .collect()
    }

    /// Measures the spot and the ink on the blank read's `rows` across the grid just drawn,
    /// logs what it found, and, if the measure can be trusted, reads by it from now on: the
    /// squares' windows in `rows` are cut to the new spot's, so the blank paper is measured
    /// where later reads will look. False when there was no measure to read by.
    pub(super) fn measure_the_eye(&mut self, rows: &mut [SweptRow]) -> bool {
        let scale = self.config.scale();
        let crossings = self.grid_crossings(rows);
        let measured = sensing::measure_eye(
            &crossings,
            scale.columns_mm_per_deg,
            self.config.pen.line_mm,
            // Just drawn, a line lies within a millimetre or so of where the pen was sent.
            scale.columns_deg(crate::motion::gantry::JUST_DRAWN_SEARCH_MM),
        );
        let Some(eye) = measured else {
            log::info!(
                "the eye: the grid's {} crossings showed too little of its lines to measure the \
                 sensor's spot by; reading with {:.1} mm",
                crossings.len(),
                self.config.sensing.spot_mm
            );
            return false;
        };
        self.eye = Some(eye);
        let said = format!(
            "the eye, measured on {} of the grid's {} crossings: the sensor's spot {}{:.1} mm \
             across (give or take {:.1}; sensing.spot_mm says {:.1}), the robot's ink {:.0} % \
             darker than the paper",
            eye.crossings,
            eye.offered,
            if eye.at_least { "at least " } else { "" },
            eye.spot_mm,
            eye.spot_uncertainty_mm,
            self.configured_spot_mm,
            eye.ink_contrast * 100.0
        );
        if !eye.trusted() {
            log::info!(
                "{said}: not sure enough to read by; reading with {:.1} mm",
                self.config.sensing.spot_mm
            );
            return false;
        }
        let widest = ReadingGeometry::widest_spot_mm(
            scale,
            self.config.pen.line_mm,
            self.config.board.square_deg,
        );
        let configured = self.configured_spot_mm;
        let spot_mm = if eye.spot_mm > widest {
            log::warn!(
                "{said}: wider than these squares can be read with (at most {widest:.1} mm): \
                 mount the sensor lower, or draw bigger squares; reading with {widest:.1} mm"
            );
            widest
        } else if (eye.spot_mm - configured).abs() <= configured * AGREES_SHARE && !eye.at_least {
            log::info!("{said}: it agrees with sensing.spot_mm, which stays");
            configured
        } else {
            log::info!("{said}: reading by the measure");
            eye.spot_mm
        };
        let before = self.config.reading_geometry().window_half_deg;
        self.config.sensing.spot_mm = spot_mm;
        let after = self.config.reading_geometry().window_half_deg;
        for (sweep, _) in rows.iter_mut() {
            for (cell, window) in &mut sweep.squares {
                // Each window was cut by the readings' lag when it was swept: cut the new one
                // by as much, and keep it inside what was swept.
                let lag = before - (window.end() - window.start()) / 2;
                let full = plan::reading_window(&self.config, *cell);
                let centre = (full.start() + full.end()) / 2;
                let half = (after - lag).max(1);
                *window = (centre - half).max(*window.start())..=(centre + half).min(*window.end());
            }
        }
        true
    }
}
