use clap::Parser as _;
use ev3_tictactoe::cli::{is_broken_pipe, run, BadInput, Cli, Command, EXIT_BAD_INPUT};
use ev3_tictactoe::config::CONFIG_VARIABLE;
use ev3_tictactoe::scoreboard::store::PATH_VARIABLE;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Before anything else, so no signal finds the program without its handler (see
    // app::safety for what each does).
    if let Err(error) = ev3_tictactoe::app::session::install_signal_handlers() {
        eprintln!("error: {error:#}");
        return ExitCode::FAILURE;
    }
    // clap would blame an empty variable on the option it stands for.
    for variable in [PATH_VARIABLE, CONFIG_VARIABLE] {
        if std::env::var_os(variable).is_some_and(|value| value.is_empty()) {
            eprintln!("error: {variable} is set but empty: unset it, or name a file in it");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(usage) => {
            // Help and the version go to standard output, usage errors to standard error. Only
            // a reader that has gone away may end quietly: help lost to a full disk is an error.
            if let Err(why) = usage.print() {
                if why.kind() != std::io::ErrorKind::BrokenPipe {
                    eprintln!("error: writing the help failed: {why}");
                    return ExitCode::FAILURE;
                }
            }
            return ExitCode::from(u8::try_from(usage.exit_code()).unwrap_or(EXIT_BAD_INPUT));
        }
    };
    // Started with no command: the menu on a brick (brickman's File Browser passes none),
    // the short help elsewhere.
    let Some(cli) = cli.or_play_on_a_brick() else {
        let mut help = <Cli as clap::CommandFactory>::command();
        eprint!("{}", help.render_help());
        return ExitCode::from(EXIT_BAD_INPUT);
    };
    // Started from the brick's own screen nobody sees standard error: a run of the robot that
    // fails before its LCD shows anything says so with the error sound too.
    let drives_the_robot = matches!(cli.command, Some(Command::Play(_) | Command::Calibrate(_)));
    match run(cli) {
        Ok(code) => code,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            if drives_the_robot && ev3_tictactoe::hw::ev3dev::is_ev3dev() {
                use ev3_tictactoe::hw::Speaker;
                let tones = ev3_tictactoe::ui::cues::Cue::Error.tones();
                let _ = ev3_tictactoe::hw::ev3dev::Ev3Speaker::default().play(&tones);
            }
            eprintln!("error: {error:#}");
            // The log (when this command keeps one) has the whole story, so it ends it too.
            log::error!("ended with an error: {error:#}");
            log::logger().flush();
            if error.downcast_ref::<BadInput>().is_some() {
                ExitCode::from(EXIT_BAD_INPUT)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}
