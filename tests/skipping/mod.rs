//! Tests that need something a machine may lack (FUSE rights, tmux) skip there, and say so where
//! the person running `cargo test` sees it; CI sets `EV3_TICTACTOE_REQUIRE_ALL`, which makes them
//! required, so they are never skipped silently there.

use std::io::Write;

/// The variable that makes every test required.
pub const REQUIRE_ALL: &str = "EV3_TICTACTOE_REQUIRE_ALL";

/// Decides what a test does without `what`, missing because `why`: under CI it fails, saying so;
/// anywhere else it is skipped, saying so past the test harness's capture (which would hide the
/// line of a test that passes), with the test's name.
pub fn skip_or_fail(what: &str, why: &str) {
    if std::env::var_os(REQUIRE_ALL).is_some() {
        panic!("{what} is required here ({REQUIRE_ALL} is set) but missing: {why}");
    }
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    // Straight to the process's stderr: the harness captures only print! and eprint!.
    let _ = writeln!(
        std::io::stderr(),
        "skipped {test}: {what} is missing here ({why}); set {REQUIRE_ALL}=1 to make it required"
    );
}
