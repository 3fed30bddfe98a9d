//! A corpus of bad inputs (tests/data/bad_inputs.txt, and every numeric field of the robot config
//! made out of range, of the wrong type, or null): each one must end the program, within a time
//! limit, with the exit status given, an error naming what was wrong, and no panic. Nothing bad
//! may be accepted in silence.

use assert_cmd::Command;
use serde_json::Value;
use std::time::Duration;

/// A case that takes longer than this hangs (a bad value accepted would start a simulated
/// calibration or game, which the exit status then catches).
const LIMIT: Duration = Duration::from_secs(30);

struct Case {
    kind: String,
    exit: i32,
    input: String,
    names: String,
}

fn hand_written() -> Vec<Case> {
    let text = include_str!("data/bad_inputs.txt");
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let parts: Vec<&str> = line.splitn(4, " | ").collect();
            assert_eq!(parts.len(), 4, "a corpus line needs four parts: {line}");
            Case {
                kind: parts[0].trim().to_string(),
                exit: parts[1].trim().parse().expect("an exit status"),
                input: parts[2].to_string(),
                names: parts[3].trim().to_string(),
            }
        })
        .collect()
}

/// Every numeric field of the default config, by its path: "pen.homing.poll_ms".
fn numeric_fields(value: &Value, path: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            for (key, inner) in object {
                let inner_path = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                numeric_fields(inner, &inner_path, out);
            }
        }
        Value::Number(_) => out.push(path.to_string()),
        _ => {}
    }
}

/// `{"a": {"b": value}}` for the path "a.b".
fn nested(path: &str, value: Value) -> Value {
    path.rsplit('.')
        .fold(value, |inner, key| serde_json::json!({ key: inner }))
}

fn generated() -> Vec<Case> {
    let defaults: Value =
        serde_json::from_str(&ev3_tictactoe::config::RobotConfig::default_json()).unwrap();
    let mut fields = Vec::new();
    numeric_fields(&defaults, "", &mut fields);
    assert!(
        fields.len() >= 40,
        "only {} numeric fields found",
        fields.len()
    );
    let mut cases = Vec::new();
    for field in fields {
        // The error names the field's last part, and the part it belongs to.
        let leaf = field.rsplit('.').next().unwrap().to_string();
        for bad in [
            serde_json::json!(2_147_483_648u64),
            serde_json::json!(u64::MAX),
            serde_json::json!("x"),
            Value::Null,
        ] {
            cases.push(Case {
                kind: "config".into(),
                exit: 2,
                input: nested(&field, bad).to_string(),
                names: leaf.clone(),
            });
        }
    }
    cases
}

/// Runs one case; what went wrong, if anything.
fn run(case: &Case) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    let mut command = Command::cargo_bin("ev3-tictactoe").unwrap();
    command
        .current_dir(dir.path())
        .env_remove("EV3_TICTACTOE_CONFIG")
        .env_remove("EV3_TICTACTOE_SCORES")
        .timeout(LIMIT);
    match case.kind.as_str() {
        "cli" => {
            command.args(case.input.split(' '));
        }
        "board" => {
            command.args(["engine", &case.input]);
        }
        "config" => {
            std::fs::write(dir.path().join("robot.json"), &case.input).unwrap();
            command.args(["calibrate", "--sim", "--config", "robot.json"]);
        }
        "scores" => {
            std::fs::write(dir.path().join("scores.json"), &case.input).unwrap();
            command.args(["scores", "--scores", "scores.json"]);
        }
        "world" => {
            std::fs::write(dir.path().join("world.json"), &case.input).unwrap();
            command.args(["demo", "--games", "1", "--world", "world.json"]);
        }
        other => panic!("unknown kind of case {other}"),
    }
    let output = command.output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout)
    );
    let case_named = format!("{} {:?}", case.kind, case.input);
    if said.contains("panicked") || said.contains("RUST_BACKTRACE") {
        return Some(format!("{case_named}: a panic: {said}"));
    }
    match output.status.code() {
        None => Some(format!("{case_named}: killed (over {LIMIT:?}?)")),
        Some(code) if code != case.exit => Some(format!(
            "{case_named}: exit {code}, not {}: {said}",
            case.exit
        )),
        Some(_) if !said.contains(&case.names) => Some(format!(
            "{case_named}: does not name {:?}: {said}",
            case.names
        )),
        Some(_) => None,
    }
}

#[test]
fn every_bad_input_is_refused_by_name_without_a_panic_or_a_hang() {
    let cases: Vec<Case> = hand_written().into_iter().chain(generated()).collect();
    assert!(cases.len() >= 150, "only {} cases", cases.len());
    let failures: Vec<String> = cases.iter().filter_map(run).collect();
    println!(
        "{} bad inputs: {} refused by name, {} not",
        cases.len(),
        cases.len() - failures.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
