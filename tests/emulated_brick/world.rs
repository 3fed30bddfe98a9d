//! The world behind the files: the project's simulated robot, run in real time, moved by what
//! is written to the motors and read through the sensors' values.

use ev3_tictactoe::config::Axis;
use ev3_tictactoe::config::RobotConfig;
use ev3_tictactoe::hw::sim::{SimBody, SimRobot, SimSettings};
use ev3_tictactoe::hw::{Ramps, Robot, StopAction};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The simulated robot behind the files, kept level with the wall clock.
pub struct Physics {
    pub sim: SimRobot,
    devices: Robot,
    started: Instant,
    /// Per motor folder: the simulated joint, and when it began reading speed 0 while driven.
    pub(super) motors: HashMap<String, (Axis, Option<Duration>)>,
    unplugged: Vec<String>,
}

impl Physics {
    pub fn new(config: &RobotConfig, settings: &SimSettings) -> Physics {
        // Here a read of a file costs real time (FUSE, the kernel, the program); the simulator's
        // own charge for it would count it twice and run the world ahead of the wall clock,
        // then hold it still while the clock catches up, and motions would seem to crawl.
        let settings = SimSettings {
            read_latency_ms: 0,
            read_latency_jitter_ms: 0,
            ..settings.clone()
        };
        let sim = SimRobot::new(&SimBody::as_configured(config), &settings);
        let devices = sim.robot();
        let folder_of = |port: &str| match port {
            "outA" => "motor0",
            "outB" => "motor1",
            _ => "motor2",
        };
        let motors = HashMap::from([
            (
                folder_of(&config.columns.port).to_string(),
                (Axis::Columns, None),
            ),
            (folder_of(&config.rows.port).to_string(), (Axis::Rows, None)),
            (folder_of(&config.pen.port).to_string(), (Axis::Pen, None)),
        ]);
        Physics {
            sim,
            devices,
            started: Instant::now(),
            motors,
            unplugged: Vec::new(),
        }
    }

    /// Runs the simulated world up to the wall clock.
    pub(super) fn catch_up(&mut self) {
        let now = self.started.elapsed();
        let world_now = self.devices.clock.now();
        if now > world_now {
            self.devices.clock.sleep(now - world_now);
        }
    }

    pub(super) fn motor(&mut self, folder: &str) -> Option<&mut Box<dyn ev3_tictactoe::hw::Motor>> {
        let (joint, _) = self.motors.get(folder)?;
        Some(match joint {
            Axis::Columns => &mut self.devices.columns,
            Axis::Rows => &mut self.devices.rows,
            Axis::Pen => &mut self.devices.pen,
        })
    }

    pub(super) fn set_position(&mut self, folder: &str, position: i32) {
        if let Some(motor) = self.motor(folder) {
            let _ = motor.set_position_deg(position);
        }
    }

    pub(super) fn stop(&mut self, folder: &str, action: StopAction) {
        if let Some(motor) = self.motor(folder) {
            let _ = motor.stop(action);
        }
    }

    /// Carries out `command` with the set points (position, speed, duty) and ramps as the
    /// driver has them.
    pub(super) fn run(
        &mut self,
        folder: &str,
        command: &str,
        (position_sp, speed_sp, duty): (i32, u32, i8),
        ramps: Ramps,
        stop_action: StopAction,
    ) {
        if let Some(entry) = self.motors.get_mut(folder) {
            entry.1 = None;
        }
        let Some(&(axis, _)) = self.motors.get(folder) else {
            return;
        };
        let Some(motor) = self.motor(folder) else {
            return;
        };
        let _ = motor.set_ramps(ramps);
        let _ = match command {
            "run-to-abs-pos" => motor.run_to_position(position_sp, speed_sp),
            "run-direct" => motor.run_duty(duty),
            // With a ramp set, the driver's stop comes down it first.
            _ => {
                self.sim.world().stop_as_ev3dev(axis, stop_action);
                Ok(())
            }
        };
    }

    /// A motor attribute that the simulated motor answers.
    pub(super) fn motor_reading(
        &mut self,
        folder: &str,
        attribute: &str,
        inversed: bool,
    ) -> Option<String> {
        let sign = if inversed { -1 } else { 1 };
        let now = self.devices.clock.now();
        let motor = self.motor(folder)?;
        match attribute {
            "position" => Some((sign * motor.position_deg().ok()?).to_string()),
            "speed" => Some((sign * motor.speed_deg_per_s().ok()?).to_string()),
            "state" => {
                let state = motor.state().ok()?;
                let speed = motor.speed_deg_per_s().ok()?;
                // As legoev3_motor.c: stalled once driven at speed 0 for more than 100 ms.
                let since = &mut self.motors.get_mut(folder)?.1;
                let still = state.running && speed == 0;
                let stalled = match (still, *since) {
                    (false, _) => {
                        *since = None;
                        false
                    }
                    (true, None) => {
                        *since = Some(now);
                        false
                    }
                    (true, Some(began)) => now - began > Duration::from_millis(100),
                };
                let mut words = Vec::new();
                if state.running {
                    words.push("running");
                }
                if state.holding {
                    words.push("holding");
                }
                if stalled {
                    words.push("stalled");
                }
                Some(words.join(" "))
            }
            _ => None,
        }
    }

    pub(super) fn sensor_reading(&mut self, path: &str) -> Option<String> {
        match path {
            "sys/class/lego-sensor/sensor0/value0" => {
                Some(self.devices.light.reflected_percent().ok()?.to_string())
            }
            "sys/class/lego-sensor/sensor1/value0" => {
                Some(u8::from(self.devices.touch.is_pressed().ok()?).to_string())
            }
            _ => None,
        }
    }

    /// A motor whose cable is pulled loses power.
    pub(super) fn unplug(&mut self, class_path: &str) {
        if let Some(folder) = class_path.strip_prefix("tacho-motor/") {
            self.stop(folder, StopAction::Coast);
            self.unplugged.push(folder.to_string());
        }
    }

    /// The simulated motors that still have power applied (running or holding).
    pub fn driven(&self) -> Vec<Axis> {
        self.sim.world().driven_motors()
    }
}
