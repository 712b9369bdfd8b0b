//! The plain solver, the yardstick for tests and benchmarks.
//!
//! Fill the rectangle row by row, left to right; at each cell try every kind of piece still
//! available (identical pieces are merged into counts, so no arrangement is tried twice), in
//! each of its orientations when rotation is allowed, and keep it if it fits: flat towards the
//! border, a knob meeting a hole towards the left and upper neighbours, and no flat side
//! towards a neighbour still to come. No other pruning.

use common::Grid;

use crate::model::{Assembly, Block, Piece, Side};

/// An assembled rectangle, or `None`.
///
/// # Complexity
/// Exponential in the pieces: every arrangement of kinds that fits cell by cell may be tried,
/// with no lookahead. Meant for tests and benchmarks of small blocks (6×6 and less).
pub fn solve(block: &Block, rotate: bool) -> Option<Assembly> {
    let mut search = Plain::new(block, rotate, 1);
    search.fill(0);
    search.first
}

/// The number of distinct assembled rectangles (differing in some cell's piece or turn),
/// stopping at `limit`.
///
/// # Complexity
/// As [`solve`].
pub fn count(block: &Block, rotate: bool, limit: u64) -> u64 {
    let mut search = Plain::new(block, rotate, limit);
    search.fill(0);
    search.found
}

struct Plain {
    rows: usize,
    cols: usize,
    /// Each kind's distinct orientations (just the piece without rotation) and its count.
    kinds: Vec<(Vec<Piece>, u32)>,
    board: Vec<Piece>,
    limit: u64,
    found: u64,
    first: Option<Assembly>,
}

impl Plain {
    fn new(block: &Block, rotate: bool, limit: u64) -> Self {
        let kinds = block
            .kinds(rotate)
            .into_iter()
            .map(|(piece, count)| (if rotate { piece.orientations() } else { vec![piece] }, count))
            .collect();
        Plain {
            rows: block.rows,
            cols: block.cols,
            kinds,
            board: Vec::new(),
            limit: limit.max(1),
            found: 0,
            first: None,
        }
    }

    /// Whether `piece` may go in `cell`, all cells before it being filled.
    fn fits(&self, cell: usize, piece: Piece) -> bool {
        let (row, col) = (cell / self.cols, cell % self.cols);
        let [top, right, bottom, left] = piece.sides;
        let top_fits =
            if row == 0 { top == Side::Flat } else { top.fits(self.board[cell - self.cols].sides[2]) };
        let left_fits = if col == 0 { left == Side::Flat } else { left.fits(self.board[cell - 1].sides[1]) };
        let right_fits = (right == Side::Flat) == (col + 1 == self.cols);
        let bottom_fits = (bottom == Side::Flat) == (row + 1 == self.rows);
        top_fits && left_fits && right_fits && bottom_fits
    }

    /// Fills `cell` and the cells after it; true when the search should stop.
    fn fill(&mut self, cell: usize) -> bool {
        if cell == self.rows * self.cols {
            self.found += 1;
            self.first.get_or_insert_with(|| Grid::from_vec(self.rows, self.cols, self.board.clone()));
            return self.found >= self.limit;
        }
        for kind in 0..self.kinds.len() {
            if self.kinds[kind].1 == 0 {
                continue;
            }
            for orientation in 0..self.kinds[kind].0.len() {
                let piece = self.kinds[kind].0[orientation];
                if !self.fits(cell, piece) {
                    continue;
                }
                self.kinds[kind].1 -= 1;
                self.board.push(piece);
                if self.fill(cell + 1) {
                    return true;
                }
                self.board.pop();
                self.kinds[kind].1 += 1;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::piece;

    fn block(rows: usize, cols: usize, words: &str) -> Block {
        Block { rows, cols, pieces: words.split_whitespace().map(piece).collect() }
    }

    #[test]
    fn assembles_a_small_rectangle_from_shuffled_pieces() {
        let b = block(2, 2, "OFFI IOFF FFII FOOF");
        let assembled = solve(&b, false).expect("solvable");
        assert!(b.is_solution(&assembled, false));
        assert_eq!(count(&b, false, 10), 1);
    }

    #[test]
    fn flat_sides_only_on_the_border() {
        assert_eq!(solve(&block(1, 1, "FFFF"), false).map(Grid::into_cells), Some(vec![piece("FFFF")]));
        assert_eq!(solve(&block(1, 1, "FFFO"), false), None);
        // Both fit each other, but a flat side would face inside.
        assert_eq!(solve(&block(1, 2, "FFFF FFFF"), false), None);
    }

    #[test]
    fn rotation_is_allowed_only_when_asked() {
        let b = block(1, 2, "FOFF FIFF");
        assert_eq!(solve(&b, false), None);
        let assembled = solve(&b, true).expect("one piece turned");
        assert!(b.is_solution(&assembled, true));
        // Either piece may be the one turned by a half turn, to the right of the other.
        assert_eq!(count(&b, true, 10), 2);
    }
}
