//! The carriage is out of the person's way whenever they are asked to draw: parked at the axes'
//! zero, past the sheet's corner. Between a read that believes their mark and the robot's own
//! move it need not be, and is not sent there and back (docs/figures.md, "The robot's motions").

use super::sim_rig::*;
use ev3_tictactoe::ai::Difficulty;
use ev3_tictactoe::app::scripted::{Strategy, Turn};
use ev3_tictactoe::app::Settings;
use ev3_tictactoe::motion::StopRequest;
use ev3_tictactoe::ui::menu::FirstMove;
use std::cell::RefCell;
use std::rc::Rc;

/// A scripted person who notes where the pen stands each time they are asked to move.
fn noting_the_carriage(
    rig: &Rig,
    seed: u64,
    seen: &Rc<RefCell<Vec<(f64, f64)>>>,
) -> ActsAtEachMove {
    let seen = seen.clone();
    ActsAtEachMove::new(
        rig.scripted(Strategy::Random, seed),
        rig.sim.clone(),
        move |_, sim| {
            let at = sim.world().pen_point();
            seen.borrow_mut().push((at.columns, at.rows));
        },
    )
}

fn assert_all_parked(seen: &[(f64, f64)], what: &str) {
    assert!(!seen.is_empty(), "{what}: nobody was asked to move");
    for &(columns, rows) in seen {
        assert!(
            columns.abs() < 5.0 && rows.abs() < 5.0,
            "{what}: asked to move with the pen at ({columns:.0}, {rows:.0}): {seen:?}"
        );
    }
}

#[test]
fn a_person_is_asked_to_draw_only_with_the_carriage_parked_against_the_robot_and_between_two() {
    let rig = Rig::new(Strategy::Random, 23);
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut person = noting_the_carriage(&rig, 23, &seen);
    // The second press with nothing drawn: "no new mark", and asked again.
    person.inner.turns = [Turn::Play, Turn::PressOnly].into_iter().collect();
    let settings = Settings {
        seed: Some(23),
        ..Settings::default()
    };
    let ending = rig
        .program_with(&mut person, StopRequest::new(), settings.clone())
        .run_games(&Difficulty::medium(), FirstMove::Human, 1);
    assert_done(&ending);
    let against_the_robot = seen.borrow().clone();
    // The press with nothing drawn asks the same person again: one more ask than turns.
    assert!(against_the_robot.len() >= 4, "{against_the_robot:?}");
    assert_all_parked(&against_the_robot, "against the robot");

    let rig = Rig::new(Strategy::Random, 29);
    seen.borrow_mut().clear();
    let mut person = noting_the_carriage(&rig, 29, &seen);
    let ending = rig
        .program_with(&mut person, StopRequest::new(), settings)
        .run_referee_games(1, &mut |_| {});
    assert_done(&ending);
    assert_all_parked(&seen.borrow(), "two people");
}
