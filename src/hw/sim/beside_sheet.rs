//! What the sensor's spot sees where it reaches past the sheet: the parked sensor sits 36 mm
//! behind the pen's zero (`sensing.sensor_offset_deg`), beyond the sheet's corner that the
//! robot config places there, over whatever the sheet lies on
//! ([`super::PaperLook::beside_sheet_percent`]).

use super::paper::{Footprint, PaperPoint};

/// The share of the sensor's spot (`footprint`) centred at `at` that lies beyond the sheet's
/// corner `corner` nearest the axes' zero: the spot cut by each of the two edges, the two cuts
/// taken as independent (exact away from the corner itself, where a spot is wholly on one
/// side or the other of one edge).
pub(super) fn share_beyond(corner: PaperPoint, at: PaperPoint, footprint: Footprint) -> f64 {
    let radius_mm = footprint.spot_mm / 2.0;
    let radius = (
        footprint.scale.columns_deg(radius_mm).max(1e-9),
        footprint.scale.rows_deg(radius_mm).max(1e-9),
    );
    let columns = beyond_an_edge((at.columns - corner.columns) / radius.0);
    let rows = beyond_an_edge((at.rows - corner.rows) / radius.1);
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

    const CORNER: PaperPoint = PaperPoint {
        columns: 0.0,
        rows: 0.0,
    };

    /// A 12 mm spot, 28 degrees either way.
    fn spot() -> Footprint {
        let per_deg = 12.0 / 2.0 / 28.0;
        Footprint {
            scale: crate::physical::Scale {
                columns_mm_per_deg: per_deg,
                rows_mm_per_deg: per_deg,
            },
            spot_mm: 12.0,
        }
    }

    #[test]
    fn a_spot_wholly_on_the_sheet_sees_none_of_what_lies_beside_it() {
        let share = share_beyond(CORNER, PaperPoint::new(100.0, 100.0), spot());
        assert_eq!(share, 0.0);
    }

    #[test]
    fn the_parked_sensor_behind_the_pen_s_zero_sees_only_what_lies_beside_the_sheet() {
        let share = share_beyond(CORNER, PaperPoint::new(-170.0, 0.0), spot());
        assert_eq!(share, 1.0);
    }

    #[test]
    fn a_spot_centred_on_an_edge_sees_half_of_each_side() {
        let share = share_beyond(CORNER, PaperPoint::new(0.0, 100.0), spot());
        assert!((share - 0.5).abs() < 1e-12, "{share}");
        // A third of its radius in: the segment beyond, 29.2 % of the disc.
        let third = share_beyond(CORNER, PaperPoint::new(100.0, 28.0 / 3.0), spot());
        assert!((third - 0.2918).abs() < 1e-3, "{third}");
    }
}
