//! The whole brick in one place, for ev3dev or the simulator: the gantry's motors and sensors,
//! a second set of handles for the emergency stop, the buttons, battery, screen, lights and
//! speaker. Commands build a [`Brick`] (or, needing only the gantry, [`GantryDevices`]) and
//! hand it on; none opens devices of its own.

use super::panel::Panel;
use super::safety::EmergencyStop;
use super::sentinel::Sentinel;
use super::Machine;
use crate::config::RobotConfig;
use crate::hw::ev3dev::{
    open_robot, open_stop_handles, Ev3Battery, Ev3Buttons, Ev3Lights, Ev3Screen, Ev3Speaker,
};
use crate::hw::sim::SimRobot;
use crate::hw::{Battery, ButtonPad, HwError, Robot, Screen, Speaker, StatusLights, Wiring};
use crate::motion::Gantry;
use anyhow::Context;

/// The gantry's motors and sensors, opened twice: once for the main loop, once for the stop;
/// on the brick, also watched from a second process.
pub struct GantryDevices {
    /// The gantry's motors and sensors, and the clock, for the main loop.
    pub robot: Robot,
    /// The same motors again, for stopping them from the signal thread or the panic hook.
    pub stop_handles: Robot,
    /// The process that stops the motors if this one is killed (see [`Sentinel`]).
    pub sentinel: Option<Sentinel>,
    /// The pen lift's homing duty, with which the emergency stop drives the pen up.
    pen_duty_percent: u8,
}

impl GantryDevices {
    /// The real gantry, through ev3dev; a missing motor or sensor is an error naming it. A
    /// sentinel that cannot start is said on `panel` and the program goes on without it.
    pub fn ev3dev(
        wiring: &Wiring,
        pen_duty_percent: u8,
        panel: &mut dyn FnMut(&str),
    ) -> Result<GantryDevices, HwError> {
        let robot = open_robot(wiring)?;
        let stop_handles = open_stop_handles(wiring)?;
        let sentinel = match Sentinel::start(wiring, pen_duty_percent) {
            Ok(sentinel) => Some(sentinel),
            Err(error) => {
                panel(&format!(
                    "No sentinel ({error:#}): if this program is killed, a motor may keep running."
                ));
                None
            }
        };
        Ok(GantryDevices {
            robot,
            stop_handles,
            sentinel,
            pen_duty_percent,
        })
    }

    /// The simulated gantry (its motors stop with the process that simulates them).
    pub fn simulated(sim: &SimRobot, pen_duty_percent: u8) -> GantryDevices {
        GantryDevices {
            robot: sim.robot(),
            stop_handles: sim.robot(),
            sentinel: None,
            pen_duty_percent,
        }
    }

    /// The motors for the main loop, and the emergency stop over the rest.
    pub fn split(self) -> (Robot, EmergencyStop) {
        let dismiss = self
            .sentinel
            .map(|sentinel| Box::new(move || sentinel.dismiss()) as Box<dyn FnOnce() + Send>);
        let emergency =
            EmergencyStop::new(self.stop_handles, self.pen_duty_percent).watched_by(dismiss);
        (self.robot, emergency)
    }
}

/// Every device of the brick the program uses.
pub struct Brick {
    pub gantry: GantryDevices,
    /// The buttons, or why they cannot be read (then only a game chosen on the command line).
    pub buttons: Result<Box<dyn ButtonPad>, String>,
    pub battery: Option<Box<dyn Battery>>,
    pub screen: Option<Box<dyn Screen>>,
    pub lights: Option<Box<dyn StatusLights>>,
    pub speaker: Option<Box<dyn Speaker>>,
}

impl Brick {
    /// The real brick, through ev3dev. What is missing but not needed to play (the LCD, the
    /// lights, the buttons) is said on `panel` and left out; a missing motor or sensor is an
    /// error naming it. The buttons are said first, so a brick whose buttons cannot be read says
    /// so even if something else stops it later.
    pub fn ev3dev(config: &RobotConfig, panel: &mut Panel) -> anyhow::Result<Brick> {
        let screen = match Ev3Screen::open() {
            Ok(screen) => Some(Box::new(screen) as Box<dyn Screen>),
            Err(error) => {
                panel.note(&format!(
                    "No LCD ({error}): messages go to this terminal only."
                ));
                None
            }
        };
        let lights = match Ev3Lights::open() {
            Ok(lights) => Some(Box::new(lights) as Box<dyn StatusLights>),
            Err(error) => {
                log::warn!("no status lights: {error}");
                None
            }
        };
        let buttons = Ev3Buttons::open()
            .map(|b| Box::new(b) as Box<dyn ButtonPad>)
            .map_err(|e| e.to_string());
        if let Err(why) = &buttons {
            panel.note(&format!(
                "No buttons ({why}): only play --difficulty will work."
            ));
        }
        let pen_duty = config.pen.homing.duty_percent;
        let gantry =
            GantryDevices::ev3dev(&config.wiring(), pen_duty, &mut |line| panel.note(line))
                .context("opening the robot")?;
        Ok(Brick {
            gantry,
            buttons,
            battery: Ev3Battery::open().ok().map(|b| Box::new(b) as _),
            screen,
            lights,
            speaker: Some(Box::new(Ev3Speaker::default())),
        })
    }

    /// The simulated robot, every device of it.
    pub fn simulated(sim: &SimRobot, config: &RobotConfig) -> Brick {
        Brick {
            gantry: GantryDevices::simulated(sim, config.pen.homing.duty_percent),
            buttons: Ok(Box::new(sim.buttons())),
            battery: Some(Box::new(sim.battery())),
            screen: Some(Box::new(sim.screen())),
            lights: Some(Box::new(sim.lights())),
            speaker: Some(Box::new(sim.speaker())),
        }
    }

    /// Hands the screen, lights and speaker to `panel`, and returns the machine the program
    /// drives and the emergency stop.
    pub fn into_machine(self, config: &RobotConfig, panel: &mut Panel) -> (Machine, EmergencyStop) {
        if self.screen.is_some() {
            panel.screen = self.screen;
        }
        panel.lights = self.lights;
        panel.speaker = self.speaker;
        let (robot, emergency) = self.gantry.split();
        let machine = Machine {
            gantry: Gantry::new(robot, config.clone()),
            buttons: self.buttons,
            battery: self.battery,
        };
        (machine, emergency)
    }
}
