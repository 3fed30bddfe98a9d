//! What one screenful says, independent of where it is shown: the brick's LCD draws it
//! ([`super::lcd`]), the terminal prints it as plain lines, the simulator's terminal shows it in
//! a box.

use super::menu::Menu;
use crate::ai::Difficulty;
use crate::config::RobotConfig;
use crate::game::Board;
use crate::motion::calibrate::{Finding, Verdict};
use crate::scoreboard::Scoreboard;

/// What the setup page and the eye page show, beyond the menu itself.
#[derive(Debug, Clone, PartialEq)]
pub struct SetupFacts {
    /// The robot speaks.
    pub voice: bool,
    /// What the robot's eye measured, in lines for the LCD.
    pub eye: Vec<String>,
}

/// A screenful: a title, a few short paragraphs, and the board if there is a game.
#[derive(Debug, Clone, PartialEq)]
pub struct View {
    pub title: String,
    pub paragraphs: Vec<String>,
    pub board: Option<Board>,
}

impl View {
    pub fn new(title: impl Into<String>, paragraphs: &[&str]) -> View {
        View {
            title: title.into(),
            paragraphs: paragraphs.iter().map(|p| p.to_string()).collect(),
            board: None,
        }
    }

    pub fn with_board(mut self, board: &Board) -> View {
        self.board = Some(*board);
        self
    }

    /// The view as plain lines for a terminal: the title and paragraphs on one line, then the
    /// board, if any, as three rows of text.
    pub fn plain_lines(&self) -> Vec<String> {
        let mut lines = vec![format!("[{}] {}", self.title, self.paragraphs.join(" "))];
        if let Some(board) = &self.board {
            lines.extend(
                board_rows(board)
                    .into_iter()
                    .map(|row| format!("    {row}")),
            );
        }
        lines
    }

    /// One finding of a calibration from the buttons, judged against `config`: what was
    /// measured, what it means for the config, and the buttons that keep or leave it.
    pub fn of_finding(finding: &Finding, config: &RobotConfig) -> View {
        let (verdict, question) = match &finding.verdict {
            Verdict::Change(change) => (
                format!("Set {}.", change.describe(config)),
                "CENTRE keep, other: leave",
            ),
            Verdict::Agrees => ("The config agrees.".to_string(), "Any button: next"),
            Verdict::Untrusted(why) => (format!("Not kept: {why}."), "Any button: next"),
        };
        View::new(finding.topic, &[&finding.measured, &verdict, question])
    }

    /// The menu in one of its states. `scores` is shown on the main menu and the scores page,
    /// and named on the question whether to reset them. `levels` are the three on the left,
    /// centre and right buttons; `setup`, what the setup page and the eye page show.
    pub fn of_menu(
        menu: &Menu,
        levels: &[Difficulty; 3],
        scores: &Scoreboard,
        setup: &SetupFacts,
    ) -> View {
        match menu {
            Menu::Main => {
                let [left, centre, right] = levels;
                View {
                    title: "Noughts and crosses".into(),
                    paragraphs: vec![
                        format!("LEFT   {:<6} ({} pt)", left.name, left.win_points),
                        format!("CENTRE {:<6} ({} pt)", centre.name, centre.win_points),
                        format!("RIGHT  {:<6} ({} pt)", right.name, right.win_points),
                        "DOWN   scores, 2 players".into(),
                        "UP     exit".into(),
                        format!("Your score: {}", scores.current_score),
                    ],
                    board: None,
                }
            }
            Menu::ChooseFirst(difficulty) => View {
                title: format!("Level: {}", difficulty.name),
                paragraphs: vec![
                    "Who starts?".into(),
                    "LEFT   you".into(),
                    "RIGHT  the robot".into(),
                    "CENTRE toss a coin".into(),
                    "UP     back".into(),
                ],
                board: None,
            },
            Menu::Scores => View {
                title: "Scores".into(),
                paragraphs: score_lines(scores),
                board: None,
            },
            Menu::Settings => View {
                title: "Setup".into(),
                paragraphs: vec![
                    "CENTRE calibrate".into(),
                    format!("LEFT   voice {}", if setup.voice { "on" } else { "off" }),
                    "RIGHT  the robot's eye".into(),
                    "DOWN   reset the scores".into(),
                    "UP     back".into(),
                ],
                board: None,
            },
            Menu::ConfirmReset => View {
                title: "Reset the scores?".into(),
                paragraphs: reset_lines(scores),
                board: None,
            },
            Menu::Eye => View {
                title: "The robot's eye".into(),
                paragraphs: setup
                    .eye
                    .iter()
                    .cloned()
                    .chain(["Any button: back".to_string()])
                    .collect(),
                board: None,
            },
        }
    }
}

/// The scoreboard in lines short enough for the LCD (29 characters).
pub fn score_lines(scores: &Scoreboard) -> Vec<String> {
    let mut lines = vec![format!("Your score: {}", scores.current_score)];
    lines.push("level  high  W  D  L  A".into());
    for name in scores.level_names() {
        let level = scores.level(&name);
        lines.push(format!(
            "{:<6} {:>4} {:>2} {:>2} {:>2} {:>2}",
            name.chars().take(6).collect::<String>(),
            level.high_score,
            level.wins,
            level.draws,
            level.losses,
            level.abandoned
        ));
    }
    lines.push("W/D/L won/drawn/lost, A quit".into());
    if let Some(pair) = &scores.two_people {
        lines.push(format!(
            "2 players: X {} O {} D {} V {}",
            pair.x_wins, pair.o_wins, pair.draws, pair.void
        ));
    }
    // One line of at most 29 characters, so the page fits the LCD with the two-person record
    // (any other key goes back, as the main menu's DOWN came here).
    lines.push("CENTRE 2 players, DOWN setup".into());
    lines
}

/// What a reset of `scores` loses, and how to do it or not.
fn reset_lines(scores: &Scoreboard) -> Vec<String> {
    let games: u32 = scores
        .level_names()
        .iter()
        .map(|name| scores.level(name).games())
        .sum();
    let mut lines = vec![
        "This sets to zero:".into(),
        format!("your score {},", scores.current_score),
        "the high scores and".into(),
        format!("{games} games' results"),
    ];
    if let Some(pair) = &scores.two_people {
        lines.push(format!("{} games of 2 players", pair.games()));
    }
    lines.push("The old file is kept.".into());
    lines.push("CENTRE reset, other: keep".into());
    lines
}

/// The board as rows of text, squares numbered from 1 at the top left where they are empty, so
/// a person at a terminal can tell the simulator which square they mean. Every square is as
/// wide as the largest number, so the columns line up.
pub fn board_rows(board: &Board) -> Vec<String> {
    let size = board.rules().size();
    let width = (size * size).to_string().len();
    (0..size)
        .map(|row| {
            (0..size)
                .map(|col| {
                    let cell = crate::game::Cell { row, col };
                    let label = board.get(cell).map_or_else(
                        || (cell.index(size) + 1).to_string(),
                        |mark| mark.symbol().to_string(),
                    );
                    format!("{label:>width$}")
                })
                .collect::<Vec<_>>()
                .join(" | ")
        })
        .collect()
}
