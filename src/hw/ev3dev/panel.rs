//! The brick's status lights, battery and speaker.

use super::attributes::Attributes;
use super::describe;
use crate::hw::{Battery, HwError, LightColour, Speaker, StatusLights, Tone};
use std::process::Child;

/// The four LEDs behind the two status lights, by their names on ev3dev-stretch and, failing
/// that, on ev3dev-jessie: (left red, left green, right red, right green).
const LED_NAMES: [[&str; 4]; 2] = [
    [
        "led0:red:brick-status",
        "led0:green:brick-status",
        "led1:red:brick-status",
        "led1:green:brick-status",
    ],
    [
        "ev3:left:red:ev3dev",
        "ev3:left:green:ev3dev",
        "ev3:right:red:ev3dev",
        "ev3:right:green:ev3dev",
    ],
];

/// The two status lights.
pub struct Ev3Lights {
    /// Left red, left green, right red, right green.
    leds: Vec<Led>,
}

/// One LED: its attributes, its full brightness (read once: the driver's `max_brightness`
/// never changes), and whether it was last set lit, if it was set.
struct Led {
    attributes: Attributes,
    full: u32,
    lit: Option<bool>,
}

impl Ev3Lights {
    /// Opens the lights and takes them over: each LED's trigger is set to `none`, or the
    /// heartbeat brickrun leaves on them would keep blinking through our colours.
    pub fn open() -> Result<Ev3Lights, HwError> {
        let mut last_error = None;
        for names in LED_NAMES {
            let opened: Result<Vec<Led>, HwError> = names
                .iter()
                .map(|name| {
                    let attributes = Attributes::open(
                        "leds",
                        name,
                        "status lights",
                        &["trigger", "brightness", "max_brightness"],
                    )?;
                    let full = attributes.get("max_brightness")?;
                    Ok(Led {
                        attributes,
                        full,
                        lit: None,
                    })
                })
                .collect();
            match opened {
                Ok(leds) => {
                    for led in &leds {
                        led.attributes.set("trigger", "none")?;
                    }
                    return Ok(Ev3Lights { leds });
                }
                Err(error) => last_error = Some(error),
            }
        }
        Err(last_error.unwrap_or_else(|| HwError::failed("status lights", "no LEDs")))
    }
}

impl StatusLights for Ev3Lights {
    /// Writes only the LEDs that change: the lights change with nearly every screen, and
    /// each write is a system call the brick's CPU pays for.
    fn set(&mut self, left: LightColour, right: LightColour) -> Result<(), HwError> {
        let red_green = |c: LightColour| match c {
            LightColour::Off => (false, false),
            LightColour::Green => (false, true),
            LightColour::Red => (true, false),
            LightColour::Amber => (true, true),
        };
        let (left_red, left_green) = red_green(left);
        let (right_red, right_green) = red_green(right);
        for (led, on) in self
            .leds
            .iter_mut()
            .zip([left_red, left_green, right_red, right_green])
        {
            if led.lit == Some(on) {
                continue;
            }
            // Unknown until the write is known to have taken.
            led.lit = None;
            led.attributes
                .set("brightness", if on { led.full } else { 0 })?;
            led.lit = Some(on);
        }
        Ok(())
    }
}

/// The speaker, through ev3dev's `beep`; tones play in the background.
#[derive(Default)]
pub struct Ev3Speaker {
    playing: Vec<Child>,
}

impl Speaker for Ev3Speaker {
    fn play(&mut self, tones: &[Tone]) -> Result<(), HwError> {
        // Collect the finished `beep` processes so they do not pile up.
        self.playing
            .retain_mut(|child| matches!(child.try_wait(), Ok(None)));
        let sequence: Vec<(f32, i32, i32)> = tones
            .iter()
            .map(|t| {
                (
                    t.frequency_hz as f32,
                    i32::try_from(t.duration_ms).unwrap_or(i32::MAX),
                    0,
                )
            })
            .collect();
        let child = ev3dev_lang_rust::sound::tone_sequence(&sequence)
            .map_err(|e| HwError::failed("speaker", describe(&e)))?;
        self.playing.push(child);
        Ok(())
    }
}

/// The battery, through ev3dev's power-supply class (its name on ev3dev-stretch, then jessie).
pub struct Ev3Battery {
    attributes: Attributes,
}

impl Ev3Battery {
    pub fn open() -> Result<Ev3Battery, HwError> {
        Attributes::open(
            "power_supply",
            "lego-ev3-battery",
            "battery",
            &["voltage_now"],
        )
        .or_else(|_| {
            Attributes::open(
                "power_supply",
                "legoev3-battery",
                "battery",
                &["voltage_now"],
            )
        })
        .map(|attributes| Ev3Battery { attributes })
    }
}

impl Battery for Ev3Battery {
    fn voltage_v(&mut self) -> Result<f32, HwError> {
        let microvolts: i64 = self.attributes.get("voltage_now")?;
        Ok(microvolts as f32 / 1_000_000.0)
    }
}
