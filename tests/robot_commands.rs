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
