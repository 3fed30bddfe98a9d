//! Whole games with the sensor mounted lower or higher than the robot config says: the robot
//! measures its spot on the grid it draws and reads by that (`sensing::measure_eye`), so it
//! sees the person's marks and its own as it does with the right figure.

use super::sim_rig::*;
use ev3_tictactoe::ai::Difficulty;
use ev3_tictactoe::app::scripted::Strategy;
use ev3_tictactoe::config::RobotConfig;
use ev3_tictactoe::hw::sim::SimSettings;
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
            let game = &games[0];
            let moves = game
                .moves
                .iter()
                .map(|(_, cell)| cell.index(3) + 1)
                .collect();
            played.push((moves, game.result));
        }
    }
    (played, own_mark_missed)
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
