//! The search with gravity (see the [module documentation](super)).
//!
//! ## Positions
//! Pieces fall straight down and never pass each other, and what falls after a removal depends
//! only on which cells hold which kinds (the pieces above an emptied cell fall onto the next
//! piece or the bottom row). So the future of a position depends only on its board: which kind
//! lies on which cell, not which piece of the kind. In a column whose pieces were given packed
//! at its bottom (no gap under any piece), the pieces present always stay packed at the bottom,
//! so the column is the sequence of the kinds present, bottom to top; two sets of pieces that
//! leave the same sequence are the same board. The table of hopeless positions is keyed by a
//! canonical set of pieces per packed column: the sequence of kinds present matched greedily,
//! bottom up, onto the column's pieces as given (greedy matching finds a match whenever the
//! sequence is a subsequence of the column, and the same sequence gives the same match).
//! Columns given with a gap keep the pieces present as they are.
//!
//! ## Sleep sets
//! A position from which no order clears the board is *hopeless*, and so is every position
//! reached from it (else the two orders together would clear it). In a column given packed, a
//! removal only empties cells (the pieces left stay packed at the bottom) and moves only the
//! pieces above the ones removed. So when a pair `s` was refuted at a position `P` (`P − s` is
//! hopeless) and another pair `n` is tried there, with no piece in common, the columns of `s`
//! given packed and no piece of `n` above a piece of `s` in its column: after `s`, the pieces
//! of `n` have not moved and every cell open before is still open, so `n` can be removed from
//! `P − s`, and `P − n − s`, the same set of pieces as `P − s − n`, is hopeless. Below `n`, the
//! pair `s` is not tried: it sits in the *sleep set* of `P − n`. The sleep set of a position
//! holds the pairs of its parent's sleep set and the pairs refuted at the parent before it,
//! each kept when it commutes so with the pair removed; the safe moves made on arriving keep
//! only the pairs that commute so with each of them. This saves the work of positions found in
//! the table; the positions counted are the same.
//!
//! A line leaves each of its two pieces through an open cell beside it, unless they touch, so
//! the pairs with a piece shut in on all four sides are not looked at.
//!
//! ## Restarts
//! Most clearable deals fall to the first order of moves in a few hundred positions; the ones
//! that do not tend to lose themselves under an early move that cannot be cleared but takes a
//! long time to refute. The search therefore runs in rounds with budgets that grow as the Luby
//! sequence (1, 1, 2, 1, 1, 2, 4, …) times [`RESTART_UNIT`] positions. Every round tries the
//! pairs that finish their kind first; the first round then goes in reading order, each later
//! round in a pseudo-random order drawn from the board and the round, so the answer is the
//! same on every run. (Trying first the pairs that make the fewest pieces fall, as the search
//! did before, left the rounds little to vary: on the 1,000 standard deals it took 8.0 million
//! positions and left one deal undecided, against 2.7 million and none.) The table of hopeless
//! positions is kept from round to round (a position is entered only once every move from it was
//! refuted, which no order changes), so each round skips what the rounds before proved. A round
//! that ends without running out of its budget is exact: it found a clearing order or refuted every
//! move from the start. The positions of every round count against the one budget of the search.
//!
//! ## Work per position
//! Everything a position needs about its board is kept up to date column by column (`Columns`,
//! whose invariants are written there) as `Search::settle_packed` lays a column out after a removal
//! or its undo, visiting only the pieces at and above the lowest one removed or put back
//! (`Search::settle` lays out a column given with a gap): the column tops and their count per kind
//! (the safe moves above, which look only at the kinds with two or more pieces on top), a grid of
//! pieces, only in the rows that change, and the key of the board with its Zobrist hash, changed
//! only for the pieces whose bit changes (a removal takes the key's slots of its columns from the
//! lookup of its branch, an undo takes back those from before the removal). The first position of a
//! round lays out a grid of kinds of one byte a cell and a grid of codes (kind and index in the
//! kind) from the grid of pieces (kept at every removal only when every position finds its pairs
//! from scratch) and finds its joinable pairs from scratch: those of two pieces with an open side
//! (row masks, bucketed by kind through the grid of codes; a pair with a sunk piece is checked by
//! one mask, `sunk_joinable`) and those side by side with a piece shut in (the grid of kinds, eight
//! cells a word: `side_by_side`). Every other position brings its parent's pairs up to date
//! (`Search::update_pairs`, where the proof is): when every column was given packed, a removal only
//! opens the top cells of its columns, so only the pairs of a piece that fell or that sees an
//! opened cell along a row or a column can change; the others are the parent's. (On deal 76 of the
//! benchmark's set, a position finds again the pairs of about eight pieces: 4.9 that fell or came
//! on top, 3.0 that see an opened cell.) A pair joined is dropped when it is in the sleep set (a
//! position has a few branches, and many more pairs are looked at). Before any branch is played,
//! the key and hash it would leave before anything falls (`Search::hash_without`: the key depends
//! only on which pieces are left) are made for every branch, then looked up in the table of
//! hopeless positions one after the other, so that the lookups' loads are in flight together; a key
//! found there was entered after its safe moves, so it has none, the branch's position is that
//! board, and the branch is refuted without being played. None of this changes which positions are
//! searched or their order.

use super::table::Table;
use super::{Branch, Cell, OutOfBudget, Search, middles, mix, run, span};
use common::search::luby;

/// Positions of the shortest round of the restarts (the unit of the Luby sequence).
pub const RESTART_UNIT: u64 = 1_000;

/// Most 64-bit words the table of hopeless positions holds with gravity (64 MiB): a standard
/// deal's slot takes 4 words, so the table holds 1.9 million positions, nearly every position of
/// the default budget.
pub const MEMO_WORDS: usize = 1 << 23;

/// No piece (an empty column's top).
const NO_PIECE: u16 = u16::MAX;

/// What [`Search::settle_packed`] and [`Search::settle`] keep up to date with gravity, column by
/// column, so that a position costs work only in the columns a removal touched. Invariants (once
/// [`Search::init_columns`] ran): `top[c]` is the highest piece on the board in framed column `c`
/// ([`NO_PIECE`] when none); `tops_of_kind[k]` is the number of columns whose top piece is of kind
/// `k`; `key` is the canonical set of pieces of the board (see the [module documentation](self)),
/// one bit per piece; `hash` is the XOR of `zobrist[p]` over the pieces `p` of `key`.
#[derive(Debug, Default)]
pub(super) struct Columns {
    /// Per framed column: its pieces were given packed at its bottom.
    packed: Vec<bool>,
    top: Vec<u16>,
    /// Per framed column: its pieces in `key` (bit `slot` for `column[column_start[c] + slot]`).
    matched: Vec<u64>,
    /// Per framed column: its pieces on the board (the same bits).
    present: Vec<u64>,
    /// Per piece: its slot in its column (`column[column_start[c] + slot]`).
    slot: Vec<u8>,
    /// Per piece of `column`, in its order: the slots of its column holding a piece of its kind
    /// (bit `slot` as in `matched`), so that the greedy match of [`Search::canonical_slots`]
    /// finds a kind's next slot down with one mask.
    same_kind: Vec<u64>,
    key: Vec<u64>,
    hash: u64,
    /// A pseudo-random word per piece.
    zobrist: Vec<u64>,
    /// Per kind: its pieces on top of a column.
    tops_of_kind: Vec<u16>,
    /// Bit `k % 64` of word `k / 64`: kind `k` has two or more pieces on top of a column (the
    /// kinds that may be all on top: a kind on the board has an even number of pieces left).
    paired_tops: Vec<u64>,
    /// Per framed cell (row-major): the piece on it, or [`NO_PIECE`].
    grid: Vec<u16>,
    /// Per framed row, [`Columns::row_words`] words: byte `c % 8` of word `c / 8` is the kind
    /// of the piece on the cell of column `c`, or [`NO_KIND`] (empty cells, the ring, the bytes
    /// beyond the last column); held only when [`Columns::member_slot`] is (every kind fits a
    /// byte then), and up to date only as [`Columns::cells_on_demand`] says. Eight cells a word
    /// find the pieces side by side of one kind in a few operations ([`side_by_side`]).
    kind_bytes: Vec<u64>,
    /// Words per framed row in [`Columns::kind_bytes`].
    row_words: usize,
    /// Per piece: its index among the pieces of its kind (`members`), when every kind has at
    /// most 64 pieces; else empty (the pairs are then found kind by kind).
    member_slot: Vec<u8>,
    /// Per framed cell (row-major), kept with [`Columns::kind_bytes`]: the kind of the piece on
    /// it times 64 plus its [`Columns::member_slot`] (only what cells holding a piece hold is
    /// meaningful), so that a piece with an open side is bucketed by kind with one load.
    codes: Vec<u16>,
    /// [`Columns::kind_bytes`] and [`Columns::codes`] are not kept up to date by
    /// [`Search::settle_packed`] and [`Search::settle`] but laid out from `grid` when
    /// [`Search::find_pairs_by_cells`] needs them: when pairs are found incrementally, only the
    /// first position of a round does, and keeping them at every removal and undo cost more than
    /// laying them out once a round.
    cells_on_demand: bool,
    /// Per framed column: for each removal from it not undone yet, oldest first, its pieces
    /// present and in the key before (`present`, `matched`), so that an undo, which brings back
    /// exactly those pieces, takes its key's slots back rather than matching them again.
    restore: Vec<Vec<(u64, u64)>>,
    /// Per column of the branch about to be played (column, pieces present after, their slots
    /// in the key), as [`Search::hash_without`] found them, for its removal to take. The slots
    /// in the key depend only on the column and its pieces present, so an entry matching both
    /// is right whenever it is taken; a stale one is just not taken.
    foreseen: [(usize, u64, u64); 2],
}

impl Columns {
    /// Writes `piece` (`kind`: the kind of each piece) on `row` of column `col` of the grid of
    /// pieces (`width` columns), and with `bytes` of the grids of kinds and codes too. (Inlined:
    /// both layouts call it for every piece they move.)
    #[inline(always)]
    fn place(&mut self, kind: &[u32], piece: u16, (row, col): (usize, usize), width: usize, bytes: bool) {
        self.grid[row * width + col] = piece;
        if bytes {
            let kind = kind[piece as usize];
            let (word, shift) = (col / 8, col % 8 * 8);
            let eight = &mut self.kind_bytes[row * self.row_words + word];
            *eight = *eight & !(0xFF << shift) | u64::from(kind) << shift;
            self.codes[row * width + col] = (kind << 6) as u16 | u16::from(self.member_slot[piece as usize]);
        }
    }

    /// Empties `row` of column `col` in the grid of pieces (`width` columns), and with `bytes`
    /// in the grid of kinds too (the grid of codes is read only where a piece is). (Inlined, as
    /// [`Columns::place`].)
    #[inline(always)]
    fn empty(&mut self, (row, col): (usize, usize), width: usize, bytes: bool) {
        self.grid[row * width + col] = NO_PIECE;
        if bytes {
            self.kind_bytes[row * self.row_words + col / 8] |= 0xFF << (col % 8 * 8);
        }
    }

    /// Makes `top` (a piece, or [`NO_PIECE`]) the top of column `col`, with the tops per kind
    /// (`kind`: the kind of each piece). (Inlined: [`Search::settle_packed`] calls it at every
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

    /// Makes `matched` the pieces of column `col` (`pieces`, as given) in the key
    /// ([`Columns::matched`]), flipping in the key and the hash only the pieces whose bit
    /// changes. (Inlined, as [`Columns::set_top`].)
    #[inline(always)]
    fn set_matched(&mut self, pieces: &[u16], col: usize, matched: u64) {
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
fn column_top(pieces: &[u16], present: u64) -> u16 {
    if present == 0 { NO_PIECE } else { pieces[present.trailing_zeros() as usize] }
}

/// No kind (an empty cell of [`Columns::kind_bytes`]).
const NO_KIND: u8 = u8::MAX;

/// Bytes 0x01 of a word, and bytes 0x7F.
const LOW_BYTES: u64 = u64::MAX / 255;
const LOW_SEVEN: u64 = LOW_BYTES * 0x7F;

/// The high bit of each byte of `word` that is zero (exactly: no carry crosses a byte).
fn zero_bytes(word: u64) -> u64 {
    !((word & LOW_SEVEN).wrapping_add(LOW_SEVEN) | word | LOW_SEVEN)
}

/// For eight cells of a row of [`Columns::kind_bytes`] (`here`, followed on the row by `next`)
/// and the eight below them (`below`): the high bit of byte `i` of the first word when cell `i`
/// holds a piece of the kind of the cell on its right, of the second when of the kind of the
/// cell below it.
fn side_by_side(here: u64, next: u64, below: u64) -> (u64, u64) {
    let held = !zero_bytes(!here) & LOW_BYTES << 7;
    let right = here >> 8 | next << 56;
    (zero_bytes(here ^ right) & held, zero_bytes(here ^ below) & held)
}

/// Adds each piece with an open side (`exposed`, a word per framed row; the rows from 1 up to
/// those `codes` holds) to the first mask of its kind's bucket in `open_of_kind` (bit
/// [`Columns::member_slot`]; `codes` as [`Columns::codes`]), and returns the kinds met, bit
/// `k % 64` of word `k / 64`, in `WORDS` words (enough for every kind: at most 256).
fn bucket_open_pieces<const WORDS: usize>(
    exposed: &[u64],
    codes: &[u16],
    width: usize,
    open_of_kind: &mut [(u64, u64); 256],
) -> [u64; WORDS] {
    let mut kinds_seen = [0u64; WORDS];
    for (row, row_codes) in codes.chunks_exact(width).enumerate().skip(1) {
        let mut open = exposed[row];
        while open != 0 {
            let col = open.trailing_zeros() as usize;
            open &= open - 1;
            let code = usize::from(row_codes[col]);
            let k = code >> 6 & 255;
            kinds_seen[k / 64 % WORDS] |= 1 << (k % 64);
            open_of_kind[k].0 |= 1 << (code & 63);
        }
    }
    kinds_seen
}

/// Of a piece with an open side: the cells its row and its column reach from it over open cells
/// (masks along them, see [`reach`]), and its row and column.
type Reach = (u64, u64, (u32, u32));

/// Whether a line of at most `max_turns` turns (at most two) joins two pieces with an open side,
/// neither sunk, from their [`Reach`]es on the board of `lines_across` and `lines_down`: by a
/// shape along the rows or along the columns ([`super::Bits::joinable`]).
fn reaches_joined(lines_across: &[u64], lines_down: &[u64], a: Reach, b: Reach, max_turns: u32) -> bool {
    let ((a_across, a_down, (a_row, a_col)), (b_across, b_down, (b_row, b_col))) = (a, b);
    shape_joined(lines_across, (a_row, a_col, a_across), (b_row, b_col, b_across), max_turns)
        || shape_joined(lines_down, (a_col, a_row, a_down), (b_col, b_row, b_down), max_turns)
}

/// Whether the shape along `lines` (the rows, or the columns with rows and columns swapped) joins
/// two pieces, each given as its line, its position along it and the cells it reaches along it.
fn shape_joined(
    lines: &[u64],
    (a_line, a_at, a_reach): (u32, u32, u64),
    (b_line, b_at, b_reach): (u32, u32, u64),
    max_turns: u32,
) -> bool {
    crossed(lines, a_line as usize, b_line as usize, a_reach & b_reach & middles(a_at, b_at, max_turns))
}

/// What the search with gravity keeps besides the search.
struct Gravity {
    /// The hopeless positions, kept from round to round.
    memo: Table,
    /// The tie-breaking seed of this round; 0 in the first (reading order).
    seed: u64,
    /// The budget of the whole search (rounds have their own in [`Search::budget`]).
    budget: u64,
    /// The sleep sets of the positions on the search path, each a slice from a mark.
    sleep: Vec<(u16, u16)>,
    /// Scratch for sorting the branches of a position: the pieces left of the kind (16 bits),
    /// the tie (64) and the kind and the two pieces (16 each), high to low in one number, so
    /// that a comparison is one of two words rather than of a tuple. A board holds at most
    /// [`super::MAX_SIDE`]² pieces, so every field fits.
    order_keys: Vec<u128>,
    /// Scratch: the cells holding a piece with an open side ([`Search::find_exposed`]).
    exposed: Vec<u64>,
    /// The joinable pairs of the positions on the search path (each pair low piece first, in
    /// no particular order), each position's from a mark ([`Parent::pairs_from`]).
    pairs: Vec<(u16, u16)>,
    /// Scratch for [`Search::update_pairs`]: one bit per piece (as `Search::present`, laid out
    /// anew at each use; [`super::MAX_SIDE`]² pieces fit in 64 words, so a word index masked to
    /// 63 needs no bounds check), and the pieces whose pairs are found again.
    dirty: Box<[u64; 64]>,
    dirty_pieces: Vec<u16>,
    /// Every column was given packed, the lines turn at most once, or twice with the ring
    /// open, and every kind has at most 64 pieces: a position's pairs are then found from its
    /// parent's ([`Search::update_pairs`]).
    incremental: bool,
    /// Scratch for [`Search::find_pairs_by_cells`]: per kind (fewer than 256 when it is
    /// used), its pieces with an open side and those of them sunk (see [`sunk_joinable`]; bits
    /// of [`Columns::member_slot`]; all 0 between uses). Fixed sizes, indexed by masked
    /// numbers, need no bounds checks.
    open_of_kind: Box<[(u64, u64); 256]>,
    /// Per branch on the search path (as [`Search::branches`]): its board is known hopeless.
    known: Vec<bool>,
    /// Per branch on the search path: the hash of its board before anything falls.
    child_hash: Vec<u64>,
    /// Per branch on the search path: what its removal will find in its columns
    /// ([`Columns::foreseen`]).
    child_matched: Vec<[(usize, u64, u64); 2]>,
    /// Scratch: the keys of a position's branches' boards, one after the other
    /// ([`Search::hash_without`]).
    child_key: Vec<u64>,
    /// Scratch for [`Search::push_open_pairs_of_kind`]: per piece with an open side and not
    /// sunk, of a kind with two or more such pieces, by its index among the pieces of its kind
    /// ([`Columns::member_slot`]): the cells its row and its column reach from it over open
    /// cells (as masks along them; see [`reach`]), and its row and column.
    reach: Box<[Reach; 64]>,
}

/// Where a position's parent on the search path keeps what [`Search::update_pairs`] needs.
#[derive(Debug, Clone, Copy)]
struct Parent {
    /// Its joinable pairs: `Gravity::pairs[pairs_from..pairs_end]`.
    pairs_from: usize,
    pairs_end: usize,
    /// The length of `Search::order` at its board (after its safe moves).
    order_end: usize,
}

/// The cells of `line` reached from bit `at` over open cells (set bits), `at` itself included:
/// the span of [`run`].
fn reach(line: u64, at: u32) -> u64 {
    let (low, high) = run(line, at);
    span(low, high)
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
fn sunk_joinable(lines_down: &[u64], last: usize, sunk: Cell, other: Cell) -> bool {
    let touching = sunk.0.abs_diff(other.0) + sunk.1.abs_diff(other.1) == 1;
    touching || span(u32::from(other.0) + 1, last as u32) & !lines_down[other.1 as usize] == 0
}

/// True when a middle of `common` (positions along the lines `first` and `second` of `lines`
/// that both ends reach and the turn limit allows) is open on every line strictly between them:
/// [`super::Bits::shape`] with the runs of the ends found once per piece, not once per pair.
fn crossed(lines: &[u64], first: usize, second: usize, common: u64) -> bool {
    let (top, bottom) = (first.min(second), first.max(second));
    let mut middles = common;
    for &line in lines.get(top + 1..bottom).unwrap_or_default() {
        if middles == 0 {
            break;
        }
        middles &= line;
    }
    middles != 0
}

impl Search {
    /// The search with gravity, in rounds of `restart_unit` times the terms of the Luby
    /// sequence (see the [module documentation](self)).
    pub(super) fn gravity_rounds(&mut self, restart_unit: u64) -> Result<bool, OutOfBudget> {
        self.init_columns();
        let board_seed = self.kind.iter().fold(0u64, |hash, &k| mix(hash ^ u64::from(k)));
        let mut state = Gravity {
            memo: Table::new(MEMO_WORDS),
            seed: 0,
            budget: self.budget,
            sleep: Vec::new(),
            order_keys: Vec::new(),
            exposed: Vec::new(),
            pairs: Vec::new(),
            incremental: false,
            dirty: Box::new([0; 64]),
            dirty_pieces: Vec::new(),
            open_of_kind: Box::new([(0, 0); 256]),
            known: Vec::new(),
            child_hash: Vec::new(),
            child_matched: Vec::new(),
            child_key: Vec::new(),
            reach: Box::new([(0, 0, (0, 0)); 64]),
        };
        let ring_open = self.bits.rows[0] & 1 == 1;
        state.incremental = !self.columns.member_slot.is_empty()
            && self.columns.packed.iter().all(|&packed| packed)
            && (self.max_turns <= 1 || self.max_turns == 2 && ring_open);
        self.columns.cells_on_demand = state.incremental;
        for round in 1.. {
            self.budget = state.budget.min(self.positions.saturating_add(luby(round) * restart_unit));
            state.seed = if round == 1 { 0 } else { mix(board_seed ^ round) | 1 };
            state.sleep.clear();
            state.pairs.clear();
            match self.gravity(&mut state, 0, None) {
                Err(OutOfBudget) if self.budget < state.budget => {
                    self.undo_to(0, 0, true);
                    self.branches.clear();
                }
                found => return found,
            }
        }
        unreachable!("the rounds end when the budget does")
    }

    /// Per framed column: its pieces were given packed at its bottom.
    fn packed_columns(&self) -> Vec<bool> {
        let width = self.column_start.len() - 1;
        (0..width)
            .map(|col| {
                let pieces = &self.column[self.column_start[col]..self.column_start[col + 1]];
                pieces.iter().rev().enumerate().all(|(below, &piece)| {
                    usize::from(self.home_row[piece as usize]) + below == usize::from(self.board_rows)
                })
            })
            .collect()
    }

    /// [`Columns::same_kind`] for the board as given.
    fn same_kind_slots(&self) -> Vec<u64> {
        let width = self.column_start.len() - 1;
        let mut same_kind = Vec::with_capacity(self.column.len());
        for col in 0..width {
            let pieces = &self.column[self.column_start[col]..self.column_start[col + 1]];
            for &piece in pieces {
                let kind = self.kind[piece as usize];
                same_kind.push(pieces.iter().enumerate().fold(0u64, |slots, (slot, &other)| {
                    slots | u64::from(self.kind[other as usize] == kind) << slot
                }));
            }
        }
        same_kind
    }

    /// Sets up [`Columns`] for the board as it is (every column laid out already).
    fn init_columns(&mut self) {
        let width = self.column_start.len() - 1;
        self.columns = Columns {
            packed: self.packed_columns(),
            top: vec![NO_PIECE; width],
            matched: vec![0; width],
            present: vec![0; width],
            slot: (0..self.cell.len())
                .map(|piece| {
                    let col = self.cell[piece].1 as usize;
                    let pieces = &self.column[self.column_start[col]..self.column_start[col + 1]];
                    pieces.iter().position(|&p| p as usize == piece).expect("in its column") as u8
                })
                .collect(),
            same_kind: self.same_kind_slots(),
            key: vec![0; self.present.len()],
            hash: 0,
            zobrist: (0..self.cell.len() as u64).map(|piece| mix(piece ^ 0x5EED)).collect(),
            tops_of_kind: vec![0; self.left.len()],
            paired_tops: vec![0; self.left.len().div_ceil(64)],
            grid: vec![NO_PIECE; (usize::from(self.board_rows) + 2) * width],
            kind_bytes: Vec::new(),
            row_words: width.div_ceil(8),
            member_slot: Vec::new(),
            codes: Vec::new(),
            cells_on_demand: false,
            restore: vec![Vec::new(); width],
            foreseen: [(usize::MAX, 0, 0); 2],
        };
        let kinds_fit = self.left.len() < usize::from(NO_KIND);
        if kinds_fit && (0..self.left.len()).all(|k| self.start[k + 1] - self.start[k] <= 64) {
            let mut member_slot = vec![0; self.cell.len()];
            for k in 0..self.left.len() {
                for (slot, &piece) in self.members[self.start[k]..self.start[k + 1]].iter().enumerate() {
                    member_slot[piece as usize] = slot as u8;
                }
            }
            self.columns.member_slot = member_slot;
            self.columns.codes = vec![0; (usize::from(self.board_rows) + 2) * width];
            self.columns.kind_bytes =
                vec![u64::MAX; (usize::from(self.board_rows) + 2) * self.columns.row_words];
        }
        for col in 0..width {
            self.canonize(col, self.present_slots(col), 1);
        }
    }

    /// Bit `slot` set for each piece `column[column_start[col] + slot]` on the board.
    fn present_slots(&self, col: usize) -> u64 {
        let pieces = &self.column[self.column_start[col]..self.column_start[col + 1]];
        pieces
            .iter()
            .enumerate()
            .fold(0, |slots, (slot, &piece)| slots | u64::from(self.is_present(piece)) << slot)
    }

    /// Brings [`Columns`] up to date for column `col` from its pieces on the board (`present`,
    /// see [`Search::present_slots`]): its top, its cells in the grids, and its pieces in the
    /// key ([`Search::canonical_slots`]); only the pieces whose bit changes are touched in the
    /// key and the hash. The rows above `from_row` are empty before and after.
    fn canonize(&mut self, col: usize, present: u64, from_row: usize) {
        if self.columns.zobrist.is_empty() {
            return;
        }
        let before = std::mem::replace(&mut self.columns.present[col], present);
        let differ = before ^ present;
        if differ == 0 {
            return;
        }
        let matched = self.matched_slots(col, before, present);
        let pieces = &self.column[self.column_start[col]..self.column_start[col + 1]];
        let top = column_top(pieces, present);
        // A piece's cell depends only on the pieces present at its slot and below (see
        // [`Search::settle`]), so the pieces below the lowest one that came or went have not
        // moved. In a column given packed, the pieces present are packed at its bottom, those
        // below that piece under the others: only the rows from `from_row` (the higher of the
        // two tops) down to that piece's row change (a piece gone keeps in `cell` the row it
        // was on). In a column given with a gap, a piece above can fall past it.
        let lowest = 63 - differ.leading_zeros() as usize;
        let (to_row, mut on_board) = if self.columns.packed[col] {
            (usize::from(self.cell[pieces[lowest] as usize].0), present & (u64::MAX >> (63 - lowest)))
        } else {
            (usize::from(self.board_rows), present)
        };
        let width = self.column_start.len() - 1;
        let bytes = !self.columns.kind_bytes.is_empty() && !self.columns.cells_on_demand;
        // In a column given packed, the pieces of `on_board` fill the rows up to `to_row` (the
        // lowest of them is on it, or fell onto it when the piece there went), so only the rows
        // above them are emptied; the others are written once, below. The highest of them is
        // the column's top (`on_board` holds every piece present above the lowest change), so
        // the rows emptied end below the top's row, found without counting the pieces (a
        // count of bits is a dozen instructions on the baseline x86-64 target, no `popcnt`).
        let empty_to = if !self.columns.packed[col] || on_board == 0 {
            to_row + 1
        } else {
            usize::from(self.cell[top as usize].0)
        };
        for row in from_row..empty_to {
            self.columns.empty((row, col), width, bytes);
        }
        while on_board != 0 {
            let piece = pieces[on_board.trailing_zeros() as usize];
            on_board &= on_board - 1;
            let row = usize::from(self.cell[piece as usize].0);
            self.columns.place(&self.kind, piece, (row, col), width, bytes);
        }
        self.columns.set_top(&self.kind, col, top);
        self.columns.set_matched(pieces, col, matched);
    }

    /// [`Search::canonical_slots`] of column `col` going from the pieces `before` to `present`
    /// (not the same), taken from [`Columns::restore`] on an undo or [`Columns::foreseen`] on a
    /// removal when there, else found.
    fn matched_slots(&mut self, col: usize, before: u64, present: u64) -> u64 {
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
    fn hash_without(&self, a: u16, b: u16, keys: &mut Vec<u64>) -> (u64, [(usize, u64, u64); 2]) {
        let start = keys.len();
        keys.extend_from_slice(&self.columns.key);
        let key = &mut keys[start..];
        let mut hash = self.columns.hash;
        let (a_col, b_col) = (self.cell[a as usize].1 as usize, self.cell[b as usize].1 as usize);
        let columns = if a_col == b_col { 1 } else { 2 };
        let mut foreseen = [(usize::MAX, 0, 0); 2];
        for (index, col) in [a_col, b_col].into_iter().take(columns).enumerate() {
            let mut present = self.columns.present[col];
            for piece in [a, b] {
                if self.cell[piece as usize].1 as usize == col {
                    present &= !(1 << self.columns.slot[piece as usize]);
                }
            }
            let pieces = &self.column[self.column_start[col]..self.column_start[col + 1]];
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
    /// [`Search::present_slots`]) are on the board: the sequence of kinds present matched
    /// greedily, bottom up, onto the column's pieces as given when the column was given packed;
    /// the pieces present otherwise.
    fn canonical_slots(&self, col: usize, present: u64) -> u64 {
        // Bit `slot` of `matched`: the piece `column[column_start[col] + slot]` is in the key.
        let mut matched = present;
        if self.columns.packed[col] && present != 0 {
            let same_kind = &self.columns.same_kind[self.column_start[col]..self.column_start[col + 1]];
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

    /// Fills `state.exposed` with the cells of the board that hold a piece with an open cell
    /// beside it (above, below, left or right), one word per framed row: a line leaves a piece
    /// through such a cell, unless it joins two pieces side by side.
    fn find_exposed(&self, state: &mut Gravity) {
        let rows = &self.bits.rows;
        let height = rows.len();
        // The board's columns, without the ring.
        let inner = span(1, (self.column_start.len() - 3) as u32);
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
    fn sunk_row(&self, state: &Gravity) -> u64 {
        let last = usize::from(self.board_rows);
        if self.max_turns != 2 {
            return 0;
        }
        let open = self.bits.rows[last];
        state.exposed[last] & !(open << 1 | open >> 1 | self.bits.rows[last - 1])
    }

    /// Pushes onto `state.pairs` every joinable pair of the board, from the pieces with an open
    /// side, bucketed by kind, and the pairs side by side found on the grid of kinds (for kinds
    /// of at most 64 pieces, see [`Columns::member_slot`]), in no particular order.
    fn find_pairs_by_cells(&mut self, state: &mut Gravity) {
        if self.columns.cells_on_demand {
            self.lay_out_cells();
        }
        let width = self.column_start.len() - 1;
        let last = usize::from(self.board_rows);
        let sunk_row = self.sunk_row(state);
        // The kinds with an open piece (bit `k % 64` of word `k / 64`; set without a test, so no
        // branch mispredicts on it; the pairs are sorted afterwards, so the order the kinds are
        // visited in does not matter). With at most 64 kinds (a standard deal has 36) the kinds
        // seen stay in one word, a register.
        let codes = &self.columns.codes[..(last + 1) * width];
        let kinds_seen = if self.left.len() <= 64 {
            let [word] = bucket_open_pieces::<1>(&state.exposed, codes, width, &mut state.open_of_kind);
            [word, 0, 0, 0]
        } else {
            bucket_open_pieces::<4>(&state.exposed, codes, width, &mut state.open_of_kind)
        };
        // The sunk pieces, all on the bottom row: a few of the pieces bucketed.
        let mut sunk_cells = sunk_row;
        while sunk_cells != 0 {
            let col = sunk_cells.trailing_zeros() as usize;
            sunk_cells &= sunk_cells - 1;
            let code = usize::from(codes[last * width + col]);
            state.open_of_kind[code >> 6 & 255].1 |= 1 << (code & 63);
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

    /// Lays out [`Columns::kind_bytes`] and [`Columns::codes`] from `grid` (see
    /// [`Columns::cells_on_demand`]).
    fn lay_out_cells(&mut self) {
        let width = self.column_start.len() - 1;
        let columns = &mut self.columns;
        let words = columns.row_words;
        for (row, pieces) in columns.grid.chunks_exact(width).enumerate() {
            let eights = &mut columns.kind_bytes[row * words..(row + 1) * words];
            eights.fill(u64::MAX);
            for (col, &piece) in pieces.iter().enumerate() {
                if piece != NO_PIECE {
                    let kind = self.kind[piece as usize];
                    let eight = &mut eights[col / 8];
                    *eight = *eight & !(0xFF << (col % 8 * 8)) | u64::from(kind) << (col % 8 * 8);
                    columns.codes[row * width + col] =
                        (kind << 6) as u16 | u16::from(columns.member_slot[piece as usize]);
                }
            }
        }
    }

    /// Pushes onto `state.pairs` the joinable pairs of kind `k` (of at most 64 pieces) whose two
    /// pieces have an open side: those of `open` (bits of [`Columns::member_slot`]), of which
    /// `sunk` are sunk (see [`sunk_joinable`]).
    fn push_open_pairs_of_kind(&self, state: &mut Gravity, k: usize, mut open: u64, sunk: u64) {
        // Fewer than two pieces (no bit count: see [`Search::canonize`]).
        if open & open.wrapping_sub(1) == 0 {
            return;
        }
        let max_turns = self.max_turns;
        let (lines_across, lines_down) = (&self.bits.rows, &self.bits.cols);
        let last = usize::from(self.board_rows);
        let members = &self.members[self.start[k]..];
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
                    sunk_joinable(lines_down, last, self.cell[a as usize], self.cell[b as usize])
                } else if max_turns <= 2 {
                    reaches_joined(
                        lines_across,
                        lines_down,
                        state.reach[first & 63],
                        state.reach[second & 63],
                        max_turns,
                    )
                } else {
                    self.joinable(pair.0, pair.1)
                };
                debug_assert_eq!(joined, self.joinable(pair.0, pair.1));
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
    /// packed at its bottom, and the removals since the parent (those of `self.order` from
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
    /// (Not inlined: inlined into [`Search::gravity`], its only caller, it kept fewer of its
    /// values in registers and reloaded them from the stack in its loops.)
    #[inline(never)]
    fn update_pairs(&mut self, state: &mut Gravity, parent: Parent) {
        let width = self.column_start.len() - 1;
        let last = usize::from(self.board_rows);
        // Per framed column: the pieces removed from it, and the lowest row one was removed from.
        let mut removed = [(0u8, 0u8); 64];
        let mut columns_changed = 0u64;
        for step in &self.order[parent.order_end..] {
            for (row, col) in step.at {
                let entry = &mut removed[col as usize & 63];
                entry.0 += 1;
                entry.1 = entry.1.max(row);
                columns_changed |= 1 << (col & 63);
            }
        }
        // The pieces whose pairs are found again, each once in `dirty_pieces`. Their bits are set
        // in `dirty` over those of the pieces gone, so that one bit tells which of the parent's
        // pairs stay.
        let (dirty, dirty_pieces) = (&mut state.dirty, &mut state.dirty_pieces);
        for (stale, &present) in dirty.iter_mut().zip(&self.present) {
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
            let held = !self.bits.cols[col] & board;
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
                let closed = !self.bits.rows[row];
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
        for (done, &present) in state.dirty.iter_mut().zip(&self.present) {
            *done = !present;
        }
        let sunk_row = self.sunk_row(state);
        let is_open = |(row, col): Cell| state.exposed[row as usize] >> col & 1 == 1;
        let is_sunk = |(row, col): Cell| usize::from(row) == last && sunk_row >> col & 1 == 1;
        for &piece in &state.dirty_pieces {
            // Done from here on, so that the stale bit alone skips it among its kind.
            state.dirty[piece as usize / 64 % 64] |= 1 << (piece % 64);
            let k = self.kind[piece as usize] as usize;
            let at = self.cell[piece as usize];
            if is_open(at) {
                let piece_sunk = is_sunk(at);
                for &other in &self.members[self.start[k]..self.start[k + 1]] {
                    if is_stale(&state.dirty, other) {
                        continue;
                    }
                    let other_at = self.cell[other as usize];
                    let joined = if is_open(other_at) {
                        self.open_pair_joined((piece, piece_sunk), (other, is_sunk(other_at)))
                    } else {
                        at.0.abs_diff(other_at.0) + at.1.abs_diff(other_at.1) == 1
                    };
                    debug_assert_eq!(joined, self.joinable(piece, other));
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
                        || self.kind[other as usize] as usize != k
                        || is_stale(&state.dirty, other)
                    {
                        continue;
                    }
                    debug_assert!(self.joinable(piece, other));
                    state.pairs.push((piece.min(other), piece.max(other)));
                }
            }
        }
    }

    /// Whether a line joins two pieces of a kind with an open side each (and whether each is
    /// sunk, see [`sunk_joinable`]): [`Search::push_open_pairs_of_kind`] for one pair.
    fn open_pair_joined(&self, (a, a_sunk): (u16, bool), (b, b_sunk): (u16, bool)) -> bool {
        let (a_at, b_at) = (self.cell[a as usize], self.cell[b as usize]);
        let (lines_across, lines_down) = (&self.bits.rows, &self.bits.cols);
        if a_sunk || b_sunk {
            let (sunk, other) = if a_sunk { (a_at, b_at) } else { (b_at, a_at) };
            return sunk_joinable(lines_down, usize::from(self.board_rows), sunk, other);
        }
        if self.max_turns > 2 {
            return self.joinable(a, b);
        }
        // As [`reaches_joined`], the runs along the columns found only when needed.
        let ((a_row, a_col), (b_row, b_col)) =
            ((u32::from(a_at.0), u32::from(a_at.1)), (u32::from(b_at.0), u32::from(b_at.1)));
        let (a_across, b_across) =
            (reach(lines_across[a_row as usize], a_col), reach(lines_across[b_row as usize], b_col));
        shape_joined(lines_across, (a_row, a_col, a_across), (b_row, b_col, b_across), self.max_turns) || {
            let (a_down, b_down) =
                (reach(lines_down[a_col as usize], a_row), reach(lines_down[b_col as usize], b_row));
            shape_joined(lines_down, (a_col, a_row, a_down), (b_col, b_row, b_down), self.max_turns)
        }
    }

    /// The [`Reach`] of `piece` on the board as it is.
    fn reach_of(&self, piece: u16) -> Reach {
        let (row, col) = self.cell[piece as usize];
        (
            reach(self.bits.rows[row as usize], u32::from(col)),
            reach(self.bits.cols[col as usize], u32::from(row)),
            (u32::from(row), u32::from(col)),
        )
    }

    /// Checks that the pairs found from the parent's (`state.pairs[pairs_from..]`) are those
    /// found from scratch.
    #[cfg(debug_assertions)]
    fn check_pairs(&mut self, state: &mut Gravity, pairs_from: usize) {
        let found_end = state.pairs.len();
        self.find_pairs_by_cells(state);
        let mut fresh = state.pairs.split_off(found_end);
        let mut updated = state.pairs[pairs_from..].to_vec();
        fresh.sort_unstable();
        updated.sort_unstable();
        assert_eq!(updated, fresh, "the pairs brought up to date are the pairs of the board");
    }

    /// Pushes every removable pair of the kinds with two or more pieces left as a branch, kind
    /// by kind, each in reading order ([`Search::push_pairs`] with the lines of pairs with a
    /// piece shut in on all four sides not looked for; `state.exposed` must be up to date), but
    /// not the pairs of `asleep` (the sleep set: they would be skipped).
    fn push_open_pairs(&mut self, state: &Gravity, asleep: &[(u16, u16)]) {
        let mut branches = std::mem::take(&mut self.branches);
        for k in 0..self.left.len() {
            let left = self.left[k];
            if left < 2 {
                continue;
            }
            if left > 4 {
                self.push_all_open_pairs(k, state, asleep, &mut branches);
                continue;
            }
            // The pieces left, in reading order, gathered without a branch per piece; and
            // which of them have an open side (bit i for `live[i]`).
            let (mut live, mut count) = ([0u16; 5], 0);
            for &piece in &self.members[self.start[k]..self.start[k + 1]] {
                live[count] = piece;
                count += usize::from(self.is_present(piece));
            }
            let mut cells = [(0u8, 0u8); 4];
            let mut open = 0u32;
            for index in 0..count {
                let (row, col) = self.cell[live[index] as usize];
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
                    if !asleep.contains(&pair) && self.joinable(pair.0, pair.1) {
                        branches.push(Branch::Remove(pair.0, pair.1));
                    }
                }
            }
        }
        self.branches = branches;
    }

    /// [`Search::push_open_pairs`] for one kind with any number of pieces left.
    fn push_all_open_pairs(
        &self,
        k: usize,
        state: &Gravity,
        asleep: &[(u16, u16)],
        branches: &mut Vec<Branch>,
    ) {
        let open = |piece: u16| {
            let (row, col) = self.cell[piece as usize];
            state.exposed[row as usize] >> col & 1 == 1
        };
        for (a, b) in self.present_pairs(k) {
            let ((a_row, a_col), (b_row, b_col)) = (self.cell[a as usize], self.cell[b as usize]);
            let touching = a_row.abs_diff(b_row) + a_col.abs_diff(b_col) == 1;
            if (touching || open(a) && open(b)) && !asleep.contains(&(a, b)) && self.joinable(a, b) {
                branches.push(Branch::Remove(a, b));
            }
        }
    }

    /// The first kind from `from` on whose pieces left are all on top of their columns (see
    /// [`Search::close_gravity`]).
    fn first_all_top_kind(&self, from: usize) -> Option<usize> {
        let columns = &self.columns;
        for word in from / 64..columns.paired_tops.len() {
            let mut kinds = columns.paired_tops[word];
            if word == from / 64 {
                kinds &= u64::MAX << (from % 64);
            }
            while kinds != 0 {
                let k = word * 64 + kinds.trailing_zeros() as usize;
                kinds &= kinds - 1;
                if u32::from(columns.tops_of_kind[k]) == self.left[k] {
                    return Some(k);
                }
            }
        }
        None
    }

    /// Safe moves with gravity: a kind whose pieces left are all on top of their columns,
    /// removable in pairs one after the other. Such removals make nothing fall, so in any
    /// clearing order, removing them first leaves every later board the same but for them
    /// (the pieces below stack the same way without them on top), and every later line open.
    /// The kinds are tried in order, pass after pass, until a pass removes nothing.
    fn close_gravity(&mut self) {
        loop {
            let mut changed = false;
            let mut from = 0;
            while let Some(k) = self.first_all_top_kind(from) {
                changed |= self.clear_many_with(k, true);
                from = k + 1;
            }
            if !changed {
                break;
            }
        }
    }

    /// True when removing the pieces of `slept` and then those of `then` leaves the same board as
    /// the other way round, and `then` stays removable after `slept` if it is now: no piece in
    /// common, the columns of `slept` given packed (a removal there only empties cells), and no
    /// piece of `then` above one of `slept` in its column (none of them falls).
    fn independent(&self, slept: (u16, u16), then: (u16, u16)) -> bool {
        let then_at = [self.cell[then.0 as usize], self.cell[then.1 as usize]];
        self.independent_of(slept, then, then_at)
    }

    /// [`Search::independent`] with the cells of `then` (`then_at`) found once for the many
    /// pairs of a sleep set.
    fn independent_of(&self, slept: (u16, u16), then: (u16, u16), then_at: [Cell; 2]) -> bool {
        [slept.0, slept.1].iter().all(|&low| {
            let (row, col) = self.cell[low as usize];
            self.columns.packed[col as usize]
                && low != then.0
                && low != then.1
                && then_at.iter().all(|&(high_row, high_col)| high_col != col || high_row > row)
        })
    }

    /// One round of the search with gravity: the safe moves, then every removable pair, those
    /// finishing their kind first, then in the round's order; but not the pairs
    /// of the sleep set `state.sleep[sleep_from..]` (given for the board before the safe
    /// moves), known to lead to a hopeless board (see the [module documentation](self)).
    ///
    /// `parent` is where the position the search came from keeps its pairs (none at the first
    /// position of a round).
    fn gravity(
        &mut self,
        state: &mut Gravity,
        sleep_from: usize,
        parent: Option<Parent>,
    ) -> Result<bool, OutOfBudget> {
        let order_mark = self.order.len();
        self.close_gravity();
        if self.total_left == 0 {
            return Ok(true);
        }
        // The sleep set after the safe moves: a pair stays when each of them commutes with it
        // (every pair when there were none: nothing to check).
        if self.order.len() > order_mark {
            let mut kept = sleep_from;
            for index in sleep_from..state.sleep.len() {
                let slept = state.sleep[index];
                let stays = self.order[order_mark..]
                    .iter()
                    .all(|step| self.independent(slept, (step.pieces[0], step.pieces[1])));
                if stays {
                    state.sleep[kept] = slept;
                    kept += 1;
                }
            }
            state.sleep.truncate(kept);
        }
        let Ok(reserved) = state.memo.enter(self.columns.hash, &self.columns.key) else {
            self.undo_to(order_mark, self.trail.len(), true);
            return Ok(false);
        };
        self.count_position()?;
        let from = self.branches.len();
        self.find_exposed(state);
        let pairs_from = state.pairs.len();
        // The branches' sort keys, made straight from the pairs when found as pairs.
        state.order_keys.clear();
        if self.columns.member_slot.is_empty() {
            let asleep = std::mem::take(&mut state.sleep);
            self.push_open_pairs(state, &asleep[sleep_from..]);
            state.sleep = asleep;
            for branch in &self.branches[from..] {
                let Branch::Remove(a, b) = *branch else { unreachable!("gravity only removes") };
                state.order_keys.push(self.order_key(state.seed, a, b));
            }
            self.branches.truncate(from);
        } else {
            match parent {
                Some(parent) if state.incremental => {
                    self.update_pairs(state, parent);
                    #[cfg(debug_assertions)]
                    self.check_pairs(state, pairs_from);
                }
                _ => self.find_pairs_by_cells(state),
            }
            // A pair is looked for in the sleep set only once found joined: a position has a
            // few branches (3.2 on average on deal 103) and a sleep set of a few pairs, against
            // many more pairs of open pieces looked at.
            let asleep = &state.sleep[sleep_from..];
            for &(a, b) in &state.pairs[pairs_from..] {
                // Both pieces in one number, so that a pair of the sleep set is one comparison.
                let pair = u32::from(a) | u32::from(b) << 16;
                if !asleep.iter().any(|&(x, y)| u32::from(x) | u32::from(y) << 16 == pair) {
                    state.order_keys.push(self.order_key(state.seed, a, b));
                }
            }
        }
        let here = Parent { pairs_from, pairs_end: state.pairs.len(), order_end: self.order.len() };
        state.order_keys.sort_unstable();
        for &order_key in &state.order_keys {
            let found = order_key as u64;
            self.branches.push(Branch::Remove((found >> 16) as u16, found as u16));
        }
        // The branches whose board (before anything falls) is in the table already: all looked
        // up before any is tried, so that the lookups overlap. Such a board was entered in the
        // table after its safe moves, so it has none, and the branch's position is that board.
        state.known.truncate(from);
        state.child_hash.truncate(from);
        state.child_matched.truncate(from);
        // The keys first, then the lookups: with nothing between them, the lookups' loads are
        // in flight together.
        state.child_key.clear();
        for index in from..self.branches.len() {
            let Branch::Remove(a, b) = self.branches[index] else { unreachable!("gravity only removes") };
            let (hash, foreseen) = self.hash_without(a, b, &mut state.child_key);
            state.child_hash.push(hash);
            state.child_matched.push(foreseen);
        }
        let key_words = self.columns.key.len();
        for (index, key) in state.child_key.chunks_exact(key_words).enumerate() {
            state.known.push(state.memo.contains(state.child_hash[from + index], key));
        }
        // `state.sleep[sleep_from..refuted_end]`: the sleep set, then the pairs refuted here.
        let mut index = from;
        while index < self.branches.len() {
            let Branch::Remove(a, b) = self.branches[index] else { unreachable!("gravity only removes") };
            let (known, hash) = (state.known[index], state.child_hash[index]);
            index += 1;
            if known {
                state.sleep.push((a, b));
                continue;
            }
            let refuted_end = state.sleep.len();
            let then_at = [self.cell[a as usize], self.cell[b as usize]];
            for slot in sleep_from..refuted_end {
                let slept = state.sleep[slot];
                if self.independent_of(slept, (a, b), then_at) {
                    state.sleep.push(slept);
                }
            }
            // The branch's slot, looked up again on entering it: the subtrees of the branches
            // before have often pushed it out of the caches since it was looked up above, and
            // its line now comes in while the removal is played (unless safe moves follow).
            state.memo.touch(hash);
            self.columns.foreseen = state.child_matched[index - 1];
            self.remove(a, b, true);
            let cleared = self.gravity(state, refuted_end, Some(here))?;
            state.sleep.truncate(refuted_end);
            if cleared {
                self.branches.truncate(from);
                state.pairs.truncate(pairs_from);
                return Ok(true);
            }
            self.undo(true);
            state.sleep.push((a, b));
        }
        self.branches.truncate(from);
        state.sleep.truncate(sleep_from);
        state.pairs.truncate(pairs_from);
        // Every removal was undone: the key is this position's again.
        state.memo.prove(reserved, self.columns.hash, &self.columns.key);
        self.undo_to(order_mark, self.trail.len(), true);
        Ok(false)
    }

    /// The sort key of the branch removing `a` and `b` (`a` the lower) in a round of tie seed
    /// `seed`: by the pieces left of the kind, then the round's tie, then kind by kind in reading
    /// order, high to low in one number (see [`Gravity::order_keys`]).
    fn order_key(&self, seed: u64, a: u16, b: u16) -> u128 {
        let k = self.kind[a as usize];
        let tie = if seed == 0 { 0 } else { mix(seed ^ (u64::from(a) << 16 | u64::from(b))) };
        let found = u64::from(k) << 32 | u64::from(a) << 16 | u64::from(b);
        let left = u128::from(self.left[k as usize]);
        debug_assert!(left >> 16 == 0 && found >> 48 == 0, "a field of the sort key overflows");
        left << 112 | u128::from(tie) << 48 | u128::from(found)
    }

    /// Lays out column `col` for the pieces present (gravity): the pieces below the lowest
    /// piece removed stay where they were given; the ones above it rest on each other, on the
    /// piece below it or the bottom row.
    pub(super) fn settle(&mut self, col: u8) {
        let pieces = &self.column[self.column_start[col as usize]..self.column_start[col as usize + 1]];
        let (cell, home_row, on_board) = (&mut self.cell, &self.home_row, &self.present);
        // The rows of the board (bits) holding a piece of this column, and its pieces present
        // (see [`Search::present_slots`]), bottom up: the pieces up to the first one gone stay
        // on the rows they were given, the ones above rest on the piece below them.
        let (mut held, mut present) = (0u64, 0u64);
        let (mut next_row, mut given) = (self.board_rows, true);
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
        let board = span(1, u32::from(self.board_rows));
        let before = self.bits.cols[col as usize];
        let after = before & !board | board & !held;
        self.bits.cols[col as usize] = after;
        let mut flipped = before ^ after;
        while flipped != 0 {
            let row = flipped.trailing_zeros() as usize;
            self.bits.rows[row] ^= 1 << col;
            flipped &= flipped - 1;
        }
        // The highest row held before or after.
        let from_row = ((!before | !after) & board).trailing_zeros() as usize;
        self.canonize(col as usize, present, from_row);
    }

    /// Lays out the columns of `pieces` (on `cells`, the cells they were removed from) after
    /// they were removed or put back, as [`Search::settle`] does: a column given packed from
    /// the slots that changed alone ([`Search::settle_packed`]) once [`Columns`] is set up.
    #[inline(never)]
    pub(super) fn settle_pieces(&mut self, pieces: [u16; 2], cells: [Cell; 2]) {
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
    /// [`Search::settle`]): [`Search::settle`] and [`Search::canonize`] in one, with only the
    /// pieces at and above the lowest slot toggled visited, not every piece of the column.
    ///
    /// The pieces present lie packed at the column's bottom in the order given, so those below
    /// the lowest slot toggled stay, and those at and above it stack up from its row: the row of
    /// that piece now (a removal), or the row it was removed from, which its cell keeps while it
    /// is gone (putting back undoes the last removal from the column, so the pieces below are
    /// where they were then). The rows that change hands are the one or two above the top of
    /// the shorter stack. (Inlined into [`Search::settle_pieces`], its only caller, where the
    /// slots toggled are known to be one or two.)
    #[inline(always)]
    fn settle_packed(&mut self, col: u8, toggled: u64) {
        let col = usize::from(col);
        if !self.columns.packed[col] {
            self.settle(col as u8);
            return;
        }
        let width = self.column_start.len() - 1;
        let before = self.columns.present[col];
        let present = before ^ toggled;
        let removal = before & toggled != 0;
        let matched = self.matched_slots(col, before, present);
        self.columns.present[col] = present;
        let pieces = &self.column[self.column_start[col]..self.column_start[col + 1]];
        let bytes = !self.columns.kind_bytes.is_empty() && !self.columns.cells_on_demand;
        let lowest = 63 - toggled.leading_zeros() as usize;
        let mut row = usize::from(self.cell[pieces[lowest] as usize].0);
        // The pieces present at and above the lowest slot toggled, bottom up (slots count from
        // the top).
        let mut stacked = present & (u64::MAX >> (63 - lowest));
        while stacked != 0 {
            let slot = 63 - stacked.leading_zeros() as usize;
            stacked ^= 1 << slot;
            let piece = pieces[slot];
            self.cell[piece as usize].0 = row as u8;
            self.columns.place(&self.kind, piece, (row, col), width, bytes);
            row -= 1;
        }
        // `row` is now the lowest open row of the column (the ring's when it is full): the one
        // or two rows a removal opened end on it, and those the pieces put back took (written
        // above) begin just below it.
        let count = if toggled.is_power_of_two() { 1 } else { 2 };
        let first = if removal { row + 1 - count } else { row + 1 };
        self.bits.cols[col] ^= span(first as u32, (first + count - 1) as u32);
        for flipped in first..first + count {
            self.bits.rows[flipped] ^= 1 << col;
            if removal {
                self.columns.empty((flipped, col), width, bytes);
            }
        }
        let top = column_top(pieces, present);
        self.columns.set_top(&self.kind, col, top);
        self.columns.set_matched(pieces, col, matched);
        #[cfg(debug_assertions)]
        self.check_settled(col);
    }

    /// Checks that column `col` is laid out as [`Search::settle`] lays it out from the pieces
    /// present: their cells, the column's open cells along it and across the rows, its cells in
    /// the grid of pieces, and its pieces present and top in [`Columns`].
    #[cfg(debug_assertions)]
    fn check_settled(&self, col: usize) {
        let pieces = &self.column[self.column_start[col]..self.column_start[col + 1]];
        let (last, width) = (usize::from(self.board_rows), self.column_start.len() - 1);
        let mut held = vec![NO_PIECE; last + 1];
        let (mut present, mut next_row, mut given) = (0u64, self.board_rows, true);
        for (slot, &piece) in pieces.iter().enumerate().rev() {
            if !self.is_present(piece) {
                given = false;
                continue;
            }
            let row = if given { self.home_row[piece as usize] } else { next_row };
            assert_eq!(self.cell[piece as usize].0, row, "piece {piece} lies where it falls");
            held[usize::from(row)] = piece;
            present |= 1 << slot;
            next_row = row - 1;
        }
        for (row, &piece) in held.iter().enumerate().skip(1) {
            let open = piece == NO_PIECE;
            assert_eq!(self.bits.cols[col] >> row & 1 == 1, open, "column {col} row {row} open");
            assert_eq!(self.bits.rows[row] >> col & 1 == 1, open, "row {row} column {col} open");
            assert_eq!(self.columns.grid[row * width + col], piece, "the grid at ({row}, {col})");
        }
        assert_eq!(self.columns.present[col], present, "the pieces present in column {col}");
        let top = column_top(pieces, present);
        assert_eq!(self.columns.top[col], top, "the top of column {col}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clear::{DEFAULT_BUDGET, Settings};
    use crate::model::{Board, Rules};
    use proptest::prelude::*;

    /// The search on `board` with the pieces of `kept` (by number) left and fallen: its key,
    /// and the board it shows (kind + 1 per framed cell, 0 for empty).
    fn key_and_board(board: &Board, kept: &[bool]) -> (Vec<u64>, Vec<u32>) {
        let settings = Settings { rules: Rules::default(), gravity: true, budget: DEFAULT_BUDGET };
        let mut search = Search::new(board, settings);
        for (piece, &kept) in kept.iter().enumerate() {
            if !kept {
                search.present[piece / 64] &= !(1 << (piece % 64));
            }
        }
        let width = search.column_start.len() - 1;
        for col in 0..width {
            search.settle(col as u8);
        }
        search.init_columns();
        let mut cells = vec![0; (board.rows() + 2) * width];
        for piece in 0..search.cell.len() {
            if search.is_present(piece as u16) {
                let (row, col) = search.cell[piece];
                cells[row as usize * width + col as usize] = search.kind[piece] + 1;
            }
        }
        (search.columns.key.clone(), cells)
    }

    /// A board of `rows × cols` whose column `c` holds `heights[c] % (rows + 1)` pieces at its
    /// bottom, of kinds 1 and 2 (`kinds`, a bit per cell); with `gap`, a column of two or more
    /// has its top piece one row higher, over an empty cell.
    fn packed_board(rows: usize, cols: usize, heights: &[usize], kinds: u64, gap: bool) -> Board {
        let mut cells = vec![0; rows * cols];
        for col in 0..cols {
            let height = heights[col] % (rows + 1);
            for below in 0..height {
                let row = rows - 1 - below;
                cells[row * cols + col] = 1 + (kinds >> (row * cols + col) & 1) as u32;
            }
            if gap && height >= 2 && height < rows {
                let top = (rows - height) * cols + col;
                cells[top - cols] = cells[top];
                cells[top] = 0;
            }
        }
        Board::from_vec(rows, cols, cells)
    }

    /// Boards of [`packed_board`] of at most `side` rows and columns, and whether their columns
    /// may have a gap.
    fn packed_boards(side: usize) -> impl Strategy<Value = (Board, bool)> {
        (1..=side, 1..=side, proptest::collection::vec(0..=side, side), any::<u64>(), any::<bool>()).prop_map(
            |(rows, cols, heights, kinds, gap)| (packed_board(rows, cols, &heights, kinds, gap), gap),
        )
    }

    proptest! {
        /// Two sets of pieces get the same key exactly when they leave the same board (columns
        /// given packed), and only then (any board).
        #[test]
        fn keys_name_boards(
            (board, gap) in packed_boards(4),
            first in proptest::collection::vec(any::<bool>(), 16),
            swaps in proptest::collection::vec((0usize..16, 0usize..16), 0..4),
        ) {
            let pieces = board.cells().iter().filter(|&&kind| kind != 0).count();
            let first = &first[..pieces];
            // The second set: the first with some pieces swapped for others, so that the
            // boards left are often the same. (A board with no pieces is kept, not rejected:
            // rejecting it made large case counts fail on too many rejects.)
            let mut second = first.to_vec();
            for &(a, b) in swaps.iter().filter(|_| pieces > 0) {
                second.swap(a % pieces, b % pieces);
            }
            let (first_key, first_board) = key_and_board(&board, first);
            let (second_key, second_board) = key_and_board(&board, &second);
            // Columns given with a gap keep the pieces as they are: their key may tell apart
            // sets that leave one board, but never mixes up two boards.
            if gap {
                prop_assert!(first_key != second_key || first_board == second_board);
            } else {
                prop_assert_eq!(first_key == second_key, first_board == second_board);
            }
        }
    }

    #[test]
    fn two_pieces_of_a_kind_one_on_the_other_leave_one_board() {
        // Column 1 holds kinds 1, 1, 2 top to bottom: taking either 1 leaves the same board.
        let board = Board::from_vec(3, 2, vec![1, 0, 1, 0, 2, 2]);
        let (top_gone, top_board) = key_and_board(&board, &[false, true, true, true]);
        let (middle_gone, middle_board) = key_and_board(&board, &[true, false, true, true]);
        assert_eq!(top_board, middle_board);
        assert_eq!(top_gone, middle_gone);
        let (bottom_gone, bottom_board) = key_and_board(&board, &[true, true, false, true]);
        assert_ne!(top_board, bottom_board);
        assert_ne!(top_gone, bottom_gone);
    }

    /// What [`Columns`] holds: the tops, the grid of pieces, the key and its hash, the tops per
    /// kind and the kinds with two or more on top, the grid of kinds, and the codes of the
    /// cells holding a piece (0 elsewhere).
    type Held = (Vec<u16>, Vec<u16>, Vec<u64>, u64, Vec<u16>, Vec<u64>, Vec<u64>, Vec<u16>);

    /// What [`Columns`] holds now (see [`Held`]).
    fn columns_now(search: &Search) -> Held {
        let columns = &search.columns;
        (
            columns.top.clone(),
            columns.grid.clone(),
            columns.key.clone(),
            columns.hash,
            columns.tops_of_kind.clone(),
            columns.paired_tops.clone(),
            columns.kind_bytes.clone(),
            columns
                .codes
                .iter()
                .zip(&columns.grid)
                .map(|(&code, &piece)| if piece == NO_PIECE { 0 } else { code })
                .collect(),
        )
    }

    /// True when every cell holding a piece has its code (kind times 64 plus the piece's index
    /// among the pieces of its kind), found from the pieces' kinds and `members`.
    fn codes_hold(search: &Search) -> bool {
        let columns = &search.columns;
        columns.grid.iter().zip(&columns.codes).all(|(&piece, &code)| {
            piece == NO_PIECE || {
                let k = search.kind[piece as usize] as usize;
                let members = &search.members[search.start[k]..search.start[k + 1]];
                let index = members.iter().position(|&member| member == piece).expect("a member");
                usize::from(code) == k * 64 + index
            }
        })
    }

    /// The cells of the pieces present and the open cells (rows, columns) of `search`.
    type Layout = (Vec<Option<Cell>>, Vec<u64>, Vec<u64>);

    /// [`Layout`] of `search` now.
    fn layout_now(search: &Search) -> Layout {
        let cells = (0..search.cell.len() as u16)
            .map(|piece| search.is_present(piece).then(|| search.cell[piece as usize]))
            .collect();
        (cells, search.bits.rows.clone(), search.bits.cols.clone())
    }

    /// [`Layout`] of `board` with the pieces present in `search`, every column laid out once
    /// from the board as given.
    fn layout_anew(board: &Board, search: &Search) -> Layout {
        let settings = Settings { rules: Rules::default(), gravity: true, budget: DEFAULT_BUDGET };
        let mut fresh = Search::new(board, settings);
        fresh.present.clone_from(&search.present);
        // The board's columns (the ring's keep their bits).
        for col in 1..fresh.column_start.len() - 2 {
            fresh.settle(col as u8);
        }
        layout_now(&fresh)
    }

    /// [`columns_now`] found from scratch.
    fn columns_from_scratch(search: &mut Search) -> Held {
        let kept = columns_now(search);
        let kept_codes = search.columns.codes.clone();
        search.init_columns();
        let fresh = columns_now(search);
        // `init_columns` starts over; put back what was kept (equal when the test passes).
        let columns = &mut search.columns;
        (
            columns.top,
            columns.grid,
            columns.key,
            columns.hash,
            columns.tops_of_kind,
            columns.paired_tops,
            columns.kind_bytes,
            _,
        ) = kept;
        columns.codes = kept_codes;
        fresh
    }

    proptest! {
        /// Removals and their undoing keep [`Columns`] as it would be found from scratch and lay
        /// out the pieces as one laying out of the board as given does, and `hash_without`
        /// foresees the key and hash of each removal (boards given packed, with gaps or not).
        #[test]
        fn columns_follow_removals(
            (board, _) in packed_boards(5),
            picks in proptest::collection::vec((0usize..64, 0usize..64), 1..12),
        ) {
            let settings = Settings { rules: Rules::default(), gravity: true, budget: DEFAULT_BUDGET };
            let mut search = Search::new(&board, settings);
            search.init_columns();
            let mut removed = 0;
            for &(first, second) in &picks {
                let present: Vec<u16> =
                    (0..search.cell.len() as u16).filter(|&piece| search.is_present(piece)).collect();
                if present.len() < 2 {
                    break;
                }
                let a = present[first % present.len()];
                // A piece of the kind of `a` (removals keep counts even only per pair of a kind).
                let partners: Vec<u16> = present
                    .iter()
                    .copied()
                    .filter(|&piece| piece != a && search.kind[piece as usize] == search.kind[a as usize])
                    .collect();
                if partners.is_empty() {
                    continue;
                }
                let b = partners[second % partners.len()];
                let mut foreseen = Vec::new();
                let (hash, _) = search.hash_without(a.min(b), a.max(b), &mut foreseen);
                search.remove(a.min(b), a.max(b), true);
                removed += 1;
                prop_assert_eq!(search.columns.hash, hash);
                prop_assert_eq!(&search.columns.key, &foreseen);
                prop_assert_eq!(columns_now(&search), columns_from_scratch(&mut search));
                prop_assert!(codes_hold(&search));
                prop_assert_eq!(layout_now(&search), layout_anew(&board, &search));
            }
            for _ in 0..removed {
                search.undo(true);
                prop_assert_eq!(columns_now(&search), columns_from_scratch(&mut search));
                prop_assert_eq!(layout_now(&search), layout_anew(&board, &search));
            }
        }

        /// [`sunk_joinable`] answers as the line check does for every sunk piece and every other
        /// piece (the outside open, two turns; boards packed or with a gap in a column).
        #[test]
        fn sunk_pieces_join_as_lines_do((board, _) in packed_boards(5)) {
            let rules = Rules { max_turns: 2, outside: true };
            let search = Search::new(&board, Settings { rules, gravity: true, budget: DEFAULT_BUDGET });
            let last = board.rows();
            let rows = &search.bits.rows;
            let open = |(row, col): (usize, usize)| rows[row] >> col & 1 == 1;
            for &sunk in &search.cell {
                let (row, col) = (usize::from(sunk.0), usize::from(sunk.1));
                let is_sunk = row == last
                    && open((row + 1, col))
                    && !open((row, col - 1))
                    && !open((row, col + 1))
                    && !open((row - 1, col));
                if !is_sunk {
                    continue;
                }
                for &other in search.cell.iter().filter(|&&other| other != sunk) {
                    prop_assert_eq!(
                        sunk_joinable(&search.bits.cols, last, sunk, other),
                        search.bits.joinable(sunk, other, 2),
                        "{:?} and {:?}", sunk, other
                    );
                }
            }
        }

        /// [`side_by_side`] marks exactly the cells holding a piece whose right neighbour (the
        /// next word's first cell after the last) or the one below holds a piece of its kind
        /// (bytes drawn from a few kinds and empty cells, so that matches are common).
        #[test]
        fn side_by_side_finds_equal_neighbours(cells in proptest::collection::vec(0u8..4, 24)) {
            let byte = |cell: u8| if cell == 3 { NO_KIND } else { cell };
            let word = |from: usize| (0..8).fold(0u64, |word, i| word | u64::from(byte(cells[from + i])) << (8 * i));
            let (right, down) = side_by_side(word(0), word(8), word(16));
            for i in 0..8 {
                let here = byte(cells[i]);
                let held = here != NO_KIND;
                prop_assert_eq!(right >> (8 * i + 7) & 1 == 1, held && here == byte(cells[i + 1]));
                prop_assert_eq!(down >> (8 * i + 7) & 1 == 1, held && here == byte(cells[16 + i]));
            }
            prop_assert_eq!((right | down) & !(LOW_BYTES << 7), 0);
        }
    }
}
