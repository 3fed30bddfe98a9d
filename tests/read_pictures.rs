//! Pictures of what the robot saw: each read of the board kept as a PNG of the sheet as the
//! colour sensor saw it and a CSV of its readings, so a person can see why a square was judged
//! marked or blank.

mod sim_rig;

use assert_cmd::Command;
use ev3_tictactoe::app::scripted::{Strategy, Turn};
use ev3_tictactoe::config::RobotConfig;
use ev3_tictactoe::game::Cell;
use ev3_tictactoe::hw::sim::human::{self, HandMark};
use ev3_tictactoe::hw::sim::{PaperLook, SimBody, SimRobot, SimSettings};
use ev3_tictactoe::motion::plan;
use ev3_tictactoe::motion::sensing::Evidence;
use ev3_tictactoe::motion::Gantry;
use ev3_tictactoe::physical::PENS;
use ev3_tictactoe::read_record::picture::{self, Picture};
use ev3_tictactoe::read_record::ReadRecord;
use ev3_tictactoe::ui::menu::FirstMove;
use sim_rig::{assert_done, Rig};
use std::path::Path;

/// The files in `dir` whose names end in `extension`.
fn files(dir: &Path, extension: &str) -> Vec<std::path::PathBuf> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == extension))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

#[test]
fn demo_with_record_keeps_a_picture_and_the_readings_of_every_read() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("demo.log");
    Command::cargo_bin("ev3-tictactoe")
        .unwrap()
        .current_dir(dir.path())
        .args([
            "demo", "--games", "1", "--seed", "3", "--record", "reads", "--log",
        ])
        .arg(&log)
        .assert()
        .success();
    let reads = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter(|l| l.contains("board read in"))
        .count();
    let (pictures, readings) = (
        files(&dir.path().join("reads"), "png"),
        files(&dir.path().join("reads"), "csv"),
    );
    assert!(reads >= 3, "a game has three reads of the board or more");
    assert_eq!((pictures.len(), readings.len()), (reads, reads));
    let csv = std::fs::read_to_string(&readings[0]).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("time_s,columns_deg,rows_deg,percent"));
    let first: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(first.len(), 4);
    assert_eq!(first[0], "0.000");
    assert!(lines.count() > 100, "a read takes hundreds of readings");
    // Each picture is a PNG a viewer opens.
    let png = std::fs::read(&pictures[0]).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn a_read_that_saw_no_new_mark_keeps_its_picture_and_one_that_saw_the_move_does_not() {
    let mut rig = Rig::new(Strategy::Random, 9);
    let beside_log = rig.folder.path().join("ev3-tictactoe-reads");
    rig.settings.reads.doubtful = Some(beside_log.clone());
    rig.human.turns.push_back(Turn::PressOnly);
    let (_, ending) = rig.play(
        &ev3_tictactoe::ai::Difficulty::medium(),
        FirstMove::Human,
        1,
        9,
    );
    assert_done(&ending);
    let pictures = files(&beside_log, "png");
    assert_eq!(pictures.len(), 1, "{pictures:?}");
    assert_eq!(files(&beside_log, "csv").len(), 1);
}

/// The darkest pixel along the band the first look swept through `cell`'s window.
fn darkest_in(picture: &Picture, config: &RobotConfig, cell: Cell) -> u8 {
    let window = plan::reading_window(config, cell);
    let rows = config.board.cell_centre(cell).rows;
    // Readings are grey bars; where none reaches (a window's very edge, when the sweep's last
    // reading falls short of it) the picture's blue-grey background shows, which is no shade.
    window
        .filter_map(|columns| picture.colour_at(picture.pixel_of(columns, rows)))
        .filter(|[r, g, b]| r == g && g == b)
        .map(|[r, _, _]| r)
        .min()
        .expect("the window's readings are in the picture")
}

#[test]
fn the_picture_shows_a_mark_dark_a_blank_square_white_and_the_dip_of_a_mark_too_faint_to_judge() {
    // A fine-liner under the default 12 mm spot: a filled square is plain to see, an X darkens
    // the spot by 3 %, less than any threshold may judge, but the picture still shows it.
    let config = RobotConfig::default();
    let white = PaperLook::default().white_percent;
    let fine_liner = PENS[0];
    let settings = SimSettings {
        look: PaperLook {
            human_pen_width_mm: fine_liner.width_mm,
            human_ink_percent: white * fine_liner.ink_of_paper,
            ..PaperLook::default()
        },
        sensor_noise_percent: 0.0,
        ..SimSettings::default()
    };
    let sim = SimRobot::new(&SimBody::as_configured(&config), &settings);
    let mut gantry = Gantry::new(sim.robot(), config.clone());
    gantry.home().unwrap();
    gantry.draw_grid().unwrap();
    let blank = gantry.read_blank_grid().unwrap();
    let (filled, faint) = (Cell { row: 0, col: 0 }, Cell { row: 1, col: 1 });
    human::draw(
        sim.world().paper_mut(),
        &config.board,
        filled,
        HandMark::Fill,
    );
    human::draw(
        sim.world().paper_mut(),
        &config.board,
        faint,
        HandMark::Cross,
    );
    let all: Vec<Cell> = (0..9).map(|i| Cell::from_index(i, 3)).collect();
    let (_, readings, _) = gantry.read_board(&blank, &all, &[]).unwrap();
    let verdict = |cell: Cell| readings.iter().find(|r| r.cell == cell).unwrap().evidence;
    assert_eq!(verdict(filled), Evidence::Marked);
    assert_ne!(verdict(faint), Evidence::Marked, "too faint to judge");
    let record = ReadRecord::new(
        "a test",
        &config.board,
        gantry.last_read_samples(),
        &readings,
    );
    let picture = picture::render(&record);
    let blank_squares: Vec<u8> = all
        .iter()
        .filter(|&&c| c != filled && c != faint)
        .map(|&c| darkest_in(&picture, &config, c))
        .collect();
    let palest_blank = *blank_squares.iter().min().unwrap();
    assert!(
        palest_blank >= 230,
        "blank paper is near white: {blank_squares:?}"
    );
    // 21 % darker than its paper: two fifths of the way from white to black.
    let filled_shade = darkest_in(&picture, &config, filled);
    assert!(filled_shade < 170, "{filled_shade}");
    let faint_shade = darkest_in(&picture, &config, faint);
    assert!(
        faint_shade < palest_blank,
        "the faint X's dip shows: {faint_shade} against blank squares' {blank_squares:?}"
    );
}
