//! A close look's mark held to the light as it was while the look was taken.
//!
//! Why: the close look (slow and dense, along three lines) reads one or two squares alone, so
//! it crosses no other paper to measure the light on, and judges them in the light the look
//! before it measured, seconds earlier. In a room whose light drifts 15 % over a minute and a
//! half (docs/sensor.md, "The room") the light moves by up to 1 % a second: five seconds
//! later a blank square reads 5 % darker than the light it is judged in, and the close look,
//! built to find faint marks, found one. Measured on a sixteenth of the detection matrix in the
//! harsh room: each of its three squares taken for a mark that was not there was marked by a
//! close look.
//!
//! So when a close look marks a square, the light is measured again at once on the empty
//! squares beside it (its row's centre lines and the nearest rows', at the first look's pace),
//! and the close look is judged again in the light of its own moment: the light before it and
//! the light after it, weighed by when its readings were taken. A drift is smooth over a few
//! seconds, so the two measures bracket it; ink is not in the light, and stays.
//!
//! Only light that dimmed past a change of the light (`LIGHT_CHANGED`) between the two measures
//! is acted on: light that brightened made the squares read lighter than their paper, and can
//! have made no mark. Measured over the whole matrix, one run each: in the harsh room, squares
//! taken for a mark that was not there went from 59 to 35 (judging every close look's mark
//! again, brightened or not: 27), marks seen from 3,807 to 3,794; in steady light marks seen
//! from 3,888 to 3,885, none invented either way, and a read of a mark 0.1 s longer on
//! average. The marks lost are the faintest (a ballpoint under the 12 mm spot at 4 % noise),
//! found by a close look only because the light it was judged in was brighter than the light
//! it read in: judged in its own light, five in a sixteenth of the matrix under a 15 % drift
//! and a 20 % shadow were no longer marks (the test that holds that room allows 3 % fewer).

use super::sweeping::SweptRow;
use super::{BlankPaper, SquareReading, LIGHT_BESIDE};
use crate::game::Cell;
use crate::motion::gantry::{Gantry, Result};
use crate::motion::sensing::{PaperLight, LIGHT_CHANGED};
use std::time::Duration;

/// The empty squares whose paper measures the light beside `around`: its row's, then the
/// nearest rows', until [`LIGHT_BESIDE`] do (one other cannot tell the light from ink); none of
/// `skip`.
pub(super) fn light_beside(empty: &[Cell], around: Cell, skip: &[Cell]) -> Vec<Cell> {
    let mut rows_by_distance: Vec<usize> = empty.iter().map(|c| c.row).collect();
    rows_by_distance.sort_by_key(|&r| (r.abs_diff(around.row), r));
    rows_by_distance.dedup();
    let mut chosen: Vec<Cell> = Vec::new();
    for r in rows_by_distance {
        if chosen.len() >= LIGHT_BESIDE {
            break;
        }
        chosen.extend(
            empty
                .iter()
                .copied()
                .filter(|c| c.row == r && !skip.contains(c)),
        );
    }
    chosen
}

/// The mean time of the readings `rows` took inside `cell`'s windows.
fn when_read(rows: &[SweptRow], cell: Cell) -> Option<Duration> {
    let times: Vec<Duration> = rows
        .iter()
        .flat_map(|(sweep, samples)| {
            sweep
                .squares
                .iter()
                .filter(|(c, _)| *c == cell)
                .flat_map(move |(_, window)| {
                    samples
                        .iter()
                        .filter(move |s| window.contains(&s.at.columns))
                        .map(|s| s.time)
                })
        })
        .collect();
    let count = u32::try_from(times.len()).ok().filter(|&n| n > 0)?;
    Some(times.iter().sum::<Duration>() / count)
}

impl Gantry {
    /// After a close look at `looked` (taken from `began`, in `light_before`, its sweeps
    /// `rows`), if it marked a square that was not marked in `before` (the readings as they
    /// stood before it): measures the light beside it now and judges the close look again in
    /// the light of when its readings were taken (see the module's docs).
    pub(super) fn judge_close_look_in_its_light(
        &mut self,
        blank: &BlankPaper,
        empty: &[Cell],
        readings: &mut [SquareReading],
        looked: &[Cell],
        rows: &[SweptRow],
        (before, light_before, began): (Vec<SquareReading>, PaperLight, Duration),
    ) -> Result<()> {
        let newly_marked: Vec<Cell> = readings
            .iter()
            .filter(|r| looked.contains(&r.cell) && r.marked())
            .filter(|r| !before.iter().any(|b| b.cell == r.cell && b.marked()))
            .map(|r| r.cell)
            .collect();
        let Some(&first) = newly_marked.first() else {
            return Ok(());
        };
        let beside = light_beside(empty, first, looked);
        if beside.len() < 2 {
            return Ok(());
        }
        // The close look is judged again as it was first: with the sensor's period timed on
        // its own slow sweeps, not on the fast one that follows (a period measured longer
        // counts fewer fresh readings, and a faint mark's test is held to them).
        let close_period = self.read_period();
        // The light and the sensor's pace stay as the read measured them: this sweep only
        // checks one look's mark.
        let (light_then, period_then) = (self.paper_light, self.read_period);
        let fast = self.first_look_speed();
        let mut paper: Vec<SquareReading> = beside
            .iter()
            .map(|&cell| SquareReading::unread(cell, blank.of(cell)))
            .collect();
        let (light_rows, period) = self.sweep_for_the_read(&beside, fast, &[0])?;
        self.measure_the_light(blank, &mut paper, &light_rows, &beside, period);
        let light_after = self.paper_light;
        (self.paper_light, self.read_period) = (light_then, period_then);
        if light_after.squares == 0 {
            return Ok(());
        }
        // Light that brightened since cannot have made a mark (the squares read lighter, not
        // darker, than the paper they were judged against); light that dimmed by less than a
        // change of the light counts (LIGHT_CHANGED) made none either.
        let dimmed: Vec<Cell> = looked
            .iter()
            .copied()
            .filter(|&cell| light_after.at(cell) < light_before.at(cell) * (1.0 - LIGHT_CHANGED))
            .collect();
        if dimmed.is_empty() {
            return Ok(());
        }
        // Each light is placed at the moment its squares were read, and the look between
        // them by its own readings' time. The light before was measured seconds before the
        // look began, and a drift goes on in those seconds: weighed from the look's start, a
        // dot under a 6 mm spot in a room drifting 15 % was judged in light 2 % too bright
        // and taken for a mark (tests/reading_marks.rs, the twelve draws, seed 2).
        let from = if light_before.squares > 0 {
            light_before.read_at
        } else {
            began
        };
        let to = light_after.read_at.max(from);
        let span = to.saturating_sub(from).as_secs_f64().max(1e-3);
        for reading in readings.iter_mut().filter(|r| dimmed.contains(&r.cell)) {
            let was = before
                .iter()
                .find(|b| b.cell == reading.cell)
                .expect("every square looked at closely was read before");
            let share = when_read(rows, reading.cell).map_or(0.5, |at| {
                (at.saturating_sub(from).as_secs_f64() / span).clamp(0.0, 1.0)
            });
            let factor = light_before.at(reading.cell) * (1.0 - share)
                + light_after.at(reading.cell) * share;
            // Both lights rest on other squares, the light after on a few beside this one
            // and to one side of it: each is as uncertain here as the slope it may have
            // across the squares between makes it (see `PaperLight::error_at`).
            let error = light_before
                .error_at(reading.cell)
                .max(light_after.error_at(reading.cell));
            *reading = SquareReading {
                blank: blank.of(reading.cell).in_light(factor, error),
                ..was.clone()
            };
        }
        self.judge_looks(readings, &dimmed, rows, close_period)?;
        for cell in newly_marked.into_iter().filter(|c| dimmed.contains(c)) {
            let still = readings.iter().any(|r| r.cell == cell && r.marked());
            log::info!(
                "{} looked marked on the close look; the light measured beside it just after: \
                 {}; judged in the light of the look's own moment, {}",
                self.square_name(cell),
                light_after
                    .describe(self.config.board.size)
                    .unwrap_or_else(|| "as before".to_string()),
                if still { "it is" } else { "it was the light" }
            );
        }
        Ok(())
    }
}
