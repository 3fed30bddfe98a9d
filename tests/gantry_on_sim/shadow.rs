//! A person's shadow after they press: where the parked sensor sees it, the read waits for it
//! to lift before its first look; where it does not, the squares the shadow lay on are read
//! again once it has gone.

use super::*;
use ev3_tictactoe::hw::sim::RoomLight;

/// How long the person holds the touch sensor down.
const PRESS: Duration = Duration::from_millis(200);

/// Where the person draws their X.
const CENTRE: Cell = Cell { row: 1, col: 1 };

/// The harsh end of a person's shadow (docs/sensor.md, "The room"), and nothing else.
fn a_shadow_after_each_press() -> RoomLight {
    RoomLight {
        shadow_percent: 20.0,
        shadow_s: 1.5,
        ..RoomLight::default()
    }
}

/// What one turn showed: the marks read, when the read's first reading came after the press,
/// and how many squares its first look read (with any it read again).
struct Turn {
    seen: NewMarks,
    first_reading_after: Duration,
    first_look_squares: usize,
}

/// Sets a sheet up in `room`, draws an X in the centre and presses as a person does; the robot
/// reads the board, having read the paper at rest as the turn began when `noted`.
fn a_turn(room: RoomLight, seed: u64, noted: bool) -> Turn {
    a_turn_in(
        SimSettings {
            room,
            seed,
            ..SimSettings::default()
        },
        noted,
    )
}

fn a_turn_in(settings: SimSettings, noted: bool) -> Turn {
    let (sim, mut gantry) = robot_with(settings);
    gantry.home().unwrap();
    gantry.used_sheet().unwrap();
    gantry.draw_grid().unwrap();
    let blank = gantry.read_blank_grid().unwrap();
    gantry.park().unwrap();
    if noted {
        gantry.note_the_paper_at_rest().unwrap();
    }
    let board = gantry.config().board.clone();
    human::draw(sim.world().paper_mut(), &board, CENTRE, HandMark::Cross);
    sim.world().press_touch(PRESS);
    let pressed = sim.world().now();
    let all: Vec<Cell> = (0..9).map(|i| Cell::from_index(i, 3)).collect();
    let (seen, _) = gantry.read_new_marks(&blank, &all).unwrap();
    Turn {
        seen,
        first_reading_after: gantry.last_read_samples()[0].time - pressed,
        first_look_squares: gantry.last_read().first.squares,
    }
}

/// The read saw the X, started within a second of the press, in the shadow, and read again
/// the squares it read there.
fn assert_read_in_the_shadow_and_again(turn: &Turn, seed: u64) {
    assert_eq!(turn.seen, NewMarks::One(CENTRE), "seed {seed}");
    assert!(
        turn.first_reading_after < Duration::from_secs(1),
        "seed {seed}: the read waited {:?}",
        turn.first_reading_after
    );
    assert!(
        turn.first_look_squares > 9,
        "seed {seed}: the squares read in the shadow were not read again"
    );
}

#[test]
fn the_first_look_starts_once_the_person_s_shadow_has_lifted() {
    for seed in 1..=4 {
        let turn = a_turn(a_shadow_after_each_press(), seed, true);
        assert_eq!(turn.seen, NewMarks::One(CENTRE), "seed {seed}");
        assert!(
            turn.first_reading_after >= PRESS + Duration::from_secs_f64(1.5),
            "seed {seed}: the board was read {:?} after the press, in the shadow",
            turn.first_reading_after
        );
        assert_eq!(
            turn.first_look_squares, 9,
            "seed {seed}: no square read again"
        );
    }
}

#[test]
fn in_steady_light_the_first_look_starts_at_once() {
    for seed in 1..=4 {
        let turn = a_turn(RoomLight::default(), seed, true);
        assert_eq!(turn.seen, NewMarks::One(CENTRE), "seed {seed}");
        assert!(
            turn.first_reading_after < Duration::from_secs(1),
            "seed {seed}: the board was read {:?} after the press",
            turn.first_reading_after
        );
    }
}

#[test]
fn a_shadow_the_parked_sensor_did_not_see_is_read_again_where_it_lay() {
    // Without the paper at rest to hold it to (a shadow that falls on the board and not
    // beside it), the first look starts in the shadow, and the squares it read there are read
    // again once it has gone.
    for seed in 1..=4 {
        let turn = a_turn(a_shadow_after_each_press(), seed, false);
        assert_read_in_the_shadow_and_again(&turn, seed);
    }
}

#[test]
fn beside_a_sheet_on_a_dark_table_the_shadow_is_not_seen_at_rest_and_is_read_again() {
    // The sensor parks 36 mm behind the pen's zero (`sensing.sensor_offset_deg`), beyond the
    // sheet's corner: over a dark table a fifth off 5 % is under a point, lost in the noise,
    // so the read does not wait, and the squares read in the shadow are read again.
    for seed in 1..=4 {
        let mut settings = SimSettings {
            room: a_shadow_after_each_press(),
            seed,
            ..SimSettings::default()
        };
        settings.look.beside_sheet_percent = Some(5.0);
        let turn = a_turn_in(settings, true);
        assert_read_in_the_shadow_and_again(&turn, seed);
    }
}
