//! The joinable pairs of the positions with gravity ([`Pairs`]): found from scratch on the
//! grids, or brought up to date from the parent's (see [`Pairs::update`]).

use super::columns::{Columns, NO_PIECE};
use super::given::Given;
use super::grid::{bucket_open_pieces, side_by_side};
use crate::clear::bits::{Bits, Cell, Reach, reach, span};
use crate::clear::meter::{Meter, OutOfBudget};
use crate::clear::position::Position;

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
/// a shape check costs two runs and a walk between the rows, and on a full deal many of the
/// pairs a position looks at have a sunk piece.
pub(super) fn sunk_joinable(lines_down: &[u64], last: usize, sunk: Cell, other: Cell) -> bool {
    let touching = sunk.0.abs_diff(other.0) + sunk.1.abs_diff(other.1) == 1;
    touching || span(u32::from(other.0) + 1, last as u32) & !lines_down[other.1 as usize] == 0
}

/// The joinable pairs of the positions on the search path with gravity, and the scratch that
/// finds them.
///
/// Invariants: `list` holds the pairs of each position on the search path from the mark its
/// [`Parent`] names, each pair low piece first; `open_of_kind` is all 0 between uses; `dirty`
/// is only scratch.
pub(super) struct Pairs {
    /// The joinable pairs of the positions on the search path (each pair low piece first, in
    /// no particular order), each position's from a mark ([`Parent`]).
    list: Vec<(u16, u16)>,
    /// The cells holding a piece with an open side ([`Pairs::find_exposed`]), a word per
    /// framed row.
    exposed: Vec<u64>,
    /// Every column was given packed, the lines turn at most once, or twice with the ring
    /// open, and every kind has at most 64 pieces: a position's pairs are then found from its
    /// parent's ([`Pairs::update`]).
    incremental: bool,
    /// Scratch for [`Pairs::update`]: one bit per piece (laid out anew at each use;
    /// [`MAX_SIDE`](crate::clear::bits::MAX_SIDE)² pieces fit in 64 words, so a word index masked
    /// to 63 needs no bounds check), and the pieces whose pairs are found again.
    dirty: Box<[u64; 64]>,
    dirty_pieces: Vec<u16>,
    /// Scratch for [`Pairs::find_by_cells`]: per kind (fewer than 256 when it is used), its
    /// pieces with an open side and those of them sunk (see [`sunk_joinable`]; bits of the index
    /// in the kind of [`Columns::code`]; all 0 between uses). Fixed sizes, indexed by masked
    /// numbers, need no bounds checks.
    open_of_kind: Box<[(u64, u64); 256]>,
    /// Scratch for [`Pairs::push_open_pairs_of_kind`]: per piece with an open side and not sunk,
    /// of a kind with two or more such pieces, by its index among the pieces of its kind
    /// ([`Columns::code`]): the cells its row and its column reach from it over open cells (as
    /// masks along them; see [`reach`]), and its row and column.
    reach: Box<[Reach; 64]>,
}

/// Where a position's parent on the search path keeps what [`Pairs::update`] needs.
#[derive(Debug, Clone, Copy)]
pub(super) struct Parent {
    /// Its joinable pairs: `list[pairs_from..pairs_end]`.
    pairs_from: usize,
    pairs_end: usize,
    /// The length of the removals made at its board (after its safe moves).
    order_end: usize,
}

impl Pairs {
    /// No pairs yet; found from the parent's when `incremental` (see [`Pairs::incremental`]).
    pub(super) fn new(incremental: bool) -> Pairs {
        Pairs {
            list: Vec::new(),
            exposed: Vec::new(),
            incremental,
            dirty: Box::new([0; 64]),
            dirty_pieces: Vec::new(),
            open_of_kind: Box::new([(0, 0); 256]),
            reach: Box::new([(0, 0, (0, 0)); 64]),
        }
    }

    /// Finds the pairs from their parent's when `incremental` (see [`Pairs::incremental`]).
    pub(super) fn set_incremental(&mut self, incremental: bool) {
        self.incremental = incremental;
    }

    /// The pairs of the positions on the search path.
    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        self.list.len()
    }

    /// The pairs found from `from` on.
    #[inline(always)]
    pub(super) fn since(&self, from: usize) -> &[(u16, u16)] {
        &self.list[from..]
    }

    /// Drops the pairs from `len` on (the search leaves the positions they belong to).
    #[inline(always)]
    pub(super) fn truncate(&mut self, len: usize) {
        self.list.truncate(len);
    }

    /// The position whose pairs begin at `pairs_from`, its board after the removals up to
    /// `order_end`, as the parent of the positions below it.
    pub(super) fn parent(&self, pairs_from: usize, order_end: usize) -> Parent {
        Parent { pairs_from, pairs_end: self.list.len(), order_end }
    }

    /// Pushes onto the list the joinable pairs of the position of `position` (laid out in
    /// `columns`; the cells exposed found, [`Pairs::find_exposed`]): brought up to date from
    /// `parent`'s when found incrementally and there is a parent, else found from scratch.
    /// Returns the work left to charge, a unit per pair found; the floods of lines of more than
    /// two turns are charged on `meter` as they are made, kind by kind ([`Meter::check_cost`]
    /// each), stopping once the budget is spent.
    pub(super) fn find(
        &mut self,
        position: &Position,
        columns: &mut Columns,
        parent: Option<Parent>,
        meter: &mut Meter,
    ) -> Result<u64, OutOfBudget> {
        let pairs_from = self.list.len();
        match parent {
            Some(parent) if self.incremental => {
                self.update(position, columns, parent);
                #[cfg(debug_assertions)]
                self.check(position, columns, pairs_from, &mut Meter::new(u64::MAX, meter.check_cost()));
            }
            _ => self.find_by_cells(position, columns, meter)?,
        }
        Ok((self.list.len() - pairs_from) as u64)
    }

    /// The cells holding a piece with an open side ([`Pairs::find_exposed`]), a word per framed
    /// row.
    pub(super) fn exposed(&self) -> &[u64] {
        &self.exposed
    }

    /// Fills `exposed` with the cells of the board that hold a piece with an open cell beside it
    /// (above, below, left or right), one word per framed row: a line leaves a piece through
    /// such a cell, unless it joins two pieces side by side.
    pub(super) fn find_exposed(&mut self, position: &Position, given: &Given) {
        let rows = position.bits().rows();
        let height = rows.len();
        // The board's columns, without the ring.
        let inner = span(1, (given.width() - 2) as u32);
        // The first and last rows (the ring) stay 0: the board's height does not change.
        self.exposed.resize(height, 0);
        for (exposed, near) in self.exposed[1..].iter_mut().zip(rows.windows(3)) {
            let open = near[1];
            let beside = open << 1 | open >> 1 | near[0] | near[2];
            *exposed = !open & beside & inner;
        }
    }

    /// The sunk pieces (see [`sunk_joinable`]): those of the bottom row open only on the ring
    /// below (`exposed` must be up to date); none unless lines have two turns.
    fn sunk_row(&self, position: &Position, given: &Given) -> u64 {
        let last = usize::from(given.board_rows());
        if position.max_turns() != 2 {
            return 0;
        }
        let rows = position.bits().rows();
        let open = rows[last];
        self.exposed[last] & !(open << 1 | open >> 1 | rows[last - 1])
    }

    /// Pushes onto the list every joinable pair of the board, from the pieces with an open side,
    /// bucketed by kind, and the pairs side by side found on the grid of kinds (for kinds of at
    /// most 64 pieces, see [`Columns::code`]), in no particular order.
    fn find_by_cells(
        &mut self,
        position: &Position,
        columns: &mut Columns,
        meter: &mut Meter,
    ) -> Result<(), OutOfBudget> {
        if columns.cells_on_demand() {
            columns.lay_out_kinds(position);
        }
        let given = columns.given();
        let width = given.width();
        let last = usize::from(given.board_rows());
        let sunk_row = self.sunk_row(position, given);
        // The kinds with an open piece (bit `k % 64` of word `k / 64`; set without a test, so no
        // branch mispredicts on it; the pairs are sorted afterwards, so the order the kinds are
        // visited in does not matter). With at most 64 kinds the kinds seen stay in one word.
        let (grid, code) = (&columns.grid()[..(last + 1) * width], columns.code());
        let kinds_seen = if position.kinds() <= 64 {
            let [word] = bucket_open_pieces::<1>(&self.exposed, grid, code, width, &mut self.open_of_kind);
            [word, 0, 0, 0]
        } else {
            bucket_open_pieces::<4>(&self.exposed, grid, code, width, &mut self.open_of_kind)
        };
        // The sunk pieces, all on the bottom row: a few of the pieces bucketed.
        let mut sunk_cells = sunk_row;
        while sunk_cells != 0 {
            let col = sunk_cells.trailing_zeros() as usize;
            sunk_cells &= sunk_cells - 1;
            let code = code[usize::from(grid[last * width + col])];
            self.open_of_kind[code.kind()].1 |= 1 << code.slot();
        }
        for (word, mut seen) in kinds_seen.into_iter().enumerate() {
            while seen != 0 {
                let k = word * 64 + seen.trailing_zeros() as usize;
                seen &= seen - 1;
                let (open, sunk) = std::mem::take(&mut self.open_of_kind[k & 255]);
                let floods = self.push_open_pairs_of_kind(position, last, k, open, sunk);
                if !meter.spend(floods * meter.check_cost()) {
                    // The scratch is left as between uses.
                    self.open_of_kind.fill((0, 0));
                    return Err(OutOfBudget);
                }
            }
        }
        // Pairs side by side with a piece shut in (pairs of two open pieces are found above).
        let exposed = &self.exposed;
        let is_open = |at: usize| exposed[at / width] >> (at % width) & 1 == 1;
        let (words, grid, kind_bytes) = (columns.row_words(), columns.grid(), columns.kind_bytes());
        for row in 1..=last {
            let (here_row, below_row) = kind_bytes[row * words..(row + 2) * words].split_at(words);
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
                            let (a, b) = (grid[at], grid[beside]);
                            self.list.push((a.min(b), a.max(b)));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Pushes onto the list the joinable pairs of kind `k` (of at most 64 pieces) whose two
    /// pieces have an open side: those of `open` (bits of the index in the kind,
    /// [`Columns::code`]), of which `sunk` are sunk (see [`sunk_joinable`]; `last`: the board's
    /// last row). Returns the floods made (the checks of lines of more than two turns).
    fn push_open_pairs_of_kind(
        &mut self,
        position: &Position,
        last: usize,
        k: usize,
        mut open: u64,
        sunk: u64,
    ) -> u64 {
        // Fewer than two pieces (no bit count: the baseline x86-64 target has no `popcnt`).
        if open & open.wrapping_sub(1) == 0 {
            return 0;
        }
        let mut floods = 0;
        let max_turns = position.max_turns();
        let (lines_across, lines_down) = (position.bits().rows(), position.bits().cols());
        let members = position.members_of(k);
        // With at most two turns, a pair is joined by a shape along the rows or the columns
        // ([`Bits::joinable`]); the runs of each piece are found once, not per pair, and only
        // for pieces not sunk, in a kind with two or more of them.
        let roomy = open & !sunk;
        if max_turns <= 2 && roomy & roomy.wrapping_sub(1) != 0 {
            let mut each = roomy;
            while each != 0 {
                let slot = each.trailing_zeros() as usize;
                each &= each - 1;
                self.reach[slot & 63] = reach_of(position, members[slot]);
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
                    sunk_joinable(lines_down, last, position.cell(a), position.cell(b))
                } else if max_turns <= 2 {
                    let (a, b) = (self.reach[first & 63], self.reach[second & 63]);
                    Bits::reaches_joined(lines_across, lines_down, a, b, max_turns)
                } else {
                    floods += 1;
                    position.pieces_joinable(pair.0, pair.1)
                };
                debug_assert_eq!(joined, position.pieces_joinable(pair.0, pair.1));
                if joined {
                    self.list.push((pair.0.min(pair.1), pair.0.max(pair.1)));
                }
            }
        }
        floods
    }
    /// Brings the joinable pairs of the position the search came from (`parent`; the list from
    /// `parent.pairs_from` on) up to date for this one, onto the end of the list (in no
    /// particular order), when [`Pairs::incremental`] holds.
    ///
    /// Why only a few pieces need a look: every column was given packed, so its pieces stay
    /// packed at its bottom, and the removals since the parent (the removals made from
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
    /// (Not inlined into its only caller: the caller's loops stay small.)
    #[inline(never)]
    fn update(&mut self, position: &Position, columns: &Columns, parent: Parent) {
        let given = columns.given();
        let (width, last) = (given.width(), usize::from(given.board_rows()));
        mark_dirty(position, columns, &mut self.dirty, &mut self.dirty_pieces, parent.order_end);
        let is_stale =
            |stale: &[u64; 64], piece: u16| stale[piece as usize / 64 % 64] >> (piece % 64) & 1 == 1;
        for index in parent.pairs_from..parent.pairs_end {
            let (a, b) = self.list[index];
            if !is_stale(&self.dirty, a) && !is_stale(&self.dirty, b) {
                self.list.push((a, b));
            }
        }
        // Each dirty piece with each other piece of its kind, a pair of two dirty pieces once:
        // `dirty` now marks the pieces gone and the dirty pieces already done.
        for (done, &present) in self.dirty.iter_mut().zip(position.present()) {
            *done = !present;
        }
        let sunk_row = self.sunk_row(position, given);
        let exposed = &self.exposed;
        let is_open = |(row, col): Cell| exposed[row as usize] >> col & 1 == 1;
        let is_sunk = |(row, col): Cell| usize::from(row) == last && sunk_row >> col & 1 == 1;
        for &piece in &self.dirty_pieces {
            // Done from here on, so that the stale bit alone skips it among its kind.
            self.dirty[piece as usize / 64 % 64] |= 1 << (piece % 64);
            let k = position.kind(piece);
            let at = position.cell(piece);
            if is_open(at) {
                let piece_sunk = is_sunk(at);
                for &other in position.members_of(k) {
                    if is_stale(&self.dirty, other) {
                        continue;
                    }
                    let other_at = position.cell(other);
                    let joined = if is_open(other_at) {
                        open_pair_joined(position, last, (piece, piece_sunk), (other, is_sunk(other_at)))
                    } else {
                        at.0.abs_diff(other_at.0) + at.1.abs_diff(other_at.1) == 1
                    };
                    debug_assert_eq!(joined, position.pieces_joinable(piece, other));
                    if joined {
                        self.list.push((piece.min(other), piece.max(other)));
                    }
                }
            } else {
                // Shut in: joined only to the pieces of its kind beside it.
                let cell = usize::from(at.0) * width + usize::from(at.1);
                for beside in [cell - width, cell - 1, cell + 1, cell + width] {
                    let other = columns.grid()[beside];
                    if other == NO_PIECE || position.kind(other) != k || is_stale(&self.dirty, other) {
                        continue;
                    }
                    debug_assert!(position.pieces_joinable(piece, other));
                    self.list.push((piece.min(other), piece.max(other)));
                }
            }
        }
    }

    /// Checks that the pairs found from the parent's (the list from `pairs_from` on) are those
    /// found from scratch. It leaves the search as it found it: the list gets back its length,
    /// and the grid of kinds it lays out is, when pairs are brought up to date
    /// ([`Columns::cells_on_demand`]), laid out again before every other read.
    #[cfg(debug_assertions)]
    fn check(&mut self, position: &Position, columns: &mut Columns, pairs_from: usize, meter: &mut Meter) {
        let found_end = self.list.len();
        self.find_by_cells(position, columns, meter).expect("an unbounded meter");
        let mut fresh = self.list.split_off(found_end);
        let mut updated = self.list[pairs_from..].to_vec();
        fresh.sort_unstable();
        updated.sort_unstable();
        assert_eq!(updated, fresh, "the pairs brought up to date are the pairs of the board");
    }
}

/// The pieces whose pairs [`Pairs::update`] finds again, after the removals from `order_end` on:
/// those that fell or came on top in a column a removal touched, and the first piece each way
/// along the row of each cell opened. Each is pushed once onto `dirty_pieces`, and its bit set
/// in `dirty` over those of the pieces gone, so that one bit tells which of the parent's pairs
/// stay.
#[inline(always)]
fn mark_dirty(
    position: &Position,
    columns: &Columns,
    dirty: &mut [u64; 64],
    dirty_pieces: &mut Vec<u16>,
    order_end: usize,
) {
    let given = columns.given();
    let (width, last) = (given.width(), usize::from(given.board_rows()));
    let (grid, bits) = (columns.grid(), position.bits());
    // Per framed column: the pieces removed from it, and the lowest row one was removed from.
    let mut removed = [(0u8, 0u8); 64];
    let mut columns_changed = 0u64;
    for step in &position.order()[order_end..] {
        for (row, col) in step.cells() {
            let entry = &mut removed[col as usize & 63];
            entry.0 += 1;
            entry.1 = entry.1.max(row);
            columns_changed |= 1 << (col & 63);
        }
    }
    for (stale, &present) in dirty.iter_mut().zip(position.present()) {
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
        let held = !bits.cols()[col] & board;
        let top_row = if held == 0 { last + 1 } else { held.trailing_zeros() as usize };
        // The pieces that may have moved, and the new top (it sees the cells opened above it).
        for row in top_row..=usize::from(lowest).max(top_row).min(last) {
            let piece = grid[row * width + col];
            if piece != NO_PIECE {
                mark(piece);
            }
        }
        // The first piece along each opened cell's row, each way.
        for row in top_row - usize::from(count)..top_row {
            let closed = !bits.rows()[row];
            let before = closed & ((1 << col) - 1);
            let after = closed & (u64::MAX << col << 1);
            let left = before.checked_ilog2().map_or(usize::MAX, |col| col as usize);
            for beside in [left, after.trailing_zeros() as usize] {
                if (1..width - 1).contains(&beside) {
                    let piece = grid[row * width + beside];
                    debug_assert_ne!(piece, NO_PIECE, "a closed cell of the board holds a piece");
                    mark(piece);
                }
            }
        }
    }
}

/// Whether a line joins two pieces of a kind with an open side each (and whether each is sunk,
/// see [`sunk_joinable`]; `last`: the board's last row): [`Pairs::push_open_pairs_of_kind`] for
/// one pair.
fn open_pair_joined(
    position: &Position,
    last: usize,
    (a, a_sunk): (u16, bool),
    (b, b_sunk): (u16, bool),
) -> bool {
    let (a_at, b_at) = (position.cell(a), position.cell(b));
    let (lines_across, lines_down) = (position.bits().rows(), position.bits().cols());
    if a_sunk || b_sunk {
        let (sunk, other) = if a_sunk { (a_at, b_at) } else { (b_at, a_at) };
        return sunk_joinable(lines_down, last, sunk, other);
    }
    let max_turns = position.max_turns();
    if max_turns > 2 {
        return position.pieces_joinable(a, b);
    }
    // As [`Bits::reaches_joined`], the runs along the columns found only when needed.
    let ((a_row, a_col), (b_row, b_col)) =
        ((u32::from(a_at.0), u32::from(a_at.1)), (u32::from(b_at.0), u32::from(b_at.1)));
    let (a_across, b_across) =
        (reach(lines_across[a_row as usize], a_col), reach(lines_across[b_row as usize], b_col));
    Bits::shape_of_reaches(lines_down, (a_row, a_col, a_across), (b_row, b_col, b_across), max_turns) || {
        let (a_down, b_down) =
            (reach(lines_down[a_col as usize], a_row), reach(lines_down[b_col as usize], b_row));
        Bits::shape_of_reaches(lines_across, (a_col, a_row, a_down), (b_col, b_row, b_down), max_turns)
    }
}

/// The [`Reach`] of `piece` on the board of `position` as it is.
fn reach_of(position: &Position, piece: u16) -> Reach {
    let (row, col) = position.cell(piece);
    let bits = position.bits();
    (
        reach(bits.rows()[row as usize], u32::from(col)),
        reach(bits.cols()[col as usize], u32::from(row)),
        (u32::from(row), u32::from(col)),
    )
}
