//! The scoreboard's file: read with recovery, written atomically.
//!
//! A scoreboard must survive the brick's battery dying mid-write and a student editing the file
//! by hand. So every write goes to a temporary file in the same folder, is synced, renamed over
//! the old file and the folder synced (by `atomic-write-file`); a reader sees the old scores or
//! the new ones, never half of each. A file that cannot be used is never overwritten or deleted:
//! it is renamed beside the new one, keeping its bytes, and the caller is told where.

use super::{GameResult, Recorded, Scoreboard, SCHEMA_VERSION};
use crate::ai::Difficulty;
use atomic_write_file::AtomicWriteFile;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;
use thiserror::Error;

/// The file name used when none is given.
pub const DEFAULT_FILE: &str = "scoreboard.json";
/// The environment variable that names another file.
pub const PATH_VARIABLE: &str = "EV3_TICTACTOE_SCORES";

/// Something the user should know about the file, though play goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// There was no file; an empty scoreboard was written.
    Created { path: PathBuf },
    /// The file could not be used; it was renamed to `moved_to` and an empty one written.
    SetAside {
        path: PathBuf,
        moved_to: PathBuf,
        reason: String,
    },
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::Created { path } => {
                write!(f, "no scoreboard at {}: started a new one", path.display())
            }
            Notice::SetAside {
                path,
                moved_to,
                reason,
            } => write!(
                f,
                "the scoreboard {} could not be used ({reason}); it was moved to {} and a new one started",
                path.display(),
                moved_to.display()
            ),
        }
    }
}

/// A file operation that failed; the scoreboard on disk is unchanged.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("cannot read the scoreboard {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("cannot write the scoreboard {}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
    #[error("cannot move the scoreboard {} aside to {}: {source}", path.display(), to.display())]
    MoveAside {
        path: PathBuf,
        to: PathBuf,
        source: io::Error,
    },
}

/// What `reset` did with the old scores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResetOutcome {
    /// The old file was renamed here.
    KeptAt(PathBuf),
    /// There was no file to keep.
    NothingToKeep,
}

/// The scoreboard's file at a path.
#[derive(Clone, Debug)]
pub struct ScoreFile {
    path: PathBuf,
}

impl ScoreFile {
    pub fn new(path: impl Into<PathBuf>) -> ScoreFile {
        ScoreFile { path: path.into() }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the scores. A missing file is created empty; a file that does not parse, or has a
    /// schema this program does not know, is moved aside and replaced by an empty one.
    pub fn load(&self) -> Result<(Scoreboard, Option<Notice>), StoreError> {
        let bytes = match std::fs::read(&self.path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let fresh = Scoreboard::new();
                self.save(&fresh)?;
                let notice = Notice::Created {
                    path: self.path.clone(),
                };
                return Ok((fresh, Some(notice)));
            }
            Err(source) => {
                return Err(StoreError::Read {
                    path: self.path.clone(),
                    source,
                })
            }
        };
        match parse(&bytes) {
            Ok(scores) => Ok((scores, None)),
            Err(reason) => {
                let moved_to = self.move_aside("unreadable")?;
                let fresh = Scoreboard::new();
                self.save(&fresh)?;
                let notice = Notice::SetAside {
                    path: self.path.clone(),
                    moved_to,
                    reason,
                };
                Ok((fresh, Some(notice)))
            }
        }
    }

    /// Replaces the file with `scores`, atomically.
    pub fn save(&self, scores: &Scoreboard) -> Result<(), StoreError> {
        let write_error = |source| StoreError::Write {
            path: self.path.clone(),
            source,
        };
        let mut text =
            serde_json::to_vec_pretty(scores).map_err(|e| write_error(io::Error::other(e)))?;
        text.push(b'\n');
        let mut file = AtomicWriteFile::open(&self.path).map_err(write_error)?;
        file.write_all(&text).map_err(write_error)?;
        file.commit().map_err(write_error)
    }

    /// Loads, records one game, and saves.
    pub fn record(
        &self,
        difficulty: &Difficulty,
        result: GameResult,
        at: SystemTime,
    ) -> Result<(Recorded, Scoreboard, Option<Notice>), StoreError> {
        let (mut scores, notice) = self.load()?;
        let recorded = scores.record(difficulty, result, at);
        self.save(&scores)?;
        Ok((recorded, scores, notice))
    }

    /// Starts a new, empty scoreboard; the old file, if any, is renamed beside it.
    pub fn reset(&self) -> Result<ResetOutcome, StoreError> {
        let outcome = if self.path.exists() {
            ResetOutcome::KeptAt(self.move_aside("before-reset")?)
        } else {
            ResetOutcome::NothingToKeep
        };
        self.save(&Scoreboard::new())?;
        Ok(outcome)
    }

    /// Renames the file to `<name>.<why>-<UTC time>` (with a number if that exists too).
    fn move_aside(&self, why: &str) -> Result<PathBuf, StoreError> {
        let stamp: String = humantime::format_rfc3339_seconds(SystemTime::now())
            .to_string()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect();
        let name = self
            .path
            .file_name()
            .map_or_else(|| DEFAULT_FILE.into(), |n| n.to_string_lossy().into_owned());
        let mut to = self.path.with_file_name(format!("{name}.{why}-{stamp}"));
        let mut n = 1;
        while to.exists() {
            to = self
                .path
                .with_file_name(format!("{name}.{why}-{stamp}-{n}"));
            n += 1;
        }
        std::fs::rename(&self.path, &to).map_err(|source| StoreError::MoveAside {
            path: self.path.clone(),
            to: to.clone(),
            source,
        })?;
        Ok(to)
    }
}

/// Parses a scoreboard file, or says in words why it cannot be used.
fn parse(bytes: &[u8]) -> Result<Scoreboard, String> {
    let scores: Scoreboard =
        serde_json::from_slice(bytes).map_err(|e| format!("it is not a valid scoreboard: {e}"))?;
    match scores.version {
        SCHEMA_VERSION => Ok(scores),
        v if v > SCHEMA_VERSION => Err(format!(
            "it has schema version {v}, newer than this program's {SCHEMA_VERSION}"
        )),
        v => Err(format!("it has schema version {v}, which never existed")),
    }
}
