//! Win detection and the winning line on every board size, against a checker written the
//! obvious way: walk from every cell in every direction and count equal marks.

use ev3_tictactoe::game::{winning_lines, Board, Cell, Mark, Rules, Status};
use proptest::prelude::*;

/// The naive checker: does `mark` have `k` in a row anywhere on the grid?
fn naive_has_line(grid: &[Option<Mark>], n: usize, k: usize, mark: Mark) -> bool {
    let at = |r: isize, c: isize| {
        (0..n as isize).contains(&r)
            && (0..n as isize).contains(&c)
            && grid[r as usize * n + c as usize] == Some(mark)
    };
    (0..n as isize).any(|r| {
        (0..n as isize).any(|c| {
            [(0, 1), (1, 0), (1, 1), (1, -1)]
                .iter()
                .any(|(dr, dc)| (0..k as isize).all(|i| at(r + dr * i, c + dc * i)))
        })
    })
}

fn variant() -> impl Strategy<Value = Rules> {
    (3usize..=10)
        .prop_flat_map(|n| (Just(n), 3usize..=n))
        .prop_map(|(n, k)| Rules::new(n, k).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Any arrangement of marks, legal or not: a full line exists exactly when the naive
    /// checker finds k in a row.
    #[test]
    fn line_masks_agree_with_the_naive_checker(
        rules in variant(),
        cells in prop::collection::vec(0u8..3, 100),
    ) {
        let n = rules.size();
        let grid: Vec<Option<Mark>> = cells[..n * n]
            .iter()
            .map(|c| match c { 1 => Some(Mark::X), 2 => Some(Mark::O), _ => None })
            .collect();
        let bits = |mark| (0..n * n).filter(|&i| grid[i] == Some(mark)).fold(0u128, |b, i| b | 1 << i);
        for mark in [Mark::X, Mark::O] {
            let mine = bits(mark);
            let by_masks = winning_lines(rules).iter().copied().any(|line| mine & line == line);
            prop_assert_eq!(by_masks, naive_has_line(&grid, n, rules.in_a_row(), mark));
        }
    }

    /// Random games to their end: the status names the winner the naive checker finds, its line
    /// is k of the winner's cells in a straight contiguous row, and a draw fills the board.
    #[test]
    fn random_games_end_as_the_naive_checker_says(
        rules in variant(),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 100),
    ) {
        let n = rules.size();
        let k = rules.in_a_row();
        let mut board = Board::empty(rules);
        let mut picks = picks.into_iter();
        while let Status::ToMove(_) = board.status() {
            let empty: Vec<Cell> = board.empty_cells().collect();
            board = board.play(*picks.next().unwrap().get(&empty)).unwrap();
        }
        let grid: Vec<Option<Mark>> = (0..n * n).map(|i| board.get(Cell::from_index(i, n))).collect();
        match board.status() {
            Status::Won { winner, line } => {
                prop_assert!(naive_has_line(&grid, n, k, winner));
                prop_assert!(!naive_has_line(&grid, n, k, winner.other()));
                prop_assert_eq!(line.len(), k);
                prop_assert!(line.iter().all(|&c| board.get(c) == Some(winner)));
                let (dr, dc) = (
                    line[1].row as isize - line[0].row as isize,
                    line[1].col as isize - line[0].col as isize,
                );
                prop_assert!(dr.abs() <= 1 && dc.abs() <= 1 && (dr, dc) != (0, 0));
                for pair in line.windows(2) {
                    prop_assert_eq!(pair[1].row as isize - pair[0].row as isize, dr);
                    prop_assert_eq!(pair[1].col as isize - pair[0].col as isize, dc);
                }
            }
            Status::Draw => {
                prop_assert!(grid.iter().all(Option::is_some));
                prop_assert!(!naive_has_line(&grid, n, k, Mark::X));
                prop_assert!(!naive_has_line(&grid, n, k, Mark::O));
            }
            Status::ToMove(_) => unreachable!("the loop plays until the end"),
        }
    }

    /// No text, however malformed, makes the parser panic; what it accepts prints back the same.
    #[test]
    fn any_text_is_parsed_or_refused_without_panic(text in "[XxOo./ \\PC]{0,40}") {
        if let Ok(board) = Board::parse(&text, None, None) {
            prop_assert_eq!(Board::parse(&board.to_string(), None, None).unwrap(), board);
        }
    }
}
