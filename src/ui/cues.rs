//! What the status lights and the speaker tell a person who is not looking at the screen.

use crate::hw::{LightColour, Tone};

/// What the robot is doing, shown by the two status lights.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activity {
    /// The menu is waiting for a button: the left light green.
    Menu,
    /// Waiting for the human's move: both green.
    YourMove,
    /// Homing, drawing, reading or thinking: hands off. Both amber.
    Busy,
    /// Something went wrong: both red.
    Error,
    /// The program has ended.
    Off,
}

impl Activity {
    pub fn lights(self) -> (LightColour, LightColour) {
        let both = |c| (c, c);
        match self {
            Activity::Menu => (LightColour::Green, LightColour::Off),
            Activity::YourMove => both(LightColour::Green),
            Activity::Busy => both(LightColour::Amber),
            Activity::Error => both(LightColour::Red),
            Activity::Off => both(LightColour::Off),
        }
    }
}

/// A short sound for something that just happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cue {
    /// The human's move was read.
    MoveSeen,
    /// No new mark, or too many.
    Invalid,
    HumanWon,
    HumanLost,
    Draw,
    Error,
}

impl Cue {
    pub fn tones(self) -> Vec<Tone> {
        let tone = |frequency_hz, duration_ms| Tone {
            frequency_hz,
            duration_ms,
        };
        match self {
            Cue::MoveSeen => vec![tone(880, 80)],
            Cue::Invalid => vec![tone(220, 150), tone(180, 250)],
            // Rising for the human's win, falling for the robot's, level for a draw.
            Cue::HumanWon => vec![
                tone(523, 120),
                tone(659, 120),
                tone(784, 120),
                tone(1047, 300),
            ],
            Cue::HumanLost => vec![
                tone(784, 150),
                tone(659, 150),
                tone(523, 150),
                tone(392, 350),
            ],
            Cue::Draw => vec![tone(587, 150), tone(587, 150)],
            Cue::Error => vec![tone(150, 600)],
        }
    }
}
