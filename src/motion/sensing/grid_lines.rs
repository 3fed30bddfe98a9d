//! The grid lines the robot drew, found where the blank read's sweeps cross them.

use super::blank::robust_spread;
use super::{blank_level, Sample};

/// Where a sweep crossed the grid's lines, against where they were drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridSighting {
    /// How far the lines lie from where they were drawn, along the columns axis, in degrees
    /// (positive: further from the axis's zero); the median over the crossings.
    pub offset_deg: f64,
    /// How much darker than the row's paper the lines read at their darkest, as a share of it;
    /// the median over the crossings.
    pub depth: f64,
    /// Crossings that showed a line.
    pub crossings: usize,
    /// The largest difference between one crossing's offset and the median, in degrees.
    pub spread_deg: f64,
}

/// A crossing's dip counts as ink only when it lies this many of its own standard deviations
/// under the row's paper (the sensor's noise over the readings it averages). The depth against
/// the row's 75th percentile alone let noise pass: the paper reads some two thirds of a
/// deviation above its middle at that percentile, and the darkest of a search's few averages
/// of two or three readings lies as far below it. Over 1,620 blank sheets (6, 9 and 12 mm
/// spots, 0 to 4 % noise, a reading every 5 to 20 ms, 60 seeds each), 49 were taken for used
/// ones, all at 4 % noise, each for three or four crossings 7 or 8 % deep: the robot asked for
/// a fresh sheet in place of a fresh sheet. Held to three deviations, 7; to four, 2; a grid
/// the robot had drawn on the same sheets was seen as often at four deviations as without
/// them (1,213 and 1,211).
const GRID_SIGMAS: f64 = 4.0;

/// Finds the grid lines drawn at columns `lines` in sweeps along rows (each sweep's readings
/// in order), searching `search_deg` either side of each, with a spot `spot_deg` across.
///
/// Each crossing is the darkest point of the readings within a quarter spot of it, against
/// the row's paper (its 75th percentile, which ink between the lines cannot pull down); a
/// crossing counts when it is at least `least_depth` darker, and `GRID_SIGMAS` of its own
/// deviations under the middle of the paper clear of every line's search, the noise measured
/// there too. `None` when fewer than two crossings count.
///
/// A sweep sees a line a little late in the direction it runs (the gears' play, a reading's
/// age), so the offset is the mean of the two directions' medians where the sweeps ran both
/// ways, and the error cancels.
pub fn find_grid_lines(
    sweeps: &[&[Sample]],
    lines: &[i32],
    search_deg: i32,
    spot_deg: f64,
    least_depth: f64,
) -> Option<GridSighting> {
    let reach = (spot_deg / 4.0).max(3.0);
    let (clear_levels, noise) =
        paper_clear_of(sweeps, lines, spot_deg / 2.0 + f64::from(search_deg));
    let mut found: Vec<(f64, f64, bool)> = Vec::new();
    for (samples, &middle) in sweeps.iter().zip(&clear_levels) {
        let forward = match (samples.first(), samples.last()) {
            (Some(first), Some(last)) => last.at.columns >= first.at.columns,
            _ => true,
        };
        let mut percents: Vec<u8> = samples.iter().map(|s| s.percent).collect();
        if percents.len() < 4 {
            continue;
        }
        percents.sort_unstable();
        let paper = f64::from(percents[percents.len() * 3 / 4]).max(1.0);
        let (low, high) = samples.iter().fold((i32::MAX, i32::MIN), |(l, h), s| {
            (l.min(s.at.columns), h.max(s.at.columns))
        });
        for &line in lines {
            if line - search_deg < low || line + search_deg > high {
                continue;
            }
            let best = (line - search_deg..=line + search_deg)
                .filter_map(|at| {
                    let near: Vec<f64> = samples
                        .iter()
                        .filter(|s| f64::from((s.at.columns - at).abs()) <= reach)
                        .map(|s| f64::from(s.percent))
                        .collect();
                    (!near.is_empty()).then(|| {
                        let mean = near.iter().sum::<f64>() / near.len() as f64;
                        (at, (paper - mean) / paper, mean, near.len())
                    })
                })
                .max_by(|a, b| a.1.total_cmp(&b.1));
            // Only the darkest place searched is weighed against the noise.
            let stands_clear =
                |mean: f64, n: usize| (middle - mean) / (noise / (n as f64).sqrt()) >= GRID_SIGMAS;
            if let Some((at, depth, _, _)) =
                best.filter(|&(_, depth, mean, n)| depth >= least_depth && stands_clear(mean, n))
            {
                found.push((f64::from(at - line), depth, forward));
            }
        }
    }
    if found.len() < 2 {
        return None;
    }
    let median = |mut values: Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    let way = |forward: bool| -> Vec<f64> {
        found
            .iter()
            .filter(|f| f.2 == forward)
            .map(|f| f.0)
            .collect()
    };
    let (ahead, back) = (way(true), way(false));
    let centre = |values: &Vec<f64>| (!values.is_empty()).then(|| median(values.clone()));
    let (ahead_at, back_at) = (centre(&ahead), centre(&back));
    let offset_deg = match (ahead_at, back_at) {
        (Some(a), Some(b)) => (a + b) / 2.0,
        (Some(one), None) | (None, Some(one)) => one,
        (None, None) => return None,
    };
    // Each crossing against its own direction's median.
    let own_median = |forward: bool| if forward { ahead_at } else { back_at };
    Some(GridSighting {
        offset_deg,
        depth: median(found.iter().map(|f| f.1).collect()),
        crossings: found.len(),
        spread_deg: found
            .iter()
            .map(|f| (f.0 - own_median(f.2).unwrap_or(offset_deg)).abs())
            .fold(0.0, f64::max),
    })
}

/// The paper of `sweeps` away from every line's search (`clear_deg` either side of each of
/// `lines`): each sweep's level there (the median of its readings clear of every search, or of
/// all of them where none is), and the sensor's noise over every sweep, each reading against its
/// own sweep's level.
fn paper_clear_of(sweeps: &[&[Sample]], lines: &[i32], clear_deg: f64) -> (Vec<f64>, f64) {
    let mut levels = Vec::with_capacity(sweeps.len());
    let mut deviations = Vec::new();
    for samples in sweeps {
        let clear: Vec<u8> = samples
            .iter()
            .filter(|s| {
                lines
                    .iter()
                    .all(|&l| f64::from((s.at.columns - l).abs()) > clear_deg)
            })
            .map(|s| s.percent)
            .collect();
        let all = || samples.iter().map(|s| s.percent).collect::<Vec<u8>>();
        let level = blank_level(&clear)
            .or_else(|| blank_level(&all()))
            .map_or(0.0, f64::from);
        deviations.extend(clear.iter().map(|&p| f64::from(p) - level));
        levels.push(level);
    }
    (levels, robust_spread(deviations.into_iter()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::AxisPoint;
    use std::time::Duration;

    #[test]
    fn grid_lines_are_found_where_they_cross_the_sweeps_and_a_blank_sheet_shows_none() {
        // Rows swept from 0 to 300 degrees, lines drawn at 100 and 200 but lying 6 degrees
        // further on, each darkening the spot over 30 degrees, 9 % at its middle.
        let row = |shift: i32, dark: bool| -> Vec<Sample> {
            (0..=75)
                .map(|i| {
                    let columns = 4 * i;
                    let from_line = [100, 200]
                        .iter()
                        .map(|l| (columns - l - shift).abs())
                        .min()
                        .unwrap();
                    let dip = if dark && from_line < 15 {
                        6.3 * (1.0 - f64::from(from_line) / 15.0)
                    } else {
                        0.0
                    };
                    Sample {
                        at: AxisPoint::new(columns, 70),
                        time: Duration::from_millis(10 * i as u64),
                        percent: (70.0 - dip + f64::from(i % 3) - 1.0).round() as u8,
                    }
                })
                .collect()
        };
        let rows = [row(6, true), row(6, true), row(6, true)];
        let sweeps: Vec<&[Sample]> = rows.iter().map(|r| &r[..]).collect();
        let seen = find_grid_lines(&sweeps, &[100, 200], 20, 28.0, 0.04).unwrap();
        assert_eq!(seen.crossings, 6);
        assert!((seen.offset_deg - 6.0).abs() <= 2.0, "{seen:?}");
        assert!(seen.depth > 0.06, "{seen:?}");
        let blank = [row(0, false), row(0, false), row(0, false)];
        let sweeps: Vec<&[Sample]> = blank.iter().map(|r| &r[..]).collect();
        assert_eq!(find_grid_lines(&sweeps, &[100, 200], 20, 28.0, 0.04), None);
    }
}
