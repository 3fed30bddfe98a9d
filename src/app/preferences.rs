//! The person's own settings, changed from the menu's settings page and kept between runs in
//! `settings.json` beside the scoreboard (beside the program on a brick): today, whether the
//! robot speaks. Written atomically like the scoreboard; a file that cannot be used is named
//! with what is wrong, moved aside as `settings.json.bad`, and the defaults are used: a bad
//! settings file never stops a game.

use crate::scoreboard::store::ScoreFile;
use atomic_write_file::AtomicWriteFile;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The file's name, beside the scoreboard.
pub const FILE_NAME: &str = "settings.json";

/// What the person chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Preferences {
    /// The robot says the key moments aloud (default: true). `--quiet` silences one run
    /// without changing this.
    pub voice: bool,
}

impl Default for Preferences {
    fn default() -> Self {
        Preferences { voice: true }
    }
}

/// The settings file.
#[derive(Debug, Clone)]
pub struct PreferencesFile {
    path: PathBuf,
}

impl PreferencesFile {
    pub fn beside(scores: &ScoreFile) -> PreferencesFile {
        PreferencesFile {
            path: scores.path().with_file_name(FILE_NAME),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The person's settings, and what went wrong with the file if it could not be used (it
    /// is then moved aside, so the next save does not overwrite what the person may want to
    /// look at). No file: the defaults, quietly.
    pub fn load(&self) -> (Preferences, Option<String>) {
        match self.read() {
            Ok(preferences) => (preferences.unwrap_or_default(), None),
            Err(what) if self.path.exists() => {
                let aside = self.path.with_file_name(format!("{FILE_NAME}.bad"));
                let kept = match std::fs::rename(&self.path, &aside) {
                    Ok(()) => format!("it is kept as {}", aside.display()),
                    Err(e) => format!("it could not be moved aside ({e})"),
                };
                let why = format!("{what}: {kept}, and the defaults are used");
                (Preferences::default(), Some(why))
            }
            Err(what) => (
                Preferences::default(),
                Some(format!("{what}; the defaults are used")),
            ),
        }
    }

    /// The file's settings in a line for a person, read and left as it is (`config`).
    pub fn describe(&self) -> String {
        match self.read() {
            Ok(Some(preferences)) => format!(
                "{}: the voice {}",
                self.display(),
                if preferences.voice { "on" } else { "off" }
            ),
            Ok(None) => format!(
                "{}: not written yet (the voice on, as by default)",
                self.display()
            ),
            Err(what) => format!("{what}: the next start moves it aside and uses the defaults"),
        }
    }

    /// The file's settings; `None` when there is no file.
    fn read(&self) -> Result<Option<Preferences>, String> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot read {}: {e}", self.display())),
        };
        crate::strict_json::parse(&text)
            .and_then(serde_json::from_value::<Preferences>)
            .map(Some)
            .map_err(|e| format!("{} is not a settings file ({e})", self.display()))
    }

    /// Writes `preferences` whole, atomically (a temporary file, synced, renamed over the old).
    pub fn save(&self, preferences: &Preferences) -> std::io::Result<()> {
        let mut text = serde_json::to_vec_pretty(preferences).map_err(std::io::Error::other)?;
        text.push(b'\n');
        let mut file = AtomicWriteFile::open(&self.path)?;
        file.write_all(&text)?;
        file.commit()
    }

    fn display(&self) -> std::path::Display<'_> {
        self.path.display()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn in_a_folder() -> (tempfile::TempDir, PreferencesFile) {
        let folder = tempfile::tempdir().unwrap();
        let scores = ScoreFile::new(folder.path().join("scoreboard.json"));
        let file = PreferencesFile::beside(&scores);
        (folder, file)
    }

    #[test]
    fn no_file_means_the_defaults_and_nothing_to_report() {
        let (_folder, file) = in_a_folder();
        assert_eq!(file.load(), (Preferences { voice: true }, None));
        assert!(!file.path().exists(), "loading writes nothing");
    }

    #[test]
    fn the_voice_turned_off_is_still_off_when_read_again() {
        let (_folder, file) = in_a_folder();
        file.save(&Preferences { voice: false }).unwrap();
        assert_eq!(file.load(), (Preferences { voice: false }, None));
        assert_eq!(file.path().file_name().unwrap(), FILE_NAME);
    }

    #[test]
    fn a_bad_file_is_named_with_what_is_wrong_moved_aside_and_the_defaults_used() {
        let (folder, file) = in_a_folder();
        for (text, complaint) in [
            ("{\"voice\": \"yes\"}", "invalid type"),
            ("{\"voice\": false, \"voice\": true}", "voice"),
            ("{\"volume\": 3}", "unknown field `volume`"),
            ("{\"voice\": fals", "EOF"),
        ] {
            std::fs::write(file.path(), text).unwrap();
            let (preferences, why) = file.load();
            assert_eq!(preferences, Preferences::default(), "{text}");
            let why = why.expect("a bad file is reported");
            assert!(
                why.contains("settings.json is not a settings file"),
                "{why}"
            );
            assert!(why.contains(complaint), "{text}: {why}");
            let aside = folder.path().join("settings.json.bad");
            assert_eq!(std::fs::read_to_string(&aside).unwrap(), text);
            assert!(!file.path().exists());
        }
    }

    #[test]
    fn described_for_config_the_file_is_read_and_left_as_it_is() {
        let (_folder, file) = in_a_folder();
        assert!(file
            .describe()
            .ends_with("not written yet (the voice on, as by default)"));
        file.save(&Preferences { voice: false }).unwrap();
        assert!(file.describe().ends_with("settings.json: the voice off"));
        std::fs::write(file.path(), "{\"voice\": 1}").unwrap();
        let said = file.describe();
        assert!(
            said.contains("is not a settings file (invalid type"),
            "{said}"
        );
        assert!(file.path().exists(), "describing moves nothing");
    }
}
