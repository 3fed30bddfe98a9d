//! An emulated EV3 brick, served over FUSE: ev3dev's sysfs classes and the device files the
//! program opens under /dev, behaving as ev3dev's kernel drivers do.
//!
//! Why FUSE and not a folder of files: sysfs takes each write as the whole new value (a plain
//! file would turn "coast" overwritten by "hold" into "holdt"), refuses what the driver refuses
//! (EBUSY, EINVAL), answers ENODEV for a device that has gone, and the buttons' input device
//! answers an ioctl. This filesystem does all of that, and logs every write and ioctl so tests
//! can check what the program did, in what order.
//!
//! What follows the kernel's sources (lego-linux-drivers' `tacho_motor_class.c` and
//! `legoev3_motor.c`): `reset` puts every set point, the polarity and the stop action back to
//! their defaults and stops the motor; writing `position` while the motor runs is EBUSY;
//! `speed_sp` above `max_speed` is EINVAL; polarity `inversed` negates positions, speeds and set
//! points; a motor reads `stalled` once it has been driven at speed 0 for more than 100 ms.
//!
//! Two ways to run the motors:
//! - [`Tree::default_robot`] alone: a run to a position arrives at once and holds, run-direct
//!   runs, stop stops. For checking the attributes written.
//! - with [`Physics`]: the project's simulated robot behind the files, run in real time, so the
//!   program homes against end stops, draws on a virtual sheet and reads it back through the
//!   colour sensor's `value0`, exactly as it would through a real brick's files.
//!
//! What FUSE cannot serve: `/dev/fb0`'s `FBIOGET_*SCREENINFO` ioctls carry no size in their
//! number, so FUSE passes no buffer for the answer; the LCD is therefore present but answers
//! those ioctls with ENOTTY, and the program must carry on without it (the LCD's pixel
//! encoding is tested on its own). KDSETMODE on the console reaches us, but fuser does not hand
//! over its argument, so the console logs the calls and their order, not the modes.

#![allow(dead_code)]

use ev3_tictactoe::config::Axis;
use ev3_tictactoe::config::RobotConfig;
use ev3_tictactoe::hw::sim::{SimBody, SimRobot, SimSettings};
use ev3_tictactoe::hw::{Robot, StopAction};
use fuser::{
    Errno, FileAttr, FileHandle, FileType, Filesystem, FopenFlags, INodeNo, IoctlFlags, LockOwner,
    MountOption, OpenFlags, ReplyAttr, ReplyData, ReplyDirectory, ReplyEntry, ReplyIoctl,
    ReplyOpen, ReplyWrite, Request, WriteFlags,
};
use nix::fcntl::{Flock, FlockArg};
use std::collections::{BTreeMap, HashMap};
use std::ffi::OsStr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, UNIX_EPOCH};

/// The device files under `dev/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceFile {
    /// The brick buttons' `gpio-keys` input device: answers EVIOCGKEY.
    Keys,
    /// The LCD's framebuffer: FUSE cannot answer its ioctls (see the module doc).
    Framebuffer,
    /// The console brickrun starts the program on: takes KDSETMODE.
    Console,
}

/// One node of the emulated tree.
#[derive(Debug, Clone)]
pub enum Node {
    Folder,
    Attribute { value: String, writable: bool },
    Device(DeviceFile),
}

/// EVIOCGKEY(96), as the program asks for it.
const EVIOCGKEY_96: u32 = 0x8060_4518;
const KDSETMODE: u32 = 0x4B3A;

/// The brick, by path from the mount point ("sys/class/tacho-motor/motor0/position").
#[derive(Default)]
pub struct Tree {
    pub nodes: BTreeMap<String, Node>,
    /// Every path ever made, so inode numbers (index + 1) stay put when a device goes away.
    paths: Vec<String>,
    /// Every write: (path, value), in order; refused writes are not logged.
    pub writes: Vec<(String, String)>,
    /// Every ioctl that reached a device file: (path, request), in order.
    pub ioctls: Vec<(String, u32)>,
    /// Keys held down (Linux key codes), each until its instant.
    pub keys_down: Vec<(u16, Instant)>,
    /// The robot behind the motor and sensor files, if it moves.
    pub physics: Option<Physics>,
}

pub const CLASS: &str = "sys/class";

impl Tree {
    fn register(&mut self, path: &str) {
        if !self.paths.iter().any(|p| p == path) {
            self.paths.push(path.to_string());
        }
    }

    pub fn folder(&mut self, path: &str) {
        self.register(path);
        self.nodes.insert(path.to_string(), Node::Folder);
    }

    pub fn attribute(&mut self, path: &str, value: &str, writable: bool) {
        self.register(path);
        self.nodes.insert(
            path.to_string(),
            Node::Attribute {
                value: value.to_string(),
                writable,
            },
        );
    }

    fn device(&mut self, path: &str, kind: DeviceFile) {
        self.register(path);
        self.nodes.insert(path.to_string(), Node::Device(kind));
    }

    /// The stored value of an attribute, by path under sys/class.
    pub fn value(&self, class_path: &str) -> String {
        match self.nodes.get(&format!("{CLASS}/{class_path}")) {
            Some(Node::Attribute { value, .. }) => value.clone(),
            other => panic!("no attribute {class_path}: {other:?}"),
        }
    }

    /// The motor folders powered (running or holding) now: by the physics when the brick has
    /// them, else by the `state` files.
    pub fn powered_motors(&mut self) -> Vec<String> {
        if let Some(physics) = &mut self.physics {
            physics.catch_up();
            let driven = physics.sim.world().driven_motors();
            let mut folders: Vec<String> = physics
                .motors
                .iter()
                .filter(|(_, (axis, _))| driven.contains(axis))
                .map(|(folder, _)| folder.clone())
                .collect();
            folders.sort();
            return folders;
        }
        ["motor0", "motor1", "motor2"]
            .into_iter()
            .filter(|m| !self.value(&format!("tacho-motor/{m}/state")).is_empty())
            .map(String::from)
            .collect()
    }

    /// Sets an attribute's stored value, by path under sys/class.
    pub fn set(&mut self, class_path: &str, new: &str) {
        self.store(&format!("{CLASS}/{class_path}"), new);
    }

    fn store(&mut self, path: &str, new: &str) {
        match self.nodes.get_mut(path) {
            Some(Node::Attribute { value, .. }) => *value = new.to_string(),
            other => panic!("no attribute {path}: {other:?}"),
        }
    }

    fn stored(&self, path: &str) -> String {
        match self.nodes.get(path) {
            Some(Node::Attribute { value, .. }) => value.clone(),
            _ => String::new(),
        }
    }

    /// Takes a device away, as pulling its cable does: its files answer ENODEV from now on.
    pub fn unplug(&mut self, class_path: &str) {
        let dir = format!("{CLASS}/{class_path}");
        let gone: Vec<String> = self
            .nodes
            .keys()
            .filter(|p| p.starts_with(&dir))
            .cloned()
            .collect();
        for path in gone {
            self.nodes.remove(&path);
        }
        if let Some(physics) = &mut self.physics {
            physics.unplug(class_path);
        }
    }

    /// Writes to `class_path` under sys/class, as a test's log shows them.
    pub fn writes_under(&self, class_path: &str) -> Vec<(String, String)> {
        let dir = format!("{CLASS}/{class_path}/");
        self.writes
            .iter()
            .filter(|(p, _)| p.starts_with(&dir))
            .map(|(p, v)| (p[dir.len()..].to_string(), v.clone()))
            .collect()
    }

    /// The last value written to `attribute` of the device at `class_path`.
    pub fn last_written(&self, class_path: &str, attribute: &str) -> Option<String> {
        self.writes_under(class_path)
            .into_iter()
            .rev()
            .find(|(path, _)| path == attribute)
            .map(|(_, value)| value)
    }

    /// A tacho motor as ev3dev shows it.
    pub fn motor(&mut self, name: &str, port: &str, driver: &str) {
        let dir = format!("{CLASS}/tacho-motor/{name}");
        self.folder(&dir);
        let max_speed = if driver == "lego-ev3-m-motor" {
            "1560"
        } else {
            "1050"
        };
        let read_only = [
            ("address", format!("ev3-ports:{port}")),
            ("driver_name", driver.to_string()),
            ("count_per_rot", "360".to_string()),
            ("max_speed", max_speed.to_string()),
            ("speed", "0".to_string()),
            ("state", String::new()),
            (
                "commands",
                "run-forever run-to-abs-pos run-to-rel-pos run-timed run-direct stop reset".into(),
            ),
        ];
        for (attribute, value) in read_only {
            self.attribute(&format!("{dir}/{attribute}"), &value, false);
        }
        for (attribute, value) in MOTOR_DEFAULTS {
            self.attribute(&format!("{dir}/{attribute}"), value, true);
        }
        self.attribute(&format!("{dir}/position"), "0", true);
    }

    pub fn sensor(&mut self, name: &str, port: &str, driver: &str, mode: &str) {
        let dir = format!("{CLASS}/lego-sensor/{name}");
        self.folder(&dir);
        self.attribute(
            &format!("{dir}/address"),
            &format!("ev3-ports:{port}"),
            false,
        );
        self.attribute(&format!("{dir}/driver_name"), driver, false);
        self.attribute(&format!("{dir}/mode"), mode, true);
        self.attribute(&format!("{dir}/value0"), "0", false);
        self.attribute(&format!("{dir}/num_values"), "1", false);
    }

    /// The brick with the robot of the default config: rows outA, pen outB, columns outC,
    /// colour in1, touch in4; LEDs with brickrun's heartbeat trigger, the battery, and the
    /// device files.
    pub fn default_robot() -> Tree {
        let mut tree = Tree::default();
        for folder in [
            "",
            "sys",
            CLASS,
            "sys/class/tacho-motor",
            "sys/class/lego-sensor",
            "sys/class/leds",
            "sys/class/power_supply",
            "sys/class/power_supply/lego-ev3-battery",
            "dev",
            "dev/input",
            "dev/input/by-path",
        ] {
            tree.folder(folder);
        }
        tree.motor("motor0", "outA", "lego-ev3-l-motor");
        tree.motor("motor1", "outB", "lego-ev3-m-motor");
        tree.motor("motor2", "outC", "lego-ev3-l-motor");
        tree.sensor("sensor0", "in1", "lego-ev3-color", "COL-COLOR");
        tree.sensor("sensor1", "in4", "lego-ev3-touch", "TOUCH");
        for led in [
            "led0:red:brick-status",
            "led0:green:brick-status",
            "led1:red:brick-status",
            "led1:green:brick-status",
        ] {
            let dir = format!("{CLASS}/leds/{led}");
            tree.folder(&dir);
            tree.attribute(&format!("{dir}/brightness"), "0", true);
            tree.attribute(&format!("{dir}/max_brightness"), "255", false);
            tree.attribute(&format!("{dir}/trigger"), "heartbeat", true);
        }
        tree.attribute(
            "sys/class/power_supply/lego-ev3-battery/voltage_now",
            "7512000",
            false,
        );
        tree.device(
            "dev/input/by-path/platform-gpio_keys-event",
            DeviceFile::Keys,
        );
        tree.device("dev/fb0", DeviceFile::Framebuffer);
        tree.device("dev/tty", DeviceFile::Console);
        tree
    }

    /// The same brick with the simulated robot behind its motors and sensors.
    pub fn moving_robot(config: &RobotConfig, settings: &SimSettings) -> Tree {
        let mut tree = Tree::default_robot();
        tree.physics = Some(Physics::new(config, settings));
        tree
    }

    /// Holds key `code` down for `hold`, from now.
    pub fn press_key(&mut self, code: u16, hold: Duration) {
        self.keys_down.push((code, Instant::now() + hold));
    }

    fn key_state(&mut self) -> [u8; 96] {
        let now = Instant::now();
        self.keys_down.retain(|&(_, until)| until > now);
        let mut state = [0u8; 96];
        for &(code, _) in &self.keys_down {
            state[usize::from(code / 8)] |= 1 << (code % 8);
        }
        state
    }

    /// The motor folder and attribute of a path under tacho-motor, if it is one.
    fn motor_attribute(path: &str) -> Option<(String, String)> {
        let rest = path.strip_prefix("sys/class/tacho-motor/")?;
        let (motor, attribute) = rest.split_once('/')?;
        Some((motor.to_string(), attribute.to_string()))
    }

    fn is_inversed(&self, motor: &str) -> bool {
        self.stored(&format!("{CLASS}/tacho-motor/{motor}/polarity")) == "inversed"
    }

    /// The value a read of `path` returns now.
    fn read(&mut self, path: &str) -> Option<String> {
        let stored = match self.nodes.get(path)? {
            Node::Attribute { value, .. } => value.clone(),
            _ => return None,
        };
        let motor = Tree::motor_attribute(path);
        let inversed = motor.as_ref().is_some_and(|(m, _)| self.is_inversed(m));
        if let Some(physics) = &mut self.physics {
            physics.catch_up();
            if let Some((motor, attribute)) = motor {
                if let Some(value) = physics.motor_reading(&motor, &attribute, inversed) {
                    return Some(value);
                }
            }
            if let Some(value) = physics.sensor_reading(path) {
                return Some(value);
            }
        }
        Some(stored)
    }

    /// Takes a write as the driver would: Ok to store and log it, or the errno it refuses.
    fn write(&mut self, path: &str, value: &str) -> Result<(), Errno> {
        let writable = matches!(
            self.nodes.get(path),
            Some(Node::Attribute { writable: true, .. })
        );
        if !writable {
            return Err(Errno::EACCES);
        }
        if let Some((motor, attribute)) = Tree::motor_attribute(path) {
            self.motor_write(&motor, &attribute, value)?;
        } else {
            self.store(path, value);
        }
        self.writes.push((path.to_string(), value.to_string()));
        Ok(())
    }

    fn motor_write(&mut self, motor: &str, attribute: &str, value: &str) -> Result<(), Errno> {
        let dir = format!("{CLASS}/tacho-motor/{motor}");
        let get = |tree: &Tree, a: &str| tree.stored(&format!("{dir}/{a}"));
        let number = |text: &str| text.trim().parse::<i32>().map_err(|_| Errno::EINVAL);
        if let Some(physics) = &mut self.physics {
            physics.catch_up();
        }
        let running = self.read(&format!("{dir}/state")).unwrap_or_default();
        let running = running.split_whitespace().any(|w| w == "running");
        match attribute {
            "speed_sp" => {
                let max: i32 = number(&get(self, "max_speed"))?;
                if number(value)?.abs() > max {
                    return Err(Errno::EINVAL);
                }
            }
            "duty_cycle_sp" if number(value)?.abs() > 100 => return Err(Errno::EINVAL),
            "position_sp" | "time_sp" => {
                number(value)?;
            }
            "polarity" if !matches!(value, "normal" | "inversed") => return Err(Errno::EINVAL),
            "stop_action" if !matches!(value, "coast" | "brake" | "hold") => {
                return Err(Errno::EINVAL)
            }
            "position" => {
                if running {
                    return Err(Errno::EBUSY);
                }
                let position = number(value)?;
                let sign = if self.is_inversed(motor) { -1 } else { 1 };
                if let Some(physics) = &mut self.physics {
                    physics.set_position(motor, sign * position);
                }
            }
            "command" => return self.command(motor, value),
            _ => {}
        }
        self.store(&format!("{dir}/{attribute}"), value);
        // A new duty cycle takes effect at once while the motor runs direct.
        if attribute == "duty_cycle_sp" && get(self, "command") == "run-direct" {
            self.run(motor, "run-direct")?;
        }
        Ok(())
    }

    /// Carries out a command; the command attribute keeps the last one for `duty_cycle_sp`.
    fn command(&mut self, motor: &str, command: &str) -> Result<(), Errno> {
        let dir = format!("{CLASS}/tacho-motor/{motor}");
        match command {
            "reset" => {
                for (attribute, value) in MOTOR_DEFAULTS {
                    self.store(&format!("{dir}/{attribute}"), value);
                }
                self.store(&format!("{dir}/position"), "0");
                if let Some(physics) = &mut self.physics {
                    physics.stop(motor, StopAction::Coast);
                    physics.set_position(motor, 0);
                }
            }
            "run-to-abs-pos" | "run-direct" | "stop" => {}
            _ => return Err(Errno::EINVAL),
        }
        self.store(&format!("{dir}/command"), command);
        if command != "reset" {
            self.run(motor, command)?;
        }
        Ok(())
    }

    /// Applies a run or stop command from the stored set points.
    fn run(&mut self, motor: &str, command: &str) -> Result<(), Errno> {
        let dir = format!("{CLASS}/tacho-motor/{motor}");
        let get = |a: &str| self.stored(&format!("{dir}/{a}"));
        let number = |a: &str| get(a).trim().parse::<i32>().unwrap_or(0);
        let sign = if self.is_inversed(motor) { -1 } else { 1 };
        let stop_action = match get("stop_action").as_str() {
            "hold" => StopAction::Hold,
            "brake" => StopAction::Brake,
            _ => StopAction::Coast,
        };
        let (position_sp, speed_sp, duty) = (
            sign * number("position_sp"),
            number("speed_sp").unsigned_abs(),
            (sign * number("duty_cycle_sp")).clamp(-100, 100) as i8,
        );
        let target = get("position_sp");
        let state = match command {
            "run-to-abs-pos" => "holding",
            "run-direct" => "running",
            _ if stop_action == StopAction::Hold => "holding",
            _ => "",
        };
        match &mut self.physics {
            Some(physics) => physics.run(motor, command, position_sp, speed_sp, duty, stop_action),
            None => {
                // Without physics a run arrives at once.
                if command == "run-to-abs-pos" {
                    self.store(&format!("{dir}/position"), &target);
                }
                self.store(&format!("{dir}/state"), state);
            }
        }
        Ok(())
    }
}

/// What `reset` puts back, and every writable motor attribute but `position`.
const MOTOR_DEFAULTS: [(&str, &str); 7] = [
    ("command", ""),
    ("position_sp", "0"),
    ("speed_sp", "0"),
    ("duty_cycle_sp", "0"),
    ("polarity", "normal"),
    ("stop_action", "coast"),
    ("time_sp", "0"),
];

/// The simulated robot behind the files, kept level with the wall clock.
pub struct Physics {
    pub sim: SimRobot,
    devices: Robot,
    started: Instant,
    /// Per motor folder: the simulated joint, and when it began reading speed 0 while driven.
    motors: HashMap<String, (Axis, Option<Duration>)>,
    unplugged: Vec<String>,
}

impl Physics {
    pub fn new(config: &RobotConfig, settings: &SimSettings) -> Physics {
        // Here a read of a file costs real time (FUSE, the kernel, the program); the simulator's
        // own charge for it would count it twice and run the world ahead of the wall clock,
        // then hold it still while the clock catches up, and motions would seem to crawl.
        let settings = SimSettings {
            read_latency_ms: 0,
            read_latency_jitter_ms: 0,
            ..settings.clone()
        };
        let sim = SimRobot::new(&SimBody::as_configured(config), &settings);
        let devices = sim.robot();
        let folder_of = |port: &str| match port {
            "outA" => "motor0",
            "outB" => "motor1",
            _ => "motor2",
        };
        let motors = HashMap::from([
            (
                folder_of(&config.columns.port).to_string(),
                (Axis::Columns, None),
            ),
            (folder_of(&config.rows.port).to_string(), (Axis::Rows, None)),
            (folder_of(&config.pen.port).to_string(), (Axis::Pen, None)),
        ]);
        Physics {
            sim,
            devices,
            started: Instant::now(),
            motors,
            unplugged: Vec::new(),
        }
    }

    /// Runs the simulated world up to the wall clock.
    fn catch_up(&mut self) {
        let now = self.started.elapsed();
        let world_now = self.devices.clock.now();
        if now > world_now {
            self.devices.clock.sleep(now - world_now);
        }
    }

    fn motor(&mut self, folder: &str) -> Option<&mut Box<dyn ev3_tictactoe::hw::Motor>> {
        let (joint, _) = self.motors.get(folder)?;
        Some(match joint {
            Axis::Columns => &mut self.devices.columns,
            Axis::Rows => &mut self.devices.rows,
            Axis::Pen => &mut self.devices.pen,
        })
    }

    fn set_position(&mut self, folder: &str, position: i32) {
        if let Some(motor) = self.motor(folder) {
            let _ = motor.set_position_deg(position);
        }
    }

    fn stop(&mut self, folder: &str, action: StopAction) {
        if let Some(motor) = self.motor(folder) {
            let _ = motor.stop(action);
        }
    }

    fn run(
        &mut self,
        folder: &str,
        command: &str,
        position_sp: i32,
        speed_sp: u32,
        duty: i8,
        stop_action: StopAction,
    ) {
        if let Some(entry) = self.motors.get_mut(folder) {
            entry.1 = None;
        }
        let Some(motor) = self.motor(folder) else {
            return;
        };
        let _ = match command {
            "run-to-abs-pos" => motor.run_to_position(position_sp, speed_sp),
            "run-direct" => motor.run_duty(duty),
            _ => motor.stop(stop_action),
        };
    }

    /// A motor attribute that the simulated motor answers.
    fn motor_reading(&mut self, folder: &str, attribute: &str, inversed: bool) -> Option<String> {
        let sign = if inversed { -1 } else { 1 };
        let now = self.devices.clock.now();
        let motor = self.motor(folder)?;
        match attribute {
            "position" => Some((sign * motor.position_deg().ok()?).to_string()),
            "speed" => Some((sign * motor.speed_deg_per_s().ok()?).to_string()),
            "state" => {
                let state = motor.state().ok()?;
                let speed = motor.speed_deg_per_s().ok()?;
                // As legoev3_motor.c: stalled once driven at speed 0 for more than 100 ms.
                let since = &mut self.motors.get_mut(folder)?.1;
                let still = state.running && speed == 0;
                let stalled = match (still, *since) {
                    (false, _) => {
                        *since = None;
                        false
                    }
                    (true, None) => {
                        *since = Some(now);
                        false
                    }
                    (true, Some(began)) => now - began > Duration::from_millis(100),
                };
                let mut words = Vec::new();
                if state.running {
                    words.push("running");
                }
                if state.holding {
                    words.push("holding");
                }
                if stalled {
                    words.push("stalled");
                }
                Some(words.join(" "))
            }
            _ => None,
        }
    }

    fn sensor_reading(&mut self, path: &str) -> Option<String> {
        match path {
            "sys/class/lego-sensor/sensor0/value0" => {
                Some(self.devices.light.reflected_percent().ok()?.to_string())
            }
            "sys/class/lego-sensor/sensor1/value0" => {
                Some(u8::from(self.devices.touch.is_pressed().ok()?).to_string())
            }
            _ => None,
        }
    }

    /// A motor whose cable is pulled loses power.
    fn unplug(&mut self, class_path: &str) {
        if let Some(folder) = class_path.strip_prefix("tacho-motor/") {
            self.stop(folder, StopAction::Coast);
            self.unplugged.push(folder.to_string());
        }
    }

    /// The simulated motors that still have power applied (running or holding).
    pub fn driven(&self) -> Vec<Axis> {
        self.sim.world().driven_motors()
    }
}

/// The FUSE side. A removed device's inodes stay numbered but resolve to nothing, so open
/// files on it answer ENODEV, as sysfs's do.
struct EmulatedBrick {
    tree: Arc<Mutex<Tree>>,
}

const NO_CACHE: Duration = Duration::ZERO;

pub fn lock(tree: &Mutex<Tree>) -> MutexGuard<'_, Tree> {
    tree.lock().unwrap_or_else(|e| e.into_inner())
}

impl EmulatedBrick {
    fn path_of(tree: &Tree, ino: INodeNo) -> Option<String> {
        let index = u64::from(ino).checked_sub(1)? as usize;
        let path = tree.paths.get(index)?;
        tree.nodes.contains_key(path).then(|| path.clone())
    }

    fn ino_of(tree: &Tree, path: &str) -> Option<INodeNo> {
        if !tree.nodes.contains_key(path) {
            return None;
        }
        tree.paths
            .iter()
            .position(|p| p == path)
            .map(|i| INodeNo(i as u64 + 1))
    }

    fn attr(tree: &Tree, path: &str) -> Option<FileAttr> {
        let ino = Self::ino_of(tree, path)?;
        let (kind, perm, size) = match tree.nodes.get(path)? {
            Node::Folder => (FileType::Directory, 0o755, 0),
            // sysfs reports every attribute as 4096 bytes, whatever its value.
            Node::Attribute { writable: true, .. } => (FileType::RegularFile, 0o664, 4096),
            Node::Attribute {
                writable: false, ..
            } => (FileType::RegularFile, 0o444, 4096),
            Node::Device(_) => (FileType::RegularFile, 0o666, 0),
        };
        Some(FileAttr {
            ino,
            size,
            blocks: 0,
            atime: UNIX_EPOCH,
            mtime: UNIX_EPOCH,
            ctime: UNIX_EPOCH,
            crtime: UNIX_EPOCH,
            kind,
            perm,
            nlink: 1,
            uid: 0,
            gid: 0,
            rdev: 0,
            flags: 0,
            blksize: 4096,
        })
    }
}

fn child(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_string()
    } else {
        format!("{parent}/{name}")
    }
}

impl Filesystem for EmulatedBrick {
    fn lookup(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEntry) {
        let tree = lock(&self.tree);
        let found = Self::path_of(&tree, parent)
            .map(|p| child(&p, &name.to_string_lossy()))
            .and_then(|p| Self::attr(&tree, &p));
        match found {
            Some(attr) => reply.entry(&NO_CACHE, &attr, fuser::Generation(0)),
            None => reply.error(Errno::ENOENT),
        }
    }

    fn getattr(&self, _req: &Request, ino: INodeNo, _fh: Option<FileHandle>, reply: ReplyAttr) {
        let tree = lock(&self.tree);
        match Self::path_of(&tree, ino).and_then(|p| Self::attr(&tree, &p)) {
            Some(attr) => reply.attr(&NO_CACHE, &attr),
            None => reply.error(Errno::ENODEV),
        }
    }

    fn open(&self, _req: &Request, ino: INodeNo, _flags: OpenFlags, reply: ReplyOpen) {
        let tree = lock(&self.tree);
        match Self::path_of(&tree, ino) {
            // Direct I/O: every read reaches the device, as on sysfs.
            Some(_) => reply.opened(FileHandle(u64::from(ino)), FopenFlags::FOPEN_DIRECT_IO),
            None => reply.error(Errno::ENODEV),
        }
    }

    fn read(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        offset: u64,
        size: u32,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        reply: ReplyData,
    ) {
        let mut tree = lock(&self.tree);
        // The handle keeps the inode it was opened on: if the device has gone, that path no
        // longer resolves.
        let Some(path) = Self::path_of(&tree, INodeNo(fh.0)) else {
            return reply.error(Errno::ENODEV);
        };
        match tree.read(&path) {
            Some(value) => {
                let text = format!("{value}\n");
                let start = (offset as usize).min(text.len());
                let end = (start + size as usize).min(text.len());
                reply.data(&text.as_bytes()[start..end]);
            }
            None => reply.error(Errno::EINVAL),
        }
    }

    fn write(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        offset: u64,
        data: &[u8],
        _write_flags: WriteFlags,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        reply: ReplyWrite,
    ) {
        let mut tree = lock(&self.tree);
        let Some(path) = Self::path_of(&tree, INodeNo(fh.0)) else {
            return reply.error(Errno::ENODEV);
        };
        if offset != 0 {
            // sysfs takes a value in one write from the start; anything else is a bug.
            return reply.error(Errno::EINVAL);
        }
        let value = String::from_utf8_lossy(data).trim_end().to_string();
        match tree.write(&path, &value) {
            Ok(()) => reply.written(data.len() as u32),
            Err(errno) => reply.error(errno),
        }
    }

    fn ioctl(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        _flags: IoctlFlags,
        cmd: u32,
        _in_data: &[u8],
        out_size: u32,
        reply: ReplyIoctl,
    ) {
        let mut tree = lock(&self.tree);
        let Some(path) = Self::path_of(&tree, INodeNo(fh.0)) else {
            return reply.error(Errno::ENODEV);
        };
        let kind = match tree.nodes.get(&path) {
            Some(Node::Device(kind)) => *kind,
            _ => return reply.error(Errno::ENOTTY),
        };
        tree.ioctls.push((path, cmd));
        match (kind, cmd) {
            (DeviceFile::Keys, EVIOCGKEY_96) => {
                let state = tree.key_state();
                let len = (out_size as usize).min(state.len());
                reply.ioctl(0, &state[..len]);
            }
            (DeviceFile::Console, KDSETMODE) => reply.ioctl(0, &[]),
            _ => reply.error(Errno::ENOTTY),
        }
    }

    fn readdir(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        mut reply: ReplyDirectory,
    ) {
        let tree = lock(&self.tree);
        let Some(dir) = Self::path_of(&tree, ino) else {
            return reply.error(Errno::ENOENT);
        };
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let children: Vec<(String, INodeNo, FileType)> = tree
            .nodes
            .iter()
            .filter(|(p, _)| !p.is_empty() && p.starts_with(&prefix))
            .filter(|(p, _)| !p[prefix.len()..].contains('/'))
            .map(|(p, node)| {
                let kind = match node {
                    Node::Folder => FileType::Directory,
                    _ => FileType::RegularFile,
                };
                let ino = Self::ino_of(&tree, p).expect("listed paths exist");
                (p[prefix.len()..].to_string(), ino, kind)
            })
            .collect();
        for (i, (name, ino, kind)) in children.into_iter().enumerate().skip(offset as usize) {
            if reply.add(ino, i as u64 + 1, kind, &name) {
                break;
            }
        }
        reply.ok();
    }
}

/// The emulated brick, mounted where the tests' ev3dev-lang-rust and the program look.
pub struct Mounted {
    tree: Arc<Mutex<Tree>>,
    _session: fuser::BackgroundSession,
    _one_at_a_time: MutexGuard<'static, ()>,
    _one_process_at_a_time: Flock<std::fs::File>,
}

impl Mounted {
    pub fn tree(&self) -> MutexGuard<'_, Tree> {
        lock(&self.tree)
    }

    pub fn shared(&self) -> Arc<Mutex<Tree>> {
        self.tree.clone()
    }

    /// Where the program finds `/dev`: pass it as EV3_TICTACTOE_DEV_DIR.
    pub fn device_dir(&self) -> PathBuf {
        mount_point().join("dev")
    }
}

/// The sysfs class folder the tests' ev3dev-lang-rust was built to use (EV3DEV_DRIVER_PATH in
/// .cargo/config.toml) is `sys/class` under this.
/// The program as a person puts it on the brick: its own file in `folder` (where, on a brick,
/// it keeps its scoreboard, robot config and log), linked to the one cargo built rather than
/// copied (the same file system) where it can be.
pub fn program_in(folder: &std::path::Path) -> PathBuf {
    let built = std::path::Path::new(env!("CARGO_BIN_EXE_ev3-tictactoe"));
    let placed = folder.join("ev3-tictactoe");
    if !placed.exists() && std::fs::hard_link(built, &placed).is_err() {
        std::fs::copy(built, &placed).expect("the program copied into the test's folder");
    }
    placed
}

/// Sends `signal` ("TERM", "INT", ...) to `child` as a person's `kill` would, and checks it
/// was delivered.
pub fn send_signal(child: &std::process::Child, signal: &str) {
    let sent = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -{signal} {} failed", child.id());
}

pub fn mount_point() -> PathBuf {
    PathBuf::from(env!("EV3DEV_DRIVER_PATH"))
        .parent()
        .and_then(|p| p.parent())
        .expect("EV3DEV_DRIVER_PATH ends in sys/class")
        .to_path_buf()
}

/// Why the emulated brick cannot be mounted on this machine, if it cannot: these tests need
/// /dev/fuse and the right to mount (root, or fuse3's fusermount3).
pub fn cannot_mount() -> Option<String> {
    if !std::path::Path::new("/dev/fuse").exists() {
        return Some("/dev/fuse is missing".into());
    }
    let root = nix_is_root();
    let fusermount = std::process::Command::new("fusermount3")
        .arg("--version")
        .output()
        .is_ok();
    if !root && !fusermount {
        return Some("not root, and fuse3's fusermount3 is not installed".into());
    }
    None
}

fn nix_is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .map(|l| l.split_whitespace().nth(1) == Some("0"))
        })
        .unwrap_or(false)
}

/// Skips the calling test, saying why, when the brick cannot be mounted here, unless CI
/// (EV3_TICTACTOE_REQUIRE_ALL set) requires it, in which case the test fails.
#[macro_export]
macro_rules! require_fuse {
    () => {
        if let Some(why) = $crate::emulated_brick::cannot_mount() {
            $crate::skipping::skip_or_fail("the emulated brick (FUSE)", &why);
            return;
        }
    };
}

/// Mounts `tree`. Tests share the mount point (ev3dev-lang-rust's sysfs root is fixed when it
/// is built), so they take turns: the threads of one test binary, and the test binaries too,
/// which `cargo test` runs one after another but `cargo nextest` side by side.
pub fn mount(tree: Tree) -> Mounted {
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let point = mount_point();
    let lock_path = point.with_extension("lock");
    let lock_file = std::fs::File::create(&lock_path)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", lock_path.display()));
    let across_processes = Flock::lock(lock_file, FlockArg::LockExclusive)
        .unwrap_or_else(|(_, e)| panic!("cannot lock {}: {e}", lock_path.display()));
    // A run that was killed may have left its mount behind, its server gone ("Transport
    // endpoint is not connected"): let go of it before anything looks inside. Ours is a user
    // mount when not root (fusermount3), a plain one as root (umount).
    for (program, args) in [("fusermount3", ["-u", "-z"]), ("umount", ["-l", "-q"])] {
        let _ = std::process::Command::new(program)
            .args(args)
            .arg(&point)
            .stderr(std::process::Stdio::null())
            .status();
    }
    std::fs::create_dir_all(&point)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", point.display()));
    let tree = Arc::new(Mutex::new(tree));
    let mut config = fuser::Config::default();
    config
        .mount_options
        .push(MountOption::FSName("ev3dev-brick".into()));
    let session = fuser::spawn_mount(EmulatedBrick { tree: tree.clone() }, &point, &config)
        .unwrap_or_else(|e| {
            panic!(
                "cannot mount the emulated brick at {} ({e}): these tests need /dev/fuse and \
                 the right to mount (root, or fuse3's fusermount3)",
                point.display()
            )
        });
    // Buttons, LCD and console opened in this process find the brick's /dev here.
    std::env::set_var(
        ev3_tictactoe::hw::ev3dev::DEVICE_DIR_VARIABLE,
        point.join("dev"),
    );
    Mounted {
        tree,
        _session: session,
        _one_at_a_time: guard,
        _one_process_at_a_time: across_processes,
    }
}
