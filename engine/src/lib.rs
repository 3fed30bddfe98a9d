//! The game of the ev3-tictactoe robot, apart from any robot: the rules of noughts and crosses
//! on boards from 3 x 3 to 10 x 10 with k in a row ([`game`]), and the search that picks a move
//! at a difficulty level ([`ai`]). No I/O, no hardware, no clock: another program (a screen, a
//! referee, a bot) can ask it for a move, the game's status and the winning line. [`game::Table`]
//! keeps a game for two to six people at one board, each with a letter of their own.
//!
//! ```
//! use rand::SeedableRng;
//! use tictactoe_engine::ai::{Difficulty, Engine};
//! use tictactoe_engine::game::{Board, Cell, Mark, Rules, Status};
//!
//! let rules = Rules::classic();
//! let mut engine = Engine::new(rules);
//! let mut rng = rand::rngs::StdRng::seed_from_u64(7);
//! // X has two in the top row; O to move must block.
//! let board = Board::parse("XX./.O./...", None, None).unwrap();
//! assert_eq!(board.status(), Status::ToMove(Mark::O));
//! let (choice, _) = engine.choose(&board, &Difficulty::hard(), &mut rng).unwrap();
//! assert_eq!(choice.cell, Cell { row: 0, col: 2 });
//!
//! // A finished game names its winner and the line to strike through.
//! let won = Board::parse("XXX/OO./...", None, None).unwrap();
//! assert_eq!(
//!     won.status(),
//!     Status::Won {
//!         winner: Mark::X,
//!         line: vec![Cell { row: 0, col: 0 }, Cell { row: 0, col: 1 }, Cell { row: 0, col: 2 }],
//!     }
//! );
//! ```

pub mod ai;
pub mod game;
