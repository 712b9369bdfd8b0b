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
//! orientations (its distinct rotations) of which any one may be used.
//!
//! # Root checks
//! [`Puzzle::check_counts`] runs first; it needs no search and refutes most broken puzzles:
//! - the tile count fits the board;
//! - *fixed border:* every *border class* (the set of sides on the border: corner, edge, inner
//!   and so on) has as many tiles as the board has cells of that class, up to rotation when
//!   tiles turn;
//! - *single orientations, free border:* per label, the surplus of right over left (bottom over
//!   top) sides fits in one column (row);
//! - *single orientations, fixed border:* per label, right and left (bottom and top) sides
//!   balance, and each of the four *border lines* can be chained: the tiles of the top row
//!   (those with a border top) must form a path from the left border to the right one, each
//!   tile an edge from its left label to its right label, so they must admit an Euler trail
//!   (balanced labels, all edges connected); likewise the bottom row, and the first and last
//!   columns from top to bottom.
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
//! - **Open bottoms** (single orientations). Every placed tile whose lower neighbour is still
//!   empty leaves an open bottom edge; for each label, the remaining tiles with that top label
//!   must be at least as many as the open bottom edges with it. O(1).
//! - **Surplus** (single orientations, free border only). Over the remaining tiles, the positive
//!   part of (right sides − left sides) per label must fit in the right-border cells still empty,
//!   and likewise bottoms over tops in the bottom row: the border must carry exactly what the
//!   inside cannot pair up. O(1). (With a fixed border these sums never change, so the root
//!   check covers them.)
//! - **Border lines** (single orientations, fixed border only). The tiles of a border line not
//!   yet placed must still form a trail from the line's open end (the last placed tile's right,
//!   or bottom, label) to the border. Placing tiles along the line keeps the trail's label
//!   balance, so only its connectivity can break: a placement is refused when some remaining
//!   tile of the line is no longer reachable from the open end. This catches a wrong turn in
//!   the first or last column at once, instead of rows later. O(labels) per line tile.
//! - **Last two rows** (single orientations, fixed border with exactly two other labels, as in
//!   jigsaw). The bottom row's tiles are known (their bottom is the border), so the tiles left
//!   for the rows above it must, counted by (top, bottom) label pair, split into the rest of the
//!   current row and at most one more row such that tops meet the open bottom edges and the last
//!   of them meet the tops of the bottom row. With two labels this is a test on four counters.
//!   O(1).
//! - **Dead ends** (when tiles repeat, at least two cells per kind, and always with a fixed
//!   border). The rest of the search depends only on the next cell, the labels of the open edges
//!   and the remaining count of every kind, whatever tiles led there; states whose subtree held no
//!   solution go into a table and are never searched again. The table is keyed by a hash kept up
//!   to date in O(1) per placement and stores each state's exact key, so a hash collision can
//!   never prune a live state.
//!
//! **Restarts** (fixed border, looking for one solution). A wrong tile early in a solvable
//! puzzle can hide under a subtree without solutions that takes millions of nodes to exhaust.
//! The search therefore runs under a node budget; when it runs out, it starts again with the
//! candidate lists in a fresh seeded order and twice the budget. The dead-end table is kept
//! across runs, so work already proven fruitless is not repeated, and the last run, with a
//! budget larger than any before, still settles unsolvable puzzles. Everything stays
//! deterministic.
//!
//! # Nearly distinct tiles: the bit search
//! With a free border, single orientations, at most 64 kinds and fewer than two cells per kind
//! (where `Search` keeps no dead-end table; tetravex with five or more digits), `BitSearch` runs
//! the same search on bitsets of kinds: a cell's candidates are one AND of the list for its
//! (left, top), the kinds still available and the kinds the row lookahead allows, so refused
//! candidates cost nothing. Its dead-end table holds only states at the start of the second row
//! (remaining tiles and the first row's bottoms): there distinct first rows often leave the
//! same state, and the table stays small. On top of the checks above it uses two more, both
//! relaxations that ignore multiplicities:
//! - **Forced borders.** On entering a row, when the horizontal surplus fills the right border
//!   cells left exactly, the right (left) border labels are exactly its positive (negative) part,
//!   and in the last row the bottoms are exactly the vertical surplus; the lookahead only admits
//!   kinds with such labels there (see `BitSearch::border_kinds`).
//! - **Next row.** Each placement in a row below which another row follows extends the set of
//!   kinds that can stand in the next row under the bottoms placed so far, chained from its left
//!   border; an empty set refuses the placement.
//!
//! **Symmetries.** A refutation must exhaust the tree, whose size depends much (up to 6× on
//! tetravex) on the side the filling starts from. The bit search first gets a budget of nodes;
//! past it, Knuth's estimator (random walks) sizes the tree of each of the board's eight
//! symmetries (mirror, then quarter turns; a free border and single orientations make every
//! symmetric board a puzzle of the same kind), and the smallest is searched to the end. Solutions
//! map one to one between symmetric boards, so counts agree, and a solution found is mapped back.
//!
//! **Threads.** That last, long search uses every core the process may run on (`SplitSearch`):
//! the tree is cut into tasks by the kinds of its first two cells, threads take tasks in the
//! search's own order, and the results are merged in that order, so the count and the first
//! solution are exactly those of one thread; a task is cancelled only when an earlier one has
//! settled the answer. Searches that end within the budget never start a thread.
//!
//! # Complexity
//! Exponential in the worst case (edge matching is NP-complete). A node costs O(candidates) plus
//! O(1) for the checks (O(labels) on border lines); entering a row costs O(cols × tiles with a
//! given top).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::Grid;

mod bits;

use bits::{BitSearch, bit_search};

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
    /// Distinct orientations, each `[top, right, bottom, left]` in matching form; several
    /// orientations are rotations of one tile.
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

/// Side indices in `[top, right, bottom, left]`.
const TOP: usize = 0;
const RIGHT: usize = 1;
const BOTTOM: usize = 2;
const LEFT: usize = 3;

/// The four border lines: the side that lies on the border, and the sides a line's tile joins
/// its predecessor and successor by (left and right for rows, top and bottom for columns).
const LINES: [(usize, usize, usize); 4] =
    [(TOP, LEFT, RIGHT), (RIGHT, TOP, BOTTOM), (BOTTOM, LEFT, RIGHT), (LEFT, TOP, BOTTOM)];

/// Bits of the sides of `sides` that carry `label`: bit `s` for side `s`.
fn border_mask(sides: [u8; 4], label: u8) -> u8 {
    (0..4).filter(|&side| sides[side] == label).fold(0, |mask, side| mask | 1 << side)
}

/// The border mask of the cell at (`row`, `col`): bit `s` when side `s` lies on the border.
fn cell_mask(rows: usize, cols: usize, row: usize, col: usize) -> u8 {
    u8::from(row == 0) << TOP
        | u8::from(col + 1 == cols) << RIGHT
        | u8::from(row + 1 == rows) << BOTTOM
        | u8::from(col == 0) << LEFT
}

/// The smallest of a border mask's four rotations: equal for masks that differ by a turn.
fn rotation_class(mask: u8) -> u8 {
    (0..4).map(|turns| ((mask << turns) | (mask >> (4 - turns))) & 0xf).min().unwrap_or(mask)
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

    /// Whether no kind has several orientations, so every tile's labels are known in advance.
    fn single_orientations(&self) -> bool {
        self.kinds.iter().all(|kind| kind.orientations.len() == 1)
    }

    /// The root checks of the [module documentation](self): necessary conditions that need no
    /// search. False means there is no solution.
    pub fn check_counts(&self) -> bool {
        let tiles: u32 = self.kinds.iter().map(|kind| kind.count).sum();
        if tiles as usize != self.rows * self.cols {
            return false;
        }
        if let Border::Fixed(label) = self.border
            && !self.border_classes_fit(label)
        {
            return false;
        }
        if !self.single_orientations() {
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
        let lines_chain = match self.border {
            Border::Free => true,
            Border::Fixed(label) => self
                .border_lines(label)
                .iter()
                .all(|line| line.balanced_from(label, label) && line.connected_from(label)),
        };
        balanced(&right, &left, self.rows) && balanced(&bottom, &top, self.cols) && lines_chain
    }

    /// The four border lines, in the order of [`LINES`], holding every tile whose side on that
    /// line is `label` (single orientations only).
    fn border_lines(&self, label: u8) -> Box<[Line; 4]> {
        let mut lines: Box<[Line; 4]> = Box::default();
        for (line, &(on, from, to)) in lines.iter_mut().zip(&LINES) {
            for kind in self.kinds.iter().filter(|kind| kind.orientations[0][on] == label) {
                let sides = kind.orientations[0];
                (0..kind.count).for_each(|_| line.add(sides[from], sides[to]));
            }
        }
        lines
    }

    /// Whether each border class has as many tiles as cells (by exact mask, or by rotation
    /// class when some kind turns).
    fn border_classes_fit(&self, label: u8) -> bool {
        let class = |mask: u8| if self.single_orientations() { mask } else { rotation_class(mask) };
        let mut balance = [0i64; 16];
        for row in 0..self.rows {
            for col in 0..self.cols {
                balance[class(cell_mask(self.rows, self.cols, row, col)) as usize] += 1;
            }
        }
        for kind in &self.kinds {
            balance[class(border_mask(kind.orientations[0], label)) as usize] -= i64::from(kind.count);
        }
        balance.iter().all(|&difference| difference == 0)
    }
}

/// The result of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The first solution found, if any.
    pub first: Option<Grid<Placement>>,
    /// Solutions found: all of them, or the limit when it was reached.
    pub found: u64,
    /// Search nodes visited (cells tried), over all runs: a machine-independent measure of the
    /// work.
    pub nodes: u64,
}

/// The node budget of the first run when restarting (see the module documentation).
const FIRST_BUDGET: u64 = 10_000;

/// Searches for up to `limit` (at least 1) solutions. Boards count as distinct when some cell
/// holds a different kind or orientation.
///
/// # Panics
/// When the puzzle breaks the limits documented on [`Puzzle`].
pub fn search(puzzle: &Puzzle, limit: u64) -> Outcome {
    let restarts = limit <= 1 && matches!(puzzle.border, Border::Fixed(_));
    search_with_budget(puzzle, limit, restarts.then_some(FIRST_BUDGET))
}

/// [`search`], restarting from `first_budget` nodes (doubling) when it is given.
fn search_with_budget(puzzle: &Puzzle, limit: u64, first_budget: Option<u64>) -> Outcome {
    if !puzzle.check_counts() {
        return Outcome { first: None, found: 0, nodes: 0 };
    }
    if BitSearch::applies(puzzle) {
        return bit_search(puzzle, limit);
    }
    let mut search = Search::new(puzzle, limit);
    let mut budget = first_budget.unwrap_or(u64::MAX);
    let mut nodes = 0;
    for round in 1.. {
        search.budget = budget;
        search.run();
        nodes += search.nodes;
        if !search.out_of_budget {
            break;
        }
        // Out of budget: start again in a fresh order, keeping the dead ends.
        let dead_ends = search.dead_ends.take();
        search = Search::new(puzzle, limit);
        search.dead_ends = dead_ends;
        search.state_hash = search.full_hash();
        search.shuffle_candidates(round);
        budget = budget.saturating_mul(2);
    }
    Outcome { first: search.first, found: search.found, nodes }
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

/// Bound on the dead-end table, so memory stays bounded (an entry is about 30 bytes of table
/// plus its key of `cols + kinds + 2` bytes).
const MAX_DEAD_ENDS: usize = 1 << 20;

/// Label value standing for "anything" (a free border side) in table keys.
const ANY: usize = MAX_LABELS;
/// Table keys run over the labels and [`ANY`].
const KEYS: usize = MAX_LABELS + 1;

/// Per-label counters for the open-bottoms and surplus checks (the surplus ones are read with a
/// free border only, where "the next cell's left" is free in column 0). Invariants, over the
/// tiles not yet placed and the cells not yet filled (filled cells precede empty ones in
/// row-major order):
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
        let entry = &mut surplus[label as usize & (MAX_LABELS - 1)];
        *positive -= (*entry).max(0);
        *entry += delta;
        *positive += (*entry).max(0);
    }

    /// Updates the open-bottom and surplus counters for a tile placed at (row, col) of a
    /// `rows × cols` board.
    fn place(&mut self, rows: usize, cols: usize, row: usize, col: usize, v: Variant) {
        // Only tiles in the border columns and rows change the surplus: inner joints cancel.
        if col == 0 {
            Self::add(&mut self.h_surplus, &mut self.h_positive, v.left, 1);
        }
        if col + 1 == cols {
            Self::add(&mut self.h_surplus, &mut self.h_positive, v.right, -1);
        }
        if row == 0 {
            Self::add(&mut self.v_surplus, &mut self.v_positive, v.top, 1);
            self.spare_tops[v.top as usize & (MAX_LABELS - 1)] -= 1;
        }
        if row + 1 == rows {
            Self::add(&mut self.v_surplus, &mut self.v_positive, v.bottom, -1);
        } else {
            self.spare_tops[v.bottom as usize & (MAX_LABELS - 1)] -= 1;
        }
    }

    /// The mirror of [`Counters::place`].
    fn unplace(&mut self, rows: usize, cols: usize, row: usize, col: usize, v: Variant) {
        if col == 0 {
            Self::add(&mut self.h_surplus, &mut self.h_positive, v.left, -1);
        }
        if col + 1 == cols {
            Self::add(&mut self.h_surplus, &mut self.h_positive, v.right, 1);
        }
        if row == 0 {
            Self::add(&mut self.v_surplus, &mut self.v_positive, v.top, -1);
            self.spare_tops[v.top as usize & (MAX_LABELS - 1)] += 1;
        }
        if row + 1 == rows {
            Self::add(&mut self.v_surplus, &mut self.v_positive, v.bottom, 1);
        } else {
            self.spare_tops[v.bottom as usize & (MAX_LABELS - 1)] += 1;
        }
    }

    /// The open-bottom checks, and the surplus ones when `surplus`, after `v` landed at
    /// (row, col).
    fn hold(&self, rows: usize, cols: usize, row: usize, col: usize, v: Variant, surplus: bool) -> bool {
        let spare = self.spare_tops[v.bottom as usize & (MAX_LABELS - 1)] >= 0
            && self.spare_tops[v.top as usize & (MAX_LABELS - 1)] >= 0;
        if !surplus {
            return spare;
        }
        let last_row = rows - 1;
        let last_col = cols - 1;
        // Empty cells left on the right border and in the bottom row, after this one.
        let right_border_left = (last_row - row) + usize::from(col < last_col);
        let bottom_row_left = if row == last_row { last_col - col } else { cols };
        spare && self.h_positive <= right_border_left as i32 && self.v_positive <= bottom_row_left as i32
    }
}

/// The tiles of one border line not yet placed, as a multigraph on labels: each tile an edge
/// from the label joining its predecessor to the label joining its successor. Invariants:
/// `edges[a][b]` counts the tiles with labels (a, b); `degree[d]` counts edge ends at `d`;
/// bit `b` of `adjacent[a]` is set exactly when `edges[a][b] + edges[b][a] > 0`; bit `d` of
/// `used` exactly when `degree[d] > 0`.
#[derive(Debug, Clone)]
struct Line {
    edges: [[u16; MAX_LABELS]; MAX_LABELS],
    degree: [u16; MAX_LABELS],
    adjacent: [u32; MAX_LABELS],
    used: u32,
}

impl Default for Line {
    fn default() -> Self {
        Line {
            edges: [[0; MAX_LABELS]; MAX_LABELS],
            degree: [0; MAX_LABELS],
            adjacent: [0; MAX_LABELS],
            used: 0,
        }
    }
}

impl Line {
    fn add(&mut self, from: u8, to: u8) {
        let (a, b) = (from as usize, to as usize);
        self.edges[a][b] += 1;
        self.degree[a] += 1;
        self.degree[b] += 1;
        self.adjacent[a] |= 1 << b;
        self.adjacent[b] |= 1 << a;
        self.used |= 1 << a | 1 << b;
    }

    fn remove(&mut self, from: u8, to: u8) {
        let (a, b) = (from as usize, to as usize);
        self.edges[a][b] -= 1;
        self.degree[a] -= 1;
        self.degree[b] -= 1;
        if self.edges[a][b] == 0 && self.edges[b][a] == 0 {
            self.adjacent[a] &= !(1 << b);
            self.adjacent[b] &= !(1 << a);
        }
        for d in [a, b] {
            if self.degree[d] == 0 {
                self.used &= !(1 << d);
            }
        }
    }

    /// Whether every label has as many edges out as in, except one more out of `start` and
    /// one more into `end`: the degree condition for a trail from `start` to `end`.
    fn balanced_from(&self, start: u8, end: u8) -> bool {
        (0..MAX_LABELS).all(|d| {
            let out: i32 = self.edges[d].iter().map(|&n| i32::from(n)).sum();
            let into: i32 = self.edges.iter().map(|row| i32::from(row[d])).sum();
            out - into == i32::from(d == start as usize) - i32::from(d == end as usize)
        })
    }

    /// Whether every remaining edge can be reached from `start` (edges taken either way).
    /// With the balance of [`Line::balanced_from`], this makes the Euler-trail condition exact.
    fn connected_from(&self, start: u8) -> bool {
        let mut reached = 1u32 << start;
        loop {
            let mut next = reached;
            let mut pending = reached;
            while pending != 0 {
                next |= self.adjacent[pending.trailing_zeros() as usize];
                pending &= pending - 1;
            }
            if next == reached {
                break;
            }
            reached = next;
        }
        self.used & !reached == 0
    }
}

/// Counters for the last-two-rows check (fixed border, exactly two other labels `x` and `y`),
/// over the tiles not yet placed. Invariants:
/// - `middle[i][j]`: tiles with neither top nor bottom on the border, whose top is the `i`-th
///   and bottom the `j`-th of (`x`, `y`);
/// - `bottom_row_x`: tiles with a border bottom and top `x` (the bottom row's tops);
/// - `open_x`: open bottom edges labelled `x`; `row_x[r]`: bottoms `x` placed in row `r`.
#[derive(Debug, Clone)]
struct LastRows {
    x: u8,
    y: u8,
    middle: [[i32; 2]; 2],
    bottom_row_x: i32,
    open_x: i32,
    row_x: [i32; MAX_SIDE],
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

/// A hasher that passes a `u64` through: the dead-end keys are already random hashes.
#[derive(Debug, Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// States whose subtree holds no solution. A state is what the rest of the search depends on:
/// the next cell, the open bottom label of every column (or none yet), the right label of the
/// last tile, and the remaining count of every kind. Its hash is a sum of random numbers, one
/// per (kind, count unit), (column, label), right label and cell, kept up to date by the
/// search; its exact key is `key_len` bytes in `keys`, compared on every hit.
#[derive(Debug)]
struct DeadEnds {
    kind_hash: Vec<u64>,
    column_hash: Vec<[u64; KEYS]>,
    right_hash: [u64; KEYS],
    cell_hash: Vec<u64>,
    table: HashMap<u64, u32, BuildHasherDefault<PassThrough>>,
    key_len: usize,
    keys: Vec<u8>,
}

impl DeadEnds {
    fn new(puzzle: &Puzzle) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(0x6a69_6773_6177);
        let mut random = || rng.next_u64();
        DeadEnds {
            kind_hash: puzzle.kinds.iter().map(|_| random()).collect(),
            column_hash: (0..puzzle.cols).map(|_| std::array::from_fn(|_| random())).collect(),
            right_hash: std::array::from_fn(|_| random()),
            cell_hash: (0..puzzle.rows * puzzle.cols).map(|_| random()).collect(),
            table: HashMap::default(),
            key_len: puzzle.cols + puzzle.kinds.len() + 2,
            keys: Vec::new(),
        }
    }

    /// The exact key recorded under this hash, if any.
    fn find(&self, hash: u64) -> Option<&[u8]> {
        self.table.get(&hash).map(|&index| {
            let start = index as usize * self.key_len;
            &self.keys[start..start + self.key_len]
        })
    }

    /// Whether the state with this hash and exact key is a recorded dead end.
    #[cfg(test)]
    fn contains(&self, hash: u64, key: &[u8]) -> bool {
        self.find(hash) == Some(key)
    }

    /// Records a dead end, unless the table is full or the hash is taken by another state.
    fn insert(&mut self, hash: u64, key: &[u8]) {
        let index = self.table.len();
        if index < MAX_DEAD_ENDS
            && let std::collections::hash_map::Entry::Vacant(slot) = self.table.entry(hash)
        {
            slot.insert(index as u32);
            self.keys.extend_from_slice(key);
        }
    }
}

/// The search state. See the module documentation for the method. Invariants:
/// - cells `0..cell` (row-major) are filled, `board[i]` holding the variant in cell `i`; every
///   placed tile fits its left and upper neighbours and the border rule;
/// - `remaining[k]` = `kinds[k].count` − tiles of kind `k` on the board;
/// - `counters` and `fixed` describe the tiles not on the board;
/// - with a dead-end table, `frontier[c]` is the open bottom label of column `c` ([`ANY`]
///   before any tile), and `state_hash` = Σ `kind_hash[k]`·`remaining[k]` +
///   Σ `column_hash[c][frontier[c]]` (both unused without one);
/// - `finish[r]` was built when the search last entered row `r` (see [`RowFinish`]).
struct Search {
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
    /// Whether the open-bottoms check applies (no kind has several orientations).
    counting: bool,
    /// Whether the surplus checks apply (counting, free border).
    surplus: bool,
    counters: Counters,
    /// The border-line and last-two-rows checks (counting, fixed border).
    fixed: Option<Box<FixedChecks>>,
    finish: Vec<RowFinish>,
    frontier: [u8; MAX_SIDE],
    state_hash: u64,
    /// The table of dead ends, when kept (see the module documentation).
    dead_ends: Option<DeadEnds>,
    /// Scratch buffer for exact dead-end keys.
    key: Vec<u8>,
    limit: u64,
    /// The run stops when `nodes` reaches it, setting `out_of_budget`.
    budget: u64,
    out_of_budget: bool,
    found: u64,
    nodes: u64,
    first: Option<Grid<Placement>>,
}

/// Candidate-list key: a cell's required left and top labels (or [`ANY`]) and its class.
fn candidate_key(left: usize, top: usize, class: usize) -> usize {
    (left * KEYS + top) * 4 + class
}

impl Search {
    fn new(puzzle: &Puzzle, limit: u64) -> Self {
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

        let counting = puzzle.single_orientations();
        let surplus = counting && border_label == ANY;
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

        let fixed = (border_label != ANY).then_some(border_label as u8);
        let last_rows = fixed.filter(|_| counting && puzzle.labels == 3).map(|label| {
            let mut others = (0..3u8).filter(|&d| d != label);
            let (x, y) = (others.next().unwrap_or(0), others.next().unwrap_or(0));
            let mut last =
                LastRows { x, y, middle: [[0; 2]; 2], bottom_row_x: 0, open_x: 0, row_x: [0; MAX_SIDE] };
            for kind in &puzzle.kinds {
                let [top, _, bottom, _] = kind.orientations[0];
                let n = kind.count as i32;
                if top != label && bottom != label {
                    last.middle[usize::from(top == y)][usize::from(bottom == y)] += n;
                } else if bottom == label && top == x {
                    last.bottom_row_x += n;
                }
            }
            last
        });

        let dead_ends =
            (border_label != ANY || rows * cols >= 2 * puzzle.kinds.len()).then(|| DeadEnds::new(puzzle));
        let mut search = Search {
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
            surplus,
            counters,
            fixed: fixed
                .filter(|_| counting)
                .map(|label| Box::new(FixedChecks { lines: *puzzle.border_lines(label), last_rows })),
            finish: vec![[0; MAX_SIDE + 1]; rows],
            frontier: [ANY as u8; MAX_SIDE],
            state_hash: 0,
            dead_ends,
            key: Vec::new(),
            limit: limit.max(1),
            budget: u64::MAX,
            out_of_budget: false,
            found: 0,
            nodes: 0,
            first: None,
        };
        search.state_hash = search.full_hash();
        search
    }

    /// The state hash computed from scratch (see the invariants on [`Search`]).
    fn full_hash(&self) -> u64 {
        let Some(dead_ends) = &self.dead_ends else { return 0 };
        let kinds = dead_ends.kind_hash.iter().zip(&self.remaining);
        let counts = kinds.fold(0u64, |hash, (&z, &n)| hash.wrapping_add(z.wrapping_mul(u64::from(n))));
        let columns = dead_ends.column_hash.iter().zip(&self.frontier);
        columns.fold(counts, |hash, (z, &label)| hash.wrapping_add(z[label as usize]))
    }

    /// Puts every candidate list in an order drawn from `seed`.
    fn shuffle_candidates(&mut self, seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for &(start, end) in &self.lists {
            self.pool[start as usize..end as usize].shuffle(&mut rng);
        }
    }

    fn run(&mut self) {
        if self.surplus {
            // With no tile placed, every left (top) side lies on the left border (top row) or
            // meets a right (bottom) side inside: the surplus checks hold with all cells empty.
            let c = &self.counters;
            if c.h_positive > self.rows as i32 || c.v_positive > self.cols as i32 {
                return;
            }
        }
        self.fill(0);
    }

    /// Fills `cell` and the cells after it. Returns true when the search should stop: the
    /// limit of solutions is reached, or the node budget is spent.
    fn fill(&mut self, cell: usize) -> bool {
        if self.nodes >= self.budget {
            self.out_of_budget = true;
            return true;
        }
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
        let remember = cell > 0 && self.dead_ends.is_some();
        let hash = if remember { self.state_hash_at(cell) } else { 0 };
        if remember && self.is_dead_end(cell, hash) {
            return false;
        }
        let found_before = self.found;
        let left = if col == 0 { self.border_label } else { self.board[cell - 1].right as usize };
        let top = if row == 0 { self.border_label } else { self.board[cell - self.cols].bottom as usize };
        let (start, end) = self.lists[candidate_key(left, top, class)];
        for index in start..end {
            let variant = self.pool[index as usize];
            let kind = variant.kind as usize;
            if self.remaining[kind] == 0 || !self.look_ahead(row, col, variant) {
                continue;
            }
            self.place(cell, row, col, variant);
            let fits = self.checks_hold(row, col, variant);
            if fits && self.fill(cell + 1) {
                return true;
            }
            self.unplace(cell, row, col, variant);
        }
        if remember && self.found == found_before {
            // Every candidate was tried (a spent budget would have returned above): dead.
            self.encode_state_into(cell);
            if let Some(table) = &mut self.dead_ends {
                table.insert(hash, &self.key);
            }
        }
        false
    }

    /// The hash of the state before filling `cell` (0 without a table).
    fn state_hash_at(&self, cell: usize) -> u64 {
        let Some(table) = &self.dead_ends else { return 0 };
        let right = if cell == 0 { ANY } else { self.board[cell - 1].right as usize };
        self.state_hash.wrapping_add(table.right_hash[right]).wrapping_add(table.cell_hash[cell])
    }

    /// Whether the state before filling `cell`, with this hash, is a recorded dead end. The
    /// exact key is built only when the hash is in the table.
    fn is_dead_end(&mut self, cell: usize, hash: u64) -> bool {
        if self.dead_ends.as_ref().and_then(|table| table.find(hash)).is_none() {
            return false;
        }
        self.encode_state_into(cell);
        self.dead_ends.as_ref().and_then(|table| table.find(hash)) == Some(self.key.as_slice())
    }

    /// The exact key: the cell, the open bottom label of every column, the last right label,
    /// and the remaining count of every kind (a byte each: a board has at most 144 cells).
    fn encode_state_into(&mut self, cell: usize) {
        let key = &mut self.key;
        key.clear();
        key.push(cell as u8);
        key.extend_from_slice(&self.frontier[..self.cols]);
        key.push(self.board[cell - 1].right);
        key.extend(self.remaining.iter().map(|&count| count as u8));
    }

    /// Puts `v` in `cell` at (row, col) and updates every counter.
    fn place(&mut self, cell: usize, row: usize, col: usize, v: Variant) {
        let kind = v.kind as usize;
        self.remaining[kind] -= 1;
        self.board[cell] = v;
        if let Some(table) = &self.dead_ends {
            let old = std::mem::replace(&mut self.frontier[col], v.bottom);
            let column = &table.column_hash[col];
            self.state_hash = self
                .state_hash
                .wrapping_sub(table.kind_hash[kind])
                .wrapping_sub(column[old as usize])
                .wrapping_add(column[v.bottom as usize]);
        }
        if self.counting {
            self.counters.place(self.rows, self.cols, row, col, v);
        }
        if let Some(fixed) = &mut self.fixed {
            fixed.update(self.rows, self.cols, row, col, v, -1);
        }
    }

    /// Takes `v` back from `cell` at (row, col), restoring every counter. (The mirror of
    /// `place`; one function with a sign argument measured 3% slower on tetravex.)
    fn unplace(&mut self, cell: usize, row: usize, col: usize, v: Variant) {
        let kind = v.kind as usize;
        self.remaining[kind] += 1;
        if let Some(table) = &self.dead_ends {
            let above = if row == 0 { ANY as u8 } else { self.board[cell - self.cols].bottom };
            self.frontier[col] = above;
            let column = &table.column_hash[col];
            self.state_hash = self
                .state_hash
                .wrapping_add(table.kind_hash[kind])
                .wrapping_add(column[above as usize])
                .wrapping_sub(column[v.bottom as usize]);
        }
        if self.counting {
            self.counters.unplace(self.rows, self.cols, row, col, v);
        }
        if let Some(fixed) = &mut self.fixed {
            fixed.update(self.rows, self.cols, row, col, v, 1);
        }
    }

    /// The checks after `v` landed at (row, col), all counters already updated (the row
    /// lookahead, which needs none, ran before placing).
    fn checks_hold(&self, row: usize, col: usize, v: Variant) -> bool {
        (!self.counting || self.counters.hold(self.rows, self.cols, row, col, v, self.surplus))
            && self.fixed.as_ref().is_none_or(|fixed| fixed.hold(self.rows, self.cols, row, col, v))
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
    fn look_ahead(&self, row: usize, col: usize, v: Variant) -> bool {
        self.finish[row][col + 1] & (1 << v.right) != 0
    }
}

/// The checks that need a fixed border and single orientations: the four border lines, in
/// the order of [`LINES`], and the last-two-rows counts when there are two other labels.
#[derive(Debug, Clone)]
struct FixedChecks {
    lines: [Line; 4],
    last_rows: Option<LastRows>,
}

impl FixedChecks {
    /// For each border line, the (predecessor, successor) labels of `v` when (row, col) lies on
    /// that line.
    fn line_sides(rows: usize, cols: usize, row: usize, col: usize, v: Variant) -> [Option<(u8, u8)>; 4] {
        [
            (row == 0).then_some((v.left, v.right)),
            (col + 1 == cols).then_some((v.top, v.bottom)),
            (row + 1 == rows).then_some((v.left, v.right)),
            (col == 0).then_some((v.top, v.bottom)),
        ]
    }

    /// Moves `v` at (row, col) out of the tiles not placed (`delta` = −1) or back (`delta` = 1).
    fn update(&mut self, rows: usize, cols: usize, row: usize, col: usize, v: Variant, delta: i32) {
        for (line, sides) in self.lines.iter_mut().zip(Self::line_sides(rows, cols, row, col, v)) {
            match sides {
                Some((from, to)) if delta < 0 => line.remove(from, to),
                Some((from, to)) => line.add(from, to),
                None => {}
            }
        }
        if let Some(last) = &mut self.last_rows {
            last.update(v, row, rows, delta);
        }
    }

    /// Whether the lines through (row, col) still chain from `v` on, and the last rows still
    /// split, after `v` landed there.
    fn hold(&self, rows: usize, cols: usize, row: usize, col: usize, v: Variant) -> bool {
        let ends = Self::line_sides(rows, cols, row, col, v);
        let lines_chain = self
            .lines
            .iter()
            .zip(ends)
            .all(|(line, sides)| sides.is_none_or(|(_, to)| line.connected_from(to)));
        let next = row * cols + col + 1;
        lines_chain
            && self.last_rows.as_ref().is_none_or(|last| last.feasible(next / cols, next % cols, rows, cols))
    }
}

impl LastRows {
    /// Moves `v`, placed in `row` (`delta` = −1) or taken back (`delta` = 1), in or out of the
    /// counts of tiles not placed.
    fn update(&mut self, v: Variant, row: usize, rows: usize, delta: i32) {
        let border_top = row == 0;
        let border_bottom = row + 1 == rows;
        if !border_top && !border_bottom {
            self.middle[usize::from(v.top == self.y)][usize::from(v.bottom == self.y)] += delta;
        } else if border_bottom && !border_top && v.top == self.x {
            self.bottom_row_x += delta;
        }
        // Placing closes the open edge above the tile and opens the one below it (none below
        // the last row).
        if !border_top && v.top == self.x {
            self.open_x += delta;
        }
        if !border_bottom && v.bottom == self.x {
            self.open_x -= delta;
            self.row_x[row] -= delta;
        }
    }

    /// Whether the tiles left for the rows above the bottom row can still be split as the module
    /// documentation says, in the state before filling column `col` of `row`. Checked only when
    /// at most one full row lies between the current row and the bottom row.
    fn feasible(&self, row: usize, col: usize, rows: usize, cols: usize) -> bool {
        if row == 0 || row + 2 > rows || row + 3 < rows {
            return true;
        }
        let [[xx, xy], [yx, yy]] = self.middle;
        // The rest of this row: `width` cells under `tops_x` open edges labelled x; the bottoms
        // placed in this row so far hold `placed_x` labels x.
        let width = (cols - col) as i32;
        let placed_x = self.row_x[row];
        let tops_x = self.open_x - placed_x;
        if row + 2 == rows {
            // The rest of this row takes every tile left; its bottoms, with those placed, must
            // match the bottom row's tops.
            return xx + xy == tops_x && placed_x + xx + yx == self.bottom_row_x;
        }
        // One more row follows. The rest of this row takes `a` tiles (x, x), `tops_x − a`
        // tiles (x, y), `b` tiles (y, x) and `width − tops_x − b` tiles (y, y); the next row
        // the others. Its tops must meet this row's bottoms and its bottoms the bottom row's
        // tops, which fixes `a + b`; each count lies in a range.
        let sum = xx + yx - self.bottom_row_x;
        let (low_a, high_a) = ((tops_x - xy).max(0), xx.min(tops_x));
        let (low_b, high_b) = ((width - tops_x - yy).max(0), yx.min(width - tops_x));
        low_a <= high_a && low_b <= high_b && low_a + low_b <= sum && sum <= high_a + high_b
    }
}

#[cfg(test)]
mod tests;
