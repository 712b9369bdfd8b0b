//! The columns with gravity: their tops, their grids and the canonical key of the board, laid out
//! again after each removal and its undo (see [`Columns`]).

use super::{Cell, GravitySearch, NO_KIND, mix, span};

/// No piece (an empty column's top).
pub(in crate::clear) const NO_PIECE: u16 = u16::MAX;

/// A piece's kind and its index among the pieces of its kind (in `members`) in one `u16`: the kind
/// times 64 plus the index ([`Columns::code`]). Held only when every kind has at most 64 pieces and
/// the kinds are fewer than [`NO_KIND`], so both fit (kind below 255, index below 64).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(in crate::clear) struct Code(u16);

const _: () = assert!((NO_KIND as usize) << 6 <= u16::MAX as usize, "a kind and an index in a code");

impl Code {
    /// Piece number `slot` of kind `kind`.
    #[inline(always)]
    pub(in crate::clear) fn new(kind: u32, slot: u8) -> Code {
        debug_assert!(kind < u32::from(NO_KIND) && slot < 64, "a code's kind or index out of range");
        Code((kind << 6) as u16 | u16::from(slot))
    }

    /// The kind.
    #[inline(always)]
    pub(in crate::clear) fn kind(self) -> usize {
        usize::from(self.0 >> 6) & 255
    }

    /// The index among the pieces of the kind.
    #[inline(always)]
    pub(in crate::clear) fn slot(self) -> u32 {
        u32::from(self.0 & 63)
    }
}

/// What [`GravitySearch::settle_packed`] and [`GravitySearch::settle`] keep up to date with
/// gravity, column by column, so that a position costs work only in the columns a removal touched.
/// Invariants (once [`GravitySearch::init_columns`] ran): `top[c]` is the highest piece on the
/// board in framed column `c` ([`NO_PIECE`] when none); `tops_of_kind[k]` is the number of columns
/// whose top piece is of kind `k`; `key` is the canonical set of pieces of the board (see the
/// [module documentation](self)), one bit per piece; `hash` is the XOR of `zobrist[p]` over the
/// pieces `p` of `key`.
#[derive(Debug, Default)]
pub(in crate::clear) struct Columns {
    /// Per framed column: its pieces were given packed at its bottom.
    pub(in crate::clear) packed: Vec<bool>,
    pub(in crate::clear) top: Vec<u16>,
    /// Per framed column: its pieces in `key` (bit `slot` for `column[column_start[c] + slot]`).
    pub(in crate::clear) matched: Vec<u64>,
    /// Per framed column: its pieces on the board (the same bits).
    pub(in crate::clear) present: Vec<u64>,
    /// Per piece: its slot in its column (`column[column_start[c] + slot]`).
    pub(in crate::clear) slot: Vec<u8>,
    /// Per piece of `column`, in its order: the slots of its column holding a piece of its kind
    /// (bit `slot` as in `matched`), so that the greedy match of [`GravitySearch::canonical_slots`]
    /// finds a kind's next slot down with one mask.
    pub(in crate::clear) same_kind: Vec<u64>,
    pub(in crate::clear) key: Vec<u64>,
    pub(in crate::clear) hash: u64,
    /// A pseudo-random word per piece.
    pub(in crate::clear) zobrist: Vec<u64>,
    /// Per kind: its pieces on top of a column.
    pub(in crate::clear) tops_of_kind: Vec<u16>,
    /// Bit `k % 64` of word `k / 64`: kind `k` has two or more pieces on top of a column (the
    /// kinds that may be all on top: a kind on the board has an even number of pieces left).
    pub(in crate::clear) paired_tops: Vec<u64>,
    /// Per framed cell (row-major): the piece on it, or [`NO_PIECE`].
    pub(in crate::clear) grid: Vec<u16>,
    /// Per framed row, [`Columns::row_words`] words: byte `c % 8` of word `c / 8` is the kind of
    /// the piece on the cell of column `c`, or [`NO_KIND`] (empty cells, the ring, the bytes beyond
    /// the last column); held only when [`Columns::code`] is (every kind fits a byte then), and up
    /// to date only as [`Columns::cells_on_demand`] says. Eight cells a word find the pieces side
    /// by side of one kind in a few operations ([`side_by_side`](super::pairs::side_by_side)).
    pub(in crate::clear) kind_bytes: Vec<u64>,
    /// Words per framed row in [`Columns::kind_bytes`].
    pub(in crate::clear) row_words: usize,
    /// Per piece: its [`Code`], when every kind has at most 64 pieces; else empty (the pairs are
    /// then found kind by kind). A piece with an open side is bucketed by kind through the grid
    /// of pieces and this: the grid of pieces is the only layout of the cells with their pieces.
    pub(in crate::clear) code: Vec<Code>,
    /// [`Columns::kind_bytes`] is not kept up to date by
    /// [`GravitySearch::settle_packed`] and [`GravitySearch::settle`] but laid out from `grid` when
    /// [`GravitySearch::find_pairs_by_cells`] needs them: when pairs are found incrementally, only the
    /// first position of a round does, and keeping them at every removal and undo cost more than
    /// laying them out once a round.
    pub(in crate::clear) cells_on_demand: bool,
    /// Per framed column: for each removal from it not undone yet, oldest first, its pieces
    /// present and in the key before (`present`, `matched`), so that an undo, which brings back
    /// exactly those pieces, takes its key's slots back rather than matching them again.
    pub(in crate::clear) restore: Vec<Vec<(u64, u64)>>,
    /// Per column of the branch about to be played (column, pieces present after, their slots
    /// in the key), as [`GravitySearch::hash_without`] found them, for its removal to take. The slots
    /// in the key depend only on the column and its pieces present, so an entry matching both
    /// is right whenever it is taken; a stale one is just not taken.
    pub(in crate::clear) foreseen: [(usize, u64, u64); 2],
}

impl Columns {
    /// Writes `piece` (`kind`: the kind of each piece) on `row` of column `col` of the grid of
    /// pieces (`width` columns), and with `bytes` of the grid of kinds too. (Inlined: both
    /// layouts call it for every piece they move.)
    #[inline(always)]
    pub(in crate::clear) fn place(
        &mut self,
        kind: &[u32],
        piece: u16,
        (row, col): (usize, usize),
        width: usize,
        bytes: bool,
    ) {
        self.grid[row * width + col] = piece;
        if bytes {
            let kind = kind[piece as usize];
            let (word, shift) = (col / 8, col % 8 * 8);
            let eight = &mut self.kind_bytes[row * self.row_words + word];
            *eight = *eight & !(0xFF << shift) | u64::from(kind) << shift;
        }
    }

    /// Empties `row` of column `col` in the grid of pieces (`width` columns), and with `bytes`
    /// in the grid of kinds too. (Inlined, as
    /// [`Columns::place`].)
    #[inline(always)]
    pub(in crate::clear) fn empty(&mut self, (row, col): (usize, usize), width: usize, bytes: bool) {
        self.grid[row * width + col] = NO_PIECE;
        if bytes {
            self.kind_bytes[row * self.row_words + col / 8] |= 0xFF << (col % 8 * 8);
        }
    }

    /// Makes `top` (a piece, or [`NO_PIECE`]) the top of column `col`, with the tops per kind
    /// (`kind`: the kind of each piece). (Inlined: [`GravitySearch::settle_packed`] calls it at every
    /// removal and undo, and the call cost more than the work.)
    #[inline(always)]
    pub(in crate::clear) fn set_top(&mut self, kind: &[u32], col: usize, top: u16) {
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

    /// Makes `matched` the pieces of column `col` (`pieces`, as given) in the key
    /// ([`Columns::matched`]), flipping in the key and the hash only the pieces whose bit
    /// changes. (Inlined, as [`Columns::set_top`].)
    #[inline(always)]
    pub(in crate::clear) fn set_matched(&mut self, pieces: &[u16], col: usize, matched: u64) {
        let mut changed = matched ^ self.matched[col];
        self.matched[col] = matched;
        while changed != 0 {
            let piece = pieces[changed.trailing_zeros() as usize] as usize;
            changed &= changed - 1;
            self.key[piece / 64] ^= 1 << (piece % 64);
            self.hash ^= self.zobrist[piece];
        }
    }
}

/// The top of a column whose pieces are `pieces` (as given, top first) and of which the slots
/// `present` are on the board: its highest piece present, or [`NO_PIECE`].
pub(in crate::clear) fn column_top(pieces: &[u16], present: u64) -> u16 {
    if present == 0 { NO_PIECE } else { pieces[present.trailing_zeros() as usize] }
}

impl GravitySearch {
    /// Per framed column: its pieces were given packed at its bottom.
    pub(in crate::clear) fn packed_columns(&self) -> Vec<bool> {
        let width = self.given.column_start.len() - 1;
        (0..width)
            .map(|col| {
                let pieces =
                    &self.given.column[self.given.column_start[col]..self.given.column_start[col + 1]];
                pieces.iter().rev().enumerate().all(|(below, &piece)| {
                    usize::from(self.given.home_row[piece as usize]) + below
                        == usize::from(self.position.board_rows)
                })
            })
            .collect()
    }

    /// [`Columns::same_kind`] for the board as given.
    pub(in crate::clear) fn same_kind_slots(&self) -> Vec<u64> {
        let width = self.given.column_start.len() - 1;
        let mut same_kind = Vec::with_capacity(self.given.column.len());
        for col in 0..width {
            let pieces = &self.given.column[self.given.column_start[col]..self.given.column_start[col + 1]];
            for &piece in pieces {
                let kind = self.position.kind[piece as usize];
                same_kind.push(pieces.iter().enumerate().fold(0u64, |slots, (slot, &other)| {
                    slots | u64::from(self.position.kind[other as usize] == kind) << slot
                }));
            }
        }
        same_kind
    }

    /// Sets up [`Columns`] for the board as it is (every column laid out already).
    pub(in crate::clear) fn init_columns(&mut self) {
        let width = self.given.column_start.len() - 1;
        self.columns = Columns {
            packed: self.packed_columns(),
            top: vec![NO_PIECE; width],
            matched: vec![0; width],
            present: vec![0; width],
            slot: (0..self.position.cell.len())
                .map(|piece| {
                    let col = self.position.cell[piece].1 as usize;
                    let pieces =
                        &self.given.column[self.given.column_start[col]..self.given.column_start[col + 1]];
                    pieces.iter().position(|&p| p as usize == piece).expect("in its column") as u8
                })
                .collect(),
            same_kind: self.same_kind_slots(),
            key: vec![0; self.position.present.len()],
            hash: 0,
            zobrist: (0..self.position.cell.len() as u64).map(|piece| mix(piece ^ 0x5EED)).collect(),
            tops_of_kind: vec![0; self.position.left.len()],
            paired_tops: vec![0; self.position.left.len().div_ceil(64)],
            grid: vec![NO_PIECE; (usize::from(self.position.board_rows) + 2) * width],
            kind_bytes: Vec::new(),
            row_words: width.div_ceil(8),
            code: Vec::new(),
            cells_on_demand: false,
            restore: vec![Vec::new(); width],
            foreseen: [(usize::MAX, 0, 0); 2],
        };
        let position = &self.position;
        let kinds = position.left.len();
        if kinds < usize::from(NO_KIND) && (0..kinds).all(|k| position.members_of(k).len() <= 64) {
            let mut code = vec![Code::default(); position.cell.len()];
            for k in 0..kinds {
                for (slot, &piece) in position.members_of(k).iter().enumerate() {
                    code[piece as usize] = Code::new(k as u32, slot as u8);
                }
            }
            self.columns.code = code;
            self.columns.kind_bytes =
                vec![u64::MAX; (usize::from(self.position.board_rows) + 2) * self.columns.row_words];
        }
        for col in 0..width {
            self.canonize(col, self.present_slots(col), 1);
        }
    }

    /// Lays out [`Columns::kind_bytes`] from the grid of pieces (see
    /// [`Columns::cells_on_demand`]).
    pub(in crate::clear) fn lay_out_kinds(&mut self) {
        let width = self.given.column_start.len() - 1;
        let columns = &mut self.columns;
        columns.kind_bytes.fill(u64::MAX);
        for row in 0..columns.grid.len() / width {
            for col in 0..width {
                let piece = columns.grid[row * width + col];
                if piece != NO_PIECE {
                    columns.place(&self.position.kind, piece, (row, col), width, true);
                }
            }
        }
    }

    /// Bit `slot` set for each piece `column[column_start[col] + slot]` on the board.
    pub(in crate::clear) fn present_slots(&self, col: usize) -> u64 {
        let pieces = &self.given.column[self.given.column_start[col]..self.given.column_start[col + 1]];
        pieces
            .iter()
            .enumerate()
            .fold(0, |slots, (slot, &piece)| slots | u64::from(self.position.is_present(piece)) << slot)
    }

    /// Brings [`Columns`] up to date for column `col` from its pieces on the board (`present`,
    /// see [`GravitySearch::present_slots`]): its top, its cells in the grids, and its pieces in the
    /// key ([`GravitySearch::canonical_slots`]); only the pieces whose bit changes are touched in the
    /// key and the hash. The rows above `from_row` are empty before and after.
    pub(in crate::clear) fn canonize(&mut self, col: usize, present: u64, from_row: usize) {
        if self.columns.zobrist.is_empty() {
            return;
        }
        let before = std::mem::replace(&mut self.columns.present[col], present);
        let differ = before ^ present;
        if differ == 0 {
            return;
        }
        let matched = self.matched_slots(col, before, present);
        let pieces = &self.given.column[self.given.column_start[col]..self.given.column_start[col + 1]];
        let top = column_top(pieces, present);
        // A piece's cell depends only on the pieces present at its slot and below (see
        // [`GravitySearch::settle`]), so the pieces below the lowest one that came or went have not
        // moved. In a column given packed, the pieces present are packed at its bottom, those
        // below that piece under the others: only the rows from `from_row` (the higher of the
        // two tops) down to that piece's row change (a piece gone keeps in `cell` the row it
        // was on). In a column given with a gap, a piece above can fall past it.
        let lowest = 63 - differ.leading_zeros() as usize;
        let (to_row, mut on_board) = if self.columns.packed[col] {
            (
                usize::from(self.position.cell[pieces[lowest] as usize].0),
                present & (u64::MAX >> (63 - lowest)),
            )
        } else {
            (usize::from(self.position.board_rows), present)
        };
        let width = self.given.column_start.len() - 1;
        let bytes = !self.columns.kind_bytes.is_empty() && !self.columns.cells_on_demand;
        // In a column given packed, the pieces of `on_board` fill the rows up to `to_row` (the
        // lowest of them is on it, or fell onto it when the piece there went), so only the rows
        // above them are emptied; the others are written once, below. The highest of them is
        // the column's top (`on_board` holds every piece present above the lowest change), so
        // the rows emptied end below the top's row, found without counting the pieces (the
        // baseline x86-64 target has no `popcnt`).
        let empty_to = if !self.columns.packed[col] || on_board == 0 {
            to_row + 1
        } else {
            usize::from(self.position.cell[top as usize].0)
        };
        for row in from_row..empty_to {
            self.columns.empty((row, col), width, bytes);
        }
        while on_board != 0 {
            let piece = pieces[on_board.trailing_zeros() as usize];
            on_board &= on_board - 1;
            let row = usize::from(self.position.cell[piece as usize].0);
            self.columns.place(&self.position.kind, piece, (row, col), width, bytes);
        }
        self.columns.set_top(&self.position.kind, col, top);
        self.columns.set_matched(pieces, col, matched);
    }

    /// [`GravitySearch::canonical_slots`] of column `col` going from the pieces `before` to `present`
    /// (not the same), taken from [`Columns::restore`] on an undo or [`Columns::foreseen`] on a
    /// removal when there, else found.
    pub(in crate::clear) fn matched_slots(&mut self, col: usize, before: u64, present: u64) -> u64 {
        let columns = &mut self.columns;
        let matched = if before & !present == 0 {
            // Pieces only came back: an undo of the last removal from the column, unless the
            // column was laid out otherwise since (then its entry does not match).
            match columns.restore[col].last() {
                Some(&(was, matched)) if was == present => {
                    columns.restore[col].pop();
                    matched
                }
                _ => self.canonical_slots(col, present),
            }
        } else {
            if present & !before == 0 {
                columns.restore[col].push((before, columns.matched[col]));
            }
            match columns.foreseen {
                [(at, after, matched), _] | [_, (at, after, matched)] if at == col && after == present => {
                    matched
                }
                _ => self.canonical_slots(col, present),
            }
        };
        debug_assert_eq!(matched, self.canonical_slots(col, present));
        matched
    }

    /// The key and its hash once pieces `a` and `b` are gone, before anything falls (the key
    /// appended to `keys`), and per column of theirs (the second [`usize::MAX`] when they share
    /// one) its pieces present then and their slots in the key: only the pieces of their
    /// columns in the key can change.
    pub(in crate::clear) fn hash_without(
        &self,
        a: u16,
        b: u16,
        keys: &mut Vec<u64>,
    ) -> (u64, [(usize, u64, u64); 2]) {
        let start = keys.len();
        keys.extend_from_slice(&self.columns.key);
        let key = &mut keys[start..];
        let mut hash = self.columns.hash;
        let (a_col, b_col) =
            (self.position.cell[a as usize].1 as usize, self.position.cell[b as usize].1 as usize);
        let columns = if a_col == b_col { 1 } else { 2 };
        let mut foreseen = [(usize::MAX, 0, 0); 2];
        for (index, col) in [a_col, b_col].into_iter().take(columns).enumerate() {
            let mut present = self.columns.present[col];
            for piece in [a, b] {
                if self.position.cell[piece as usize].1 as usize == col {
                    present &= !(1 << self.columns.slot[piece as usize]);
                }
            }
            let pieces = &self.given.column[self.given.column_start[col]..self.given.column_start[col + 1]];
            let matched = self.canonical_slots(col, present);
            foreseen[index] = (col, present, matched);
            let mut changed = matched ^ self.columns.matched[col];
            while changed != 0 {
                let piece = pieces[changed.trailing_zeros() as usize] as usize;
                changed &= changed - 1;
                key[piece / 64] ^= 1 << (piece % 64);
                hash ^= self.columns.zobrist[piece];
            }
        }
        (hash, foreseen)
    }

    /// The pieces of column `col` in the key when the pieces `present` (see
    /// [`GravitySearch::present_slots`]) are on the board: the sequence of kinds present matched
    /// greedily, bottom up, onto the column's pieces as given when the column was given packed;
    /// the pieces present otherwise.
    pub(in crate::clear) fn canonical_slots(&self, col: usize, present: u64) -> u64 {
        // Bit `slot` of `matched`: the piece `column[column_start[col] + slot]` is in the key.
        let mut matched = present;
        if self.columns.packed[col] && present != 0 {
            let same_kind =
                &self.columns.same_kind[self.given.column_start[col]..self.given.column_start[col + 1]];
            // The pieces present from the bottom up to the first one gone match themselves;
            // `next` is the first slot not matched yet (slots count from the top; a column holds
            // at most [`super::MAX_SIDE`] pieces, and at least one here).
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

    /// Lays out column `col` for the pieces present (gravity): the pieces below the lowest
    /// piece removed stay where they were given; the ones above it rest on each other, on the
    /// piece below it or the bottom row.
    pub(in crate::clear) fn settle(&mut self, col: u8) {
        let pieces = &self.given.column
            [self.given.column_start[col as usize]..self.given.column_start[col as usize + 1]];
        let (cell, home_row, on_board) =
            (&mut self.position.cell, &self.given.home_row, &self.position.present);
        // The rows of the board (bits) holding a piece of this column, and its pieces present
        // (see [`GravitySearch::present_slots`]), bottom up: the pieces up to the first one gone stay
        // on the rows they were given, the ones above rest on the piece below them.
        let (mut held, mut present) = (0u64, 0u64);
        let (mut next_row, mut given) = (self.position.board_rows, true);
        for (slot, &piece) in pieces.iter().enumerate().rev() {
            let piece = usize::from(piece);
            if on_board[piece / 64] >> (piece % 64) & 1 == 0 {
                given = false;
                continue;
            }
            let row = if given { home_row[piece] } else { next_row };
            cell[piece].0 = row;
            held |= 1 << row;
            present |= 1 << slot;
            next_row = row - 1;
        }
        // Only the board's cells of the column change (the ring keeps its bits); the rows whose
        // cell flips flip too.
        let board = span(1, u32::from(self.position.board_rows));
        let before = self.position.bits.cols[col as usize];
        let after = before & !board | board & !held;
        self.position.bits.cols[col as usize] = after;
        let mut flipped = before ^ after;
        while flipped != 0 {
            let row = flipped.trailing_zeros() as usize;
            self.position.bits.rows[row] ^= 1 << col;
            flipped &= flipped - 1;
        }
        // The highest row held before or after.
        let from_row = ((!before | !after) & board).trailing_zeros() as usize;
        self.canonize(col as usize, present, from_row);
    }

    /// Lays out the columns of `pieces` (on `cells`, the cells they were removed from) after
    /// they were removed or put back, as [`GravitySearch::settle`] does: a column given packed from
    /// the slots that changed alone ([`GravitySearch::settle_packed`]) once [`Columns`] is set up.
    #[inline(never)]
    pub(in crate::clear) fn settle_pieces(&mut self, pieces: [u16; 2], cells: [Cell; 2]) {
        let [a_col, b_col] = cells.map(|(_, col)| col);
        if self.columns.zobrist.is_empty() {
            self.settle(a_col);
            if b_col != a_col {
                self.settle(b_col);
            }
            return;
        }
        let [a_slot, b_slot] = pieces.map(|piece| 1u64 << self.columns.slot[piece as usize]);
        if a_col == b_col {
            self.settle_packed(a_col, a_slot | b_slot);
        } else {
            self.settle_packed(a_col, a_slot);
            self.settle_packed(b_col, b_slot);
        }
    }

    /// Lays out column `col` once the pieces of the slots `toggled` (one or two, see
    /// [`Columns::matched`]) were all removed or all put back, when it was given packed (else
    /// [`GravitySearch::settle`]): that and [`GravitySearch::canonize`] in one, with only the
    /// pieces at and above the lowest slot toggled visited, not every piece of the column.
    ///
    /// The pieces present lie packed at the column's bottom in the order given, so those below
    /// the lowest slot toggled stay, and those at and above it stack up from its row: the row of
    /// that piece now (a removal), or the row it was removed from, which its cell keeps while it
    /// is gone (putting back undoes the last removal from the column, so the pieces below are
    /// where they were then). The rows that change hands are the one or two above the top of
    /// the shorter stack. (Inlined into [`GravitySearch::settle_pieces`], its only caller, where the
    /// slots toggled are known to be one or two.)
    #[inline(always)]
    pub(in crate::clear) fn settle_packed(&mut self, col: u8, toggled: u64) {
        let col = usize::from(col);
        if !self.columns.packed[col] {
            self.settle(col as u8);
            return;
        }
        let width = self.given.column_start.len() - 1;
        let before = self.columns.present[col];
        let present = before ^ toggled;
        let removal = before & toggled != 0;
        let matched = self.matched_slots(col, before, present);
        self.columns.present[col] = present;
        let pieces = &self.given.column[self.given.column_start[col]..self.given.column_start[col + 1]];
        let bytes = !self.columns.kind_bytes.is_empty() && !self.columns.cells_on_demand;
        let lowest = 63 - toggled.leading_zeros() as usize;
        let mut row = usize::from(self.position.cell[pieces[lowest] as usize].0);
        // The pieces present at and above the lowest slot toggled, bottom up (slots count from
        // the top).
        let mut stacked = present & (u64::MAX >> (63 - lowest));
        while stacked != 0 {
            let slot = 63 - stacked.leading_zeros() as usize;
            stacked ^= 1 << slot;
            let piece = pieces[slot];
            self.position.cell[piece as usize].0 = row as u8;
            self.columns.place(&self.position.kind, piece, (row, col), width, bytes);
            row -= 1;
        }
        // `row` is now the lowest open row of the column (the ring's when it is full): the one
        // or two rows a removal opened end on it, and those the pieces put back took (written
        // above) begin just below it.
        let count = if toggled.is_power_of_two() { 1 } else { 2 };
        let first = if removal { row + 1 - count } else { row + 1 };
        self.position.bits.cols[col] ^= span(first as u32, (first + count - 1) as u32);
        for flipped in first..first + count {
            self.position.bits.rows[flipped] ^= 1 << col;
            if removal {
                self.columns.empty((flipped, col), width, bytes);
            }
        }
        let top = column_top(pieces, present);
        self.columns.set_top(&self.position.kind, col, top);
        self.columns.set_matched(pieces, col, matched);
        #[cfg(debug_assertions)]
        self.check_settled(col);
    }

    /// Checks that column `col` is laid out as [`GravitySearch::settle`] lays it out from the pieces
    /// present: their cells, the column's open cells along it and across the rows, its cells in
    /// the grid of pieces, and its pieces present and top in [`Columns`].
    /// It walks the column itself rather than calling [`GravitySearch::settle`]: an independent check
    /// of the one layout, so that a fault in the layout is not copied into its check.
    #[cfg(debug_assertions)]
    pub(in crate::clear) fn check_settled(&self, col: usize) {
        let pieces = &self.given.column[self.given.column_start[col]..self.given.column_start[col + 1]];
        let (last, width) = (usize::from(self.position.board_rows), self.given.column_start.len() - 1);
        let mut held = vec![NO_PIECE; last + 1];
        let (mut present, mut next_row, mut given) = (0u64, self.position.board_rows, true);
        for (slot, &piece) in pieces.iter().enumerate().rev() {
            if !self.position.is_present(piece) {
                given = false;
                continue;
            }
            let row = if given { self.given.home_row[piece as usize] } else { next_row };
            assert_eq!(self.position.cell[piece as usize].0, row, "piece {piece} lies where it falls");
            held[usize::from(row)] = piece;
            present |= 1 << slot;
            next_row = row - 1;
        }
        for (row, &piece) in held.iter().enumerate().skip(1) {
            let open = piece == NO_PIECE;
            assert_eq!(self.position.bits.cols[col] >> row & 1 == 1, open, "column {col} row {row} open");
            assert_eq!(self.position.bits.rows[row] >> col & 1 == 1, open, "row {row} column {col} open");
            assert_eq!(self.columns.grid[row * width + col], piece, "the grid at ({row}, {col})");
        }
        assert_eq!(self.columns.present[col], present, "the pieces present in column {col}");
        let top = column_top(pieces, present);
        assert_eq!(self.columns.top[col], top, "the top of column {col}");
    }
}
