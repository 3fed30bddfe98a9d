//! `ev3-tictactoe scores` and `reset-scores`.

use crate::scoreboard::store::{ResetOutcome, ScoreFile};
use std::process::ExitCode;

pub(super) fn show(file: &ScoreFile, json: bool) -> anyhow::Result<ExitCode> {
    let (scores, notice) = file.load()?;
    if let Some(notice) = notice {
        eprintln!("note: {notice}");
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&scores)?);
    } else {
        println!("Scoreboard: {}", file.path().display());
        print!("{}", scores.render_table());
        println!("A win adds 1 point on easy, 2 on medium, 3 on hard; a loss, draw or abandoned game resets the current score.");
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn reset(file: &ScoreFile) -> anyhow::Result<ExitCode> {
    match file.reset()? {
        ResetOutcome::KeptAt(old) => println!(
            "Scores reset in {}. The old scores are kept in {}.",
            file.path().display(),
            old.display()
        ),
        ResetOutcome::NothingToKeep => println!(
            "There were no scores yet; started an empty scoreboard in {}.",
            file.path().display()
        ),
    }
    Ok(ExitCode::SUCCESS)
}
