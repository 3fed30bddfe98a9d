//! The transposition table: what the search already knows about a position.
//!
//! Positions recur in noughts and crosses through different move orders (X a, O b, X c reaches
//! the same board as X c, O b, X a), so a solved position is looked up rather than solved again.
//! Scores are stored relative to the position itself (a win is worth more the more cells are still
//! empty when it happens), never relative to the root, so an entry stays true from any path.
//!
//! The table is a fixed array indexed by a hash, each slot overwritten by the newest entry: no
//! allocation during a search and a memory ceiling the brick can afford. A generation number
//! empties it between searches in O(1).

use crate::game::CellBits;

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum Bound {
    /// The score is the position's value (at the stored depth).
    #[default]
    Exact,
    /// The value is at least the score (the search failed high).
    Lower,
    /// The value is at most the score (the search failed low).
    Upper,
}

/// Depth recorded for an entry whose subtree was searched to the end of the game.
pub(crate) const SOLVED: u8 = u8::MAX;

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Entry<B> {
    pub me: B,
    pub opp: B,
    pub score: i32,
    pub bound: Bound,
    /// Plies searched below this position, or [`SOLVED`].
    pub depth: u8,
    /// The best move found, in the orientation of the stored key; `u8::MAX` when none.
    pub best: u8,
    pub(super) generation: u8,
}

pub(crate) struct Table<B> {
    slots: Vec<Entry<B>>,
    shift: u32,
    pub(super) generation: u8,
}

impl<B: CellBits> Table<B> {
    /// A table of `2^bits` slots.
    pub fn new(bits: u32) -> Table<B> {
        Table {
            slots: vec![Entry::default(); 1 << bits],
            shift: 64 - bits,
            generation: 1,
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Slots of generation 0 are the never-written defaults; after 255 searches wipe
            // the array once so that an old entry cannot pass for a new one.
            self.slots.fill(Entry::default());
            self.generation = 1;
        }
    }

    fn index(&self, me: B, opp: B) -> usize {
        let hash = me.fold64().wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ opp
                .fold64()
                .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
                .rotate_left(31);
        (hash.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> self.shift) as usize
    }

    pub fn probe(&self, me: B, opp: B) -> Option<Entry<B>> {
        let entry = self.slots[self.index(me, opp)];
        (entry.generation == self.generation && entry.me == me && entry.opp == opp).then_some(entry)
    }

    pub fn store(&mut self, mut entry: Entry<B>) {
        entry.generation = self.generation;
        let index = self.index(entry.me, entry.opp);
        self.slots[index] = entry;
    }
}
