//! The paper under the parked sensor, read held still as a person's turn begins and again
//! once they press: whether they still shadow the sheet.
//!
//! Why: a person presses the touch sensor and steps back, and until they do their shadow dims
//! the paper (docs/sensor.md, "The room": 7 % for a second and a half in the account that
//! opened issue 31, 20 % at the harsh end). A look that starts in it reads its first squares
//! in one light and the rest in another, and the read then reads those squares again once the
//! shadow must have gone (`after_press`). Over the detection matrix that cost the harsh room
//! 2.2 s a read: its first look took 5.45 s against 3.21 s in steady light, with 12 squares
//! read where steady light read 7.8. The parked sensor sees the same paper before and after
//! the person came, so it can see the shadow itself, and the read can start when it lifts.

use super::{one_light_within, SIGNIFICANT_SIGMAS};
use std::time::Duration;

/// The paper under the sensor held still: the mean of its readings and that mean's standard
/// error (both in the sensor's percent), and when they were read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PaperAtRest {
    pub mean: f64,
    pub error: f64,
    pub read_at: Duration,
}

impl PaperAtRest {
    /// The paper as `values`, read held still, show it: `fresh` of them are the sensor's own
    /// measurements (a sensor read faster than it measures repeats its value), each off by
    /// `noise_percent` (one standard deviation; at least half a percent, the reading's own
    /// rounding). `None` without readings.
    pub fn of(values: &[u8], fresh: f64, noise_percent: f64, read_at: Duration) -> Option<Self> {
        if values.is_empty() {
            return None;
        }
        let mean = values.iter().map(|&v| f64::from(v)).sum::<f64>() / values.len() as f64;
        Some(PaperAtRest {
            mean,
            error: noise_percent.max(0.5) / fresh.clamp(1.0, values.len() as f64).sqrt(),
            read_at,
        })
    }

    /// How much darker `now` reads than this paper, as a share of it, when that is more than
    /// one light allows ([`one_light_within`]: a change of the light, three standard errors of
    /// the two means, a smooth drift over the time between them): a shadow, or a lamp
    /// switched off. `None` when it is not.
    /// Brighter is never waited for: a person's shadow only dims.
    pub fn darker_now(&self, now: &PaperAtRest) -> Option<f64> {
        let darker = (self.mean - now.mean) / self.mean.max(1.0);
        let seconds = self.read_at.abs_diff(now.read_at).as_secs_f64();
        (darker > one_light_within(self.error_of_both(now.error), SIGNIFICANT_SIGMAS, seconds))
            .then_some(darker)
    }

    /// The faintest darkening, as a share, that a later read of this paper with a mean's
    /// error of `later_error` (percent) tells from it at once: over a dark table (5 %) at 3 %
    /// noise, only one that takes about two thirds of the light.
    pub fn faintest_shadow(&self, later_error: f64) -> f64 {
        one_light_within(self.error_of_both(later_error), SIGNIFICANT_SIGMAS, 0.0)
    }

    /// The standard error of this paper's mean and a later one's (`later_error`, percent)
    /// apart, as a share of this paper.
    fn error_of_both(&self, later_error: f64) -> f64 {
        self.error.hypot(later_error) / self.mean.max(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paper(values: &[u8], noise: f64, at_s: f64) -> PaperAtRest {
        let fresh = values.len() as f64;
        PaperAtRest::of(values, fresh, noise, Duration::from_secs_f64(at_s)).unwrap()
    }

    #[test]
    fn a_person_s_shadow_on_the_paper_is_darker_past_noise_and_drift() {
        let before = paper(&[70, 71, 69, 70, 70, 71, 69, 70], 1.0, 0.0);
        // The harsh room's shadow, a fifth off the light, two seconds after the turn began.
        let shadowed = paper(&[56, 57, 55, 56], 1.0, 2.0);
        let darker = before.darker_now(&shadowed).expect("a shadow");
        assert!((darker - 0.2).abs() < 0.01, "{darker}");
    }

    #[test]
    fn paper_as_before_or_brighter_is_not_waited_for() {
        let before = paper(&[70; 8], 1.0, 0.0);
        assert_eq!(before.darker_now(&paper(&[69, 70, 70, 71], 1.0, 1.0)), None);
        assert_eq!(before.darker_now(&paper(&[80; 4], 1.0, 1.0)), None);
    }

    #[test]
    fn a_slow_drift_over_a_long_turn_is_not_a_shadow() {
        let before = paper(&[70; 8], 1.0, 0.0);
        // 5 % darker: a shadow a second later, a drift after half a minute's thinking.
        let later = |s| paper(&[66, 67, 66, 67], 1.0, s);
        assert!(before.darker_now(&later(1.0)).is_some());
        assert_eq!(before.darker_now(&later(30.0)), None);
    }

    #[test]
    fn a_noisy_sensor_needs_a_deeper_shadow() {
        // 4 % noise over four fresh readings: a 4 % dip is within three errors of the two
        // means, a 12 % one is not.
        let before = paper(&[70; 8], 4.0, 0.0);
        assert_eq!(before.darker_now(&paper(&[67; 4], 4.0, 0.5)), None);
        assert!(before.darker_now(&paper(&[62; 4], 4.0, 0.5)).is_some());
    }

    #[test]
    fn repeated_readings_of_a_slow_sensor_count_once() {
        let every_reading = paper(&[70; 8], 2.0, 0.0);
        let half_fresh = PaperAtRest::of(&[70; 8], 4.0, 2.0, Duration::ZERO).unwrap();
        assert!(half_fresh.error > every_reading.error * 1.4);
    }
}
