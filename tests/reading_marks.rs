//! The robot sees what people draw, in every square, and nothing else, with its own X and O in
//! the squares beside: each kind of hand mark under the physical ranges of `docs/sensor.md`
//! (the sensor's footprint from 6 to 12 mm, pens from fine-liner to broad marker and pencil,
//! noise, read periods). A mark the sensor cannot see at all (measured with the noiseless
//! sensor along the lines the robot reads: see `ev3_tictactoe::bench::reading`) is counted
//! apart, and must still not be invented elsewhere.
//!
//! What is asserted: no square is ever taken for a mark that is not there (a void game is
//! worse than "I see no new mark", after which the person presses again), and under noise of
//! 2 % or less every mark clearly within reach is seen. Under 4 % noise the faint marks near
//! the floors (a ballpoint's X under a 12 mm spot, a marker's small O off centre) are sometimes
//! missed: the bench counts them, and the README gives the figures.
//!
//! `cargo test` runs the corners of the matrix; the whole matrix is an ignored test that CI
//! runs (`cargo test --release --test reading_marks -- --ignored --nocapture` prints the same
//! table as `ev3-tictactoe bench --only reading`, with the read times).

use ev3_tictactoe::bench::reading::{
    drawing_name, matrix, read_everywhere, report, Condition, Pen, Room, Row, DRAWINGS, PENS,
};
use ev3_tictactoe::hw::sim::human::HandMark;
use ev3_tictactoe::hw::sim::{RoomLight, SheetAxis};

/// The rows that took a square for a mark where there was none, or (with `misses`) missed a
/// mark clearly within the sensor's reach, with what the robot measured.
fn failures(rows: &[Row], misses: bool) -> Vec<String> {
    rows.iter()
        .filter(|row| (misses && !row.missed.is_empty()) || !row.false_marks.is_empty())
        .map(|row| {
            format!(
                "{} with {} under a {} mm spot, noise {} %, every {} ms: missed {:?}, taken for \
                 a mark {:?}\n{}",
                drawing_name(row.drawn),
                row.condition.pen.name,
                row.condition.spot_mm,
                row.condition.noise_percent,
                row.condition.sample_ms,
                row.missed,
                row.false_marks,
                row.evidence.join("\n")
            )
        })
        .collect()
}

/// Reading with `pen` under a `spot_mm` spot at `noise_percent`, every `sample_ms`, in the
/// harsh room (the tests that move its lamp change that room).
fn in_the_harsh_room(pen: Pen, spot_mm: f64, noise_percent: f64, sample_ms: u64) -> Condition {
    Condition {
        pen,
        spot_mm,
        noise_percent,
        sample_ms,
        room: Room::Harsh,
    }
}

/// The pen of the physical ranges whose name begins with `name`.
fn pen_named(name: &str) -> Pen {
    *PENS
        .iter()
        .find(|pen| pen.name.starts_with(name))
        .unwrap_or_else(|| panic!("no pen named {name}"))
}

fn read_all(conditions: &[Condition]) -> Vec<Row> {
    conditions
        .iter()
        .flat_map(|&condition| {
            DRAWINGS
                .iter()
                .map(move |&drawn| read_everywhere(drawn, condition, 7).unwrap())
        })
        .collect()
}

#[test]
fn at_the_corners_of_the_physical_ranges_nothing_is_invented_and_what_the_sensor_can_see_is_seen() {
    // The smallest and the largest footprint, the finest pen and a marker, noise of 2 and 4 %,
    // a sensor at ev3dev's pace and a slow one.
    let mut corners = Vec::new();
    for spot_mm in [6.0, 12.0] {
        for pen in [PENS[0], PENS[2]] {
            for noise_percent in [2.0, 4.0] {
                for sample_ms in [10, 20] {
                    corners.push(Condition {
                        pen,
                        spot_mm,
                        noise_percent,
                        sample_ms,
                        room: Room::Steady,
                    });
                }
            }
        }
    }
    let rows = read_all(&corners);
    let invented = failures(&rows, false);
    assert!(invented.is_empty(), "{}", invented.join("\n"));
    let quiet: Vec<Row> = rows
        .iter()
        .filter(|r| r.condition.noise_percent <= 2.0)
        .cloned()
        .collect();
    let missed = failures(&quiet, true);
    assert!(missed.is_empty(), "{}", missed.join("\n"));
    // A marker's X and O are within reach of every footprint; a fine-liner's X under a 12 mm
    // spot is beyond it.
    let all_seen = |pen: &str, spot: f64, drawn: HandMark| {
        rows.iter()
            .filter(|r| r.condition.pen.name == pen && r.condition.spot_mm == spot)
            .filter(|r| r.drawn == drawn)
            .all(|r| r.seen == 9)
    };
    assert!(all_seen(PENS[2].name, 12.0, HandMark::Cross));
    assert!(all_seen(PENS[2].name, 12.0, HandMark::Ring));
    assert!(all_seen(PENS[2].name, 6.0, HandMark::Ring));
    assert!(rows
        .iter()
        .filter(|r| r.condition.pen == PENS[0] && r.condition.spot_mm == 12.0)
        .filter(|r| r.drawn == HandMark::Cross)
        .all(|r| r.beyond.len() == 9));
}

#[test]
#[ignore = "the whole detection matrix (about a minute in release): cargo test --release --test reading_marks -- --ignored"]
fn across_the_whole_matrix_nothing_is_invented_and_under_2_percent_noise_nothing_within_reach_is_passed_over(
) {
    // Passed over: judged blank. A mark the robot is unsure of (a faint dip on one line only,
    // after its slow look) is not passed over: it names the square and asks for it darker.
    // The very matrix `bench` prints, so CI's log shows its figures without reading it twice.
    // The harsh room's rows are printed with their figures (docs/figures.md gives them and
    // what is still wrong there); what is asserted of a changing room is in the test below.
    let rows = matrix().unwrap();
    println!("{}", report(&rows));
    let steady: Vec<Row> = rows
        .iter()
        .filter(|r| r.condition.room == Room::Steady)
        .cloned()
        .collect();
    let invented = failures(&steady, false);
    assert!(invented.is_empty(), "{}", invented.join("\n"));
    let quiet: Vec<Row> = steady
        .iter()
        .filter(|r| r.condition.noise_percent <= 2.0)
        .cloned()
        .collect();
    let missed = failures(&quiet, true);
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// The harsh end of the cited ranges (docs/sensor.md, "The room"): the light swinging by 15 %
/// over a minute and a half, and a person's shadow taking 20 % off it for a second and a half
/// after each press. Both footprints, a ballpoint and a marker, noise of 2 and 4 %, a sensor at
/// ev3dev's pace; each in steady light and in that room.
fn in_drift_and_shadow_and_in_steady_light() -> Vec<Condition> {
    let room = RoomLight {
        drift_percent: 15.0,
        shadow_percent: 20.0,
        shadow_s: 1.5,
        ..RoomLight::default()
    };
    let mut conditions = Vec::new();
    for spot_mm in [6.0, 12.0] {
        for pen in [PENS[1], PENS[2]] {
            for noise_percent in [2.0, 4.0] {
                for room in [Room::Steady, Room::Other(room)] {
                    conditions.push(Condition {
                        pen,
                        spot_mm,
                        noise_percent,
                        sample_ms: 10,
                        room,
                    });
                }
            }
        }
    }
    conditions
}

/// Reads every drawing under `conditions` with the simulator's noise drawn from `seed`, and
/// asserts what the changing room must never do: take a square for a mark, or void a game.
/// Returns the marks seen in steady light and in the changing room.
fn seen_in_steady_and_changing_light(conditions: &[Condition], seed: u64) -> (usize, usize) {
    let rows: Vec<Row> = conditions
        .iter()
        .flat_map(|&condition| {
            DRAWINGS
                .iter()
                .map(move |&drawn| read_everywhere(drawn, condition, seed).unwrap())
        })
        .collect();
    let (steady, changing): (Vec<Row>, Vec<Row>) = rows
        .into_iter()
        .partition(|r| r.condition.room == Room::Steady);
    let invented = failures(&changing, false);
    assert!(invented.is_empty(), "seed {seed}: {}", invented.join("\n"));
    let voided: usize = changing.iter().map(|r| r.voided.len()).sum();
    assert_eq!(voided, 0, "seed {seed}: games void by the light");
    // A second look after a read the room may have fooled adds at most one read's time, and
    // on average far less: only the squares the shadow lay on are read again (the clock is
    // the simulator's, so this counts motions and readings, not this machine's speed).
    // Measured with seed 7: 7.8 s against 6.1 s; when every read the shadow touched was read
    // again whole, 10.7 s.
    let mean_read = |rows: &[Row]| {
        let times: Vec<f64> = rows
            .iter()
            .filter(|r| r.drawn != HandMark::Dot)
            .flat_map(|r| r.read_times.iter().map(|t| t.as_secs_f64()))
            .collect();
        times.iter().sum::<f64>() / times.len() as f64
    };
    let (steady_read, changing_read) = (mean_read(&steady), mean_read(&changing));
    assert!(
        changing_read <= 1.5 * steady_read,
        "seed {seed}: a read takes {changing_read:.1} s on average in the changing room, \
         {steady_read:.1} s in steady light"
    );
    let seen = |rows: &[Row]| rows.iter().map(|r| r.seen).sum::<usize>();
    (seen(&steady), seen(&changing))
}

#[test]
fn in_light_that_drifts_and_a_shadow_after_each_press_nothing_is_invented_no_game_is_void_and_marks_are_seen_nearly_as_in_steady_light(
) {
    let (steady, changing) =
        seen_in_steady_and_changing_light(&in_drift_and_shadow_and_in_steady_light(), 7);
    // One draw of the noise says little of a few percent: over seeds 1 to 12 the changing
    // room saw from 3.2 % to 7.5 % fewer marks than steady light (4.8 % on average, a
    // standard deviation of 1.2 %; this seed: 295 against 316, 6.6 %; session 24's close
    // look doubts the light's slope, see the twelve draws below). This bound catches a
    // change that loses marks past that scatter; the twelve seeds measure the share itself.
    assert!(
        changing as f64 >= 0.91 * steady as f64,
        "{changing} marks seen in the changing room against {steady} in steady light"
    );
}

#[test]
#[ignore = "twelve draws of the noise: about two minutes of work in release; CI runs it with the whole matrix"]
fn over_twelve_draws_of_the_noise_in_drift_and_shadow_nothing_is_invented_no_game_is_void_and_at_most_6_percent_fewer_marks_are_seen(
) {
    let conditions = in_drift_and_shadow_and_in_steady_light();
    let (mut steady, mut changing) = (0, 0);
    for seed in 1..=12 {
        let (s, c) = seen_in_steady_and_changing_light(&conditions, seed);
        println!("seed {seed}: {c} marks seen in drift and shadow, {s} in steady light");
        steady += s;
        changing += c;
    }
    // Measured: 3,612 against 3,788 in session 30, waiting for the shadow to lift (4.6 %
    // fewer); 3,583 against 3,765 before (4.8 %; the issue asks 1 %; 2.9 % before session
    // 24). Session 24 gave those marks for squares not taken for marks where there were none:
    // a close look's test against the blank level now counts the slope the light may have
    // between the square and the squares it was measured on (`PaperLight::error_at`). Over
    // the harsh room with its lamp switched on 20, 30 and 40 s in, four draws each
    // (tests/lamp_moments.rs), no game void since session 25, where there were 43 squares
    // taken for a mark and one; one square in session 30 (seed 8, lamp at 30 s, the lamp's
    // dim corner under the 9 mm spot). Every mark lost is a ballpoint's (0.5 mm), most under the
    // 12 mm spot at 4 % noise, the faintest within reach, which the matrix counts as near its
    // floors. A mark passed over is asked for again ("I see no new mark"); a mark made up is
    // not.
    assert!(
        changing as f64 >= 0.94 * steady as f64,
        "{changing} marks seen in the changing room against {steady} in steady light"
    );
}

#[test]
fn a_lamp_switched_on_while_the_blank_paper_is_read_makes_no_mark() {
    // The harsh room with its lamp switched on 20 s into the world: in the middle of the
    // blank read of a 12 mm spot read every 20 ms (8.5 to 21.6 s). Before the blank read held
    // its paper to one light, 85 of the harsh matrix's 97 rows with a square taken for a mark
    // were this condition.
    let room = RoomLight {
        lamp_on_at_s: 20.0,
        ..RoomLight::harsh()
    };
    let mut rows = Vec::new();
    for pen in [PENS[1], PENS[2]] {
        for noise_percent in [0.0, 2.0, 4.0] {
            let condition = Condition {
                pen,
                spot_mm: 12.0,
                noise_percent,
                sample_ms: 20,
                room: Room::Other(room),
            };
            for drawn in [HandMark::Cross, HandMark::Dot] {
                rows.push(read_everywhere(drawn, condition, 7).unwrap());
            }
        }
    }
    let invented = failures(&rows, false);
    assert!(invented.is_empty(), "{}", invented.join("\n"));
    let voided: usize = rows.iter().map(|r| r.voided.len()).sum();
    assert_eq!(voided, 0, "games void by the lamp");
}

/// Reads a dot in every square under the 12 mm spot, every 10 ms, at `noise_percent`, with the
/// harsh room's lamp switched on at each of `moments` (seconds into the world) and the noise
/// drawn from `seed`; asserts no game is void, and returns each moment that took a square for
/// a mark, with the evidence.
fn lamp_moments_that_made_a_mark(
    moments: impl IntoIterator<Item = f64>,
    noise_percent: f64,
    seed: u64,
) -> Vec<String> {
    let mut invented = Vec::new();
    for lamp_on_at_s in moments {
        let room = RoomLight {
            lamp_on_at_s,
            ..RoomLight::harsh()
        };
        let condition = Condition {
            pen: PENS[0],
            spot_mm: 12.0,
            noise_percent,
            sample_ms: 10,
            room: Room::Other(room),
        };
        let row = read_everywhere(HandMark::Dot, condition, seed).unwrap();
        assert!(
            row.voided.is_empty(),
            "lamp at {lamp_on_at_s} s: a game void"
        );
        if !row.false_marks.is_empty() {
            invented.push(format!(
                "lamp at {lamp_on_at_s} s:\n{}",
                row.evidence.join("\n")
            ));
        }
    }
    invented
}

#[test]
fn a_lamp_switched_on_between_two_rows_of_the_look_off_centre_makes_no_mark() {
    // The harsh room's lamp switched on at each half second of the first read's look off
    // centre (a noiseless sensor under the 12 mm spot, every 10 ms, a dot in the top left
    // square), 37 to 43 s into the world. At 40 s the middle left square, read 0.15 s before
    // the lamp came on, was judged against a slope of 5 % a row through the rest and taken for
    // a mark, on both its lines; it is now looked at again, in the light of its own moment.
    let moments = (74..=86).map(|half_seconds| f64::from(half_seconds) / 2.0);
    let invented = lamp_moments_that_made_a_mark(moments, 0.0, 7);
    assert!(invented.is_empty(), "{}", invented.join("\n"));
}

#[test]
fn a_slope_along_the_rows_fitted_over_squares_read_at_two_moments_makes_no_mark() {
    // The harsh room, its lamp on from 30 s, a pencil's small O off centre in each square in
    // turn under the 9 mm spot at 4 % noise, every 5 ms, seed 11. In the last turn's read the
    // top rows were read again after the shadow, 2 to 3 s after the first look's two squares
    // kept in the lower rows, one of them 4 % bright by noise: the light over both sloped
    // 2.8 % a row, and against it the blank bottom left square, read again with the top
    // rows, read 8 % dark and was taken for a mark. Such a lone mark is now looked at again.
    let condition = in_the_harsh_room(pen_named("pencil"), 9.0, 4.0, 5);
    let row = read_everywhere(HandMark::SmallRingOffCentre, condition, 11).unwrap();
    assert!(row.voided.is_empty(), "{:?}", row.voided);
    assert!(row.false_marks.is_empty(), "{}", row.evidence.join("\n"));
}

#[test]
fn a_lamp_switched_on_as_the_squares_read_again_after_the_shadow_end_makes_no_mark() {
    // The harsh room's lamp switched on at each quarter second around 30 s (seed 8, a dot in
    // the top left square under the 12 mm spot at 4 % noise, every 10 ms): the first read's
    // squares read again after the person's shadow end on the top row, the dot's square 0.01 s
    // before the lamp came on, the top right one after it, 17 % brighter. With the dot's
    // square left out as the likely mark, the top right square alone made a slope of 5 % a
    // row, against which the dot's square read 10 % dark: a mark. Those squares did not lie
    // in one steady light, so the lone mark among them is now looked at again.
    let moments = (118..=122).map(|quarter_seconds| f64::from(quarter_seconds) / 4.0);
    let invented = lamp_moments_that_made_a_mark(moments, 4.0, 8);
    assert!(invented.is_empty(), "{}", invented.join("\n"));
}

/// Reads `drawn` in every square in turn in the harsh room with its lamp standing by the far
/// end of `lamp_brighter_along`, switched on `lamp_on_at_s` into the world, and asserts that
/// no square was taken for a mark and no game was void.
fn lamp_takes_nothing(
    lamp_on_at_s: f64,
    lamp_brighter_along: SheetAxis,
    drawn: HandMark,
    condition: Condition,
    seed: u64,
) {
    let room = RoomLight {
        lamp_on_at_s,
        lamp_brighter_along,
        ..RoomLight::harsh()
    };
    let condition = Condition {
        room: Room::Other(room),
        ..condition
    };
    let row = read_everywhere(drawn, condition, seed).unwrap();
    assert!(row.voided.is_empty(), "{:?}", row.voided);
    assert!(row.false_marks.is_empty(), "{}", row.evidence.join("\n"));
}

#[test]
fn a_lamp_by_the_rows_far_end_leaves_no_dim_row_marked_by_the_look_off_centre() {
    // The harsh room's lamp by the rows axis's far end, on from 20 s (seed 8, a dot in each
    // square in turn under the 6 mm spot at 4 % noise, every 10 ms). The first look measured
    // the light 3.1 % a row brighter towards the lamp; the look off centre, over the two lower
    // rows only and too unsure of its paper to find that slope past its errors, judged them
    // in their mean light, and the dot's two lines in the top middle square read 7 and 8 %
    // dark against it: a mark. The read's later looks now hold the first look's slope.
    let condition = in_the_harsh_room(PENS[0], 6.0, 4.0, 10);
    lamp_takes_nothing(20.0, SheetAxis::Rows, HandMark::Dot, condition, 8);
}

#[test]
fn a_lamp_by_the_rows_far_end_leaves_the_dim_rows_one_paper_square_paper_on_a_read_again() {
    // The harsh room's lamp by the rows axis's far end, on from 30 s (seed 10, an X off centre
    // by ballpoint in each square in turn under the 9 mm spot at 2 % noise, every 20 ms). On
    // the first board, the read again after the shadow read the top row last, seconds after
    // the rest, with the light drifting down: the top right square, that row's only paper,
    // stood past one square's unevenness under the rest and was left out of the light as a
    // second mark, and then judged in the two lower rows' light it read 6 % dark. Two new
    // marks twice: the game was void. A square two squares from the rest may lie twice as
    // far under them in a lamp's light.
    let condition = in_the_harsh_room(pen_named("ballpoint"), 9.0, 2.0, 20);
    lamp_takes_nothing(
        30.0,
        SheetAxis::Rows,
        HandMark::CrossOffCentre,
        condition,
        10,
    );
}

#[test]
fn a_lamp_switched_on_just_after_the_look_off_centre_read_its_first_square_makes_no_mark() {
    // The harsh room's lamp by the rows axis's far end, on from 40 s (seed 14, an X by
    // fine-liner in each square in turn under the 12 mm spot at 2 % noise, every 20 ms): on
    // the first board the look off centre read the bottom left square a moment before the lamp
    // came on and every other square after it. Left out as the likely mark, that square could
    // not show the step; the lamp's dim top row passed for the light stepping down, and the
    // square, 11.5 % under the light before that step, was taken for a mark. A look's first
    // square is now looked at again when the light changed since the first look or during it.
    let condition = in_the_harsh_room(PENS[0], 12.0, 2.0, 20);
    lamp_takes_nothing(40.0, SheetAxis::Rows, HandMark::Cross, condition, 14);
}

#[test]
fn a_lamp_switched_on_during_a_long_read_of_the_blank_paper_has_it_read_again() {
    // The harsh room's lamp by the columns axis's far end, on from 30 s (seed 11, a dot by
    // fine-liner in each square in turn under the 6 mm spot with no noise, every 20 ms). Too
    // few readings across the grid's lines, the eye was measured on a slow read again of the
    // squares, 18.5 to 38 s, and the lamp came on as it crossed the middle row. Held still at
    // the end, the square crossed first read 11.3 % brighter, within the 12.6 % a drift may
    // make over 21 s: the blank levels were held to a light they were not read in, and the
    // top left square, on the lamp's dim side, read 7 to 9 % dark and was taken for a mark on
    // two boards. A long read is now held still along the way, each stretch within 8 s.
    let condition = in_the_harsh_room(PENS[0], 6.0, 0.0, 20);
    lamp_takes_nothing(30.0, SheetAxis::Columns, HandMark::Dot, condition, 11);
}

#[test]
fn a_long_read_of_the_blank_paper_in_a_steep_drift_is_held_to_one_moments_light() {
    // The harsh room, an O by ballpoint in each square in turn under the 6 mm spot with no
    // noise, every 20 ms, over twelve draws of the world (seeds 1 to 12). Traced under seed 7
    // (session 36): the lamp came on during the blank read's second read, which was read
    // again over 19 s while the drift took 10 % off the light. Snaking along the rows, its
    // squares lay up to 1.7 % either side of the plane the two reads are held to, and the
    // levels kept it: two O's were missed and two boards read again. The still reads along the
    // way measured the drift, and each square is now brought to one moment's light. Which world
    // meets a long read depends on when the set-up's reads fall against the lamp and the drift,
    // so the test holds a rate: measured, 107 and 108 O's of 108 seen and 5 and 4 boards read
    // again (two builds whose set-ups differ by half a second), against 104 and 100 seen and 21
    // and 24 read again with the drift left in the levels.
    let condition = in_the_harsh_room(pen_named("ballpoint"), 6.0, 0.0, 20);
    let (mut seen, mut read_again) = (0, 0);
    for seed in 1..=12 {
        let row = read_everywhere(HandMark::Ring, condition, seed).unwrap();
        assert!(
            row.false_marks.is_empty(),
            "seed {seed}: {}",
            row.evidence.join("\n")
        );
        seen += row.seen;
        read_again += row.read_again.len();
    }
    assert!(seen >= 106, "{seen} O's of 108 seen");
    assert!(read_again <= 10, "{read_again} boards of 108 read again");
}
