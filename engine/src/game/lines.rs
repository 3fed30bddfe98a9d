//! The winning lines of a variant, each as a set of cells.
//!
//! Both the rules (who has won, and where) and the search (threats, open lines) work on the same
//! list, so that they can never disagree about what a win is. Each variant's list is built once,
//! on first use, and shared: the rules ask for it on every parse and every status check.

use super::{Rules, MAX_SIZE, MIN_SIZE};
use std::sync::OnceLock;

/// The four directions a line can run in, as (row step, column step).
const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Every run of `in_a_row` cells in a row, column or diagonal, as a bit set over the board's
/// cells in row-major order. Rows come first, then columns, then the two diagonal directions.
///
/// ```
/// use tictactoe_engine::game::{winning_lines, Rules};
/// assert_eq!(winning_lines(Rules::classic()).len(), 8);
/// assert_eq!(winning_lines(Rules::new(4, 3).unwrap()).len(), 24);
/// ```
pub fn winning_lines(rules: Rules) -> &'static [u128] {
    const SIDES: usize = MAX_SIZE - MIN_SIZE + 1;
    static BUILT: [OnceLock<Vec<u128>>; SIDES * SIDES] = [const { OnceLock::new() }; SIDES * SIDES];
    let slot = (rules.size() - MIN_SIZE) * SIDES + (rules.in_a_row() - MIN_SIZE);
    BUILT[slot].get_or_init(|| build(rules))
}

fn build(rules: Rules) -> Vec<u128> {
    let n = rules.size() as isize;
    let k = rules.in_a_row() as isize;
    let mut lines = Vec::new();
    for (dr, dc) in DIRECTIONS {
        for row in 0..n {
            for col in 0..n {
                let end_row = row + dr * (k - 1);
                let end_col = col + dc * (k - 1);
                if !(0..n).contains(&end_row) || !(0..n).contains(&end_col) {
                    continue;
                }
                let line = (0..k).fold(0u128, |line, step| {
                    let cell = (row + dr * step) * n + (col + dc * step);
                    line | 1 << cell
                });
                lines.push(line);
            }
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counted by hand: (n-k+1) starts per row, n rows, times two for columns, and
    /// (n-k+1)^2 starts for each diagonal direction.
    #[test]
    fn line_counts_match_the_closed_form_for_every_variant() {
        for n in 3..=10 {
            for k in 3..=n {
                let free = n - k + 1;
                let expected = 2 * n * free + 2 * free * free;
                let lines = winning_lines(Rules::new(n, k).unwrap());
                assert_eq!(lines.len(), expected, "{n}x{n} k={k}");
                assert!(lines.iter().all(|l| l.count_ones() as usize == k));
            }
        }
    }
}
