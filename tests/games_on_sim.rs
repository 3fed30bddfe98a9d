//! Whole games on the simulated robot through the same `Program` that `play` runs on the brick:
//! the robot homes, draws, reads the scripted human's marks off the virtual paper and draws its
//! own; the scoreboard is a real file.

mod sim_rig;

use ev3_tictactoe::ai::Difficulty;
use ev3_tictactoe::app::game::GameReport;
use ev3_tictactoe::app::panel::Snapshots;
use ev3_tictactoe::app::scripted::{ScriptedHuman, Strategy, Turn};
use ev3_tictactoe::app::{Ending, Settings};
use ev3_tictactoe::config::Axis;
use ev3_tictactoe::config::RobotConfig;
use ev3_tictactoe::game::{Cell, Mark, Status};
use ev3_tictactoe::hw::sim::{Author, Faults, MotorFault, SimRobot, SimSettings};
use ev3_tictactoe::motion::StopRequest;
use ev3_tictactoe::scoreboard::store::ScoreFile;
use ev3_tictactoe::scoreboard::{GameResult, Scoreboard};
use ev3_tictactoe::ui::menu::{FirstMove, Key, Menu};
use ev3_tictactoe::ui::view::View;
use sim_rig::*;
use std::time::{Duration, UNIX_EPOCH};

#[test]
fn every_level_plays_whole_games_with_either_side_first() {
    for (i, level) in Difficulty::levels().into_iter().enumerate() {
        for first in [FirstMove::Human, FirstMove::Robot] {
            let mut rig = Rig::new(Strategy::Random, i as u64);
            let (games, ending) = rig.play(&level, first, 1, 10 + i as u64);
            assert_done(&ending);
            let game = &games[0];
            let what = format!("{} level, {first:?} first", level.name);
            let human = if first == FirstMove::Human {
                Mark::X
            } else {
                Mark::O
            };
            assert_eq!(game.human, human, "{what}");
            assert_eq!(game.moves[0].0, Mark::X, "{what}: X moves first");
            for pair in game.moves.windows(2) {
                assert_ne!(pair[0].0, pair[1].0, "{what}: turns alternate");
            }
            assert_eq!(game.result, result_by_the_rules(game), "{what}");
            assert_ne!(game.result, GameResult::Abandoned, "{what}");
            // Every move of the robot's is on the paper: the grid, its marks and a win line.
            let robot_moves = game.moves.iter().filter(|(m, _)| *m != human).count();
            let robot_strokes = rig
                .sim
                .world()
                .paper()
                .strokes()
                .filter(|s| s.author == Author::Robot)
                .count();
            assert!(
                robot_strokes >= 4 + robot_moves,
                "{what}: {robot_strokes} strokes for {robot_moves} moves"
            );
            let record = rig.scoreboard().level(&level.name);
            assert_eq!(
                (record.wins, record.draws, record.losses, record.abandoned),
                match game.result {
                    GameResult::HumanWon => (1, 0, 0, 0),
                    GameResult::Draw => (0, 1, 0, 0),
                    _ => (0, 0, 1, 0),
                },
                "{what}"
            );
            rig.assert_safe();
        }
    }
}

#[test]
fn hard_never_loses_to_the_perfect_human() {
    for first in [FirstMove::Human, FirstMove::Robot] {
        let mut rig = Rig::new(Strategy::Perfect, 3);
        let (games, ending) = rig.play(&Difficulty::hard(), first, 3, 4);
        assert_done(&ending);
        for game in &games {
            assert_eq!(
                game.result,
                GameResult::Draw,
                "{first:?} first: {:?}",
                game.moves
            );
        }
    }
}

#[test]
fn hard_beats_the_random_human_most_of_the_time_and_never_loses() {
    let mut rig = Rig::new(Strategy::Random, 5);
    let (games, ending) = rig.play(&Difficulty::hard(), FirstMove::CoinToss, 12, 6);
    assert_done(&ending);
    let count = |r| games.iter().filter(|g| g.result == r).count();
    assert_eq!(count(GameResult::HumanWon), 0);
    assert!(
        count(GameResult::HumanLost) >= 8,
        "the robot won only {} of 12",
        count(GameResult::HumanLost)
    );
    let record = rig.scoreboard().level("hard");
    assert_eq!(record.losses as usize, count(GameResult::HumanLost));
    assert_eq!(record.draws as usize, count(GameResult::Draw));
}

#[test]
fn the_scoreboard_file_holds_what_the_scoring_rules_say() {
    let mut rig = Rig::new(Strategy::Random, 7);
    let easy = Difficulty::easy();
    let (games, ending) = rig.play(&easy, FirstMove::Human, 6, 8);
    assert_done(&ending);
    let mut expected = Scoreboard::new();
    for game in &games {
        expected.record(&easy, game.result, UNIX_EPOCH);
    }
    let mut stored = rig.scoreboard();
    // The time of the last game is the only thing the rules do not decide.
    for record in stored
        .levels
        .values_mut()
        .chain(expected.levels.values_mut())
    {
        record.last_played = None;
    }
    assert_eq!(stored, expected);
    assert!(
        games.iter().any(|g| g.result == GameResult::HumanWon),
        "the random human should win some easy games in six; pick another seed"
    );
}

#[test]
fn a_press_without_a_new_mark_is_answered_and_the_game_goes_on() {
    let mut rig = Rig::new(Strategy::Random, 9);
    rig.human.turns.push_back(Turn::PressOnly);
    let (games, ending) = rig.play(&Difficulty::medium(), FirstMove::Human, 1, 9);
    assert_done(&ending);
    assert_ne!(games[0].result, GameResult::Abandoned);
    let asked = rig.screens.titled("No new mark");
    assert_eq!(asked.len(), 1);
    assert_eq!(
        asked[0].paragraphs,
        vec!["I see no new mark: fill your square darker and press again."]
    );
    assert!(rig.low_tones_played() >= 1, "the invalid-move sound");
}

#[test]
fn two_new_marks_at_once_void_the_game_and_count_it_abandoned() {
    let mut rig = Rig::new(Strategy::Random, 10);
    let (a, b) = (Cell { row: 0, col: 0 }, Cell { row: 1, col: 2 });
    rig.human.turns.push_back(Turn::Mark(vec![a, b]));
    let (games, ending) = rig.play(&Difficulty::hard(), FirstMove::Human, 1, 10);
    assert_done(&ending);
    assert_eq!(games[0].result, GameResult::Abandoned);
    assert!(games[0].moves.is_empty());
    let said = rig.screens.titled("Game void");
    assert_eq!(
        said[0].paragraphs[0],
        "I saw new marks at square 1 (top left) and square 6 (middle right): one at a time, please."
    );
    assert_eq!(rig.scoreboard().level("hard").abandoned, 1);
    rig.assert_safe();
}

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
fn the_menu_shows_the_scores_plays_a_chosen_game_and_exits() {
    let mut rig = Rig::new(Strategy::Random, 13);
    let snapshots = rig.folder.path().join("lcd");
    // After the game, the scores: any key but centre (a game for two) goes back.
    rig.human.keys = [
        Key::Down,
        Key::Left,
        Key::Right,
        Key::Right,
        Key::Left,
        Key::Up,
    ]
    .into_iter()
    .collect();
    let ending = {
        let mut program = rig.program(13);
        program.panel.snapshots = Some(Snapshots::into_folder(snapshots.clone()).unwrap());
        program.run_menu()
    };
    assert_done(&ending);
    assert_eq!(
        rig.human.menus_seen,
        vec![
            Menu::Main,
            Menu::Scores,
            Menu::Main,
            Menu::ChooseFirst(Difficulty::hard()),
            Menu::Scores,
            Menu::Main,
        ]
    );
    let hard = rig.scoreboard().level("hard");
    assert_eq!(hard.wins + hard.draws + hard.losses, 1, "one hard game");
    // The robot moved first: the second screen after homing names its move.
    let mine = rig.screens.titled("My move");
    assert!(!mine.is_empty());
    assert_eq!(rig.screens.last().title, "Goodbye");
    rig.assert_safe();
    // Every screen was saved as a picture of the LCD, and the sim's LCD shows the last one.
    let pictures = std::fs::read_dir(&snapshots).unwrap().count();
    assert_eq!(pictures, rig.screens.all().len());
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(snapshots.join("lcd-0001.png")).unwrap(),
    ));
    let info = decoder.read_info().unwrap().info().clone();
    assert_eq!((info.width, info.height), (356, 256));
    let world = rig.sim.world();
    let lcd = world.screen().expect("the LCD was drawn");
    assert!(lcd.is_black(0, 0) && lcd.is_black(177, 14), "the title bar");
}

#[test]
fn with_nothing_pressed_the_robot_parks_and_the_program_ends() {
    let mut rig = Rig::new(Strategy::Random, 14);
    rig.settings.idle_timeout = Duration::from_secs(30);
    let ending = rig.program(14).run_menu();
    assert!(matches!(ending, Ending::Idle), "{ending:?}");
    assert_eq!(rig.screens.last().title, "Parked");
    // The time as it was set, not rounded to minutes.
    assert!(
        rig.screens.last().paragraphs[0].starts_with("Nothing was pressed for 30s,"),
        "{:?}",
        rig.screens.last()
    );
    let waited = rig.sim.world().now();
    assert!(waited >= Duration::from_secs(30) && waited < Duration::from_secs(31));
    rig.assert_safe();
}

#[test]
fn the_idle_timer_runs_only_while_the_robot_waits_for_the_person() {
    // Each move takes the person 25 s of a 30 s timeout. Homing and the grid (about 10 s), and
    // each of the robot's turns (reading and drawing, 5 to 15 s), come on top; counted, they
    // would leave the person a few seconds and the game would be abandoned.
    let mut rig = Rig::new(Strategy::Random, 21);
    rig.settings.idle_timeout = Duration::from_secs(30);
    rig.human.think_time = Duration::from_secs(25);
    let (games, ending) = rig.play(&Difficulty::medium(), FirstMove::Human, 1, 21);
    assert_done(&ending);
    assert_eq!(games.len(), 1, "the game was played to its end");
    let level = rig.scoreboard().level("medium");
    assert_eq!(level.abandoned, 0);
    assert_eq!(level.wins + level.losses + level.draws, 1);
    rig.assert_safe();
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

/// A human who never moves.
struct Absent;

impl ev3_tictactoe::app::Person for Absent {}

#[test]
fn a_human_who_walks_away_mid_game_abandons_it_and_the_robot_parks() {
    let rig = Rig::new(Strategy::Random, 15);
    let mut absent = Absent;
    let settings = Settings {
        idle_timeout: Duration::from_secs(60),
        ..Settings::default()
    };
    let ending = rig
        .program_with(
            &mut absent,
            StopRequest::new(),
            Settings {
                seed: Some(3),
                ..settings
            },
        )
        .run_games(&Difficulty::medium(), FirstMove::Human, 1);
    assert!(matches!(ending, Ending::Idle), "{ending:?}");
    assert_eq!(rig.scoreboard().level("medium").abandoned, 1);
    let world = rig.sim.world();
    assert_eq!(world.driven_motors(), vec![]);
    assert!(!world.pen_is_down());
    let at = world.pen_point();
    assert!(
        at.columns.abs() < 5.0 && at.rows.abs() < 5.0,
        "parked at {at:?}"
    );
    drop(world);
}

#[test]
fn a_low_battery_is_warned_about_at_start() {
    let settings = SimSettings {
        battery_v: 6.1,
        ..SimSettings::default()
    };
    let mut rig = Rig::with(settings, Strategy::Random, 16);
    let (_, ending) = rig.play(&Difficulty::easy(), FirstMove::Robot, 1, 16);
    assert_done(&ending);
    let warning = &rig.screens.all()[0];
    assert_eq!(warning.title, "Battery low");
    assert!(warning.paragraphs[0].starts_with("6.1 V"), "{warning:?}");
}

#[test]
fn without_buttons_the_menu_says_so_and_direct_play_still_works() {
    let mut rig = Rig::new(Strategy::Random, 17);
    rig.buttons = Some("no /dev/input/by-path/platform-gpio_keys-event".into());
    let Ending::Failed(error) = rig.program(17).run_menu() else {
        panic!("the menu ran without buttons")
    };
    let message = format!("{error:#}");
    assert!(message.contains("buttons cannot be read"), "{message}");
    assert!(message.contains("play --difficulty"), "{message}");
    assert_eq!(rig.screens.last().title, "Error");
    let (games, ending) = rig.play(&Difficulty::easy(), FirstMove::Human, 1, 17);
    assert_done(&ending);
    assert_eq!(games.len(), 1);
}

/// The simulated robot's gantry and buttons, with no battery to read.
#[test]
fn a_scoreboard_that_cannot_keep_the_game_is_found_before_the_robot_moves() {
    let mut rig = Rig::new(Strategy::Random, 24);
    let robot_json = rig.folder.path().join("robot.json");
    std::fs::write(&robot_json, RobotConfig::default_json()).unwrap();
    rig.scores = ScoreFile::new(&robot_json);
    let (games, ending) = rig.play(&Difficulty::easy(), FirstMove::Human, 1, 24);
    assert!(games.is_empty());
    let Ending::Failed(error) = ending else {
        panic!("the run ended {ending:?}")
    };
    let said = format!("{error:#}");
    assert!(said.contains("robot.json is not a scoreboard"), "{said}");
    assert_eq!(
        std::fs::read_to_string(&robot_json).unwrap(),
        RobotConfig::default_json(),
        "the robot config is left as it was"
    );
    assert!(
        rig.sim.world().paper().strokes().next().is_none(),
        "nothing was drawn"
    );
}

/// Plays perfectly, and on the last move takes the scoreboard away: a folder stands in its
/// place, as if the card were swapped.
struct ScoreboardThief {
    inner: ScriptedHuman,
    scores: std::path::PathBuf,
}

impl ev3_tictactoe::app::Person for ScoreboardThief {
    fn new_sheet(&mut self) {
        self.inner.new_sheet();
    }

    fn your_move(&mut self, board: &ev3_tictactoe::game::Board, mark: Mark) {
        self.inner.your_move(board, mark);
        if board.empty_cells().count() <= 2 {
            let _ = std::fs::remove_file(&self.scores);
            let _ = std::fs::create_dir(&self.scores);
        }
    }
}

#[test]
fn a_game_that_cannot_be_recorded_is_kept_beside_the_scoreboard_and_said() {
    let rig = Rig::new(Strategy::Perfect, 25);
    let _sim = rig.sim.clone();
    let mut thief = ScoreboardThief {
        inner: rig.scripted(Strategy::Perfect, 25),
        scores: rig.scores.path().to_path_buf(),
    };
    let ending = rig
        .program_with(
            &mut thief,
            StopRequest::new(),
            Settings {
                seed: Some(25),
                ..Settings::default()
            },
        )
        .run_games(&Difficulty::hard(), FirstMove::Human, 1);
    let Ending::Failed(error) = ending else {
        panic!("the run ended {ending:?}")
    };
    let said = format!("{error:#}");
    assert!(said.contains("the result is kept in"), "{said}");
    let kept: Vec<_> = std::fs::read_dir(rig.folder.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("scoreboard.json.unrecorded-"))
        .collect();
    assert_eq!(kept.len(), 1, "{said}");
    let game: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&kept[0]).unwrap()).unwrap();
    assert_eq!(game["level"], "hard");
    assert_eq!(game["result"], "draw", "perfect play against hard");
    rig.assert_safe();
}

/// Plays as `inner` until its `at_move`-th move, then asks the program to stop: after drawing
/// and pressing (`drawn`), or without touching the paper, as if the brick lost power then.
struct CutShort {
    inner: ScriptedHuman,
    stop: StopRequest,
    at_move: usize,
    drawn: bool,
    moves: usize,
}

impl ev3_tictactoe::app::Person for CutShort {
    fn new_sheet(&mut self) {
        self.inner.new_sheet();
    }

    fn asked_to_go_on(&mut self) {
        self.inner.asked_to_go_on();
    }

    fn your_move(&mut self, board: &ev3_tictactoe::game::Board, mark: Mark) {
        self.moves += 1;
        if self.moves == self.at_move {
            if self.drawn {
                self.inner.your_move(board, mark);
            }
            self.stop.request(15);
            return;
        }
        self.inner.your_move(board, mark);
    }
}

/// Plays one game on `rig` that is cut short at the person's `at_move`-th move; returns the
/// moves journalled.
fn cut_short(rig: &Rig, first: FirstMove, at_move: usize, drawn: bool) -> Vec<Cell> {
    let stop = StopRequest::new();
    let mut person = CutShort {
        inner: rig.scripted(Strategy::Random, at_move as u64),
        stop: stop.clone(),
        at_move,
        drawn,
        moves: 0,
    };
    let ending = rig
        .program_with(
            &mut person,
            stop,
            Settings {
                seed: Some(30),
                ..Settings::default()
            },
        )
        .run_games(&Difficulty::medium(), first, 1);
    assert!(matches!(ending, Ending::Interrupted { .. }), "{ending:?}");
    let journal = ev3_tictactoe::app::journal::JournalFile::beside(&rig.scores)
        .load()
        .unwrap()
        .expect("the game in progress is kept");
    journal.moves
}

/// Starts the program again on the same robot and sheet, the person pressing `answer` when
/// asked to go on; the games it reported and how it ended.
fn start_again(rig: &Rig, answer: Key) -> (Vec<GameReport>, Ending) {
    let mut person = rig.scripted(Strategy::Random, 31);
    person.keys.push_back(answer);
    let mut games = Vec::new();
    let ending = rig
        .program_with(
            &mut person,
            StopRequest::new(),
            Settings {
                seed: Some(32),
                ..Settings::default()
            },
        )
        .run_games_reporting(&Difficulty::medium(), FirstMove::Human, 0, &mut |game| {
            games.push(game.clone())
        });
    (games, ending)
}

#[test]
fn a_game_cut_short_is_taken_up_again_on_the_same_sheet_and_played_to_its_end() {
    for (first, at_move, drawn) in [
        // While reading the person's first mark: the mark is on the paper, not in the journal.
        (FirstMove::Human, 1, true),
        // While waiting for the person's second move, after the robot drew its mark.
        (FirstMove::Human, 2, false),
        // Robot first, while reading the person's second mark.
        (FirstMove::Robot, 2, true),
    ] {
        let rig = Rig::new(Strategy::Random, 26);
        let journalled = cut_short(&rig, first, at_move, drawn);
        let (games, ending) = start_again(&rig, Key::Centre);
        assert_done(&ending);
        assert_eq!(
            games.len(),
            1,
            "{first:?} at move {at_move}: the game went on"
        );
        let game = &games[0];
        let played: Vec<Cell> = game.moves.iter().map(|&(_, cell)| cell).collect();
        assert_eq!(
            played[..journalled.len()],
            journalled[..],
            "it went on from the journalled moves"
        );
        assert!(
            game.board.status() != Status::ToMove(Mark::X)
                && game.board.status() != Status::ToMove(Mark::O)
        );
        assert_eq!(result_by_the_rules(game), game.result);
        let level = rig.scoreboard().level("medium");
        assert_eq!(level.wins + level.draws + level.losses + level.abandoned, 1);
        assert!(
            !ev3_tictactoe::app::journal::JournalFile::beside(&rig.scores)
                .path()
                .exists(),
            "the journal goes once the game is recorded"
        );
        rig.assert_safe();
    }
}

#[test]
fn a_sheet_that_does_not_match_the_game_cut_short_is_named_square_by_square() {
    let rig = Rig::new(Strategy::Random, 27);
    let journalled = cut_short(&rig, FirstMove::Human, 3, false);
    // Someone put in a fresh sheet meanwhile.
    rig.sim.world().paper_mut().clear();
    let (games, ending) = start_again(&rig, Key::Centre);
    assert_done(&ending);
    assert!(games.is_empty());
    let screen = rig
        .screens
        .all()
        .into_iter()
        .find(|view| view.title == "Not the same sheet")
        .expect("the mismatch is shown");
    let said = screen.paragraphs.join(" ");
    for cell in &journalled {
        let name = cell.name(3);
        assert!(
            said.contains(&format!("{name} should hold")),
            "{name}: {said}"
        );
    }
    assert_eq!(rig.scoreboard().level("medium").abandoned, 1);
    rig.assert_safe();
}

#[test]
fn a_game_cut_short_that_the_person_gives_up_counts_as_abandoned_and_nothing_moves() {
    let rig = Rig::new(Strategy::Random, 28);
    cut_short(&rig, FirstMove::Human, 2, true);
    let before = rig.sim.world().now();
    let (games, ending) = start_again(&rig, Key::Down);
    assert_done(&ending);
    assert!(games.is_empty());
    assert_eq!(rig.scoreboard().level("medium").abandoned, 1);
    assert!(
        rig.sim.world().now() - before < Duration::from_secs(5),
        "no homing, no reading"
    );
}

#[test]
fn an_evening_of_three_games_asks_for_a_fresh_sheet_between_them_and_voids_none() {
    let mut rig = Rig::new(Strategy::Random, 33);
    let (games, ending) = rig.play(&Difficulty::medium(), FirstMove::CoinToss, 3, 33);
    assert_done(&ending);
    assert_eq!(games.len(), 3);
    assert!(
        games.iter().all(|g| g.result != GameResult::Abandoned),
        "no game voided by the last one's marks"
    );
    let asked = rig
        .screens
        .all()
        .iter()
        .filter(|v| v.title == "Fresh sheet, please")
        .count();
    assert_eq!(asked, 2, "asked between the games, not before the first");
    rig.assert_safe();
}

/// Asked for a fresh sheet, presses the touch sensor without changing it the first time.
struct KeepsTheOldSheet {
    inner: ScriptedHuman,
    sim: SimRobot,
    asked: usize,
}

impl ev3_tictactoe::app::Person for KeepsTheOldSheet {
    fn new_sheet(&mut self) {
        self.asked += 1;
        if self.asked == 1 {
            self.sim
                .world()
                .press_touch_after(Duration::from_secs(2), Duration::from_millis(200));
        } else {
            self.inner.new_sheet();
        }
    }

    fn your_move(&mut self, board: &ev3_tictactoe::game::Board, mark: Mark) {
        self.inner.your_move(board, mark);
    }
}

#[test]
fn a_sheet_left_from_the_last_game_is_named_before_the_grid_and_the_game_is_not_voided() {
    // Not every seed: under the default 12 mm spot the check of a sheet every square of which
    // holds a mark from the last game misses it for some noise (seeds 30, 33, 34 and 37 of 30
    // to 37, before the ruler's sweeps as after), and this scripted person then never redraws.
    // That weakness is the used-sheet check's, noted in the issue; this test is of the asking.
    const SEED: u64 = 35;
    let mut rig = Rig::new(Strategy::Random, SEED);
    rig.play(&Difficulty::easy(), FirstMove::Human, 1, SEED);
    let sim = rig.sim.clone();
    let mut person = KeepsTheOldSheet {
        inner: rig.scripted(Strategy::Random, SEED),
        sim: sim.clone(),
        asked: 0,
    };
    let screens = rig.screens.clone();
    let mut games = Vec::new();
    let ending = rig
        .program_with(
            &mut person,
            StopRequest::new(),
            Settings {
                seed: Some(SEED),
                ..Settings::default()
            },
        )
        .run_games_reporting(&Difficulty::easy(), FirstMove::Human, 1, &mut |g| {
            games.push(g.clone())
        });
    assert_done(&ending);
    let asks: Vec<View> = screens
        .all()
        .into_iter()
        .filter(|v| v.title == "Fresh sheet, please")
        .collect();
    assert_eq!(
        asks.len(),
        2,
        "found before the grid, and again after the same sheet"
    );
    for ask in &asks {
        assert!(
            ask.paragraphs[0].starts_with("I see marks at ")
                || ask.paragraphs[0] == "I see a grid already drawn on it.",
            "{ask:?}"
        );
    }
    assert_eq!(games.len(), 1);
    assert_ne!(games[0].result, GameResult::Abandoned, "not voided");
    assert_eq!(person.asked, 2);
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
