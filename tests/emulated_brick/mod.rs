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
//! `speed_sp` above `max_speed` is EINVAL, and so is a `ramp_up_sp` or `ramp_down_sp` outside 0
//! to 60000 ms; polarity `inversed` negates positions, speeds and set points; a motor reads
//! `stalled` once it has been driven at speed 0 for more than 100 ms. With physics, a run to a
//! position with no ramp down goes at full speed to its target and holds back from past it, and
//! a stop with a ramp set comes down it first, as `legoev3_motor.c`'s `update_position` and
//! `tacho_motor_class.c`'s ramps do.
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
//!
//! By device: `tree` (the sysfs classes and device files, and every write), `motors`,
//! `sensors`, `buttons`, `world` (the simulated robot behind the files), `fuse` (serving the
//! tree, the console's and the buttons' ioctls among it); here, mounting it.

#![allow(dead_code)]

mod buttons;
mod fuse;
mod motors;
mod sensors;
mod tree;
mod world;

pub use fuse::lock;
use fuse::EmulatedBrick;
pub use tree::{DeviceFile, Node, Tree, CLASS};

use fuser::MountOption;
use nix::fcntl::{Flock, FlockArg};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

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
