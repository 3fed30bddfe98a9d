//! The robot as referee for two people, on the simulator: the robot draws the grid, reads each
//! person's mark, judges the game, strikes the winning line and keeps the result apart from its
//! own scores.

mod sim_rig;

use ev3_tictactoe::ai::Difficulty;
use ev3_tictactoe::app::journal::JournalFile;
use ev3_tictactoe::app::scripted::ScriptedHuman;
use ev3_tictactoe::app::scripted::{Strategy, Turn};
use ev3_tictactoe::app::{Ending, Person, Settings};
use ev3_tictactoe::config::RobotConfig;
use ev3_tictactoe::game::Board;
use ev3_tictactoe::game::{Cell, Mark};
use ev3_tictactoe::motion::StopRequest;
use ev3_tictactoe::scoreboard::{GameResult, PairResult};
use ev3_tictactoe::ui::menu::Key;
use sim_rig::*;
use std::time::UNIX_EPOCH;

#[test]
fn two_people_play_to_every_outcome_and_the_robot_judges_each() {
    let x_wins = (squares(&[1, 4, 2, 5, 3]), PairResult::XWon, Some([1, 2, 3]));
    let o_wins = (
        squares(&[1, 4, 2, 5, 9, 6]),
        PairResult::OWon,
        Some([4, 5, 6]),
    );
    let draw = (
        squares(&[1, 2, 3, 5, 4, 6, 8, 7, 9]),
        PairResult::Draw,
        None,
    );
    let mut two_at_once = squares(&[1]);
    two_at_once.push(Turn::Mark(vec![
        Cell::from_index(4, 3),
        Cell::from_index(8, 3),
    ]));
    let void = (two_at_once, PairResult::Void, None);
    for (turns, expected, line) in [x_wins, o_wins, draw, void] {
        let mut rig = Rig::new(Strategy::Random, 1);
        rig.human.turns = turns.into();
        let (games, ending) = rig.referee(1, 1);
        assert_done(&ending);
        let game = &games[0];
        assert_eq!(game.result, expected);
        let struck: Option<Vec<usize>> = game
            .line
            .as_ref()
            .map(|line| line.iter().map(|c| c.index(3) + 1).collect());
        assert_eq!(struck, line.map(|l| l.to_vec()), "{expected:?}");
        // The grid's four lines, and the line through a win: nothing of a player's is drawn.
        let strokes = robot_strokes(&rig);
        assert_eq!(
            strokes.len(),
            4 + usize::from(line.is_some()),
            "{expected:?}: {strokes:?}"
        );
        if let Some(line) = &game.line {
            let geometry = RobotConfig::default().board;
            let (a, b) = (geometry.cell_centre(line[0]), geometry.cell_centre(line[2]));
            let last = strokes.last().unwrap();
            let reaches = |p: ev3_tictactoe::config::AxisPoint| {
                last.iter()
                    .any(|&(c, r)| (c - f64::from(p.columns)).hypot(r - f64::from(p.rows)) < 40.0)
            };
            assert!(reaches(a) && reaches(b), "{expected:?}: {last:?}");
        }
        assert_eq!(
            game.result_view.title,
            match expected {
                PairResult::XWon => "X wins!",
                PairResult::OWon => "O wins!",
                PairResult::Draw => "A draw",
                PairResult::Void => "Game void",
            }
        );
        rig.assert_safe();
    }
}

#[test]
fn two_person_games_are_kept_apart_and_never_touch_the_robots_scores() {
    let mut rig = Rig::new(Strategy::Random, 2);
    rig.settings.resumable = true;
    // Someone has beaten the robot at hard before.
    rig.scores
        .record(&Difficulty::hard(), GameResult::HumanWon, UNIX_EPOCH)
        .unwrap();
    let before = rig.scoreboard();
    rig.human.turns = squares(&[1, 4, 2, 5, 3]).into();
    rig.human
        .turns
        .extend(squares(&[1, 2, 3, 5, 4, 6, 8, 7, 9]));
    let (games, ending) = rig.referee(2, 2);
    assert_done(&ending);
    assert_eq!(games.len(), 2);
    let after = rig.scoreboard();
    assert_eq!(after.current_score, before.current_score);
    assert_eq!(after.levels, before.levels);
    let pair = after.two_people.expect("a two-person record");
    assert_eq!(
        (pair.x_wins, pair.o_wins, pair.draws, pair.void),
        (1, 0, 1, 0)
    );
    assert_eq!(games[1].record, pair);
    // Each game was journalled while it lasted and the journal went once it was recorded.
    let journal = rig.folder.path().join("scoreboard.json.game-in-progress");
    assert!(!journal.exists());
    // The second game asked for a fresh sheet first, as between games against the robot.
    assert_eq!(rig.screens.titled("Fresh sheet, please").len(), 1);
}

#[test]
fn a_person_who_forgets_to_draw_is_asked_again_and_told_whose_turn_it_is() {
    let mut rig = Rig::new(Strategy::Random, 3);
    let mut turns = squares(&[5]);
    turns.push(Turn::PressOnly);
    turns.extend(squares(&[1, 9, 3, 2, 8, 7, 4, 6]));
    rig.human.turns = turns.into();
    let (games, ending) = rig.referee(1, 3);
    assert_done(&ending);
    assert_eq!(games[0].result, PairResult::Draw);
    let asked_again = rig.screens.titled("No new mark");
    assert_eq!(asked_again.len(), 1);
    // O was asked, O was asked again, and O's move is the next one read.
    assert_eq!(games[0].moves[1], (Mark::O, Cell::from_index(0, 3)));
    assert!(!rig.screens.titled("O to move").is_empty());
    assert!(!rig.screens.titled("X to move").is_empty());
}

#[test]
fn the_scores_page_starts_a_game_for_two_people() {
    let mut rig = Rig::new(Strategy::Random, 4);
    // Down to the scores, centre for two people; after the game the scores again, then up to
    // the main menu and up to exit.
    rig.human.keys = [Key::Down, Key::Centre, Key::Up, Key::Up].into();
    let ending = rig.program(4).run_menu();
    assert_done(&ending);
    let pair = rig.scoreboard().two_people.expect("the game was recorded");
    assert_eq!(pair.x_wins + pair.o_wins + pair.draws + pair.void, 1);
    assert!(rig.screens.titled("Scores").iter().any(|v| v
        .paragraphs
        .iter()
        .any(|p| p == "CENTRE 2 players, DOWN setup")));
}

/// Someone at the table who, at their `at_move`-th turn, draws nothing and the program is
/// stopped, as if the brick lost power while they held the pen.
struct LeavesMidGame {
    inner: ScriptedHuman,
    stop: StopRequest,
    at_move: usize,
    moves: usize,
}

impl Person for LeavesMidGame {
    fn new_sheet(&mut self) {
        self.inner.new_sheet();
    }

    fn your_move(&mut self, board: &Board, mark: Mark) {
        self.moves += 1;
        if self.moves == self.at_move {
            self.stop.request(15);
            return;
        }
        self.inner.your_move(board, mark);
    }
}

#[test]
fn a_game_between_two_people_cut_short_is_taken_up_on_the_same_sheet_and_recorded_once() {
    let mut rig = Rig::new(Strategy::Random, 9);
    let stop = StopRequest::new();
    let mut leaving = LeavesMidGame {
        inner: rig.scripted(Strategy::Random, 9),
        stop: stop.clone(),
        at_move: 4,
        moves: 0,
    };
    let settings = Settings {
        seed: Some(9),
        ..Settings::default()
    };
    let ending = rig
        .program_with(&mut leaving, stop, settings)
        .run_referee_games(1, &mut |_| {});
    assert!(matches!(ending, Ending::Interrupted { .. }), "{ending:?}");
    let kept = JournalFile::beside(&rig.scores)
        .load()
        .unwrap()
        .expect("the game in progress is kept");
    assert_eq!(kept.moves.len(), 3, "X, O and X had moved");
    assert!(
        rig.scoreboard().two_people.is_none(),
        "nothing recorded yet"
    );
    // The next run asks, the person goes on (centre), and the game is played to its end on
    // the same sheet: the three marks are read back, not drawn again.
    rig.human.keys.push_back(Key::Centre);
    let (games, ending) = rig.referee(1, 10);
    assert_done(&ending);
    assert_eq!(games.len(), 1, "the game taken up is the one asked for");
    let moves: Vec<Cell> = games[0].moves.iter().map(|&(_, cell)| cell).collect();
    assert_eq!(moves[..3], kept.moves[..]);
    assert!(!rig.screens.titled("Go on?").is_empty());
    let pair = rig.scoreboard().two_people.unwrap();
    assert_eq!(pair.x_wins + pair.o_wins + pair.draws + pair.void, 1);
    assert!(JournalFile::beside(&rig.scores).load().unwrap().is_none());
    rig.assert_safe();
}
