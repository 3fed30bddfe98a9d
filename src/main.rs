use clap::Parser;
use ev3_tictactoe::cli::{is_broken_pipe, run, BadInput, Cli, EXIT_BAD_INPUT};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            if error.downcast_ref::<BadInput>().is_some() {
                ExitCode::from(EXIT_BAD_INPUT)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}
