//! Deciding from colour-sensor samples which squares hold a mark.
//!
//! Why relative thresholds: the original robot compared one reading at each square's centre
//! with a fixed 25 %. Paper is not equally white everywhere, the sensor's height changes the
//! level, and a hand-drawn X or O may leave a square's centre blank. So every square is compared
//! with its own blank-paper level, measured when the grid was drawn, and the sensor sweeps across
//! the square so that strokes crossing the sweep are seen as well as a filled square.

use crate::config::SensingConfig;
use crate::game::Cell;
use std::ops::RangeInclusive;

/// One reading taken while sweeping: where the sensor's spot was, and what it read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    pub columns_deg: i32,
    pub percent: u8,
}

/// The readings that fall in a square's window, in the order they were taken.
pub fn in_window(samples: &[Sample], window: &RangeInclusive<i32>) -> Vec<u8> {
    samples
        .iter()
        .filter(|s| window.contains(&s.columns_deg))
        .map(|s| s.percent)
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

/// What a sweep made of one square.
#[derive(Debug, Clone, PartialEq)]
pub struct SquareReading {
    pub cell: Cell,
    /// The square's blank-paper level.
    pub blank_percent: u8,
    /// Its darkest stretch now.
    pub darkest_percent: f64,
    pub samples: usize,
    pub marked: bool,
}

impl SquareReading {
    /// Judges a square from its readings now and its blank level; `None` when the sweep left no
    /// readings in it.
    pub fn judge(
        cell: Cell,
        blank_percent: u8,
        readings: &[u8],
        settings: &SensingConfig,
    ) -> Option<SquareReading> {
        let darkest = darkest_stretch(readings, settings.samples_per_stretch)?;
        let limit =
            f64::from(blank_percent) * (1.0 - f64::from(settings.mark_contrast_percent) / 100.0);
        Some(SquareReading {
            cell,
            blank_percent,
            darkest_percent: darkest,
            samples: readings.len(),
            marked: darkest < limit,
        })
    }
}

/// The new marks among squares that were empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NewMarks {
    None,
    One(Cell),
    /// More than one: the human moved twice, or something else is on the paper.
    Several(Vec<Cell>),
}

impl NewMarks {
    pub fn from_readings(readings: &[SquareReading]) -> NewMarks {
        let mut marked: Vec<Cell> = readings
            .iter()
            .filter(|r| r.marked)
            .map(|r| r.cell)
            .collect();
        marked.sort();
        match marked.len() {
            0 => NewMarks::None,
            1 => NewMarks::One(marked[0]),
            _ => NewMarks::Several(marked),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> SensingConfig {
        SensingConfig::default()
    }

    const CELL: Cell = Cell { row: 1, col: 2 };

    #[test]
    fn the_blank_level_is_the_median() {
        assert_eq!(blank_level(&[70, 71, 12, 69, 72]), Some(70));
        assert_eq!(blank_level(&[]), None);
    }

    #[test]
    fn a_pen_line_crossing_the_sweep_marks_the_square() {
        let readings = [70, 71, 69, 40, 12, 11, 38, 70, 70];
        let reading = SquareReading::judge(CELL, 70, &readings, &settings()).unwrap();
        assert!(reading.marked, "{reading:?}");
    }

    #[test]
    fn one_dark_reading_alone_is_noise() {
        let readings = [70, 71, 69, 20, 70, 70];
        let reading = SquareReading::judge(CELL, 70, &readings, &settings()).unwrap();
        assert!(!reading.marked, "{reading:?}");
    }

    #[test]
    fn dim_paper_is_judged_against_its_own_blank_level() {
        // A dim sensor: paper reads 35, ink 5. A fixed threshold of 25 would see neither right.
        let blank = SquareReading::judge(CELL, 35, &[35, 34, 36, 35], &settings()).unwrap();
        let inked = SquareReading::judge(CELL, 35, &[35, 6, 5, 34], &settings()).unwrap();
        assert!(!blank.marked && inked.marked);
    }

    #[test]
    fn squares_swept_too_fast_to_read_are_not_judged() {
        assert_eq!(SquareReading::judge(CELL, 70, &[], &settings()), None);
    }

    #[test]
    fn new_marks_are_none_one_or_several() {
        let read = |cell, marked| SquareReading {
            cell,
            blank_percent: 70,
            darkest_percent: if marked { 10.0 } else { 70.0 },
            samples: 10,
            marked,
        };
        let a = Cell { row: 0, col: 0 };
        let b = Cell { row: 2, col: 1 };
        assert_eq!(
            NewMarks::from_readings(&[read(a, false), read(b, false)]),
            NewMarks::None
        );
        assert_eq!(
            NewMarks::from_readings(&[read(a, false), read(b, true)]),
            NewMarks::One(b)
        );
        assert_eq!(
            NewMarks::from_readings(&[read(b, true), read(a, true)]),
            NewMarks::Several(vec![a, b])
        );
    }
}
