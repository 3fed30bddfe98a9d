//! What a whole game asks of the brick: every read, write and ioctl that reaches the emulated
//! brick's drivers, counted screen by screen (each screen the program shows is a phase: homing,
//! drawing the grid, reading the paper, waiting for the person's move, ...), and the share of a
//! real brick's CPU it would take at a cited cost per access; run by
//! `scripts/arm-instructions.sh`, the program's own ARM instructions and system calls too. And
//! the same game at the brick's pace, against full speed.

use crate::at_the_brick::*;
use crate::counted::{Counted, Totals};
use crate::crossings::{against_full_speed, crossings, Crossing};
use crate::stand_in_voice::{StandInVoice, ESPEAK_SHARE};
use ev3_tictactoe::motion::calibrate::PRESS_POLL;
use std::time::{Duration, Instant, SystemTime};

/// What one sysfs attribute access costs the EV3's 300 MHz CPU: ev3dev-lang-rust's issue 38
/// measured at most 150 colour-sensor RGB reads a second, three attributes each, so about
/// 2.2 ms an attribute; a Python library that keeps its files open reaches about 2,000
/// reflected-light reads a second (0.5 ms), Python 3's `os.pread` 0.87 ms (ev3dev-lang-python
/// issue 155), an `lseek` and a `read` from C about 40 us (ev3dev issue 302). The harshest.
pub const ACCESS_COST: Duration = Duration::from_micros(2200);

/// What one attribute read costs made as this program makes it, one `pread` at offset 0 into a
/// file kept open, at the harshest figure measured for that way of reading: Python 3's
/// `os.pread` of a motor's position, 0.87 ms with the interpreter's own time in it
/// (ev3dev-lang-python issue 155); a Python library that keeps its files open 0.5 ms, C's
/// `lseek` and `read` 40 us. [`ACCESS_COST`] was measured through ev3dev-lang-rust's five calls
/// a read, which this program no longer makes; writes still go through the crate (an `lseek`
/// and a `write`) and are charged this too.
pub const ONE_CALL_ACCESS_COST: Duration = Duration::from_micros(870);

/// The share of the brick the program's own instructions take while it waits for the person,
/// when a run does not count them: 0.2 % in the ARM count (docs/figures.md, "The program's own
/// instructions"), rounded up.
const WAITING_INSTRUCTIONS_SHARE: f64 = 0.003;

/// The same while the robot works: 4.5 % in the ARM count of session 18.
const WORKING_INSTRUCTIONS_SHARE: f64 = 0.045;

/// Issue 32's budgets: while the program waits for the person or sits in the menu, and while
/// the robot works.
const WAITING_BUDGET: f64 = 0.03;
const WORKING_BUDGET: f64 = 0.25;

/// What one key-state request (EVIOCGKEY) to the buttons' input device costs: no driver writes
/// an attribute out for it, the input core copies its key bitmap (`evdev_handle_get_val` in
/// the kernel's `evdev.c`, 96 bytes under a spinlock). No one has timed it on a brick; the
/// harshest bound published is an `lseek` and a `read` of a sensor's sysfs value from C, a
/// driver's formatting included: about 40 us (ev3dev issue 302).
pub const INPUT_CALL_COST: Duration = Duration::from_micros(40);

/// What one ARM instruction costs the EV3's ARM926EJ-S at 300 MHz (3.3 ns a cycle). ARM's
/// ARM9E-S timings (ARM DDI 0165B, "Instruction Cycle Times"; the ARM926EJ-S has that core):
/// most instructions take one cycle, a load whose result is used next one or two more, a
/// taken branch three. The harsher end: every instruction three cycles, 10 ns. Cache misses
/// to the brick's SDRAM are not in either figure.
pub const INSTRUCTION_COST: Duration = Duration::from_nanos(10);

/// One phase of the run: the screen's title, how long it was up, and the accesses meanwhile.
#[derive(Debug, Clone, Default)]
pub struct Phase {
    pub title: String,
    pub seconds: f64,
    pub accesses: usize,
    /// Key-state requests to the buttons' input device meanwhile.
    pub input_calls: usize,
    /// The ARM instructions the program executed and the system calls it made meanwhile, when
    /// it ran counted.
    pub counted: Option<Totals>,
}

impl Phase {
    pub fn per_second(&self) -> f64 {
        self.accesses as f64 / self.seconds.max(1e-9)
    }

    pub fn input_calls_per_second(&self) -> f64 {
        self.input_calls as f64 / self.seconds.max(1e-9)
    }

    /// The share of the brick's CPU the accesses take at [`ACCESS_COST`], and the key-state
    /// requests at [`INPUT_CALL_COST`].
    pub fn share(&self) -> f64 {
        self.share_at(ACCESS_COST)
    }

    /// As [`Phase::share`], each access at `access_cost`.
    pub fn share_at(&self, access_cost: Duration) -> f64 {
        self.per_second() * access_cost.as_secs_f64()
            + self.input_calls_per_second() * INPUT_CALL_COST.as_secs_f64()
    }

    /// The share of the brick's CPU the program's own instructions take at
    /// [`INSTRUCTION_COST`], when they were counted.
    pub fn instructions_share(&self) -> Option<f64> {
        self.counted.map(|c| {
            c.instructions as f64 * INSTRUCTION_COST.as_secs_f64() / self.seconds.max(1e-9)
        })
    }
}

/// What the program had done at each screen, and at `until`, when counted.
pub struct Counts<'a> {
    pub at_screens: &'a [Option<Totals>],
    pub at_end: Option<Totals>,
}

/// The screens' phases, each screen's title summed over every time it was shown, in the order
/// first shown; `until` ends the last. `accesses` and `input_calls` are in time order (the
/// tree logs them as they come).
pub fn phases(
    screens: &[(Instant, String)],
    (accesses, input_calls): (&[Instant], &[Instant]),
    counts: Counts,
    until: Instant,
) -> Vec<Phase> {
    let mut phases: Vec<Phase> = Vec::new();
    for (i, (from, line)) in screens.iter().enumerate() {
        let to = screens.get(i + 1).map_or(until, |(at, _)| *at);
        let counted_to = match counts.at_screens.get(i + 1) {
            Some(next) => *next,
            None => counts.at_end,
        };
        let counted = counts
            .at_screens
            .get(i)
            .copied()
            .flatten()
            .zip(counted_to)
            .map(|(from, to)| to - from);
        let title = title_of(line);
        let within = |calls: &[Instant]| {
            calls.partition_point(|a| *a < to) - calls.partition_point(|a| a < from)
        };
        let (count, inputs) = (within(accesses), within(input_calls));
        let seconds = to.saturating_duration_since(*from).as_secs_f64();
        match phases.iter_mut().find(|p| p.title == title) {
            Some(phase) => {
                phase.seconds += seconds;
                phase.accesses += count;
                phase.input_calls += inputs;
                phase.counted = phase.counted.zip(counted).map(|(a, b)| a + b);
            }
            None => phases.push(Phase {
                title,
                seconds,
                accesses: count,
                input_calls: inputs,
                counted,
            }),
        }
    }
    phases
}

/// A screen's title: "[Reading the board] Hands off the paper." is "Reading the board".
pub fn title_of(screen: &str) -> String {
    let title = screen.split(']').next().unwrap_or_default();
    title.trim_start_matches('[').to_string()
}

/// Phases while the program only waits for the person.
pub fn is_waiting(title: &str) -> bool {
    title.starts_with("Your move")
}

/// The host's two clocks read together: the program's log stamps lines with the time of day,
/// the emulated brick its accesses with the monotonic clock.
#[derive(Clone, Copy)]
struct Clocks {
    monotonic: Instant,
    of_day: SystemTime,
}

impl Clocks {
    fn now() -> Clocks {
        Clocks {
            monotonic: Instant::now(),
            of_day: SystemTime::now(),
        }
    }

    /// These clocks, if the time of day has kept pace with the monotonic clock since they
    /// were read: a step of the time of day (a clock set by hand or by NTP) would move every
    /// stamp of the log against the accesses.
    fn checked(self) -> Clocks {
        let now = Clocks::now();
        let monotonic = now.monotonic - self.monotonic;
        let of_day = now.of_day.duration_since(self.of_day).unwrap_or_default();
        let apart = monotonic.abs_diff(of_day);
        assert!(
            apart < Duration::from_millis(1),
            "the time of day moved {apart:?} against the monotonic clock during the game"
        );
        self
    }

    /// The monotonic instant of a log line's `stamp` (RFC 3339, the time of day); `None` if it
    /// is no such stamp.
    fn instant_of(self, stamp: &str) -> Option<Instant> {
        let of_day = humantime::parse_rfc3339(stamp).ok()?;
        Some(match of_day.duration_since(self.of_day) {
            Ok(after) => self.monotonic + after,
            Err(before) => self.monotonic - before.duration(),
        })
    }
}

/// `screens` as read from the program's output, each at the instant the program showed it, as
/// its log stamps it (`log`; every screen shown is logged). A line read from the output is
/// stamped when the test's reading thread gets it, which a loaded machine can delay past the
/// first accesses of the work that follows a wait, and those would be counted in the wait;
/// the log's stamp comes before the program's next access, however loaded the machine. (The
/// counted instructions of each screen are still taken as its line is read: the counter has
/// no stamp of its own.)
fn as_the_program_showed_them(
    screens: &[(Instant, String)],
    log: &str,
    clocks: Clocks,
) -> Vec<(Instant, String)> {
    let mut logged = log.lines().filter_map(|line| {
        let (stamp, said) = line.split_once(' ')?;
        let shown = said.split_once("screen: ")?.1;
        Some((clocks.instant_of(stamp)?, shown))
    });
    let mut latest = Duration::ZERO;
    let restamped: Vec<(Instant, String)> = screens
        .iter()
        .map(
            |(read_at, line)| match logged.find(|(_, shown)| shown.starts_with(line.as_str())) {
                Some((shown_at, _)) => {
                    latest = latest.max(read_at.saturating_duration_since(shown_at));
                    (shown_at, line.clone())
                }
                None => panic!("the screen {line:?} is not in the program's log:\n{log}"),
            },
        )
        .collect();
    eprintln!(
        "the screens' lines reached the test up to {:.1} ms after the program showed them",
        latest.as_secs_f64() * 1000.0
    );
    restamped
}

/// The phases as a table for a person: the accesses and their share of the brick, and when
/// counted, the instructions (millions, and millions a second), their share, and the system
/// calls of every kind a second.
pub fn table(phases: &[Phase]) -> String {
    let mut out = format!(
        "{:<28} {:>7} {:>9} {:>8} {:>7} {:>6} {:>9} {:>6} {:>6} {:>7}\n",
        "screen", "s", "accesses", "per s", "keys/s", "brick", "M instr", "M/s", "cpu", "calls/s"
    );
    for phase in phases {
        out += &format!(
            "{:<28} {:>7.1} {:>9} {:>8.0} {:>7.0} {:>5.0}%",
            phase.title.chars().take(28).collect::<String>(),
            phase.seconds,
            phase.accesses,
            phase.per_second(),
            phase.input_calls_per_second(),
            phase.share() * 100.0
        );
        if let (Some(counted), Some(share)) = (phase.counted, phase.instructions_share()) {
            let millions = counted.instructions as f64 / 1e6;
            let seconds = phase.seconds.max(1e-9);
            out += &format!(
                " {:>9.1} {:>6.2} {:>5.1}% {:>7.0}",
                millions,
                millions / seconds,
                share * 100.0,
                counted.system_calls as f64 / seconds
            );
        }
        out += "\n";
    }
    out
}

/// The sum of `phases` that `keep` picks.
pub fn total(phases: &[Phase], keep: impl Fn(&str) -> bool) -> Phase {
    let kept = || phases.iter().filter(|p| keep(&p.title));
    Phase {
        title: String::new(),
        seconds: kept().map(|p| p.seconds).sum(),
        accesses: kept().map(|p| p.accesses).sum(),
        input_calls: kept().map(|p| p.input_calls).sum(),
        counted: kept().map(|p| p.counted).sum(),
    }
}

/// What a game of a person came to.
struct Played {
    phases: Vec<Phase>,
    /// The screen it ended on.
    ending: String,
    /// The sentences the voice said, if it had one, and how long each took to say.
    said: Vec<(String, f64)>,
    /// The ruler's crossings of the grid's lines.
    crossings: Vec<Crossing>,
}

/// A game at hard, the person first and taking 3 s over each move, as people do, so the waits
/// are measured; with the emulated brick's accesses costing `access_cost` each and the program
/// counted (or paced) as `counted` says. With `voice`, the robot speaks through the stand-in
/// espeak, and while it does, at a cost, the program's work costs what it would on a brick
/// whose CPU espeak shares.
fn a_game_of_a_person(access_cost: Duration, counted: Option<Counted>, voice: bool) -> Played {
    let brick = moving_brick();
    let stand_ins = tempfile::tempdir().unwrap();
    let voice = voice.then(|| StandInVoice::new(stand_ins.path()));
    let speaking = voice.as_ref().map(|v| v.speaking().to_path_buf());
    brick.tree().access_cost = access_cost;
    if !access_cost.is_zero() {
        brick.tree().cpu_shared = speaking.clone().map(|file| (file, ESPEAK_SHARE));
    }
    let counted = match (counted, &speaking) {
        (Some(c), Some(file)) if c.instruction_pace.is_some() => {
            Some(c.sharing_cpu(file, ESPEAK_SHARE))
        }
        (counted, _) => counted,
    };
    // At the brick's pace the buttons' key-state requests cost the input device's figure.
    brick.tree().input_call_cost = if access_cost.is_zero() {
        Duration::ZERO
    } else {
        INPUT_CALL_COST
    };
    let folder = tempfile::tempdir().unwrap();
    let args = ["play", "--difficulty", "hard", "--first", "human"];
    let clocks = Clocks::now();
    let path = voice.as_ref().map(StandInVoice::path);
    let mut run = Run::start_counted(&brick, folder.path(), &args, counted, path.as_deref());
    let ending = loop {
        let line = run.wait_for(
            &[
                "[Your move",
                "[No new mark",
                "[I win",
                "[A draw",
                "[You win",
                "[Game void",
                "[Error",
            ],
            SCREEN,
        );
        if line.starts_with("[Your move") {
            std::thread::sleep(Duration::from_secs(3));
            human_moves(&brick, &mut run);
        } else if line.starts_with("[No new mark") {
            press_touch_again(&brick);
        } else {
            break line;
        }
    };
    let _ = run.finish(SCREEN);
    let ended = Instant::now();
    // How long the set-up kept the person from their first move, in the program's own words:
    // issue 32 holds the emulated brick and the simulator to the same figure.
    let log = std::fs::read_to_string(folder.path().join("ev3-tictactoe.log")).unwrap_or_default();
    for line in log
        .lines()
        .filter(|l| l.contains("the sheet is ready") || l.contains("the blank read took"))
    {
        eprintln!("{}", line.split_once("] ").map_or(line, |(_, said)| said));
    }
    let (accesses, input_calls) = {
        let tree = brick.tree();
        (tree.accesses.clone(), tree.input_calls.clone())
    };
    let counts = Counts {
        at_screens: &run.screen_totals,
        at_end: run.counted.as_ref().and_then(Counted::so_far),
    };
    let clocks = clocks.checked();
    let screens = as_the_program_showed_them(&run.screens, &log, clocks);
    Played {
        phases: phases(&screens, (&accesses, &input_calls), counts, ended),
        ending,
        said: voice.as_ref().map(StandInVoice::spoken).unwrap_or_default(),
        crossings: crossings(&log, &screens, |stamp| clocks.instant_of(stamp)),
    }
}

/// A whole game, screen by screen: what it asks of the brick, and issue 32's budgets, each read
/// at the harshest cost measured for a read made as this program makes it
/// ([`ONE_CALL_ACCESS_COST`]): while the program waits, for the person's press or for a
/// button, at most 3 % of the brick; while the robot works, at most 25 %. The working share
/// stood on the line (24.4 to 25.3 %) until a motor's state was read only where the motor may
/// have stopped; it is now some 21 % (docs/figures.md).
#[test]
#[ignore = "the real-time brick suite (about 10 minutes): cargo test --test brick_games -- --ignored"]
fn a_whole_game_phase_by_phase_within_25_percent_of_the_brick_at_work_and_3_percent_waiting_for_a_person_or_a_button_one_touch_read_and_one_button_read_a_poll(
) {
    crate::require_fuse!();
    let phases = a_game_of_a_person(Duration::ZERO, Counted::from_env(), false).phases;
    // The notice of a first start waits for a button, as the menu does: not work.
    let notice = phase(&phases, "No robot.json").expect("the first start's notice");
    let working = total(&phases, |t| !is_waiting(t) && t != notice.title);
    let waiting = total(&phases, is_waiting);
    eprintln!(
        "{}working: {:.0} accesses/s and {:.0} key-state requests/s ({:.0} % of the brick at {} \
         ms an access and {} us a request); waiting: {:.0}/s and {:.0}/s ({:.1} %)",
        table(&phases),
        working.per_second(),
        working.input_calls_per_second(),
        working.share() * 100.0,
        ACCESS_COST.as_secs_f64() * 1000.0,
        INPUT_CALL_COST.as_micros(),
        waiting.per_second(),
        waiting.input_calls_per_second(),
        waiting.share() * 100.0
    );
    if let (Some(work), Some(wait), Some(working_calls), Some(waiting_calls)) = (
        working.instructions_share(),
        waiting.instructions_share(),
        working.counted,
        waiting.counted,
    ) {
        eprintln!(
            "the program's own instructions at {} ns each: {:.1} % of the brick while working, \
             {:.1} % while waiting; system calls of every kind: {:.0} a second while working, \
             {:.0} while waiting",
            INSTRUCTION_COST.as_nanos(),
            work * 100.0,
            wait * 100.0,
            working_calls.system_calls as f64 / working.seconds.max(1e-9),
            waiting_calls.system_calls as f64 / waiting.seconds.max(1e-9)
        );
    }
    // The budget, at the cost of a read made as this program makes it, with its own
    // instructions as counted (or as the ARM count found them).
    let instructions =
        |phase: &Phase, otherwise: f64| phase.instructions_share().unwrap_or(otherwise);
    let waiting_share =
        waiting.share_at(ONE_CALL_ACCESS_COST) + instructions(&waiting, WAITING_INSTRUCTIONS_SHARE);
    let working_share =
        working.share_at(ONE_CALL_ACCESS_COST) + instructions(&working, WORKING_INSTRUCTIONS_SHARE);
    eprintln!(
        "at {} ms a read made in one call, with the program's instructions: {:.1} % of the \
         brick while waiting (budget {:.0} %), {:.1} % while working (budget {:.0} %)",
        ONE_CALL_ACCESS_COST.as_secs_f64() * 1000.0,
        waiting_share * 100.0,
        WAITING_BUDGET * 100.0,
        working_share * 100.0,
        WORKING_BUDGET * 100.0
    );
    assert!(
        waiting_share <= WAITING_BUDGET,
        "waiting for the person takes {:.1} % of the brick:\n{}",
        waiting_share * 100.0,
        table(&phases)
    );
    let notice_share =
        notice.share_at(ONE_CALL_ACCESS_COST) + instructions(notice, WAITING_INSTRUCTIONS_SHARE);
    assert!(
        notice_share <= WAITING_BUDGET,
        "waiting for a button takes {:.1} % of the brick:\n{}",
        notice_share * 100.0,
        table(&phases)
    );
    assert!(
        working_share <= WORKING_BUDGET,
        "the robot at work takes {:.1} % of the brick:\n{}",
        working_share * 100.0,
        table(&phases)
    );
    assert!(waiting.seconds >= 6.0, "the waits measured: {phases:?}");
    // The touch sensor's value and the buttons' state once a poll each; what the screen and
    // the lights ask when the wait begins is a handful more.
    let per_poll = |per_second: f64| per_second * PRESS_POLL.as_secs_f64();
    let (reads, keys) = (
        per_poll(waiting.per_second()),
        per_poll(waiting.input_calls_per_second()),
    );
    assert!(
        reads <= 1.2 && keys <= 1.1,
        "{reads:.2} accesses and {keys:.2} key-state requests a poll while waiting:\n{}",
        table(&phases)
    );
}

/// The phase whose screen title starts with `title`, if the game showed it.
fn phase<'a>(phases: &'a [Phase], title: &str) -> Option<&'a Phase> {
    phases.iter().find(|p| p.title.starts_with(title))
}

/// The brick's pace: every attribute access costs [`ACCESS_COST`], the harshest published
/// figure, and when `scripts/arm-instructions.sh` runs the suite, every instruction of the
/// program (its ARM build under qemu) [`INSTRUCTION_COST`]; run by the plain suite, the
/// program's own computation keeps the host's pace. The robot speaks through a stand-in espeak
/// that, at the brick's pace, takes its share of the CPU while it speaks
/// ([`ESPEAK_SHARE`]). The same game at full speed first, then at the brick's pace: it must end
/// the same way, and reading the paper and the board (the blank read and the turns' reads
/// together, less the ruler's crossings) may take at most a quarter longer, as may the ruler's
/// passes against the same kinds of pass at full speed.
#[test]
#[ignore = "the real-time brick suite (about 10 minutes): cargo test --test brick_games -- --ignored"]
fn at_the_brick_s_pace_a_whole_game_ends_as_at_full_speed_and_its_reads_take_at_most_a_quarter_longer(
) {
    crate::require_fuse!();
    let counted = Counted::from_env();
    let paced_program = counted.clone().map(|c| c.paced(INSTRUCTION_COST));
    let cpu = if paced_program.is_some() {
        format!("{} ns an instruction", INSTRUCTION_COST.as_nanos())
    } else {
        "the program's own computation at the host's pace".to_string()
    };
    let full = a_game_of_a_person(Duration::ZERO, counted, true);
    let paced = a_game_of_a_person(ACCESS_COST, paced_program, true);
    eprintln!(
        "at full speed:\n{}at the brick's pace ({} ms an access, {cpu}; espeak taking {:.0} % \
         of the CPU while it speaks):\n{}the voice said {} sentences at full speed, {} ({:.1} s \
         in all) at the brick's pace",
        table(&full.phases),
        ACCESS_COST.as_secs_f64() * 1000.0,
        ESPEAK_SHARE * 100.0,
        table(&paced.phases),
        full.said.len(),
        paced.said.len(),
        paced.said.iter().map(|(_, s)| s).sum::<f64>()
    );
    assert!(!paced.said.is_empty(), "the voice said nothing");
    let title = |line: &str| line.split(']').next().unwrap_or_default().to_string();
    assert_eq!(
        title(&paced.ending),
        title(&full.ending),
        "{}",
        paced.ending
    );
    // The reads together (the paper's read and the board's three, summed), less the ruler's
    // crossings, and the crossings pass for pass: how many passes a crossing needs is the
    // draw of the noise (see `crossings`), and once the blank read took 9 to 12 s, one game's
    // ruler could tip a check of the sum alone.
    const READS: [&str; 2] = ["Reading the paper", "Reading the board"];
    let reading = |game: &Played| -> f64 {
        let phases = &game.phases;
        let reads: f64 = READS
            .iter()
            .map(|read| {
                phase(phases, read).map_or_else(
                    || panic!("no {read} screen:\n{}", table(phases)),
                    |p| p.seconds,
                )
            })
            .sum();
        let crossing = |c: &&Crossing| READS.iter().any(|read| c.screen.starts_with(read));
        reads
            - game
                .crossings
                .iter()
                .filter(crossing)
                .map(Crossing::seconds)
                .sum::<f64>()
    };
    let (at_full, at_pace) = (reading(&full), reading(&paced));
    let ruler = against_full_speed(&paced.crossings, &full.crossings);
    let (ruler_at_pace, ruler_at_full) = (ruler.at_pace, ruler.at_full);
    eprintln!(
        "reading the paper and the board, less the ruler's crossings: {at_pace:.1} s at the \
         brick's pace against {at_full:.1} s at full speed; the ruler's {} passes at the \
         brick's pace {ruler_at_pace:.1} s, the same kinds of pass at full speed \
         {ruler_at_full:.1} s",
        ruler.passes
    );
    assert!(
        at_pace <= 1.25 * at_full,
        "reading the paper and the board, less the ruler's crossings: {at_pace:.1} s at the \
         brick's pace against {at_full:.1} s at full speed"
    );
    assert!(
        ruler_at_full > 0.0,
        "no pass of the ruler's to compare: {:?}",
        paced.crossings
    );
    assert!(
        ruler_at_pace <= 1.25 * ruler_at_full,
        "the ruler's passes: {ruler_at_pace:.1} s at the brick's pace against \
         {ruler_at_full:.1} s for the same kinds of pass at full speed"
    );
}
