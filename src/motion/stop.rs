//! A request to stop everything, made from outside the motion loops (a signal handler, a key
//! in the simulator) and honoured at their next poll, so the machine is made safe by the same
//! code that handles a jam.

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;

/// Shared by whoever may ask for a stop and the loops that must obey it. Cloning shares it.
#[derive(Debug, Clone, Default)]
pub struct StopRequest(Arc<AtomicI32>);

impl StopRequest {
    pub fn new() -> StopRequest {
        StopRequest::default()
    }

    /// Asks for a stop because of `signal` (a Unix signal number; the first request wins).
    pub fn request(&self, signal: i32) {
        let _ = self
            .0
            .compare_exchange(0, signal.max(1), Ordering::SeqCst, Ordering::SeqCst);
    }

    /// The signal a stop was asked for with, if one was.
    pub fn signal(&self) -> Option<i32> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            signal => Some(signal),
        }
    }

    /// A name for the cause, for messages: "SIGTERM", or "a stop key" for a request without a
    /// signal.
    pub fn cause(&self) -> String {
        match self.signal() {
            Some(2) => "Ctrl-C (SIGINT)".into(),
            Some(15) => "SIGTERM".into(),
            Some(1) => "SIGHUP (the terminal closed)".into(),
            Some(3) => "Ctrl-\\ (SIGQUIT)".into(),
            Some(20) => {
                "Ctrl-Z (SIGTSTP; a robot cannot be paused mid-stroke, so the run ends)".into()
            }
            Some(STOP_KEY) | None => "the stop key".into(),
            Some(OUTPUT_CLOSED) => "the reader of the output going away".into(),
            Some(other) => format!("signal {other}"),
        }
    }
}

/// The "signal" a stop asked for from the keyboard carries (no real signal is 1000).
pub const STOP_KEY: i32 = 1000;

/// The "signal" of a stop because the program's output was closed (`demo | head -1`): not an
/// error, so the program ends with status 0 once the machine is safe.
pub const OUTPUT_CLOSED: i32 = 1001;
