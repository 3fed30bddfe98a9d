//! brickrun reads its own options GNU-style, so in `brickrun -r ./ev3-tictactoe play --difficulty
//! hard` it takes `--difficulty` for one of its own and fails. Every command line we show that
//! starts the program through brickrun with options must end brickrun's options with `--`.

use assert_cmd::Command;

/// The words of each shown command line that runs brickrun, from `text`.
fn brickrun_lines(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter_map(|line| {
            let start = line.find("brickrun ")?;
            let command = line[start..].split('#').next().unwrap_or_default();
            let words: Vec<String> = command
                .split_whitespace()
                .map(|w| w.trim_matches('`').to_string())
                .collect();
            // A line that names the program is one that starts it.
            words
                .iter()
                .any(|w| w.ends_with("ev3-tictactoe"))
                .then_some(words)
        })
        .collect()
}

/// True if the line has `--` before the program, or no option after it.
fn is_safe(words: &[String]) -> bool {
    let program = words
        .iter()
        .position(|w| w.ends_with("ev3-tictactoe"))
        .expect("lines are chosen for naming the program");
    let has_options = words[program + 1..].iter().any(|w| w.starts_with('-'));
    !has_options || words[..program].iter().any(|w| w == "--")
}

#[test]
fn the_check_itself_tells_a_bad_line_from_a_good_one() {
    let bad = brickrun_lines("brickrun -r ./ev3-tictactoe play --difficulty hard");
    let good = brickrun_lines("brickrun -r -- ./ev3-tictactoe play --difficulty hard");
    let plain = brickrun_lines("`brickrun -r ./ev3-tictactoe play` # the menu");
    assert!(!is_safe(&bad[0]));
    assert!(is_safe(&good[0]));
    assert!(is_safe(&plain[0]));
}

/// The README and the pages in docs/, one after the other.
fn the_docs() -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut text = std::fs::read_to_string(format!("{root}/README.md")).expect("README.md");
    for entry in std::fs::read_dir(format!("{root}/docs")).expect("docs/") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            text.push_str(&std::fs::read_to_string(path).unwrap());
        }
    }
    text
}

#[test]
fn every_brickrun_line_in_the_docs_ends_brickruns_options_before_the_program() {
    let lines = brickrun_lines(&the_docs());
    assert!(lines.len() >= 2, "the docs show how to start the program");
    for words in lines {
        assert!(
            is_safe(&words),
            "needs -- before the program: {}",
            words.join(" ")
        );
        assert!(
            words.iter().any(|w| w == "--"),
            "always written: {}",
            words.join(" ")
        );
    }
}

#[test]
fn the_help_of_play_shows_brickrun_with_its_options_ended() {
    let output = Command::cargo_bin("ev3-tictactoe")
        .unwrap()
        .args(["play", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    let lines = brickrun_lines(&help);
    assert!(
        !lines.is_empty(),
        "play --help says how to start it: {help}"
    );
    for words in lines {
        assert!(
            is_safe(&words),
            "needs -- before the program: {}",
            words.join(" ")
        );
    }
}
