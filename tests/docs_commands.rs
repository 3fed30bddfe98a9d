//! Every command line the README and the pages in docs/ show for the program parses as the
//! program's own command line does: a renamed option or subcommand fails here, not in the hands
//! of someone copying the line. (What the commands do is tested by the other suites.)

use clap::Parser;
use ev3_tictactoe::cli::Cli;

/// The README and every page in docs/, with their names.
fn pages() -> Vec<(String, String)> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut pages = vec![(
        "README.md".to_string(),
        std::fs::read_to_string(format!("{root}/README.md")).expect("README.md"),
    )];
    let mut docs: Vec<_> = std::fs::read_dir(format!("{root}/docs"))
        .expect("docs/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    for path in docs {
        let name = format!("docs/{}", path.file_name().unwrap().to_string_lossy());
        pages.push((name, std::fs::read_to_string(&path).unwrap()));
    }
    pages
}

/// The program's arguments in each command that runs it in `text`: the lines of its code
/// blocks and its inline code that name the program (`ev3-tictactoe`, `./ev3-tictactoe`, or
/// `cargo run --`), up to a comment, a pipe or a redirection. Usage summaries (with `[...]`,
/// or `...` for any arguments) are not commands.
fn commands(text: &str) -> Vec<Vec<String>> {
    let mut lines: Vec<&str> = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            lines.push(line);
        } else {
            lines.extend(line.split('`').skip(1).step_by(2));
        }
    }
    lines
        .into_iter()
        .filter_map(|line| {
            let line = line
                .split(['#', '|', '>', '<', ';'])
                .next()
                .unwrap_or_default();
            let line = line.split("&&").next().unwrap_or_default();
            if line.contains('[') || line.contains("...") {
                return None;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let start = words
                .iter()
                .position(|w| *w == "ev3-tictactoe" || w.ends_with("/ev3-tictactoe"))
                .map(|i| i + 1)
                .or_else(|| {
                    let run = words.windows(2).position(|w| w == ["cargo", "run"])?;
                    let dashes = words[run..].iter().position(|w| *w == "--")?;
                    Some(run + dashes + 1)
                })?;
            // A path to the program copied somewhere (scp) is not a run of it.
            if words
                .first()
                .is_some_and(|w| *w == "scp" || *w == "cp" || *w == "chmod")
            {
                return None;
            }
            Some(words[start..].iter().map(|w| w.to_string()).collect())
        })
        .collect()
}

fn parses(arguments: &[String]) -> Result<(), String> {
    let argv = std::iter::once("ev3-tictactoe".to_string()).chain(arguments.iter().cloned());
    match Cli::try_parse_from(argv) {
        Ok(_) => Ok(()),
        Err(error)
            if matches!(
                error.kind(),
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
            ) =>
        {
            Ok(())
        }
        Err(error) => Err(error.to_string()),
    }
}

#[test]
fn the_check_finds_commands_and_tells_a_bad_one_from_a_good_one() {
    let text = "Run `ev3-tictactoe scores --json` or:\n```sh\nbrickrun -r -- ./ev3-tictactoe play --difficulty hard   # one game\ncargo run --release -- demo --games 2 > out.txt\nscp target/x/ev3-tictactoe robot@ev3dev.local:\nev3-tictactoe engine [--size N]\n```\n";
    let found = commands(text);
    assert_eq!(
        found,
        [
            vec!["scores", "--json"],
            vec!["play", "--difficulty", "hard"],
            vec!["demo", "--games", "2"],
        ]
    );
    assert!(found.iter().all(|c| parses(c).is_ok()));
    assert!(parses(&["demo".into(), "--gmaes".into(), "2".into()]).is_err());
    assert!(parses(&["play".into(), "--difficulty".into(), "impossible".into()]).is_err());
}

#[test]
fn every_command_the_readme_and_the_docs_show_parses() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (page, text) in pages() {
        for command in commands(&text) {
            checked += 1;
            if let Err(error) = parses(&command) {
                wrong.push(format!(
                    "{page}: ev3-tictactoe {}: {error}",
                    command.join(" ")
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(
        checked >= 20,
        "found only {checked} commands: is the extraction broken?"
    );
}
