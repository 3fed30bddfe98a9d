//! A tacho motor on an output port, as ev3dev's `tacho-motor` class offers it.

use super::attributes::{find_on_port, Attributes};
use crate::config::{MotorKind, Polarity};
use crate::hw::{HwError, Motor, MotorState, StopAction};
use ev3dev_lang_rust::motors::MotorPort;

/// Every attribute the firmware reads or writes on a motor.
const ATTRIBUTES: &[&str] = &[
    "count_per_rot",
    "max_speed",
    "command",
    "position",
    "position_sp",
    "speed_sp",
    "duty_cycle_sp",
    "stop_action",
    "polarity",
    "speed",
    "state",
];

fn motor_port(port: &str) -> Option<MotorPort> {
    Some(match port {
        "outA" => MotorPort::OutA,
        "outB" => MotorPort::OutB,
        "outC" => MotorPort::OutC,
        "outD" => MotorPort::OutD,
        _ => return None,
    })
}

/// A tacho motor, its attribute files open.
pub struct Ev3Motor {
    attributes: Attributes,
    /// The driver refuses a `speed_sp` above this (EINVAL), so speeds are held to it.
    max_speed_deg_per_s: u32,
}

impl Ev3Motor {
    /// Opens the motor of `kind` on `port`, for `role` ("columns axis"), resets it to the
    /// driver's defaults and sets its polarity.
    pub fn open(
        role: &str,
        kind: MotorKind,
        port: &str,
        polarity: Polarity,
    ) -> Result<Ev3Motor, HwError> {
        let motor = Ev3Motor::attach(role, kind, port)?;
        let a = &motor.attributes;
        // `reset` first: it sets polarity, stop action and every set point back to the
        // driver's defaults, and stops the motor, whatever the last program left.
        a.set("command", "reset")?;
        a.set(
            "polarity",
            match polarity {
                Polarity::Normal => "normal",
                Polarity::Inversed => "inversed",
            },
        )?;
        a.set("stop_action", "coast")?;
        Ok(motor)
    }

    /// Opens the motor as [`Ev3Motor::open`] does but changes nothing on it: a second handle,
    /// for stopping it from another thread.
    pub fn attach(role: &str, kind: MotorKind, port: &str) -> Result<Ev3Motor, HwError> {
        let device = format!("{} ({role})", kind.describe());
        let Some(output) = motor_port(port) else {
            return Err(HwError::NotFound {
                device,
                port: port.to_string(),
            });
        };
        let folder = find_on_port("tacho-motor", &output, &[kind.driver_name()], &device, port)?;
        let name = format!("{device} on {port}");
        let attributes = Attributes::open("tacho-motor", &folder, &name, ATTRIBUTES)?;
        let counts: i32 = attributes.get("count_per_rot")?;
        if counts != 360 {
            return Err(HwError::failed(
                &name,
                format!("it counts {counts} per turn; this firmware expects LEGO's 360"),
            ));
        }
        let max_speed: i32 = attributes.get("max_speed")?;
        Ok(Ev3Motor {
            attributes,
            max_speed_deg_per_s: max_speed.max(1).unsigned_abs(),
        })
    }

    /// "large motor (rows axis) on outA".
    pub fn name(&self) -> &str {
        self.attributes.device()
    }
}

impl Motor for Ev3Motor {
    fn run_to_position(&mut self, target_deg: i32, speed_deg_per_s: u32) -> Result<(), HwError> {
        let a = &self.attributes;
        a.set("speed_sp", speed_deg_per_s.min(self.max_speed_deg_per_s))?;
        a.set("stop_action", "hold")?;
        a.set("position_sp", target_deg)?;
        a.set("command", "run-to-abs-pos")
    }

    fn run_duty(&mut self, duty_percent: i8) -> Result<(), HwError> {
        let a = &self.attributes;
        a.set("duty_cycle_sp", duty_percent.clamp(-100, 100))?;
        a.set("command", "run-direct")
    }

    fn stop(&mut self, action: StopAction) -> Result<(), HwError> {
        let a = &self.attributes;
        a.set(
            "stop_action",
            match action {
                StopAction::Coast => "coast",
                StopAction::Brake => "brake",
                StopAction::Hold => "hold",
            },
        )?;
        a.set("command", "stop")
    }

    fn position_deg(&mut self) -> Result<i32, HwError> {
        self.attributes.get("position")
    }

    fn set_position_deg(&mut self, position_deg: i32) -> Result<(), HwError> {
        self.attributes.set("position", position_deg)
    }

    fn speed_deg_per_s(&mut self) -> Result<i32, HwError> {
        self.attributes.get("speed")
    }

    fn state(&mut self) -> Result<MotorState, HwError> {
        let flags = self.attributes.words("state")?;
        let has = |flag: &str| flags.iter().any(|f| f == flag);
        Ok(MotorState {
            running: has("running"),
            ramping: has("ramping"),
            holding: has("holding"),
            stalled: has("stalled"),
            overloaded: has("overloaded"),
        })
    }
}
