//! Choosing the robot's move: an exact or budgeted search ([`Engine`]) and the difficulty levels
//! that decide how often its best move is played ([`Difficulty`]).
//!
//! The engine answers "which moves are best, and what is the game worth"; a difficulty turns that
//! answer into one move with a random number generator handed in by the caller, so a seed makes
//! a whole game reproducible and the search itself stays deterministic.

mod difficulty;
pub mod original;
mod solver;
mod table;

pub use difficulty::{Choice, Difficulty, DifficultyError};

use crate::game::{winning_lines, Board, Cell, CellBits, Mark, Rules, Status};
use solver::{RootResult, Solver, WIN};
use thiserror::Error;

/// The heuristic search's default budget, in node visits times winning lines.
const LINE_CHECKS_PER_MOVE: u64 = 4_000_000;

/// How much effort the engine may spend on one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// Positions with at most this many empty cells are first solved to the end of the game.
    /// By default 16: every 3 x 3 and 4 x 4 position.
    pub exact_max_empty: u32,
    /// Nodes the exact attempt may visit before it gives up and the heuristic search takes over.
    /// By default 4,000,000 (the empty 4 x 4 board, the hardest exact case, needs far fewer).
    pub exact_nodes: u64,
    /// Nodes the heuristic iterative deepening may visit. Each node checks every winning line,
    /// so by default the budget is four million line checks: 200,000 nodes at most, fewer on
    /// boards with many lines (13,888 on 10 x 10 three in a row), and a move takes about the
    /// same time on every size.
    pub heuristic_nodes: u64,
    /// Whether mirrored positions share transposition-table entries. By default on for boards
    /// of 4 x 4 and more, where it saves more search than the mirroring costs; off on 3 x 3
    /// (see the README's measured figures).
    pub table_symmetry: bool,
}

impl SearchLimits {
    /// The defaults for a variant.
    pub fn for_rules(rules: Rules) -> SearchLimits {
        let lines = winning_lines(rules).len() as u64;
        SearchLimits {
            exact_max_empty: 16,
            exact_nodes: 4_000_000,
            heuristic_nodes: (LINE_CHECKS_PER_MOVE / lines).min(200_000),
            table_symmetry: rules.size() >= 4,
        }
    }
}

/// What perfect play gives the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move wins, the game ending after `plies` more moves (its own included).
    Win {
        plies: u32,
    },
    Draw,
    /// The side to move loses, the game ending after `plies` more moves.
    Loss {
        plies: u32,
    },
}

impl Outcome {
    /// `"win"`, `"draw"` or `"loss"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win { .. } => "win",
            Outcome::Draw => "draw",
            Outcome::Loss { .. } => "loss",
        }
    }
}

/// The engine's verdict on a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Every move the search found best, top left first; never empty.
    pub best_moves: Vec<Cell>,
    /// The value for the side to move under perfect play, when the search was exact.
    pub outcome: Option<Outcome>,
    /// Plies the search looked ahead (the remaining game when exact).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
}

/// Why a position cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AnalyseError {
    #[error("the game is already over: {0}")]
    GameOver(String),
    #[error("this engine plays {engine}, but the board is {board}")]
    RulesMismatch { engine: Rules, board: Rules },
}

enum AnySolver {
    Narrow(Solver<u32>),
    Medium(Solver<u64>),
    Wide(Solver<u128>),
}

/// The search for one variant. Keep one per game: its tables are allocated once and reused.
///
/// ```
/// use tictactoe_engine::ai::{Engine, Outcome};
/// use tictactoe_engine::game::{Board, Cell, Rules};
/// let mut engine = Engine::new(Rules::classic());
/// // O must block X's row at the top right.
/// let board = Board::parse("XX./.O./...", None, None).unwrap();
/// let analysis = engine.analyse(&board).unwrap();
/// assert_eq!(analysis.best_moves, vec![Cell { row: 0, col: 2 }]);
/// assert_eq!(analysis.outcome, Some(Outcome::Draw));
/// ```
pub struct Engine {
    rules: Rules,
    limits: SearchLimits,
    solver: AnySolver,
}

impl Engine {
    /// An engine with the default limits for the variant.
    pub fn new(rules: Rules) -> Engine {
        Engine::with_limits(rules, SearchLimits::for_rules(rules))
    }

    /// An engine with chosen limits.
    pub fn with_limits(rules: Rules, limits: SearchLimits) -> Engine {
        let symmetric = limits.table_symmetry;
        let solver = match rules.cells() {
            0..=32 => AnySolver::Narrow(Solver::new(rules, symmetric)),
            33..=64 => AnySolver::Medium(Solver::new(rules, symmetric)),
            _ => AnySolver::Wide(Solver::new(rules, symmetric)),
        };
        Engine {
            rules,
            limits,
            solver,
        }
    }

    /// The variant this engine plays.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Finds the best moves for the side to move.
    pub fn analyse(&mut self, board: &Board) -> Result<Analysis, AnalyseError> {
        if board.rules() != self.rules {
            return Err(AnalyseError::RulesMismatch {
                engine: self.rules,
                board: board.rules(),
            });
        }
        let (x, o) = (board.bits(Mark::X), board.bits(Mark::O));
        let finished = match &self.solver {
            AnySolver::Narrow(s) => s.finished(narrow(x), narrow(o)),
            AnySolver::Medium(s) => s.finished(narrow(x), narrow(o)),
            AnySolver::Wide(s) => s.finished(x, o),
        };
        if finished {
            return Err(AnalyseError::GameOver(match board.status() {
                Status::Won { winner, .. } => format!("{winner} has won"),
                _ => "it is a draw".into(),
            }));
        }
        let to_move = board.side_to_move();
        let me = board.bits(to_move);
        let opp = board.bits(to_move.other());
        let result = match &mut self.solver {
            AnySolver::Narrow(s) => run(s, me, opp, &self.limits),
            AnySolver::Medium(s) => run(s, me, opp, &self.limits),
            AnySolver::Wide(s) => run(s, me, opp, &self.limits),
        };
        let empty = board.empty_cells().count() as u32;
        let size = self.rules.size();
        Ok(Analysis {
            best_moves: result
                .best
                .iter()
                .map(|&i| Cell::from_index(i, size))
                .collect(),
            outcome: result.exact.then(|| outcome(result.score, empty)),
            depth: result.depth,
            nodes: result.nodes,
        })
    }

    /// Analyses the position and picks a move as `difficulty` plays.
    pub fn choose<R: rand::Rng + ?Sized>(
        &mut self,
        board: &Board,
        difficulty: &Difficulty,
        rng: &mut R,
    ) -> Result<(Choice, Analysis), AnalyseError> {
        let analysis = self.analyse(board)?;
        let legal: Vec<Cell> = board.empty_cells().collect();
        let choice = difficulty.choose(&analysis.best_moves, &legal, rng);
        Ok((choice, analysis))
    }
}

fn run<B: CellBits>(
    solver: &mut Solver<B>,
    me: u128,
    opp: u128,
    limits: &SearchLimits,
) -> RootResult {
    solver.analyse(narrow(me), narrow(opp), limits)
}

fn narrow<B: CellBits>(cells: u128) -> B {
    B::from_u128(cells)
}

/// Reads an exact score (see [`solver`]) as an outcome, `empty` being the root's empty cells.
fn outcome(score: i32, empty: u32) -> Outcome {
    if score >= WIN {
        let empty_before_winning_move = (score - WIN) as u32;
        Outcome::Win {
            plies: empty - empty_before_winning_move + 1,
        }
    } else if score <= -WIN {
        let empty_after_losing = (-score - WIN - 1) as u32;
        Outcome::Loss {
            plies: empty - empty_after_losing,
        }
    } else {
        debug_assert_eq!(score, 0, "an exact score is a win, a loss or a draw");
        Outcome::Draw
    }
}
