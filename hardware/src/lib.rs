//! The hardware the ev3-tictactoe firmware needs from an EV3 brick, as small traits: motors,
//! the colour and touch sensors, a clock, the brick's buttons, battery, lights, speaker and
//! screen, and the names of the motors' roles. The implementations (the real brick through
//! ev3dev, and the simulator) live in the firmware crate, above this one: nothing here can
//! reach them, or the motion and game code above.
//!
//! Why traits this small: everything above this layer (homing, drawing, reading the paper, the
//! game) is tested on the simulator, so each trait holds only what both implementations can do
//! honestly. Helpers built from these operations live with their users, not here. No code above
//! this layer touches sysfs, files or real time directly; waiting goes through [`Clock`], which
//! is how a simulated game runs in milliseconds.

pub mod frame;
mod roles;

pub use frame::Frame;
pub use roles::{Axis, MotorKind, Polarity};

use std::time::{Duration, Instant};

/// A device that failed, named so the user can find it ("columns motor on outC").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HwError {
    #[error("no {device} on {port}: check the cable")]
    NotFound { device: String, port: String },
    #[error("the {device} stopped answering: check its cable")]
    Disconnected { device: String },
    #[error("the {device} failed: {message}")]
    Failed { device: String, message: String },
}

impl HwError {
    pub fn failed(device: &str, message: impl std::fmt::Display) -> HwError {
        HwError::Failed {
            device: device.to_string(),
            message: message.to_string(),
        }
    }
}

/// What a motor does when told to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopAction {
    /// Power off; the motor spins down freely.
    Coast,
    /// Power off with the windings shorted, so it stops sooner.
    Brake,
    /// Actively hold the current position.
    Hold,
}

/// ev3dev's state flags of a tacho motor.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MotorState {
    /// Power is applied (a command is in progress).
    pub running: bool,
    /// Speeding up or slowing down at the start or end of a run.
    pub ramping: bool,
    /// Holding its position after a run with the hold stop action.
    pub holding: bool,
    /// The motor is not turning although it is driven. A motor starting from rest can read as
    /// stalled for a moment; the firmware debounces this (the firmware's stall judge).
    pub stalled: bool,
    /// Running at full duty and still below the speed asked for.
    pub overloaded: bool,
}

/// How fast a run to a position speeds up and slows down, in deg/s² (ev3dev's `ramp_up_sp` and
/// `ramp_down_sp`, which it takes as the milliseconds from standing to `max_speed`).
///
/// `NONE` is the driver's default, and it matters: without a ramp down, ev3dev's
/// `run-to-abs-pos` runs at full speed until the position is reached and only then applies the
/// stop action, so the motor overshoots by its braking distance and `hold` pulls it back, from
/// the other side of its gears' play (lego-linux-drivers, `ev3/legoev3_motor.c`,
/// `update_position`). With a ramp down it slows down in time to stop on the target.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ramps {
    /// Speeding up; 0: as fast as the motor's speed regulation can.
    pub up_deg_per_s2: u32,
    /// Slowing down to the target; 0: none (see above).
    pub down_deg_per_s2: u32,
}

impl Ramps {
    pub const NONE: Ramps = Ramps {
        up_deg_per_s2: 0,
        down_deg_per_s2: 0,
    };

    /// The same rate both ways.
    pub fn both(deg_per_s2: u32) -> Ramps {
        Ramps {
            up_deg_per_s2: deg_per_s2,
            down_deg_per_s2: deg_per_s2,
        }
    }
}

/// A motor with an encoder, as ev3dev's `tacho-motor` class offers it. Positions and speeds
/// are in degrees of the motor's shaft (EV3 motors count 360 per turn).
pub trait Motor: Send {
    /// The ramps of every run to a position from now on (until the next call).
    fn set_ramps(&mut self, ramps: Ramps) -> Result<(), HwError>;
    /// Starts a run to `target_deg` at `speed_deg_per_s`; returns at once.
    fn run_to_position(&mut self, target_deg: i32, speed_deg_per_s: u32) -> Result<(), HwError>;
    /// Starts running at a duty cycle from -100 to 100 percent; returns at once.
    fn run_duty(&mut self, duty_percent: i8) -> Result<(), HwError>;
    /// Stops at once, with `action`, whatever ramps are set (a stop is not a run: it must not
    /// coast on down a ramp).
    fn stop(&mut self, action: StopAction) -> Result<(), HwError>;
    fn position_deg(&mut self) -> Result<i32, HwError>;
    /// Declares the current position to be `position_deg` (the origin, after homing).
    fn set_position_deg(&mut self, position_deg: i32) -> Result<(), HwError>;
    fn speed_deg_per_s(&mut self) -> Result<i32, HwError>;
    fn state(&mut self) -> Result<MotorState, HwError>;
}

/// The colour sensor in reflected-light mode.
pub trait ReflectedLight: Send {
    /// Light reflected from the spot under the sensor, 0 (black) to 100 (white).
    fn reflected_percent(&mut self) -> Result<u8, HwError>;
}

/// The touch sensor the human presses after a move.
pub trait TouchSensor: Send {
    fn is_pressed(&mut self) -> Result<bool, HwError>;
}

/// The brick's buttons that are held down at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Buttons {
    pub up: bool,
    pub down: bool,
    pub left: bool,
    pub right: bool,
    pub centre: bool,
    /// Not a control: brickrun may use it to end the program.
    pub back: bool,
}

impl Buttons {
    /// The name of a button held now that was not held at `before` ("centre"), if any; the
    /// back button is left out, as brickrun may use it.
    pub fn newly_pressed(self, before: Buttons) -> Option<&'static str> {
        [
            ("up", before.up, self.up),
            ("down", before.down, self.down),
            ("left", before.left, self.left),
            ("right", before.right, self.right),
            ("centre", before.centre, self.centre),
        ]
        .into_iter()
        .find_map(|(name, was, is)| (is && !was).then_some(name))
    }
}

/// The six buttons on the brick's face.
pub trait ButtonPad {
    fn pressed(&mut self) -> Result<Buttons, HwError>;
}

/// The brick's 178 x 128 monochrome LCD.
pub trait Screen: Send {
    fn show(&mut self, frame: &Frame) -> Result<(), HwError>;
}

/// A colour of the two status lights beside the buttons (each has a red and a green LED).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LightColour {
    Off,
    Green,
    Red,
    Amber,
}

/// The two status lights.
pub trait StatusLights: Send {
    fn set(&mut self, left: LightColour, right: LightColour) -> Result<(), HwError>;
}

/// One beep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tone {
    pub frequency_hz: u32,
    pub duration_ms: u32,
}

/// The brick's speaker.
pub trait Speaker: Send {
    /// Starts playing the tones one after another; returns at once.
    fn play(&mut self, tones: &[Tone]) -> Result<(), HwError>;
}

/// A voice that says sentences aloud.
pub trait Voice: Send {
    /// Starts saying `sentence`; returns at once, while it is still being said.
    fn say(&mut self, sentence: &str) -> Result<(), HwError>;
}

/// The brick's battery.
pub trait Battery: Send {
    fn voltage_v(&mut self) -> Result<f32, HwError>;
}

/// Time, for everything that waits. On the simulator it is virtual: it moves only when the
/// firmware sleeps, and the simulated world moves with it.
pub trait Clock: Send {
    /// Time since the clock was made; never goes backwards.
    fn now(&self) -> Duration;
    /// Waits for *at least* `duration`.
    fn sleep(&self, duration: Duration);
}

/// The wall clock of the machine the program runs on.
#[derive(Debug, Clone)]
pub struct SystemClock {
    start: Instant,
}

impl SystemClock {
    pub fn new() -> SystemClock {
        SystemClock {
            start: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        SystemClock::new()
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.start.elapsed()
    }

    fn sleep(&self, duration: Duration) {
        std::thread::sleep(duration);
    }
}

/// The parts of the robot that play: the gantry's three motors and the two sensors, and the
/// clock they are timed by.
pub struct Robot {
    pub columns: Box<dyn Motor>,
    pub rows: Box<dyn Motor>,
    pub pen: Box<dyn Motor>,
    pub light: Box<dyn ReflectedLight>,
    pub touch: Box<dyn TouchSensor>,
    pub clock: Box<dyn Clock>,
}

impl Robot {
    /// The motor of `axis`.
    pub fn motor(&mut self, axis: Axis) -> &mut dyn Motor {
        match axis {
            Axis::Columns => &mut *self.columns,
            Axis::Rows => &mut *self.rows,
            Axis::Pen => &mut *self.pen,
        }
    }
}

/// What a hardware implementation opens: each motor's kind, port and polarity, and the
/// sensors' ports. Only this of the robot config reaches the devices.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Wiring {
    pub columns: (MotorKind, String, Polarity),
    pub rows: (MotorKind, String, Polarity),
    pub pen: (MotorKind, String, Polarity),
    pub colour_port: String,
    pub touch_port: String,
}

impl Wiring {
    /// The kind, port and polarity of `axis`'s motor.
    pub fn motor(&self, axis: Axis) -> (MotorKind, &str, Polarity) {
        let (kind, port, polarity) = match axis {
            Axis::Columns => &self.columns,
            Axis::Rows => &self.rows,
            Axis::Pen => &self.pen,
        };
        (*kind, port, *polarity)
    }
}
