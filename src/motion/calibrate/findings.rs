//! What a calibration means for the robot config, one finding at a time: what was measured,
//! and the change it suggests, or that the config agrees, or why the measurement is not to be
//! trusted. Calibration from the brick's buttons shows each finding with a press to keep its
//! change; `calibrate` on a terminal prints the same suggestions as JSON to paste.

use super::{Calibration, MARK_SQUARE};
use crate::config::{AxisPoint, RobotConfig};
use crate::motion::Axis;

/// How far short of its measured far stop an axis's travel is set, so the carriage never
/// drives into the stop it has just found (the stop's own give, a rack's wear).
pub const TRAVEL_CLEARANCE_DEG: i32 = 5;

/// A setting of the robot config that calibration measured a value for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Change {
    /// `columns.travel_deg` or `rows.travel_deg`.
    TravelDeg(Axis, i32),
    /// `pen.down_deg`.
    PenDownDeg(i32),
    /// `sensing.spot_mm`.
    SpotMm(f64),
    /// `sensing.mark_contrast_percent`.
    MarkContrastPercent(u8),
    /// `sensing.sensor_offset_deg`.
    SensorOffsetDeg(AxisPoint),
}

impl Change {
    /// Writes the change into `config`.
    pub fn apply(self, config: &mut RobotConfig) {
        match self {
            Change::TravelDeg(Axis::Rows, deg) => config.rows.travel_deg = deg,
            Change::TravelDeg(_, deg) => config.columns.travel_deg = deg,
            Change::PenDownDeg(deg) => config.pen.down_deg = deg,
            Change::SpotMm(mm) => config.sensing.spot_mm = mm,
            Change::MarkContrastPercent(percent) => config.sensing.mark_contrast_percent = percent,
            Change::SensorOffsetDeg(at) => config.sensing.sensor_offset_deg = at,
        }
    }

    /// The setting, its new value and what `config` holds now: "pen.down_deg 30 (now 28)".
    pub fn describe(self, config: &RobotConfig) -> String {
        match self {
            Change::TravelDeg(Axis::Rows, deg) => {
                format!("rows.travel_deg {deg} (now {})", config.rows.travel_deg)
            }
            Change::TravelDeg(_, deg) => {
                format!(
                    "columns.travel_deg {deg} (now {})",
                    config.columns.travel_deg
                )
            }
            Change::PenDownDeg(deg) => format!("pen.down_deg {deg} (now {})", config.pen.down_deg),
            Change::SpotMm(mm) => format!("sensing.spot_mm {mm} (now {})", config.sensing.spot_mm),
            Change::MarkContrastPercent(percent) => format!(
                "sensing.mark_contrast_percent {percent} (now {})",
                config.sensing.mark_contrast_percent
            ),
            Change::SensorOffsetDeg(at) => {
                let now = config.sensing.sensor_offset_deg;
                format!(
                    "sensing.sensor_offset_deg {}, {} (now {}, {})",
                    at.columns, at.rows, now.columns, now.rows
                )
            }
        }
    }
}

/// What one measurement says of the config.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The config should change so.
    Change(Change),
    /// The config already fits what was measured.
    Agrees,
    /// The measurement cannot be trusted to change anything; why.
    Untrusted(String),
}

/// One measurement of a calibration and its verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// What was measured, as a screen's title: "The pen".
    pub topic: &'static str,
    /// The measurement in a sentence, with its units.
    pub measured: String,
    pub verdict: Verdict,
}

impl Calibration {
    /// Every measurement, in the order calibration made them, judged against `config`.
    pub fn findings(&self, config: &RobotConfig) -> Vec<Finding> {
        let mut findings = Vec::new();
        for (topic, axis, far, configured) in [
            (
                "Columns travel",
                Axis::Columns,
                self.columns_far_stop_deg,
                config.columns.travel_deg,
            ),
            (
                "Rows travel",
                Axis::Rows,
                self.rows_far_stop_deg,
                config.rows.travel_deg,
            ),
        ] {
            findings.push(Finding {
                topic,
                measured: format!("The far end stop is {far} deg from home."),
                verdict: match suggested_travel_deg(far, configured) {
                    Some(deg) => Verdict::Change(Change::TravelDeg(axis, deg)),
                    None => Verdict::Agrees,
                },
            });
        }
        let down = self.suggested_down_deg();
        findings.push(Finding {
            topic: "The pen",
            measured: format!(
                "It meets the paper {} deg below its top.",
                self.pen_contact_deg
            ),
            verdict: if down == config.pen.down_deg {
                Verdict::Agrees
            } else {
                Verdict::Change(Change::PenDownDeg(down))
            },
        });
        findings.push(self.spot_finding());
        findings.push(self.sensor_place_finding());
        findings.push(self.contrast_finding(config));
        findings
    }

    /// The sensor's spot, as measured on the grid's crossings, against `sensing.spot_mm`.
    pub fn spot_verdict(&self) -> Verdict {
        let configured = self.configured_spot_mm;
        match &self.eye {
            Err(why) => Verdict::Untrusted(why.clone()),
            Ok(eye) if !eye.trusted() => Verdict::Untrusted(format!(
                "measured on {} of {} crossings, give or take {:.1} mm: not sure enough",
                eye.crossings, eye.offered, eye.spot_uncertainty_mm
            )),
            Ok(eye) => {
                let differs =
                    (eye.spot_mm - configured).abs() > (2.0 * eye.spot_uncertainty_mm).max(0.5);
                if differs {
                    Verdict::Change(Change::SpotMm((eye.spot_mm * 10.0).round() / 10.0))
                } else {
                    Verdict::Agrees
                }
            }
        }
    }

    fn spot_finding(&self) -> Finding {
        let measured = match &self.eye {
            Ok(eye) => format!(
                "The sensor's spot is {}{:.1} mm across; the robot's ink reads {:.0} % darker \
                 than the paper.",
                if eye.at_least { "at least " } else { "" },
                eye.spot_mm,
                eye.ink_contrast * 100.0
            ),
            Err(_) => "The sensor's spot was not measured.".to_string(),
        };
        Finding {
            topic: "The sensor's spot",
            measured,
            verdict: self.spot_verdict(),
        }
    }

    /// Where the grid's lines showed the sensor beside the pen, against the configured place
    /// (not the gantry's, which already reads by what they showed).
    pub(super) fn sensor_place_finding(&self) -> Finding {
        let (found, configured) = (self.sensor_offset_deg, self.configured_sensor_offset_deg);
        Finding {
            topic: "The sensor's place",
            measured: format!(
                "The grid's lines show the sensor {} deg along the columns axis and {} deg \
                 along the rows axis from the pen.",
                found.columns, found.rows
            ),
            verdict: if found == configured {
                Verdict::Agrees
            } else {
                Verdict::Change(Change::SensorOffsetDeg(found))
            },
        }
    }

    fn contrast_finding(&self, config: &RobotConfig) -> Finding {
        let square = MARK_SQUARE.name(self.board_size);
        let blank = f64::from(self.blank_percent[MARK_SQUARE.index(self.board_size)]);
        let (measured, verdict) = match (self.mark_percent, self.suggested_contrast_percent()) {
            (Some(mark), Some(contrast)) => (
                format!(
                    "Your X in {square} reads {mark:.0} %, its paper {blank:.0} %: {:.0} % darker.",
                    (blank - mark) / blank.max(1.0) * 100.0
                ),
                if contrast == config.sensing.mark_contrast_percent {
                    Verdict::Agrees
                } else {
                    Verdict::Change(Change::MarkContrastPercent(contrast))
                },
            ),
            (Some(mark), None) => (
                format!("Your X in {square} reads {mark:.0} %, its paper {blank:.0} %."),
                Verdict::Untrusted(
                    "the mark reads no darker than its paper: was it drawn, and dark?".to_string(),
                ),
            ),
            (None, _) => (
                "No X was read.".to_string(),
                Verdict::Untrusted("the touch sensor was not pressed after the X".to_string()),
            ),
        };
        Finding {
            topic: "Your mark",
            measured,
            verdict,
        }
    }
}

/// The travel to configure for an axis whose far stop was measured at `far_stop_deg`, if the
/// configured travel does not fit within it.
pub fn suggested_travel_deg(far_stop_deg: i32, configured_deg: i32) -> Option<i32> {
    (far_stop_deg < configured_deg).then_some(far_stop_deg - TRAVEL_CLEARANCE_DEG)
}

/// `config` with the `kept` changes, if the result is a config the program can use; otherwise
/// the setting that is wrong and why.
pub fn apply(config: &RobotConfig, kept: &[Change]) -> Result<RobotConfig, String> {
    let mut changed = config.clone();
    for change in kept {
        change.apply(&mut changed);
    }
    changed
        .validate()
        .map_err(|(field, problem)| format!("with these changes {field} {problem}"))?;
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::super::tests::calibration;
    use super::*;

    #[test]
    fn a_measured_robot_that_fits_its_config_suggests_only_what_it_measured_apart() {
        let config = RobotConfig::default();
        let mut measured = calibration(70, 40.0);
        measured.columns_far_stop_deg = config.columns.travel_deg + 30;
        measured.rows_far_stop_deg = config.rows.travel_deg - 20;
        measured.pen_contact_deg = config.pen.down_deg - 2;
        let verdicts: Vec<Verdict> = measured
            .findings(&config)
            .into_iter()
            .map(|f| f.verdict)
            .collect();
        assert_eq!(verdicts[0], Verdict::Agrees, "the columns reach past");
        assert_eq!(
            verdicts[1],
            Verdict::Change(Change::TravelDeg(
                Axis::Rows,
                config.rows.travel_deg - 20 - TRAVEL_CLEARANCE_DEG
            ))
        );
        assert_eq!(verdicts[2], Verdict::Agrees, "the pen meets the paper");
        assert!(
            matches!(&verdicts[3], Verdict::Untrusted(why) if why.contains("no grid")),
            "{:?}",
            verdicts[3]
        );
        assert_eq!(verdicts[4], Verdict::Agrees, "the sensor where configured");
        assert!(matches!(
            verdicts[5],
            Verdict::Change(Change::MarkContrastPercent(_))
        ));
    }

    #[test]
    fn a_sensor_the_grid_showed_elsewhere_is_suggested_at_its_measured_place() {
        let config = RobotConfig::default();
        let mut measured = calibration(70, 40.0);
        measured.sensor_offset_deg = AxisPoint::new(160, -3);
        let found = measured
            .findings(&config)
            .into_iter()
            .find(|f| f.topic == "The sensor's place")
            .expect("a finding of the sensor's place");
        assert_eq!(
            found.verdict,
            Verdict::Change(Change::SensorOffsetDeg(AxisPoint::new(160, -3)))
        );
        let kept = apply(&config, &[Change::SensorOffsetDeg(AxisPoint::new(160, -3))]).unwrap();
        assert_eq!(kept.sensing.sensor_offset_deg, AxisPoint::new(160, -3));
        let report = measured.render(520, 340);
        assert!(
            report
                .contains("\"sensor_offset_deg\": {\"columns\": 160, \"rows\": -3}} (now 170, 0)"),
            "{report}"
        );
    }

    #[test]
    fn a_mark_never_read_or_no_darker_than_paper_changes_no_threshold() {
        let config = RobotConfig::default();
        let mut unread = calibration(70, 40.0);
        unread.mark_percent = None;
        let pale = calibration(70, 71.0);
        for measured in [unread, pale] {
            let finding = measured.findings(&config).pop().unwrap();
            assert!(
                matches!(finding.verdict, Verdict::Untrusted(_)),
                "{finding:?}"
            );
        }
    }

    #[test]
    fn kept_changes_that_would_make_a_config_the_program_refuses_are_refused_by_name() {
        let config = RobotConfig::default();
        let kept = apply(
            &config,
            &[
                Change::TravelDeg(Axis::Columns, 510),
                Change::PenDownDeg(31),
            ],
        )
        .unwrap();
        assert_eq!((kept.columns.travel_deg, kept.pen.down_deg), (510, 31));
        // An axis too short for the board the config places on the sheet.
        let short = apply(&config, &[Change::TravelDeg(Axis::Columns, 400)]).unwrap_err();
        assert!(short.contains("columns.travel_deg"), "{short}");
        let too_deep = Change::PenDownDeg(config.pen.travel_deg + 10);
        let refused = apply(&config, &[too_deep]).unwrap_err();
        assert!(refused.contains("pen"), "{refused}");
    }
}
