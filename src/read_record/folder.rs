//! Where pictures of reads are kept, within a budget: the brick keeps its programs and logs on
//! an SD card of a few gigabytes shared with the system, and a robot left playing all day must
//! not fill it. Each read is two files, `read-<when>-<what>.png` and `.csv`, about 30 to
//! 70 KB together; once the folder's reads pass [`BUDGET_BYTES`], the oldest go first.

use super::{picture, ReadRecord};
use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The most a folder of reads may hold: 20 MB, some three to six hundred reads, under 1 % of
/// the smallest SD card ev3dev runs from (2 GB).
pub const BUDGET_BYTES: u64 = 20 * 1000 * 1000;

/// A folder that keeps pictures of reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordFolder {
    dir: PathBuf,
    budget_bytes: u64,
}

/// The two files one read was kept in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    pub picture: PathBuf,
    pub readings: PathBuf,
}

impl RecordFolder {
    /// Reads kept in `dir` (made when the first is kept), within [`BUDGET_BYTES`].
    pub fn new(dir: impl Into<PathBuf>) -> RecordFolder {
        RecordFolder::with_budget(dir, BUDGET_BYTES)
    }

    /// As [`RecordFolder::new`], within `budget_bytes`.
    pub fn with_budget(dir: impl Into<PathBuf>, budget_bytes: u64) -> RecordFolder {
        RecordFolder {
            dir: dir.into(),
            budget_bytes,
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Keeps `record` as a picture and its readings, named by the time and `what` (letters,
    /// digits and dashes: "game2-turn3"), then removes the oldest reads past the budget.
    pub fn keep(&self, record: &ReadRecord, what: &str) -> io::Result<Kept> {
        fs::create_dir_all(&self.dir)?;
        let stem = format!("read-{}-{}", timestamp(SystemTime::now()), what);
        let stem = self.unused(&stem);
        let picture_path = self.dir.join(format!("{stem}.png"));
        let readings_path = self.dir.join(format!("{stem}.csv"));
        let mut png = Vec::new();
        picture::render(record)
            .write_png(&mut png)
            .map_err(io::Error::other)?;
        fs::write(&picture_path, png)?;
        fs::write(&readings_path, record.csv())?;
        self.prune()?;
        Ok(Kept {
            picture: picture_path,
            readings: readings_path,
        })
    }

    /// `stem`, or with `-2`, `-3`... after it if a read of the same second has it.
    fn unused(&self, stem: &str) -> String {
        let taken = |s: &str| self.dir.join(format!("{s}.png")).exists();
        if !taken(stem) {
            return stem.to_string();
        }
        (2..)
            .map(|n| format!("{stem}-{n}"))
            .find(|s| !taken(s))
            .expect("some number is free")
    }

    /// Removes the oldest reads, each its picture and readings together, until the rest fit
    /// the budget. Only this folder's `read-*` files are counted or touched.
    fn prune(&self) -> io::Result<()> {
        let mut reads: BTreeMap<String, (SystemTime, Vec<PathBuf>, u64)> = BTreeMap::new();
        for entry in fs::read_dir(&self.dir)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let stem = name
                .strip_suffix(".png")
                .or_else(|| name.strip_suffix(".csv"))
                .filter(|stem| stem.starts_with("read-"));
            let meta = entry.metadata()?;
            if let (Some(stem), true) = (stem, meta.is_file()) {
                let when = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                let read = reads
                    .entry(stem.to_string())
                    .or_insert((when, Vec::new(), 0));
                read.0 = read.0.min(when);
                read.1.push(entry.path());
                read.2 += meta.len();
            }
        }
        let mut oldest_first: Vec<(SystemTime, String, Vec<PathBuf>, u64)> = reads
            .into_iter()
            .map(|(stem, (when, files, len))| (when, stem, files, len))
            .collect();
        oldest_first.sort();
        let mut total: u64 = oldest_first.iter().map(|read| read.3).sum();
        for (_, _, files, len) in oldest_first {
            if total <= self.budget_bytes {
                break;
            }
            for file in files {
                fs::remove_file(file)?;
            }
            total -= len;
        }
        Ok(())
    }
}

/// `2026-11-25T12-58-01`: the time in UTC, with dashes where a file name on a card formatted
/// for another system might not take colons.
fn timestamp(now: SystemTime) -> String {
    let text = humantime::format_rfc3339_seconds(now).to_string();
    text.trim_end_matches('Z').replace(':', "-")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{AxisPoint, RobotConfig};
    use crate::motion::sensing::Sample;
    use std::time::Duration;

    fn record() -> ReadRecord {
        let samples: Vec<Sample> = (0..300)
            .map(|i| Sample {
                at: AxisPoint::new(20 + i, 70),
                time: Duration::from_millis(10 * i as u64),
                percent: (50 + i % 20) as u8,
            })
            .collect();
        ReadRecord::new("a test", &RobotConfig::default().board, &samples, &[])
    }

    #[test]
    fn a_read_is_kept_as_a_picture_and_its_readings_and_the_oldest_go_past_the_budget() {
        let dir = tempfile::tempdir().unwrap();
        let one = RecordFolder::new(dir.path())
            .keep(&record(), "turn1")
            .unwrap();
        let size = |p: &Path| fs::metadata(p).unwrap().len();
        let pair = size(&one.picture) + size(&one.readings);
        assert!(one.picture.exists() && one.readings.exists());
        // A budget of two and a half reads keeps the last two.
        let folder = RecordFolder::with_budget(dir.path(), pair * 5 / 2);
        let mut kept = vec![one];
        for turn in 2..=4 {
            std::thread::sleep(Duration::from_millis(20));
            kept.push(folder.keep(&record(), &format!("turn{turn}")).unwrap());
        }
        let left: Vec<(bool, bool)> = kept
            .iter()
            .map(|k| (k.picture.exists(), k.readings.exists()))
            .collect();
        assert_eq!(
            left,
            [(false, false), (false, false), (true, true), (true, true)]
        );
        // Other files in the folder are not the budget's business.
        fs::write(dir.path().join("notes.txt"), vec![b'x'; 10 * pair as usize]).unwrap();
        folder.keep(&record(), "turn5").unwrap();
        assert!(dir.path().join("notes.txt").exists());
    }

    #[test]
    fn two_reads_in_one_second_get_two_names() {
        let dir = tempfile::tempdir().unwrap();
        let folder = RecordFolder::new(dir.path());
        let a = folder.keep(&record(), "same").unwrap();
        let b = folder.keep(&record(), "same").unwrap();
        assert_ne!(a.picture, b.picture);
    }

    #[test]
    fn a_timestamp_has_no_colons() {
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_000_000);
        assert_eq!(timestamp(t), "2026-11-18T11-06-40");
    }
}
