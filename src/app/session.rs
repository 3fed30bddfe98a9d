//! One way to open and close a run that drives motors: `play`, `sim`, `demo` and `calibrate`
//! all start a [`Session`], and the machine is made safe when it ends, whichever way it ends
//! (a return, an error, `?`, a panic that unwinds). A new command cannot forget the guard: it
//! gets the stop request every motion obeys only from a session.

use super::safety::{self, EmergencyStop};
use crate::motion::{PenAfterStop, StopRequest};
use anyhow::Context;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// After a signal, the main loop has this long to make the machine safe itself before the
/// signal thread stops the motors directly.
const SIGNAL_GRACE: Duration = Duration::from_secs(3);

/// A run of the program that may drive motors: the log, the signal and panic guard, and the
/// safe stop at its end.
pub struct Session {
    stop: StopRequest,
    emergency: Arc<EmergencyStop>,
}

impl Session {
    /// Appends timestamped lines to the log at `log`, then routes the signals that end a run
    /// to the session's stop request and panics to `emergency` (see [`safety`]).
    pub fn start(log: &Path, emergency: EmergencyStop) -> anyhow::Result<Session> {
        start_log(log)?;
        install_signal_handlers()?;
        let stop = StopRequest::new();
        let emergency = Arc::new(emergency);
        safety::arm(stop.clone(), emergency.clone());
        Ok(Session { stop, emergency })
    }

    /// The request every motion of this run obeys: set by a signal, or by the program's own
    /// stop key.
    pub fn stop_request(&self) -> StopRequest {
        self.stop.clone()
    }
}

impl Drop for Session {
    /// Every motor braked, the pen driven up, all coasting, and what the run took over (the
    /// console) given back: ev3dev motors keep running after the process that started them
    /// is gone.
    fn drop(&mut self) {
        let state = self.emergency.stop_all();
        let pen_left_down = matches!(state.pen, PenAfterStop::NotLifted(_));
        if pen_left_down || !state.not_stopped.is_empty() {
            log::warn!("at the end of the session: {}", state.describe());
        }
        self.emergency.dismiss_watcher();
        safety::disarm();
    }
}

/// Takes over the signals that end a run for the rest of the process (see [`safety`]); `main`
/// calls it before anything else, and a session makes sure of it.
pub fn install_signal_handlers() -> anyhow::Result<()> {
    safety::install(SIGNAL_GRACE).context("installing signal handlers")
}

/// A log longer than this is moved to `<name>.1` (replacing the one before) when a run starts:
/// about fifty three-game demos, or a long evening on the brick, whose storage is small.
pub const LOG_LIMIT_BYTES: u64 = 1_000_000;

/// Appends timestamped lines to the log file (UTC, RFC 3339), after moving a log grown past
/// [`LOG_LIMIT_BYTES`] aside, so at most two logs' worth is ever kept.
pub fn start_log(path: &Path) -> anyhow::Result<()> {
    if std::fs::metadata(path).is_ok_and(|meta| meta.is_file() && meta.len() > LOG_LIMIT_BYTES) {
        let mut old = path.as_os_str().to_owned();
        old.push(".1");
        std::fs::rename(path, &old)
            .with_context(|| format!("cannot move the full log {} aside", path.display()))?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open the log file {}", path.display()))?;
    let config = simplelog::ConfigBuilder::new()
        .set_time_format_rfc3339()
        .set_target_level(simplelog::LevelFilter::Off)
        .set_thread_level(simplelog::LevelFilter::Off)
        .build();
    // A second logger in one process (only in tests) keeps the first: nothing to do.
    let _ = simplelog::WriteLogger::init(simplelog::LevelFilter::Info, config, file);
    Ok(())
}
