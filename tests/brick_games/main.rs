//! The real-time brick suite: the real program (`play`, the binary that ships) on the emulated
//! brick with the simulated robot behind its files, in real time, driven by button presses on
//! the brick's input device and by a person who draws on the virtual sheet and presses the touch
//! sensor, as someone at a real brick would; and what it does when a cable comes out or a signal
//! comes at each phase of a game.
//!
//! Its runs take minutes of wall-clock time, so `cargo test` leaves them out (they are ignored
//! tests) and CI runs them on every change: `cargo test --test brick_games -- --ignored`.

#[path = "../emulated_brick/mod.rs"]
mod emulated_brick;
#[path = "../skipping/mod.rs"]
mod skipping;

mod at_the_brick;
mod counted;
mod crossings;
mod pace;
mod stand_in_voice;

use at_the_brick::*;
use emulated_brick::Mounted;

use ev3_tictactoe::ai::Difficulty;
use ev3_tictactoe::config::RobotConfig;
use ev3_tictactoe::game::Cell;
use ev3_tictactoe::hw::ev3dev::buttons::key;
use ev3_tictactoe::hw::ev3dev::DEVICE_DIR_VARIABLE;
use ev3_tictactoe::scoreboard::store::ScoreFile;
use ev3_tictactoe::scoreboard::{GameResult, Scoreboard};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant, UNIX_EPOCH};

#[test]
#[ignore = "the real-time brick suite (about 10 minutes): cargo test --test brick_games -- --ignored"]
fn started_with_no_arguments_as_the_file_browser_does_the_menu_plays_a_whole_game_and_exits() {
    require_fuse!();
    let brick = moving_brick();
    // brickman's File Browser runs the program it is pointed at in the program's own folder,
    // with no arguments.
    let folder = tempfile::tempdir().unwrap();
    let mut run = Run::start(&brick, folder.path(), &[]);
    // No robot.json beside it: a first start says so and offers to measure the robot; any
    // button but centre skips that.
    let offer = run.wait_for(&["[No robot.json]"], SCREEN);
    assert!(offer.contains("CENTRE measure it now"), "{offer}");
    press(&brick, key::DOWN);
    run.wait_for(&["[Noughts and crosses]"], SCREEN);
    press(&brick, key::RIGHT);
    run.wait_for(&["[Level: hard]"], SCREEN);
    press(&brick, key::LEFT);
    let result = play_to_the_end(&brick, &mut run);
    assert!(
        result.starts_with("[I win") || result.starts_with("[A draw"),
        "hard never loses: {}",
        run.said()
    );
    // Any button leaves the result for the scores, up the scores for the menu (down would
    // open the setup), and up exits.
    press(&brick, key::ENTER);
    run.wait_for(&["[Scores]"], SCREEN);
    press(&brick, key::UP);
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

#[test]
#[ignore = "the real-time brick suite (about 10 minutes): cargo test --test brick_games -- --ignored"]
fn from_the_buttons_alone_the_eye_is_shown_the_voice_stays_off_after_a_restart_and_the_scores_reset_only_when_confirmed(
) {
    require_fuse!();
    let brick = moving_brick();
    let folder = tempfile::tempdir().unwrap();
    let score_file = ScoreFile::new(folder.path().join("scoreboard.json"));
    let mut played = Scoreboard::new();
    played.record(&Difficulty::hard(), GameResult::HumanWon, UNIX_EPOCH);
    score_file.save(&played).unwrap();
    let holds_the_game = || score_file.load().unwrap().0 == played;

    // Started as the File Browser starts it.
    let mut run = Run::start(&brick, folder.path(), &[]);
    let setup = to_the_setup(&brick, &mut run);
    assert!(setup.contains("LEFT   voice on"), "{setup}");
    // The robot's eye, before any sheet: nothing measured yet, and any button goes back.
    press(&brick, key::RIGHT);
    let eye = run.wait_for(&["[The robot's eye]"], SCREEN);
    assert!(eye.contains("Nothing measured yet"), "{eye}");
    press(&brick, key::UP);
    run.wait_for(&["[Setup]"], SCREEN);
    press(&brick, key::LEFT);
    let setup = run.wait_for(&["[Setup]"], SCREEN);
    assert!(setup.contains("LEFT   voice off"), "{setup}");
    // The reset asked for, and backed out of with up: every score kept.
    press(&brick, key::DOWN);
    let question = run.wait_for(&["[Reset the scores?]"], SCREEN);
    assert!(question.contains("your score 3,"), "{question}");
    press(&brick, key::UP);
    run.wait_for(&["[Setup]"], SCREEN);
    assert!(holds_the_game(), "backing out keeps the scores");
    // Asked again and confirmed with the centre button.
    press(&brick, key::DOWN);
    run.wait_for(&["[Reset the scores?]"], SCREEN);
    press(&brick, key::ENTER);
    let done = run.wait_for(&["[Scores reset]"], SCREEN);
    assert!(done.contains("before-reset"), "{done}");
    press(&brick, key::UP);
    run.wait_for(&["[Setup]"], SCREEN);
    exit_from_the_setup(&brick, &mut run);
    assert!(!score_file.load().unwrap().0.holds_a_game());
    let settings = std::fs::read_to_string(folder.path().join("settings.json")).unwrap();
    let settings: serde_json::Value = serde_json::from_str(&settings).unwrap();
    assert_eq!(settings["voice"], false, "{settings}");
    assert_left_safe(&brick, "after the setup page", true);

    // Started again: the voice is still off.
    let mut run = Run::start(&brick, folder.path(), &[]);
    let setup = to_the_setup(&brick, &mut run);
    assert!(setup.contains("LEFT   voice off"), "{setup}");
    exit_from_the_setup(&brick, &mut run);
    let log = std::fs::read_to_string(folder.path().join("ev3-tictactoe.log")).unwrap();
    assert!(log.contains("the voice is off"), "{log}");
}

#[test]
#[ignore = "the real-time brick suite (about 10 minutes): cargo test --test brick_games -- --ignored"]
fn from_the_buttons_alone_a_first_start_calibrates_the_robot_to_the_end_and_a_later_calibration_stops_halfway(
) {
    require_fuse!();
    let brick = moving_brick();
    let folder = tempfile::tempdir().unwrap();
    let robot_json = folder.path().join("robot.json");

    // The first start, with no robot.json: calibration offered and taken.
    let mut run = Run::start(&brick, folder.path(), &[]);
    run.wait_for(&["[No robot.json]"], SCREEN);
    press(&brick, key::ENTER);
    let first = run.wait_for(&["[Calibrating]"], SCREEN);
    assert!(first.contains("Homing"), "{first}");
    let ask = run.wait_for(&["[Your X, please]"], Duration::from_secs(180));
    assert!(ask.contains("square 5 (centre)"), "{ask}");
    draw_an_x_and_press(&brick, Cell::from_index(4, 3));
    // Each finding shown, and the centre button keeps what it would change.
    for topic in [
        "[Columns travel]",
        "[Rows travel]",
        "[The pen]",
        "[The sensor's spot]",
        "[The sensor's place]",
        "[Your mark]",
    ] {
        run.wait_for(&[topic], SCREEN);
        press(&brick, key::ENTER);
    }
    let done = run.wait_for(&["[Calibrated]", "[Not saved]"], SCREEN);
    assert!(done.contains("written to robot.json"), "{done}");
    let written = RobotConfig::load(&robot_json).expect("a robot.json the program reads");
    assert_ne!(written, RobotConfig::default(), "what was measured is kept");
    press(&brick, key::ENTER);
    run.wait_for(&["[Noughts and crosses]"], SCREEN);
    press(&brick, key::UP);
    run.wait_for(&["[Goodbye]"], SCREEN);
    assert_eq!(run.finish(SCREEN), Some(0), "{}", run.said());
    assert_left_safe(&brick, "after calibration", true);
    let before = std::fs::read_to_string(&robot_json).unwrap();

    // Started again, robot.json in place: no offer. Calibration from the setup, stopped by a
    // button while the grid is drawn.
    let mut run = Run::start(&brick, folder.path(), &[]);
    to_the_setup(&brick, &mut run);
    press(&brick, key::ENTER);
    run.wait_for(&["[Calibrate]"], SCREEN);
    press(&brick, key::ENTER);
    run.wait_for(
        &["[Calibrating] Drawing the grid"],
        Duration::from_secs(180),
    );
    press(&brick, key::UP);
    let stopped = run.wait_for(&["[Calibration stopped]"], SCREEN);
    assert!(stopped.contains("Stopped by the up button"), "{stopped}");
    assert_left_safe(&brick, "calibration stopped halfway", true);
    assert_eq!(std::fs::read_to_string(&robot_json).unwrap(), before);
    assert!(!folder.path().join("robot.json.1").exists());
    press(&brick, key::ENTER);
    run.wait_for(&["[Setup]"], SCREEN);
    exit_from_the_setup(&brick, &mut run);
    assert!(
        !run.said().contains("[No robot.json]"),
        "no offer once robot.json is there"
    );
}

/// From the program's start to the menu, down to the scores and down to the setup: the setup
/// page's line.
fn to_the_setup(brick: &Mounted, run: &mut Run) -> String {
    to_the_menu(brick, run);
    press(brick, key::DOWN);
    run.wait_for(&["[Scores]"], SCREEN);
    press(brick, key::DOWN);
    run.wait_for(&["[Setup]"], SCREEN)
}

/// From the setup, up to the menu and up to exit: the program ends well.
fn exit_from_the_setup(brick: &Mounted, run: &mut Run) {
    press(brick, key::UP);
    run.wait_for(&["[Noughts and crosses]"], SCREEN);
    press(brick, key::UP);
    run.wait_for(&["[Goodbye]"], SCREEN);
    assert_eq!(run.finish(SCREEN), Some(0), "{}", run.said());
}

#[test]
#[ignore = "the real-time brick suite (about 10 minutes): cargo test --test brick_games -- --ignored"]
fn in_the_harsh_room_the_program_on_the_brick_plays_a_whole_game_to_its_end() {
    require_fuse!();
    // The light swinging 15 %, a person's shadow of 20 % for a second and a half after each
    // press, a lamp to one side switched on half a minute in (docs/sensor.md, "The room").
    let settings = ev3_tictactoe::hw::sim::SimSettings {
        room: ev3_tictactoe::hw::sim::RoomLight::harsh(),
        ..Default::default()
    };
    let brick = moving_brick_in(&settings);
    let folder = tempfile::tempdir().unwrap();
    let args = ["play", "--difficulty", "hard", "--first", "human"];
    let mut run = Run::start(&brick, folder.path(), &args);
    let result = play_to_the_end(&brick, &mut run);
    assert!(
        result.starts_with("[I win") || result.starts_with("[A draw"),
        "the game ends as in steady light: {}",
        run.said()
    );
    let _ = run.finish(SCREEN);
    assert_left_safe(&brick, "after a game in the harsh room", true);
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
        if arguments.is_empty() {
            to_the_menu(&brick, &mut run);
        } else {
            run.wait_for(&[screen], SCREEN);
        }
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
        ("Drawing the grid, to measure", ("TERM", 15)),
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
