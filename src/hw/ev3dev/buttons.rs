//! The six buttons on the brick's face, read from the kernel's `gpio-keys` input device.
//!
//! The state of every key is asked for with one `EVIOCGKEY` ioctl, the way ev3dev's own
//! libraries do it, so a press between two polls is seen as long as the key is still down.
//! The request code comes from `nix`'s macro, which builds it with the type the target's C
//! library uses (`c_ulong` on glibc, `c_int` on musl); ev3dev-lang-rust's reader converts it to
//! `i32` first and panics on glibc, which is why it is not used.

use super::device_dir;
use crate::hw::{ButtonPad, Buttons, HwError};
use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::PathBuf;

/// Where ev3dev puts the brick's buttons, under `/dev`.
pub const INPUT_DEVICE: &str = "input/by-path/platform-gpio_keys-event";

/// Linux key codes of the brick's buttons (`linux/input-event-codes.h`).
pub mod key {
    pub const BACKSPACE: u16 = 14;
    pub const ENTER: u16 = 28;
    pub const UP: u16 = 103;
    pub const LEFT: u16 = 105;
    pub const RIGHT: u16 = 106;
    pub const DOWN: u16 = 108;
}

/// Bytes of key state asked for: enough for every key code up to KEY_MAX (0x2ff).
const KEY_STATE_BYTES: usize = 96;

nix::ioctl_read_buf!(
    /// `EVIOCGKEY(len)`: the state of every key, one bit each, lowest code first.
    eviocgkey,
    b'E',
    0x18,
    u8
);

/// The brick's buttons.
pub struct Ev3Buttons {
    device: File,
    path: PathBuf,
}

impl Ev3Buttons {
    /// Opens the input device and reads it once, so a device that cannot answer (a file that
    /// is not an input device, or an emulator that cannot pass the ioctl on) is found now and
    /// the menu can say so, instead of failing at the first poll.
    pub fn open() -> Result<Ev3Buttons, HwError> {
        let path = device_dir().join(INPUT_DEVICE);
        let device = File::open(&path).map_err(|error| {
            HwError::failed(
                "brick buttons",
                format!("cannot open {}: {error}", path.display()),
            )
        })?;
        let mut buttons = Ev3Buttons { device, path };
        buttons.pressed()?;
        Ok(buttons)
    }

    fn key_state(&self) -> Result<[u8; KEY_STATE_BYTES], HwError> {
        let mut state = [0u8; KEY_STATE_BYTES];
        // SAFETY: the descriptor is open for as long as `self` lives, and the macro passes the
        // buffer's own length in the request, so the kernel writes no further than its end.
        unsafe { eviocgkey(self.device.as_raw_fd(), &mut state) }.map_err(|errno| {
            let why = match errno {
                nix::errno::Errno::ENOTTY | nix::errno::Errno::EINVAL => {
                    "it is not an input device".to_string()
                }
                nix::errno::Errno::ENOSYS => {
                    "this system cannot pass the request on (an emulator?)".to_string()
                }
                other => other.desc().to_string(),
            };
            HwError::failed(
                "brick buttons",
                format!(
                    "{} does not answer the key-state request (EVIOCGKEY): {why}",
                    self.path.display()
                ),
            )
        })?;
        Ok(state)
    }
}

/// Whether key `code` is down in a key-state bit set.
pub fn is_down(state: &[u8], code: u16) -> bool {
    let code = usize::from(code);
    state
        .get(code / 8)
        .is_some_and(|byte| byte & (1 << (code % 8)) != 0)
}

impl ButtonPad for Ev3Buttons {
    fn pressed(&mut self) -> Result<Buttons, HwError> {
        let state = self.key_state()?;
        let down = |code| is_down(&state, code);
        Ok(Buttons {
            up: down(key::UP),
            down: down(key::DOWN),
            left: down(key::LEFT),
            right: down(key::RIGHT),
            centre: down(key::ENTER),
            back: down(key::BACKSPACE),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_codes_are_read_lowest_bit_first() {
        let mut state = [0u8; KEY_STATE_BYTES];
        state[usize::from(key::UP) / 8] |= 1 << (key::UP % 8);
        assert!(is_down(&state, key::UP));
        assert!(!is_down(&state, key::DOWN));
        assert!(!is_down(&state, key::ENTER));
        assert!(!is_down(&state, 2000), "a code past the buffer is up");
    }
}
