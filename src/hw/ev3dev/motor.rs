//! A tacho motor on an output port, as ev3dev's `tacho-motor` class offers it.

use super::attributes::{find_on_port, Attributes};
use crate::config::{MotorKind, Polarity};
use crate::hw::{HwError, Motor, MotorState, Ramps, StopAction};
use ev3dev_lang_rust::motors::MotorPort;
use std::collections::HashMap;
use std::fmt::Display;

/// Every attribute the firmware reads or writes on a motor.
const ATTRIBUTES: &[&str] = &[
    "count_per_rot",
    "max_speed",
    "command",
    "position",
    "position_sp",
    "speed_sp",
    "ramp_up_sp",
    "ramp_down_sp",
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
    /// The ramps runs are to have: written before a run when the driver has others (every
    /// stop takes them off).
    ramps: Ramps,
    /// The set points last written through this handle, as written (empty: unknown): the
    /// driver keeps each until it is written again or a `reset` (`tacho_motor_class.c` sends a
    /// run with the set points as they stand), so one that has not changed is not written
    /// again. On the brick each write costs milliseconds (docs/figures.md, "What a game asks of
    /// the brick"), and a move's legs mostly repeat the speed and always the stop action.
    written: HashMap<&'static str, String>,
}

/// ev3dev's `ramp_up_sp` or `ramp_down_sp` for `deg_per_s2`: the milliseconds from standing to
/// the motor's `max_speed` (`tacho_motor_class.c`), 0 for none; the driver takes 0 to 60000.
fn ramp_ms(deg_per_s2: u32, max_speed_deg_per_s: u32) -> u32 {
    if deg_per_s2 == 0 {
        return 0;
    }
    let ms = (f64::from(max_speed_deg_per_s) * 1000.0 / f64::from(deg_per_s2)).round();
    ms.clamp(1.0, 60_000.0) as u32
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
        let mut motor = Ev3Motor::attach(role, kind, port)?;
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
        // What `reset` left, as far as this handle writes it.
        motor.written = HashMap::from([
            ("ramp_up_sp", "0".to_string()),
            ("ramp_down_sp", "0".to_string()),
        ]);
        motor.set_kept("stop_action", "coast")?;
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
            ramps: Ramps::NONE,
            // Unknown: another program may have left any; the first run or stop writes them.
            written: HashMap::new(),
        })
    }

    /// "large motor (rows axis) on outA".
    pub fn name(&self) -> &str {
        self.attributes.device()
    }

    /// Writes set point `name` unless this handle last wrote it with the same `value`. A
    /// write that fails leaves the driver's value unknown (kept as empty, which no set point
    /// is written as), so the next one is made. One look-up a call: on the brick's CPU each
    /// is a SipHash of the name.
    fn set_kept(&mut self, name: &'static str, value: impl Display) -> Result<(), HwError> {
        let text = value.to_string();
        let kept = self.written.entry(name).or_default();
        if *kept == text {
            return Ok(());
        }
        kept.clear();
        self.attributes.set(name, &text)?;
        *kept = text;
        Ok(())
    }

    /// Writes `ramps` to the driver unless they are what it has.
    fn write_ramps(&mut self, ramps: Ramps) -> Result<(), HwError> {
        let max = self.max_speed_deg_per_s;
        self.set_kept("ramp_up_sp", ramp_ms(ramps.up_deg_per_s2, max))?;
        self.set_kept("ramp_down_sp", ramp_ms(ramps.down_deg_per_s2, max))
    }
}

impl Motor for Ev3Motor {
    fn set_ramps(&mut self, ramps: Ramps) -> Result<(), HwError> {
        self.ramps = ramps;
        Ok(())
    }

    fn run_to_position(&mut self, target_deg: i32, speed_deg_per_s: u32) -> Result<(), HwError> {
        self.write_ramps(self.ramps)?;
        self.set_kept("speed_sp", speed_deg_per_s.min(self.max_speed_deg_per_s))?;
        self.set_kept("stop_action", "hold")?;
        self.set_kept("position_sp", target_deg)?;
        self.attributes.set("command", "run-to-abs-pos")
    }

    fn run_duty(&mut self, duty_percent: i8) -> Result<(), HwError> {
        self.set_kept("duty_cycle_sp", duty_percent.clamp(-100, 100))?;
        self.attributes.set("command", "run-direct")
    }

    fn stop(&mut self, action: StopAction) -> Result<(), HwError> {
        // With a ramp set, ev3dev's `stop` slows the motor down that ramp before it acts
        // (`tacho_motor_class.c`): a stop must be at once. The stop is sent even if taking the
        // ramps off failed, and that failure is then reported.
        let ramps_off = self.write_ramps(Ramps::NONE);
        self.set_kept(
            "stop_action",
            match action {
                StopAction::Coast => "coast",
                StopAction::Brake => "brake",
                StopAction::Hold => "hold",
            },
        )?;
        self.attributes.set("command", "stop")?;
        ramps_off
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
