//! The sheet under the pen: the grid drawn on fresh paper and its blank paper read, a sensor
//! too slow for its sweeps said, and between turns the grid found where it was drawn.

use super::Players;
use crate::app::{Flow, Program};
use crate::game::{Board, Cell};
use crate::motion::gantry::ruler::GridCheck;
use crate::motion::gantry::BlankPaper;
use crate::ui::cues::{Activity, Cue};
use crate::ui::view::View;

impl Program<'_> {
    /// Homes, draws the grid and reads each square's blank paper.
    pub(in crate::app) fn set_up_sheet(&mut self, players: &Players) -> Flow<BlankPaper> {
        self.panel.activity(Activity::Busy);
        let level = players.introduce();
        self.panel.show(View::new(
            "Homing",
            &[&level, "Finding the end stops. Hands off the robot."],
        ));
        let set_up_began = self.gantry.clock().now();
        let homing = self.gantry.home()?;
        log::info!("{homing}");
        let checking_began = self.gantry.clock().now();
        self.make_sure_the_sheet_is_fresh(&level)?;
        let checked = self.since(checking_began);
        self.panel.show(View::new(
            "Drawing the grid",
            &[&level, "Hands off the paper."],
        ));
        let began = self.gantry.clock().now();
        self.sheet_used = true;
        self.gantry.draw_grid()?;
        let drawn = self.since(began);
        log::info!("grid drawn in {drawn:.1} s");
        self.panel.show(View::new(
            "Reading the paper",
            &[&level, "Hands off the paper."],
        ));
        let reading_began = self.gantry.clock().now();
        let blank = self.gantry.read_blank_grid()?;
        // What a person waits through before the first move, phase by phase (the sheet's
        // check includes any time spent putting a fresh sheet in).
        log::info!(
            "the sheet is ready {:.1} s after the game began: homing {:.1} s, checking the \
             sheet {checked:.1} s, the grid {drawn:.1} s, reading the paper {:.1} s",
            self.since(set_up_began),
            homing.took.as_secs_f64(),
            self.since(reading_began)
        );
        log::info!(
            "blank paper per square (%): {:?}; the sensor's noise {:.1}%",
            blank.levels(),
            blank.squares[0].noise
        );
        for line in self.gantry.describe_eye() {
            log::info!("the eye: {line}");
        }
        self.note_the_eye(&blank);
        self.warn_if_the_sensor_is_slow();
        self.gantry.park()?;
        Ok(blank)
    }

    /// Reads the sheet where the grid will go and, while it holds marks, names them and asks
    /// for a fresh one: old marks would be read as new ones and void the game.
    fn make_sure_the_sheet_is_fresh(&mut self, level: &str) -> Flow<()> {
        loop {
            self.panel.show(View::new(
                "Checking the sheet",
                &[level, "Is it blank? Hands off the paper."],
            ));
            let used = self.gantry.used_sheet()?;
            if !used.is_used() {
                return Ok(());
            }
            let seen = match (used.marked.is_empty(), &used.grid) {
                (false, None) => format!("I see marks at {}.", self.list(&used.marked)),
                (false, Some(_)) => format!(
                    "I see marks at {}, and a grid already drawn.",
                    self.list(&used.marked)
                ),
                (true, _) => "I see a grid already drawn on it.".to_string(),
            };
            log::info!("the sheet is not blank: {seen} ({used:?})");
            self.gantry.park()?;
            self.ask_for_a_fresh_sheet(&seen)?;
        }
    }

    /// Asks for a fresh sheet (saying `why`), with a sound, and waits until the person says it
    /// is in: the touch sensor or the centre button.
    pub(in crate::app) fn ask_for_a_fresh_sheet(&mut self, why: &str) -> Flow<()> {
        self.panel.activity(Activity::YourMove);
        self.panel.cue(Cue::Invalid);
        self.panel.show(View::new(
            "Fresh sheet, please",
            &[
                why,
                "Put a blank sheet under the pen, then press the touch sensor (or the centre \
                 button).",
            ],
        ));
        self.person.new_sheet();
        self.wait_for_touch_or_centre()?;
        self.sheet_used = false;
        self.panel.activity(Activity::Busy);
        Ok(())
    }

    /// Says so, with figures, when the colour sensor answers too slowly for the configured sweep
    /// speed: the robot then reads slower, not worse, and the person should know why.
    fn warn_if_the_sensor_is_slow(&mut self) {
        let sensing = &self.gantry.config().sensing;
        let (asked_ms, most) = (sensing.sample_ms, sensing.sweep_speed_deg_per_s);
        let period = self.gantry.read_period();
        let speed = self.gantry.first_look_speed();
        let spread = self
            .gantry
            .between_reads()
            .map_or_else(String::new, |spread| format!(" ({spread})"));
        log::info!(
            "the colour sensor gives a fresh value every {:.1} ms{spread}; reading sweeps at \
             {speed} deg/s",
            period.as_secs_f64() * 1000.0
        );
        // Somewhat slower is the brick's ordinary state and costs little; half the speed or
        // less doubles the time every reading takes.
        if speed <= most / 2 {
            let line = format!(
                "The colour sensor answers only every {} ms (sensing.sample_ms asks for \
                 {asked_ms}), so I read the board at {speed} deg/s instead of {most}, to keep \
                 readings close enough to see thin lines. Is the brick busy?",
                period.as_millis()
            );
            log::warn!("{line}");
            self.panel.note(&line);
        }
    }

    /// Before the robot draws, and before a read that saw several new marks is believed: the grid's
    /// lines, crossed between squares `board` has empty and not `inked` (a person's new mark would
    /// pull the fit), must be where they were when it drew them. A grid nudged a little is
    /// followed; an axis that slipped is put right by re-homing, and the person is told; a sheet
    /// that moved further ends the game with how far and which way (see
    /// [`crate::motion::gantry::ruler`]). Says whether the squares are now anywhere else than
    /// before the check.
    pub(super) fn check_the_grid_is_where_it_was(
        &mut self,
        board: &Board,
        inked: &[Cell],
    ) -> Flow<bool> {
        let empty: Vec<Cell> = board.empty_cells().filter(|c| !inked.contains(c)).collect();
        let moved = match self.gantry.check_grid(&empty)? {
            GridCheck::InPlace { place, followed } => {
                log::info!(
                    "the grid is in place: {}",
                    self.gantry.describe_grid_place(&place)
                );
                followed
            }
            GridCheck::Rehomed { before, after } => {
                let line = format!(
                    "The grid had moved ({}), so an axis had slipped: I found my end stops \
                     again, and now it is {}.",
                    self.gantry.describe_grid_place(&before),
                    self.gantry.describe_grid_place(&after)
                );
                log::warn!("{line}");
                self.panel.note(&line);
                true
            }
        };
        self.gantry.park()?;
        Ok(moved)
    }
}
