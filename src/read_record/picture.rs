//! The picture of a read: the board's area at [`PIXELS_PER_DEG`], rows growing downward as the
//! sheet lies in front of the robot, drawn with embedded-graphics into an RGB buffer.
//!
//! - Each reading is a short bar across the sweep where the spot's centre was, in its own
//!   shade, stretched so that its square's blank paper is white and half of that or less
//!   black: a dip of a tenth shows as a clear grey. The sweeps show as bands, and the ink they
//!   crossed as dark patches in them.
//! - The grid is drawn thin and pale where the robot drew it, for the eye to compare with the
//!   dark bands the readings show.
//! - Each square the read judged has its verdict in its top left corner (`5 marked`,
//!   `5 faint?`, `5 blank`) and, below, its deepest dip against the paper beside it and how
//!   many of its noise's standard deviations that stood out (`-24% 5.7sd`); a marked square is
//!   framed green, a doubtful one amber.

use super::ReadRecord;
use crate::motion::sensing::Evidence;
use embedded_graphics::mono_font::ascii::FONT_6X10;
use embedded_graphics::mono_font::MonoTextStyle;
use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Line, PrimitiveStyle, Rectangle};
use embedded_graphics::text::{Baseline, Text};
use std::convert::Infallible;
use std::io::Write;

/// Two pixels a degree: a 100-degree square is 200 pixels, room for its label and for readings
/// four degrees apart to stand apart.
pub const PIXELS_PER_DEG: i32 = 2;

/// The band above the board that holds the title, in pixels.
const TITLE_BAND: i32 = 16;

/// Each reading is a bar this many pixels across the sweep.
const BAR_ACROSS: i32 = 12;

/// A reading with no neighbour on its line reaches this many degrees either side of it.
const BAR_HALF_DEG: i32 = 2;

/// The shade a reading is drawn in: black at this share of the brightest paper or darker.
const BLACK_AT: f64 = 0.5;

const BACKGROUND: Rgb888 = Rgb888::new(0xaa, 0xb6, 0xc6);
const GRID: Rgb888 = Rgb888::new(0xd8, 0xe4, 0xf8);
const TEXT: Rgb888 = Rgb888::new(0x10, 0x10, 0x60);
const MARKED: Rgb888 = Rgb888::new(0x10, 0xa0, 0x20);
const DOUBTFUL: Rgb888 = Rgb888::new(0xe0, 0x90, 0x00);

/// An RGB picture, 8 bits a channel, rows from the top.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    pub width: u32,
    pub height: u32,
    rgb: Vec<u8>,
    /// The board's degrees at pixel (0, [`TITLE_BAND`]).
    min_columns_deg: i32,
    min_rows_deg: i32,
}

impl Picture {
    fn new(width: u32, height: u32, min_columns_deg: i32, min_rows_deg: i32) -> Picture {
        let mut rgb = Vec::with_capacity((width * height * 3) as usize);
        for _ in 0..width * height {
            rgb.extend([BACKGROUND.r(), BACKGROUND.g(), BACKGROUND.b()]);
        }
        Picture {
            width,
            height,
            rgb,
            min_columns_deg,
            min_rows_deg,
        }
    }

    /// The pixel that shows the point at `columns_deg`, `rows_deg` of the pen's frame.
    pub fn pixel_of(&self, columns_deg: i32, rows_deg: i32) -> Point {
        Point::new(
            (columns_deg - self.min_columns_deg) * PIXELS_PER_DEG,
            TITLE_BAND + (rows_deg - self.min_rows_deg) * PIXELS_PER_DEG,
        )
    }

    /// The colour at pixel `at`; `None` outside the picture.
    pub fn colour_at(&self, at: Point) -> Option<[u8; 3]> {
        let inside =
            (0..self.width as i32).contains(&at.x) && (0..self.height as i32).contains(&at.y);
        inside.then(|| {
            let i = ((at.y as u32 * self.width + at.x as u32) * 3) as usize;
            [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
        })
    }

    /// Writes the picture as an 8-bit RGB PNG.
    pub fn write_png(&self, out: impl Write) -> Result<(), png::EncodingError> {
        let mut encoder = png::Encoder::new(out, self.width, self.height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(&self.rgb)?;
        writer.finish()
    }
}

impl OriginDimensions for Picture {
    fn size(&self) -> Size {
        Size::new(self.width, self.height)
    }
}

impl DrawTarget for Picture {
    type Color = Rgb888;
    type Error = Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Infallible>
    where
        I: IntoIterator<Item = Pixel<Rgb888>>,
    {
        for Pixel(at, colour) in pixels {
            if (0..self.width as i32).contains(&at.x) && (0..self.height as i32).contains(&at.y) {
                let i = ((at.y as u32 * self.width + at.x as u32) * 3) as usize;
                self.rgb[i..i + 3].copy_from_slice(&[colour.r(), colour.g(), colour.b()]);
            }
        }
        Ok(())
    }
}

/// Draws `record`: the board with a quarter of a square around it, and the title above.
pub fn render(record: &ReadRecord) -> Picture {
    let board = &record.board;
    let margin = board.square_deg / 4;
    let side = board.size as i32 * board.square_deg;
    let (min_columns, min_rows) = (
        board.grid_origin_deg.columns - margin,
        board.grid_origin_deg.rows - margin,
    );
    let span = (side + 2 * margin) * PIXELS_PER_DEG;
    let mut picture = Picture::new(
        span as u32,
        (TITLE_BAND + span) as u32,
        min_columns,
        min_rows,
    );
    draw(record, &mut picture).unwrap_or_else(|never: Infallible| match never {});
    picture
}

fn draw(record: &ReadRecord, picture: &mut Picture) -> Result<(), Infallible> {
    let board = &record.board;
    let text = MonoTextStyle::new(&FONT_6X10, TEXT);
    Text::with_baseline(&record.title, Point::new(4, 3), text, Baseline::Top).draw(picture)?;
    // The grid where it was drawn: the outer edge too, so each square has a frame.
    let origin = board.grid_origin_deg;
    let n = board.size as i32;
    let side = n * board.square_deg;
    for i in 0..=n {
        let at = i * board.square_deg;
        let style = PrimitiveStyle::with_stroke(GRID, 1);
        Line::new(
            picture.pixel_of(origin.columns + at, origin.rows),
            picture.pixel_of(origin.columns + at, origin.rows + side),
        )
        .into_styled(style)
        .draw(picture)?;
        Line::new(
            picture.pixel_of(origin.columns, origin.rows + at),
            picture.pixel_of(origin.columns + side, origin.rows + at),
        )
        .into_styled(style)
        .draw(picture)?;
    }
    // The readings, each in its own shade against its square's blank paper (the paper is not
    // equally white everywhere, and the robot judges each square against its own), or where no
    // square was judged, the middle of those levels. The sweeps run along the columns, so a
    // bar is wider across them than along.
    let mut levels: Vec<f64> = record.squares.iter().map(|s| s.paper_percent).collect();
    levels.sort_by(f64::total_cmp);
    let typical = levels.get(levels.len() / 2).copied().unwrap_or(100.0);
    for (i, sample) in record.samples.iter().enumerate() {
        let paper = record
            .squares
            .iter()
            .find(|s| AxisCorner::of(board, s.cell).holds(board, sample.at.columns, sample.at.rows))
            .map_or(typical, |s| s.paper_percent)
            .max(1.0);
        let share = f64::from(sample.percent) / paper;
        let shade = ((share - BLACK_AT) / (1.0 - BLACK_AT) * 255.0).clamp(0.0, 255.0) as u8;
        // Along the sweep the bar reaches halfway to the readings before and after it on the
        // same line, so a sweep shows as an unbroken band whatever its pace.
        let (before, after) = (
            i.checked_sub(1).and_then(|j| record.samples.get(j)),
            record.samples.get(i + 1),
        );
        let halfway = |other: Option<&crate::motion::sensing::Sample>| {
            other
                .filter(|o| o.at.rows == sample.at.rows)
                .map_or(BAR_HALF_DEG, |o| {
                    ((o.at.columns - sample.at.columns).abs() + 1) / 2
                })
                .min(BAR_HALF_DEG * 3)
        };
        let (from, to) = if after.is_some_and(|a| a.at.columns < sample.at.columns)
            || before.is_some_and(|b| b.at.columns > sample.at.columns)
        {
            (
                sample.at.columns - halfway(after),
                sample.at.columns + halfway(before),
            )
        } else {
            (
                sample.at.columns - halfway(before),
                sample.at.columns + halfway(after),
            )
        };
        let top_left = picture.pixel_of(from, sample.at.rows) - Point::new(0, BAR_ACROSS / 2);
        let width = ((to - from).max(1) * PIXELS_PER_DEG) as u32;
        Rectangle::new(top_left, Size::new(width, BAR_ACROSS as u32))
            .into_styled(PrimitiveStyle::with_fill(Rgb888::new(shade, shade, shade)))
            .draw(picture)?;
    }
    // Each judged square: its verdict and evidence, and a frame in the verdict's colour.
    for square in &record.squares {
        let corner = AxisCorner::of(board, square.cell);
        let top_left = picture.pixel_of(corner.columns, corner.rows) + Point::new(3, 3);
        let number = square.cell.index(board.size) + 1;
        let first = format!("{number} {}", square.verdict_words());
        let second = format!("-{:.0}% {:.1}sd", square.deepest * 100.0, square.sigmas);
        Text::with_baseline(&first, top_left, text, Baseline::Top).draw(picture)?;
        Text::with_baseline(&second, top_left + Point::new(0, 11), text, Baseline::Top)
            .draw(picture)?;
        let frame = match square.verdict {
            Evidence::Marked => Some(MARKED),
            Evidence::Borderline => Some(DOUBTFUL),
            Evidence::Blank => None,
        };
        if let Some(colour) = frame {
            let size = (board.square_deg * PIXELS_PER_DEG - 2) as u32;
            Rectangle::new(
                picture.pixel_of(corner.columns, corner.rows) + Point::new(1, 1),
                Size::new(size, size),
            )
            .into_styled(PrimitiveStyle::with_stroke(colour, 2))
            .draw(picture)?;
        }
    }
    Ok(())
}

/// A square's corner nearest both axes' zero, in degrees.
struct AxisCorner {
    columns: i32,
    rows: i32,
}

impl AxisCorner {
    fn of(board: &crate::config::BoardGeometry, cell: crate::game::Cell) -> AxisCorner {
        AxisCorner {
            columns: board.grid_origin_deg.columns + cell.col as i32 * board.square_deg,
            rows: board.grid_origin_deg.rows + cell.row as i32 * board.square_deg,
        }
    }

    /// Whether the point at `columns`, `rows` lies in the square this is the corner of.
    fn holds(&self, board: &crate::config::BoardGeometry, columns: i32, rows: i32) -> bool {
        (self.columns..self.columns + board.square_deg).contains(&columns)
            && (self.rows..self.rows + board.square_deg).contains(&rows)
    }
}
