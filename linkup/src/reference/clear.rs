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
//!
//! Beside it, what the comparisons of the exact search with the references share: the small
//! boards they draw ([`random_board`], [`game_board`], [`packed_game_board`]) and the check of a
//! clearing order by the plain rules ([`replays`]).

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
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

/// A board of 2 to 6 rows and columns holding up to [`MAX_PIECES`] pieces at random cells, in
/// kinds of two or four pieces (now and then six, or one odd piece out), from `seed`.
pub fn random_board(seed: u64) -> Board {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (rows, cols) = (rng.random_range(2..=6usize), rng.random_range(2..=6usize));
    let room = (rows * cols).min(MAX_PIECES);
    let target = rng.random_range(2..=room);
    let mut pieces = Vec::new();
    let mut kind = 0;
    while pieces.len() < target {
        kind += 1;
        let copies = match rng.random_range(0..20) {
            0 => 1,
            1 => 6,
            2..=9 => 2,
            _ => 4,
        };
        let copies = copies.min(target - pieces.len());
        pieces.extend(std::iter::repeat_n(kind, copies));
    }
    let mut cells = vec![EMPTY; rows * cols];
    let mut at: Vec<usize> = (0..rows * cols).collect();
    at.shuffle(&mut rng);
    for (&cell, &kind) in at.iter().zip(&pieces) {
        cells[cell] = kind;
    }
    Board::from_vec(rows, cols, cells)
}

/// A small board for whole games from a seed: up to 4×5 cells; half the time (when it fits) two
/// kinds of four pieces, else pieces of up to 3 kinds with even counts (2 to 8 of a kind); at
/// most `most_pieces` pieces.
pub fn game_board(seed: u64, most_pieces: usize) -> Board {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (rows, cols) = (rng.random_range(1..=4), rng.random_range(1..=5));
    let cells = rows * cols;
    if cells >= 8 && most_pieces >= 8 && rng.random_range(0..2) == 0 {
        // Two kinds of four, as in the real game's deals, among empty cells.
        let mut kinds: Vec<u32> =
            [1, 1, 1, 1, 2, 2, 2, 2].into_iter().chain(std::iter::repeat_n(0, cells - 8)).collect();
        for index in (1..kinds.len()).rev() {
            kinds.swap(index, rng.random_range(0..=index));
        }
        return Board::from_vec(rows, cols, kinds);
    }
    let pieces = rng.random_range(0..=cells.min(most_pieces) as u32) / 2 * 2;
    crate::r#gen::board(
        rows,
        cols,
        f64::from(pieces) / f64::from(cells as u32),
        rng.random_range(1..=3),
        &mut rng,
    )
}

/// A board whose columns hold their pieces packed at the bottom, as the real game's deals do:
/// up to 4×5 cells, at most `most_pieces` pieces, in pairs of kinds 1 to 3, so that two
/// pieces of a kind often share a column.
pub fn packed_game_board(seed: u64, most_pieces: usize) -> Board {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (rows, cols) = (rng.random_range(1..=4), rng.random_range(1..=5));
    let mut heights: Vec<usize> = (0..cols).map(|_| rng.random_range(0..=rows)).collect();
    while heights.iter().sum::<usize>() > most_pieces || heights.iter().sum::<usize>() % 2 == 1 {
        let col = rng.random_range(0..cols);
        heights[col] = heights[col].saturating_sub(1);
    }
    let pieces: usize = heights.iter().sum();
    let mut kinds: Vec<u32> = (0..pieces / 2).flat_map(|_| [rng.random_range(1..=3); 2]).collect();
    for index in (1..kinds.len()).rev() {
        kinds.swap(index, rng.random_range(0..=index));
    }
    let mut board = Board::from_vec(rows, cols, vec![EMPTY; rows * cols]);
    for (col, &height) in heights.iter().enumerate() {
        for below in 0..height {
            board[Pos::new(rows - 1 - below, col)] = kinds.pop().expect("a kind per piece");
        }
    }
    board
}

/// Replays `order` (pairs of 1-based cells, each on the board as it is then) on `board` by the
/// plain rules: every removal joins two pieces of one kind by [`joinable`], pieces fall by
/// [`settle`] with `gravity`, and the board is empty at the end; else why not.
pub fn replays(board: &Board, rules: Rules, gravity: bool, order: &[(Pos, Pos)]) -> Result<(), String> {
    let mut left = board.clone();
    for (step, &(a, b)) in order.iter().enumerate() {
        if !joinable(&left, rules, Query { a, b }) {
            return Err(format!("removal {step} ({a:?}, {b:?}) is not joined"));
        }
        let kind = |pos: Pos| left[Pos::new(pos.row - 1, pos.col - 1)];
        if kind(a) != kind(b) {
            return Err(format!("removal {step} ({a:?}, {b:?}) joins two kinds"));
        }
        left[Pos::new(a.row - 1, a.col - 1)] = EMPTY;
        left[Pos::new(b.row - 1, b.col - 1)] = EMPTY;
        if gravity {
            settle(&mut left, &[a, b]);
        }
    }
    if left.cells().iter().any(|&kind| kind != EMPTY) {
        return Err("pieces are left".to_owned());
    }
    Ok(())
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
