//! Reading a robot.json (defaults under what the file names, retired settings explained), and
//! writing one that calibration measured.

use super::RobotConfig;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A config that cannot be used, naming the field and the problem.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read robot config {path}: {cause}")]
    Read { path: String, cause: std::io::Error },
    #[error("robot config {path}: {message}")]
    Parse { path: String, message: String },
    #[error("robot config {path}: {field} {problem}")]
    Invalid {
        path: String,
        field: String,
        problem: String,
    },
}

/// Settings an older robot.json may still hold, each with what took its place: a file written
/// for an earlier version gets a sentence saying what to change, not just "unknown field".
const RETIRED_FIELDS: [(&str, &str, &str); 3] = [
    (
        "sensing",
        "spot_deg",
        "give the sensor's spot on the paper in millimetres as sensing.spot_mm (docs/sensor.md)",
    ),
    (
        "sensing",
        "sweep_deg",
        "the stretch read in each square follows from sensing.spot_mm, pen.line_mm, \
         board.square_deg and the axes' mm_per_deg",
    ),
    (
        "sensing",
        "second_look_offset_deg",
        "a second look runs up to a quarter of a square off the first, clear of the grid lines",
    ),
];

impl RobotConfig {
    /// Reads and checks a config file.
    pub fn load(path: &Path) -> Result<RobotConfig, ConfigError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|cause| ConfigError::Read {
            path: shown.clone(),
            cause,
        })?;
        RobotConfig::parse(&text, &shown)
    }

    /// Parses and checks config text; `path` only names it in errors.
    pub fn parse(text: &str, path: &str) -> Result<RobotConfig, ConfigError> {
        let parse_error = |message: String| ConfigError::Parse {
            path: path.to_string(),
            message,
        };
        let given = crate::strict_json::parse(text).map_err(|e| parse_error(e.to_string()))?;
        if !given.is_object() {
            return Err(parse_error("must be a JSON object".to_string()));
        }
        for (section, name, instead) in RETIRED_FIELDS {
            if given.get(section).and_then(|s| s.get(name)).is_some() {
                return Err(parse_error(format!(
                    "{section}.{name} is no longer a setting: {instead}"
                )));
            }
        }
        // Fields left out take the default robot's values, at every depth: a file that names only
        // `rows.port` keeps the rows axis's own travel, not some generic axis's.
        let mut merged = serde_json::to_value(RobotConfig::default()).expect("serialises");
        merge(&mut merged, given);
        let config: RobotConfig = serde_path_to_error::deserialize(merged).map_err(|e| {
            let field = e.path().to_string();
            parse_error(format!("{field}: {}", e.into_inner()))
        })?;
        config
            .validate()
            .map_err(|(field, problem)| ConfigError::Invalid {
                path: path.to_string(),
                field,
                problem,
            })?;
        Ok(config)
    }

    /// Writes the whole config to `path` atomically (a temporary file, synced, renamed over the
    /// old), after copying a file already there to `path.1`: a calibration that turns out
    /// wrong can be undone by hand. The copy, if one was made.
    pub fn save_keeping_the_old(&self, path: &Path) -> std::io::Result<Option<PathBuf>> {
        let kept = if path.exists() {
            let mut name = path.file_name().unwrap_or_default().to_os_string();
            name.push(".1");
            let old = path.with_file_name(name);
            std::fs::copy(path, &old)?;
            Some(old)
        } else {
            None
        };
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)? + "\n";
        let mut file = atomic_write_file::AtomicWriteFile::open(path)?;
        file.write_all(text.as_bytes())?;
        file.commit()?;
        Ok(kept)
    }

    /// The default config as the JSON `ev3-tictactoe config` prints.
    pub fn default_json() -> String {
        serde_json::to_string_pretty(&RobotConfig::default()).expect("the config serialises") + "\n"
    }
}

/// Writes `given` over `base`, object by object.
fn merge(base: &mut serde_json::Value, given: serde_json::Value) {
    match (base, given) {
        (serde_json::Value::Object(base), serde_json::Value::Object(given)) => {
            for (key, value) in given {
                match base.get_mut(&key) {
                    Some(slot) => merge(slot, value),
                    None => {
                        base.insert(key, value);
                    }
                }
            }
        }
        (slot, value) => *slot = value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_config_reads_back_as_saved_and_the_file_it_replaced_is_kept_beside_it() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("robot.json");
        let mut measured = RobotConfig::default();
        measured.pen.down_deg = 27;
        assert_eq!(measured.save_keeping_the_old(&path).unwrap(), None);
        assert_eq!(RobotConfig::load(&path).unwrap(), measured);
        let first = std::fs::read_to_string(&path).unwrap();
        measured.pen.down_deg = 29;
        let kept = measured.save_keeping_the_old(&path).unwrap();
        assert_eq!(kept, Some(folder.path().join("robot.json.1")));
        assert_eq!(std::fs::read_to_string(kept.unwrap()).unwrap(), first);
        assert_eq!(RobotConfig::load(&path).unwrap().pen.down_deg, 29);
    }

    #[test]
    fn the_printed_defaults_read_back_as_the_defaults() {
        let text = RobotConfig::default_json();
        assert_eq!(
            RobotConfig::parse(&text, "x").unwrap(),
            RobotConfig::default()
        );
    }

    #[test]
    fn an_empty_object_is_the_default_robot() {
        assert_eq!(
            RobotConfig::parse("{}", "x").unwrap(),
            RobotConfig::default()
        );
    }

    #[test]
    fn a_partial_file_changes_only_what_it_names() {
        let config = RobotConfig::parse(r#"{"rows": {"port": "outD"}}"#, "x").unwrap();
        assert_eq!(config.rows.port, "outD");
        assert_eq!(
            config.rows.travel_deg,
            RobotConfig::default().rows.travel_deg
        );
        assert_eq!(config.columns, RobotConfig::default().columns);
    }
}
