//! Where the grid and the sheet lie, and whether the pen and the sensor reach every square.

use super::{check, Checked, RobotConfig};
use serde::{Deserialize, Serialize};

/// Where things are on the paper, as positions of the pen in axis degrees.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BoardGeometry {
    /// Squares along each side of the grid, 3 or 4 (default: 3). A 4 x 4 grid needs smaller
    /// squares on the same sheet: `square_deg` 75 fits the default robot.
    pub size: usize,
    /// Marks in a row that win, from 3 to `size` (default: null, meaning `size`).
    pub k: Option<usize>,
    /// The grid's corner nearest both axes' zero, in degrees (default: columns 20, rows 20).
    pub grid_origin_deg: AxisPoint,
    /// The side of one square, in degrees (default: 100).
    pub square_deg: i32,
    /// The robot's mark: `letter` (an X or an O), or `dot` where drawing letters is not wanted
    /// (default: letter).
    pub mark_style: MarkStyle,
    /// The width and height of the robot's X or O, in degrees (default: 60).
    pub mark_size_deg: i32,
    /// Sides of the polygon that draws an O (default: 16).
    pub o_segments: u32,
    /// Drawing a path, the pen moves on to the next corner once this close to the current one,
    /// in degrees, instead of stopping there (0: stop at every corner; default: 3).
    pub corner_blend_deg: i32,
    /// How far the line through a winning three reaches past the outer squares' centres, in
    /// degrees (default: 30).
    pub win_line_overhang_deg: i32,
    /// The sheet of paper's corner nearest both axes' zero: the pen is never lowered outside
    /// the sheet (default: columns 0, rows 0).
    pub sheet_min_deg: AxisPoint,
    /// The sheet's far corner (default: columns 340, rows 340).
    pub sheet_max_deg: AxisPoint,
    /// Targets are always approached moving forward, from this far below, in degrees, so
    /// backlash is taken up the same way every time (default: 15).
    pub approach_deg: i32,
}

/// A position of the two gantry axes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AxisPoint {
    pub columns: i32,
    pub rows: i32,
}

impl AxisPoint {
    pub const fn new(columns: i32, rows: i32) -> AxisPoint {
        AxisPoint { columns, rows }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MarkStyle {
    Letter,
    Dot,
}

impl BoardGeometry {
    /// The game drawn on the paper. Only meaningful on a checked config: an unchecked size or
    /// run falls back to the classic game.
    pub fn rules(&self) -> crate::game::Rules {
        crate::game::Rules::new(self.size, self.k.unwrap_or(self.size))
            .unwrap_or_else(|_| crate::game::Rules::classic())
    }

    /// Where the pen is over the centre of `cell`. Row 0 is nearest the rows axis's zero,
    /// column 0 nearest the columns axis's zero.
    /// The same board on a sheet that lies `by` further from both axes' end stops: the grid
    /// and the sheet's corners move together, as they do when the paper slides.
    pub fn shifted(&self, by: AxisPoint) -> BoardGeometry {
        let moved = |p: AxisPoint| AxisPoint::new(p.columns + by.columns, p.rows + by.rows);
        BoardGeometry {
            grid_origin_deg: moved(self.grid_origin_deg),
            sheet_min_deg: moved(self.sheet_min_deg),
            sheet_max_deg: moved(self.sheet_max_deg),
            ..self.clone()
        }
    }

    pub fn cell_centre(&self, cell: crate::game::Cell) -> AxisPoint {
        let half = self.square_deg / 2;
        AxisPoint::new(
            self.grid_origin_deg.columns + cell.col as i32 * self.square_deg + half,
            self.grid_origin_deg.rows + cell.row as i32 * self.square_deg + half,
        )
    }
}

impl Default for BoardGeometry {
    fn default() -> Self {
        BoardGeometry {
            size: 3,
            k: None,
            grid_origin_deg: AxisPoint::new(20, 20),
            square_deg: 100,
            mark_style: MarkStyle::Letter,
            mark_size_deg: 60,
            o_segments: 16,
            corner_blend_deg: 3,
            win_line_overhang_deg: 30,
            sheet_min_deg: AxisPoint::new(0, 0),
            sheet_max_deg: AxisPoint::new(340, 340),
            approach_deg: 15,
        }
    }
}

impl RobotConfig {
    /// Every square, in the order people number them, must lie on the sheet (the pen draws its
    /// edges), and every point the pen or the sensor visits for it, approach included, inside
    /// the travel. The first square that does not is named, with how far it misses: on a
    /// bigger board that is what tells a person which setting to shrink.
    pub(crate) fn check_every_square_is_reachable(&self) -> Checked {
        let board = &self.board;
        let sensor = self.sensing.sensor_offset_deg;
        let size = board.size;
        for index in 0..size * size {
            let cell = crate::game::Cell::from_index(index, size);
            let square = cell.name(size);
            let near = AxisPoint::new(
                board.grid_origin_deg.columns + cell.col as i32 * board.square_deg,
                board.grid_origin_deg.rows + cell.row as i32 * board.square_deg,
            );
            let far = AxisPoint::new(
                near.columns + board.square_deg,
                near.rows + board.square_deg,
            );
            for (axis, near, far, sheet_min, sheet_max, offset, travel) in [
                (
                    "columns",
                    near.columns,
                    far.columns,
                    board.sheet_min_deg.columns,
                    board.sheet_max_deg.columns,
                    sensor.columns,
                    self.columns.travel_deg,
                ),
                (
                    "rows",
                    near.rows,
                    far.rows,
                    board.sheet_min_deg.rows,
                    board.sheet_max_deg.rows,
                    sensor.rows,
                    self.rows.travel_deg,
                ),
            ] {
                check(
                    near >= sheet_min,
                    "board.grid_origin_deg",
                    format!(
                        "puts {square} at {axis} {near}, {} before the sheet (board.sheet_min_deg {axis} {sheet_min})",
                        sheet_min - near
                    ),
                )?;
                // Where even the first square misses, the grid starts too far; else the
                // squares are too big for this many of them.
                let first_misses = index == 0;
                check(
                    far <= sheet_max,
                    if first_misses {
                        "board.grid_origin_deg"
                    } else {
                        "board.square_deg"
                    },
                    if first_misses {
                        format!(
                            "puts {square} at {axis} {near}..{far}, {} past the sheet (board.sheet_max_deg {axis} {sheet_max})",
                            far - sheet_max
                        )
                    } else {
                        format!(
                            "is {}, so {square} reaches {axis} {far}, {} past the sheet (board.sheet_max_deg {axis} {sheet_max}): make the squares smaller or the grid start nearer zero",
                            board.square_deg,
                            far - sheet_max
                        )
                    },
                )?;
                for (who, shift) in [("pen", 0), ("sensor", offset)] {
                    let low = near + shift - board.approach_deg;
                    let high = far + shift + board.approach_deg;
                    check(
                        low >= 0,
                        &format!("{axis}.travel_deg"),
                        format!(
                            "starts at 0, but the {who} over {square} needs {axis} {low}, {} below it",
                            -low
                        ),
                    )?;
                    check(
                        high <= travel,
                        &format!("{axis}.travel_deg"),
                        format!(
                            "is {travel}, but the {who} over {square} needs {axis} {high}, {} beyond it",
                            high - travel
                        ),
                    )?;
                }
            }
        }
        Ok(())
    }

    /// The board's own ranges, then whether the pen and the sensor reach every square and
    /// whether a square is big enough to read. Runs after the axes, pen and sensing are
    /// checked: it adds their figures.
    pub(super) fn check_board(&self) -> Checked {
        let board = &self.board;
        let (pen, sensing) = (&self.pen, &self.sensing);
        // Positions stay far inside i32, so no sum of them can overflow.
        for (field, point) in [
            ("board.grid_origin_deg", board.grid_origin_deg),
            ("board.sheet_min_deg", board.sheet_min_deg),
            ("board.sheet_max_deg", board.sheet_max_deg),
        ] {
            check(
                point.columns.abs() <= 10_000 && point.rows.abs() <= 10_000,
                field,
                format!(
                    "is {}, {}; each must be from -10000 to 10000",
                    point.columns, point.rows
                ),
            )?;
        }
        check(
            (3..=4).contains(&board.size),
            "board.size",
            format!(
                "is {}; the robot draws 3 x 3 or 4 x 4 (bigger boards are played in `console`)",
                board.size
            ),
        )?;
        if let Some(k) = board.k {
            check(
                (3..=board.size).contains(&k),
                "board.k",
                format!("is {k}; it must be from 3 to board.size ({})", board.size),
            )?;
        }
        check(
            board.sheet_min_deg.columns < board.sheet_max_deg.columns
                && board.sheet_min_deg.rows < board.sheet_max_deg.rows,
            "board.sheet_max_deg",
            "must lie beyond board.sheet_min_deg on both axes".to_string(),
        )?;
        check(
            (10..=1000).contains(&board.square_deg),
            "board.square_deg",
            format!("is {}; it must be from 10 to 1000", board.square_deg),
        )?;
        check(
            board.mark_size_deg > 0 && board.mark_size_deg < board.square_deg,
            "board.mark_size_deg",
            format!(
                "is {}; it must be above 0 and smaller than a square ({})",
                board.mark_size_deg, board.square_deg
            ),
        )?;
        check(
            (3..=64).contains(&board.o_segments),
            "board.o_segments",
            format!("is {}; it must be from 3 to 64", board.o_segments),
        )?;
        check(
            (0..=board.mark_size_deg / 4).contains(&board.corner_blend_deg),
            "board.corner_blend_deg",
            format!(
                "is {}; it must be from 0 to a quarter of the mark's size ({})",
                board.corner_blend_deg,
                board.mark_size_deg / 4
            ),
        )?;
        check(
            (0..=1000).contains(&board.approach_deg),
            "board.approach_deg",
            format!("is {}; it must be from 0 to 1000", board.approach_deg),
        )?;
        // The winning line runs through the end squares' centres and this far beyond: up to
        // half a square keeps it on the grid, which must lie on the sheet and in the travel.
        check(
            (0..=board.square_deg / 2).contains(&board.win_line_overhang_deg),
            "board.win_line_overhang_deg",
            format!(
                "is {}; it must be from 0 to half a square ({}), or the line leaves the grid",
                board.win_line_overhang_deg,
                board.square_deg / 2
            ),
        )?;
        self.check_every_square_is_reachable()?;
        if let Err(small) = crate::physical::ReadingGeometry::fits(
            self.scale(),
            sensing.spot_mm,
            pen.line_mm,
            board.square_deg,
        ) {
            let scale = self.scale();
            return Err((
                "board.square_deg".into(),
                format!(
                    "is {} ({}), too small to read with the sensor's {} mm spot: to read a \
                     square clear of its grid lines, squares must be at least {} deg ({:.0} mm), \
                     or the sensor mounted lower (sensing.spot_mm)",
                    board.square_deg,
                    crate::physical::both(
                        scale.columns_mm(f64::from(board.square_deg)),
                        f64::from(board.square_deg)
                    ),
                    sensing.spot_mm,
                    small.needed_deg,
                    small.needed_mm
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal;
    use super::*;

    #[test]
    fn a_board_too_big_for_the_sheet_is_refused_naming_the_first_square_that_misses() {
        assert_eq!(
            refusal(r#"{"board": {"size": 4}}"#),
            "robot config robot.json: board.square_deg is 100, so square 4 (row 1, column 4) \
             reaches columns 420, 80 past the sheet (board.sheet_max_deg columns 340): make the \
             squares smaller or the grid start nearer zero"
        );
    }

    #[test]
    fn a_board_the_sensor_cannot_reach_is_refused_naming_the_square_and_how_far() {
        // 75-degree squares fit the sheet, but the sensor rides 170 degrees beside the pen:
        // over the last column it needs 20 + 300 + 170 + 15 (approach) = 505.
        let text = r#"{"board": {"size": 4, "square_deg": 75, "mark_size_deg": 45,
            "win_line_overhang_deg": 20}, "sensing": {"spot_mm": 8},
            "columns": {"travel_deg": 480}}"#;
        assert_eq!(
            refusal(text),
            "robot config robot.json: columns.travel_deg is 480, but the sensor over square 4 \
             (row 1, column 4) needs columns 505, 25 beyond it"
        );
        let fits = text.replace("480", "520");
        let config = RobotConfig::parse(&fits, "robot.json").unwrap();
        assert_eq!(config.board.rules(), crate::game::Rules::new(4, 4).unwrap());
    }

    #[test]
    fn boards_the_robot_does_not_draw_and_runs_longer_than_the_board_are_refused() {
        assert!(refusal(r#"{"board": {"size": 5}}"#)
            .contains("board.size is 5; the robot draws 3 x 3 or 4 x 4"));
        assert!(refusal(r#"{"board": {"k": 4}}"#)
            .contains("board.k is 4; it must be from 3 to board.size (3)"));
    }
}
