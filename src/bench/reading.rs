//! How well the robot sees what people draw: the detection matrix.
//!
//! Each condition is a simulated robot whose human pen, sensor noise and sampling differ; in
//! each, every kind of hand mark (and things that are not marks) is drawn in every square of a
//! freshly drawn grid, and the board is read as on a human's turn. A mark must be seen in its
//! square and nowhere else; a non-mark must be seen nowhere. The test suite runs a part of it
//! (`tests/reading_marks.rs`), `ev3-tictactoe bench` prints the whole of it as a table.

use crate::config::RobotConfig;
use crate::game::Cell;
use crate::hw::sim::human::{self, HandMark};
use crate::hw::sim::{PaperLook, SimBody, SimRobot, SimSettings};
use crate::motion::sensing::NewMarks;
use crate::motion::{plan, Gantry};
use anyhow::Context;
use std::fmt::Write as _;
use std::time::Duration;

/// What a person draws in a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drawn {
    /// A mark drawn with the pen of the condition.
    Mark(HandMark),
    /// An X drawn with a pencil: its line a quarter darker than the paper.
    Faint,
}

impl Drawn {
    /// Every kind of mark the robot must see.
    pub const MARKS: [Drawn; 6] = [
        Drawn::Mark(HandMark::Fill),
        Drawn::Mark(HandMark::Cross),
        Drawn::Mark(HandMark::CrossOffCentre),
        Drawn::Mark(HandMark::Ring),
        Drawn::Mark(HandMark::SmallRingOffCentre),
        Drawn::Faint,
    ];

    /// Whether this is a mark that must be seen (a dot is not).
    pub fn counts(self) -> bool {
        self != Drawn::Mark(HandMark::Dot)
    }

    pub fn name(self) -> &'static str {
        match self {
            Drawn::Mark(HandMark::Fill) => "filled square",
            Drawn::Mark(HandMark::Cross) => "X",
            Drawn::Mark(HandMark::CrossOffCentre) => "X off centre",
            Drawn::Mark(HandMark::Ring) => "O",
            Drawn::Mark(HandMark::SmallRingOffCentre) => "small O off centre",
            Drawn::Mark(HandMark::Dot) => "dot (not a mark)",
            Drawn::Faint => "pencil X",
        }
    }

    fn hand(self) -> HandMark {
        match self {
            Drawn::Mark(hand) => hand,
            Drawn::Faint => HandMark::Cross,
        }
    }
}

/// The world the robot reads in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Condition {
    /// The human's pen line, in degrees (the sensor's spot is 10).
    pub pen_width_deg: f64,
    /// Each reading is off by up to this much, uniformly, in percent.
    pub noise_percent: f64,
    /// Time between two measurements of the sensor (plus up to 4 ms of jitter each), and
    /// between two readings the robot asks for while sweeping.
    pub sample_ms: u64,
}

/// The conditions of the whole matrix: pens from a quarter of the spot to the spot, noise from
/// none to 4 %, a reading every 5, 10 or 20 ms.
pub fn all_conditions() -> Vec<Condition> {
    let mut out = Vec::new();
    for pen_width_deg in [2.5, 5.0, 10.0] {
        for noise_percent in [0.0, 2.0, 4.0] {
            for sample_ms in [5, 10, 20] {
                out.push(Condition {
                    pen_width_deg,
                    noise_percent,
                    sample_ms,
                });
            }
        }
    }
    out
}

/// What reading one drawing in every square came to.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub drawn: Drawn,
    pub condition: Condition,
    /// Squares where the mark was seen (and nothing else).
    pub seen: usize,
    /// Squares where it was not seen.
    pub missed: Vec<Cell>,
    /// Squares taken for a mark where there was none.
    pub false_marks: Vec<Cell>,
    /// Simulated time of each reading of the board.
    pub read_times: Vec<Duration>,
}

/// Reads `drawn` in every square under `condition`; `seed` makes the noise repeatable.
pub fn read_everywhere(drawn: Drawn, condition: Condition, seed: u64) -> anyhow::Result<Row> {
    let mut config = RobotConfig::default();
    config.sensing.sample_ms = condition.sample_ms;
    let white = PaperLook::default().white_percent;
    let look = PaperLook {
        human_pen_width_deg: condition.pen_width_deg,
        human_ink_percent: if drawn == Drawn::Faint {
            white * 0.75
        } else {
            PaperLook::default().human_ink_percent
        },
        ..PaperLook::default()
    };
    let sim = SimRobot::new(
        &SimBody::as_configured(&config),
        &SimSettings {
            look,
            sensor_noise_percent: condition.noise_percent,
            sensor_period_ms: condition.sample_ms,
            seed,
            ..SimSettings::default()
        },
    );
    let mut gantry = Gantry::new(sim.robot(), config.clone());
    gantry.home().context("homing")?;
    gantry
        .draw(&plan::grid(&config.board))
        .context("the grid")?;
    let blank = gantry.read_blank_grid().context("the blank paper")?;
    gantry.park().context("parking")?;
    let sheet = sim.world().paper().clone();
    let cells: Vec<Cell> = (0..9).map(|i| Cell::from_index(i, 3)).collect();
    let mut row = Row {
        drawn,
        condition,
        seen: 0,
        missed: Vec::new(),
        false_marks: Vec::new(),
        read_times: Vec::new(),
    };
    for &cell in &cells {
        {
            let mut world = sim.world();
            *world.paper_mut() = sheet.clone();
            human::draw(world.paper_mut(), &config.board, cell, drawn.hand());
        }
        let began = sim.world().now();
        let (marks, _) = gantry.read_new_marks(&blank, &cells).context("reading")?;
        row.read_times.push(sim.world().now() - began);
        gantry.park().context("parking")?;
        let found = match marks {
            NewMarks::None => vec![],
            NewMarks::One(c) => vec![c],
            NewMarks::Several(cs) => cs,
        };
        if drawn.counts() {
            if found.contains(&cell) {
                row.seen += 1;
            } else {
                row.missed.push(cell);
            }
        }
        row.false_marks.extend(
            found
                .iter()
                .filter(|&&c| c != cell || !drawn.counts())
                .copied(),
        );
    }
    Ok(row)
}

/// The whole matrix (every mark, and a fine-liner's dot, in every condition) as a table, with
/// the mean time to read a board of nine empty squares for each kind of mark.
pub fn run_all() -> anyhow::Result<String> {
    let mut rows = Vec::new();
    for condition in all_conditions() {
        for drawn in Drawn::MARKS {
            rows.push(read_everywhere(drawn, condition, 7)?);
        }
        let fine_liner = Condition {
            pen_width_deg: 1.5,
            ..condition
        };
        rows.push(read_everywhere(Drawn::Mark(HandMark::Dot), fine_liner, 7)?);
    }
    let mut out = render(&rows);
    let (seen, missed, false_marks) = rows.iter().fold((0, 0, 0), |(s, m, f), r| {
        (s + r.seen, m + r.missed.len(), f + r.false_marks.len())
    });
    let _ = writeln!(
        out,
        "In all: {seen} marks seen, {missed} missed, {false_marks} squares taken for a mark \
         wrongly."
    );
    for drawn in Drawn::MARKS {
        let times: Vec<f64> = rows
            .iter()
            .filter(|r| r.drawn == drawn)
            .flat_map(|r| r.read_times.iter().map(Duration::as_secs_f64))
            .collect();
        let _ = writeln!(
            out,
            "Mean time to read nine empty squares holding a {}: {:.2} s",
            drawn.name(),
            times.iter().sum::<f64>() / times.len().max(1) as f64
        );
    }
    Ok(out)
}

/// The matrix as a table: one line per drawing and condition.
pub fn render(rows: &[Row]) -> String {
    let mut out = String::from(
        "Reading what people draw (every square; seen / missed / taken for a mark elsewhere)\n\
         drawing              pen deg noise % read ms  seen missed false  mean read s\n",
    );
    for row in rows {
        let mean = row
            .read_times
            .iter()
            .map(Duration::as_secs_f64)
            .sum::<f64>()
            / row.read_times.len().max(1) as f64;
        let _ = writeln!(
            out,
            "{:<20} {:>7.1} {:>7.0} {:>7}  {:>4} {:>6} {:>5}  {:>11.2}",
            row.drawn.name(),
            row.condition.pen_width_deg,
            row.condition.noise_percent,
            row.condition.sample_ms,
            row.seen,
            row.missed.len(),
            row.false_marks.len(),
            mean
        );
    }
    out
}
