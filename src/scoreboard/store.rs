//! The scoreboard's file: read with recovery, written atomically, one writer at a time.
//!
//! A scoreboard must survive the brick's battery dying mid-write, a student editing the file
//! by hand, two programs playing at once and a wrong `--scores`. So:
//! - every write goes to a temporary file in the same folder, is synced, renamed over the old
//!   file and the folder synced (by `atomic-write-file`); a reader sees the old scores or the
//!   new ones, never half of each. A symlink is followed, so the file it names is replaced and
//!   keeps its mode;
//! - a change (record a game, reset) holds an flock on a lock file beside the scoreboard from
//!   reading to renaming, so two writers take turns and neither loses the other's game; under
//!   the lock, temporary files a killed writer left are removed;
//! - a file is ours if it says so (`"format": "ev3-tictactoe scoreboard"`), or, written before
//!   that marker, has a scoreboard's fields. Anything else (a robot config, a README, a
//!   folder, a FIFO) is refused untouched, naming it;
//! - a damaged scoreboard (empty, cut short, wrong types, an unknown version) is never
//!   overwritten or deleted: it is renamed beside the new one, keeping its bytes, and the
//!   caller is told where.

use super::{GameResult, PairRecord, PairResult, Recorded, Scoreboard, FORMAT, SCHEMA_VERSION};
use crate::ai::Difficulty;
use atomic_write_file::AtomicWriteFile;
use nix::fcntl::{Flock, FlockArg};
use serde_json::Value;
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
    #[error("{} is not a scoreboard ({reason}); it was left as it is: name another file with --scores", path.display())]
    NotAScoreboard { path: PathBuf, reason: String },
    #[error("cannot lock the scoreboard {} for writing: {cause}", path.display())]
    Lock { path: PathBuf, cause: io::Error },
    #[error("cannot read the scoreboard {}: {cause}", path.display())]
    Read { path: PathBuf, cause: io::Error },
    #[error("cannot write the scoreboard {}: {cause}", path.display())]
    Write { path: PathBuf, cause: io::Error },
    #[error("cannot move the scoreboard {} aside to {}: {cause}", path.display(), to.display())]
    MoveAside {
        path: PathBuf,
        to: PathBuf,
        cause: io::Error,
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

    /// Reads the scores. A missing file is created empty; a damaged scoreboard, or one with a
    /// schema this program does not know, is moved aside and replaced by an empty one; a file
    /// that is not a scoreboard at all is refused untouched.
    pub fn load(&self) -> Result<(Scoreboard, Option<Notice>), StoreError> {
        if let Some(Ok(scores)) = self.read()? {
            return Ok((scores, None));
        }
        // Creating or setting aside is writing: take turns with the other writers.
        let _lock = self.lock()?;
        self.load_locked()
    }

    /// [`ScoreFile::load`], the writers' lock already held.
    fn load_locked(&self) -> Result<(Scoreboard, Option<Notice>), StoreError> {
        match self.read()? {
            None => {
                let fresh = Scoreboard::new();
                self.save(&fresh)?;
                let notice = Notice::Created {
                    path: self.path.clone(),
                };
                Ok((fresh, Some(notice)))
            }
            Some(Ok(scores)) => Ok((scores, None)),
            Some(Err(reason)) => {
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

    /// The scores as the file holds them, changing nothing: `None` if there is no file yet;
    /// `Some(Err(why))` for a damaged scoreboard.
    pub fn read(&self) -> Result<Option<Result<Scoreboard, String>>, StoreError> {
        let path = self.resolved();
        match std::fs::metadata(&path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(cause) => return Err(StoreError::Read { path, cause }),
            Ok(meta) if !meta.is_file() => {
                let what = if meta.is_dir() {
                    "a folder"
                } else {
                    "not a regular file"
                };
                return Err(StoreError::NotAScoreboard {
                    path: self.path.clone(),
                    reason: format!("it is {what}"),
                });
            }
            Ok(_) => {}
        }
        let bytes = std::fs::read(&path).map_err(|cause| StoreError::Read {
            path: self.path.clone(),
            cause,
        })?;
        match parse(&bytes) {
            Parsed::Ours(scores) => Ok(Some(Ok(scores))),
            Parsed::Damaged(reason) => Ok(Some(Err(reason))),
            Parsed::NotOurs(reason) => Err(StoreError::NotAScoreboard {
                path: self.path.clone(),
                reason,
            }),
        }
    }

    /// Checks, before a game, that its result can be kept: the file is a scoreboard (or
    /// absent) and its folder takes the lock and new files.
    pub fn check_usable(&self) -> Result<(), StoreError> {
        let _lock = self.lock()?;
        self.read()?;
        tempfile::tempfile_in(folder_of(&self.resolved()))
            .map(drop)
            .map_err(|cause| StoreError::Write {
                path: self.path.clone(),
                cause,
            })
    }

    /// The file itself: a symlink's target, so that writing replaces what it points to.
    fn resolved(&self) -> PathBuf {
        std::fs::canonicalize(&self.path).unwrap_or_else(|_| self.path.clone())
    }

    /// Holds the writers' lock until dropped, and clears what a killed writer left. The lock
    /// is an flock on the scoreboard's folder: a lock file of its own would be one more file
    /// beside the scores, and could not be removed safely while another writer waits on it.
    fn lock(&self) -> Result<Flock<std::fs::File>, StoreError> {
        let target = self.resolved();
        let name = target
            .file_name()
            .map_or_else(|| DEFAULT_FILE.into(), |n| n.to_string_lossy().into_owned());
        let folder = folder_of(&target);
        let lock_error = |cause| StoreError::Lock {
            path: self.path.clone(),
            cause,
        };
        let handle = std::fs::File::open(folder).map_err(lock_error)?;
        let lock = Flock::lock(handle, FlockArg::LockExclusive)
            .map_err(|(_, errno)| lock_error(io::Error::from(errno)))?;
        remove_stale_temporaries(&target, &name);
        Ok(lock)
    }

    /// Replaces the file with `scores`, atomically.
    pub fn save(&self, scores: &Scoreboard) -> Result<(), StoreError> {
        let write_error = |cause| StoreError::Write {
            path: self.path.clone(),
            cause,
        };
        let mut text =
            serde_json::to_vec_pretty(scores).map_err(|e| write_error(io::Error::other(e)))?;
        text.push(b'\n');
        let mut file = AtomicWriteFile::open(self.resolved()).map_err(write_error)?;
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
        let _lock = self.lock()?;
        let (mut scores, notice) = self.load_locked()?;
        let recorded = scores.record(difficulty, result, at);
        self.save(&scores)?;
        Ok((recorded, scores, notice))
    }

    /// Counts a game two people played each other, under the writers' lock, as
    /// [`ScoreFile::record`] does.
    pub fn record_two_people(
        &self,
        result: PairResult,
        at: SystemTime,
    ) -> Result<(PairRecord, Option<Notice>), StoreError> {
        let _lock = self.lock()?;
        let (mut scores, notice) = self.load_locked()?;
        let record = scores.record_two_people(result, at).clone();
        self.save(&scores)?;
        Ok((record, notice))
    }

    /// Keeps a game that could not be recorded in a small file of its own beside the
    /// scoreboard (`<name>.unrecorded-<UTC time>`), or, if that folder takes no file, in the
    /// system's temporary folder. Returns where.
    pub fn save_unrecorded(
        &self,
        level: &str,
        result: impl serde::Serialize,
        at: SystemTime,
    ) -> io::Result<PathBuf> {
        let game = serde_json::json!({
            "format": "ev3-tictactoe unrecorded game",
            "scoreboard": self.path.display().to_string(),
            "level": level,
            "result": result,
            "ended": humantime::format_rfc3339_seconds(at).to_string(),
        });
        let text = serde_json::to_string_pretty(&game)? + "\n";
        let beside = self.aside_name("unrecorded");
        match std::fs::write(&beside, &text) {
            Ok(()) => Ok(beside),
            Err(_) => {
                let name = beside.file_name().map(PathBuf::from).unwrap_or_default();
                let elsewhere = std::env::temp_dir().join(name);
                std::fs::write(&elsewhere, &text)?;
                Ok(elsewhere)
            }
        }
    }

    /// Starts a new, empty scoreboard; the old file, if any, is kept beside it. At every
    /// instant the file holds the old scores or the new ones: the copy is a second name for the
    /// old file, made before the new one is renamed over it.
    pub fn reset(&self) -> Result<ResetOutcome, StoreError> {
        let _lock = self.lock()?;
        let outcome = match self.read()? {
            // Nothing played yet: a copy of zeros is clutter.
            None => ResetOutcome::NothingToKeep,
            Some(Ok(scores)) if !scores.holds_a_game() => ResetOutcome::NothingToKeep,
            Some(_) => ResetOutcome::KeptAt(self.keep_a_copy("before-reset")?),
        };
        self.save(&Scoreboard::new())?;
        Ok(outcome)
    }

    /// Renames the file to `<name>.<why>-<UTC time>` (with a number if that exists too).
    fn move_aside(&self, why: &str) -> Result<PathBuf, StoreError> {
        let to = self.aside_name(why);
        std::fs::rename(self.resolved(), &to).map_err(|cause| StoreError::MoveAside {
            path: self.path.clone(),
            to: to.clone(),
            cause,
        })?;
        Ok(to)
    }

    /// Gives the file a second name, `<name>.<why>-<UTC time>`, by a hard link, else a copy.
    fn keep_a_copy(&self, why: &str) -> Result<PathBuf, StoreError> {
        let to = self.aside_name(why);
        let from = self.resolved();
        std::fs::hard_link(&from, &to)
            .or_else(|_| std::fs::copy(&from, &to).map(|_| ()))
            .map_err(|cause| StoreError::MoveAside {
                path: self.path.clone(),
                to: to.clone(),
                cause,
            })?;
        Ok(to)
    }

    /// `<name>.<why>-<UTC time>` beside the file (with a number if that exists too).
    fn aside_name(&self, why: &str) -> PathBuf {
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
        to
    }
}

/// What a file's bytes are.
enum Parsed {
    Ours(Scoreboard),
    /// A scoreboard that cannot be used as it is, and why.
    Damaged(String),
    /// Something else, and why we think so.
    NotOurs(String),
}

/// Reads a file's bytes as a scoreboard if they are one.
fn parse(bytes: &[u8]) -> Parsed {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => return Parsed::NotOurs("it is not text".to_string()),
    };
    if text.trim().is_empty() {
        return Parsed::Damaged("it is empty".to_string());
    }
    let value = match crate::strict_json::parse(text) {
        Ok(value) => value,
        // Cut short or mistyped by hand: an object, so most likely ours.
        Err(e) if text.trim_start().starts_with('{') => {
            return Parsed::Damaged(format!("it is not a valid scoreboard: {e}"))
        }
        Err(e) => return Parsed::NotOurs(format!("it is not JSON: {e}")),
    };
    let Some(object) = value.as_object() else {
        return Parsed::NotOurs("it is JSON, but not an object".to_string());
    };
    match object.get("format") {
        Some(Value::String(format)) if format == FORMAT => {}
        Some(other) => return Parsed::NotOurs(format!("its format is {other}, not {FORMAT:?}")),
        // Written before the marker: a scoreboard has one of these, a robot config neither (its
        // `levels` are a list, a scoreboard's a map from name to record).
        None if object.get("levels").is_some_and(Value::is_object)
            || object.contains_key("current_score") => {}
        None => {
            return Parsed::NotOurs(format!(
                "it has neither \"format\": {FORMAT:?} nor a scoreboard's levels"
            ))
        }
    }
    let scores: Scoreboard = match serde_json::from_value(value) {
        Ok(scores) => scores,
        Err(e) => return Parsed::Damaged(format!("it is not a valid scoreboard: {e}")),
    };
    match scores.version {
        SCHEMA_VERSION => Parsed::Ours(scores),
        v if v > SCHEMA_VERSION => Parsed::Damaged(format!(
            "it has schema version {v}, newer than this program's {SCHEMA_VERSION}"
        )),
        v => Parsed::Damaged(format!("it has schema version {v}, which never existed")),
    }
}

/// Removes `.{name}.XXXXXX`, the temporary files `atomic-write-file` names after the file, that
/// a writer killed before its rename left. Only under the writers' lock: then no writer of ours
/// is between creating one and renaming it.
fn remove_stale_temporaries(target: &Path, name: &str) {
    let folder = folder_of(target);
    let prefix = format!(".{name}.");
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name().to_string_lossy().into_owned();
        let is_temporary = file_name.strip_prefix(&prefix).is_some_and(|suffix| {
            suffix.len() == 6 && suffix.chars().all(|c| c.is_ascii_alphanumeric())
        });
        if is_temporary && entry.file_type().is_ok_and(|t| t.is_file()) {
            match std::fs::remove_file(entry.path()) {
                Ok(()) => log::info!("removed {file_name}, left by a writer that was killed"),
                Err(error) => log::warn!("cannot remove {file_name}: {error}"),
            }
        }
    }
}

/// The folder a file is in ("." for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    }
}
