//! Tiles, games and boards.

use common::flat::{FlatGroups, Group};
use common::{Direction, Grid, Pos};
use itertools::Itertools;

/// Largest accepted board side (the judge stops at 5).
pub const MAX_SIZE: usize = 16;

/// Digits run 0..=9.
pub const DIGITS: usize = 10;

/// A tile: four digits, clockwise from the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tile {
    /// The digits on the top, right, bottom and left triangles, indexed by [`Direction`].
    pub sides: [u8; 4],
}

impl Tile {
    /// A tile from its top, right, bottom and left digits.
    pub const fn new(top: u8, right: u8, bottom: u8, left: u8) -> Self {
        Tile { sides: [top, right, bottom, left] }
    }

    /// The digit on one side.
    pub const fn side(self, direction: Direction) -> u8 {
        self.sides[direction.index()]
    }
}

/// One game: the side of the board and its `size * size` tiles, in input order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// Board side, 1..=[`MAX_SIZE`].
    pub size: usize,
    /// The tiles to place; exactly `size * size` of them.
    pub tiles: Vec<Tile>,
}

/// A solved (or proposed) board.
pub type Board = Grid<Tile>;

/// Every game of an input, stored flat: one byte per game (its side) and the four digits of
/// each tile, all games' tiles in one vector. A [`Game`] apiece would need several times the
/// input's size; this needs half of it at most (a tile is at least eight bytes of input and four
/// here, a side at least two bytes and one here).
pub type Games = FlatGroups<Game>;

impl Group for Game {
    /// The board side, 1..=[`MAX_SIZE`].
    type Header = u8;
    type Item = Tile;

    fn items_of(size: u8) -> usize {
        usize::from(size) * usize::from(size)
    }

    fn build(size: u8, tiles: &[Tile]) -> Self {
        Game { size: size.into(), tiles: tiles.to_vec() }
    }

    fn parts(&self) -> (u8, &[Tile]) {
        (self.size as u8, &self.tiles)
    }
}

impl Game {
    /// Distinct tiles with how many of each there are, in order of first appearance.
    pub fn kinds(&self) -> Vec<(Tile, u32)> {
        let counts = self.tiles.iter().copied().counts();
        self.tiles.iter().copied().unique().map(|tile| (tile, counts[&tile] as u32)).collect()
    }

    /// True when `board` is a solution of this game: the right size, every touching pair of
    /// triangles equal, and exactly this game's tiles (as a multiset).
    pub fn is_solution(&self, board: &Board) -> bool {
        if board.rows() != self.size || board.cols() != self.size {
            return false;
        }
        let fits = board.positions().all(|pos| {
            let tile = board[pos];
            let right_fits = board
                .neighbour(pos, Direction::Right)
                .is_none_or(|next: Pos| tile.side(Direction::Right) == board[next].side(Direction::Left));
            let bottom_fits = board
                .neighbour(pos, Direction::Down)
                .is_none_or(|next: Pos| tile.side(Direction::Down) == board[next].side(Direction::Up));
            right_fits && bottom_fits
        });
        fits && board.cells().iter().copied().sorted().eq(self.tiles.iter().copied().sorted())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Game {
        let tiles =
            [Tile::new(5, 9, 1, 4), Tile::new(4, 4, 5, 6), Tile::new(6, 8, 5, 4), Tile::new(0, 4, 4, 3)];
        Game { size: 2, tiles: tiles.to_vec() }
    }

    #[test]
    fn recognises_a_solution_and_rejects_others() {
        let game = sample();
        let [a, b, c, d] = [game.tiles[0], game.tiles[1], game.tiles[2], game.tiles[3]];
        let solved = Grid::from_vec(2, 2, vec![d, c, b, a]);
        assert!(game.is_solution(&solved));
        assert!(!game.is_solution(&Grid::from_vec(2, 2, vec![d, a, b, c])));
        // Every joint fits, but these are not the game's tiles.
        assert!(!game.is_solution(&Grid::from_vec(2, 2, vec![Tile::new(1, 1, 1, 1); 4])));
        assert!(!game.is_solution(&Grid::from_vec(1, 4, vec![d, c, b, a])));
    }

    #[test]
    fn games_keep_their_order_and_tiles() {
        let games = vec![sample(), Game { size: 1, tiles: vec![Tile::new(7, 7, 7, 7)] }, sample()];
        let stored: Games = games.iter().cloned().collect();
        assert_eq!(stored.len(), 3);
        assert_eq!(stored.iter().collect::<Vec<_>>(), games);
        assert!(Games::new().is_empty());
    }

    #[test]
    fn kinds_merge_identical_tiles() {
        let t = Tile::new(1, 2, 3, 4);
        let u = Tile::new(0, 0, 0, 0);
        let game = Game { size: 2, tiles: vec![t, u, t, t] };
        assert_eq!(game.kinds(), [(t, 3), (u, 1)]);
    }
}
