//! What breaks mid-game: a jam, a sensor that fails or answers slowly, a pen that runs dry
//! or is unplugged, a pinion that skips a tooth. Each ends safely with its name, or is looked
//! at again and played on.

use crate::sim_rig::*;
use ev3_tictactoe::ai::Difficulty;
use ev3_tictactoe::app::scripted::{ScriptedHuman, Strategy};
use ev3_tictactoe::app::{Ending, Settings};
use ev3_tictactoe::config::Axis;
use ev3_tictactoe::game::Mark;
use ev3_tictactoe::hw::sim::{Author, Faults, MotorFault, SimRobot, SimSettings};
use ev3_tictactoe::motion::StopRequest;
use ev3_tictactoe::scoreboard::GameResult;
use ev3_tictactoe::ui::menu::FirstMove;

/// A person who plays, and after `moves` moves wedges something into the columns axis.
struct Saboteur {
    inner: ScriptedHuman,
    sim: SimRobot,
    moves: usize,
}

impl ev3_tictactoe::app::Person for Saboteur {
    fn new_sheet(&mut self) {
        self.inner.new_sheet();
    }

    fn your_move(&mut self, board: &ev3_tictactoe::game::Board, mark: Mark) {
        self.inner.your_move(board, mark);
        self.moves += 1;
        if self.moves == 2 {
            self.sim.world().jam(Axis::Columns);
        }
    }
}

#[test]
fn a_jam_mid_game_stops_the_motors_keeps_the_scores_and_says_what_failed() {
    let mut rig = Rig::new(Strategy::Random, 11);
    rig.play(&Difficulty::easy(), FirstMove::Human, 1, 11);
    let before = std::fs::read(rig.scores.path()).unwrap();
    let sim = rig.sim.clone();
    let human = rig.scripted(Strategy::Random, 1);
    let mut saboteur = Saboteur {
        inner: human,
        sim: sim.clone(),
        moves: 0,
    };
    let screens = rig.screens.clone();
    let mut program = rig.program_with(
        &mut saboteur,
        StopRequest::new(),
        Settings {
            seed: Some(2),
            ..Settings::default()
        },
    );
    let ending = program.run_games(&Difficulty::easy(), FirstMove::Human, 1);
    drop(program);
    let Ending::Failed(error) = ending else {
        panic!("a jam ended the run {ending:?}")
    };
    let message = format!("{error:#}");
    assert!(message.contains("columns axis"), "{message}");
    rig.assert_safe();
    assert_eq!(
        std::fs::read(rig.scores.path()).unwrap(),
        before,
        "scores changed"
    );
    let shown = screens.last();
    assert_eq!(shown.title, "Error");
    assert!(shown.paragraphs[0].contains("columns axis"), "{shown:?}");
    assert!(shown.paragraphs[1].contains("Motors off, pen up."));
}

#[test]
fn a_sensor_that_fails_mid_game_ends_it_safely_with_its_name() {
    let settings = SimSettings {
        faults: ev3_tictactoe::hw::sim::Faults {
            light: ev3_tictactoe::hw::sim::SensorFault::FailsAfter { reads: 400 },
            ..Default::default()
        },
        ..SimSettings::default()
    };
    let message = Rig::with(settings, Strategy::Random, 12).game_that_fails(12);
    assert!(message.contains("colour sensor on in1"), "{message}");
}

#[test]
fn a_pen_that_leaves_no_ink_stops_the_game_before_anyone_plays_on_it() {
    let white = ev3_tictactoe::hw::sim::PaperLook::default().white_percent;
    let settings = SimSettings {
        look: ev3_tictactoe::hw::sim::PaperLook {
            ink_percent: white,
            ..Default::default()
        },
        ..SimSettings::default()
    };
    let message = Rig::with(settings, Strategy::Random, 16).game_that_fails(16);
    assert!(
        message.starts_with("the pen left no ink on the grid: check the pen and pen.down_deg"),
        "{message}"
    );
}

#[test]
fn a_colour_sensor_that_answers_slowly_is_said_with_figures_and_still_read_right() {
    let settings = SimSettings {
        sensor_period_ms: 30,
        ..SimSettings::default()
    };
    let mut rig = Rig::with(settings, Strategy::Random, 17);
    let (games, ending) = rig.play(&Difficulty::hard(), FirstMove::Human, 1, 17);
    assert_done(&ending);
    assert_ne!(
        games[0].result,
        GameResult::Abandoned,
        "every mark read right"
    );
    let notes = rig.screens.1.lock().unwrap().clone();
    let said = notes
        .iter()
        .find_map(|n| n.strip_prefix("The colour sensor answers only every "))
        .unwrap_or_else(|| panic!("no word of the slow sensor: {notes:?}"));
    let ms: u64 = said.split(' ').next().unwrap().parse().unwrap();
    // At least the sensor's 30 ms; more by the repeats an honest reading makes.
    assert!((30..=60).contains(&ms), "{said}");
}

/// A perfect human at a robot whose pen runs dry after its first mark.
struct DryPenHuman {
    inner: ScriptedHuman,
    sim: ev3_tictactoe::hw::sim::SimRobot,
    turns: usize,
}

impl ev3_tictactoe::app::Person for DryPenHuman {
    fn new_sheet(&mut self) {
        self.inner.new_sheet();
    }

    fn your_move(&mut self, board: &ev3_tictactoe::game::Board, mark: Mark) {
        self.turns += 1;
        if self.turns == 2 {
            let mut world = self.sim.world();
            let white = world.paper().look().white_percent;
            world.paper_mut().look_mut().ink_percent = white;
        }
        self.inner.your_move(board, mark);
    }
}

#[test]
fn a_mark_of_the_robots_that_does_not_show_is_looked_at_closely_drawn_again_then_said_and_the_game_goes_on(
) {
    let rig = Rig::new(Strategy::Perfect, 18);
    let sim = rig.sim.clone();
    let mut human = DryPenHuman {
        inner: rig.scripted(Strategy::Perfect, 18),
        sim: sim.clone(),
        turns: 0,
    };
    let settings = Settings {
        seed: Some(18),
        ..Settings::default()
    };
    let mut program = rig.program_with(&mut human, StopRequest::new(), settings);
    program.panel.lights = Some(Box::new(sim.lights()));
    let ending = program.run_games(&Difficulty::hard(), FirstMove::Human, 1);
    drop(program);
    assert_done(&ending);
    // A doubt, not a failure: the grid showed the pen inking, so the robot says what it
    // measured and plays on.
    let notes = rig.screens.1.lock().unwrap().clone();
    let doubt = notes
        .iter()
        .find(|n| n.starts_with("I cannot see my O at square "))
        .unwrap_or_else(|| panic!("no word of the unseen O: {notes:?}"));
    assert!(
        doubt.contains("although I drew it twice (")
            && doubt.contains("readings where it should cover up to")
            && doubt.contains("The grid showed that my pen inks, so I play on"),
        "{doubt}"
    );
    // It was drawn twice: the same O's strokes are on the sheet two times over.
    let robot_strokes = sim
        .world()
        .paper()
        .strokes()
        .filter(|s| s.author == Author::Robot)
        .count();
    assert!(
        robot_strokes >= 4 + 1 + 2,
        "grid, the first O, the dry O twice: {robot_strokes}"
    );
    rig.assert_safe();
    assert!(
        rig.scores.path().exists(),
        "the game went on to its end and was recorded"
    );
}

#[test]
fn a_pen_lift_unplugged_mid_grid_is_said_to_have_left_the_pen_down_with_how_to_lift_it() {
    // The cable comes out 100 degrees into the pen's turning: while it lowers the pen for a
    // grid line, so the pen stays on the paper.
    let settings = SimSettings {
        faults: Faults {
            pen: MotorFault::DisconnectsAfter { turned_deg: 100.0 },
            ..Faults::default()
        },
        ..SimSettings::default()
    };
    let mut rig = Rig::with(settings, Strategy::Random, 22);
    let (games, ending) = rig.play(&Difficulty::easy(), FirstMove::Human, 1, 22);
    assert!(games.is_empty());
    assert!(matches!(ending, Ending::Failed(_)), "{ending:?}");
    assert!(rig.sim.world().pen_is_down(), "the case this test is about");
    let error = rig.screens.last();
    assert_eq!(error.title, "Error");
    let said = error.paragraphs.join(" ");
    assert!(said.contains("pen could not be lifted"), "{said}");
    assert!(said.contains("lift it by hand"), "{said}");
    assert!(
        !said.contains("pen up") && !said.contains("pen is up"),
        "{said}"
    );
    assert_eq!(
        rig.sim.world().driven_motors(),
        vec![],
        "motors still powered"
    );
}

#[test]
fn a_pinion_that_skips_a_tooth_mid_game_is_found_re_homed_and_the_game_played_out() {
    for (axis, toward_the_stop) in [
        (Axis::Columns, true),
        (Axis::Columns, false),
        (Axis::Rows, true),
        (Axis::Rows, false),
    ] {
        // One tooth of the rack, 3.2 mm, in the default 24-tooth pinion's degrees, as the human
        // starts their second move.
        let (rig, ending, games) = a_game_meddled_with(move |sim| {
            let tooth_deg = 3.2 / ev3_tictactoe::physical::rack_mm_per_deg(24);
            let sign = if toward_the_stop { 1.0 } else { -1.0 };
            sim.world().skip_teeth(axis, sign * tooth_deg);
        });
        assert_done(&ending);
        assert_eq!(games.len(), 1, "{axis}");
        assert_eq!(
            result_by_the_rules(&games[0]),
            games[0].result,
            "{axis}: every mark read and drawn where it belongs"
        );
        // A carriage nearer its stop than the encoder says meets the stop early on the way to
        // park, and homes again there; one further from it parks short, and only the grid,
        // crossed before the robot draws, shows it.
        if !toward_the_stop {
            let notes = rig.screens.1.lock().unwrap().clone();
            let slipped = notes
                .iter()
                .find(|n| n.starts_with("The grid had moved ("))
                .unwrap_or_else(|| panic!("{axis}: no word of the slip: {notes:?}"));
            assert!(slipped.contains("so an axis had slipped"), "{slipped}");
        }
        // Every mark the robot drew is centred on its square (the slip, not put right, would
        // put the marks after it 15 degrees off): the grid's four lines first, then its O's.
        for stroke in robot_strokes(&rig).iter().skip(4) {
            let n = stroke.len() as f64;
            let (c, r) = stroke
                .iter()
                .fold((0.0, 0.0), |(c, r), p| (c + p.0 / n, r + p.1 / n));
            let centre = |deg: f64| 20.0 + 100.0 * ((deg - 20.0) / 100.0).floor() + 50.0;
            assert!(
                (c - centre(c)).abs() <= 4.0 && (r - centre(r)).abs() <= 4.0,
                "{axis}: a mark centred at ({c:.1}, {r:.1}), not on its square"
            );
        }
    }
}
