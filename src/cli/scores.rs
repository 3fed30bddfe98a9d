//! `ev3-tictactoe scores` and `reset-scores`.

use crate::scoreboard::store::{ResetOutcome, ScoreFile};
use crate::scoreboard::Scoreboard;
use std::io::{self, Write};
use std::process::ExitCode;

/// Shows the scores, changing nothing: no file is created, nothing is set aside.
pub(super) fn show(file: &ScoreFile, json: bool) -> anyhow::Result<ExitCode> {
    let scores = match file.read()? {
        Some(Ok(scores)) => scores,
        None => {
            eprintln!(
                "note: no scoreboard at {} yet; the first game played makes it",
                file.path().display()
            );
            Scoreboard::new()
        }
        Some(Err(reason)) => {
            eprintln!(
                "note: the scoreboard {} cannot be used ({reason}); the next game moves it \
                 aside, keeping its bytes, and starts a new one",
                file.path().display()
            );
            Scoreboard::new()
        }
    };
    let mut out = io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&scores)?)?;
    } else {
        writeln!(out, "Scoreboard: {}", file.path().display())?;
        write!(out, "{}", scores.render_table())?;
        writeln!(
            out,
            "A win adds 1 point on easy, 2 on medium, 3 on hard; \
             a loss, draw or abandoned game resets the current score."
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn reset(file: &ScoreFile) -> anyhow::Result<ExitCode> {
    let outcome = file.reset()?;
    let mut out = io::stdout().lock();
    match outcome {
        ResetOutcome::KeptAt(old) => writeln!(
            out,
            "Scores reset in {}. The old scores are kept in {}.",
            file.path().display(),
            old.display()
        )?,
        ResetOutcome::NothingToKeep => writeln!(
            out,
            "There were no scores yet; started an empty scoreboard in {}.",
            file.path().display()
        )?,
    }
    Ok(ExitCode::SUCCESS)
}
