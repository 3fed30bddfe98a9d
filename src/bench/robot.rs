//! The robot's speed on the simulator, in simulated seconds: our way of moving against the
//! original robot's, on the same simulated robot with the same motor speeds.
//!
//! Both play the same scripted game, a draw with the human first: the human's marks are put
//! on the virtual paper, each side reads them its own way (and must read them right, or the
//! comparison is void), and draws its own mark. The time the human takes and the time either
//! side spends choosing its move are left out: this measures motion only. Virtual time makes
//! the figures exact and the same on every machine.

use crate::config::RobotConfig;
use crate::game::{Cell, Mark};
use crate::hw::sim::human::{self, HandMark};
use crate::hw::sim::{SimRobot, SimSettings};
use crate::motion::original::OriginalRobot;
use crate::motion::sensing::NewMarks;
use crate::motion::{plan, Gantry};
use anyhow::{bail, Context};
use std::time::Duration;

/// The scripted game: squares by row-major index, the human (X) first. It ends in a draw.
pub const SCRIPT: [usize; 9] = [4, 0, 2, 6, 3, 5, 7, 1, 8];

/// The original robot took a reading below this to be a mark.
const ORIGINAL_INK_BELOW: u8 = 25;

/// Simulated times of one way of moving.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timings {
    /// Homing, drawing the grid (and, for us, the blank-paper readings).
    pub setup: Duration,
    /// The first turn: read the board after the human's first mark, then draw the robot's.
    pub first_turn: Duration,
    /// The whole game, setup to the last reading.
    pub game: Duration,
}

/// Both ways, measured in one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RobotReport {
    pub ours: Timings,
    pub original: Timings,
}

impl RobotReport {
    pub fn turn_ratio(&self) -> f64 {
        self.original.first_turn.as_secs_f64() / self.ours.first_turn.as_secs_f64()
    }

    pub fn game_ratio(&self) -> f64 {
        self.original.game.as_secs_f64() / self.ours.game.as_secs_f64()
    }

    pub fn render(&self) -> String {
        let s = |d: Duration| format!("{:7.1} s", d.as_secs_f64());
        let goal = if self.game_ratio() >= 4.0 {
            "met"
        } else {
            "NOT met"
        };
        format!(
            "Robot motion, simulated seconds (same simulator, same motor speeds; human and thinking time left out)\n\
             {:<44} {:>9} {:>9} {:>7}\n\
             {:<44} {} {} {:6.1}x\n\
             {:<44} {} {} {:6.1}x\n\
             {:<44} {} {} {:6.1}x\n\
             Goal: a whole game at least 4x faster than the original's way: {goal}.\n",
            "",
            "ours",
            "original",
            "ratio",
            "home and draw the grid",
            s(self.ours.setup),
            s(self.original.setup),
            self.original.setup.as_secs_f64() / self.ours.setup.as_secs_f64(),
            "one turn (read the board, draw its mark)",
            s(self.ours.first_turn),
            s(self.original.first_turn),
            self.turn_ratio(),
            "whole game (9 moves, a draw)",
            s(self.ours.game),
            s(self.original.game),
            self.game_ratio(),
        )
    }
}

fn cell(index: usize) -> Cell {
    Cell::from_index(index, 3)
}

/// Plays the scripted game both ways.
pub fn run() -> anyhow::Result<RobotReport> {
    let config = RobotConfig::default();
    Ok(RobotReport {
        ours: ours(&config).context("our robot")?,
        original: original(&config).context("the original's way of moving")?,
    })
}

fn ours(config: &RobotConfig) -> anyhow::Result<Timings> {
    let sim = SimRobot::new(config, &SimSettings::default());
    let mut gantry = Gantry::new(sim.robot(), config.clone());
    let now = || sim.world().now();
    let start = now();
    gantry.home()?;
    gantry.draw(&plan::grid(&config.board))?;
    let blank = gantry.take_blank_readings()?;
    let setup = now() - start;
    let mut empty: Vec<Cell> = (0..9).map(cell).collect();
    let mut first_turn = Duration::ZERO;
    for (ply, &index) in SCRIPT.iter().enumerate() {
        let square = cell(index);
        let turn_start = now();
        if ply % 2 == 0 {
            human::draw(
                sim.world().paper_mut(),
                &config.board,
                square,
                HandMark::Cross,
            );
            let (seen, _) = gantry.read_new_marks(&blank, &empty)?;
            if seen != NewMarks::One(square) {
                bail!("read {seen:?} after the human marked {square:?}");
            }
        } else {
            gantry.draw(&plan::mark(&config.board, square, Mark::O))?;
        }
        empty.retain(|&c| c != square);
        if ply < 2 {
            first_turn += now() - turn_start;
        }
    }
    gantry.park()?;
    Ok(Timings {
        setup,
        first_turn,
        game: now() - start,
    })
}

fn original(config: &RobotConfig) -> anyhow::Result<Timings> {
    let sim = SimRobot::new(config, &SimSettings::default());
    let mut robot = sim.robot();
    let mut original = OriginalRobot::new(&mut robot, config);
    let now = || sim.world().now();
    let start = now();
    original.draw_board()?;
    let setup = now() - start;
    let mut empty: Vec<Cell> = (0..9).map(cell).collect();
    let mut first_turn = Duration::ZERO;
    for (ply, &index) in SCRIPT.iter().enumerate() {
        let square = cell(index);
        let turn_start = now();
        if ply % 2 == 0 {
            // The original asked for the square to be filled in; one centre reading sees that.
            human::draw(
                sim.world().paper_mut(),
                &config.board,
                square,
                HandMark::Fill,
            );
            let readings = original.read_board(&empty)?;
            let seen: Vec<Cell> = readings
                .iter()
                .filter(|(_, percent)| *percent < ORIGINAL_INK_BELOW)
                .map(|(c, _)| *c)
                .collect();
            if seen != [square] {
                bail!("read {seen:?} after the human marked {square:?}");
            }
        } else {
            original.draw_mark(square)?;
        }
        empty.retain(|&c| c != square);
        if ply < 2 {
            first_turn += now() - turn_start;
        }
    }
    original.track_reset()?;
    Ok(Timings {
        setup,
        first_turn,
        game: now() - start,
    })
}
