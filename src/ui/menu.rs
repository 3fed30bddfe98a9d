//! The brick's menu as a pure state machine: a state, a key, and what the program should do.
//!
//! Five keys drive it (the brick's back button is left to brickrun, which may use it to end the
//! program). From the main menu, left, centre and right pick the three levels (easy, medium and
//! hard unless the robot config names others); down shows the scores; up exits. After a level,
//! the player chooses who moves first: left "you", right "the robot", centre a coin toss; up
//! goes back. On the scores page, centre starts a game for two people with the robot as
//! referee, down opens the setup, and any other key goes back. On the setup, centre calibrates
//! the robot, left turns the voice over, right shows the robot's eye, down asks to reset the
//! scores, and up goes back.

use crate::ai::Difficulty;
use crate::hw::Buttons;

/// One of the five buttons the program listens to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Up,
    Down,
    Left,
    Right,
    Centre,
}

impl Key {
    pub const ALL: [Key; 5] = [Key::Up, Key::Down, Key::Left, Key::Right, Key::Centre];

    /// The key newly pressed between two readings of the buttons, if exactly one was. Two at
    /// once is ambiguous (a palm on the brick), so it counts as none.
    pub fn pressed(before: Buttons, now: Buttons) -> Option<Key> {
        let newly = |was: bool, is: bool| is && !was;
        let down: Vec<Key> = [
            (Key::Up, newly(before.up, now.up)),
            (Key::Down, newly(before.down, now.down)),
            (Key::Left, newly(before.left, now.left)),
            (Key::Right, newly(before.right, now.right)),
            (Key::Centre, newly(before.centre, now.centre)),
        ]
        .into_iter()
        .filter_map(|(key, pressed)| pressed.then_some(key))
        .collect();
        match down[..] {
            [key] => Some(key),
            _ => None,
        }
    }

    /// The buttons as they read with only this key held down.
    pub fn alone(self) -> Buttons {
        Buttons {
            up: self == Key::Up,
            down: self == Key::Down,
            left: self == Key::Left,
            right: self == Key::Right,
            centre: self == Key::Centre,
            back: false,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Key::Up => "up",
            Key::Down => "down",
            Key::Left => "left",
            Key::Right => "right",
            Key::Centre => "centre",
        }
    }
}

/// Who makes the first move (and plays X).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstMove {
    Human,
    Robot,
    /// Decided by a coin toss when the game starts.
    CoinToss,
}

/// What the menu shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Menu {
    /// Pick a difficulty, see the scores, or exit.
    Main,
    /// The difficulty is chosen; now who starts.
    ChooseFirst(Difficulty),
    /// The scoreboard; centre starts a game for two people, down opens the settings, any
    /// other key goes back.
    Scores,
    /// The settings page: calibration, the voice on or off, the robot's eye and the scores
    /// reset.
    Settings,
    /// Reset the scores? Centre resets them; any other key keeps them.
    ConfirmReset,
    /// What the robot's eye measured on this run's last sheet; any key goes back.
    Eye,
}

impl Menu {
    /// Which menu, in words, for the log: "the main menu".
    pub fn describe(&self) -> String {
        match self {
            Menu::Main => "the main menu".into(),
            Menu::ChooseFirst(level) => format!("who starts, at {}", level.name),
            Menu::Scores => "the scores".into(),
            Menu::Settings => "the settings".into(),
            Menu::ConfirmReset => "the question whether to reset the scores".into(),
            Menu::Eye => "the robot's eye".into(),
        }
    }
}

/// What the program should do after a key.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Show the menu's new state.
    Show,
    /// The key means nothing here: stay, and show nothing new.
    Ignore,
    Play {
        difficulty: Difficulty,
        first: FirstMove,
    },
    /// Two people play each other; the robot draws the grid, reads and judges.
    Referee,
    /// Measure the robot, show what was measured, and keep in robot.json what the person keeps.
    Calibrate,
    /// Turn the robot's voice on if it is off, off if it is on, and keep that.
    ToggleVoice,
    /// Reset the scoreboard, keeping the old file beside it.
    ResetScores,
    Exit,
}

impl Menu {
    /// The state after `key`, and what to do. `levels` are the three levels on the left,
    /// centre and right buttons.
    pub fn press(self, key: Key, levels: &[Difficulty; 3]) -> (Menu, Action) {
        let [left, centre, right] = levels;
        match (self, key) {
            (Menu::Main, Key::Left) => (Menu::ChooseFirst(left.clone()), Action::Show),
            (Menu::Main, Key::Centre) => (Menu::ChooseFirst(centre.clone()), Action::Show),
            (Menu::Main, Key::Right) => (Menu::ChooseFirst(right.clone()), Action::Show),
            (Menu::Main, Key::Down) => (Menu::Scores, Action::Show),
            (Menu::Main, Key::Up) => (Menu::Main, Action::Exit),
            (Menu::ChooseFirst(difficulty), Key::Left) => (
                Menu::Main,
                Action::Play {
                    difficulty,
                    first: FirstMove::Human,
                },
            ),
            (Menu::ChooseFirst(difficulty), Key::Right) => (
                Menu::Main,
                Action::Play {
                    difficulty,
                    first: FirstMove::Robot,
                },
            ),
            (Menu::ChooseFirst(difficulty), Key::Centre) => (
                Menu::Main,
                Action::Play {
                    difficulty,
                    first: FirstMove::CoinToss,
                },
            ),
            (Menu::ChooseFirst(_), Key::Up) => (Menu::Main, Action::Show),
            (state @ Menu::ChooseFirst(_), Key::Down) => (state, Action::Ignore),
            (Menu::Scores, Key::Centre) => (Menu::Main, Action::Referee),
            (Menu::Scores, Key::Down) => (Menu::Settings, Action::Show),
            (Menu::Scores, _) => (Menu::Main, Action::Show),
            (Menu::Settings, Key::Left) => (Menu::Settings, Action::ToggleVoice),
            (Menu::Settings, Key::Down) => (Menu::ConfirmReset, Action::Show),
            (Menu::Settings, Key::Up) => (Menu::Main, Action::Show),
            (Menu::Settings, Key::Right) => (Menu::Eye, Action::Show),
            (Menu::Settings, Key::Centre) => (Menu::Settings, Action::Calibrate),
            (Menu::Eye, _) => (Menu::Settings, Action::Show),
            // A reset loses every score: only the centre button, asked for by name, does it.
            (Menu::ConfirmReset, Key::Centre) => (Menu::Settings, Action::ResetScores),
            (Menu::ConfirmReset, _) => (Menu::Settings, Action::Show),
        }
    }
}
