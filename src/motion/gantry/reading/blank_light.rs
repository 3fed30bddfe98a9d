//! The blank paper read in one light.
//!
//! Why: every later read judges each square against its blank level, in the light that read
//! measures on the paper it crosses (`sensing::light`). That holds as long as the blank levels
//! were all read in one light: a level and a slope across the sheet are followed, whatever
//! they are. A lamp switched on while the blank paper is read breaks it: the squares read
//! before read 15 % dimmer than the rest, for good, and no light any later read measures puts
//! them right. Measured on the harsh half of the detection matrix with the lamp switched on
//! 20 s into the world, in the middle of the blank read of the 12 mm spot read every 20 ms
//! (8.5 to 21.6 s): 544 squares taken for marks, 85 of the 97 rows with one in that condition.
//!
//! So the squares are read twice (the sheet's check before the grid is drawn, and again once
//! it is), and the two reads are held against each other: in one light, their ratios lie on a
//! plane (a drift changes the level, a lamp to one side the slope). Then the levels rest on
//! both reads. If they do not, the light changed during one of them; the robot says so and
//! reads again, and keeps the first two reads that agree, up to [`BLANK_READS`].
//!
//! Two reads' ratios do not show every lamp switched on during one of them. Switched on as
//! a read ends, it changes a single square, which under a noisy sensor lies within the noise
//! of the plane through the others; switched on partway along a row, the plane through the
//! ratios takes up part of the step and the rest stays in the levels. So both reads are
//! bracketed in time: at a read's end the sensor is held still over the square it crossed
//! first, and light that moved there since is read as the light changing during the read
//! ([`BRACKET_SIGMAS`]); the squares are read again. The sheet's check that is so read again
//! judges the sheet on its last read; if the light never held, it is not kept as the first
//! read, and the blank read makes its own.

use super::sweeping::{by_square, SweptRow};
use super::{paper_ratios, BlankPaper};
use crate::config::AxisPoint;
use crate::motion::gantry::{Gantry, Result};
use crate::motion::sensing::{
    self, one_light_within, readings_per_measurement, BlankSquare, PaperLight, PaperRatio, Sample,
    DRIFT_PER_S,
};

/// The most reads of the squares' paper the blank read makes: its own, and the ones that
/// hold it against the light. Each needs the light to change within the few seconds one read
/// takes; past that the robot goes on with the last and says so.
pub const BLANK_READS: usize = 4;

/// The light over the square a read crossed first, read again with the sensor held still at
/// the read's end, counts as having moved past this many standard errors of the two means
/// (and [`LIGHT_CHANGED`], and a drift over the seconds between).
///
/// Why: a lamp switched on as the read's last square or two are crossed is not seen in the
/// two reads' ratios under a noisy sensor. Traced in the harsh room with the lamp on 20 s in,
/// a fine-liner's O under the 9 mm spot at 4 % noise read every 20 ms: only the last square,
/// read 0.27 s after the lamp came on, stood 9 % above the others' ratios, each known to 2 %;
/// the plane through all nine leaned towards it, and it lay only 2 standard errors from the
/// plane through the other eight. The blank levels were held to one light they were not read
/// in, and two later reads each took a blank square for the mark. Over three draws of the
/// noise (seeds 7 to 9) the harsh half of the detection matrix with that lamp took 1, 23 and
/// 10 squares for marks, and voided 5 games; bracketed, it took none and voided none. Three
/// standard errors: noise alone passes it about once in 370 reads (none in 60 set-ups of the
/// default simulator), which costs a read of the squares again; a lamp missed costs a game.
const BRACKET_SIGMAS: f64 = 3.0;

/// How many times the squares are read again, at most, because the light moved during the
/// read before.
const BRACKETED_READS_AGAIN: usize = 2;

/// The square `rows` crossed first, its window's centre (in degrees of the columns axis, in
/// the spot's frame) and its readings in that window.
fn first_crossed(rows: &[SweptRow]) -> Option<(crate::game::Cell, i32, Vec<Sample>)> {
    let (sweep, samples) = rows.first()?;
    sweep
        .squares
        .iter()
        .map(|(cell, window)| (*cell, window, sensing::in_window(samples, window)))
        .filter(|(_, _, inside)| !inside.is_empty())
        .min_by_key(|(_, _, inside)| inside[0].time)
        .map(|(cell, window, inside)| (cell, (window.start() + window.end()) / 2, inside))
}

/// The mean of `values` and their spread (one reading's standard deviation), no less than a
/// whole percent's rounding.
fn mean_and_spread(values: &[f64]) -> (f64, f64) {
    let n = values.len().max(1) as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, variance.max(1.0 / 12.0).sqrt())
}

/// A read of the squares that is bracketed in time, and what its still read at the end is
/// also for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Bracketed {
    /// The sheet's check, the blank read's first read: its still read is short
    /// ([`CHECK_STILL_READINGS`]).
    SheetCheck,
    /// The blank read's second read: its still read also tells whether the sensor is quiet
    /// (see [`Gantry::reads_quiet_when_still`]).
    SecondRead,
}

impl Bracketed {
    fn name(self) -> &'static str {
        match self {
            Bracketed::SheetCheck => "the sheet's check",
            Bracketed::SecondRead => "the blank read's second read",
        }
    }
}

/// Still readings at the sheet's check's end. The bracket's error is mostly the check's own:
/// it crosses a square at the first look's pace, six fresh readings
/// ([`super::WINDOW_READINGS`]). Twelve still readings widen it by an eighth against the
/// 32 of the quiet sensor's test (the square root of 1/6 + 1/12 against 1/6 + 1/32), for 0.4 s
/// less at a reading every 20 ms.
const CHECK_STILL_READINGS: usize = 12;

impl Gantry {
    /// `rows`, a read of `cells` at `speed`, bracketed in time (see the module's docs): the
    /// sensor is held still over the square the read crossed first, and if the light there
    /// moved since, past noise and a drift ([`BRACKET_SIGMAS`]), the squares are read again,
    /// at most [`BRACKETED_READS_AGAIN`] times. Returns the last read, and whether its light
    /// held.
    pub(super) fn read_in_one_light(
        &mut self,
        cells: &[crate::game::Cell],
        speed: u32,
        mut rows: Vec<SweptRow>,
        bracketed: Bracketed,
    ) -> Result<(Vec<SweptRow>, bool)> {
        for again in 0..=BRACKETED_READS_AGAIN {
            let Some(moved) = self.light_moved_during(&rows, bracketed)? else {
                return Ok((rows, true));
            };
            if again == BRACKETED_READS_AGAIN {
                log::warn!(
                    "the light kept changing during {} (by {:+.0} % over the last read of it): \
                     going on with it",
                    bracketed.name(),
                    moved * 100.0
                );
                break;
            }
            log::warn!(
                "the light changed during {}: the square read first reads {:+.0} % from what \
                 it read then, past the sensor's noise and a drift: reading the squares again",
                bracketed.name(),
                moved * 100.0
            );
            rows = self.sweep_rows(cells, speed, &[0])?;
        }
        Ok((rows, false))
    }

    /// Holds the sensor still over the square `rows` crossed first and says how far the light
    /// there moved since, as a share, when past [`BRACKET_SIGMAS`]. After the blank read's
    /// second read, sets whether the sensor is quiet from the still readings.
    fn light_moved_during(
        &mut self,
        rows: &[SweptRow],
        bracketed: Bracketed,
    ) -> Result<Option<f64>> {
        let Some((cell, centre_deg, swept)) = first_crossed(rows) else {
            if bracketed == Bracketed::SecondRead {
                self.quiet_sensor = self.reads_quiet_when_still()?.0;
            }
            return Ok(None);
        };
        let offset = self.config.sensing.sensor_offset_deg;
        let rows_deg = self.config.board.cell_centre(cell).rows;
        self.move_to(AxisPoint::new(
            centre_deg + offset.columns,
            rows_deg + offset.rows,
        ))?;
        let (still, still_at) = match bracketed {
            Bracketed::SheetCheck => self.read_held_still(CHECK_STILL_READINGS)?,
            Bracketed::SecondRead => {
                let (quiet, still, still_at) = self.reads_quiet_when_still()?;
                self.quiet_sensor = quiet;
                (still, still_at)
            }
        };
        let period = self.read_period();
        // The sensor's noise, for both means, from the still readings: they all fall on one
        // spot of paper.
        let still_values: Vec<f64> = still.iter().map(|&p| f64::from(p)).collect();
        let (now, noise) = mean_and_spread(&still_values);
        let then = swept.iter().map(|s| f64::from(s.percent)).sum::<f64>() / swept.len() as f64;
        if then < 1.0 {
            return Ok(None);
        }
        let fresh_then = swept.len() as f64 / readings_per_measurement(&swept, period);
        let fresh_now = self.fresh_of_held_still(still.len());
        let moved = now / then - 1.0;
        let error = noise * (1.0 / fresh_then.max(1.0) + 1.0 / fresh_now).sqrt() / then;
        let between = still_at
            .saturating_sub(swept[swept.len() / 2].time)
            .as_secs_f64();
        let drift = DRIFT_PER_S * between;
        log::info!(
            "the light over {} at the end of {}: {:+.1} % from when the read crossed it ({:.1} \
             s before; noise allows {:.1} %, a drift {:.1} %)",
            self.square_name(cell),
            bracketed.name(),
            moved * 100.0,
            between,
            BRACKET_SIGMAS * error * 100.0,
            drift * 100.0
        );
        let past = one_light_within(error, BRACKET_SIGMAS, between);
        Ok((moved.abs() > past).then_some(moved))
    }

    /// `paper` (the blank read's first levels) held against `second`, a read of the same
    /// squares: the blank paper to judge every later read against, from both reads when they
    /// were taken in one light (see the module's docs).
    pub(super) fn blank_in_one_light(
        &mut self,
        paper: BlankPaper,
        second: Vec<SweptRow>,
    ) -> Result<BlankPaper> {
        let cells = self.all_squares();
        let fast = self.first_look_speed();
        let mut kept = paper;
        let mut rows = second;
        for read in 2..=BLANK_READS {
            if read > 2 {
                rows = self.sweep_rows(&cells, fast, &[0])?;
            }
            let period = self.read_period();
            let ratios = paper_ratios(&kept, &rows, &cells, period);
            let scatter = match PaperLight::one_light(kept.size, &ratios) {
                Ok(factors) => return Ok(both_reads(kept, &rows, &ratios, &factors, period)),
                Err(scatter) => scatter,
            };
            // The later read stands for the blank paper: its levels, with the noise measured
            // on the first two reads together.
            let noise = kept.squares[0].noise;
            let mut read_now = by_square(&rows);
            read_now.sort_by_key(|(cell, _)| cell.index(kept.size));
            let squares: Option<Vec<BlankSquare>> = read_now
                .into_iter()
                .map(|(cell, samples)| {
                    let ratio = ratios.iter().find(|r| r.cell == cell)?;
                    let fresh = samples.len() as f64 / readings_per_measurement(&samples, period);
                    Some(BlankSquare {
                        level: kept.of(cell).level * ratio.ratio,
                        noise,
                        readings: (fresh as usize).max(1),
                        light_share: 0.0,
                    })
                })
                .collect();
            let Some(again) = squares.and_then(|s| BlankPaper::new(kept.size, s)) else {
                return Ok(kept);
            };
            kept = again;
            if read == BLANK_READS {
                break;
            }
            log::warn!(
                "the light changed while the blank paper was read (the squares' paper moved by \
                 up to {:.0} % against each other between two reads): reading it again",
                scatter * 100.0
            );
        }
        log::warn!(
            "the light kept changing while the blank paper was read: going on with the last \
             read of it; marks may be judged less surely until the light settles"
        );
        Ok(kept)
    }
}

/// The blank levels from two reads of the paper in one light: each square's `first` level
/// (a median) and its mean in the `rows` of the later read, brought back to the first read's
/// light by the `factors` [`PaperLight::one_light`] gives on the two reads' `ratios`, weighed
/// by how many fresh readings each rests on (a median's variance is about pi/2 times a
/// mean's).
fn both_reads(
    first: BlankPaper,
    rows: &[SweptRow],
    ratios: &[PaperRatio],
    factors: &[f64],
    period: std::time::Duration,
) -> BlankPaper {
    let read_now = by_square(rows);
    let mut squares = first.squares.clone();
    for (ratio, factor) in ratios.iter().zip(factors) {
        let Some((_, samples)) = read_now.iter().find(|(cell, _)| *cell == ratio.cell) else {
            continue;
        };
        let fresh = samples.len() as f64 / readings_per_measurement(samples, period);
        let square = &mut squares[ratio.cell.index(first.size)];
        let first_weight = square.readings as f64 / std::f64::consts::FRAC_PI_2;
        let second = square.level * ratio.ratio / factor.max(1e-3);
        square.level = (first_weight * square.level + fresh * second) / (first_weight + fresh);
        square.readings += (std::f64::consts::FRAC_PI_2 * fresh) as usize;
    }
    BlankPaper { squares, ..first }
}
