//! A square's blank paper: its level and its noise, read when the grid is drawn.

use super::blank_level;
use crate::config::SensingConfig;

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
    /// The variance of the light's measure this level was scaled by (see
    /// [`BlankSquare::in_light`]), as a share of one reading's variance: 0 as read.
    pub light_share: f64,
}

impl BlankSquare {
    /// Level and noise from a square's blank readings; `None` without readings.
    pub fn from_readings(readings: &[u8]) -> Option<BlankSquare> {
        let level = f64::from(blank_level(readings)?);
        Some(BlankSquare {
            level,
            noise: robust_spread(readings.iter().map(|&r| f64::from(r) - level)),
            readings: readings.len(),
            light_share: 0.0,
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
                    light_share: 0.0,
                })
                .collect(),
        )
    }

    /// The contrast thresholds for this square, as fractions of its level: the clear one, and
    /// the floor under the faint one (which a faint dip must also pass in units of its own
    /// noise: see [`super::Look::local_sigmas`]).
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
    /// pi/2 times a mean's of as many readings, and the light's measure adds its own.
    pub fn level_variance_share(&self) -> f64 {
        std::f64::consts::FRAC_PI_2 / self.readings.max(1) as f64 + self.light_share
    }

    /// This paper under light `factor` times what it was at the blank read, measured to within
    /// `error` (a share): its level scaled, and as uncertain as the light's measure makes it
    /// (counted as fewer readings behind the median). The noise stays as it was, in percent:
    /// the sensor's noise and its whole-percent steps do not dim with the light, so under a
    /// shadow the same noise is a larger share of the paper, and every test in units of it asks
    /// more of a dip.
    pub fn in_light(&self, factor: f64, error: f64) -> BlankSquare {
        BlankSquare {
            level: self.level * factor,
            light_share: 0.0,
            ..*self
        }
        .doubted_by(error)
    }

    /// This paper, its level as uncertain again by `doubt` more (a share), beside what its
    /// light's measure gave it already.
    pub fn doubted_by(&self, doubt: f64) -> BlankSquare {
        BlankSquare {
            light_share: self.light_share + (doubt * self.level / self.noise.max(0.5)).powi(2),
            ..*self
        }
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
pub(super) fn robust_spread(deviations: impl Iterator<Item = f64>) -> f64 {
    let mut deviations: Vec<f64> = deviations.map(f64::abs).collect();
    if deviations.is_empty() {
        return 0.5;
    }
    deviations.sort_by(f64::total_cmp);
    let kept = &deviations[..(deviations.len() * 95).div_ceil(100)];
    let mean_square = kept.iter().map(|d| d * d).sum::<f64>() / kept.len() as f64;
    mean_square.sqrt().max(0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
