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
//! read, and the blank read makes its own. A read too long for one bracket to tell a lamp from
//! a drift is bracketed along the way too ([`BRACKET_SPAN`]).

use super::sweeping::{by_square, SweptRow};
use super::{paper_ratios, BlankPaper};
use crate::config::AxisPoint;
use crate::motion::gantry::{Gantry, Result};
use crate::motion::sensing::{
    self, one_light_within, readings_per_measurement, BlankSquare, PaperLight, PaperRatio, Sample,
    DRIFT_PER_S,
};
use std::time::Duration;

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

/// The longest stretch of a read one bracket spans. A read that would take longer is
/// bracketed along the way as well: between two of its sweeps the sensor is held still over
/// the square it crossed first, and each stretch is judged on its own.
///
/// Why: a bracket allows the light a drift over the seconds it spans ([`DRIFT_PER_S`]), and a
/// lamp's step hides in that allowance when the read is long. From its first crossing to its
/// bracket, the blank read's second read spans 4.6 to 6.5 s on average under each of the
/// detection matrix's spots read every 5 or 10 ms (9.9 s at most, the 6 mm spot's), and 7.1 to
/// 11.1 s read every 20 ms, up to 19.6 s where the eye is measured on a slow read again (one
/// run of the bench). The harsh room's lamp brightens the squares' windows by 12 % at the
/// sheet's dim side (15 % at the middle, 10 % across a sheet whose windows lie 30 % of it
/// either side of the middle; docs/sensor.md, "The room"), and its drift may run 0.52 % a
/// second against it: a bracket sees that step past the 2 % floor and its own allowance over up
/// to (12 - 2) / (0.52 + 0.6) = 9 s, and over 8 s keeps 1 % for the noise of a quiet sensor's
/// two means. Traced (the lamp by the columns switched on 30 s in, the 6 mm spot read every 20
/// ms with no noise, seed 11 of the lamp sweep): the slow read again for the eye ran from 18.5
/// to 38 s, the lamp came on as it crossed the middle row, and the square crossed first, held
/// still at the end, read 11.3 % brighter against an allowance of 12.6 % over 21 s. The blank
/// levels were held to a light they were not read in, and the 6 mm spot's noiseless looks took
/// 17 squares for marks over that world's rows.
const BRACKET_SPAN: Duration = Duration::from_secs(8);

/// The square a read crossed first, read held still along the way (see [`BRACKET_SPAN`]): its
/// readings and when they were taken.
type StillRead = (Vec<u8>, Duration);

/// One reading of the square a read crossed first, as a bracket compares it with the next:
/// the mean of its readings, when they were taken, and how many fresh measurements they hold.
#[derive(Debug, Clone, Copy, PartialEq)]
struct SquareReading {
    mean: f64,
    at: Duration,
    fresh: f64,
}

/// A read of the squares, bracketed along the way where it ran long.
pub(super) struct BracketedRead {
    pub rows: Vec<SweptRow>,
    along_the_way: Vec<StillRead>,
}

/// A read of the squares in one light, as [`Gantry::read_in_one_light`] leaves it.
pub(super) struct InOneLight {
    pub rows: Vec<SweptRow>,
    /// Whether the light held: false when it moved past noise and a drift on every read.
    pub held: bool,
    /// How the light drifted while the squares were read, where the read was bracketed along
    /// the way and the still reads show a drift past their noise.
    pub drift: Option<DriftDuringRead>,
}

/// The light's drift while a long read went on, as the still reads over its first square
/// measured it (one spot of paper, read along the way and at the end): a share of the light
/// a second, from the last of them.
///
/// Why: a read snakes along the rows, so within a row a drift runs one way across the
/// columns and the other way in the next, which the plane the two blank reads are held to
/// cannot follow, and the levels keep it. Traced (the harsh room, its lamp switched on during
/// the second read of the 6 mm spot read every 20 ms with no noise, seed 7; an O by ballpoint):
/// the read again took 19 s while the drift took 10 % off the light, its squares lay up to
/// 1.7 % either side of the plane, and two of the world's nine O's were missed and its boards
/// read again twice. Its still reads measured the drift at -0.49 % a second, give or take
/// 0.02; with each square's ratio brought to the light of the last still read, all nine O's
/// were seen and no board was read again. A room's drift is the same over the whole sheet (a
/// cloud, the LED warming, the battery): one spot measures it for every square.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct DriftDuringRead {
    at: Duration,
    per_second: f64,
}

impl DriftDuringRead {
    /// The drift through `still` readings of one spot, each mean off by the sensor's `noise`
    /// over the root of its fresh measurements: the least-squares line through them, when its
    /// slope stands past [`BRACKET_SIGMAS`] of its error. `None` from fewer than two.
    fn through(still: &[SquareReading], noise: f64) -> Option<DriftDuringRead> {
        let at = still.last()?.at;
        if still.len() < 2 {
            return None;
        }
        let n = still.len() as f64;
        let seconds: Vec<f64> = still
            .iter()
            .map(|reading| reading.at.as_secs_f64() - at.as_secs_f64())
            .collect();
        let mean_t = seconds.iter().sum::<f64>() / n;
        let mean_v = still.iter().map(|reading| reading.mean).sum::<f64>() / n;
        let spread: f64 = seconds.iter().map(|t| (t - mean_t).powi(2)).sum();
        if spread <= f64::EPSILON {
            return None;
        }
        let slope = seconds
            .iter()
            .zip(still)
            .map(|(t, reading)| (t - mean_t) * (reading.mean - mean_v))
            .sum::<f64>()
            / spread;
        let level = mean_v - slope * mean_t;
        if level < 1.0 {
            return None;
        }
        let fewest = still
            .iter()
            .map(|reading| reading.fresh)
            .fold(f64::INFINITY, f64::min);
        let error = noise / fewest.max(1.0).sqrt() / spread.sqrt() / level;
        let per_second = slope / level;
        (per_second.abs() > BRACKET_SIGMAS * error).then_some(DriftDuringRead { at, per_second })
    }

    /// `ratio`, read at `read_at`, as it would have read in the light of the drift's moment.
    fn undo(&self, ratio: &mut PaperRatio) {
        let seconds = ratio.read_at.as_secs_f64() - self.at.as_secs_f64();
        ratio.ratio /= (1.0 + self.per_second * seconds).max(0.1);
    }
}

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

/// Still readings at the sheet's check's end, and at each still read along the way of a long
/// read (see [`BRACKET_SPAN`]). The bracket's error is mostly the check's own:
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
        mut read: BracketedRead,
        bracketed: Bracketed,
    ) -> Result<InOneLight> {
        for again in 0..=BRACKETED_READS_AGAIN {
            let (moved, drift) = self.light_moved_during(&read, bracketed)?;
            let Some(moved) = moved else {
                return Ok(InOneLight {
                    rows: read.rows,
                    held: true,
                    drift,
                });
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
            read = self.sweep_bracketed(cells, speed)?;
        }
        Ok(InOneLight {
            rows: read.rows,
            held: false,
            drift: None,
        })
    }

    /// Sweeps `cells` at `speed`, as [`Gantry::sweep_rows`], holding the sensor still over
    /// the square crossed first between two sweeps whenever the next would end past
    /// [`BRACKET_SPAN`] from the last time that square was read.
    pub(super) fn sweep_bracketed(
        &mut self,
        cells: &[crate::game::Cell],
        speed: u32,
    ) -> Result<BracketedRead> {
        let mut along_the_way: Vec<StillRead> = Vec::new();
        let rows = self.sweep_rows_pausing(cells, speed, &[0], &mut |g, so_far| {
            let (Some((cell, centre_deg, swept)), Some((_, last))) =
                (first_crossed(so_far), so_far.last())
            else {
                return Ok(());
            };
            let read_last = along_the_way
                .last()
                .map_or(swept[swept.len() / 2].time, |(_, at)| *at);
            let next_sweep = match (last.first(), last.last()) {
                (Some(first), Some(end)) => end.time.saturating_sub(first.time),
                _ => Duration::ZERO,
            };
            if g.clock().now().saturating_sub(read_last) + next_sweep <= BRACKET_SPAN {
                return Ok(());
            }
            g.hold_over(cell, centre_deg)?;
            along_the_way.push(g.read_held_still(CHECK_STILL_READINGS)?);
            Ok(())
        })?;
        Ok(BracketedRead {
            rows,
            along_the_way,
        })
    }

    /// Moves the sensor over `cell`'s centre line at `centre_deg` of the columns axis (in the
    /// spot's frame).
    fn hold_over(&mut self, cell: crate::game::Cell, centre_deg: i32) -> Result<()> {
        let offset = self.config.sensing.sensor_offset_deg;
        let rows_deg = self.config.board.cell_centre(cell).rows;
        self.move_to(AxisPoint::new(
            centre_deg + offset.columns,
            rows_deg + offset.rows,
        ))
    }

    /// Holds the sensor still over the square `read` crossed first and says how far the light
    /// there moved, as a share, when past [`BRACKET_SIGMAS`] over any stretch of the read: from
    /// its crossing to the first still read along the way, from each to the next, and from the
    /// last to this one; and the drift the still reads show, if any. After the blank read's
    /// second read, sets whether the sensor is quiet from the still readings.
    fn light_moved_during(
        &mut self,
        read: &BracketedRead,
        bracketed: Bracketed,
    ) -> Result<(Option<f64>, Option<DriftDuringRead>)> {
        let Some((cell, centre_deg, swept)) = first_crossed(&read.rows) else {
            if bracketed == Bracketed::SecondRead {
                self.quiet_sensor = self.reads_quiet_when_still()?.0;
            }
            return Ok((None, None));
        };
        self.hold_over(cell, centre_deg)?;
        let (still, still_at) = match bracketed {
            Bracketed::SheetCheck => self.read_held_still(CHECK_STILL_READINGS)?,
            Bracketed::SecondRead => {
                let (quiet, still, still_at) = self.reads_quiet_when_still()?;
                self.quiet_sensor = quiet;
                (still, still_at)
            }
        };
        let period = self.read_period();
        // The sensor's noise, for every mean, from the last still readings: they all fall on
        // one spot of paper.
        let still_values: Vec<f64> = still.iter().map(|&p| f64::from(p)).collect();
        let noise = mean_and_spread(&still_values).1;
        let mean = |values: &[u8]| {
            values.iter().map(|&v| f64::from(v)).sum::<f64>() / values.len().max(1) as f64
        };
        let swept_values: Vec<u8> = swept.iter().map(|s| s.percent).collect();
        let crossed = SquareReading {
            mean: mean(&swept_values),
            at: swept[swept.len() / 2].time,
            fresh: swept.len() as f64 / readings_per_measurement(&swept, period),
        };
        let held = |(values, at): &StillRead| SquareReading {
            mean: mean(values),
            at: *at,
            fresh: self.fresh_of_held_still(values.len()),
        };
        let readings: Vec<SquareReading> = std::iter::once(crossed)
            .chain(read.along_the_way.iter().map(held))
            .chain(std::iter::once(held(&(still, still_at))))
            .collect();
        let stretches = readings.len() - 1;
        for (stretch, pair) in readings.windows(2).enumerate() {
            let (then, now) = (pair[0], pair[1]);
            if then.mean < 1.0 {
                continue;
            }
            let moved = now.mean / then.mean - 1.0;
            let error = noise * (1.0 / then.fresh.max(1.0) + 1.0 / now.fresh).sqrt() / then.mean;
            let between = now.at.saturating_sub(then.at).as_secs_f64();
            let which = if stretches == 1 {
                String::new()
            } else {
                format!(", stretch {} of {stretches}", stretch + 1)
            };
            log::info!(
                "the light over {} during {}{which}: {:+.1} % over {:.1} s (noise allows \
                 {:.1} %, a drift {:.1} %)",
                self.square_name(cell),
                bracketed.name(),
                moved * 100.0,
                between,
                BRACKET_SIGMAS * error * 100.0,
                DRIFT_PER_S * between * 100.0
            );
            if moved.abs() > one_light_within(error, BRACKET_SIGMAS, between) {
                return Ok((Some(moved), None));
            }
        }
        // The crossing's mean is left out of the drift: it is of the window swept, the still
        // reads of one spot in it, and the paper's grain between them is no drift.
        Ok((None, DriftDuringRead::through(&readings[1..], noise)))
    }

    /// `paper` (the blank read's first levels) held against `second`, a read of the same
    /// squares: the blank paper to judge every later read against, from both reads when they
    /// were taken in one light (see the module's docs).
    pub(super) fn blank_in_one_light(
        &mut self,
        paper: BlankPaper,
        second: Vec<SweptRow>,
        drift: Option<DriftDuringRead>,
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
            let mut ratios = paper_ratios(&kept, &rows, &cells, period);
            // The second read, where it was long and the light drifted, in the light of one
            // moment (see `DriftDuringRead`); the reads after it are fast.
            if let (2, Some(drift)) = (read, drift) {
                ratios.iter_mut().for_each(|ratio| drift.undo(ratio));
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Cell;

    /// Three still reads of one spot, seven seconds apart, each the mean of twelve fresh
    /// readings: `values`.
    fn still_reads(values: [f64; 3]) -> Vec<SquareReading> {
        values
            .iter()
            .enumerate()
            .map(|(i, &mean)| SquareReading {
                mean,
                at: Duration::from_secs(20 + 7 * i as u64),
                fresh: 12.0,
            })
            .collect()
    }

    fn ratio_read_at(seconds: u64) -> PaperRatio {
        PaperRatio {
            cell: Cell { row: 0, col: 0 },
            ratio: 1.0,
            error: 0.01,
            read_at: Duration::from_secs(seconds),
        }
    }

    #[test]
    fn a_drift_the_still_reads_show_past_their_noise_brings_each_square_to_the_last_ones_light() {
        // The light falling half a percent a second, a quiet sensor (its rounding alone).
        let drift = DriftDuringRead::through(&still_reads([77.0, 74.3, 71.6]), 0.29).unwrap();
        let mut early = ratio_read_at(20);
        drift.undo(&mut early);
        // Read 14 s before the last still read, in light 7.5 % brighter than then.
        assert!((early.ratio - 1.0 / 1.075).abs() < 0.002, "{}", early.ratio);
        let mut last = ratio_read_at(34);
        drift.undo(&mut last);
        assert!((last.ratio - 1.0).abs() < 1e-9);
    }

    #[test]
    fn still_reads_within_their_noise_or_a_single_one_show_no_drift() {
        // A noisy sensor (4 % of 70 about its mean): a percent in 14 s is its noise.
        assert_eq!(
            DriftDuringRead::through(&still_reads([70.0, 70.5, 70.7]), 2.8),
            None
        );
        assert_eq!(
            DriftDuringRead::through(&still_reads([77.0, 74.3, 71.6])[2..], 0.29),
            None
        );
    }
}
