//! The menu's levels.

use super::{check, Checked, RobotConfig};
use serde::{Deserialize, Serialize};

/// A level on the brick's menu: what it is called, how often it plays a best move, and what
/// beating it is worth.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelConfig {
    /// The name on the menu and the scoreboard, up to 6 characters so it fits the LCD.
    pub name: String,
    /// How many moves in a hundred are a best move (the rest are random), 0 to 100.
    pub best_moves_percent: u8,
    /// Points a win at this level adds to the score, 1 to 100.
    pub points: u32,
}

impl LevelConfig {
    pub fn difficulty(&self) -> crate::ai::Difficulty {
        crate::ai::Difficulty::new(
            &self.name,
            f64::from(self.best_moves_percent) / 100.0,
            self.points,
        )
    }
}

impl RobotConfig {
    /// The levels on the menu's buttons, left to right.
    pub fn menu_levels(&self) -> [crate::ai::Difficulty; 3] {
        [0, 1, 2].map(|i| self.levels[i].difficulty())
    }

    /// `asked` as this robot plays it: a menu level of the same name, with its points and
    /// share of best moves, or `asked` itself (a built-in level or a percentage).
    pub fn level(&self, asked: &crate::ai::Difficulty) -> crate::ai::Difficulty {
        self.levels
            .iter()
            .find(|level| level.name.eq_ignore_ascii_case(&asked.name))
            .map_or_else(|| asked.clone(), LevelConfig::difficulty)
    }
}

/// Each level's name fits the LCD and is its own, and its figures are in range.
pub(super) fn validate(levels: &[LevelConfig]) -> Checked {
    for (i, level) in levels.iter().enumerate() {
        let field = format!("levels[{i}]");
        check(
            !level.name.trim().is_empty()
                && level.name.chars().count() <= 6
                && level.name.trim() == level.name,
            &format!("{field}.name"),
            format!(
                "is {:?}; a level's name is 1 to 6 characters, so it fits the LCD",
                level.name
            ),
        )?;
        check(
            !levels[..i]
                .iter()
                .any(|other| other.name.eq_ignore_ascii_case(&level.name)),
            &format!("{field}.name"),
            format!("is {:?}, which an earlier level already has", level.name),
        )?;
        check(
            level.best_moves_percent <= 100,
            &format!("{field}.best_moves_percent"),
            format!("is {}; it must be from 0 to 100", level.best_moves_percent),
        )?;
        check(
            (1..=100).contains(&level.points),
            &format!("{field}.points"),
            format!("is {}; it must be from 1 to 100", level.points),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal;
    use super::*;

    #[test]
    fn the_menu_levels_are_data_and_a_level_asked_by_name_plays_as_the_config_says() {
        let config = RobotConfig::parse(
            r#"{"levels": [
                {"name": "50%", "best_moves_percent": 50, "points": 1},
                {"name": "75%", "best_moves_percent": 75, "points": 2},
                {"name": "expert", "best_moves_percent": 100, "points": 5}]}"#,
            "robot.json",
        )
        .unwrap();
        let [left, centre, right] = config.menu_levels();
        assert_eq!(
            (left.name.as_str(), left.optimal_move_probability),
            ("50%", 0.5)
        );
        assert_eq!((centre.name.as_str(), centre.win_points), ("75%", 2));
        assert_eq!((right.name.as_str(), right.win_points), ("expert", 5));
        // `--difficulty 75%` is the config's 75 % level, with its points.
        let asked = crate::ai::Difficulty::parse("75%").unwrap();
        assert_eq!(config.level(&asked), centre);
        // A level the config does not name is played as asked.
        assert_eq!(
            config.level(&crate::ai::Difficulty::hard()),
            crate::ai::Difficulty::hard()
        );
    }

    #[test]
    fn menu_levels_that_do_not_fit_the_lcd_or_repeat_a_name_are_refused() {
        let levels = |a: &str, b: &str, percent: u32, points: u32| {
            format!(
                r#"{{"levels": [{{"name": "{a}", "best_moves_percent": 0, "points": 1}},
                {{"name": "{b}", "best_moves_percent": {percent}, "points": {points}}},
                {{"name": "hard", "best_moves_percent": 100, "points": 3}}]}}"#
            )
        };
        assert!(refusal(&levels("beginner", "medium", 50, 2))
            .contains("levels[0].name is \"beginner\""));
        assert!(refusal(&levels("easy", "Easy", 50, 2))
            .contains("levels[1].name is \"Easy\", which an earlier level already has"));
        assert!(refusal(&levels("easy", "medium", 101, 2))
            .contains("levels[1].best_moves_percent is 101"));
        assert!(refusal(&levels("easy", "medium", 50, 0)).contains("levels[1].points is 0"));
        assert!(refusal(r#"{"levels": []}"#).contains("levels"));
    }
}
