//! The joinable pairs of a position with gravity: found from scratch on the grids, or brought up
//! to date from the parent's (see [`GravitySearch::update_pairs`]).

use super::{Bits, Branch, Cell, Code, Gravity, GravitySearch, NO_PIECE, Parent, Reach, reach, span};

/// No kind (an empty cell of [`Columns::kind_bytes`](super::columns::Columns::kind_bytes)).
pub(in crate::clear) const NO_KIND: u8 = u8::MAX;

/// Bytes 0x01 of a word, and bytes 0x7F.
pub(in crate::clear) const LOW_BYTES: u64 = u64::MAX / 255;
pub(in crate::clear) const LOW_SEVEN: u64 = LOW_BYTES * 0x7F;

/// The high bit of each byte of `word` that is zero (exactly: no carry crosses a byte).
pub(in crate::clear) fn zero_bytes(word: u64) -> u64 {
    !((word & LOW_SEVEN).wrapping_add(LOW_SEVEN) | word | LOW_SEVEN)
}

/// For eight cells of a row of [`Columns::kind_bytes`](super::columns::Columns::kind_bytes)
/// (`here`, followed on the row by `next`) and the eight below them (`below`): the high bit of byte
/// `i` of the first word when cell `i` holds a piece of the kind of the cell on its right, of the
/// second when of the kind of the cell below it.
pub(in crate::clear) fn side_by_side(here: u64, next: u64, below: u64) -> (u64, u64) {
    let held = !zero_bytes(!here) & LOW_BYTES << 7;
    let right = here >> 8 | next << 56;
    (zero_bytes(here ^ right) & held, zero_bytes(here ^ below) & held)
}

/// Adds each piece with an open side (`exposed`, a word per framed row; the rows from 1 up to those
/// `grid` holds, as [`Columns::grid`](super::columns::Columns::grid)) to the first mask of its
/// kind's bucket in `open_of_kind` (the bit of its index in its kind, from its [`Code`] in `code`),
/// and returns the kinds met, bit `k % 64` of word `k / 64`, in `WORDS` words (enough for every
/// kind: at most 256).
pub(in crate::clear) fn bucket_open_pieces<const WORDS: usize>(
    exposed: &[u64],
    grid: &[u16],
    code: &[Code],
    width: usize,
    open_of_kind: &mut [(u64, u64); 256],
) -> [u64; WORDS] {
    let mut kinds_seen = [0u64; WORDS];
    for (row, row_pieces) in grid.chunks_exact(width).enumerate().skip(1) {
        let mut open = exposed[row];
        while open != 0 {
            let col = open.trailing_zeros() as usize;
            open &= open - 1;
            let code = code[usize::from(row_pieces[col])];
            let k = code.kind();
            kinds_seen[k / 64 % WORDS] |= 1 << (k % 64);
            open_of_kind[k].0 |= 1 << code.slot();
        }
    }
    kinds_seen
}

/// Whether a line of at most two turns joins a *sunk* piece on `sunk` (a piece of the board's
/// bottom row, `last`, whose only open neighbour is the ring below it, so the outside is open)
/// to a piece on `other`, given the columns' open cells `lines_down`: exactly when they touch,
/// or every cell of `other`'s column below it is open. A line that does not join touching
/// pieces leaves the sunk piece through the ring below it, so its first segment is that one
/// cell (the frame ends below); it turns along the ring (one turn: nothing to reach there) and
/// turns again up a column, the only way on, all open along the ring; the third segment runs
/// up that column over open cells and must end on the other piece. So the other piece is in
/// that column with only open cells below it: with columns packed at their bottom (as gravity
/// keeps them once laid out), it lies on the bottom row itself. The check costs a mask, where
/// a shape check costs two runs and a walk between the rows: a standard deal has about fifteen
/// sunk pieces, and more than half the pairs a position looks at have one.
pub(in crate::clear) fn sunk_joinable(lines_down: &[u64], last: usize, sunk: Cell, other: Cell) -> bool {
    let touching = sunk.0.abs_diff(other.0) + sunk.1.abs_diff(other.1) == 1;
    touching || span(u32::from(other.0) + 1, last as u32) & !lines_down[other.1 as usize] == 0
}

impl GravitySearch {
    /// Fills `state.exposed` with the cells of the board that hold a piece with an open cell
    /// beside it (above, below, left or right), one word per framed row: a line leaves a piece
    /// through such a cell, unless it joins two pieces side by side.
    pub(in crate::clear) fn find_exposed(&self, state: &mut Gravity) {
        let rows = &self.position.bits.rows;
        let height = rows.len();
        // The board's columns, without the ring.
        let inner = span(1, (self.given.column_start.len() - 3) as u32);
        // The first and last rows (the ring) stay 0: the board's height does not change.
        state.exposed.resize(height, 0);
        for (exposed, near) in state.exposed[1..].iter_mut().zip(rows.windows(3)) {
            let open = near[1];
            let beside = open << 1 | open >> 1 | near[0] | near[2];
            *exposed = !open & beside & inner;
        }
    }

    /// The sunk pieces (see [`sunk_joinable`]): those of the bottom row open only on the ring
    /// below (`state.exposed` must be up to date); none unless lines have two turns.
    pub(in crate::clear) fn sunk_row(&self, state: &Gravity) -> u64 {
        let last = usize::from(self.position.board_rows);
        if self.position.max_turns != 2 {
            return 0;
        }
        let open = self.position.bits.rows[last];
        state.exposed[last] & !(open << 1 | open >> 1 | self.position.bits.rows[last - 1])
    }

    /// Pushes onto `state.pairs` every joinable pair of the board, from the pieces with an open
    /// side, bucketed by kind, and the pairs side by side found on the grid of kinds (for kinds
    /// of at most 64 pieces, see [`Columns::code`](super::columns::Columns::code)), in no particular order.
    pub(in crate::clear) fn find_pairs_by_cells(&mut self, state: &mut Gravity) {
        if self.columns.cells_on_demand {
            self.lay_out_kinds();
        }
        let width = self.given.column_start.len() - 1;
        let last = usize::from(self.position.board_rows);
        let sunk_row = self.sunk_row(state);
        // The kinds with an open piece (bit `k % 64` of word `k / 64`; set without a test, so no
        // branch mispredicts on it; the pairs are sorted afterwards, so the order the kinds are
        // visited in does not matter). With at most 64 kinds the kinds seen stay in one word.
        let (grid, code) = (&self.columns.grid[..(last + 1) * width], &self.columns.code[..]);
        let kinds_seen = if self.position.left.len() <= 64 {
            let [word] = bucket_open_pieces::<1>(&state.exposed, grid, code, width, &mut state.open_of_kind);
            [word, 0, 0, 0]
        } else {
            bucket_open_pieces::<4>(&state.exposed, grid, code, width, &mut state.open_of_kind)
        };
        // The sunk pieces, all on the bottom row: a few of the pieces bucketed.
        let mut sunk_cells = sunk_row;
        while sunk_cells != 0 {
            let col = sunk_cells.trailing_zeros() as usize;
            sunk_cells &= sunk_cells - 1;
            let code = code[usize::from(grid[last * width + col])];
            state.open_of_kind[code.kind()].1 |= 1 << code.slot();
        }
        for (word, mut seen) in kinds_seen.into_iter().enumerate() {
            while seen != 0 {
                let k = word * 64 + seen.trailing_zeros() as usize;
                seen &= seen - 1;
                let (open, sunk) = std::mem::take(&mut state.open_of_kind[k & 255]);
                self.push_open_pairs_of_kind(state, k, open, sunk);
            }
        }
        // Pairs side by side with a piece shut in (pairs of two open pieces are found above).
        let columns = &self.columns;
        let is_open = |at: usize| state.exposed[at / width] >> (at % width) & 1 == 1;
        let words = columns.row_words;
        for row in 1..=last {
            let (here_row, below_row) = columns.kind_bytes[row * words..(row + 2) * words].split_at(words);
            for (word, (&here, &below)) in here_row.iter().zip(below_row).enumerate() {
                let next = here_row.get(word + 1).copied().unwrap_or(u64::MAX);
                let (right, down) = side_by_side(here, next, below);
                for (mut found, step) in [(right, 1), (down, width)] {
                    while found != 0 {
                        let at = row * width + word * 8 + found.trailing_zeros() as usize / 8;
                        found &= found - 1;
                        let beside = at + step;
                        if !(is_open(at) && is_open(beside)) {
                            // Pieces side by side are always joined (a line of no turn).
                            let (a, b) = (columns.grid[at], columns.grid[beside]);
                            state.pairs.push((a.min(b), a.max(b)));
                        }
                    }
                }
            }
        }
    }

    /// Pushes onto `state.pairs` the joinable pairs of kind `k` (of at most 64 pieces) whose two
    /// pieces have an open side: those of `open` (bits of the index in the kind,
    /// [`Columns::code`](super::columns::Columns::code)), of which `sunk` are sunk (see [`sunk_joinable`]).
    pub(in crate::clear) fn push_open_pairs_of_kind(
        &self,
        state: &mut Gravity,
        k: usize,
        mut open: u64,
        sunk: u64,
    ) {
        // Fewer than two pieces (no bit count: see [`GravitySearch::canonize`]).
        if open & open.wrapping_sub(1) == 0 {
            return;
        }
        let max_turns = self.position.max_turns;
        let (lines_across, lines_down) = (&self.position.bits.rows, &self.position.bits.cols);
        let last = usize::from(self.position.board_rows);
        let members = &self.position.members[self.position.start[k]..];
        // With at most two turns, a pair is joined by a shape along the rows or the columns
        // ([`super::Bits::joinable`]); the runs of each piece are found once, not per pair, and
        // only for pieces not sunk, in a kind with two or more of them.
        let roomy = open & !sunk;
        if max_turns <= 2 && roomy & roomy.wrapping_sub(1) != 0 {
            let mut each = roomy;
            while each != 0 {
                let slot = each.trailing_zeros() as usize;
                each &= each - 1;
                state.reach[slot & 63] = self.reach_of(members[slot]);
            }
        }
        while open != 0 {
            let first = open.trailing_zeros() as usize;
            open &= open - 1;
            let mut rest = open;
            while rest != 0 {
                let second = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let pair = (members[first], members[second]);
                let joined = if (sunk >> first | sunk >> second) & 1 == 1 {
                    let (a, b) = if sunk >> first & 1 == 1 { pair } else { (pair.1, pair.0) };
                    sunk_joinable(
                        lines_down,
                        last,
                        self.position.cell[a as usize],
                        self.position.cell[b as usize],
                    )
                } else if max_turns <= 2 {
                    Bits::reaches_joined(
                        lines_across,
                        lines_down,
                        state.reach[first & 63],
                        state.reach[second & 63],
                        max_turns,
                    )
                } else {
                    self.position.pieces_joinable(pair.0, pair.1)
                };
                debug_assert_eq!(joined, self.position.pieces_joinable(pair.0, pair.1));
                if joined {
                    state.pairs.push((pair.0.min(pair.1), pair.0.max(pair.1)));
                }
            }
        }
    }

    /// Brings the joinable pairs of the position the search came from (`parent`; `state.pairs`
    /// from `parent.pairs_from` on) up to date for this one, onto the end of `state.pairs` (in
    /// no particular order), when [`Gravity::incremental`] holds.
    ///
    /// Why only a few pieces need a look: every column was given packed, so its pieces stay
    /// packed at its bottom, and the removals since the parent (those of `self.position.order` from
    /// `parent.order_end` on) only open cells: the top cells of each column they took pieces
    /// from. So a line open at the parent is still open, and a pair of pieces that did not
    /// move is still joined if it was. A pair joined now and not then, of two pieces that did
    /// not move, has a line through an opened cell. If a straight end of the line (from a piece
    /// to its first turn, or the whole line) holds it, that piece sees the opened cell along a
    /// row or a column over open cells. Else the middle segment holds it: along the opened
    /// cell's column, its lower end is an opened cell (the cells below it hold pieces) and a
    /// piece sees it along a row; along the opened cell's row, the two turns lie above the tops
    /// of their columns (nothing open lies below a piece), each reached from that top, so both
    /// pieces are tops of columns, and tops are joined with each other at the parent too,
    /// through the ring above the board (the lines may go outside, and turn twice). So only the
    /// pieces that moved (those of a column with a piece removed, at or above the lowest row a
    /// piece was removed from) and the pieces that see an opened cell (the new top of its
    /// column, and the first piece along its row each way) can gain or lose pairs: their pairs
    /// are found again, and the pairs of two other pieces are the parent's with both pieces
    /// left. (A removed piece's pairs go with it; a sunk piece that stops being sunk sees the
    /// opened cell beside it.)
    ///
    /// (Not inlined into [`GravitySearch::gravity`], its only caller: the caller's loops stay small.)
    #[inline(never)]
    pub(in crate::clear) fn update_pairs(&mut self, state: &mut Gravity, parent: Parent) {
        let width = self.given.column_start.len() - 1;
        let last = usize::from(self.position.board_rows);
        self.mark_dirty(&mut state.dirty, &mut state.dirty_pieces, parent.order_end);
        let is_stale =
            |stale: &[u64; 64], piece: u16| stale[piece as usize / 64 % 64] >> (piece % 64) & 1 == 1;
        for index in parent.pairs_from..parent.pairs_end {
            let (a, b) = state.pairs[index];
            if !is_stale(&state.dirty, a) && !is_stale(&state.dirty, b) {
                state.pairs.push((a, b));
            }
        }
        // Each dirty piece with each other piece of its kind, a pair of two dirty pieces once:
        // `dirty` now marks the pieces gone and the dirty pieces already done.
        for (done, &present) in state.dirty.iter_mut().zip(&self.position.present) {
            *done = !present;
        }
        let sunk_row = self.sunk_row(state);
        let is_open = |(row, col): Cell| state.exposed[row as usize] >> col & 1 == 1;
        let is_sunk = |(row, col): Cell| usize::from(row) == last && sunk_row >> col & 1 == 1;
        for &piece in &state.dirty_pieces {
            // Done from here on, so that the stale bit alone skips it among its kind.
            state.dirty[piece as usize / 64 % 64] |= 1 << (piece % 64);
            let k = self.position.kind[piece as usize] as usize;
            let at = self.position.cell[piece as usize];
            if is_open(at) {
                let piece_sunk = is_sunk(at);
                for &other in self.position.members_of(k) {
                    if is_stale(&state.dirty, other) {
                        continue;
                    }
                    let other_at = self.position.cell[other as usize];
                    let joined = if is_open(other_at) {
                        self.open_pair_joined((piece, piece_sunk), (other, is_sunk(other_at)))
                    } else {
                        at.0.abs_diff(other_at.0) + at.1.abs_diff(other_at.1) == 1
                    };
                    debug_assert_eq!(joined, self.position.pieces_joinable(piece, other));
                    if joined {
                        state.pairs.push((piece.min(other), piece.max(other)));
                    }
                }
            } else {
                // Shut in: joined only to the pieces of its kind beside it.
                let cell = usize::from(at.0) * width + usize::from(at.1);
                for beside in [cell - width, cell - 1, cell + 1, cell + width] {
                    let other = self.columns.grid[beside];
                    if other == NO_PIECE
                        || self.position.kind[other as usize] as usize != k
                        || is_stale(&state.dirty, other)
                    {
                        continue;
                    }
                    debug_assert!(self.position.pieces_joinable(piece, other));
                    state.pairs.push((piece.min(other), piece.max(other)));
                }
            }
        }
    }

    /// The pieces whose pairs [`GravitySearch::update_pairs`] finds again, after the removals
    /// `order[order_end..]`: those that fell or came on top in a column a removal touched, and
    /// the first piece each way along the row of each cell opened. Each is pushed once onto
    /// `dirty_pieces`, and its bit set in `dirty` over those of the pieces gone, so that one bit
    /// tells which of the parent's pairs stay.
    #[inline(always)]
    fn mark_dirty(&self, dirty: &mut [u64; 64], dirty_pieces: &mut Vec<u16>, order_end: usize) {
        let width = self.given.column_start.len() - 1;
        let last = usize::from(self.position.board_rows);
        // Per framed column: the pieces removed from it, and the lowest row one was removed from.
        let mut removed = [(0u8, 0u8); 64];
        let mut columns_changed = 0u64;
        for step in &self.position.order[order_end..] {
            for (row, col) in step.at {
                let entry = &mut removed[col as usize & 63];
                entry.0 += 1;
                entry.1 = entry.1.max(row);
                columns_changed |= 1 << (col & 63);
            }
        }
        for (stale, &present) in dirty.iter_mut().zip(&self.position.present) {
            *stale = !present;
        }
        dirty_pieces.clear();
        let mut mark = |piece: u16| {
            let word = &mut dirty[piece as usize / 64 % 64];
            if *word >> (piece % 64) & 1 == 0 {
                *word |= 1 << (piece % 64);
                dirty_pieces.push(piece);
            }
        };
        let board = span(1, last as u32);
        while columns_changed != 0 {
            let col = columns_changed.trailing_zeros() as usize;
            columns_changed &= columns_changed - 1;
            let (count, lowest) = removed[col];
            // The column's top row now (`last + 1` when it is empty).
            let held = !self.position.bits.cols[col] & board;
            let top_row = if held == 0 { last + 1 } else { held.trailing_zeros() as usize };
            // The pieces that may have moved, and the new top (it sees the cells opened above it).
            for row in top_row..=usize::from(lowest).max(top_row).min(last) {
                let piece = self.columns.grid[row * width + col];
                if piece != NO_PIECE {
                    mark(piece);
                }
            }
            // The first piece along each opened cell's row, each way.
            for row in top_row - usize::from(count)..top_row {
                let closed = !self.position.bits.rows[row];
                let before = closed & ((1 << col) - 1);
                let after = closed & (u64::MAX << col << 1);
                let left = before.checked_ilog2().map_or(usize::MAX, |col| col as usize);
                for beside in [left, after.trailing_zeros() as usize] {
                    if (1..width - 1).contains(&beside) {
                        let piece = self.columns.grid[row * width + beside];
                        debug_assert_ne!(piece, NO_PIECE, "a closed cell of the board holds a piece");
                        mark(piece);
                    }
                }
            }
        }
    }

    /// Whether a line joins two pieces of a kind with an open side each (and whether each is
    /// sunk, see [`sunk_joinable`]): [`GravitySearch::push_open_pairs_of_kind`] for one pair.
    pub(in crate::clear) fn open_pair_joined(
        &self,
        (a, a_sunk): (u16, bool),
        (b, b_sunk): (u16, bool),
    ) -> bool {
        let (a_at, b_at) = (self.position.cell[a as usize], self.position.cell[b as usize]);
        let (lines_across, lines_down) = (&self.position.bits.rows, &self.position.bits.cols);
        if a_sunk || b_sunk {
            let (sunk, other) = if a_sunk { (a_at, b_at) } else { (b_at, a_at) };
            return sunk_joinable(lines_down, usize::from(self.position.board_rows), sunk, other);
        }
        if self.position.max_turns > 2 {
            return self.position.pieces_joinable(a, b);
        }
        // As [`Bits::reaches_joined`], the runs along the columns found only when needed.
        let ((a_row, a_col), (b_row, b_col)) =
            ((u32::from(a_at.0), u32::from(a_at.1)), (u32::from(b_at.0), u32::from(b_at.1)));
        let (a_across, b_across) =
            (reach(lines_across[a_row as usize], a_col), reach(lines_across[b_row as usize], b_col));
        let max_turns = self.position.max_turns;
        Bits::shape_of_reaches(lines_down, (a_row, a_col, a_across), (b_row, b_col, b_across), max_turns) || {
            let (a_down, b_down) =
                (reach(lines_down[a_col as usize], a_row), reach(lines_down[b_col as usize], b_row));
            Bits::shape_of_reaches(lines_across, (a_col, a_row, a_down), (b_col, b_row, b_down), max_turns)
        }
    }

    /// The [`Reach`] of `piece` on the board as it is.
    pub(in crate::clear) fn reach_of(&self, piece: u16) -> Reach {
        let (row, col) = self.position.cell[piece as usize];
        (
            reach(self.position.bits.rows[row as usize], u32::from(col)),
            reach(self.position.bits.cols[col as usize], u32::from(row)),
            (u32::from(row), u32::from(col)),
        )
    }

    /// Checks that the pairs found from the parent's (`state.pairs[pairs_from..]`) are those found
    /// from scratch. It leaves the search as it found it: `state.pairs` gets back its length, and
    /// the grid of kinds it lays out is, when pairs are brought up to date
    /// ([`Columns::cells_on_demand`](super::columns::Columns::cells_on_demand)), laid out again
    /// before every other read.
    #[cfg(debug_assertions)]
    pub(in crate::clear) fn check_pairs(&mut self, state: &mut Gravity, pairs_from: usize) {
        let found_end = state.pairs.len();
        self.find_pairs_by_cells(state);
        let mut fresh = state.pairs.split_off(found_end);
        let mut updated = state.pairs[pairs_from..].to_vec();
        fresh.sort_unstable();
        updated.sort_unstable();
        assert_eq!(updated, fresh, "the pairs brought up to date are the pairs of the board");
    }

    /// Pushes every removable pair of the kinds with two or more pieces left as a branch, kind
    /// by kind, each in reading order (`Position::push_pairs` with the lines of pairs with a
    /// piece shut in on all four sides not looked for; `state.exposed` must be up to date), but
    /// not the pairs of `asleep` (the sleep set: they would be skipped). Returns the line checks
    /// made.
    pub(in crate::clear) fn push_open_pairs(&mut self, state: &Gravity, asleep: &[(u16, u16)]) -> u64 {
        let mut branches = std::mem::take(&mut self.position.branches);
        let mut checks = 0;
        for k in 0..self.position.left.len() {
            let left = self.position.left[k];
            if left < 2 {
                continue;
            }
            if left > 4 {
                checks += self.push_all_open_pairs(k, state, asleep, &mut branches);
                continue;
            }
            // The pieces left, in reading order, gathered without a branch per piece; and
            // which of them have an open side (bit i for `live[i]`).
            let (mut live, mut count) = ([0u16; 5], 0);
            for &piece in self.position.members_of(k) {
                live[count] = piece;
                count += usize::from(self.position.is_present(piece));
            }
            let mut cells = [(0u8, 0u8); 4];
            let mut open = 0u32;
            for index in 0..count {
                let (row, col) = self.position.cell[live[index] as usize];
                cells[index] = (row, col);
                open |= ((state.exposed[row as usize] >> col & 1) as u32) << index;
            }
            for first in 0..count {
                for second in first + 1..count {
                    let ((a_row, a_col), (b_row, b_col)) = (cells[first], cells[second]);
                    let touching = a_row.abs_diff(b_row) + a_col.abs_diff(b_col) == 1;
                    let both_open = open >> first & open >> second & 1 == 1;
                    if !(touching || both_open) {
                        continue;
                    }
                    let pair = (live[first], live[second]);
                    if asleep.contains(&pair) {
                        continue;
                    }
                    checks += 1;
                    if self.position.pieces_joinable(pair.0, pair.1) {
                        branches.push(Branch::Remove(pair.0, pair.1));
                    }
                }
            }
        }
        self.position.branches = branches;
        checks
    }

    /// [`GravitySearch::push_open_pairs`] for one kind with any number of pieces left; returns the
    /// line checks made.
    pub(in crate::clear) fn push_all_open_pairs(
        &self,
        k: usize,
        state: &Gravity,
        asleep: &[(u16, u16)],
        branches: &mut Vec<Branch>,
    ) -> u64 {
        let open = |piece: u16| {
            let (row, col) = self.position.cell[piece as usize];
            state.exposed[row as usize] >> col & 1 == 1
        };
        let mut checks = 0;
        for (a, b) in self.position.present_pairs(k) {
            let ((a_row, a_col), (b_row, b_col)) =
                (self.position.cell[a as usize], self.position.cell[b as usize]);
            let touching = a_row.abs_diff(b_row) + a_col.abs_diff(b_col) == 1;
            if (touching || open(a) && open(b)) && !asleep.contains(&(a, b)) {
                checks += 1;
                if self.position.pieces_joinable(a, b) {
                    branches.push(Branch::Remove(a, b));
                }
            }
        }
        checks
    }
}
