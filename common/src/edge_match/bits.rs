//! The bit search: the row-major search for puzzles with nearly distinct tiles
//! ([`Puzzle::nearly_distinct`]), with sets of kinds as bitsets.
//!
//! A cell's candidates are one AND of the list for its (left, top), the kinds still available
//! and the kinds the row lookahead allows, so refused candidates cost nothing. Its dead-end
//! table holds only states at the start of one row ([`Budgets::dead_row`](super::Budgets::dead_row), the second): there
//! distinct first rows often leave the same state, and the table stays small. On top of the
//! checks of the row-major search it uses two more, both relaxations that ignore
//! multiplicities:
//! - **Forced borders.** On entering a row, when the horizontal surplus fills the right border
//!   cells left exactly, the right (left) border labels are exactly its positive (negative)
//!   part, and in the last row the bottoms are exactly the vertical surplus; the lookahead only
//!   admits kinds with such labels there (see [`BitSearch::border_kinds`]).
//! - **Next row.** Each placement in a row below which another row follows extends the set of
//!   kinds that can stand in the next row under the bottoms placed so far, chained from its
//!   left border; an empty set refuses the placement.
//!
//! Arrays have fixed sizes and are indexed through masks, so the hot loop has no bounds checks;
//! the constants below say what each mask relies on, and compile-time assertions hold them.

use rustc_hash::FxHashSet;

use super::checks::Counters;
use super::nodes::Nodes;
use super::split::PREFIX;
use super::{ANY, BIT_KINDS, Config, KEYS, MAX_LABELS, MAX_SIDE, Placement, Puzzle, Variant};
use crate::Grid;

/// Kind indices are taken `& KIND_MASK` (a kind is a bit of a `u64`).
const KIND_MASK: usize = BIT_KINDS - 1;
/// Rows and columns are taken `& SIDE_MASK` into the per-cell tables of `ROW_SLOTS` entries.
const ROW_SLOTS: usize = MAX_SIDE.next_power_of_two();
const SIDE_MASK: usize = ROW_SLOTS - 1;
/// Cells are taken `& CELL_MASK` into the per-cell arrays of `CELL_SLOTS` entries.
const CELL_SLOTS: usize = (MAX_SIDE * MAX_SIDE).next_power_of_two();
const CELL_MASK: usize = CELL_SLOTS - 1;
/// A list key holds a left and a top label (or [`ANY`]) in `KEY_BITS` bits each.
const KEY_BITS: u32 = KEYS.next_power_of_two().trailing_zeros();
/// Entries of [`BitSearch::lists`]: every [`bit_key`] is below this.
const BIT_LISTS: usize = 1 << (2 * KEY_BITS);
/// A [`RowState`] packs the tops of a row in `TOP_BITS` bits each.
const TOP_BITS: u32 = MAX_LABELS.trailing_zeros();

const _: () = {
    // A kind is one bit of a `u64`, and a byte of kinds indexes `feeds` and `follows`.
    assert!(BIT_KINDS == u64::BITS as usize && BIT_KINDS.is_multiple_of(8));
    // `board` holds kind indices in bytes.
    assert!(BIT_KINDS <= u8::MAX as usize + 1);
    // Labels below `MAX_LABELS` fit in `TOP_BITS` bits, and a row of tops in a `u64`.
    assert!(MAX_LABELS.is_power_of_two() && MAX_SIDE * TOP_BITS as usize <= u64::BITS as usize);
    // The remaining counts of kinds with several tiles, in mixed radix, fit in a `u128`: with
    // fewer than two cells per kind the product of (count + 1) is at most 3^BIT_KINDS.
    assert!(3u128.checked_pow(BIT_KINDS as u32).is_some());
};

/// Key of [`BitSearch::lists`]: a cell's required left and top labels, or [`ANY`].
fn bit_key(left: usize, top: usize) -> usize {
    (left << KEY_BITS | top) & (BIT_LISTS - 1)
}

/// Kinds by byte of a set of kinds, as [`BitSearch::feeds`] and [`BitSearch::follows`].
type ByteTables = Box<[[u64; 256]; BIT_KINDS / 8]>;

/// The union of `tables[b][byte b of kinds]` over the eight bytes of `kinds`: through
/// [`BitSearch::feeds`] or [`BitSearch::follows`], the kinds that can stand left or right of some
/// kind of `kinds`, whose kinds lie in the first `bytes` bytes. Four, six or eight bytes are
/// looked up, without a loop or a branch between the lookups, so they do not wait on each other: the
/// row lookahead (`plan_row`) runs this once a column on every row start, a quarter of the time
/// of the restarts of 8×8 games before. Bytes past the kinds are zero and every table maps the
/// byte 0 to no kinds, so an extra lookup adds nothing.
#[allow(clippy::inline_always, reason = "on the hot path of every node")]
#[inline(always)]
fn through_bytes(tables: &[[u64; 256]; BIT_KINDS / 8], kinds: u64, bytes: usize) -> u64 {
    let at = |b: usize| tables[b][usize::from((kinds >> (8 * b)) as u8)];
    let low = (at(0) | at(1)) | (at(2) | at(3));
    match bytes {
        0..=4 => low,
        5..=6 => low | (at(4) | at(5)),
        _ => low | ((at(4) | at(5)) | (at(6) | at(7))),
    }
}

/// The search of the module documentation. The same order and checks as the row-major search
/// (module `rows`), plus the forced borders and the next-row chain, so the same solutions in the
/// same order; dead ends are recorded only at the start of row [`Budgets::dead_row`](super::Budgets::dead_row) (see
/// [`RowState`]). Invariants:
/// - cells `0..cell` (row-major) are filled, `board[i]` holding the kind in cell `i` and
///   `bottoms[i]` its bottom label;
/// - `remaining[k]` = `kinds[k].count` − tiles of kind `k` on the board, and bit `k` of
///   `available` is set exactly when `remaining[k] > 0`;
/// - `counters` describe the tiles not on the board;
/// - `allowed[r][c]` was built when the search last entered row `r`: the kinds whose right
///   label lets row `r` be completed after column `c` (the row lookahead of module `rows`), that may stand in
///   that column by the forced borders;
/// - `below[r][c]` was built when the tile of (r, c) was placed (see the field);
/// - every state in `dead_rows` is the state at the start of row `dead_row` of a subtree
///   that was searched to its end (not stopped by the limit or the budget) without a solution.
#[derive(Clone)]
pub(super) struct BitSearch {
    rows: usize,
    pub(super) cols: usize,
    pub(super) sides: [Variant; BIT_KINDS],
    /// Kinds by (left, top) label, [`ANY`] matching every label.
    lists: [u64; BIT_LISTS],
    /// `feeds[b][byte]`: the kinds whose right label is the left label of some kind `k` in
    /// `8b..8b + 8` with bit `k − 8b` set in `byte` (kinds that can stand left of those), for
    /// `b` below `feed_bytes`, the bytes that hold kinds; all zero for the bytes past them, and
    /// `feeds[b][0]` is zero for every `b` (see [`through_bytes`]).
    feeds: ByteTables,
    /// Likewise `follows`: the kinds whose left label is the right label of some kind in the
    /// byte (kinds that can stand right of those).
    follows: ByteTables,
    /// `below[r][c]`: the kinds that may stand in cell (r + 1, c), as far as row `r + 1` can be
    /// chained from its left border under the tops placed so far (ignoring multiplicities),
    /// built when the tile of (r, c) was placed.
    below: [[u64; ROW_SLOTS]; ROW_SLOTS],
    feed_bytes: usize,
    /// Kinds by right, left and bottom label.
    with_right: [u64; MAX_LABELS],
    with_left: [u64; MAX_LABELS],
    with_bottom: [u64; MAX_LABELS],
    pub(super) remaining: [u8; BIT_KINDS],
    available: u64,
    board: [u8; CELL_SLOTS],
    /// `bottoms[i]`: the bottom label of the tile in cell `i`.
    bottoms: [u8; CELL_SLOTS],
    /// `rows * cols`.
    pub(super) cells: usize,
    allowed: [[u64; ROW_SLOTS]; ROW_SLOTS],
    counters: Counters,
    /// Kinds with a count of two or more, and the weight of one tile of each in
    /// [`RowState::plural`] (mixed radix, the digit of kind `k` running over
    /// `0..=kinds[k].count`).
    plural_kinds: u64,
    plural_weight: [u128; BIT_KINDS],
    /// Row starts whose subtree held no solution (see [`RowState`]).
    dead_rows: FxHashSet<RowState>,
    /// The row whose starts go into `dead_rows`, and the most entries it takes.
    dead_row: usize,
    dead_rows_capacity: usize,
    pub(super) limit: u64,
    /// `prefix[i]` for the first [`PREFIX`] cells: the kinds cell `i` may take (all but in a
    /// [`SplitSearch`](super::split::SplitSearch) task, which fixes those cells).
    pub(super) prefix: [u64; PREFIX],
    /// Nodes visited, the budget, and in a split task the cancellation.
    pub(super) nodes: Nodes,
    pub(super) found: u64,
    pub(super) first: Option<Grid<Placement>>,
}

impl BitSearch {
    /// A search of `puzzle`, which must be [nearly distinct](Puzzle::nearly_distinct).
    pub(super) fn new(puzzle: &Puzzle, config: &Config) -> Self {
        let tables = (Box::new([[0; 256]; BIT_KINDS / 8]), Box::new([[0; 256]; BIT_KINDS / 8]));
        Self::with_storage(puzzle, config, tables, FxHashSet::default())
    }

    /// A search of `puzzle` like [`BitSearch::new`], built in the storage of `self` (the byte
    /// tables and the dead-end table's allocation), which is consumed: the restarts build
    /// thousands of searches of one puzzle, each for a few thousand nodes, and allocating and
    /// zeroing that storage for each cost a few percent of their time.
    pub(super) fn rebuilt(self, puzzle: &Puzzle, config: &Config) -> Self {
        let mut dead_rows = self.dead_rows;
        dead_rows.clear();
        Self::with_storage(puzzle, config, (self.feeds, self.follows), dead_rows)
    }

    /// [`BitSearch::new`] with the byte tables (`feeds`, `follows`, any contents) and an empty
    /// dead-end table given.
    fn with_storage(
        puzzle: &Puzzle,
        config: &Config,
        tables: (ByteTables, ByteTables),
        dead_rows: FxHashSet<RowState>,
    ) -> Self {
        debug_assert!(dead_rows.is_empty());
        let (rows, cols, labels) = (puzzle.rows, puzzle.cols, puzzle.labels);
        assert!((1..=MAX_SIDE).contains(&rows) && (1..=MAX_SIDE).contains(&cols) && labels <= MAX_LABELS);
        let mut search = BitSearch {
            rows,
            cols,
            sides: [Variant::default(); BIT_KINDS],
            lists: [0; BIT_LISTS],
            feeds: tables.0,
            follows: tables.1,
            below: [[0; ROW_SLOTS]; ROW_SLOTS],
            feed_bytes: puzzle.kinds.len().div_ceil(8),
            with_right: [0; MAX_LABELS],
            with_left: [0; MAX_LABELS],
            with_bottom: [0; MAX_LABELS],
            remaining: [0; BIT_KINDS],
            available: 0,
            board: [0; CELL_SLOTS],
            bottoms: [0; CELL_SLOTS],
            cells: rows * cols,
            allowed: [[0; ROW_SLOTS]; ROW_SLOTS],
            counters: Counters::default(),
            plural_kinds: 0,
            plural_weight: [0; BIT_KINDS],
            dead_rows,
            dead_row: config.budgets.dead_row,
            dead_rows_capacity: config.budgets.dead_ends,
            limit: config.limit.max(1),
            prefix: [u64::MAX; PREFIX],
            nodes: Nodes::new(config.progress.clone(), config.budgets.poll),
            found: 0,
            first: None,
        };
        for (index, kind) in puzzle.kinds.iter().enumerate() {
            let sides = kind.orientations[0];
            assert!(sides.iter().all(|&label| (label as usize) < labels));
            let [top, right, bottom, left] = sides;
            search.sides[index] = Variant::new(index, 0, sides);
            let bit = 1u64 << index;
            for l in [left as usize, ANY] {
                for t in [top as usize, ANY] {
                    search.lists[bit_key(l, t)] |= bit;
                }
            }
            search.with_right[right as usize] |= bit;
            search.with_left[left as usize] |= bit;
            search.with_bottom[bottom as usize] |= bit;
            search.remaining[index] = kind.count as u8;
            if kind.count > 0 {
                search.available |= bit;
            }
        }
        search.counters = Counters::of(puzzle);
        let mut weight: u128 = 1;
        for (index, kind) in puzzle.kinds.iter().enumerate().filter(|(_, kind)| kind.count > 1) {
            search.plural_kinds |= 1 << index;
            search.plural_weight[index] = weight;
            // The product of (count + 1) over these kinds is at most 3^BIT_KINDS (see the
            // assertions above), as nearly distinct tiles have fewer than two cells per kind.
            weight = weight.checked_mul(u128::from(kind.count) + 1).expect("fewer than two cells per kind");
        }
        // Kind `k` is fed by the kinds whose right label is its left one, and followed by those
        // whose left label is its right one. Each table entry is built from the entry of its
        // byte without the lowest bit (every byte below 256 is visited after that one), so a
        // table costs 256 ORs: the symmetry choice builds ten searches per puzzle, and the
        // judge's 5×5 puzzles take a few thousand nodes each.
        let kinds = puzzle.kinds.len();
        // Given tables may hold another puzzle's kinds: the bytes past this one's must be zero,
        // and so must every entry for the byte 0 (see `through_bytes`).
        for b in 0..BIT_KINDS / 8 {
            if b < search.feed_bytes {
                (search.feeds[b][0], search.follows[b][0]) = (0, 0);
            } else {
                search.feeds[b].fill(0);
                search.follows[b].fill(0);
            }
        }
        for b in 0..search.feed_bytes {
            for byte in 1..256usize {
                let kind = 8 * b + byte.trailing_zeros() as usize;
                let rest = byte & (byte - 1);
                let (mut fed, mut followed) = (search.feeds[b][rest], search.follows[b][rest]);
                if kind < kinds {
                    let v = search.sides[kind];
                    fed |= search.with_right[v.left as usize & (MAX_LABELS - 1)];
                    followed |= search.with_left[v.right as usize & (MAX_LABELS - 1)];
                }
                search.feeds[b][byte] = fed;
                search.follows[b][byte] = followed;
            }
        }
        search
    }

    pub(super) fn run(&mut self) {
        if self.counters.surplus_fits(self.rows, self.cols) {
            self.fill(0, 0, 0, ANY);
        }
        self.nodes.report();
    }

    /// The label above `cell`, or [`ANY`] in the top row.
    pub(super) fn top_of(&self, cell: usize) -> usize {
        if cell < self.cols { ANY } else { self.bottoms[(cell - self.cols) & CELL_MASK] as usize }
    }

    /// Builds `allowed[row]` from the kinds available now (the row lookahead of the row-major
    /// search); false when the row cannot be filled.
    pub(super) fn plan_row(&mut self, row: usize) -> bool {
        let (border_rights, border_lefts, bottoms) = self.border_kinds(row);
        let mut allowed = border_rights;
        for col in (0..self.cols).rev() {
            if col == 0 {
                allowed &= border_lefts;
            }
            allowed &= bottoms;
            self.allowed[row & SIDE_MASK][col & SIDE_MASK] = allowed;
            let top = self.top_of(row * self.cols + col);
            let completing: u64 = self.lists[bit_key(ANY, top)] & self.available & allowed;
            if completing == 0 {
                // No tile completes the row from this column on, whatever stands before it.
                return false;
            }
            if col == 0 {
                // Nothing stands before column 0: the kinds feeding it are not needed.
                break;
            }
            allowed = through_bytes(&self.feeds, completing, self.feed_bytes);
        }
        true
    }

    /// On entering `row`: the kinds that may end the row on the right border, start it on the
    /// left border, and (in the last row) lie on the bottom border, as the surplus counters
    /// force them. The rows left, `k` of them, have `k` right-border sides R and `k`
    /// left-border sides L; every other left side meets a right side inside, so R − L is the
    /// horizontal surplus `s` (as multisets by label), hence R ≥ s⁺ and L ≥ s⁻. When `s⁺` has
    /// `k` elements (then `s⁻` too, as `s` sums to zero), R = s⁺ and L = s⁻ exactly: the
    /// row's last tile has a right label with `s[d] > 0`, its first a left label with
    /// `s[d] < 0`. In the last row below the first, the tiles left meet the open edges with
    /// their tops, so their bottoms are the vertical surplus (bottoms less tops plus open
    /// edges), which the surplus check keeps nonnegative: every tile there has a bottom label
    /// with a positive vertical surplus.
    fn border_kinds(&self, row: usize) -> (u64, u64, u64) {
        let c = &self.counters;
        let (mut rights, mut lefts, mut bottoms) = (u64::MAX, u64::MAX, u64::MAX);
        if c.h_positive == (self.rows - row) as i32 {
            (rights, lefts) = (0, 0);
            // Branch-free over all labels (unused ones hold no kinds): this runs on every row
            // entry.
            for d in 0..MAX_LABELS {
                rights |= self.with_right[d] & 0u64.wrapping_sub(u64::from(c.h_surplus[d] > 0));
                lefts |= self.with_left[d] & 0u64.wrapping_sub(u64::from(c.h_surplus[d] < 0));
            }
        }
        if row > 0 && row + 1 == self.rows {
            bottoms = 0;
            for d in 0..MAX_LABELS {
                bottoms |= self.with_bottom[d] & 0u64.wrapping_sub(u64::from(c.v_surplus[d] > 0));
            }
        }
        (rights, lefts, bottoms)
    }

    /// The kinds that may stand in cell (row + 1, col) as far as its left neighbour allows:
    /// those whose left label is the right label of a kind of `below[row][col − 1]` (all in
    /// column 0). Read while (row, col) is being filled, when `below[row][col − 1]` is final.
    fn follow(&self, row: usize, col: usize) -> u64 {
        if col == 0 {
            return u64::MAX;
        }
        through_bytes(&self.follows, self.below[row & SIDE_MASK][(col - 1) & SIDE_MASK], self.feed_bytes)
    }

    /// After `v` landed at (row, col), with the counts updated: can row + 1 still be chained
    /// from its left border to column `col` under the tops known now? (Builds `below`;
    /// `follow` is [`BitSearch::follow`] of (row, col).)
    fn below_chains(&mut self, row: usize, col: usize, v: Variant, follow: u64) -> bool {
        if row + 1 >= self.rows {
            return true;
        }
        let possible = self.lists[bit_key(ANY, v.bottom as usize)] & self.available & follow;
        self.below[row & SIDE_MASK][col & SIDE_MASK] = possible;
        possible != 0
    }

    /// Puts kind `kind` in `cell` at (row, col); false (and nothing placed) when the counting
    /// checks refuse it.
    pub(super) fn try_place(&mut self, cell: usize, row: usize, col: usize, kind: usize) -> bool {
        let v = self.sides[kind & KIND_MASK];
        self.counters.place(self.rows, self.cols, row, col, v);
        if !self.counters.hold(self.rows, self.cols, row, col, v, true) {
            self.counters.unplace(self.rows, self.cols, row, col, v);
            return false;
        }
        self.lay(cell, kind, v);
        true
    }

    /// Puts a tile of `kind`, whose sides are `v`, in `cell`: the
    /// remaining counts, `available`, `board` and `bottoms`, not the counters.
    #[allow(clippy::inline_always, reason = "on the hot path of every placement")]
    #[inline(always)]
    fn lay(&mut self, cell: usize, kind: usize, v: Variant) {
        let kind = kind & KIND_MASK;
        self.remaining[kind] -= 1;
        if self.remaining[kind] == 0 {
            self.available &= !(1 << kind);
        }
        self.board[cell & CELL_MASK] = kind as u8;
        self.bottoms[cell & CELL_MASK] = v.bottom;
    }

    /// The mirror of [`BitSearch::lay`] (`board` and `bottoms` keep stale entries past the
    /// filled cells).
    #[allow(clippy::inline_always, reason = "on the hot path of every placement")]
    #[inline(always)]
    fn lift(&mut self, kind: usize) {
        let kind = kind & KIND_MASK;
        self.remaining[kind] += 1;
        self.available |= 1 << kind;
    }

    /// Takes back the tile of `cell` at (row, col).
    pub(super) fn take_back(&mut self, cell: usize, row: usize, col: usize) {
        let kind = self.board[cell & CELL_MASK] as usize & KIND_MASK;
        self.counters.unplace(self.rows, self.cols, row, col, self.sides[kind]);
        self.lift(kind);
    }

    /// The candidates of `cell` at (row, col) after a tile with right label `left` (or [`ANY`]
    /// in column 0), as the masks leave them: list, available kinds, row lookahead.
    #[inline]
    pub(super) fn candidates(&self, cell: usize, row: usize, col: usize, left: usize) -> u64 {
        self.lists[bit_key(left, self.top_of(cell))]
            & self.available
            & self.allowed[row & SIDE_MASK][col & SIDE_MASK]
    }

    /// The right label of the tile in `cell`.
    pub(super) fn right_of(&self, cell: usize) -> usize {
        self.sides[self.board[cell & CELL_MASK] as usize & KIND_MASK].right as usize
    }

    /// Fills `cell` and the cells after it; true when the limit of solutions is reached or
    /// the budget is spent. One call is one node, except that a cell within a row whose
    /// candidates come out empty is counted without a call (see [`BitSearch::descend`]).
    fn fill(&mut self, cell: usize, row: usize, col: usize, left: usize) -> bool {
        if self.nodes.count >= self.nodes.next_poll && !self.nodes.poll() {
            return true;
        }
        self.nodes.count += 1;
        let (rows, cols) = (self.rows, self.cols);
        if cell == self.cells {
            self.found += 1;
            if self.first.is_none() {
                let placements = self.board[..cell]
                    .iter()
                    .map(|&kind| Placement { kind: kind as usize, orientation: 0 })
                    .collect();
                self.first = Some(Grid::from_vec(rows, cols, placements));
            }
            return self.found >= self.limit;
        }
        if col == 0 && !self.plan_row(row) {
            return false;
        }
        let row_start = if col == 0 && row == self.dead_row {
            let state = self.row_state(cell);
            if self.dead_rows.contains(&state) {
                return false;
            }
            Some((state, self.found))
        } else {
            None
        };
        let mut candidates = self.candidates(cell, row, col, left);
        if cell < PREFIX {
            candidates &= self.prefix[cell];
        }
        if col == 0 && row > 0 && row + 1 < self.rows && self.cols > 1 {
            self.branch_side(cell, row, col, candidates, row_start)
        } else {
            self.branch(cell, row, col, candidates, row_start)
        }
    }

    /// [`BitSearch::fill`] for a cell after the first in its row and past the prefix, whose
    /// `candidates` the caller has computed.
    fn fill_known(&mut self, cell: usize, row: usize, col: usize, candidates: u64) -> bool {
        if self.nodes.count >= self.nodes.next_poll && !self.nodes.poll() {
            return true;
        }
        self.nodes.count += 1;
        // `col > 0` here (the callers' invariant): an inner cell is one off the border whose
        // successor is in the same row.
        if row > 0 && row + 1 < self.rows {
            if col + 1 < self.cols {
                self.branch_inner(cell, row, col, candidates)
            } else {
                self.branch_side(cell, row, col, candidates, None)
            }
        } else {
            self.branch(cell, row, col, candidates, None)
        }
    }

    /// [`BitSearch::branch`] for a cell in the first or the last column (not both: `cols > 1`)
    /// of a row between the first and the last (`0 < row < rows − 1`): the same tries and
    /// nodes, with the counting checks cut to what such a cell changes. Of the counters of
    /// `Counters::place` it changes only the horizontal surplus of its left (first column) or
    /// right (last column) label and the open-bottoms counter of its bottom label. Every
    /// `spare_tops` entry is nonnegative at every node (each decrement is checked, or undone),
    /// so only the bottom's needs a check; `v_positive` changes only in the first and last
    /// rows, where `Counters::hold` checked it against `cols`, the bound of every row between;
    /// `h_positive` is checked against the right-border cells left after this one, as there.
    #[allow(
        clippy::inline_always,
        reason = "inlined into both callers, on the path of every row start and end"
    )]
    #[inline(always)]
    fn branch_side(
        &mut self,
        cell: usize,
        row: usize,
        col: usize,
        mut candidates: u64,
        row_start: Option<(RowState, u64)>,
    ) -> bool {
        let first = col == 0;
        let (next_row, next_col) = if first { (row, 1) } else { (row + 1, 0) };
        let right_border_left = (self.rows - 1 - row + usize::from(first)) as i32;
        let delta = if first { 1 } else { -1 };
        let follow = self.follow(row, col);
        while candidates != 0 {
            let kind = candidates.trailing_zeros() as usize & KIND_MASK;
            candidates &= candidates - 1;
            let v = self.sides[kind];
            let bottom = v.bottom as usize & (MAX_LABELS - 1);
            let side = if first { v.left } else { v.right };
            self.lay(cell, kind, v);
            let counters = &mut self.counters;
            Counters::add(&mut counters.h_surplus, &mut counters.h_positive, side, delta);
            counters.spare_tops[bottom] -= 1;
            if counters.spare_tops[bottom] >= 0
                && counters.h_positive <= right_border_left
                && self.below_chains(row, col, v, follow)
                && self.descend(cell, next_row, next_col, v)
            {
                return true;
            }
            let counters = &mut self.counters;
            counters.spare_tops[bottom] += 1;
            Counters::add(&mut counters.h_surplus, &mut counters.h_positive, side, -delta);
            self.lift(kind);
        }
        self.record_dead(row_start);
        false
    }

    /// Records a row start (its state and the solutions found before it) as a dead end when
    /// nothing was found below it, while the table has room.
    fn record_dead(&mut self, row_start: Option<(RowState, u64)>) {
        if let Some((state, found)) = row_start
            && self.found == found
            && self.dead_rows.len() < self.dead_rows_capacity
        {
            self.dead_rows.insert(state);
        }
    }

    /// [`BitSearch::branch`] for a cell off the border, after the first in its row and past
    /// the prefix, whose successor is in the same row (`0 < row < rows − 1`,
    /// `0 < col < cols − 1`): the same tries and nodes, with what does not depend on the
    /// candidate taken out of the loop. Within the subtree of this cell only cells after it
    /// are filled, so `below[row][col − 1]`, `allowed[row][col + 1]` and the top of the next
    /// cell stay as they are; only `available` (and the counters) change per candidate.
    /// Only the open-bottoms counter of the bottom label changes here (see
    /// `Counters::place`), and the surplus bounds are those of the cell before, which passed:
    /// only that counter is checked.
    #[allow(
        clippy::inline_always,
        reason = "inlined into its one caller, on the hot path of every inner cell"
    )]
    #[inline(always)]
    fn branch_inner(&mut self, cell: usize, row: usize, col: usize, mut candidates: u64) -> bool {
        let next = cell + 1;
        let follow = self.follow(row, col);
        let next_top = self.bottoms[(next - self.cols) & CELL_MASK] as usize;
        let next_allowed = self.allowed[row & SIDE_MASK][(col + 1) & SIDE_MASK];
        while candidates != 0 {
            let kind = candidates.trailing_zeros() as usize & KIND_MASK;
            candidates &= candidates - 1;
            let v = self.sides[kind];
            let bottom = v.bottom as usize & (MAX_LABELS - 1);
            self.lay(cell, kind, v);
            self.counters.spare_tops[bottom] -= 1;
            if self.counters.spare_tops[bottom] >= 0 {
                // The next-row chain (`below_chains`) with the row and column known.
                let possible = self.lists[bit_key(ANY, bottom)] & self.available & follow;
                self.below[row & SIDE_MASK][col & SIDE_MASK] = possible;
                if possible != 0 {
                    // `descend` with the next cell known to be in this row, past the prefix.
                    let next_candidates =
                        self.lists[bit_key(v.right as usize, next_top)] & self.available & next_allowed;
                    if next_candidates == 0 && self.nodes.count < self.nodes.next_poll {
                        self.nodes.count += 1;
                    } else if self.fill_known(next, row, col + 1, next_candidates) {
                        return true;
                    }
                }
            }
            self.counters.spare_tops[bottom] += 1;
            self.lift(kind);
        }
        false
    }

    /// Tries every kind of `candidates` in `cell` at (row, col) and searches on; records the
    /// row start (its state and the solutions found before it) as a dead end when nothing was
    /// found below it. For cells in the first or the last row, and the first cells of a search
    /// (the others take [`BitSearch::branch_inner`] and [`BitSearch::branch_side`]), so the
    /// counting checks run in full.
    #[allow(
        clippy::inline_always,
        reason = "inlined into both callers: measured 7% faster on 6×6 boards with five labels"
    )]
    #[inline(always)]
    fn branch(
        &mut self,
        cell: usize,
        row: usize,
        col: usize,
        mut candidates: u64,
        row_start: Option<(RowState, u64)>,
    ) -> bool {
        let (rows, cols) = (self.rows, self.cols);
        let (next_row, next_col) = if col + 1 == cols { (row + 1, 0) } else { (row, col + 1) };
        // Within this subtree only later cells are filled: `below[row][col − 1]` stays.
        let follow = if row + 1 < rows { self.follow(row, col) } else { 0 };
        while candidates != 0 {
            let kind = candidates.trailing_zeros() as usize & KIND_MASK;
            candidates &= candidates - 1;
            let v = self.sides[kind];
            self.lay(cell, kind, v);
            self.counters.place(rows, cols, row, col, v);
            if self.counters.hold(rows, cols, row, col, v, true)
                && self.below_chains(row, col, v, follow)
                && self.descend(cell, next_row, next_col, v)
            {
                return true;
            }
            self.counters.unplace(rows, cols, row, col, v);
            self.lift(kind);
        }
        self.record_dead(row_start);
        false
    }

    /// Searches on from `cell + 1` at (next_row, next_col), `v` having landed in `cell`. Within
    /// a row the candidates of the next cell are computed here, and a cell without any is
    /// counted as a node without a call (unless the budget is reached, where
    /// [`BitSearch::fill_known`] decides), as `fill` would.
    #[allow(clippy::inline_always, reason = "on the hot path of every placement")]
    #[inline(always)]
    fn descend(&mut self, cell: usize, next_row: usize, next_col: usize, v: Variant) -> bool {
        let next = cell + 1;
        if next_col == 0 || next < PREFIX {
            let next_left = if next_col == 0 { ANY } else { v.right as usize };
            return self.fill(next, next_row, next_col, next_left);
        }
        let candidates = self.candidates(next, next_row, next_col, v.right as usize);
        if candidates == 0 && self.nodes.count < self.nodes.next_poll {
            self.nodes.count += 1;
            return false;
        }
        self.fill_known(next, next_row, next_col, candidates)
    }

    /// The state at the start of the row of `cell`.
    fn row_state(&self, cell: usize) -> RowState {
        let mut plural = 0;
        let mut kinds = self.plural_kinds;
        while kinds != 0 {
            let kind = kinds.trailing_zeros() as usize & KIND_MASK;
            kinds &= kinds - 1;
            plural += u128::from(self.remaining[kind]) * self.plural_weight[kind];
        }
        // Row 0 has no tops: its start is the root, whatever `dead_row` says.
        let tops = self.bottoms[cell.saturating_sub(self.cols) & CELL_MASK..cell & CELL_MASK]
            .iter()
            .fold(0, |tops, &label| tops << TOP_BITS | u64::from(label));
        RowState { available: self.available, plural, tops }
    }
}

/// The state at the start of a row, the key of [`BitSearch::dead_rows`]: the remaining tiles
/// (`available`, and the remaining counts of kinds with several tiles in mixed radix) and the
/// tops of the row (the bottoms of the row above, four bits each). Row `r` starts once
/// `r · cols` tiles are placed, so the remaining tiles also fix the row.
///
/// Why the search below a row start is a function of this state, whatever tiles led there: the
/// counters are (right − left sides, bottom − top sides, tops) of the remaining tiles plus the
/// open bottom edges, which are the row's tops (the next cell's left is free at a row start);
/// `allowed` for this row and the rows after it is built from the counters, the tops and
/// `available` on entering each row; `below[r]` is built and read only within row `r`, chained
/// from its left border; a cell reads no `bottoms` above the row over it, and `board` only to
/// record a solution. The [`SplitSearch`](super::split::SplitSearch) prefix may restrict the row start's cell (with one
/// column), but it is the same for every visit within one search, and each task starts with an
/// empty table.
#[derive(Clone, PartialEq, Eq, Hash)]
struct RowState {
    available: u64,
    plural: u128,
    tops: u64,
}
