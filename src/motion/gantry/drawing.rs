//! The pen and drawing: lifting and lowering it, paths drawn on the sheet and never off it.

use super::{Finish, Gantry, Pace, Result};
use crate::config::AxisPoint;
use crate::motion::plan::{self, Path};
use crate::motion::{Axis, MotionError};
use std::time::Duration;

impl Gantry {
    /// Moves the pen to `target_deg`; going down, meeting the paper within
    /// `pen.contact_band_deg` above the target counts as arriving.
    pub(super) fn move_pen(&mut self, target_deg: i32) -> Result<()> {
        self.check_target(Axis::Pen, target_deg)?;
        let from_deg = self.motor(Axis::Pen).position_deg()?;
        let speed = self.config.pen.speed_deg_per_s;
        let mut leg = self.start_leg(Axis::Pen, from_deg, target_deg, speed, 0)?;
        if target_deg > from_deg {
            leg.touch_down_band_deg = Some(self.config.pen.contact_band_deg);
        }
        self.wait_for(&[leg], &mut |_, _, _| Ok(()))
    }

    pub fn pen_up(&mut self) -> Result<()> {
        self.guarded(|g| g.move_pen(0))
    }

    /// Lowers the pen where it is, if that is on the sheet.
    pub fn pen_down(&mut self) -> Result<()> {
        self.guarded(|g| {
            let at = g.position()?;
            g.check_on_sheet(at)?;
            g.move_pen(g.config.pen.down_deg)?;
            g.clock()
                .sleep(Duration::from_millis(g.config.pen.settle_ms));
            Ok(())
        })
    }

    pub(super) fn check_on_sheet(&self, at: AxisPoint) -> Result<()> {
        let (min, max) = (
            self.config.board.sheet_min_deg,
            self.config.board.sheet_max_deg,
        );
        let inside = (min.columns..=max.columns).contains(&at.columns)
            && (min.rows..=max.rows).contains(&at.rows);
        if inside {
            Ok(())
        } else {
            Err(MotionError::PenOutsideSheet { at })
        }
    }

    /// Draws each path: pen down at its first point, straight lines through the rest, pen up.
    /// Every point is checked against the sheet and the travel before anything moves.
    pub fn draw(&mut self, paths: &[Path]) -> Result<()> {
        self.guarded(|g| {
            for point in paths.iter().flatten() {
                g.check_on_sheet(*point)?;
                g.check_target(Axis::Columns, point.columns)?;
                g.check_target(Axis::Rows, point.rows)?;
            }
            for path in paths {
                let Some((&first, rest)) = path.split_first() else {
                    continue;
                };
                g.move_pen(0)?;
                g.move_to_unguarded(first, &mut |_, _, _| Ok(()))?;
                g.move_pen(g.config.pen.down_deg)?;
                g.clock()
                    .sleep(Duration::from_millis(g.config.pen.settle_ms));
                // Corners are rounded off by a few degrees rather than stopped at: the motors
                // are sent on a segment's length past each corner, so an O drawn as a polygon
                // flows at drawing speed instead of slowing down at every side.
                let blend = g.config.board.corner_blend_deg;
                let acceleration = g
                    .config
                    .acceleration_deg_per_s2(Axis::Columns)
                    .min(g.config.acceleration_deg_per_s2(Axis::Rows));
                let most = plan::cornering_speed(path, f64::from(acceleration))
                    .map(|speed| speed.floor().max(1.0) as u32);
                let mut from = first;
                for (i, &point) in rest.iter().enumerate() {
                    let finish = match rest.get(i + 1) {
                        None => Finish::EXACTLY,
                        Some(&next) => g.corner(from, point, next, blend),
                    };
                    g.move_both_from(from, point, Pace::Draw { most }, finish, &mut |_, _, _| {
                        Ok(())
                    })?;
                    from = point;
                }
                g.move_pen(0)?;
            }
            Ok(())
        })
    }

    /// How a drawing passes `corner` on its way from `from` to `next`: on through it when both
    /// axes turn the same way on both sides, each by more than the blend after it (so the next
    /// move has something to send each of them to), and the point a segment beyond is in reach.
    /// Otherwise an axis would reverse or stop there, so each axis slows down to it.
    pub(super) fn corner(
        &self,
        from: AxisPoint,
        corner: AxisPoint,
        next: AxisPoint,
        blend: i32,
    ) -> Finish {
        let within = AxisPoint::new(blend, blend);
        let before = (corner.columns - from.columns, corner.rows - from.rows);
        let after = (next.columns - corner.columns, next.rows - corner.rows);
        let same_way = before.0.signum() * after.0.signum() == 1
            && before.1.signum() * after.1.signum() == 1
            && after.0.abs() > blend
            && after.1.abs() > blend;
        let aim = AxisPoint::new(corner.columns + before.0, corner.rows + before.1);
        let in_reach = self.check_target(Axis::Columns, aim.columns).is_ok()
            && self.check_target(Axis::Rows, aim.rows).is_ok();
        if blend > 0 && same_way && in_reach {
            Finish::Through {
                aim,
                within_deg: blend,
            }
        } else {
            Finish::Within(within)
        }
    }
}
