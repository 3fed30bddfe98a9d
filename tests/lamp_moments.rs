//! The harsh room with its lamp switched on at chosen moments, under several draws of the
//! noise. The detection matrix reads each world with one draw (seed 7) and its lamp at 30 s:
//! whether a square is taken for a mark there is one outcome of the noise and of the moment
//! the lamp meets each read, not a rate. Sessions 21 and 22 found a lamp at 3.5 to 4.5 s (the
//! sheet's check) and at 20 s (the blank read's end) voiding games that the matrix's draw did
//! not show. This sweep makes such figures a rate: for each draw and each moment, the squares
//! taken for a mark, the games void and the marks seen over the matrix's harsh half.
//!
//! Asserted: no game is void, at any moment, under any draw ("nothing a lamp can cause ends a
//! person's game"). Squares taken for a mark are printed, not asserted: at 4 % noise the harsh
//! room takes one now and then (docs/figures.md, session 22), and a bound on them wants more
//! draws than a test can afford. About 50 s a moment and a draw in release (the default, two
//! draws and four moments: 7 min); CI does not run it:
//!
//! ```text
//! LAMPS=2.5,3,3.5,4,4.5,20,30 SEEDS=7,8,9,10 \
//!     cargo test --release --test lamp_moments -- --ignored --nocapture
//! ```
//!
//! `SIDES=columns,rows` adds the lamp standing by the rows axis's far end (the matrix's stands
//! by the columns axis's; `RoomLight::lamp_brighter_along`), another sweep as long. One world
//! of it still fails the assertion: the lamp by the rows at 40 s under seed 12, a faint mark
//! and the lamp's dim corner at opposite corners (docs/figures.md, session 35).

use ev3_tictactoe::bench::reading::{
    all_conditions, drawing_name, read_everywhere, Condition, Room, Row, DRAWINGS,
};
use ev3_tictactoe::hw::sim::{RoomLight, SheetAxis};

/// The values of the comma-separated list in the environment variable `name`, or `default`'s.
fn list_from_env<T: std::str::FromStr>(name: &str, default: &str) -> Vec<T> {
    let text = std::env::var(name).unwrap_or_else(|_| default.to_string());
    text.split(',')
        .map(|item| {
            item.trim().parse().unwrap_or_else(|_| {
                panic!("{name}={text}: {item:?} is not a number (a comma-separated list)")
            })
        })
        .collect()
}

/// Where a row went wrong, for the printout: the drawing, the condition, and how many squares
/// it took for a mark and games it voided.
fn where_wrong(row: &Row) -> String {
    let c = row.condition;
    format!(
        "{} by {} under {} mm, {} %, every {} ms: {} taken, {} void",
        drawing_name(row.drawn),
        c.pen.name,
        c.spot_mm,
        c.noise_percent,
        c.sample_ms,
        row.false_marks.len(),
        row.voided.len()
    )
}

#[test]
#[ignore = "a sweep of lamp moments and draws of the noise, about 50 s each in release: LAMPS=... SEEDS=... cargo test --release --test lamp_moments -- --ignored --nocapture"]
fn a_lamp_switched_on_at_any_moment_under_any_draw_of_the_noise_voids_no_game() {
    let moments: Vec<f64> = list_from_env("LAMPS", "3.5,4,20,30");
    let seeds: Vec<u64> = list_from_env("SEEDS", "7,8");
    let sides: Vec<SheetAxis> = list_from_env::<String>("SIDES", "columns")
        .iter()
        .map(|side| match side.as_str() {
            "columns" => SheetAxis::Columns,
            "rows" => SheetAxis::Rows,
            other => panic!("SIDES: {other:?} is neither columns nor rows"),
        })
        .collect();
    let mut voided = Vec::new();
    println!("lamp by   seed  lamp at   taken for a mark  void  marks seen");
    for (&lamp_brighter_along, &seed) in sides
        .iter()
        .flat_map(|side| seeds.iter().map(move |seed| (side, seed)))
    {
        for &lamp_on_at_s in &moments {
            let room = Room::Other(RoomLight {
                lamp_on_at_s,
                lamp_brighter_along,
                ..RoomLight::harsh()
            });
            let rows: Vec<Row> = all_conditions()
                .into_iter()
                .filter(|condition| condition.room == Room::Harsh)
                .flat_map(|condition| {
                    DRAWINGS.iter().map(move |&drawn| {
                        read_everywhere(drawn, Condition { room, ..condition }, seed).unwrap()
                    })
                })
                .collect();
            let taken: usize = rows.iter().map(|row| row.false_marks.len()).sum();
            let void: usize = rows.iter().map(|row| row.voided.len()).sum();
            let seen: usize = rows.iter().map(|row| row.seen).sum();
            let side = format!("{lamp_brighter_along:?}").to_lowercase();
            println!(
                "{side:<8}  {seed:>4}  {lamp_on_at_s:>5.1} s  {taken:>16}  {void:>4}  {seen:>10}"
            );
            for row in rows
                .iter()
                .filter(|row| !row.false_marks.is_empty() || !row.voided.is_empty())
            {
                println!("        {}", where_wrong(row));
                if !row.voided.is_empty() {
                    voided.push(format!(
                        "seed {seed}, lamp by the {side} at {lamp_on_at_s} s: {}",
                        where_wrong(row)
                    ));
                }
            }
        }
    }
    assert!(voided.is_empty(), "games void:\n{}", voided.join("\n"));
}
