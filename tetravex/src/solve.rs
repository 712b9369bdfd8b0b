//! The fast solver: the game in the matching form of [`common::edge_match`], whose search does
//! the work (candidate lists by left and top digit, row lookahead, counting checks, dead ends;
//! for nearly distinct tiles a bitset search in the board symmetry with the smallest estimated
//! tree).

use common::Grid;
use common::edge_match::{self, Border, Config, Kind, Part, PartOutcome, Placement, Puzzle};
use common::search::Outcome;

use crate::model::{Board, DIGITS, Game, Tile};

/// Searches for up to `limit` solutions (boards differing in some digit), on every core.
pub fn search(game: &Game, limit: u64) -> Outcome<Board> {
    search_with(game, &Config::new(limit))
}

/// Searches as `config` says: up to `config.limit` solutions, on `config.threads` threads,
/// reporting to `config.progress`.
pub fn search_with(game: &Game, config: &Config) -> Outcome<Board> {
    let (puzzle, kinds) = puzzle(game);
    edge_match::search(&puzzle, config).map(|solution| board(game, &kinds, &solution))
}

/// Part `part` of the search [`search_with`] makes, on one thread: the merge of every part
/// ([`edge_match::merge_parts`]) is that search's outcome (see [`crate::parts`]).
pub fn search_part(game: &Game, config: &Config, part: Part) -> PartOutcome<Board> {
    let (puzzle, kinds) = puzzle(game);
    edge_match::search_part(&puzzle, config, part).map(|solution| board(game, &kinds, &solution))
}

/// The game as an edge-matching puzzle, with the tile each kind stands for. Tetravex is edge
/// matching as it stands: equal digits fit, the border is free.
fn puzzle(game: &Game) -> (Puzzle, Vec<(Tile, u32)>) {
    let kinds = game.kinds();
    let puzzle = Puzzle {
        rows: game.size,
        cols: game.size,
        labels: DIGITS,
        border: Border::Free,
        kinds: kinds.iter().map(|&(tile, count)| Kind { count, orientations: vec![tile.sides] }).collect(),
    };
    (puzzle, kinds)
}

/// A solution of the game's puzzle as a board of tiles.
fn board(game: &Game, kinds: &[(Tile, u32)], solution: &Grid<Placement>) -> Board {
    Grid::from_vec(game.size, game.size, solution.cells().iter().map(|p| kinds[p.kind].0).collect())
}

/// A solution, or `None`.
pub fn solve(game: &Game) -> Option<Board> {
    search(game, 1).first
}

/// The number of distinct solved boards (boards differing in some digit), stopping at `limit`.
pub fn count(game: &Game, limit: u64) -> u64 {
    search(game, limit).found
}
