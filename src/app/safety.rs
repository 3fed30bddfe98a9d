//! Stopping safely whatever ends the program. ev3dev motors keep running after the process
//! that started them dies, so nothing may end it with a motor powered.
//!
//! - Ctrl-C, SIGTERM and SIGHUP set the [`StopRequest`]; the motion loops and the program's
//!   waits see it within one poll, and the machine is made safe by the same code that handles
//!   a jam (brake, lift the pen, coast).
//! - If the main loop has not finished within a grace period, or a second signal comes, the
//!   signal thread stops the motors itself through its own device handles and exits.
//! - A panic (which aborts in the release build) stops the motors from the panic hook, through
//!   the same handles, before the process goes.

use crate::hw::{Robot, StopAction};
use crate::motion::StopRequest;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Motors stopped from outside the main loop, through a second set of device handles.
pub struct EmergencyStop {
    robot: Mutex<Robot>,
    pen_up_duty_percent: i8,
    /// Put back after the motors are stopped (the console's text mode).
    restore: Vec<Box<dyn Fn() + Send + Sync>>,
}

/// How long the pen is driven up toward its top stop; it is there well within this at any
/// homing duty, and pushing on the stop at homing duty is what homing does anyway.
const PEN_UP_FOR: Duration = Duration::from_millis(400);

impl EmergencyStop {
    /// `robot` must be handles of its own, not those the main loop uses. The pen is lifted by
    /// driving it up at `pen_duty_percent` (the homing duty), which works homed or not.
    pub fn new(robot: Robot, pen_duty_percent: u8) -> EmergencyStop {
        EmergencyStop {
            robot: Mutex::new(robot),
            pen_up_duty_percent: -(pen_duty_percent.min(100) as i8),
            restore: Vec::new(),
        }
    }

    /// Also runs `restore` whenever the motors are stopped from here, after them: for what the
    /// program took over and must give back even when it dies (the console's text mode).
    pub fn also(mut self, restore: impl Fn() + Send + Sync + 'static) -> EmergencyStop {
        self.restore.push(Box::new(restore));
        self
    }

    /// Brakes every motor, drives the pen up, and lets everything coast. Errors are ignored:
    /// this is the last thing that runs.
    pub fn stop_all(&self) {
        let mut robot = self.robot.lock().unwrap_or_else(|e| e.into_inner());
        let robot = &mut *robot;
        for motor in [&mut robot.columns, &mut robot.rows, &mut robot.pen] {
            let _ = motor.stop(StopAction::Brake);
        }
        if robot.pen.run_duty(self.pen_up_duty_percent).is_ok() {
            robot.clock.sleep(PEN_UP_FOR);
        }
        for motor in [&mut robot.columns, &mut robot.rows, &mut robot.pen] {
            let _ = motor.stop(StopAction::Coast);
        }
        for restore in &self.restore {
            restore();
        }
    }
}

/// The last resort when the main loop does not answer: stops the motors from this thread and
/// ends the process.
fn stop_directly(emergency: &EmergencyStop, why: &str, signal: i32) -> ! {
    log::error!("{why}: stopping the motors directly");
    emergency.stop_all();
    eprintln!("Stopped after {why}: motors off, pen up.");
    log::logger().flush();
    std::process::exit(i32::from(exit_status_for(signal)));
}

/// Exit status for a run ended by `signal`, as shells report it.
pub fn exit_status_for(signal: i32) -> u8 {
    (128 + signal.clamp(0, 127)) as u8
}

/// Routes Ctrl-C, SIGTERM and SIGHUP to `stop`, and panics to `emergency`. If the main loop has
/// not ended `grace` after the first signal, or a second signal comes, the motors are stopped
/// from here and the process exits.
pub fn install(
    stop: StopRequest,
    emergency: Arc<EmergencyStop>,
    grace: Duration,
) -> std::io::Result<()> {
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    let from_signals = emergency.clone();
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let mut first = None;
            for signal in signals.forever() {
                let Some(first) = first else {
                    first = Some(signal);
                    log::warn!("signal {signal}: stopping");
                    stop.request(signal);
                    let emergency = from_signals.clone();
                    std::thread::spawn(move || {
                        std::thread::sleep(grace);
                        let why = format!("no safe stop within {} s", grace.as_secs());
                        stop_directly(&emergency, &why, signal);
                    });
                    continue;
                };
                stop_directly(&from_signals, "a second signal", first);
            }
        })?;
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        emergency.stop_all();
        log::error!("internal error: {info}");
        log::logger().flush();
        previous(info);
        eprintln!("The motors were stopped and the pen lifted after this internal error.");
    }));
    Ok(())
}
