//! A faithful port of the original robot's move search (RobotC, Appendix A of its report), kept
//! as the baseline the benchmark measures against and as an independent oracle for the tests.
//!
//! It is deliberately left as written there: a nine-cell array, `checkForWin` and `isTerminal`
//! recomputed at every node, plain recursion with alpha-beta, and a full window for every move
//! at the root. Do not optimise it; its slowness is the point of comparison. The only addition
//! is [`root_scores`], which exposes the per-move scores `bestRobotMove` already computes.

/// An empty cell.
pub const EMPTY: i32 = 0;
/// The robot's cells: the side the search maximises.
pub const ROBOT: i32 = 1;
/// The human's cells.
pub const PLAYER: i32 = 2;

/// `checkForWin`: whether `player` has three in a row.
pub fn check_for_win(board: &[i32; 9], player: i32) -> bool {
    for i in 0..3 {
        if board[i * 3] == player && board[i * 3 + 1] == player && board[i * 3 + 2] == player {
            return true;
        }
        if board[i] == player && board[i + 3] == player && board[i + 6] == player {
            return true;
        }
    }
    if board[0] == player && board[4] == player && board[8] == player {
        return true;
    }
    if board[2] == player && board[4] == player && board[6] == player {
        return true;
    }
    false
}

/// `isTerminal`: a win for either side, or no empty cell left.
pub fn is_terminal(board: &[i32; 9]) -> bool {
    let mut open_count = 0;
    for cell in board {
        if *cell == EMPTY {
            open_count += 1;
        }
    }
    check_for_win(board, ROBOT) || check_for_win(board, PLAYER) || open_count == 0
}

/// `minimax`: the value of `board` for the robot, 100 minus the depth of a robot win, -100 plus
/// the depth of a human win, 0 for a draw.
pub fn minimax(
    board: &mut [i32; 9],
    depth: i32,
    mut alpha: i32,
    mut beta: i32,
    maxing: bool,
) -> i32 {
    if is_terminal(board) {
        if check_for_win(board, ROBOT) {
            return 100 - depth;
        } else if check_for_win(board, PLAYER) {
            return -100 + depth;
        } else {
            return 0;
        }
    }
    if maxing {
        let mut best_score = -1000;
        let mut i = 0;
        while i < 9 {
            if board[i] == EMPTY {
                board[i] = ROBOT;
                let score = minimax(board, depth + 1, alpha, beta, false);
                board[i] = EMPTY;
                if score > best_score {
                    best_score = score;
                }
            }
            // The original leaves the loop by setting i to 10.
            if best_score >= beta {
                i = 10;
            }
            if best_score > alpha {
                alpha = best_score;
            }
            i += 1;
        }
        best_score
    } else {
        let mut best_score = 1000;
        let mut i = 0;
        while i < 9 {
            if board[i] == EMPTY {
                board[i] = PLAYER;
                let score = minimax(board, depth + 1, alpha, beta, true);
                board[i] = EMPTY;
                if score < best_score {
                    best_score = score;
                }
            }
            if best_score <= alpha {
                i = 10;
            }
            if best_score < beta {
                beta = best_score;
            }
            i += 1;
        }
        best_score
    }
}

/// `bestRobotMove`: the first cell with the highest score, or `None` on a full board.
pub fn best_robot_move(board: &mut [i32; 9]) -> Option<usize> {
    let mut best_move = None;
    let mut best_score = -100_000;
    for i in 0..9 {
        if board[i] == EMPTY {
            board[i] = ROBOT;
            let score = minimax(board, 0, -1_000_000_000, 1_000_000_000, false);
            board[i] = EMPTY;
            if score > best_score {
                best_score = score;
                best_move = Some(i);
            }
        }
    }
    best_move
}

/// The score `bestRobotMove` computes for every empty cell (`None` for taken cells). Each is the
/// exact minimax value, since every root move is searched with a full window.
pub fn root_scores(board: &mut [i32; 9]) -> [Option<i32>; 9] {
    let mut scores = [None; 9];
    for i in 0..9 {
        if board[i] == EMPTY {
            board[i] = ROBOT;
            scores[i] = Some(minimax(board, 0, -1_000_000_000, 1_000_000_000, false));
            board[i] = EMPTY;
        }
    }
    scores
}

/// The original's array for a 3 x 3 [`Board`](crate::game::Board), the side to move playing as
/// the robot.
pub fn robot_view(board: &crate::game::Board) -> [i32; 9] {
    let robot = board.side_to_move();
    let mut cells = [EMPTY; 9];
    for (i, cell) in cells.iter_mut().enumerate() {
        *cell = match board.get(crate::game::Cell::from_index(i, 3)) {
            None => EMPTY,
            Some(mark) if mark == robot => ROBOT,
            Some(_) => PLAYER,
        };
    }
    cells
}
