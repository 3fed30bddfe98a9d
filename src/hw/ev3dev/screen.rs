//! The LCD, through the kernel's framebuffer (`/dev/fb0`), mapped into memory.
//!
//! ev3dev-stretch's LCD driver only shows what is written through a memory map (plain writes
//! to the device are ignored), so the frame is mapped with the `framebuffer` crate and every
//! picture is followed by `msync`, which also tells a deferred-I/O framebuffer to refresh the
//! panel now. The pixel format is read from the driver, never assumed: 1 bit per pixel (ev3dev
//! jessie: a set bit is black, the leftmost pixel in the lowest bit), or 16 or 32 bits of grey
//! (stretch). A framebuffer smaller than the LCD or of another format is refused when opened,
//! with what it is, rather than drawn out of bounds.

use super::device_dir;
use crate::hw::{Frame, HwError, Screen};
use framebuffer::Framebuffer;

const DEVICE: &str = "LCD";

/// The brick's LCD.
pub struct Ev3Screen {
    framebuffer: Framebuffer,
    bits_per_pixel: u32,
    line_length: usize,
}

impl Ev3Screen {
    pub fn open() -> Result<Ev3Screen, HwError> {
        let path = device_dir().join("fb0");
        let framebuffer = Framebuffer::new(&path).map_err(|error| {
            HwError::failed(
                DEVICE,
                format!("cannot open {}: {}", path.display(), error.details),
            )
        })?;
        let var = &framebuffer.var_screen_info;
        let bits_per_pixel = var.bits_per_pixel;
        let line_length = framebuffer.fix_screen_info.line_length as usize;
        let (width, height) = (Frame::WIDTH as u32, Frame::HEIGHT as u32);
        if !matches!(bits_per_pixel, 1 | 16 | 32) {
            return Err(HwError::failed(
                DEVICE,
                format!(
                    "{} has {bits_per_pixel} bits per pixel; this program draws 1, 16 or 32",
                    path.display()
                ),
            ));
        }
        let row_bytes = (width * bits_per_pixel).div_ceil(8) as usize;
        if var.xres < width
            || var.yres < height
            || line_length < row_bytes
            || framebuffer.frame.len() < line_length * height as usize
        {
            return Err(HwError::failed(
                DEVICE,
                format!(
                    "{} is {}x{} pixels with {line_length}-byte lines ({} bytes mapped); the \
                     EV3's LCD is {width}x{height}",
                    path.display(),
                    var.xres,
                    var.yres,
                    framebuffer.frame.len()
                ),
            ));
        }
        Ok(Ev3Screen {
            framebuffer,
            bits_per_pixel,
            line_length,
        })
    }
}

/// The bytes of one frame as the framebuffer lays them out: `line_length` bytes per row.
pub fn encode(frame: &Frame, bits_per_pixel: u32, line_length: usize) -> Vec<u8> {
    let mut bytes = vec![0u8; line_length * Frame::HEIGHT];
    let lines = bytes.chunks_exact_mut(line_length);
    if bits_per_pixel == 1 {
        // The frame packs pixels as the LCD does, a set bit black, but puts the leftmost in a
        // byte's highest bit where the LCD wants it in the lowest.
        for (line, row) in lines.zip(frame.packed_rows()) {
            for (to, from) in line.iter_mut().zip(row) {
                *to = from.reverse_bits();
            }
        }
        return bytes;
    }
    let bytes_per_pixel = bits_per_pixel as usize / 8;
    for (y, line) in lines.enumerate() {
        for (x, pixel) in line
            .chunks_exact_mut(bytes_per_pixel)
            .take(Frame::WIDTH)
            .enumerate()
        {
            let black = frame.is_black(x as i32, y as i32);
            pixel.fill(if black { 0x00 } else { 0xff });
        }
    }
    bytes
}

impl Screen for Ev3Screen {
    fn show(&mut self, frame: &Frame) -> Result<(), HwError> {
        let bytes = encode(frame, self.bits_per_pixel, self.line_length);
        // `open` checked that the mapping holds at least this many bytes.
        self.framebuffer.frame[..bytes.len()].copy_from_slice(&bytes);
        self.framebuffer
            .frame
            .flush()
            .map_err(|error| HwError::failed(DEVICE, format!("refreshing the LCD: {error}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_bit_frames_set_a_bit_for_black_leftmost_pixel_lowest() {
        let mut frame = Frame::new();
        frame.set(0, 0, true);
        frame.set(9, 1, true);
        let bytes = encode(&frame, 1, 24);
        assert_eq!(bytes.len(), 24 * 128);
        assert_eq!(bytes[0], 0b0000_0001);
        assert_eq!(bytes[24 + 1], 0b0000_0010);
        assert_eq!(bytes.iter().map(|b| b.count_ones()).sum::<u32>(), 2);
    }

    #[test]
    fn grey_frames_are_white_where_the_frame_is_white() {
        let mut frame = Frame::new();
        frame.set(1, 0, true);
        let bytes = encode(&frame, 32, 178 * 4);
        assert_eq!(&bytes[0..4], &[0xff; 4]);
        assert_eq!(&bytes[4..8], &[0x00; 4]);
        let bytes = encode(&frame, 16, 178 * 2 + 4);
        assert_eq!(&bytes[2..4], &[0x00; 2]);
        assert_eq!(
            &bytes[178 * 2..178 * 2 + 4],
            &[0x00; 4],
            "the line's padding"
        );
    }
}
