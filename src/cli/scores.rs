//! `ev3-tictactoe scores` and `reset-scores`.

use crate::scoreboard::store::{ResetOutcome, ScoreFile};
use std::io::{self, Write};
use std::process::ExitCode;

pub(super) fn show(file: &ScoreFile, json: bool) -> anyhow::Result<ExitCode> {
    let (scores, notice) = file.load()?;
    if let Some(notice) = notice {
        eprintln!("note: {notice}");
    }
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
