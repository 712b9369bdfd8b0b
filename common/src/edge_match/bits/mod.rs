//! The bit search: the row-major search for puzzles with nearly distinct tiles
//! ([`Puzzle::nearly_distinct`]), with sets of kinds as bitsets (module `kinds`: one word up to
//! 64 kinds, four up to 256).
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
//!   left border; an empty set refuses the placement. The chain starts from the kinds the left
//!   border allows, which the surplus may force as soon as the row's first tile is placed (see
//!   [`BitSearch::next_row_forced`]).
//!
//! The placement loops are in module `branch`, the byte tables of the lookahead in `tables`.
//! Arrays have fixed sizes and are indexed through masks, so the hot loop has no bounds checks;
//! the constants below say what each mask relies on, and compile-time assertions hold them.

mod branch;
mod tables;

use rustc_hash::FxHashSet;

use super::checks::Counters;
use super::kinds::{ByteTables, KindSet};
use super::nodes::Nodes;
use super::{ANY, BIT_KINDS, BIT_SIDE, Config, KEYS, MAX_LABELS, Placement, Puzzle, Variant};
use crate::Grid;

/// Cells whose kinds the first tasks of a split search (module `split`) fix through
/// [`BitSearch::prefix`].
pub(super) const PREFIX: usize = 2;

/// Rows and columns are taken `& SIDE_MASK` into the per-cell tables of `ROW_SLOTS` entries.
const ROW_SLOTS: usize = BIT_SIDE.next_power_of_two();
const SIDE_MASK: usize = ROW_SLOTS - 1;
/// Cells are taken `& CELL_MASK` into the per-cell arrays of `CELL_SLOTS` entries.
const CELL_SLOTS: usize = (BIT_SIDE * BIT_SIDE).next_power_of_two();
const CELL_MASK: usize = CELL_SLOTS - 1;
/// A list key holds a left and a top label (or [`ANY`]) in `KEY_BITS` bits each.
const KEY_BITS: u32 = KEYS.next_power_of_two().trailing_zeros();
/// Entries of [`BitSearch::lists`]: every [`bit_key`] is below this.
const BIT_LISTS: usize = 1 << (2 * KEY_BITS);
/// A [`RowState`] packs the tops of a row in `TOP_BITS` bits each.
const TOP_BITS: u32 = MAX_LABELS.trailing_zeros();

const _: () = {
    // `board` holds kind indices in bytes.
    assert!(BIT_KINDS <= u8::MAX as usize + 1);
    // Labels below `MAX_LABELS` fit in `TOP_BITS` bits, and a row of tops in a `u64`.
    assert!(MAX_LABELS.is_power_of_two() && BIT_SIDE * TOP_BITS as usize <= u64::BITS as usize);
};

/// `kind` as an index of the per-kind arrays of a search over `S`: masked to the capacity, so
/// indexing needs no bounds check.
#[allow(clippy::inline_always, reason = "on the hot path of every placement")]
#[inline(always)]
fn kind_index<S: KindSet>(kind: usize) -> usize {
    kind & (S::CAPACITY - 1)
}

/// Key of [`BitSearch::lists`]: a cell's required left and top labels, or [`ANY`].
fn bit_key(left: usize, top: usize) -> usize {
    (left << KEY_BITS | top) & (BIT_LISTS - 1)
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
pub(super) struct BitSearch<S: KindSet> {
    rows: usize,
    pub(super) cols: usize,
    pub(super) sides: S::PerKind<Variant>,
    /// Kinds by (left, top) label, [`ANY`] matching every label.
    lists: [S; BIT_LISTS],
    /// `feeds[b][byte]`: the kinds whose right label is the left label of some kind `k` in
    /// `8b..8b + 8` with bit `k − 8b` set in `byte` (kinds that can stand left of those), for
    /// `b` below `feed_bytes`, the bytes that hold kinds; empty for the bytes past them, and
    /// `feeds[b][0]` is empty for every `b` (see [`KindSet::through`]). Built only when the
    /// lookahead uses them (not [`KindSet::BY_LABEL`]).
    feeds: ByteTables<S>,
    /// Likewise `follows`: the kinds whose left label is the right label of some kind in the
    /// byte (kinds that can stand right of those).
    follows: ByteTables<S>,
    /// `below[r][c]`: the kinds that may stand in cell (r + 1, c), as far as row `r + 1` can be
    /// chained from its left border under the tops placed so far (ignoring multiplicities),
    /// built when the tile of (r, c) was placed.
    below: [[S; ROW_SLOTS]; ROW_SLOTS],
    feed_bytes: usize,
    /// Kinds by right, left and bottom label.
    with_right: [S; MAX_LABELS],
    with_left: [S; MAX_LABELS],
    with_bottom: [S; MAX_LABELS],
    pub(super) remaining: S::PerKind<u8>,
    available: S,
    board: [u8; CELL_SLOTS],
    /// `bottoms[i]`: the bottom label of the tile in cell `i`.
    bottoms: [u8; CELL_SLOTS],
    /// `rows * cols`.
    pub(super) cells: usize,
    allowed: [[S; ROW_SLOTS]; ROW_SLOTS],
    counters: Counters,
    /// Kinds with a count of two or more, and the weight of one tile of each in
    /// [`RowState::plural`] (mixed radix, the digit of kind `k` running over
    /// `0..=kinds[k].count`). When the product of those radices passes `u128` (possible past
    /// 64 kinds) no dead end is recorded.
    plural_kinds: S,
    plural_weight: S::PerKind<u128>,
    /// Row starts whose subtree held no solution (see [`RowState`]).
    dead_rows: FxHashSet<RowState<S>>,
    /// The row whose starts go into `dead_rows`, and the most entries it takes.
    dead_row: usize,
    dead_rows_capacity: usize,
    pub(super) limit: u64,
    /// `prefix[i]`: the kinds cell `i` may take, for the first cells (none but in a split task,
    /// which fixes those cells).
    pub(super) prefix: Vec<S>,
    /// What a split task stopped by [`Nodes::split`] had left to try, from the deepest cell up:
    /// (cell, kinds) for the unexpanded node it stopped at and for each placement loop on its
    /// path (see [`BitSearch::pieces_left`]).
    remainder: Vec<(usize, S)>,
    /// Nodes visited, the budget, and in a split task the cancellation.
    pub(super) nodes: Nodes,
    pub(super) found: u64,
    pub(super) first: Option<Grid<Placement>>,
    /// When kept (counting with restarts, module `restarts`): the kinds of every solution
    /// found, `cells` bytes each, one after the other.
    pub(super) recorded: Option<Vec<u8>>,
}

impl<S: KindSet> BitSearch<S> {
    /// A search of `puzzle`, which must be [nearly distinct](Puzzle::nearly_distinct).
    pub(super) fn new(puzzle: &Puzzle, config: &Config) -> Self {
        Self::with_storage(puzzle, config, (S::byte_tables(), S::byte_tables()), FxHashSet::default())
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
        tables: (ByteTables<S>, ByteTables<S>),
        dead_rows: FxHashSet<RowState<S>>,
    ) -> Self {
        debug_assert!(dead_rows.is_empty());
        let (rows, cols, labels) = (puzzle.rows, puzzle.cols, puzzle.labels);
        assert!((1..=BIT_SIDE).contains(&rows) && (1..=BIT_SIDE).contains(&cols) && labels <= MAX_LABELS);
        let mut search = BitSearch {
            rows,
            cols,
            sides: S::per_kind(Variant::default()),
            lists: [S::EMPTY; BIT_LISTS],
            feeds: tables.0,
            follows: tables.1,
            below: [[S::EMPTY; ROW_SLOTS]; ROW_SLOTS],
            feed_bytes: puzzle.kinds.len().div_ceil(8),
            with_right: [S::EMPTY; MAX_LABELS],
            with_left: [S::EMPTY; MAX_LABELS],
            with_bottom: [S::EMPTY; MAX_LABELS],
            remaining: S::per_kind(0),
            available: S::EMPTY,
            board: [0; CELL_SLOTS],
            bottoms: [0; CELL_SLOTS],
            cells: rows * cols,
            allowed: [[S::EMPTY; ROW_SLOTS]; ROW_SLOTS],
            counters: Counters::default(),
            plural_kinds: S::EMPTY,
            plural_weight: S::per_kind(0),
            dead_rows,
            dead_row: config.budgets.dead_row,
            dead_rows_capacity: config.budgets.dead_ends,
            limit: config.limit.max(1),
            prefix: Vec::new(),
            remainder: Vec::new(),
            nodes: Nodes::new(config.progress.clone(), config.budgets.poll),
            found: 0,
            first: None,
            recorded: None,
        };
        assert!(puzzle.kinds.len() <= S::CAPACITY);
        for (index, kind) in puzzle.kinds.iter().enumerate() {
            let sides = kind.orientations[0];
            assert!(sides.iter().all(|&label| (label as usize) < labels));
            let [top, right, bottom, left] = sides;
            search.sides[index] = Variant::new(index, 0, sides);
            let bit = S::single(index);
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
        let mut weight: Option<u128> = Some(1);
        for (index, kind) in puzzle.kinds.iter().enumerate().filter(|(_, kind)| kind.count > 1) {
            search.plural_kinds |= S::single(index);
            search.plural_weight[index] = weight.unwrap_or(0);
            // With at most 64 kinds the product of (count + 1) is at most 3^64, as nearly
            // distinct tiles have fewer than two cells per kind; past them it may overflow.
            weight = weight.and_then(|weight| weight.checked_mul(u128::from(kind.count) + 1));
        }
        if weight.is_none() {
            search.dead_rows_capacity = 0;
        }
        if !S::BY_LABEL {
            tables::build(&mut search, puzzle.kinds.len());
        }
        search
    }

    pub(super) fn run(&mut self) {
        if self.root_fits() {
            self.fill(0, 0, 0, ANY);
        }
        self.nodes.report();
    }

    /// Whether the root passes the surplus check, which [`BitSearch::run`] makes before any
    /// placement.
    pub(super) fn root_fits(&self) -> bool {
        self.counters.surplus_fits(self.rows, self.cols)
    }

    /// After a run stopped by a split ([`Nodes::split`]): the rest of its tree as prefixes for
    /// [`BitSearch::prefix`], in search order. Each is the path to a cell on the stopped
    /// search's path, one kind per cell, then the kinds that cell had left; the first is the
    /// node the search stopped at. Empty when the search was not split.
    pub(super) fn pieces_left(&self) -> Vec<Vec<S>> {
        if !self.nodes.split {
            return Vec::new();
        }
        self.remainder
            .iter()
            .filter(|(_, kinds)| !kinds.is_empty())
            .map(|&(cell, kinds)| {
                let mut prefix: Vec<S> =
                    self.board[..cell].iter().map(|&kind| S::single(kind.into())).collect();
                prefix.push(kinds);
                prefix.extend(self.prefix.iter().skip(cell + 1));
                prefix
            })
            .collect()
    }

    /// The kinds a split task (module `split`) may try in `cell` by its prefix: all past the
    /// prefix.
    fn prefix_kinds(&self, cell: usize) -> S {
        self.prefix.get(cell).copied().unwrap_or(S::FULL)
    }

    /// Called when a poll stops the search at the node of `cell` (not yet counted, `kinds` its
    /// candidates as far as known): in a split, records the node as the first piece left.
    #[cold]
    fn stopped_at(&mut self, cell: usize, kinds: S) {
        if self.nodes.split {
            self.remainder.push((cell, kinds & self.prefix_kinds(cell)));
        }
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
            let completing = self.lists[bit_key(ANY, top)] & self.available & allowed;
            if completing.is_empty() {
                // No tile completes the row from this column on, whatever stands before it.
                return false;
            }
            if col == 0 {
                // Nothing stands before column 0: the kinds feeding it are not needed.
                break;
            }
            allowed = self.fed_by(completing);
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
    fn border_kinds(&self, row: usize) -> (S, S, S) {
        let c = &self.counters;
        let (mut rights, mut lefts, mut bottoms) = (S::FULL, S::FULL, S::FULL);
        if c.h_positive == (self.rows - row) as i32 {
            (rights, lefts) = (self.surplus_rights(), self.surplus_lefts());
        }
        if row > 0 && row + 1 == self.rows {
            bottoms = S::EMPTY;
            for d in 0..MAX_LABELS {
                bottoms |= self.with_bottom[d].kept_if(c.v_surplus[d] > 0);
            }
        }
        (rights, lefts, bottoms)
    }

    /// The kinds whose right label has a positive horizontal surplus: the right border's labels
    /// when the surplus forces them (see [`BitSearch::border_kinds`]). Branch-free over all
    /// labels (unused ones hold no kinds): this runs on every row entry that forces them.
    fn surplus_rights(&self) -> S {
        let mut rights = S::EMPTY;
        for d in 0..MAX_LABELS {
            rights |= self.with_right[d].kept_if(self.counters.h_surplus[d] > 0);
        }
        rights
    }

    /// The kinds whose left label has a negative horizontal surplus: the left border's labels
    /// when the surplus forces them.
    fn surplus_lefts(&self) -> S {
        let mut lefts = S::EMPTY;
        for d in 0..MAX_LABELS {
            lefts |= self.with_left[d].kept_if(self.counters.h_surplus[d] < 0);
        }
        lefts
    }

    /// Whether, with the tile of (row, 0) placed, the left border restricts cell (row + 1, 0) to
    /// the kinds of [`BitSearch::surplus_lefts`]. It does when the horizontal surplus has as
    /// many positive units as right-border cells remain (`rows − row`): then the right sides
    /// still to place on the border are exactly its positive part and the left ones exactly its
    /// negative part (the argument of [`BitSearch::border_kinds`], with one right side more
    /// than left ones). The cells inside the row leave the surplus as it is, and its last cell
    /// takes a unit of the positive part, so the next row starts with a left label of negative
    /// surplus.
    fn next_row_forced(&self, row: usize) -> bool {
        self.counters.h_positive == (self.rows - row) as i32
    }

    /// The kinds that may stand in cell (row + 1, col) as far as its left neighbour allows:
    /// those whose left label is the right label of a kind of `below[row][col − 1]` (all in
    /// column 0). Read while (row, col) is being filled, when `below[row][col − 1]` is final.
    #[allow(clippy::inline_always, reason = "once per placement loop, on the hot path")]
    #[inline(always)]
    fn follow(&self, row: usize, col: usize) -> S {
        if col == 0 {
            return S::FULL;
        }
        self.followed_by(self.below[row & SIDE_MASK][(col - 1) & SIDE_MASK])
    }

    /// The kinds that can stand left of some kind of `kinds`: those whose right label is the
    /// left label of one of them.
    #[allow(clippy::inline_always, reason = "on every row entry, once per column")]
    #[inline(always)]
    pub(super) fn fed_by(&self, kinds: S) -> S {
        if S::BY_LABEL {
            Self::by_label(kinds.labels(|kind| self.sides[kind_index::<S>(kind)].left), &self.with_right)
        } else {
            S::through(&self.feeds, kinds, self.feed_bytes)
        }
    }

    /// The kinds that can stand right of some kind of `kinds`: those whose left label is the
    /// right label of one of them.
    #[allow(clippy::inline_always, reason = "once per placement loop, on the hot path")]
    #[inline(always)]
    pub(super) fn followed_by(&self, kinds: S) -> S {
        if S::BY_LABEL {
            Self::by_label(kinds.labels(|kind| self.sides[kind_index::<S>(kind)].right), &self.with_left)
        } else {
            S::through(&self.follows, kinds, self.feed_bytes)
        }
    }

    /// The union of `to[d]` over the labels `d` of the mask `labels` (bit `d` for label `d`).
    #[allow(clippy::inline_always, reason = "the body of `fed_by` and `followed_by`")]
    #[inline(always)]
    fn by_label(mut labels: u32, to: &[S; MAX_LABELS]) -> S {
        let mut union = S::EMPTY;
        while labels != 0 {
            union |= to[labels.trailing_zeros() as usize & (MAX_LABELS - 1)];
            labels &= labels - 1;
        }
        union
    }

    /// After `v` landed at (row, col), with the counts updated: can row + 1 still be chained
    /// from its left border to column `col` under the tops known now? (Builds `below`;
    /// `follow` is [`BitSearch::follow`] of (row, col); `row + 1` must be a row; `first` says
    /// whether `col` is 0, and a caller that knows it is not passes a constant.)
    #[allow(clippy::inline_always, reason = "on the hot path of every placement")]
    #[inline(always)]
    fn below_chains(&mut self, row: usize, col: usize, v: Variant, follow: S, first: bool) -> bool {
        let follow = if first && self.next_row_forced(row) { follow & self.surplus_lefts() } else { follow };
        let possible = self.lists[bit_key(ANY, v.bottom as usize)] & self.available & follow;
        self.below[row & SIDE_MASK][col & SIDE_MASK] = possible;
        !possible.is_empty()
    }

    /// Puts kind `kind` in `cell` at (row, col); false (and nothing placed) when the counting
    /// checks refuse it.
    #[allow(clippy::inline_always, reason = "every step of the estimate's random walks")]
    #[inline(always)]
    pub(super) fn try_place(&mut self, cell: usize, row: usize, col: usize, kind: usize) -> bool {
        let v = self.sides[kind_index::<S>(kind)];
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
        let kind = kind_index::<S>(kind);
        self.remaining[kind] -= 1;
        if self.remaining[kind] == 0 {
            self.available = self.available.without(kind);
        }
        self.board[cell & CELL_MASK] = kind as u8;
        self.bottoms[cell & CELL_MASK] = v.bottom;
    }

    /// The mirror of [`BitSearch::lay`] (`board` and `bottoms` keep stale entries past the
    /// filled cells).
    #[allow(clippy::inline_always, reason = "on the hot path of every placement")]
    #[inline(always)]
    fn lift(&mut self, kind: usize) {
        let kind = kind_index::<S>(kind);
        self.remaining[kind] += 1;
        self.available |= S::single(kind);
    }

    /// Takes back the tile of `cell` at (row, col).
    pub(super) fn take_back(&mut self, cell: usize, row: usize, col: usize) {
        let kind = kind_index::<S>(self.board[cell & CELL_MASK].into());
        self.counters.unplace(self.rows, self.cols, row, col, self.sides[kind]);
        self.lift(kind);
    }

    /// The candidates of `cell` at (row, col) after a tile with right label `left` (or [`ANY`]
    /// in column 0), as the masks leave them: list, available kinds, row lookahead.
    #[inline]
    pub(super) fn candidates(&self, cell: usize, row: usize, col: usize, left: usize) -> S {
        self.lists[bit_key(left, self.top_of(cell))]
            & self.available
            & self.allowed[row & SIDE_MASK][col & SIDE_MASK]
    }

    /// The right label of the tile in `cell`.
    pub(super) fn right_of(&self, cell: usize) -> usize {
        self.sides[kind_index::<S>(self.board[cell & CELL_MASK].into())].right as usize
    }

    /// The state at the start of the row of `cell`.
    fn row_state(&self, cell: usize) -> RowState<S> {
        let mut plural = 0;
        let mut kinds = self.plural_kinds;
        while !kinds.is_empty() {
            let kind = kind_index::<S>(kinds.first());
            kinds = kinds.without_first();
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
/// record a solution. A split task's [`BitSearch::prefix`] (module `split`) may restrict the
/// row start's cell (with one column), but it is the same for every visit within one search,
/// and each task starts with an empty table.
#[derive(Clone, PartialEq, Eq, Hash)]
struct RowState<S> {
    available: S,
    plural: u128,
    tops: u64,
}
