//! A game cut short (power lost, a signal) is journalled and taken up again on the same sheet,
//! or given up; a sheet that does not match it is named square by square.

use crate::sim_rig::*;
use ev3_tictactoe::ai::Difficulty;
use ev3_tictactoe::app::game::GameReport;
use ev3_tictactoe::app::scripted::{ScriptedHuman, Strategy};
use ev3_tictactoe::app::{Ending, Settings};
use ev3_tictactoe::game::{Cell, Mark, Status};
use ev3_tictactoe::motion::StopRequest;
use ev3_tictactoe::ui::menu::{FirstMove, Key};
use std::time::Duration;

/// Plays as `inner` until its `at_move`-th move, then asks the program to stop: after drawing
/// and pressing (`drawn`), or without touching the paper, as if the brick lost power then.
struct CutShort {
    inner: ScriptedHuman,
    stop: StopRequest,
    at_move: usize,
    drawn: bool,
    moves: usize,
}

impl ev3_tictactoe::app::Person for CutShort {
    fn new_sheet(&mut self) {
        self.inner.new_sheet();
    }

    fn asked_to_go_on(&mut self) {
        self.inner.asked_to_go_on();
    }

    fn your_move(&mut self, board: &ev3_tictactoe::game::Board, mark: Mark) {
        self.moves += 1;
        if self.moves == self.at_move {
            if self.drawn {
                self.inner.your_move(board, mark);
            }
            self.stop.request(15);
            return;
        }
        self.inner.your_move(board, mark);
    }
}

/// Plays one game on `rig` that is cut short at the person's `at_move`-th move; returns the
/// moves journalled.
fn cut_short(rig: &Rig, first: FirstMove, at_move: usize, drawn: bool) -> Vec<Cell> {
    let stop = StopRequest::new();
    let mut person = CutShort {
        inner: rig.scripted(Strategy::Random, at_move as u64),
        stop: stop.clone(),
        at_move,
        drawn,
        moves: 0,
    };
    let ending = rig
        .program_with(
            &mut person,
            stop,
            Settings {
                seed: Some(30),
                ..Settings::default()
            },
        )
        .run_games(&Difficulty::medium(), first, 1);
    assert!(matches!(ending, Ending::Interrupted { .. }), "{ending:?}");
    let journal = ev3_tictactoe::app::journal::JournalFile::beside(&rig.scores)
        .load()
        .unwrap()
        .expect("the game in progress is kept");
    journal.moves
}

/// Starts the program again on the same robot and sheet, the person pressing `answer` when
/// asked to go on; the games it reported and how it ended.
fn start_again(rig: &Rig, answer: Key) -> (Vec<GameReport>, Ending) {
    let mut person = rig.scripted(Strategy::Random, 31);
    person.keys.push_back(answer);
    let mut games = Vec::new();
    let ending = rig
        .program_with(
            &mut person,
            StopRequest::new(),
            Settings {
                seed: Some(32),
                ..Settings::default()
            },
        )
        .run_games_reporting(&Difficulty::medium(), FirstMove::Human, 0, &mut |game| {
            games.push(game.clone())
        });
    (games, ending)
}

#[test]
fn a_game_cut_short_is_taken_up_again_on_the_same_sheet_and_played_to_its_end() {
    for (first, at_move, drawn) in [
        // While reading the person's first mark: the mark is on the paper, not in the journal.
        (FirstMove::Human, 1, true),
        // While waiting for the person's second move, after the robot drew its mark.
        (FirstMove::Human, 2, false),
        // Robot first, while reading the person's second mark.
        (FirstMove::Robot, 2, true),
    ] {
        let rig = Rig::new(Strategy::Random, 26);
        let journalled = cut_short(&rig, first, at_move, drawn);
        let (games, ending) = start_again(&rig, Key::Centre);
        assert_done(&ending);
        assert_eq!(
            games.len(),
            1,
            "{first:?} at move {at_move}: the game went on"
        );
        let game = &games[0];
        let played: Vec<Cell> = game.moves.iter().map(|&(_, cell)| cell).collect();
        assert_eq!(
            played[..journalled.len()],
            journalled[..],
            "it went on from the journalled moves"
        );
        assert!(
            game.board.status() != Status::ToMove(Mark::X)
                && game.board.status() != Status::ToMove(Mark::O)
        );
        assert_eq!(result_by_the_rules(game), game.result);
        let level = rig.scoreboard().level("medium");
        assert_eq!(level.wins + level.draws + level.losses + level.abandoned, 1);
        assert!(
            !ev3_tictactoe::app::journal::JournalFile::beside(&rig.scores)
                .path()
                .exists(),
            "the journal goes once the game is recorded"
        );
        rig.assert_safe();
    }
}

#[test]
fn a_sheet_that_does_not_match_the_game_cut_short_is_named_square_by_square() {
    let rig = Rig::new(Strategy::Random, 27);
    let journalled = cut_short(&rig, FirstMove::Human, 3, false);
    // Someone put in a fresh sheet meanwhile.
    rig.sim.world().paper_mut().clear();
    let (games, ending) = start_again(&rig, Key::Centre);
    assert_done(&ending);
    assert!(games.is_empty());
    let screen = rig
        .screens
        .all()
        .into_iter()
        .find(|view| view.title == "Not the same sheet")
        .expect("the mismatch is shown");
    let said = screen.paragraphs.join(" ");
    for cell in &journalled {
        let name = cell.name(3);
        assert!(
            said.contains(&format!("{name} should hold")),
            "{name}: {said}"
        );
    }
    assert_eq!(rig.scoreboard().level("medium").abandoned, 1);
    rig.assert_safe();
}

#[test]
fn a_game_cut_short_that_the_person_gives_up_counts_as_abandoned_and_nothing_moves() {
    let rig = Rig::new(Strategy::Random, 28);
    cut_short(&rig, FirstMove::Human, 2, true);
    let before = rig.sim.world().now();
    let (games, ending) = start_again(&rig, Key::Down);
    assert_done(&ending);
    assert!(games.is_empty());
    assert_eq!(rig.scoreboard().level("medium").abandoned, 1);
    assert!(
        rig.sim.world().now() - before < Duration::from_secs(5),
        "no homing, no reading"
    );
}
