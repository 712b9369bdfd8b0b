//! The columns with gravity ([`Columns`]): their tops, their grids and the canonical key of the
//! board, laid out again after each removal and its undo.

use super::given::Given;
use super::key::Key;
use crate::clear::bits::{Cell, span};
use crate::clear::position::Position;

/// No piece (an empty column's top, an empty cell of the grid of pieces).
pub(super) const NO_PIECE: u16 = u16::MAX;

/// No kind (an empty cell of the grid of kinds, [`Columns::kind_bytes`]).
pub(super) const NO_KIND: u8 = u8::MAX;

/// A piece's kind and its index among the pieces of its kind (in `members`) in one `u16`: the kind
/// times 64 plus the index ([`Columns::code`]). Held only when every kind has at most 64 pieces and
/// the kinds are fewer than [`NO_KIND`], so both fit (kind below 255, index below 64).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Code(u16);

const _: () = assert!((NO_KIND as usize) << 6 <= u16::MAX as usize, "a kind and an index in a code");

impl Code {
    /// Piece number `slot` of kind `kind`.
    #[inline(always)]
    fn new(kind: u32, slot: u8) -> Code {
        debug_assert!(kind < u32::from(NO_KIND) && slot < 64, "a code's kind or index out of range");
        Code((kind << 6) as u16 | u16::from(slot))
    }

    /// The kind.
    #[inline(always)]
    pub(super) fn kind(self) -> usize {
        usize::from(self.0 >> 6) & 255
    }

    /// The index among the pieces of the kind.
    #[inline(always)]
    pub(super) fn slot(self) -> u32 {
        u32::from(self.0 & 63)
    }
}

/// What [`Columns::settle_packed`] and [`Columns::settle`] keep up to date with gravity, column by
/// column, so that a position costs work only in the columns a removal touched.
///
/// Invariants (once [`Columns::init`] ran): `top[c]` is the highest piece on the board in framed
/// column `c` ([`NO_PIECE`] when none); `tops_of_kind[k]` is the number of columns whose top
/// piece is of kind `k`; `key` is the canonical set of pieces of the board (see the
/// [module documentation](super)), one bit per piece; `hash` is the XOR of `zobrist[p]` over the
/// pieces `p` of `key`; `grid` holds every piece on its cell.
#[derive(Debug)]
pub(super) struct Columns {
    /// The board's columns as given.
    given: Given,
    /// Per framed column: its pieces on the board (bit `slot` for the piece of
    /// [`Given::pieces`] at `slot`).
    present: Vec<u64>,
    /// The canonical key of the board, with its hash.
    key: Key,
    /// The tops of the columns and the grids of the cells.
    layout: Layout,
    /// Per piece: its [`Code`], when every kind has at most 64 pieces; else empty (the pairs are
    /// then found kind by kind). A piece with an open side is bucketed by kind through the grid
    /// of pieces and this: the grid of pieces is the only layout of the cells with their pieces.
    code: Vec<Code>,
    /// [`Layout::kind_bytes`] is not kept up to date by [`Columns::settle_packed`] and
    /// [`Columns::settle`] but laid out from the grid of pieces when the pairs are found from
    /// scratch ([`Columns::lay_out_kinds`]): when pairs are found incrementally, only the first
    /// position of a round does, and keeping them at every removal and undo cost more than laying
    /// them out once a round.
    cells_on_demand: bool,
}

/// The columns laid out: their tops, and the grids of their cells.
#[derive(Debug, Default)]
struct Layout {
    top: Vec<u16>,
    /// Per kind: its pieces on top of a column.
    tops_of_kind: Vec<u16>,
    /// Bit `k % 64` of word `k / 64`: kind `k` has two or more pieces on top of a column (the
    /// kinds that may be all on top: a kind on the board has an even number of pieces left).
    paired_tops: Vec<u64>,
    /// Per framed cell (row-major): the piece on it, or [`NO_PIECE`].
    grid: Vec<u16>,
    /// Per framed row, `row_words` words: byte `c % 8` of word `c / 8` is the kind of the piece
    /// on the cell of column `c`, or [`NO_KIND`] (empty cells, the ring, the bytes beyond the
    /// last column); held only when [`Columns::code`] is (every kind fits a byte then), and up to
    /// date only as [`Columns::cells_on_demand`] says. Eight cells a word find the pieces side by
    /// side of one kind in a few operations ([`side_by_side`](super::grid::side_by_side)).
    kind_bytes: Vec<u64>,
    /// Words per framed row in `kind_bytes`.
    row_words: usize,
}

/// What [`Columns`] holds that its invariants name, for the tests to compare with a fresh one.
#[cfg(test)]
pub(super) type Held = (Vec<u16>, Vec<u16>, Vec<u64>, u64, Vec<u16>, Vec<u64>, Vec<u64>);

impl Columns {
    /// The columns of `given`, not set up yet ([`Columns::init`]): until then, a column is laid
    /// out by [`Columns::settle`] alone.
    pub(super) fn new(given: Given) -> Columns {
        Columns {
            given,
            present: Vec::new(),
            key: Key::default(),
            layout: Layout::default(),
            code: Vec::new(),
            cells_on_demand: false,
        }
    }

    /// The board's columns as given.
    #[inline(always)]
    pub(super) fn given(&self) -> &Given {
        &self.given
    }

    /// The canonical key of the board (see the [module documentation](super)).
    #[inline(always)]
    pub(super) fn key(&self) -> &[u64] {
        self.key.words()
    }

    /// The hash of the key.
    #[inline(always)]
    pub(super) fn hash(&self) -> u64 {
        self.key.hash()
    }

    /// The pieces of the board by framed cell (row-major), [`NO_PIECE`] where none.
    #[inline(always)]
    pub(super) fn grid(&self) -> &[u16] {
        &self.layout.grid
    }

    /// The grid of kinds, [`Columns::row_words`] words a framed row (see [`Columns::kind_bytes`]).
    #[inline(always)]
    pub(super) fn kind_bytes(&self) -> &[u64] {
        &self.layout.kind_bytes
    }

    /// Words per framed row of the grid of kinds.
    #[inline(always)]
    pub(super) fn row_words(&self) -> usize {
        self.layout.row_words
    }

    /// The [`Code`] of every piece, when every kind has at most 64 pieces; else empty.
    #[inline(always)]
    pub(super) fn code(&self) -> &[Code] {
        &self.code
    }

    /// True when the grid of kinds is laid out only when the pairs are found from scratch.
    #[inline(always)]
    pub(super) fn cells_on_demand(&self) -> bool {
        self.cells_on_demand
    }

    /// Lays the grid of kinds out only when the pairs are found from scratch (see
    /// [`Columns::cells_on_demand`]), or keeps it at every removal and undo.
    pub(super) fn set_cells_on_demand(&mut self, on_demand: bool) {
        self.cells_on_demand = on_demand;
    }

    /// Bit `k % 64` of word `k / 64`: kind `k` has two or more pieces on top of a column.
    #[inline(always)]
    pub(super) fn paired_tops(&self) -> &[u64] {
        &self.layout.paired_tops
    }

    /// Pieces of kind `k` on top of a column.
    #[inline(always)]
    pub(super) fn tops_of_kind(&self, k: usize) -> u16 {
        self.layout.tops_of_kind[k]
    }

    /// What the removal of the branch about to be played will find in its columns (see
    /// [`Columns::hash_without`]).
    #[inline(always)]
    pub(super) fn foresee(&mut self, foreseen: [(usize, u64, u64); 2]) {
        self.key.foresee(foreseen);
    }

    /// What the columns hold, for the tests (see [`Held`]).
    #[cfg(test)]
    pub(super) fn held(&self) -> Held {
        let tops = self.layout.tops_of_kind.clone();
        let (key, hash) = (self.key.words().to_vec(), self.key.hash());
        (
            self.layout.top.clone(),
            self.layout.grid.clone(),
            key,
            hash,
            tops,
            self.layout.paired_tops.clone(),
            self.layout.kind_bytes.clone(),
        )
    }

    /// Puts back what [`Columns::held`] returned.
    #[cfg(test)]
    pub(super) fn restore_held(&mut self, held: Held) {
        let (key, hash);
        (
            self.layout.top,
            self.layout.grid,
            key,
            hash,
            self.layout.tops_of_kind,
            self.layout.paired_tops,
            self.layout.kind_bytes,
        ) = held;
        self.key.restore_held(key, hash);
    }

    /// Sets the columns up for the board of `position` as it is (every column laid out already).
    pub(super) fn init(&mut self, position: &Position) {
        let width = self.given.width();
        let rows = usize::from(self.given.board_rows());
        self.layout.top = vec![NO_PIECE; width];
        self.present = vec![0; width];
        self.key = Key::new(width, position);
        self.layout.tops_of_kind = vec![0; position.kinds()];
        self.layout.paired_tops = vec![0; position.kinds().div_ceil(64)];
        self.layout.grid = vec![NO_PIECE; (rows + 2) * width];
        self.layout.kind_bytes = Vec::new();
        self.layout.row_words = width.div_ceil(8);
        self.code = Vec::new();
        self.cells_on_demand = false;
        let kinds = position.kinds();
        if kinds < usize::from(NO_KIND) && (0..kinds).all(|k| position.members_of(k).len() <= 64) {
            let mut code = vec![Code::default(); position.pieces()];
            for k in 0..kinds {
                for (slot, &piece) in position.members_of(k).iter().enumerate() {
                    code[piece as usize] = Code::new(k as u32, slot as u8);
                }
            }
            self.code = code;
            self.layout.kind_bytes = vec![u64::MAX; (rows + 2) * self.layout.row_words];
        }
        for col in 0..width {
            self.canonize(position, col, self.present_slots(position, col), 1);
        }
    }

    /// Lays out [`Columns::kind_bytes`] from the grid of pieces (see
    /// [`Columns::cells_on_demand`]).
    pub(super) fn lay_out_kinds(&mut self, position: &Position) {
        let width = self.given.width();
        self.layout.kind_bytes.fill(u64::MAX);
        for row in 0..self.layout.grid.len() / width {
            for col in 0..width {
                let piece = self.layout.grid[row * width + col];
                if piece != NO_PIECE {
                    self.layout.place(position.piece_kinds(), piece, (row, col), width, true);
                }
            }
        }
    }

    /// Bit `slot` set for each piece of column `col` (at `slot` in [`Given::pieces`]) on the
    /// board.
    fn present_slots(&self, position: &Position, col: usize) -> u64 {
        let pieces = self.given.pieces(col);
        pieces
            .iter()
            .enumerate()
            .fold(0, |slots, (slot, &piece)| slots | u64::from(position.is_present(piece)) << slot)
    }

    /// Brings the columns up to date for column `col` from its pieces on the board (`present`,
    /// see [`Columns::present_slots`]): its top, its cells in the grids, and its pieces in the
    /// key ([`Given::canonical_slots`]); only the pieces whose bit changes are touched in the
    /// key and the hash. The rows above `from_row` are empty before and after.
    fn canonize(&mut self, position: &Position, col: usize, present: u64, from_row: usize) {
        if !self.key.ready() {
            return;
        }
        let before = std::mem::replace(&mut self.present[col], present);
        let differ = before ^ present;
        if differ == 0 {
            return;
        }
        let matched = self.key.matched_slots(&self.given, col, before, present);
        let pieces = self.given.pieces(col);
        let top = column_top(pieces, present);
        // A piece's cell depends only on the pieces present at its slot and below (see
        // [`Columns::settle`]), so the pieces below the lowest one that came or went have not
        // moved. In a column given packed, the pieces present are packed at its bottom, those
        // below that piece under the others: only the rows from `from_row` (the higher of the
        // two tops) down to that piece's row change (a piece gone keeps in its cell the row it
        // was on). In a column given with a gap, a piece above can fall past it.
        let lowest = 63 - differ.leading_zeros() as usize;
        let packed = self.given.packed(col);
        let (to_row, mut on_board) = if packed {
            (usize::from(position.cell(pieces[lowest]).0), present & (u64::MAX >> (63 - lowest)))
        } else {
            (usize::from(self.given.board_rows()), present)
        };
        let width = self.given.width();
        let bytes = !self.layout.kind_bytes.is_empty() && !self.cells_on_demand;
        // In a column given packed, the pieces of `on_board` fill the rows up to `to_row` (the
        // lowest of them is on it, or fell onto it when the piece there went), so only the rows
        // above them are emptied; the others are written once, below. The highest of them is
        // the column's top (`on_board` holds every piece present above the lowest change), so
        // the rows emptied end below the top's row, found without counting the pieces (the
        // baseline x86-64 target has no `popcnt`).
        let empty_to = if !packed || on_board == 0 { to_row + 1 } else { usize::from(position.cell(top).0) };
        for row in from_row..empty_to {
            self.layout.empty((row, col), width, bytes);
        }
        while on_board != 0 {
            let piece = pieces[on_board.trailing_zeros() as usize];
            on_board &= on_board - 1;
            let row = usize::from(position.cell(piece).0);
            self.layout.place(position.piece_kinds(), piece, (row, col), width, bytes);
        }
        self.layout.set_top(position.piece_kinds(), col, top);
        self.key.set(pieces, col, matched);
    }

    /// The key and its hash once pieces `a` and `b` of `position` are gone, before anything
    /// falls (see [`Key::hash_without`]).
    pub(super) fn hash_without(
        &self,
        position: &Position,
        a: u16,
        b: u16,
        keys: &mut Vec<u64>,
    ) -> (u64, [(usize, u64, u64); 2]) {
        self.key.hash_without(&self.given, &self.present, position, (a, b), keys)
    }

    /// Lays out column `col` for the pieces of `position` present (gravity): the pieces below the
    /// lowest piece removed stay where they were given; the ones above it rest on each other, on
    /// the piece below it or the bottom row.
    pub(super) fn settle(&mut self, position: &mut Position, col: u8) {
        let pieces = self.given.pieces(col as usize);
        // The rows of the board (bits) holding a piece of this column, and its pieces present
        // (see [`Columns::present_slots`]), bottom up: the pieces up to the first one gone stay
        // on the rows they were given, the ones above rest on the piece below them.
        let (mut held, mut present) = (0u64, 0u64);
        let (mut next_row, mut given) = (self.given.board_rows(), true);
        for (slot, &piece) in pieces.iter().enumerate().rev() {
            if !position.is_present(piece) {
                given = false;
                continue;
            }
            let row = if given { self.given.home_row(piece) } else { next_row };
            position.set_row(piece, row);
            held |= 1 << row;
            present |= 1 << slot;
            next_row = row - 1;
        }
        // Only the board's cells of the column change (the ring keeps its bits); the rows whose
        // cell flips flip too.
        let board = span(1, u32::from(self.given.board_rows()));
        let before = position.bits().cols()[col as usize];
        let after = before & !board | board & !held;
        position.bits_mut().set_column(col as usize, after);
        // The highest row held before or after.
        let from_row = ((!before | !after) & board).trailing_zeros() as usize;
        self.canonize(position, col as usize, present, from_row);
    }

    /// Lays out the columns of `pieces` (on `cells`, the cells they were removed from) after
    /// they were removed from `position` or put back, as [`Columns::settle`] does: a column given
    /// packed from the slots that changed alone ([`Columns::settle_packed`]) once the columns are
    /// set up.
    #[inline(never)]
    pub(super) fn settle_pieces(&mut self, position: &mut Position, pieces: [u16; 2], cells: [Cell; 2]) {
        let [a_col, b_col] = cells.map(|(_, col)| col);
        if !self.key.ready() {
            self.settle(position, a_col);
            if b_col != a_col {
                self.settle(position, b_col);
            }
            return;
        }
        let [a_slot, b_slot] = pieces.map(|piece| 1u64 << self.given.slot(piece));
        if a_col == b_col {
            self.settle_packed(position, a_col, a_slot | b_slot);
        } else {
            self.settle_packed(position, a_col, a_slot);
            self.settle_packed(position, b_col, b_slot);
        }
    }

    /// Lays out column `col` once the pieces of the slots `toggled` (one or two, see
    /// [`Columns::present`]) were all removed or all put back, when it was given packed (else
    /// [`Columns::settle`]): that and [`Columns::canonize`] in one, with only the pieces at and
    /// above the lowest slot toggled visited, not every piece of the column.
    ///
    /// The pieces present lie packed at the column's bottom in the order given, so those below
    /// the lowest slot toggled stay, and those at and above it stack up from its row: the row of
    /// that piece now (a removal), or the row it was removed from, which its cell keeps while it
    /// is gone (putting back undoes the last removal from the column, so the pieces below are
    /// where they were then). The rows that change hands are the one or two above the top of
    /// the shorter stack. (Inlined into [`Columns::settle_pieces`], its only caller, where the
    /// slots toggled are known to be one or two.)
    #[inline(always)]
    fn settle_packed(&mut self, position: &mut Position, col: u8, toggled: u64) {
        let col = usize::from(col);
        if !self.given.packed(col) {
            self.settle(position, col as u8);
            return;
        }
        let width = self.given.width();
        let before = self.present[col];
        let present = before ^ toggled;
        let removal = before & toggled != 0;
        let matched = self.key.matched_slots(&self.given, col, before, present);
        self.present[col] = present;
        let pieces = self.given.pieces(col);
        let bytes = !self.layout.kind_bytes.is_empty() && !self.cells_on_demand;
        let lowest = 63 - toggled.leading_zeros() as usize;
        let mut row = usize::from(position.cell(pieces[lowest]).0);
        // The pieces present at and above the lowest slot toggled, bottom up (slots count from
        // the top).
        let mut stacked = present & (u64::MAX >> (63 - lowest));
        while stacked != 0 {
            let slot = 63 - stacked.leading_zeros() as usize;
            stacked ^= 1 << slot;
            let piece = pieces[slot];
            position.set_row(piece, row as u8);
            self.layout.place(position.piece_kinds(), piece, (row, col), width, bytes);
            row -= 1;
        }
        // `row` is now the lowest open row of the column (the ring's when it is full): the one
        // or two rows a removal opened end on it, and those the pieces put back took (written
        // above) begin just below it.
        let count = if toggled.is_power_of_two() { 1 } else { 2 };
        let first = if removal { row + 1 - count } else { row + 1 };
        position.bits_mut().flip_column(col, first, count, |flipped| {
            if removal {
                self.layout.empty((flipped, col), width, bytes);
            }
        });
        let top = column_top(pieces, present);
        self.layout.set_top(position.piece_kinds(), col, top);
        self.key.set(pieces, col, matched);
        #[cfg(debug_assertions)]
        self.check_settled(position, col);
    }

    /// Checks that column `col` is laid out as [`Columns::settle`] lays it out from the pieces of
    /// `position` present: their cells, the column's open cells along it and across the rows,
    /// its cells in the grid of pieces, and its pieces present and top. It walks the column
    /// itself rather than calling [`Columns::settle`]: an independent check of the one layout,
    /// so that a fault in the layout is not copied into its check.
    #[cfg(debug_assertions)]
    fn check_settled(&self, position: &Position, col: usize) {
        let pieces = self.given.pieces(col);
        let (last, width) = (usize::from(self.given.board_rows()), self.given.width());
        let mut held = vec![NO_PIECE; last + 1];
        let (mut present, mut next_row, mut given) = (0u64, self.given.board_rows(), true);
        for (slot, &piece) in pieces.iter().enumerate().rev() {
            if !position.is_present(piece) {
                given = false;
                continue;
            }
            let row = if given { self.given.home_row(piece) } else { next_row };
            assert_eq!(position.cell(piece).0, row, "piece {piece} lies where it falls");
            held[usize::from(row)] = piece;
            present |= 1 << slot;
            next_row = row - 1;
        }
        let bits = position.bits();
        for (row, &piece) in held.iter().enumerate().skip(1) {
            let open = piece == NO_PIECE;
            assert_eq!(bits.cols()[col] >> row & 1 == 1, open, "column {col} row {row} open");
            assert_eq!(bits.rows()[row] >> col & 1 == 1, open, "row {row} column {col} open");
            assert_eq!(self.layout.grid[row * width + col], piece, "the grid at ({row}, {col})");
        }
        assert_eq!(self.present[col], present, "the pieces present in column {col}");
        let top = column_top(pieces, present);
        assert_eq!(self.layout.top[col], top, "the top of column {col}");
    }
}

impl Layout {
    /// Writes `piece` (`kind`: the kind of each piece) on `row` of column `col` of the grid of
    /// pieces (`width` columns), and with `bytes` of the grid of kinds too. (Inlined: both
    /// layouts call it for every piece they move.)
    #[inline(always)]
    fn place(&mut self, kind: &[u32], piece: u16, (row, col): (usize, usize), width: usize, bytes: bool) {
        self.grid[row * width + col] = piece;
        if bytes {
            let kind = kind[piece as usize];
            let (word, shift) = (col / 8, col % 8 * 8);
            let eight = &mut self.kind_bytes[row * self.row_words + word];
            *eight = *eight & !(0xFF << shift) | u64::from(kind) << shift;
        }
    }

    /// Empties `row` of column `col` in the grid of pieces (`width` columns), and with `bytes`
    /// in the grid of kinds too. (Inlined, as [`Layout::place`].)
    #[inline(always)]
    fn empty(&mut self, (row, col): (usize, usize), width: usize, bytes: bool) {
        self.grid[row * width + col] = NO_PIECE;
        if bytes {
            self.kind_bytes[row * self.row_words + col / 8] |= 0xFF << (col % 8 * 8);
        }
    }

    /// Makes `top` (a piece, or [`NO_PIECE`]) the top of column `col`, with the tops per kind
    /// (`kind`: the kind of each piece). (Inlined: `Columns::settle_packed` calls it at every
    /// removal and undo, and the call cost more than the work.)
    #[inline(always)]
    fn set_top(&mut self, kind: &[u32], col: usize, top: u16) {
        let was = std::mem::replace(&mut self.top[col], top);
        if was != top {
            for (piece, step) in [(was, u16::MAX), (top, 1)] {
                if piece != NO_PIECE {
                    let k = kind[piece as usize] as usize;
                    let tops = self.tops_of_kind[k].wrapping_add(step);
                    self.tops_of_kind[k] = tops;
                    let bit = 1 << (k % 64);
                    self.paired_tops[k / 64] =
                        (self.paired_tops[k / 64] & !bit) | (bit * u64::from(tops >= 2));
                }
            }
        }
    }
}

/// The top of a column whose pieces are `pieces` (as given, top first) and of which the slots
/// `present` are on the board: its highest piece present, or [`NO_PIECE`].
fn column_top(pieces: &[u16], present: u64) -> u16 {
    if present == 0 { NO_PIECE } else { pieces[present.trailing_zeros() as usize] }
}
