//! What the menu's settings page does: the voice turned on or off and kept for the next run,
//! the scores reset once the person has confirmed it, and what the robot's eye measured.

use super::{Flow, Program};
use crate::motion::gantry::BlankPaper;
use crate::scoreboard::store::ResetOutcome;
use crate::ui::cues::Cue;
use crate::ui::eye_page::EyeReport;
use crate::ui::view::{SetupFacts, View};

impl Program<'_> {
    /// What the setup page and the eye page show now.
    pub(super) fn setup_facts(&self) -> SetupFacts {
        SetupFacts {
            voice: !self.panel.muted,
            eye: self
                .last_eye
                .as_ref()
                .map_or_else(EyeReport::nothing_yet, EyeReport::lines),
        }
    }

    /// Keeps what the eye measured on the sheet whose `blank` paper was just read, for the eye
    /// page.
    pub(super) fn note_the_eye(&mut self, blank: &BlankPaper) {
        let mut levels: Vec<f64> = blank.squares.iter().map(|s| s.level).collect();
        levels.sort_by(f64::total_cmp);
        let (Some(&lowest), Some(&highest)) = (levels.first(), levels.last()) else {
            return;
        };
        let median = levels[levels.len() / 2];
        let eye = self.gantry.eye();
        self.last_eye = Some(EyeReport {
            paper_percent: (lowest, median, highest),
            noise_percent: blank.squares[0].noise,
            spot_measured_mm: eye.map(|e| (e.spot_mm, e.spot_uncertainty_mm)),
            spot_configured_mm: self.gantry.configured_spot_mm(),
            own_ink_contrast: eye.map(|e| e.ink_contrast),
            read_period_ms: self.gantry.read_period().as_secs_f64() * 1000.0,
        });
    }

    /// The person's kept settings, put to use at the start of a run: a bad file is named on
    /// the screen, with what is wrong, and the defaults used.
    pub(super) fn apply_preferences(&mut self) -> Flow<()> {
        let (preferences, trouble) = self.preferences.load();
        self.panel.muted = !preferences.voice;
        log::info!(
            "the voice is {} ({})",
            if preferences.voice { "on" } else { "off" },
            self.preferences.path().display()
        );
        if let Some(trouble) = trouble {
            log::warn!("{trouble}");
            self.panel.note(&trouble);
            self.panel.cue(Cue::Invalid);
            self.panel.show(View::new("Settings file", &[&trouble]));
            self.pause(self.settings.warning_shown_for)?;
        }
        Ok(())
    }

    /// At a start without robot.json: says so, and how to measure the robot, until a button
    /// or a few seconds have passed.
    pub(super) fn say_if_there_is_no_robot_config(&mut self) -> Flow<()> {
        if !self.settings.without_robot_config {
            return Ok(());
        }
        log::warn!("no robot.json: playing on the built-in defaults");
        self.panel.show(View::new(
            "No robot.json",
            &[
                "I play on the built-in defaults, which may not fit this robot.",
                "To measure it: ev3-tictactoe calibrate, over ssh.",
                "Any button: go on.",
            ],
        ));
        self.pause(self.settings.warning_shown_for)
    }

    /// Turns the voice off if it is on and on if it is off, and keeps that for the next run.
    /// If the file cannot be written the change holds for this run, and the screen says so.
    pub(super) fn toggle_voice(&mut self) {
        self.panel.muted = !self.panel.muted;
        let voice = !self.panel.muted;
        log::info!("the voice turned {}", if voice { "on" } else { "off" });
        let preferences = super::preferences::Preferences { voice };
        if let Err(error) = self.preferences.save(&preferences) {
            self.panel.note(&format!(
                "The voice is {} for this run, but {} cannot be written ({error}).",
                if voice { "on" } else { "off" },
                self.preferences.path().display()
            ));
        }
        if voice {
            self.panel.say("The voice is on.");
        }
    }

    /// Resets the scoreboard (the person has confirmed), keeping the old file beside it, and
    /// says on the screen how it went until a key or a few seconds have passed.
    pub(super) fn reset_scores_from_menu(&mut self) -> Flow<()> {
        let (title, line) = match self.scores.reset() {
            Ok(ResetOutcome::KeptAt(old)) => {
                self.panel.say("The scores are reset.");
                let name = old.file_name().unwrap_or_default().to_string_lossy();
                (
                    "Scores reset",
                    format!("The old scores are kept in {name}."),
                )
            }
            Ok(ResetOutcome::NothingToKeep) => {
                self.panel.say("The scores are reset.");
                ("Scores reset", "There were none to keep.".to_string())
            }
            Err(error) => {
                self.panel.cue(Cue::Invalid);
                (
                    "Not reset",
                    format!("The scores could not be reset: {error}."),
                )
            }
        };
        log::info!("{title}: {line}");
        self.panel.note(&format!("{title}: {line}"));
        self.panel.show(View::new(title, &[&line]));
        self.pause(self.settings.warning_shown_for)
    }
}
