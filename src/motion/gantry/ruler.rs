//! The grid as a ruler on the robot: before it draws, the robot crosses one grid line of each
//! axis between two empty squares and sees where the line is. Where it finds them against where
//! it found them just after drawing the grid tells it whether an axis has slipped (a pinion
//! skipping teeth on a worn rack: re-homing puts it right) or the sheet has moved (re-homing
//! does not: the robot stops and says by how much and which way).

use super::line_crossing::{Look, Settled};
use super::{Gantry, Result};
use crate::config::{Axis, AxisPoint};
use crate::game::Cell;
use crate::motion::MotionError;

/// The grid may lie this far from where it was found at the blank read, in mm, before the robot
/// acts on it. Less than a rack's tooth (3.2 mm), so one skipped tooth is found; more than the
/// fit's own scatter with nothing moved and than the gears' play (a degree or two). Measured
/// (`tests/grid_as_a_ruler.rs` prints each): a check differs from the blank read's measure of
/// the same line by 0.4 mm rms and 1.0 mm at worst under the 12 mm spot with 3 to 4 % noise
/// and readings every 10 to 20 ms, over eight seeds; by 0.5 mm at worst across the matrix's 6
/// to 12 mm spots, 0 to 4 % noise and 5 to 20 ms. So 2 mm is five deviations from a false
/// alarm and three from a missed tooth (which is then followed as a nudge, so a mark still
/// lands on its square). Over forty seeds the scatter has a tail (1.6 mm at worst under the 12
/// mm spot at 3 % noise): a measure past the tolerance re-homes and measures again before it
/// names anything, and a 1.5 mm nudge measured past it twice was named as moved in one world
/// of 100.
pub const GRID_TOLERANCE_MM: f64 = 2.0;

/// A measure of the grid further than this from where the squares follow it now, in mm, is
/// looked at again: a second crossing, its noise its own. One measure scatters by 0.35 mm rms
/// with nothing moved (forty seeds of the default 12 mm spot with 3 % noise, every 10 ms; the
/// eight seeds above had shown 0.4), so a nudge of 1.5 mm often measures under 1.2 mm: held to
/// one measure past 1.2 mm, a 1.5 mm nudge went unfollowed in 20 worlds of 100.
pub const LOOK_AGAIN_BEYOND_MM: f64 = 0.8;

/// The squares follow the grid when the mean of the two measures lies further than this from
/// where they follow it now, in mm: the mean scatters by a square root of two less than one
/// measure, so 1 mm is four of its deviations. Measured over 100 worlds (the default spot,
/// noise and read period): noise alone moved the squares in none, and a nudge of 1.5 mm went
/// unfollowed in 5 (one of them named as moved 2.1 mm: both its measures were past the
/// tolerance). A nudge of 1 to 2 mm is followed to within that scatter; a smaller one is left,
/// costing a mark at most that much.
pub const FOLLOW_BEYOND_MM: f64 = 1.0;

/// The two measures of a nudge agree when they are this close, in mm: twice the scatter of
/// their difference with nothing moved (0.5 mm rms). Two that do not are one crossing gone
/// astray (a mark's ink at the search's edge), not a measure to act on.
const FOLLOW_AGREE_MM: f64 = 1.0;

/// Where one grid line was found: which line of its axis (1 is the one nearest the end stop),
/// between which squares across it (0 is the row or column nearest the other axis's end stop),
/// and how far from where the pen was sent to draw it, in degrees, positive further from the
/// axis's end stop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineOffset {
    pub line: usize,
    pub across: usize,
    pub deg: f64,
}

/// Where the grid's lines were found, one crossing of each axis: `None` for an axis with no
/// clean crossing (no two empty squares side by side across one of its lines) or no sure fit.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct GridPlace {
    pub columns: Option<LineOffset>,
    pub rows: Option<LineOffset>,
}

impl GridPlace {
    fn axis(&self, axis: Axis) -> Option<LineOffset> {
        match axis {
            Axis::Columns => self.columns,
            _ => self.rows,
        }
    }
}

/// Where the grid's lines were found just after it was drawn, against where the pen was sent,
/// in degrees: one line of each axis crossed between the squares nearest the board's middle,
/// or, for the columns axis, every line at the mean of where the blank read's rows placed them
/// (see `Gantry::lines_in_sweeps`). A later crossing is held against its own line's measure
/// where it has one (lines drawn one way and the other lie a degree or so apart from where they
/// were sent), else against its axis's (see [`GridAsDrawn::held_against`]); crossed between
/// other squares, the same line reads within about a degree of it once the fit allows for the
/// paper's slope (see [`crate::motion::ruler`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GridAsDrawn {
    lines: Vec<(Axis, usize, Option<f64>)>,
}

impl GridAsDrawn {
    /// The measure of `axis`'s line `line`, if it has one.
    pub fn line(&self, axis: Axis, line: usize) -> Option<f64> {
        self.lines
            .iter()
            .find(|l| l.0 == axis && l.1 == line)
            .and_then(|l| l.2)
    }

    /// What a crossing of `axis`'s line `line` is held against: its own measure, or else the
    /// measure of another line of the same axis. The degree or so between lines drawn one way
    /// and the other is a fifth of a millimetre, far less than a nudge the squares follow, and
    /// measured over forty worlds each of four sensors (`tests/grid_as_a_ruler.rs`), a check of
    /// line 2 held against line 1's measure scattered no more than a check of line 1 against its
    /// own (0.21 to 0.32 mm rms against 0.19 to 0.35). A line taken as it was first found
    /// mid-game instead would take as drawn whatever nudge came before, and the squares would
    /// not follow it.
    pub fn held_against(&self, axis: Axis, line: usize) -> Option<f64> {
        self.line(axis, line)
            .or_else(|| self.lines.iter().filter(|l| l.0 == axis).find_map(|l| l.2))
    }

    /// Takes `offset` as its axis's measure where no line of that axis had one (a game taken up
    /// again after a crash, a fit not sure when the grid was drawn); says whether it did.
    fn adopt(&mut self, axis: Axis, offset: LineOffset) -> bool {
        if self.held_against(axis, offset.line).is_some() {
            return false;
        }
        self.lines.retain(|l| !(l.0 == axis && l.1 == offset.line));
        self.lines.push((axis, offset.line, Some(offset.deg)));
        true
    }
}

/// What a check of the grid came to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GridCheck {
    /// The lines are within [`GRID_TOLERANCE_MM`] of where they were (or could not be measured).
    /// `followed`: the squares' centres moved to follow them (see [`FOLLOW_BEYOND_MM`]).
    InPlace { place: GridPlace, followed: bool },
    /// They were not, and after re-homing they are: an axis had slipped.
    Rehomed { before: GridPlace, after: GridPlace },
}

impl Gantry {
    /// Measures where the grid lies now, from crossings between the `empty` squares, and holds
    /// each line crossed against the blank read's measure of it or of its axis's other line
    /// ([`GridAsDrawn::held_against`]). Beyond
    /// [`GRID_TOLERANCE_MM`] it re-homes and measures again: an axis that slipped is then back
    /// in place; a sheet that moved is not, and that is [`MotionError::SheetMoved`]. Within it,
    /// the squares follow the grid (see [`Gantry::squares_followed_by`]). An axis with no
    /// measure from the blank read (a game taken up again after a crash, or a fit that was not
    /// sure then) takes this crossing as its measure: where a drawn line lies against where the
    /// pen was sent differs by a millimetre or so, too close to the tolerance to hold a line
    /// against where it was sent.
    pub fn check_grid(&mut self, empty: &[Cell]) -> Result<GridCheck> {
        let before = self.measure_grid(empty)?;
        let mut drawn = self.grid_as_drawn.take().unwrap_or_default();
        for axis in [Axis::Columns, Axis::Rows] {
            if let Some(offset) = before.axis(axis) {
                if drawn.adopt(axis, offset) {
                    log::info!(
                        "the {axis} had no line measured when the grid was drawn: taking line \
                         {} at {} as it is now ({})",
                        offset.line,
                        offset.across,
                        self.describe_offsets(before.columns, before.rows)
                    );
                }
            }
        }
        self.grid_as_drawn = Some(drawn);
        if self.within_tolerance(&before) {
            let followed = self.follow_the_grid(&before, empty)?;
            return Ok(GridCheck::InPlace {
                place: before,
                followed,
            });
        }
        log::info!(
            "the grid is not where it was ({}): re-homing",
            self.describe_grid_place(&before)
        );
        self.home()?;
        let after = self.measure_grid(empty)?;
        if self.within_tolerance(&after) {
            self.follow_the_grid(&after, empty)?;
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

    /// Where the squares are now against where the robot config put them, in degrees of each
    /// axis (positive further from the end stop): what [`Gantry::check_grid`] has followed.
    pub fn squares_followed_by(&self) -> AxisPoint {
        let (now, configured) = (
            self.config.board.grid_origin_deg,
            self.board_as_configured.grid_origin_deg,
        );
        AxisPoint::new(now.columns - configured.columns, now.rows - configured.rows)
    }

    /// Moves the squares' centres, the sheet's corners with them, by as much as `place` has
    /// the grid from where it was drawn, on each axis where it and a second measure lie
    /// further than [`FOLLOW_BEYOND_MM`] from where they are: a sheet nudged by less than the
    /// tolerance then
    /// changes neither where the robot draws nor where it reads, against the lines on the
    /// paper. An axis not measured this time, or within that of where the squares are, keeps
    /// what it followed last. A shift that would take a square's approach out of the travel is
    /// made only as far as the travel allows (the config's reach check), and the log says so.
    /// A measure beyond [`LOOK_AGAIN_BEYOND_MM`] is measured again over the `empty` squares'
    /// crossings, and the two are taken together. Says whether the squares moved.
    fn follow_the_grid(&mut self, place: &GridPlace, empty: &[Cell]) -> Result<bool> {
        let before = self.squares_followed_by();
        let beyond = |g: &Gantry, place: &GridPlace, axis: Axis, kept: i32| {
            g.moved_since_drawn(place, axis).filter(|&deg| {
                g.axis_mm(axis, (deg - f64::from(kept)).abs()) > LOOK_AGAIN_BEYOND_MM
            })
        };
        let kept = |axis: Axis| match axis {
            Axis::Columns => before.columns,
            _ => before.rows,
        };
        if [Axis::Columns, Axis::Rows]
            .into_iter()
            .all(|axis| beyond(self, place, axis, kept(axis)).is_none())
        {
            return Ok(false);
        }
        // One measure beyond the first threshold is one in fifty with nothing moved, more on a
        // busy brick whose readings come late: a nudge is followed only when a second
        // measure, its noise its own, agrees within [`FOLLOW_AGREE_MM`], and their mean is
        // beyond [`FOLLOW_BEYOND_MM`].
        let again = self.measure_grid(empty)?;
        let wanted = |axis: Axis, kept: i32| {
            let first = beyond(self, place, axis, kept)?;
            let second = self.moved_since_drawn(&again, axis)?;
            let both = (first + second) / 2.0;
            if self.axis_mm(axis, (first - second).abs()) > FOLLOW_AGREE_MM
                || self.axis_mm(axis, (both - f64::from(kept)).abs()) <= FOLLOW_BEYOND_MM
            {
                log::info!(
                    "the {axis}'s grid measured {first:+.1} deg, then {second:+.1} deg, from where \
                     it was drawn: not a nudge both measures agree on"
                );
                return None;
            }
            Some(both.round() as i32)
        };
        let reachable = |by: AxisPoint| {
            let mut candidate = self.config.clone();
            candidate.board = self.board_as_configured.shifted(by);
            candidate.check_every_square_is_reachable()
        };
        let mut by = before;
        for axis in [Axis::Columns, Axis::Rows] {
            let Some(want) = wanted(axis, kept(axis)) else {
                continue;
            };
            let with = |deg: i32| match axis {
                Axis::Columns => AxisPoint::new(deg, by.rows),
                _ => AxisPoint::new(by.columns, deg),
            };
            // As far as the travel lets every square be reached, toward what was measured.
            let mut deg = want;
            while deg != 0 && reachable(with(deg)).is_err() {
                deg -= deg.signum();
            }
            if deg != want {
                let why = reachable(with(want))
                    .err()
                    .map_or(String::new(), |(f, p)| format!(": {f} {p}"));
                log::warn!(
                    "the {axis}'s squares can follow the grid by {deg:+} deg, not the {want:+} \
                     deg it moved{why}"
                );
            }
            by = with(deg);
        }
        if by == before {
            return Ok(false);
        }
        let scale = self.config.scale();
        log::info!(
            "the squares' centres follow the grid: columns {:+} deg ({:+.1} mm), rows {:+} deg \
             ({:+.1} mm) from where the config puts them",
            by.columns,
            scale.columns_mm(f64::from(by.columns)),
            by.rows,
            scale.rows_mm(f64::from(by.rows))
        );
        self.config.board = self.board_as_configured.shifted(by);
        Ok(true)
    }

    /// Draws a fresh grid where the robot config puts it; the ruler's measures and the squares'
    /// following of an earlier sheet are forgotten (the next blank read measures this one).
    pub fn draw_grid(&mut self) -> Result<()> {
        self.config.board = self.board_as_configured.clone();
        self.grid_as_drawn = None;
        let grid = crate::motion::plan::grid(&self.config.board);
        self.draw(&grid)
    }

    /// Measures one line of each axis just after the grid was drawn, the one a check crosses
    /// first (nearest the board's middle, between its middle squares): later checks hold each
    /// line against that measure, and cross a measured line while it has a clean crossing.
    /// The columns axis's lines are taken at the mean of where the blank read's rows placed
    /// them, when they placed every one of them surely (see `Gantry::lines_in_sweeps`); only
    /// the rows axis's line is then crossed.
    ///
    /// Why one and not every line: each crossing at the blank read's precision takes 3 to 4.5
    /// s (two to four passes out and back), and the four of a 3 x 3 grid took 13.4 to 14.6 s
    /// of the 32.5 s a person waited for their first move (docs/figures.md). A check that must
    /// cross the other line holds it against this one ([`GridAsDrawn::held_against`]).
    ///
    /// A line not found near where the pen drew it is looked for again more widely (see
    /// `sensor_place`): true when that found the sensor elsewhere than configured, and the
    /// blank read, placed by the old figure, must be taken again.
    pub(super) fn note_grid_as_drawn(&mut self) -> Result<bool> {
        // Which line is crossed must not lean on an earlier sheet's measures.
        self.grid_as_drawn = None;
        let every = self.all_squares();
        let mut drawn = GridAsDrawn::default();
        let swept = self.swept_grid_lines.take();
        if let Some(lines) = &swept {
            drawn.lines.extend(
                lines
                    .iter()
                    .map(|&(line, deg)| (Axis::Columns, line, Some(deg))),
            );
        }
        let crossed: &[Axis] = match swept {
            Some(_) => &[Axis::Rows],
            None => &[Axis::Columns, Axis::Rows],
        };
        let mut sensor_moved = false;
        for &axis in crossed {
            let Some((line, across)) = self.clean_crossing(axis, &every) else {
                continue;
            };
            let (at, across_deg) = self.crossing_place(axis, line, across);
            let (found, elsewhere) = self.guarded(|g| {
                g.move_pen(0)?;
                match g.cross_line(axis, at, across_deg, Look::JustDrawn, None)? {
                    Some(found) => Ok((Some(found), false)),
                    None => g.find_the_sensor_on(axis, at, across_deg),
                }
            })?;
            if elsewhere {
                sensor_moved = true;
                continue;
            }
            drawn.lines.push((axis, line, found));
        }
        if sensor_moved {
            return Ok(true);
        }
        log::info!(
            "the grid as drawn, against where the pen was sent: {}{}",
            self.describe_lines(&drawn),
            if swept.is_some() {
                " (the columns axis's lines at the mean of where the blank read's rows crossed \
                 them)"
            } else {
                ""
            }
        );
        self.grid_as_drawn = Some(drawn);
        Ok(false)
    }

    /// Where the blank read found the grid's lines, once it has.
    pub fn grid_as_drawn(&self) -> Option<&GridAsDrawn> {
        self.grid_as_drawn.as_ref()
    }

    /// How far `place` has the grid from where it was just after drawing, in words, each axis
    /// in both units.
    pub fn describe_grid_place(&self, place: &GridPlace) -> String {
        let moved = |axis| {
            let now = place.axis(axis)?;
            self.moved_since_drawn(place, axis)
                .map(|deg| LineOffset { deg, ..now })
        };
        self.describe_offsets(moved(Axis::Columns), moved(Axis::Rows)) + " from where it was drawn"
    }

    fn describe_lines(&self, drawn: &GridAsDrawn) -> String {
        let said: Vec<String> = drawn
            .lines
            .iter()
            .map(|&(axis, line, deg)| {
                let what = deg.map_or("not measured".to_string(), |deg| self.signed(axis, deg));
                format!("{axis} line {line} {what}")
            })
            .collect();
        said.join(", ")
    }

    fn describe_offsets(&self, columns: Option<LineOffset>, rows: Option<LineOffset>) -> String {
        let one = |axis: Axis, offset: Option<LineOffset>| {
            offset.map_or("not measured".to_string(), |o| {
                format!(
                    "{} (line {} at {})",
                    self.signed(axis, o.deg),
                    o.line,
                    o.across
                )
            })
        };
        format!(
            "columns {}, rows {}",
            one(Axis::Columns, columns),
            one(Axis::Rows, rows)
        )
    }

    /// An offset along `axis` with its sign, in both units: "-0.5 mm (2 deg)".
    fn signed(&self, axis: Axis, deg: f64) -> String {
        let scale = self.config.scale();
        let both = match axis {
            Axis::Columns => scale.both_columns(deg.abs()),
            _ => scale.both_rows(deg.abs()),
        };
        format!("{}{both}", if deg < 0.0 { "-" } else { "+" })
    }

    pub(super) fn axis_mm(&self, axis: Axis, deg: f64) -> f64 {
        let scale = self.config.scale();
        match axis {
            Axis::Columns => scale.columns_mm(deg),
            _ => scale.rows_mm(deg),
        }
    }

    /// How far `place` has an axis's line from where the blank read found it (or its axis's
    /// other line: [`GridAsDrawn::held_against`]); `None` unless both were measured.
    fn moved_since_drawn(&self, place: &GridPlace, axis: Axis) -> Option<f64> {
        let now = place.axis(axis)?;
        let then = self.grid_as_drawn.as_ref()?.held_against(axis, now.line)?;
        Some(now.deg - then)
    }

    /// True when `place` has every line it measured within [`GRID_TOLERANCE_MM`] of where the
    /// squares now follow it: a nudge already followed is not a new one. (Held to where the
    /// grid was drawn instead, a 1.5 mm nudge toward an end stop, which the squares could
    /// follow only 1.1 mm before the pen's reach ran out, measured 2.1 mm on a later turn, in
    /// the ruler's tail, and ended the game as a sheet that had moved.)
    fn within_tolerance(&self, place: &GridPlace) -> bool {
        let followed = self.squares_followed_by();
        [Axis::Columns, Axis::Rows].into_iter().all(|axis| {
            let kept = f64::from(match axis {
                Axis::Columns => followed.columns,
                _ => followed.rows,
            });
            self.moved_since_drawn(place, axis)
                .is_none_or(|moved| self.axis_mm(axis, (moved - kept).abs()) <= GRID_TOLERANCE_MM)
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
                let (at, across_deg) = g.crossing_place(axis, line, across);
                let settled = g.where_a_check_expects(axis, line);
                let found = g
                    .cross_line(axis, at, across_deg, Look::Check, settled)?
                    .map(|deg| LineOffset { line, across, deg });
                match axis {
                    Axis::Columns => place.columns = found,
                    _ => place.rows = found,
                }
            }
            Ok(place)
        })
    }

    /// Where a check expects `axis`'s line `line` if nothing has moved since the squares last
    /// followed the grid, and within what a measure leaves the squares where they are
    /// ([`LOOK_AGAIN_BEYOND_MM`]); `None` for a line with no measure to hold it against.
    fn where_a_check_expects(&self, axis: Axis, line: usize) -> Option<Settled> {
        let then = self.grid_as_drawn.as_ref()?.held_against(axis, line)?;
        let followed = self.squares_followed_by();
        let (kept, within) = match axis {
            Axis::Columns => (
                followed.columns,
                self.config.scale().columns_deg(LOOK_AGAIN_BEYOND_MM),
            ),
            _ => (
                followed.rows,
                self.config.scale().rows_deg(LOOK_AGAIN_BEYOND_MM),
            ),
        };
        Some(Settled {
            offset_deg: then + f64::from(kept),
            within_deg: within,
        })
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
