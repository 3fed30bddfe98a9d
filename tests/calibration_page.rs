//! Calibration from the brick's buttons on the simulated robot: guided step by step on the
//! screen, each finding kept with a press, robot.json written with the old one kept beside it,
//! a stop halfway that leaves the machine safe and the file alone, and the first start without
//! robot.json offering it.

mod sim_rig;

use ev3_tictactoe::app::scripted::{ScriptedHuman, Strategy};
use ev3_tictactoe::app::{Ending, Person, Settings};
use ev3_tictactoe::config::RobotConfig;
use ev3_tictactoe::motion::calibrate::Step;
use ev3_tictactoe::motion::StopRequest;
use ev3_tictactoe::ui::menu::{Key, Menu};
use sim_rig::*;
use std::path::PathBuf;

/// Down to the scores, down to the setup, centre: calibrate; centre: start.
const TO_CALIBRATION: [Key; 4] = [Key::Down, Key::Down, Key::Centre, Key::Centre];

/// The default robot, whose program reads `config` from `robot.json` in the rig's folder.
fn rig_with_a_robot_json(config: &RobotConfig) -> (Rig, PathBuf) {
    let mut rig = Rig::new(Strategy::Random, 4);
    rig.config = config.clone();
    let path = rig.folder.path().join("robot.json");
    config.save_keeping_the_old(&path).unwrap();
    rig.settings.robot_config_file = Some(path.clone());
    (rig, path)
}

fn titles(rig: &Rig) -> Vec<String> {
    rig.screens.all().into_iter().map(|v| v.title).collect()
}

#[test]
fn calibrated_from_the_buttons_the_kept_findings_are_written_and_the_old_robot_json_kept() {
    // A robot.json that says the pen goes deeper than the simulated pen meets the paper.
    let mut written = RobotConfig::default();
    written.pen.down_deg = 34;
    let (mut rig, path) = rig_with_a_robot_json(&written);
    let before = std::fs::read_to_string(&path).unwrap();
    // Six findings (two axes, the pen, the spot, the sensor's place, the mark): centre keeps each that has a
    // change; then back to the setup, up, up.
    let mut keys = TO_CALIBRATION.to_vec();
    keys.extend([Key::Centre; 6]);
    keys.extend([Key::Centre, Key::Up, Key::Up]);
    rig.human.keys = keys.into();
    let ending = rig.program(4).run_menu();
    assert_done(&ending);

    let shown = titles(&rig);
    for title in [
        "Calibrate",
        "Calibrating",
        "Your X, please",
        "Columns travel",
        "Rows travel",
        "The pen",
        "The sensor's spot",
        "The sensor's place",
        "Your mark",
        "Calibrated",
    ] {
        assert!(shown.iter().any(|t| t == title), "{title}: {shown:?}");
    }
    let steps: Vec<String> = rig
        .screens
        .titled("Calibrating")
        .iter()
        .map(|v| v.paragraphs[0].clone())
        .collect();
    assert!(steps[0].starts_with("Homing"), "{steps:?}");
    let pen = rig.screens.titled("The pen")[0].paragraphs.join(" ");
    assert!(pen.contains("Set pen.down_deg 30 (now 34)"), "{pen}");
    let done = rig.screens.titled("Calibrated")[0].paragraphs.join(" ");
    assert!(done.contains("kept as robot.json.1"), "{done}");

    let saved = RobotConfig::load(&path).unwrap();
    assert_eq!(saved.pen.down_deg, 30, "the pen's depth as measured");
    assert_ne!(
        saved.sensing.mark_contrast_percent, written.sensing.mark_contrast_percent,
        "the mark's contrast as measured"
    );
    let old = std::fs::read_to_string(path.with_file_name("robot.json.1")).unwrap();
    assert_eq!(old, before, "the old robot.json kept as it was");
    assert!(!rig.sim.world().pen_is_down());
}

#[test]
fn findings_left_with_another_button_are_not_written() {
    let mut written = RobotConfig::default();
    written.pen.down_deg = 34;
    let (mut rig, path) = rig_with_a_robot_json(&written);
    let before = std::fs::read_to_string(&path).unwrap();
    let mut keys = TO_CALIBRATION.to_vec();
    keys.extend([Key::Down; 6]);
    keys.extend([Key::Centre, Key::Up, Key::Up]);
    rig.human.keys = keys.into();
    assert_done(&rig.program(4).run_menu());
    let said = rig.screens.titled("Not saved")[0].paragraphs.join(" ");
    assert!(said.contains("Nothing was kept"), "{said}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
    assert!(!path.with_file_name("robot.json.1").exists());
}

#[test]
fn a_button_pressed_while_the_grid_is_drawn_stops_calibration_with_the_machine_safe_and_robot_json_untouched(
) {
    let (mut rig, path) = rig_with_a_robot_json(&RobotConfig::default());
    let before = std::fs::read_to_string(&path).unwrap();
    rig.human.stop_calibration_at = Some(Step::DrawingGrid);
    let mut keys = TO_CALIBRATION.to_vec();
    // Any button leaves the stop's screen for the setup; up, up.
    keys.extend([Key::Centre, Key::Up, Key::Up]);
    rig.human.keys = keys.into();
    let mut program = rig.program(4);
    assert_done(&program.run_menu());
    drop(program);
    let stopped = rig.screens.titled("Calibration stopped");
    let said = stopped[0].paragraphs.join(" ");
    assert!(said.contains("Stopped by the up button"), "{said}");
    assert!(said.contains("robot.json is unchanged"), "{said}");
    assert!(
        titles(&rig).iter().all(|t| t != "Your X, please"),
        "it stopped before asking for the mark"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
    assert!(!path.with_file_name("robot.json.1").exists());
    assert!(!rig.sim.world().pen_is_down(), "the pen lifted");
    assert!(
        rig.sim.world().driven_motors().is_empty(),
        "every motor off"
    );
}

#[test]
fn a_first_start_without_robot_json_offers_calibration_and_another_button_skips_it() {
    // Skipped: straight to the menu.
    let mut rig = Rig::new(Strategy::Random, 4);
    rig.settings.without_robot_config = true;
    rig.settings.robot_config_file = Some(rig.folder.path().join("robot.json"));
    rig.human.keys = [Key::Down, Key::Up].into();
    assert_done(&rig.program(4).run_menu());
    let shown = titles(&rig);
    let offer = shown.iter().position(|t| t == "No robot.json");
    let menu = shown.iter().position(|t| t == "Noughts and crosses");
    assert!(
        matches!((offer, menu), (Some(o), Some(m)) if o < m),
        "{shown:?}"
    );
    assert!(!shown.iter().any(|t| t == "Calibrating"), "{shown:?}");

    // Taken: calibration, and robot.json written where there was none.
    let mut rig = Rig::new(Strategy::Random, 4);
    let path = rig.folder.path().join("robot.json");
    rig.settings.without_robot_config = true;
    rig.settings.robot_config_file = Some(path.clone());
    let mut keys = vec![Key::Centre];
    keys.extend([Key::Centre; 6]);
    keys.extend([Key::Centre, Key::Up]);
    rig.human.keys = keys.into();
    assert_done(&rig.program(4).run_menu());
    let done = rig.screens.titled("Calibrated")[0].paragraphs.join(" ");
    assert!(done.contains("written to robot.json"), "{done}");
    assert!(!done.contains("robot.json.1"), "{done}");
    RobotConfig::load(&path).expect("a robot.json the program reads");
}

/// A person who starts calibration from the buttons, then at `at` stops the program as the
/// back button's long press does (brickman sends SIGTERM).
struct SignalsDuring {
    inner: ScriptedHuman,
    stop: StopRequest,
    at: Step,
}

impl Person for SignalsDuring {
    fn at_menu(&mut self, menu: &Menu) {
        self.inner.at_menu(menu);
    }

    fn asked(&mut self, title: &str) {
        self.inner.asked(title);
    }

    fn calibrating(&mut self, step: Step) {
        if step == self.at {
            self.stop.request(15);
        } else {
            self.inner.calibrating(step);
        }
    }
}

#[test]
fn a_signal_during_calibration_from_the_buttons_ends_the_program_with_the_machine_safe_and_robot_json_untouched(
) {
    for at in [Step::MeasuringTravel, Step::DrawingGrid, Step::ReadingPaper] {
        let (rig, path) = rig_with_a_robot_json(&RobotConfig::default());
        let before = std::fs::read_to_string(&path).unwrap();
        let mut inner = rig.scripted(Strategy::Random, 4);
        inner.keys = TO_CALIBRATION.to_vec().into();
        let stop = StopRequest::new();
        let mut person = SignalsDuring {
            inner,
            stop: stop.clone(),
            at,
        };
        let settings = Settings {
            robot_config_file: rig.settings.robot_config_file.clone(),
            ..Settings::default()
        };
        let ending = rig.program_with(&mut person, stop, settings).run_menu();
        assert!(
            matches!(&ending, Ending::Interrupted { cause } if cause == "SIGTERM"),
            "{at:?}: {ending:?}"
        );
        assert!(!rig.sim.world().pen_is_down(), "{at:?}: the pen lifted");
        assert!(
            rig.sim.world().driven_motors().is_empty(),
            "{at:?}: motors off"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), before, "{at:?}");
    }
}
