//! The tacho motors' attributes and commands, as lego-linux-drivers' `tacho_motor_class.c` and
//! `legoev3_motor.c` take them.

use super::{Tree, CLASS};
use ev3_tictactoe::hw::{Ramps, StopAction};
use fuser::Errno;

/// What `reset` puts back, and every writable motor attribute but `position`.
const MOTOR_DEFAULTS: [(&str, &str); 9] = [
    ("command", ""),
    ("position_sp", "0"),
    ("speed_sp", "0"),
    ("ramp_up_sp", "0"),
    ("ramp_down_sp", "0"),
    ("duty_cycle_sp", "0"),
    ("polarity", "normal"),
    ("stop_action", "coast"),
    ("time_sp", "0"),
];

impl Tree {
    /// The motor folders powered (running or holding) now: by the physics when the brick has
    /// them, else by the `state` files.
    pub fn powered_motors(&mut self) -> Vec<String> {
        if let Some(physics) = &mut self.physics {
            physics.catch_up();
            let driven = physics.sim.world().driven_motors();
            let mut folders: Vec<String> = physics
                .motors
                .iter()
                .filter(|(_, (axis, _))| driven.contains(axis))
                .map(|(folder, _)| folder.clone())
                .collect();
            folders.sort();
            return folders;
        }
        ["motor0", "motor1", "motor2"]
            .into_iter()
            .filter(|m| !self.value(&format!("tacho-motor/{m}/state")).is_empty())
            .map(String::from)
            .collect()
    }

    /// A tacho motor as ev3dev shows it.
    pub fn motor(&mut self, name: &str, port: &str, driver: &str) {
        let dir = format!("{CLASS}/tacho-motor/{name}");
        self.folder(&dir);
        let max_speed = if driver == "lego-ev3-m-motor" {
            "1560"
        } else {
            "1050"
        };
        let read_only = [
            ("address", format!("ev3-ports:{port}")),
            ("driver_name", driver.to_string()),
            ("count_per_rot", "360".to_string()),
            ("max_speed", max_speed.to_string()),
            ("speed", "0".to_string()),
            ("state", String::new()),
            (
                "commands",
                "run-forever run-to-abs-pos run-to-rel-pos run-timed run-direct stop reset".into(),
            ),
        ];
        for (attribute, value) in read_only {
            self.attribute(&format!("{dir}/{attribute}"), &value, false);
        }
        for (attribute, value) in MOTOR_DEFAULTS {
            self.attribute(&format!("{dir}/{attribute}"), value, true);
        }
        self.attribute(&format!("{dir}/position"), "0", true);
    }

    /// The motor folder and attribute of a path under tacho-motor, if it is one.
    pub(super) fn motor_attribute(path: &str) -> Option<(String, String)> {
        let rest = path.strip_prefix("sys/class/tacho-motor/")?;
        let (motor, attribute) = rest.split_once('/')?;
        Some((motor.to_string(), attribute.to_string()))
    }

    pub(super) fn is_inversed(&self, motor: &str) -> bool {
        self.stored(&format!("{CLASS}/tacho-motor/{motor}/polarity")) == "inversed"
    }

    pub(super) fn motor_write(
        &mut self,
        motor: &str,
        attribute: &str,
        value: &str,
    ) -> Result<(), Errno> {
        let dir = format!("{CLASS}/tacho-motor/{motor}");
        let get = |tree: &Tree, a: &str| tree.stored(&format!("{dir}/{a}"));
        let number = |text: &str| text.trim().parse::<i32>().map_err(|_| Errno::EINVAL);
        if let Some(physics) = &mut self.physics {
            physics.catch_up();
        }
        let running = self.read(&format!("{dir}/state")).unwrap_or_default();
        let running = running.split_whitespace().any(|w| w == "running");
        match attribute {
            "speed_sp" => {
                let max: i32 = number(&get(self, "max_speed"))?;
                if number(value)?.abs() > max {
                    return Err(Errno::EINVAL);
                }
            }
            "duty_cycle_sp" if number(value)?.abs() > 100 => return Err(Errno::EINVAL),
            "position_sp" | "time_sp" => {
                number(value)?;
            }
            // As tacho_motor_class.c's ramp_*_sp_store: whole milliseconds, 0 to 60000.
            "ramp_up_sp" | "ramp_down_sp" if !(0..=60_000).contains(&number(value)?) => {
                return Err(Errno::EINVAL)
            }
            "polarity" if !matches!(value, "normal" | "inversed") => return Err(Errno::EINVAL),
            "stop_action" if !matches!(value, "coast" | "brake" | "hold") => {
                return Err(Errno::EINVAL)
            }
            "position" => {
                if running {
                    return Err(Errno::EBUSY);
                }
                let position = number(value)?;
                let sign = if self.is_inversed(motor) { -1 } else { 1 };
                if let Some(physics) = &mut self.physics {
                    physics.set_position(motor, sign * position);
                }
            }
            "command" => return self.command(motor, value),
            _ => {}
        }
        self.store(&format!("{dir}/{attribute}"), value);
        // A new duty cycle takes effect at once while the motor runs direct.
        if attribute == "duty_cycle_sp" && get(self, "command") == "run-direct" {
            self.run(motor, "run-direct")?;
        }
        Ok(())
    }

    /// Carries out a command; the command attribute keeps the last one for `duty_cycle_sp`.
    pub(super) fn command(&mut self, motor: &str, command: &str) -> Result<(), Errno> {
        let dir = format!("{CLASS}/tacho-motor/{motor}");
        match command {
            "reset" => {
                for (attribute, value) in MOTOR_DEFAULTS {
                    self.store(&format!("{dir}/{attribute}"), value);
                }
                self.store(&format!("{dir}/position"), "0");
                if let Some(physics) = &mut self.physics {
                    physics.stop(motor, StopAction::Coast);
                    physics.set_position(motor, 0);
                }
            }
            "run-to-abs-pos" | "run-direct" | "stop" => {}
            _ => return Err(Errno::EINVAL),
        }
        self.store(&format!("{dir}/command"), command);
        if command != "reset" {
            self.run(motor, command)?;
        }
        Ok(())
    }

    /// Applies a run or stop command from the stored set points.
    pub(super) fn run(&mut self, motor: &str, command: &str) -> Result<(), Errno> {
        let dir = format!("{CLASS}/tacho-motor/{motor}");
        let get = |a: &str| self.stored(&format!("{dir}/{a}"));
        let number = |a: &str| get(a).trim().parse::<i32>().unwrap_or(0);
        let sign = if self.is_inversed(motor) { -1 } else { 1 };
        let stop_action = match get("stop_action").as_str() {
            "hold" => StopAction::Hold,
            "brake" => StopAction::Brake,
            _ => StopAction::Coast,
        };
        let (position_sp, speed_sp, duty) = (
            sign * number("position_sp"),
            number("speed_sp").unsigned_abs(),
            (sign * number("duty_cycle_sp")).clamp(-100, 100) as i8,
        );
        // ev3dev takes a ramp as the milliseconds from standing to max_speed.
        let max_speed = number("max_speed").max(1) as u32;
        let rate = |attribute: &str| match number(attribute) {
            0 => 0,
            ms => max_speed * 1000 / ms.unsigned_abs(),
        };
        let ramps = Ramps {
            up_deg_per_s2: rate("ramp_up_sp"),
            down_deg_per_s2: rate("ramp_down_sp"),
        };
        let target = get("position_sp");
        let state = match command {
            "run-to-abs-pos" => "holding",
            "run-direct" => "running",
            _ if stop_action == StopAction::Hold => "holding",
            _ => "",
        };
        match &mut self.physics {
            Some(physics) => physics.run(
                motor,
                command,
                (position_sp, speed_sp, duty),
                ramps,
                stop_action,
            ),
            None => {
                // Without physics a run arrives at once.
                if command == "run-to-abs-pos" {
                    self.store(&format!("{dir}/position"), &target);
                }
                self.store(&format!("{dir}/state"), state);
            }
        }
        Ok(())
    }
}
