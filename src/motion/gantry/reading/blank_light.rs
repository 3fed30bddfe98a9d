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

use super::sweeping::{by_square, SweptRow};
use super::{paper_ratios, BlankPaper};
use crate::motion::gantry::{Gantry, Result};
use crate::motion::sensing::{readings_per_measurement, BlankSquare, PaperLight, PaperRatio};

/// The most reads of the squares' paper the blank read makes: its own, and the ones that
/// hold it against the light. Each needs the light to change within the few seconds one read
/// takes; past that the robot goes on with the last and says so.
pub const BLANK_READS: usize = 4;

impl Gantry {
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
