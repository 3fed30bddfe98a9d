//! `tests/data/positions-3x3.txt` lists every open 3 x 3 position, one per line. CI answers it
//! with the host binary and with the EV3 binary under qemu and requires the same bytes; this test
//! keeps the file from going stale.

use ev3_tictactoe::game::{open_positions, Rules};

#[test]
fn the_positions_file_lists_every_open_3x3_position() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/positions-3x3.txt");
    let listed = std::fs::read_to_string(path).unwrap();
    let expected: Vec<String> = open_positions(Rules::classic())
        .iter()
        .map(|b| b.to_string())
        .collect();
    assert_eq!(listed.lines().collect::<Vec<_>>(), expected);
}
