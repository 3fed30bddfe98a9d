//! Where the colour sensor truly sits beside the pen, found on the grid the pen has just drawn.
//!
//! Why: `sensing.sensor_offset_deg` is measured by a person with a ruler, and a LEGO sensor is
//! pinned to a beam whose holes are 8 mm apart: one hole out puts the spot 38 degrees from where
//! the config says. Every window the robot reads is placed by that figure. Tried on the
//! simulator with the sensor built 38 degrees further along the columns axis than configured:
//! the blank read's windows straddled the grid's lines, the person's X was never seen, and the
//! robot asked "fill your square darker" after every press, for ever; 38 degrees the other way
//! along the rows axis did the same, and the opposite ways played a game of misread squares.
//! Up to 20 degrees (4 mm) either way the games played as configured.
//!
//! The pen's lines are where the pen was sent (to within 4 degrees; see `JUST_DRAWN_SEARCH_MM`), so
//! a line the sensor sees elsewhere shows where the sensor is: seen `f` degrees beyond where it
//! was drawn, the sensor lies `f` degrees further from the pen than configured. Only when the
//! just-drawn search finds no line is it looked for again as widely as a check looks (to 0.4 of
//! a square either side, and that far either side again, short of half a square): a sensor
//! where the config puts it costs the set-up nothing more.

use super::line_crossing::{Look, WIDE_SEARCH_SHARE_OF_SQUARE};
use super::{Gantry, Result};
use crate::config::Axis;

impl Gantry {
    /// After a crossing of a just-drawn line of `axis` (at `at`, across at `across`) found no
    /// line near where the pen drew it: crosses it again with a check's wide search, and when
    /// the line shows beyond the just-drawn search, takes the sensor to lie that much further
    /// from the pen than configured, says so, and reads by the measured figure from now on.
    /// Returns the line's offset as seen before any correction (`None`: not seen at all), and
    /// whether the sensor's place was corrected.
    pub(super) fn find_the_sensor_on(
        &mut self,
        axis: Axis,
        at: i32,
        across: i32,
    ) -> Result<(Option<f64>, bool)> {
        // Centred where it was drawn, then as far either side as a check's wide search
        // reaches: a sensor one beam hole (38 degrees) out lies at that search's very edge,
        // where a fit is not taken. Never half a square or more: there the neighbouring line
        // is as near, and no crossing tells them apart.
        let square = f64::from(self.config.board.square_deg);
        let wide = (square * WIDE_SEARCH_SHARE_OF_SQUARE).round() as i32;
        let mut seen = None;
        for centre in [0, -wide, wide] {
            if let Some(found) = self.cross_line(axis, at + centre, across, Look::Check, None)? {
                let from_drawn = f64::from(centre) + found;
                if from_drawn.abs() < square / 2.0 {
                    seen = Some(from_drawn);
                    break;
                }
            }
        }
        let Some(seen) = seen else {
            return Ok((None, false));
        };
        if seen.abs() <= self.just_drawn_search_deg(axis) {
            return Ok((Some(seen), false));
        }
        let by = seen.round() as i32;
        let offset = &mut self.config.sensing.sensor_offset_deg;
        let was = *offset;
        match axis {
            Axis::Columns => offset.columns += by,
            _ => offset.rows += by,
        }
        let now = *offset;
        let mm = self.axis_mm(axis, seen.abs());
        log::warn!(
            "the grid's {axis} line shows {mm:.1} mm ({:.0} deg) {} where the pen drew it: the \
             colour sensor sits that far from where sensing.sensor_offset_deg puts it \
             ({{\"columns\": {}, \"rows\": {}}}); reading with {{\"columns\": {}, \"rows\": {}}} \
             from now on (set that in the robot config, and the set-up need not look for it)",
            seen.abs(),
            if seen > 0.0 { "beyond" } else { "short of" },
            was.columns,
            was.rows,
            now.columns,
            now.rows,
        );
        Ok((Some(seen), true))
    }

    /// The colour sensor's place beside the pen as the robot reads by it (the config's, or as
    /// the last grid's lines corrected it), in axis degrees.
    pub fn sensor_offset_deg(&self) -> crate::config::AxisPoint {
        self.config.sensing.sensor_offset_deg
    }
}
