//! Whole games on the simulated robot through the same `Program` that `play` runs on the brick:
//! the robot homes, draws, reads the scripted human's marks off the virtual paper and draws its
//! own; the scoreboard is a real file.
//!
//! By subject: here whole games, the menu and the scoreboard; `faults` what breaks (a jam, a
//! sensor, the pen, a slipped pinion); `taken_up_again` a game cut short and started again;
//! `sheets` the sheet between games; `out_of_the_way` where the carriage is when a person draws.

#[path = "../sim_rig/mod.rs"]
mod sim_rig;

mod eye;
mod faults;
mod out_of_the_way;
mod room;
mod sheets;
mod taken_up_again;

use ev3_tictactoe::ai::Difficulty;
use ev3_tictactoe::app::panel::Snapshots;
use ev3_tictactoe::app::scripted::{ScriptedHuman, Strategy, Turn};
use ev3_tictactoe::app::{Ending, Settings};
use ev3_tictactoe::config::RobotConfig;
use ev3_tictactoe::game::{Cell, Mark};
use ev3_tictactoe::hw::sim::{Author, SimSettings};
use ev3_tictactoe::motion::StopRequest;
use ev3_tictactoe::scoreboard::store::ScoreFile;
use ev3_tictactoe::scoreboard::{GameResult, Scoreboard};
use ev3_tictactoe::ui::menu::{FirstMove, Key, Menu};
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
fn two_new_marks_at_once_that_the_person_says_are_both_theirs_void_the_game_and_count_it_abandoned()
{
    let mut rig = Rig::new(Strategy::Random, 10);
    let (a, b) = (Cell { row: 0, col: 0 }, Cell { row: 1, col: 2 });
    rig.human.turns.push_back(Turn::Mark(vec![a, b]));
    let (games, ending) = rig.play(&Difficulty::hard(), FirstMove::Human, 1, 10);
    assert_done(&ending);
    assert_eq!(games[0].result, GameResult::Abandoned);
    assert!(games[0].moves.is_empty());
    // Asked first which was theirs; they answered that they drew both.
    assert_eq!(rig.human.asked_which, vec![(vec![a, b], a)]);
    assert_eq!(rig.screens.titled("Which is yours?").len(), 1);
    let said = rig.screens.titled("Game void");
    assert_eq!(
        said[0].paragraphs[0],
        "I saw new marks at square 1 (top left) and square 6 (middle right): one at a time, please."
    );
    assert_eq!(rig.scoreboard().level("hard").abandoned, 1);
    rig.assert_safe();
}

#[test]
fn a_stray_mark_beside_the_move_is_asked_about_taken_as_paper_and_the_game_goes_on() {
    let mut rig = Rig::new(Strategy::Random, 10);
    // The person's X in the middle right square, and a slip of the pen in the top left.
    let (stray, mine) = (Cell { row: 0, col: 0 }, Cell { row: 1, col: 2 });
    rig.human.turns.push_back(Turn::WithStrays {
        mark: Some(mine),
        strays: vec![stray],
    });
    let (games, ending) = rig.play(&Difficulty::hard(), FirstMove::Human, 1, 10);
    assert_done(&ending);
    assert_ne!(games[0].result, GameResult::Abandoned);
    assert_eq!(games[0].moves.first(), Some(&(Mark::X, mine)));
    // Offered the top left first, the person pressed right, then centre at their own square;
    // the stray square, paper from then on, was never seen as a new mark again.
    assert_eq!(
        rig.human.asked_which,
        vec![(vec![stray, mine], stray), (vec![stray, mine], mine)]
    );
    let asked = rig.screens.titled("Which is yours?");
    assert_eq!(
        asked[0].paragraphs,
        vec![
            "I see new marks at square 1 (top left) and square 6 (middle right).",
            "Yours: square 1 (top left)?",
            "Left, right: another. Centre: yes. Up: none is mine. Down: I drew more than one.",
        ]
    );
    assert!(rig.screens.titled("Game void").is_empty());
    rig.assert_safe();
}

#[test]
fn ink_in_two_squares_that_the_person_says_is_not_theirs_is_taken_as_paper_and_they_are_asked_again(
) {
    let mut rig = Rig::new(Strategy::Random, 11);
    let (a, b) = (Cell { row: 0, col: 2 }, Cell { row: 2, col: 0 });
    rig.human.turns.push_back(Turn::WithStrays {
        mark: None,
        strays: vec![a, b],
    });
    let (games, ending) = rig.play(&Difficulty::hard(), FirstMove::Human, 1, 11);
    assert_done(&ending);
    assert_ne!(games[0].result, GameResult::Abandoned);
    // Up, none is theirs: both squares are paper now, the board read again at once shows no
    // new mark, and the person is asked for their move as before.
    assert_eq!(rig.human.asked_which, vec![(vec![a, b], a)]);
    let titles: Vec<String> = rig.screens.all().into_iter().map(|v| v.title).collect();
    let asked = titles.iter().position(|t| t == "Which is yours?").unwrap();
    assert_eq!(
        titles[asked + 1..asked + 3],
        ["Reading the board", "No new mark"],
        "{titles:?}"
    );
    assert!(rig.screens.titled("Game void").is_empty());
    rig.assert_safe();
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
