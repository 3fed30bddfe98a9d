//! A run of the shipped program on the emulated brick (`emulated_brick`) ended by a signal at
//! any moment: every motor stopped and the pen up, whichever signal and whenever it comes,
//! even before the first motor is touched. Split from `ev3dev_sysfs.rs`, which tests the
//! device layer's attributes.

mod emulated_brick;
mod skipping;

use emulated_brick::{mount, Mounted, Tree};
use ev3_tictactoe::config::RobotConfig;
use ev3_tictactoe::hw::sim::SimSettings;
use std::time::Duration;

/// Starts `play` on the emulated brick.
fn start_play(brick: &Mounted, folder: &std::path::Path) -> std::process::Child {
    std::process::Command::new(emulated_brick::program_in(folder))
        .current_dir(folder)
        .env(
            ev3_tictactoe::hw::ev3dev::DEVICE_DIR_VARIABLE,
            brick.device_dir(),
        )
        .args(["play", "--difficulty", "easy", "--first", "robot"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Sends `signal` ("TERM") to `child` and waits for it: its exit status and what it printed.
fn signal_and_wait(child: &mut std::process::Child, signal: &str) -> (Option<i32>, String) {
    emulated_brick::send_signal(child, signal);
    let status = child.wait().unwrap();
    let mut out = String::new();
    std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut out).unwrap();
    (status.code(), out)
}

/// Every motor unpowered (not running, not holding), its last command a coasting stop.
fn assert_every_motor_stopped(tree: &Tree, when: &str) {
    for motor in ["motor0", "motor1", "motor2"] {
        let dir = format!("tacho-motor/{motor}");
        assert_eq!(
            tree.value(&format!("{dir}/state")),
            "",
            "{motor} is left powered {when}"
        );
        if let Some(command) = tree.last_written(&dir, "command") {
            assert!(
                command == "stop" || command == "reset",
                "{motor}'s last command {when} was {command}"
            );
        }
        if tree.last_written(&dir, "command").as_deref() == Some("stop") {
            assert_eq!(
                tree.last_written(&dir, "stop_action").as_deref(),
                Some("coast"),
                "{motor} {when}"
            );
        }
    }
}

#[test]
fn every_signal_that_ends_a_run_mid_move_leaves_every_motor_stopped_and_the_pen_up() {
    require_fuse!();
    for (signal, number, cause) in [
        ("TERM", 15, "Stopped by SIGTERM"),
        ("INT", 2, "Stopped by Ctrl-C (SIGINT)"),
        ("HUP", 1, "Stopped by SIGHUP"),
        ("QUIT", 3, "Stopped by Ctrl-\\ (SIGQUIT)"),
        ("TSTP", 20, "Stopped by Ctrl-Z (SIGTSTP"),
    ] {
        let brick = mount(Tree::default_robot());
        let folder = tempfile::tempdir().unwrap();
        let mut child = start_play(&brick, folder.path());
        // Homing starts with the pen (motor1, outB) driven up at its homing duty.
        let began = std::time::Instant::now();
        while brick
            .tree()
            .last_written("tacho-motor/motor1", "command")
            .as_deref()
            != Some("run-direct")
        {
            assert!(
                began.elapsed() < Duration::from_secs(20),
                "homing never started"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        assert_eq!(brick.tree().value("tacho-motor/motor1/state"), "running");
        let (code, out) = signal_and_wait(&mut child, signal);
        assert_eq!(
            code,
            Some(128 + number),
            "SIG{signal}'s exit status; output: {out}"
        );
        assert!(out.contains(cause), "SIG{signal}: {out}");
        let tree = brick.tree();
        assert_every_motor_stopped(&tree, &format!("after SIG{signal}"));
        // The pen was driven up before the motors coasted.
        let pen_commands: Vec<String> = tree
            .writes_under("tacho-motor/motor1")
            .into_iter()
            .filter(|(attribute, _)| attribute == "command")
            .map(|(_, command)| command)
            .collect();
        assert!(
            pen_commands.ends_with(&["run-direct".to_string(), "stop".to_string()]),
            "SIG{signal}: the pen's last commands {pen_commands:?}"
        );
        // The console was given back its text mode: two KDSETMODE calls, graphics then text.
        let console_calls = tree
            .ioctls
            .iter()
            .filter(|(path, _)| path == "dev/tty")
            .count();
        assert_eq!(console_calls, 2, "SIG{signal}: {:?}", tree.ioctls);
    }
}

/// Waits until process `pid` catches signal `number`, as /proc/PID/status's SigCgt shows.
fn wait_until_caught(pid: u32, number: u32) {
    let began = std::time::Instant::now();
    loop {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        let caught = status
            .lines()
            .find_map(|line| line.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .unwrap_or(0);
        if caught & (1 << (number - 1)) != 0 {
            return;
        }
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "signal {number} is never caught"
        );
        std::thread::sleep(Duration::from_micros(200));
    }
}

#[test]
fn the_signal_handler_is_in_place_before_any_motor_is_touched_and_an_early_signal_ends_cleanly() {
    require_fuse!();
    let mut caught_before_any_motor = 0;
    for (signal, number) in [("HUP", 1u32), ("TERM", 15), ("INT", 2)] {
        let brick = mount(Tree::default_robot());
        let folder = tempfile::tempdir().unwrap();
        let mut child = start_play(&brick, folder.path());
        // The first instant the program can answer: its handler caught (the kernel's SigCgt
        // mask). Before this, the signal kills it by the default action, as it would any
        // program before its main; what matters is that no device is touched before.
        wait_until_caught(child.id(), number);
        if brick.tree().writes_under("tacho-motor").is_empty() {
            caught_before_any_motor += 1;
        }
        let (code, out) = signal_and_wait(&mut child, signal);
        // Killed by the signal itself (no handler) would give no exit code at all.
        assert_eq!(
            code,
            Some(128 + number as i32),
            "SIG{signal}; output: {out}"
        );
        assert_every_motor_stopped(&brick.tree(), &format!("after an early SIG{signal}"));
    }
    // Polling can miss the moment on a busy machine once or twice, never all three times: the
    // handler comes first thing in main, the motors after the arguments, config and screen.
    assert!(
        caught_before_any_motor > 0,
        "the handler was caught only after a motor was written to, every time"
    );
}

/// Kills `play` with SIGKILL once `started` holds of the brick, and returns how long after the
/// kill the two axes' motors, then all three, were unpowered (by the sentinel: no handler
/// sees SIGKILL). The pen lift (motor1) is driven up for a moment first, on purpose.
fn kill_when(tree: Tree, started: impl Fn(&Tree) -> bool, what: &str) -> (Duration, Duration) {
    let brick = mount(tree);
    let folder = tempfile::tempdir().unwrap();
    let mut child = start_play(&brick, folder.path());
    let driven = |tree: &mut Tree| !tree.powered_motors().is_empty();
    let axis_driven = |tree: &mut Tree| tree.powered_motors().iter().any(|m| m != "motor1");
    let began = std::time::Instant::now();
    while !(started(&brick.tree()) && driven(&mut brick.tree())) {
        assert!(
            began.elapsed() < Duration::from_secs(60),
            "{what} never started"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    let (code, _) = signal_and_wait(&mut child, "KILL");
    assert_eq!(code, None, "killed, no exit status");
    let killed = std::time::Instant::now();
    while axis_driven(&mut brick.tree()) {
        std::thread::sleep(Duration::from_micros(200));
    }
    let axes_stopped_after = killed.elapsed();
    while driven(&mut brick.tree()) {
        assert!(
            killed.elapsed() < Duration::from_secs(5),
            "a motor still runs 5 s after SIGKILL at {what}"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    let stopped_after = killed.elapsed();
    // The sentinel brakes every motor, lifts the pen (run-direct) and lets everything coast;
    // wait for its last word, the pen's coasting stop, before the brick is unmounted. The pen's
    // commands end in run-direct then stop after the brake too (homing's run-direct, then the
    // brake), so what tells the end is every motor's stop action back at coast.
    let waited = std::time::Instant::now();
    loop {
        let mut tree = brick.tree();
        let all_coasting = ["motor0", "motor1", "motor2"].iter().all(|m| {
            let dir = format!("tacho-motor/{m}");
            tree.last_written(&dir, "stop_action").as_deref() == Some("coast")
                && tree.last_written(&dir, "command").as_deref() == Some("stop")
        });
        let pen_lifted = tree
            .writes_under("tacho-motor/motor1")
            .iter()
            .filter(|(attribute, command)| attribute == "command" && command == "run-direct")
            .count()
            >= 2;
        if all_coasting && pen_lifted && !driven(&mut tree) {
            assert_every_motor_stopped(&tree, &format!("after SIGKILL at {what}"));
            break;
        }
        drop(tree);
        assert!(
            waited.elapsed() < Duration::from_secs(5),
            "the sentinel never lifted the pen and let everything coast"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(100));
    (axes_stopped_after, stopped_after)
}

#[test]
fn after_sigkill_while_homing_or_drawing_every_motor_stops_within_a_second() {
    require_fuse!();
    let homing = kill_when(
        Tree::default_robot(),
        |tree| {
            tree.last_written("tacho-motor/motor1", "command")
                .as_deref()
                == Some("run-direct")
        },
        "homing",
    );
    // Drawing the grid: the columns motor sent to a position after both axes homed.
    let drawing = kill_when(
        Tree::moving_robot(&RobotConfig::default(), &SimSettings::default()),
        |tree| {
            tree.writes_under("tacho-motor/motor0")
                .iter()
                .filter(|(attribute, value)| attribute == "command" && value == "run-to-abs-pos")
                .count()
                >= 3
        },
        "drawing",
    );
    for (what, (axes, all)) in [("homing", homing), ("drawing", drawing)] {
        println!("SIGKILL at {what}: axes unpowered after {axes:?}, every motor after {all:?}");
        assert!(
            all < Duration::from_secs(1),
            "{what}: a motor was powered {all:?} after SIGKILL"
        );
    }
}
