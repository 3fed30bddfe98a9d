//! Everything the program tells a person, in one place: the LCD, the terminal, the status lights,
//! the speaker, the log, and PNG snapshots of the LCD.
//!
//! The brick's outputs are conveniences, not the game: a screen, light or speaker that fails is
//! reported once on the terminal and in the log, then left alone, and the game goes on.

use crate::hw::{Screen, Speaker, StatusLights, Voice};
use crate::ui::cues::{Activity, Cue};
use crate::ui::lcd;
use crate::ui::view::View;
use std::io::Write;
use std::path::PathBuf;

/// The terminal side of the screen: the ssh user's plain lines, or the simulator's picture.
pub trait Mirror: Send {
    /// A new screenful.
    fn show(&mut self, view: &View);
    /// A remark for the terminal only (a device that is missing, a scoreboard notice).
    fn note(&mut self, line: &str);
}

/// Prints each screenful as plain lines, for a terminal or a pipe.
pub struct PlainLines<W: Write + Send>(pub W);

impl<W: Write + Send> Mirror for PlainLines<W> {
    fn show(&mut self, view: &View) {
        for line in view.plain_lines() {
            // A closed terminal must not stop the robot mid-game; the log keeps the record.
            let _ = writeln!(self.0, "{line}");
        }
        let _ = self.0.flush();
    }

    fn note(&mut self, line: &str) {
        let _ = writeln!(self.0, "{line}");
        let _ = self.0.flush();
    }
}

/// Writes every new LCD picture as `lcd-0001.png`, `lcd-0002.png`, ... in a folder.
pub struct Snapshots {
    folder: PathBuf,
    taken: u32,
}

impl Snapshots {
    pub fn into_folder(folder: PathBuf) -> std::io::Result<Snapshots> {
        std::fs::create_dir_all(&folder)?;
        Ok(Snapshots { folder, taken: 0 })
    }

    fn take(&mut self, frame: &crate::hw::Frame) -> Result<PathBuf, String> {
        self.taken += 1;
        let path = self.folder.join(format!("lcd-{:04}.png", self.taken));
        let file = std::fs::File::create(&path).map_err(|e| e.to_string())?;
        lcd::write_png(frame, 2, std::io::BufWriter::new(file)).map_err(|e| e.to_string())?;
        Ok(path)
    }
}

/// The program's outputs.
pub struct Panel {
    pub screen: Option<Box<dyn Screen>>,
    pub lights: Option<Box<dyn StatusLights>>,
    pub speaker: Option<Box<dyn Speaker>>,
    /// Says the key moments aloud (see [`crate::ui::speech`]); `None`: silent.
    pub voice: Option<Box<dyn Voice>>,
    /// The person turned the voice off on the settings page: nothing is said.
    pub muted: bool,
    pub mirror: Box<dyn Mirror>,
    pub snapshots: Option<Snapshots>,
    shown: Option<View>,
}

impl Panel {
    pub fn new(mirror: Box<dyn Mirror>) -> Panel {
        Panel {
            screen: None,
            lights: None,
            speaker: None,
            voice: None,
            muted: false,
            mirror,
            snapshots: None,
            shown: None,
        }
    }

    /// What the screen shows now.
    pub fn shown(&self) -> Option<&View> {
        self.shown.as_ref()
    }

    /// Shows `view` everywhere, unless it is already shown.
    pub fn show(&mut self, view: View) {
        if self.shown.as_ref() == Some(&view) {
            return;
        }
        log::info!("screen: {}", view.plain_lines().join(" / "));
        self.mirror.show(&view);
        let frame = lcd::render(&view);
        if let Some(screen) = &mut self.screen {
            if let Err(error) = screen.show(&frame) {
                self.screen = None;
                self.lost("LCD", &error);
            }
        }
        if let Some(snapshots) = &mut self.snapshots {
            if let Err(error) = snapshots.take(&frame) {
                self.snapshots = None;
                self.lost("LCD snapshots", &error);
            }
        }
        self.shown = Some(view);
    }

    pub fn note(&mut self, line: &str) {
        log::info!("note: {line}");
        self.mirror.note(line);
    }

    pub fn activity(&mut self, activity: Activity) {
        let (left, right) = activity.lights();
        if let Some(lights) = &mut self.lights {
            if let Err(error) = lights.set(left, right) {
                self.lights = None;
                self.lost("status lights", &error);
            }
        }
    }

    pub fn cue(&mut self, cue: Cue) {
        log::debug!("sound: {cue:?}");
        if let Some(speaker) = &mut self.speaker {
            if let Err(error) = speaker.play(&cue.tones()) {
                self.speaker = None;
                self.lost("speaker", &error);
            }
        }
    }

    /// Says `sentence` aloud, if the panel has a voice; returns at once.
    pub fn say(&mut self, sentence: &str) {
        if self.muted {
            return;
        }
        if let Some(voice) = &mut self.voice {
            log::info!("saying: {sentence}");
            if let Err(error) = voice.say(sentence) {
                self.voice = None;
                self.lost("voice", &error);
            }
        }
    }

    fn lost(&mut self, what: &str, error: &dyn std::fmt::Display) {
        let line = format!("The {what} stopped working ({error}); going on without it.");
        log::warn!("{line}");
        self.mirror.note(&line);
    }
}
