//! The ev3dev implementation against an emulated sysfs, served over FUSE.
//!
//! Why FUSE and not a folder of files: ev3dev-lang-rust writes each attribute in place (seek to
//! 0, write, no truncate), as sysfs expects. Over a plain file, writing "hold" onto "coast"
//! would leave "holdt"; sysfs instead takes each write as the whole new value. This filesystem
//! does what sysfs does: a write at offset 0 replaces the value, any other write is refused,
//! reads are never cached, and a removed device answers ENODEV. It logs every write, so the
//! tests can check which attributes were written, with what, in what order.
//!
//! The tests build ev3dev-lang-rust with `override-driver-path` and find the classes at
//! EV3DEV_DRIVER_PATH (set in .cargo/config.toml), where this file mounts the filesystem.

use ev3_tictactoe::config::{MotorKind, RobotConfig};
use ev3_tictactoe::hw::ev3dev::open_robot;
use ev3_tictactoe::hw::{HwError, MotorState, StopAction};
use fuser::{
    Errno, FileAttr, FileHandle, FileType, Filesystem, FopenFlags, INodeNo, LockOwner, MountOption,
    OpenFlags, ReplyAttr, ReplyData, ReplyDirectory, ReplyEntry, ReplyOpen, ReplyWrite, Request,
    WriteFlags,
};
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, UNIX_EPOCH};

/// One node of the emulated tree: a folder, or an attribute with its value.
#[derive(Debug, Clone)]
enum Node {
    Folder,
    Attribute { value: String, writable: bool },
}

/// The tree, by path relative to the class root ("tacho-motor/motor0/position").
#[derive(Debug, Default)]
struct Tree {
    nodes: BTreeMap<String, Node>,
    /// Every path ever made, so inode numbers (index + 1) stay put when a device goes away.
    paths: Vec<String>,
    /// Every write: (path, value), in order.
    writes: Vec<(String, String)>,
}

impl Tree {
    fn folder(&mut self, path: &str) {
        self.register(path);
        self.nodes.insert(path.to_string(), Node::Folder);
    }

    fn register(&mut self, path: &str) {
        if !self.paths.iter().any(|p| p == path) {
            self.paths.push(path.to_string());
        }
    }

    fn attribute(&mut self, path: &str, value: &str, writable: bool) {
        self.register(path);
        self.nodes.insert(
            path.to_string(),
            Node::Attribute {
                value: value.to_string(),
                writable,
            },
        );
    }

    fn value(&self, path: &str) -> String {
        match self.nodes.get(path) {
            Some(Node::Attribute { value, .. }) => value.clone(),
            other => panic!("no attribute {path}: {other:?}"),
        }
    }

    fn set(&mut self, path: &str, new: &str) {
        match self.nodes.get_mut(path) {
            Some(Node::Attribute { value, .. }) => *value = new.to_string(),
            other => panic!("no attribute {path}: {other:?}"),
        }
    }

    /// A tacho motor as ev3dev shows it, with the attributes the firmware uses.
    fn motor(&mut self, name: &str, port: &str, driver: &str) {
        let dir = format!("tacho-motor/{name}");
        self.folder(&dir);
        let read_only = [
            ("address", format!("ev3-ports:{port}")),
            ("driver_name", driver.to_string()),
            ("count_per_rot", "360".to_string()),
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
        let writable = [
            ("command", ""),
            ("position", "0"),
            ("position_sp", "0"),
            ("speed_sp", "0"),
            ("duty_cycle_sp", "0"),
            ("polarity", "normal"),
            ("stop_action", "coast"),
        ];
        for (attribute, value) in writable {
            self.attribute(&format!("{dir}/{attribute}"), value, true);
        }
    }

    fn sensor(&mut self, name: &str, port: &str, driver: &str, mode: &str) {
        let dir = format!("lego-sensor/{name}");
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

    /// The robot of the default config: rows outA, pen outB, columns outC, colour in1,
    /// touch in4.
    fn default_robot() -> Tree {
        let mut tree = Tree::default();
        tree.folder("");
        tree.folder("tacho-motor");
        tree.folder("lego-sensor");
        tree.motor("motor0", "outA", "lego-ev3-l-motor");
        tree.motor("motor1", "outB", "lego-ev3-m-motor");
        tree.motor("motor2", "outC", "lego-ev3-l-motor");
        tree.sensor("sensor0", "in1", "lego-ev3-color", "COL-COLOR");
        tree.sensor("sensor1", "in4", "lego-ev3-touch", "TOUCH");
        tree.folder("leds");
        for led in [
            "led0:red:brick-status",
            "led0:green:brick-status",
            "led1:red:brick-status",
            "led1:green:brick-status",
        ] {
            tree.folder(&format!("leds/{led}"));
            tree.attribute(&format!("leds/{led}/brightness"), "0", true);
            tree.attribute(&format!("leds/{led}/max_brightness"), "255", false);
        }
        tree.folder("power_supply");
        tree.folder("power_supply/lego-ev3-battery");
        tree.attribute(
            "power_supply/lego-ev3-battery/voltage_now",
            "7512000",
            false,
        );
        tree
    }

    /// What the motor driver does with a command, reduced to what the tests look at: a run to
    /// a position arrives at once and holds, run-direct runs, stop stops.
    fn obey(&mut self, command_path: &str, command: &str) {
        let dir = command_path.trim_end_matches("/command");
        let get = |tree: &Tree, a: &str| tree.value(&format!("{dir}/{a}"));
        match command {
            "run-to-abs-pos" => {
                let target = get(self, "position_sp");
                self.set(&format!("{dir}/position"), &target);
                self.set(&format!("{dir}/state"), "holding");
            }
            "run-direct" => self.set(&format!("{dir}/state"), "running"),
            "stop" => {
                let holding = get(self, "stop_action") == "hold";
                self.set(
                    &format!("{dir}/state"),
                    if holding { "holding" } else { "" },
                );
            }
            _ => {}
        }
    }
}

/// The FUSE side. A removed device's inodes stay numbered but resolve to nothing, so open
/// files on it answer ENODEV, as sysfs's do.
struct EmulatedSysfs {
    tree: Arc<Mutex<Tree>>,
}

const NO_CACHE: Duration = Duration::ZERO;

fn lock(tree: &Mutex<Tree>) -> MutexGuard<'_, Tree> {
    tree.lock().unwrap_or_else(|e| e.into_inner())
}

impl EmulatedSysfs {
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

impl Filesystem for EmulatedSysfs {
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
        let tree = lock(&self.tree);
        // The handle keeps the inode it was opened on: if the device has gone, that path no
        // longer resolves to an attribute.
        let node = Self::path_of(&tree, INodeNo(fh.0)).and_then(|p| tree.nodes.get(&p).cloned());
        match node {
            Some(Node::Attribute { value, .. }) => {
                let text = format!("{value}\n");
                let start = (offset as usize).min(text.len());
                let end = (start + size as usize).min(text.len());
                reply.data(&text.as_bytes()[start..end]);
            }
            _ => reply.error(Errno::ENODEV),
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
        match tree.nodes.get_mut(&path) {
            Some(Node::Attribute {
                value: stored,
                writable: true,
            }) => *stored = value.clone(),
            _ => return reply.error(Errno::EACCES),
        }
        tree.writes.push((path.clone(), value.clone()));
        if path.ends_with("/command") {
            tree.obey(&path, &value);
        }
        reply.written(data.len() as u32);
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
                    Node::Attribute { .. } => FileType::RegularFile,
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

/// The emulated sysfs, mounted where the tests' ev3dev-lang-rust looks.
struct Mounted {
    tree: Arc<Mutex<Tree>>,
    _session: fuser::BackgroundSession,
    _one_at_a_time: MutexGuard<'static, ()>,
}

impl Mounted {
    fn tree(&self) -> MutexGuard<'_, Tree> {
        lock(&self.tree)
    }
}

fn mount_point() -> PathBuf {
    PathBuf::from(env!("EV3DEV_DRIVER_PATH"))
}

/// Mounts `tree`. Tests share the mount point, so they take turns.
fn mount(tree: Tree) -> Mounted {
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let point = mount_point();
    std::fs::create_dir_all(&point).unwrap();
    // A run that was killed may have left its mount behind.
    let _ = std::process::Command::new("umount")
        .arg("-l")
        .arg(&point)
        .stderr(std::process::Stdio::null())
        .status();
    let tree = Arc::new(Mutex::new(tree));
    let mut config = fuser::Config::default();
    config
        .mount_options
        .push(MountOption::FSName("ev3dev-sysfs".into()));
    let session = fuser::spawn_mount(EmulatedSysfs { tree: tree.clone() }, &point, &config)
        .unwrap_or_else(|e| {
            panic!(
                "cannot mount the emulated sysfs at {} ({e}): these tests need /dev/fuse and the \
             right to mount (root, or fuse3's fusermount3)",
                point.display()
            )
        });
    Mounted {
        tree,
        _session: session,
        _one_at_a_time: guard,
    }
}

fn writes_under(mounted: &Mounted, dir: &str) -> Vec<(String, String)> {
    mounted
        .tree()
        .writes
        .iter()
        .filter(|(p, _)| p.starts_with(dir))
        .map(|(p, v)| (p[dir.len() + 1..].to_string(), v.clone()))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn opening_the_robot_sets_polarity_and_reflected_light_mode() {
    let sysfs = mount(Tree::default_robot());
    let _robot = open_robot(&RobotConfig::default()).unwrap();
    assert_eq!(
        writes_under(&sysfs, "tacho-motor/motor2"),
        pairs(&[("polarity", "normal")])
    );
    let mut inversed = RobotConfig::default();
    inversed.rows.polarity = ev3_tictactoe::config::Polarity::Inversed;
    let _robot = open_robot(&inversed).unwrap();
    assert_eq!(
        sysfs.tree().value("tacho-motor/motor0/polarity"),
        "inversed"
    );
    assert_eq!(
        sysfs.tree().value("lego-sensor/sensor0/mode"),
        "COL-REFLECT"
    );
}

#[test]
fn a_run_to_a_position_writes_speed_stop_action_and_target_before_the_command() {
    let sysfs = mount(Tree::default_robot());
    let mut robot = open_robot(&RobotConfig::default()).unwrap();
    sysfs.tree().writes.clear();
    robot.columns.run_to_position(250, 400).unwrap();
    assert_eq!(
        writes_under(&sysfs, "tacho-motor/motor2"),
        pairs(&[
            ("speed_sp", "400"),
            ("stop_action", "hold"),
            ("position_sp", "250"),
            ("command", "run-to-abs-pos"),
        ])
    );
    // Read back through the same open files: the position and state the driver reports.
    assert_eq!(robot.columns.position_deg().unwrap(), 250);
    assert_eq!(
        robot.columns.state().unwrap(),
        MotorState {
            holding: true,
            ..MotorState::default()
        }
    );
}

#[test]
fn duty_runs_stops_and_the_origin_are_written_as_ev3dev_expects() {
    let sysfs = mount(Tree::default_robot());
    let mut robot = open_robot(&RobotConfig::default()).unwrap();
    sysfs.tree().writes.clear();
    robot.rows.run_duty(-25).unwrap();
    robot.rows.stop(StopAction::Brake).unwrap();
    robot.rows.set_position_deg(-10).unwrap();
    assert_eq!(
        writes_under(&sysfs, "tacho-motor/motor0"),
        pairs(&[
            ("duty_cycle_sp", "-25"),
            ("command", "run-direct"),
            ("stop_action", "brake"),
            ("command", "stop"),
            ("position", "-10"),
        ])
    );
    // A shorter value written over a longer one replaces it, as sysfs does.
    robot.rows.stop(StopAction::Hold).unwrap();
    assert_eq!(sysfs.tree().value("tacho-motor/motor0/stop_action"), "hold");
    assert_eq!(robot.rows.position_deg().unwrap(), -10);
}

#[test]
fn motor_state_flags_and_speed_are_read_from_the_driver() {
    let sysfs = mount(Tree::default_robot());
    let mut robot = open_robot(&RobotConfig::default()).unwrap();
    sysfs
        .tree()
        .set("tacho-motor/motor1/state", "running stalled");
    sysfs.tree().set("tacho-motor/motor1/speed", "-12");
    assert_eq!(
        robot.pen.state().unwrap(),
        MotorState {
            running: true,
            stalled: true,
            ..MotorState::default()
        }
    );
    assert_eq!(robot.pen.speed_deg_per_s().unwrap(), -12);
}

#[test]
fn sensors_read_reflected_light_and_touch() {
    let sysfs = mount(Tree::default_robot());
    let mut robot = open_robot(&RobotConfig::default()).unwrap();
    sysfs.tree().set("lego-sensor/sensor0/value0", "37");
    assert_eq!(robot.light.reflected_percent().unwrap(), 37);
    sysfs.tree().set("lego-sensor/sensor0/value0", "8");
    assert_eq!(robot.light.reflected_percent().unwrap(), 8);
    assert!(!robot.touch.is_pressed().unwrap());
    sysfs.tree().set("lego-sensor/sensor1/value0", "1");
    assert!(robot.touch.is_pressed().unwrap());
}

#[test]
fn status_lights_and_battery_use_ev3devs_leds_and_power_supply() {
    use ev3_tictactoe::hw::ev3dev::{Ev3Battery, Ev3Lights};
    use ev3_tictactoe::hw::{Battery, LightColour, StatusLights};
    let sysfs = mount(Tree::default_robot());
    let mut lights = Ev3Lights::open().unwrap();
    lights.set(LightColour::Red, LightColour::Amber).unwrap();
    let tree = sysfs.tree();
    let brightness = |led: &str| tree.value(&format!("leds/{led}:brick-status/brightness"));
    assert_eq!(
        [
            brightness("led0:red"),
            brightness("led0:green"),
            brightness("led1:red"),
            brightness("led1:green")
        ],
        ["255", "0", "255", "255"]
    );
    drop(tree);
    let volts = Ev3Battery::open().unwrap().voltage_v().unwrap();
    assert!((volts - 7.512).abs() < 1e-4, "{volts}");
}

#[test]
fn a_missing_or_wrong_device_is_named_with_its_port() {
    let _sysfs = mount(Tree::default_robot());
    let mut config = RobotConfig::default();
    config.pen.port = "outD".into();
    let err = open_robot(&config).err().unwrap();
    assert_eq!(
        err.to_string(),
        "no medium motor (pen lift) on outD: check the cable"
    );
    let mut config = RobotConfig::default();
    config.rows.kind = MotorKind::Medium;
    let err = open_robot(&config).err().unwrap();
    assert_eq!(
        err.to_string(),
        "no medium motor (rows axis) on outA: check the cable"
    );
    let mut config = RobotConfig::default();
    config.sensing.colour_port = "in2".into();
    let err = open_robot(&config).err().unwrap();
    assert_eq!(err.to_string(), "no colour sensor on in2: check the cable");
}

#[test]
fn a_motor_unplugged_after_opening_is_reported_as_disconnected() {
    let sysfs = mount(Tree::default_robot());
    let mut robot = open_robot(&RobotConfig::default()).unwrap();
    assert_eq!(robot.rows.position_deg().unwrap(), 0);
    {
        let mut tree = sysfs.tree();
        let gone: Vec<String> = tree
            .nodes
            .keys()
            .filter(|p| p.starts_with("tacho-motor/motor0"))
            .cloned()
            .collect();
        for path in gone {
            tree.nodes.remove(&path);
        }
    }
    let err = robot.rows.position_deg().unwrap_err();
    // The other motors, numbered after it, still answer.
    assert_eq!(robot.columns.position_deg().unwrap(), 0);
    assert_eq!(
        err,
        HwError::Disconnected {
            device: "large motor (rows axis) on outA".into()
        }
    );
}

#[test]
fn the_mount_point_is_the_driver_path_the_tests_were_built_with() {
    assert_eq!(
        Path::new(ev3dev_lang_rust::DRIVER_PATH),
        mount_point().as_path()
    );
}

/// The last value written to each motor's attribute `name`, by motor folder.
fn last_written(mounted: &Mounted, motor: &str, attribute: &str) -> Option<String> {
    writes_under(mounted, &format!("tacho-motor/{motor}"))
        .into_iter()
        .rev()
        .find(|(path, _)| path == attribute)
        .map(|(_, value)| value)
}

#[test]
fn sigterm_mid_move_leaves_every_motor_stopped() {
    let mounted = mount(Tree::default_robot());
    let folder = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ev3-tictactoe"))
        .current_dir(folder.path())
        .args(["play", "--difficulty", "easy", "--first", "robot"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Homing starts with the pen (motor1, outB) driven up at its homing duty.
    let began = std::time::Instant::now();
    while last_written(&mounted, "motor1", "command").as_deref() != Some("run-direct") {
        assert!(
            began.elapsed() < Duration::from_secs(20),
            "homing never started"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    assert_eq!(mounted.tree().value("tacho-motor/motor1/state"), "running");
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    let mut out = String::new();
    std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut out).unwrap();
    assert_eq!(status.code(), Some(143), "exit status; output: {out}");
    assert!(out.contains("Stopped by SIGTERM"), "{out}");
    for motor in ["motor0", "motor1", "motor2"] {
        let tree = mounted.tree();
        let state = tree.value(&format!("tacho-motor/{motor}/state"));
        drop(tree);
        assert_eq!(state, "", "{motor} is left powered");
        assert_eq!(
            last_written(&mounted, motor, "command").as_deref(),
            Some("stop"),
            "{motor}"
        );
        assert_eq!(
            last_written(&mounted, motor, "stop_action").as_deref(),
            Some("coast"),
            "{motor}"
        );
    }
}
