//! The simulated sheet of paper: every stroke the pen draws, the ink it leaves, and what the
//! colour sensor sees of it. Coordinates are the pen's position in axis degrees; widths and the
//! sensor's footprint are physical, in millimetres, turned into degrees by the machine's
//! [`Scale`]. Where the figures come from, and their ranges: `docs/sensor.md`.

use super::beside_sheet;
use super::ink_totals::RunningTotals;
use crate::physical::Scale;
use std::cell::RefCell;

/// Who drew a stroke (they are drawn in different colours in pictures of the sheet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Author {
    Robot,
    Human,
}

/// A point on the paper, in axis degrees (columns, rows).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PaperPoint {
    pub columns: f64,
    pub rows: f64,
}

impl PaperPoint {
    pub fn new(columns: f64, rows: f64) -> PaperPoint {
        PaperPoint { columns, rows }
    }

    pub fn distance_to(self, other: PaperPoint) -> f64 {
        (self.columns - other.columns).hypot(self.rows - other.rows)
    }
}

/// One continuous line of ink.
#[derive(Debug, Clone, PartialEq)]
pub struct Stroke {
    pub author: Author,
    pub points: Vec<PaperPoint>,
}

/// How the paper and ink look to the sensor and to a person (sources in `docs/sensor.md`).
#[derive(Debug, Clone, PartialEq)]
pub struct PaperLook {
    /// Reflected light of blank paper, which varies a little across the sheet (percent).
    pub white_percent: f64,
    pub white_variation_percent: f64,
    /// Reflected light of the robot's ink (percent).
    pub ink_percent: f64,
    /// Width of the robot's pen line, in mm: a fine-point marker's.
    pub pen_width_mm: f64,
    /// Width of the human's pen line, in mm.
    pub human_pen_width_mm: f64,
    /// Reflected light of the human's ink (percent): a black pen reads like the robot's ink, a
    /// pencil about a quarter darker than the paper.
    pub human_ink_percent: f64,
    /// Reflected light of what lies beside the sheet, beyond its corner nearest the axes' zero
    /// (a table, the robot's base), where the parked sensor looks (percent): `None`, the
    /// default, for a sheet that reaches further than the robot does. From black (2 to 6 %,
    /// docs/sensor.md, source 16) to paper.
    pub beside_sheet_percent: Option<f64>,
}

impl Default for PaperLook {
    fn default() -> Self {
        PaperLook {
            white_percent: 70.0,
            white_variation_percent: 6.0,
            ink_percent: 10.0,
            pen_width_mm: 1.0,
            human_pen_width_mm: 1.0,
            human_ink_percent: 10.0,
            beside_sheet_percent: None,
        }
    }
}

impl PaperLook {
    /// The width of `author`'s pen line, in mm.
    pub fn pen_width_mm(&self, author: Author) -> f64 {
        match author {
            Author::Robot => self.pen_width_mm,
            Author::Human => self.human_pen_width_mm,
        }
    }

    /// The reflected light of `author`'s ink, in percent.
    pub fn ink(&self, author: Author) -> f64 {
        match author {
            Author::Robot => self.ink_percent,
            Author::Human => self.human_ink_percent,
        }
    }
}

/// The colour sensor's footprint on the paper and the machine's scale, which turn the paper's
/// millimetres into the axes' degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Footprint {
    pub scale: Scale,
    /// The diameter of the patch the sensor averages over, in mm.
    pub spot_mm: f64,
}

impl Footprint {
    /// A line `mm` wide, in degrees. One figure for both axes: the mean of their scales (on a
    /// gantry whose axes differ, lines along one of them come out a little too wide).
    pub fn width_deg(&self, mm: f64) -> f64 {
        2.0 * mm / (self.scale.columns_mm_per_deg + self.scale.rows_mm_per_deg)
    }
}

/// Ink is kept as a raster at one cell per degree, so the sensor can look it up cheaply.
#[derive(Debug, Clone)]
pub struct Paper {
    look: PaperLook,
    footprint: Footprint,
    strokes: Vec<Stroke>,
    /// The stroke the pen is drawing now, if it is down.
    drawing: Option<Stroke>,
    min: PaperPoint,
    width: usize,
    height: usize,
    /// The reflected light of the darkest ink on each cell, or `None` for blank paper.
    ink: Vec<Option<f32>>,
    /// Row by row, running totals of the inked cells and of their ink, so the sensor's spot
    /// (thousands of cells under a 12 mm spot) is summed a row at a time. Brought up to date
    /// by the reads that need them: the pen inks a short segment at every step of the world,
    /// and summing its rows again each time took most of a simulated game's time.
    totals: RefCell<RunningTotals>,
    /// The palest ink on the sheet: while paper is brighter, every inked cell reads its ink.
    palest_ink: f32,
    /// The sheet's corner nearest the axes' zero, beyond which the sensor sees what lies
    /// beside it ([`PaperLook::beside_sheet_percent`]); `None`: paper everywhere.
    sheet_from: Option<PaperPoint>,
}

impl Paper {
    /// A blank sheet covering `min` to `max`, seen through `footprint`.
    pub fn new(look: PaperLook, footprint: Footprint, min: PaperPoint, max: PaperPoint) -> Paper {
        let width = (max.columns - min.columns).ceil().max(1.0) as usize + 1;
        let height = (max.rows - min.rows).ceil().max(1.0) as usize + 1;
        Paper {
            look,
            footprint,
            strokes: Vec::new(),
            drawing: None,
            min,
            width,
            height,
            ink: vec![None; width * height],
            totals: RefCell::new(RunningTotals::new(width, height)),
            palest_ink: 0.0,
            sheet_from: None,
        }
    }

    /// This paper, its sheet beginning at `corner` (see [`PaperLook::beside_sheet_percent`]).
    pub fn with_sheet_from(self, corner: PaperPoint) -> Paper {
        Paper {
            sheet_from: Some(corner),
            ..self
        }
    }

    pub fn look(&self) -> &PaperLook {
        &self.look
    }

    pub fn footprint(&self) -> Footprint {
        self.footprint
    }

    /// How the paper and inks look from now on (ink already on the paper keeps its look): a
    /// pen running dry mid-game, for tests.
    pub fn look_mut(&mut self) -> &mut PaperLook {
        &mut self.look
    }

    /// Every finished stroke, and the one being drawn.
    pub fn strokes(&self) -> impl Iterator<Item = &Stroke> {
        self.strokes.iter().chain(self.drawing.as_ref())
    }

    /// The pen touches the paper at `at`: continues the current stroke or starts one.
    pub fn pen_at(&mut self, author: Author, at: PaperPoint) {
        let last = match &mut self.drawing {
            Some(stroke) if stroke.author == author => stroke.points.last().copied(),
            _ => {
                self.lift();
                None
            }
        };
        match last {
            Some(last) if last.distance_to(at) < 0.05 => return,
            Some(last) => self.ink_segment(author, last, at),
            None => self.ink_segment(author, at, at),
        }
        let stroke = self.drawing.get_or_insert_with(|| Stroke {
            author,
            points: Vec::new(),
        });
        // A point on the line through the last two adds nothing to the drawing.
        if let [.., a, b] = stroke.points[..] {
            let cross = (b.columns - a.columns) * (at.rows - a.rows)
                - (b.rows - a.rows) * (at.columns - a.columns);
            let forward = (b.columns - a.columns) * (at.columns - b.columns)
                + (b.rows - a.rows) * (at.rows - b.rows);
            if cross.abs() < 1e-6 && forward >= 0.0 {
                stroke.points.pop();
            }
        }
        stroke.points.push(at);
    }

    /// A fresh sheet in place of this one.
    pub fn clear(&mut self) {
        self.strokes.clear();
        self.drawing = None;
        self.ink.fill(None);
        *self.totals.get_mut() = RunningTotals::new(self.width, self.height);
        self.palest_ink = 0.0;
    }

    /// The pen leaves the paper.
    pub fn lift(&mut self) {
        if let Some(stroke) = self.drawing.take() {
            self.strokes.push(stroke);
        }
    }

    /// Draws a whole line in one go (the scripted human's pen).
    pub fn draw(&mut self, author: Author, points: &[PaperPoint]) {
        self.lift();
        for &point in points {
            self.pen_at(author, point);
        }
        self.lift();
    }

    /// The ink of each cell of the sensor's spot around `at` (`None` for blank paper): a
    /// disc `spot_mm` across on the paper, an ellipse in degrees where the axes' scales differ.
    fn spot(&self, at: PaperPoint) -> impl Iterator<Item = Option<f32>> + '_ {
        let radius_mm = self.footprint.spot_mm / 2.0;
        let (rx, ry) = (
            self.footprint.scale.columns_deg(radius_mm),
            self.footprint.scale.rows_deg(radius_mm),
        );
        let (cx, cy) = (rx.ceil() as i64, ry.ceil() as i64);
        (-cy..=cy)
            .flat_map(move |dy| (-cx..=cx).map(move |dx| (dx as f64, dy as f64)))
            .filter(move |(x, y)| (x / rx).hypot(y / ry) <= 1.0)
            .map(move |(x, y)| {
                self.cell(at.columns + x, at.rows + y)
                    .and_then(|i| self.ink[i])
            })
    }

    /// The spot around `at` summed a row at a time: how many cells it holds, how many of them
    /// are inked, and the sum of their ink. The same cells as [`Paper::spot`]'s.
    fn spot_totals(&self, at: PaperPoint) -> (u32, u32, f64) {
        let radius_mm = self.footprint.spot_mm / 2.0;
        let (rx, ry) = (
            self.footprint.scale.columns_deg(radius_mm),
            self.footprint.scale.rows_deg(radius_mm),
        );
        let xc = (at.columns - self.min.columns).round() as i64;
        let yc = (at.rows - self.min.rows).round() as i64;
        let (mut all, mut inked, mut ink) = (0u32, 0u32, 0.0);
        let mut totals = self.totals.borrow_mut();
        for dy in -(ry.ceil() as i64)..=ry.ceil() as i64 {
            let across = 1.0 - (dy as f64 / ry).powi(2);
            if across < 0.0 {
                continue;
            }
            let half = (rx * across.sqrt() + 1e-9).floor() as i64;
            all += (2 * half + 1) as u32;
            let y = yc + dy;
            if y < 0 || y >= self.height as i64 {
                continue;
            }
            let from = (xc - half).clamp(0, self.width as i64) as usize;
            let to = (xc + half + 1).clamp(0, self.width as i64) as usize;
            let (row_inked, row_ink) = totals.row(y as usize, &self.ink);
            inked += row_inked[to] - row_inked[from];
            ink += row_ink[to] - row_ink[from];
        }
        (all, inked, ink)
    }

    /// How much of the box `half_columns` by `half_rows` degrees either side of `at` is ink,
    /// from 0 to 1: what a character of the terminal's picture of the sheet shows.
    pub fn ink_in_box(&self, at: PaperPoint, half_columns: f64, half_rows: f64) -> f64 {
        let clamp = |deg: f64, origin: f64, cells: usize| {
            ((deg - origin).round().max(0.0) as usize).min(cells)
        };
        let from = clamp(at.columns - half_columns, self.min.columns, self.width);
        let to = clamp(at.columns + half_columns, self.min.columns, self.width);
        let top = clamp(at.rows - half_rows, self.min.rows, self.height);
        let bottom = clamp(at.rows + half_rows, self.min.rows, self.height);
        let all = (to - from) * (bottom - top);
        let mut totals = self.totals.borrow_mut();
        let inked: u32 = (top..bottom)
            .map(|y| {
                let (row_inked, _) = totals.row(y, &self.ink);
                row_inked[to] - row_inked[from]
            })
            .sum();
        f64::from(inked) / all.max(1) as f64
    }

    /// How much of the sensor's spot around `at` is ink, from 0 to 1.
    pub fn ink_cover(&self, at: PaperPoint) -> f64 {
        let (all, inked, _) = self.spot_totals(at);
        f64::from(inked) / f64::from(all.max(1))
    }

    /// Reflected light at `at` before sensor noise: the paper's white, darkened by the ink
    /// under the spot, each cell by its own ink.
    pub fn reflected_percent(&self, at: PaperPoint) -> f64 {
        let on_the_sheet = self.reflected_on_the_sheet(at);
        match self.look.beside_sheet_percent {
            Some(beside) => {
                let off = self.sheet_from.map_or(0.0, |corner| {
                    let inside = (at.columns - corner.columns, at.rows - corner.rows);
                    beside_sheet::share_beyond(inside, self.footprint.scale, self.footprint.spot_mm)
                });
                on_the_sheet * (1.0 - off) + beside * off
            }
            None => on_the_sheet,
        }
    }

    /// [`Paper::reflected_percent`] were the sheet everywhere.
    fn reflected_on_the_sheet(&self, at: PaperPoint) -> f64 {
        let look = &self.look;
        let white = look.white_percent
            + look.white_variation_percent
                * (at.columns / 97.0).sin()
                * (at.rows / 83.0 + 0.5).cos();
        if f64::from(self.palest_ink) <= white {
            let (all, inked, ink) = self.spot_totals(at);
            return (white * f64::from(all - inked) + ink) / f64::from(all.max(1));
        }
        // Ink paler than this paper (a world file's): each cell reads the darker of the two.
        let (mut sum, mut all) = (0.0, 0u32);
        for cell in self.spot(at) {
            all += 1;
            sum += cell.map_or(white, |ink| f64::from(ink).min(white));
        }
        sum / f64::from(all.max(1))
    }

    fn cell(&self, columns: f64, rows: f64) -> Option<usize> {
        let x = (columns - self.min.columns).round();
        let y = (rows - self.min.rows).round();
        if x < 0.0 || y < 0.0 || x >= self.width as f64 || y >= self.height as f64 {
            return None;
        }
        Some(y as usize * self.width + x as usize)
    }

    fn ink_segment(&mut self, author: Author, a: PaperPoint, b: PaperPoint) {
        // Cell (x, y) is centred on `min` + (x, y): the raster's origin is half a cell lower.
        let grid = Raster {
            origin: PaperPoint::new(self.min.columns - 0.5, self.min.rows - 0.5),
            cells_per_deg: 1.0,
            width: self.width,
            height: self.height,
        };
        let half_width = self.footprint.width_deg(self.look.pen_width_mm(author)) / 2.0;
        let darkness = self.look.ink(author) as f32;
        let ink = &mut self.ink;
        let totals = self.totals.get_mut();
        grid.for_each_cell_under(a, b, half_width, |x, y| {
            let cell = &mut ink[y * grid.width + x];
            *cell = Some(cell.map_or(darkness, |was| was.min(darkness)));
            totals.changed(x, y);
        });
        self.palest_ink = self.palest_ink.max(darkness);
    }
}

/// A grid of square cells laid over the paper, for ink and for pictures.
#[derive(Debug, Clone, Copy)]
pub struct Raster {
    /// The paper point at the corner of cell (0, 0).
    pub origin: PaperPoint,
    pub cells_per_deg: f64,
    pub width: usize,
    pub height: usize,
}

impl Raster {
    /// Calls `f(x, y)` for every cell whose centre lies within `half_width` of the segment
    /// `a`-`b`: the cells a pen line covers.
    pub fn for_each_cell_under(
        &self,
        a: PaperPoint,
        b: PaperPoint,
        half_width: f64,
        mut f: impl FnMut(usize, usize),
    ) {
        let scale = self.cells_per_deg;
        let to_cell = |deg: f64, origin: f64| (deg - origin) * scale;
        let span = |low: f64, high: f64, origin: f64, cells: usize| {
            let first = to_cell(low - half_width, origin).floor().max(0.0) as usize;
            let end = (to_cell(high + half_width, origin).ceil().max(0.0) as usize).min(cells);
            first..end
        };
        let columns = span(
            a.columns.min(b.columns),
            a.columns.max(b.columns),
            self.origin.columns,
            self.width,
        );
        for y in span(
            a.rows.min(b.rows),
            a.rows.max(b.rows),
            self.origin.rows,
            self.height,
        ) {
            for x in columns.clone() {
                let centre = PaperPoint::new(
                    self.origin.columns + (x as f64 + 0.5) / scale,
                    self.origin.rows + (y as f64 + 0.5) / scale,
                );
                if squared_distance_to_segment(centre, a, b) <= half_width * half_width {
                    f(x, y);
                }
            }
        }
    }
}

/// The shortest distance from `p` to the segment `a`-`b`.
pub fn distance_to_segment(p: PaperPoint, a: PaperPoint, b: PaperPoint) -> f64 {
    squared_distance_to_segment(p, a, b).sqrt()
}

/// The square of [`distance_to_segment`]: for comparing with a squared width, without the
/// square root, in the loop that inks every cell under a stroke.
fn squared_distance_to_segment(p: PaperPoint, a: PaperPoint, b: PaperPoint) -> f64 {
    let (dx, dy) = (b.columns - a.columns, b.rows - a.rows);
    let length2 = dx * dx + dy * dy;
    let t = if length2 == 0.0 {
        0.0
    } else {
        (((p.columns - a.columns) * dx + (p.rows - a.rows) * dy) / length2).clamp(0.0, 1.0)
    };
    let (ex, ey) = (p.columns - a.columns - t * dx, p.rows - a.rows - t * dy);
    ex * ex + ey * ey
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A machine moving a fifth of a millimetre a degree, seen through a 2 mm spot (10
    /// degrees).
    pub(crate) const FOOTPRINT: Footprint = Footprint {
        scale: Scale {
            columns_mm_per_deg: 0.2,
            rows_mm_per_deg: 0.2,
        },
        spot_mm: 2.0,
    };

    fn sheet() -> Paper {
        Paper::new(
            PaperLook::default(),
            FOOTPRINT,
            PaperPoint::new(0.0, 0.0),
            PaperPoint::new(300.0, 300.0),
        )
    }

    #[test]
    fn a_line_darkens_the_paper_under_it_and_nowhere_else() {
        let mut paper = sheet();
        let blank = paper.reflected_percent(PaperPoint::new(100.0, 50.0));
        assert!((60.0..=80.0).contains(&blank), "{blank}");
        paper.draw(
            Author::Robot,
            &[PaperPoint::new(100.0, 0.0), PaperPoint::new(100.0, 200.0)],
        );
        let on_line = paper.reflected_percent(PaperPoint::new(100.0, 50.0));
        assert!(on_line < blank * 0.6, "{on_line} against {blank}");
        assert_eq!(paper.ink_cover(PaperPoint::new(130.0, 50.0)), 0.0);
    }

    #[test]
    fn the_humans_pen_has_its_own_width_and_darkness() {
        let mut paper = Paper::new(
            PaperLook {
                human_pen_width_mm: 0.4,
                human_ink_percent: 50.0,
                ..PaperLook::default()
            },
            FOOTPRINT,
            PaperPoint::new(0.0, 0.0),
            PaperPoint::new(300.0, 300.0),
        );
        let at = PaperPoint::new(100.0, 50.0);
        let blank = paper.reflected_percent(at);
        paper.draw(
            Author::Human,
            &[PaperPoint::new(100.0, 0.0), PaperPoint::new(100.0, 200.0)],
        );
        let cover = paper.ink_cover(at);
        assert!(
            (0.1..0.4).contains(&cover),
            "a thin line covers part of the spot: {cover}"
        );
        let expected = blank * (1.0 - cover) + 50.0 * cover;
        assert!((paper.reflected_percent(at) - expected).abs() < 0.5);
    }

    #[test]
    fn the_spot_summed_a_row_at_a_time_reads_as_every_cell_summed_one_by_one() {
        // A 12 mm spot on a gantry whose axes differ (an ellipse in degrees), over the grid,
        // an X and a pencil's ring.
        let footprint = Footprint {
            scale: Scale {
                columns_mm_per_deg: 0.2133,
                rows_mm_per_deg: 0.25,
            },
            spot_mm: 12.0,
        };
        let mut paper = Paper::new(
            PaperLook {
                human_ink_percent: 52.0,
                ..PaperLook::default()
            },
            footprint,
            PaperPoint::new(-50.0, -50.0),
            PaperPoint::new(350.0, 350.0),
        );
        let p = PaperPoint::new;
        paper.draw(Author::Robot, &[p(120.0, 20.0), p(120.0, 320.0)]);
        paper.draw(Author::Robot, &[p(140.0, 140.0), p(200.0, 200.0)]);
        let ring: Vec<PaperPoint> = (0..=24)
            .map(|i| {
                let a = f64::from(i) / 24.0 * std::f64::consts::TAU;
                p(250.0 + 30.0 * a.cos(), 100.0 + 30.0 * a.sin())
            })
            .collect();
        paper.draw(Author::Human, &ring);
        for (columns, rows) in [
            (120.0, 50.0),
            (170.0, 170.0),
            (250.0, 130.0),
            (-40.0, 340.0),
        ] {
            let at = p(columns, rows);
            let (mut sum, mut all) = (0.0, 0u32);
            let white = paper.look.white_percent
                + paper.look.white_variation_percent
                    * (at.columns / 97.0).sin()
                    * (at.rows / 83.0 + 0.5).cos();
            for cell in paper.spot(at) {
                all += 1;
                sum += cell.map_or(white, |ink| f64::from(ink).min(white));
            }
            let one_by_one = sum / f64::from(all);
            assert!(
                (paper.reflected_percent(at) - one_by_one).abs() < 1e-6,
                "at {at:?}: {} against {one_by_one}",
                paper.reflected_percent(at)
            );
        }
    }

    #[test]
    fn points_along_one_straight_line_make_one_segment() {
        let mut paper = sheet();
        for i in 0..=10 {
            paper.pen_at(
                Author::Robot,
                PaperPoint::new(10.0 + f64::from(i) * 5.0, 20.0),
            );
        }
        paper.pen_at(Author::Robot, PaperPoint::new(60.0, 40.0));
        paper.lift();
        let strokes: Vec<_> = paper.strokes().collect();
        assert_eq!(strokes.len(), 1);
        assert_eq!(strokes[0].points.len(), 3);
    }

    #[test]
    fn the_distance_to_a_segment_is_measured_to_its_nearest_point() {
        let (a, b) = (PaperPoint::new(0.0, 0.0), PaperPoint::new(10.0, 0.0));
        assert_eq!(distance_to_segment(PaperPoint::new(5.0, 3.0), a, b), 3.0);
        assert_eq!(distance_to_segment(PaperPoint::new(14.0, 3.0), a, b), 5.0);
    }
}
