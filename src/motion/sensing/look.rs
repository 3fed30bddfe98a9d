//! One look along a line through a square: how far its darkest stretch, the paper beside it
//! and the window's mean dip below the square's blank level, in percent and in units of noise.

use super::{blank_level, darkest_stretch, BlankSquare, Sample};
use crate::config::SensingConfig;
use std::ops::RangeInclusive;
use std::time::Duration;

/// What one pass along one line showed of one square.
#[derive(Debug, Clone, PartialEq)]
pub struct Look {
    /// The rows coordinate of the line swept.
    pub rows_deg: i32,
    pub samples: usize,
    /// The darkest stretch's contrast against the square's blank level (0.3: 30 % darker).
    pub depth: f64,
    /// The deepest stretch's contrast against the paper on either side of it.
    pub local_depth: f64,
    /// The contrast of the spot-wide stretch that stands furthest out of the paper beside it,
    /// in units of the noise it would show on blank paper: how unlikely noise alone is to
    /// make it.
    pub local_sigmas: f64,
    /// The mean of every reading on the line against the square's blank level.
    pub mean_depth: f64,
    /// That mean depth in units of its noise (the fresh readings', and the blank level's).
    /// Only on the line the blank paper was read along (the centre line): off it the paper
    /// itself may be a few percent darker or lighter, and the mean says nothing (0).
    pub mean_sigmas: f64,
    /// The mean distance between readings along the line, in degrees.
    pub spacing_deg: f64,
    /// The depth that makes a clear mark on this look alone: the square's clear threshold in
    /// the light of the look's own moment (see [`BlankSquare::thresholds`]). The sensor's
    /// noise is the same in any light, so in a shadow it is a larger share of the paper and
    /// the bar is higher; a look taken in a shadow is not judged by the bar of the brighter
    /// light measured after it.
    pub clear: f64,
}

/// How much lighter or darker than along its centre line a square's paper may be along the
/// off-centre look's lines: the simulated sheet's whiteness varies by 6 % over some 90 degrees
/// (docs/sensor.md), so by up to 1.8 % over the 25 degrees between the lines; real paper's
/// unevenness is of the same order. The blank level, read on the centre line, is that uncertain
/// as a measure of the paper on any other.
pub const OFF_CENTRE_PAPER: f64 = 0.018;

/// A faint dip must stand this many of its own noise's standard deviations out of the paper
/// beside it. A board reading tests some hundreds of places (each square, each line, each
/// stretch); noise reaches 4.5 of them at one in some hundred thousand with Gaussian noise and
/// never with the simulator's even noise of a few percent, and a faint mark must also show on
/// two lines.
pub const FAINT_SIGMAS: f64 = 4.5;

/// A whole line's mean must stand this many of its standard deviations below the square's
/// blank level to count as a mark on its own. More than a faint dip needs: the blank level's
/// error is the same on every look at the square, so two looks do not make two chances, and
/// read at 20 ms under 4 % noise, levels off by 4 % came out 4.5 deviations on two lines.
pub const MEAN_SIGMAS: f64 = 6.0;

/// The dips of every look at a square, taken together, must stand this many standard
/// deviations above what blank paper's looks show (see [`pooled_sigmas`]) for a mark seen a
/// little on many lines. Blank paper passes 4.5 about once in 300,000 squares judged (a normal
/// tail), and a game judges some forty; measured over the detection matrix (both rooms, 99,630
/// blank squares judged), no blank square's looks came to more than 4.28.
pub const POOLED_SIGMAS: f64 = 4.5;

/// The fewest different lines that must each dip past the faint floor for the pooled test. Two:
/// dips on two lines are no more alike than on three (each against the paper beside it on its
/// own line), and an X drawn off centre may cross only two. With three, one such X (ballpoint,
/// 9 mm spot, 2 % noise) showed on two lines in four looks at 4.1 to 4.3 deviations, each short
/// of [`FAINT_SIGMAS`], and was passed over. Measured over the detection matrix, two lines let
/// 677 blank squares' looks be pooled where three let 99, and none came past the 4.28 three
/// already reach.
pub const POOLED_LINES: usize = 2;

/// What a look at blank paper whose dip passes the faint floor shows, in the faint test's units
/// (`Look::local_sigmas`): 1.92 on average, with a standard deviation of 0.66. Measured over the
/// detection matrix's 6,075 such looks (every spot from 6 to 12 mm, noise 0 to 4 %, a reading
/// every 5 to 20 ms; 2.19 and 0.58 under the 6 mm spot at 4 % noise, the most). Not 0 and 1: a
/// look's figure is its best stretch of several, and the dip's floor has already picked it.
const BLANK_DIPPING_LOOK: (f64, f64) = (1.92, 0.66);

/// The evidence of all `looks` at a square together: how far the looks whose dips pass the
/// `faint` floor stand, summed, above what as many looks at blank paper would
/// (`BLANK_DIPPING_LOOK`), in standard deviations of that sum; zero unless [`POOLED_LINES`]
/// different lines dip past the floor. Under a dim sensor and heavy noise an X may show on
/// every line a dip of 2 to 4 deviations, each too little alone, in 6 looks together 4.6 and
/// more. (Summed as if each look were an unbiased deviation, as before, blank paper under a
/// 6 mm spot at 4 % noise came to 6.55 where the test asked 6: two squares of the matrix taken
/// for marks.)
///
/// Where a look's window holds paper beside its stretch, the dip is measured against that, on
/// its own line, and one level's error is not counted again and again. Where it does not (a
/// first look's few readings under every footprint of the detection matrix, any look under
/// the 9 and 12 mm spots: see [`Look::of`]), the looks at a square all stand against its one
/// blank level and share that level's error, which this sum takes for independent evidence.
/// Counting it as shared was tried (docs/figures.md, session 15): it cost more marks than
/// the false ones it saved.
pub fn pooled_sigmas(looks: &[Look], faint: f64) -> f64 {
    let dipping: Vec<&Look> = looks.iter().filter(|l| l.local_depth >= faint).collect();
    let mut lines: Vec<i32> = dipping.iter().map(|l| l.rows_deg).collect();
    lines.sort_unstable();
    lines.dedup();
    if lines.len() < POOLED_LINES {
        return 0.0;
    }
    let (blank_mean, blank_spread) = BLANK_DIPPING_LOOK;
    let above: f64 = dipping.iter().map(|l| l.local_sigmas - blank_mean).sum();
    above / (blank_spread * (dipping.len() as f64).sqrt())
}

/// A dip this many of its noise's standard deviations out of the paper hints at a mark. Noise
/// alone reaches it somewhere on a board now and then, so it only buys a closer look.
pub const HINT_SIGMAS: f64 = 3.0;

/// A faint dip this many standard deviations out of the paper beside it is a mark on one line
/// alone: twice the faint test's bar. An X drawn off centre under a 6 mm spot crosses one of
/// the three lines squarely (13 % darker, 10 deviations) and the others hardly at all; noise
/// never reaches 9 deviations in the detection matrix's reads (none taken for a mark).
pub const SURE_SIGMAS: f64 = 2.0 * FAINT_SIGMAS;

impl Look {
    /// The look of `samples` (one line over one square), read from a sensor that measures
    /// every `read_period` through a spot `spot_deg` across along the line; `None` without
    /// readings.
    ///
    /// Two depths: against the square's blank level (a filled square reads dark all along, so
    /// only the blank level shows it), and against the paper on either side of each stretch
    /// (the median of the readings one to two spots away, [`local_paper_deg`]). Paper is not
    /// equally white, and a line off centre or a long line can drift by a few percent; the
    /// faint test uses the local depth, which such a drift does not move, while a stroke's dip,
    /// narrower than the span, stands out of it.
    ///
    /// The faint test asks for the local depth of a few readings in a row to pass the faint
    /// floor (a contrast), and for a stretch one spot wide, the width over which a stroke's dip
    /// is deepest (it is the spot plus the stroke wide), to stand out of its noise: the noise
    /// of one reading over the square root of the fresh measurements in it, with the local
    /// paper's own uncertainty. Only fresh measurements count: a reading taken sooner
    /// than the sensor's period after the last repeats it. So a slow, dense look at a doubtful
    /// square sees a faint stroke that one fast look could not tell from noise.
    ///
    /// And the mean of the whole line against the blank level, for a spot so wide that a
    /// stroke's dip fills the window (see the module's docs). The blank level is a median of
    /// about as many readings, so its own noise counts as well.
    ///
    /// `light_along` is how the light changes along the line since the blank read, as a share
    /// of the level per degree of the columns axis (0 where it is as it was then).
    pub fn of(
        blank: &BlankSquare,
        samples: &[Sample],
        settings: &SensingConfig,
        read_period: Duration,
        spot_deg: f64,
        on_blank_line: bool,
        light_along: f64,
    ) -> Option<Look> {
        let readings: Vec<u8> = samples.iter().map(|s| s.percent).collect();
        let darkest = darkest_stretch(&readings, settings.samples_per_stretch)?;
        let beside = local_paper_deg(spot_deg);
        // Too few readings beside a stretch make a paper level noisier than the stretch, and
        // paper on one side only, a spot or two away, is the paper's slope, not its level. The
        // paper is the darker side's: ink darkens a stretch against the paper on both sides of
        // it, while light that steps up along the line (a lamp switched on as the spot passed)
        // leaves the stretch as dark as the paper before the step. Against the median of both
        // sides, such a step in a close look's line under a noiseless 6 mm spot read 9 % dark,
        // 11 times the noise, and took a blank square for a mark (the harsh room, its lamp on
        // 40 s in, seed 8); over the detection matrix the darker side saw the same marks.
        let local_paper = |centre: i32| -> Option<(f64, usize)> {
            let around: Vec<&Sample> = samples
                .iter()
                .filter(|s| beside.contains(&(s.at.columns - centre).abs()))
                .collect();
            let side = |before: bool| -> Vec<u8> {
                around
                    .iter()
                    .filter(|s| (s.at.columns < centre) == before)
                    .map(|s| s.percent)
                    .collect()
            };
            let (before, after) = (side(true), side(false));
            let fewer = before.len().min(after.len());
            if fewer < MIN_READINGS_BESIDE / 2 {
                return None;
            }
            let paper = blank_level(&before)?.min(blank_level(&after)?);
            Some((f64::from(paper), 2 * fewer))
        };
        // Where some stretch has paper on both sides, a stretch without (near the window's
        // ends, where paper that darkens along the line would pass for a dip) is not judged.
        // Where none has (a spot wide against the window), the square's blank level stands in
        // for every stretch, with the readings it is the median of. Taken at another time, it
        // carries the paper's drift as well as its noise, so a stretch must then stand out of
        // it as far as a whole line must (MEAN_SIGMAS): at the faint test's 4.5, 4 % noise made
        // marks of paper in the detection matrix.
        let window_has_paper = samples.iter().any(|s| local_paper(s.at.columns).is_some());
        // The blank level holds at the window's middle. Light brighter at one side of the
        // board than the other (`light_along`) ramps along the line as well: the harsh room's
        // lamp, 10 % across the sheet, adds 1.5 % from one end of a 6 mm spot's window (52
        // degrees) to the other to the paper's own unevenness, and under a quiet sensor the
        // stretch at the dim end stood three deviations under the level, a hint that sent a
        // board with no new mark to a close look. Measured over the detection matrix's harsh
        // room: boards holding only a dot were looked at closely in 22 % of their reads, not
        // 29 %.
        let middle_deg = samples.iter().map(|s| f64::from(s.at.columns)).sum::<f64>()
            / samples.len().max(1) as f64;
        let repeats = readings_per_measurement(samples, read_period);
        let fresh = |n: usize| (n as f64 / repeats).max(1.0);
        // The paper beside a stretch, its variance as a share of one reading's (a median's
        // variance is about pi/2 times a mean's), and how many standard errors the faint test
        // asks of a stretch against it.
        let paper_beside = |centre: i32| -> Option<(f64, f64, f64)> {
            if window_has_paper {
                local_paper(centre).map(|(paper, n)| {
                    (
                        paper,
                        std::f64::consts::FRAC_PI_2 / fresh(n.max(1)),
                        FAINT_SIGMAS,
                    )
                })
            } else {
                // Off the centre line the blank level is further from the paper under the spot
                // (traced: a 6 mm spot's off-centre lines read a blank square 7 % dark against
                // it, 4.8 and 5.4 deviations of noise and light alone, and took it for a mark).
                let off_line = if on_blank_line {
                    0.0
                } else {
                    (OFF_CENTRE_PAPER / 2.0 * blank.level / blank.noise.max(0.5)).powi(2)
                };
                Some((
                    blank.level * (1.0 + light_along * (f64::from(centre) - middle_deg)),
                    std::f64::consts::FRAC_PI_2 / fresh(blank.readings.max(1))
                        + blank.light_share
                        + off_line,
                    MEAN_SIGMAS,
                ))
            }
        };
        // The deepest few readings in a row against the paper beside them.
        let n = settings.samples_per_stretch.clamp(1, readings.len());
        let local_depth = samples
            .windows(n)
            .filter_map(|stretch| {
                let mean = stretch.iter().map(|s| f64::from(s.percent)).sum::<f64>() / n as f64;
                let (paper, _, _) = paper_beside(stretch[n / 2].at.columns)?;
                Some((paper - mean) / paper.max(1.0))
            })
            .fold(0.0, f64::max);
        // The spot-wide stretch that stands furthest out of its noise.
        let half_spot = (spot_deg / 2.0).round() as i32;
        let reading_noise = blank.noise / blank.level.max(1.0);
        let local_sigmas = samples
            .iter()
            .map(|s| s.at.columns)
            .filter_map(|centre| {
                let stretch: Vec<f64> = samples
                    .iter()
                    .filter(|s| (s.at.columns - centre).abs() <= half_spot)
                    .map(|s| f64::from(s.percent))
                    .collect();
                let mean = stretch.iter().sum::<f64>() / stretch.len() as f64;
                let (paper, paper_share, asked) = paper_beside(centre)?;
                let noise = reading_noise * (1.0 / fresh(stretch.len()) + paper_share).sqrt();
                // In the faint test's own units: against the blank level, as far out of the
                // noise as it asks of a whole line.
                Some((paper - mean) / paper.max(1.0) / noise * FAINT_SIGMAS / asked)
            })
            .fold(0.0, f64::max);
        let mean = readings.iter().map(|&r| f64::from(r)).sum::<f64>() / readings.len() as f64;
        let mean_depth = blank.contrast(mean);
        let mean_noise =
            reading_noise * (1.0 / fresh(readings.len()) + blank.level_variance_share()).sqrt();
        let spacing_deg = match (samples.first(), samples.last()) {
            (Some(first), Some(last)) if samples.len() > 1 => {
                f64::from((last.at.columns - first.at.columns).abs()) / (samples.len() - 1) as f64
            }
            _ => 0.0,
        };
        Some(Look {
            rows_deg: samples[0].at.rows,
            samples: samples.len(),
            depth: blank.contrast(darkest),
            local_depth,
            local_sigmas,
            mean_depth,
            mean_sigmas: if on_blank_line {
                mean_depth / mean_noise
            } else {
                0.0
            },
            spacing_deg,
            clear: blank.thresholds(settings).0,
        })
    }
}

/// How many readings in a row, on average, return the same measurement: the sensor's period
/// over the time between readings, at least 1.
pub(crate) fn readings_per_measurement(samples: &[Sample], read_period: Duration) -> f64 {
    match (samples.first(), samples.last()) {
        (Some(first), Some(last)) if samples.len() > 1 => {
            let between = (last.time - first.time).as_secs_f64() / (samples.len() - 1) as f64;
            (read_period.as_secs_f64() / between.max(1e-6)).max(1.0)
        }
        _ => 1.0,
    }
}

/// Where the paper beside a stretch is taken from, in degrees either side of its centre, for a
/// spot `spot_deg` across: beyond nine tenths of a spot (so a stroke's own dip, a spot plus the
/// stroke wide, is not its own baseline) and within two (so the paper's drift over that span is
/// small). Under a spot as wide as half the window there is no such paper in the window, and
/// the blank level stands in for it.
pub fn local_paper_deg(spot_deg: f64) -> RangeInclusive<i32> {
    // (Fewer than [`MIN_READINGS_BESIDE`] readings there, and the blank level is used.)
    (spot_deg * 0.9).round() as i32..=(spot_deg * 2.0).round() as i32
}

/// The fewest readings beside a stretch that make a paper level to compare it with, half on
/// each side: with two or three, one noisy reading moves their median as far as a faint
/// stroke would, and readings on one side only measure the paper's slope across the window.
pub const MIN_READINGS_BESIDE: usize = 4;
