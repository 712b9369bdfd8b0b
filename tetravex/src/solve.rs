//! The fast solver: the game in the matching form of [`common::edge_match`], whose search does
//! the work (candidate lists by left and top digit, row lookahead, counting checks, dead ends;
//! for nearly distinct tiles a bitset search in the board symmetry with the smallest estimated
//! tree).

use common::Grid;
use common::edge_match::{self, Border, Kind, Puzzle};

use crate::model::{Board, DIGITS, Game};

/// The result of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The first solution found, if any.
    pub first: Option<Board>,
    /// Solutions found, up to the limit.
    pub found: u64,
    /// Search nodes visited: the work done, independent of the machine.
    pub nodes: u64,
}

/// Searches for up to `limit` solutions (boards differing in some digit).
pub fn search(game: &Game, limit: u64) -> Outcome {
    // Tetravex is edge matching as it stands: equal digits fit, the border is free.
    let kinds = game.kinds();
    let puzzle = Puzzle {
        rows: game.size,
        cols: game.size,
        labels: DIGITS,
        border: Border::Free,
        kinds: kinds.iter().map(|&(tile, count)| Kind { count, orientations: vec![tile.sides] }).collect(),
    };
    let outcome = edge_match::search(&puzzle, limit);
    let first = outcome.first.map(|solution| {
        Grid::from_vec(game.size, game.size, solution.cells().iter().map(|p| kinds[p.kind].0).collect())
    });
    Outcome { first, found: outcome.found, nodes: outcome.nodes }
}

/// A solution, or `None`.
pub fn solve(game: &Game) -> Option<Board> {
    search(game, 1).first
}

/// The number of distinct solved boards (boards differing in some digit), stopping at `limit`.
pub fn count(game: &Game, limit: u64) -> u64 {
    search(game, limit).found
}
