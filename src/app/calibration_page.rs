//! Calibration from the brick's buttons: `calibrate`'s whole procedure guided on the LCD, each
//! finding shown with a press to keep its change, and robot.json written atomically with the
//! old one kept as robot.json.1. A press of any button stops it as a signal would stop a game:
//! the motors off and the pen up, robot.json untouched, and the setup page back.

use super::{Flow, Program};
use crate::motion::calibrate::{self, Calibration, Change, Step, Verdict};
use crate::motion::MotionError;
use crate::ui::cues::{Activity, Cue};
use crate::ui::menu::Key;
use crate::ui::view::View;

impl Program<'_> {
    /// From the setup page: says what calibration does and, if the person presses centre,
    /// does it.
    pub(super) fn calibrate_from_menu(&mut self) -> Flow<()> {
        self.calibrate_if_centre(View::new(
            "Calibrate",
            &[
                "I find the end stops, measure both axes and the pen, draw a grid, read it, and \
                 ask for one X.",
                "Put a blank sheet in.",
                "CENTRE start, other: back",
            ],
        ))
    }

    /// At a start from the menu without robot.json: says so, and offers to measure the robot
    /// before the first game; any other button plays on the built-in defaults.
    pub(super) fn offer_calibration_at_first_start(&mut self) -> Flow<()> {
        if !self.settings.without_robot_config {
            return Ok(());
        }
        log::warn!("no robot.json: offering to measure the robot");
        self.calibrate_if_centre(View::new(
            "No robot.json",
            &[
                "My built-in defaults may not fit this robot.",
                "CENTRE measure it now (put a blank sheet in first)",
                "Other: play on the defaults",
            ],
        ))
    }

    /// Shows `question` and calibrates if the answer is the centre button.
    fn calibrate_if_centre(&mut self, question: View) -> Flow<()> {
        if self.ask(question)? == Key::Centre {
            self.calibrate_and_review()?;
        }
        Ok(())
    }

    /// Shows `view`, a page that waits for a button, and the button pressed.
    fn ask(&mut self, view: View) -> Flow<Key> {
        let title = view.title.clone();
        self.panel.show(view);
        self.person.asked(&title);
        self.wait_for_key()
    }

    /// Measures the robot, then shows each finding for the person to keep or leave, and
    /// writes what they kept.
    fn calibrate_and_review(&mut self) -> Flow<()> {
        self.panel.activity(Activity::Busy);
        let measured = self.measure_the_robot();
        // A game's sheet is not blank any more: calibration drew on it.
        self.sheet_used = true;
        let calibration = match measured {
            Ok(calibration) => calibration,
            // A signal ends the program, as everywhere.
            Err(error) if self.stop.signal().is_some() => return Err(error.into()),
            Err(error) => {
                let safe = self.gantry.ensure_safe().describe();
                let (title, what) = match &error {
                    MotionError::Interrupted { cause } => {
                        ("Calibration stopped", format!("Stopped by {cause}."))
                    }
                    other => {
                        self.panel.cue(Cue::Error);
                        ("Calibration failed", format!("{other}."))
                    }
                };
                log::info!("{title}: {what} {safe}");
                self.panel.note(&format!("{title}: {what} {safe}"));
                self.panel.activity(Activity::Menu);
                self.ask(View::new(
                    title,
                    &[&what, &safe, "robot.json is unchanged.", "Any button: back"],
                ))?;
                return Ok(());
            }
        };
        log::info!(
            "calibration:\n{}",
            calibration.render(
                self.gantry.config().columns.travel_deg,
                self.gantry.config().rows.travel_deg
            )
        );
        self.panel.activity(Activity::Menu);
        let kept = self.review(&calibration)?;
        self.keep(&kept)
    }

    /// Runs the calibration with the brick's buttons lent to the gantry, so a press of any
    /// stops it within a poll, and each step told on the screen.
    fn measure_the_robot(&mut self) -> Result<Calibration, MotionError> {
        let lent = std::mem::replace(
            &mut self.buttons,
            Err("lent to the gantry during calibration".to_string()),
        );
        match lent {
            Ok(pad) => self.gantry.stop_on_any_button(pad, self.buttons_before),
            Err(why) => self.buttons = Err(why),
        }
        let (panel, person) = (&mut self.panel, &mut *self.person);
        let mut tell = |step: Step| {
            log::info!("calibration: {step}");
            let stops = "Any button stops.";
            match step {
                Step::FillIn { .. } => {
                    panel.activity(Activity::YourMove);
                    panel.say(&step.to_string());
                    panel.show(View::new("Your X, please", &[&step.to_string(), stops]));
                }
                _ => panel.show(View::new("Calibrating", &[&step.to_string(), stops])),
            }
            person.calibrating(step);
        };
        let measured =
            calibrate::calibrate(&mut self.gantry, &mut tell, self.settings.idle_timeout);
        if let Some((pad, before)) = self.gantry.give_back_buttons() {
            self.buttons = Ok(pad);
            self.buttons_before = before;
        }
        measured
    }

    /// Shows each finding; the changes the person kept with the centre button.
    fn review(&mut self, calibration: &Calibration) -> Flow<Vec<Change>> {
        let mut kept = Vec::new();
        for finding in calibration.findings(self.gantry.config()) {
            let view = View::of_finding(&finding, self.gantry.config());
            log::info!("{}", view.paragraphs.join(" "));
            let key = self.ask(view)?;
            if let (Verdict::Change(change), Key::Centre) = (finding.verdict, key) {
                kept.push(change);
            }
        }
        Ok(kept)
    }

    /// Writes the kept changes into the robot config's file, keeping the old one, and goes on
    /// with them; or says why not. The outcome stays on the screen until a button.
    fn keep(&mut self, kept: &[Change]) -> Flow<()> {
        let (title, lines) = match self.save_the_changes(kept) {
            Ok(lines) => ("Calibrated", lines),
            Err(why) => {
                self.panel.cue(Cue::Invalid);
                (
                    "Not saved",
                    vec![why, "robot.json is unchanged.".to_string()],
                )
            }
        };
        log::info!("{title}: {}", lines.join(" "));
        self.panel.note(&format!("{title}: {}", lines.join(" ")));
        let mut shown: Vec<&str> = lines.iter().map(String::as_str).collect();
        shown.push("Any button: back");
        self.ask(View::new(title, &shown)).map(|_| ())
    }

    /// The kept changes written and put to use: what the screen says of it. Why not, if the
    /// changes make a config the program refuses or the file cannot be written.
    fn save_the_changes(&mut self, kept: &[Change]) -> Result<Vec<String>, String> {
        if kept.is_empty() {
            return Err("Nothing was kept.".to_string());
        }
        let config = calibrate::apply(self.gantry.config(), kept)?;
        let Some(path) = self.settings.robot_config_file.clone() else {
            return Err(
                "This robot has no robot.json to write (it is the simulator's).".to_string(),
            );
        };
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let old = config
            .save_keeping_the_old(&path)
            .map_err(|error| format!("{} cannot be written: {error}.", path.display()))?;
        self.gantry.reconfigure(config);
        self.settings.without_robot_config = false;
        let mut lines = vec![format!("{} changes written to {name}.", kept.len())];
        if let Some(old) = old {
            let old = old.file_name().unwrap_or_default().to_string_lossy();
            lines.push(format!("The old one is kept as {old}."));
        }
        Ok(lines)
    }
}
