//! The command line: its grammar in `args`, and the subcommands, thin layers over the library.

mod args;
mod console;
mod demo;
mod engine;
mod play;
pub mod robot;
mod scores;
#[cfg(feature = "terminal-sim")]
mod sim;

pub use args::*;

use crate::scoreboard::store::{ScoreFile, DEFAULT_FILE};
use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit status for bad input (the same as clap's usage errors).
pub const EXIT_BAD_INPUT: u8 = 2;

/// An error caused by what the user typed rather than by the machine; exits with status 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// Where the program's own files (scoreboard, robot config, log) are when no option or
/// variable names them: on a brick, beside the program's own file, so that a start from
/// brickman's File Browser (which runs it in its folder), by brickrun over ssh, or from any
/// other folder finds the same ones; elsewhere, in the current folder.
pub fn default_file(name: &str) -> PathBuf {
    if crate::hw::ev3dev::is_ev3dev() {
        let folder = std::env::current_exe()
            .ok()
            .and_then(|program| program.parent().map(std::path::Path::to_path_buf));
        if let Some(folder) = folder {
            return folder.join(name);
        }
    }
    PathBuf::from(name)
}

/// True when `error` is a write to a reader that has gone (`ev3-tictactoe scores | head -1`):
/// not a failure of the program, so it ends quietly.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Runs a parsed command line. Errors of type [`BadInput`] mean exit status 2.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let Some(command) = cli.command else {
        return Err(BadInput("no command: see ev3-tictactoe --help".into()).into());
    };
    match command {
        Command::Sentinel { wiring, pen_duty } => {
            crate::app::sentinel::watch(&wiring, &pen_duty)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Engine(args) => engine::run(&args),
        Command::Console(args) => console::run(&args, &args.scores.file()),
        Command::Scores { json, scores } => scores::show(&scores.file(), json),
        Command::ResetScores { scores } => scores::reset(&scores.file()),
        Command::Bench { only } => {
            let mut out = std::io::stdout().lock();
            let wanted = |part| only.is_none_or(|only| only == part);
            if wanted(BenchPart::Motion) {
                let robot = crate::bench::robot::run()?.render();
                std::io::Write::write_all(&mut out, format!("{robot}\n").as_bytes())?;
            }
            if wanted(BenchPart::Engine) {
                let engine = crate::bench::run().render();
                std::io::Write::write_all(&mut out, format!("{engine}\n").as_bytes())?;
            }
            if wanted(BenchPart::Reading) {
                let reading = crate::bench::reading::run_all()?;
                std::io::Write::write_all(&mut out, reading.as_bytes())?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Config => robot::print_defaults(),
        Command::Play(args) => {
            let (config, source) = args.files.config.load()?;
            play::run(
                &config,
                source == robot::BUILT_IN_DEFAULTS,
                &args,
                args.files.scores.file(),
                &args.files.log.path(),
            )
        }
        #[cfg(feature = "terminal-sim")]
        Command::Sim(args) => {
            let (config, _) = args.files.config.load()?;
            sim::run(
                &config,
                &args,
                args.files.scores.file(),
                &args.files.log.path(),
            )
        }
        #[cfg(not(feature = "terminal-sim"))]
        Command::Sim(_) => Err(BadInput(
            "this build has no terminal simulator (the brick's build leaves it out to stay \
             small): run `ev3-tictactoe sim` on a PC, or `demo` here"
                .to_string(),
        )
        .into()),
        Command::Demo(args) => {
            let (config, _) = args.files.config.load()?;
            // The scripted human's games are not the user's: a scoreboard of its own that goes
            // with the demo, unless a file is named.
            let own = match &args.files.scores.scores {
                Some(_) => None,
                None => Some(tempfile::tempdir().context("a folder for the demo's scores")?),
            };
            let score_file = match &own {
                Some(folder) => ScoreFile::new(folder.path().join(DEFAULT_FILE)),
                None => args.files.scores.file(),
            };
            demo::run(
                &config,
                &args,
                score_file,
                own.is_none(),
                &args.files.log.path(),
            )
        }
        Command::Calibrate(args) => {
            let (config, source) = args.config.load()?;
            if let Some(measured) = args.grid_mm {
                return robot::scale_from_ruler(&config, &source, measured);
            }
            let options = robot::CalibrateOptions {
                sim: args.sim,
                wait_for_mark: std::time::Duration::from_secs(args.wait),
                paper: args.paper,
                world: world_settings(args.world.as_deref(), Default::default())?,
            };
            robot::calibrate(&config, &source, &options, &args.log.path())
        }
    }
}

/// The simulator's settings: `base` with the world file's, if one is named. A bad file is the
/// user's to fix, so it is reported as bad input.
fn world_settings(
    file: Option<&std::path::Path>,
    base: crate::hw::sim::SimSettings,
) -> anyhow::Result<crate::hw::sim::SimSettings> {
    match file {
        Some(path) => {
            let world = crate::hw::sim::settings_file::WorldFile::load(path).map_err(BadInput)?;
            Ok(world.apply(base))
        }
        None => Ok(base),
    }
}

/// A seeded generator; portable, so a seed gives the same game on the brick and on a PC.
fn rng(seed: Option<u64>) -> rand_chacha::ChaCha8Rng {
    use rand::SeedableRng;
    match seed {
        Some(seed) => rand_chacha::ChaCha8Rng::seed_from_u64(seed),
        None => rand_chacha::ChaCha8Rng::from_os_rng(),
    }
}
