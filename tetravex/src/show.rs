//! Drawings of solved boards for `--show`.
//!
//! Each tile is a small square cut by its diagonals, its four digits in the four triangles;
//! matching digits face each other across every joint:
//!
//! ```text
//! +---+---+
//! |\0/|\6/|
//! |3X4|4X8|
//! |/4\|/5\|
//! +---+---+
//! ```

use crate::model::Board;

/// The board drawn as text, one line per text row, each ending in `\n`.
pub fn board(board: &Board) -> String {
    board.draw_boxes(|tile| {
        let [top, right, bottom, left] = tile.sides.map(|digit| char::from(b'0' + digit));
        [['\\', top, '/'], [left, 'X', right], ['/', bottom, '\\']]
    })
}

#[cfg(test)]
mod tests {
    use common::Grid;

    use super::*;
    use crate::model::Tile;

    #[test]
    fn draws_digits_in_their_triangles() {
        let drawn = board(&Grid::from_vec(1, 2, vec![Tile::new(1, 2, 3, 4), Tile::new(5, 6, 7, 2)]));
        assert_eq!(drawn, "+---+---+\n|\\1/|\\5/|\n|4X2|2X6|\n|/3\\|/7\\|\n+---+---+\n");
    }
}
