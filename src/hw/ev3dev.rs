//! The real brick: the [`crate::hw`] traits over ev3dev's sysfs classes, through
//! `ev3dev-lang-rust`.
//!
//! Devices are found by port and driver name, so a motor of the wrong kind on a port is reported
//! as missing, naming both ("no medium motor (pen lift) on outB"). Speeds and positions are in
//! degrees because LEGO's motors count 360 per turn; a motor that counts otherwise is refused
//! rather than silently scaled. Polarity is set once when a motor is opened, so that positive
//! always points away from the end stop the axis homes against.
//!
//! The screen goes through `ev3dev-lang-rust`'s framebuffer support. It brings the `image` crate
//! with every codec, but link-time optimisation keeps only the pixel buffer we use (measured in
//! the README's figures).

use crate::config::{MotorKind, Polarity, RobotConfig};
use crate::hw::{
    Battery, ButtonPad, Buttons, Frame, HwError, LightColour, Motor, MotorState, ReflectedLight,
    Robot, Screen, Speaker, StatusLights, StopAction, SystemClock, Tone, TouchSensor,
};
use ev3dev_lang_rust::motors::{LargeMotor, MediumMotor, MotorPort, TachoMotor};
use ev3dev_lang_rust::sensors::{ColorSensor, SensorPort, TouchSensor as Ev3Touch};
use ev3dev_lang_rust::{Ev3Error, Led, PowerSupply};
use std::process::Child;

fn motor_port(port: &str) -> Option<MotorPort> {
    Some(match port {
        "outA" => MotorPort::OutA,
        "outB" => MotorPort::OutB,
        "outC" => MotorPort::OutC,
        "outD" => MotorPort::OutD,
        _ => return None,
    })
}

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

/// Maps a lookup failure to "no such device on that port"; anything else names the device.
fn not_found(device: &str, port: &str) -> impl Fn(Ev3Error) -> HwError {
    let (device, port) = (device.to_string(), port.to_string());
    move |error| match error {
        // No such device; or no such class at all, as on a machine that is not a brick.
        Ev3Error::NotConnected { .. } => HwError::NotFound {
            device: device.clone(),
            port: port.clone(),
        },
        Ev3Error::InternalError { msg } if msg.contains("os error 2)") => HwError::NotFound {
            device: device.clone(),
            port: port.clone(),
        },
        other => HwError::failed(&device, describe(&other)),
    }
}

/// ev3dev-lang-rust's messages ("InternalError: No such device (os error 19)!") trimmed to
/// the part a person can use.
fn describe(error: &Ev3Error) -> String {
    match error {
        Ev3Error::InternalError { msg } => msg.trim_end_matches('!').to_string(),
        Ev3Error::NotConnected { device, port } => format!("{device} not connected ({port:?})"),
        Ev3Error::MultipleMatches { device, ports } => format!("several {device} on {ports:?}"),
    }
}

/// A tacho motor on an output port.
pub struct Ev3Motor {
    motor: TachoMotor,
    name: String,
}

impl Ev3Motor {
    /// Opens the motor of `kind` on `port`, for `role` ("columns axis"), and sets its polarity.
    pub fn open(
        role: &str,
        kind: MotorKind,
        port: &str,
        polarity: Polarity,
    ) -> Result<Ev3Motor, HwError> {
        let device = format!("{} ({role})", kind.describe());
        let Some(output) = motor_port(port) else {
            return Err(HwError::NotFound {
                device,
                port: port.to_string(),
            });
        };
        let motor: TachoMotor = match kind {
            MotorKind::Large => LargeMotor::get(output)
                .map_err(not_found(&device, port))?
                .into(),
            MotorKind::Medium => MediumMotor::get(output)
                .map_err(not_found(&device, port))?
                .into(),
        };
        let name = format!("{device} on {port}");
        let opened = Ev3Motor { motor, name };
        let counts = opened
            .motor
            .get_count_per_rot()
            .map_err(|e| opened.error(e))?;
        if counts != 360 {
            return Err(HwError::failed(
                &opened.name,
                format!("it counts {counts} per turn; this firmware expects LEGO's 360"),
            ));
        }
        opened
            .motor
            .set_polarity(match polarity {
                Polarity::Normal => TachoMotor::POLARITY_NORMAL,
                Polarity::Inversed => TachoMotor::POLARITY_INVERSED,
            })
            .map_err(|e| opened.error(e))?;
        Ok(opened)
    }

    fn error(&self, error: Ev3Error) -> HwError {
        let message = describe(&error);
        // A device unplugged mid-run: its sysfs files answer ENODEV, or are gone.
        if message.contains("os error 19") || message.contains("os error 2)") {
            HwError::Disconnected {
                device: self.name.clone(),
            }
        } else {
            HwError::failed(&self.name, message)
        }
    }
}

impl Motor for Ev3Motor {
    fn run_to_position(&mut self, target_deg: i32, speed_deg_per_s: u32) -> Result<(), HwError> {
        let m = &self.motor;
        let speed = i32::try_from(speed_deg_per_s).unwrap_or(i32::MAX);
        m.set_speed_sp(speed)
            .and_then(|()| m.set_stop_action(TachoMotor::STOP_ACTION_HOLD))
            .and_then(|()| m.run_to_abs_pos(Some(target_deg)))
            .map_err(|e| self.error(e))
    }

    fn run_duty(&mut self, duty_percent: i8) -> Result<(), HwError> {
        let m = &self.motor;
        m.set_duty_cycle_sp(i32::from(duty_percent.clamp(-100, 100)))
            .and_then(|()| m.run_direct())
            .map_err(|e| self.error(e))
    }

    fn stop(&mut self, action: StopAction) -> Result<(), HwError> {
        let m = &self.motor;
        let action = match action {
            StopAction::Coast => TachoMotor::STOP_ACTION_COAST,
            StopAction::Brake => TachoMotor::STOP_ACTION_BRAKE,
            StopAction::Hold => TachoMotor::STOP_ACTION_HOLD,
        };
        m.set_stop_action(action)
            .and_then(|()| m.stop())
            .map_err(|e| self.error(e))
    }

    fn position_deg(&mut self) -> Result<i32, HwError> {
        self.motor.get_position().map_err(|e| self.error(e))
    }

    fn set_position_deg(&mut self, position_deg: i32) -> Result<(), HwError> {
        self.motor
            .set_position(position_deg)
            .map_err(|e| self.error(e))
    }

    fn speed_deg_per_s(&mut self) -> Result<i32, HwError> {
        self.motor.get_speed().map_err(|e| self.error(e))
    }

    fn state(&mut self) -> Result<MotorState, HwError> {
        let flags = self.motor.get_state().map_err(|e| self.error(e))?;
        let has = |flag: &str| flags.iter().any(|f| f == flag);
        Ok(MotorState {
            running: has(TachoMotor::STATE_RUNNING),
            ramping: has(TachoMotor::STATE_RAMPING),
            holding: has(TachoMotor::STATE_HOLDING),
            stalled: has(TachoMotor::STATE_STALLED),
            overloaded: has(TachoMotor::STATE_OVERLOADED),
        })
    }
}

/// The colour sensor, switched to reflected-light mode when opened.
pub struct Ev3ColourSensor {
    sensor: ColorSensor,
    name: String,
}

impl Ev3ColourSensor {
    pub fn open(port: &str) -> Result<Ev3ColourSensor, HwError> {
        let device = "colour sensor";
        let sensor =
            ColorSensor::get(sensor_port(device, port)?).map_err(not_found(device, port))?;
        let name = format!("{device} on {port}");
        sensor
            .set_mode_col_reflect()
            .map_err(|e| HwError::failed(&name, describe(&e)))?;
        Ok(Ev3ColourSensor { sensor, name })
    }
}

impl ReflectedLight for Ev3ColourSensor {
    fn reflected_percent(&mut self) -> Result<u8, HwError> {
        use ev3dev_lang_rust::sensors::Sensor;
        let value = self
            .sensor
            .get_value0()
            .map_err(|e| HwError::failed(&self.name, describe(&e)))?;
        Ok(value.clamp(0, 100) as u8)
    }
}

pub struct Ev3TouchSensor {
    sensor: Ev3Touch,
    name: String,
}

impl Ev3TouchSensor {
    pub fn open(port: &str) -> Result<Ev3TouchSensor, HwError> {
        let device = "touch sensor";
        let sensor = Ev3Touch::get(sensor_port(device, port)?).map_err(not_found(device, port))?;
        Ok(Ev3TouchSensor {
            sensor,
            name: format!("{device} on {port}"),
        })
    }
}

impl TouchSensor for Ev3TouchSensor {
    fn is_pressed(&mut self) -> Result<bool, HwError> {
        self.sensor
            .get_pressed_state()
            .map_err(|e| HwError::failed(&self.name, describe(&e)))
    }
}

/// Opens the gantry's motors and sensors as the config says, with the system clock.
pub fn open_robot(config: &RobotConfig) -> Result<Robot, HwError> {
    Ok(Robot {
        columns: Box::new(Ev3Motor::open(
            "columns axis",
            config.columns.kind,
            &config.columns.port,
            config.columns.polarity,
        )?),
        rows: Box::new(Ev3Motor::open(
            "rows axis",
            config.rows.kind,
            &config.rows.port,
            config.rows.polarity,
        )?),
        pen: Box::new(Ev3Motor::open(
            "pen lift",
            config.pen.kind,
            &config.pen.port,
            config.pen.polarity,
        )?),
        light: Box::new(Ev3ColourSensor::open(&config.sensing.colour_port)?),
        touch: Box::new(Ev3TouchSensor::open(&config.touch_port)?),
        clock: Box::new(SystemClock::new()),
    })
}

/// The brick's buttons (read from the kernel's input device).
pub struct Ev3Buttons {
    buttons: ev3dev_lang_rust::Button,
}

impl Ev3Buttons {
    pub fn open() -> Result<Ev3Buttons, HwError> {
        let buttons = ev3dev_lang_rust::Button::new()
            .map_err(|e| HwError::failed("brick buttons", describe(&e)))?;
        Ok(Ev3Buttons { buttons })
    }
}

impl ButtonPad for Ev3Buttons {
    fn pressed(&mut self) -> Result<Buttons, HwError> {
        self.buttons.process();
        let b = &self.buttons;
        Ok(Buttons {
            up: b.is_up(),
            down: b.is_down(),
            left: b.is_left(),
            right: b.is_right(),
            centre: b.is_enter(),
            back: b.is_backspace(),
        })
    }
}

/// The two status lights.
pub struct Ev3Lights {
    led: Led,
}

impl Ev3Lights {
    pub fn open() -> Result<Ev3Lights, HwError> {
        Ok(Ev3Lights {
            led: Led::new().map_err(|e| HwError::failed("status lights", describe(&e)))?,
        })
    }
}

impl StatusLights for Ev3Lights {
    fn set(&mut self, left: LightColour, right: LightColour) -> Result<(), HwError> {
        let colour = |c: LightColour| match c {
            LightColour::Off => Led::COLOR_OFF,
            LightColour::Green => Led::COLOR_GREEN,
            LightColour::Red => Led::COLOR_RED,
            LightColour::Amber => Led::COLOR_AMBER,
        };
        self.led
            .set_left_color(colour(left))
            .and_then(|()| self.led.set_right_color(colour(right)))
            .map_err(|e| HwError::failed("status lights", describe(&e)))
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
            .map(|t| (t.frequency_hz as f32, t.duration_ms as i32, 0))
            .collect();
        let child = ev3dev_lang_rust::sound::tone_sequence(&sequence)
            .map_err(|e| HwError::failed("speaker", describe(&e)))?;
        self.playing.push(child);
        Ok(())
    }
}

/// The battery, through ev3dev's power-supply class.
pub struct Ev3Battery {
    supply: PowerSupply,
}

impl Ev3Battery {
    pub fn open() -> Result<Ev3Battery, HwError> {
        Ok(Ev3Battery {
            supply: PowerSupply::new().map_err(|e| HwError::failed("battery", describe(&e)))?,
        })
    }
}

impl Battery for Ev3Battery {
    fn voltage_v(&mut self) -> Result<f32, HwError> {
        let microvolts = self
            .supply
            .get_voltage_now()
            .map_err(|e| HwError::failed("battery", describe(&e)))?;
        Ok(microvolts as f32 / 1_000_000.0)
    }
}

/// The LCD, through ev3dev's framebuffer (/dev/fb0).
pub struct Ev3Screen {
    screen: ev3dev_lang_rust::Screen,
}

impl Ev3Screen {
    pub fn open() -> Result<Ev3Screen, HwError> {
        let screen = ev3dev_lang_rust::Screen::new()
            .map_err(|e| HwError::failed("LCD (/dev/fb0)", describe(&e)))?;
        Ok(Ev3Screen { screen })
    }
}

impl Screen for Ev3Screen {
    fn show(&mut self, frame: &Frame) -> Result<(), HwError> {
        let image = &mut self.screen.image;
        // The framebuffer's lines may be wider than the 178 pixels the LCD shows.
        let width = image.width().min(Frame::WIDTH as u32);
        let height = image.height().min(Frame::HEIGHT as u32);
        for y in 0..height {
            for x in 0..width {
                let level = if frame.is_black(x as i32, y as i32) {
                    0
                } else {
                    255
                };
                image.put_pixel(x, y, image::Rgb([level; 3]));
            }
        }
        self.screen.update();
        Ok(())
    }
}
