//! The real brick: the [`crate::hw`] traits over ev3dev's sysfs classes and device files.
//!
//! Why this is more than calls into `ev3dev-lang-rust`: read against the 0.16 source we build
//! with, several of its paths panic on a real brick, and a panic mid-game leaves motors running.
//! - Its device types open each attribute file on first use and `expect` the open to work
//!   (`Driver::get_attribute`), so a motor unplugged before an attribute was first touched
//!   panics, even inside the emergency stop. Here every attribute the program will ever use is
//!   opened when the device is opened (`attributes::Attributes`), through the crate's own
//!   `Attribute` and port lookup, which return errors instead: a missing one is a named error
//!   at start, and a device unplugged later answers ENODEV, which becomes
//!   [`HwError::Disconnected`].
//! - Its button reader casts `EVIOCGKEY` to `i32` and `unwrap`s the conversion to the ioctl
//!   request type, which fails on every glibc target (the request is a `c_ulong` there).
//!   [`buttons`] reads the keys with `nix`'s ioctl macros, which use each target's own type.
//! - Its screen sizes an image by the framebuffer's line length and copies it into a buffer
//!   sized by the visible width, which overruns on a 1-bit framebuffer; it also brings the
//!   `image` crate with every codec. [`screen`] writes the LCD through the `framebuffer` crate
//!   directly, checking the geometry it is given.
//!
//! Devices are found by port and driver name, so a motor of the wrong kind on a port is
//! reported as missing, naming both ("no medium motor (pen lift) on outB"). Each motor is sent
//! `reset` when opened, so ramps, PID gains and stop actions left by another program do not
//! carry over; polarity is set after that, so positive always points away from the end stop
//! the axis homes against.
//!
//! Files outside sysfs (the buttons' input device, the LCD's framebuffer, the console) are
//! found under `/dev`, or under the folder named by [`DEVICE_DIR_VARIABLE`]: the project's
//! emulated brick serves them there, as it serves sysfs where ev3dev-lang-rust's
//! `override-driver-path` feature points the tests.

mod attributes;
pub mod buttons;
pub mod console;
mod motor;
mod panel;
pub mod screen;
mod sensors;

pub use buttons::Ev3Buttons;
pub use console::ConsoleMode;
pub use motor::Ev3Motor;
pub use panel::{Ev3Battery, Ev3Lights, Ev3Speaker};
pub use screen::Ev3Screen;
pub use sensors::{Ev3ColourSensor, Ev3TouchSensor};

use crate::config::Axis;
use crate::hw::{HwError, Motor, Robot, SystemClock, Wiring};
use ev3dev_lang_rust::Ev3Error;
use std::path::PathBuf;

/// Environment variable naming the folder that stands for `/dev` (for an emulated brick).
pub const DEVICE_DIR_VARIABLE: &str = "EV3_TICTACTOE_DEV_DIR";

/// The folder that holds the brick's device files: `/dev`, unless [`DEVICE_DIR_VARIABLE`] says
/// otherwise.
pub fn device_dir() -> PathBuf {
    std::env::var_os(DEVICE_DIR_VARIABLE)
        .filter(|dir| !dir.is_empty())
        .map_or_else(|| PathBuf::from("/dev"), PathBuf::from)
}

/// ev3dev-lang-rust's messages ("InternalError: No such device (os error 19)!") trimmed to
/// the part a person can use.
fn describe(error: &Ev3Error) -> String {
    match error {
        Ev3Error::InternalError { msg } => msg.trim_end_matches('!').to_string(),
        Ev3Error::NotConnected { device, port } => format!("{device} not connected ({port:?})"),
        Ev3Error::MultipleMatches { device, ports } => format!("several {device} on {ports:?}"),
    }
}

/// True for the errors a device gone from sysfs gives: its open files answer ENODEV, and its
/// folder is gone (ENOENT).
fn is_gone(error: &Ev3Error) -> bool {
    let message = describe(error);
    message.contains("os error 19") || message.contains("os error 2)")
}

/// A device that was there and went away is `Disconnected`; anything else names the device
/// and what failed.
fn device_error(device: &str, error: &Ev3Error) -> HwError {
    if is_gone(error) {
        HwError::Disconnected {
            device: device.to_string(),
        }
    } else {
        HwError::failed(device, describe(error))
    }
}

/// Opens the gantry's motors and sensors where `wiring` says, with the system clock.
pub fn open_robot(wiring: &Wiring) -> Result<Robot, HwError> {
    let motor = |axis: Axis| {
        let (kind, port, polarity) = wiring.motor(axis);
        Ev3Motor::open(axis.name(), kind, port, polarity).map(|m| Box::new(m) as Box<dyn Motor>)
    };
    Ok(Robot {
        columns: motor(Axis::Columns)?,
        rows: motor(Axis::Rows)?,
        pen: motor(Axis::Pen)?,
        light: Box::new(Ev3ColourSensor::open(&wiring.colour_port)?),
        touch: Box::new(Ev3TouchSensor::open(&wiring.touch_port)?),
        clock: Box::new(SystemClock::new()),
    })
}

/// A second set of handles on the robot's devices, changing nothing on them: for stopping the
/// motors from the signal thread or the panic hook while the main loop owns [`open_robot`]'s.
pub fn open_stop_handles(wiring: &Wiring) -> Result<Robot, HwError> {
    let motor = |axis: Axis| {
        let (kind, port, _) = wiring.motor(axis);
        Ev3Motor::attach(axis.name(), kind, port).map(|m| Box::new(m) as Box<dyn Motor>)
    };
    Ok(Robot {
        columns: motor(Axis::Columns)?,
        rows: motor(Axis::Rows)?,
        pen: motor(Axis::Pen)?,
        light: Box::new(Ev3ColourSensor::open(&wiring.colour_port)?),
        touch: Box::new(Ev3TouchSensor::open(&wiring.touch_port)?),
        clock: Box::new(SystemClock::new()),
    })
}

/// True if this machine has ev3dev's device classes at all: false on a PC, where "no motor on
/// outC" would be the wrong thing to say.
pub fn is_ev3dev() -> bool {
    attributes::class_exists("tacho-motor") || attributes::class_exists("lego-sensor")
}
