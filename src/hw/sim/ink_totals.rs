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

#[cfg(test)]
mod tests {
    use super::*;

    /// The totals of row `y` summed cell by cell, as `row` must give them.
    fn summed(ink: &[Option<f32>], width: usize, y: usize) -> (Vec<u32>, Vec<f64>) {
        let (mut inked, mut sum) = (vec![0], vec![0.0]);
        for here in &ink[y * width..(y + 1) * width] {
            inked.push(inked.last().unwrap() + u32::from(here.is_some()));
            sum.push(sum.last().unwrap() + here.map_or(0.0, f64::from));
        }
        (inked, sum)
    }

    #[test]
    fn rows_read_between_strokes_always_hold_every_cell_inked_so_far() {
        let (width, height) = (13, 5);
        let mut ink = vec![None; width * height];
        let mut totals = RunningTotals::new(width, height);
        // Cells inked in no order, some twice and darker, each row read now and then.
        let strokes = [
            (7, 2, 40.0),
            (3, 2, 50.0),
            (12, 0, 30.0),
            (0, 4, 20.0),
            (3, 2, 10.0),
        ];
        for (step, &(x, y, darkness)) in strokes.iter().enumerate() {
            let cell: &mut Option<f32> = &mut ink[y * width + x];
            *cell = Some(cell.map_or(darkness, |was: f32| was.min(darkness)));
            totals.changed(x, y);
            for row in (0..height).filter(|row| (row + step) % 2 == 0) {
                let (inked, sum) = totals.row(row, &ink);
                let (want_inked, want_sum) = summed(&ink, width, row);
                assert_eq!(
                    (inked.to_vec(), sum.to_vec()),
                    (want_inked, want_sum),
                    "row {row}"
                );
            }
        }
        for row in 0..height {
            assert_eq!(totals.row(row, &ink).0.to_vec(), summed(&ink, width, row).0);
        }
    }
}
