//! The eight symmetries of a rectangular board, and how puzzles and solutions move under them.
//!
//! With a free border and single orientations every symmetric board is a puzzle of the same
//! kind, and solutions map one to one between them: the bit search may work on whichever
//! symmetry is cheapest (module `symmetry`) or draw one at random (module `restarts`).

use super::{LEFT, Placement, Puzzle, RIGHT};
use crate::Grid;

/// One of the eight symmetries of a rectangle: a left–right mirror (first, when `mirror`),
/// then `turns` quarter turns clockwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Symmetry {
    pub(super) mirror: bool,
    pub(super) turns: u8,
}

impl Symmetry {
    pub(super) const ALL: [Symmetry; 8] = {
        let mut all = [Symmetry { mirror: false, turns: 0 }; 8];
        let mut index = 0;
        while index < 8 {
            all[index] = Symmetry { mirror: index >= 4, turns: (index % 4) as u8 };
            index += 1;
        }
        all
    };

    /// The puzzle laid out under this symmetry (free border, single orientations: a tile's
    /// sides move with the board, and the kinds keep their order).
    pub(super) fn puzzle(self, puzzle: &Puzzle) -> Puzzle {
        let mut turned = puzzle.clone();
        for kind in &mut turned.kinds {
            let sides = &mut kind.orientations[0];
            if self.mirror {
                sides.swap(RIGHT, LEFT);
            }
            for _ in 0..self.turns {
                // A quarter turn clockwise: the left side goes on top, the top to the right...
                sides.rotate_right(1);
            }
        }
        if self.turns % 2 == 1 {
            std::mem::swap(&mut turned.rows, &mut turned.cols);
        }
        turned
    }

    /// Where cell (row, col) of a `rows × cols` board lands under this symmetry.
    pub(super) fn position(self, rows: usize, cols: usize, row: usize, col: usize) -> (usize, usize) {
        let (mut rows, mut row, mut col) = (rows, row, if self.mirror { cols - 1 - col } else { col });
        let mut cols = cols;
        for _ in 0..self.turns {
            (row, col) = (col, rows - 1 - row);
            (rows, cols) = (cols, rows);
        }
        (row, col)
    }

    /// A solution of the transformed puzzle, laid back onto the puzzle's `rows × cols` board.
    pub(super) fn solution_back(
        self,
        rows: usize,
        cols: usize,
        solution: &Grid<Placement>,
    ) -> Grid<Placement> {
        let cells = (0..rows * cols)
            .map(|cell| {
                let (row, col) = self.position(rows, cols, cell / cols, cell % cols);
                solution.cells()[row * solution.cols() + col]
            })
            .collect();
        Grid::from_vec(rows, cols, cells)
    }
}
