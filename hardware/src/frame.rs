//! A picture for the brick's LCD: 178 x 128 pixels, each black or white, that
//! embedded-graphics draws on.
//!
//! The pixels live in embedded-graphics' own one-bit framebuffer, packed eight to a byte as the
//! EV3's monochrome framebuffer packs them, so showing a frame on a one-bit LCD is a copy of
//! rows rather than a pixel-by-pixel walk.

use embedded_graphics::framebuffer::{buffer_size, Framebuffer};
use embedded_graphics::image::GetPixel;
use embedded_graphics::pixelcolor::raw::{LittleEndian, RawU1};
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use std::convert::Infallible;

const WIDTH: usize = 178;
const HEIGHT: usize = 128;

/// One pixel a bit, a set bit black, each row starting on a byte.
type Pixels = Framebuffer<
    BinaryColor,
    RawU1,
    LittleEndian,
    WIDTH,
    HEIGHT,
    { buffer_size::<BinaryColor>(WIDTH, HEIGHT) },
>;

/// One screenful, black pixels set.
#[derive(Clone, PartialEq, Eq)]
pub struct Frame {
    pixels: Pixels,
}

impl Frame {
    pub const WIDTH: usize = WIDTH;
    pub const HEIGHT: usize = HEIGHT;
    /// The bytes of one packed row: 178 pixels round up to 23 bytes.
    pub const ROW_BYTES: usize = WIDTH.div_ceil(8);

    /// An all-white frame.
    pub fn new() -> Frame {
        Frame {
            pixels: Pixels::new(),
        }
    }

    /// Sets one pixel; points off the screen are ignored, like a real LCD clips them.
    pub fn set(&mut self, x: i32, y: i32, black: bool) {
        self.pixels
            .set_pixel(Point::new(x, y), BinaryColor::from(black));
    }

    /// Whether a pixel is black; points off the screen are white.
    pub fn is_black(&self, x: i32, y: i32) -> bool {
        self.pixels.pixel(Point::new(x, y)) == Some(BinaryColor::On)
    }

    pub fn clear(&mut self) {
        self.pixels.data_mut().fill(0);
    }

    /// The rows top to bottom, each [`Frame::ROW_BYTES`] long, a set bit black, the leftmost
    /// pixel in a byte's highest bit (embedded-graphics' packing).
    pub fn packed_rows(&self) -> impl Iterator<Item = &[u8]> {
        self.pixels.data().chunks_exact(Frame::ROW_BYTES)
    }
}

impl Default for Frame {
    fn default() -> Self {
        Frame::new()
    }
}

impl std::fmt::Debug for Frame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let black: u32 = self.pixels.data().iter().map(|b| b.count_ones()).sum();
        write!(
            f,
            "Frame({}x{}, {black} black)",
            Frame::WIDTH,
            Frame::HEIGHT
        )
    }
}

impl OriginDimensions for Frame {
    fn size(&self) -> Size {
        self.pixels.size()
    }
}

/// `On` is a black pixel, as on the LCD.
impl DrawTarget for Frame {
    type Color = BinaryColor;
    type Error = Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Infallible>
    where
        I: IntoIterator<Item = Pixel<BinaryColor>>,
    {
        self.pixels.draw_iter(pixels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixels_set_are_black_and_points_off_the_screen_are_white() {
        let mut frame = Frame::new();
        frame.set(0, 0, true);
        frame.set(177, 127, true);
        frame.set(178, 0, true);
        frame.set(-1, 5, true);
        assert!(frame.is_black(0, 0) && frame.is_black(177, 127));
        assert!(!frame.is_black(1, 0) && !frame.is_black(178, 0) && !frame.is_black(-1, 5));
        assert_eq!(format!("{frame:?}"), "Frame(178x128, 2 black)");
        frame.set(0, 0, false);
        assert!(!frame.is_black(0, 0));
    }

    #[test]
    fn rows_are_packed_leftmost_pixel_highest_each_row_on_its_own_bytes() {
        let mut frame = Frame::new();
        frame.set(0, 0, true);
        frame.set(9, 1, true);
        let rows: Vec<&[u8]> = frame.packed_rows().collect();
        assert_eq!(rows.len(), Frame::HEIGHT);
        assert!(rows.iter().all(|row| row.len() == 23));
        assert_eq!(rows[0][0], 0b1000_0000);
        assert_eq!(rows[1][1], 0b0100_0000);
    }
}
