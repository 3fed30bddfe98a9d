//! What the sensor's spot sees where it reaches past the sheet: the parked sensor sits 36 mm
//! behind the pen's zero (`sensing.sensor_offset_deg`), beyond the sheet's corner that the
//! robot config places there, over whatever the sheet lies on
//! ([`super::PaperLook::beside_sheet_percent`]).

use crate::physical::Scale;

/// The share of the sensor's spot (`spot_mm` across, on a machine of `scale`) that lies
/// beyond the sheet's corner nearest the axes' zero, its centre `inside` that corner by so
/// many degrees along each axis (negative: beyond it): the spot cut by each of the two edges,
/// the two cuts taken as independent (exact away from the corner itself, where a spot is
/// wholly on one side or the other of one edge).
pub(super) fn share_beyond(inside: (f64, f64), scale: Scale, spot_mm: f64) -> f64 {
    let radius_mm = spot_mm / 2.0;
    let columns = beyond_an_edge(inside.0 / scale.columns_deg(radius_mm).max(1e-9));
    let rows = beyond_an_edge(inside.1 / scale.rows_deg(radius_mm).max(1e-9));
    1.0 - (1.0 - columns) * (1.0 - rows)
}

/// The share of a disc beyond a straight edge, its centre `inside` radii within it (negative:
/// beyond it): a circular segment's area over the disc's.
fn beyond_an_edge(inside: f64) -> f64 {
    let d = inside.clamp(-1.0, 1.0);
    (d.acos() - d * (1.0 - d * d).sqrt()) / std::f64::consts::PI
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 12 mm spot, 28 degrees either way.
    const SCALE: Scale = Scale {
        columns_mm_per_deg: 6.0 / 28.0,
        rows_mm_per_deg: 6.0 / 28.0,
    };

    fn share(inside: (f64, f64)) -> f64 {
        share_beyond(inside, SCALE, 12.0)
    }

    #[test]
    fn a_spot_wholly_on_the_sheet_sees_none_of_what_lies_beside_it() {
        assert_eq!(share((100.0, 100.0)), 0.0);
    }

    #[test]
    fn the_parked_sensor_behind_the_pen_s_zero_sees_only_what_lies_beside_the_sheet() {
        assert_eq!(share((-170.0, 0.0)), 1.0);
    }

    #[test]
    fn a_spot_centred_on_an_edge_sees_half_of_each_side() {
        let half = share((0.0, 100.0));
        assert!((half - 0.5).abs() < 1e-12, "{half}");
        // A third of its radius in: the segment beyond, 29.2 % of the disc.
        let third = share((100.0, 28.0 / 3.0));
        assert!((third - 0.2918).abs() < 1e-3, "{third}");
    }
}
