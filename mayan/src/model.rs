//! The puzzle as the input gives it, and moves.

use std::cmp::Ordering;
use std::fmt;

/// Columns of the board, x = 0..WIDTH from left to right.
pub const WIDTH: usize = 5;

/// Rows of the board, y = 0..HEIGHT from the bottom up.
pub const HEIGHT: usize = 7;

/// Colours are numbered 1..=MAX_COLOUR.
pub const MAX_COLOUR: u8 = 10;

/// Largest accepted number of moves (the judge stops at [`JUDGE_MAX_MOVES`]).
pub const MAX_MOVES: usize = 7;

/// Largest number of moves in the judge's data.
pub const JUDGE_MAX_MOVES: usize = 5;

/// One puzzle: the number of moves and the board, column by column.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Puzzle {
    /// Moves to make, exactly: 1..=[`MAX_MOVES`].
    pub moves: usize,
    /// The colours of each column's blocks from the bottom up, x = 0 first; each column holds at
    /// most [`HEIGHT`] blocks with colours 1..=[`MAX_COLOUR`].
    pub columns: [Vec<u8>; WIDTH],
}

impl Puzzle {
    /// The number of blocks on the board.
    pub fn blocks(&self) -> usize {
        self.columns.iter().map(Vec::len).sum()
    }
}

/// A move: drag the block at column `x`, row `y` one column right (`g = 1`) or left (`g = -1`).
///
/// Moves are ordered as the judge compares them: by `x`, then `y`, then `g` with `1` before `-1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// Column of the block, 0..[`WIDTH`].
    pub x: u8,
    /// Row of the block, 0..[`HEIGHT`].
    pub y: u8,
    /// Direction: `1` right, `-1` left.
    pub g: i8,
}

impl Move {
    /// The move of the block at (`x`, `y`) in direction `g`.
    pub const fn new(x: u8, y: u8, g: i8) -> Self {
        Move { x, y, g }
    }

    /// The column the block is dragged to, if it is on the board.
    pub fn target_column(self) -> Option<u8> {
        let target = self.x as i8 + self.g;
        (0..WIDTH as i8).contains(&target).then_some(target as u8)
    }

    fn sort_key(self) -> (u8, u8, bool) {
        (self.x, self.y, self.g < 0)
    }
}

impl Ord for Move {
    fn cmp(&self, other: &Self) -> Ordering {
        self.sort_key().cmp(&other.sort_key())
    }
}

impl PartialOrd for Move {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Move {
    /// The judge's form: `x y g`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.x, self.y, self.g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_order_by_x_then_y_then_right_before_left() {
        let mut moves = [
            Move::new(1, 0, -1),
            Move::new(0, 2, 1),
            Move::new(1, 0, 1),
            Move::new(0, 1, -1),
            Move::new(0, 1, 1),
        ];
        moves.sort();
        let shown: Vec<String> = moves.iter().map(Move::to_string).collect();
        assert_eq!(shown, ["0 1 1", "0 1 -1", "0 2 1", "1 0 1", "1 0 -1"]);
    }

    #[test]
    fn target_columns_stay_on_the_board() {
        assert_eq!(Move::new(0, 0, -1).target_column(), None);
        assert_eq!(Move::new(0, 0, 1).target_column(), Some(1));
        assert_eq!(Move::new(4, 3, 1).target_column(), None);
        assert_eq!(Move::new(4, 3, -1).target_column(), Some(3));
    }
}
