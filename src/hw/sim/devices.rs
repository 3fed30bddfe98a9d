//! The simulated world seen through the hardware traits: its clock, each motor, and the
//! brick's sensors, buttons, screen, lights, speaker and battery, as the firmware opens them.

use super::{lock, SensorFault, SimMotor, World};
use crate::config::Axis;
use crate::hw::{
    Battery, ButtonPad, Buttons, Clock, Frame, HwError, LightColour, Motor, MotorState, Ramps,
    ReflectedLight, Screen, Speaker, StatusLights, StopAction, Tone, TouchSensor,
};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// The virtual clock: sleeping runs the world.
#[derive(Clone)]
pub struct SimClock {
    pub(super) world: Arc<Mutex<World>>,
}

impl Clock for SimClock {
    fn now(&self) -> Duration {
        lock(&self.world).now()
    }

    fn sleep(&self, duration: Duration) {
        lock(&self.world).advance(duration);
    }
}

/// The virtual clock held to a pace against the wall clock, for a person watching: at `speed`
/// 2, a simulated second passes in half a real one.
pub struct PacedClock {
    pub clock: SimClock,
    pub speed: f64,
}

impl Clock for PacedClock {
    fn now(&self) -> Duration {
        self.clock.now()
    }

    fn sleep(&self, duration: Duration) {
        self.clock.sleep(duration);
        if self.speed.is_finite() && self.speed > 0.0 {
            std::thread::sleep(duration.div_f64(self.speed));
        }
    }
}

pub(super) struct SimMotorDevice {
    pub(super) world: Arc<Mutex<World>>,
    pub(super) axis: Axis,
    pub(super) name: String,
}

impl SimMotorDevice {
    fn with<T>(&mut self, f: impl FnOnce(&mut SimMotor) -> T) -> Result<T, HwError> {
        let mut world = lock(&self.world);
        let motor = &mut world.motors[self.axis as usize];
        if motor.is_disconnected() {
            return Err(HwError::Disconnected {
                device: self.name.clone(),
            });
        }
        Ok(f(motor))
    }
}

impl SimMotorDevice {
    /// As [`SimMotorDevice::with`], for a read of an attribute, which takes its time.
    fn read<T>(&mut self, f: impl FnOnce(&SimMotor) -> T) -> Result<T, HwError> {
        lock(&self.world).spend_a_read();
        self.with(|m| f(m))
    }
}

impl Motor for SimMotorDevice {
    fn set_ramps(&mut self, ramps: Ramps) -> Result<(), HwError> {
        self.with(|m| m.set_ramps(ramps))
    }

    fn run_to_position(&mut self, target_deg: i32, speed_deg_per_s: u32) -> Result<(), HwError> {
        self.with(|m| m.run_to_position(target_deg, speed_deg_per_s))
    }

    fn run_duty(&mut self, duty_percent: i8) -> Result<(), HwError> {
        self.with(|m| m.run_duty(duty_percent))
    }

    fn stop(&mut self, action: StopAction) -> Result<(), HwError> {
        self.with(|m| m.stop_at_once(action))
    }

    fn position_deg(&mut self) -> Result<i32, HwError> {
        self.read(|m| m.position_deg())
    }

    fn set_position_deg(&mut self, position_deg: i32) -> Result<(), HwError> {
        self.with(|m| m.set_position_deg(position_deg))
    }

    fn speed_deg_per_s(&mut self) -> Result<i32, HwError> {
        self.read(|m| m.speed_deg_per_s().round() as i32)
    }

    fn state(&mut self) -> Result<MotorState, HwError> {
        self.read(|m| m.state())
    }
}

/// A simulated sensor or brick part: one handle type, one trait each.
pub struct SimDevice {
    world: Arc<Mutex<World>>,
    name: String,
}

impl SimDevice {
    pub(super) fn new(world: &Arc<Mutex<World>>, name: String) -> SimDevice {
        SimDevice {
            world: world.clone(),
            name,
        }
    }

    fn world(&self) -> MutexGuard<'_, World> {
        lock(&self.world)
    }
}

impl ReflectedLight for SimDevice {
    fn reflected_percent(&mut self) -> Result<u8, HwError> {
        let name = self.name.clone();
        self.world()
            .read_light()
            .map_err(|_| HwError::failed(&name, "reading the reflected light failed (I/O error)"))
    }
}

impl TouchSensor for SimDevice {
    fn is_pressed(&mut self) -> Result<bool, HwError> {
        let mut world = self.world();
        world.spend_a_read();
        world.touch_reads += 1;
        if let SensorFault::FailsAfter { reads } = world.touch_fault {
            if world.touch_reads > reads {
                return Err(HwError::failed(
                    &self.name,
                    "reading the touch sensor failed (I/O error)",
                ));
            }
        }
        Ok((world.touch_pressed_from_ms..world.touch_pressed_until_ms).contains(&world.time_ms))
    }
}

impl ButtonPad for SimDevice {
    fn pressed(&mut self) -> Result<Buttons, HwError> {
        let world = self.world();
        Ok(
            if (world.buttons_from_ms..world.buttons_until_ms).contains(&world.time_ms) {
                world.buttons
            } else {
                Buttons::default()
            },
        )
    }
}

impl Screen for SimDevice {
    fn show(&mut self, frame: &Frame) -> Result<(), HwError> {
        self.world().screen = Some(frame.clone());
        Ok(())
    }
}

impl StatusLights for SimDevice {
    fn set(&mut self, left: LightColour, right: LightColour) -> Result<(), HwError> {
        self.world().lights = (left, right);
        Ok(())
    }
}

impl Speaker for SimDevice {
    fn play(&mut self, tones: &[Tone]) -> Result<(), HwError> {
        let mut world = self.world();
        let now = world.now();
        world.tones.extend(tones.iter().map(|&t| (now, t)));
        Ok(())
    }
}

impl Battery for SimDevice {
    fn voltage_v(&mut self) -> Result<f32, HwError> {
        Ok(self.world().battery_v)
    }
}
