//! Every subcommand's `--help`, read as a user reads it: the options it lists are the ones it
//! uses, each default is said once, and what a person needs (the sim's keys, a coin toss for
//! who starts) is there.

use assert_cmd::Command;

fn help(command: &str) -> String {
    let output = Command::cargo_bin("ev3-tictactoe")
        .unwrap()
        .args([command, "--help"])
        .env_remove("EV3_TICTACTOE_CONFIG")
        .env_remove("EV3_TICTACTOE_SCORES")
        .output()
        .unwrap();
    assert!(output.status.success(), "{command} --help failed");
    String::from_utf8(output.stdout).unwrap()
}

/// The help's options, each with its whole text: a block starts at a line that names an option.
fn option_blocks(help: &str) -> Vec<String> {
    let mut blocks: Vec<String> = Vec::new();
    for line in help.lines() {
        let trimmed = line.trim_start();
        let names_an_option = trimmed.starts_with("--")
            || (trimmed.starts_with('-')
                && trimmed[1..].starts_with(|c: char| c.is_ascii_alphabetic()));
        if names_an_option {
            blocks.push(line.to_string());
        } else if let Some(block) = blocks.last_mut() {
            block.push('\n');
            block.push_str(line);
        }
    }
    blocks
}

#[test]
fn each_command_lists_only_the_files_it_uses_and_says_each_default_once() {
    // Which of --scores, --config and --log each command takes.
    let commands = [
        ("play", [true, true, true]),
        ("sim", [true, true, true]),
        ("demo", [true, true, true]),
        ("console", [true, false, false]),
        ("engine", [false, false, false]),
        ("scores", [true, false, false]),
        ("reset-scores", [true, false, false]),
        ("bench", [false, false, false]),
        ("config", [false, false, false]),
        ("calibrate", [false, true, true]),
    ];
    for (command, takes) in commands {
        let text = help(command);
        for (option, expected) in ["--scores", "--config", "--log"].iter().zip(takes) {
            assert_eq!(
                text.contains(&format!("{option} <")),
                expected,
                "{command} --help and {option}:\n{text}"
            );
        }
        for block in option_blocks(&text) {
            assert!(
                block.matches("[default").count() <= 1,
                "{command}: a default said twice:\n{block}"
            );
        }
        assert!(
            !text.contains("sentinel"),
            "{command}: the hidden command shows"
        );
    }
}

#[test]
fn the_sim_help_lists_its_keys_and_every_first_move_choice_has_a_coin() {
    let sim = help("sim");
    for key in [
        "arrows",
        "Enter",
        "1 to 9",
        "t presses the touch sensor",
        "q or Esc",
    ] {
        assert!(sim.contains(key), "sim --help does not say {key:?}:\n{sim}");
    }
    for command in ["play", "demo", "console"] {
        let text = help(command);
        let first = option_blocks(&text)
            .into_iter()
            .find(|block| block.contains("--first"))
            .unwrap_or_else(|| panic!("{command} has no --first"));
        assert!(first.contains("coin"), "{command}: {first}");
    }
    let top = Command::cargo_bin("ev3-tictactoe")
        .unwrap()
        .arg("--help")
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&top.stdout).contains("sentinel"));
}

#[test]
fn with_no_command_off_a_brick_it_prints_the_short_help_and_exits_2() {
    // The tests' build looks for ev3dev's classes where the emulated brick is served, and no
    // brick is served to this file's tests: not a brick. (On one, it plays: see
    // tests/brick_games/.)
    let output = Command::cargo_bin("ev3-tictactoe")
        .unwrap()
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("Usage: ev3-tictactoe"), "{said}");
    assert!(said.contains("play"), "{said}");
    assert!(output.stdout.is_empty());
}
