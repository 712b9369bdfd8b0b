//! The search shared by the edge-matching puzzles (tetravex and jigsaw).
//!
//! # The problem
//! Fill a `rows × cols` board with square tiles. Every tile has four side labels (small integers
//! below [`Puzzle::labels`]), given clockwise from the top in *matching form*: two adjoining tiles
//! fit when the right label of the left tile equals the left label of the right one, and the
//! bottom label of the upper tile equals the top label of the lower one. (A puzzle whose sides fit
//! by some other relation is relabelled into this form; jigsaw swaps knob and hole on the left and
//! top sides so that "knob meets hole" becomes equality.) Sides on the board's edge follow the
//! [`Border`] rule. Identical tiles form one [`Kind`] with a count; a kind may also list several
//! orientations (rotations) of which any one may be used.
//!
//! # The search
//! Cells are filled row by row, left to right. A cell's left and top labels are fixed by the
//! tiles already placed, so only kinds matching both are tried: candidate lists are precomputed for
//! every (left label, top label, border class) and hold (kind, orientation) *variants*; a variant
//! is skipped when its kind is used up. Interchangeable tiles are one kind, so no arrangement is
//! visited twice. Every placement is then tested by:
//!
//! - **Row lookahead.** On entering a row, a right-to-left pass over the row's cells computes,
//!   for each column, the left labels from which the rest of the row can still be chained under
//!   the known tops using the tiles available then (each tile may serve twice in this relaxation).
//!   A placement whose right label cannot continue the row is refused in O(1); a row that cannot
//!   be chained at all is refused before any tile is tried.
//! - **Counting checks** (when no kind has several orientations, so every tile's labels are
//!   fixed), all O(1):
//!   - *Open bottoms.* Every placed tile whose lower neighbour is still empty leaves an open
//!     bottom edge; for each label, the remaining tiles with that top label must be at least as
//!     many as the open bottom edges with it.
//!   - *Horizontal surplus.* Over the remaining tiles, let `S[d]` = (right sides labelled `d`) −
//!     (left sides labelled `d`) + (1 if the next cell's left must be `d`). Inner joints cancel,
//!     so `S = (labels on the right border still to fill) − (labels on the left border still to
//!     fill)`, and the positive part of `S` must fit in the right-border cells still empty:
//!     `Σ max(S[d], 0) ≤ empty right-border cells`.
//!   - *Vertical surplus.* The same with bottoms, tops, the open bottom edges and the bottom row.
//!
//!   `S` only changes when a tile lands in the first or last column (row), so the surplus
//!   checks bite at the border cells: they force the border to carry exactly the labels the
//!   inside cannot pair up. [`Puzzle::check_counts`] tests the same balances once, up front.
//! - **Dead ends** (when tiles repeat: at least two cells per kind). The rest of the search
//!   depends only on the next cell, the labels of the open edges and the remaining count of every
//!   kind, whatever tiles led there; states whose subtree held no solution go into a table with
//!   exact keys and are never searched again.
//!
//! # Complexity
//! Exponential in the worst case (edge matching is NP-complete). A node costs O(candidates) plus
//! O(1) for the checks; entering a row costs O(cols × tiles with a given top).

use std::collections::HashSet;

use crate::Grid;

/// The longest side a board may have.
pub const MAX_SIDE: usize = 12;
/// The most labels a puzzle may use.
pub const MAX_LABELS: usize = 16;

/// What the sides on the board's edge must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Border {
    /// Anything (tetravex).
    Free,
    /// This label on every border side, and never this label on an inner side (jigsaw: flat).
    Fixed(u8),
}

/// Identical tiles: how many, and the side labels of each orientation they may take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kind {
    /// How many tiles of this kind must be placed.
    pub count: u32,
    /// Distinct orientations, each `[top, right, bottom, left]` in matching form.
    pub orientations: Vec<[u8; 4]>,
}

/// An edge-matching puzzle in matching form. See the [module documentation](self).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// Board height, 1..=[`MAX_SIDE`].
    pub rows: usize,
    /// Board width, 1..=[`MAX_SIDE`].
    pub cols: usize,
    /// Labels are `0..labels`, at most [`MAX_LABELS`].
    pub labels: usize,
    /// The rule for border sides.
    pub border: Border,
    /// The tiles; their counts add up to `rows * cols`.
    pub kinds: Vec<Kind>,
}

/// One tile on a solved board: its kind and the orientation it is used in (indices into
/// [`Puzzle::kinds`] and [`Kind::orientations`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Index of the kind.
    pub kind: usize,
    /// Index of the orientation within the kind.
    pub orientation: usize,
}

impl Puzzle {
    /// A puzzle whose kinds are single-orientation tiles, merged from `tiles` (order of first
    /// appearance is kept).
    pub fn from_tiles(rows: usize, cols: usize, labels: usize, border: Border, tiles: &[[u8; 4]]) -> Self {
        let mut kinds: Vec<Kind> = Vec::new();
        for tile in tiles {
            match kinds.iter_mut().find(|kind| kind.orientations[0] == *tile) {
                Some(kind) => kind.count += 1,
                None => kinds.push(Kind { count: 1, orientations: vec![*tile] }),
            }
        }
        Puzzle { rows, cols, labels, border, kinds }
    }

    /// The sides of a placed tile.
    pub fn sides(&self, placement: Placement) -> [u8; 4] {
        self.kinds[placement.kind].orientations[placement.orientation]
    }

    /// Necessary conditions that need no search, for single-orientation puzzles: the tile count
    /// fits the board and, per label, the sides that must meet inside can meet. With a fixed
    /// border this is exact bookkeeping of border sides; with a free one, the surplus of right
    /// over left (bottom over top) sides must fit in one column (row). Always true for puzzles
    /// with rotations.
    pub fn check_counts(&self) -> bool {
        let tiles: u32 = self.kinds.iter().map(|kind| kind.count).sum();
        if tiles as usize != self.rows * self.cols {
            return false;
        }
        if self.kinds.iter().any(|kind| kind.orientations.len() != 1) {
            return true;
        }
        let mut side_counts = [[0i64; MAX_LABELS]; 4];
        for kind in &self.kinds {
            for (side, &label) in kind.orientations[0].iter().enumerate() {
                side_counts[side][label as usize] += i64::from(kind.count);
            }
        }
        let [top, right, bottom, left] = side_counts;
        // `line` border sides take the surplus of `plus` over `minus` sides (right over left,
        // bottom over top); every other side meets its partner inside.
        let balanced = |plus: &[i64; MAX_LABELS], minus: &[i64; MAX_LABELS], line: usize| {
            let line = line as i64;
            match self.border {
                Border::Free => (0..self.labels).map(|d| (plus[d] - minus[d]).max(0)).sum::<i64>() <= line,
                Border::Fixed(flat) => (0..self.labels).all(|d| {
                    if d == flat as usize { plus[d] == line && minus[d] == line } else { plus[d] == minus[d] }
                }),
            }
        };
        balanced(&right, &left, self.rows) && balanced(&bottom, &top, self.cols)
    }
}

/// The result of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The first solution found, if any.
    pub first: Option<Grid<Placement>>,
    /// Solutions found: all of them, or the limit when it was reached.
    pub found: u64,
    /// Search nodes visited (cells tried), a machine-independent measure of the work.
    pub nodes: u64,
}

/// Searches for up to `limit` (at least 1) solutions. Boards count as distinct when some cell
/// holds a different kind or orientation.
///
/// # Panics
/// When the puzzle breaks the limits documented on [`Puzzle`].
pub fn search(puzzle: &Puzzle, limit: u64) -> Outcome {
    let mut search = Search::new(puzzle, limit);
    search.run();
    Outcome { first: search.first, found: search.found, nodes: search.nodes }
}

/// Finds a solution, or `None` when there is none.
///
/// # Panics
/// When the puzzle breaks the limits documented on [`Puzzle`].
pub fn solve(puzzle: &Puzzle) -> Option<Grid<Placement>> {
    search(puzzle, 1).first
}

/// Counts the distinct solved boards, stopping at `limit`.
///
/// # Panics
/// When the puzzle breaks the limits documented on [`Puzzle`].
pub fn count(puzzle: &Puzzle, limit: u64) -> u64 {
    search(puzzle, limit).found
}

/// A (kind, orientation) pair with its sides, as stored in the candidate lists.
#[derive(Debug, Clone, Copy, Default)]
struct Variant {
    kind: u16,
    orientation: u8,
    top: u8,
    right: u8,
    bottom: u8,
    left: u8,
}

/// Bound on the dead-end table, so memory stays bounded (entries are at most ~170 bytes).
const MAX_DEAD_ENDS: usize = 1 << 20;

/// Label value standing for "anything" (a free border side) in table keys.
const ANY: usize = MAX_LABELS;
/// Table keys run over the labels and [`ANY`].
const KEYS: usize = MAX_LABELS + 1;

/// Per-label counters for the counting checks. Invariants, over the tiles not yet placed and
/// the cells not yet filled (filled cells precede empty ones in row-major order):
/// - `h_surplus[d] = right sides d − left sides d + [the next cell's left must be d]`,
///   `h_positive = Σ max(h_surplus[d], 0)`;
/// - `v_surplus[d] = bottom sides d − top sides d + open bottom edges d`,
///   `v_positive = Σ max(v_surplus[d], 0)`;
/// - `spare_tops[d]` = remaining tiles with top `d` − open bottom edges labelled `d` (an open
///   bottom edge is the bottom of a filled cell above an empty one).
#[derive(Debug, Clone, Default)]
struct Counters {
    h_surplus: [i32; MAX_LABELS],
    h_positive: i32,
    v_surplus: [i32; MAX_LABELS],
    v_positive: i32,
    spare_tops: [i32; MAX_LABELS],
}

impl Counters {
    fn add(surplus: &mut [i32; MAX_LABELS], positive: &mut i32, label: u8, delta: i32) {
        let entry = &mut surplus[label as usize];
        *positive -= (*entry).max(0);
        *entry += delta;
        *positive += (*entry).max(0);
    }
}

/// `finish[c]` for one row: the left labels with which the row can still be completed from
/// column `c` on (bit `ANY` for a free left border in column 0), given the tops above it. Built
/// when the search enters the row, from the tiles available then: a superset of those
/// available later in the row, so the test never cuts a branch that holds a solution.
/// Multiplicities are ignored (a tile may serve twice in the row).
type RowFinish = [u32; MAX_SIDE + 1];

/// Where a cell lies, precomputed for the hot loop.
#[derive(Debug, Clone, Copy)]
struct Cell {
    row: usize,
    col: usize,
    /// Candidate-list class: bit 0 in the last column, bit 1 in the last row (fixed border only).
    class: usize,
}

/// The search state. See the module documentation for the method. Invariants:
/// - cells `0..cell` (row-major) are filled, `board[i]` holding the variant in cell `i`; every
///   placed tile fits its left and upper neighbours and the border rule;
/// - `remaining[k]` = `kinds[k].count` − tiles of kind `k` on the board;
/// - `counters` describe the tiles not on the board (see [`Counters`]);
/// - `finish[r]` was built when the search last entered row `r` (see [`RowFinish`]).
struct Search<'p> {
    puzzle: &'p Puzzle,
    rows: usize,
    cols: usize,
    cells: Vec<Cell>,
    /// [`ANY`] with a free border, else the border label.
    border_label: usize,
    /// The left labels a tile in column 0 may have: any, or the border label.
    first_lefts: u32,
    /// Candidate lists: the variants for key `candidate_key(left, top, class)` are
    /// `pool[lists[key].0..lists[key].1]`.
    lists: Vec<(u32, u32)>,
    pool: Vec<Variant>,
    remaining: Vec<u32>,
    board: Vec<Variant>,
    /// Whether the counting checks apply (no kind has several orientations).
    counting: bool,
    counters: Counters,
    finish: Vec<RowFinish>,
    limit: u64,
    /// Whether dead ends are remembered (when tiles repeat: see the module documentation).
    memo: bool,
    /// Encoded states (see `encode_state`) whose subtree holds no solution.
    dead_ends: HashSet<Box<[u8]>>,
    /// Scratch buffer for `encode_state`.
    key: Vec<u8>,
    found: u64,
    nodes: u64,
    first: Option<Grid<Placement>>,
}

/// Candidate-list key: a cell's required left and top labels (or [`ANY`]) and its class.
fn candidate_key(left: usize, top: usize, class: usize) -> usize {
    (left * KEYS + top) * 4 + class
}

impl<'p> Search<'p> {
    fn new(puzzle: &'p Puzzle, limit: u64) -> Self {
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        assert!((1..=MAX_SIDE).contains(&rows) && (1..=MAX_SIDE).contains(&cols));
        assert!(puzzle.labels <= MAX_LABELS && puzzle.kinds.len() < usize::from(u16::MAX));
        let mut variants = Vec::new();
        for (kind_index, kind) in puzzle.kinds.iter().enumerate() {
            assert!((1..=4).contains(&kind.orientations.len()));
            for (orientation, sides) in kind.orientations.iter().enumerate() {
                assert!(sides.iter().all(|&label| (label as usize) < puzzle.labels));
                let [top, right, bottom, left] = *sides;
                let kind = kind_index as u16;
                variants.push(Variant { kind, orientation: orientation as u8, top, right, bottom, left });
            }
        }

        let border_label = match puzzle.border {
            Border::Free => ANY,
            Border::Fixed(label) => label as usize,
        };
        let mut lists = vec![(0, 0); candidate_key(ANY, ANY, 3) + 1];
        let mut pool = Vec::new();
        for left in (0..puzzle.labels).chain([ANY]) {
            for top in (0..puzzle.labels).chain([ANY]) {
                for class in 0..4 {
                    let start = pool.len() as u32;
                    pool.extend(variants.iter().filter(|v| {
                        let fits =
                            (left == ANY || v.left as usize == left) && (top == ANY || v.top as usize == top);
                        let on_border = |label: u8| label as usize == border_label;
                        fits && (border_label == ANY
                            || (on_border(v.right) == (class & 1 != 0)
                                && on_border(v.bottom) == (class & 2 != 0)))
                    }));
                    lists[candidate_key(left, top, class)] = (start, pool.len() as u32);
                }
            }
        }

        let cells = (0..rows * cols)
            .map(|index| {
                let (row, col) = (index / cols, index % cols);
                let class = if border_label == ANY {
                    0
                } else {
                    usize::from(col + 1 == cols) | usize::from(row + 1 == rows) << 1
                };
                Cell { row, col, class }
            })
            .collect();

        let counting = puzzle.kinds.iter().all(|kind| kind.orientations.len() == 1);
        let mut counters = Counters::default();
        if counting {
            for kind in &puzzle.kinds {
                let [top, right, bottom, left] = kind.orientations[0];
                let n = kind.count as i32;
                Counters::add(&mut counters.h_surplus, &mut counters.h_positive, right, n);
                Counters::add(&mut counters.h_surplus, &mut counters.h_positive, left, -n);
                Counters::add(&mut counters.v_surplus, &mut counters.v_positive, bottom, n);
                Counters::add(&mut counters.v_surplus, &mut counters.v_positive, top, -n);
                counters.spare_tops[top as usize] += n;
            }
        }

        Search {
            puzzle,
            rows,
            cols,
            cells,
            border_label,
            first_lefts: if border_label == ANY { u32::MAX } else { 1 << border_label },
            lists,
            pool,
            remaining: puzzle.kinds.iter().map(|kind| kind.count).collect(),
            board: vec![Variant::default(); rows * cols],
            counting,
            counters,
            finish: vec![[0; MAX_SIDE + 1]; rows],
            limit: limit.max(1),
            memo: rows * cols >= 2 * puzzle.kinds.len(),
            dead_ends: HashSet::new(),
            key: Vec::new(),
            found: 0,
            nodes: 0,
            first: None,
        }
    }

    fn run(&mut self) {
        if !self.puzzle.check_counts() {
            return;
        }
        if self.counting {
            // With no tile placed, every left (top) side lies on the left border (top row) or
            // meets a right (bottom) side inside: the surplus checks hold with all cells empty.
            let c = &self.counters;
            if c.h_positive > self.rows as i32 || c.v_positive > self.cols as i32 {
                return;
            }
        }
        self.fill(0);
    }

    /// Fills `cell` and the cells after it. Returns true when the search should stop.
    fn fill(&mut self, cell: usize) -> bool {
        self.nodes += 1;
        if cell == self.rows * self.cols {
            self.found += 1;
            if self.first.is_none() {
                let placements = self
                    .board
                    .iter()
                    .map(|v| Placement { kind: v.kind as usize, orientation: v.orientation as usize })
                    .collect();
                self.first = Some(Grid::from_vec(self.rows, self.cols, placements));
            }
            return self.found >= self.limit;
        }
        let Cell { row, col, class } = self.cells[cell];
        if col == 0 && !self.plan_row(row) {
            return false;
        }
        let remember = self.memo && cell > 0;
        if remember {
            self.encode_state(cell);
            if self.dead_ends.contains(self.key.as_slice()) {
                return false;
            }
        }
        let found_before = self.found;
        let left = if col == 0 { self.border_label } else { self.board[cell - 1].right as usize };
        let top = if row == 0 { self.border_label } else { self.board[cell - self.cols].bottom as usize };
        let (start, end) = self.lists[candidate_key(left, top, class)];
        for index in start..end {
            let variant = self.pool[index as usize];
            let kind = variant.kind as usize;
            if self.remaining[kind] == 0 {
                continue;
            }
            self.remaining[kind] -= 1;
            self.board[cell] = variant;
            let counts_hold = !self.counting || self.place_counts(row, col, variant);
            if counts_hold && self.look_ahead(row, col, variant) && self.fill(cell + 1) {
                return true;
            }
            if self.counting {
                self.unplace_counts(row, col, variant);
            }
            self.remaining[kind] += 1;
        }
        if remember && self.found == found_before && self.dead_ends.len() < MAX_DEAD_ENDS {
            self.encode_state(cell);
            self.dead_ends.insert(self.key.as_slice().into());
        }
        false
    }

    /// Writes into `key` what the rest of the search from `cell` depends on: the cell, the open
    /// bottom labels of the last `cols` tiles, the right label of the last one, and the remaining
    /// count of every kind (a byte each: a board has at most 144 cells).
    fn encode_state(&mut self, cell: usize) {
        let key = &mut self.key;
        key.clear();
        key.push(cell as u8);
        for above in cell.saturating_sub(self.cols)..cell {
            key.push(self.board[above].bottom);
        }
        key.push(self.board[cell - 1].right);
        key.extend(self.remaining.iter().map(|&count| count as u8));
    }

    /// Builds `finish[row]` from the tiles available now; false when the row cannot be filled.
    fn plan_row(&mut self, row: usize) -> bool {
        let cols = self.cols;
        let finish = &mut self.finish[row];
        finish[cols] = u32::MAX;
        for col in (0..cols).rev() {
            let top =
                if row == 0 { self.border_label } else { self.board[(row - 1) * cols + col].bottom as usize };
            let class = self.cells[row * cols + col].class;
            let onward = finish[col + 1];
            let (start, end) = self.lists[candidate_key(ANY, top, class)];
            let mut completable = 0;
            for v in &self.pool[start as usize..end as usize] {
                if self.remaining[v.kind as usize] > 0 && onward & (1 << v.right) != 0 {
                    completable |= 1 << v.left;
                }
            }
            finish[col] = completable;
        }
        finish[0] & self.first_lefts != 0
    }

    /// After `v` landed at (row, col): can the row still be completed?
    fn look_ahead(&mut self, row: usize, col: usize, v: Variant) -> bool {
        self.finish[row][col + 1] & (1 << v.right) != 0
    }

    /// Updates the counters for a tile placed at (row, col); false when a check fails (the
    /// caller still calls `unplace_counts`).
    fn place_counts(&mut self, row: usize, col: usize, v: Variant) -> bool {
        let c = &mut self.counters;
        let last_row = self.rows - 1;
        let last_col = self.cols - 1;
        // Only tiles in the border columns and rows change the surplus: inner joints cancel.
        if col == 0 {
            Counters::add(&mut c.h_surplus, &mut c.h_positive, v.left, 1);
        }
        if col == last_col {
            Counters::add(&mut c.h_surplus, &mut c.h_positive, v.right, -1);
        }
        if row == 0 {
            Counters::add(&mut c.v_surplus, &mut c.v_positive, v.top, 1);
            c.spare_tops[v.top as usize] -= 1;
        }
        if row == last_row {
            Counters::add(&mut c.v_surplus, &mut c.v_positive, v.bottom, -1);
        } else {
            c.spare_tops[v.bottom as usize] -= 1;
        }
        // Empty cells left on the right border and in the bottom row, after this one.
        let right_border_left = (last_row - row) + usize::from(col < last_col);
        let bottom_row_left = if row == last_row { last_col - col } else { self.cols };
        c.h_positive <= right_border_left as i32
            && c.v_positive <= bottom_row_left as i32
            && c.spare_tops[v.bottom as usize] >= 0
            && c.spare_tops[v.top as usize] >= 0
    }

    fn unplace_counts(&mut self, row: usize, col: usize, v: Variant) {
        let c = &mut self.counters;
        if col == 0 {
            Counters::add(&mut c.h_surplus, &mut c.h_positive, v.left, -1);
        }
        if col + 1 == self.cols {
            Counters::add(&mut c.h_surplus, &mut c.h_positive, v.right, 1);
        }
        if row == 0 {
            Counters::add(&mut c.v_surplus, &mut c.v_positive, v.top, -1);
            c.spare_tops[v.top as usize] += 1;
        }
        if row + 1 == self.rows {
            Counters::add(&mut c.v_surplus, &mut c.v_positive, v.bottom, 1);
        } else {
            c.spare_tops[v.bottom as usize] += 1;
        }
    }
}
