//! The real-time brick suite: the real program (`play`, the binary that ships) on the emulated
//! brick with the simulated robot behind its files, in real time, driven by button presses on
//! the brick's input device and by a person who draws on the virtual sheet and presses the touch
//! sensor, as someone at a real brick would; and what it does when a cable comes out or a signal
//! comes at each phase of a game.
//!
//! Its runs take minutes of wall-clock time, so `cargo test` leaves them out (they are ignored
//! tests) and CI runs them on every change: `cargo test --test brick_games -- --ignored`.

mod emulated_brick;
mod skipping;

use emulated_brick::{mount, Mounted, Tree};
use ev3_tictactoe::config::RobotConfig;
use ev3_tictactoe::game::Cell;
use ev3_tictactoe::hw::ev3dev::buttons::key;
use ev3_tictactoe::hw::ev3dev::DEVICE_DIR_VARIABLE;
use ev3_tictactoe::hw::sim::human::{self, HandMark};
use ev3_tictactoe::hw::sim::SimSettings;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// The program running on the emulated brick, and everything it has printed.
struct Run {
    child: Child,
    lines: Receiver<String>,
    transcript: Vec<String>,
}

impl Run {
    fn start(brick: &Mounted, folder: &Path, args: &[&str]) -> Run {
        let mut child = Command::new(emulated_brick::program_in(folder))
            .current_dir(folder)
            .env(DEVICE_DIR_VARIABLE, brick.device_dir())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (sender, lines) = mpsc::channel();
        for stream in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let sender = sender.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    if sender.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        Run {
            child,
            lines,
            transcript: Vec::new(),
        }
    }

    /// The next line that starts with any of `starts`, within `within`.
    fn wait_for(&mut self, starts: &[&str], within: Duration) -> String {
        let until = Instant::now() + within;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    if starts.iter().any(|s| line.starts_with(s)) {
                        return line;
                    }
                }
                Err(_) => panic!(
                    "none of {starts:?} within {within:?}; the program said:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// The next `n` lines, whatever they are.
    fn next_lines(&mut self, n: usize) -> Vec<String> {
        (0..n)
            .map(|_| {
                let line = self
                    .lines
                    .recv_timeout(Duration::from_secs(5))
                    .expect("the board follows its screen");
                self.transcript.push(line.clone());
                line
            })
            .collect()
    }

    /// Waits for the program to end; its exit status and the rest of what it said.
    fn finish(&mut self, within: Duration) -> Option<i32> {
        let until = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // The reader threads hand over what is left once the pipes close.
                while let Ok(line) = self.lines.recv_timeout(Duration::from_millis(200)) {
                    self.transcript.push(line);
                }
                return status.code();
            }
            if Instant::now() > until {
                let _ = self.child.kill();
                panic!(
                    "still running after {within:?}:\n{}",
                    self.transcript.join("\n")
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn said(&self) -> String {
        self.transcript.join("\n")
    }
}

/// The person presses the touch sensor again, their mark already on the paper (after "I see no
/// new mark", when the robot read too few samples over it).
fn press_touch_again(brick: &Mounted) {
    let tree = brick.tree();
    let physics = tree.physics.as_ref().expect("a moving robot");
    physics.sim.world().press_touch(Duration::from_millis(200));
}

/// A press of one brick button, as a finger does it.
fn press(brick: &Mounted, code: u16) {
    brick.tree().press_key(code, Duration::from_millis(150));
    std::thread::sleep(Duration::from_millis(300));
}

/// The person's turn: draws an X with a pen in the first empty square of a fixed order (the
/// centre, then corners, then sides), read off the board the program printed, and presses the
/// touch sensor.
fn human_moves(brick: &Mounted, run: &mut Run) {
    let board = run.next_lines(3).join(" ");
    let empty: Vec<usize> = board
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    let square = [5, 1, 3, 7, 9, 2, 4, 6, 8]
        .into_iter()
        .find(|n| empty.contains(n))
        .expect("an empty square on the human's turn");
    let config = RobotConfig::default();
    let tree = brick.tree();
    let physics = tree.physics.as_ref().expect("a moving robot");
    let mut world = physics.sim.world();
    human::draw(
        world.paper_mut(),
        &config.board,
        Cell::from_index(square - 1, 3),
        HandMark::Cross,
    );
    world.press_touch(Duration::from_millis(200));
}

/// Every motor of the robot behind `brick` is unpowered and, if the pen lift could still be
/// driven (`pen_liftable`), the pen is off the paper.
fn assert_left_safe(brick: &Mounted, case: &str, pen_liftable: bool) {
    let tree = brick.tree();
    let physics = tree.physics.as_ref().unwrap();
    let driven = physics.driven();
    assert!(driven.is_empty(), "{case}: still powered: {driven:?}");
    if pen_liftable {
        assert!(
            !physics.sim.world().pen_is_down(),
            "{case}: the pen is down"
        );
    }
}

fn moving_brick() -> Mounted {
    mount(Tree::moving_robot(
        &RobotConfig::default(),
        &SimSettings::default(),
    ))
}

const SCREEN: Duration = Duration::from_secs(60);

#[test]
#[ignore = "the real-time brick suite (about 10 minutes): cargo test --test brick_games -- --ignored"]
fn started_with_no_arguments_as_the_file_browser_does_the_menu_plays_a_whole_game_and_exits() {
    require_fuse!();
    let brick = moving_brick();
    // brickman's File Browser runs the program it is pointed at in the program's own folder,
    // with no arguments.
    let folder = tempfile::tempdir().unwrap();
    let mut run = Run::start(&brick, folder.path(), &[]);
    run.wait_for(&["[Noughts and crosses]"], SCREEN);
    press(&brick, key::RIGHT);
    run.wait_for(&["[Level: hard]"], SCREEN);
    press(&brick, key::LEFT);
    let result = loop {
        let line = run.wait_for(
            &[
                "[Your move",
                "[You win",
                "[I win",
                "[A draw",
                "[Game void",
                "[Error",
            ],
            SCREEN,
        );
        if line.starts_with("[Your move") {
            human_moves(&brick, &mut run);
        } else {
            break line;
        }
    };
    assert!(
        result.starts_with("[I win") || result.starts_with("[A draw"),
        "hard never loses: {}",
        run.said()
    );
    // Any button leaves the result for the scores, any button the scores for the menu, and up
    // exits.
    press(&brick, key::ENTER);
    run.wait_for(&["[Scores]"], SCREEN);
    press(&brick, key::DOWN);
    run.wait_for(&["[Noughts and crosses]"], SCREEN);
    press(&brick, key::UP);
    run.wait_for(&["[Goodbye]"], SCREEN);
    assert_eq!(run.finish(SCREEN), Some(0), "{}", run.said());
    let said = run.said();
    assert!(!said.contains("panicked"), "{said}");
    assert!(
        said.contains("No LCD"),
        "the emulated LCD cannot answer: {said}"
    );
    let scores = std::fs::read_to_string(folder.path().join("scoreboard.json")).unwrap();
    let scores: serde_json::Value = serde_json::from_str(&scores).unwrap();
    let hard = &scores["levels"]["hard"];
    let games = ["wins", "draws", "losses"]
        .iter()
        .map(|k| hard[k].as_u64().unwrap_or(0))
        .sum::<u64>();
    assert_eq!(games, 1, "{scores}");
    assert!(
        folder.path().join("ev3-tictactoe.log").exists(),
        "the log beside the program"
    );
    // Started from another folder (brickrun over ssh from wherever the person is), the program
    // finds the same scoreboard: beside its own file.
    let elsewhere = tempfile::tempdir().unwrap();
    let shown = Command::new(emulated_brick::program_in(folder.path()))
        .current_dir(elsewhere.path())
        .args(["scores", "--json"])
        .env_remove("EV3_TICTACTOE_SCORES")
        .output()
        .unwrap();
    let shown: serde_json::Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert_eq!(
        shown["levels"]["hard"], *hard,
        "the same scoreboard from another folder"
    );
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
    let tree = brick.tree();
    assert!(
        tree.physics.as_ref().unwrap().driven().is_empty(),
        "every motor unpowered at exit"
    );
    let console: Vec<_> = tree.ioctls.iter().filter(|(p, _)| p == "dev/tty").collect();
    assert_eq!(console.len(), 2, "graphics mode taken, then given back");
}

/// Where in a game a cable comes out, and the first sign that the game is there.
#[derive(Debug, Clone, Copy)]
enum Phase {
    Homing,
    Grid,
    Reading,
    Drawing,
}

impl Phase {
    const ALL: [Phase; 4] = [Phase::Homing, Phase::Grid, Phase::Reading, Phase::Drawing];

    fn screen(self) -> &'static str {
        match self {
            Phase::Homing => "[Homing]",
            Phase::Grid => "[Drawing the grid]",
            Phase::Reading => "[Reading the paper]",
            Phase::Drawing => "[My move]",
        }
    }
}

#[test]
#[ignore = "the real-time brick suite (about 10 minutes): cargo test --test brick_games -- --ignored"]
fn a_cable_pulled_at_any_phase_is_a_named_error_held_on_the_screen_with_every_other_motor_stopped()
{
    require_fuse!();
    let devices = [
        ("tacho-motor/motor2", "large motor (columns axis) on outC"),
        ("tacho-motor/motor0", "large motor (rows axis) on outA"),
        ("tacho-motor/motor1", "medium motor (pen lift) on outB"),
        ("lego-sensor/sensor0", "colour sensor on in1"),
    ];
    for phase in Phase::ALL {
        for (device, name) in devices {
            let brick = moving_brick();
            let folder = tempfile::tempdir().unwrap();
            let mut run = Run::start(
                &brick,
                folder.path(),
                &[
                    "play",
                    "--difficulty",
                    "easy",
                    "--first",
                    "robot",
                    "--seed",
                    "1",
                ],
            );
            run.wait_for(&[phase.screen()], SCREEN);
            // Into the phase's motion, then the cable comes out.
            std::thread::sleep(Duration::from_millis(400));
            brick.tree().unplug(device);
            loop {
                let line = run.wait_for(&["[Your move", "[No new mark", "[Error]"], SCREEN);
                if line.starts_with("[Error]") {
                    break;
                }
                if line.starts_with("[No new mark") {
                    press_touch_again(&brick);
                    continue;
                }
                // The colour sensor is only missed at the next reading.
                human_moves(&brick, &mut run);
            }
            let case = format!("{name} at {phase:?}");
            // The error stays on the LCD for a person who started it from the brick's screen
            // and sees no terminal, until a button closes it.
            std::thread::sleep(Duration::from_secs(1));
            assert!(
                run.child.try_wait().unwrap().is_none(),
                "{case}: the error is held on the screen"
            );
            press(&brick, key::ENTER);
            let status = run.finish(SCREEN);
            let said = run.said();
            assert_eq!(status, Some(1), "{case}: {said}");
            assert!(said.contains(name), "{case}: the device is named: {said}");
            assert!(!said.contains("panicked"), "{case}: {said}");
            // With the pen lift's own cable out, nothing can lift the pen.
            assert_left_safe(&brick, &case, device != "tacho-motor/motor1");
        }
    }
}

#[test]
#[ignore = "the real-time brick suite (about 10 minutes): cargo test --test brick_games -- --ignored"]
fn a_signal_to_the_program_and_its_sentinel_at_any_phase_ends_the_game_safely_and_leaves_no_process(
) {
    require_fuse!();
    // Each signal at each phase of the robot's work, and while it waits for the person.
    let signals = [
        ("TERM", 15),
        ("INT", 2),
        ("HUP", 1),
        ("QUIT", 3),
        ("TSTP", 20),
    ];
    let mut cases = Vec::new();
    for (i, phase) in Phase::ALL.iter().enumerate() {
        cases.push((phase.screen(), signals[i % signals.len()]));
    }
    cases.push(("[Your move", signals[4]));
    cases.push(("[Noughts and crosses]", signals[0]));
    for (screen, (signal, number)) in cases {
        let brick = moving_brick();
        let folder = tempfile::tempdir().unwrap();
        let first = if screen == "[Your move" {
            "human"
        } else {
            "robot"
        };
        let game = [
            "play",
            "--difficulty",
            "easy",
            "--first",
            first,
            "--seed",
            "1",
        ];
        // The menu, as the File Browser starts it: no arguments.
        let arguments: &[&str] = if screen == "[Noughts and crosses]" {
            &[]
        } else {
            &game
        };
        let mut run = Run::start(&brick, folder.path(), arguments);
        run.wait_for(&[screen], SCREEN);
        // Into the phase's motion (or the wait), then the signal, to the program and its
        // sentinel in the same instant, as the back button's long press makes brickman send
        // it to every process on the program's console (`pkill --terminal`).
        std::thread::sleep(Duration::from_millis(400));
        let sentinel = sentinel_of(run.child.id()).expect("the program watched by its sentinel");
        let sent = Command::new("kill")
            .args([
                format!("-{signal}"),
                run.child.id().to_string(),
                sentinel.to_string(),
            ])
            .status()
            .unwrap();
        assert!(sent.success());
        let status = run.finish(SCREEN);
        let said = run.said();
        let case = format!("SIG{signal} at {screen}");
        assert_eq!(status, Some(128 + number), "{case}: {said}");
        assert!(said.contains("Stopped by"), "{case}: {said}");
        assert!(said.contains("Motors off"), "{case}: {said}");
        assert_left_safe(&brick, &case, true);
        // No process left behind: the sentinel, told the program stopped safely, leaves.
        let until = Instant::now() + Duration::from_secs(3);
        while Path::new(&format!("/proc/{sentinel}")).exists() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            !Path::new(&format!("/proc/{sentinel}")).exists(),
            "{case}: the sentinel is gone"
        );
        // A game begun (its blank paper read) is journalled, to be taken up again.
        if screen == "[Your move" || screen == "[My move]" {
            assert!(
                folder
                    .path()
                    .join("scoreboard.json.game-in-progress")
                    .exists(),
                "{case}: the game is journalled"
            );
        }
        // The console is given back its text mode: graphics taken, then text.
        let tree = brick.tree();
        let console: Vec<_> = tree.ioctls.iter().filter(|(p, _)| p == "dev/tty").collect();
        assert_eq!(console.len(), 2, "{case}: {console:?}");
    }
}

#[test]
#[ignore = "the real-time brick suite (about 10 minutes): cargo test --test brick_games -- --ignored"]
fn a_signal_at_any_step_of_calibrate_leaves_every_motor_stopped_and_the_pen_up() {
    require_fuse!();
    for (step, (signal, number)) in [
        ("Homing...", ("INT", 2)),
        ("Measuring each axis's travel...", ("TERM", 15)),
        ("Lowering the pen onto the sheet's corner", ("QUIT", 3)),
        ("Reading the blank paper...", ("HUP", 1)),
        ("Draw an X across", ("TSTP", 20)),
    ] {
        let brick = moving_brick();
        let folder = tempfile::tempdir().unwrap();
        let mut run = Run::start(&brick, folder.path(), &["calibrate"]);
        run.wait_for(&[step], SCREEN);
        std::thread::sleep(Duration::from_millis(400));
        emulated_brick::send_signal(&run.child, signal);
        let status = run.finish(SCREEN);
        let said = run.said();
        let case = format!("SIG{signal} at {step}");
        assert!(
            status == Some(1) || status == Some(128 + number),
            "{case}: exit {status:?}: {said}"
        );
        assert!(said.contains("stopped by"), "{case}: {said}");
        assert_left_safe(&brick, &case, true);
    }
}

/// The process id of the sentinel the program `program` started (see `app::sentinel`): its
/// child whose command line runs the hidden `sentinel` command.
fn sentinel_of(program: u32) -> Option<u32> {
    std::fs::read_dir("/proc").ok()?.find_map(|entry| {
        let pid: u32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // The parent's id is the second field after the command's closing parenthesis.
        let parent: u32 = stat
            .rsplit(')')
            .next()?
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()?;
        let command = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
        let runs_sentinel = command.split(|&b| b == 0).any(|word| word == b"sentinel");
        (parent == program && runs_sentinel).then_some(pid)
    })
}

/// Plays the person's turns until the game's result; returns the result's line.
fn play_to_the_end(brick: &Mounted, run: &mut Run) -> String {
    loop {
        let line = run.wait_for(
            &[
                "[Your move",
                "[No new mark",
                "[You win",
                "[I win",
                "[A draw",
                "[Game void",
                "[Not the same sheet",
                "[Error",
            ],
            SCREEN,
        );
        if line.starts_with("[Your move") {
            human_moves(brick, run);
        } else if line.starts_with("[No new mark") {
            press_touch_again(brick);
        } else {
            return line;
        }
    }
}

#[test]
#[ignore = "the real-time brick suite (about 10 minutes): cargo test --test brick_games -- --ignored"]
fn a_game_killed_mid_play_is_taken_up_again_by_the_next_play_and_finished() {
    require_fuse!();
    // Killed (SIGKILL: no handler, the sentinel stops the motors) while reading the person's
    // first mark, and while the robot thinks about its second move.
    for (phase, after_your_moves) in [("[Reading the board", 1), ("[Thinking", 2)] {
        let brick = moving_brick();
        let folder = tempfile::tempdir().unwrap();
        let args = [
            "play",
            "--difficulty",
            "easy",
            "--first",
            "human",
            "--seed",
            "4",
        ];
        let mut run = Run::start(&brick, folder.path(), &args);
        for _ in 0..after_your_moves {
            run.wait_for(&["[Your move"], SCREEN);
            human_moves(&brick, &mut run);
        }
        run.wait_for(&[phase], SCREEN);
        std::thread::sleep(Duration::from_millis(300));
        let _ = run.child.kill();
        let _ = run.child.wait();
        // The sentinel's pen lift, then everything coasts.
        std::thread::sleep(Duration::from_millis(800));
        let journal = folder.path().join("scoreboard.json.game-in-progress");
        assert!(journal.exists(), "{phase}: the game in progress is kept");
        let mut again = Run::start(&brick, folder.path(), &args);
        again.wait_for(&["[Go on?]"], SCREEN);
        press(&brick, key::ENTER);
        let result = play_to_the_end(&brick, &mut again);
        assert!(
            ["[You win", "[I win", "[A draw"]
                .iter()
                .any(|r| result.starts_with(r)),
            "{phase}: {}",
            again.said()
        );
        assert_eq!(again.finish(SCREEN), Some(0), "{}", again.said());
        assert!(
            !journal.exists(),
            "{phase}: the journal goes with the recorded game"
        );
        let scores = std::fs::read_to_string(folder.path().join("scoreboard.json")).unwrap();
        let scores: serde_json::Value = serde_json::from_str(&scores).unwrap();
        let easy = &scores["levels"]["easy"];
        let games = ["wins", "draws", "losses", "abandoned"]
            .iter()
            .map(|k| easy[k].as_u64().unwrap_or(0))
            .sum::<u64>();
        assert_eq!(games, 1, "{phase}: one game, recorded once: {scores}");
        let tree = brick.tree();
        let physics = tree.physics.as_ref().unwrap();
        assert!(physics.driven().is_empty());
        assert!(!physics.sim.world().pen_is_down());
    }
}

#[test]
#[ignore = "the real-time brick suite (about 10 minutes): cargo test --test brick_games -- --ignored"]
fn a_start_from_the_file_browser_that_fails_before_the_screen_shows_anything_sounds_the_error() {
    require_fuse!();
    let brick = moving_brick();
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(
        folder.path().join("robot.json"),
        r#"{"rows": {"port": "outE"}}"#,
    )
    .unwrap();
    // ev3dev's `beep`, as ev3dev-lang-rust runs it for a tone, stood in for by a script that
    // writes down its arguments.
    let bin = folder.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let heard = folder.path().join("beeps.txt");
    let beep = bin.join("beep");
    std::fs::write(
        &beep,
        format!("#!/bin/sh\necho \"$@\" >> '{}'\n", heard.display()),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&beep, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // As the File Browser starts it: in its folder, with no arguments.
    let output = Command::new(emulated_brick::program_in(folder.path()))
        .current_dir(folder.path())
        .env(DEVICE_DIR_VARIABLE, brick.device_dir())
        .env("PATH", path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("rows.port"), "{said}");
    // The tone plays in the background; give it a moment to be heard.
    let until = Instant::now() + Duration::from_secs(5);
    while !heard.exists() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    let beeps = std::fs::read_to_string(&heard).unwrap_or_default();
    assert!(beeps.contains("-f 150"), "the error's low tone: {beeps:?}");
}
