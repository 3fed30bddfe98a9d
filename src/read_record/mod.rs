//! Pictures of what the robot saw. For a read of the board: a PNG of the sheet as the colour
//! sensor saw it (the path of its spot, each reading drawn in its own shade, the grid where it
//! was drawn, and each square's verdict with its evidence) and a CSV of the raw readings. When a
//! real robot misreads a real sheet (other paper, another pen, the sensor higher than ours), a
//! person can look at what it measured instead of reading sentences in a log.
//!
//! [`ReadRecord`] and [`picture`] are plain data and drawing, with no I/O; [`folder`] keeps the
//! files within a budget of the brick's SD card.

pub mod folder;
pub mod picture;

use crate::config::BoardGeometry;
use crate::game::Cell;
use crate::motion::sensing::{Evidence, Sample, SquareReading};
use std::fmt::Write as _;

/// One read of the board: every reading the sensor took on it and what each square came to.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadRecord {
    /// What the read was, for the picture's title: "game 2, turn 3: a new mark at square 5".
    pub title: String,
    pub board: BoardGeometry,
    /// Every reading, in the order taken, placed where the spot's centre was.
    pub samples: Vec<Sample>,
    /// The squares the read judged.
    pub squares: Vec<SquareSight>,
}

/// What the read made of one square, with the figures the verdict rests on.
#[derive(Debug, Clone, PartialEq)]
pub struct SquareSight {
    pub cell: Cell,
    pub verdict: Evidence,
    /// The blank paper's level in this square, percent.
    pub paper_percent: f64,
    /// The deepest dip any look found, against the paper beside it (0.3: 30 % darker).
    pub deepest: f64,
    /// The strongest dip in units of its noise's standard deviation.
    pub sigmas: f64,
}

impl SquareSight {
    /// The figures behind `reading`'s verdict.
    pub fn of(reading: &SquareReading) -> SquareSight {
        let deepest = reading
            .looks
            .iter()
            .map(|l| l.local_depth)
            .fold(0.0, f64::max);
        let sigmas = reading
            .looks
            .iter()
            .map(|l| l.local_sigmas.max(l.mean_sigmas))
            .fold(0.0, f64::max);
        SquareSight {
            cell: reading.cell,
            verdict: reading.evidence,
            paper_percent: reading.blank.level,
            deepest,
            sigmas,
        }
    }

    /// The verdict in a word or two, as the picture labels it.
    pub fn verdict_words(&self) -> &'static str {
        match self.verdict {
            Evidence::Marked => "marked",
            Evidence::Borderline => "faint?",
            Evidence::Blank => "blank",
        }
    }
}

impl ReadRecord {
    /// The record of a read of `board` that took `samples` and judged `readings`.
    pub fn new(
        title: impl Into<String>,
        board: &BoardGeometry,
        samples: &[Sample],
        readings: &[SquareReading],
    ) -> ReadRecord {
        ReadRecord {
            title: title.into(),
            board: board.clone(),
            samples: samples.to_vec(),
            squares: readings.iter().map(SquareSight::of).collect(),
        }
    }

    /// The raw readings as CSV: seconds since the read began, where the spot's centre was on
    /// each axis (degrees, the pen's frame, as the robot config's positions), and the reading.
    pub fn csv(&self) -> String {
        let start = self.samples.first().map(|s| s.time).unwrap_or_default();
        let mut out = String::from("time_s,columns_deg,rows_deg,percent\n");
        for sample in &self.samples {
            let _ = writeln!(
                out,
                "{:.3},{},{},{}",
                (sample.time - start).as_secs_f64(),
                sample.at.columns,
                sample.at.rows,
                sample.percent
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{AxisPoint, RobotConfig};
    use std::time::Duration;

    #[test]
    fn the_csv_has_a_line_for_each_reading_timed_from_the_first() {
        let board = RobotConfig::default().board;
        let sample = |ms: u64, columns: i32, percent: u8| Sample {
            at: AxisPoint::new(columns, 70),
            time: Duration::from_millis(1000 + ms),
            percent,
        };
        let record = ReadRecord::new(
            "a test",
            &board,
            &[sample(0, 40, 70), sample(12, 45, 31)],
            &[],
        );
        assert_eq!(
            record.csv(),
            "time_s,columns_deg,rows_deg,percent\n0.000,40,70,70\n0.012,45,70,31\n"
        );
    }
}
