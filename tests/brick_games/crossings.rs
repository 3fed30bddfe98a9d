//! The ruler's crossings of the grid's lines, as the program's log gives them: each crossing's
//! passes, their speeds and times, and the screen it was made under.
//!
//! Why the pace test reads them apart from the rest of the reads: how many passes a crossing
//! needs is the draw of the sensor's noise (one to four, out and back), so two games with
//! nothing changed between them differ by seconds in the ruler alone (1.3 s against 9.4 s in
//! one CI run). Judged on its total, the ruler makes a check of the brick's pace fail on a
//! draw; judged pass for pass against the same kind of pass at full speed, it measures the pace.

use crate::pace::title_of;
use std::collections::BTreeMap;
use std::time::Instant;

/// One crossing of a grid line, out and back, as many times as the fit needed.
#[derive(Debug, Clone)]
pub struct Crossing {
    /// The title of the screen it was made under.
    pub screen: String,
    /// How far either side of the line it swept, in degrees: a crossing of a grid just drawn
    /// sweeps less than a check's.
    pub reach_deg: u32,
    /// Each pass out and back: its speed in deg/s and its time in seconds.
    pub passes: Vec<(u32, f64)>,
}

impl Crossing {
    pub fn seconds(&self) -> f64 {
        self.passes.iter().map(|(_, s)| s).sum()
    }

    /// Each pass with what kind of pass it was: the first goes at the read's speed and
    /// includes the travel to its start, the later ones at half of it.
    fn kinds(&self) -> impl Iterator<Item = (PassKind, f64)> + '_ {
        self.passes.iter().enumerate().map(|(i, &(_, seconds))| {
            let kind = PassKind {
                reach_deg: self.reach_deg,
                first: i == 0,
            };
            (kind, seconds)
        })
    }
}

/// Passes that make the same moves: the same reach, and first or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct PassKind {
    reach_deg: u32,
    first: bool,
}

/// The crossings in `log`, each under the last of `screens` (their instants, as the program
/// showed them) shown before its line was logged; `instant_of` turns a log stamp into an
/// instant on the screens' clock.
pub fn crossings(
    log: &str,
    screens: &[(Instant, String)],
    instant_of: impl Fn(&str) -> Option<Instant>,
) -> Vec<Crossing> {
    log.lines()
        .filter_map(|line| {
            let (stamp, said) = line.split_once(' ')?;
            let crossed = said.split_once("] crossed the ")?.1;
            let at = instant_of(stamp)?;
            let screen = screens
                .iter()
                .take_while(|(shown, _)| *shown <= at)
                .last()
                .map(|(_, shown)| title_of(shown))
                .unwrap_or_default();
            Some(parse(crossed, screen).unwrap_or_else(|| panic!("a crossing unread: {line}")))
        })
        .collect()
}

/// "rows axis's grid line at 120 deg, 30 deg either side, out and back: 2 passes, 1.34 s at
/// 400 deg/s, 1.47 s at 200 deg/s"
fn parse(crossed: &str, screen: String) -> Option<Crossing> {
    let (place, passes) = crossed.split_once(" out and back: ")?;
    let reach_deg = place
        .strip_suffix(" deg either side,")?
        .rsplit(' ')
        .next()?
        .parse()
        .ok()?;
    let (count, timed) = passes.split_once(" passes, ")?;
    let passes: Vec<(u32, f64)> = timed
        .split(", ")
        .map(|pass| {
            let (seconds, speed) = pass.split_once(" s at ")?;
            let speed = speed.strip_suffix(" deg/s")?.parse().ok()?;
            Some((speed, seconds.parse().ok()?))
        })
        .collect::<Option<_>>()?;
    (count.parse::<usize>().ok()? == passes.len()).then_some(Crossing {
        screen,
        reach_deg,
        passes,
    })
}

/// How far two crossings' reaches may differ and their passes still be of one kind, in
/// degrees: a spot the eye measured other than the config says (and read by: 10 % off, see
/// `reading/eye.rs`) moves a crossing's reach by about 3 degrees, where a crossing of a grid
/// just drawn and a check's differ by some 16.
const REACH_SLACK_DEG: u32 = 4;

/// The ruler's passes of one game against what the same kinds of pass took in another.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Compared {
    /// The passes compared: those whose kind both games made.
    pub passes: usize,
    /// Their seconds at the brick's pace.
    pub at_pace: f64,
    /// The seconds the same passes took at full speed, each its kind's mean.
    pub at_full: f64,
}

/// The ruler's time in `paced` against what the same passes took at `full` speed, kind for
/// kind (a kind's mean time, the kind whose reach is nearest), over the passes whose kind both
/// games made.
pub fn against_full_speed(paced: &[Crossing], full: &[Crossing]) -> Compared {
    let mut at_full: BTreeMap<PassKind, (f64, usize)> = BTreeMap::new();
    for (kind, seconds) in full.iter().flat_map(Crossing::kinds) {
        let sum = at_full.entry(kind).or_default();
        *sum = (sum.0 + seconds, sum.1 + 1);
    }
    let mean_of_its_kind = |kind: PassKind| -> Option<f64> {
        at_full
            .iter()
            .filter(|(k, _)| k.first == kind.first)
            .map(|(k, &(sum, count))| (k.reach_deg.abs_diff(kind.reach_deg), sum / count as f64))
            .filter(|&(apart, _)| apart <= REACH_SLACK_DEG)
            .min_by_key(|&(apart, _)| apart)
            .map(|(_, mean)| mean)
    };
    paced
        .iter()
        .flat_map(Crossing::kinds)
        .filter_map(|(kind, seconds)| Some((seconds, mean_of_its_kind(kind)?)))
        .fold(
            Compared {
                passes: 0,
                at_pace: 0.0,
                at_full: 0.0,
            },
            |sum, (seconds, mean)| Compared {
                passes: sum.passes + 1,
                at_pace: sum.at_pace + seconds,
                at_full: sum.at_full + mean,
            },
        )
}

#[test]
fn a_crossing_is_read_back_from_the_line_the_program_logs() {
    let crossed = "rows axis's grid line at 120 deg, 30 deg either side, out and back: 2 \
                   passes, 1.34 s at 400 deg/s, 1.47 s at 200 deg/s";
    let crossing = parse(crossed, "Reading the board".into()).unwrap();
    assert_eq!(crossing.reach_deg, 30);
    assert_eq!(crossing.passes, vec![(400, 1.34), (200, 1.47)]);
    assert!((crossing.seconds() - 2.81).abs() < 1e-9);
    assert!(parse(&crossed.replace("2 passes", "3 passes"), String::new()).is_none());
}

#[test]
fn a_game_whose_ruler_needed_more_passes_is_judged_on_each_pass_against_its_kind() {
    let crossing = |reach_deg, passes: &[f64]| Crossing {
        screen: String::new(),
        reach_deg,
        passes: passes.iter().map(|&s| (400, s)).collect(),
    };
    let full = [
        crossing(30, &[1.0]),
        crossing(30, &[1.2, 1.5]),
        crossing(9, &[0.8]),
    ];
    // Four passes where the full-speed game needed one or two, each a fifth slower than the
    // mean of its kind, two of them in a crossing a little wider (a spot read wider); a kind
    // the full-speed game never made is left out.
    let paced = [
        crossing(30, &[1.32, 1.8]),
        crossing(32, &[1.32, 1.8]),
        crossing(18, &[5.0]),
    ];
    let Compared {
        at_pace: paced_seconds,
        at_full,
        ..
    } = against_full_speed(&paced, &full);
    assert!((paced_seconds - 6.24).abs() < 1e-9, "{paced_seconds}");
    assert!((at_full - 2.0 * (1.1 + 1.5)).abs() < 1e-9, "{at_full}");
    assert!((paced_seconds / at_full - 1.2).abs() < 1e-9);
}
