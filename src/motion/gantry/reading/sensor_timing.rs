//! The sensor's timing, measured as it is used: how often a fresh value comes, how evenly, and
//! whether a still sensor repeats itself, which set how fast a sweep may run.

use super::FIRST_LOOK_SPACING;
use crate::config::RobotConfig;
use crate::motion::gantry::{Gantry, Result};
use crate::motion::sensing::Sample;
use crate::motion::Axis;
use std::time::Duration;

/// No sweep runs slower than this, however slow the sensor: the stall judge takes an axis
/// moving under about 13 deg/s for one that has stopped (see [`super::stall`]).
pub(in crate::motion::gantry) const SLOWEST_SWEEP_DEG_PER_S: u32 = 40;

/// Fresh readings in each square's window (three quarters of it, what a window keeps of its
/// readings at speed) of the blank read's second read, the one after the grid is drawn. Why:
/// the first, the sheet's check at the first look's pace, takes five or six, and a level is
/// the median of those and the mean of these together. With six here too, a level rested on
/// some fourteen readings' worth (a median's variance is pi/2 times a mean's), against twenty
/// for the slow read of its own the blank read took before session 16, and under the dim
/// sensor of `gantry_on_sim` (5 % noise at half the gain) an X was seen in 13 to 15 worlds
/// of 60 where it had been in 18 or more. With twelve, some twenty-four.
const SECOND_READ_READINGS: f64 = 12.0;

/// Fresh readings in each square's window of the slow read that measures the eye when the
/// second read gave too few across the grid's lines: as many as the slow blank read took
/// before session 16, which measured a 16 mm spot configured as 6 mm.
const EYE_READINGS: f64 = 20.0;

/// The fewest fresh readings a look takes along a square's window: fewer, and the mean of a
/// line (the test a wide spot relies on) is too noisy to tell a faint mark from paper.
pub const WINDOW_READINGS: f64 = 6.0;

/// The longest the colour sensor is taken to go between two fresh values when the paper it
/// reads changes too little to time it by: the slowest of the ranges docs/sensor.md cites, a
/// value every 20 ms on a busy brick and up to 4 ms later.
///
/// Why not slower: until session 27 such a sensor was taken to give a fresh value every fourth
/// read (40 ms at a read every 10 ms), beyond anything cited (the EV3's own firmware sends a
/// value within a millisecond or two of a change), and the blank read's second read, paced for
/// twelve fresh readings a square, went at a fraction of the pace its readings allowed. Over
/// six seeds of the 12 mm spot read every 10 ms, the blank read took 16.6 s under a sensor
/// flickering by half a percent (docs/sensor.md has a still sensor step by one count) and 17.9
/// s under one that did not flicker, against 11.2 to 12.0 s at 1 to 3 %; now 11.0 and 12.2 s.
/// At half a percent the reads of the board came out as before or a little faster; in the harsh
/// room without noise they are doubted more often (docs/figures.md). A noisy sensor slower than
/// this, which no source gives, is timed by its changes as before (`games_on_sim`'s sensor
/// answering every 30 ms).
pub(super) const SLOWEST_FRESH_PERIOD: Duration = Duration::from_millis(24);

/// Reads of the sensor held still that must all agree for it to count as quiet: a third of
/// a second at a read every 10 ms. A sensor that flickers by a count (noise of 0.5 %) keeps one
/// value that long about once in thirty thousand tries.
const STILL_READINGS: usize = 32;

/// The most polls waited for the carriage to hold still before the still reads (half a second
/// at 10 ms): its run-out takes a few.
const STILL_SETTLE_POLLS: usize = 50;

/// [`Gantry::reading_speed`] for a robot `config` whose sensor reads every `period`.
pub fn reading_speed(
    config: &RobotConfig,
    period: Duration,
    fraction: f64,
    most_deg_per_s: u32,
) -> u32 {
    let geometry = config.reading_geometry();
    let period = period.as_secs_f64().max(1e-3);
    let spacing_deg = (geometry.spot_columns_deg * fraction)
        .min(2.0 * f64::from(geometry.window_half_deg) / WINDOW_READINGS);
    let fits = spacing_deg / period;
    (fits as u32).clamp(
        SLOWEST_SWEEP_DEG_PER_S.min(most_deg_per_s),
        most_deg_per_s.max(1),
    )
}

/// The pace of the blank read's second read, no faster than the first look: for `readings`
/// fresh readings a square (see [`second_read_readings`]).
pub(super) fn second_read_speed(config: &RobotConfig, period: Duration, readings: f64) -> u32 {
    speed_for(config, period, readings.max(1.0))
}

/// Fresh readings a square the blank read's second read takes, after a first read whose paper
/// showed noise of `first_noise_percent` (one standard deviation): none beyond the first
/// look's pace for a sensor too quiet to be timed by its changes ([`too_quiet_to_time`]),
/// [`SECOND_READ_READINGS`] for any other.
///
/// Why: such a sensor reads the same whole percent again and again over the same paper, so a
/// level it reads is that value however many readings it rests on; and timed by the sources'
/// slowest period (see [`SLOWEST_FRESH_PERIOD`]), twelve of its readings a square had the second
/// read go at a third of the first look's pace. Measured over 72 set-ups each (no noise, 2, 3
/// and 4 %; 6, 9 and 12 mm spots; every 5, 10 and 20 ms; two seeds), the sheet was ready 21.0 s
/// after the game began under a sensor with no noise, against 24.3 s (under the 12 mm spot
/// 19.7 s against 25.0); over four draws of the detection matrix that sensor saw 5,245 marks in
/// the harsh room against 5,247, and 5,268 in steady light against 5,271, none taken for a mark
/// either way; every other sensor read exactly as before. Fewer readings under a
/// noisy sensor cost marks instead: paced for levels only as sure, as a share of the paper, as
/// the noisiest sensor's (readings off by 4 %), the matrix under 2 % noise saw 5,139 marks in
/// the harsh room against 5,195, and 5,268 in steady light against 5,289.
pub(super) fn second_read_readings(first_noise_percent: f64) -> f64 {
    if too_quiet_to_time(first_noise_percent) {
        0.0
    } else {
        SECOND_READ_READINGS
    }
}

/// The pace of the blank read's second read under any sensor that flickers: its slowest.
pub(super) fn slowest_second_read_speed(config: &RobotConfig, period: Duration) -> u32 {
    second_read_speed(config, period, SECOND_READ_READINGS)
}

/// The pace of the slow read that measures the eye (see [`EYE_READINGS`]), no faster than the
/// first look.
pub(super) fn eye_speed(config: &RobotConfig, period: Duration) -> u32 {
    speed_for(config, period, EYE_READINGS)
}

/// The pace that gives `readings` fresh readings in three quarters of each square's window,
/// no faster than the first look and no slower than the stall judge allows.
fn speed_for(config: &RobotConfig, period: Duration, readings: f64) -> u32 {
    let window = 1.5 * f64::from(config.reading_geometry().window_half_deg);
    let fits = window / (readings * period.as_secs_f64().max(1e-3));
    let first_look = reading_speed(
        config,
        period,
        FIRST_LOOK_SPACING,
        config.sensing.sweep_speed_deg_per_s,
    );
    (fits as u32).clamp(SLOWEST_SWEEP_DEG_PER_S, first_look.max(1))
}

/// The share of two fresh whole-percent readings with noise of standard deviation
/// `noise_percent` that come out equal, at most a half.
fn honest_repeats(noise_percent: f64) -> f64 {
    (1.0 / (2.0 * noise_percent * std::f64::consts::PI.sqrt())).min(0.5)
}

/// Whether a sensor with noise of standard deviation `noise_percent` is too quiet for its
/// changes to time it: half its fresh values or more repeat the last (see [`fresh_period`]).
pub(super) fn too_quiet_to_time(noise_percent: f64) -> bool {
    honest_repeats(noise_percent) >= 0.5
}

/// The time between two fresh measurements of the colour sensor, from the readings of sweeps.
///
/// The sensor measures on its own clock: on noisy paper a reading that repeats the last one is
/// most likely the same measurement read again, so the period is the time over the number of
/// fresh values. Two fresh whole-percent readings with noise of standard deviation s come out
/// equal about once in 2 s sqrt(pi) (3.5 for the default simulator's 1.7 %), so the changes are
/// scaled up by that share once the noise is known; without it the estimate errs slow, the safe
/// way. Noisy paper's changes time even a slower sensor, up to four reads a fresh value; a
/// sensor known to be too quiet for that is taken no slower than [`SLOWEST_FRESH_PERIOD`].
pub(super) fn fresh_period(sweeps: &[&[Sample]], noise_percent: Option<f64>) -> Option<Duration> {
    let (mut intervals, mut changes, mut took) = (0.0, 0.0, Duration::ZERO);
    for samples in sweeps {
        let (Some(first), Some(last)) = (samples.first(), samples.last()) else {
            continue;
        };
        intervals += samples.len().saturating_sub(1) as f64;
        changes += samples
            .windows(2)
            .filter(|w| w[0].percent != w[1].percent)
            .count() as f64;
        took += last.time - first.time;
    }
    if intervals < 2.0 {
        return None;
    }
    let honest_repeats = noise_percent.map_or(0.0, honest_repeats);
    // Noise so small that fresh values mostly repeat: the changes only say the sensor is no
    // faster than they show, and the sources say how slow it may be. Otherwise they time it,
    // whatever its period, up to four reads a fresh value.
    let fewest = if noise_percent.is_some_and(too_quiet_to_time) {
        (took.as_secs_f64() / SLOWEST_FRESH_PERIOD.as_secs_f64()).clamp(1.0, intervals)
    } else {
        (intervals / 4.0).max(1.0)
    };
    let fresh = (changes / (1.0 - honest_repeats)).clamp(fewest, intervals);
    Some(took.div_f64(fresh))
}

/// The time between two readings the robot took while sweeping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadSpread {
    /// The 5th percentile.
    pub low: Duration,
    pub median: Duration,
    /// The 95th percentile: a busy brick stretches it first.
    pub high: Duration,
}

impl std::fmt::Display for ReadSpread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "read every {} ms, 5-95 % of the time from {} to {} ms",
            self.median.as_millis(),
            self.low.as_millis(),
            self.high.as_millis()
        )
    }
}

/// The spread of the time between two readings in a sweep, over `sweeps`; `None` with fewer
/// than two readings in every sweep.
pub(super) fn spread_between_reads(sweeps: &[&[Sample]]) -> Option<ReadSpread> {
    let mut between: Vec<Duration> = sweeps
        .iter()
        .flat_map(|samples| samples.windows(2).map(|w| w[1].time - w[0].time))
        .collect();
    if between.is_empty() {
        return None;
    }
    between.sort_unstable();
    let at = |share: usize| between[(between.len() - 1) * share / 100];
    Some(ReadSpread {
        low: at(5),
        median: at(50),
        high: at(95),
    })
}

impl Gantry {
    /// The time between two readings the robot took on its last look, once it has looked: the
    /// 5th percentile, the median and the 95th. The sweep asks for one every
    /// `sensing.sample_ms`; on a busy brick each read of an attribute takes longer and they come
    /// later, which stretches the upper figure first.
    pub fn between_reads(&self) -> Option<ReadSpread> {
        self.between_reads
    }

    /// Whether the sensor, held still over the paper, keeps one value for
    /// [`STILL_READINGS`] reads. A sensor that flickers by even a count shows its fresh
    /// measurements as changes, and the sweeps time it by them (see [`fresh_period`]). One that
    /// does not cannot be timed so: over even paper its fresh values repeat the last, and
    /// counting its changes had taken a 12 ms sensor for a 20 ms one and slowed every sweep by
    /// a third. Its sweeps are paced by the robot's own reads instead (see
    /// [`Gantry::pace_period`]): the pace guards the count of independent readings a window's
    /// mean averages against the noise, and a quiet sensor has no noise to average. (The EV3
    /// colour sensor's firmware sends a value when it changes, so a repeat of a quiet one is
    /// its current value; see `docs/sensor.md`.) The judging keeps the slow count, as paper's
    /// own texture under a still sensor is not averaged away by reading it more often.
    ///
    /// Returns the values read too, and when they were read (their middle).
    pub(super) fn reads_quiet_when_still(&mut self) -> Result<(bool, Vec<u8>, Duration)> {
        let (values, middle) = self.read_held_still(STILL_READINGS)?;
        let (least, most) = (
            values.iter().min().copied().unwrap_or(0),
            values.iter().max().copied().unwrap_or(0),
        );
        let quiet = least == most;
        log::info!(
            "the sensor held still read {least} to {most} % over {} reads: {}",
            values.len(),
            if quiet {
                "quiet, so the sweeps are paced by the reads"
            } else {
                "it flickers, so its changes time it"
            }
        );
        Ok((quiet, values, middle))
    }

    /// `count` readings of the sensor held still where the carriage stopped, one a sample
    /// period apart, and when they were read (their middle).
    pub(super) fn read_held_still(&mut self, count: usize) -> Result<(Vec<u8>, Duration)> {
        let every = Duration::from_millis(self.config.sensing.sample_ms.max(1));
        // The sweep's run-out ends first: the carriage holds within a few polls.
        for _ in 0..STILL_SETTLE_POLLS {
            self.check_stop()?;
            if !self.motor(Axis::Columns).state()?.running {
                break;
            }
            self.clock().sleep(every);
        }
        let mut values = Vec::with_capacity(count);
        let began = self.clock().now();
        for _ in 0..count {
            self.check_stop()?;
            values.push(self.robot.light.reflected_percent()?);
            self.clock().sleep(every);
        }
        Ok((values, began + (self.clock().now() - began) / 2))
    }

    /// How many of `count` readings taken held still (see [`Gantry::read_held_still`]) are the
    /// sensor's own measurements, at least one: read more often than it measures, the sensor
    /// repeats its last value.
    pub(super) fn fresh_of_held_still(&self, count: usize) -> f64 {
        let sample = Duration::from_millis(self.config.sensing.sample_ms.max(1));
        let share = (sample.as_secs_f64() / self.read_period().as_secs_f64()).min(1.0);
        (count as f64 * share).max(1.0)
    }

    /// Whether the sensor kept one value held still over the blank paper, read just after the
    /// blank paper itself: a sensor that does not flicker cannot be timed by how often its value
    /// changes, so its sweeps are paced by the robot's reads.
    pub fn sensor_is_quiet(&self) -> bool {
        self.quiet_sensor
    }

    /// The time between two readings that a sweep's pace and the reading's lag rest on: the
    /// sensor's [`Gantry::read_period`], or for a quiet sensor (see
    /// [`Gantry::reads_quiet_when_still`]) the time between the robot's own reads, all such a
    /// sensor's freshness can be known by; never shorter than `sensing.sample_ms`.
    pub(super) fn pace_period(&self) -> Duration {
        let asked = Duration::from_millis(self.config.sensing.sample_ms);
        match (self.quiet_sensor, self.between_reads) {
            (true, Some(spread)) => spread.median.max(asked),
            _ => self.read_period(),
        }
    }

    /// The time between two colour readings: as last measured, or as configured before any
    /// sweep, whichever is longer.
    pub fn read_period(&self) -> Duration {
        let asked = Duration::from_millis(self.config.sensing.sample_ms);
        self.read_period
            .map_or(asked, |measured| measured.max(asked))
    }

    /// The speed of the first look at the board: readings at most half the spot apart. A
    /// stroke crossing the line darkens the spot over a spot plus its own width of travel, so
    /// at least two readings fall on even the thinnest; the faint ones a fast look cannot tell
    /// from noise get the slow, dense look.
    pub fn first_look_speed(&self) -> u32 {
        self.reading_speed(
            FIRST_LOOK_SPACING,
            self.config.sensing.sweep_speed_deg_per_s,
        )
    }

    /// The speed at which readings come at most `fraction` of the sensor's spot apart, at
    /// least `WINDOW_READINGS` of them fall in a square's window, and at most
    /// `most_deg_per_s`. Under a narrow spot the first bounds the speed; under a wide one,
    /// whose window is short, the second.
    pub fn reading_speed(&self, fraction: f64, most_deg_per_s: u32) -> u32 {
        reading_speed(&self.config, self.pace_period(), fraction, most_deg_per_s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sensor_too_quiet_to_time_reads_the_squares_again_at_the_first_look_s_pace() {
        let config = RobotConfig::default();
        // Such a sensor is timed by the sources' slowest period.
        let period = SLOWEST_FRESH_PERIOD;
        let first_look = reading_speed(
            &config,
            period,
            FIRST_LOOK_SPACING,
            config.sensing.sweep_speed_deg_per_s,
        );
        let quiet = second_read_speed(&config, period, second_read_readings(0.5));
        assert_eq!(quiet, first_look);
    }

    #[test]
    fn a_sensor_that_flickers_takes_twelve_fresh_readings_a_square_on_the_second_read() {
        let config = RobotConfig::default();
        let period = Duration::from_millis(12);
        for noise in [0.6, 1.7, 2.3, 5.0] {
            let paced = second_read_speed(&config, period, second_read_readings(noise));
            assert_eq!(
                paced,
                slowest_second_read_speed(&config, period),
                "noise {noise} %"
            );
        }
        // Twelve fresh readings in three quarters of the default 12 mm spot's window.
        let window = 1.5 * f64::from(config.reading_geometry().window_half_deg);
        let paced = f64::from(slowest_second_read_speed(&config, period));
        let readings = window / (paced * period.as_secs_f64());
        assert!((12.0..13.0).contains(&readings), "{readings} readings");
    }
}
