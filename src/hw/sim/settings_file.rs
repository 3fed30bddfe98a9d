//! The simulated world's settings as a file (`--world FILE` for `sim`, `demo` and
//! `calibrate --sim`): everything that shapes what the firmware sees, so a robot built or lit
//! differently from the default, or a person with another pen, can be tried without code.
//!
//! Every field is optional and defaults to [`SimSettings::default`]'s value, which is meant to
//! be no kinder than a real brick (each figure's source and range: `docs/sensor.md`): a
//! fine-point marker for the person, the sensor's footprint as the robot config gives it
//! (12 mm by default, the wide end of a real sensor's), a sensor that measures every 10 ms plus
//! jitter and is read back stale, 3 % noise, paper that stops the pen 4 degrees above its set
//! depth. `ev3-tictactoe sim --world FILE` with `{}` is the
//! default world.

use super::{PaperLook, RoomLight, SimSettings};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The settings a world file may hold; each missing one keeps the default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WorldFile {
    /// The human's pen line, in mm (default: 1, a fine-point marker; a ballpoint is 0.5, a
    /// fine-liner 0.3, a broad marker 2 to 3).
    pub human_pen_width_mm: f64,
    /// The human's ink, reflected light in percent (default: 10; a pencil is about 52).
    pub human_ink_percent: f64,
    /// The robot's pen line, in mm (default: 1).
    pub robot_pen_width_mm: f64,
    /// The robot's ink, in percent (default: 10).
    pub robot_ink_percent: f64,
    /// Blank paper's reflected light, in percent (default: 70), and how much it varies across
    /// the sheet (default: 6).
    pub paper_percent: f64,
    pub paper_variation_percent: f64,
    /// What lies beside the sheet, beyond its corner nearest the axes' zero, where the parked
    /// sensor looks, reflected light in percent (default: null, the sheet reaches further than
    /// the robot; a dark table is about 5).
    pub beside_sheet_percent: Option<f64>,
    /// The diameter of the patch the sensor averages over, in mm (default: null, the robot
    /// config's `sensing.spot_mm`, so the robot knows its own sensor); a figure here is a sensor
    /// mounted otherwise than the config believes.
    pub sensor_spot_mm: Option<f64>,
    /// Each reading is off by up to this much, uniformly, in percent (default: 3).
    pub sensor_noise_percent: f64,
    /// All readings are scaled by this: below 1, a dim sensor or grey paper (default: 1).
    pub sensor_gain: f64,
    /// The sensor measures every this many ms (default: 10), plus up to `sensor_jitter_ms`
    /// (default: 4); 0 measures at every read.
    pub sensor_period_ms: u64,
    pub sensor_jitter_ms: u64,
    /// Each read of a motor's or sensor's attribute takes this many ms (default: 1) plus up to
    /// `read_latency_jitter_ms` (default: 2) more, while the world moves on.
    pub read_latency_ms: u64,
    pub read_latency_jitter_ms: u64,
    /// The paper stops the pen (default: true), this far above its set depth (default: 4).
    pub paper_stops_pen: bool,
    pub pen_contact_above_down_deg: f64,
    /// The axes' speed for a duty cycle, as a share of no-load speed (default: 1).
    pub axis_duty_speed_factor: f64,
    /// The most a large motor (the axes) and a medium one (the pen) can speed up or slow down
    /// with their loads, in deg/s² (defaults: 6000 and 10000): below the robot config's
    /// ramps, a run cannot follow them and overshoots its target.
    pub large_motor_acceleration_deg_per_s2: f64,
    pub medium_motor_acceleration_deg_per_s2: f64,
    /// The battery's voltage (default: 7.9).
    pub battery_v: f32,
    /// How the room's light changes (default: steady): an object of [`RoomLight`]'s fields,
    /// such as `{"shadow_percent": 20, "drift_percent": 15}`; docs/sensor.md gives the harsh
    /// end of each.
    pub room: RoomLight,
}

impl Default for WorldFile {
    fn default() -> Self {
        WorldFile::from_settings(&SimSettings::default())
    }
}

impl WorldFile {
    fn from_settings(s: &SimSettings) -> WorldFile {
        WorldFile {
            human_pen_width_mm: s.look.human_pen_width_mm,
            human_ink_percent: s.look.human_ink_percent,
            robot_pen_width_mm: s.look.pen_width_mm,
            robot_ink_percent: s.look.ink_percent,
            paper_percent: s.look.white_percent,
            paper_variation_percent: s.look.white_variation_percent,
            beside_sheet_percent: s.look.beside_sheet_percent,
            sensor_spot_mm: s.sensor_spot_mm,
            sensor_noise_percent: s.sensor_noise_percent,
            room: s.room,
            sensor_gain: s.sensor_gain,
            sensor_period_ms: s.sensor_period_ms,
            sensor_jitter_ms: s.sensor_jitter_ms,
            read_latency_ms: s.read_latency_ms,
            read_latency_jitter_ms: s.read_latency_jitter_ms,
            paper_stops_pen: s.paper_stops_pen,
            pen_contact_above_down_deg: s.pen_contact_above_down_deg,
            axis_duty_speed_factor: s.axis_duty_speed_factor,
            large_motor_acceleration_deg_per_s2: s.large_acceleration_deg_per_s2,
            medium_motor_acceleration_deg_per_s2: s.medium_acceleration_deg_per_s2,
            battery_v: s.battery_v,
        }
    }

    /// Reads and checks a world file; errors name the field.
    pub fn load(path: &Path) -> Result<WorldFile, String> {
        let shown = path.display();
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the world file {shown}: {e}"))?;
        // An object, its keys once each: serde would also take a list of the fields in order.
        let value =
            crate::strict_json::parse(&text).map_err(|e| format!("world file {shown}: {e}"))?;
        if !value.is_object() {
            return Err(format!(
                "world file {shown}: must be a JSON object of settings, such as {{\"sensor_noise_percent\": 3}}"
            ));
        }
        let world: WorldFile = serde_path_to_error::deserialize(value)
            .map_err(|e| format!("world file {shown}: {}: {}", e.path(), e.inner()))?;
        world
            .check()
            .map_err(|problem| format!("world file {shown}: {problem}"))?;
        Ok(world)
    }

    fn check(&self) -> Result<(), String> {
        let within = |name: &str, value: f64, low: f64, high: f64| {
            if (low..=high).contains(&value) {
                Ok(())
            } else {
                Err(format!(
                    "{name} is {value}; it must be from {low} to {high}"
                ))
            }
        };
        within("human_pen_width_mm", self.human_pen_width_mm, 0.1, 10.0)?;
        within("robot_pen_width_mm", self.robot_pen_width_mm, 0.1, 10.0)?;
        within("human_ink_percent", self.human_ink_percent, 0.0, 100.0)?;
        within("robot_ink_percent", self.robot_ink_percent, 0.0, 100.0)?;
        within("paper_percent", self.paper_percent, 1.0, 100.0)?;
        within(
            "paper_variation_percent",
            self.paper_variation_percent,
            0.0,
            30.0,
        )?;
        if let Some(beside) = self.beside_sheet_percent {
            within("beside_sheet_percent", beside, 0.0, 100.0)?;
        }
        if let Some(spot) = self.sensor_spot_mm {
            within("sensor_spot_mm", spot, 2.0, 30.0)?;
        }
        within("sensor_noise_percent", self.sensor_noise_percent, 0.0, 30.0)?;
        within("sensor_gain", self.sensor_gain, 0.05, 2.0)?;
        within(
            "sensor_period_ms",
            self.sensor_period_ms as f64,
            0.0,
            1000.0,
        )?;
        within(
            "sensor_jitter_ms",
            self.sensor_jitter_ms as f64,
            0.0,
            1000.0,
        )?;
        within("read_latency_ms", self.read_latency_ms as f64, 0.0, 100.0)?;
        within(
            "read_latency_jitter_ms",
            self.read_latency_jitter_ms as f64,
            0.0,
            100.0,
        )?;
        within(
            "pen_contact_above_down_deg",
            self.pen_contact_above_down_deg,
            -20.0,
            20.0,
        )?;
        within(
            "axis_duty_speed_factor",
            self.axis_duty_speed_factor,
            0.05,
            1.0,
        )?;
        for (name, value) in [
            (
                "large_motor_acceleration_deg_per_s2",
                self.large_motor_acceleration_deg_per_s2,
            ),
            (
                "medium_motor_acceleration_deg_per_s2",
                self.medium_motor_acceleration_deg_per_s2,
            ),
        ] {
            within(name, value, 100.0, 100_000.0)?;
        }
        within("battery_v", f64::from(self.battery_v), 0.0, 12.0)?;
        let room = &self.room;
        within("room.drift_percent", room.drift_percent, 0.0, 60.0)?;
        within("room.drift_period_s", room.drift_period_s, 1.0, 100_000.0)?;
        within("room.lamp_percent", room.lamp_percent, -60.0, 60.0)?;
        within("room.lamp_on_at_s", room.lamp_on_at_s, 0.0, 100_000.0)?;
        within(
            "room.lamp_unevenness_percent",
            room.lamp_unevenness_percent,
            -60.0,
            60.0,
        )?;
        within("room.shadow_percent", room.shadow_percent, 0.0, 90.0)?;
        within("room.shadow_s", room.shadow_s, 0.0, 600.0)?;
        within("room.sensor_height_mm", room.sensor_height_mm, 2.0, 50.0)?;
        within(
            "room.lift_mm",
            room.lift_mm,
            0.0,
            room.sensor_height_mm / 2.0,
        )?;
        within("room.lift_reach_deg", room.lift_reach_deg, 1.0, 10_000.0)?;
        within(
            "room.lift_settles_after_s",
            room.lift_settles_after_s,
            0.0,
            100_000.0,
        )
    }

    /// The simulator's settings with this world's, the rest (seed, faults, start positions)
    /// from `base`.
    pub fn apply(&self, base: SimSettings) -> SimSettings {
        SimSettings {
            look: PaperLook {
                white_percent: self.paper_percent,
                white_variation_percent: self.paper_variation_percent,
                ink_percent: self.robot_ink_percent,
                pen_width_mm: self.robot_pen_width_mm,
                human_pen_width_mm: self.human_pen_width_mm,
                human_ink_percent: self.human_ink_percent,
                beside_sheet_percent: self.beside_sheet_percent,
            },
            sensor_spot_mm: self.sensor_spot_mm,
            sensor_noise_percent: self.sensor_noise_percent,
            sensor_gain: self.sensor_gain,
            sensor_period_ms: self.sensor_period_ms,
            sensor_jitter_ms: self.sensor_jitter_ms,
            read_latency_ms: self.read_latency_ms,
            read_latency_jitter_ms: self.read_latency_jitter_ms,
            paper_stops_pen: self.paper_stops_pen,
            pen_contact_above_down_deg: self.pen_contact_above_down_deg,
            axis_duty_speed_factor: self.axis_duty_speed_factor,
            large_acceleration_deg_per_s2: self.large_motor_acceleration_deg_per_s2,
            medium_acceleration_deg_per_s2: self.medium_motor_acceleration_deg_per_s2,
            battery_v: self.battery_v,
            room: self.room,
            ..base
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_world_file_is_the_default_world() {
        let world: WorldFile = serde_json::from_str("{}").unwrap();
        assert_eq!(world.apply(SimSettings::default()), SimSettings::default());
    }

    #[test]
    fn a_world_file_changes_what_it_names_and_refuses_what_it_does_not_know() {
        let world: WorldFile =
            serde_json::from_str(r#"{"human_pen_width_mm": 0.5, "sensor_period_ms": 20}"#).unwrap();
        let settings = world.apply(SimSettings::default());
        assert_eq!(settings.look.human_pen_width_mm, 0.5);
        assert_eq!(settings.sensor_period_ms, 20);
        assert_eq!(settings.sensor_noise_percent, 3.0);
        assert!(serde_json::from_str::<WorldFile>(r#"{"pen_widht": 2}"#).is_err());
        let wide = WorldFile {
            sensor_noise_percent: 50.0,
            ..WorldFile::default()
        };
        assert_eq!(
            wide.check().unwrap_err(),
            "sensor_noise_percent is 50; it must be from 0 to 30"
        );
    }
}
