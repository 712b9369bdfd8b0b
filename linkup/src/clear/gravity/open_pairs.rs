//! The removable pairs of a position with gravity found kind by kind ([`OpenPairs`]), where the
//! pieces have no [`Code`](super::columns::Code) (a kind of more than 64 pieces, or 255 kinds or
//! more): a line leaves each of its two pieces through an open cell beside it unless they touch,
//! so the pairs looked at are those of two pieces with an open side and those side by side.
//!
//! The work is that of the pieces and pairs looked at, charged as it is done (see
//! [`OpenPairs::push`]): a pass over the open pieces, a check per pair of them, and a pass over
//! the pieces for the pairs side by side. So a position costs what it does whatever the kinds,
//! and the search stops between two rows of a kind's pairs once the budget is spent.

use super::columns::NO_PIECE;
use super::given::Given;
use crate::clear::bits::span;
use crate::clear::meter::{Meter, OutOfBudget};
use crate::clear::position::{Branch, Position};

/// Pieces looked at per unit of work in the passes over the board's pieces: a piece costs a
/// load or two and a comparison, a few times less than a line check of at most two turns.
pub(super) const PIECES_PER_UNIT: u64 = 4;

/// What [`OpenPairs::push`] looks at: the position, its pieces on the cells of `grid`
/// ([`NO_PIECE`] where none, `given.width()` cells a framed row), the cells holding a piece with
/// an open side (`exposed`, a word per framed row), and the sleep set (`asleep`), whose pairs are
/// not pushed.
#[derive(Clone, Copy)]
pub(super) struct Board<'a> {
    pub(super) position: &'a Position,
    pub(super) grid: &'a [u16],
    pub(super) given: &'a Given,
    pub(super) exposed: &'a [u64],
    pub(super) asleep: &'a [(u16, u16)],
}

/// The scratch of [`OpenPairs::push`]: the pieces with an open side, bucketed by kind.
///
/// Invariants: between uses, every list of `open` is empty and `touched` is empty.
#[derive(Debug, Default)]
pub(super) struct OpenPairs {
    /// Per kind: its pieces with an open side.
    open: Vec<Vec<u16>>,
    /// The kinds with a piece in `open`, each once.
    touched: Vec<u32>,
}

impl OpenPairs {
    /// Pushes onto `branches` every removable pair of `board` of two pieces with an open side
    /// or side by side, but not the pairs of its sleep set, each pair low piece first, in no
    /// particular order. Charges `meter` as it goes: a unit per [`PIECES_PER_UNIT`] pieces of
    /// each pass, and [`Meter::check_cost`] per line check; stops once the budget is spent (the
    /// pairs pushed are then not all).
    pub(super) fn push(
        &mut self,
        board: Board,
        meter: &mut Meter,
        branches: &mut Vec<Branch>,
    ) -> Result<(), OutOfBudget> {
        let Board { position, grid, given, exposed, asleep } = board;
        let (width, last) = (given.width(), usize::from(given.board_rows()));
        self.open.resize_with(position.kinds(), Vec::new);
        let mut open_pieces = 0;
        for row in 1..=last {
            let mut cells = exposed[row];
            while cells != 0 {
                let col = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let piece = grid[row * width + col];
                let k = position.kind(piece);
                if self.open[k].is_empty() {
                    self.touched.push(k as u32);
                }
                self.open[k].push(piece);
                open_pieces += 1;
            }
        }
        let found = self.push_open(position, asleep, meter, branches, open_pieces);
        for &k in &self.touched {
            self.open[k as usize].clear();
        }
        self.touched.clear();
        found?;
        push_side_by_side(board, meter, branches)
    }

    /// The pairs of two pieces with an open side, of the kinds `touched`; then, the lists of
    /// `open` are left for the caller to empty.
    fn push_open(
        &self,
        position: &Position,
        asleep: &[(u16, u16)],
        meter: &mut Meter,
        branches: &mut Vec<Branch>,
        open_pieces: u64,
    ) -> Result<(), OutOfBudget> {
        if !meter.spend(open_pieces.div_ceil(PIECES_PER_UNIT)) {
            return Err(OutOfBudget);
        }
        for &k in &self.touched {
            let open = &self.open[k as usize];
            for (index, &a) in open.iter().enumerate() {
                let mut checks = 0;
                for &b in &open[index + 1..] {
                    let pair = (a.min(b), a.max(b));
                    if asleep.contains(&pair) {
                        continue;
                    }
                    checks += 1;
                    if position.pieces_joinable(pair.0, pair.1) {
                        branches.push(Branch::Remove(pair.0, pair.1));
                    }
                }
                if !meter.spend(checks * meter.check_cost()) {
                    return Err(OutOfBudget);
                }
            }
        }
        Ok(())
    }
}

/// Pushes onto `branches` the pairs of pieces side by side, of one kind, one of them without an
/// open side (pairs of two open pieces are found with the others), but not those asleep;
/// charges `meter` for the pieces looked at and the line checks (see [`OpenPairs::push`]).
fn push_side_by_side(board: Board, meter: &mut Meter, branches: &mut Vec<Branch>) -> Result<(), OutOfBudget> {
    let Board { position, grid, given, exposed, asleep } = board;
    let (width, last) = (given.width(), usize::from(given.board_rows()));
    let inner = span(1, (width - 2) as u32);
    let is_open = |at: usize| exposed[at / width] >> (at % width) & 1 == 1;
    for row in 1..=last {
        let mut held = !position.bits().rows()[row] & inner;
        let (mut pieces, mut checks) = (0u64, 0u64);
        while held != 0 {
            let at = row * width + held.trailing_zeros() as usize;
            held &= held - 1;
            pieces += 1;
            let piece = grid[at];
            let k = position.kind(piece);
            // The ring's cells hold no piece: the cell right of the last column and the row
            // below the last are never taken.
            for beside in [at + 1, at + width] {
                let other = grid[beside];
                if other == NO_PIECE || position.kind(other) != k || is_open(at) && is_open(beside) {
                    continue;
                }
                let pair = (piece.min(other), piece.max(other));
                if asleep.contains(&pair) {
                    continue;
                }
                checks += 1;
                // Pieces side by side are always joined (a line of no turn): checked all the
                // same, as every pair the search takes.
                if position.pieces_joinable(pair.0, pair.1) {
                    branches.push(Branch::Remove(pair.0, pair.1));
                }
            }
        }
        if !meter.spend(pieces.div_ceil(PIECES_PER_UNIT) + checks * meter.check_cost()) {
            return Err(OutOfBudget);
        }
    }
    Ok(())
}
