//! The menu's setup page, driven by the brick's buttons alone on the simulated robot: the voice
//! turned off and still off at the next start, the scores reset only once the person has
//! confirmed it, with what is lost named first, and what the robot's eye measured.

mod sim_rig;

use ev3_tictactoe::ai::Difficulty;
use ev3_tictactoe::app::preferences::{Preferences, PreferencesFile};
use ev3_tictactoe::app::scripted::Strategy;
use ev3_tictactoe::hw::{HwError, Voice};
use ev3_tictactoe::scoreboard::{GameResult, Scoreboard};
use ev3_tictactoe::ui::menu::{FirstMove, Key};
use sim_rig::*;
use std::sync::{Arc, Mutex};
use std::time::UNIX_EPOCH;

/// A voice that writes down what it is asked to say.
#[derive(Clone, Default)]
struct Heard(Arc<Mutex<Vec<String>>>);

impl Voice for Heard {
    fn say(&mut self, sentence: &str) -> Result<(), HwError> {
        self.0.lock().unwrap().push(sentence.to_string());
        Ok(())
    }
}

impl Heard {
    fn sentences(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

/// Down to the scores, down to the setup, left: the voice turned over; up to the menu, up to
/// exit.
const TURN_THE_VOICE_OVER: [Key; 5] = [Key::Down, Key::Down, Key::Left, Key::Up, Key::Up];

/// Down to the scores, down to the setup, down to the question, centre: reset; up to the menu,
/// up to exit.
const RESET_THE_SCORES: [Key; 6] = [
    Key::Down,
    Key::Down,
    Key::Down,
    Key::Centre,
    Key::Up,
    Key::Up,
];

/// Runs the menu with `keys` pressed one per screen, the robot speaking into `heard`.
fn run_menu_with(rig: &mut Rig, keys: &[Key], heard: &Heard) {
    rig.human.keys = keys.iter().copied().collect();
    let mut program = rig.program(4);
    program.panel.voice = Some(Box::new(heard.clone()));
    let ending = program.run_menu();
    drop(program);
    assert_done(&ending);
}

/// What the setup page said of the voice, each time it was shown.
fn voice_lines(rig: &Rig) -> Vec<String> {
    rig.screens
        .titled("Setup")
        .iter()
        .flat_map(|v| v.paragraphs.clone())
        .filter(|p| p.contains("voice"))
        .collect()
}

#[test]
fn the_voice_turned_off_from_the_buttons_is_still_off_at_the_next_start() {
    let mut rig = Rig::new(Strategy::Random, 4);
    let file = PreferencesFile::beside(&rig.scores);
    let first = Heard::default();
    run_menu_with(&mut rig, &TURN_THE_VOICE_OVER, &first);
    assert_eq!(voice_lines(&rig), ["LEFT   voice on", "LEFT   voice off"]);
    assert_eq!(file.load(), (Preferences { voice: false }, None));
    let text = std::fs::read_to_string(file.path()).unwrap();
    assert_eq!(text.trim(), "{\n  \"voice\": false\n}");

    // The next start reads it: the page says off, and nothing is said until it is on again,
    // not even that the scores were reset (said aloud when the voice is on: the test below).
    let second = Heard::default();
    run_menu_with(&mut rig, &RESET_THE_SCORES, &second);
    assert_eq!(rig.screens.titled("Scores reset").len(), 1);
    assert_eq!(voice_lines(&rig).last().unwrap(), "LEFT   voice off");
    assert!(second.sentences().is_empty(), "{:?}", second.sentences());

    let third = Heard::default();
    run_menu_with(&mut rig, &TURN_THE_VOICE_OVER, &third);
    assert_eq!(third.sentences(), ["The voice is on."]);
    assert_eq!(file.load(), (Preferences { voice: true }, None));
}

#[test]
fn a_bad_settings_file_is_named_on_the_screen_and_the_robot_goes_on_with_the_defaults() {
    let mut rig = Rig::new(Strategy::Random, 4);
    let file = PreferencesFile::beside(&rig.scores);
    std::fs::write(file.path(), "{\"voice\": off}").unwrap();
    run_menu_with(&mut rig, &[Key::Up], &Heard::default());
    let shown = rig.screens.titled("Settings file");
    assert_eq!(shown.len(), 1);
    let said = shown[0].paragraphs.join(" ");
    assert!(
        said.contains("settings.json is not a settings file"),
        "{said}"
    );
    assert!(said.contains("settings.json.bad"), "{said}");
    assert!(rig.folder.path().join("settings.json.bad").exists());
}

#[test]
fn the_scores_are_reset_only_after_the_centre_button_confirms_it() {
    let mut rig = Rig::new(Strategy::Random, 4);
    let mut scores = Scoreboard::new();
    scores.record(&Difficulty::hard(), GameResult::HumanWon, UNIX_EPOCH);
    scores.record(&Difficulty::easy(), GameResult::Draw, UNIX_EPOCH);
    rig.scores.save(&scores).unwrap();

    // To the question, and backed out with up: nothing is lost.
    run_menu_with(
        &mut rig,
        &[Key::Down, Key::Down, Key::Down, Key::Up, Key::Up, Key::Up],
        &Heard::default(),
    );
    let asked = rig.screens.titled("Reset the scores?");
    assert_eq!(asked.len(), 1);
    let question = &asked[0].paragraphs;
    assert!(question.contains(&format!("your score {},", scores.current_score)));
    assert!(question.contains(&"2 games' results".to_string()));
    assert!(question.contains(&"CENTRE reset, other: keep".to_string()));
    assert_eq!(rig.scoreboard(), scores, "backing out keeps every score");

    // Asked again and confirmed with the centre button: zeros, the old file kept beside.
    let heard = Heard::default();
    run_menu_with(&mut rig, &RESET_THE_SCORES, &heard);
    assert!(!rig.scoreboard().holds_a_game());
    assert_eq!(rig.scoreboard().current_score, 0);
    assert_eq!(heard.sentences(), ["The scores are reset."]);
    let kept: Vec<_> = std::fs::read_dir(rig.folder.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("before-reset"))
        .collect();
    assert_eq!(kept.len(), 1, "the old scores are kept beside the file");
    let shown = rig.screens.titled("Scores reset");
    assert_eq!(shown.len(), 1);
    assert!(shown[0].paragraphs[0].contains("before-reset"));
    rig.assert_safe();
}

#[test]
fn the_robots_eye_shows_what_the_last_sheet_measured_in_millimetres_and_percent() {
    let mut rig = Rig::new(Strategy::Random, 4);
    // Before any game: nothing measured. Then a game (right: hard, left: the person starts),
    // then the eye again: down past the result to the scores, down to the setup, right.
    let to_the_eye = [Key::Down, Key::Down, Key::Right];
    let keys: Vec<Key> = to_the_eye
        .iter()
        .chain(&[Key::Up, Key::Up, Key::Right, Key::Left])
        .chain(&[Key::Down, Key::Right, Key::Up, Key::Up, Key::Up])
        .copied()
        .collect();
    run_menu_with(&mut rig, &keys, &Heard::default());
    let pages = rig.screens.titled("The robot's eye");
    assert_eq!(pages.len(), 2, "{:?}", rig.screens.all());
    assert_eq!(pages[0].paragraphs[0], "Nothing measured yet:");
    let after = pages[1].paragraphs.join(" / ");
    for figure in [
        "Paper ",
        " %",
        "Noise ",
        "Spot ",
        " mm",
        "My ink ",
        "A reading every ",
    ] {
        assert!(after.contains(figure), "{figure}: {after}");
    }
}

#[test]
fn a_game_asked_for_on_the_command_line_without_robot_json_says_so_and_how_to_measure_the_robot_then_plays(
) {
    let mut rig = Rig::new(Strategy::Random, 4);
    rig.settings.without_robot_config = true;
    let (games, ending) = rig.play(&Difficulty::easy(), FirstMove::Human, 1, 4);
    assert_done(&ending);
    assert_eq!(games.len(), 1);
    let titles: Vec<String> = rig.screens.all().into_iter().map(|v| v.title).collect();
    assert_eq!(
        titles.first().map(String::as_str),
        Some("No robot.json"),
        "{titles:?}"
    );
    let said = rig.screens.titled("No robot.json")[0].paragraphs.join(" ");
    assert!(said.contains("ev3-tictactoe calibrate"), "{said}");

    // With a robot config of its own, nothing is said.
    let mut rig = Rig::new(Strategy::Random, 4);
    let (_, ending) = rig.play(&Difficulty::easy(), FirstMove::Human, 1, 4);
    assert_done(&ending);
    assert!(rig.screens.titled("No robot.json").is_empty());
}
