//! Stopping safely whatever ends the program. ev3dev motors keep running after the process
//! that started them dies, so nothing may end it with a motor powered.
//!
//! - [`install`] runs first thing in `main`, before any device is opened: from then on
//!   SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGTSTP are the program's to handle.
//! - While no session drives motors (parsing arguments, opening devices, `scores`, `console`),
//!   such a signal ends the process at once, as it would by default: nothing is moving. SIGTSTP
//!   then suspends it, as a shell expects.
//! - While a session is [`arm`]ed, a signal sets its [`StopRequest`]; the motion loops and the
//!   program's waits see it within one poll, and the machine is made safe by the same code that
//!   handles a jam (brake, lift the pen, coast). SIGTSTP does the same: a gantry cannot be
//!   frozen mid-stroke and picked up again (the motion's timing and the stall watch would take
//!   the pause for a jam), so Ctrl-Z ends the run safely instead of leaving a motor driving in
//!   a suspended process.
//! - If the main loop has not finished within a grace period, or a second signal comes, the
//!   signal thread stops the motors itself through its own device handles and exits.
//! - A panic (which aborts in the release build) stops the motors from the panic hook, through
//!   the same handles, before the process goes.

use crate::config::Axis;
use crate::hw::{Robot, StopAction};
use crate::motion::StopRequest;
use crate::motion::{PenAfterStop, SafeState};
use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP};
use signal_hook::iterator::Signals;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// Motors stopped from outside the main loop, through a second set of device handles.
pub struct EmergencyStop {
    robot: Mutex<Robot>,
    pen_up_duty_percent: i8,
    /// Put back after the motors are stopped (the console's text mode).
    restore: Vec<Box<dyn Fn() + Send + Sync>>,
    /// Tells the process that stops the motors if this one is killed (the sentinel, on a
    /// brick) that it may go: run once the machine is safe.
    dismiss_watcher: Mutex<Option<Box<dyn FnOnce() + Send>>>,
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
            dismiss_watcher: Mutex::new(None),
        }
    }

    /// Keeps `dismiss` for [`EmergencyStop::dismiss_watcher`]: the way to tell a process that
    /// watches this one (the sentinel, which stops the motors even after a SIGKILL of this
    /// process) that it may go. Handed in as an action, so this module need not know the
    /// sentinel, which stops the motors through this one.
    pub fn watched_by(self, dismiss: Option<Box<dyn FnOnce() + Send>>) -> EmergencyStop {
        *self
            .dismiss_watcher
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = dismiss;
        self
    }

    /// The machine is safe and this process ends normally: its watcher may go.
    pub fn dismiss_watcher(&self) {
        let dismiss = self
            .dismiss_watcher
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(dismiss) = dismiss {
            dismiss();
        }
    }

    /// Also runs `restore` whenever the motors are stopped from here, after them: for what the
    /// program took over and must give back even when it dies (the console's text mode).
    pub fn also(mut self, restore: impl Fn() + Send + Sync + 'static) -> EmergencyStop {
        self.restore.push(Box::new(restore));
        self
    }

    /// Brakes every motor, drives the pen up, lets everything coast, and says what that
    /// achieved. It does not stop at an error: this is the last thing that runs.
    pub fn stop_all(&self) -> SafeState {
        let mut robot = self.robot.lock().unwrap_or_else(|e| e.into_inner());
        let robot = &mut *robot;
        for motor in [&mut robot.columns, &mut robot.rows, &mut robot.pen] {
            let _ = motor.stop(StopAction::Brake);
        }
        // The pen's homed top is the main loop's to know; from here it is driven to its stop.
        let pen = match robot.pen.run_duty(self.pen_up_duty_percent) {
            Ok(()) => {
                robot.clock.sleep(PEN_UP_FOR);
                PenAfterStop::DrivenUpUnhomed
            }
            Err(error) => PenAfterStop::NotLifted(error.to_string()),
        };
        let mut not_stopped = Vec::new();
        for axis in Axis::ALL {
            if let Err(error) = robot.motor(axis).stop(StopAction::Coast) {
                not_stopped.push((axis, error.to_string()));
            }
        }
        for restore in &self.restore {
            restore();
        }
        SafeState { not_stopped, pen }
    }
}

/// The last resort when the main loop does not answer: stops the motors from this thread and
/// ends the process.
fn stop_directly(emergency: &EmergencyStop, why: &str, signal: i32) -> ! {
    log::error!("{why}: stopping the motors directly");
    let state = emergency.stop_all().describe();
    log::error!("after {why}: {state}");
    eprintln!("Stopped after {why}. {state}");
    log::logger().flush();
    std::process::exit(i32::from(exit_status_for(signal)));
}

/// Exit status for a run ended by `signal`, as shells report it.
pub fn exit_status_for(signal: i32) -> u8 {
    (128 + signal.clamp(0, 127)) as u8
}

/// The signals that end a run, the machine made safe first.
pub const HANDLED_SIGNALS: [i32; 5] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP];

/// The session driving motors now: whom a signal asks to stop, and what stops the motors if
/// it does not.
#[derive(Clone)]
struct Armed {
    stop: StopRequest,
    emergency: Arc<EmergencyStop>,
}

static ARMED: Mutex<Option<Armed>> = Mutex::new(None);
/// Set in the sentinel process, which ends only when the program it watches has.
static IGNORING: AtomicBool = AtomicBool::new(false);
static INSTALLED: OnceLock<()> = OnceLock::new();

fn armed() -> Option<Armed> {
    ARMED.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Takes over [`HANDLED_SIGNALS`] and panics for the rest of the process; later calls do
/// nothing. Call it before opening any device. `grace` is how long an armed session has to make
/// the machine safe itself after a signal.
pub fn install(grace: Duration) -> std::io::Result<()> {
    if INSTALLED.get().is_some() {
        return Ok(());
    }
    let mut signals = Signals::new(HANDLED_SIGNALS)?;
    if INSTALLED.set(()).is_err() {
        return Ok(());
    }
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let mut first: Option<(i32, Armed)> = None;
            for signal in signals.forever() {
                if IGNORING.load(Ordering::SeqCst) {
                    continue;
                }
                if let Some((first, armed)) = &first {
                    stop_directly(&armed.emergency, "a second signal", *first);
                }
                let Some(session) = armed() else {
                    // Nothing is driving a motor: end (or, for Ctrl-Z, suspend) as by default.
                    if signal == SIGTSTP {
                        let _ = signal_hook::low_level::emulate_default_handler(SIGTSTP);
                        continue;
                    }
                    log::logger().flush();
                    std::process::exit(i32::from(exit_status_for(signal)));
                };
                log::warn!("signal {signal}: stopping");
                session.stop.request(signal);
                let emergency = session.emergency.clone();
                std::thread::spawn(move || {
                    std::thread::sleep(grace);
                    let why = format!("no safe stop within {} s", grace.as_secs());
                    stop_directly(&emergency, &why, signal);
                });
                first = Some((signal, session));
            }
        })?;
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let session = armed();
        let state = session.map(|session| session.emergency.stop_all().describe());
        log::error!("internal error: {info}");
        log::logger().flush();
        previous(info);
        if let Some(state) = state {
            eprintln!("After this internal error: {state}");
        }
    }));
    Ok(())
}

/// From now until [`disarm`], a signal asks `stop` to stop, and `emergency` stops the motors if
/// the main loop does not, or on a panic.
pub fn arm(stop: StopRequest, emergency: Arc<EmergencyStop>) {
    *ARMED.lock().unwrap_or_else(|e| e.into_inner()) = Some(Armed { stop, emergency });
}

/// Asks the session driving motors, if any, to stop for `cause` (a [`StopRequest`] code), as
/// a signal would: for a stop found where the session's request is out of reach.
pub fn stop_the_session(cause: i32) {
    if let Some(session) = armed() {
        session.stop.request(cause);
    }
}

/// From now on the signals [`install`] took over are ignored (the sentinel's way).
pub fn ignore_signals() {
    IGNORING.store(true, Ordering::SeqCst);
}

/// No session drives motors any more: a signal ends the process at once again.
pub fn disarm() {
    *ARMED.lock().unwrap_or_else(|e| e.into_inner()) = None;
}
