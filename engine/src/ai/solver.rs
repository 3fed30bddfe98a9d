//! Negamax with alpha-beta over bit sets: the part of the firmware that must be fast.
//!
//! One routine serves two modes. Asked to search as deep as there are empty cells, it solves the
//! position exactly; asked for less, its leaves are scored by open lines and iterative deepening
//! calls it again and again until a node budget runs out. Every score says whether it is
//! game-theoretic, so a depth-limited search that happened to reach every end of the game reports
//! an exact result too.
//!
//! What makes it fast, in the order it pays on the 3 x 3 and 4 x 4 boards:
//! - immediate wins end a node, two threats by the opponent lose it, and a single threat leaves
//!   exactly one move (the block), so most of the tree is never generated;
//! - a position where neither side can still complete a line, given the moves each has left, is a
//!   draw on the spot (this prunes most of the drawn 4 x 4 tree);
//! - a transposition table ([`super::table`]), optionally keyed on the position's canonical
//!   mirror image so that rotations and reflections share one entry;
//! - moves are tried best-known first, then by how many lines pass through the cell (centre,
//!   then corners on 3 x 3);
//! - at the root, moves that are mirror images of each other in the current position are searched
//!   once, and every move after the first is only tested against the best score so far with a
//!   window one point wide.
//!
//! Scores belong to the position, not to the path: winning with `e` cells still empty scores
//! `WIN + e`, so a faster win scores higher and a slower loss scores less badly.

use super::table::{Bound, Entry, Table, SOLVED};
use super::SearchLimits;
use crate::game::{winning_lines, CellBits, Rules, Symmetry};

/// Scores at or beyond this size are wins or losses; heuristic scores stay far below it.
pub(crate) const WIN: i32 = 1 << 30;
const INFINITY: i32 = i32::MAX;
const NO_MOVE: u8 = u8::MAX;
/// The largest transposition table the brick's 64 MB can spare for it.
const TABLE_BYTES: usize = 4 << 20;

/// The outcome of a root search, in cell indices.
#[derive(Clone, Debug)]
pub(crate) struct RootResult {
    /// Every move scoring `score`, sorted by cell index.
    pub best: Vec<usize>,
    pub score: i32,
    pub exact: bool,
    pub depth: u32,
    pub nodes: u64,
}

/// Root moves that are mirror images of each other in the root position.
#[derive(Clone, Copy, Debug)]
struct Orbit<B> {
    /// The move searched for the whole class.
    representative: usize,
    cells: B,
}

/// What one pass over the lines found.
enum Scan<B> {
    /// The side to move completes a line with its next move.
    Win,
    /// Neither side can complete any line with the moves it has left: a draw.
    Dead,
    /// The game is open; `opp_wins` are the cells where the opponent would complete a line.
    Open { opp_wins: B, eval: i32 },
}

/// Cell permutations of the eight symmetries, as byte-wise lookup tables.
struct SymmetryTables<B> {
    chunks: usize,
    /// Index `(symmetry * chunks + chunk) * 256 + byte`: the image of that byte's cells.
    images: Vec<B>,
    forward: Vec<Vec<u8>>,
    inverse: Vec<Vec<u8>>,
}

impl<B: CellBits> SymmetryTables<B> {
    fn new(size: usize) -> SymmetryTables<B> {
        let cells = size * size;
        let chunks = cells.div_ceil(8);
        let mut images = Vec::with_capacity(8 * chunks * 256);
        let mut forward = Vec::new();
        let mut inverse = Vec::new();
        for symmetry in Symmetry::ALL {
            let map: Vec<u8> = (0..cells)
                .map(|c| symmetry.map_cell(c, size) as u8)
                .collect();
            let mut inv = vec![0u8; cells];
            for (from, &to) in map.iter().enumerate() {
                inv[to as usize] = from as u8;
            }
            for chunk in 0..chunks {
                for byte in 0..256usize {
                    let image = (0..8)
                        .filter(|bit| byte >> bit & 1 == 1)
                        .map(|bit| chunk * 8 + bit)
                        .filter(|&cell| cell < cells)
                        .fold(B::EMPTY, |acc, cell| acc | B::single(map[cell] as usize));
                    images.push(image);
                }
            }
            forward.push(map);
            inverse.push(inv);
        }
        SymmetryTables {
            chunks,
            images,
            forward,
            inverse,
        }
    }

    #[inline]
    fn apply(&self, symmetry: usize, set: B) -> B {
        let base = symmetry * self.chunks * 256;
        (0..self.chunks).fold(B::EMPTY, |acc, chunk| {
            acc | self.images[base + chunk * 256 + set.byte(chunk) as usize]
        })
    }
}

/// The search for one variant, owning its tables so that a game's moves reuse the memory.
pub(crate) struct Solver<B> {
    in_a_row: u32,
    all: B,
    lines: Vec<B>,
    /// Cells in the order moves are tried when nothing better is known.
    order: Vec<usize>,
    /// Heuristic worth of an open line holding this many of one side's marks.
    weights: Vec<i32>,
    symmetries: SymmetryTables<B>,
    /// Whether table keys are canonical mirror images.
    table_symmetry: bool,
    table: Table<B>,
    nodes: u64,
    node_limit: u64,
    aborted: bool,
}

impl<B: CellBits> Solver<B> {
    pub fn new(rules: Rules, table_symmetry: bool) -> Solver<B> {
        let size = rules.size();
        let cells = rules.cells();
        assert!(cells <= B::CAPACITY, "{rules} does not fit the bit set");
        let lines: Vec<B> = winning_lines(rules)
            .iter()
            .copied()
            .map(B::from_u128)
            .collect();
        let lines_through = |cell: usize| lines.iter().filter(|l| l.contains(cell)).count();
        let centre_distance = |cell: usize| {
            let twice = |i: usize| (2 * i).abs_diff(size - 1);
            twice(cell / size) + twice(cell % size)
        };
        let mut order: Vec<usize> = (0..cells).collect();
        order.sort_by_key(|&c| (std::cmp::Reverse(lines_through(c)), centre_distance(c), c));
        let weights = (0..=rules.in_a_row())
            .map(|count| {
                if count == 0 {
                    0
                } else {
                    1 << (2 * count.min(12))
                }
            })
            .collect();
        let entry_bytes = std::mem::size_of::<Entry<B>>();
        let max_bits = (TABLE_BYTES / entry_bytes).ilog2();
        let table_bits = (cells as u32 + 1).clamp(8, max_bits);
        Solver {
            in_a_row: rules.in_a_row() as u32,
            all: (0..cells).fold(B::EMPTY, |acc, c| acc | B::single(c)),
            lines,
            order,
            weights,
            symmetries: SymmetryTables::new(size),
            table_symmetry,
            table: Table::new(table_bits),
            nodes: 0,
            node_limit: u64::MAX,
            aborted: false,
        }
    }

    /// Finds every best move for the side owning `me`, with `opp` the opponent's cells. The
    /// position must be legal and not over.
    pub fn analyse(&mut self, me: B, opp: B, budget: &SearchLimits) -> RootResult {
        self.table.clear();
        self.nodes = 1;
        self.aborted = false;
        let empty = self.all & !(me | opp);
        let e = empty.len() as i32;
        let settled = |best: B, score: i32| RootResult {
            best: best.cells().collect(),
            score,
            exact: true,
            depth: 1,
            nodes: 1,
        };
        let candidates = match self.scan(me, opp, e as u32, false) {
            Scan::Win => return settled(self.winning_cells(me, opp), WIN + e),
            Scan::Dead => return settled(empty, 0),
            Scan::Open { opp_wins, .. } if opp_wins.len() >= 2 => {
                return settled(empty, -(WIN + e - 1))
            }
            Scan::Open { opp_wins, .. } if opp_wins.len() == 1 => opp_wins,
            Scan::Open { .. } => empty,
        };
        let mut orbits = self.orbits(me, opp, candidates);

        if e as u32 <= budget.exact_max_empty {
            self.node_limit = budget.exact_nodes;
            let result = self.root_search(me, opp, &orbits, e as u32);
            if !self.aborted {
                return result;
            }
            self.aborted = false;
        }

        let heuristic_start = self.nodes;
        let mut completed: Option<RootResult> = None;
        for depth in 1..=e as u32 {
            // The first iteration always completes, so a move comes back whatever the budget.
            self.node_limit = match completed {
                None => u64::MAX,
                Some(_) => heuristic_start.saturating_add(budget.heuristic_nodes),
            };
            let result = self.root_search(me, opp, &orbits, depth);
            if self.aborted {
                break;
            }
            // Search the best moves first next time: the deeper search then narrows sooner.
            orbits.sort_by_key(|orbit| !result.best.contains(&orbit.representative));
            let exact = result.exact;
            completed = Some(result);
            if exact {
                break;
            }
        }
        let mut result = completed.expect("the first iteration has no node limit");
        result.nodes = self.nodes;
        result
    }

    /// Groups the candidate moves into classes of moves that are mirror images of each other in
    /// the current position; each class is searched once, through its first cell in move order.
    fn orbits(&self, me: B, opp: B, candidates: B) -> Vec<Orbit<B>> {
        let mut stabiliser = [0usize; 8];
        let mut count = 0;
        for symmetry in 0..8 {
            if self.symmetries.apply(symmetry, me) == me
                && self.symmetries.apply(symmetry, opp) == opp
            {
                stabiliser[count] = symmetry;
                count += 1;
            }
        }
        let mut seen = B::EMPTY;
        let mut orbits = Vec::with_capacity(candidates.len() as usize);
        for &cell in &self.order {
            if !candidates.contains(cell) || seen.contains(cell) {
                continue;
            }
            let cells = stabiliser[..count].iter().fold(B::EMPTY, |acc, &s| {
                acc | B::single(self.symmetries.forward[s][cell] as usize)
            });
            seen |= cells;
            orbits.push(Orbit {
                representative: cell,
                cells,
            });
        }
        orbits
    }

    fn root_search(&mut self, me: B, opp: B, orbits: &[Orbit<B>], depth: u32) -> RootResult {
        let mut best_score = -INFINITY;
        let mut best = B::EMPTY;
        let mut exact = true;
        for (i, orbit) in orbits.iter().enumerate() {
            let after = me | B::single(orbit.representative);
            let score = if i == 0 {
                // Most positions are draws under perfect play: a window around 0 proves a draw
                // without working out how fast each refuted line would win or lose.
                let (s, ex) = self.node(opp, after, depth - 1, -1, 1);
                if (-1 < s && s < 1) || self.aborted {
                    exact &= ex;
                    -s
                } else {
                    let (s, ex) = self.node(opp, after, depth - 1, -INFINITY, INFINITY);
                    exact &= ex;
                    -s
                }
            } else {
                // A window one point wide around the best score: enough to tell worse, equal
                // and better apart; only a better move is searched again for its exact score.
                let (s, ex) =
                    self.node(opp, after, depth - 1, -(best_score + 1), -(best_score - 1));
                if -s > best_score && !self.aborted {
                    let (s, ex) = self.node(opp, after, depth - 1, -INFINITY, -best_score);
                    exact &= ex;
                    -s
                } else {
                    exact &= ex;
                    -s
                }
            };
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best = B::EMPTY;
            }
            if score == best_score {
                best |= orbit.cells;
            }
        }
        RootResult {
            best: best.cells().collect(),
            score: best_score,
            exact,
            depth,
            nodes: self.nodes,
        }
    }

    /// Scores the position for the side owning `me`; the flag says whether the score is
    /// game-theoretic (no heuristic leaf below it).
    fn node(&mut self, me: B, opp: B, depth: u32, mut alpha: i32, beta: i32) -> (i32, bool) {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            self.aborted = true;
            return (0, false);
        }
        let e = (self.all & !(me | opp)).len() as i32;
        let (opp_wins, eval) = match self.scan(me, opp, e as u32, depth == 0) {
            Scan::Win => return (WIN + e, true),
            Scan::Dead => return (0, true),
            Scan::Open { opp_wins, eval } => (opp_wins, eval),
        };
        let forced = match opp_wins.len() {
            0 => None,
            1 => Some(opp_wins.first()),
            _ => return (-(WIN + e - 1), true),
        };
        if depth == 0 {
            return (eval, false);
        }

        let (key_me, key_opp, symmetry) = self.key(me, opp);
        let mut hint = None;
        if let Some(entry) = self.table.probe(key_me, key_opp) {
            let solved = entry.depth == SOLVED;
            if solved || u32::from(entry.depth) >= depth {
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => entry.score >= beta,
                    Bound::Upper => entry.score <= alpha,
                };
                if usable {
                    return (entry.score, solved);
                }
            }
            if entry.best != NO_MOVE {
                hint = Some(self.unmap(symmetry, entry.best));
            }
        }

        let alpha_at_entry = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = NO_MOVE as usize;
        let mut exact = true;
        let empty = self.all & !(me | opp);
        let hint = hint.filter(|&c| forced.is_none() && empty.contains(c));
        let mut index = 0;
        loop {
            // The forced block, else the table's move, then the static order.
            let cell = if let Some(cell) = forced {
                if index > 0 {
                    break;
                }
                cell
            } else if index == 0 && hint.is_some() {
                hint.unwrap_or_default()
            } else {
                let position = index - usize::from(hint.is_some());
                match self.order.get(position) {
                    None => break,
                    Some(&c) if !empty.contains(c) || Some(c) == hint => {
                        index += 1;
                        continue;
                    }
                    Some(&c) => c,
                }
            };
            index += 1;
            let (s, ex) = self.node(opp, me | B::single(cell), depth - 1, -beta, -alpha);
            if self.aborted {
                return (0, false);
            }
            let score = -s;
            exact &= ex;
            if score > best_score {
                best_score = score;
                best_move = cell;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }

        let bound = if best_score <= alpha_at_entry {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let stored_best = if best_move == NO_MOVE as usize {
            NO_MOVE
        } else {
            self.map(symmetry, best_move)
        };
        self.table.store(Entry {
            me: key_me,
            opp: key_opp,
            score: best_score,
            bound,
            depth: if exact { SOLVED } else { depth.min(254) as u8 },
            best: stored_best,
            ..Entry::default()
        });
        (best_score, exact)
    }

    /// One pass over the lines: immediate win, dead draw, the opponent's threats and, when asked,
    /// the open-lines evaluation for the side to move.
    #[inline]
    fn scan(&self, me: B, opp: B, empty: u32, want_eval: bool) -> Scan<B> {
        let k = self.in_a_row;
        let my_moves_left = empty.div_ceil(2);
        let opp_moves_left = empty / 2;
        let mut opp_wins = B::EMPTY;
        let mut live = false;
        let mut eval = 0;
        for &line in &self.lines {
            let mine = line & me;
            let theirs = line & opp;
            if theirs.is_empty() {
                let count = mine.len();
                if count + 1 == k {
                    return Scan::Win;
                }
                live |= k - count <= my_moves_left;
                if want_eval {
                    eval += self.weights[count as usize];
                }
            }
            if mine.is_empty() {
                let count = theirs.len();
                if count + 1 == k {
                    opp_wins |= line & !opp;
                }
                live |= k - count <= opp_moves_left;
                if want_eval {
                    eval -= self.weights[count as usize];
                }
            }
        }
        if live {
            Scan::Open { opp_wins, eval }
        } else {
            Scan::Dead
        }
    }

    /// Whether either side has a full line or the board is full.
    pub fn finished(&self, x: B, o: B) -> bool {
        (x | o) == self.all
            || self
                .lines
                .iter()
                .any(|&line| line & x == line || line & o == line)
    }

    fn winning_cells(&self, me: B, opp: B) -> B {
        let k = self.in_a_row;
        self.lines
            .iter()
            .filter(|&&line| (line & opp).is_empty() && (line & me).len() + 1 == k)
            .fold(B::EMPTY, |acc, &line| acc | (line & !me))
    }

    /// The table key: the position itself, or its least mirror image and the symmetry used.
    #[inline]
    fn key(&self, me: B, opp: B) -> (B, B, usize) {
        let mut key = (me, opp, 0);
        if !self.table_symmetry {
            return key;
        }
        for symmetry in 1..8 {
            let image_me = self.symmetries.apply(symmetry, me);
            let image_opp = self.symmetries.apply(symmetry, opp);
            if (image_me, image_opp) < (key.0, key.1) {
                key = (image_me, image_opp, symmetry);
            }
        }
        key
    }

    fn map(&self, symmetry: usize, cell: usize) -> u8 {
        self.symmetries.forward[symmetry][cell]
    }

    fn unmap(&self, symmetry: usize, cell: u8) -> usize {
        self.symmetries.inverse[symmetry][cell as usize] as usize
    }
}
