//! The fast solver: the game in the matching form of [`common::edge_match`], whose search does
//! the work (candidate lists by left and top digit, row lookahead, counting checks, dead ends;
//! for nearly distinct tiles a bitset search in the board symmetry with the smallest estimated
//! tree).

use common::Grid;
use common::edge_match::{self, Border, Config, Kind, Puzzle};
use common::search::Outcome;

use crate::model::{Board, DIGITS, Game};

/// Searches for up to `limit` solutions (boards differing in some digit), on every core.
pub fn search(game: &Game, limit: u64) -> Outcome<Board> {
    search_with(game, &Config::new(limit))
}

/// Searches as `config` says: up to `config.limit` solutions, on `config.threads` threads,
/// reporting to `config.progress`.
pub fn search_with(game: &Game, config: &Config) -> Outcome<Board> {
    // Tetravex is edge matching as it stands: equal digits fit, the border is free.
    let kinds = game.kinds();
    let puzzle = Puzzle {
        rows: game.size,
        cols: game.size,
        labels: DIGITS,
        border: Border::Free,
        kinds: kinds.iter().map(|&(tile, count)| Kind { count, orientations: vec![tile.sides] }).collect(),
    };
    edge_match::search(&puzzle, config).map(|solution| {
        Grid::from_vec(game.size, game.size, solution.cells().iter().map(|p| kinds[p.kind].0).collect())
    })
}

/// A solution, or `None`.
pub fn solve(game: &Game) -> Option<Board> {
    search(game, 1).first
}

/// The number of distinct solved boards (boards differing in some digit), stopping at `limit`.
pub fn count(game: &Game, limit: u64) -> u64 {
    search(game, limit).found
}
