//! A turn each: the person's mark read off the paper (looked at again, and asked about, when
//! the robot is not sure), and the robot's move drawn and its ink confirmed.

use super::which_is_yours::Answer;
use super::Unconfirmed;
use crate::ai::Difficulty;
use crate::app::{Flow, Program};
use crate::game::{Board, Cell, Mark};
use crate::motion::gantry::{BlankPaper, OwnMarkCheck};
use crate::motion::plan;
use crate::motion::sensing::{Doubt, NewMarks, HANDS_OFF};
use crate::read_record::folder::RecordFolder;
use crate::read_record::ReadRecord;
use crate::ui::cues::{Activity, Cue};
use crate::ui::speech;
use crate::ui::view::View;
use anyhow::Context;

/// A picture of a read, to be kept in its folder.
struct PendingPicture {
    record: ReadRecord,
    folder: RecordFolder,
    name: String,
}

impl PendingPicture {
    /// Keeps it; one that cannot be kept (a full card) is a warning in the log, and the game
    /// goes on.
    fn keep(self) {
        match self.folder.keep(&self.record, &self.name) {
            Ok(kept) => log::info!(
                "what the sensor saw on this read: {} (its readings: {})",
                kept.picture.display(),
                kept.readings.display()
            ),
            Err(error) => log::warn!(
                "could not keep the picture of this read in {}: {error}",
                self.folder.dir().display()
            ),
        }
    }
}

impl Program<'_> {
    /// Shows `asked`, waits for a person to draw `mark` and reads it: the square, or `Err`
    /// with the squares where several new marks were seen and the person said more than one
    /// was theirs (see `which_is_yours`; a square they say is not theirs is taken as paper in
    /// `blank`).
    pub(super) fn human_turn(
        &mut self,
        asked: View,
        human: Mark,
        blank: &mut BlankPaper,
        board: &Board,
        unconfirmed: &mut Vec<Unconfirmed>,
    ) -> Flow<Result<Cell, Vec<Cell>>> {
        let mut view = asked.with_board(board);
        // Set once the grid has been checked after a read that saw several new marks: the
        // board is then read again at once, with no new press.
        let mut grid_checked = false;
        // How many times the board has been read since the last press: a read the light may
        // have fooled (several new marks, or paper that changed unevenly while it was read) is
        // read again (see `Doubt::after`).
        let mut reads = 0;
        let mut read_again = false;
        // The picture of a read that saw no new mark, kept once its answer is on the screen:
        // drawing it takes the brick's CPU most of a second.
        let mut unkept: Option<PendingPicture> = None;
        let mut spoken = speech::YOUR_TURN.to_string();
        loop {
            if !read_again {
                // The paper as it is before the person comes: their shadow, once they press,
                // is told from it (see `Gantry::note_the_paper_at_rest`).
                self.gantry.note_the_paper_at_rest()?;
                self.panel.activity(Activity::YourMove);
                self.panel.show(view.clone());
                self.panel.say(&spoken);
                if let Some(picture) = unkept.take() {
                    picture.keep();
                }
                self.person.your_move(board, human);
                self.wait_for_touch()?;
                reads = 0;
            }
            read_again = false;
            self.panel.activity(Activity::Busy);
            self.panel
                .show(View::new("Reading the board", &["Hands off the paper."]).with_board(board));
            let empty: Vec<Cell> = board.empty_cells().collect();
            let began = self.gantry.clock().now();
            let own: Vec<(Cell, Mark)> = unconfirmed.iter().map(|u| (u.cell, u.mark)).collect();
            let (marks, readings, own_checks) = self.gantry.read_board(blank, &empty, &own)?;
            reads += 1;
            for r in &readings {
                log::info!("read {}: {}", self.gantry.square_name(r.cell), r.describe());
            }
            let saw = match &marks {
                NewMarks::None => "no new mark".to_string(),
                NewMarks::One(cell) => format!("a new mark at {}", self.gantry.square_name(*cell)),
                NewMarks::Several(cells) => format!("new marks at {}", self.list(cells)),
            };
            log::info!("board read in {:.1} s: {saw}", self.since(began));
            let light = self.gantry.paper_light();
            if let Some(change) = light.describe(board.rules().size()) {
                log::info!("{change}");
            }
            unkept = self.read_picture(board, &marks, &saw, &readings);
            self.confirm_own_marks(blank, &own_checks)?;
            unconfirmed.clear();
            // Not parked yet: a mark believed is followed by the robot's own move or the game's
            // end, which move the carriage on from here (two people: `turns` parks it before
            // the next one's turn); only a read after which the person acts again parks it.
            // One move makes one mark, and light that changes unevenly while the paper is read
            // (a shadow lifting, a corner settling) can pass for ink: such a read is not
            // believed until a second one, once hands have left the board, agrees; and a
            // second one during which the light changed again is read a third time.
            if let Some(doubt) = Doubt::after(reads, &marks, &light) {
                let shown = match doubt {
                    Doubt::Several(_) => "More than one new mark, or the light changed.",
                    Doubt::Unsteady(_) | Doubt::FewSquares(_) => "The light changed while I read.",
                };
                let why = match doubt {
                    Doubt::Several(_) => format!("{saw}, more than one move makes"),
                    Doubt::Unsteady(scatter) => format!(
                        "the paper's light changed unevenly while I read it (by up to {:.0} % \
                         between squares)",
                        scatter * 100.0
                    ),
                    Doubt::FewSquares(change) => format!(
                        "no new mark, but the light changed by {:.0} % and too few empty \
                         squares measured it to show whether it changed while I read (a \
                         shadow lifting would hide a mark)",
                        change.abs() * 100.0
                    ),
                };
                log::info!(
                    "{why}: the light or the paper may have changed, so I wait for hands to \
                     leave the board and read it again"
                );
                if let Some(picture) = unkept.take() {
                    picture.keep();
                }
                self.gantry.park()?;
                self.panel.show(
                    View::new(
                        "Reading again",
                        &[shown, "Hands off the paper: I read it again."],
                    )
                    .with_board(board),
                );
                self.pause(HANDS_OFF)?;
                read_again = true;
                continue;
            }
            match marks {
                NewMarks::One(cell) => {
                    self.panel.cue(Cue::MoveSeen);
                    if let Some(picture) = unkept.take() {
                        picture.keep();
                    }
                    return Ok(Ok(cell));
                }
                NewMarks::None => {
                    self.gantry.park()?;
                    self.panel.cue(Cue::Invalid);
                    // A faint dip on one line only, after the slow look: the robot is unsure,
                    // and says where, rather than that it sees nothing.
                    let unsure: Vec<Cell> = readings
                        .iter()
                        .filter(|r| r.unsure())
                        .map(|r| r.cell)
                        .collect();
                    let size = board.rules().size();
                    spoken = if unsure.is_empty() {
                        speech::NO_NEW_MARK.to_string()
                    } else {
                        speech::not_sure(&unsure, size)
                    };
                    view = if unsure.is_empty() {
                        View::new(
                            "No new mark",
                            &["I see no new mark: fill your square darker and press again."],
                        )
                    } else {
                        log::info!(
                            "I may see a faint mark at {}, too faint to be sure: asking for it \
                             darker",
                            self.list(&unsure)
                        );
                        View::new(
                            "Not sure",
                            &[&format!(
                                "A faint mark at {}? Draw it darker and press again.",
                                self.list(&unsure)
                            )],
                        )
                    }
                    .with_board(board);
                }
                NewMarks::Several(cells) => {
                    // Ink in several squares at once may be the sheet's own grid and marks
                    // moved under the robot (a sheet knocked, a pinion that skipped): the grid,
                    // crossed clear of those squares, tells, and a grid that has moved is
                    // followed or named before anyone's game is voided.
                    if !grid_checked {
                        grid_checked = true;
                        log::info!(
                            "new marks at {}: checking the grid before believing it",
                            self.list(&cells)
                        );
                        if let Some(picture) = unkept.take() {
                            picture.keep();
                        }
                        let inked: Vec<Cell> =
                            cells.iter().chain(&blank.stray_ink).copied().collect();
                        if self.check_the_grid_is_where_it_was(board, &inked)? {
                            read_again = true;
                            continue;
                        }
                    }
                    if let Some(picture) = unkept.take() {
                        picture.keep();
                    }
                    // Seen twice, and no grid moved: the person knows which is theirs.
                    match self.ask_which_is_yours(board, &cells, &readings, blank)? {
                        Answer::Mine(cell) => {
                            self.panel.cue(Cue::MoveSeen);
                            return Ok(Ok(cell));
                        }
                        Answer::NoneOfThem => {
                            read_again = true;
                            continue;
                        }
                        Answer::MoreThanOne => {}
                    }
                    self.panel.cue(Cue::Invalid);
                    log::warn!(
                        "new marks at {}, seen on two reads: the game is void",
                        self.list(&cells)
                    );
                    return Ok(Err(cells));
                }
            }
        }
    }

    /// The picture of the read just made, which `saw` what it says, and its readings (see
    /// [`crate::read_record`]), to keep: every read's when the person asked for them, and otherwise
    /// a read's that saw no new mark or several, so a person told so can look at what the sensor
    /// saw.
    fn read_picture(
        &self,
        board: &Board,
        marks: &NewMarks,
        saw: &str,
        readings: &[crate::motion::sensing::SquareReading],
    ) -> Option<PendingPicture> {
        let reads = &self.settings.reads;
        let folder = match (&reads.every, &reads.doubtful, marks) {
            (Some(every), _, _) => every,
            (None, Some(beside_log), NewMarks::None | NewMarks::Several(_)) => beside_log,
            _ => return None,
        };
        let turn = board.count(Mark::X) + board.count(Mark::O) + 1;
        Some(PendingPicture {
            record: ReadRecord::new(
                format!("turn {turn}: {saw}"),
                &self.gantry.config().board,
                self.gantry.last_read_samples(),
                readings,
            ),
            folder: RecordFolder::new(folder),
            name: format!("turn{turn}"),
        })
    }

    /// Looks for the robot's own marks in what the reading saw. One the look did not see gets
    /// a closer look, fitted to its shape; one that look does not see either may not have
    /// inked (a pen skipping or running dry), so it is drawn once more and looked at closely
    /// again. One that still does not show is a doubt, not a failure: the grid's lines showed
    /// that the pen inks, and the robot knows where its marks are, so it says what it measured
    /// (the screen, the terminal and the log) and the game goes on.
    fn confirm_own_marks(&mut self, blank: &BlankPaper, checks: &[OwnMarkCheck]) -> Flow<()> {
        let geometry = self.gantry.config().board.clone();
        for check in checks {
            let (mark, name) = (check.mark, self.gantry.square_name(check.cell));
            let measured = |fit: Option<crate::motion::own_ink::OwnInkFit>| {
                fit.map_or_else(
                    || "no reading where its ink should be".into(),
                    |f| f.describe(),
                )
            };
            if check.seen {
                log::info!(
                    "my {mark} at {name} is on the paper: {}",
                    measured(check.fit)
                );
                continue;
            }
            log::info!(
                "my {mark} at {name} was not seen on the first look ({}): looking closer",
                measured(check.fit)
            );
            let closer = self.gantry.look_closely_at_own(blank, check.cell, mark)?;
            if closer.is_some_and(|f| f.seen()) {
                log::info!("my {mark} at {name} is on the paper: {}", measured(closer));
                continue;
            }
            log::warn!(
                "my {mark} at {name} was not seen on a closer look either ({}): drawing it again",
                measured(closer)
            );
            self.gantry.draw(&plan::mark(&geometry, check.cell, mark))?;
            let after = self.gantry.look_closely_at_own(blank, check.cell, mark)?;
            if after.is_some_and(|f| f.seen()) {
                log::info!(
                    "my {mark} at {name} is on the paper now: {}",
                    measured(after)
                );
                continue;
            }
            let line = format!(
                "I cannot see my {mark} at {name} although I drew it twice ({}). The grid showed \
                 that my pen inks, so I play on: I know where my marks are. If the {mark} is not \
                 on the paper, draw it in for me.",
                measured(after)
            );
            log::warn!("{line}");
            self.panel.note(&line);
            self.panel.cue(Cue::Invalid);
            self.panel.show(View::new(
                format!("My {mark}?"),
                &[&format!(
                    "I cannot see my {mark} at {name}. I play on; if it is missing, draw it in \
                     for me."
                )],
            ));
            self.pause(self.settings.result_shown_for)?;
        }
        Ok(())
    }

    pub(super) fn robot_turn(
        &mut self,
        difficulty: &Difficulty,
        mark: Mark,
        board: &Board,
        blank: &BlankPaper,
    ) -> Flow<Cell> {
        self.panel.activity(Activity::Busy);
        self.panel
            .show(View::new("Thinking", &["Hands off the paper."]).with_board(board));
        let (choice, analysis) = self
            .engine
            .choose(board, difficulty, &mut self.rng)
            .context("choosing the robot's move")?;
        let cell = choice.cell;
        log::info!(
            "chose {} ({}; best moves {:?}, outcome {:?}, {} nodes)",
            self.gantry.square_name(cell),
            if choice.played_best {
                "a best move"
            } else {
                "a random move"
            },
            analysis.best_moves,
            analysis.outcome,
            analysis.nodes
        );
        let after = board.play(cell).context("the robot's move")?;
        self.panel.show(
            View::new(
                "My move",
                &[
                    &format!("I play {}.", self.gantry.square_name(cell)),
                    "Hands off the paper.",
                ],
            )
            .with_board(&after),
        );
        self.panel.say(&speech::my_move(cell, board.rules().size()));
        self.check_the_grid_is_where_it_was(board, &blank.stray_ink)?;
        let geometry = self.gantry.config().board.clone();
        let began = self.gantry.clock().now();
        self.gantry.draw(&plan::mark(&geometry, cell, mark))?;
        self.gantry.park()?;
        log::info!(
            "drew {mark} at {} in {:.1} s",
            self.gantry.square_name(cell),
            self.since(began)
        );
        Ok(cell)
    }
}
