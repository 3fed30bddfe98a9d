//! The brick buttons' input device: keys held down, answered to EVIOCGKEY.

use super::Tree;
use std::time::{Duration, Instant};

/// EVIOCGKEY(96), as the program asks for it.
pub(super) const EVIOCGKEY_96: u32 = 0x8060_4518;

impl Tree {
    /// Holds key `code` down for `hold`, from now.
    pub fn press_key(&mut self, code: u16, hold: Duration) {
        self.keys_down.push((code, Instant::now() + hold));
    }

    pub(super) fn key_state(&mut self) -> [u8; 96] {
        let now = Instant::now();
        self.keys_down.retain(|&(_, until)| until > now);
        let mut state = [0u8; 96];
        for &(code, _) in &self.keys_down {
            state[usize::from(code / 8)] |= 1 << (code % 8);
        }
        state
    }
}
