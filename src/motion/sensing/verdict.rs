//! A square's verdict from its looks (marked, faint, blank), and what a whole read found.

use crate::config::SensingConfig;
use crate::game::Cell;
use std::time::Duration;

use super::{
    pooled_sigmas, BlankSquare, Look, PaperLight, FAINT_SIGMAS, HINT_SIGMAS, MEAN_SIGMAS,
    POOLED_SIGMAS, SURE_SIGMAS,
};

/// What the looks at a square add up to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence {
    /// Nothing darker than the faint floor.
    Blank,
    /// One dip between the faint floor and the clear threshold: read it again before deciding.
    Borderline,
    Marked,
}

/// Judges a square from its looks: marked with a dip past the clear threshold (of the light it
/// was seen in: [`Look::clear`]) on any line, a
/// whole line darker than its paper by the faint floor and [`MEAN_SIGMAS`] of its noise (ink
/// spread over the window, which a speck under the spot cannot make), or a faint dip (past the
/// faint floor and [`FAINT_SIGMAS`]) on two different lines, or small dips on two lines or
/// more that together stand [`POOLED_SIGMAS`] out ([`pooled_sigmas`]); borderline with a faint
/// dip on one.
pub fn judge(blank: &BlankSquare, looks: &[Look], settings: &SensingConfig) -> Evidence {
    let (_, faint) = blank.thresholds(settings);
    if looks.iter().any(|l| {
        l.depth >= l.clear
            || (l.mean_depth >= faint && l.mean_sigmas >= MEAN_SIGMAS)
            || (l.local_depth >= faint && l.local_sigmas >= SURE_SIGMAS)
    }) {
        return Evidence::Marked;
    }
    if pooled_sigmas(looks, faint) >= POOLED_SIGMAS {
        return Evidence::Marked;
    }
    let mut faint_lines: Vec<i32> = looks
        .iter()
        .filter(|l| l.local_depth >= faint && l.local_sigmas >= FAINT_SIGMAS)
        .map(|l| l.rows_deg)
        .collect();
    faint_lines.sort_unstable();
    faint_lines.dedup();
    match faint_lines.len() {
        0 => Evidence::Blank,
        1 => Evidence::Borderline,
        _ => Evidence::Marked,
    }
}

/// What the reading of one square came to, with every look, for the log.
#[derive(Debug, Clone, PartialEq)]
pub struct SquareReading {
    pub cell: Cell,
    pub blank: BlankSquare,
    pub looks: Vec<Look>,
    pub evidence: Evidence,
}

impl SquareReading {
    /// A square not yet looked at, over `blank` paper.
    pub fn unread(cell: Cell, blank: BlankSquare) -> SquareReading {
        SquareReading {
            cell,
            blank,
            looks: Vec::new(),
            evidence: Evidence::Blank,
        }
    }

    pub fn marked(&self) -> bool {
        self.evidence == Evidence::Marked
    }

    /// Still borderline after every look: a faint dip on one line only. The robot names such a
    /// square and asks for it darker rather than passing over it.
    pub fn unsure(&self) -> bool {
        self.evidence == Evidence::Borderline
    }

    /// Some look showed a dip [`HINT_SIGMAS`] out of its noise: too little to judge by, enough
    /// to be worth a closer look when the person says they have moved and nothing is seen.
    pub fn hinted(&self) -> bool {
        self.looks
            .iter()
            .any(|l| l.local_sigmas.max(l.mean_sigmas) >= HINT_SIGMAS)
    }

    /// How much darker than its paper the square read along its centre line on the read's
    /// first look, in the light that look measured (a share): its looks begin with that one.
    pub fn darker_than_its_paper(&self) -> Option<f64> {
        self.looks.first().map(|look| look.mean_depth)
    }

    /// The reading in words: "blank 70 %, noise 1.2 %; centre line 12 samples 4.0° apart: 38 %
    /// darker; ...: marked".
    pub fn describe(&self) -> String {
        let looks: Vec<String> = self
            .looks
            .iter()
            .map(|l| {
                format!(
                    "line at rows {} deg, {} samples {:.1} deg apart: {:.0}% darker ({:.0}% than \
                     the paper beside it, {:.1} times its noise; all of it {:.0}% darker, {:.1} \
                     times its noise)",
                    l.rows_deg,
                    l.samples,
                    l.spacing_deg,
                    l.depth * 100.0,
                    l.local_depth * 100.0,
                    l.local_sigmas,
                    l.mean_depth * 100.0,
                    l.mean_sigmas
                )
            })
            .collect();
        format!(
            "paper {:.0}%, noise {:.1}%; {}: {}",
            self.blank.level,
            self.blank.noise,
            looks.join("; "),
            match self.evidence {
                Evidence::Blank => "blank",
                Evidence::Borderline => "not sure",
                Evidence::Marked => "marked",
            }
        )
    }
}

/// The new marks among squares that were empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NewMarks {
    None,
    One(Cell),
    /// More than one: the human moved twice, or something else is on the paper.
    Several(Vec<Cell>),
}

impl NewMarks {
    pub fn from_readings(readings: &[SquareReading]) -> NewMarks {
        let mut marked: Vec<Cell> = readings
            .iter()
            .filter(|r| r.marked())
            .map(|r| r.cell)
            .collect();
        marked.sort();
        match marked.len() {
            0 => NewMarks::None,
            1 => NewMarks::One(marked[0]),
            _ => NewMarks::Several(marked),
        }
    }
}

/// How long the robot waits for hands to leave the board before it reads a doubtful board
/// again. The shadow of a person who has just pressed the touch sensor lasts until they step
/// back (docs/sensor.md, "The room": 1.5 s, the harsh end); the first read has taken three
/// seconds or more by then, so one more second covers the harsh end with room to spare.
pub const HANDS_OFF: Duration = Duration::from_secs(1);

/// Why a read of the board is not believed until a second one agrees.
#[derive(Debug, Clone, PartialEq)]
pub enum Doubt {
    /// More new marks than one move makes.
    Several(Vec<Cell>),
    /// The paper's light changed unevenly while it was read, by up to this share between
    /// squares beyond what a plane over the board follows.
    Unsteady(f64),
    /// No new mark, in light that changed since the blank read (by this share) and was
    /// measured on too few empty squares to tell a change in time from one across the board
    /// (see [`PaperLight::tells_a_step`]).
    FewSquares(f64),
}

impl Doubt {
    /// The doubt a read that found `marks` in `light` leaves, if any: one move makes one
    /// mark, and light that changes unevenly while the paper is read (a shadow lifting, a
    /// corner settling) can pass for ink. And it can hide ink: late in a game a read may
    /// measure the light on one or two empty squares, read first, in the shadow of the person
    /// who has just pressed; the square they drew in, read a moment later once the shadow
    /// has gone, is judged in the shadow's light and its mark dimmed away. Traced in a room
    /// with a 7 % shadow and an 8 % drift: an O beside one empty square, judged against
    /// light measured 14 % darker on that square alone, was passed over at every press.
    pub fn of(marks: &NewMarks, light: &PaperLight) -> Option<Doubt> {
        match marks {
            NewMarks::Several(cells) => Some(Doubt::Several(cells.clone())),
            _ if !light.steady => Some(Doubt::Unsteady(light.scatter)),
            NewMarks::None if !light.is_as_at_blank() && !light.tells_a_step() => {
                Some(Doubt::FewSquares(light.level - 1.0))
            }
            _ => None,
        }
    }

    /// The doubt that sends the robot to read the board once more after `reads` reads since
    /// the person pressed, the last of which found `marks` in `light`; `None` when the last
    /// read stands. The first read is doubted as [`Doubt::of`] says. A read again is believed
    /// unless the light changed in time while it went on too (a lamp switched just as it
    /// read: the light moved between its looks, or stepped within one): that read saw the
    /// room, not the board, so it is read once more, up to [`MOST_READS`]. Paper that only
    /// scatters about the light is not enough: a second mark drawn with the first scatters
    /// it so, on every read, and the read again that names both is the one to believe.
    pub fn after(reads: usize, marks: &NewMarks, light: &PaperLight) -> Option<Doubt> {
        let changed_in_time = light.moved > 0.0 || light.step.is_some();
        match reads {
            0 | 1 => Doubt::of(marks, light),
            _ if reads < MOST_READS && changed_in_time => Some(Doubt::Unsteady(light.scatter)),
            _ => None,
        }
    }
}

/// The most reads of the board one press makes: a first, a second once hands are off, and a
/// third only when the light changed during the second as well. Each needs the room to change
/// within a few seconds of the last; two such changes in a row are as far as a lamp and a
/// shadow go together, and past that the robot believes what it read.
pub const MOST_READS: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::AxisPoint;
    use crate::motion::sensing::Sample;
    use std::time::Duration;

    fn settings() -> SensingConfig {
        SensingConfig::default()
    }

    const PAPER: BlankSquare = BlankSquare {
        level: 70.0,
        noise: 1.5,
        readings: 12,
        light_share: 0.0,
    };

    /// A look along the line at `rows` whose darkest stretch reads `darkest` percent.
    fn look(rows: i32, darkest: f64) -> Look {
        Look {
            rows_deg: rows,
            samples: 20,
            depth: PAPER.contrast(darkest),
            local_depth: PAPER.contrast(darkest),
            local_sigmas: (PAPER.level - darkest) / PAPER.noise,
            mean_depth: 0.0,
            mean_sigmas: 0.0,
            spacing_deg: 4.0,
            clear: PAPER.thresholds(&settings()).0,
        }
    }

    #[test]
    fn a_mark_seen_a_little_on_two_lines_or_more_is_a_mark_and_once_on_each_of_two_is_not() {
        // Dips of 3 to 4 deviations: each too little for a faint mark alone (4.5).
        let faintly = |rows: &[i32]| -> Vec<Look> {
            rows.iter()
                .zip([65.0, 64.0, 64.5, 65.0, 64.5, 65.0])
                .map(|(&rows, darkest)| look(rows, darkest))
                .collect()
        };
        let three_lines = faintly(&[170, 186, 154]);
        assert!(three_lines.iter().all(|l| l.local_sigmas < FAINT_SIGMAS));
        assert_eq!(judge(&PAPER, &three_lines, &settings()), Evidence::Marked);
        // As strong on two lines only, read twice each (an X off centre crossing two).
        let two_lines = faintly(&[170, 186, 170, 186]);
        assert!(two_lines.iter().all(|l| l.local_sigmas < FAINT_SIGMAS));
        assert_eq!(judge(&PAPER, &two_lines, &settings()), Evidence::Marked);
        // Once on each of two lines, those dips together are not enough; on one line, however
        // often, they are never pooled.
        let once_each = faintly(&[170, 186]);
        assert!(pooled_sigmas(&once_each, 0.06) < POOLED_SIGMAS);
        assert_eq!(judge(&PAPER, &once_each, &settings()), Evidence::Blank);
        let one_line = faintly(&[170, 170, 170, 170]);
        assert_eq!(pooled_sigmas(&one_line, 0.06), 0.0);
        // Blank paper's looks, a deviation or so each, on six lines.
        let blank: Vec<Look> = [170, 186, 154, 170, 186, 154]
            .iter()
            .map(|&rows| Look {
                local_sigmas: 1.2,
                ..look(rows, 65.0)
            })
            .collect();
        assert!(pooled_sigmas(&blank, 0.06) < 3.0);
        assert_eq!(judge(&PAPER, &blank, &settings()), Evidence::Blank);
    }

    #[test]
    fn a_deep_dip_on_one_line_is_a_mark() {
        assert_eq!(
            judge(&PAPER, &[look(170, 12.0)], &settings()),
            Evidence::Marked
        );
        // A thin black stroke: 40 % of the ink's contrast.
        assert_eq!(
            judge(&PAPER, &[look(170, 46.0)], &settings()),
            Evidence::Marked
        );
    }

    #[test]
    fn a_dip_seen_in_a_shadow_is_judged_by_the_bar_of_that_shadow_not_of_the_light_after_it() {
        // Noise of 2.3 points: under a 20 % shadow the paper reads 56 and the clear bar is
        // 5 x 2.3 / 56 = 21 %; once the shadow has gone it reads 70 and the bar is 16 %.
        let paper = BlankSquare {
            noise: 2.3,
            ..PAPER
        };
        let shadowed = paper.in_light(0.8, 0.0);
        let (bar_in_shadow, _) = shadowed.thresholds(&settings());
        let (bar_after, _) = paper.thresholds(&settings());
        // A 17 % dip on the one look taken in the shadow, and a later look in full light that
        // sees nothing there: ink stays, so the dip was not a clear mark.
        let in_shadow = Look {
            depth: 0.17,
            local_depth: 0.17,
            local_sigmas: 3.9,
            clear: bar_in_shadow,
            ..look(170, 56.0)
        };
        assert!(bar_after < in_shadow.depth && in_shadow.depth < bar_in_shadow);
        let after = Look {
            clear: bar_after,
            ..look(170, 69.0)
        };
        assert_ne!(
            judge(&paper, &[in_shadow.clone(), after], &settings()),
            Evidence::Marked
        );
        // The same dip in full light passes that light's bar.
        let in_full_light = Look {
            clear: bar_after,
            ..in_shadow
        };
        assert_eq!(
            judge(&paper, &[in_full_light], &settings()),
            Evidence::Marked
        );
    }

    #[test]
    fn a_faint_dip_on_one_line_needs_a_second_look_and_a_second_line() {
        let faint = 62.0; // 11.4 % darker
        assert_eq!(
            judge(&PAPER, &[look(170, faint)], &settings()),
            Evidence::Borderline
        );
        assert_eq!(
            judge(&PAPER, &[look(170, faint), look(145, faint)], &settings()),
            Evidence::Marked
        );
        // The same line read twice is still one line: a dot, not a stroke.
        assert_eq!(
            judge(&PAPER, &[look(170, faint), look(170, faint)], &settings()),
            Evidence::Borderline
        );
    }

    #[test]
    fn paper_that_darkens_along_the_line_is_not_a_faint_mark_but_a_narrow_dip_is() {
        let line = |dip: bool| -> Vec<Sample> {
            (0..36)
                .map(|i| {
                    let columns = 130 + 2 * i;
                    // 8 % darker from one end to the other.
                    let mut percent = 70.0 - 5.6 * f64::from(i) / 35.0;
                    if dip && (168..=172).contains(&columns) {
                        percent -= 6.0;
                    }
                    Sample {
                        at: AxisPoint::new(columns, 195),
                        time: Duration::from_millis(10 * i as u64),
                        percent: percent.round() as u8,
                    }
                })
                .collect()
        };
        let drift = Look::of(
            &PAPER,
            &line(false),
            &settings(),
            Duration::from_millis(10),
            10.0,
            true,
            0.0,
        )
        .unwrap();
        assert!(drift.local_depth < 0.03, "{drift:?}");
        let stroke = Look::of(
            &PAPER,
            &line(true),
            &settings(),
            Duration::from_millis(10),
            10.0,
            true,
            0.0,
        )
        .unwrap();
        assert!(stroke.local_depth > 0.07, "{stroke:?}");
    }

    #[test]
    fn light_that_steps_up_along_the_line_is_not_a_dip() {
        // A lamp switched on as the spot passed: the readings before it a ninth darker.
        let line: Vec<Sample> = (0..36)
            .map(|i| {
                let columns = 130 + 2 * i;
                Sample {
                    at: AxisPoint::new(columns, 195),
                    time: Duration::from_millis(10 * i as u64),
                    percent: if columns < 166 { 62 } else { 70 },
                }
            })
            .collect();
        let period = Duration::from_millis(10);
        let step = Look::of(&PAPER, &line, &settings(), period, 10.0, true, 0.0).unwrap();
        assert!(step.local_depth < 0.03, "{step:?}");
    }

    #[test]
    fn light_that_ramps_along_the_line_from_a_lamp_to_one_side_is_no_hint_of_a_mark() {
        // Blank paper under a spot as wide as the window (no paper beside a stretch inside it,
        // so the blank level stands in for it) and a quiet sensor. The paper itself whitens by
        // 0.06 % a degree along the line (the simulated sheet's whiteness climbs by up to 0.09 %
        // a degree), and a lamp to one side adds 0.03 % a degree (the harsh room's, 10 % across
        // the sheet's 340 degrees).
        let quiet = BlankSquare {
            level: 80.0,
            noise: 0.5,
            readings: 24,
            light_share: 0.0,
        };
        let (paper, lamp) = (0.0006, 0.0003);
        let line = |lamp: f64| -> Vec<Sample> {
            (0..14)
                .map(|i| {
                    let columns = 244 + 4 * i;
                    let from_middle = f64::from(columns - 270);
                    let light = (1.0 + paper * from_middle) * (1.0 + lamp * from_middle);
                    Sample {
                        at: AxisPoint::new(columns, 270),
                        time: Duration::from_millis(10 * i as u64),
                        percent: (80.0 * light).round() as u8,
                    }
                })
                .collect()
        };
        let period = Duration::from_millis(10);
        let look = |lamp: f64, light_along: f64| {
            Look::of(
                &quiet,
                &line(lamp),
                &settings(),
                period,
                57.0,
                true,
                light_along,
            )
            .unwrap()
        };
        // Without the lamp the paper's own unevenness is no hint.
        assert!(
            look(0.0, 0.0).local_sigmas < HINT_SIGMAS,
            "{:?}",
            look(0.0, 0.0)
        );
        // With it, judged against the level at the window's middle, the near end is one...
        assert!(
            look(lamp, 0.0).local_sigmas >= HINT_SIGMAS,
            "{:?}",
            look(lamp, 0.0)
        );
        // ...and judged against the level as the lamp's slope leaves it, it is not.
        assert!(
            look(lamp, lamp).local_sigmas < HINT_SIGMAS,
            "{:?}",
            look(lamp, lamp)
        );
    }

    #[test]
    fn noise_alone_is_blank_and_a_noisier_paper_raises_the_thresholds() {
        assert_eq!(
            judge(&PAPER, &[look(170, 67.0)], &settings()),
            Evidence::Blank
        );
        let noisy = BlankSquare {
            level: 70.0,
            noise: 4.0,
            readings: 12,
            light_share: 0.0,
        };
        let (clear, _) = noisy.thresholds(&settings());
        let (quiet_clear, _) = PAPER.thresholds(&settings());
        assert!(clear > quiet_clear, "{clear} {quiet_clear}");
        assert!(clear > 5.0 * 4.0 / 70.0 - 1e-9);
        // The same faint dip on two lines: a mark on quiet paper, noise on noisy paper.
        let dip = |paper: &BlankSquare, rows| Look {
            local_sigmas: 8.0 / paper.noise,
            ..look(rows, 62.0)
        };
        let on =
            |paper: &BlankSquare| judge(paper, &[dip(paper, 170), dip(paper, 145)], &settings());
        assert_eq!(on(&PAPER), Evidence::Marked);
        assert_eq!(on(&noisy), Evidence::Blank);
    }

    #[test]
    fn a_slow_dense_look_sees_a_faint_stroke_that_a_fast_one_cannot_tell_from_noise() {
        // A stroke 5 percent darker than 70 % paper, 10 degrees wide, under noise of 1.5 %.
        let line = |spacing: i32, period_ms: u64| -> Vec<Sample> {
            (0..=70 / spacing)
                .map(|i| {
                    let columns = 135 + spacing * i;
                    let dip = if (165..=175).contains(&columns) {
                        3.5
                    } else {
                        0.0
                    };
                    Sample {
                        at: AxisPoint::new(columns, 170),
                        time: Duration::from_millis(period_ms * i as u64),
                        percent: (70.0 - dip) as u8,
                    }
                })
                .collect()
        };
        let period = Duration::from_millis(10);
        let fast = Look::of(&PAPER, &line(5, 10), &settings(), period, 10.0, true, 0.0).unwrap();
        let dense = Look::of(&PAPER, &line(1, 10), &settings(), period, 10.0, true, 0.0).unwrap();
        assert!(fast.local_sigmas < FAINT_SIGMAS, "{fast:?}");
        assert!(dense.local_sigmas >= FAINT_SIGMAS, "{dense:?}");
        // Read ten times as often as the sensor measures, the dense line is no better than the
        // fast one: its readings are repeats.
        let repeated = Look::of(&PAPER, &line(1, 1), &settings(), period, 10.0, true, 0.0).unwrap();
        assert!(repeated.local_sigmas < FAINT_SIGMAS, "{repeated:?}");
    }

    #[test]
    fn dim_paper_is_judged_against_its_own_level() {
        // A dim sensor: paper reads 35, ink 5. A fixed threshold of 25 would see neither right.
        let dim = BlankSquare {
            level: 35.0,
            noise: 1.0,
            readings: 12,
            light_share: 0.0,
        };
        let look_at = |darkest: f64| Look {
            rows_deg: 170,
            samples: 20,
            depth: dim.contrast(darkest),
            local_depth: dim.contrast(darkest),
            local_sigmas: (dim.level - darkest) / dim.noise,
            mean_depth: 0.0,
            mean_sigmas: 0.0,
            spacing_deg: 4.0,
            clear: dim.thresholds(&settings()).0,
        };
        assert_eq!(judge(&dim, &[look_at(34.0)], &settings()), Evidence::Blank);
        assert_eq!(judge(&dim, &[look_at(6.0)], &settings()), Evidence::Marked);
    }

    #[test]
    fn new_marks_are_none_one_or_several() {
        let read = |cell, evidence| SquareReading {
            cell,
            blank: PAPER,
            looks: vec![],
            evidence,
        };
        let a = Cell { row: 0, col: 0 };
        let b = Cell { row: 2, col: 1 };
        assert_eq!(
            NewMarks::from_readings(&[read(a, Evidence::Blank), read(b, Evidence::Borderline)]),
            NewMarks::None
        );
        assert_eq!(
            NewMarks::from_readings(&[read(a, Evidence::Blank), read(b, Evidence::Marked)]),
            NewMarks::One(b)
        );
        assert_eq!(
            NewMarks::from_readings(&[read(b, Evidence::Marked), read(a, Evidence::Marked)]),
            NewMarks::Several(vec![a, b])
        );
    }
}
