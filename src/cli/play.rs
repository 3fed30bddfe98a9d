//! `ev3-tictactoe play`: the program on the brick, and what `sim` and `demo` share with it.

use super::{PlayArgs, ProgramArgs};
use crate::app::brick::Brick;
use crate::app::panel::{Panel, PlainLines, Snapshots};
use crate::app::safety;
use crate::app::session::{start_log, Session};
use crate::app::{Ending, NoOne, Program, Settings};
use crate::config::RobotConfig;
use crate::hw::ev3dev::console::{self, ConsoleMode};
use crate::motion::stop::{OUTPUT_CLOSED, STOP_KEY};
use crate::motion::StopRequest;
use crate::scoreboard::store::ScoreFile;
use anyhow::Context;
use std::path::Path;
use std::process::ExitCode;

/// `play` with `config`; `without_robot_config` when it is the built-in defaults (no robot.json
/// was found), which the start then says.
pub(super) fn run(
    config: &RobotConfig,
    without_robot_config: bool,
    args: &PlayArgs,
    score_file: ScoreFile,
    log_path: &Path,
) -> anyhow::Result<ExitCode> {
    start_log(log_path)?;
    if !crate::hw::ev3dev::is_ev3dev() {
        anyhow::bail!(
            "this is not an EV3 brick (no ev3dev motor or sensor classes in /sys/class); to play \
             the simulated robot here, run: ev3-tictactoe sim"
        );
    }
    let mut panel = Panel::new(Box::new(PlainLines(std::io::stdout())));
    // The console first, so its cursor never blinks over our first picture; dropped (text mode
    // again) when this function returns, whichever way.
    let console = take_over_console(&mut panel);
    panel.snapshots = snapshots(args.program.lcd_dir.as_deref())?;
    let brick = Brick::ev3dev(config, &mut panel)?;
    let (machine, emergency) = brick.into_machine(config, &mut panel);
    let emergency = match &console {
        Some(console) => emergency.also(console.restorer()),
        None => emergency,
    };
    let session = Session::start(log_path, emergency)?;
    give_a_voice(&mut panel, !args.program.quiet, true);
    let stop = session.stop_request();
    let mut no_one = NoOne;
    let mut program = Program::new(
        machine,
        panel,
        score_file,
        &mut no_one,
        stop.clone(),
        Settings {
            reads: args.files.read_pictures(),
            without_robot_config,
            robot_config_file: Some(args.files.config.file()),
            ..settings(&args.program)
        },
    );
    let ending = match (&args.difficulty, args.players) {
        (_, Some(2)) => program.run_referee_games(1, &mut |_| {}),
        (Some(level), _) => program.run_games(&config.level(level), args.first.first_move(), 1),
        (None, _) => program.run_menu(),
    };
    drop(program);
    drop(session);
    drop(console);
    Ok(exit_code(&ending, &stop))
}

/// Switches the console to graphics mode, or says once why not, and how to start the program
/// if brickman is the one holding the screen.
fn take_over_console(panel: &mut Panel) -> Option<ConsoleMode> {
    match ConsoleMode::take_over() {
        Ok(console) => Some(console),
        Err(why) => {
            let hint = if console::brickman_is_running() {
                format!(
                    " brickman owns the LCD and buttons; {}.",
                    console::BRICKRUN_HINT
                )
            } else {
                String::new()
            };
            panel.note(&format!("The console stays in text mode: {why}.{hint}"));
            None
        }
    }
}

/// The robot's voice (see [`crate::hw::voice`]) when `speak`: espeak where it is installed
/// (`on_brick`: into aplay, as ev3dev plays sound), else one note saying so.
pub(super) fn give_a_voice(panel: &mut Panel, speak: bool, on_brick: bool) {
    if !speak {
        return;
    }
    match crate::hw::voice::Espeak::new(on_brick) {
        Some(espeak) => panel.voice = Some(Box::new(espeak)),
        None => panel.note(
            "espeak is not installed, so the robot does not speak (ev3dev ships it; elsewhere \
             install espeak; --quiet silences this note).",
        ),
    }
}

pub(super) fn settings(args: &ProgramArgs) -> Settings {
    Settings {
        idle_timeout: args.idle_timeout,
        seed: args.seed,
        ..Settings::default()
    }
}

pub(super) fn snapshots(lcd_dir: Option<&Path>) -> anyhow::Result<Option<Snapshots>> {
    lcd_dir
        .map(|folder| {
            Snapshots::into_folder(folder.to_path_buf())
                .with_context(|| format!("cannot make the folder {}", folder.display()))
        })
        .transpose()
}

/// The exit status for how the program ended. Errors were already shown by the program.
pub(super) fn exit_code(ending: &Ending, stop: &StopRequest) -> ExitCode {
    match ending {
        Ending::Done | Ending::Idle => ExitCode::SUCCESS,
        // Whoever read the output has gone (`demo | head -1`), or the person pressed `sim`'s
        // q, its documented way out: nothing went wrong.
        Ending::Interrupted { .. }
            if matches!(stop.signal(), Some(OUTPUT_CLOSED) | Some(STOP_KEY)) =>
        {
            ExitCode::SUCCESS
        }
        // As shells report a death by that signal.
        Ending::Interrupted { .. } => match stop.signal() {
            Some(signal) if signal < 128 => ExitCode::from(safety::exit_status_for(signal)),
            _ => ExitCode::from(safety::exit_status_for(2)),
        },
        Ending::Failed(_) => ExitCode::FAILURE,
    }
}
