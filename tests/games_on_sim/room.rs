//! Whole games in a room whose light changes: the robot plays them to the same end as in
//! steady light (docs/sensor.md, "The room", gives each figure and its range).

use super::sim_rig::*;
use ev3_tictactoe::ai::Difficulty;
use ev3_tictactoe::app::scripted::Strategy;
use ev3_tictactoe::hw::sim::{RoomLight, SheetAxis, SimSettings};
use ev3_tictactoe::scoreboard::GameResult;
use ev3_tictactoe::ui::menu::FirstMove;

/// One game as it went: who went first, on which seed, its moves and its result.
type Played = (String, GameResult);

/// A game on each seed in `seeds` with either side first, in `room`, and how many times the
/// robot read a board again because it doubted what the light showed.
fn games_in(room: RoomLight, seeds: std::ops::Range<u64>) -> (Vec<Played>, usize) {
    games_beside(None, room, seeds)
}

/// As [`games_in`], the sheet lying on a surface that reads `beside_sheet` where the sensor
/// parks (`None`: the sheet reaches past it).
fn games_beside(
    beside_sheet: Option<f64>,
    room: RoomLight,
    seeds: std::ops::Range<u64>,
) -> (Vec<Played>, usize) {
    let mut played = Vec::new();
    let mut read_again = 0;
    for seed in seeds {
        for first in [FirstMove::Human, FirstMove::Robot] {
            let mut settings = SimSettings {
                room,
                seed,
                ..SimSettings::default()
            };
            settings.look.beside_sheet_percent = beside_sheet;
            let mut rig = Rig::with(settings, Strategy::Random, seed);
            let (games, ending) = rig.play(&Difficulty::medium(), first, 1, seed);
            assert_done(&ending);
            rig.assert_safe();
            assert!(rig.screens.titled("Game void").is_empty());
            read_again += rig.screens.titled("Reading again").len();
            let game = &games[0];
            let what = format!("seed {seed}, {first:?} first: {:?}", game.moves);
            played.push((what, game.result));
        }
    }
    (played, read_again)
}

#[test]
fn a_shadow_after_each_press_and_a_drifting_light_end_games_as_steady_light_does() {
    // What voided every game before each read measured the light: a person's shadow of 7 %
    // for a second and a half after they press, and the light drifting by 8 %.
    let room = RoomLight {
        drift_percent: 8.0,
        drift_period_s: 120.0,
        shadow_percent: 7.0,
        shadow_s: 1.5,
        ..RoomLight::default()
    };
    let (in_the_room, _) = games_in(room, 0..3);
    let (steady, never) = games_in(RoomLight::default(), 0..3);
    assert_eq!(never, 0, "steady light is never doubted");
    assert_eq!(in_the_room, steady);
}

#[test]
fn in_the_harsh_room_every_game_ends_as_in_steady_light() {
    // The light swinging 15 %, a shadow of 20 % after each press, a lamp to one side switched
    // on half a minute in. (The robot waits for the shadow to lift where it sees it, or reads
    // the squares it lay on again: `gantry_on_sim/shadow.rs`.)
    let (harsh, read_again) = games_in(RoomLight::harsh(), 0..4);
    println!("boards read again in the harsh room: {read_again}");
    assert!(harsh
        .iter()
        .all(|(_, result)| *result != GameResult::Abandoned));
    assert_eq!(harsh, games_in(RoomLight::default(), 0..4).0);
}

#[test]
fn with_the_harsh_room_s_lamp_by_the_rows_far_end_every_game_ends_as_in_steady_light() {
    // The lamp's unevenness along the order the robot reads the rows in, as a drift lies.
    // (These eight games end as in steady light with or without the read's later looks
    // holding its slope; `reading_marks.rs` holds the world where that mattered.)
    let room = RoomLight {
        lamp_brighter_along: SheetAxis::Rows,
        ..RoomLight::harsh()
    };
    let (harsh, _) = games_in(room, 0..4);
    assert_eq!(harsh, games_in(RoomLight::default(), 0..4).0);
}

#[test]
fn on_a_dark_table_the_harsh_room_s_games_end_as_in_steady_light_too() {
    // The parked sensor over a dark table beside the sheet cannot see the person's shadow, so
    // the robot does not wait for it: the squares it lay on are read again instead.
    let (harsh, _) = games_beside(Some(5.0), RoomLight::harsh(), 0..4);
    assert_eq!(harsh, games_in(RoomLight::default(), 0..4).0);
}
