//! Millimetres and degrees: how far each axis moves per degree of its motor, and what the colour
//! sensor's footprint leaves of a square to read.
//!
//! The robot measures in encoder degrees, but the paper, the pens and the sensor's footprint
//! are physical: a 10 mm spot is 47 degrees of a gantry that moves 0.21 mm a degree and 28 of
//! one that moves 0.36. Every length the robot senses is therefore known in both units, so a
//! person can compare the robot's figures with a ruler, and so that the simulator's world can
//! be set from measured figures (see `docs/sensor.md` for the sources) rather than from numbers
//! that happen to suit our own tests.
//!
//! Nothing here knows the robot config: the config hands its figures in, and checks with
//! [`ReadingGeometry::fits`] that its squares leave the spot room to read.

/// The pitch of a LEGO gear rack: 5 teeth per 2 studs (16 mm).
pub const LEGO_RACK_MM_PER_TOOTH: f64 = 3.2;

/// How far a rack moves per degree of a LEGO gear with `teeth` teeth meshing it.
///
/// ```
/// // The default robot's 24-tooth gear: 76.8 mm a turn.
/// let mm = ev3_tictactoe::physical::rack_mm_per_deg(24);
/// assert!((mm * 360.0 - 76.8).abs() < 1e-9);
/// ```
pub fn rack_mm_per_deg(teeth: u32) -> f64 {
    f64::from(teeth) * LEGO_RACK_MM_PER_TOOTH / 360.0
}

/// How many millimetres each gantry axis moves per degree of its motor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    pub columns_mm_per_deg: f64,
    pub rows_mm_per_deg: f64,
}

impl Scale {
    /// `mm` along the columns axis, in its degrees.
    pub fn columns_deg(&self, mm: f64) -> f64 {
        mm / self.columns_mm_per_deg
    }

    /// `mm` along the rows axis, in its degrees.
    pub fn rows_deg(&self, mm: f64) -> f64 {
        mm / self.rows_mm_per_deg
    }

    /// `deg` of the columns axis, in millimetres.
    pub fn columns_mm(&self, deg: f64) -> f64 {
        deg * self.columns_mm_per_deg
    }

    /// `deg` of the rows axis, in millimetres.
    pub fn rows_mm(&self, deg: f64) -> f64 {
        deg * self.rows_mm_per_deg
    }

    /// A length along the columns axis in both units: "8.0 mm (38 deg)".
    pub fn both_columns(&self, deg: f64) -> String {
        both(self.columns_mm(deg), deg)
    }

    /// A length along the rows axis in both units.
    pub fn both_rows(&self, deg: f64) -> String {
        both(self.rows_mm(deg), deg)
    }
}

/// "8.0 mm (38 deg)": one decimal for millimetres under 10, whole ones above.
pub fn both(mm: f64, deg: f64) -> String {
    if mm < 10.0 {
        format!("{mm:.1} mm ({deg:.0} deg)")
    } else {
        format!("{mm:.0} mm ({deg:.0} deg)")
    }
}

/// Room kept between the spot's edge and a grid line's, beyond the spot and the line
/// themselves, in degrees: homing's error and the gears' play (a degree or two each).
pub const POSITION_ERROR_DEG: f64 = 3.0;

/// The shortest stretch of a square's centre line worth sweeping, in degrees: shorter, and a
/// sweep at speed takes too few readings inside it to judge the square by.
pub const SHORTEST_WINDOW_DEG: f64 = 10.0;

/// Where in a square the sensor can read with its whole spot clear of the grid lines.
///
/// The spot's centre must stay half a spot, half a grid line and [`POSITION_ERROR_DEG`] inside
/// the square's edge. Along the columns axis (the sweeps) that is the reading window; along the
/// rows axis it is how far off the centre line the second look's lines may run, at most a
/// quarter of a square (where an O's ring, or an X drawn off centre, is crossed).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReadingGeometry {
    /// The spot's diameter in each axis's degrees.
    pub spot_columns_deg: f64,
    pub spot_rows_deg: f64,
    /// Half the reading window along a square's centre line, in degrees of the columns axis.
    pub window_half_deg: i32,
    /// How far off the centre line the second look's two lines run, in degrees of the rows
    /// axis; 0 when the spot leaves no room for them.
    pub look_offset_deg: i32,
}

/// A square too small for the spot to read inside the grid lines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SquareTooSmall {
    /// The smallest square that would do, in degrees of the columns axis and in millimetres.
    pub needed_deg: i32,
    pub needed_mm: f64,
}

impl ReadingGeometry {
    /// The geometry of squares `square_deg` wide read with a spot `spot_mm` across, on a grid
    /// drawn with a line `line_mm` wide. Never less than a window of one degree: whether it
    /// is enough is [`ReadingGeometry::fits`]'s to say.
    pub fn new(scale: Scale, spot_mm: f64, line_mm: f64, square_deg: i32) -> ReadingGeometry {
        let spot_columns_deg = scale.columns_deg(spot_mm);
        let spot_rows_deg = scale.rows_deg(spot_mm);
        let room = |spot_deg: f64, line_deg: f64| {
            f64::from(square_deg) / 2.0 - spot_deg / 2.0 - line_deg / 2.0 - POSITION_ERROR_DEG
        };
        let window = room(spot_columns_deg, scale.columns_deg(line_mm));
        let offset = room(spot_rows_deg, scale.rows_deg(line_mm)).min(f64::from(square_deg) / 4.0);
        ReadingGeometry {
            spot_columns_deg,
            spot_rows_deg,
            window_half_deg: window.floor().max(1.0) as i32,
            look_offset_deg: offset.floor().max(0.0) as i32,
        }
    }

    /// The widest spot, in mm, that leaves squares `square_deg` wide a window of
    /// [`SHORTEST_WINDOW_DEG`] (see [`ReadingGeometry::fits`]), on a grid of lines `line_mm`
    /// wide; at most 0 when none does.
    pub fn widest_spot_mm(scale: Scale, line_mm: f64, square_deg: i32) -> f64 {
        let spot_deg = f64::from(square_deg)
            - scale.columns_deg(line_mm)
            - 2.0 * POSITION_ERROR_DEG
            - SHORTEST_WINDOW_DEG;
        scale.columns_mm(spot_deg)
    }

    /// Whether the window holds at least [`SHORTEST_WINDOW_DEG`] of line; if not, the square
    /// that would.
    pub fn fits(
        scale: Scale,
        spot_mm: f64,
        line_mm: f64,
        square_deg: i32,
    ) -> Result<ReadingGeometry, SquareTooSmall> {
        let geometry = ReadingGeometry::new(scale, spot_mm, line_mm, square_deg);
        let window = 2.0
            * (f64::from(square_deg) / 2.0
                - geometry.spot_columns_deg / 2.0
                - scale.columns_deg(line_mm) / 2.0
                - POSITION_ERROR_DEG);
        if window >= SHORTEST_WINDOW_DEG {
            return Ok(geometry);
        }
        let needed = geometry.spot_columns_deg
            + scale.columns_deg(line_mm)
            + 2.0 * POSITION_ERROR_DEG
            + SHORTEST_WINDOW_DEG;
        let needed_deg = needed.ceil() as i32;
        Err(SquareTooSmall {
            needed_deg,
            needed_mm: scale.columns_mm(f64::from(needed_deg)),
        })
    }
}

/// How much darker than its paper a line `line_mm` wide makes a round spot `spot_mm` across at
/// most, as a share of the ink's own contrast: the share of the spot the line covers where it
/// crosses the spot's centre (a chord through a disc), 1 once the line is as wide as the spot.
///
/// ```
/// use ev3_tictactoe::physical::line_cover;
/// assert!((line_cover(0.5, 10.0) - 0.064).abs() < 0.001);
/// assert_eq!(line_cover(12.0, 10.0), 1.0);
/// ```
pub fn line_cover(line_mm: f64, spot_mm: f64) -> f64 {
    if line_mm >= spot_mm {
        return 1.0;
    }
    strip_cover(0.0, line_mm, spot_mm)
}

/// The share of a round spot `spot_mm` across that a straight line `line_mm` wide covers when
/// the line runs `offset_mm` from the spot's centre: the shape of the dip a sweep across the
/// line reads, from [`line_cover`] at its middle to 0 once the line is clear of the spot.
///
/// ```
/// use ev3_tictactoe::physical::{line_cover, strip_cover};
/// assert_eq!(strip_cover(0.0, 1.0, 12.0), line_cover(1.0, 12.0));
/// assert_eq!(strip_cover(6.6, 1.0, 12.0), 0.0);
/// assert!(strip_cover(3.0, 1.0, 12.0) < strip_cover(0.0, 1.0, 12.0));
/// ```
pub fn strip_cover(offset_mm: f64, line_mm: f64, spot_mm: f64) -> f64 {
    let r = spot_mm / 2.0;
    let h = line_mm / 2.0;
    // Clear of the spot: both edges clamp to the disc's rim below and give this 0 exactly,
    // without the arcsines and square roots, each a long library routine on the brick's
    // FPU-less CPU (the eye's fit asks this of every reading for every spot it tries).
    if offset_mm.abs() >= r + h {
        return 0.0;
    }
    // The disc's area from its centre line out to `d` (negative: the other way).
    let from_centre = |d: f64| {
        let d = d.clamp(-r, r);
        r * r * (d / r).asin() + d * (r * r - d * d).sqrt()
    };
    (from_centre(offset_mm + h) - from_centre(offset_mm - h)) / (std::f64::consts::PI * r * r)
}

/// Black ink's reflected light as a share of white paper's, read by the EV3 colour sensor
/// (`docs/sensor.md`: about 10 % where the paper reads 70 %).
pub const BLACK_INK_OF_PAPER: f64 = 1.0 / 7.0;

/// Graphite's, a pencil's line: a mid grey, taken at the pale (harsh) end (`docs/sensor.md`).
pub const GRAPHITE_OF_PAPER: f64 = 0.75;

/// A person's pen: its line's width and how dark its ink reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pen {
    pub name: &'static str,
    pub width_mm: f64,
    /// The ink's reflected light as a share of the paper's: black ink about a seventh, graphite
    /// about three quarters (`docs/sensor.md`).
    pub ink_of_paper: f64,
}

/// The pens people play with, finest first: the detection matrix reads each, and `calibrate`
/// says which the configured spot can see. Widths and inks from `docs/sensor.md`.
pub const PENS: [Pen; 5] = [
    Pen {
        name: "fine-liner 0.3 mm",
        width_mm: 0.3,
        ink_of_paper: BLACK_INK_OF_PAPER,
    },
    Pen {
        name: "ballpoint 0.5 mm",
        width_mm: 0.5,
        ink_of_paper: BLACK_INK_OF_PAPER,
    },
    Pen {
        name: "marker 1 mm",
        width_mm: 1.0,
        ink_of_paper: BLACK_INK_OF_PAPER,
    },
    Pen {
        name: "broad marker 2.5 mm",
        width_mm: 2.5,
        ink_of_paper: BLACK_INK_OF_PAPER,
    },
    Pen {
        name: "pencil 0.7 mm",
        width_mm: 0.7,
        ink_of_paper: GRAPHITE_OF_PAPER,
    },
];

impl Pen {
    /// How much darker than its paper one stroke of this pen makes a spot `spot_mm` across at
    /// most (the stroke through the spot's centre), as a share of the paper's light.
    pub fn stroke_dip(&self, spot_mm: f64) -> f64 {
        line_cover(self.width_mm, spot_mm) * (1.0 - self.ink_of_paper)
    }
}

/// The thinnest line of an ink reading `ink_of_paper` of the paper's light that darkens a spot
/// `spot_mm` across by `floor` (a share of the paper's light) where it crosses the spot's
/// centre; `None` when not even a line as wide as the spot does.
///
/// ```
/// use ev3_tictactoe::physical::thinnest_line_mm;
/// // Black ink (a seventh of the paper's light) under a 12 mm spot, against a 6 % floor.
/// let thinnest = thinnest_line_mm(12.0, 1.0 / 7.0, 0.06).unwrap();
/// assert!((0.6..0.7).contains(&thinnest), "{thinnest}");
/// assert_eq!(thinnest_line_mm(12.0, 0.97, 0.06), None);
/// ```
pub fn thinnest_line_mm(spot_mm: f64, ink_of_paper: f64, floor: f64) -> Option<f64> {
    let dip = |width: f64| line_cover(width, spot_mm) * (1.0 - ink_of_paper);
    if dip(spot_mm) < floor {
        return None;
    }
    // The dip grows with the width: halve the bracket until it is a hundredth of a mm.
    let (mut thin, mut wide) = (0.0, spot_mm);
    while wide - thin > 0.01 {
        let mid = (thin + wide) / 2.0;
        if dip(mid) >= floor {
            wide = mid;
        } else {
            thin = mid;
        }
    }
    Some(wide)
}

/// An axis's millimetres per degree from a line it drew `drawn_deg` long, measured end to end
/// with a ruler as `measured_mm`: the pen's round tip adds half its line `line_mm` at each end.
///
/// ```
/// use ev3_tictactoe::physical::mm_per_deg_from_ruler;
/// // A 3 x 3 grid of 100-degree squares: its lines are 300 degrees long.
/// assert!((mm_per_deg_from_ruler(65.0, 300.0, 1.0) - 0.2133).abs() < 0.0001);
/// ```
pub fn mm_per_deg_from_ruler(measured_mm: f64, drawn_deg: f64, line_mm: f64) -> f64 {
    (measured_mm - line_mm) / drawn_deg
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCALE: Scale = Scale {
        columns_mm_per_deg: 0.2,
        rows_mm_per_deg: 0.25,
    };

    #[test]
    fn lengths_convert_each_axis_by_its_own_scale() {
        assert_eq!(SCALE.columns_deg(10.0), 50.0);
        assert_eq!(SCALE.rows_deg(10.0), 40.0);
        assert_eq!(SCALE.rows_mm(40.0), 10.0);
        assert_eq!(SCALE.both_columns(50.0), "10 mm (50 deg)");
        assert_eq!(SCALE.both_rows(10.0), "2.5 mm (10 deg)");
    }

    #[test]
    fn the_window_keeps_the_whole_spot_inside_the_grid_lines() {
        // 100-degree squares, a 6 mm spot (30 deg), a 1 mm line (5 deg): 50 - 15 - 2.5 - 3.
        let geometry = ReadingGeometry::new(SCALE, 6.0, 1.0, 100);
        assert_eq!(geometry.window_half_deg, 29);
        // Along the rows: 50 - 12 - 2 - 3 = 33, but no more than a quarter of the square.
        assert_eq!(geometry.look_offset_deg, 25);
        let wide = ReadingGeometry::new(SCALE, 12.0, 1.0, 100);
        assert_eq!(wide.window_half_deg, 14);
        // 50 - 24 - 2 - 3.
        assert_eq!(wide.look_offset_deg, 21);
    }

    #[test]
    fn a_square_the_spot_cannot_read_inside_names_the_square_that_would_do() {
        assert!(ReadingGeometry::fits(SCALE, 6.0, 1.0, 100).is_ok());
        let too_small = ReadingGeometry::fits(SCALE, 15.0, 1.0, 90).unwrap_err();
        // 75 + 5 + 6 + 10.
        assert_eq!(too_small.needed_deg, 96);
        assert!((too_small.needed_mm - 19.2).abs() < 1e-9);
        assert!(ReadingGeometry::fits(SCALE, 15.0, 1.0, 96).is_ok());
    }

    #[test]
    fn a_thin_line_covers_a_thin_share_of_a_wide_spot() {
        // A chord band through a disc: about 4 w / (pi d) while thin.
        let thin = line_cover(1.0, 12.0);
        assert!(
            (thin - 4.0 / (std::f64::consts::PI * 12.0)).abs() < 0.002,
            "{thin}"
        );
        assert!(line_cover(2.0, 12.0) > 1.9 * thin);
        assert_eq!(line_cover(0.0, 12.0), 0.0);
    }
}
