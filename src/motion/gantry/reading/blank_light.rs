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
//! So the squares are read once more, at the first look's pace, as soon as the blank read is
//! done, and the two reads are held against each other: in one light, their ratios lie on a
//! plane (a drift changes the level, a lamp to one side the slope). If they do not, the light
//! changed during one of them; the robot says so and reads again, and keeps the first of two
//! reads that agree, up to [`BLANK_READS`].

use super::sweeping::by_square;
use super::{paper_ratios, BlankPaper};
use crate::motion::gantry::{Gantry, Result};
use crate::motion::sensing::{readings_per_measurement, BlankSquare, PaperLight};

/// The most reads of the squares' paper the blank read makes: its own, and the ones that
/// hold it against the light. Each needs the light to change within the few seconds one read
/// takes; past that the robot goes on with the last and says so.
pub const BLANK_READS: usize = 4;

impl Gantry {
    /// `paper` (the blank read's levels) held against another read of the same squares; the
    /// blank paper to judge every later read against: `paper` itself when both were read in
    /// one light (see the module's docs).
    pub(super) fn blank_in_one_light(&mut self, paper: BlankPaper) -> Result<BlankPaper> {
        let cells = self.all_squares();
        let fast = self.first_look_speed();
        let mut kept = paper;
        for read in 2..=BLANK_READS {
            let rows = self.sweep_rows(&cells, fast, &[0])?;
            let period = self.read_period();
            let ratios = paper_ratios(&kept, &rows, &cells, period);
            let Err(scatter) = PaperLight::one_light(kept.size, &ratios) else {
                return Ok(kept);
            };
            // The later read stands for the blank paper: its levels, with the noise the
            // slow read measured (a fast read has too few readings a square to measure it).
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
