//! `ev3-tictactoe config` and `calibrate`: the robot's configuration and its measurement.

use super::BadInput;
use crate::app::brick::GantryDevices;
use crate::app::session::Session;
use crate::config::{BoardGeometry, RobotConfig, CONFIG_VARIABLE};
use crate::hw::sim::picture::{self, Area};
use crate::hw::sim::{human, PaperPoint, SimBody, SimRobot, SimSettings};
use crate::motion::calibrate::{self, Step};
use crate::motion::Gantry;
use crate::physical;
use crate::read_record::folder::RecordFolder;
use crate::read_record::ReadRecord;
use anyhow::Context;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// The config file read when none is named, if it exists.
pub const DEFAULT_CONFIG_FILE: &str = "robot.json";

/// Where the robot config came from when no file was named and none is in its place.
pub const BUILT_IN_DEFAULTS: &str = "built-in defaults";

/// Loads the robot config: the file named, else `robot.json` if there is one, else the
/// defaults. A bad file is the user's to fix, so it is reported as bad input.
pub fn load_config(named: Option<&Path>) -> anyhow::Result<(RobotConfig, String)> {
    let path = config_file(named);
    if named.is_none() && !path.exists() {
        return Ok((RobotConfig::default(), BUILT_IN_DEFAULTS.to_string()));
    }
    let config = RobotConfig::load(&path).map_err(|e| BadInput(e.to_string()))?;
    Ok((config, path.display().to_string()))
}

/// The robot config's file: the one named, else `robot.json` in its place (beside the program
/// on a brick), whether or not it exists yet.
pub fn config_file(named: Option<&Path>) -> PathBuf {
    named.map_or_else(
        || super::default_file(DEFAULT_CONFIG_FILE),
        Path::to_path_buf,
    )
}

/// `config`: the default robot config on standard output, ready to save as robot.json, and on
/// standard error (so the output stays the file's JSON) the settings the menu's setup page keeps.
pub(super) fn print_defaults() -> anyhow::Result<ExitCode> {
    let mut out = io::stdout().lock();
    write!(out, "{}", RobotConfig::default_json())?;
    let scores = std::env::var_os(crate::scoreboard::store::PATH_VARIABLE)
        .map(PathBuf::from)
        .unwrap_or_else(|| super::default_file(crate::scoreboard::store::DEFAULT_FILE));
    let scores = crate::scoreboard::store::ScoreFile::new(scores);
    let settings = crate::app::preferences::PreferencesFile::beside(&scores);
    eprintln!("The setup page's settings: {}.", settings.describe());
    let named = std::env::var_os(CONFIG_VARIABLE).map(PathBuf::from);
    eprintln!(
        "The robot config: {}.",
        describe_config_file(&config_file(named.as_deref()))
    );
    Ok(ExitCode::SUCCESS)
}

/// The robot config file in a line for a person: missing, unusable and why, or which settings
/// it holds apart from the defaults (what calibration or a person changed).
fn describe_config_file(path: &Path) -> String {
    let shown = path.display();
    if !path.exists() {
        return format!("{shown} is not there, so the program plays on these defaults");
    }
    let config = match RobotConfig::load(path) {
        Ok(config) => config,
        Err(error) => return format!("{error}: the program will not start with it"),
    };
    let mut changed = Vec::new();
    let as_json = |c: &RobotConfig| serde_json::to_value(c).unwrap_or_default();
    differing_fields(
        "",
        &as_json(&config),
        &as_json(&RobotConfig::default()),
        &mut changed,
    );
    if changed.is_empty() {
        format!("{shown}, the same as these defaults")
    } else {
        format!(
            "{shown}, which differs from these defaults in {}",
            changed.join(", ")
        )
    }
}

/// The dotted names of the fields where `given` differs from `default`.
fn differing_fields(
    prefix: &str,
    given: &serde_json::Value,
    default: &serde_json::Value,
    out: &mut Vec<String>,
) {
    match (given, default) {
        (serde_json::Value::Object(given), serde_json::Value::Object(default)) => {
            for (key, value) in given {
                let name = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                match default.get(key) {
                    Some(was) => differing_fields(&name, value, was, out),
                    None => out.push(name),
                }
            }
        }
        (given, default) if given != default => out.push(prefix.to_string()),
        _ => {}
    }
}

/// Options of `calibrate`.
pub struct CalibrateOptions {
    pub sim: bool,
    pub wait_for_mark: Duration,
    pub paper: Option<PathBuf>,
    /// The simulated world, for `sim`.
    pub world: SimSettings,
}

pub(super) fn calibrate(
    config: &RobotConfig,
    source: &str,
    options: &CalibrateOptions,
    log_path: &Path,
) -> anyhow::Result<ExitCode> {
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "Robot config: {source} (set another with --config or {CONFIG_VARIABLE})."
    )?;
    let sim = options
        .sim
        .then(|| SimRobot::new(&SimBody::as_configured(config), &options.world));
    let pen_duty = config.pen.homing.duty_percent;
    let devices = match &sim {
        Some(sim) => GantryDevices::simulated(sim, pen_duty),
        None => GantryDevices::ev3dev(&config.wiring(), pen_duty, &mut |line| {
            let _ = writeln!(io::stdout(), "{line}");
        })
        .context(
            "cannot open the robot's motors and sensors (run this on the brick, or add --sim)",
        )?,
    };
    let (robot, emergency) = devices.split();
    // The same guard as `play`: Ctrl-C or SIGTERM while an axis drives into its stop ends the
    // motion and makes the machine safe, and so does a panic.
    let session = Session::start(log_path, emergency)?;
    let mut gantry = Gantry::new(robot, config.clone());
    gantry.obey(session.stop_request());
    let mut tell = |step: Step| {
        let _ = writeln!(io::stdout(), "{step}");
        if let (Some(sim), Step::FillIn { cell, .. }) = (&sim, step) {
            // The simulated human does as asked.
            let mut world = sim.world();
            human::draw(
                world.paper_mut(),
                &config.board,
                cell,
                human::HandMark::Cross,
            );
            world.press_touch(Duration::from_millis(200));
        }
    };
    let measured = calibrate::calibrate(&mut gantry, &mut tell, options.wait_for_mark);
    // However it ended: motors unpowered (not holding) and the pen up, or said why not.
    let safe = gantry.ensure_safe();
    if !safe.is_all_safe() {
        writeln!(out, "{}", safe.describe())?;
    }
    let calibration = measured?;
    write!(
        out,
        "{}",
        calibration.render(config.columns.travel_deg, config.rows.travel_deg)
    )?;
    writeln!(
        out,
        "The robot reads by (measure a grid it drew and run calibrate --grid-mm to set the \
         axes' mm_per_deg):"
    )?;
    for line in gantry.describe_eye() {
        writeln!(out, "  {line}")?;
    }
    write!(out, "{}", calibrate::pens_table(gantry.config()))?;
    if !calibration.mark_samples.is_empty() {
        let record = ReadRecord::new(
            format!(
                "calibrate: the test mark in {}",
                calibrate::MARK_SQUARE.name(config.board.size)
            ),
            &config.board,
            &calibration.mark_samples,
            &[],
        );
        let folder = RecordFolder::new(
            log_path
                .parent()
                .unwrap_or(Path::new("."))
                .join(super::READS_FOLDER),
        );
        match folder.keep(&record, "calibrate") {
            Ok(kept) => writeln!(
                out,
                "What the sensor saw of the mark: {} (its readings: {}).",
                kept.picture.display(),
                kept.readings.display()
            )?,
            Err(error) => writeln!(
                out,
                "The picture of what the sensor saw could not be kept in {}: {error}.",
                folder.dir().display()
            )?,
        }
    }
    if let (Some(sim), Some(path)) = (&sim, &options.paper) {
        save_paper(sim, &config.board, path)?;
        writeln!(out, "The simulated sheet is in {}.", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `calibrate --grid-mm`: each axis's mm_per_deg from its grid line as measured, the settings
/// to save, and the sensing lengths they give. A length that makes no sense for this config's
/// grid is bad input, named.
pub(super) fn scale_from_ruler(
    config: &RobotConfig,
    source: &str,
    (columns_mm, rows_mm): (f64, f64),
) -> anyhow::Result<ExitCode> {
    let board = &config.board;
    let drawn_deg = f64::from(board.square_deg) * board.size as f64;
    let line_mm = config.pen.line_mm;
    let mut measured = config.clone();
    for (axis, mm, setting) in [
        ("columns", columns_mm, &mut measured.columns.mm_per_deg),
        ("rows", rows_mm, &mut measured.rows.mm_per_deg),
    ] {
        let per_deg = physical::mm_per_deg_from_ruler(mm, drawn_deg, line_mm);
        if !(0.01..=2.0).contains(&per_deg) {
            return Err(BadInput(format!(
                "--grid-mm: a {axis} line {mm} mm long for {drawn_deg:.0} degrees drawn is \
                 {per_deg:.4} mm per degree; it must be from 0.01 to 2 (was the grid measured \
                 drawn with this config's board, {} squares of {} degrees, from {source}?)",
                board.size, board.square_deg
            ))
            .into());
        }
        *setting = (per_deg * 10_000.0).round() / 10_000.0;
    }
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "Robot config: {source}. Its grid's lines are {drawn_deg:.0} degrees long; with the \
         pen's {line_mm} mm line that makes:"
    )?;
    writeln!(
        out,
        "Suggested: \"columns\": {{\"mm_per_deg\": {}}}, \"rows\": {{\"mm_per_deg\": {}}} \
         (now {} and {}).",
        measured.columns.mm_per_deg,
        measured.rows.mm_per_deg,
        config.columns.mm_per_deg,
        config.rows.mm_per_deg
    )?;
    if let Err((field, problem)) = measured.validate() {
        writeln!(out, "But with them {field} {problem}.")?;
    }
    writeln!(
        out,
        "At that scale the robot reads by (a reading every {} ms, sensing.sample_ms):",
        config.sensing.sample_ms
    )?;
    let period = Duration::from_millis(config.sensing.sample_ms);
    for line in crate::motion::gantry::describe_eye(&measured, period, None) {
        writeln!(out, "  {line}")?;
    }
    write!(out, "{}", calibrate::pens_table(&measured))?;
    Ok(ExitCode::SUCCESS)
}

/// Saves the simulated sheet as SVG, or PNG if the name ends in `.png`.
pub fn save_paper(sim: &SimRobot, board: &BoardGeometry, path: &Path) -> anyhow::Result<()> {
    let area = Area {
        min: PaperPoint::new(
            f64::from(board.sheet_min_deg.columns),
            f64::from(board.sheet_min_deg.rows),
        ),
        max: PaperPoint::new(
            f64::from(board.sheet_max_deg.columns),
            f64::from(board.sheet_max_deg.rows),
        ),
    };
    let world = sim.world();
    let is_png = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    let bytes = if is_png {
        let mut bytes = Vec::new();
        picture::write_png(world.paper(), area, 2.0, &mut bytes)?;
        bytes
    } else {
        picture::svg(world.paper(), area).into_bytes()
    };
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}
