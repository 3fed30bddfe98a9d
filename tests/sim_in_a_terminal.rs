//! `ev3-tictactoe sim` end to end, typed into a real terminal: tmux runs it, `send-keys` presses
//! the keys a person would, and `capture-pane` reads what the terminal shows.
//!
//! Needs tmux (CI installs it).

mod skipping;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server of this test's own, killed on drop.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn start(command: &str, folder: &Path) -> Tmux {
        Tmux::sized(command, folder, 100, 32)
    }

    /// In a terminal `width` columns by `height` lines.
    fn sized(command: &str, folder: &Path, width: u16, height: u16) -> Tmux {
        let tmux = Tmux {
            socket: format!("ev3-tictactoe-test-{}-{width}x{height}", std::process::id()),
        };
        let status = Command::new("tmux")
            .args([
                "-L",
                &tmux.socket,
                "new-session",
                "-d",
                "-x",
                &width.to_string(),
                "-y",
                &height.to_string(),
            ])
            .arg("-c")
            .arg(folder)
            .arg(command)
            .status()
            .expect("tmux is needed for this test: apt-get install tmux");
        assert!(status.success());
        tmux
    }

    fn keys(&self, keys: &[&str]) {
        for key in keys {
            let status = Command::new("tmux")
                .args(["-L", &self.socket, "send-keys", key])
                .status()
                .unwrap();
            assert!(status.success());
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket, "capture-pane", "-p"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits until the terminal shows `text`, and returns what it showed.
    fn wait_for(&self, text: &str) -> String {
        let began = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                began.elapsed() < Duration::from_secs(30),
                "waited 30 s for {text:?}; the terminal shows:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .status();
    }
}

/// Skips the test, saying why, on a machine without tmux, unless CI (EV3_TICTACTOE_REQUIRE_ALL
/// set) requires it.
fn tmux_is_missing() -> bool {
    if Command::new("tmux").arg("-V").output().is_ok() {
        return false;
    }
    skipping::skip_or_fail("tmux", "apt-get install tmux to run this test");
    true
}

#[test]
fn a_person_at_the_terminal_plays_the_simulated_robot_with_keys() {
    if tmux_is_missing() {
        return;
    }
    let folder = tempfile::tempdir().unwrap();
    let command = format!(
        "'{}' sim --scores scores.json --speed 100 --idle-timeout 1h --paper sheet.svg; echo EXIT=$?; sleep 60",
        env!("CARGO_BIN_EXE_ev3-tictactoe")
    );
    let tmux = Tmux::start(&command, folder.path());
    tmux.wait_for("Noughts and crosses");
    tmux.keys(&["Right"]);
    tmux.wait_for("Level: hard");
    tmux.keys(&["Left"]);
    let before = tmux.wait_for("Your move (X)");
    assert!(before.contains("4 | 5 | 6"), "{before}");
    // The grid is on the simulated paper, as the sensor sees it.
    assert!(before.contains("#####"), "{before}");
    tmux.keys(&["5", "t"]);
    let after = tmux.wait_for("4 | X | 6");
    // The robot answers, then waits for the human again.
    let answered = tmux.wait_for("Your move (X)");
    assert!(answered.matches('O').count() >= 1, "{after}\n{answered}");
    tmux.keys(&["t"]);
    tmux.wait_for("[ No new mark ]");
    tmux.keys(&["q"]);
    let ended = tmux.wait_for("EXIT=");
    assert!(ended.contains("Stopped by the stop key"), "{ended}");
    assert!(
        ended.contains("EXIT=0"),
        "q is the way out, not a failure: {ended}"
    );
    let sheet = std::fs::read_to_string(folder.path().join("sheet.svg")).unwrap();
    assert!(
        sheet.matches("<polyline").count() >= 6,
        "grid and both marks"
    );
}

#[test]
fn in_an_80_column_terminal_no_line_of_sim_wraps_or_repeats() {
    if tmux_is_missing() {
        return;
    }
    for (width, height) in [(80, 24), (120, 40)] {
        let folder = tempfile::tempdir().unwrap();
        let command = format!(
            "'{}' sim --speed 100 --idle-timeout 1h; echo EXIT=$?; sleep 60",
            env!("CARGO_BIN_EXE_ev3-tictactoe")
        );
        let tmux = Tmux::sized(&command, folder.path(), width, height);
        let screen = tmux.wait_for("Noughts and crosses");
        // A line too long for the terminal would go on at the start of the next one, and a
        // redraw after it would leave a broken copy above.
        for whole in [
            "Lights: ",
            "Keys: arrows or h j k l = buttons, Enter = centre, t = touch sensor,",
            "1-9 = your mark in that square (1 top left, 9 bottom right), q = stop",
            "ev3-tictactoe sim: simulated robot at 100x",
        ] {
            assert_eq!(
                screen.matches(whole).count(),
                1,
                "{width}x{height}: {whole:?} once and whole:\n{screen}"
            );
        }
        tmux.keys(&["q"]);
        let ended = tmux.wait_for("EXIT=");
        assert!(ended.contains("EXIT=0"), "{ended}");
    }
}
