//! The `config` and `calibrate` commands, as a user runs them.

use assert_cmd::Command;
use ev3_tictactoe::config::RobotConfig;
use predicates::prelude::*;

fn command(dir: &tempfile::TempDir) -> Command {
    let mut cmd = Command::cargo_bin("ev3-tictactoe").unwrap();
    cmd.current_dir(dir.path())
        .env_remove("EV3_TICTACTOE_CONFIG")
        .env_remove("EV3_TICTACTOE_SCORES");
    cmd
}

#[test]
fn config_prints_the_defaults_ready_to_edit() {
    let dir = tempfile::tempdir().unwrap();
    let output = command(&dir).arg("config").output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        RobotConfig::parse(&text, "stdout").unwrap(),
        RobotConfig::default()
    );
}

#[test]
fn config_names_the_settings_file_and_what_robot_json_changes_on_standard_error_and_leaves_the_json_alone(
) {
    let dir = tempfile::tempdir().unwrap();
    command(&dir).arg("config").assert().success().stderr(
        "The setup page's settings: settings.json: not written yet (the voice on, as by \
         default).\nThe robot config: robot.json is not there, so the program plays on these \
         defaults.\n",
    );
    std::fs::write(dir.path().join("settings.json"), r#"{"voice": false}"#).unwrap();
    // A robot.json as calibration writes it, whole, with two settings measured.
    let mut measured = RobotConfig::default();
    measured.pen.down_deg = 27;
    measured.sensing.mark_contrast_percent = 9;
    measured
        .save_keeping_the_old(&dir.path().join("robot.json"))
        .unwrap();
    let output = command(&dir).arg("config").output().unwrap();
    let said = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        said,
        "The setup page's settings: settings.json: the voice off.\nThe robot config: \
         robot.json, which differs from these defaults in pen.down_deg, \
         sensing.mark_contrast_percent.\n"
    );
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        RobotConfig::parse(&text, "stdout").unwrap(),
        RobotConfig::default()
    );
}

#[test]
fn a_bad_config_is_refused_naming_the_file_and_field() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("robot.json"),
        r#"{"rows": {"port": "outE"}}"#,
    )
    .unwrap();
    command(&dir)
        .args(["calibrate", "--sim"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "robot config robot.json: rows.port is \"outE\"; an EV3 output port is",
        ));
    command(&dir)
        .args(["calibrate", "--sim", "--config", "missing.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot read robot config missing.json",
        ));
}

#[test]
fn calibrating_the_simulated_robot_reports_and_suggests_thresholds() {
    let dir = tempfile::tempdir().unwrap();
    command(&dir)
        .args(["calibrate", "--sim", "--paper", "sheet.svg"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Robot config: built-in defaults"))
        .stdout(predicate::str::contains(
            "Travel: the columns axis's far stop is at",
        ))
        .stdout(
            predicate::str::is_match(r#"Suggested: "sensing": \{"mark_contrast_percent": \d+\}"#)
                .unwrap(),
        );
    let svg = std::fs::read_to_string(dir.path().join("sheet.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("<polyline"),
        "{svg}"
    );
    // Beside the report, in the folder beside the log: what the sensor saw of the test mark.
    let reads = dir.path().join("ev3-tictactoe-reads");
    let kept: Vec<String> = std::fs::read_dir(&reads)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(kept.len(), 2, "{kept:?}");
    assert!(
        kept.iter().any(|n| n.ends_with("-calibrate.png")),
        "{kept:?}"
    );
    assert!(
        kept.iter().any(|n| n.ends_with("-calibrate.csv")),
        "{kept:?}"
    );
}

#[test]
fn calibrating_says_in_both_units_what_the_eye_reads_by_and_which_pens_it_can_see() {
    let dir = tempfile::tempdir().unwrap();
    let report = command(&dir).args(["calibrate", "--sim"]).output().unwrap();
    assert!(report.status.success());
    let report = String::from_utf8(report.stdout).unwrap();
    // The default robot: a 24-tooth gear on the rack, 100-degree squares, a 12 mm spot.
    assert!(
        report.contains("squares 21 mm (100 deg) along the columns axis"),
        "{report}"
    );
    assert!(
        report.contains("the sensor's spot 12 mm (56 deg)"),
        "{report}"
    );
    let verdict = |pen: &str| {
        report
            .lines()
            .find(|line| line.trim_start().starts_with(pen))
            .unwrap_or_else(|| panic!("no line for {pen}: {report}"))
            .to_string()
    };
    assert!(verdict("fine-liner").contains("beyond this sensor"));
    assert!(verdict("pencil").contains("beyond this sensor"));
    assert!(verdict("marker 1 mm").ends_with("seen"));
    // Mounted low, with a 6 mm spot, a ballpoint's line is seen too.
    std::fs::write(
        dir.path().join("low.json"),
        r#"{"sensing": {"spot_mm": 6}}"#,
    )
    .unwrap();
    command(&dir)
        .args(["calibrate", "--sim", "--config", "low.json"])
        .assert()
        .success()
        .stdout(predicate::str::is_match(r"ballpoint 0.5 mm +\d+\.\d % darker: seen").unwrap());
}

#[test]
fn each_game_logs_the_lengths_it_reads_by_in_both_units() {
    let dir = tempfile::tempdir().unwrap();
    command(&dir)
        .args(["demo", "--games", "1", "--log", "game.log"])
        .assert()
        .success();
    let log = std::fs::read_to_string(dir.path().join("game.log")).unwrap();
    for said in [
        "the eye: squares 21 mm (100 deg)",
        // Measured on the grid it drew: 12 mm, give or take a tenth or two.
        "the eye, measured on 6 of the grid's 6 crossings: the sensor's spot 1",
        "sensing.spot_mm says 12.0), the robot's ink ",
        "the eye: the sensor's spot 12 mm (5",
        // What a person waits through before the first move, phase by phase.
        "the sheet is ready ",
        "s after the game began: homing ",
        "the blank read took ",
        "the eye: a fresh reading every ",
        "the eye: the thinnest line this spot tells from paper",
    ] {
        assert!(log.contains(said), "{said:?} is not in the log:\n{log}");
    }
}

#[test]
fn a_grid_measured_with_a_ruler_sets_each_axis_s_millimetres_per_degree() {
    let dir = tempfile::tempdir().unwrap();
    // The default grid's lines are 3 x 100 degrees long; each measures 1 mm more than the
    // pen travelled (half the pen's line at either end).
    let output = command(&dir)
        .args(["calibrate", "--grid-mm", "61x76"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains(r#"Suggested: "columns": {"mm_per_deg": 0.2}, "rows": {"mm_per_deg": 0.25}"#),
        "{text}"
    );
    // The lengths it then reads by follow each axis's own scale.
    assert!(
        text.contains("squares 20 mm (100 deg) along the columns axis by 25 mm (100 deg)"),
        "{text}"
    );
    assert!(text.contains("the sensor's spot 12 mm (60 deg) across (48 deg of the rows axis)"));
    // The suggestion loads as it is printed.
    std::fs::write(
        dir.path().join("robot.json"),
        r#"{"columns": {"mm_per_deg": 0.2}, "rows": {"mm_per_deg": 0.25}}"#,
    )
    .unwrap();
    command(&dir)
        .args(["calibrate", "--sim"])
        .assert()
        .success()
        .stdout(predicate::str::contains("squares 20 mm (100 deg)"));
    // A length no grid of this config's could measure is named.
    command(&dir)
        .args(["calibrate", "--grid-mm", "900"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--grid-mm: a columns line 900 mm long for 300 degrees drawn is 2.9967 mm per degree",
        ));
}

#[test]
fn calibrating_without_a_brick_says_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    command(&dir)
        .arg("calibrate")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "cannot open the robot's motors and sensors (run this on the brick, or add --sim): \
             no large motor (columns axis) on outC",
        ));
}

#[test]
fn a_world_file_shapes_the_simulated_robot_and_a_bad_one_is_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("fine-pen.json"),
        r#"{"human_pen_width_mm": 0.5}"#,
    )
    .unwrap();
    command(&dir)
        .args(["calibrate", "--sim", "--world", "fine-pen.json"])
        .assert()
        .success()
        .stdout(predicate::str::contains("the sensor's noise on it"));
    std::fs::write(dir.path().join("typo.json"), r#"{"human_pen_widht": 2.5}"#).unwrap();
    command(&dir)
        .args(["demo", "--world", "typo.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "world file typo.json: human_pen_widht: unknown field",
        ));
}

#[test]
fn a_demo_leaves_the_users_scores_alone_unless_told_where_to_keep_them() {
    let dir = tempfile::tempdir().unwrap();
    command(&dir)
        .args(["demo", "--games", "1"])
        .assert()
        .success()
        .stdout(predicates::str::contains("Scores not kept"));
    assert!(
        !dir.path().join("scoreboard.json").exists(),
        "the scripted human's game went into the user's scoreboard"
    );
    command(&dir)
        .args(["demo", "--scores", "demo.json", "--games", "1"])
        .assert()
        .success()
        .stdout(predicates::str::contains("Scores in demo.json"));
    let kept = std::fs::read_to_string(dir.path().join("demo.json")).unwrap();
    assert!(
        kept.contains("\"losses\": 1")
            || kept.contains("\"wins\": 1")
            || kept.contains("\"draws\": 1"),
        "one game recorded: {kept}"
    );
}

#[test]
fn an_idle_timeout_too_short_for_a_person_or_negative_is_refused_naming_the_option() {
    let dir = tempfile::tempdir().unwrap();
    for (value, says) in [
        (
            "0s",
            "shorter than the least the robot waits for a person, 30s",
        ),
        (
            "29s",
            "shorter than the least the robot waits for a person, 30s",
        ),
        ("-5m", "\"-5m\" is negative"),
        ("soon", "\"soon\" is not a time such as 90s or 5m"),
    ] {
        command(&dir)
            .args(["play", "--idle-timeout", value])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--idle-timeout").and(predicate::str::contains(says)));
    }
    // Accepted: the program goes on to look for the brick.
    command(&dir)
        .args(["play", "--idle-timeout", "30s"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("not an EV3 brick"));
}

#[test]
fn a_negative_speed_names_the_option_not_an_unknown_flag() {
    let dir = tempfile::tempdir().unwrap();
    command(&dir)
        .args(["sim", "--speed", "-1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("'-1' for '--speed <SPEED>'"));
}

#[test]
fn a_log_grown_past_its_limit_is_moved_aside_and_a_new_one_begun() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("ev3-tictactoe.log");
    let big = vec![b'x'; (ev3_tictactoe::app::session::LOG_LIMIT_BYTES + 1) as usize];
    std::fs::write(&log, &big).unwrap();
    std::fs::write(dir.path().join("ev3-tictactoe.log.1"), "the one before").unwrap();
    command(&dir)
        .args(["demo", "--games", "1"])
        .assert()
        .success();
    assert_eq!(
        std::fs::read(dir.path().join("ev3-tictactoe.log.1")).unwrap(),
        big
    );
    let fresh = std::fs::metadata(&log).unwrap().len();
    assert!(fresh > 0 && fresh < 100_000, "a new log of {fresh} bytes");
}

#[test]
fn the_world_file_and_ruler_command_work_as_docs_robot_md_shows_them() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/robot.md"))
        .expect("docs/robot.md");
    let world = readme
        .split("```json")
        .skip(1)
        .filter_map(|block| block.split("```").next())
        .find(|block| block.contains("human_pen_width_mm"))
        .expect("docs/robot.md shows a world file");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("world.json"), world).unwrap();
    command(&dir)
        .args(["demo", "--games", "1", "--world", "world.json"])
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success();
    assert!(readme.contains("ev3-tictactoe calibrate --grid-mm 65x64"));
    command(&dir)
        .args(["calibrate", "--grid-mm", "65x64"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            r#""columns": {"mm_per_deg": 0.2133}"#,
        ));
}
