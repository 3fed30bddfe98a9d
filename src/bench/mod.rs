//! The engine's speed goals, measured in one run against a port of the original robot's search.
//!
//! It lives in the library (not only under `benches/`) so that the same report runs on the brick
//! itself through `ev3-tictactoe bench`, and under `qemu-arm -cpu arm926` in CI. Each case is timed
//! with `easybench`, which fits a line through batches of growing size so that the timer's own
//! overhead drops out. The worst 3 x 3 position is found by timing every reachable position
//! briefly and then timing the slowest few properly.

pub mod reading;
pub mod robot;

use crate::ai::original::{best_robot_move, robot_view};
use crate::ai::{Choice, Difficulty, Engine, SearchLimits};
use crate::game::{open_positions, Board, Rules};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// How many of the slowest screened positions are timed properly.
const FINALISTS: usize = 3;

/// One measured case.
#[derive(Clone, Debug)]
pub struct Timing {
    pub case: String,
    pub board: String,
    pub seconds: f64,
}

/// Everything the benchmark measured.
#[derive(Clone, Debug)]
pub struct Report {
    pub empty_3x3: Timing,
    pub empty_3x3_original: Timing,
    pub worst_3x3: Timing,
    pub worst_3x3_original: Timing,
    pub first_4x4: Timing,
    pub first_4x4_no_symmetry: Timing,
    pub empty_3x3_symmetry: Timing,
    pub first_5x5: Timing,
}

/// Runs every case; takes some seconds (about one per timed case).
pub fn run() -> Report {
    let classic = Rules::classic();
    let positions = open_positions(classic);
    let empty = Board::empty(classic);

    let mut engine = Engine::new(classic);
    let empty_3x3 = time_hard_move(&mut engine, &empty, "3x3 hard move, empty board");
    let empty_3x3_original = time_original(&empty, "original minimax, empty board");

    let finalists = slowest(&positions, |board| screen(hard_move(&mut engine, board)));
    let worst_3x3 = slowest_timing(
        finalists
            .iter()
            .map(|board| time_hard_move(&mut engine, board, "3x3 hard move, worst position")),
    );
    let finalists = slowest(&positions, |board| {
        screen(|| best_robot_move(&mut robot_view(board)))
    });
    let worst_3x3_original = slowest_timing(
        finalists
            .iter()
            .map(|board| time_original(board, "original minimax, worst position")),
    );

    let mut symmetric = engine_with_table_symmetry(classic, true);
    let empty_3x3_symmetry =
        time_hard_move(&mut symmetric, &empty, "3x3, table shared by mirror images");

    let four = Rules::new(4, 4).expect("4x4 four in a row is a variant");
    let mut engine_4 = Engine::new(four);
    let first_4x4 = time_hard_move(
        &mut engine_4,
        &Board::empty(four),
        "4x4 k=4 hard move, empty board",
    );
    let mut plain_4 = engine_with_table_symmetry(four, false);
    let first_4x4_no_symmetry = time_hard_move(
        &mut plain_4,
        &Board::empty(four),
        "4x4 k=4, table not shared by mirror images",
    );

    let five = Rules::new(5, 4).expect("5x5 four in a row is a variant");
    let mut engine_5 = Engine::new(five);
    let first_5x5 = time_hard_move(
        &mut engine_5,
        &Board::empty(five),
        "5x5 k=4 hard move, empty board (budgeted)",
    );

    Report {
        empty_3x3,
        empty_3x3_original,
        worst_3x3,
        worst_3x3_original,
        first_4x4,
        first_4x4_no_symmetry,
        empty_3x3_symmetry,
        first_5x5,
    }
}

impl Report {
    /// How many times faster the engine is than the original on the empty board.
    pub fn empty_ratio(&self) -> f64 {
        self.empty_3x3_original.seconds / self.empty_3x3.seconds
    }

    /// The original's worst position against the engine's worst position.
    pub fn worst_ratio(&self) -> f64 {
        self.worst_3x3_original.seconds / self.worst_3x3.seconds
    }

    /// The report as text: each case, the ratios, and each goal with whether it was met.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let rows = [
            &self.empty_3x3,
            &self.empty_3x3_original,
            &self.worst_3x3,
            &self.worst_3x3_original,
            &self.empty_3x3_symmetry,
            &self.first_4x4,
            &self.first_4x4_no_symmetry,
            &self.first_5x5,
        ];
        for t in rows {
            let _ = writeln!(
                out,
                "{:<46} {:>12}   {}",
                t.case,
                format_seconds(t.seconds),
                t.board
            );
        }
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "ratio, empty 3x3 board: original / engine = {:.0}x",
            self.empty_ratio()
        );
        let _ = writeln!(
            out,
            "ratio, worst 3x3 position: original / engine = {:.0}x",
            self.worst_ratio()
        );
        let _ = writeln!(
            out,
            "ratio, 4x4 table shared by mirror images: {:.2}x faster; on 3x3: {:.2}x",
            self.first_4x4_no_symmetry.seconds / self.first_4x4.seconds,
            self.empty_3x3.seconds / self.empty_3x3_symmetry.seconds
        );
        let _ = writeln!(out);
        let goals = [
            (
                "worst 3x3 hard move at least 1000x faster than the original",
                self.worst_ratio() >= 1000.0,
            ),
            (
                "worst 3x3 hard move under 50 us",
                self.worst_3x3.seconds < 50e-6,
            ),
            (
                "4x4 k=4 first move under 100 ms",
                self.first_4x4.seconds < 0.1,
            ),
        ];
        for (goal, met) in goals {
            let _ = writeln!(out, "goal: {goal}: {}", if met { "met" } else { "NOT met" });
        }
        out
    }
}

/// An engine with the default limits but for whether mirror images share table entries.
fn engine_with_table_symmetry(rules: Rules, on: bool) -> Engine {
    Engine::with_limits(
        rules,
        SearchLimits {
            table_symmetry: on,
            ..SearchLimits::for_rules(rules)
        },
    )
}

fn time_hard_move(engine: &mut Engine, board: &Board, case: &str) -> Timing {
    Timing {
        case: case.to_string(),
        board: board.to_string(),
        seconds: measure(hard_move(engine, board)),
    }
}

/// A call that plays the hard move on `board`, for timing.
fn hard_move<'a>(engine: &'a mut Engine, board: &'a Board) -> impl FnMut() -> Choice + 'a {
    let hard = Difficulty::hard();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    move || {
        engine
            .choose(board, &hard, &mut rng)
            .expect("benchmark positions are open")
            .0
    }
}

fn time_original(board: &Board, case: &str) -> Timing {
    let cells = robot_view(board);
    Timing {
        case: case.to_string(),
        board: board.to_string(),
        seconds: measure(|| best_robot_move(&mut cells.clone())),
    }
}

/// The positions that `quick` finds slowest, slowest first.
fn slowest(positions: &[Board], mut quick: impl FnMut(&Board) -> f64) -> Vec<Board> {
    let mut screened: Vec<(f64, Board)> = positions.iter().map(|b| (quick(b), *b)).collect();
    screened.sort_by(|a, b| b.0.total_cmp(&a.0));
    screened
        .into_iter()
        .take(FINALISTS)
        .map(|(_, b)| b)
        .collect()
}

fn slowest_timing(timings: impl Iterator<Item = Timing>) -> Timing {
    timings
        .max_by(|a, b| a.seconds.total_cmp(&b.seconds))
        .expect("there are positions")
}

/// Seconds per call, by linear regression over growing batches (about one second of running).
fn measure<O>(mut f: impl FnMut() -> O) -> f64 {
    // easybench wants `Fn`; the engine needs `&mut`, so hand it through a cell.
    let f = std::cell::RefCell::new(&mut f);
    let stats = easybench::bench(|| (f.borrow_mut())());
    stats.ns_per_iter / 1e9
}

/// A quick estimate: the fastest of a few short batches, in seconds per call.
fn screen<O>(mut f: impl FnMut() -> O) -> f64 {
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        for _ in 0..4 {
            std::hint::black_box(f());
        }
        best = best.min(start.elapsed() / 4);
    }
    best.as_secs_f64()
}

fn format_seconds(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{seconds:.2} s")
    } else if seconds >= 1e-3 {
        format!("{:.2} ms", seconds * 1e3)
    } else {
        format!("{:.2} us", seconds * 1e6)
    }
}
