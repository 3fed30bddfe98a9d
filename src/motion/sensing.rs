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

/// One square's blank paper, read when the grid was drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlankSquare {
    /// The median reading, in percent.
    pub level: f64,
    /// The readings' spread, as a standard deviation estimated from their median absolute
    /// deviation (one dark speck cannot move it), in percent; at least half a percent, the
    /// sensor's resolution.
    pub noise: f64,
    /// How many readings the level is the median of: its own uncertainty, which every later
    /// comparison with it carries.
    pub readings: usize,
}

impl BlankSquare {
    /// Level and noise from a square's blank readings; `None` without readings.
    pub fn from_readings(readings: &[u8]) -> Option<BlankSquare> {
        let level = f64::from(blank_level(readings)?);
        Some(BlankSquare {
            level,
            noise: robust_spread(readings.iter().map(|&r| f64::from(r) - level)),
            readings: readings.len(),
        })
    }

    /// Every square's level from its own readings, and one noise for all of them from all the
    /// readings: the noise is the sensor's, and a dozen readings per square would estimate it
    /// coarsely (whole percents) where a hundred estimate it well. `None` if a square has no
    /// readings.
    ///
    /// Each square's median sits among its own readings, closer to them than the true level
    /// is, and with a few readings a square that matters: the spread is scaled up for the one
    /// reading's worth of freedom each median takes (as the n - 1 of a sample variance). Read
    /// fast with a sensor serving every 20 ms, six readings a square, the plain spread came out
    /// at three quarters of the simulator's true noise, and the thresholds built on it let
    /// noise through as a faint mark; so the blank paper is also read at the first look's
    /// pace, not at travel speed.
    pub fn pooled(squares: &[Vec<u8>]) -> Option<Vec<BlankSquare>> {
        let levels: Vec<f64> = squares
            .iter()
            .map(|r| blank_level(r).map(f64::from))
            .collect::<Option<_>>()?;
        let spread = robust_spread(
            squares
                .iter()
                .zip(&levels)
                .flat_map(|(r, &level)| r.iter().map(move |&x| f64::from(x) - level)),
        );
        let readings = squares.iter().map(Vec::len).sum::<usize>() as f64;
        let freedom = (readings - squares.len() as f64).max(1.0);
        let noise = spread * (readings.max(1.0) / freedom).sqrt();
        Some(
            levels
                .into_iter()
                .zip(squares)
                .map(|(level, readings)| BlankSquare {
                    level,
                    noise,
                    readings: readings.len(),
                })
                .collect(),
        )
    }

    /// The contrast thresholds for this square, as fractions of its level: the clear one, and
    /// the floor under the faint one (which a faint dip must also pass in units of its own
    /// noise: see [`Look::local_sigmas`]).
    pub fn thresholds(&self, settings: &SensingConfig) -> (f64, f64) {
        // The clear test is on a stretch of a few readings, and is not divided by the square
        // root of their number: read as fast as the sensor measures (with jitter), a stretch
        // often holds the same measurement twice, no quieter than one.
        let reading_noise = self.noise / self.level.max(1.0);
        let clear = (f64::from(settings.mark_contrast_percent) / 100.0).max(5.0 * reading_noise);
        let faint = f64::from(settings.faint_contrast_percent) / 100.0;
        (clear, faint.min(clear))
    }

    /// The variance of the level, as a share of one reading's: a median's variance is about
    /// pi/2 times a mean's of as many readings.
    pub fn level_variance_share(&self) -> f64 {
        std::f64::consts::FRAC_PI_2 / self.readings.max(1) as f64
    }

    /// How much darker than this paper a reading of `percent` is, as a fraction of its level.
    pub fn contrast(&self, percent: f64) -> f64 {
        (self.level - percent) / self.level.max(1.0)
    }
}

/// A standard deviation from deviations, with the largest 5 % (specks of dust, a stray
/// reading) left out: the root mean square of the rest; at least half a percent, the
/// sensor's resolution. (The median absolute deviation would be more robust, but with whole
/// percent readings and even noise it reads a third low, and the thresholds built on it let
/// noise through.)
fn robust_spread(deviations: impl Iterator<Item = f64>) -> f64 {
    let mut deviations: Vec<f64> = deviations.map(f64::abs).collect();
    if deviations.is_empty() {
        return 0.5;
    }
    deviations.sort_by(f64::total_cmp);
    let kept = &deviations[..(deviations.len() * 95).div_ceil(100)];
    let mean_square = kept.iter().map(|d| d * d).sum::<f64>() / kept.len() as f64;
    mean_square.sqrt().max(0.5)
}

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
}

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
/// deviations out for a mark seen a little on many lines (see [`pooled_sigmas`]): as far as
/// one line's mean must on its own.
pub const POOLED_SIGMAS: f64 = MEAN_SIGMAS;

/// The fewest different lines that must each dip past the faint floor for the pooled test.
pub const POOLED_LINES: usize = 3;

/// The evidence of all `looks` at a square together: the sum of their dips in units of their
/// noise (those past the `faint` floor; the rest count as none) over the square root of the
/// number of looks, as the deviations of independent looks add; zero unless
/// [`POOLED_LINES`] different lines dip past the floor. Under a dim sensor and heavy noise an
/// X may show on every line a dip of 2 to 4 deviations, each too little alone, in 6 looks
/// 7.4 together, where a blank square's looks in the same read came to under 2. Each look's
/// dip is measured against the paper beside it on that very line, not against the blank
/// level, so one level's error is not counted again and again.
pub fn pooled_sigmas(looks: &[Look], faint: f64) -> f64 {
    let dipping: Vec<&Look> = looks.iter().filter(|l| l.local_depth >= faint).collect();
    let mut lines: Vec<i32> = dipping.iter().map(|l| l.rows_deg).collect();
    lines.sort_unstable();
    lines.dedup();
    if lines.len() < POOLED_LINES {
        return 0.0;
    }
    let sum: f64 = dipping.iter().map(|l| l.local_sigmas.max(0.0)).sum();
    sum / (looks.len() as f64).sqrt()
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
    pub fn of(
        blank: &BlankSquare,
        samples: &[Sample],
        settings: &SensingConfig,
        read_period: Duration,
        spot_deg: f64,
        on_blank_line: bool,
    ) -> Option<Look> {
        let readings: Vec<u8> = samples.iter().map(|s| s.percent).collect();
        let darkest = darkest_stretch(&readings, settings.samples_per_stretch)?;
        let beside = local_paper_deg(spot_deg);
        // Too few readings beside a stretch make a paper level noisier than the stretch, and
        // paper on one side only, a spot or two away, is the paper's slope, not its level.
        let local_paper = |centre: i32| -> Option<(f64, usize)> {
            let around: Vec<&Sample> = samples
                .iter()
                .filter(|s| beside.contains(&(s.at.columns - centre).abs()))
                .collect();
            let before = around.iter().filter(|s| s.at.columns < centre).count();
            let both_sides = before.min(around.len() - before) >= MIN_READINGS_BESIDE / 2;
            let percents: Vec<u8> = around.iter().map(|s| s.percent).collect();
            let paper = blank_level(&percents).filter(|_| both_sides)?;
            Some((f64::from(paper), around.len()))
        };
        // Where some stretch has paper on both sides, a stretch without (near the window's
        // ends, where paper that darkens along the line would pass for a dip) is not judged.
        // Where none has (a spot wide against the window), the square's blank level stands in
        // for every stretch, with the readings it is the median of. Taken at another time, it
        // carries the paper's drift as well as its noise, so a stretch must then stand out of
        // it as far as a whole line must (MEAN_SIGMAS): at the faint test's 4.5, 4 % noise made
        // marks of paper in the detection matrix.
        let window_has_paper = samples.iter().any(|s| local_paper(s.at.columns).is_some());
        // The paper beside a stretch, how many readings it rests on, and how many standard
        // errors the faint test asks of a stretch against it.
        let paper_beside = |centre: i32| -> Option<(f64, usize, f64)> {
            if window_has_paper {
                local_paper(centre).map(|(paper, n)| (paper, n, FAINT_SIGMAS))
            } else {
                Some((blank.level, blank.readings, MEAN_SIGMAS))
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
        let repeats = readings_per_measurement(samples, read_period);
        let fresh = |n: usize| (n as f64 / repeats).max(1.0);
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
                let (paper, beside, asked) = paper_beside(centre)?;
                // A median's variance is about pi/2 times a mean's.
                let noise = reading_noise
                    * (1.0 / fresh(stretch.len())
                        + std::f64::consts::FRAC_PI_2 / fresh(beside.max(1)))
                    .sqrt();
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

/// What the looks at a square add up to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence {
    /// Nothing darker than the faint floor.
    Blank,
    /// One dip between the faint floor and the clear threshold: read it again before deciding.
    Borderline,
    Marked,
}

/// Judges a square from its looks: marked with a dip past the clear threshold on any line, a
/// whole line darker than its paper by the faint floor and [`MEAN_SIGMAS`] of its noise (ink
/// spread over the window, which a speck under the spot cannot make), or a faint dip (past the
/// faint floor and [`FAINT_SIGMAS`]) on two different lines, or small dips on three lines or
/// more that together stand [`POOLED_SIGMAS`] out ([`pooled_sigmas`]); borderline with a faint
/// dip on one.
pub fn judge(blank: &BlankSquare, looks: &[Look], settings: &SensingConfig) -> Evidence {
    let (clear, faint) = blank.thresholds(settings);
    if looks.iter().any(|l| {
        l.depth >= clear
            || (l.mean_depth >= faint && l.mean_sigmas >= MEAN_SIGMAS)
            || (l.local_depth >= faint && l.local_sigmas >= SURE_SIGMAS)
    }) {
        return Evidence::Marked;
    }
    if pooled_sigmas(looks, faint) >= POOLED_SIGMAS {
        return Evidence::Marked;
    }
    let mut faint_lines: Vec<i32> = looks
        .iter()
        .filter(|l| l.local_depth >= faint && l.local_sigmas >= FAINT_SIGMAS)
        .map(|l| l.rows_deg)
        .collect();
    faint_lines.sort_unstable();
    faint_lines.dedup();
    match faint_lines.len() {
        0 => Evidence::Blank,
        1 => Evidence::Borderline,
        _ => Evidence::Marked,
    }
}

/// What the reading of one square came to, with every look, for the log.
#[derive(Debug, Clone, PartialEq)]
pub struct SquareReading {
    pub cell: Cell,
    pub blank: BlankSquare,
    pub looks: Vec<Look>,
    pub evidence: Evidence,
}

impl SquareReading {
    pub fn marked(&self) -> bool {
        self.evidence == Evidence::Marked
    }

    /// Still borderline after every look: a faint dip on one line only. The robot names such a
    /// square and asks for it darker rather than passing over it.
    pub fn unsure(&self) -> bool {
        self.evidence == Evidence::Borderline
    }

    /// Some look showed a dip [`HINT_SIGMAS`] out of its noise: too little to judge by, enough
    /// to be worth a closer look when the person says they have moved and nothing is seen.
    pub fn hinted(&self) -> bool {
        self.looks
            .iter()
            .any(|l| l.local_sigmas.max(l.mean_sigmas) >= HINT_SIGMAS)
    }

    /// The reading in words: "blank 70 %, noise 1.2 %; centre line 12 samples 4.0° apart: 38 %
    /// darker; ...: marked".
    pub fn describe(&self) -> String {
        let looks: Vec<String> = self
            .looks
            .iter()
            .map(|l| {
                format!(
                    "line at rows {} deg, {} samples {:.1} deg apart: {:.0}% darker ({:.0}% than \
                     the paper beside it, {:.1} times its noise; all of it {:.0}% darker, {:.1} \
                     times its noise)",
                    l.rows_deg,
                    l.samples,
                    l.spacing_deg,
                    l.depth * 100.0,
                    l.local_depth * 100.0,
                    l.local_sigmas,
                    l.mean_depth * 100.0,
                    l.mean_sigmas
                )
            })
            .collect();
        format!(
            "paper {:.0}%, noise {:.1}%; {}: {}",
            self.blank.level,
            self.blank.noise,
            looks.join("; "),
            match self.evidence {
                Evidence::Blank => "blank",
                Evidence::Borderline => "not sure",
                Evidence::Marked => "marked",
            }
        )
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
            .filter(|r| r.marked())
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

/// Finds the grid lines drawn at columns `lines` in sweeps along rows (each sweep's readings
/// in order), searching `search_deg` either side of each, with a spot `spot_deg` across.
///
/// Each crossing is the darkest point of the readings within a quarter spot of it, against
/// the row's paper (its 75th percentile, which ink between the lines cannot pull down); a
/// crossing counts when it is at least `least_depth` darker. `None` when fewer than two do.
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
    let mut found: Vec<(f64, f64, bool)> = Vec::new();
    for samples in sweeps {
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
                        (at, (paper - mean) / paper)
                    })
                })
                .max_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((at, depth)) = best.filter(|&(_, depth)| depth >= least_depth) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> SensingConfig {
        SensingConfig::default()
    }

    const PAPER: BlankSquare = BlankSquare {
        level: 70.0,
        noise: 1.5,
        readings: 12,
    };

    /// A look along the line at `rows` whose darkest stretch reads `darkest` percent.
    fn look(rows: i32, darkest: f64) -> Look {
        Look {
            rows_deg: rows,
            samples: 20,
            depth: PAPER.contrast(darkest),
            local_depth: PAPER.contrast(darkest),
            local_sigmas: (PAPER.level - darkest) / PAPER.noise,
            mean_depth: 0.0,
            mean_sigmas: 0.0,
            spacing_deg: 4.0,
        }
    }

    #[test]
    fn a_mark_seen_a_little_on_many_lines_is_a_mark_and_on_two_lines_is_not() {
        // Dips of 3 to 4 deviations: each too little for a faint mark alone (4.5).
        let faintly = |rows: &[i32]| -> Vec<Look> {
            rows.iter()
                .zip([65.0, 64.0, 64.5, 65.0, 64.5, 65.0])
                .map(|(&rows, darkest)| look(rows, darkest))
                .collect()
        };
        let three_lines = faintly(&[170, 186, 154]);
        assert!(three_lines.iter().all(|l| l.local_sigmas < FAINT_SIGMAS));
        assert_eq!(judge(&PAPER, &three_lines, &settings()), Evidence::Marked);
        // As strong, but on two lines only (read twice each): the pooled test asks for three.
        let two_lines = faintly(&[170, 186, 170, 186]);
        assert_eq!(pooled_sigmas(&two_lines, 0.06), 0.0);
        assert_eq!(judge(&PAPER, &two_lines, &settings()), Evidence::Blank);
        // Blank paper's looks, a deviation or so each, on six lines.
        let blank: Vec<Look> = [170, 186, 154, 170, 186, 154]
            .iter()
            .map(|&rows| Look {
                local_sigmas: 1.2,
                ..look(rows, 65.0)
            })
            .collect();
        assert!(pooled_sigmas(&blank, 0.06) < 3.0);
        assert_eq!(judge(&PAPER, &blank, &settings()), Evidence::Blank);
    }

    #[test]
    fn the_blank_level_is_the_median_and_the_noise_a_robust_spread() {
        assert_eq!(blank_level(&[70, 71, 12, 69, 72]), Some(70));
        assert_eq!(blank_level(&[]), None);
        let mut readings = vec![70, 71, 69, 72, 68, 70, 71, 69, 70, 70, 72, 68, 69, 71, 70];
        readings.extend([70, 69, 71, 70, 12]);
        let paper = BlankSquare::from_readings(&readings).unwrap();
        assert_eq!(paper.level, 70.0);
        assert!(
            (0.8..1.5).contains(&paper.noise),
            "one speck in twenty does not count: {paper:?}"
        );
        let still = BlankSquare::from_readings(&[70, 70, 70]).unwrap();
        assert_eq!(still.noise, 0.5, "never below the sensor's resolution");
        let pooled = BlankSquare::pooled(&[vec![70, 72, 68], vec![50, 52, 48]]).unwrap();
        assert_eq!((pooled[0].level, pooled[1].level), (70.0, 50.0));
        assert_eq!(pooled[0].noise, pooled[1].noise, "one sensor, one noise");
        // Six readings, two of them taken up by the medians: the mean square (16 / 6) is
        // counted over the four readings' worth of freedom left.
        assert!((pooled[0].noise - 2.0).abs() < 1e-9, "{pooled:?}");
        assert!(BlankSquare::pooled(&[vec![70], vec![]]).is_none());
    }

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

    #[test]
    fn a_deep_dip_on_one_line_is_a_mark() {
        assert_eq!(
            judge(&PAPER, &[look(170, 12.0)], &settings()),
            Evidence::Marked
        );
        // A thin black stroke: 40 % of the ink's contrast.
        assert_eq!(
            judge(&PAPER, &[look(170, 46.0)], &settings()),
            Evidence::Marked
        );
    }

    #[test]
    fn a_faint_dip_on_one_line_needs_a_second_look_and_a_second_line() {
        let faint = 62.0; // 11.4 % darker
        assert_eq!(
            judge(&PAPER, &[look(170, faint)], &settings()),
            Evidence::Borderline
        );
        assert_eq!(
            judge(&PAPER, &[look(170, faint), look(145, faint)], &settings()),
            Evidence::Marked
        );
        // The same line read twice is still one line: a dot, not a stroke.
        assert_eq!(
            judge(&PAPER, &[look(170, faint), look(170, faint)], &settings()),
            Evidence::Borderline
        );
    }

    #[test]
    fn paper_that_darkens_along_the_line_is_not_a_faint_mark_but_a_narrow_dip_is() {
        let line = |dip: bool| -> Vec<Sample> {
            (0..36)
                .map(|i| {
                    let columns = 130 + 2 * i;
                    // 8 % darker from one end to the other.
                    let mut percent = 70.0 - 5.6 * f64::from(i) / 35.0;
                    if dip && (168..=172).contains(&columns) {
                        percent -= 6.0;
                    }
                    Sample {
                        at: AxisPoint::new(columns, 195),
                        time: Duration::from_millis(10 * i as u64),
                        percent: percent.round() as u8,
                    }
                })
                .collect()
        };
        let drift = Look::of(
            &PAPER,
            &line(false),
            &settings(),
            Duration::from_millis(10),
            10.0,
            true,
        )
        .unwrap();
        assert!(drift.local_depth < 0.03, "{drift:?}");
        let stroke = Look::of(
            &PAPER,
            &line(true),
            &settings(),
            Duration::from_millis(10),
            10.0,
            true,
        )
        .unwrap();
        assert!(stroke.local_depth > 0.07, "{stroke:?}");
    }

    #[test]
    fn noise_alone_is_blank_and_a_noisier_paper_raises_the_thresholds() {
        assert_eq!(
            judge(&PAPER, &[look(170, 67.0)], &settings()),
            Evidence::Blank
        );
        let noisy = BlankSquare {
            level: 70.0,
            noise: 4.0,
            readings: 12,
        };
        let (clear, _) = noisy.thresholds(&settings());
        let (quiet_clear, _) = PAPER.thresholds(&settings());
        assert!(clear > quiet_clear, "{clear} {quiet_clear}");
        assert!(clear > 5.0 * 4.0 / 70.0 - 1e-9);
        // The same faint dip on two lines: a mark on quiet paper, noise on noisy paper.
        let dip = |paper: &BlankSquare, rows| Look {
            local_sigmas: 8.0 / paper.noise,
            ..look(rows, 62.0)
        };
        let on =
            |paper: &BlankSquare| judge(paper, &[dip(paper, 170), dip(paper, 145)], &settings());
        assert_eq!(on(&PAPER), Evidence::Marked);
        assert_eq!(on(&noisy), Evidence::Blank);
    }

    #[test]
    fn a_slow_dense_look_sees_a_faint_stroke_that_a_fast_one_cannot_tell_from_noise() {
        // A stroke 5 percent darker than 70 % paper, 10 degrees wide, under noise of 1.5 %.
        let line = |spacing: i32, period_ms: u64| -> Vec<Sample> {
            (0..=70 / spacing)
                .map(|i| {
                    let columns = 135 + spacing * i;
                    let dip = if (165..=175).contains(&columns) {
                        3.5
                    } else {
                        0.0
                    };
                    Sample {
                        at: AxisPoint::new(columns, 170),
                        time: Duration::from_millis(period_ms * i as u64),
                        percent: (70.0 - dip) as u8,
                    }
                })
                .collect()
        };
        let period = Duration::from_millis(10);
        let fast = Look::of(&PAPER, &line(5, 10), &settings(), period, 10.0, true).unwrap();
        let dense = Look::of(&PAPER, &line(1, 10), &settings(), period, 10.0, true).unwrap();
        assert!(fast.local_sigmas < FAINT_SIGMAS, "{fast:?}");
        assert!(dense.local_sigmas >= FAINT_SIGMAS, "{dense:?}");
        // Read ten times as often as the sensor measures, the dense line is no better than the
        // fast one: its readings are repeats.
        let repeated = Look::of(&PAPER, &line(1, 1), &settings(), period, 10.0, true).unwrap();
        assert!(repeated.local_sigmas < FAINT_SIGMAS, "{repeated:?}");
    }

    #[test]
    fn dim_paper_is_judged_against_its_own_level() {
        // A dim sensor: paper reads 35, ink 5. A fixed threshold of 25 would see neither right.
        let dim = BlankSquare {
            level: 35.0,
            noise: 1.0,
            readings: 12,
        };
        let look_at = |darkest: f64| Look {
            rows_deg: 170,
            samples: 20,
            depth: dim.contrast(darkest),
            local_depth: dim.contrast(darkest),
            local_sigmas: (dim.level - darkest) / dim.noise,
            mean_depth: 0.0,
            mean_sigmas: 0.0,
            spacing_deg: 4.0,
        };
        assert_eq!(judge(&dim, &[look_at(34.0)], &settings()), Evidence::Blank);
        assert_eq!(judge(&dim, &[look_at(6.0)], &settings()), Evidence::Marked);
    }

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

    #[test]
    fn new_marks_are_none_one_or_several() {
        let read = |cell, evidence| SquareReading {
            cell,
            blank: PAPER,
            looks: vec![],
            evidence,
        };
        let a = Cell { row: 0, col: 0 };
        let b = Cell { row: 2, col: 1 };
        assert_eq!(
            NewMarks::from_readings(&[read(a, Evidence::Blank), read(b, Evidence::Borderline)]),
            NewMarks::None
        );
        assert_eq!(
            NewMarks::from_readings(&[read(a, Evidence::Blank), read(b, Evidence::Marked)]),
            NewMarks::One(b)
        );
        assert_eq!(
            NewMarks::from_readings(&[read(b, Evidence::Marked), read(a, Evidence::Marked)]),
            NewMarks::Several(vec![a, b])
        );
    }
}

#[cfg(test)]
mod used_sheet_tests {
    use super::*;

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
