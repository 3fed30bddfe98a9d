//! Crossing one grid line between two empty squares, out and back, until a fit of every
//! reading says where the line is: the ruler's one measurement.

use super::reading::{readings_across, SweptRow, SLOWEST_SWEEP_DEG_PER_S};
use super::{Gantry, Result};
use crate::config::Axis;
use crate::game::Cell;
use crate::motion::ruler::{self, LineFix};
use crate::motion::sensing::readings_per_measurement;

/// A line is looked for first up to this share of a square either side of where it was drawn:
/// a skipped tooth (3.2 mm, 15 degrees with a 24-tooth gear) is inside it. The narrower the
/// search, the less room noise has to pull the fit.
const SEARCH_SHARE_OF_SQUARE: f64 = 0.25;

/// A fit at the edge of the first search is looked for again up to this share of a square, in
/// the same readings: a sheet knocked 6 mm (with the default 21 mm squares and 12 mm spot) is
/// inside it, and the neighbouring line, a whole square away, outside.
pub(super) const WIDE_SEARCH_SHARE_OF_SQUARE: f64 = 0.4;

/// Just after drawing, a line is looked for this far either side of where the pen was sent,
/// in mm: the pen's own placing error is under a millimetre (measured: drawn lines lie 0 to
/// 4 degrees from where they were sent), and the narrower search makes each of the set-up's
/// crossings a third shorter.
pub(in crate::motion::gantry) const JUST_DRAWN_SEARCH_MM: f64 = 2.0;

/// Which crossing: of a grid just drawn (the line is near where the pen was sent), or a check
/// during the game (it may have moved by a tooth or more).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Look {
    JustDrawn,
    Check,
}

/// A crossing's fit counts when its depth is at least this many times its uncertainty: six,
/// as for a mark (see `sensing::MEAN_SIGMAS`), so paper's unevenness is never taken for a line.
const RULER_SIGMAS: f64 = 6.0;

/// Where a check expects a line, and how close to it a measure leaves nothing to do: the line's
/// offset from where it was drawn if nothing has moved since the squares last followed it, and
/// the distance within which a measure sends neither a second look nor a follow, in degrees.
///
/// Why: a check crossed each line until its fit placed it to [`PRECISION_MM`], two to four
/// passes under the default sensor, though most checks find the grid where it was and a
/// measure anywhere within [`super::ruler::LOOK_AGAIN_BEYOND_MM`] of that changes nothing. A
/// crossing whose fit already lies [`SETTLED_SIGMAS`] of its own deviations inside that distance
/// stops there: only a measure that may call for a look again or a follow is taken to the
/// precision a follow is decided on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Settled {
    pub offset_deg: f64,
    pub within_deg: f64,
}

impl Settled {
    /// Whether `fix`, a crossing of the line drawn at `line_deg` whose readings held each fresh
    /// measurement `repeats` times at most, leaves the line surely where it is expected. The fit
    /// takes every reading for a measurement of its own, so its deviation is widened by the
    /// square root of the repeats.
    fn holds(&self, fix: LineFix, line_deg: i32, repeats: f64) -> bool {
        let off = (fix.at_deg - f64::from(line_deg) - self.offset_deg).abs();
        off + SETTLED_SIGMAS * fix.uncertainty_deg * repeats.max(1.0).sqrt() <= self.within_deg
    }
}

/// How many of its own deviations a check's fit must put a line inside [`Settled`]'s distance
/// for the crossing to stop there.
///
/// Measured over 1,000 worlds each (seeds 200 to 1,200; a check of a grid with three marks on
/// it, the sheet left alone or nudged), against crossing to [`PRECISION_MM`] alone, at the
/// default 12 mm spot, 3 % noise and a reading every 10 ms: a check of an unmoved grid took 4.98 s
/// against 6.16 s, a 1.5 mm nudge was followed at once in 960 and 977 worlds (along the columns
/// and the rows) against 964 and 968, named as moved in 2 and 1 against 2 and 5, and noise moved
/// the squares in none. At the harsh corner (the 12 mm spot at 4 % noise, every 20 ms; seeds 200
/// to 2,200): 8.5 s against 11.1 s, followed in 1,869 and 1,867 of 2,000 against 1,864 and
/// 1,887, named in 11 and 28 against 13 and 26, moved by noise in none against none. At 2 the
/// default sensor's check took 4.25 s, but the harsh corner's nudges went unfollowed more (909
/// and 932 of its first 1,000 against 930 and 951) and noise moved the squares once. Under the
/// 9 mm spot at 4 % noise, every 10 ms: 3.81 s against 4.73 s, followed in 973 and 967 against
/// 969 and 968. Under the 6 mm spot (2 % noise, every 5 ms) a crossing reaches its precision in
/// its first pass, and nothing changed.
const SETTLED_SIGMAS: f64 = 3.0;

/// A line is crossed out and back at most this many times, each slower than the last, before
/// it is left unmeasured (or taken as placed, if sure but not yet precise).
const MOST_PASSES: usize = 4;

/// A crossing is crossed again (the second pass at half speed, the rest at that) until the fit
/// says its line is placed to within this, one standard deviation in mm (see
/// [`LineFix::uncertainty_deg`]), or a check's fit leaves the line surely where nothing is to be
/// done ([`Settled`]), or [`MOST_PASSES`] are done; the blank read's crossings,
/// which every later check is held against, to half of it. The fit's own figure is optimistic
/// (it knows nothing of the readings' ages): asking 0.25 mm of every crossing left checks 0.5
/// mm rms from the blank read's measure under the 12 mm spot; asking 0.12 mm, and 0.06 mm of
/// the blank read's, 0.4 mm.
const PRECISION_MM: f64 = 0.12;

/// The blank read's rows place the columns axis's lines of a grid just drawn, and the ruler
/// need not cross one, when their crossings place every line to within this, one standard
/// deviation in mm, their scatter counted ([`ruler::place_from_both_ways`]).
///
/// Why: the ruler's crossing of a columns line took 3.9 s of the set-up. Measured over 108
/// worlds (6, 9 and 12 mm spots, 0 to 4 % noise, 5 to 20 ms, four seeds), a line placed by
/// the read's three crossings, with no precision asked, lay 0.63 degrees from where the sim's
/// pen drew it (one standard deviation), the ruler's crossing of line 1 0.73. What the read's
/// crossings cannot say is when one of them went astray: a read crosses each line only once
/// the other way. Taking each line on its own, two of the 30 worlds in
/// `tests/grid_as_a_ruler.rs` where the sheet is nudged 1.5 mm named it as moved 2.1 and 2.6
/// mm: in each the read had placed line 2 alone, 2 to 3 degrees off. So every line must be
/// placed, or the ruler crosses one itself. Held to the ruler's own 0.06 mm, the read placed
/// every line in 1 of the demo's 30 set-ups; to 0.12 mm, in 13; to 0.24 mm, twice what a
/// check asks of itself, in 28. At 0.24 mm, checks of the columns axis scattered 0.24 mm rms
/// over the sensor's ranges (27 worlds, 0.49 at worst) against the ruler's 0.26 (0.80); in
/// the harshest corner, the 12 mm spot at 4 % every 20 ms, both axes' checks 0.29 mm rms
/// against 0.25. Over 1,800 worlds of the 12 mm spot at 3 % every 10 ms, noise alone moved
/// the squares in none, as before; a 1.5 mm nudge went unfollowed at the first check in 82
/// against 66 (at 0.12 mm: 67), and was named as a sheet moved in 10 against 8 (9).
const SWEPT_PRECISION_MM: f64 = 0.24;

impl Gantry {
    /// The columns axis's lines of a grid just drawn, placed from the blank read's `rows`,
    /// which crossed each of them once a row, both ways: each line's offset from where the pen
    /// was sent, in degrees, every line at the mean of theirs. `None` unless every crossing
    /// shows its line as surely as the ruler's own crossing must ([`RULER_SIGMAS`]) and every
    /// line is placed to within [`SWEPT_PRECISION_MM`]; the ruler then crosses a columns line
    /// itself.
    ///
    /// Why the mean: each line's place from its three crossings scatters by about a degree,
    /// more than the lines of one axis lie apart as drawn. The pen reaches each line's start
    /// moving forward on both axes, the gears' play taken up alike, and holds the columns axis
    /// still while it draws; a check already holds a line with no measure of its own against
    /// its axis's other line as closely as against its own ([`super::ruler::GridAsDrawn`]).
    /// Measured over 600 worlds (the 12 mm spot, 3 % noise, every 10 ms; seeds 500 to 1,100)
    /// against the middle of the stroke the sim's pen drew, one standard deviation: each line
    /// alone 0.89 and 0.90 degrees (16 and 15 worlds over 2 degrees from the mean), the mean
    /// 0.66 and 0.64 (2 and none). Over 2,000 worlds (seeds 500 to 2,500), a sheet nudged 1.5
    /// mm along the columns axis went unfollowed at the first check in 55 where it had been in
    /// 90, and was named as moved in 6 where it had been in 11; noise alone moved the squares
    /// in none (one before). The sim draws every line of an axis at one place: a real motor
    /// holding two a degree apart would add half a degree to each one's measure, which leaves
    /// it about as sure as it was alone.
    pub(super) fn lines_in_sweeps(&self, rows: &[SweptRow]) -> Option<Vec<(usize, f64)>> {
        let placed = self.each_line_in_sweeps(rows)?;
        let mean = placed.iter().map(|&(_, deg)| deg).sum::<f64>() / placed.len() as f64;
        Some(placed.iter().map(|&(line, _)| (line, mean)).collect())
    }

    /// Each of the columns axis's lines placed on its own from the blank read's `rows`.
    fn each_line_in_sweeps(&self, rows: &[SweptRow]) -> Option<Vec<(usize, f64)>> {
        let half_square = self.config.board.square_deg / 2;
        let spot = self.config.reading_geometry().spot_columns_deg;
        let scale = self.config.scale();
        let search = scale.columns_deg(JUST_DRAWN_SEARCH_MM);
        let precise = scale.columns_deg(SWEPT_PRECISION_MM);
        (1..self.config.board.size)
            .map(|line| {
                let line_deg = self.crossing_place(Axis::Columns, line, 0).0;
                let drawn = f64::from(line_deg);
                let fixes: Vec<(LineFix, bool)> = rows
                    .iter()
                    .map(|(sweep, samples)| {
                        let readings = readings_across(samples, line_deg, half_square);
                        let fix = ruler::locate_line(&readings, drawn, search, spot)?;
                        let inside = (fix.at_deg - drawn).abs() < search - 1.0;
                        let away = sweep.to_columns_deg > sweep.from_columns_deg;
                        (fix.sigmas >= RULER_SIGMAS && inside).then_some((fix, away))
                    })
                    .collect::<Option<_>>()?;
                let (at, uncertainty) = ruler::place_from_both_ways(&fixes)?;
                (uncertainty <= precise).then_some((line, at - drawn))
            })
            .collect()
    }

    /// A line of `axis` with an empty square on either side, and which two squares across it:
    /// lines the blank read measured first (a check of one it did not only takes its measure),
    /// then lines and squares nearer the board's middle.
    pub(super) fn clean_crossing(&self, axis: Axis, empty: &[Cell]) -> Option<(usize, usize)> {
        let n = self.config.board.size;
        let measured = |line: usize| {
            self.grid_as_drawn
                .as_ref()
                .is_some_and(|drawn| drawn.line(axis, line).is_some())
        };
        let mut lines: Vec<usize> = (1..n).collect();
        lines.sort_by_key(|&k| (!measured(k), (2 * k).abs_diff(n)));
        let mut across: Vec<usize> = (0..n).collect();
        across.sort_by_key(|&k| (2 * k + 1).abs_diff(n));
        lines.into_iter().find_map(|line| {
            across.iter().find_map(|&other| {
                let (a, b) = match axis {
                    Axis::Columns => (
                        Cell {
                            row: other,
                            col: line - 1,
                        },
                        Cell {
                            row: other,
                            col: line,
                        },
                    ),
                    _ => (
                        Cell {
                            row: line - 1,
                            col: other,
                        },
                        Cell {
                            row: line,
                            col: other,
                        },
                    ),
                };
                (empty.contains(&a) && empty.contains(&b)).then_some((line, other))
            })
        })
    }

    /// Where to cross `axis`'s line `line` between the squares `across` (a row for the columns
    /// axis's lines, a column for the rows axis's): the line's place along `axis` as drawn,
    /// and the centre of those squares on the other axis.
    pub(super) fn crossing_place(&self, axis: Axis, line: usize, across: usize) -> (i32, i32) {
        let board = &self.config.board;
        // The line where it was drawn, not where the squares follow it now: the measures are
        // all held against the same place.
        let origin = self.board_as_configured.grid_origin_deg;
        let at = line as i32 * board.square_deg;
        let centre = board.cell_centre(Cell {
            row: across,
            col: across,
        });
        match axis {
            Axis::Columns => (origin.columns + at, centre.rows),
            _ => (origin.rows + at, centre.columns),
        }
    }

    /// How far either side of where the pen drew it a just-drawn line of `axis` is looked
    /// for, in its degrees ([`JUST_DRAWN_SEARCH_MM`]).
    pub(super) fn just_drawn_search_deg(&self, axis: Axis) -> f64 {
        let scale = self.config.scale();
        match axis {
            Axis::Columns => scale.columns_deg(JUST_DRAWN_SEARCH_MM),
            _ => scale.rows_deg(JUST_DRAWN_SEARCH_MM),
        }
    }

    /// Sweeps across the line of `axis` at `line_deg`, out and back, the other axis at
    /// `across_deg`, and fits the line to every reading so far: the line's offset from
    /// `line_deg` once the fit is sure. Noisy readings under a wide spot leave it unsure after
    /// one pass; each further pass goes at half the speed, so it brings twice the readings,
    /// up to [`MOST_PASSES`]; then the line goes unmeasured (and unchecked) this time.
    pub(super) fn cross_line(
        &mut self,
        axis: Axis,
        line_deg: i32,
        across_deg: i32,
        look: Look,
        settled: Option<Settled>,
    ) -> Result<Option<f64>> {
        let geometry = self.config.reading_geometry();
        let spot = match axis {
            Axis::Columns => geometry.spot_columns_deg,
            _ => geometry.spot_rows_deg,
        };
        let square = f64::from(self.config.board.square_deg);
        let (search, wide) = match look {
            Look::JustDrawn => {
                let near = self.just_drawn_search_deg(axis);
                (near, near)
            }
            Look::Check => (
                square * SEARCH_SHARE_OF_SQUARE,
                square * WIDE_SEARCH_SHARE_OF_SQUARE,
            ),
        };
        // Far enough to see the paper beyond the dip at the first search's ends; further, and
        // the readings near the neighbouring line's dip pull the fit (measured: the fit strays
        // up to 1.4 mm with nothing moved, against 1.0 mm).
        let reach = (spot / 2.0 + search + 4.0).ceil() as i32;
        // Readings an eighth of a spot apart: some thirty across the dip. A fifth, relying on
        // the slower passes where the fit is not yet precise, made the set-up longer, not
        // shorter: more crossings needed a second pass.
        let mut speed = self.reading_speed(0.125, self.config.sensing.sweep_speed_deg_per_s);
        // The measure every later check is held against is taken once: it is worth the
        // passes that halve its own share of their scatter.
        let precision_mm = match look {
            Look::JustDrawn => PRECISION_MM / 2.0,
            Look::Check => PRECISION_MM,
        };
        let precise_deg = match axis {
            Axis::Columns => self.config.scale().columns_deg(precision_mm),
            _ => self.config.scale().rows_deg(precision_mm),
        };
        let mut readings: Vec<(f64, f64)> = Vec::new();
        let mut fix = None;
        // Each pass's speed and time, for the log.
        let mut passes: Vec<(u32, f64)> = Vec::new();
        let mut beyond_search = false;
        // How many readings in a row hold one fresh measurement, at most, over the passes.
        let mut repeats: f64 = 1.0;
        for pass in 0..MOST_PASSES {
            let began = self.clock().now();
            // Out and back: a reading's age and the gears' play put the line late in the
            // direction of travel, by as much each way.
            for (from, to) in [
                (line_deg - reach, line_deg + reach),
                (line_deg + reach, line_deg - reach),
            ] {
                let samples = self.sweep_line(axis, across_deg, from, to, speed)?;
                repeats = repeats.max(readings_per_measurement(&samples, self.read_period()));
                readings.extend(samples.iter().map(|s| {
                    let along = match axis {
                        Axis::Columns => s.at.columns,
                        _ => s.at.rows,
                    };
                    (f64::from(along), f64::from(s.percent))
                }));
            }
            passes.push((speed, (self.clock().now() - began).as_secs_f64()));
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
                beyond_search = true;
                break;
            }
            // Placed to the precision asked, or, for a check, surely where nothing is to be done.
            if fix.is_some_and(|f| {
                f.sigmas >= RULER_SIGMAS
                    && (f.uncertainty_deg <= precise_deg
                        || settled.is_some_and(|s| s.holds(f, line_deg, repeats)))
            }) {
                break;
            }
            // Slower once, then at that pace: each further halving doubled a pass's time for
            // little more precision.
            if pass == 0 {
                speed = (speed / 2).max(SLOWEST_SWEEP_DEG_PER_S);
            }
        }
        // How many passes a crossing takes is the noise's draw: one game's ruler took seven
        // times another's with nothing changed, so whoever times the reads (the brick suite's
        // pace test) needs each pass's time and speed, not the total alone.
        let timed: Vec<String> = passes
            .iter()
            .map(|(speed, seconds)| format!("{seconds:.2} s at {speed} deg/s"))
            .collect();
        log::info!(
            "crossed the {axis}'s grid line at {line_deg} deg, {reach} deg either side, out and \
             back: {} passes, {}",
            passes.len(),
            timed.join(", ")
        );
        if beyond_search {
            return Ok(None);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(at_deg: f64, uncertainty_deg: f64) -> LineFix {
        LineFix {
            at_deg,
            depth_percent: 9.0,
            sigmas: 20.0,
            uncertainty_deg,
        }
    }

    #[test]
    fn a_check_settles_only_where_the_fit_leaves_the_line_surely_inside_the_do_nothing_band() {
        // The line drawn at 120 deg, expected 1 deg beyond it, measures within 4 deg changing
        // nothing.
        let settled = Settled {
            offset_deg: 1.0,
            within_deg: 4.0,
        };
        // Half a degree off, placed to 0.8 degrees: 0.5 + 3 x 0.8 is inside.
        assert!(settled.holds(fix(121.5, 0.8), 120, 1.0));
        // As far off, placed no better than 1.5 degrees: 0.5 + 3 x 1.5 is not.
        assert!(!settled.holds(fix(121.5, 1.5), 120, 1.0));
        // Placed to 0.8 degrees from readings that held each measurement four times: the
        // fit's deviation is twice what it says, and it is not inside either.
        assert!(!settled.holds(fix(121.5, 0.8), 120, 4.0));
        // Well placed, 3.9 deg from where it is expected: 3.9 + 3 x 0.1 is past the band, a
        // measure that may call for a look again, and it goes on.
        assert!(!settled.holds(fix(124.9, 0.1), 120, 1.0));
        // Either side alike.
        assert!(settled.holds(fix(119.5, 0.2), 120, 1.0));
    }
}
