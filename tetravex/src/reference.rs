//! The plain solver, the yardstick for tests and benchmarks.
//!
//! Fill the board row by row, left to right; at each cell try every kind of tile still available
//! (identical tiles are merged into counts, so no arrangement is tried twice) and keep it if it
//! matches its left and upper neighbours. No other pruning.

use common::Grid;

use crate::model::{Board, Game, Tile};

/// A solution, or `None`.
pub fn solve(game: &Game) -> Option<Board> {
    let mut search = Plain::new(game, 1);
    search.fill(0);
    search.first
}

/// The number of distinct solved boards, stopping at `limit`.
pub fn count(game: &Game, limit: u64) -> u64 {
    let mut search = Plain::new(game, limit);
    search.fill(0);
    search.found
}

struct Plain {
    size: usize,
    kinds: Vec<(Tile, u32)>,
    board: Vec<Tile>,
    limit: u64,
    found: u64,
    first: Option<Board>,
}

impl Plain {
    fn new(game: &Game, limit: u64) -> Self {
        Plain {
            size: game.size,
            kinds: game.kinds(),
            board: Vec::new(),
            limit: limit.max(1),
            found: 0,
            first: None,
        }
    }

    /// Fills `cell` and the cells after it; true when the search should stop.
    fn fill(&mut self, cell: usize) -> bool {
        if cell == self.size * self.size {
            self.found += 1;
            self.first.get_or_insert_with(|| Grid::from_vec(self.size, self.size, self.board.clone()));
            return self.found >= self.limit;
        }
        let (row, col) = (cell / self.size, cell % self.size);
        for kind in 0..self.kinds.len() {
            let (tile, left) = self.kinds[kind];
            let fits_left = col == 0 || self.board[cell - 1].sides[1] == tile.sides[3];
            let fits_above = row == 0 || self.board[cell - self.size].sides[2] == tile.sides[0];
            if left == 0 || !fits_left || !fits_above {
                continue;
            }
            self.kinds[kind].1 -= 1;
            self.board.push(tile);
            if self.fill(cell + 1) {
                return true;
            }
            self.board.pop();
            self.kinds[kind].1 += 1;
        }
        false
    }
}
