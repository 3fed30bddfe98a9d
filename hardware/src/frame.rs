//! A picture for the brick's LCD: 178 x 128 pixels, each black or white, that
//! embedded-graphics draws on.

use embedded_graphics_core::pixelcolor::BinaryColor;
use embedded_graphics_core::prelude::*;
use std::convert::Infallible;

/// One screenful, black pixels set. Row-major, top-left first.
#[derive(Clone, PartialEq, Eq)]
pub struct Frame {
    black: Vec<bool>,
}

impl Frame {
    pub const WIDTH: usize = 178;
    pub const HEIGHT: usize = 128;

    /// An all-white frame.
    pub fn new() -> Frame {
        Frame {
            black: vec![false; Frame::WIDTH * Frame::HEIGHT],
        }
    }

    /// Sets one pixel; points off the screen are ignored, like a real LCD clips them.
    pub fn set(&mut self, x: i32, y: i32, black: bool) {
        if let Some(i) = Frame::index(x, y) {
            self.black[i] = black;
        }
    }

    /// Whether a pixel is black; points off the screen are white.
    pub fn is_black(&self, x: i32, y: i32) -> bool {
        Frame::index(x, y).is_some_and(|i| self.black[i])
    }

    pub fn clear(&mut self) {
        self.black.fill(false);
    }

    fn index(x: i32, y: i32) -> Option<usize> {
        let (x, y) = (usize::try_from(x).ok()?, usize::try_from(y).ok()?);
        (x < Frame::WIDTH && y < Frame::HEIGHT).then_some(y * Frame::WIDTH + x)
    }
}

impl Default for Frame {
    fn default() -> Self {
        Frame::new()
    }
}

impl std::fmt::Debug for Frame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let black = self.black.iter().filter(|&&b| b).count();
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
        Size::new(Frame::WIDTH as u32, Frame::HEIGHT as u32)
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
        for Pixel(point, colour) in pixels {
            self.set(point.x, point.y, colour.is_on());
        }
        Ok(())
    }
}
