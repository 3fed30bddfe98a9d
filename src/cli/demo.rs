//! `ev3-tictactoe demo`: whole games on the simulated robot against a scripted human, through
//! the same program as `play`, printed move by move.

use super::{DemoArgs, HumanStrategy};
use crate::app::brick::Brick;
use crate::app::game::GameReport;
use crate::app::panel::{Mirror, Panel};
use crate::app::referee::RefereeReport;
use crate::app::safety;
use crate::app::scripted::{ScriptedHuman, Strategy};
use crate::app::session::Session;
use crate::app::{Ending, Program, Settings};
use crate::config::RobotConfig;
use crate::game::{Cell, Mark};
use crate::hw::sim::{SimBody, SimRobot, SimSettings};
use crate::motion::stop::OUTPUT_CLOSED;
use crate::scoreboard::store::ScoreFile;
use crate::scoreboard::{GameResult, PairResult};
use crate::ui::view::{board_rows, View};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// Prints notes, and every screen only when asked to.
struct DemoMirror {
    screens: bool,
}

impl Mirror for DemoMirror {
    fn show(&mut self, view: &View) {
        if self.screens {
            for line in view.plain_lines() {
                say(&format!("  | {line}"));
            }
        }
    }

    fn note(&mut self, line: &str) {
        say(&format!("Note: {line}"));
    }
}

pub(super) fn run(
    config: &RobotConfig,
    args: &DemoArgs,
    score_file: ScoreFile,
    scores_kept: bool,
    log_path: &Path,
) -> anyhow::Result<ExitCode> {
    let sim = SimRobot::new(
        &SimBody::as_configured(config),
        &super::world_settings(
            args.world.as_deref(),
            SimSettings {
                seed: args.seed,
                ..SimSettings::default()
            },
        )?,
    );
    let mut panel = Panel::new(Box::new(DemoMirror {
        screens: args.screens,
    }));
    panel.snapshots = super::play::snapshots(args.lcd_dir.as_deref())?;
    let (machine, emergency) = Brick::simulated(&sim, config).into_machine(config, &mut panel);
    let session = Session::start(log_path, emergency)?;
    super::play::give_a_voice(&mut panel, args.speak, false);
    let stop = session.stop_request();
    let strategy = match args.human {
        HumanStrategy::Random => Strategy::Random,
        HumanStrategy::Perfect => Strategy::Perfect,
    };
    // The human's choices get a stream of their own, so changing the human does not change
    // the robot's.
    let mut human = ScriptedHuman::new(
        sim.clone(),
        config.board.clone(),
        strategy,
        ChaCha8Rng::seed_from_u64(args.seed ^ 0x5eed_4a11),
    );
    let difficulty = config.level(&args.difficulty);
    let size = config.board.size;
    let plays = match args.human {
        HumanStrategy::Random => "random squares",
        HumanStrategy::Perfect => "perfectly",
    };
    say(&format!(
        "{} game(s) on the simulated robot, {}: {}.\n\
         Squares are numbered 1 (top left) to {} (bottom right).",
        args.games,
        config.board.rules(),
        if args.players == 2 {
            format!("two scripted people, each playing {plays}; the robot is the referee")
        } else {
            format!(
                "the robot plays {}, the scripted human plays {plays}",
                difficulty.name
            )
        },
        size * size
    ));
    let mut program = Program::new(
        machine,
        panel,
        score_file.clone(),
        &mut human,
        stop.clone(),
        Settings {
            seed: Some(args.seed),
            // The simulated sheet goes with the demo.
            resumable: false,
            reads: args.files.read_pictures(),
            ..Settings::default()
        },
    );
    let mut number = 0;
    let mut tally = [0u32; 4];
    let ending = if args.players == 2 {
        program.run_referee_games(args.games, &mut |game| {
            number += 1;
            tally[pair_index(game.result)] += 1;
            say(&describe_pair(number, game));
        })
    } else {
        program.run_games_reporting(
            &difficulty,
            args.first.first_move(),
            args.games,
            &mut |game| {
                number += 1;
                tally[result_index(game.result)] += 1;
                say(&describe(number, game));
            },
        )
    };
    drop(program);
    super::robot::save_paper(&sim, &config.board, &args.paper)?;
    let scores = if scores_kept {
        format!("Scores in {}", score_file.path().display())
    } else {
        "Scores not kept (the scripted human is not you; --scores FILE keeps them)".to_string()
    };
    let [a, b, c, d] = tally;
    say(&format!(
        "{}. {scores}; the last sheet is {}.",
        if args.players == 2 {
            format!("X won {a}, O won {b}, {c} drawn, {d} void")
        } else {
            format!("Human: {a} won, {b} drawn, {c} lost, {d} void")
        },
        args.paper.display()
    ));
    if let Some(why) = WRITE_FAILED.get() {
        anyhow::bail!("writing the demo's output failed: {why}");
    }
    match ending {
        Ending::Failed(error) => Err(error),
        other => Ok(super::play::exit_code(&other, &stop)),
    }
}

/// Why the demo's output could not be written, if it could not, and that was not its reader
/// going away (see [`say`]).
static WRITE_FAILED: OnceLock<String> = OnceLock::new();

/// Prints a line of the demo's output. Once its reader has gone (`demo | head -1`), the demo
/// has no one to play for: the session is asked to stop, the machine is made safe and the
/// program ends with status 0; nothing more is printed. Any other failure to write (a full
/// disk, `demo > /dev/full`) stops it the same way, but is an error: what the user asked for
/// was lost.
fn say(line: &str) {
    static CLOSED: AtomicBool = AtomicBool::new(false);
    if CLOSED.load(Ordering::SeqCst) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(error) = writeln!(out, "{line}").and_then(|()| out.flush()) {
        CLOSED.store(true, Ordering::SeqCst);
        if error.kind() != std::io::ErrorKind::BrokenPipe {
            let _ = WRITE_FAILED.set(error.to_string());
        }
        safety::stop_the_session(OUTPUT_CLOSED);
    }
}

fn result_index(result: GameResult) -> usize {
    match result {
        GameResult::HumanWon => 0,
        GameResult::Draw => 1,
        GameResult::HumanLost => 2,
        GameResult::Abandoned => 3,
    }
}

fn pair_index(result: PairResult) -> usize {
    match result {
        PairResult::XWon => 0,
        PairResult::OWon => 1,
        PairResult::Draw => 2,
        PairResult::Void => 3,
    }
}

/// The moves by square number, counted from 1 at the top left: "X5 O1 X9".
fn move_list(moves: &[(Mark, Cell)], size: usize) -> String {
    let moves: Vec<String> = moves
        .iter()
        .map(|&(mark, cell)| format!("{mark}{}", cell.index(size) + 1))
        .collect();
    moves.join(" ")
}

/// A game between the two scripted people in a few lines, as [`describe`] does.
fn describe_pair(number: u32, game: &RefereeReport) -> String {
    let size = game.board.rules().size();
    let mut out = format!(
        "Game {number}: two people. Moves {}: {}{}, {:.1} s simulated.",
        move_list(&game.moves, size),
        game.result.describe(),
        game.line.as_ref().map_or_else(String::new, |line| {
            let squares: Vec<String> = line
                .iter()
                .map(|c| (c.index(size) + 1).to_string())
                .collect();
            format!(" (line through squares {} struck)", squares.join(", "))
        }),
        game.took.as_secs_f64(),
    );
    for row in board_rows(&game.board) {
        out.push_str(&format!("\n    {row}"));
    }
    out
}

/// The game in a few lines: the moves by square number (1 top left), the result, the
/// simulated time, and the final board.
fn describe(number: u32, game: &GameReport) -> String {
    let size = game.board.rules().size();
    let result = match game.result {
        GameResult::HumanWon => "the human wins",
        GameResult::Draw => "a draw",
        GameResult::HumanLost => "the robot wins",
        GameResult::Abandoned => "void",
    };
    let mut out = format!(
        "Game {number}: {} first as X. Moves {}: {result}, {:.1} s simulated; score {}.",
        if game.human == Mark::X {
            "human"
        } else {
            "robot"
        },
        move_list(&game.moves, size),
        game.took.as_secs_f64(),
        game.recorded.current_score,
    );
    for row in board_rows(&game.board) {
        out.push_str(&format!("\n    {row}"));
    }
    out
}
