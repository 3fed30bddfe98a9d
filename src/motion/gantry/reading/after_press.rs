//! The squares the first look reads while the person who has just pressed may still shadow the
//! paper, and how the read settles what that shadow did.
//!
//! Why: a person presses the touch sensor and steps back, and until they do their shadow dims
//! the paper (docs/sensor.md, "The room": 7 % for a second and a half in the account that
//! opened this work, 20 % at the harsh end). The first look starts half a second after the
//! press and crosses a square every quarter of a second, so the shadow lies on its first row
//! or so. When it lifts in the middle of the look, the squares read before are darker than the
//! rest: a step in time, a slope along the rows when it lifts between two rows, or scatter no
//! fit follows. That can make a mark of a blank square read in it, or hide one.
//!
//! Such a read used to be doubted whole and read again after a second's wait. In the harsh
//! room that came to 4,742 reads again over the detection matrix, and a mean read of a board
//! holding a mark of 10.6 s against 5.1 s in steady light. Now, when the first look shows the
//! light changed while it went on (unsteady, a step, a slope along the rows) or more marks than
//! one, and it read squares within [`SHADOW_AFTER_PRESS`] of the press, only those squares are
//! read again, once the shadow cannot lie there any more, together with every square the first
//! look found dark: a mark read in one light and its paper in another cannot be told apart, so
//! the square is read in the same light as the paper it is judged by. The board is then judged
//! on the two together, as one light ([`PaperLight::measure_in_one_light`]): the squares read
//! after the shadow as the first look saw them, the rest as read again.
//!
//! Only when the two lie in one light, though. The squares kept from the first look must lie
//! on the light the squares read again show, within what a smooth drift moves it over the
//! seconds between ([`PaperLight::strays_from`]). If they do not (a lamp switched between
//! them), the light is said to have moved and the turn reads the whole board again as before.
//! And a single mark the light may have made is looked at again
//! ([`Gantry::look_again_at_lone_mark`]): among the squares kept from the first look (one
//! read just before a lamp came on looks, against paper read after, exactly like a mark),
//! among squares read again that did not lie in one steady light, or on a row the light's
//! slope along the rows brightened (over the two moments, that slope is their drift as
//! much as place).
//!
//! Measured on the whole matrix, one run each, with the other changes of the same session
//! (docs/figures.md gives the table): in the harsh room 680 reads again where there were
//! 4,742, a mean read of a mark of 7.1 s where it was 10.6 s, 0.8 % fewer marks seen than in
//! steady light where it was 1.7 %, and 2 squares taken for a mark where there were 8; steady
//! light as before.

use super::sweeping::SweptRow;
use super::{by_square, paper_ratios, BlankPaper, SquareReading};
use crate::game::Cell;
use crate::motion::gantry::{Gantry, Result};
use crate::motion::sensing::{Evidence, NewMarks, PaperAtRest, PaperLight, Sample};
use std::time::Duration;

use super::fresh_light;

/// How long after a press a person's shadow may still lie on the paper: 1.5 s in the account
/// that opened this work (docs/sensor.md, "The room"), and half a second more. Squares the
/// first look read sooner than this after the read began are the ones the shadow may have
/// touched.
pub const SHADOW_AFTER_PRESS: Duration = Duration::from_secs(2);

/// The fewest squares read again after the shadow: with the darkest left out as the likely
/// mark, the light they show must rest on two squares of paper, or it is one square's noise.
const FEWEST_READ_AGAIN: usize = 3;

/// The most looks again at a square the first look took for a mark while the light may have
/// fooled it: one, and one more when the light changed during the first of them (see
/// [`Gantry::look_again_at_lone_mark`]).
const LOOKS_AGAIN: usize = 2;

/// Readings of the parked sensor held still that measure the paper as a person's turn begins:
/// eight, a tenth of a second at the sensor's 10 ms, a fifth at 20 ms, before "Your move".
const AT_REST_READINGS: usize = 8;

/// Readings held still each time the read sees whether the person's shadow has lifted: at the
/// sensor's 10 ms, the read starts within 40 ms of the paper coming back.
const SHADOW_READINGS: usize = 4;

/// The carriage must stand within this many degrees of where it stood when the paper at rest
/// was read for the two to be the same paper: a degree or two is a parked motor settling.
const STILL_PARKED_DEG: i32 = 2;

impl Gantry {
    /// Reads the paper under the sensor, parked, as a person's turn begins (before they are
    /// asked to move): the turn's first read compares it with the same paper once they press,
    /// and starts when their shadow has lifted (see [`PaperAtRest`]). Nothing is kept before
    /// the blank read has measured the sensor's noise.
    pub fn note_the_paper_at_rest(&mut self) -> Result<()> {
        self.paper_at_rest = None;
        if self.noise_percent.is_none() {
            return Ok(());
        }
        let (values, at) = self.read_held_still(AT_REST_READINGS)?;
        if let Some(paper) = self.paper_held_still(&values, at) {
            // Each later read holds half as many readings: its mean's error is 1.4 times this.
            let later = paper.error * (AT_REST_READINGS as f64 / SHADOW_READINGS as f64).sqrt();
            log::info!(
                "the parked sensor reads {:.0} % as the turn begins: a person's shadow that \
                 takes {:.0} % of the light or more will show there",
                paper.mean,
                paper.faintest_shadow(later) * 100.0
            );
            self.paper_at_rest = Some((paper, self.position()?));
        }
        Ok(())
    }

    /// `values` read held still at `at`, as [`PaperAtRest`]: each a fresh measurement only as
    /// often as the sensor measures.
    fn paper_held_still(&self, values: &[u8], at: Duration) -> Option<PaperAtRest> {
        let fresh = self.fresh_of_held_still(values.len());
        PaperAtRest::of(values, fresh, self.noise_percent?, at)
    }

    /// Before the first look of a turn's first read: while the paper under the parked sensor
    /// reads darker than it did as the turn began (past noise and drift: a person's shadow),
    /// waits, reading it again, up to [`SHADOW_AFTER_PRESS`] after `read_began`. Says what it
    /// saw when it waited. Without a note of the paper at rest, or with the carriage moved
    /// since, it does not wait.
    pub(super) fn wait_for_the_shadow_to_lift(&mut self, read_began: Duration) -> Result<()> {
        let Some((before, parked)) = self.paper_at_rest.take() else {
            return Ok(());
        };
        let now_at = self.position()?;
        if (now_at.columns - parked.columns).abs() > STILL_PARKED_DEG
            || (now_at.rows - parked.rows).abs() > STILL_PARKED_DEG
        {
            return Ok(());
        }
        let mut first_darker = None;
        loop {
            let (values, at) = self.read_held_still(SHADOW_READINGS)?;
            let Some(now) = self.paper_held_still(&values, at) else {
                return Ok(());
            };
            let darker = before.darker_now(&now);
            let waited = (self.clock().now() - read_began).as_secs_f64();
            match (darker, first_darker) {
                (None, None) => return Ok(()),
                (None, Some(first)) => {
                    log::info!(
                        "the paper under the parked sensor read {:.0} % darker than as the \
                         turn began when the person pressed, and came back after {waited:.1} \
                         s: their shadow has lifted, reading the board",
                        first * 100.0
                    );
                    return Ok(());
                }
                (Some(darker), _) if self.clock().now() >= read_began + SHADOW_AFTER_PRESS => {
                    log::info!(
                        "the paper under the parked sensor still reads {:.0} % darker than as \
                         the turn began, {waited:.1} s after the press: the light changed, \
                         reading the board in it",
                        darker * 100.0
                    );
                    return Ok(());
                }
                (Some(darker), None) => first_darker = Some(darker),
                (Some(_), Some(_)) => {}
            }
        }
    }

    /// Waits until [`SHADOW_AFTER_PRESS`] has passed since `read_began`, if it has not yet.
    fn wait_out_the_shadow(&self, read_began: Duration) {
        let gone = read_began + SHADOW_AFTER_PRESS;
        let now = self.clock().now();
        if now < gone {
            self.clock().sleep(gone - now);
        }
    }

    /// Settles what the shadow of the press may have done to the first look, which swept
    /// `first_rows` over the `empty` squares (`readings`, judged) from `read_began`, starting
    /// from the light of the read before (`light_before_read`): reads again the squares read
    /// in that shadow when the light changed during the look, and looks again at a single mark
    /// the light may have made (see the module's docs). Returns the light the first look and
    /// its reads again show, and how far it moved between them (0: not past noise and drift).
    pub(super) fn settle_the_press(
        &mut self,
        (blank, empty): (&BlankPaper, &[Cell]),
        readings: &mut [SquareReading],
        first_rows: &[SweptRow],
        read_began: Duration,
        light_before_read: PaperLight,
    ) -> Result<(PaperLight, f64)> {
        let first_look = by_square(first_rows);
        let first_light = self.paper_light;
        let light_changed =
            !first_light.steady || first_light.step.is_some() || first_light.per_row != 0.0;
        let several = matches!(NewMarks::from_readings(readings), NewMarks::Several(_));
        let in_shadow = read_in_the_shadow(&first_look, empty, read_began);
        let mut again = in_shadow.clone();
        again.extend(
            readings
                .iter()
                .filter(|r| r.evidence != Evidence::Blank && !in_shadow.contains(&r.cell))
                .map(|r| r.cell),
        );
        let read_again = (light_changed || several)
            && !in_shadow.is_empty()
            && again.len() >= FEWEST_READ_AGAIN
            && again.len() < empty.len();
        let (light, moved, again_steady) = if read_again {
            log::info!(
                "the light changed while the first look went on, {} of its squares read while \
                 the person who pressed may still have shadowed the paper: reading {} again",
                in_shadow.len(),
                again
                    .iter()
                    .map(|&c| self.square_name(c))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let stage = self.start_stage();
            let (moved, again_steady) = self.read_again_after_shadow(
                (blank, empty),
                readings,
                first_rows,
                &again,
                read_began,
                light_before_read,
            )?;
            let looked = self.end_stage(stage, again.len());
            self.last_read.first = self.last_read.first.and(looked);
            (self.paper_light, moved, again_steady)
        } else {
            (first_light, 0.0, true)
        };
        // A change of the light passes for a mark in one square when it touched that square
        // alone: the first square read (the person's shadow still there) or one read just as
        // the light stepped; after a read again, see `read_again_may_have_fooled`. Such a
        // mark is looked at again and stays a mark only if that look sees it too; if not,
        // that look stands for the first. (The last square read is as exposed to a lamp
        // switched as the look ends, but a lamp is switched far less often than a person
        // presses, and the look again cost 0.3 s a read on average in steady light: measured,
        // it spared no square of the harsh rows.) Nor does a read that waited for the shadow
        // to lift read any square early; but a lamp switched on as its first squares are read
        // leaves them all dark, too few for a step to be fitted (see
        // `PaperLight::step_may_explain`): traced in the lamp sweep (seed 8, lamp at 40 s,
        // 6 mm spot, 4 % noise), a blank square read second, just before the lamp came on,
        // was 8 % dark against the rest, a mark.
        if let NewMarks::One(cell) = NewMarks::from_readings(readings) {
            let fooled = if read_again {
                read_again_may_have_fooled(&light, cell, &again, again_steady)
            } else {
                light_may_have_fooled(&first_look, &first_light, cell, empty, read_began)
                    || PaperLight::step_may_explain(
                        &paper_ratios(blank, first_rows, empty, self.read_period()),
                        cell,
                    )
            };
            if fooled {
                self.look_again_at_lone_mark(
                    (blank, empty),
                    readings,
                    cell,
                    read_began,
                    light,
                    &[0],
                )?;
            }
        }
        Ok((light, moved))
    }

    /// Reads `again` (squares of `empty`) along their centre lines once [`SHADOW_AFTER_PRESS`]
    /// has passed since `read_began`, and judges every square of the board anew in the light
    /// the first look's other squares and these show together. Returns how far the squares
    /// kept from the first look (`first_rows`) lie from the light of those read again, past a
    /// drift: 0 when they lie in one light, 1 when too few were read to tell; and whether the
    /// squares read again lay in one steady light among themselves.
    fn read_again_after_shadow(
        &mut self,
        (blank, empty): (&BlankPaper, &[Cell]),
        readings: &mut [SquareReading],
        first_rows: &[SweptRow],
        again: &[Cell],
        read_began: Duration,
        light_before_read: PaperLight,
    ) -> Result<(f64, bool)> {
        self.wait_out_the_shadow(read_began);
        let fast = self.first_look_speed();
        let (rows, period) = self.sweep_for_the_read(again, fast, &[0])?;
        let kept: Vec<Cell> = empty
            .iter()
            .copied()
            .filter(|c| !again.contains(c))
            .collect();
        let size = self.config.board.size;
        let kept_ratios = paper_ratios(blank, first_rows, &kept, period);
        let again_ratios = paper_ratios(blank, &rows, again, period);
        let light_again = PaperLight::measure(size, &again_ratios, light_before_read);
        let moved = if kept_ratios.is_empty() || light_again.squares < 2 {
            1.0
        } else {
            light_again.strays_from(&kept_ratios).unwrap_or(0.0)
        };
        if moved > 0.0 {
            log::info!(
                "the squares read again lie in other light than the first look's others (by \
                 {:.0} %): the light changed between them",
                moved * 100.0
            );
        }
        let all: Vec<_> = kept_ratios.into_iter().chain(again_ratios).collect();
        let light = PaperLight::measure_in_one_light(size, &all, light_before_read);
        self.put_in_light(blank, readings, light);
        for reading in readings.iter_mut() {
            reading.looks.clear();
        }
        self.judge_looks(readings, &kept, first_rows, period)?;
        self.judge_looks(readings, again, &rows, period)?;
        Ok((moved, light_again.steady))
    }

    /// Looks again at `cell`, which a look took for the one new mark while a person's shadow
    /// may still have lain on the paper or the light changed: once [`SHADOW_AFTER_PRESS`] has
    /// passed since the read began, along `lines` (those of the look that marked it) through
    /// its row's empty squares and the nearest rows' (whose paper measures the light anew),
    /// and judges it by that look alone: ink stays, a shadow or a lamp's step goes. When that
    /// look sees no mark there, not even a faint one, the square in `readings` becomes as that
    /// look saw it. (A hint of a dip is not enough: at 4 % noise one look shows a hint on blank
    /// paper often enough to keep a shadow's mark.) The look counts among the read's close
    /// looks.
    ///
    /// A look again that still sees the mark, in light that has changed since the look before
    /// it (`light_before`: the first look's, or the light of its squares and those read again
    /// after the shadow), is taken once more: the light may have changed
    /// in the middle of it, and a look over a few squares cannot tell that from ink. Traced on
    /// a row of the harsh room with a lamp switched on 40 s in (one of 16 that took the same
    /// square for a mark under the 12 mm spot at 4 % noise): the lamp came on a moment after
    /// the look again had read the square, the squares read after it 15 % brighter; judged in
    /// their light, the square read 11 % dark.
    pub(super) fn look_again_at_lone_mark(
        &mut self,
        (blank, empty): (&BlankPaper, &[Cell]),
        readings: &mut [SquareReading],
        cell: Cell,
        read_began: Duration,
        light_before: PaperLight,
        lines: &[i32],
    ) -> Result<()> {
        let stage = self.start_stage();
        let seen = self.look_again((blank, empty), cell, read_began, light_before, lines)?;
        let looked = self.end_stage(stage, 1);
        self.last_read.add_close(looked);
        if let Some(seen_in_its_light) = seen {
            let reading = readings
                .iter_mut()
                .find(|r| r.cell == cell)
                .expect("a marked square has a reading");
            *reading = seen_in_its_light;
        }
        Ok(())
    }

    /// The look of [`Gantry::look_again_at_lone_mark`]: `None` when it sees a mark there too,
    /// or a faint one; else the square as it saw it.
    fn look_again(
        &mut self,
        (blank, empty): (&BlankPaper, &[Cell]),
        cell: Cell,
        read_began: Duration,
        light_before: PaperLight,
        lines: &[i32],
    ) -> Result<Option<SquareReading>> {
        self.wait_out_the_shadow(read_began);
        // Its row's empty squares, and the nearest rows' until three others measure the light
        // beside it.
        let mut row = fresh_light::light_beside(empty, cell, &[cell]);
        row.push(cell);
        let mut light_before = light_before;
        for look in 1..=LOOKS_AGAIN {
            let mut again: Vec<SquareReading> = row
                .iter()
                .map(|&c| SquareReading::unread(c, blank.of(c)))
                .collect();
            // The light is measured anew: the first look's, a shadow perhaps lifting across
            // it, may hold a slope across the board that was the shadow, not a lamp.
            self.paper_light.per_column = 0.0;
            let fast = self.first_look_speed();
            self.look(&mut again, &row, fast, lines, (blank, empty))?;
            let Some(reading) = again.into_iter().find(|r| r.cell == cell) else {
                return Ok(None);
            };
            if reading.evidence == Evidence::Blank {
                log::info!(
                    "{} looked like a new mark on the {}, read while a shadow may still have \
                     lain on the paper or as the light changed, but not on a second look: it \
                     was the light",
                    self.square_name(cell),
                    if lines.contains(&0) {
                        "first look"
                    } else {
                        "look off centre"
                    }
                );
                return Ok(Some(reading));
            }
            let Some(moved) = self.paper_light.changed_since(&light_before) else {
                return Ok(None);
            };
            if look < LOOKS_AGAIN {
                log::info!(
                    "{} still looked marked on the look again, but the paper's light had \
                     changed by {:.0} % since the look before it: looking once more",
                    self.square_name(cell),
                    moved * 100.0
                );
            }
            light_before = self.paper_light;
        }
        Ok(None)
    }
}

/// The `empty` squares the first look (each square's readings) read within
/// [`SHADOW_AFTER_PRESS`] of `read_began`, in the order read, and the next ones after them
/// until there are [`FEWEST_READ_AGAIN`]; none when it read none that soon.
fn read_in_the_shadow(
    first_look: &[(Cell, Vec<Sample>)],
    empty: &[Cell],
    read_began: Duration,
) -> Vec<Cell> {
    let seen = in_the_order_read(first_look, empty);
    let within = seen
        .iter()
        .filter(|(at, _)| *at < read_began + SHADOW_AFTER_PRESS)
        .count();
    if within == 0 {
        return Vec::new();
    }
    seen.iter()
        .take(within.max(FEWEST_READ_AGAIN))
        .map(|&(_, c)| c)
        .collect()
}

/// True when the light of a read whose first rows were read `again` after the shadow
/// (`again_steady`: those lay in one steady light among themselves), judged over them and the
/// first look's others as `light`, could make a mark of `cell` alone: `cell` was kept from
/// the first look, read perhaps before a lamp came on; or the squares read again did not lie
/// in one steady light (a lamp switched on as their last was read); or the light's slope
/// along the rows made `cell`'s row brighter than the middle one. The first rows were read
/// again seconds after the last were read, so that slope is the drift between the two
/// moments and one square's noise as much as the light's place on the board. Traced in the
/// lamp sweep (seed 11, lamp 30 s, 9 mm spot, 4 % noise, every 5 ms): a slope of 2.8 % a
/// row, one kept square 4 % bright by noise, put the light on the blank bottom left square
/// at 1.20 where the column slope and the drift give about 1.15; read at 1.115, it was taken
/// for a mark. (Leaving the slope out of such a light was tried, and seven games were void
/// under seed 7 with the lamp on at 20 s: blank levels read as a lamp came on hold a real
/// one.)
fn read_again_may_have_fooled(
    light: &PaperLight,
    cell: Cell,
    again: &[Cell],
    again_steady: bool,
) -> bool {
    !again.contains(&cell) || !again_steady || light.rows_slope_brightens(cell)
}

/// True when the first look, which measured `light`, saw `cell` first of the `empty` squares,
/// within [`SHADOW_AFTER_PRESS`] of the read's start, or as the light stepped: where a change
/// of the light could make a mark of it alone.
fn light_may_have_fooled(
    first_look: &[(Cell, Vec<Sample>)],
    light: &PaperLight,
    cell: Cell,
    empty: &[Cell],
    read_began: Duration,
) -> bool {
    let seen = in_the_order_read(first_look, empty);
    let first = seen.first().map(|&(_, c)| c) == Some(cell);
    let early = seen
        .iter()
        .any(|&(at, c)| c == cell && at < read_began + SHADOW_AFTER_PRESS);
    let at_the_step = light.step.is_some_and(|s| s.straddles(cell));
    first || early || at_the_step
}

/// The `empty` squares the first look (each square's readings) crossed, each with when it was
/// done with it, in that order.
fn in_the_order_read(first_look: &[(Cell, Vec<Sample>)], empty: &[Cell]) -> Vec<(Duration, Cell)> {
    let mut seen: Vec<(Duration, Cell)> = first_look
        .iter()
        .filter(|(c, _)| empty.contains(c))
        .filter_map(|(c, samples)| samples.last().map(|s| (s.time, *c)))
        .collect();
    seen.sort();
    seen
}
