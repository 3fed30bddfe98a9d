//! Two reads agree on more than one new mark: the person says which is theirs.
//!
//! Why: one move makes one mark, but more than one new mark is not always more than one move.
//! A slip of the pen or a smudge in another square is ink the robot rightly sees, and a lamp's
//! dim corner can read as dark as a faint mark on two reads in a row (docs/figures.md, session
//! 35: one game in 48 of the lamp sweep). Only the person knows which square they drew in, so
//! the robot names what it saw and asks, rather than ending their game; the squares they say
//! are not theirs are paper from then on, as they read now. A person whose own square is not
//! among them says so, and the board is read again with all of them taken as paper (a faint
//! mark of theirs is then looked for among the rest, or they are asked to draw it darker). A
//! person who did draw more than one says so, and the game is void as before.

use crate::app::{Flow, Program};
use crate::game::{Board, Cell};
use crate::motion::gantry::BlankPaper;
use crate::motion::sensing::SquareReading;
use crate::ui::cues::Activity;
use crate::ui::menu::Key;
use crate::ui::speech;
use crate::ui::view::View;

/// What the person answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Answer {
    /// This square is theirs; the others are taken as paper.
    Mine(Cell),
    /// None of them: all are taken as paper, and the board is read again.
    NoneOfThem,
    /// They drew more than one (or could not be asked): the game is void.
    MoreThanOne,
}

impl Program<'_> {
    /// Asks which of `cells`, each read as a new mark on two reads (`readings`, the last), is
    /// the person's: left and right offer another, centre says this one, up says none of them,
    /// down says they drew more than one. The squares not theirs are taken as paper in `blank`.
    /// With no buttons to answer with (`play --difficulty` with none found), as if they drew
    /// more than one.
    pub(super) fn ask_which_is_yours(
        &mut self,
        board: &Board,
        cells: &[Cell],
        readings: &[SquareReading],
        blank: &mut BlankPaper,
    ) -> Flow<Answer> {
        if self.buttons.is_err() || cells.is_empty() {
            return Ok(Answer::MoreThanOne);
        }
        let size = board.rules().size();
        log::info!(
            "new marks at {}, seen on two reads: asking which is the person's",
            self.list(cells)
        );
        self.panel.activity(Activity::Menu);
        self.panel.say(&speech::which_is_yours(cells, size));
        let saw = format!("I see new marks at {}.", self.list(cells));
        let mut offered = 0;
        let chosen = loop {
            let cell = cells[offered];
            self.panel.show(
                View::new(
                    "Which is yours?",
                    &[
                        &saw,
                        &format!("Yours: {}?", self.gantry.square_name(cell)),
                        "Left, right: another. Centre: yes. Up: none is mine. Down: I drew more \
                         than one.",
                    ],
                )
                .with_board(board),
            );
            self.person.which_is_yours(cells, cell);
            match self.wait_for_key()? {
                Key::Centre => break Some(cell),
                Key::Up => break None,
                Key::Down => {
                    log::info!("the person drew more than one of them");
                    return Ok(Answer::MoreThanOne);
                }
                Key::Left => offered = (offered + cells.len() - 1) % cells.len(),
                Key::Right => offered = (offered + 1) % cells.len(),
            }
        };
        self.panel.activity(Activity::Busy);
        for &other in cells.iter().filter(|&&c| Some(c) != chosen) {
            let darker = readings
                .iter()
                .find(|r| r.cell == other)
                .and_then(SquareReading::darker_than_its_paper)
                .unwrap_or(0.0);
            blank.take_as_paper(other, darker);
            log::info!(
                "{} is not the person's mark, they say: its paper is taken as it reads now, {:.0} \
                 % darker than it was",
                self.gantry.square_name(other),
                darker * 100.0
            );
        }
        Ok(match chosen {
            Some(cell) => {
                log::info!("the person's move: {}", self.gantry.square_name(cell));
                Answer::Mine(cell)
            }
            None => {
                log::info!("none of them is the person's: reading the board again");
                Answer::NoneOfThem
            }
        })
    }
}
