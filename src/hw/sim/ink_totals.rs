//! The paper's running totals of ink, row by row, kept up to date only as far as a read needs:
//! the sensor's spot is summed a row at a time from them.

/// Each row's running totals of inked cells and of their ink (`width + 1` each, from 0), and
/// from which cell on each row's totals are out of date.
#[derive(Debug, Clone)]
pub(super) struct RunningTotals {
    width: usize,
    inked_before: Vec<u32>,
    ink_before: Vec<f64>,
    stale_from: Vec<usize>,
}

impl RunningTotals {
    pub(super) fn new(width: usize, height: usize) -> RunningTotals {
        RunningTotals {
            width,
            inked_before: vec![0; (width + 1) * height],
            ink_before: vec![0.0; (width + 1) * height],
            stale_from: vec![width; height],
        }
    }

    /// Cell (`x`, `y`) has new ink: its row's totals from it on are out of date.
    pub(super) fn changed(&mut self, x: usize, y: usize) {
        self.stale_from[y] = self.stale_from[y].min(x);
    }

    /// Row `y`'s totals, brought up to date from `ink` first if they are not.
    pub(super) fn row(&mut self, y: usize, ink: &[Option<f32>]) -> (&[u32], &[f64]) {
        let width = self.width;
        let (cells, totals) = (y * width, y * (width + 1));
        for x in self.stale_from[y]..width {
            let here = ink[cells + x];
            self.inked_before[totals + x + 1] =
                self.inked_before[totals + x] + u32::from(here.is_some());
            self.ink_before[totals + x + 1] =
                self.ink_before[totals + x] + here.map_or(0.0, f64::from);
        }
        self.stale_from[y] = width;
        let row = totals..totals + width + 1;
        (&self.inked_before[row.clone()], &self.ink_before[row])
    }
}
