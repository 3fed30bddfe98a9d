//! The room the robot plays in: light that drifts, a lamp switched on to one side, a person's
//! shadow while they stand at the board, and a corner of the sheet that settles. Each scales
//! what the colour sensor reads of paper and ink alike, as room light does in reflected-light
//! mode (white paper read 95 to 100 % with the room's lights on and 55 to 83 % with them off,
//! black 2 to 6 % either way: `docs/sensor.md`, "The room"). Figures and their sources are
//! there; the default room is steady, and [`RoomLight::harsh`] is the harsh end the tests play
//! in.

use super::PaperPoint;
use serde::{Deserialize, Serialize};

/// How the room's light changes, as shares of the reading in percent.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RoomLight {
    /// The light's slow swing, from its lowest to its highest, in percent of the reading
    /// (default: 0): a cloud, the LED warming, a battery sagging. It starts at its middle.
    pub drift_percent: f64,
    /// How long one whole swing takes, in seconds (default: 90).
    pub drift_period_s: f64,
    /// A lamp to one side of the board, switched on `lamp_on_at_s` into the world (default:
    /// 0, never): the light at the sheet's middle rises by `lamp_percent` (default: 0).
    pub lamp_percent: f64,
    pub lamp_on_at_s: f64,
    /// How much brighter the lamp leaves the side of the sheet at the far end of
    /// `lamp_brighter_along` than the side at its zero, in percent of the reading (default:
    /// 0): light that is uneven only while the lamp is on, so the blank read did not see it.
    pub lamp_unevenness_percent: f64,
    /// The axis whose far end the lamp stands by (default: columns). A lamp may stand on any
    /// side of a robot, and the firmware reads the squares a row at a time, so the rows are a
    /// world of their own: there the lamp's unevenness lies along the order the rows are read
    /// in, as a drift does.
    pub lamp_brighter_along: SheetAxis,
    /// A person's shadow: the light falls by this share while they press the touch sensor and
    /// for `shadow_s` after they let go, until they step back (default: 0).
    pub shadow_percent: f64,
    pub shadow_s: f64,
    /// A corner of the sheet lifted this far towards the sensor when the game begins, which
    /// settles flat after `lift_settles_after_s` (default: 0, flat).
    pub lift_mm: f64,
    pub lift_settles_after_s: f64,
    /// Where the lifted corner is, in paper degrees, and how far from it the sheet still
    /// lifts, in degrees (the lift falling off evenly to nothing there).
    pub lift_corner_deg: (f64, f64),
    pub lift_reach_deg: f64,
    /// The sensor's height over flat paper, in mm: a lift changes the reading as the square of
    /// that height over the height left (default: 10, a 12 mm spot's mounting).
    pub sensor_height_mm: f64,
}

/// One of the sheet's two directions, as the gantry's axes run over it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SheetAxis {
    Columns,
    Rows,
}

impl Default for RoomLight {
    fn default() -> Self {
        RoomLight {
            drift_percent: 0.0,
            drift_period_s: 90.0,
            lamp_percent: 0.0,
            lamp_on_at_s: 0.0,
            lamp_unevenness_percent: 0.0,
            lamp_brighter_along: SheetAxis::Columns,
            shadow_percent: 0.0,
            shadow_s: 1.5,
            lift_mm: 0.0,
            lift_settles_after_s: 30.0,
            // The default grid's far corner (grid_origin 20 + 3 squares of 100).
            lift_corner_deg: (320.0, 320.0),
            lift_reach_deg: 200.0,
            sensor_height_mm: 10.0,
        }
    }
}

impl RoomLight {
    /// The harsh end of each cited range of the light (`docs/sensor.md`, "The room"), all at
    /// once: the light swinging 15 % over a minute and a half, a shadow of 20 % for 1.5 s
    /// after each press, and a lamp of 15 % to one side (10 % brighter at one side of the
    /// sheet than the other) switched on 30 s in. The sheet stays flat: a corner that settles
    /// is tried apart ([`RoomLight::lift_mm`]).
    pub fn harsh() -> RoomLight {
        RoomLight {
            drift_percent: 15.0,
            drift_period_s: 90.0,
            lamp_percent: 15.0,
            lamp_on_at_s: 30.0,
            lamp_unevenness_percent: 10.0,
            shadow_percent: 20.0,
            shadow_s: 1.5,
            ..RoomLight::default()
        }
    }

    /// True when nothing in the room changes.
    pub fn is_steady(&self) -> bool {
        self.drift_percent == 0.0
            && self.lamp_percent == 0.0
            && self.shadow_percent == 0.0
            && self.lift_mm == 0.0
    }

    /// The factor the room puts on a reading at `at` (paper degrees) at `seconds` into the
    /// world, with a person at the board (`shadowed`): 1 in a steady room. `extent` is how
    /// far the sheet reaches along each axis (columns, rows), over which the lamp's
    /// unevenness spreads.
    pub fn factor(&self, seconds: f64, at: PaperPoint, extent: (f64, f64), shadowed: bool) -> f64 {
        let drift = 1.0
            + self.drift_percent / 200.0
                * (std::f64::consts::TAU * seconds / self.drift_period_s.max(1.0)).sin();
        let lamp_on = self.lamp_on_at_s > 0.0 && seconds >= self.lamp_on_at_s;
        let lamp = if lamp_on {
            let (along, reach) = match self.lamp_brighter_along {
                SheetAxis::Columns => (at.columns, extent.0),
                SheetAxis::Rows => (at.rows, extent.1),
            };
            let across = (along / reach.max(1.0)).clamp(0.0, 1.0) - 0.5;
            1.0 + (self.lamp_percent + self.lamp_unevenness_percent * across) / 100.0
        } else {
            1.0
        };
        let shadow = if shadowed {
            1.0 - self.shadow_percent / 100.0
        } else {
            1.0
        };
        drift * lamp * shadow * self.lift_factor(seconds, at)
    }

    /// A lifted stretch of paper is nearer the sensor: the reading grows as the square of the
    /// height over flat paper over the height left (the LED's light spreads as a cone, so what
    /// the photodiode gets falls off with the square of the distance).
    fn lift_factor(&self, seconds: f64, at: PaperPoint) -> f64 {
        if self.lift_mm == 0.0 || seconds >= self.lift_settles_after_s {
            return 1.0;
        }
        let (corner_columns, corner_rows) = self.lift_corner_deg;
        let distance = (at.columns - corner_columns).hypot(at.rows - corner_rows);
        let share = (1.0 - distance / self.lift_reach_deg.max(1.0)).max(0.0);
        let height = self.sensor_height_mm.max(1.0);
        let left = (height - self.lift_mm * share).max(0.5);
        (height / left).powi(2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIDDLE: PaperPoint = PaperPoint {
        columns: 170.0,
        rows: 170.0,
    };

    /// How far the sheet reaches along the columns and along the rows, in degrees.
    const SHEET: (f64, f64) = (340.0, 300.0);

    #[test]
    fn a_steady_room_changes_nothing_anywhere_at_any_time() {
        let room = RoomLight::default();
        assert!(room.is_steady());
        for seconds in [0.0, 12.5, 400.0] {
            assert_eq!(room.factor(seconds, MIDDLE, (400.0, 400.0), true), 1.0);
        }
    }

    #[test]
    fn the_harsh_room_swings_by_its_cited_figures() {
        let room = RoomLight::harsh();
        assert_eq!(room.lift_mm, 0.0, "the sheet stays flat");
        // A quarter of the drift's swing in, the lamp off: 7.5 % up.
        let drift = room.factor(22.5, MIDDLE, SHEET, false);
        assert!((drift - 1.075).abs() < 1e-9, "{drift}");
        // The lamp on (from 30 s): brighter at the far side than at the near one by 10 %.
        let near = room.factor(45.0, PaperPoint::new(0.0, 170.0), SHEET, false);
        let far = room.factor(45.0, PaperPoint::new(340.0, 170.0), SHEET, false);
        assert!((far / near - 1.20 / 1.10).abs() < 1e-9, "{near} {far}");
        // A shadow takes a fifth off whatever else the light does.
        let lit = room.factor(45.0, MIDDLE, SHEET, false);
        let shadowed = room.factor(45.0, MIDDLE, SHEET, true);
        assert!((shadowed / lit - 0.8).abs() < 1e-9);
    }

    #[test]
    fn a_lamp_by_the_rows_far_end_brightens_the_far_rows_and_leaves_the_columns_alike() {
        let room = RoomLight {
            lamp_brighter_along: SheetAxis::Rows,
            ..RoomLight::harsh()
        };
        let lit = |columns, rows| room.factor(45.0, PaperPoint::new(columns, rows), SHEET, false);
        assert!((lit(170.0, 300.0) / lit(170.0, 0.0) - 1.20 / 1.10).abs() < 1e-9);
        assert!((lit(340.0, 150.0) - lit(0.0, 150.0)).abs() < 1e-12);
    }

    #[test]
    fn a_lifted_corner_reads_brighter_near_it_until_it_settles() {
        let room = RoomLight {
            lift_mm: 1.0,
            ..RoomLight::default()
        };
        let corner = PaperPoint::new(320.0, 320.0);
        // 1 mm nearer a sensor 10 mm up: (10 / 9)², 23 % brighter.
        assert!((room.factor(5.0, corner, SHEET, false) - (10.0f64 / 9.0).powi(2)).abs() < 1e-9);
        assert_eq!(
            room.factor(5.0, PaperPoint::new(20.0, 20.0), SHEET, false),
            1.0
        );
        assert_eq!(room.factor(31.0, corner, SHEET, false), 1.0);
    }
}
