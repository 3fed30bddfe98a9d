//! Fixed-width bit sets, one bit per cell, for the search's inner loop.
//!
//! The public [`Board`](super::Board) always stores its cells in a `u128`, which fits the largest
//! board (10 x 10). The search, which runs millions of times more often, is generic over
//! [`CellBits`] and is instantiated with the narrowest integer that holds the board: `u32` up to
//! 5 x 5, `u64` up to 8 x 8, `u128` above. On the EV3's 32-bit ARM a `u128` operation costs four
//! word operations, so the classic 3 x 3 game must not pay for the 10 x 10 one.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// A set of cells as the bits of an unsigned integer; bit `i` is cell `i` in row-major order.
pub trait CellBits:
    Copy
    + Debug
    + Default
    + Eq
    + Ord
    + Hash
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + Not<Output = Self>
    + Send
    + Sync
    + 'static
{
    /// How many cells fit.
    const CAPACITY: usize;
    /// The empty set.
    const EMPTY: Self;

    /// The set holding only `cell`.
    fn single(cell: usize) -> Self;
    /// Number of cells in the set.
    fn len(self) -> u32;
    /// True when the set holds no cell.
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }
    /// The lowest cell in a non-empty set.
    fn first(self) -> usize;
    /// Converts from the board's `u128`; the caller guarantees the bits fit.
    fn from_u128(bits: u128) -> Self;
    /// Mixes the set into 64 bits for hashing.
    fn fold64(self) -> u64;
    /// The eight cells starting at `8 * chunk`, as a byte.
    fn byte(self, chunk: usize) -> u8;

    /// True when `cell` is in the set.
    fn contains(self, cell: usize) -> bool {
        !(self & Self::single(cell)).is_empty()
    }

    /// The cells of the set, lowest first.
    fn cells(self) -> Cells<Self> {
        Cells(self)
    }
}

/// Iterator over the cells of a [`CellBits`] set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Cells<B>(B);

impl<B: CellBits> Iterator for Cells<B> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let cell = self.0.first();
        self.0 &= !B::single(cell);
        Some(cell)
    }
}

macro_rules! impl_cell_bits {
    ($ty:ty, $fold:expr) => {
        impl CellBits for $ty {
            const CAPACITY: usize = <$ty>::BITS as usize;
            const EMPTY: Self = 0;

            #[inline]
            fn single(cell: usize) -> Self {
                1 << cell
            }
            #[inline]
            fn len(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn first(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn from_u128(bits: u128) -> Self {
                debug_assert!(bits >> (Self::CAPACITY - 1) >> 1 == 0, "cells do not fit");
                bits as Self
            }
            #[inline]
            fn byte(self, chunk: usize) -> u8 {
                (self >> (8 * chunk)) as u8
            }
            #[inline]
            fn fold64(self) -> u64 {
                #[allow(clippy::redundant_closure_call)]
                ($fold)(self)
            }
        }
    };
}

impl_cell_bits!(u32, |b: u32| b as u64);
impl_cell_bits!(u64, |b: u64| b);
impl_cell_bits!(u128, |b: u128| (b as u64)
    ^ ((b >> 64) as u64).rotate_left(29));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_iterates_lowest_first() {
        let set = u32::single(7) | u32::single(0) | u32::single(31);
        assert_eq!(set.cells().collect::<Vec<_>>(), vec![0, 7, 31]);
        assert_eq!(set.len(), 3);
        assert!(set.contains(31) && !set.contains(30));
    }

    #[test]
    fn u128_holds_a_ten_by_ten_board() {
        let set = u128::single(99) | u128::single(64);
        assert_eq!(set.cells().collect::<Vec<_>>(), vec![64, 99]);
        assert_eq!(u128::from_u128(set), set);
    }
}
