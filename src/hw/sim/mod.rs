//! A simulated robot: the gantry's motors with acceleration, backlash and hard ends, a pen over
//! a sheet of paper that keeps every stroke, a colour sensor that reads the ink under its spot
//! with noise, and the brick's buttons, touch sensor, screen, lights, speaker and battery.
//!
//! Time is virtual: the world moves only when the firmware sleeps on the [`SimClock`], one
//! millisecond step at a time, so a whole game runs in a few milliseconds of real time and
//! every run with the same seed is the same. Faults can be injected ([`Faults`]) to test that
//! the firmware stops safely and says what went wrong.

mod beside_sheet;
mod body;
mod devices;
pub mod human;
mod ink_totals;
mod motor;
pub mod paper;
pub mod picture;
mod room;
pub mod settings_file;

pub use body::{Reach, SimBody};
use devices::SimMotorDevice;
pub use devices::{PacedClock, SimClock, SimDevice};
pub use motor::{MotorFault, MotorPhysics, SimMotor};
pub use paper::{Author, Footprint, Paper, PaperLook, PaperPoint, Stroke};
pub use room::{RoomLight, SheetAxis};

use crate::config::{Axis, MotorKind};
use crate::hw::{Buttons, Frame, LightColour, Motor, Robot, StopAction, Tone, Wiring};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// A fault to inject into a simulated sensor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SensorFault {
    #[default]
    None,
    /// Reads fail from this read on (counting from 0), as when a cable comes loose.
    FailsAfter { reads: u64 },
}

/// Faults to inject, one per device.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Faults {
    pub columns: MotorFault,
    pub rows: MotorFault,
    pub pen: MotorFault,
    pub light: SensorFault,
    pub touch: SensorFault,
}

/// The simulated world and the machine's physics, beyond its build ([`SimBody`]): motor
/// dynamics, where it starts, the paper, the sensor's noise and timing, faults.
#[derive(Debug, Clone, PartialEq)]
pub struct SimSettings {
    pub step_ms: u64,
    pub backlash_deg: f64,
    /// The most each kind of motor can speed up or slow down with its load, in deg/s²: what
    /// a run follows where the firmware's ramps ask for more, or set none. Not from a primary
    /// source (docs/sensor.md, "The motors"): above pybricks' planned 3200 and 8000, so the
    /// firmware's default ramps are followed; a world file can set either lower.
    pub large_acceleration_deg_per_s2: f64,
    pub medium_acceleration_deg_per_s2: f64,
    /// Where the carriage and arm start, in paper degrees (the homed frame).
    pub start_columns_deg: f64,
    pub start_rows_deg: f64,
    /// Where the pen starts, in degrees below its top stop.
    pub start_pen_deg: f64,
    /// How far the far hard stops lie beyond the body's travel.
    pub end_margin_deg: f64,
    /// The pen touches the paper this far above its down position ([`SimBody::pen_down_deg`]).
    pub pen_contact_above_down_deg: f64,
    /// The paper (on the table) stops the pen where it touches, as on a real robot, so a pen
    /// sent below the paper stalls there; false lets it pass through to its set depth.
    pub paper_stops_pen: bool,
    /// The speed a duty cycle gives the axes, as a share of the no-load speed (see
    /// [`MotorPhysics::duty_speed_factor`]); below 1 for a heavy gantry or a low battery.
    pub axis_duty_speed_factor: f64,
    pub look: PaperLook,
    /// The sensor's footprint, in mm, if not the body's ([`SimBody::sensor_spot_mm`]): a
    /// robot whose config believes one spot while the sensor sees another.
    pub sensor_spot_mm: Option<f64>,
    /// Each reading is off by up to this much, uniformly.
    pub sensor_noise_percent: f64,
    /// The colour sensor measures every this many ms, plus up to `sensor_jitter_ms` more each
    /// time, and a read returns its latest measurement, which is up to that old (ev3dev polls
    /// UART sensors every 10 ms, and a busy brick serves them later). 0: every read measures.
    pub sensor_period_ms: u64,
    pub sensor_jitter_ms: u64,
    /// Each read of a motor's or a sensor's attribute takes this many ms, plus up to
    /// `read_latency_jitter_ms` more, and the world moves on meanwhile: on the brick each is a
    /// system call into sysfs on a 300 MHz CPU, later when the CPU is busy.
    pub read_latency_ms: u64,
    pub read_latency_jitter_ms: u64,
    /// All readings are scaled by this (below 1: a dim sensor or grey paper).
    pub sensor_gain: f64,
    /// How the room's light changes while the robot plays (default: steady).
    pub room: RoomLight,
    pub battery_v: f32,
    pub seed: u64,
    pub faults: Faults,
}

impl Default for SimSettings {
    fn default() -> Self {
        SimSettings {
            step_ms: 1,
            backlash_deg: 2.0,
            large_acceleration_deg_per_s2: 6000.0,
            medium_acceleration_deg_per_s2: 10000.0,
            start_columns_deg: 230.0,
            start_rows_deg: 160.0,
            start_pen_deg: 12.0,
            end_margin_deg: 30.0,
            pen_contact_above_down_deg: 4.0,
            paper_stops_pen: true,
            axis_duty_speed_factor: 1.0,
            look: PaperLook::default(),
            sensor_spot_mm: None,
            sensor_noise_percent: 3.0,
            sensor_period_ms: 10,
            sensor_jitter_ms: 4,
            read_latency_ms: 1,
            read_latency_jitter_ms: 2,
            sensor_gain: 1.0,
            room: RoomLight::default(),
            battery_v: 7.9,
            seed: 1,
            faults: Faults::default(),
        }
    }
}

/// Everything simulated, behind one lock shared by all the device handles.
pub struct World {
    time_ms: u64,
    step_ms: u64,
    motors: [SimMotor; 3],
    /// Output coordinate of each axis where the homed zero should be (its stop plus back-off).
    paper_zero_deg: [f64; 3],
    pen_contact_deg: f64,
    sensor_offset: (f64, f64),
    paper: Paper,
    noise_percent: f64,
    gain: f64,
    room: RoomLight,
    /// The columns axis's travel and the rows axis's: the lamp's unevenness spreads across
    /// one of them.
    sheet_extent_deg: (f64, f64),
    sensor_period_ms: u64,
    sensor_jitter_ms: u64,
    read_latency_ms: u64,
    read_latency_jitter_ms: u64,
    /// The sensor's latest measurement, and when the next one comes.
    light: Option<u8>,
    next_light_ms: u64,
    light_fault: SensorFault,
    light_reads: u64,
    touch_fault: SensorFault,
    touch_reads: u64,
    touch_pressed_from_ms: u64,
    touch_pressed_until_ms: u64,
    buttons: Buttons,
    buttons_from_ms: u64,
    buttons_until_ms: u64,
    screen: Option<Frame>,
    lights: (LightColour, LightColour),
    tones: Vec<(Duration, Tone)>,
    battery_v: f32,
    rng: ChaCha8Rng,
}

impl World {
    pub fn now(&self) -> Duration {
        Duration::from_millis(self.time_ms)
    }

    /// The time one read of an attribute takes: the world runs on meanwhile.
    fn spend_a_read(&mut self) {
        let jitter = if self.read_latency_jitter_ms > 0 {
            self.rng.random_range(0..=self.read_latency_jitter_ms)
        } else {
            0
        };
        let took = self.read_latency_ms + jitter;
        if took > 0 {
            self.advance(Duration::from_millis(took));
        }
    }

    /// Runs the world for at least `duration`.
    pub fn advance(&mut self, duration: Duration) {
        let steps = (duration.as_micros() as u64)
            .div_ceil(self.step_ms * 1000)
            .max(1);
        for _ in 0..steps {
            self.step();
        }
    }

    fn step(&mut self) {
        self.time_ms += self.step_ms;
        for motor in &mut self.motors {
            motor.step();
        }
        if self.motors[Axis::Pen as usize].output_deg() >= self.pen_contact_deg {
            let at = self.pen_point();
            self.paper.pen_at(Author::Robot, at);
        } else {
            self.paper.lift();
        }
        if self.sensor_period_ms > 0 && self.time_ms >= self.next_light_ms {
            self.light = Some(self.measure_light());
            let jitter = self.rng.random_range(0..=self.sensor_jitter_ms);
            self.next_light_ms = self.time_ms + self.sensor_period_ms + jitter;
        }
    }

    /// What the sensor sees under its spot now, in the room's light, with its noise.
    fn measure_light(&mut self) -> u8 {
        let at = self.sensor_point();
        let room = self.room.factor(
            self.time_ms as f64 / 1000.0,
            at,
            self.sheet_extent_deg,
            self.person_at_the_board(),
        );
        let clean = self.paper.reflected_percent(at) * self.gain * room;
        let noise = if self.noise_percent > 0.0 {
            self.rng
                .random_range(-self.noise_percent..=self.noise_percent)
        } else {
            0.0
        };
        (clean + noise).round().clamp(0.0, 100.0) as u8
    }

    /// A person stands at the board, shadowing it: from pressing the touch sensor until the
    /// room's `shadow_s` after letting go.
    fn person_at_the_board(&self) -> bool {
        let stepped_back = self.touch_pressed_until_ms + (self.room.shadow_s * 1000.0) as u64;
        self.touch_pressed_until_ms > 0
            && (self.touch_pressed_from_ms..stepped_back).contains(&self.time_ms)
    }

    /// Something blocks a motor from now on.
    pub fn jam(&mut self, axis: Axis) {
        self.motors[axis as usize].inject(MotorFault::Jammed);
    }

    /// An axis's pinion skips `deg` on its rack (worn teeth, a knock): the carriage is from
    /// now on that far short of where the encoder says, until the robot homes again.
    pub fn skip_teeth(&mut self, axis: Axis, deg: f64) {
        self.motors[axis as usize].skip(deg);
    }

    /// The sheet slides under the robot, by `columns_deg` and `rows_deg` away from each axis's
    /// end stop, ink and all.
    pub fn move_sheet(&mut self, columns_deg: f64, rows_deg: f64) {
        // The robot's frame over the paper shifts the other way.
        self.paper_zero_deg[Axis::Columns as usize] += columns_deg;
        self.paper_zero_deg[Axis::Rows as usize] += rows_deg;
    }

    /// Stops the motor as ev3dev's `stop` command does, down its ramp if one is set (the
    /// firmware's own stops, through [`crate::hw::Motor::stop`], are at once).
    pub fn stop_as_ev3dev(&mut self, axis: Axis, action: StopAction) {
        self.motors[axis as usize].stop(action);
    }

    pub fn motor(&self, axis: Axis) -> &SimMotor {
        &self.motors[axis as usize]
    }

    /// Where the pen is over the paper, in the homed frame.
    pub fn pen_point(&self) -> PaperPoint {
        PaperPoint::new(
            self.axis_paper_deg(Axis::Columns),
            self.axis_paper_deg(Axis::Rows),
        )
    }

    /// Where the colour sensor's spot is on the paper.
    pub fn sensor_point(&self) -> PaperPoint {
        let pen = self.pen_point();
        PaperPoint::new(
            pen.columns - self.sensor_offset.0,
            pen.rows - self.sensor_offset.1,
        )
    }

    /// An axis's position in the frame an ideal homing would set up.
    pub fn axis_paper_deg(&self, axis: Axis) -> f64 {
        self.motors[axis as usize].output_deg() - self.paper_zero_deg[axis as usize]
    }

    /// True when the pen touches the paper.
    pub fn pen_is_down(&self) -> bool {
        self.motors[Axis::Pen as usize].output_deg() >= self.pen_contact_deg
    }

    /// The motors that still have power applied (running or holding).
    pub fn driven_motors(&self) -> Vec<Axis> {
        Axis::ALL
            .into_iter()
            .filter(|&j| self.motors[j as usize].is_driven())
            .collect()
    }

    pub fn paper(&self) -> &Paper {
        &self.paper
    }

    pub fn paper_mut(&mut self) -> &mut Paper {
        &mut self.paper
    }

    /// The human presses the touch sensor and lets go after `hold`.
    pub fn press_touch(&mut self, hold: Duration) {
        self.press_touch_after(Duration::ZERO, hold);
    }

    /// The human presses the touch sensor `after` from now, and lets go `hold` later.
    pub fn press_touch_after(&mut self, after: Duration, hold: Duration) {
        self.touch_pressed_from_ms = self.time_ms + after.as_millis() as u64;
        self.touch_pressed_until_ms = self.touch_pressed_from_ms + hold.as_millis() as u64;
    }

    /// The human presses brick buttons and lets go after `hold`.
    pub fn press_buttons(&mut self, buttons: Buttons, hold: Duration) {
        self.press_buttons_after(Duration::ZERO, buttons, hold);
    }

    /// The human presses brick buttons `after` from now, and lets go `hold` later.
    pub fn press_buttons_after(&mut self, after: Duration, buttons: Buttons, hold: Duration) {
        self.buttons = buttons;
        self.buttons_from_ms = self.time_ms + after.as_millis() as u64;
        self.buttons_until_ms = self.buttons_from_ms + hold.as_millis() as u64;
    }

    /// The last frame the firmware showed on the LCD.
    pub fn screen(&self) -> Option<&Frame> {
        self.screen.as_ref()
    }

    pub fn lights(&self) -> (LightColour, LightColour) {
        self.lights
    }

    /// Every tone played, with when.
    pub fn tones(&self) -> &[(Duration, Tone)] {
        &self.tones
    }

    pub fn set_battery_v(&mut self, volts: f32) {
        self.battery_v = volts;
    }

    fn read_light(&mut self) -> Result<u8, SensorFault> {
        self.spend_a_read();
        self.light_reads += 1;
        if let SensorFault::FailsAfter { reads } = self.light_fault {
            if self.light_reads > reads {
                return Err(self.light_fault);
            }
        }
        match self.light {
            Some(latest) if self.sensor_period_ms > 0 => Ok(latest),
            _ => Ok(self.measure_light()),
        }
    }
}

/// A simulated robot: build one, hand [`SimRobot::robot`]'s devices to the firmware, and look at
/// or act on the world through [`SimRobot::world`].
#[derive(Clone)]
pub struct SimRobot {
    world: Arc<Mutex<World>>,
    /// The ports, for naming the devices as the brick would.
    wiring: Wiring,
}

impl SimRobot {
    /// Builds the machine `body` describes, in the world `settings` describes.
    pub fn new(body: &SimBody, settings: &SimSettings) -> SimRobot {
        let step_s = settings.step_ms as f64 / 1000.0;
        let kind = |axis: Axis| body.wiring.motor(axis).0;
        let physics = |axis: Axis, high_end_deg: f64, start_deg: f64, duty_speed_factor| {
            let kind: MotorKind = kind(axis);
            MotorPhysics {
                max_speed_deg_per_s: f64::from(kind.max_speed_deg_per_s()),
                acceleration_deg_per_s2: match kind {
                    MotorKind::Large => settings.large_acceleration_deg_per_s2,
                    MotorKind::Medium => settings.medium_acceleration_deg_per_s2,
                },
                backlash_deg: settings.backlash_deg,
                low_end_deg: 0.0,
                high_end_deg,
                start_deg,
                duty_speed_factor,
            }
        };
        let axis = |axis: Axis, start: f64, fault| {
            let reach = body.reach(axis);
            let far_end = reach.zero_deg + reach.travel_deg + settings.end_margin_deg;
            let start = (reach.zero_deg + start).max(0.0);
            SimMotor::new(
                physics(axis, far_end, start, settings.axis_duty_speed_factor),
                fault,
                step_s,
            )
        };
        let pen_down = body.pen.zero_deg + body.pen_down_deg;
        let pen_contact = pen_down - settings.pen_contact_above_down_deg;
        let pen_deepest = if settings.paper_stops_pen {
            pen_contact.min(body.pen.travel_deg)
        } else {
            body.pen.travel_deg
        };
        let motors = [
            axis(
                Axis::Columns,
                settings.start_columns_deg,
                settings.faults.columns,
            ),
            axis(Axis::Rows, settings.start_rows_deg, settings.faults.rows),
            SimMotor::new(
                physics(
                    Axis::Pen,
                    pen_deepest,
                    settings.start_pen_deg.min(pen_deepest),
                    1.0,
                ),
                settings.faults.pen,
                step_s,
            ),
        ];
        let margin = 50.0;
        let footprint = Footprint {
            scale: body.scale,
            spot_mm: settings.sensor_spot_mm.unwrap_or(body.sensor_spot_mm),
        };
        let paper = Paper::new(
            settings.look.clone(),
            footprint,
            PaperPoint::new(
                body.sheet_min_deg.columns - margin,
                body.sheet_min_deg.rows - margin,
            ),
            PaperPoint::new(
                body.columns.travel_deg + margin,
                body.rows.travel_deg + margin,
            ),
        )
        .with_sheet_from(body.sheet_min_deg);
        let world = World {
            time_ms: 0,
            step_ms: settings.step_ms.max(1),
            motors,
            paper_zero_deg: [body.columns.zero_deg, body.rows.zero_deg, body.pen.zero_deg],
            pen_contact_deg: pen_contact,
            sensor_offset: (body.sensor_offset_deg.columns, body.sensor_offset_deg.rows),
            paper,
            noise_percent: settings.sensor_noise_percent,
            gain: settings.sensor_gain,
            room: settings.room,
            sheet_extent_deg: (body.columns.travel_deg, body.rows.travel_deg),
            sensor_period_ms: settings.sensor_period_ms,
            sensor_jitter_ms: settings.sensor_jitter_ms,
            read_latency_ms: settings.read_latency_ms,
            read_latency_jitter_ms: settings.read_latency_jitter_ms,
            light: None,
            next_light_ms: 0,
            light_fault: settings.faults.light,
            light_reads: 0,
            touch_fault: settings.faults.touch,
            touch_reads: 0,
            touch_pressed_from_ms: 0,
            touch_pressed_until_ms: 0,
            buttons: Buttons::default(),
            buttons_from_ms: 0,
            buttons_until_ms: 0,
            screen: None,
            lights: (LightColour::Off, LightColour::Off),
            tones: Vec::new(),
            battery_v: settings.battery_v,
            rng: ChaCha8Rng::seed_from_u64(settings.seed),
        };
        SimRobot {
            world: Arc::new(Mutex::new(world)),
            wiring: body.wiring.clone(),
        }
    }

    /// The world, locked. Do not hold the guard while the firmware runs.
    pub fn world(&self) -> MutexGuard<'_, World> {
        lock(&self.world)
    }

    /// The gantry's devices and the virtual clock, for the firmware.
    pub fn robot(&self) -> Robot {
        let motor = |axis: Axis| -> Box<dyn Motor> {
            Box::new(SimMotorDevice {
                world: self.world.clone(),
                axis,
                name: format!("{} on {}", axis.motor_name(), self.wiring.motor(axis).1),
            })
        };
        Robot {
            columns: motor(Axis::Columns),
            rows: motor(Axis::Rows),
            pen: motor(Axis::Pen),
            light: Box::new(SimDevice::new(
                &self.world,
                format!("colour sensor on {}", self.wiring.colour_port),
            )),
            touch: Box::new(SimDevice::new(
                &self.world,
                format!("touch sensor on {}", self.wiring.touch_port),
            )),
            clock: Box::new(self.clock()),
        }
    }

    pub fn clock(&self) -> SimClock {
        SimClock {
            world: self.world.clone(),
        }
    }

    pub fn buttons(&self) -> SimDevice {
        SimDevice::new(&self.world, "brick buttons".into())
    }

    pub fn screen(&self) -> SimDevice {
        SimDevice::new(&self.world, "screen".into())
    }

    pub fn lights(&self) -> SimDevice {
        SimDevice::new(&self.world, "status lights".into())
    }

    pub fn speaker(&self) -> SimDevice {
        SimDevice::new(&self.world, "speaker".into())
    }

    pub fn battery(&self) -> SimDevice {
        SimDevice::new(&self.world, "battery".into())
    }
}

fn lock(world: &Mutex<World>) -> MutexGuard<'_, World> {
    // A panic elsewhere while holding the lock leaves a world that is still worth reading.
    world
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
