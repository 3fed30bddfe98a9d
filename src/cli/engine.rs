//! `ev3-tictactoe engine`: the robot's move for a position, as one line of JSON.
//!
//! This output is a contract other tools rely on: field names and meanings do not change.
//! `{"board": "X.O/.X./..O", "to_move": "O", "move": {"row": 2, "col": 0}, "outcome": "loss",
//! "nodes": 9}` where `outcome` is the result for the side to move under perfect play (`null` when
//! the search could not be exact), and a bad line gets `{"board": "...", "error": "..."}`.

use super::{rng, BadInput, EngineArgs};
use crate::ai::{Difficulty, Engine};
use crate::game::{Board, Cell, Mark, Status};
use rand::Rng;
use serde::Serialize;
use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

/// What every answer is computed with.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Every board must have this side, when given.
    pub size: Option<usize>,
    /// Marks in a row that win; the board side when not given.
    pub in_a_row: Option<usize>,
    pub difficulty: Difficulty,
}

/// A successful answer.
#[derive(Debug, Serialize, PartialEq)]
pub struct Answer {
    pub board: String,
    pub to_move: Mark,
    #[serde(rename = "move")]
    pub chosen: Cell,
    pub outcome: Option<&'static str>,
    pub nodes: u64,
}

#[derive(Serialize)]
struct ErrorAnswer<'a> {
    board: &'a str,
    error: String,
}

/// Answers one position, or says in words what is wrong with it. `engines` keeps one engine per
/// variant so that a batch reuses their tables.
pub fn answer<R: Rng>(
    text: &str,
    options: &EngineOptions,
    engines: &mut HashMap<crate::game::Rules, Engine>,
    rng: &mut R,
) -> Result<Answer, String> {
    let board = Board::parse(text, options.size, options.in_a_row)
        .map_err(|e| format!("bad board: {e}"))?;
    match board.status() {
        Status::ToMove(_) => {}
        Status::Won { winner, line } => {
            let (first, last) = (line[0], line[line.len() - 1]);
            return Err(format!(
                "the game is already over: {winner} has {} in a row from {first} to {last}",
                line.len()
            ));
        }
        Status::Draw => return Err("the game is already over: the board is full (a draw)".into()),
    }
    let engine = engines
        .entry(board.rules())
        .or_insert_with(|| Engine::new(board.rules()));
    let (choice, analysis) = engine
        .choose(&board, &options.difficulty, rng)
        .map_err(|e| e.to_string())?;
    Ok(Answer {
        board: board.to_string(),
        to_move: board.side_to_move(),
        chosen: choice.cell,
        outcome: analysis.outcome.map(|o| o.as_str()),
        nodes: analysis.nodes,
    })
}

pub(super) fn run(args: &EngineArgs) -> anyhow::Result<ExitCode> {
    let options = EngineOptions {
        size: args.variant.size.map(usize::from),
        in_a_row: args.variant.k.map(usize::from),
        difficulty: args.difficulty.clone(),
    };
    let mut rng = rng(args.seed);
    let mut engines = HashMap::new();
    let stdout = io::stdout();
    let mut out = stdout.lock();

    if let Some(board) = &args.board {
        let answer = answer(board, &options, &mut engines, &mut rng).map_err(BadInput)?;
        write_line(&mut out, &answer)?;
        return Ok(ExitCode::SUCCESS);
    }

    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut raw = Vec::new();
    loop {
        raw.clear();
        if input.read_until(b'\n', &mut raw)? == 0 {
            break;
        }
        // Invalid UTF-8 becomes U+FFFD, which the board parser then names as a bad character.
        let line = String::from_utf8_lossy(&raw);
        let line = line.trim_end_matches(['\n', '\r']);
        let written = match answer(line, &options, &mut engines, &mut rng) {
            Ok(answer) => write_line(&mut out, &answer),
            Err(error) => write_line(
                &mut out,
                &ErrorAnswer {
                    board: line.trim(),
                    error,
                },
            ),
        };
        if let Err(e) = written {
            if e.kind() == io::ErrorKind::BrokenPipe {
                // The reader has gone (`| head`): nothing left to answer for.
                break;
            }
            return Err(e.into());
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn write_line(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::other)?;
    out.write_all(b"\n")?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn ask(text: &str, size: Option<usize>) -> Result<Answer, String> {
        let options = EngineOptions {
            size,
            in_a_row: None,
            difficulty: Difficulty::hard(),
        };
        answer(
            text,
            &options,
            &mut HashMap::new(),
            &mut ChaCha8Rng::seed_from_u64(0),
        )
    }

    #[test]
    fn a_forced_block_is_answered_with_its_outcome() {
        let a = ask("XX./.O./...", None).unwrap();
        assert_eq!(a.to_move, Mark::O);
        assert_eq!(a.chosen, Cell { row: 0, col: 2 });
        assert_eq!(a.outcome, Some("draw"));
    }

    #[test]
    fn finished_games_and_wrong_sizes_are_refused_with_the_reason() {
        assert_eq!(
            ask("XXX/OO./...", None).unwrap_err(),
            "the game is already over: X has 3 in a row from row 0, column 0 to row 0, column 2"
        );
        assert_eq!(
            ask("XOX/XOO/OXX", None).unwrap_err(),
            "the game is already over: the board is full (a draw)"
        );
        assert_eq!(
            ask(".../.../...", Some(4)).unwrap_err(),
            "bad board: the board is 3x3 but the size asked for is 4x4"
        );
    }
}
