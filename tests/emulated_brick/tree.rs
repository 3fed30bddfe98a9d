//! The brick as a tree of sysfs classes and device files, by path from the mount point: what
//! each attribute holds, what was written and in what order, and a device taken away.

use super::world::Physics;
use ev3_tictactoe::config::RobotConfig;
use ev3_tictactoe::hw::sim::SimSettings;
use fuser::Errno;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

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

/// The brick, by path from the mount point ("sys/class/tacho-motor/motor0/position").
#[derive(Default)]
pub struct Tree {
    pub nodes: BTreeMap<String, Node>,
    /// Every path ever made, so inode numbers (index + 1) stay put when a device goes away.
    pub(super) paths: Vec<String>,
    /// Every write: (path, value), in order; refused writes are not logged.
    pub writes: Vec<(String, String)>,
    /// Every ioctl that reached a device file: (path, request), in order.
    pub ioctls: Vec<(String, u32)>,
    /// When each read, write and ioctl reached the tree, but the buttons' key-state requests:
    /// what the program asks of the brick's drivers, each a system call on a real brick, most
    /// of them an attribute its driver writes out afresh.
    pub accesses: Vec<Instant>,
    /// What each of those accesses costs the program, as the brick's CPU would make it wait
    /// (zero: the host's own pace). The brick-pace runs set it (see brick_games' pace.rs).
    pub access_cost: Duration,
    /// When each key-state request (EVIOCGKEY) reached the buttons' input device: no sysfs
    /// attribute, but a copy of the input core's key bitmap (the kernel's `evdev.c`).
    pub input_calls: Vec<Instant>,
    /// What each of those costs the program (zero: the host's own pace).
    pub input_call_cost: Duration,
    /// Another program sharing the brick's one CPU: while this file exists, it takes this
    /// share, and every access costs the program that much more (the voice, see brick_games'
    /// stand_in_voice.rs).
    pub cpu_shared: Option<(PathBuf, f64)>,
    /// Keys held down (Linux key codes), each until its instant.
    pub keys_down: Vec<(u16, Instant)>,
    /// The robot behind the motor and sensor files, if it moves.
    pub physics: Option<Physics>,
}

pub const CLASS: &str = "sys/class";

impl Tree {
    /// What an access that costs `cost` on an idle brick costs now: more while another
    /// program takes a share of the CPU ([`Tree::cpu_shared`]).
    pub(super) fn cost_now(&self, cost: Duration) -> Duration {
        match &self.cpu_shared {
            Some((while_there, share)) if !cost.is_zero() && while_there.exists() => {
                cost.div_f64(1.0 - share)
            }
            _ => cost,
        }
    }

    pub(super) fn register(&mut self, path: &str) {
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

    pub(super) fn device(&mut self, path: &str, kind: DeviceFile) {
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

    /// Sets an attribute's stored value, by path under sys/class.
    pub fn set(&mut self, class_path: &str, new: &str) {
        self.store(&format!("{CLASS}/{class_path}"), new);
    }

    pub(super) fn store(&mut self, path: &str, new: &str) {
        match self.nodes.get_mut(path) {
            Some(Node::Attribute { value, .. }) => *value = new.to_string(),
            other => panic!("no attribute {path}: {other:?}"),
        }
    }

    pub(super) fn stored(&self, path: &str) -> String {
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

    /// The value a read of `path` returns now.
    pub(super) fn read(&mut self, path: &str) -> Option<String> {
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
    pub(super) fn write(&mut self, path: &str, value: &str) -> Result<(), Errno> {
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
}
