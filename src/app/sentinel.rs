//! A second process that makes the machine safe when this one dies without doing so. No
//! handler sees SIGKILL (the OOM killer, a stop button that kills), and ev3dev motors go on
//! with their last command after their program is gone: `run-direct`, with which homing
//! pushes gently into each end stop, never ends by itself, and `hold` holds for ever.
//!
//! When the program opens the brick's motors it starts the sentinel (this same binary, with
//! the hidden `sentinel` command) in a process group of its own, so a signal sent to the
//! program's group does not take it too, and keeps a pipe to the sentinel's standard input.
//! The sentinel opens its own handles on the motors, says it is ready, and waits on the pipe.
//! The kernel closes the pipe when the program ends, however it ends. If the program said
//! "done" first (its own safe stop ran), the sentinel just leaves; otherwise it brakes every
//! motor, drives the pen up and lets them coast, as the program's emergency stop does.

use super::safety::{self, EmergencyStop};
use crate::hw::ev3dev::open_stop_handles;
use crate::hw::Wiring;
use anyhow::{bail, Context};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};

/// The hidden command that runs the sentinel.
pub const COMMAND: &str = "sentinel";
/// What the sentinel prints once its handles are open.
const READY: &str = "ready";
/// What the program writes when it has made the machine safe itself.
const DONE: &str = "done";

/// The program's end of a running sentinel.
pub struct Sentinel {
    child: Child,
    pipe: Option<ChildStdin>,
}

impl Sentinel {
    /// Starts the sentinel for the motors `wiring` names and waits until it watches them.
    pub fn start(wiring: &Wiring, pen_duty_percent: u8) -> anyhow::Result<Sentinel> {
        let program = std::env::current_exe().context("cannot find this program's file")?;
        let mut child = Command::new(program)
            .arg(COMMAND)
            .arg(serde_json::to_string(wiring)?)
            .arg(pen_duty_percent.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .process_group(0)
            .spawn()
            .context("cannot start the sentinel process")?;
        let mut said = String::new();
        if let Some(out) = child.stdout.take() {
            BufReader::new(out).read_line(&mut said)?;
        }
        if said.trim() != READY {
            let _ = child.kill();
            let _ = child.wait();
            bail!("the sentinel process could not watch the motors");
        }
        let pipe = child.stdin.take();
        Ok(Sentinel { child, pipe })
    }

    /// The program has made the machine safe itself: the sentinel leaves without touching it.
    pub fn dismiss(mut self) {
        if let Some(mut pipe) = self.pipe.take() {
            let _ = writeln!(pipe, "{DONE}");
        }
        let _ = self.child.wait();
    }
}

/// The sentinel's side: `wiring` as JSON, the pen's homing duty. Returns when the program has
/// ended, after stopping the motors unless the program said it had.
pub fn watch(wiring_json: &str, pen_duty_percent: &str) -> anyhow::Result<()> {
    // Signals are for the program; the sentinel ends only when the program has.
    safety::ignore_signals();
    let wiring: Wiring = serde_json::from_str(wiring_json).context("the sentinel's wiring")?;
    let duty: u8 = pen_duty_percent
        .parse()
        .context("the sentinel's pen duty")?;
    let emergency = EmergencyStop::new(open_stop_handles(&wiring)?, duty);
    let mut out = std::io::stdout().lock();
    writeln!(out, "{READY}")?;
    out.flush()?;
    drop(out);
    let mut said = Vec::new();
    let _ = std::io::stdin().lock().read_to_end(&mut said);
    if String::from_utf8_lossy(&said).trim() == DONE {
        return Ok(());
    }
    let state = emergency.stop_all();
    eprintln!(
        "ev3-tictactoe ended without stopping its motors (killed?); its sentinel stopped them. {}",
        state.describe()
    );
    Ok(())
}
