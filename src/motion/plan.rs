//! Where things go on the paper: the grid, the robot's marks, the line through a winning three,
//! and the sweeps that read the squares. Pure geometry over the robot config, in the pen's axis
//! degrees; [`super::gantry`] carries it out.
//!
//! Lines are drawn moving forward along their axis where the shape allows, so the gears' play is
//! taken up the same way as when the pen was placed.

use crate::config::{AxisPoint, BoardGeometry, MarkStyle, RobotConfig};
use crate::game::{Cell, Mark};

/// A line for the pen: lowered at the first point, lifted after the last.
pub type Path = Vec<AxisPoint>;

/// The grid's inner lines (four on 3 x 3, six on 4 x 4), in the order that wastes least
/// travel: each starts near where the last one ended. A line drawn backward along its axis is
/// still exact across it (the other axis is still); only its ends move, by the gears' play.
pub fn grid(board: &BoardGeometry) -> Vec<Path> {
    let o = board.grid_origin_deg;
    let n = board.size as i32;
    let side = n * board.square_deg;
    let (near, far) = (o, AxisPoint::new(o.columns + side, o.rows + side));
    let mut lines = Vec::new();
    // Down the columns' lines, turning back at each end.
    for i in 1..n {
        let at = o.columns + i * board.square_deg;
        let (from, to) = if i % 2 == 1 {
            (near.rows, far.rows)
        } else {
            (far.rows, near.rows)
        };
        lines.push(vec![AxisPoint::new(at, from), AxisPoint::new(at, to)]);
    }
    // The pen ends by the last column line, at the near rows after an even number of lines and
    // at the far rows after an odd one: the rows' lines start from the line nearest there.
    let mut rows_lines: Vec<i32> = (1..n).collect();
    if (n - 1) % 2 == 1 {
        rows_lines.reverse();
    }
    for (j, i) in rows_lines.into_iter().enumerate() {
        let at = o.rows + i * board.square_deg;
        let (from, to) = if j % 2 == 0 {
            (far.columns, near.columns)
        } else {
            (near.columns, far.columns)
        };
        lines.push(vec![AxisPoint::new(from, at), AxisPoint::new(to, at)]);
    }
    lines
}

/// The robot's mark in a square: an X (two strokes), an O (a polygon) or a dot.
pub fn mark(board: &BoardGeometry, cell: Cell, mark: Mark) -> Vec<Path> {
    let c = board.cell_centre(cell);
    let h = board.mark_size_deg / 2;
    match (board.mark_style, mark) {
        (MarkStyle::Dot, _) => vec![vec![c]],
        (MarkStyle::Letter, Mark::X) => vec![
            vec![
                AxisPoint::new(c.columns - h, c.rows - h),
                AxisPoint::new(c.columns + h, c.rows + h),
            ],
            vec![
                AxisPoint::new(c.columns - h, c.rows + h),
                AxisPoint::new(c.columns + h, c.rows - h),
            ],
        ],
        (MarkStyle::Letter, Mark::O) => vec![ring(c, f64::from(h), board.o_segments)],
    }
}

/// The fastest the pen can go round `path`'s corners when each axis speeds up and slows down
/// at no more than `acceleration` (deg/s²), in deg/s: each corner taken as a point of the
/// circle it turns on (its radius the shorter side over twice the sine of half the turn),
/// where the pen's speed `v` needs `v² / radius` of acceleration. An O of 30 degrees' radius
/// at 3200 deg/s² may be drawn at 310 deg/s; asked for more, the motors cannot turn with it
/// and the ring bulges. `None` for a path with no corner (a straight stroke).
pub fn cornering_speed(path: &[AxisPoint], acceleration: f64) -> Option<f64> {
    path.windows(3)
        .filter_map(|w| {
            let a = (
                f64::from(w[1].columns - w[0].columns),
                f64::from(w[1].rows - w[0].rows),
            );
            let b = (
                f64::from(w[2].columns - w[1].columns),
                f64::from(w[2].rows - w[1].rows),
            );
            let (la, lb) = (a.0.hypot(a.1), b.0.hypot(b.1));
            if la == 0.0 || lb == 0.0 {
                return None;
            }
            let turn = ((a.0 * b.0 + a.1 * b.1) / (la * lb))
                .clamp(-1.0, 1.0)
                .acos();
            if turn < 1e-6 {
                return None;
            }
            let radius = la.min(lb) / (2.0 * (turn / 2.0).sin());
            Some((acceleration * radius).sqrt())
        })
        .min_by(f64::total_cmp)
}

/// A closed polygon around `centre`, starting and ending at its lowest-columns point.
pub fn ring(centre: AxisPoint, radius: f64, segments: u32) -> Path {
    (0..=segments)
        .map(|i| {
            let angle =
                std::f64::consts::PI + f64::from(i) / f64::from(segments) * std::f64::consts::TAU;
            AxisPoint::new(
                centre.columns + (radius * angle.cos()).round() as i32,
                centre.rows + (radius * angle.sin()).round() as i32,
            )
        })
        .collect()
}

/// The line through a winning three, from beyond the first square's centre to beyond the last's.
pub fn win_line(board: &BoardGeometry, first: Cell, last: Cell) -> Path {
    let (a, b) = (board.cell_centre(first), board.cell_centre(last));
    let (dc, dr) = (f64::from(b.columns - a.columns), f64::from(b.rows - a.rows));
    let length = dc.hypot(dr).max(1.0);
    let over = f64::from(board.win_line_overhang_deg);
    let (oc, or) = (
        (dc / length * over).round() as i32,
        (dr / length * over).round() as i32,
    );
    let (start, end) = (
        AxisPoint::new(a.columns - oc, a.rows - or),
        AxisPoint::new(b.columns + oc, b.rows + or),
    );
    // Forward along the columns axis, like every other line.
    if start.columns <= end.columns {
        vec![start, end]
    } else {
        vec![end, start]
    }
}

/// One pass of the colour sensor along a row of squares, in *sensor* coordinates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sweep {
    /// The rows coordinate of the line swept.
    pub rows_deg: i32,
    /// How far that line is from its row's centre line, in degrees of the rows axis.
    pub line_offset_deg: i32,
    pub from_columns_deg: i32,
    pub to_columns_deg: i32,
    /// The squares read on the way, each with the stretch of columns that belongs to it.
    pub squares: Vec<(Cell, std::ops::RangeInclusive<i32>)>,
}

/// The stretch of a square's centre line that is read: centred, and as long as the sensor's
/// spot leaves it clear of the grid lines (see [`crate::physical::ReadingGeometry`]).
pub fn reading_window(config: &RobotConfig, cell: Cell) -> std::ops::RangeInclusive<i32> {
    let centre = config.board.cell_centre(cell).columns;
    let half = config.reading_geometry().window_half_deg;
    centre - half..=centre + half
}

/// The sweeps that read `cells` along each row's lines `offsets_deg` from its centre line, in
/// one snake: the first row is the one nearest `sensor_at`, a row's lines follow each other from
/// the one nearest the sensor, and each sweep starts at the end nearest where the last one
/// stopped. A look along two lines off centre thus turns back at a row's end to read its other
/// line, a third of a square away, rather than crossing the board twice (measured: 0.4 s less
/// of a "no new mark" read). Rows with nothing to read are skipped and each sweep spans only its
/// row's squares to read, so the sensor travels little more than the squares themselves.
pub fn sweeps(
    config: &RobotConfig,
    cells: &[Cell],
    sensor_at: AxisPoint,
    offsets_deg: &[i32],
) -> Vec<Sweep> {
    let mut rows: Vec<usize> = cells.iter().map(|c| c.row).collect();
    rows.sort_unstable();
    rows.dedup();
    let centre_row = |row: usize| config.board.cell_centre(Cell { row, col: 0 }).rows;
    // Start from the end of the row list nearer the sensor.
    if let (Some(&first), Some(&last)) = (rows.first(), rows.last()) {
        if (centre_row(last) - sensor_at.rows).abs() < (centre_row(first) - sensor_at.rows).abs() {
            rows.reverse();
        }
    }
    let mut offsets: Vec<i32> = offsets_deg.to_vec();
    offsets.sort_unstable();
    offsets.dedup();
    let mut at = sensor_at;
    let mut out = Vec::new();
    for row in rows {
        let mut row_squares: Vec<_> = cells
            .iter()
            .filter(|c| c.row == row)
            .map(|&c| (c, reading_window(config, c)))
            .collect();
        row_squares.sort_by_key(|(c, _)| c.col);
        let low = *row_squares[0].1.start();
        let high = *row_squares[row_squares.len() - 1].1.end();
        let centre = centre_row(row);
        if let (Some(&lowest), Some(&highest)) = (offsets.first(), offsets.last()) {
            if (centre + highest - at.rows).abs() < (centre + lowest - at.rows).abs() {
                offsets.reverse();
            }
        }
        for &offset in &offsets {
            let forward = (low - at.columns).abs() <= (high - at.columns).abs();
            let mut squares = row_squares.clone();
            if !forward {
                squares.reverse();
            }
            let (from, to) = if forward { (low, high) } else { (high, low) };
            out.push(Sweep {
                rows_deg: centre + offset,
                line_offset_deg: offset,
                from_columns_deg: from,
                to_columns_deg: to,
                squares,
            });
            at = AxisPoint::new(to, centre + offset);
        }
    }
    out
}

#[cfg(test)]
mod cornering {
    use super::*;

    #[test]
    fn a_straight_stroke_has_no_corner_to_slow_for() {
        let stroke = [AxisPoint::new(0, 0), AxisPoint::new(60, 60)];
        assert_eq!(cornering_speed(&stroke, 3200.0), None);
        let on_a_line = [
            AxisPoint::new(0, 0),
            AxisPoint::new(30, 0),
            AxisPoint::new(60, 0),
        ];
        assert_eq!(cornering_speed(&on_a_line, 3200.0), None);
    }

    #[test]
    fn an_o_is_taken_at_the_speed_its_radius_allows() {
        let o = ring(AxisPoint::new(100, 100), 30.0, 16);
        let speed = cornering_speed(&o, 3200.0).unwrap();
        // sqrt(3200 * 30) = 310 deg/s; the corners' rounding to whole degrees costs a little.
        assert!((280.0..=315.0).contains(&speed), "{speed}");
        let gentler = cornering_speed(&o, 800.0).unwrap();
        assert!((gentler * 2.0 - speed).abs() < 1.0, "{gentler} {speed}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> RobotConfig {
        RobotConfig::default()
    }

    #[test]
    fn squares_are_centred_in_the_grid() {
        let board = config().board;
        assert_eq!(
            board.cell_centre(Cell { row: 0, col: 0 }),
            AxisPoint::new(70, 70)
        );
        assert_eq!(
            board.cell_centre(Cell { row: 2, col: 1 }),
            AxisPoint::new(170, 270)
        );
    }

    #[test]
    fn the_grid_is_two_lines_each_way_between_the_squares() {
        let paths = grid(&config().board);
        assert_eq!(paths.len(), 4);
        assert_eq!(
            paths[0],
            vec![AxisPoint::new(120, 20), AxisPoint::new(120, 320)]
        );
        assert_eq!(
            paths[3],
            vec![AxisPoint::new(20, 220), AxisPoint::new(320, 220)]
        );
    }

    #[test]
    fn an_x_is_two_diagonals_drawn_forward_and_an_o_a_closed_ring() {
        let board = config().board;
        let cell = Cell { row: 1, col: 1 };
        let x = mark(&board, cell, Mark::X);
        assert_eq!(x.len(), 2);
        assert!(x.iter().all(|p| p[0].columns < p[1].columns));
        let o = mark(&board, cell, Mark::O);
        assert_eq!(o.len(), 1);
        assert_eq!(o[0].first(), o[0].last());
        assert!(o[0].iter().all(|p| {
            let r = f64::from(p.columns - 170).hypot(f64::from(p.rows - 170));
            (r - 30.0).abs() <= 1.0
        }));
    }

    #[test]
    fn a_win_line_reaches_past_both_end_squares() {
        let board = config().board;
        let line = win_line(&board, Cell { row: 0, col: 2 }, Cell { row: 2, col: 0 });
        assert_eq!(line, vec![AxisPoint::new(49, 291), AxisPoint::new(291, 49)]);
    }

    #[test]
    fn sweeps_snake_through_only_the_rows_with_squares_to_read() {
        let config = config();
        let half = config.reading_geometry().window_half_deg;
        let cells = [
            Cell { row: 0, col: 0 },
            Cell { row: 0, col: 2 },
            Cell { row: 2, col: 1 },
            Cell { row: 2, col: 2 },
        ];
        let plan = sweeps(&config, &cells, AxisPoint::new(0, 0), &[0]);
        assert_eq!(plan.len(), 2);
        assert_eq!(
            (
                plan[0].rows_deg,
                plan[0].from_columns_deg,
                plan[0].to_columns_deg
            ),
            (70, 70 - half, 270 + half)
        );
        // The second sweep starts where the first ended and runs back.
        assert_eq!(
            (
                plan[1].rows_deg,
                plan[1].from_columns_deg,
                plan[1].to_columns_deg
            ),
            (270, 270 + half, 170 - half)
        );
        let order: Vec<Cell> = plan
            .iter()
            .flat_map(|s| s.squares.iter().map(|(c, _)| *c))
            .collect();
        assert_eq!(order, [cells[0], cells[1], cells[3], cells[2]]);
    }

    #[test]
    fn a_look_along_two_lines_a_row_turns_back_at_the_rows_end_for_its_second_line() {
        let config = config();
        let half = config.reading_geometry().window_half_deg;
        let cells: Vec<Cell> = (0..9).map(|i| Cell::from_index(i, 3)).collect();
        // Coming from the bottom right, as after a first look that ended on the last row.
        let plan = sweeps(&config, &cells, AxisPoint::new(300, 280), &[16, -16]);
        let lines: Vec<(i32, i32, i32)> = plan
            .iter()
            .map(|s| (s.rows_deg, s.from_columns_deg, s.to_columns_deg))
            .collect();
        let (left, right) = (70 - half, 270 + half);
        assert_eq!(
            lines,
            [
                (286, right, left),
                (254, left, right),
                (186, right, left),
                (154, left, right),
                (86, right, left),
                (54, left, right),
            ]
        );
        let offsets: Vec<i32> = plan.iter().map(|s| s.line_offset_deg).collect();
        assert_eq!(offsets, [16, -16, 16, -16, 16, -16]);
    }
}
