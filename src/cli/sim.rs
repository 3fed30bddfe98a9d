//! `ev3-tictactoe sim`: the brick program on the simulated robot, played from a terminal.
//!
//! Keys stand for the brick's buttons and the touch sensor, and 1-9 draw the human's mark in a
//! square of the virtual paper. The terminal shows what the LCD says, the lights, and the paper
//! as the colour sensor sees it. The simulated robot runs at a pace held to the wall clock
//! (`--speed`), so a person can watch it; everything else is the same program as `play`.

use super::SimArgs;
use crate::app::brick::Brick;
use crate::app::panel::{Mirror, Panel};
use crate::app::session::Session;
use crate::app::{Person, Program, Settings};
use crate::config::{BoardGeometry, RobotConfig};
use crate::game::{Board, Cell, Mark};
use crate::hw::sim::human::{self, HandMark};
use crate::hw::sim::{PacedClock, PaperPoint, SimBody, SimRobot, SimSettings};
use crate::hw::LightColour;
use crate::motion::stop::STOP_KEY;
use crate::motion::StopRequest;
use crate::scoreboard::store::ScoreFile;
use crate::ui::menu::Key;
use crate::ui::view::{board_rows, View};
use anyhow::Context;
use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use crossterm::{cursor, execute, queue, terminal};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the terminal shows, shared by the program (which writes it) and the drawing thread.
#[derive(Default)]
struct Shown {
    view: Option<View>,
    notes: Vec<String>,
    /// The human's mark in the game being played, for the 1-9 keys.
    human: Option<Mark>,
}

type SharedShown = Arc<Mutex<Shown>>;

fn lock(shown: &SharedShown) -> std::sync::MutexGuard<'_, Shown> {
    shown.lock().unwrap_or_else(|e| e.into_inner())
}

struct TerminalMirror(SharedShown);

impl Mirror for TerminalMirror {
    fn show(&mut self, view: &View) {
        lock(&self.0).view = Some(view.clone());
    }

    fn note(&mut self, line: &str) {
        let mut shown = lock(&self.0);
        shown.notes.push(line.to_string());
        let excess = shown.notes.len().saturating_sub(3);
        shown.notes.drain(..excess);
    }
}

/// The person at the keyboard: told nothing, but a fresh sheet goes under the pen for every
/// game and the 1-9 keys learn which mark to draw.
struct KeyboardPerson {
    sim: SimRobot,
    shown: SharedShown,
}

impl Person for KeyboardPerson {
    fn new_sheet(&mut self) {
        self.sim.world().paper_mut().clear();
    }

    fn your_move(&mut self, _board: &Board, mark: Mark) {
        lock(&self.shown).human = Some(mark);
    }
}

pub(super) fn run(
    config: &RobotConfig,
    args: &SimArgs,
    score_file: ScoreFile,
    log_path: &Path,
) -> anyhow::Result<ExitCode> {
    let sim = SimRobot::new(
        &SimBody::as_configured(config),
        &super::world_settings(args.world.as_deref(), SimSettings::default())?,
    );
    let shown: SharedShown = Arc::default();
    let mut panel = Panel::new(Box::new(TerminalMirror(shown.clone())));
    panel.snapshots = super::play::snapshots(args.program.lcd_dir.as_deref())?;
    let mut brick = Brick::simulated(&sim, config);
    brick.gantry.robot.clock = Box::new(PacedClock {
        clock: sim.clock(),
        speed: args.speed,
    });
    let (machine, emergency) = brick.into_machine(config, &mut panel);
    let session = Session::start(log_path, emergency)?;
    super::play::give_a_voice(&mut panel, !args.program.quiet, false);
    let stop = session.stop_request();
    let mut person = KeyboardPerson {
        sim: sim.clone(),
        shown: shown.clone(),
    };
    let base = super::play::settings(&args.program);
    let settings = Settings {
        // The simulated sheet goes with the program.
        resumable: false,
        // Screens that pause are timed on the simulated clock: sped up, they would flash by,
        // so they last as long in real time as on the brick (a key still cuts them short).
        result_shown_for: base.result_shown_for.mul_f64(args.speed.max(1.0)),
        warning_shown_for: base.warning_shown_for.mul_f64(args.speed.max(1.0)),
        reads: args.files.read_pictures(),
        ..base
    };
    let mut program = Program::new(
        machine,
        panel,
        score_file,
        &mut person,
        stop.clone(),
        settings,
    );

    let raw_terminal = RawTerminal::enter().context("cannot put the terminal in raw mode")?;
    let running = Arc::new(AtomicBool::new(true));
    let keys = {
        let (sim, board, shown, stop) = (
            sim.clone(),
            config.board.clone(),
            shown.clone(),
            stop.clone(),
        );
        std::thread::spawn(move || read_keys(&sim, &board, &shown, &stop))
    };
    let drawing = {
        let (sim, board, shown, running, speed) = (
            sim.clone(),
            config.board.clone(),
            shown.clone(),
            running.clone(),
            args.speed,
        );
        std::thread::spawn(move || {
            while running.load(Ordering::SeqCst) {
                draw(&sim, &board, &shown, speed);
                std::thread::sleep(Duration::from_millis(100));
            }
            draw(&sim, &board, &shown, speed);
        })
    };
    let ending = program.run_menu();
    drop(program);
    running.store(false, Ordering::SeqCst);
    let _ = drawing.join();
    drop(raw_terminal);
    // The key thread waits on the terminal; it ends with the process.
    drop(keys);
    if let Some(view) = &lock(&shown).view {
        for line in view.plain_lines() {
            println!("{line}");
        }
    }
    if let Some(path) = &args.paper {
        super::robot::save_paper(&sim, &config.board, path)?;
        println!("The sheet is saved in {}.", path.display());
    }
    Ok(super::play::exit_code(&ending, &stop))
}

/// Raw mode and the alternate screen, undone on drop (also when the program fails).
struct RawTerminal;

impl RawTerminal {
    fn enter() -> std::io::Result<RawTerminal> {
        terminal::enable_raw_mode()?;
        execute!(
            std::io::stdout(),
            terminal::EnterAlternateScreen,
            cursor::Hide
        )?;
        Ok(RawTerminal)
    }
}

impl Drop for RawTerminal {
    fn drop(&mut self) {
        let _ = execute!(
            std::io::stdout(),
            cursor::Show,
            terminal::LeaveAlternateScreen
        );
        let _ = terminal::disable_raw_mode();
    }
}

/// How long a key holds a button or the touch sensor down, in simulated time.
const PRESS: Duration = Duration::from_millis(150);

fn read_keys(sim: &SimRobot, board: &BoardGeometry, shown: &SharedShown, stop: &StopRequest) {
    while let Ok(event) = event::read() {
        let Event::Key(key) = event else { continue };
        if key.kind != KeyEventKind::Press {
            continue;
        }
        let button = |key: Key| sim.world().press_buttons(key.alone(), PRESS);
        match key.code {
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => stop.request(2),
            KeyCode::Char('q') | KeyCode::Esc => stop.request(STOP_KEY),
            KeyCode::Char('t') => sim.world().press_touch(PRESS),
            KeyCode::Left => button(Key::Left),
            KeyCode::Right => button(Key::Right),
            KeyCode::Up => button(Key::Up),
            KeyCode::Down => button(Key::Down),
            KeyCode::Enter | KeyCode::Char(' ') => button(Key::Centre),
            KeyCode::Char(ch) => match (square_key(ch, board.size), ch) {
                (Some(index), _) => {
                    let cell = Cell::from_index(index, board.size);
                    let hand = HandMark::for_mark(lock(shown).human.unwrap_or(Mark::X));
                    human::draw(sim.world().paper_mut(), board, cell, hand);
                }
                (None, 'h') => button(Key::Left),
                (None, 'l') => button(Key::Right),
                (None, 'k') => button(Key::Up),
                (None, 'j') => button(Key::Down),
                (None, 'c') => button(Key::Centre),
                _ => {}
            },
            _ => {}
        }
    }
}

/// The square a key draws in, by its index row by row: on 3 x 3 the digits 1 to 9; on 4 x 4,
/// whose sixteen squares outnumber the digits, the letters a to p (so there h, j, k, l and c
/// are squares, and only the arrows and Enter stand for buttons).
fn square_key(ch: char, size: usize) -> Option<usize> {
    match (size, ch) {
        (3, '1'..='9') => Some(ch as usize - '1' as usize),
        (4, 'a'..='p') => Some(ch as usize - 'a' as usize),
        _ => None,
    }
}

/// The keys, each line under 80 characters so an 80-column terminal never wraps one.
fn key_help(size: usize) -> [&'static str; 2] {
    if size == 4 {
        [
            "Keys: arrows = buttons, Enter = centre, t = touch sensor, q = stop,",
            "a-p = your mark in squares 1-16 (a top left, d top right, p bottom right)",
        ]
    } else {
        [
            "Keys: arrows or h j k l = buttons, Enter = centre, t = touch sensor,",
            "1-9 = your mark in that square (1 top left, 9 bottom right), q = stop",
        ]
    }
}

const LCD_TEXT_WIDTH: usize = 29;

/// Redraws the whole terminal: the LCD's text in a box, the board, the paper, lights and keys.
fn draw(sim: &SimRobot, board: &BoardGeometry, shown: &SharedShown, speed: f64) {
    let (view, notes) = {
        let shown = lock(shown);
        (shown.view.clone(), shown.notes.clone())
    };
    let mut lcd = Vec::new();
    if let Some(view) = &view {
        lcd.push(format!("[ {} ]", view.title));
        for paragraph in &view.paragraphs {
            lcd.extend(
                textwrap::wrap(paragraph, LCD_TEXT_WIDTH)
                    .into_iter()
                    .map(String::from),
            );
        }
        if let Some(board) = &view.board {
            lcd.push(String::new());
            lcd.extend(board_rows(board).into_iter().map(|row| format!("  {row}")));
        }
    }
    lcd.resize(16, String::new());
    let (paper, time, lights) = {
        let world = sim.world();
        (paper_rows(board, &world), world.now(), world.lights())
    };
    let mut lines = vec![format!(
        "ev3-tictactoe sim: simulated robot at {speed}x, {:.1} s simulated",
        time.as_secs_f64()
    )];
    lines.push(format!(
        "+{}+   Paper: # ink, : a trace, + pen, o sensor",
        "-".repeat(LCD_TEXT_WIDTH + 2)
    ));
    for (i, text) in lcd.iter().enumerate() {
        let paper_line = paper.get(i).map_or("", String::as_str);
        lines.push(format!("| {text:<LCD_TEXT_WIDTH$} |   {paper_line}"));
    }
    lines.push(format!("+{}+", "-".repeat(LCD_TEXT_WIDTH + 2)));
    lines.push(format!(
        "Lights: {} {}",
        light_name(lights.0),
        light_name(lights.1)
    ));
    lines.extend(key_help(board.size).map(String::from));
    lines.extend(notes);
    // Cut to the terminal as it is now, redrawn every tenth of a second, so a resize is
    // followed at once: a line longer than the width would wrap onto the next, and a line
    // written on the last row would scroll the whole picture up, leaving broken copies.
    let (width, height) = terminal::size().unwrap_or((80, 24));
    let mut out = std::io::stdout().lock();
    let _ = queue!(out, cursor::MoveTo(0, 0));
    let rows = usize::from(height.max(2) - 1);
    for line in lines.iter().take(rows) {
        let shown: String = line.chars().take(usize::from(width.max(1))).collect();
        let _ = queue!(out, terminal::Clear(terminal::ClearType::CurrentLine));
        let _ = write!(out, "{shown}\r\n");
    }
    let _ = queue!(out, terminal::Clear(terminal::ClearType::FromCursorDown));
    let _ = out.flush();
}

fn light_name(colour: LightColour) -> &'static str {
    match colour {
        LightColour::Off => "off",
        LightColour::Green => "green",
        LightColour::Red => "red",
        LightColour::Amber => "amber",
    }
}

/// The sheet's grid area in characters, each 10 degrees wide and 20 tall (terminal characters
/// are about twice as tall as wide): ink dark, paper blank, the pen `+` and the sensor `o`.
fn paper_rows(board: &BoardGeometry, world: &crate::hw::sim::World) -> Vec<String> {
    let (min, max) = (board.sheet_min_deg, board.sheet_max_deg);
    let pen = world.pen_point();
    let sensor = world.sensor_point();
    let near =
        |p: PaperPoint, c: f64, r: f64| (p.columns - c).abs() < 5.0 && (p.rows - r).abs() < 10.0;
    let mut rows = Vec::new();
    let mut r = f64::from(min.rows) + 10.0;
    while r < f64::from(max.rows) {
        let mut line = String::new();
        let mut c = f64::from(min.columns) + 5.0;
        while c < f64::from(max.columns) {
            let ink = world.paper().ink_in_box(PaperPoint::new(c, r), 5.0, 10.0);
            line.push(if near(pen, c, r) {
                '+'
            } else if near(sensor, c, r) {
                'o'
            } else if ink >= 0.15 {
                '#'
            } else if ink > 0.0 {
                ':'
            } else {
                '.'
            });
            c += 10.0;
        }
        rows.push(line);
        r += 20.0;
    }
    rows
}
