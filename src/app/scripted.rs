//! A scripted person at the simulated robot, for the demo and the tests: a fresh sheet for every
//! game, and on its turn a mark drawn by hand on the virtual paper and the touch sensor pressed.

use super::Person;
use crate::ai::{Difficulty, Engine};
use crate::config::BoardGeometry;
use crate::game::{Board, Cell, Mark};
use crate::hw::sim::human::{self, HandMark};
use crate::hw::sim::SimRobot;
use crate::motion::calibrate::Step;
use crate::ui::menu::{Key, Menu};
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use std::time::Duration;

/// How the scripted human picks its squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Any empty square, uniformly.
    Random,
    /// Always a best move: it never loses.
    Perfect,
}

/// What the scripted human does on one of its turns, for testing the program's answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Turn {
    /// Marks a square by its strategy.
    Play,
    /// Presses the touch sensor without drawing anything.
    PressOnly,
    /// Marks these squares at once: asked which is theirs, says more than one.
    Mark(Vec<Cell>),
    /// Marks `mark`, if any, and leaves ink in `strays` too (a slip of the pen, a smudge, a
    /// child's scribble): asked which is theirs, says `mark`, or none of them.
    WithStrays {
        mark: Option<Cell>,
        strays: Vec<Cell>,
    },
}

/// How long a finger stays on the touch sensor or a button.
const PRESS: Duration = Duration::from_millis(200);
/// How long the person looks at a menu before pressing.
const READ_THE_SCREEN: Duration = Duration::from_millis(500);

/// A person who plays by `strategy`, drawing X as a cross and O as a ring.
pub struct ScriptedHuman {
    sim: SimRobot,
    /// Where the squares are on the sheet.
    geometry: BoardGeometry,
    strategy: Strategy,
    engine: Engine,
    rng: ChaCha8Rng,
    /// Turns to take instead of [`Turn::Play`], first first.
    pub turns: VecDeque<Turn>,
    /// Keys to press at the menu, first first; none left, and the menu is left alone.
    pub keys: VecDeque<Key>,
    /// Every menu the program waited at, in order.
    pub menus_seen: Vec<Menu>,
    /// How long the person takes over each move before pressing the touch sensor.
    pub think_time: Duration,
    /// A calibration step at whose start the person presses up, to stop it there.
    pub stop_calibration_at: Option<Step>,
    /// The squares the person drew in as their move on their last turn.
    moved_in: Vec<Cell>,
    /// Every question of which new mark is theirs the program asked, with the square it offered.
    pub asked_which: Vec<(Vec<Cell>, Cell)>,
}

impl ScriptedHuman {
    pub fn new(
        sim: SimRobot,
        geometry: BoardGeometry,
        strategy: Strategy,
        rng: ChaCha8Rng,
    ) -> ScriptedHuman {
        ScriptedHuman {
            sim,
            engine: Engine::new(geometry.rules()),
            geometry,
            strategy,
            rng,
            turns: VecDeque::new(),
            keys: VecDeque::new(),
            menus_seen: Vec::new(),
            think_time: Duration::ZERO,
            stop_calibration_at: None,
            moved_in: Vec::new(),
            asked_which: Vec::new(),
        }
    }

    fn pick(&mut self, board: &Board) -> Cell {
        let empty: Vec<Cell> = board.empty_cells().collect();
        match self.strategy {
            Strategy::Random => *empty
                .choose(&mut self.rng)
                .expect("the human moves on a board with room"),
            Strategy::Perfect => {
                self.engine
                    .choose(board, &Difficulty::hard(), &mut self.rng)
                    .expect("the robot's boards (3 x 3 and 4 x 4) are always analysed")
                    .0
                    .cell
            }
        }
    }
}

impl Person for ScriptedHuman {
    fn new_sheet(&mut self) {
        let mut world = self.sim.world();
        world.paper_mut().clear();
        // Reads the screen, changes the sheet, presses the touch sensor.
        world.press_touch_after(READ_THE_SCREEN * 4, PRESS);
    }

    fn at_menu(&mut self, menu: &Menu) {
        self.menus_seen.push(menu.clone());
        let Some(key) = self.keys.pop_front() else {
            return;
        };
        // A person reads the screen first, and has let go of the last button by then.
        self.sim
            .world()
            .press_buttons_after(READ_THE_SCREEN, key.alone(), PRESS);
    }

    fn asked_to_go_on(&mut self) {
        self.asked("Go on?");
    }

    fn asked(&mut self, _title: &str) {
        if let Some(key) = self.keys.pop_front() {
            self.sim
                .world()
                .press_buttons_after(READ_THE_SCREEN, key.alone(), PRESS);
        }
    }

    fn calibrating(&mut self, step: Step) {
        if self.stop_calibration_at == Some(step) {
            self.sim
                .world()
                .press_buttons_after(READ_THE_SCREEN, Key::Up.alone(), PRESS);
        } else if let Step::FillIn { cell, .. } = step {
            let mut world = self.sim.world();
            human::draw(world.paper_mut(), &self.geometry, cell, HandMark::Cross);
            world.press_touch_after(self.think_time, PRESS);
        }
    }

    fn your_move(&mut self, board: &Board, mark: Mark) {
        let hand = HandMark::for_mark(mark);
        let (squares, strays) = match self.turns.pop_front().unwrap_or(Turn::Play) {
            Turn::Play => (vec![self.pick(board)], vec![]),
            Turn::PressOnly => (vec![], vec![]),
            Turn::Mark(cells) => (cells, vec![]),
            Turn::WithStrays { mark, strays } => (mark.into_iter().collect(), strays),
        };
        let mut world = self.sim.world();
        for &cell in squares.iter().chain(&strays) {
            human::draw(world.paper_mut(), &self.geometry, cell, hand);
        }
        world.press_touch_after(self.think_time, PRESS);
        self.moved_in = squares;
    }

    /// Answers truly: centre at their one square, right until it is offered, up when their
    /// square (or none, when they drew nothing) is not among those seen, down when they drew in
    /// more than one.
    fn which_is_yours(&mut self, candidates: &[Cell], offered: Cell) {
        self.asked_which.push((candidates.to_vec(), offered));
        let key = match self.moved_in[..] {
            [mine] if mine == offered => Key::Centre,
            [mine] if candidates.contains(&mine) => Key::Right,
            [] | [_] => Key::Up,
            _ => Key::Down,
        };
        self.sim
            .world()
            .press_buttons_after(READ_THE_SCREEN, key.alone(), PRESS);
    }
}
