//! The plain solver, the yardstick for tests and benchmarks.
//!
//! Depth-first over every legal move in the judge's order (x, then y, then right before left),
//! exactly `n` moves deep, no pruning at all: the first sequence that leaves the board empty after
//! its last move is the lexicographically smallest. An empty board has no legal move, so a
//! sequence that empties the board early is never completed.

use crate::board::Board;
use crate::model::{Move, Puzzle};

/// The lexicographically smallest sequence of exactly `puzzle.moves` moves that empties the
/// board, or `None`.
pub fn solve(puzzle: &Puzzle) -> Option<Vec<Move>> {
    exactly(&Board::from_columns(&puzzle.columns), puzzle.moves)
}

/// The lexicographically smallest of the shortest sequences of at most `puzzle.moves` moves
/// that empty the board, or `None`.
pub fn fewest(puzzle: &Puzzle) -> Option<Vec<Move>> {
    let board = Board::from_columns(&puzzle.columns);
    (1..=puzzle.moves).find_map(|moves| exactly(&board, moves))
}

/// The lexicographically smallest sequence of exactly `moves` moves that empties `board`.
pub fn exactly(board: &Board, moves: usize) -> Option<Vec<Move>> {
    let mut path = Vec::with_capacity(moves);
    search(board, moves, &mut path).then_some(path)
}

fn search(board: &Board, remaining: usize, path: &mut Vec<Move>) -> bool {
    if remaining == 0 {
        return board.is_empty();
    }
    for mv in board.moves() {
        path.push(mv);
        if search(&board.after(mv), remaining - 1, path) {
            return true;
        }
        path.pop();
    }
    false
}
