//! The program's own instructions, counted: when `scripts/arm-instructions.sh` runs the suite,
//! the program is its ARM build run under `qemu-arm -cpu arm926` (the EV3's own CPU) with a
//! plugin that counts every instruction executed (`scripts/arm-instructions/count.c`), and the
//! running total is read each time the program shows a screen. Without the script's variables,
//! the suite runs the host binary and counts nothing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The ARM binary to run, built with the emulated brick's driver path.
const PROGRAM_VARIABLE: &str = "BRICK_GAMES_ARM_PROGRAM";
/// The counting plugin, `count.so`.
const PLUGIN_VARIABLE: &str = "BRICK_GAMES_COUNT_PLUGIN";
/// Where the plugin writes its running totals (`instructions.txt`) and, at exit, each
/// translated block's runs (`blocks.txt`) and each system call's count (`calls.txt`).
const FOLDER_VARIABLE: &str = "BRICK_GAMES_COUNT_FOLDER";

/// The ARM program under the counting plugin.
#[derive(Debug, Clone)]
pub struct Counted {
    program: PathBuf,
    plugin: PathBuf,
    folder: PathBuf,
    /// Each instruction held to this time, as a slower CPU would take it (the plugin's
    /// `pace_ns`); `None`: the host's own pace.
    pub instruction_pace: Option<Duration>,
    /// While this file exists, another program takes this share of the brick's CPU, and the
    /// paced program's instructions cost that much more (the plugin's `busy` and
    /// `busy_percent`).
    pub cpu_shared: Option<(PathBuf, f64)>,
}

impl Counted {
    /// The count the script asked for, if it did (all three variables set).
    pub fn from_env() -> Option<Counted> {
        let var = |name| std::env::var_os(name).map(PathBuf::from);
        Some(Counted {
            program: var(PROGRAM_VARIABLE)?,
            plugin: var(PLUGIN_VARIABLE)?,
            folder: var(FOLDER_VARIABLE)?,
            instruction_pace: None,
            cpu_shared: None,
        })
    }

    /// The same program held to `pace` an instruction.
    pub fn paced(self, pace: Duration) -> Counted {
        Counted {
            instruction_pace: Some(pace),
            ..self
        }
    }

    /// Paced as the brick's CPU is when `share` of it goes to another program while
    /// `while_there` exists.
    pub fn sharing_cpu(self, while_there: &Path, share: f64) -> Counted {
        Counted {
            cpu_shared: Some((while_there.to_path_buf(), share)),
            ..self
        }
    }

    /// The command that starts the ARM program placed in `folder` (beside the files it keeps,
    /// as the File Browser starts it) under qemu with the plugin.
    pub fn command(&self, folder: &Path) -> Command {
        let placed = folder.join("ev3-tictactoe");
        if !placed.exists() {
            std::fs::copy(&self.program, &placed).expect("the ARM program copied");
        }
        let mut plugin = format!(
            "{},progress={},blocks={},calls={}",
            self.plugin.display(),
            self.total_file().display(),
            self.folder.join("blocks.txt").display(),
            self.folder.join("calls.txt").display()
        );
        if let Some(pace) = self.instruction_pace {
            plugin += &format!(",pace_ns={}", pace.as_nanos());
            if let Some((while_there, share)) = &self.cpu_shared {
                plugin += &format!(
                    ",busy={},busy_percent={}",
                    while_there.display(),
                    (share * 100.0).round()
                );
            }
        }
        let mut command = Command::new("qemu-arm");
        command.args(["-cpu", "arm926", "-plugin"]).arg(plugin);
        command.arg(placed);
        command
    }

    fn total_file(&self) -> PathBuf {
        self.folder.join("instructions.txt")
    }

    /// The instructions executed and the system calls made so far (the plugin rewrites its
    /// figures every 5 ms of a running program, and once more as it exits).
    pub fn so_far(&self) -> Option<Totals> {
        let text = std::fs::read_to_string(self.total_file()).ok()?;
        let mut numbers = text.split_whitespace().map(|n| n.parse::<u64>().ok());
        Some(Totals {
            instructions: numbers.next()??,
            system_calls: numbers.next()??,
        })
    }
}

/// What the program had done by some moment, counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    pub instructions: u64,
    pub system_calls: u64,
}

impl std::ops::Sub for Totals {
    type Output = Totals;
    fn sub(self, earlier: Totals) -> Totals {
        Totals {
            instructions: self.instructions.saturating_sub(earlier.instructions),
            system_calls: self.system_calls.saturating_sub(earlier.system_calls),
        }
    }
}

impl std::ops::Add for Totals {
    type Output = Totals;
    fn add(self, other: Totals) -> Totals {
        Totals {
            instructions: self.instructions + other.instructions,
            system_calls: self.system_calls + other.system_calls,
        }
    }
}

impl std::iter::Sum for Totals {
    fn sum<I: Iterator<Item = Totals>>(totals: I) -> Totals {
        totals.fold(Totals::default(), |sum, t| sum + t)
    }
}
