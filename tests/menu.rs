//! The menu, as a person at the brick meets it: every button in every state.

use ev3_tictactoe::ai::Difficulty;
use ev3_tictactoe::hw::Buttons;
use ev3_tictactoe::ui::menu::{Action, FirstMove, Key, Menu};

fn levels() -> [Difficulty; 3] {
    Difficulty::levels()
}

fn play(difficulty: Difficulty, first: FirstMove) -> Action {
    Action::Play { difficulty, first }
}

#[test]
fn the_main_menu_picks_a_level_shows_scores_or_exits() {
    let cases = [
        (
            Key::Left,
            Menu::ChooseFirst(Difficulty::easy()),
            Action::Show,
        ),
        (
            Key::Centre,
            Menu::ChooseFirst(Difficulty::medium()),
            Action::Show,
        ),
        (
            Key::Right,
            Menu::ChooseFirst(Difficulty::hard()),
            Action::Show,
        ),
        (Key::Down, Menu::Scores, Action::Show),
        (Key::Up, Menu::Main, Action::Exit),
    ];
    for (key, state, action) in cases {
        assert_eq!(
            Menu::Main.press(key, &levels()),
            (state, action),
            "main menu, {key:?}"
        );
    }
}

#[test]
fn after_the_level_the_player_chooses_who_starts_or_goes_back() {
    for level in Difficulty::levels() {
        let at = || Menu::ChooseFirst(level.clone());
        let cases = [
            (Key::Left, Menu::Main, play(level.clone(), FirstMove::Human)),
            (
                Key::Right,
                Menu::Main,
                play(level.clone(), FirstMove::Robot),
            ),
            (
                Key::Centre,
                Menu::Main,
                play(level.clone(), FirstMove::CoinToss),
            ),
            (Key::Up, Menu::Main, Action::Show),
            (Key::Down, at(), Action::Ignore),
        ];
        for (key, state, action) in cases {
            assert_eq!(
                at().press(key, &levels()),
                (state, action),
                "{} level, {key:?}",
                level.name
            );
        }
    }
}

#[test]
fn on_the_scores_centre_starts_a_game_for_two_people_down_opens_the_setup_and_any_other_goes_back()
{
    for key in Key::ALL {
        let expected = match key {
            Key::Centre => (Menu::Main, Action::Referee),
            Key::Down => (Menu::Settings, Action::Show),
            _ => (Menu::Main, Action::Show),
        };
        assert_eq!(Menu::Scores.press(key, &levels()), expected, "{key:?}");
    }
}

#[test]
fn the_setup_is_two_presses_from_the_main_menu() {
    let (scores, _) = Menu::Main.press(Key::Down, &levels());
    let (setup, action) = scores.press(Key::Down, &levels());
    assert_eq!((setup, action), (Menu::Settings, Action::Show));
}

#[test]
fn on_the_setup_centre_calibrates_left_turns_the_voice_over_right_shows_the_eye_down_asks_to_reset_and_up_goes_back(
) {
    let cases = [
        (Key::Left, Menu::Settings, Action::ToggleVoice),
        (Key::Right, Menu::Eye, Action::Show),
        (Key::Down, Menu::ConfirmReset, Action::Show),
        (Key::Up, Menu::Main, Action::Show),
        (Key::Centre, Menu::Settings, Action::Calibrate),
    ];
    for (key, state, action) in cases {
        assert_eq!(
            Menu::Settings.press(key, &levels()),
            (state, action),
            "setup, {key:?}"
        );
    }
}

#[test]
fn any_button_leaves_the_robots_eye_for_the_setup() {
    for key in Key::ALL {
        assert_eq!(
            Menu::Eye.press(key, &levels()),
            (Menu::Settings, Action::Show),
            "{key:?}"
        );
    }
}

#[test]
fn only_the_centre_button_resets_the_scores_and_every_other_keeps_them() {
    for key in Key::ALL {
        let expected = if key == Key::Centre {
            Action::ResetScores
        } else {
            Action::Show
        };
        assert_eq!(
            Menu::ConfirmReset.press(key, &levels()),
            (Menu::Settings, expected),
            "{key:?}"
        );
    }
}

#[test]
fn the_three_buttons_pick_the_levels_the_robot_config_names() {
    let own = [
        Difficulty::best_moves_percent(50).unwrap(),
        Difficulty::best_moves_percent(75).unwrap(),
        Difficulty::new("expert", 1.0, 5),
    ];
    for (key, level) in [Key::Left, Key::Centre, Key::Right].into_iter().zip(&own) {
        assert_eq!(
            Menu::Main.press(key, &own),
            (Menu::ChooseFirst(level.clone()), Action::Show)
        );
    }
}

#[test]
fn a_key_counts_once_when_it_goes_down_and_never_while_held() {
    let none = Buttons::default();
    let left = Buttons { left: true, ..none };
    assert_eq!(Key::pressed(none, left), Some(Key::Left));
    assert_eq!(Key::pressed(left, left), None, "held");
    assert_eq!(Key::pressed(left, none), None, "released");
    let each = [
        (Key::Up, Buttons { up: true, ..none }),
        (Key::Down, Buttons { down: true, ..none }),
        (
            Key::Right,
            Buttons {
                right: true,
                ..none
            },
        ),
        (
            Key::Centre,
            Buttons {
                centre: true,
                ..none
            },
        ),
    ];
    for (key, buttons) in each {
        assert_eq!(Key::pressed(none, buttons), Some(key));
    }
}

#[test]
fn two_keys_at_once_and_the_back_button_are_not_controls() {
    let none = Buttons::default();
    let palm = Buttons {
        left: true,
        right: true,
        ..none
    };
    assert_eq!(Key::pressed(none, palm), None);
    let back = Buttons { back: true, ..none };
    assert_eq!(Key::pressed(none, back), None);
}
