//! The board's columns as given ([`Given`]), which gravity lays each column out from, and the
//! canonical key of a column ([`Given::canonical_slots`]; see the
//! [module documentation](super)).

use crate::clear::position::{Position, grouped};

/// The board's columns as given: what never changes while the search runs.
///
/// Invariants: the pieces of framed column c are `column[column_start[c]..column_start[c + 1]]`,
/// top to bottom (at most 62, so a slot's bit fits a word); `slot[p]` is piece p's index there.
#[derive(Debug)]
pub(super) struct Given {
    column: Vec<u16>,
    column_start: Vec<usize>,
    /// The row of every piece on the board as given.
    home_row: Vec<u8>,
    /// Rows of the board.
    board_rows: u8,
    /// Per framed column: its pieces were given packed at its bottom.
    packed: Vec<bool>,
    /// Per piece: its slot in its column.
    slot: Vec<u8>,
    /// Per piece of `column`, in its order: the slots of its column holding a piece of its kind
    /// (bit `slot`), so that the greedy match of [`Given::canonical_slots`] finds a kind's next
    /// slot down with one mask.
    same_kind: Vec<u64>,
}

impl Given {
    /// The columns of the board of `position` as given, of `rows` rows and `cols` columns.
    pub(super) fn new(position: &Position, rows: usize, cols: usize) -> Given {
        // Reading order puts each column's pieces top to bottom.
        let cells = position.cells().iter();
        let (column, column_start) = grouped(cols + 2, cells.clone().map(|&(_, col)| usize::from(col)));
        let home_row = cells.map(|&(row, _)| row).collect();
        let mut given = Given {
            column,
            column_start,
            home_row,
            board_rows: rows as u8,
            packed: Vec::new(),
            slot: Vec::new(),
            same_kind: Vec::new(),
        };
        given.packed = given.packed_columns();
        given.slot = (0..position.pieces() as u16)
            .map(|piece| {
                let pieces = given.pieces(usize::from(position.cell(piece).1));
                pieces.iter().position(|&p| p == piece).expect("in its column") as u8
            })
            .collect();
        given.same_kind = given.same_kind_slots(position);
        given
    }

    /// Columns of the framed board.
    #[inline(always)]
    pub(super) fn width(&self) -> usize {
        self.column_start.len() - 1
    }

    /// Rows of the board (the last row of the board is this one of the framed board).
    #[inline(always)]
    pub(super) fn board_rows(&self) -> u8 {
        self.board_rows
    }

    /// The pieces of framed column `col`, top to bottom.
    #[inline(always)]
    pub(super) fn pieces(&self, col: usize) -> &[u16] {
        &self.column[self.column_start[col]..self.column_start[col + 1]]
    }

    /// The row of `piece` on the board as given.
    #[inline(always)]
    pub(super) fn home_row(&self, piece: u16) -> u8 {
        self.home_row[piece as usize]
    }

    /// True when the pieces of framed column `col` were given packed at its bottom.
    #[inline(always)]
    pub(super) fn packed(&self, col: usize) -> bool {
        self.packed[col]
    }

    /// True when every column was given packed.
    pub(super) fn all_packed(&self) -> bool {
        self.packed.iter().all(|&packed| packed)
    }

    /// The slot of `piece` in its column (its index in [`Given::pieces`]).
    #[inline(always)]
    pub(super) fn slot(&self, piece: u16) -> u8 {
        self.slot[piece as usize]
    }

    /// Per framed column: its pieces were given packed at its bottom.
    fn packed_columns(&self) -> Vec<bool> {
        (0..self.width())
            .map(|col| {
                self.pieces(col).iter().rev().enumerate().all(|(below, &piece)| {
                    usize::from(self.home_row(piece)) + below == usize::from(self.board_rows)
                })
            })
            .collect()
    }

    /// [`Given::same_kind`] for the pieces of `position`.
    fn same_kind_slots(&self, position: &Position) -> Vec<u64> {
        let mut same_kind = Vec::with_capacity(self.column.len());
        for col in 0..self.width() {
            let pieces = self.pieces(col);
            for &piece in pieces {
                let kind = position.kind(piece);
                same_kind.push(pieces.iter().enumerate().fold(0u64, |slots, (slot, &other)| {
                    slots | u64::from(position.kind(other) == kind) << slot
                }));
            }
        }
        same_kind
    }

    /// The pieces of column `col` in the key when the pieces `present` (bit `slot` for each piece
    /// of [`Given::pieces`] on the board) are on the board: the sequence of kinds present matched
    /// greedily, bottom up, onto the column's pieces as given when the column was given packed;
    /// the pieces present otherwise.
    pub(super) fn canonical_slots(&self, col: usize, present: u64) -> u64 {
        // Bit `slot` of `matched`: the piece `column[column_start[col] + slot]` is in the key.
        let mut matched = present;
        if self.packed[col] && present != 0 {
            let same_kind = &self.same_kind[self.column_start[col]..self.column_start[col + 1]];
            // The pieces present from the bottom up to the first one gone match themselves;
            // `next` is the first slot not matched yet (slots count from the top; a column holds
            // at most [`MAX_SIDE`](crate::clear::bits::MAX_SIDE) pieces, and at least one here).
            let next = same_kind.len() - (present << (64 - same_kind.len())).leading_ones() as usize;
            let mut rest = present & ((1 << next) - 1);
            matched = present & !rest;
            // The slots not matched yet lie above the highest matched (the lowest bit).
            let mut free = (1u64 << next) - 1;
            while rest != 0 {
                // The lowest piece present not matched yet.
                let slot = 63 - rest.leading_zeros() as usize;
                rest ^= 1 << slot;
                // The piece at `slot` itself is free and of its kind, so the match lies at
                // `slot` or below it: the lowest free slot of the kind.
                let at = 63 - (same_kind[slot] & free).leading_zeros() as usize;
                matched |= 1 << at;
                free = (1 << at) - 1;
            }
        }
        matched
    }
}
