//! `ev3-tictactoe scores` and `reset-scores`.

use crate::scoreboard::store::{ResetOutcome, ScoreFile};
use crate::scoreboard::Scoreboard;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Shows the scores, changing nothing: no file is created, nothing is set aside.
pub(super) fn show(file: &ScoreFile, json: bool) -> anyhow::Result<ExitCode> {
    let folder = Folder::of(file.path());
    let scores = match file.read()? {
        Some(Ok(scores)) => scores,
        None => {
            eprintln!("note: {}", no_file_note(file.path(), &folder));
            Scoreboard::new()
        }
        Some(Err(reason)) => {
            eprintln!("note: {}", unusable_note(file.path(), &reason, &folder));
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

/// What a game could do in the folder a scoreboard lives in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Folder {
    /// It exists and this user may make and rename files in it.
    Writable,
    /// It does not exist (or is not a folder).
    Missing(PathBuf),
    /// It exists, but files cannot be made or renamed in it: read-only, or not this user's.
    ReadOnly(PathBuf),
}

impl Folder {
    /// The folder of `path`, as it is now. Root may write almost anywhere, so only a
    /// read-only file system stops it; `access` asks the kernel, which knows both.
    pub(super) fn of(path: &Path) -> Folder {
        let folder = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !folder.is_dir() {
            Folder::Missing(folder)
        } else if nix::unistd::access(&folder, nix::unistd::AccessFlags::W_OK).is_err() {
            Folder::ReadOnly(folder)
        } else {
            Folder::Writable
        }
    }
}

/// What `scores` says of a scoreboard that is not there: the first game makes it, if a game
/// can; if not, why not and what to do.
pub(super) fn no_file_note(path: &Path, folder: &Folder) -> String {
    let path = path.display();
    match folder {
        Folder::Writable => format!("no scoreboard at {path} yet; the first game played makes it"),
        Folder::Missing(folder) => format!(
            "no scoreboard at {path}, and its folder {} does not exist, so no game could keep \
             its scores there: make the folder, or name another file with --scores",
            folder.display()
        ),
        Folder::ReadOnly(folder) => format!(
            "no scoreboard at {path}, and its folder {} cannot be written to, so no game could \
             keep its scores there: make it writable, or name another file with --scores",
            folder.display()
        ),
    }
}

/// What `scores` says of a scoreboard it cannot use: the next game moves it aside (keeping its
/// bytes) and starts anew, where the folder lets it; where not, a game could not record.
pub(super) fn unusable_note(path: &Path, reason: &str, folder: &Folder) -> String {
    let path = path.display();
    match folder {
        Folder::Writable => format!(
            "the scoreboard {path} cannot be used ({reason}); the next game moves it aside, \
             keeping its bytes, and starts a new one"
        ),
        Folder::Missing(folder) | Folder::ReadOnly(folder) => format!(
            "the scoreboard {path} cannot be used ({reason}), and its folder {} cannot be \
             written to, so no game could move it aside or record a result there: make the \
             folder writable, or name another file with --scores",
            folder.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_scoreboard_is_promised_to_the_first_game_only_where_a_game_could_make_it() {
        let path = Path::new("/games/s.json");
        assert!(no_file_note(path, &Folder::Writable).ends_with("the first game played makes it"));
        let missing = no_file_note(path, &Folder::Missing(PathBuf::from("/games")));
        assert!(
            missing.contains("its folder /games does not exist"),
            "{missing}"
        );
        assert!(!missing.contains("makes it"), "{missing}");
        let read_only = no_file_note(path, &Folder::ReadOnly(PathBuf::from("/games")));
        assert!(read_only.contains("cannot be written to"), "{read_only}");
        assert!(!read_only.contains("makes it"), "{read_only}");
    }

    #[test]
    fn an_unusable_scoreboard_is_promised_to_be_moved_aside_only_where_it_could_be() {
        let path = Path::new("/games/s.json");
        let writable = unusable_note(path, "cut short", &Folder::Writable);
        assert!(
            writable.contains("the next game moves it aside"),
            "{writable}"
        );
        let read_only = unusable_note(path, "cut short", &Folder::ReadOnly("/games".into()));
        assert!(!read_only.contains("moves it aside"), "{read_only}");
        assert!(
            read_only.contains("no game could move it aside"),
            "{read_only}"
        );
    }

    #[test]
    fn a_folder_is_judged_by_what_is_there() {
        let here = tempfile::tempdir().unwrap();
        assert_eq!(Folder::of(&here.path().join("s.json")), Folder::Writable);
        let gone = here.path().join("no such folder");
        assert_eq!(Folder::of(&gone.join("s.json")), Folder::Missing(gone));
        // A bare file name lives in the current folder.
        assert_ne!(
            Folder::of(Path::new("s.json")),
            Folder::Missing(PathBuf::from("."))
        );
    }
}
