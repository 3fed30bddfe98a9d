//! The simulated robot as the tests of whole games set it up: a robot of a given config in a
//! simulated world, a scoreboard file in a folder of its own, a scripted human, and every screen
//! kept. Shared by the test files of games on the simulator.

#![allow(dead_code)]

use ev3_tictactoe::ai::Difficulty;
use ev3_tictactoe::app::game::GameReport;
use ev3_tictactoe::app::panel::{Mirror, Panel};
use ev3_tictactoe::app::referee::RefereeReport;
use ev3_tictactoe::app::scripted::{ScriptedHuman, Strategy, Turn};
use ev3_tictactoe::app::{Ending, Machine, Person, Program, Settings};
use ev3_tictactoe::config::RobotConfig;
use ev3_tictactoe::game::{Cell, Status};
use ev3_tictactoe::hw::sim::{Author, SimBody, SimRobot, SimSettings};
use ev3_tictactoe::hw::ButtonPad;
use ev3_tictactoe::motion::{Gantry, StopRequest};
use ev3_tictactoe::scoreboard::store::ScoreFile;
use ev3_tictactoe::scoreboard::{GameResult, Scoreboard};
use ev3_tictactoe::ui::menu::FirstMove;
use ev3_tictactoe::ui::view::View;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, Mutex};

/// Keeps every screen shown, and every note for the terminal.
#[derive(Clone, Default)]
pub struct Screens(pub Arc<Mutex<Vec<View>>>, pub Arc<Mutex<Vec<String>>>);

impl Screens {
    pub fn all(&self) -> Vec<View> {
        self.0.lock().unwrap().clone()
    }

    pub fn titled(&self, title: &str) -> Vec<View> {
        self.all()
            .into_iter()
            .filter(|v| v.title == title)
            .collect()
    }

    pub fn last(&self) -> View {
        self.all().last().cloned().expect("something was shown")
    }
}

impl Mirror for Screens {
    fn show(&mut self, view: &View) {
        self.0.lock().unwrap().push(view.clone());
    }

    fn note(&mut self, line: &str) {
        self.1.lock().unwrap().push(line.to_string());
    }
}

/// A simulated robot, a scoreboard file in a folder of its own, and a scripted human.
pub struct Rig {
    pub config: RobotConfig,
    pub sim: SimRobot,
    pub screens: Screens,
    pub scores: ScoreFile,
    pub folder: tempfile::TempDir,
    pub human: ScriptedHuman,
    pub settings: Settings,
    pub buttons: Option<String>,
}

impl Rig {
    pub fn new(strategy: Strategy, seed: u64) -> Rig {
        Rig::with(SimSettings::default(), strategy, seed)
    }

    pub fn with(settings: SimSettings, strategy: Strategy, seed: u64) -> Rig {
        Rig::of(RobotConfig::default(), settings, strategy, seed)
    }

    /// The robot `config` describes, in a simulated world of `settings`.
    pub fn of(config: RobotConfig, settings: SimSettings, strategy: Strategy, seed: u64) -> Rig {
        let body = SimBody::as_configured(&config);
        Rig::built(config, &body, settings, strategy, seed)
    }

    /// The robot `config` believes in, built as `body` (a sensor mounted elsewhere, a travel
    /// measured short), in a simulated world of `settings`.
    pub fn built(
        config: RobotConfig,
        body: &SimBody,
        settings: SimSettings,
        strategy: Strategy,
        seed: u64,
    ) -> Rig {
        config
            .validate()
            .expect("the rig's config is one the program accepts");
        let sim = SimRobot::new(body, &settings);
        let folder = tempfile::tempdir().unwrap();
        let scores = ScoreFile::new(folder.path().join("scoreboard.json"));
        let human = ScriptedHuman::new(
            sim.clone(),
            config.board.clone(),
            strategy,
            ChaCha8Rng::seed_from_u64(seed),
        );
        Rig {
            config,
            sim,
            screens: Screens::default(),
            scores,
            folder,
            human,
            settings: Settings::default(),
            buttons: None,
        }
    }

    /// The program as `play` builds it, on the simulator.
    pub fn program(&mut self, seed: u64) -> Program<'_> {
        let mut panel = Panel::new(Box::new(self.screens.clone()));
        panel.screen = Some(Box::new(self.sim.screen()));
        panel.lights = Some(Box::new(self.sim.lights()));
        panel.speaker = Some(Box::new(self.sim.speaker()));
        let buttons: Result<Box<dyn ButtonPad>, String> = match &self.buttons {
            None => Ok(Box::new(self.sim.buttons())),
            Some(why) => Err(why.clone()),
        };
        Program::new(
            Machine {
                gantry: Gantry::new(self.sim.robot(), self.config.clone()),
                buttons,
                battery: Some(Box::new(self.sim.battery())),
            },
            panel,
            self.scores.clone(),
            &mut self.human,
            StopRequest::new(),
            Settings {
                seed: Some(seed),
                ..self.settings.clone()
            },
        )
    }

    /// Another scripted person at this rig's robot, choosing by `strategy` from a random
    /// stream of its own.
    pub fn scripted(&self, strategy: Strategy, seed: u64) -> ScriptedHuman {
        ScriptedHuman::new(
            self.sim.clone(),
            self.config.board.clone(),
            strategy,
            ChaCha8Rng::seed_from_u64(seed),
        )
    }

    /// The program on this rig's robot with someone other than the rig's scripted human,
    /// obeying `stop`: no battery, and only the screens kept (no LCD, lights or speaker unless
    /// the test adds them to its panel).
    pub fn program_with<'a>(
        &self,
        person: &'a mut dyn Person,
        stop: StopRequest,
        settings: Settings,
    ) -> Program<'a> {
        Program::new(
            Machine {
                gantry: Gantry::new(self.sim.robot(), self.config.clone()),
                buttons: Ok(Box::new(self.sim.buttons())),
                battery: None,
            },
            Panel::new(Box::new(self.screens.clone())),
            self.scores.clone(),
            person,
            stop,
            settings,
        )
    }

    /// Plays `games` games without the menu and returns them with how the run ended.
    pub fn play(
        &mut self,
        difficulty: &Difficulty,
        first: FirstMove,
        games: u32,
        seed: u64,
    ) -> (Vec<GameReport>, Ending) {
        let mut reports = Vec::new();
        let ending =
            self.program(seed)
                .run_games_reporting(difficulty, first, games, &mut |game| {
                    reports.push(game.clone())
                });
        (reports, ending)
    }

    /// Referees `games` games between two scripted people and returns them with how the run
    /// ended.
    pub fn referee(&mut self, games: u32, seed: u64) -> (Vec<RefereeReport>, Ending) {
        let mut reports = Vec::new();
        let ending = self
            .program(seed)
            .run_referee_games(games, &mut |game| reports.push(game.clone()));
        (reports, ending)
    }

    pub fn scoreboard(&self) -> Scoreboard {
        self.scores.load().unwrap().0
    }

    /// Plays one easy game that must fail: no game finished, the machine left safe, nothing
    /// recorded. The error, in words.
    pub fn game_that_fails(&mut self, seed: u64) -> String {
        let (games, ending) = self.play(&Difficulty::easy(), FirstMove::Human, 1, seed);
        assert!(games.is_empty());
        let Ending::Failed(error) = ending else {
            panic!("the game was meant to fail, but the run ended {ending:?}")
        };
        self.assert_safe();
        assert!(!self.scores.path().exists(), "nothing recorded");
        format!("{error:#}")
    }

    /// The machine is safe: nothing powered, the pen off the paper.
    pub fn assert_safe(&self) {
        let world = self.sim.world();
        assert_eq!(world.driven_motors(), vec![], "motors still powered");
        assert!(!world.pen_is_down(), "the pen is left on the paper");
    }

    /// Low tones: the invalid-move and error sounds.
    pub fn low_tones_played(&self) -> usize {
        let world = self.sim.world();
        world
            .tones()
            .iter()
            .filter(|(_, t)| t.frequency_hz < 300)
            .count()
    }
}

pub fn assert_done(ending: &Ending) {
    assert!(matches!(ending, Ending::Done), "the run ended {ending:?}");
}

/// The result the rules give for a finished game's board.
pub fn result_by_the_rules(game: &GameReport) -> GameResult {
    match game.board.status() {
        Status::Won { winner, .. } if winner == game.human => GameResult::HumanWon,
        Status::Won { .. } => GameResult::HumanLost,
        Status::Draw => GameResult::Draw,
        Status::ToMove(_) => GameResult::Abandoned,
    }
}

/// The squares by number, 1 at the top left, as cells of the 3 x 3 board.
pub fn squares(numbers: &[usize]) -> Vec<Turn> {
    numbers
        .iter()
        .map(|n| Turn::Mark(vec![Cell::from_index(n - 1, 3)]))
        .collect()
}

pub fn robot_strokes(rig: &Rig) -> Vec<Vec<(f64, f64)>> {
    rig.sim
        .world()
        .paper()
        .strokes()
        .filter(|s| s.author == Author::Robot)
        .map(|s| s.points.iter().map(|p| (p.columns, p.rows)).collect())
        .collect()
}

/// What [`ActsAtEachMove`] does as a move starts: the move's number, and the world.
type AtAMove = Box<dyn FnMut(usize, &SimRobot)>;

/// A scripted person who does `act` as they start each move (the first is move 1), with the
/// simulated world at hand: knocks the sheet, makes a pinion skip a tooth, notes where the
/// carriage stands. In everything else, the scripted person.
pub struct ActsAtEachMove {
    pub inner: ScriptedHuman,
    sim: SimRobot,
    act: AtAMove,
    moves: usize,
}

impl ActsAtEachMove {
    pub fn new(
        inner: ScriptedHuman,
        sim: SimRobot,
        act: impl FnMut(usize, &SimRobot) + 'static,
    ) -> ActsAtEachMove {
        ActsAtEachMove {
            inner,
            sim,
            act: Box::new(act),
            moves: 0,
        }
    }
}

impl Person for ActsAtEachMove {
    fn new_sheet(&mut self) {
        self.inner.new_sheet();
    }

    fn at_menu(&mut self, menu: &ev3_tictactoe::ui::menu::Menu) {
        self.inner.at_menu(menu);
    }

    fn asked_to_go_on(&mut self) {
        self.inner.asked_to_go_on();
    }

    fn your_move(&mut self, board: &ev3_tictactoe::game::Board, mark: ev3_tictactoe::game::Mark) {
        self.moves += 1;
        (self.act)(self.moves, &self.sim);
        self.inner.your_move(board, mark);
    }
}

/// One game against hard, a perfect human first (seed 19), who does `meddle` to the world as
/// they start their second move: the rig, how the run ended and the games it reported.
pub fn a_game_meddled_with(
    mut meddle: impl FnMut(&SimRobot) + 'static,
) -> (Rig, Ending, Vec<GameReport>) {
    let rig = Rig::new(Strategy::Perfect, 19);
    let mut person = ActsAtEachMove::new(
        rig.scripted(Strategy::Perfect, 19),
        rig.sim.clone(),
        move |turn, sim| {
            if turn == 2 {
                meddle(sim);
            }
        },
    );
    let settings = Settings {
        seed: Some(19),
        ..Settings::default()
    };
    let mut games = Vec::new();
    let ending = rig
        .program_with(&mut person, StopRequest::new(), settings)
        .run_games_reporting(&Difficulty::hard(), FirstMove::Human, 1, &mut |g| {
            games.push(g.clone())
        });
    (rig, ending, games)
}
