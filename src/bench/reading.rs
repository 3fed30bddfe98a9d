//! How well the robot sees what people draw: the detection matrix, over the physical ranges of
//! `docs/sensor.md`.
//!
//! Each condition is a simulated robot with a sensor footprint (6 mm, the sensor nearly on the
//! paper, to 12 mm, a centimetre above it), a person's pen (fine-liner to broad marker, and
//! pencil), sensor noise and a read period; the robot config is told the footprint, as
//! `calibrate` would. In each, every kind of hand mark (and a dot, which is not a mark) is drawn
//! in every square of a freshly drawn grid, with the robot's own X and O in the squares beside
//! it on the same row (the sweep crosses them), and the board is read as on a person's turn. A
//! mark must be seen in its square and nowhere else; a dot nowhere.
//!
//! Some marks are beyond any reading of this sensor: a fine-liner's X under a 12 mm spot
//! darkens it by 3 %, less than the paper varies. Which ones is measured, not guessed: the
//! noiseless sensor is run along the lines the robot reads, and a mark whose darkest spot there
//! is less than the faint floor (`sensing.faint_contrast_percent`, 6 %) darker than its paper
//! cannot be told from paper by any threshold. Those rows are counted apart ("beyond the
//! sensor"); everything else is held to every mark seen and none invented. The test suite runs
//! a part of it (`tests/reading_marks.rs`), `ev3-tictactoe bench` prints the whole.

use crate::config::RobotConfig;
use crate::game::{Cell, Mark};
use crate::hw::sim::human::{self, HandMark};
use crate::hw::sim::{Author, PaperLook, PaperPoint, RoomLight, SimBody, SimRobot, SimSettings};
use crate::motion::gantry::{ReadStage, ReadStages};
use crate::motion::sensing::{Doubt, NewMarks, HANDS_OFF};
use crate::motion::{plan, Gantry};
pub use crate::physical::{Pen, PENS};
use anyhow::Context;
use std::fmt::Write as _;
use std::time::Duration;

/// The sensor's footprints of the matrix, in mm: nearly on the paper, between, a centimetre up.
pub const SPOTS_MM: [f64; 3] = [6.0, 9.0, 12.0];

/// What a person draws in a square.
pub const DRAWINGS: [HandMark; 6] = [
    HandMark::Fill,
    HandMark::Cross,
    HandMark::CrossOffCentre,
    HandMark::Ring,
    HandMark::SmallRingOffCentre,
    HandMark::Dot,
];

/// A speck, whatever the pen: the tip of a fine-liner touched to the paper.
const SPECK: Pen = PENS[0];

/// The world the robot reads in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Condition {
    pub pen: Pen,
    /// The sensor's footprint, in mm (the robot config is told it).
    pub spot_mm: f64,
    /// Each reading is off by up to this much, uniformly, in percent.
    pub noise_percent: f64,
    /// Time between two measurements of the sensor (plus up to 4 ms of jitter each), and
    /// between two readings the robot asks for while sweeping.
    pub sample_ms: u64,
    /// The room's light: steady, or changing at the harsh end of every cited range
    /// ([`RoomLight::harsh`]), a person's shadow falling at every press.
    pub room: Room,
}

/// The rooms of the matrix, and any other a test tries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Room {
    Steady,
    Harsh,
    Other(RoomLight),
}

impl Room {
    pub fn light(self) -> RoomLight {
        match self {
            Room::Steady => RoomLight::default(),
            Room::Harsh => RoomLight::harsh(),
            Room::Other(light) => light,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Room::Steady => "steady",
            Room::Harsh => "harsh",
            Room::Other(_) => "other",
        }
    }
}

/// Every condition of the whole matrix: each footprint, each pen, noise from none to 4 %, a
/// reading every 5, 10 or 20 ms, in steady light and in the harsh room.
pub fn all_conditions() -> Vec<Condition> {
    let mut out = Vec::new();
    for room in [Room::Steady, Room::Harsh] {
        for spot_mm in SPOTS_MM {
            for pen in PENS {
                for noise_percent in [0.0, 2.0, 4.0] {
                    for sample_ms in [5, 10, 20] {
                        out.push(Condition {
                            pen,
                            spot_mm,
                            noise_percent,
                            sample_ms,
                            room,
                        });
                    }
                }
            }
        }
    }
    out
}

/// A name for a drawing, for tables and messages.
pub fn drawing_name(drawn: HandMark) -> &'static str {
    match drawn {
        HandMark::Fill => "filled square",
        HandMark::Cross => "X",
        HandMark::CrossOffCentre => "X off centre",
        HandMark::Ring => "O",
        HandMark::SmallRingOffCentre => "small O off centre",
        HandMark::Dot => "dot (not a mark)",
    }
}

/// What reading one drawing in every square came to.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub drawn: HandMark,
    pub condition: Condition,
    /// Squares where the mark was seen (and nothing else).
    pub seen: usize,
    /// Squares where a mark clearly within the sensor's reach was not seen.
    pub missed: Vec<Cell>,
    /// Squares where a mark clearly within reach was not taken for one, but the robot was
    /// unsure of it (a faint dip on one line only, after the slow look): it says so and asks
    /// the person to draw it darker, rather than passing over it.
    pub unsure: Vec<Cell>,
    /// Squares where a mark within a quarter of the floors (see [`NEAR_THE_FLOOR`]) was not
    /// seen: the noise decides those.
    pub missed_near_floor: Vec<Cell>,
    /// Squares where the mark was beyond the sensor (see the module's docs), seen or not.
    pub beyond: Vec<Cell>,
    /// Squares taken for a mark where there was none.
    pub false_marks: Vec<Cell>,
    /// Squares whose read the robot doubted and read again (more than one new mark, or light
    /// that changed unevenly while it read).
    pub read_again: Vec<Cell>,
    /// Of those, the squares read a third time: the light changed during the second read too.
    pub read_thrice: Vec<Cell>,
    /// Squares whose reads found several new marks twice: a game void on a person's turn.
    pub voided: Vec<Cell>,
    /// Simulated time of each reading of the board.
    pub read_times: Vec<Duration>,
    /// Each reading's stages, with their physical bounds.
    pub stages: Vec<ReadStages>,
    /// What the robot measured in each square it got wrong, in its log's words.
    pub evidence: Vec<String>,
}

impl Row {
    pub fn mean_read(&self) -> Duration {
        let total: Duration = self.read_times.iter().sum();
        total / self.read_times.len().max(1) as u32
    }

    /// Where a mean read's time goes, stage by stage, against each stage's physical bound:
    /// "first look 2.1 s (bound 1.6 s, 9 squares); off centre ...".
    pub fn describe_stages(&self) -> String {
        let reads = self.stages.len().max(1) as f64;
        let mean = |pick: fn(&ReadStages) -> Option<ReadStage>| {
            let taken: Vec<ReadStage> = self.stages.iter().filter_map(pick).collect();
            let sum = |f: fn(&ReadStage) -> f64| taken.iter().map(f).sum::<f64>() / reads;
            (
                taken.len(),
                sum(|s| s.took.as_secs_f64()),
                sum(|s| s.bound.as_secs_f64()),
                taken.iter().map(|s| s.squares).sum::<usize>() as f64 / taken.len().max(1) as f64,
            )
        };
        let mut parts = Vec::new();
        for (name, pick) in [
            (
                "first look",
                (|s: &ReadStages| Some(s.first)) as fn(&ReadStages) -> Option<ReadStage>,
            ),
            ("off centre", |s: &ReadStages| s.off_centre),
            ("close look", |s: &ReadStages| s.close),
        ] {
            let (count, took, bound, squares) = mean(pick);
            if count > 0 {
                parts.push(format!(
                    "{name} {took:.1} s (bound {bound:.1} s; in {count} of {} reads, {squares:.1} squares)",
                    self.stages.len()
                ));
            }
        }
        parts.join("; ")
    }
}

/// Reads `drawn` in every square under `condition`; `seed` makes the noise repeatable.
pub fn read_everywhere(drawn: HandMark, condition: Condition, seed: u64) -> anyhow::Result<Row> {
    let mut config = RobotConfig::default();
    config.sensing.sample_ms = condition.sample_ms;
    config.sensing.spot_mm = condition.spot_mm;
    let white = PaperLook::default().white_percent;
    // A dot stands for a speck or a slip of the pen, not a blot a broad marker leaves.
    let pen = if drawn == HandMark::Dot {
        SPECK
    } else {
        condition.pen
    };
    let look = PaperLook {
        human_pen_width_mm: pen.width_mm,
        human_ink_percent: white * pen.ink_of_paper,
        ..PaperLook::default()
    };
    let settings = SimSettings {
        look,
        sensor_noise_percent: condition.noise_percent,
        sensor_period_ms: condition.sample_ms,
        room: condition.room.light(),
        seed,
        ..SimSettings::default()
    };
    let sim = SimRobot::new(&SimBody::as_configured(&config), &settings);
    let mut gantry = Gantry::new(sim.robot(), config.clone());
    gantry.home().context("homing")?;
    // As a game sets up: the sheet's check is the blank read's first read of the squares.
    gantry.used_sheet().context("the sheet's check")?;
    gantry.draw_grid().context("the grid")?;
    let blank = gantry.read_blank_grid().context("the blank paper")?;
    gantry.park().context("parking")?;
    let sheet = sim.world().paper().clone();
    let size = config.board.size;
    let mut row = Row {
        drawn,
        condition,
        seen: 0,
        missed: Vec::new(),
        unsure: Vec::new(),
        missed_near_floor: Vec::new(),
        beyond: Vec::new(),
        false_marks: Vec::new(),
        read_again: Vec::new(),
        read_thrice: Vec::new(),
        voided: Vec::new(),
        read_times: Vec::new(),
        stages: Vec::new(),
        evidence: Vec::new(),
    };
    for index in 0..size * size {
        let cell = Cell::from_index(index, size);
        // The robot's X to the left and O to the right, on the row the sweep crosses.
        let neighbours: Vec<(Cell, Mark)> = [(cell.col.checked_sub(1), Mark::X)]
            .into_iter()
            .chain([((cell.col + 1 < size).then_some(cell.col + 1), Mark::O)])
            .filter_map(|(col, mark)| col.map(|col| (Cell { row: cell.row, col }, mark)))
            .collect();
        let visible = {
            let mut world = sim.world();
            let paper = world.paper_mut();
            *paper = sheet.clone();
            for &(at, mark) in &neighbours {
                for path in plan::mark(&config.board, at, mark) {
                    let points: Vec<PaperPoint> = path
                        .iter()
                        .map(|p| PaperPoint::new(f64::from(p.columns), f64::from(p.rows)))
                        .collect();
                    paper.draw(Author::Robot, &points);
                }
            }
            let before = paper.clone();
            human::draw(paper, &config.board, cell, drawn);
            reach(&config, &before, paper, cell)
        };
        let empty: Vec<Cell> = (0..size * size)
            .map(|i| Cell::from_index(i, size))
            .filter(|c| !neighbours.iter().any(|(n, _)| n == c))
            .collect();
        // The person presses the touch sensor and steps back: their shadow, if the room
        // casts one, falls on the first part of the read. As a game does, the robot reads the
        // paper under its parked sensor first, to tell that shadow from the paper.
        gantry
            .note_the_paper_at_rest()
            .context("the paper at rest")?;
        sim.world().press_touch(PRESS);
        let began = sim.world().now();
        let (mut marks, mut readings) = gantry.read_new_marks(&blank, &empty).context("reading")?;
        let mut took = sim.world().now() - began;
        row.stages.push(gantry.last_read());
        gantry.park().context("parking")?;
        // As a person's turn does: a doubtful read is read again once hands are off (and a
        // third time if the light changed during the second too: `Doubt::after`), and the
        // waits and the reads again count in the read's time (the parks between do not, as
        // they do not for the first).
        let mut reads = 1;
        while Doubt::after(reads, &marks, &gantry.paper_light()).is_some() {
            match reads {
                1 => row.read_again.push(cell),
                2 => row.read_thrice.push(cell),
                _ => {}
            }
            sim.world().advance(HANDS_OFF);
            let again = sim.world().now();
            (marks, readings) = gantry.read_new_marks(&blank, &empty).context("reading")?;
            reads += 1;
            took += HANDS_OFF + (sim.world().now() - again);
            row.stages.push(gantry.last_read());
            gantry.park().context("parking")?;
        }
        if reads > 1 && matches!(marks, NewMarks::Several(_)) {
            row.voided.push(cell);
        }
        row.read_times.push(took);
        let found = match marks {
            NewMarks::None => vec![],
            NewMarks::One(c) => vec![c],
            NewMarks::Several(cs) => cs,
        };
        let counts = drawn != HandMark::Dot;
        if counts && visible < 1.0 {
            row.beyond.push(cell);
        } else if counts && found.contains(&cell) {
            row.seen += 1;
        } else if counts && visible < NEAR_THE_FLOOR {
            row.missed_near_floor.push(cell);
        } else if counts && readings.iter().any(|r| r.cell == cell && r.unsure()) {
            row.unsure.push(cell);
        } else if counts {
            row.missed.push(cell);
        }
        let wrong: Vec<Cell> = found
            .iter()
            .filter(|&&c| c != cell || !counts)
            .copied()
            .collect();
        for reading in &readings {
            let missed = reading.cell == cell
                && (row.missed.last() == Some(&cell)
                    || row.unsure.last() == Some(&cell)
                    || row.missed_near_floor.last() == Some(&cell));
            if missed || wrong.contains(&reading.cell) {
                row.evidence.push(format!(
                    "drawn in {:?}, read {:?}: {}",
                    cell,
                    reading.cell,
                    reading.describe()
                ));
            }
        }
        row.false_marks.extend(wrong);
    }
    Ok(row)
}

/// How long the person holds the touch sensor down.
const PRESS: Duration = Duration::from_millis(200);

/// A mark whose best showing clears the floors by less than this factor is near the floor:
/// a reading's noise, the whole percents and where the readings happen to fall decide whether
/// it passes, so a miss there is counted apart.
pub const NEAR_THE_FLOOR: f64 = 1.25;

/// How far a drawing in `cell` is within the sensor's reach, by what the noiseless
/// sensor shows of it along the lines the robot reads (the centre line and the second look's
/// two), against the same spots on `before`: a mark if it darkens one line past the clear
/// floor (`sensing.mark_contrast_percent`), the centre line (the one the blank paper is read
/// along) past the faint floor on average, or two lines past the faint floor somewhere, as the
/// firmware's judge asks of any mark
/// ([`crate::motion::sensing::judge`]): the best of those showings as a multiple of its
/// floor. Under 1, no threshold can tell it from a speck or from the paper's own unevenness.
fn reach(
    config: &RobotConfig,
    before: &crate::hw::sim::Paper,
    after: &crate::hw::sim::Paper,
    cell: Cell,
) -> f64 {
    let window = plan::reading_window(config, cell);
    let centre = config.board.cell_centre(cell).rows;
    let offset = config.reading_geometry().look_offset_deg;
    let offsets: &[i32] = if offset > 0 {
        &[0, offset, -offset]
    } else {
        &[0]
    };
    let lines: Vec<(f64, f64)> = offsets
        .iter()
        .map(|&dy| {
            let dips: Vec<f64> = window
                .clone()
                .map(|columns| {
                    let at = PaperPoint::new(f64::from(columns), f64::from(centre + dy));
                    let paper = before.reflected_percent(at);
                    (paper - after.reflected_percent(at)) / paper.max(1.0)
                })
                .collect();
            let deepest = dips.iter().copied().fold(0.0, f64::max);
            (deepest, dips.iter().sum::<f64>() / dips.len().max(1) as f64)
        })
        .collect();
    let floor = |percent: u8| f64::from(percent) / 100.0;
    let clear = floor(config.sensing.mark_contrast_percent);
    let faint = floor(config.sensing.faint_contrast_percent);
    let mut faint_dips: Vec<f64> = lines.iter().map(|&(deepest, _)| deepest / faint).collect();
    faint_dips.sort_by(|a, b| b.total_cmp(a));
    lines
        .iter()
        .enumerate()
        .map(|(i, &(deepest, mean))| (deepest / clear).max(if i == 0 { mean / faint } else { 0.0 }))
        .chain(faint_dips.get(1).copied())
        .fold(0.0, f64::max)
}

/// The whole matrix as a table, with the totals and the mean read times the goals are set on.
pub fn run_all() -> anyhow::Result<String> {
    Ok(report(&matrix()?))
}

/// Every drawing read in every square under every condition of the matrix, one row each.
pub fn matrix() -> anyhow::Result<Vec<Row>> {
    let mut rows = Vec::new();
    for condition in all_conditions() {
        for drawn in DRAWINGS {
            rows.push(read_everywhere(drawn, condition, 7)?);
        }
    }
    Ok(rows)
}

/// The matrix's table and its summary, as `bench` prints them.
pub fn report(rows: &[Row]) -> String {
    render(rows) + &summary(rows)
}

/// The matrix as a table: one line per drawing and condition.
pub fn render(rows: &[Row]) -> String {
    let mut out = String::from(
        "Reading what people draw (every square, the robot's X and O beside it; seen / missed / unsure, asked again / \
         missed near the floors / beyond the sensor / taken for a mark elsewhere / read again \
         (doubted) / void (several marks twice))\n\
         room    spot mm pen                  noise % read ms drawing             seen missed unsure near \
         beyond false again void  mean read s\n",
    );
    for row in rows {
        let _ = writeln!(
            out,
            "{:<7} {:>7.0} {:<20} {:>7.0} {:>7} {:<18} {:>5} {:>6} {:>6} {:>4} {:>6} {:>5} {:>5} {:>4}  {:>11.2}",
            row.condition.room.name(),
            row.condition.spot_mm,
            row.condition.pen.name,
            row.condition.noise_percent,
            row.condition.sample_ms,
            drawing_name(row.drawn),
            row.seen,
            row.missed.len(),
            row.unsure.len(),
            row.missed_near_floor.len(),
            row.beyond.len(),
            row.false_marks.len(),
            row.read_again.len(),
            row.voided.len(),
            row.mean_read().as_secs_f64()
        );
    }
    out
}

/// The totals and the read times in each room, and the marks seen in the harsh room against
/// steady light.
pub fn summary(rows: &[Row]) -> String {
    let mut out = String::new();
    for room in [Room::Steady, Room::Harsh, Room::Other(RoomLight::default())] {
        let in_room: Vec<Row> = rows
            .iter()
            .filter(|r| r.condition.room.name() == room.name())
            .cloned()
            .collect();
        if !in_room.is_empty() {
            let _ = writeln!(out, "In the {} room:", room.name());
            out += &summary_of(&in_room, room);
        }
    }
    let seen = |room: Room| {
        rows.iter()
            .filter(|r| r.condition.room.name() == room.name())
            .map(|r| r.seen)
            .sum::<usize>()
    };
    let (steady, harsh) = (seen(Room::Steady), seen(Room::Harsh));
    if steady > 0 && harsh > 0 {
        let _ = writeln!(
            out,
            "Marks seen in the harsh room against steady light: {harsh} against {steady}, {:.1} % \
             fewer (goal: at most 1 %).",
            100.0 * (steady as f64 - harsh as f64) / steady as f64
        );
    }
    out
}

/// How a room's read times are held to their goals (see [`goals`]).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Held {
    /// Every row's mean read within the goal.
    InEveryRow,
    /// The mean over the rows within the goal.
    OnAverage,
}

/// The read-time goals in `room`, in seconds at a sensor answering every 10 ms or sooner
/// (twice that at 20 ms): a board holding a mark the sensor can see, and "no new mark" (a dot),
/// and how they are held. In steady light, 6 and 8 s in every condition; in a room whose
/// light changes, issue 31's 6 and 10 s on average (the wait for a person's shadow to lift is
/// part of every read there).
fn goals(room: Room) -> (f64, f64, Held) {
    match room {
        Room::Steady => (6.0, 8.0, Held::InEveryRow),
        _ => (6.0, 10.0, Held::OnAverage),
    }
}

/// The totals of `rows`, all read in `room`, and the mean read times against the room's
/// [`goals`].
fn summary_of(rows: &[Row], room: Room) -> String {
    let mut out = String::new();
    let total = |f: fn(&Row) -> usize| rows.iter().map(f).sum::<usize>();
    let _ = writeln!(
        out,
        "  {} marks seen, {} missed, {} not sure of (the robot says so and asks for it \
         darker), {} missed within a quarter of the floors, {} beyond the sensor, {} squares \
         taken for a mark wrongly; {} reads doubted and read again ({} of them a third \
         time: the light changed during the second read too), {} games void.",
        total(|r| r.seen),
        total(|r| r.missed.len()),
        total(|r| r.unsure.len()),
        total(|r| r.missed_near_floor.len()),
        total(|r| r.beyond.len()),
        total(|r| r.false_marks.len()),
        total(|r| r.read_again.len()),
        total(|r| r.read_thrice.len()),
        total(|r| r.voided.len())
    );
    let (mark_s, no_mark_s, held) = goals(room);
    for (label, marks, goal_s) in [
        ("a mark the sensor can see", true, mark_s),
        ("only a dot (\"I see no new mark\")", false, no_mark_s),
    ] {
        for fast in [true, false] {
            let chosen: Vec<&Row> = rows
                .iter()
                .filter(|r| (r.drawn != HandMark::Dot) == marks)
                .filter(|r| (r.condition.sample_ms <= 10) == fast)
                .filter(|r| !marks || r.beyond.len() < r.read_times.len())
                .collect();
            let slowest = chosen
                .iter()
                .max_by(|a, b| a.mean_read().cmp(&b.mean_read()));
            let worst = slowest.map_or(0.0, |r| r.mean_read().as_secs_f64());
            let mean = chosen
                .iter()
                .map(|r| r.mean_read().as_secs_f64())
                .sum::<f64>()
                / chosen.len().max(1) as f64;
            let goal = if fast { goal_s } else { 2.0 * goal_s };
            let (judged, how) = match held {
                Held::InEveryRow => (worst, "in every row"),
                Held::OnAverage => (mean, "on average"),
            };
            let _ = writeln!(
                out,
                "  Mean read of a board holding {label}, sensor every {}: {mean:.2} s over the \
                 rows, the slowest row {worst:.2} s (goal: at most {goal:.0} s {how}: {}).",
                if fast { "5 or 10 ms" } else { "20 ms" },
                if judged <= goal { "met" } else { "NOT met" }
            );
            if let Some(row) = slowest {
                let _ = writeln!(
                    out,
                    "    the slowest: {} by {} under a {:.0} mm spot, noise {:.0} %, every {} ms: {}",
                    drawing_name(row.drawn),
                    row.condition.pen.name,
                    row.condition.spot_mm,
                    row.condition.noise_percent,
                    row.condition.sample_ms,
                    row.describe_stages()
                );
            }
        }
    }
    out
}
