//! A person at the emulated brick: the program started as the brick starts it, what it
//! prints read line by line, the buttons and the touch sensor pressed, marks drawn on the
//! virtual sheet, and the checks that the machine was left safe.

use crate::counted::{Counted, Totals};
use crate::emulated_brick::{self, mount, Mounted, Tree};
use ev3_tictactoe::config::RobotConfig;
use ev3_tictactoe::game::Cell;
use ev3_tictactoe::hw::ev3dev::DEVICE_DIR_VARIABLE;
use ev3_tictactoe::hw::sim::human::{self, HandMark};
use ev3_tictactoe::hw::sim::SimSettings;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// The program running on the emulated brick, and everything it has printed.
pub struct Run {
    pub child: Child,
    lines: Receiver<Printed>,
    transcript: Vec<String>,
    /// Each screen the program showed (a line "[Title] ...") and when it was printed.
    pub screens: Vec<(Instant, String)>,
    /// When the program runs counted (see [`Counted`]), what it had done (instructions,
    /// system calls) as each of `screens` was printed.
    pub screen_totals: Vec<Option<Totals>>,
    pub counted: Option<Counted>,
}

/// A line the program printed, when, and (counted) what it had done by then.
type Printed = (Instant, String, Option<Totals>);

impl Run {
    pub fn start(brick: &Mounted, folder: &Path, args: &[&str]) -> Run {
        Run::start_counted(brick, folder, args, Counted::from_env(), None)
    }

    /// As [`Run::start`], with the program counted (or paced) as `counted` says, and with
    /// `path` for its PATH if given.
    pub fn start_counted(
        brick: &Mounted,
        folder: &Path,
        args: &[&str],
        counted: Option<Counted>,
        path: Option<&str>,
    ) -> Run {
        let mut command = match &counted {
            Some(counted) => counted.command(folder),
            None => Command::new(emulated_brick::program_in(folder)),
        };
        if let Some(path) = path {
            command.env("PATH", path);
        }
        let mut child = command
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
            let counted = counted.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    // Read as the line comes, not when the test gets to it.
                    let so_far = counted
                        .as_ref()
                        .filter(|_| line.starts_with('['))
                        .and_then(Counted::so_far);
                    if sender.send((Instant::now(), line, so_far)).is_err() {
                        break;
                    }
                }
            });
        }
        Run {
            child,
            lines,
            transcript: Vec::new(),
            screens: Vec::new(),
            screen_totals: Vec::new(),
            counted,
        }
    }

    /// Keeps a line the program printed at `at`; the line.
    fn keep(&mut self, (at, line, so_far): Printed) -> String {
        if line.starts_with('[') {
            self.screens.push((at, line.clone()));
            self.screen_totals.push(so_far);
        }
        self.transcript.push(line.clone());
        line
    }

    /// The next line that starts with any of `starts`, within `within`.
    pub fn wait_for(&mut self, starts: &[&str], within: Duration) -> String {
        let until = Instant::now() + within;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(printed) => {
                    let line = self.keep(printed);
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
    pub fn next_lines(&mut self, n: usize) -> Vec<String> {
        (0..n)
            .map(|_| {
                let printed = self
                    .lines
                    .recv_timeout(Duration::from_secs(5))
                    .expect("the board follows its screen");
                self.keep(printed)
            })
            .collect()
    }

    /// Waits for the program to end; its exit status and the rest of what it said.
    pub fn finish(&mut self, within: Duration) -> Option<i32> {
        let until = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // The reader threads hand over what is left once the pipes close.
                while let Ok(printed) = self.lines.recv_timeout(Duration::from_millis(200)) {
                    self.keep(printed);
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

    pub fn said(&self) -> String {
        self.transcript.join("\n")
    }
}

/// From the program's start to its menu: without robot.json beside it the start offers to
/// calibrate the robot first, and the person skips that (down). The menu's screen.
pub fn to_the_menu(brick: &Mounted, run: &mut Run) -> String {
    let first = run.wait_for(&["[No robot.json]", "[Noughts and crosses]"], SCREEN);
    if !first.starts_with("[No robot.json]") {
        return first;
    }
    press(brick, ev3_tictactoe::hw::ev3dev::buttons::key::DOWN);
    run.wait_for(&["[Noughts and crosses]"], SCREEN)
}

/// The person presses the touch sensor again, their mark already on the paper (after "I see no
/// new mark", when the robot read too few samples over it).
pub fn press_touch_again(brick: &Mounted) {
    let tree = brick.tree();
    let physics = tree.physics.as_ref().expect("a moving robot");
    physics.sim.world().press_touch(Duration::from_millis(200));
}

/// A press of one brick button, as a finger does it.
pub fn press(brick: &Mounted, code: u16) {
    brick.tree().press_key(code, Duration::from_millis(150));
    std::thread::sleep(Duration::from_millis(300));
}

/// The person's turn: draws an X with a pen in the first empty square of a fixed order (the
/// centre, then corners, then sides), read off the board the program printed, and presses the
/// touch sensor.
pub fn human_moves(brick: &Mounted, run: &mut Run) {
    let board = run.next_lines(3).join(" ");
    let empty: Vec<usize> = board
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    let square = [5, 1, 3, 7, 9, 2, 4, 6, 8]
        .into_iter()
        .find(|n| empty.contains(n))
        .expect("an empty square on the human's turn");
    draw_an_x_and_press(brick, Cell::from_index(square - 1, 3));
}

/// The person draws an X with a pen in `cell` and presses the touch sensor.
pub fn draw_an_x_and_press(brick: &Mounted, cell: Cell) {
    let config = RobotConfig::default();
    let tree = brick.tree();
    let physics = tree.physics.as_ref().expect("a moving robot");
    let mut world = physics.sim.world();
    human::draw(world.paper_mut(), &config.board, cell, HandMark::Cross);
    world.press_touch(Duration::from_millis(200));
}

/// Every motor of the robot behind `brick` is unpowered and, if the pen lift could still be
/// driven (`pen_liftable`), the pen is off the paper.
pub fn assert_left_safe(brick: &Mounted, case: &str, pen_liftable: bool) {
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

pub fn moving_brick() -> Mounted {
    moving_brick_in(&SimSettings::default())
}

/// The emulated brick with a robot that moves, in the world `settings` describes.
pub fn moving_brick_in(settings: &SimSettings) -> Mounted {
    mount(Tree::moving_robot(&RobotConfig::default(), settings))
}

pub const SCREEN: Duration = Duration::from_secs(60);

/// The process id of the sentinel the program `program` started (see `app::sentinel`): its
/// child whose command line runs the hidden `sentinel` command.
pub fn sentinel_of(program: u32) -> Option<u32> {
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
pub fn play_to_the_end(brick: &Mounted, run: &mut Run) -> String {
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
