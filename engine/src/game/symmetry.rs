//! The eight symmetries of a square board (rotations and reflections).
//!
//! A square's rotations and reflections carry rows to rows or columns and diagonals to
//! diagonals, so they map winning lines onto winning lines for every size and run length:
//! positions that are images of each other have the same value. The search uses that to
//! evaluate one move of each kind at the root (the empty 3 x 3 board has 3 kinds of move, not 9)
//! and to share table entries between mirrored positions.

/// One of the eight rotations and reflections of a square board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    Identity,
    RotateQuarter,
    RotateHalf,
    RotateThreeQuarters,
    MirrorLeftRight,
    MirrorTopBottom,
    MirrorMainDiagonal,
    MirrorAntiDiagonal,
}

impl Symmetry {
    /// All eight, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::RotateQuarter,
        Symmetry::RotateHalf,
        Symmetry::RotateThreeQuarters,
        Symmetry::MirrorLeftRight,
        Symmetry::MirrorTopBottom,
        Symmetry::MirrorMainDiagonal,
        Symmetry::MirrorAntiDiagonal,
    ];

    /// Where `cell` (row-major index on a `size` x `size` board) goes.
    ///
    /// ```
    /// use tictactoe_engine::game::Symmetry;
    /// // The top-left corner of a 3 x 3 board turns a quarter clockwise to the top-right one.
    /// assert_eq!(Symmetry::RotateQuarter.map_cell(0, 3), 2);
    /// ```
    pub fn map_cell(self, cell: usize, size: usize) -> usize {
        let (r, c) = (cell / size, cell % size);
        let last = size - 1;
        let (r2, c2) = match self {
            Symmetry::Identity => (r, c),
            Symmetry::RotateQuarter => (c, last - r),
            Symmetry::RotateHalf => (last - r, last - c),
            Symmetry::RotateThreeQuarters => (last - c, r),
            Symmetry::MirrorLeftRight => (r, last - c),
            Symmetry::MirrorTopBottom => (last - r, c),
            Symmetry::MirrorMainDiagonal => (c, r),
            Symmetry::MirrorAntiDiagonal => (last - c, last - r),
        };
        r2 * size + c2
    }

    /// The image of a set of cells.
    pub fn map_set(self, set: u128, size: usize) -> u128 {
        (0..size * size)
            .filter(|&cell| set >> cell & 1 == 1)
            .fold(0, |image, cell| image | 1 << self.map_cell(cell, size))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{winning_lines, Rules};
    use std::collections::HashSet;

    #[test]
    fn every_symmetry_maps_the_winning_lines_onto_themselves() {
        for n in 3..=10 {
            for k in 3..=n {
                let lines: HashSet<u128> = winning_lines(Rules::new(n, k).unwrap())
                    .iter()
                    .copied()
                    .collect();
                for sym in Symmetry::ALL {
                    let image: HashSet<u128> = lines.iter().map(|&l| sym.map_set(l, n)).collect();
                    assert_eq!(image, lines, "{sym:?} on {n}x{n} k={k}");
                }
            }
        }
    }

    #[test]
    fn the_eight_symmetries_are_distinct_permutations() {
        let images: HashSet<Vec<usize>> = Symmetry::ALL
            .iter()
            .map(|s| (0..16).map(|c| s.map_cell(c, 4)).collect())
            .collect();
        assert_eq!(images.len(), 8);
        for image in images {
            let mut sorted = image.clone();
            sorted.sort();
            assert_eq!(sorted, (0..16).collect::<Vec<_>>());
        }
    }
}
