//! Pictures of the simulated sheet, so a person can see what the robot drew: SVG for the
//! browser and PNG for anything else.

use super::paper::{Author, Paper, PaperPoint, Raster};
use std::fmt::Write as _;
use std::io::Write;

/// The part of the paper to draw.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Area {
    pub min: PaperPoint,
    pub max: PaperPoint,
}

const ROBOT_INK: [u8; 3] = [0x1f, 0x4e, 0x9c];
const HUMAN_INK: [u8; 3] = [0x20, 0x20, 0x20];

fn ink(author: Author) -> [u8; 3] {
    match author {
        Author::Robot => ROBOT_INK,
        Author::Human => HUMAN_INK,
    }
}

/// The sheet as SVG: one polyline per stroke, the robot's in blue and the human's in black.
/// Rows grow downward, so row 0 of the board is at the top, as the board is printed.
pub fn svg(paper: &Paper, area: Area) -> String {
    let width = area.max.columns - area.min.columns;
    let height = area.max.rows - area.min.rows;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{} {} {width} {height}" width="{}" height="{}">"##,
        area.min.columns,
        area.min.rows,
        width * 2.0,
        height * 2.0
    );
    let _ = writeln!(
        out,
        r##"<rect x="{}" y="{}" width="{width}" height="{height}" fill="#fbfaf4"/>"##,
        area.min.columns, area.min.rows
    );
    for stroke in paper.strokes() {
        let [r, g, b] = ink(stroke.author);
        let points: Vec<String> = stroke
            .points
            .iter()
            .map(|p| format!("{:.1},{:.1}", p.columns, p.rows))
            .collect();
        let _ = writeln!(
            out,
            r##"<polyline points="{}" fill="none" stroke="#{r:02x}{g:02x}{b:02x}" stroke-width="{}" stroke-linecap="round" stroke-linejoin="round"/>"##,
            points.join(" "),
            paper
                .footprint()
                .width_deg(paper.look().pen_width_mm(stroke.author))
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The sheet as an RGB PNG at `pixels_per_deg`.
pub fn write_png(
    paper: &Paper,
    area: Area,
    pixels_per_deg: f64,
    out: impl Write,
) -> Result<(), png::EncodingError> {
    let width = ((area.max.columns - area.min.columns) * pixels_per_deg)
        .ceil()
        .max(1.0) as u32;
    let height = ((area.max.rows - area.min.rows) * pixels_per_deg)
        .ceil()
        .max(1.0) as u32;
    let mut rgb = vec![0xf4u8; (width * height * 3) as usize];
    let raster = Raster {
        origin: area.min,
        cells_per_deg: pixels_per_deg,
        width: width as usize,
        height: height as usize,
    };
    for stroke in paper.strokes() {
        let colour = ink(stroke.author);
        let pairs = stroke.points.windows(2).map(|w| (w[0], w[1]));
        let single = (stroke.points.len() == 1).then(|| (stroke.points[0], stroke.points[0]));
        let half_width = paper
            .footprint()
            .width_deg(paper.look().pen_width_mm(stroke.author))
            / 2.0;
        for (a, b) in pairs.chain(single) {
            raster.for_each_cell_under(a, b, half_width, |x, y| {
                let i = (y * raster.width + x) * 3;
                rgb[i..i + 3].copy_from_slice(&colour);
            });
        }
    }
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&rgb)?;
    writer.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hw::sim::PaperLook;

    #[test]
    fn pictures_show_each_stroke() {
        let mut paper = Paper::new(
            PaperLook::default(),
            crate::hw::sim::paper::tests::FOOTPRINT,
            PaperPoint::new(0.0, 0.0),
            PaperPoint::new(100.0, 100.0),
        );
        paper.draw(
            Author::Human,
            &[PaperPoint::new(10.0, 10.0), PaperPoint::new(90.0, 90.0)],
        );
        let area = Area {
            min: PaperPoint::new(0.0, 0.0),
            max: PaperPoint::new(100.0, 100.0),
        };
        let text = svg(&paper, area);
        assert!(text.contains(r#"points="10.0,10.0 90.0,90.0""#), "{text}");
        let mut bytes = Vec::new();
        write_png(&paper, area, 1.0, &mut bytes).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut pixels).unwrap();
        let at = |x: usize, y: usize| &pixels[(y * 100 + x) * 3..(y * 100 + x) * 3 + 3];
        assert_eq!(at(50, 50), HUMAN_INK);
        assert_eq!(at(80, 20), [0xf4; 3]);
    }
}
