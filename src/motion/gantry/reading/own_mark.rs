//! The robot's own mark confirmed by a look that fits its shape: an O's ring, an X's strokes.

use super::BlankPaper;
use crate::game::Cell;
use crate::game::Mark;
use crate::motion::gantry::{Gantry, Result};
use crate::motion::own_ink::{InkModel, OwnInkFit};
use crate::motion::plan;
use crate::motion::sensing::{BlankSquare, Sample};
use std::time::Duration;

/// What a look showed of one of the robot's own marks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OwnMarkCheck {
    pub cell: Cell,
    pub mark: Mark,
    /// Seen: the square reads as marked, or the readings fit the mark's shape.
    pub seen: bool,
    /// The fit to the mark's shape, if any reading should have seen its ink.
    pub fit: Option<OwnInkFit>,
}

impl Gantry {
    /// The spot and the pen in degrees, for predicting where the robot's own ink shows.
    pub(super) fn ink_model(&self) -> InkModel {
        let geometry = self.config.reading_geometry();
        let scale = self.config.scale();
        let line_mm = self.config.pen.line_mm;
        InkModel {
            spot_half_columns_deg: geometry.spot_columns_deg / 2.0,
            spot_half_rows_deg: geometry.spot_rows_deg / 2.0,
            line_half_deg: (scale.columns_deg(line_mm) + scale.rows_deg(line_mm)) / 4.0,
        }
    }

    /// How well `samples` of `cell` fit the robot's `mark` drawn there.
    pub(super) fn fit_own_mark(
        &self,
        blank: &BlankSquare,
        cell: Cell,
        mark: Mark,
        samples: &[Sample],
        period: Duration,
    ) -> Option<OwnInkFit> {
        let paths = plan::mark(&self.config.board, cell, mark);
        let model = self.ink_model();
        let covers: Vec<f64> = samples
            .iter()
            .map(|s| model.cover(&paths, f64::from(s.at.columns), f64::from(s.at.rows)))
            .collect();
        OwnInkFit::of(
            blank,
            samples,
            &covers,
            period,
            self.own_ink_least_contrast(),
        )
    }

    /// A closer look at the robot's own `mark` in `cell`: slow and dense, along the lines where
    /// its ink should show most (an O's ring above and below the centre, an X's crossing).
    pub fn look_closely_at_own(
        &mut self,
        blank: &BlankPaper,
        cell: Cell,
        mark: Mark,
    ) -> Result<Option<OwnInkFit>> {
        let paths = plan::mark(&self.config.board, cell, mark);
        let window = plan::reading_window(&self.config, cell);
        let centre_rows = self.config.board.cell_centre(cell).rows;
        let lines = self.ink_model().best_lines(
            &paths,
            (*window.start(), *window.end()),
            centre_rows,
            self.config.reading_geometry().look_offset_deg,
        );
        let slow = self.reading_speed(0.2, self.config.sensing.sweep_speed_deg_per_s / 2);
        let mut samples = Vec::new();
        for rows in lines {
            for (_, swept) in self.sweep_squares(&[cell], slow, rows - centre_rows)? {
                samples.extend(swept);
            }
        }
        let period = self.read_period();
        Ok(self.fit_own_mark(&blank.of(cell), cell, mark, &samples, period))
    }
}
