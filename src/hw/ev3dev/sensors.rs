//! The colour sensor (in reflected-light mode) and the touch sensor, on input ports.

use super::attributes::{find_on_port, Attributes};
use crate::hw::{HwError, ReflectedLight, TouchSensor};
use ev3dev_lang_rust::sensors::SensorPort;

/// The input port named `port`, or "no `device` on `port`" if there is no such port.
fn sensor_port(device: &str, port: &str) -> Result<SensorPort, HwError> {
    Ok(match port {
        "in1" => SensorPort::In1,
        "in2" => SensorPort::In2,
        "in3" => SensorPort::In3,
        "in4" => SensorPort::In4,
        _ => {
            return Err(HwError::NotFound {
                device: device.into(),
                port: port.into(),
            })
        }
    })
}

/// Opens the `lego-sensor` of `driver` on `port` with `attributes` open.
fn open_sensor(
    device: &str,
    driver: &str,
    port: &str,
    attributes: &[&'static str],
) -> Result<Attributes, HwError> {
    let input = sensor_port(device, port)?;
    let folder = find_on_port("lego-sensor", &input, &[driver], device, port)?;
    Attributes::open(
        "lego-sensor",
        &folder,
        &format!("{device} on {port}"),
        attributes,
    )
}

/// Readings thrown away after switching the colour sensor's mode, 20 ms apart.
const MODE_SETTLE_READS: usize = 5;

/// The colour sensor, switched to reflected-light mode when opened.
pub struct Ev3ColourSensor {
    attributes: Attributes,
}

impl Ev3ColourSensor {
    pub fn open(port: &str) -> Result<Ev3ColourSensor, HwError> {
        let attributes = open_sensor("colour sensor", "lego-ev3-color", port, &["mode", "value0"])?;
        // Only a mode that differs is written: a write restarts the sensor's mode even when it
        // is the same one, and its first readings after that are stale.
        let mode: String = attributes.get("mode")?;
        if mode != "COL-REFLECT" {
            attributes.set("mode", "COL-REFLECT")?;
            // The first values after a mode switch can still be the old mode's (ev3dev issue
            // 1401): give the sensor a few of its 10 ms cycles and throw those values away.
            for _ in 0..MODE_SETTLE_READS {
                std::thread::sleep(std::time::Duration::from_millis(20));
                let _: i32 = attributes.get("value0")?;
            }
        }
        Ok(Ev3ColourSensor { attributes })
    }
}

impl ReflectedLight for Ev3ColourSensor {
    fn reflected_percent(&mut self) -> Result<u8, HwError> {
        let value: i32 = self.attributes.get("value0")?;
        Ok(value.clamp(0, 100) as u8)
    }
}

/// The touch sensor the human presses after a move.
pub struct Ev3TouchSensor {
    attributes: Attributes,
}

impl Ev3TouchSensor {
    pub fn open(port: &str) -> Result<Ev3TouchSensor, HwError> {
        let attributes = open_sensor("touch sensor", "lego-ev3-touch", port, &["value0"])?;
        Ok(Ev3TouchSensor { attributes })
    }
}

impl TouchSensor for Ev3TouchSensor {
    fn is_pressed(&mut self) -> Result<bool, HwError> {
        let value: i32 = self.attributes.get("value0")?;
        Ok(value != 0)
    }
}
