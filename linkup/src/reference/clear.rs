//! The plain exact reference for `solve --best` on whole boards: whether some order of removals
//! empties the board, found by trying every removable pair, depth first, with the boards
//! already found hopeless remembered. It shares nothing with [`crate::clear`]: a pair is
//! judged by the plain line search of [`super::joinable`], gravity is
//! [`super::settle`] (one cell at a time), and a position is the board itself.
//!
//! Why it is exact: a board can be cleared exactly when it is empty or some removable pair
//! leaves a board that can be cleared, which is what [`clearable`] tries, pair by pair. What
//! happens next depends only on the board (which kind is on which cell), so a board found
//! hopeless once is hopeless wherever it comes back; without gravity the board is the set of
//! pieces left, and with gravity it is what those pieces show after falling. Nothing else is
//! pruned.
//!
//! The work is exponential in the pieces (the pieces left of one kind of four alone take eight
//! sets: all four, six pairs, none), so boards are limited to [`MAX_PIECES`].

use rustc_hash::FxHashSet;

use common::Pos;

use super::{joinable, settle};
use crate::model::{Board, EMPTY, Kind, Query, Rules};

/// Most pieces of a board [`clearable`] takes.
pub const MAX_PIECES: usize = 32;

/// Whether some order of removals within `rules` (pieces falling after each removal with
/// `gravity`) empties `board`; `None` for a board of more than [`MAX_PIECES`] pieces.
pub fn clearable(board: &Board, rules: Rules, gravity: bool) -> Option<bool> {
    let pieces = board.cells().iter().filter(|&&kind| kind != EMPTY).count();
    if pieces > MAX_PIECES {
        return None;
    }
    let mut hopeless = FxHashSet::default();
    Some(clears(board, rules, gravity, &mut hopeless))
}

/// [`clearable`] of `board`, with the boards known hopeless in `hopeless` (their cells).
fn clears(board: &Board, rules: Rules, gravity: bool, hopeless: &mut FxHashSet<Vec<Kind>>) -> bool {
    // The pieces' cells, 1-based, in reading order.
    let cols = board.cols();
    let pieces: Vec<Pos> = (board.cells().iter().enumerate())
        .filter(|&(_, &kind)| kind != EMPTY)
        .map(|(index, _)| Pos::new(index / cols + 1, index % cols + 1))
        .collect();
    if pieces.is_empty() {
        return true;
    }
    if hopeless.contains(board.cells()) {
        return false;
    }
    for (index, &a) in pieces.iter().enumerate() {
        for &b in &pieces[index + 1..] {
            // `joinable` also refuses two pieces of different kinds.
            if !joinable(board, rules, Query { a, b }) {
                continue;
            }
            let mut rest = board.clone();
            rest[Pos::new(a.row - 1, a.col - 1)] = EMPTY;
            rest[Pos::new(b.row - 1, b.col - 1)] = EMPTY;
            if gravity {
                settle(&mut rest, &[a, b]);
            }
            if clears(&rest, rules, gravity, hopeless) {
                return true;
            }
        }
    }
    hopeless.insert(board.cells().to_vec());
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two kinds interleaved on one row cannot be joined inside the board, but can around it; a
    /// piece with no partner never goes; with gravity a piece falls onto the bottom row.
    #[test]
    fn small_boards() {
        let inside = Rules { max_turns: 2, outside: false };
        let outside = Rules { max_turns: 2, outside: true };
        let crossed = Board::from_vec(1, 4, vec![1, 2, 1, 2]);
        assert_eq!(clearable(&crossed, inside, false), Some(false));
        assert_eq!(clearable(&crossed, outside, false), Some(true));
        let column = Board::from_vec(3, 1, vec![1, 2, 1]);
        assert_eq!(clearable(&column, outside, false), Some(false));
        // 2 above the 1s, which go first; the 2 falls onto the bottom row, the other 2's row.
        let fall = Board::from_vec(2, 3, vec![2, 0, 0, 1, 1, 2]);
        assert_eq!(clearable(&fall, inside, true), Some(true));
        assert_eq!(clearable(&Board::from_vec(1, 1, vec![0]), inside, false), Some(true));
        let crowded = Board::from_vec(1, MAX_PIECES + 2, vec![1; MAX_PIECES + 2]);
        assert_eq!(clearable(&crowded, inside, false), None);
    }
}
