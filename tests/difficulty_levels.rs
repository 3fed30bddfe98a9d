//! Easy and medium only ever play legal moves, and play best moves as often as their level says.
//!
//! A level plays a best move with probability p, otherwise a uniformly random legal move, so a
//! single move is best with probability p + (1 - p) * best / legal. Summed over many seeded games
//! that gives an expected count and a standard deviation; the observed count must fall within
//! four standard deviations (a false alarm about once in 16,000 runs, and the seeds are fixed).

use ev3_tictactoe::ai::{Difficulty, Engine};
use ev3_tictactoe::game::{Board, Rules, Status};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

struct Tally {
    moves: usize,
    best_played: f64,
    expected: f64,
    variance: f64,
    decided_best: usize,
}

/// Plays `games` games of the level against a random opponent, alternating who starts.
fn tally(level: &Difficulty, games: u64) -> Tally {
    let rules = Rules::classic();
    let mut engine = Engine::new(rules);
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut t = Tally {
        moves: 0,
        best_played: 0.0,
        expected: 0.0,
        variance: 0.0,
        decided_best: 0,
    };
    for game in 0..games {
        let mut board = Board::empty(rules);
        let robot_moves_on_even_plies = game % 2 == 0;
        let mut ply = 0;
        while let Status::ToMove(_) = board.status() {
            let legal: Vec<_> = board.empty_cells().collect();
            let cell = if (ply % 2 == 0) == robot_moves_on_even_plies {
                let (choice, analysis) = engine.choose(&board, level, &mut rng).unwrap();
                assert!(legal.contains(&choice.cell), "illegal move on {board}");
                let p = level.optimal_move_probability;
                let chance = p + (1.0 - p) * analysis.best_moves.len() as f64 / legal.len() as f64;
                t.moves += 1;
                t.expected += chance;
                t.variance += chance * (1.0 - chance);
                t.best_played += f64::from(u8::from(analysis.best_moves.contains(&choice.cell)));
                t.decided_best += usize::from(choice.played_best);
                choice.cell
            } else {
                legal[rng.random_range(0..legal.len())]
            };
            board = board.play(cell).unwrap();
            ply += 1;
        }
    }
    t
}

fn assert_rate_matches(level: Difficulty) {
    let t = tally(&level, 1500);
    let sigma = t.variance.sqrt();
    assert!(
        (t.best_played - t.expected).abs() <= 4.0 * sigma,
        "{}: {} best moves in {} where {:.0} +- {:.0} were expected",
        level.name,
        t.best_played,
        t.moves,
        t.expected,
        sigma
    );
    // The level's own coin: best with probability p, a binomial count.
    let p = level.optimal_move_probability;
    let n = t.moves as f64;
    let coin_sigma = (n * p * (1.0 - p)).sqrt();
    assert!((t.decided_best as f64 - n * p).abs() <= 4.0 * coin_sigma.max(0.5));
}

#[test]
fn easy_plays_best_moves_only_as_often_as_chance_gives_them() {
    assert_rate_matches(Difficulty::easy());
}

#[test]
fn medium_plays_a_best_move_half_the_time_plus_what_chance_adds() {
    assert_rate_matches(Difficulty::medium());
}

#[test]
fn a_seventy_five_percent_level_is_a_config_change_not_code() {
    let level = Difficulty {
        name: "tricky".into(),
        optimal_move_probability: 0.75,
        win_points: 2,
    };
    assert_rate_matches(level);
}

#[test]
fn hard_plays_only_best_moves() {
    let t = tally(&Difficulty::hard(), 300);
    assert_eq!(t.best_played as usize, t.moves);
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let play = |seed| {
        let rules = Rules::classic();
        let mut engine = Engine::new(rules);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut board = Board::empty(rules);
        let mut moves = Vec::new();
        while let Status::ToMove(_) = board.status() {
            let (choice, _) = engine
                .choose(&board, &Difficulty::medium(), &mut rng)
                .unwrap();
            moves.push(choice.cell);
            board = board.play(choice.cell).unwrap();
        }
        moves
    };
    assert_eq!(play(11), play(11));
    assert!(
        (0..20).any(|seed| play(seed) != play(11)),
        "games never vary"
    );
}
