//! `ev3-tictactoe console`: the robot's game in a terminal, against the same engine and with the
//! same scoreboard, for trying the firmware without a robot; and, with `--players N`, the
//! DM536 game (seed 002) for two to six people at one board, the engine taking seats in a
//! two-player game if asked.

use super::{rng, BadInput, ConsoleArgs, Starter};
use crate::ai::{Difficulty, Engine};
use crate::game::{
    Board, Cell, Mark, MoveError, Rules, Seat, Status, Table, TableError, TableStatus,
};
use crate::scoreboard::store::ScoreFile;
use crate::scoreboard::GameResult;
use rand::Rng;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::SystemTime;

/// How one console session is played.
#[derive(Clone, Debug)]
pub struct ConsoleSettings {
    pub rules: Rules,
    pub difficulty: Difficulty,
    /// The human's mark: X moves first.
    pub human: Mark,
}

pub(super) fn run(args: &ConsoleArgs, score_file: &ScoreFile) -> anyhow::Result<ExitCode> {
    if let Some(players) = args.players {
        return run_table(args, usize::from(players));
    }
    let size = args.variant.size.map_or(3, usize::from);
    let k = args.variant.k.map_or(size, usize::from);
    let rules = Rules::new(size, k).map_err(|e| BadInput(e.to_string()))?;
    let mut rng = rng(args.seed);
    let settings = ConsoleSettings {
        rules,
        difficulty: args.difficulty.clone(),
        human: match args.first {
            Starter::Human => Mark::X,
            Starter::Robot => Mark::O,
            Starter::Coin => {
                if rng.random_bool(0.5) {
                    Mark::X
                } else {
                    Mark::O
                }
            }
        },
    };
    let stdin = io::stdin();
    let stdout = io::stdout();
    play_session(
        &mut stdin.lock(),
        &mut stdout.lock(),
        &settings,
        score_file,
        &mut rng,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// How a game for several people at one board is played.
#[derive(Clone, Debug)]
pub struct TableSettings {
    pub rules: Rules,
    pub seats: usize,
    /// The seats the engine plays (only in a two-player game).
    pub engine_seats: Vec<Seat>,
    pub difficulty: Difficulty,
}

fn run_table(args: &ConsoleArgs, seats: usize) -> anyhow::Result<ExitCode> {
    // Seed 002 plays three in a row, on a board with a square a side more than players.
    let size = args
        .variant
        .size
        .map_or(if seats > 2 { (seats + 1).max(3) } else { 3 }, usize::from);
    let k = args
        .variant
        .k
        .map_or(if seats > 2 { 3 } else { size }, usize::from);
    let rules = Rules::new(size, k).map_err(|e| BadInput(e.to_string()))?;
    Table::new(rules, seats).map_err(|e| BadInput(e.to_string()))?;
    let engine_seats = args.engine.clone().map(|seats| seats.0).unwrap_or_default();
    if !engine_seats.is_empty() && seats != 2 {
        return Err(BadInput(format!(
            "--engine takes seats in a game for two (--players 2), not {seats}: the robot's \
             search plays two-player games"
        ))
        .into());
    }
    let settings = TableSettings {
        rules,
        seats,
        engine_seats,
        difficulty: args.difficulty.clone(),
    };
    let stdin = io::stdin();
    let stdout = io::stdout();
    play_table_session(
        &mut stdin.lock(),
        &mut stdout.lock(),
        &settings,
        &mut rng(args.seed),
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Plays games for several people until they decline another.
pub fn play_table_session<R: Rng>(
    input: &mut impl BufRead,
    out: &mut impl Write,
    settings: &TableSettings,
    rng: &mut R,
) -> anyhow::Result<()> {
    let mut engine = Engine::new(settings.rules);
    loop {
        let Some(ending) = play_table_game(input, out, settings, &mut engine, rng)? else {
            writeln!(out, "Game abandoned.")?;
            return Ok(());
        };
        writeln!(out, "{ending}")?;
        if !wants_another(input, out)? {
            return Ok(());
        }
    }
}

/// One game at the table: the sentence that ends it, or `None` when it was abandoned.
fn play_table_game<R: Rng>(
    input: &mut impl BufRead,
    out: &mut impl Write,
    settings: &TableSettings,
    engine: &mut Engine,
    rng: &mut R,
) -> anyhow::Result<Option<String>> {
    let rules = settings.rules;
    let size = rules.size();
    let mut table = Table::new(rules, settings.seats)?;
    let seats: Vec<String> = (0..settings.seats)
        .map(|i| {
            let seat = Seat(i);
            if settings.engine_seats.contains(&seat) {
                format!("{seat} (the robot, {})", settings.difficulty.name)
            } else {
                seat.to_string()
            }
        })
        .collect();
    writeln!(
        out,
        "{rules}, {} players in this order: {}. Type a square's number, or q to give up.",
        settings.seats,
        seats.join(", ")
    )?;
    loop {
        let seat = match table.status() {
            TableStatus::Won { winner, line } => {
                write!(out, "{}", render_table(&table))?;
                let cells: Vec<String> = line.iter().map(|c| c.name(size)).collect();
                return Ok(Some(format!(
                    "{winner} wins with {} in a row: {}.",
                    line.len(),
                    cells.join(", ")
                )));
            }
            TableStatus::Draw => {
                write!(out, "{}", render_table(&table))?;
                return Ok(Some("A draw: every square is taken.".into()));
            }
            TableStatus::ToMove(seat) => seat,
        };
        if settings.engine_seats.contains(&seat) {
            let board = Board::from_bits(rules, table.marks(Seat(0)), table.marks(Seat(1)))?;
            let (choice, _) = engine.choose(&board, &settings.difficulty, rng)?;
            writeln!(out, "{seat} (the robot) plays {}.", choice.cell.name(size))?;
            table.play(choice.cell)?;
            continue;
        }
        let prompt = format!("{}{seat} to move: ", render_table(&table));
        let cell = match ask_for_square(input, out, &rules, &prompt)? {
            Typed::Square(cell) => cell,
            Typed::Again => continue,
            Typed::GiveUp => return Ok(None),
        };
        match table.play(cell) {
            Ok(()) => {}
            Err(TableError::Occupied { square, by }) => writeln!(
                out,
                "{} already holds {by}; try again.",
                capitalised(&square)
            )?,
            Err(e) => return Err(e.into()),
        }
    }
}

/// The table with empty squares numbered from 1 at the top left, each seat's squares by its
/// letter.
pub fn render_table(table: &Table) -> String {
    render_squares(table.rules(), |cell| {
        table.get(cell).map(|seat| seat.letter())
    })
}

/// Plays games until the human declines another, recording each on the scoreboard.
pub fn play_session<R: Rng>(
    input: &mut impl BufRead,
    out: &mut impl Write,
    settings: &ConsoleSettings,
    score_file: &ScoreFile,
    rng: &mut R,
) -> anyhow::Result<()> {
    let mut engine = Engine::new(settings.rules);
    // Read the scoreboard before playing, so a problem with it is known before the game.
    if let (_, Some(notice)) = score_file.load()? {
        writeln!(out, "Note: {notice}")?;
    }
    loop {
        let result = play_game(input, out, settings, &mut engine, rng)?;
        let (recorded, scores, notice) =
            score_file.record(&settings.difficulty, result, SystemTime::now())?;
        if let Some(notice) = notice {
            // Only if the file was removed or damaged during the game.
            writeln!(out, "Note: {notice}")?;
        }
        let level = scores.level(&settings.difficulty.name);
        match result {
            GameResult::HumanWon => writeln!(
                out,
                "You win! +{} points: your score is {}{}.",
                recorded.points,
                recorded.current_score,
                if recorded.new_high_score {
                    format!(", a new {} high score", settings.difficulty.name)
                } else {
                    format!(
                        " ({} high score {})",
                        settings.difficulty.name, level.high_score
                    )
                }
            )?,
            GameResult::HumanLost => writeln!(out, "I win. Your score goes back to 0.")?,
            GameResult::Draw => writeln!(out, "A draw. Your score goes back to 0.")?,
            GameResult::Abandoned => {
                writeln!(out, "Game abandoned. Your score goes back to 0.")?;
                return Ok(());
            }
        }
        if !wants_another(input, out)? {
            return Ok(());
        }
    }
}

fn play_game<R: Rng>(
    input: &mut impl BufRead,
    out: &mut impl Write,
    settings: &ConsoleSettings,
    engine: &mut Engine,
    rng: &mut R,
) -> anyhow::Result<GameResult> {
    let rules = settings.rules;
    let mut board = Board::empty(rules);
    writeln!(
        out,
        "{rules}, difficulty {}. You are {}{}. Type a square's number, or q to give up.",
        settings.difficulty.name,
        settings.human,
        if settings.human == Mark::X {
            " and move first"
        } else {
            "; I move first"
        }
    )?;
    loop {
        let mark = match board.status() {
            Status::Won { winner, line } => {
                write!(out, "{}", render(&board))?;
                let cells: Vec<String> = line.iter().map(|c| c.name(rules.size())).collect();
                writeln!(
                    out,
                    "{winner} has {} in a row: {}.",
                    line.len(),
                    cells.join(", ")
                )?;
                return Ok(if winner == settings.human {
                    GameResult::HumanWon
                } else {
                    GameResult::HumanLost
                });
            }
            Status::Draw => {
                write!(out, "{}", render(&board))?;
                return Ok(GameResult::Draw);
            }
            Status::ToMove(mark) => mark,
        };
        if mark == settings.human {
            let prompt = format!("{}Your move: ", render(&board));
            let cell = match ask_for_square(input, out, &rules, &prompt)? {
                Typed::Square(cell) => cell,
                Typed::Again => continue,
                Typed::GiveUp => return Ok(GameResult::Abandoned),
            };
            match board.play(cell) {
                Ok(next) => board = next,
                Err(MoveError::Occupied { by, .. }) => writeln!(
                    out,
                    "{} already holds an {by}; try again.",
                    capitalised(&cell.name(rules.size()))
                )?,
                Err(e) => return Err(e.into()),
            }
        } else {
            let (choice, _) = engine.choose(&board, &settings.difficulty, rng)?;
            writeln!(out, "I play {}.", choice.cell.name(rules.size()))?;
            board = board.play(choice.cell)?;
        }
    }
}

/// The board with empty squares numbered from 1 at the top left.
pub fn render(board: &Board) -> String {
    render_squares(board.rules(), |cell| board.get(cell).map(Mark::symbol))
}

/// A board of `rules` in text: each square its mark from `mark_at`, or its number if empty.
fn render_squares(rules: Rules, mark_at: impl Fn(Cell) -> Option<char>) -> String {
    let n = rules.size();
    let width = rules.cells().to_string().len();
    let mut text = String::new();
    for row in 0..n {
        if row > 0 {
            let bar = "-".repeat(width + 2);
            text.push_str(&vec![bar; n].join("+"));
            text.push('\n');
        }
        let cells: Vec<String> = (0..n)
            .map(|col| {
                let cell = Cell { row, col };
                let label = mark_at(cell)
                    .map_or_else(|| number(cell, &rules).to_string(), |m| m.to_string());
                format!(" {label:>width$} ")
            })
            .collect();
        text.push_str(&cells.join("|"));
        text.push('\n');
    }
    text
}

/// "Square 1 (top left)", to begin a sentence.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

fn number(cell: Cell, rules: &Rules) -> usize {
    cell.index(rules.size()) + 1
}

/// What a person typed when asked for a square.
enum Typed {
    Square(Cell),
    /// Not a square: said so, ask again.
    Again,
    /// `q`, or the end of the input.
    GiveUp,
}

/// Shows `prompt` and reads a square's number; a typo is answered on `out`.
fn ask_for_square(
    input: &mut impl BufRead,
    out: &mut impl Write,
    rules: &Rules,
    prompt: &str,
) -> anyhow::Result<Typed> {
    write!(out, "{prompt}")?;
    out.flush()?;
    let Some(line) = read_line(input)? else {
        writeln!(out)?;
        return Ok(Typed::GiveUp);
    };
    let line = line.trim();
    if line.eq_ignore_ascii_case("q") {
        return Ok(Typed::GiveUp);
    }
    match parse_square(line, rules) {
        Ok(cell) => Ok(Typed::Square(cell)),
        Err(e) => {
            writeln!(out, "{e}; try again.")?;
            Ok(Typed::Again)
        }
    }
}

/// Asks whether to play again: only `y` means yes.
fn wants_another(input: &mut impl BufRead, out: &mut impl Write) -> io::Result<bool> {
    write!(out, "Play again? [y/N] ")?;
    out.flush()?;
    Ok(matches!(read_line(input)?, Some(answer) if answer.trim().eq_ignore_ascii_case("y")))
}

fn parse_square(text: &str, rules: &Rules) -> Result<Cell, BadInput> {
    let last = rules.cells();
    match text.parse::<usize>() {
        Ok(n) if (1..=last).contains(&n) => Ok(Cell::from_index(n - 1, rules.size())),
        _ => Err(BadInput(format!(
            "{text:?} is not a square: type a number from 1 to {last}"
        ))),
    }
}

fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut raw = Vec::new();
    if input.read_until(b'\n', &mut raw)? == 0 {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(&raw).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn the_board_numbers_its_empty_squares_from_the_top_left() {
        let board = Board::parse("X../.O./...", None, None).unwrap();
        assert_eq!(
            render(&board),
            " X | 2 | 3 \n---+---+---\n 4 | O | 6 \n---+---+---\n 7 | 8 | 9 \n"
        );
    }

    #[test]
    fn typos_and_taken_squares_are_refused_and_the_finished_game_is_recorded() {
        let dir = tempfile::tempdir().unwrap();
        let file = ScoreFile::new(dir.path().join("scores.json"));
        let settings = ConsoleSettings {
            rules: Rules::classic(),
            difficulty: Difficulty::hard(),
            human: Mark::X,
        };
        // With this seed hard answers 1 with the centre; the human then blocks every threat.
        let mut input = io::Cursor::new("x\n1\n1\n4\n3\n8\n9\nn\n");
        let mut out = Vec::new();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        play_session(&mut input, &mut out, &settings, &file, &mut rng).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("\"x\" is not a square: type a number from 1 to 9; try again."));
        assert!(
            out.contains("Square 1 (top left) already holds an X; try again."),
            "{out}"
        );
        assert!(out.contains("A draw. Your score goes back to 0."), "{out}");
        let (scores, _) = file.load().unwrap();
        assert_eq!(scores.level("hard").draws, 1);
        assert_eq!(scores.current_score, 0);
    }
}
