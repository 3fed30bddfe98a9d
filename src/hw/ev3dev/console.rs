//! The virtual console the program runs on, switched to graphics mode while we draw on the LCD.
//!
//! brickrun starts a program on a virtual console of its own (console-runner's), in text mode:
//! the kernel's console would then blink its cursor over our picture and echo key presses onto
//! it. ev3dev's maintainers advise the program to switch that console to graphics mode itself
//! (`KDSETMODE`, `KD_GRAPHICS`), and back to text mode when it ends; console-runner also puts it
//! back to text when the program has gone, which covers a crash. The console is the process's
//! controlling terminal, `/dev/tty`: under `brickrun -r` standard input and output are the ssh
//! terminal's, but the controlling terminal is still the console brickrun started us on. Over
//! plain ssh it is the ssh terminal, which has no graphics mode: then brickman still owns the
//! screen, and the program says how to start it instead.

use super::device_dir;
use std::fs::{File, OpenOptions};
use std::os::fd::AsRawFd;
use std::sync::{Arc, Mutex};

/// `KDSETMODE` and its two modes, from `linux/kd.h`.
const KDSETMODE: u32 = 0x4B3A;
const KD_TEXT: i32 = 0;
const KD_GRAPHICS: i32 = 1;

nix::ioctl_write_int_bad!(
    /// `KDSETMODE`: text or graphics on a virtual console.
    kd_set_mode,
    KDSETMODE
);

/// The console in graphics mode until [`ConsoleMode::restore`] or drop puts it back to text.
/// Restoring is idempotent and may come from another thread (the signal thread, the panic
/// hook), so the console is never left in graphics mode behind a program that ended.
#[derive(Debug)]
pub struct ConsoleMode {
    console: Arc<Mutex<Option<File>>>,
}

impl ConsoleMode {
    /// Switches the controlling terminal to graphics mode; the error says why it could not be.
    pub fn take_over() -> Result<ConsoleMode, String> {
        let path = device_dir().join("tty");
        let console = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|error| format!("no console to draw on ({}: {error})", path.display()))?;
        // SAFETY: the descriptor is open; KDSETMODE takes its mode as a plain integer.
        unsafe { kd_set_mode(console.as_raw_fd(), KD_GRAPHICS) }.map_err(|errno| {
            format!(
                "this terminal is not the brick's console, so its text cannot be hidden \
                 (KDSETMODE: {})",
                errno.desc()
            )
        })?;
        Ok(ConsoleMode {
            console: Arc::new(Mutex::new(Some(console))),
        })
    }

    /// Puts the console back in text mode (once; later calls do nothing).
    pub fn restore(&self) {
        restore(&self.console);
    }

    /// Something that puts the console back in text mode when called, from any thread, for
    /// the ways out that never drop this guard (the signal thread's exit, the panic hook).
    pub fn restorer(&self) -> impl Fn() + Send + Sync + 'static {
        let console = self.console.clone();
        move || restore(&console)
    }
}

fn restore(console: &Mutex<Option<File>>) {
    let mut console = console.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(console) = console.take() {
        // SAFETY: as in `take_over`. A failure leaves nothing better to do: console-runner
        // restores text mode itself when the program has ended.
        let _ = unsafe { kd_set_mode(console.as_raw_fd(), KD_TEXT) };
    }
}

impl Drop for ConsoleMode {
    fn drop(&mut self) {
        self.restore();
    }
}

/// True if ev3dev's brickman is running: it owns the LCD and buttons unless a program is
/// started through brickrun, which hands them over.
pub fn brickman_is_running() -> bool {
    let Ok(processes) = std::fs::read_dir("/proc") else {
        return false;
    };
    processes.flatten().any(|process| {
        std::fs::read_to_string(process.path().join("comm"))
            .is_ok_and(|name| name.trim_end() == "brickman")
    })
}

/// What to type on the brick to start the program so that it gets the LCD and buttons.
pub const BRICKRUN_HINT: &str = "start it with: brickrun -r -- ./ev3-tictactoe play";
