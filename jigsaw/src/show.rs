//! Drawings of assembled rectangles for `--show`.
//!
//! Each piece is a small square with its four letters on its four sides, as placed (turned,
//! when rotation is allowed); every joint shows the two sides that meet there, a knob `O`
//! against a hole `I`, and the frame shows only `F`:
//!
//! ```text
//! +---+---+
//! | F | F |
//! |F O|I F|
//! | O | I |
//! +---+---+
//! | I | O |
//! |F O|I F|
//! | F | F |
//! +---+---+
//! ```

use crate::model::{Assembly, Side};

/// The rectangle drawn as text, one line per text row, each ending in `\n`.
pub fn assembly(assembly: &Assembly) -> String {
    assembly.draw_boxes(|piece| {
        let [top, right, bottom, left] = piece.sides.map(Side::letter);
        [[' ', top, ' '], [left, ' ', right], [' ', bottom, ' ']]
    })
}

#[cfg(test)]
mod tests {
    use common::Grid;

    use super::*;
    use crate::model::piece;

    #[test]
    fn draws_each_side_beside_its_neighbour() {
        let drawn = assembly(&Grid::from_vec(1, 2, vec![piece("FOFF"), piece("FFFI")]));
        assert_eq!(drawn, "+---+---+\n| F | F |\n|F O|I F|\n| F | F |\n+---+---+\n");
    }
}
