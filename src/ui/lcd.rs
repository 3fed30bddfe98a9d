//! Drawing a [`View`] on the brick's 178 x 128 LCD with embedded-graphics: a black title bar,
//! the paragraphs wrapped by embedded-text, and the board in the right-hand corner.

use super::view::View;
use crate::game::{Cell, Mark};
use crate::hw::Frame;
use embedded_graphics::mono_font::ascii::{FONT_6X10, FONT_6X13_BOLD};
use embedded_graphics::mono_font::MonoTextStyle;
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Circle, Line, PrimitiveStyle, Rectangle};
use embedded_graphics::text::{Baseline, Text};
use embedded_text::style::{HeightMode, TextBoxStyleBuilder, VerticalOverdraw};
use embedded_text::TextBox;
use std::convert::Infallible;

const TITLE_HEIGHT: u32 = 15;
/// The board's squares on the LCD, in pixels.
const SQUARE: i32 = 19;

/// The frame that shows `view`.
pub fn render(view: &View) -> Frame {
    let mut frame = Frame::new();
    // Drawing into a Frame cannot fail (its error type is Infallible).
    let _ = draw(view, &mut frame);
    frame
}

fn draw(view: &View, frame: &mut Frame) -> Result<(), Infallible> {
    let width = Frame::WIDTH as u32;
    Rectangle::new(Point::zero(), Size::new(width, TITLE_HEIGHT))
        .into_styled(PrimitiveStyle::with_fill(BinaryColor::On))
        .draw(frame)?;
    let title: String = view.title.chars().take(29).collect();
    Text::with_baseline(
        &title,
        Point::new(2, 1),
        MonoTextStyle::new(&FONT_6X13_BOLD, BinaryColor::Off),
        Baseline::Top,
    )
    .draw(frame)?;

    let text = view.paragraphs.join("\n");
    // Lines that would not fit whole are left off, as the builder does by default.
    let clipped = HeightMode::Exact(VerticalOverdraw::FullRowsOnly);
    paragraphs(&text, body_of(view), clipped).draw(frame)?;

    if let Some(board) = &view.board {
        let origin = Point::new(width as i32 - 3 * SQUARE - 3, TITLE_HEIGHT as i32 + 6);
        draw_board(board, origin, frame)?;
    }
    Ok(())
}

/// Where the paragraphs go: under the title, left of the board if there is one.
fn body_of(view: &View) -> Rectangle {
    let board_width = if view.board.is_some() {
        3 * SQUARE as u32 + 6
    } else {
        0
    };
    Rectangle::new(
        Point::new(1, TITLE_HEIGHT as i32 + 2),
        Size::new(
            Frame::WIDTH as u32 - 2 - board_width,
            Frame::HEIGHT as u32 - TITLE_HEIGHT - 2,
        ),
    )
}

/// `text` wrapped into `bounds` in the body's font, a little space between paragraphs.
fn paragraphs(
    text: &str,
    bounds: Rectangle,
    height_mode: HeightMode,
) -> TextBox<'_, MonoTextStyle<'static, BinaryColor>> {
    TextBox::with_textbox_style(
        text,
        bounds,
        MonoTextStyle::new(&FONT_6X10, BinaryColor::On),
        TextBoxStyleBuilder::new()
            .paragraph_spacing(2)
            .height_mode(height_mode)
            .build(),
    )
}

/// The height `view`'s paragraphs take wrapped to the body's width, in pixels: more than the
/// body's height, and the last lines are cut off the LCD.
#[cfg(test)]
fn text_height(view: &View) -> u32 {
    let width = body_of(view).size.width;
    let text = view.paragraphs.join("\n");
    let unbounded = Rectangle::new(Point::zero(), Size::new(width, 0));
    paragraphs(&text, unbounded, HeightMode::FitToText)
        .bounding_box()
        .size
        .height
}

fn draw_board(
    board: &crate::game::Board,
    origin: Point,
    frame: &mut Frame,
) -> Result<(), Infallible> {
    let ink = PrimitiveStyle::with_stroke(BinaryColor::On, 1);
    // Bigger boards share the 3 x 3 board's room, in smaller squares.
    let n = board.rules().size() as i32;
    let square = 3 * SQUARE / n;
    let side = n * square;
    for i in 1..n {
        let at = i * square;
        Line::new(origin + Point::new(at, 0), origin + Point::new(at, side))
            .into_styled(ink)
            .draw(frame)?;
        Line::new(origin + Point::new(0, at), origin + Point::new(side, at))
            .into_styled(ink)
            .draw(frame)?;
    }
    let thick = PrimitiveStyle::with_stroke(BinaryColor::On, 2);
    let inset = if n > 3 { 3 } else { 4 };
    for index in 0..n * n {
        let cell = Cell::from_index(index as usize, n as usize);
        let corner = origin + Point::new(cell.col as i32 * square, cell.row as i32 * square);
        let (near, far) = (
            corner + Point::new(inset, inset),
            corner + Point::new(square - inset, square - inset),
        );
        match board.get(cell) {
            Some(Mark::X) => {
                Line::new(near, far).into_styled(thick).draw(frame)?;
                Line::new(Point::new(near.x, far.y), Point::new(far.x, near.y))
                    .into_styled(thick)
                    .draw(frame)?;
            }
            Some(Mark::O) => {
                Circle::new(near, (square - 2 * inset + 1) as u32)
                    .into_styled(thick)
                    .draw(frame)?;
            }
            None => {}
        }
    }
    Ok(())
}

/// The frame as a greyscale PNG, each LCD pixel `scale` pixels wide, for reviewing screens
/// without a brick.
pub fn write_png(
    frame: &Frame,
    scale: u32,
    out: impl std::io::Write,
) -> Result<(), png::EncodingError> {
    let scale = scale.max(1) as usize;
    let (width, height) = (Frame::WIDTH * scale, Frame::HEIGHT * scale);
    let mut encoder = png::Encoder::new(out, width as u32, height as u32);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    let mut pixels = Vec::with_capacity(width * height);
    for y in 0..height {
        for x in 0..width {
            let black = frame.is_black((x / scale) as i32, (y / scale) as i32);
            // The LCD's grey-green background and dark pixels, roughly.
            pixels.push(if black { 0x22 } else { 0xc8 });
        }
    }
    writer.write_image_data(&pixels)?;
    writer.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Difficulty;
    use crate::scoreboard::{PairResult, Scoreboard};
    use crate::ui::menu::Menu;
    use std::time::SystemTime;

    #[test]
    fn every_menu_page_fits_the_lcd_with_a_two_person_record_and_a_level_of_ones_own() {
        let mut scores = Scoreboard::new();
        let own = Difficulty::best_moves_percent(75).unwrap();
        scores.record(
            &own,
            crate::scoreboard::GameResult::HumanWon,
            SystemTime::now(),
        );
        scores.record_two_people(PairResult::XWon, SystemTime::now());
        let levels = Difficulty::levels();
        for menu in [
            Menu::Main,
            Menu::ChooseFirst(Difficulty::hard()),
            Menu::Scores,
            Menu::Settings,
            Menu::ConfirmReset,
            Menu::Eye,
        ] {
            let setup = crate::ui::view::SetupFacts {
                voice: true,
                eye: crate::ui::eye_page::EyeReport::example().lines(),
            };
            let view = View::of_menu(&menu, &levels, &scores, &setup);
            let room = body_of(&view).size.height;
            let needed = text_height(&view);
            assert!(
                needed <= room,
                "{}: {needed} px of text in {room} px: {:?}",
                menu.describe(),
                view.paragraphs
            );
        }
    }

    #[test]
    fn every_finding_of_a_calibration_fits_the_lcd_whatever_its_verdict() {
        use crate::motion::calibrate::tests::{calibration, eye};
        let config = crate::config::RobotConfig::default();
        let mut short_axes = calibration(70, 40.0);
        (
            short_axes.columns_far_stop_deg,
            short_axes.rows_far_stop_deg,
        ) = (400, 300);
        short_axes.eye = Ok(eye(6.2));
        let mut unsure = calibration(70, 71.0);
        unsure.eye = Err(
            "the grid's lines read at most 3 % darker than the paper: did the \
             pen ink, and does it reach the paper?"
                .to_string(),
        );
        let mut unread = calibration(70, 40.0);
        unread.mark_percent = None;
        for measured in [short_axes, unsure, unread] {
            for finding in measured.findings(&config) {
                let view = View::of_finding(&finding, &config);
                let (room, needed) = (body_of(&view).size.height, text_height(&view));
                assert!(needed <= room, "{needed} px in {room}: {view:?}");
            }
        }
    }
}
