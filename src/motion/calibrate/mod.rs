//! `ev3-tictactoe calibrate`: homes, measures each axis's travel, reads the blank paper and a
//! mark, and suggests the thresholds for the robot config.

use super::gantry::ReadSpread;
use super::sensing::{self, EyeMeasure, Sample};
use super::{Axis, Gantry, MotionError};
use crate::config::{AxisPoint, RobotConfig, SensingConfig};
use crate::game::Cell;
use crate::physical::PENS;
use std::fmt::Write as _;
use std::time::Duration;

mod findings;
pub use findings::{apply, suggested_travel_deg, Change, Finding, Verdict};

/// The square the human is asked to mark for calibration: the middle one.
pub const MARK_SQUARE: Cell = Cell { row: 1, col: 1 };

/// What calibration measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    pub homing: super::gantry::HomingReport,
    /// Where each axis's far stop is, from the homed zero.
    pub columns_far_stop_deg: i32,
    pub rows_far_stop_deg: i32,
    /// Blank paper, per square, row by row.
    pub blank_percent: Vec<u8>,
    /// Squares along each side of the board read.
    pub board_size: usize,
    /// The darkest stretch read across the test mark, if a mark was read.
    pub mark_percent: Option<f64>,
    /// How far below its top the pen stopped on the paper.
    pub pen_contact_deg: i32,
    /// The colour sensor's noise on blank paper (one standard deviation), in percent.
    pub noise_percent: f64,
    /// The time between two colour readings, as measured while sweeping.
    pub read_period: Duration,
    /// The time between two readings taken while sweeping: 5th percentile, median, 95th.
    pub between_reads: Option<ReadSpread>,
    /// Held still over the paper, the sensor kept one value: its fresh readings cannot be told
    /// from repeats, so the sweeps are paced by the robot's reads.
    pub quiet: bool,
    /// Every reading of the sweep across the test mark, for a picture of what the sensor saw
    /// (see [`crate::read_record`]); empty if no mark was read.
    pub mark_samples: Vec<Sample>,
    /// The sensor's spot and the pen's ink measured on the grid calibration drew, or why not.
    pub eye: Result<EyeMeasure, String>,
    /// `sensing.spot_mm` as configured.
    pub configured_spot_mm: f64,
    /// Where the colour sensor sits beside the pen, as the grid's lines showed it (the
    /// configured place unless they showed it elsewhere: see `gantry::sensor_place`), and
    /// `sensing.sensor_offset_deg` as configured.
    pub sensor_offset_deg: AxisPoint,
    pub configured_sensor_offset_deg: AxisPoint,
}

impl Calibration {
    /// The contrast that puts the threshold halfway between the square's paper and the mark.
    pub fn suggested_contrast_percent(&self) -> Option<u8> {
        let blank = f64::from(self.blank_percent[MARK_SQUARE.index(self.board_size)]);
        let mark = self.mark_percent?;
        if blank <= 0.0 || mark >= blank {
            return None;
        }
        let halfway = (blank + mark) / 2.0;
        // Within the range the config accepts, so the suggestion always loads: up to 95, and no
        // lower than the faint-mark floor, which may not exceed it (nor 5).
        let floor = SensingConfig::default().faint_contrast_percent.max(5);
        Some(
            ((1.0 - halfway / blank) * 100.0)
                .round()
                .clamp(f64::from(floor), 95.0) as u8,
        )
    }

    /// The pen depth to configure: two degrees past where it meets the paper, so it presses
    /// lightly and a slightly thinner sheet still gets ink.
    pub fn suggested_down_deg(&self) -> i32 {
        self.pen_contact_deg + 2
    }

    pub fn render(&self, configured_columns: i32, configured_rows: i32) -> String {
        let mut out = String::new();
        let h = &self.homing;
        let _ = writeln!(
            out,
            "Homing: travelled pen {} deg, columns {} deg, rows {} deg to the end stops in {:.1} s.",
            h.pen_travelled_deg,
            h.columns_travelled_deg,
            h.rows_travelled_deg,
            h.took.as_secs_f64()
        );
        let _ = writeln!(
            out,
            "Travel: the columns axis's far stop is at {} deg (travel_deg is {configured_columns}); \
             the rows axis's at {} deg (travel_deg is {configured_rows}).",
            self.columns_far_stop_deg, self.rows_far_stop_deg
        );
        for (name, far, configured) in [
            ("columns", self.columns_far_stop_deg, configured_columns),
            ("rows", self.rows_far_stop_deg, configured_rows),
        ] {
            if let Some(deg) = suggested_travel_deg(far, configured) {
                let _ = writeln!(
                    out,
                    "  Set {name}.travel_deg to at most {deg}: the axis cannot reach {configured}."
                );
            }
        }
        let _ = writeln!(
            out,
            "Pen: it meets the paper {} deg below its top. Suggested: \"pen\": {{\"down_deg\": {}}} \
             (it then stops on the paper up to pen.contact_band_deg above that, which is touching \
             down, not a jam).",
            self.pen_contact_deg,
            self.suggested_down_deg()
        );
        let (low, high) = (
            self.blank_percent.iter().min().copied().unwrap_or(0),
            self.blank_percent.iter().max().copied().unwrap_or(0),
        );
        let _ = writeln!(
            out,
            "Blank paper: {low}% to {high}% across the {} squares; the sensor's noise on it \
             {:.1}% (one standard deviation); a fresh reading every {:.1} ms while sweeping{}.{}",
            self.blank_percent.len(),
            self.noise_percent,
            self.read_period.as_secs_f64() * 1000.0,
            self.between_reads
                .map_or_else(String::new, |spread| format!("; {spread}")),
            if self.quiet {
                " Held still, the sensor kept one value (it does not flicker), so the sweeps \
                 go at the pace of the robot's reads."
            } else {
                ""
            }
        );
        self.render_eye(&mut out);
        match (self.mark_percent, self.suggested_contrast_percent()) {
            (Some(mark), Some(contrast)) => {
                let blank = f64::from(self.blank_percent[MARK_SQUARE.index(self.board_size)]);
                let _ = writeln!(
                    out,
                    "Mark in {}: darkest {mark:.0}%, {:.0}% darker than its paper.\n\
                     Suggested: \"sensing\": {{\"mark_contrast_percent\": {contrast}}} \
                     (halfway between that square's paper and the mark).",
                    MARK_SQUARE.name(self.board_size),
                    (blank - mark) / blank.max(1.0) * 100.0
                );
            }
            (Some(mark), None) => {
                let _ = writeln!(
                    out,
                    "Mark in {}: darkest {mark:.0}%, no darker than the paper: \
                     is the mark there, and dark?",
                    MARK_SQUARE.name(self.board_size)
                );
            }
            (None, _) => {
                let _ = writeln!(
                    out,
                    "No mark was read (no touch): thresholds not suggested."
                );
            }
        }
        out
    }
}

impl Calibration {
    /// The eye measured on the grid, and the spot to configure if it differs.
    fn render_eye(&self, out: &mut String) {
        let configured = self.configured_spot_mm;
        match &self.eye {
            Ok(eye) => {
                let _ = writeln!(
                    out,
                    "The eye, measured on {} of the grid's {} crossings: the sensor's spot {}{:.1} \
                     mm across (give or take {:.1}), the robot's ink {:.0} % darker than the \
                     paper.",
                    eye.crossings,
                    eye.offered,
                    if eye.at_least { "at least " } else { "" },
                    eye.spot_mm,
                    eye.spot_uncertainty_mm,
                    eye.ink_contrast * 100.0
                );
                let _ = match self.spot_verdict() {
                    Verdict::Untrusted(_) => writeln!(
                        out,
                        "  Not sure enough to suggest a spot: sensing.spot_mm stays {configured}."
                    ),
                    Verdict::Change(_) => writeln!(
                        out,
                        "  Suggested: \"sensing\": {{\"spot_mm\": {:.1}}} (now {configured}). Each \
                         game measures it again on its own grid and reads by what it measures; \
                         the config is its first guess.",
                        eye.spot_mm
                    ),
                    Verdict::Agrees => writeln!(out, "  sensing.spot_mm ({configured}) agrees."),
                };
            }
            Err(why) => {
                let _ = writeln!(out, "The eye was not measured: {why}.");
            }
        }
        let configured = self.configured_sensor_offset_deg;
        let _ = match self.sensor_place_finding().verdict {
            Verdict::Change(Change::SensorOffsetDeg(found)) => writeln!(
                out,
                "The grid's lines showed the sensor elsewhere beside the pen.\n  Suggested: \
                 \"sensing\": {{\"sensor_offset_deg\": {{\"columns\": {}, \"rows\": {}}}}} (now \
                 {}, {}).",
                found.columns, found.rows, configured.columns, configured.rows
            ),
            _ => writeln!(
                out,
                "The grid's lines lie where the sensor was sent to see them: \
                 sensing.sensor_offset_deg ({}, {}) agrees.",
                configured.columns, configured.rows
            ),
        };
    }
}

/// Which pens the configured sensor spot can see, with the figures: each pen's stroke through
/// the spot's centre, how much darker than the paper it reads, against the faint floor
/// (`sensing.faint_contrast_percent`). Below it no threshold tells the stroke from paper; a
/// filled square of any of them is read.
pub fn pens_table(config: &RobotConfig) -> String {
    let spot_mm = config.sensing.spot_mm;
    let floor = f64::from(config.sensing.faint_contrast_percent);
    let mut out = format!(
        "Pens under this {spot_mm} mm spot (one stroke through its centre; it must read at least \
         {floor:.0} % darker than the paper):\n"
    );
    for pen in PENS {
        let dip = pen.stroke_dip(spot_mm) * 100.0;
        let verdict = if dip >= floor {
            "seen"
        } else {
            "beyond this sensor: draw with a thicker or darker pen, or mount the sensor lower"
        };
        let _ = writeln!(out, "  {:<20} {dip:>4.1} % darker: {verdict}", pen.name);
    }
    out
}

/// How often the touch sensor (and the buttons) are read while the program waits for a
/// person: as seldom as still catches the shortest press. Each read is a system call the
/// brick's 300 MHz CPU pays for (docs/figures.md, "What a game asks of the brick"), and a
/// press is seen only if a read falls within it. How short a press is: a button press is over
/// within 100 ms (Aalto University and KAIST's simulations of button pressing, 2018); mouse
/// clicks held 87 ms on average at ages 25 to 34 and 137 ms at 65 and over, with a person's
/// own presses spread by 30 to 50 ms (ClickSense's two studies, 518 people). A young person's
/// quick press, the mean less the widest spread, is some 40 ms: read every 40 ms, a press that
/// long always has a read within it. (It was 20 ms: twice the reads, for presses of half that.)
pub const PRESS_POLL: Duration = Duration::from_millis(40);

/// Waits for the touch sensor to be pressed and released, up to `timeout`. False if it was not.
pub fn wait_for_touch(gantry: &mut Gantry, timeout: Duration) -> Result<bool, MotionError> {
    let start = gantry.clock().now();
    let mut pressed = false;
    while gantry.clock().now() - start < timeout {
        // A person who asked to stop is not going to draw the mark.
        gantry.check_stop()?;
        if touch_released(gantry, &mut pressed)? {
            return Ok(true);
        }
        gantry.clock().sleep(PRESS_POLL);
    }
    Ok(false)
}

/// Reads the touch sensor once: true when it has just been let go after a press. `pressed`
/// carries the last reading from one call to the next (start with false).
pub fn touch_released(gantry: &mut Gantry, pressed: &mut bool) -> Result<bool, MotionError> {
    let now_pressed = gantry.robot_mut().touch.is_pressed()?;
    let released = *pressed && !now_pressed;
    *pressed = now_pressed;
    Ok(released)
}

/// A step of calibration, told to the user as it begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Homing,
    MeasuringTravel,
    /// The pen is lowered onto the sheet's corner to find the paper.
    FindingPaper,
    /// The grid is drawn, for the sensor's spot to be measured on its lines.
    DrawingGrid,
    ReadingPaper,
    /// The human is asked to draw an X in `cell` of a board of side `size` and press the
    /// touch sensor.
    FillIn {
        cell: Cell,
        size: usize,
    },
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Homing => f.write_str("Homing..."),
            Step::MeasuringTravel => f.write_str("Measuring each axis's travel..."),
            Step::FindingPaper => f.write_str(
                "Lowering the pen onto the sheet's corner to find the paper (it leaves a dot)...",
            ),
            Step::DrawingGrid => {
                f.write_str("Drawing the grid, to measure the sensor's spot on its lines...")
            }
            Step::ReadingPaper => f.write_str("Reading the blank paper..."),
            Step::FillIn { cell, size } => write!(
                f,
                "Draw an X across {} with the pen you will play with, then press \
                 the touch sensor.",
                cell.name(*size)
            ),
        }
    }
}

/// Runs the calibration, telling `step` as each step begins. After asking for the mark, the
/// touch sensor is awaited for up to `wait_for_mark`.
pub fn calibrate(
    gantry: &mut Gantry,
    step: &mut dyn FnMut(Step),
    wait_for_mark: Duration,
) -> Result<Calibration, MotionError> {
    step(Step::Homing);
    let homing = gantry.home()?;
    step(Step::MeasuringTravel);
    let columns_far_stop_deg = gantry.measure_travel(Axis::Columns)?;
    let rows_far_stop_deg = gantry.measure_travel(Axis::Rows)?;
    step(Step::FindingPaper);
    let pen_contact_deg = gantry.measure_pen_contact()?;
    step(Step::DrawingGrid);
    let configured_spot_mm = gantry.config().sensing.spot_mm;
    let configured_sensor_offset_deg = gantry.sensor_offset_deg();
    // The grid is the eye's target. A pen that leaves no ink (the very thing calibration may
    // be finding out) leaves the eye unmeasured, not the rest of calibration undone.
    gantry.draw_grid()?;
    step(Step::ReadingPaper);
    let (blank, eye) = match gantry.read_blank_grid() {
        Ok(blank) => {
            let eye = gantry
                .eye()
                .ok_or_else(|| "the grid's crossings showed too little of its lines".to_string());
            (blank, eye)
        }
        Err(MotionError::NoInk { darkest_percent }) => (
            gantry.take_blank_readings()?,
            Err(format!(
                "the grid's lines read at most {darkest_percent} % darker than the paper: \
                 did the pen ink, and does it reach the paper?"
            )),
        ),
        Err(other) => return Err(other),
    };
    gantry.park()?;
    let board_size = gantry.config().board.size;
    step(Step::FillIn {
        cell: MARK_SQUARE,
        size: board_size,
    });
    let mut mark_samples = Vec::new();
    let mark_percent = if wait_for_touch(gantry, wait_for_mark)? {
        let speed = gantry.config().sensing.sweep_speed_deg_per_s;
        let per_stretch = gantry.config().sensing.samples_per_stretch;
        let readings = gantry.sweep_squares(&[MARK_SQUARE], speed, 0)?;
        gantry.park()?;
        readings.first().and_then(|(_, samples)| {
            mark_samples = samples.clone();
            let percents: Vec<u8> = samples.iter().map(|s| s.percent).collect();
            sensing::darkest_stretch(&percents, per_stretch)
        })
    } else {
        None
    };
    Ok(Calibration {
        homing,
        columns_far_stop_deg,
        rows_far_stop_deg,
        blank_percent: blank.levels(),
        board_size,
        mark_percent,
        pen_contact_deg,
        noise_percent: blank.squares[0].noise,
        read_period: gantry.read_period(),
        between_reads: gantry.between_reads(),
        quiet: gantry.sensor_is_quiet(),
        mark_samples,
        eye,
        configured_spot_mm,
        sensor_offset_deg: gantry.sensor_offset_deg(),
        configured_sensor_offset_deg,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::config::RobotConfig;

    /// A calibration that read `blank` paper and a `mark`, with no grid measured.
    pub(crate) fn calibration(blank: u8, mark: f64) -> Calibration {
        Calibration {
            homing: Default::default(),
            columns_far_stop_deg: 550,
            rows_far_stop_deg: 370,
            blank_percent: vec![blank; 9],
            board_size: 3,
            mark_percent: Some(mark),
            pen_contact_deg: 28,
            noise_percent: 1.0,
            read_period: Duration::from_millis(10),
            between_reads: None,
            quiet: false,
            mark_samples: Vec::new(),
            eye: Err("no grid in this test".to_string()),
            configured_spot_mm: 12.0,
            sensor_offset_deg: AxisPoint::new(170, 0),
            configured_sensor_offset_deg: AxisPoint::new(170, 0),
        }
    }

    pub(crate) fn eye(spot_mm: f64) -> EyeMeasure {
        EyeMeasure {
            spot_mm,
            spot_uncertainty_mm: 0.2,
            ink_contrast: 0.85,
            crossings: 6,
            offered: 6,
            at_least: false,
        }
    }

    #[test]
    fn a_spot_measured_apart_from_the_configured_one_is_suggested_and_an_agreeing_one_is_not() {
        let mut measured = calibration(70, 40.0);
        measured.eye = Ok(eye(6.2));
        let report = measured.render(520, 340);
        assert!(report.contains("\"spot_mm\": 6.2} (now 12)"), "{report}");
        measured.eye = Ok(eye(12.3));
        let report = measured.render(520, 340);
        assert!(report.contains("sensing.spot_mm (12) agrees"), "{report}");
        assert!(!report.contains("\"spot_mm\""), "{report}");
    }

    #[test]
    fn every_suggested_contrast_loads_into_the_config() {
        for (blank, mark) in [
            (70, 69.9),
            (70, 68.0),
            (70, 40.0),
            (70, 1.0),
            (100, 0.0),
            (1, 0.5),
        ] {
            let contrast = calibration(blank, mark)
                .suggested_contrast_percent()
                .expect("the mark is darker than the paper");
            let mut config = RobotConfig::default();
            config.sensing.mark_contrast_percent = contrast;
            assert_eq!(
                config.validate(),
                Ok(()),
                "blank {blank}%, mark {mark}%: suggested {contrast}"
            );
        }
    }
}
