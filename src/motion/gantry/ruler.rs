//! The grid as a ruler on the robot: before it draws, the robot crosses one grid line of each
//! axis between two empty squares and sees where the line is. Where it finds them against where
//! it found them just after drawing the grid tells it whether an axis has slipped (a pinion
//! skipping teeth on a worn rack: re-homing puts it right) or the sheet has moved (re-homing
//! does not: the robot stops and says by how much and which way).

use super::reading::SLOWEST_SWEEP_DEG_PER_S;
use super::{Gantry, Result};
use crate::config::Axis;
use crate::game::Cell;
use crate::motion::ruler::{self, LineFix};
use crate::motion::MotionError;

/// A line is looked for first up to this share of a square either side of where it was drawn:
/// a skipped tooth (3.2 mm, 15 degrees with a 24-tooth gear) is inside it. The narrower the
/// search, the less room noise has to pull the fit.
const SEARCH_SHARE_OF_SQUARE: f64 = 0.25;

/// A fit at the edge of the first search is looked for again up to this share of a square, in
/// the same readings: a sheet knocked 6 mm (with the default 21 mm squares and 12 mm spot) is
/// inside it, and the neighbouring line, a whole square away, outside.
const WIDE_SEARCH_SHARE_OF_SQUARE: f64 = 0.4;

/// A crossing's fit counts when its depth is at least this many times its uncertainty: six,
/// as for a mark (see `sensing::MEAN_SIGMAS`), so paper's unevenness is never taken for a line.
const RULER_SIGMAS: f64 = 6.0;

/// A line is crossed out and back at most this many times, each slower than the last, before
/// it is left unmeasured.
const MOST_PASSES: usize = 3;

/// The grid may lie this far from where it was found at the blank read, in mm, before the robot
/// acts on it. Less than a rack's tooth (3.2 mm), so one skipped tooth is found; more than the
/// fit's own scatter with nothing moved (at most 1.0 mm across the detection matrix's spots of
/// 6 to 12 mm, noise up to 4 % and readings every 5 to 20 ms, the worst under the 12 mm spot:
/// `tests/grid_as_a_ruler.rs` prints each) and than the gears' play (a degree or two).
pub const GRID_TOLERANCE_MM: f64 = 2.0;

/// Where the grid's lines were found, against where they were drawn, in degrees of each axis:
/// positive further from the axis's end stop. `None` for an axis with no clean crossing (no two
/// empty squares side by side across one of its lines) or no sure fit.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct GridPlace {
    pub columns_deg: Option<f64>,
    pub rows_deg: Option<f64>,
}

impl GridPlace {
    fn axis(&self, axis: Axis) -> Option<f64> {
        match axis {
            Axis::Columns => self.columns_deg,
            _ => self.rows_deg,
        }
    }
}

/// What a check of the grid came to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GridCheck {
    /// The lines are within [`GRID_TOLERANCE_MM`] of where they were (or could not be measured).
    InPlace(GridPlace),
    /// They were not, and after re-homing they are: an axis had slipped.
    Rehomed { before: GridPlace, after: GridPlace },
}

impl Gantry {
    /// Measures where the grid lies now, from crossings between the `empty` squares, and holds
    /// it against the blank read's. Beyond [`GRID_TOLERANCE_MM`] it re-homes and measures
    /// again: an axis that slipped is then back in place; a sheet that moved is not, and that
    /// is [`MotionError::SheetMoved`]. An axis with no measure from the blank read (a game
    /// taken up again after a crash, or a fit that was not sure then) takes this one as its
    /// measure: where a drawn line lies against where the pen was sent differs by a millimetre
    /// or so, too close to the tolerance to hold a line against where it was sent.
    pub fn check_grid(&mut self, empty: &[Cell]) -> Result<GridCheck> {
        let before = self.measure_grid(empty)?;
        let drawn = self.grid_as_drawn.unwrap_or_default();
        let adopted = GridPlace {
            columns_deg: drawn.columns_deg.or(before.columns_deg),
            rows_deg: drawn.rows_deg.or(before.rows_deg),
        };
        if adopted != drawn {
            log::info!(
                "the grid had no measure from when it was drawn on some axis: taking it as it is \
                 now ({})",
                self.describe_offsets(before.columns_deg, before.rows_deg)
            );
            self.grid_as_drawn = Some(adopted);
        }
        if self.within_tolerance(&before) {
            return Ok(GridCheck::InPlace(before));
        }
        log::info!(
            "the grid is not where it was ({}): re-homing",
            self.describe_grid_place(&before)
        );
        self.home()?;
        let after = self.measure_grid(empty)?;
        if self.within_tolerance(&after) {
            return Ok(GridCheck::Rehomed { before, after });
        }
        let (axis, moved_deg) = [Axis::Columns, Axis::Rows]
            .into_iter()
            .filter_map(|axis| Some((axis, self.moved_since_drawn(&after, axis)?)))
            .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))
            .expect("out of tolerance on some axis");
        Err(MotionError::SheetMoved {
            axis,
            mm: self.axis_mm(axis, moved_deg.abs()),
            deg: moved_deg.abs().round() as i32,
            away_from_stop: moved_deg > 0.0,
        })
    }

    /// Takes the grid's place just after it was drawn: later checks are held against it.
    pub(super) fn note_grid_as_drawn(&mut self) -> Result<()> {
        let place = self.measure_grid(&self.all_squares())?;
        log::info!(
            "the grid as drawn, against where the pen was sent: {}",
            self.describe_offsets(place.columns_deg, place.rows_deg)
        );
        self.grid_as_drawn = Some(place);
        Ok(())
    }

    /// Where the blank read found the grid, once it has.
    pub fn grid_as_drawn(&self) -> Option<GridPlace> {
        self.grid_as_drawn
    }

    /// How far `place` has the grid from where it was just after drawing, in words, each axis
    /// in both units.
    pub fn describe_grid_place(&self, place: &GridPlace) -> String {
        self.describe_offsets(
            self.moved_since_drawn(place, Axis::Columns),
            self.moved_since_drawn(place, Axis::Rows),
        ) + " from where it was drawn"
    }

    fn describe_offsets(&self, columns_deg: Option<f64>, rows_deg: Option<f64>) -> String {
        let scale = self.config.scale();
        let one = |deg: Option<f64>, both: &dyn Fn(f64) -> String| {
            deg.map_or("not measured".to_string(), |deg| {
                format!("{}{}", if deg < 0.0 { "-" } else { "+" }, both(deg.abs()))
            })
        };
        format!(
            "columns {}, rows {}",
            one(columns_deg, &|d| scale.both_columns(d)),
            one(rows_deg, &|d| scale.both_rows(d))
        )
    }

    fn axis_mm(&self, axis: Axis, deg: f64) -> f64 {
        let scale = self.config.scale();
        match axis {
            Axis::Columns => scale.columns_mm(deg),
            _ => scale.rows_mm(deg),
        }
    }

    /// How far `place` has an axis's lines from where the blank read found them; `None`
    /// unless both measured that axis.
    fn moved_since_drawn(&self, place: &GridPlace, axis: Axis) -> Option<f64> {
        let now = place.axis(axis)?;
        let then = self.grid_as_drawn?.axis(axis)?;
        Some(now - then)
    }

    fn within_tolerance(&self, place: &GridPlace) -> bool {
        [Axis::Columns, Axis::Rows].into_iter().all(|axis| {
            self.moved_since_drawn(place, axis)
                .is_none_or(|moved| self.axis_mm(axis, moved.abs()) <= GRID_TOLERANCE_MM)
        })
    }

    /// Crosses one line of each axis between two `empty` squares, out and back (a reading's
    /// age puts a line late in the direction of travel; the two directions' mean cancels it).
    pub fn measure_grid(&mut self, empty: &[Cell]) -> Result<GridPlace> {
        self.guarded(|g| {
            g.move_pen(0)?;
            let mut place = GridPlace::default();
            for axis in [Axis::Columns, Axis::Rows] {
                let Some((line, across)) = g.clean_crossing(axis, empty) else {
                    continue;
                };
                let found = g.cross_line(axis, line, across)?;
                match axis {
                    Axis::Columns => place.columns_deg = found,
                    _ => place.rows_deg = found,
                }
            }
            Ok(place)
        })
    }

    /// A line of `axis` with an empty square on either side, and where to cross it: the line's
    /// place along `axis`, and the centre of the two squares across it. Lines nearer the
    /// board's middle first.
    fn clean_crossing(&self, axis: Axis, empty: &[Cell]) -> Option<(i32, i32)> {
        let board = &self.config.board;
        let n = board.size;
        let mut lines: Vec<usize> = (1..n).collect();
        lines.sort_by_key(|&k| (2 * k).abs_diff(n));
        let mut across: Vec<usize> = (0..n).collect();
        across.sort_by_key(|&k| (2 * k + 1).abs_diff(n));
        for &k in &lines {
            for &other in &across {
                let (a, b) = match axis {
                    Axis::Columns => (
                        Cell {
                            row: other,
                            col: k - 1,
                        },
                        Cell { row: other, col: k },
                    ),
                    _ => (
                        Cell {
                            row: k - 1,
                            col: other,
                        },
                        Cell { row: k, col: other },
                    ),
                };
                if empty.contains(&a) && empty.contains(&b) {
                    let centre = board.cell_centre(a);
                    let origin = board.grid_origin_deg;
                    let at = k as i32 * board.square_deg;
                    return Some(match axis {
                        Axis::Columns => (origin.columns + at, centre.rows),
                        _ => (origin.rows + at, centre.columns),
                    });
                }
            }
        }
        None
    }

    /// Sweeps across the line of `axis` at `line_deg`, out and back, the other axis at
    /// `across_deg`, and fits the line to every reading so far: the line's offset from
    /// `line_deg` once the fit is sure. Noisy readings under a wide spot leave it unsure after
    /// one pass; each further pass goes at half the speed, so it brings twice the readings,
    /// up to [`MOST_PASSES`]; then the line goes unmeasured (and unchecked) this time.
    fn cross_line(&mut self, axis: Axis, line_deg: i32, across_deg: i32) -> Result<Option<f64>> {
        let geometry = self.config.reading_geometry();
        let spot = match axis {
            Axis::Columns => geometry.spot_columns_deg,
            _ => geometry.spot_rows_deg,
        };
        let square = f64::from(self.config.board.square_deg);
        let search = square * SEARCH_SHARE_OF_SQUARE;
        let wide = square * WIDE_SEARCH_SHARE_OF_SQUARE;
        // Far enough to see the paper beyond the dip at the first search's ends; further, and
        // the readings near the neighbouring line's dip pull the fit (measured: the fit strays
        // up to 1.4 mm with nothing moved, against 1.0 mm).
        let reach = (spot / 2.0 + search + 4.0).ceil() as i32;
        // Readings an eighth of a spot apart: some thirty across the dip.
        let mut speed = self.reading_speed(0.125, self.config.sensing.sweep_speed_deg_per_s);
        let mut readings: Vec<(f64, f64)> = Vec::new();
        let mut fix = None;
        for _ in 0..MOST_PASSES {
            // Out and back: a reading's age and the gears' play put the line late in the
            // direction of travel, by as much each way.
            for (from, to) in [
                (line_deg - reach, line_deg + reach),
                (line_deg + reach, line_deg - reach),
            ] {
                let samples = self.sweep_line(axis, across_deg, from, to, speed)?;
                readings.extend(samples.iter().map(|s| {
                    let along = match axis {
                        Axis::Columns => s.at.columns,
                        _ => s.at.rows,
                    };
                    (f64::from(along), f64::from(s.percent))
                }));
            }
            let at_edge = |fix: Option<LineFix>, search: f64| {
                fix.is_some_and(|f| (f.at_deg - f64::from(line_deg)).abs() >= search - 1.0)
            };
            fix = ruler::locate_line(&readings, f64::from(line_deg), search, spot);
            if at_edge(fix, search) {
                fix = ruler::locate_line(&readings, f64::from(line_deg), wide, spot);
            }
            // A best fit at the very edge of the wide search is not a line found there but one
            // beyond it, or ink that is no line (a mark drawn across the squares' edge, an old
            // sheet's): not a measure to act on.
            if at_edge(fix, wide) {
                log::info!(
                    "crossing the {axis}'s grid line at {line_deg} deg: the best fit is at the \
                     edge of the search ({fix:?}), so no line was measured"
                );
                return Ok(None);
            }
            if fix.is_some_and(|f| f.sigmas >= RULER_SIGMAS) {
                break;
            }
            speed = (speed / 2).max(SLOWEST_SWEEP_DEG_PER_S);
        }
        match fix {
            Some(fix) if fix.sigmas >= RULER_SIGMAS => Ok(Some(fix.at_deg - f64::from(line_deg))),
            other => {
                log::info!(
                    "crossing the {axis}'s grid line at {line_deg} deg {MOST_PASSES} times both \
                     ways: no line sure enough to measure by ({other:?})"
                );
                Ok(None)
            }
        }
    }
}

/// Which way a moved sheet went, for [`MotionError::SheetMoved`]'s message.
pub fn toward(away_from_stop: bool) -> &'static str {
    if away_from_stop {
        "away from"
    } else {
        "toward"
    }
}
