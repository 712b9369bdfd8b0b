//! The position both searches keep ([`Position`]): the pieces and kinds left, the board's open
//! cells, the removals and constraints made, with removal and undo.

use common::Pos;
use rustc_hash::FxHashMap;

use super::bits::{Bits, Cell, MAX_SIDE};
use super::meter::Meter;
use super::pairings::ALL_PAIRINGS;
use crate::model::{Board, EMPTY, Kind, Rules};

/// Words of one bit per piece in fixed arrays: [`MAX_SIDE`]² pieces fit.
pub(super) const PIECE_WORDS: usize = 64;

const _: () = assert!(MAX_SIDE * MAX_SIDE <= 64 * PIECE_WORDS, "one bit per piece");
const _: () = assert!(MAX_SIDE * MAX_SIDE < u16::MAX as usize, "pieces are numbered in u16");

/// A choice tried at a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Branch {
    /// Remove these two pieces.
    Remove(u16, u16),
    /// Allow kind `.0` only the pairings of mask `.1`.
    Constrain(u32, u8),
}

/// One removal made: the two pieces and their cells at the time, and the pairings its kind was
/// allowed before it (put back on undo).
#[derive(Debug, Clone, Copy)]
pub(super) struct Step {
    pieces: [u16; 2],
    at: [Cell; 2],
    allowed_before: u8,
}

impl Step {
    /// The two pieces removed.
    #[inline(always)]
    pub(super) fn pieces(self) -> [u16; 2] {
        self.pieces
    }

    /// Their cells when they were removed.
    #[inline(always)]
    pub(super) fn cells(self) -> [Cell; 2] {
        self.at
    }
}

/// The pieces and kinds left, the board, the removals and constraints made. Pieces are numbered
/// in reading order, kinds densely in order of first appearance. Each search brings the board's
/// bits up to date after a removal ([`Position::bits_mut`]; with gravity the pieces' rows too,
/// [`Position::set_row`]).
///
/// Invariants: `left[k]` is the number of pieces of kind k whose bit is set in `present`, and
/// `total_left` their sum; `allowed[k]` is [`ALL_PAIRINGS`] unless a constraint narrowed it, and
/// every constraint in `trail` holds the pairings before it; `order` holds the removals not
/// undone, the pieces of each out of `present`.
pub(super) struct Position {
    bits: Bits,
    max_turns: u32,
    /// The cell of every piece now.
    cell: Vec<Cell>,
    /// The kind of every piece.
    kind: Vec<u32>,
    /// The pieces of kind k: `members[start[k]..start[k + 1]]`, in reading order.
    members: Vec<u16>,
    start: Vec<usize>,
    /// Pieces of each kind on the board.
    left: Vec<u32>,
    /// Pieces on the board, total.
    total_left: usize,
    /// One bit per piece on the board.
    present: Vec<u64>,
    /// Pairings allowed to each kind; [`ALL_PAIRINGS`] unless the kind has four pieces left.
    allowed: Vec<u8>,
    /// The removals made, in order.
    order: Vec<Step>,
    /// Constraints made: the kind and its pairings before.
    trail: Vec<(u32, u8)>,
}

impl Position {
    /// The position of `board` under `rules`, every piece on it.
    pub(super) fn new(board: &Board, rules: Rules) -> Position {
        let (cell, kind, kinds) = pieces_of(board);
        let (members, start) = grouped(kinds, kind.iter().map(|&k| k as usize));
        let left: Vec<u32> = (0..kinds).map(|k| (start[k + 1] - start[k]) as u32).collect();
        let mut present = vec![0u64; cell.len().div_ceil(64)];
        for piece in 0..cell.len() {
            present[piece / 64] |= 1 << (piece % 64);
        }
        Position {
            bits: Bits::new(board, rules.outside),
            max_turns: rules.max_turns,
            total_left: cell.len(),
            cell,
            kind,
            members,
            start,
            left,
            present,
            allowed: vec![ALL_PAIRINGS; kinds],
            order: Vec::new(),
            trail: Vec::new(),
        }
    }

    /// The board's open cells.
    #[inline(always)]
    pub(super) fn bits(&self) -> &Bits {
        &self.bits
    }

    /// The board's open cells, for the search to bring up to date as pieces go and come back.
    #[inline(always)]
    pub(super) fn bits_mut(&mut self) -> &mut Bits {
        &mut self.bits
    }

    /// The most turns of a line.
    #[inline(always)]
    pub(super) fn max_turns(&self) -> u32 {
        self.max_turns
    }

    /// Pieces on the board as given.
    pub(super) fn pieces(&self) -> usize {
        self.cell.len()
    }

    /// Kinds of the board as given.
    #[inline(always)]
    pub(super) fn kinds(&self) -> usize {
        self.left.len()
    }

    /// The cell of `piece` now (with gravity, where it fell; a piece gone keeps its last cell).
    #[inline(always)]
    pub(super) fn cell(&self, piece: u16) -> Cell {
        self.cell[piece as usize]
    }

    /// The cell of every piece, by number.
    #[inline(always)]
    pub(super) fn cells(&self) -> &[Cell] {
        &self.cell
    }

    /// Moves `piece` to `row` of its column (gravity).
    #[inline(always)]
    pub(super) fn set_row(&mut self, piece: u16, row: u8) {
        self.cell[piece as usize].0 = row;
    }

    /// The kind of `piece`.
    #[inline(always)]
    pub(super) fn kind(&self, piece: u16) -> usize {
        self.kind[piece as usize] as usize
    }

    /// The kind of every piece, by number.
    #[inline(always)]
    pub(super) fn piece_kinds(&self) -> &[u32] {
        &self.kind
    }

    /// Every piece of kind `k`, on the board or not, in reading order.
    #[inline(always)]
    pub(super) fn members_of(&self, k: usize) -> &[u16] {
        &self.members[self.start[k]..self.start[k + 1]]
    }

    /// Pieces of kind `k` on the board.
    #[inline(always)]
    pub(super) fn left(&self, k: usize) -> u32 {
        self.left[k]
    }

    /// Pieces of each kind on the board.
    #[inline(always)]
    pub(super) fn left_per_kind(&self) -> &[u32] {
        &self.left
    }

    /// Pieces on the board.
    #[inline(always)]
    pub(super) fn total_left(&self) -> usize {
        self.total_left
    }

    /// True when `piece` is on the board.
    #[inline(always)]
    pub(super) fn is_present(&self, piece: u16) -> bool {
        self.present[piece as usize / 64] >> (piece % 64) & 1 == 1
    }

    /// One bit per piece on the board.
    #[inline(always)]
    pub(super) fn present(&self) -> &[u64] {
        &self.present
    }

    /// Takes `piece` off the board or puts it back without a removal (for tests of the layouts
    /// of a board with some pieces gone).
    #[cfg(test)]
    pub(super) fn set_present(&mut self, piece: u16, present: bool) {
        let (word, bit) = (piece as usize / 64, 1 << (piece % 64));
        self.present[word] = if present { self.present[word] | bit } else { self.present[word] & !bit };
    }

    /// The pairings allowed to kind `k`.
    #[inline(always)]
    pub(super) fn allowed(&self, k: usize) -> u8 {
        self.allowed[k]
    }

    /// The removals made, in order.
    #[inline(always)]
    pub(super) fn order(&self) -> &[Step] {
        &self.order
    }

    /// Constraints made and not undone.
    #[inline(always)]
    pub(super) fn trail_len(&self) -> usize {
        self.trail.len()
    }

    /// The first four pieces of kind `k` on the board (fewer when fewer are left), in reading
    /// order, and how many are left.
    pub(super) fn find_live(&self, k: usize) -> ([u16; 4], usize) {
        let (mut out, mut count) = ([0; 4], 0);
        for &piece in self.members_of(k) {
            if self.is_present(piece) {
                if count < 4 {
                    out[count] = piece;
                }
                count += 1;
            }
        }
        (out, count)
    }

    /// True when a line joins pieces `a` and `b` now.
    #[inline(always)]
    pub(super) fn pieces_joinable(&self, a: u16, b: u16) -> bool {
        self.bits.joinable(self.cell[a as usize], self.cell[b as usize], self.max_turns)
    }

    /// The pieces on the board and the pairings allowed to kinds of four, into `key` (the key of
    /// the position without gravity).
    pub(super) fn key_into(&self, key: &mut Vec<u64>) {
        key.clear();
        key.extend_from_slice(&self.present);
        let mut word = 0u64;
        let mut used = 0;
        for &allowed in &self.allowed {
            if used == 63 {
                key.push(word);
                (word, used) = (0, 0);
            }
            word |= u64::from(allowed) << used;
            used += 3;
        }
        key.push(word);
    }

    /// Takes pieces `a` and `b` (of one kind, joinable now) off the position and records the
    /// removal; the board's bits are the search's to bring up to date.
    #[inline(always)]
    pub(super) fn take(&mut self, a: u16, b: u16) -> Step {
        let k = self.kind[a as usize] as usize;
        let step = Step {
            pieces: [a, b],
            at: [self.cell[a as usize], self.cell[b as usize]],
            allowed_before: self.allowed[k],
        };
        self.order.push(step);
        self.left[k] -= 2;
        self.total_left -= 2;
        self.allowed[k] = ALL_PAIRINGS;
        for piece in [a, b] {
            self.present[piece as usize / 64] &= !(1 << (piece % 64));
        }
        step
    }

    /// Puts back the pieces of the last removal and returns it; the board's bits are the
    /// search's to bring up to date.
    #[inline(always)]
    pub(super) fn put_back(&mut self) -> Step {
        let step = self.order.pop().expect("a removal to undo");
        let [a, b] = step.pieces;
        let k = self.kind[a as usize] as usize;
        self.left[k] += 2;
        self.total_left += 2;
        self.allowed[k] = step.allowed_before;
        for piece in [a, b] {
            self.present[piece as usize / 64] |= 1 << (piece % 64);
        }
        step
    }

    /// Allows kind `k` only the pairings of `mask` (a constraint branch), until undone.
    pub(super) fn constrain(&mut self, k: u32, mask: u8) {
        self.trail.push((k, self.allowed[k as usize]));
        self.allowed[k as usize] = mask;
    }

    /// Undoes the constraints made since `trail_mark`.
    pub(super) fn unconstrain_to(&mut self, trail_mark: usize) {
        while self.trail.len() > trail_mark {
            let (k, before) = self.trail.pop().expect("a constraint to undo");
            self.allowed[k as usize] = before;
        }
    }

    /// Every pair of pieces of kind `k` on the board, in reading order.
    pub(super) fn present_pairs(&self, k: usize) -> impl Iterator<Item = (u16, u16)> + '_ {
        let members = self.members_of(k);
        members.iter().enumerate().filter(|&(_, &a)| self.is_present(a)).flat_map(move |(index, &a)| {
            members[index + 1..].iter().filter(|&&b| self.is_present(b)).map(move |&b| (a, b))
        })
    }

    /// Calls `visit` with each pair of pieces of kind `k` on the board that can be joined now,
    /// in reading order, until it returns false. Each pair checked is a unit of work on `meter`;
    /// the walk also stops once the work is past the budget, and then returns false (the pairs
    /// visited are not all, see [`Meter::exhausted`]).
    pub(super) fn each_joinable_pair(
        &self,
        meter: &mut Meter,
        k: usize,
        mut visit: impl FnMut(u16, u16) -> bool,
    ) -> bool {
        let (first, end) = (self.start[k], self.start[k + 1]);
        for index in first..end {
            let a = self.members[index];
            if !self.is_present(a) {
                continue;
            }
            let mut checked = 0;
            for later in index + 1..end {
                let b = self.members[later];
                if self.is_present(b) {
                    checked += 1;
                    if self.pieces_joinable(a, b) && !visit(a, b) {
                        meter.spend(checked * meter.check_cost());
                        return !meter.exhausted();
                    }
                }
            }
            if !meter.spend(checked * meter.check_cost()) {
                return false;
            }
        }
        true
    }
}

/// The pieces of `board` in reading order: their framed cells, their kinds numbered densely in
/// order of first appearance, and how many kinds.
fn pieces_of(board: &Board) -> (Vec<Cell>, Vec<u32>, usize) {
    let mut kind_index: FxHashMap<Kind, u32> = FxHashMap::default();
    let (mut cell, mut kind) = (Vec::new(), Vec::new());
    for row in 0..board.rows() {
        for col in 0..board.cols() {
            let here = board[Pos::new(row, col)];
            if here != EMPTY {
                let next = kind_index.len() as u32;
                kind.push(*kind_index.entry(here).or_insert(next));
                cell.push(((row + 1) as u8, (col + 1) as u8));
            }
        }
    }
    (cell, kind, kind_index.len())
}

/// The pieces grouped by their group (`group_of`, one number below `groups` per piece, in
/// piece order), each group in piece order: group g is `members[start[g]..start[g + 1]]`.
pub(super) fn grouped(
    groups: usize,
    group_of: impl Iterator<Item = usize> + Clone,
) -> (Vec<u16>, Vec<usize>) {
    let mut start = vec![0; groups + 1];
    for group in group_of.clone() {
        start[group + 1] += 1;
    }
    for group in 0..groups {
        start[group + 1] += start[group];
    }
    let mut members = vec![0u16; start[groups]];
    let mut fill = start.clone();
    for (piece, group) in group_of.enumerate() {
        members[fill[group]] = piece as u16;
        fill[group] += 1;
    }
    (members, start)
}
