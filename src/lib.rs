//! ev3-tictactoe: the firmware of a LEGO EV3 gantry robot that plays noughts and crosses with a
//! pen on paper, and the same program on a simulated robot.
//!
//! The crate is a pure core with thin edges: [`game`] (rules) and [`ai`] (search and
//! difficulty), which live in the `tictactoe-engine` crate of this workspace and are re-exported
//! here, and the scoring rules in [`scoreboard`] do no I/O; the command line in [`cli`] and the
//! scoreboard's file store are the edges.

pub use tictactoe_engine::{ai, game};

pub mod app;
pub mod bench;
pub mod cli;
pub mod config;
pub mod hw;
pub mod motion;
pub mod physical;
pub mod read_record;
pub mod scoreboard;
pub mod strict_json;
pub mod ui;
