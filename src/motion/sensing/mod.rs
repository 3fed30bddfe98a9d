//! Deciding from colour-sensor samples which squares hold a mark.
//!
//! Why relative to each square, and why in units of its noise: paper is not equally white
//! everywhere, the sensor's height changes the level, and sensors differ in noise. When the grid
//! is drawn, every square's blank paper is read: its level (the median) and its noise (a robust
//! spread). A square is then judged by how much darker than its own paper its darkest few
//! readings are, against thresholds that are the larger of a contrast floor and a multiple of
//! that square's noise.
//!
//! Why two thresholds and a second look: a filled square or a pen stroke crossing the sweep dips
//! deep, but a thin stroke under a wider spot covers only part of it (a stroke a third of the
//! spot wide at most darkens it by about 40 % of the ink's contrast), and a pencil line is
//! fainter still. One dip between the faint floor and the clear threshold could be a smudge or a
//! mark, so such a square is read again, slower and along other lines; a mark crosses more than
//! one line, a dot does not. A square with a dip above the clear threshold on any line, or above
//! the faint floor on two, is marked.
//!
//! Thresholds: clear at 5 times the noise of one reading; faint at 4.5 times the noise of the
//! spot-wide stretch it averages, counting only fresh measurements (a reading sooner than the
//! sensor's period repeats the last) and the uncertainty of the paper beside it. So noise alone
//! (uniform noise of a few percent, whole-percent readings, stale repeats of one measurement)
//! stays below them over the hundreds of stretches a board reading takes, while a slower,
//! denser look makes a faint stroke stand further out of the noise.
//!
//! Why a third test, on the whole window: a real colour sensor averages a patch of paper 6 to
//! 12 mm across (see `docs/sensor.md`), which on a 21 mm square is half a square or more. Then
//! the spot sees much of the square from anywhere in the window, a stroke's dip is as wide as
//! the window, and there is no paper beside it to compare it with. What is left is the
//! square's own blank paper: the mean of the window's fresh readings, against the level read
//! when the grid was drawn, in units of that mean's noise. An X under a wide spot darkens the
//! whole window; noise alone cannot move a mean of a dozen fresh readings four and a half of
//! its standard deviations.
//!
//! The smallest mark that counts, with the defaults (floors 15 % and 6 % of the paper's level,
//! a 12 mm spot): black ink that covers 17 % of the spot where the sensor reads (a blot 5 mm
//! across, or two strokes of a 1 mm marker crossing it: 15 % darker), or any ink that darkens
//! two of the lines by at least 6 % and four and a half standard deviations. A fine-liner's dot
//! under that spot is not a mark, and cannot be: it darkens the spot by under 1 %.
//!
//! The parts: `blank` (a square's paper and its noise), `look` (one line's dips and the
//! thresholds in units of noise), `verdict` (a square's verdict from its looks, and what a read
//! found), `grid_lines` (the drawn grid found again, the ruler for slip); here, the samples and
//! a used sheet found before the grid is drawn.

mod blank;
mod eye;
mod grid_lines;
mod light;
mod look;
mod verdict;

pub use blank::BlankSquare;
pub use eye::{measure_eye, EyeMeasure, LineCrossing};
pub use grid_lines::{find_grid_lines, GridSighting};
pub use light::{
    one_light_within, PaperAtRest, PaperLight, PaperRatio, SlopeDoubt, Step, DRIFT_PER_S,
    LIGHT_CHANGED, PLANE_SQUARES,
};
pub(crate) use look::readings_per_measurement;
pub use look::{
    local_paper_deg, pooled_sigmas, Look, FAINT_SIGMAS, HINT_SIGMAS, MEAN_SIGMAS,
    MIN_READINGS_BESIDE, OFF_CENTRE_PAPER, POOLED_LINES, POOLED_SIGMAS, SURE_SIGMAS,
};
pub use verdict::{judge, Doubt, Evidence, NewMarks, SquareReading, HANDS_OFF, MOST_READS};

use crate::config::{AxisPoint, SensingConfig};
use crate::game::Cell;
use std::ops::RangeInclusive;
use std::time::Duration;

/// One reading taken while sweeping: where the sensor's spot was, when, and what it read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// The spot's centre on the paper, in the pen's axis degrees.
    pub at: AxisPoint,
    /// When the reading was taken, on the robot's clock.
    pub time: Duration,
    pub percent: u8,
}

/// The readings whose spot lies in a square's window along the sweep, in the order they were
/// taken.
pub fn in_window(samples: &[Sample], window: &RangeInclusive<i32>) -> Vec<Sample> {
    samples
        .iter()
        .filter(|s| window.contains(&s.at.columns))
        .copied()
        .collect()
}

/// The level of blank paper: the median, which one noisy reading cannot move.
pub fn blank_level(readings: &[u8]) -> Option<u8> {
    let mut sorted = readings.to_vec();
    sorted.sort_unstable();
    sorted.get(sorted.len() / 2).copied()
}

/// The darkest stretch of `per_stretch` consecutive readings, as their mean. Averaging a few
/// neighbours means one noisy reading is not taken for ink, while a pen line (several readings
/// wide at sweep speed) still is.
pub fn darkest_stretch(readings: &[u8], per_stretch: usize) -> Option<f64> {
    let n = per_stretch.clamp(1, readings.len().max(1));
    readings
        .windows(n)
        .map(|w| w.iter().map(|&r| f64::from(r)).sum::<f64>() / n as f64)
        .min_by(f64::total_cmp)
}

/// The squares of a sheet read before the grid is drawn that already hold ink: a stretch at
/// least the clear-mark contrast (`mark_contrast_percent`, 15 % by default) darker than the
/// sheet's paper. A used sheet can hold ink in every square, and a struck line darkens a whole
/// row, so neither the median of the readings nor their spread can stand for the paper (on a
/// simulated used sheet the median absolute deviation put the threshold above 100 %). The paper
/// is taken as the 75th percentile of all readings, bright paper being most of even a used
/// sheet, and no noise-scaled threshold is used: at the brick's noise (1 to 2 %, see
/// `calibrate`) a 15 % dip over a stretch of readings is more than five of its standard
/// deviations. Faint marks are not looked for: a used sheet shows its X's and O's clearly, and
/// a false "used" would stop the evening.
pub fn used_squares(squares: &[(Cell, Vec<u8>)], settings: &SensingConfig) -> Vec<Cell> {
    let mut all: Vec<u8> = squares
        .iter()
        .flat_map(|(_, r)| r.iter().copied())
        .collect();
    if all.is_empty() {
        return Vec::new();
    }
    all.sort_unstable();
    let paper = f64::from(all[all.len() * 3 / 4]).max(1.0);
    let clear = f64::from(settings.mark_contrast_percent) / 100.0;
    squares
        .iter()
        .filter(|(_, readings)| {
            darkest_stretch(readings, settings.samples_per_stretch)
                .is_some_and(|darkest| (paper - darkest) / paper >= clear)
        })
        .map(|(cell, _)| *cell)
        .collect()
}

#[cfg(test)]
mod used_sheet_tests {
    use super::*;

    #[test]
    fn samples_are_given_to_the_square_whose_window_holds_their_spot() {
        let at = |columns| Sample {
            at: AxisPoint::new(columns, 70),
            time: Duration::ZERO,
            percent: 70,
        };
        let samples = [at(25), at(30), at(110), at(111)];
        assert_eq!(in_window(&samples, &(30..=110)).len(), 2);
    }

    fn square(index: usize, readings: &[u8]) -> (Cell, Vec<u8>) {
        (Cell::from_index(index, 3), readings.to_vec())
    }

    #[test]
    fn a_sheet_with_a_clear_mark_in_a_square_is_used_there_and_noise_is_not_a_mark() {
        let settings = SensingConfig::default();
        // Paper at 70 % with a percent or two of noise; one square crossed by a stroke at 30 %.
        let paper = [70, 71, 69, 70, 72, 70, 68, 70, 71, 70, 69, 70];
        let mut squares: Vec<(Cell, Vec<u8>)> = (0..9).map(|i| square(i, &paper)).collect();
        squares[4].1 = vec![70, 71, 69, 40, 30, 32, 50, 70, 71, 70, 69, 70];
        assert_eq!(used_squares(&squares, &settings), [Cell::from_index(4, 3)]);
        squares[4].1 = paper.to_vec();
        assert!(
            used_squares(&squares, &settings).is_empty(),
            "a fresh sheet"
        );
        // A reading well beyond the noise, but nothing like ink, alone in its stretch.
        squares[2].1 = vec![70, 71, 69, 70, 58, 70, 68, 70, 71, 70, 69, 70];
        assert!(used_squares(&squares, &settings).is_empty());
    }

    #[test]
    fn a_sheet_inked_in_every_square_and_struck_along_a_row_is_used_everywhere() {
        // Each square crossed by strokes over a third of its readings, and the top row struck
        // through end to end (as the last game's winning line is).
        let inked = [70, 30, 32, 70, 71, 28, 69, 70, 31, 70, 70, 69];
        let struck = [30, 29, 31, 28, 30, 29, 30, 31, 29, 30, 28, 30];
        let squares: Vec<(Cell, Vec<u8>)> = (0..9)
            .map(|i| square(i, if i < 3 { &struck } else { &inked }))
            .collect();
        assert_eq!(used_squares(&squares, &SensingConfig::default()).len(), 9);
    }
}
