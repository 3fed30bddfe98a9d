//! Whole games with the sensor mounted lower or higher than the robot config says, or beside
//! the pen elsewhere: the robot measures its spot on the grid it draws and reads by that
//! (`sensing::measure_eye`), and finds where the sensor sits from where it sees the grid's
//! lines (`gantry::sensor_place`), so it sees the person's marks and its own as it does with
//! the right figures.

use super::sim_rig::*;
use ev3_tictactoe::ai::Difficulty;
use ev3_tictactoe::app::game::GameReport;
use ev3_tictactoe::app::scripted::Strategy;
use ev3_tictactoe::config::RobotConfig;
use ev3_tictactoe::hw::sim::{PaperPoint, SimBody, SimSettings};
use ev3_tictactoe::scoreboard::GameResult;
use ev3_tictactoe::ui::menu::FirstMove;

/// Games on seeds 0 and 1, either side first, with the config's spot `configured_mm` and the
/// sensor's `real_mm`: each game's moves and result, and how often the robot said it could
/// not see its own mark.
fn games(configured_mm: f64, real_mm: f64) -> (Vec<(Vec<usize>, GameResult)>, usize) {
    let mut played = Vec::new();
    let mut own_mark_missed = 0;
    for seed in 0..2 {
        for first in [FirstMove::Human, FirstMove::Robot] {
            let mut config = RobotConfig::default();
            config.sensing.spot_mm = configured_mm;
            let settings = SimSettings {
                sensor_spot_mm: Some(real_mm),
                seed,
                ..SimSettings::default()
            };
            let mut rig = Rig::of(config, settings, Strategy::Random, seed);
            let (games, ending) = rig.play(&Difficulty::medium(), first, 1, seed);
            assert_done(&ending);
            rig.assert_safe();
            assert!(rig.screens.titled("Game void").is_empty());
            own_mark_missed +=
                rig.screens.titled("My O?").len() + rig.screens.titled("My X?").len();
            played.push(moves_and_result(&games[0]));
        }
    }
    (played, own_mark_missed)
}

/// A game's squares in the order played (numbered 1 to 9) and its result.
fn moves_and_result(game: &GameReport) -> (Vec<usize>, GameResult) {
    let moves = game
        .moves
        .iter()
        .map(|(_, cell)| cell.index(3) + 1)
        .collect();
    (moves, game.result)
}

#[test]
fn a_sensor_mounted_lower_or_higher_than_configured_plays_the_games_the_right_figure_plays() {
    let (right, missed) = games(12.0, 12.0);
    assert_eq!(missed, 0);
    // Nearly touching the paper (6 mm) and a centimetre up (12 mm), each believed the other.
    for (configured, real) in [(12.0, 6.0), (6.0, 12.0), (16.0, 6.0), (6.0, 16.0)] {
        let (played, missed) = games(configured, real);
        assert_eq!(
            missed, 0,
            "configured {configured} mm, the sensor's {real} mm"
        );
        assert!(
            played
                .iter()
                .all(|(_, result)| *result != GameResult::Abandoned),
            "configured {configured} mm, the sensor's {real} mm: {played:?}"
        );
        assert_eq!(
            played, right,
            "configured {configured} mm, the sensor's {real} mm"
        );
    }
}

/// One game on seed 0 with either side first, the sensor built `by` degrees (columns, rows)
/// from where the robot config puts it: each game's moves and result.
fn games_with_the_sensor_moved(by: (f64, f64)) -> Vec<(Vec<usize>, GameResult)> {
    let mut played = Vec::new();
    for first in [FirstMove::Human, FirstMove::Robot] {
        let config = RobotConfig::default();
        let mut body = SimBody::as_configured(&config);
        body.sensor_offset_deg = PaperPoint::new(
            body.sensor_offset_deg.columns + by.0,
            body.sensor_offset_deg.rows + by.1,
        );
        let mut rig = Rig::built(config, &body, SimSettings::default(), Strategy::Random, 0);
        let (games, ending) = rig.play(&Difficulty::medium(), first, 1, 0);
        assert_done(&ending);
        rig.assert_safe();
        assert!(
            rig.screens.titled("Game void").is_empty(),
            "the sensor {by:?} deg off"
        );
        played.push(moves_and_result(&games[0]));
    }
    played
}

#[test]
fn a_sensor_pinned_one_beam_hole_from_where_configured_is_found_on_the_grid_and_plays_the_same_games(
) {
    // A LEGO beam's holes are 8 mm apart: 38 degrees of the default racks. Before the
    // sensor was looked for, each of these either never saw the person's X or misread
    // squares (src/motion/gantry/sensor_place.rs).
    let right = games_with_the_sensor_moved((0.0, 0.0));
    for by in [(38.0, 0.0), (-38.0, 0.0), (0.0, 38.0), (0.0, -38.0)] {
        assert_eq!(
            games_with_the_sensor_moved(by),
            right,
            "the sensor {by:?} deg from where configured"
        );
    }
}
