//! The hardware layer: small traits for what the firmware needs from an EV3 brick (the
//! `tictactoe-hardware` crate of this workspace, re-exported here), with two implementations
//! behind them, [`ev3dev`] (the real brick, through `ev3dev-lang-rust`) and [`sim`] (a
//! simulated robot on virtual time). Helpers built from the traits' operations live with their
//! users in [`crate::motion`].

pub use tictactoe_hardware::*;

pub mod ev3dev;
pub mod sim;
pub mod voice;
