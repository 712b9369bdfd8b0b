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

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

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

/// Nodes the bit search spends on the puzzle as given before it looks for a better symmetry.
const PLAIN_BUDGET: u64 = 100_000;

/// Random walks per symmetry when estimating tree sizes.
const PROBES: u32 = 2000;

/// One of the eight symmetries of a rectangle: a left–right mirror (first, when `mirror`),
/// then `turns` quarter turns clockwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Symmetry {
    mirror: bool,
    turns: u8,
}

impl Symmetry {
    const ALL: [Symmetry; 8] = {
        let mut all = [Symmetry { mirror: false, turns: 0 }; 8];
        let mut index = 0;
        while index < 8 {
            all[index] = Symmetry { mirror: index >= 4, turns: (index % 4) as u8 };
            index += 1;
        }
        all
    };

    /// The puzzle laid out under this symmetry (free border, single orientations: a tile's
    /// sides move with the board, and the kinds keep their order).
    fn puzzle(self, puzzle: &Puzzle) -> Puzzle {
        let mut turned = puzzle.clone();
        for kind in &mut turned.kinds {
            let sides = &mut kind.orientations[0];
            if self.mirror {
                sides.swap(RIGHT, LEFT);
            }
            for _ in 0..self.turns {
                // A quarter turn clockwise: the left side goes on top, the top to the right...
                sides.rotate_right(1);
            }
        }
        if self.turns % 2 == 1 {
            std::mem::swap(&mut turned.rows, &mut turned.cols);
        }
        turned
    }

    /// Where cell (row, col) of a `rows × cols` board lands under this symmetry.
    fn position(self, rows: usize, cols: usize, row: usize, col: usize) -> (usize, usize) {
        let (mut rows, mut row, mut col) = (rows, row, if self.mirror { cols - 1 - col } else { col });
        let mut cols = cols;
        for _ in 0..self.turns {
            (row, col) = (col, rows - 1 - row);
            (rows, cols) = (cols, rows);
        }
        (row, col)
    }

    /// A solution of the transformed puzzle, laid back onto the puzzle's `rows × cols` board.
    fn solution_back(self, rows: usize, cols: usize, solution: &Grid<Placement>) -> Grid<Placement> {
        let cells = (0..rows * cols)
            .map(|cell| {
                let (row, col) = self.position(rows, cols, cell / cols, cell % cols);
                solution.cells()[row * solution.cols() + col]
            })
            .collect();
        Grid::from_vec(rows, cols, cells)
    }
}

/// The bit search, with the symmetry choice of the module documentation: the puzzle as given
/// gets [`PLAIN_BUDGET`] nodes; past that, the symmetry with the smallest estimated tree is
/// searched to the end. Solutions map one to one between symmetric boards, so the count is
/// the same in every symmetry.
fn bit_search(puzzle: &Puzzle, limit: u64) -> Outcome {
    bit_search_with_budget(puzzle, limit, PLAIN_BUDGET)
}

/// [`bit_search`], giving the puzzle as given `plain_budget` nodes.
fn bit_search_with_budget(puzzle: &Puzzle, limit: u64, plain_budget: u64) -> Outcome {
    let mut plain = BitSearch::new(puzzle, limit);
    plain.budget = plain_budget;
    plain.run();
    if !plain.out_of_budget {
        return Outcome { first: plain.first, found: plain.found, nodes: plain.nodes };
    }
    let mut nodes = plain.nodes;
    let mut best: Option<(f64, Symmetry, Puzzle)> = None;
    for symmetry in Symmetry::ALL {
        let turned = symmetry.puzzle(puzzle);
        let mut probe = BitSearch::new(&turned, limit);
        let size = probe.estimate(PROBES, 0x7465_7472_6176_6578);
        nodes += probe.nodes;
        if best.as_ref().is_none_or(|(smallest, _, _)| size < *smallest) {
            best = Some((size, symmetry, turned));
        }
    }
    let Some((_, symmetry, turned)) = best else { unreachable!("eight symmetries") };
    let outcome = SplitSearch::run(BitSearch::new(&turned, limit), threads(), POLL_NODES);
    let first = outcome.first.map(|solution| symmetry.solution_back(puzzle.rows, puzzle.cols, &solution));
    Outcome { first, found: outcome.found, nodes: nodes + outcome.nodes }
}

/// The threads a long search may use: the cores this process may run on.
fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// Cells whose kinds a [`SplitSearch`] task fixes.
const PREFIX: usize = 2;

/// Nodes between two checks of a [`SplitSearch`] task for cancellation.
const POLL_NODES: u64 = 1 << 16;

/// A [`SplitSearch`] task's view of the others: it is cancelled once a task before it (in the
/// search order) has found `limit` solutions on its own, since the answer is then settled
/// without it.
#[derive(Clone)]
struct Cancel {
    task: usize,
    first_full: Arc<AtomicUsize>,
    /// Nodes between two polls.
    every: u64,
}

impl Cancel {
    fn cancelled(&self) -> bool {
        self.first_full.load(Ordering::Relaxed) < self.task
    }
}

/// A [`BitSearch`] shared among threads, with the same outcome as the search alone.
///
/// The tree is cut into *tasks* by the kinds of its first [`PREFIX`] cells, listed in the
/// order the search itself would visit them (kinds ascending, cell by cell), and idle threads
/// take the next task. The results are then merged in task order exactly as one search would
/// have met them: solutions add up until the limit, and the first solution is that of the
/// first task with one. A task after one that reached the limit by itself cannot change the
/// result, so it is cancelled; every task before such a task runs to its end, which is what
/// keeps the outcome (and the solution `--show` draws) independent of timing.
struct SplitSearch;

/// What one task found.
struct TaskResult {
    task: usize,
    found: u64,
    first: Option<Grid<Placement>>,
    nodes: u64,
    cancelled: bool,
}

impl SplitSearch {
    /// Runs `search` on `threads` threads, tasks polling for cancellation every `poll` nodes.
    fn run(mut search: BitSearch, threads: usize, poll: u64) -> Outcome {
        if threads < 2 || search.cells <= PREFIX {
            search.run();
            return Outcome { first: search.first, found: search.found, nodes: search.nodes };
        }
        let tasks = Self::tasks(&search);
        let next = AtomicUsize::new(0);
        let first_full = Arc::new(AtomicUsize::new(usize::MAX));
        let mut results: Vec<TaskResult> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads.min(tasks.len()))
                .map(|_| {
                    scope.spawn(|| {
                        let mut done = Vec::new();
                        loop {
                            let task = next.fetch_add(1, Ordering::Relaxed);
                            let Some(&prefix) = tasks.get(task) else { break };
                            let cancel = Cancel { task, first_full: Arc::clone(&first_full), every: poll };
                            if cancel.cancelled() {
                                break;
                            }
                            let mut part = search.clone();
                            part.prefix = prefix;
                            part.budget = poll;
                            part.cancel = Some(cancel);
                            part.run();
                            if part.found >= part.limit {
                                first_full.fetch_min(task, Ordering::Relaxed);
                            }
                            let (found, first, nodes) = (part.found, part.first, part.nodes);
                            done.push(TaskResult {
                                task,
                                found,
                                first,
                                nodes,
                                cancelled: part.out_of_budget,
                            });
                        }
                        done
                    })
                })
                .collect();
            workers.into_iter().flat_map(|worker| worker.join().expect("a search thread panicked")).collect()
        });
        results.sort_by_key(|result| result.task);
        let mut outcome = Outcome { first: None, found: 0, nodes: results.iter().map(|r| r.nodes).sum() };
        for result in results {
            if outcome.found >= search.limit {
                break;
            }
            assert!(!result.cancelled, "a task is only cancelled after a task that settles the result");
            outcome.found = (outcome.found + result.found).min(search.limit);
            if outcome.first.is_none() {
                outcome.first = result.first;
            }
        }
        outcome
    }

    /// The tasks in search order: the kinds of the first two cells (which touch, as the second
    /// cell is either right of or below the first), as `prefix` masks of one kind each.
    fn tasks(search: &BitSearch) -> Vec<[u64; PREFIX]> {
        // `remaining` is zero past the puzzle's kinds.
        let mut tasks = Vec::new();
        for first in (0..BIT_KINDS).filter(|&k| search.remaining[k] > 0) {
            let a = search.sides[first];
            for second in (0..BIT_KINDS).filter(|&k| search.remaining[k] > u8::from(k == first)) {
                let b = search.sides[second];
                let touching = if search.cols > 1 { a.right == b.left } else { a.bottom == b.top };
                if touching {
                    tasks.push([1 << first, 1 << second]);
                }
            }
        }
        tasks
    }
}

/// The row at whose start [`BitSearch`] records dead ends. Later rows repeat states too (on
/// tetravex b, 10–30% of row starts), but their subtrees are small and their tables large:
/// recording rows 1–2 cost more time than it saved; row 1 alone saved 5% of the nodes.
const DEAD_ROW: usize = 1;

/// Kinds a [`BitSearch`] handles: one bit each in a `u64`.
const BIT_KINDS: usize = 64;

/// Key of [`BitSearch::lists`]: a cell's required left and top labels, or [`ANY`].
fn bit_key(left: usize, top: usize) -> usize {
    (left << 5 | top) & (BIT_LISTS - 1)
}

/// Entries of [`BitSearch::lists`]: every [`bit_key`] is below this.
const BIT_LISTS: usize = 1 << 10;

/// The search of [`Search`] for the common tetravex case (free border, single orientations, at
/// most [`BIT_KINDS`] kinds, where [`Search`] keeps no dead-end table), with sets of kinds as
/// bitsets: the candidates of a cell are one AND of the list for its (left, top), the kinds
/// still available and the kinds the row lookahead allows, so no refused candidate is ever
/// visited. The same order and checks as [`Search`], plus the forced borders and the next-row
/// chain of the module documentation, so the same solutions in the same order; dead ends are
/// recorded only at the start of row [`DEAD_ROW`] (see [`RowState`]). Arrays have fixed sizes
/// and are indexed through masks, so the hot loop has no bounds checks. Invariants:
/// - cells `0..cell` (row-major) are filled, `board[i]` holding the kind in cell `i` and
///   `bottoms[i]` its bottom label;
/// - `remaining[k]` = `kinds[k].count` − tiles of kind `k` on the board, and bit `k` of
///   `available` is set exactly when `remaining[k] > 0`;
/// - `counters` describe the tiles not on the board;
/// - `allowed[r][c]` was built when the search last entered row `r`: the kinds whose right
///   label lets row `r` be completed after column `c` (see [`RowFinish`]), that may stand in
///   that column by the forced borders;
/// - `below[r][c]` was built when the tile of (r, c) was placed (see the field);
/// - every state in `dead_rows` is the state at the start of row [`DEAD_ROW`] of a subtree
///   that was searched to its end (not stopped by the limit or the budget) without a solution.
#[derive(Clone)]
struct BitSearch {
    rows: usize,
    cols: usize,
    sides: [Variant; BIT_KINDS],
    /// Kinds by (left, top) label, [`ANY`] matching every label.
    lists: [u64; BIT_LISTS],
    /// `feeds[b][byte]`: the kinds whose right label is the left label of some kind `k` in
    /// `8b..8b + 8` with bit `k − 8b` set in `byte` (kinds that can stand left of those), for
    /// `b` below `feed_bytes`, the bytes that hold kinds.
    feeds: Box<[[u64; 256]; BIT_KINDS / 8]>,
    /// Likewise `follows`: the kinds whose left label is the right label of some kind in the
    /// byte (kinds that can stand right of those).
    follows: Box<[[u64; 256]; BIT_KINDS / 8]>,
    /// `below[r][c]`: the kinds that may stand in cell (r + 1, c), as far as row `r + 1` can be
    /// chained from its left border under the tops placed so far (ignoring multiplicities),
    /// built when the tile of (r, c) was placed.
    below: [[u64; MAX_SIDE + 4]; MAX_SIDE + 4],
    feed_bytes: usize,
    /// Kinds by right, left and bottom label.
    with_right: [u64; MAX_LABELS],
    with_left: [u64; MAX_LABELS],
    with_bottom: [u64; MAX_LABELS],
    remaining: [u8; BIT_KINDS],
    available: u64,
    board: [u8; 256],
    /// `bottoms[i]`: the bottom label of the tile in cell `i`.
    bottoms: [u8; 256],
    /// `rows * cols`.
    cells: usize,
    allowed: [[u64; MAX_SIDE + 4]; MAX_SIDE + 4],
    counters: Counters,
    /// Kinds with a count of two or more, and the weight of one tile of each in
    /// [`RowState::plural`] (mixed radix, the digit of kind `k` running over
    /// `0..=kinds[k].count`).
    plural_kinds: u64,
    plural_weight: [u128; BIT_KINDS],
    /// Row starts whose subtree held no solution (see [`RowState`]).
    dead_rows: HashSet<RowState, BuildHasherDefault<MixHasher>>,
    limit: u64,
    /// `prefix[i]` for the first [`PREFIX`] cells: the kinds cell `i` may take (all but in a
    /// [`SplitSearch`] task, which fixes those cells).
    prefix: [u64; PREFIX],
    /// The search stops when `nodes` reaches it, setting `out_of_budget`, unless
    /// [`BitSearch::poll`] extends it.
    budget: u64,
    out_of_budget: bool,
    /// Set in a [`SplitSearch`] task: polled every few nodes, it cancels the task once an
    /// earlier task has found enough solutions.
    cancel: Option<Cancel>,
    found: u64,
    nodes: u64,
    first: Option<Grid<Placement>>,
}

impl BitSearch {
    /// Whether `puzzle` is in the case this search handles (and [`Search`] would keep no
    /// dead-end table for it).
    fn applies(puzzle: &Puzzle) -> bool {
        let kinds = puzzle.kinds.len();
        puzzle.border == Border::Free
            && puzzle.single_orientations()
            && kinds <= BIT_KINDS
            && puzzle.rows * puzzle.cols < 2 * kinds
            && puzzle.kinds.iter().all(|kind| kind.count < 256)
    }

    fn new(puzzle: &Puzzle, limit: u64) -> Self {
        let (rows, cols, labels) = (puzzle.rows, puzzle.cols, puzzle.labels);
        assert!((1..=MAX_SIDE).contains(&rows) && (1..=MAX_SIDE).contains(&cols) && labels <= MAX_LABELS);
        let mut search = BitSearch {
            rows,
            cols,
            sides: [Variant::default(); BIT_KINDS],
            lists: [0; BIT_LISTS],
            feeds: Box::new([[0; 256]; BIT_KINDS / 8]),
            follows: Box::new([[0; 256]; BIT_KINDS / 8]),
            below: [[0; MAX_SIDE + 4]; MAX_SIDE + 4],
            feed_bytes: puzzle.kinds.len().div_ceil(8),
            with_right: [0; MAX_LABELS],
            with_left: [0; MAX_LABELS],
            with_bottom: [0; MAX_LABELS],
            remaining: [0; BIT_KINDS],
            available: 0,
            board: [0; 256],
            bottoms: [0; 256],
            cells: rows * cols,
            allowed: [[0; MAX_SIDE + 4]; MAX_SIDE + 4],
            counters: Counters::default(),
            plural_kinds: 0,
            plural_weight: [0; BIT_KINDS],
            dead_rows: HashSet::default(),
            limit: limit.max(1),
            prefix: [u64::MAX; PREFIX],
            budget: u64::MAX,
            out_of_budget: false,
            cancel: None,
            found: 0,
            nodes: 0,
            first: None,
        };
        for (index, kind) in puzzle.kinds.iter().enumerate() {
            let sides = kind.orientations[0];
            assert!(sides.iter().all(|&label| (label as usize) < labels));
            let [top, right, bottom, left] = sides;
            let v = Variant { kind: index as u16, orientation: 0, top, right, bottom, left };
            search.sides[index] = v;
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
            let n = kind.count as i32;
            let c = &mut search.counters;
            Counters::add(&mut c.h_surplus, &mut c.h_positive, right, n);
            Counters::add(&mut c.h_surplus, &mut c.h_positive, left, -n);
            Counters::add(&mut c.v_surplus, &mut c.v_positive, bottom, n);
            Counters::add(&mut c.v_surplus, &mut c.v_positive, top, -n);
            c.spare_tops[top as usize] += n;
        }
        let mut weight: u128 = 1;
        for (index, kind) in puzzle.kinds.iter().enumerate().filter(|(_, kind)| kind.count > 1) {
            search.plural_kinds |= 1 << index;
            search.plural_weight[index] = weight;
            // The product of (count + 1) over these kinds is at most 3^(cells / 2) < 2^102, as
            // `applies` keeps the cells below 128.
            weight = weight.checked_mul(u128::from(kind.count) + 1).expect("fewer than 128 cells");
        }
        let kinds = puzzle.kinds.len();
        let feeds = |k: usize| {
            let left = search.sides[k].left;
            (0..kinds).filter(|&j| search.sides[j].right == left).fold(0u64, |set, j| set | 1 << j)
        };
        let follows = |k: usize| {
            let right = search.sides[k].right;
            (0..kinds).filter(|&j| search.sides[j].left == right).fold(0u64, |set, j| set | 1 << j)
        };
        let feeds: Vec<u64> = (0..kinds).map(feeds).collect();
        let follows: Vec<u64> = (0..kinds).map(follows).collect();
        for (relation, tables) in [(&feeds, &mut search.feeds), (&follows, &mut search.follows)] {
            for (b, table) in tables.iter_mut().enumerate().take(search.feed_bytes) {
                for (byte, entry) in table.iter_mut().enumerate() {
                    let members = (0..8).filter(|bit| byte & 1 << bit != 0).map(|bit| 8 * b + bit);
                    *entry = members.filter(|&k| k < kinds).fold(0, |set, k| set | relation[k]);
                }
            }
        }
        search
    }

    fn run(&mut self) {
        // The root surplus check, as in `Search::run`.
        let c = &self.counters;
        if c.h_positive > self.rows as i32 || c.v_positive > self.cols as i32 {
            return;
        }
        self.fill(0, 0, 0, ANY);
    }

    /// The label above `cell`, or [`ANY`] in the top row.
    fn top_of(&self, cell: usize) -> usize {
        if cell < self.cols { ANY } else { self.bottoms[(cell - self.cols) & 255] as usize }
    }

    /// Builds `allowed[row]` from the kinds available now (the row lookahead of [`Search`]);
    /// false when the row cannot be filled.
    fn plan_row(&mut self, row: usize) -> bool {
        let (border_rights, border_lefts, bottoms) = self.border_kinds(row);
        let mut allowed = border_rights;
        for col in (0..self.cols).rev() {
            if col == 0 {
                allowed &= border_lefts;
            }
            allowed &= bottoms;
            self.allowed[row & 15][col & 15] = allowed;
            let top = self.top_of(row * self.cols + col);
            let mut completing: u64 = self.lists[bit_key(ANY, top)] & self.available & allowed;
            if completing == 0 {
                // No tile completes the row from this column on, whatever stands before it.
                return false;
            }
            allowed = 0;
            for table in &self.feeds[..self.feed_bytes] {
                allowed |= table[completing as usize & 255];
                completing >>= 8;
            }
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

    /// After `v` landed at (row, col), with the counts updated: can row + 1 still be chained
    /// from its left border to column `col` under the tops known now? (Builds `below`.)
    fn below_chains(&mut self, row: usize, col: usize, v: Variant) -> bool {
        if row + 1 >= self.rows {
            return true;
        }
        let mut possible = self.lists[bit_key(ANY, v.bottom as usize)] & self.available;
        if col > 0 {
            let mut before = self.below[row & 15][(col - 1) & 15];
            let mut after = 0;
            for table in &self.follows[..self.feed_bytes] {
                after |= table[before as usize & 255];
                before >>= 8;
            }
            possible &= after;
        }
        self.below[row & 15][col & 15] = possible;
        possible != 0
    }

    /// Puts kind `kind` in `cell` at (row, col); false (and nothing placed) when the counting
    /// checks refuse it.
    fn try_place(&mut self, cell: usize, row: usize, col: usize, kind: usize) -> bool {
        let v = self.sides[kind & 63];
        self.counters.place(self.rows, self.cols, row, col, v);
        if !self.counters.hold(self.rows, self.cols, row, col, v, true) {
            self.counters.unplace(self.rows, self.cols, row, col, v);
            return false;
        }
        self.remaining[kind & 63] -= 1;
        if self.remaining[kind & 63] == 0 {
            self.available &= !(1 << kind);
        }
        self.board[cell & 255] = kind as u8;
        self.bottoms[cell & 255] = v.bottom;
        true
    }

    /// Called when `nodes` reaches `budget`: whether to go on. A plain budget is final; a
    /// [`SplitSearch`] task goes on for a while more unless it is cancelled.
    fn poll(&mut self) -> bool {
        let Some(cancel) = &self.cancel else { return false };
        if cancel.cancelled() {
            return false;
        }
        self.budget = self.nodes + cancel.every;
        true
    }

    /// Takes back the tile of `cell` at (row, col).
    fn take_back(&mut self, cell: usize, row: usize, col: usize) {
        let kind = self.board[cell & 255] as usize & 63;
        self.counters.unplace(self.rows, self.cols, row, col, self.sides[kind]);
        self.remaining[kind] += 1;
        self.available |= 1 << kind;
    }

    /// Knuth's estimate of the size of the search tree, averaged over `probes` random walks
    /// from the root (a node per step). A step takes the candidates the masks leave (list,
    /// available kinds, row lookahead) as the branching and walks into one drawn at random; the
    /// walk ends where there is none or the drawn tile fails the counting checks. Cheap steps
    /// and many walks estimated better than exact branching and fewer walks (tetravex b: 30M
    /// against 35M nodes in all). Leaves the search at the root.
    fn estimate(&mut self, probes: u32, seed: u64) -> f64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let cells = self.rows * self.cols;
        let mut total = 0.0;
        for _ in 0..probes {
            let (mut weight, mut size) = (1.0f64, 1.0f64);
            let mut cell = 0;
            while cell < cells {
                let (row, col) = (cell / self.cols, cell % self.cols);
                if col == 0 && !self.plan_row(row) {
                    break;
                }
                let left = if col == 0 {
                    ANY
                } else {
                    self.sides[self.board[(cell - 1) & 255] as usize & 63].right as usize
                };
                let mut candidates = self.lists[bit_key(left, self.top_of(cell))]
                    & self.available
                    & self.allowed[row & 15][col & 15];
                let count = candidates.count_ones();
                self.nodes += 1;
                if count == 0 {
                    break;
                }
                weight *= f64::from(count);
                size += weight;
                let mut pick = rng.next_u64() % u64::from(count);
                while pick > 0 {
                    candidates &= candidates - 1;
                    pick -= 1;
                }
                let kind = candidates.trailing_zeros() as usize & 63;
                if !self.try_place(cell, row, col, kind) {
                    break;
                }
                cell += 1;
            }
            total += size;
            while cell > 0 {
                cell -= 1;
                self.take_back(cell, cell / self.cols, cell % self.cols);
            }
        }
        total / f64::from(probes.max(1))
    }

    /// Fills `cell` and the cells after it; true when the limit of solutions is reached or
    /// the budget is spent. One call is one node, except that a cell within a row whose
    /// candidates come out empty is counted without a call (see [`BitSearch::descend`]).
    fn fill(&mut self, cell: usize, row: usize, col: usize, left: usize) -> bool {
        if self.nodes >= self.budget && !self.poll() {
            self.out_of_budget = true;
            return true;
        }
        self.nodes += 1;
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
        let row_start = if col == 0 && row == DEAD_ROW {
            let state = self.row_state(cell);
            if self.dead_rows.contains(&state) {
                return false;
            }
            Some((state, self.found))
        } else {
            None
        };
        let top = self.top_of(cell);
        let mut candidates =
            self.lists[bit_key(left, top)] & self.available & self.allowed[row & 15][col & 15];
        if cell < PREFIX {
            candidates &= self.prefix[cell];
        }
        self.branch(cell, row, col, candidates, row_start)
    }

    /// [`BitSearch::fill`] for a cell after the first in its row and past the prefix, whose
    /// `candidates` the caller has computed.
    fn fill_known(&mut self, cell: usize, row: usize, col: usize, candidates: u64) -> bool {
        if self.nodes >= self.budget && !self.poll() {
            self.out_of_budget = true;
            return true;
        }
        self.nodes += 1;
        self.branch(cell, row, col, candidates, None)
    }

    /// Tries every kind of `candidates` in `cell` at (row, col) and searches on; records the
    /// row start (its state and the solutions found before it) as a dead end when nothing was
    /// found below it.
    #[allow(clippy::inline_always, reason = "inlined into both callers: measured 7% faster on tetravex b")]
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
        // Inside the board only the open bottom edge changes (see `Counters::place`), and the
        // surplus bounds are those of the cell before, which passed: only the bottom is checked.
        let inner = row > 0 && col > 0 && next_col > 0 && row + 1 < rows;
        while candidates != 0 {
            let kind = candidates.trailing_zeros() as usize & 63;
            candidates &= candidates - 1;
            let v = self.sides[kind];
            self.remaining[kind] -= 1;
            if self.remaining[kind] == 0 {
                self.available &= !(1 << kind);
            }
            self.board[cell & 255] = kind as u8;
            self.bottoms[cell & 255] = v.bottom;
            if inner {
                let spare = &mut self.counters.spare_tops[v.bottom as usize & (MAX_LABELS - 1)];
                *spare -= 1;
                if *spare >= 0 && self.below_chains(row, col, v) && self.descend(cell, next_row, next_col, v)
                {
                    return true;
                }
                self.counters.spare_tops[v.bottom as usize & (MAX_LABELS - 1)] += 1;
            } else {
                self.counters.place(rows, cols, row, col, v);
                if self.counters.hold(rows, cols, row, col, v, true)
                    && self.below_chains(row, col, v)
                    && self.descend(cell, next_row, next_col, v)
                {
                    return true;
                }
                self.counters.unplace(rows, cols, row, col, v);
            }
            self.remaining[kind] += 1;
            self.available |= 1 << kind;
        }
        if let Some((state, found)) = row_start
            && self.found == found
            && self.dead_rows.len() < MAX_DEAD_ENDS
        {
            self.dead_rows.insert(state);
        }
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
        let candidates = self.lists[bit_key(v.right as usize, self.top_of(next))]
            & self.available
            & self.allowed[next_row & 15][next_col & 15];
        if candidates == 0 && self.nodes < self.budget {
            self.nodes += 1;
            return false;
        }
        self.fill_known(next, next_row, next_col, candidates)
    }

    /// The state at the start of the row of `cell` (not the first row).
    fn row_state(&self, cell: usize) -> RowState {
        let mut plural = 0;
        let mut kinds = self.plural_kinds;
        while kinds != 0 {
            let kind = kinds.trailing_zeros() as usize & 63;
            kinds &= kinds - 1;
            plural += u128::from(self.remaining[kind]) * self.plural_weight[kind];
        }
        let tops = self.bottoms[(cell - self.cols) & 255..cell & 255]
            .iter()
            .fold(0, |tops, &label| tops << 4 | u64::from(label));
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
/// record a solution. The [`SplitSearch`] prefix may restrict the row start's cell (with one
/// column), but it is the same for every visit within one search, and each task starts with an
/// empty table.
#[derive(Clone, PartialEq, Eq, Hash)]
struct RowState {
    available: u64,
    plural: u128,
    tops: u64,
}

/// A fast hasher for [`RowState`] (FxHash-like multiply and rotate).
#[derive(Default)]
struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        // The product's high bits depend on all the input; hashbrown takes the low ones.
        self.0.rotate_left(26)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_u128(&mut self, value: u128) {
        self.write_u64(value as u64);
        self.write_u64((value >> 64) as u64);
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
mod tests {
    use proptest::prelude::*;
    use rand::RngExt;

    use super::*;

    /// Counts solutions by plain row-major backtracking over kinds, with no pruning: the
    /// yardstick for every rule above.
    fn plain_count(puzzle: &Puzzle, limit: u64) -> u64 {
        fn fill(puzzle: &Puzzle, remaining: &mut [u32], board: &mut Vec<[u8; 4]>, limit: u64) -> u64 {
            let (rows, cols) = (puzzle.rows, puzzle.cols);
            let cell = board.len();
            if cell == rows * cols {
                return 1;
            }
            let (row, col) = (cell / cols, cell % cols);
            let mut found = 0;
            for kind in 0..puzzle.kinds.len() {
                for &sides in &puzzle.kinds[kind].orientations {
                    let [top, right, bottom, left] = sides;
                    let fits_left = col == 0 || board[cell - 1][RIGHT] == left;
                    let fits_top = row == 0 || board[cell - cols][BOTTOM] == top;
                    let border_fits = match puzzle.border {
                        Border::Free => true,
                        Border::Fixed(b) => {
                            (top == b) == (row == 0)
                                && (left == b) == (col == 0)
                                && (right == b) == (col + 1 == cols)
                                && (bottom == b) == (row + 1 == rows)
                        }
                    };
                    if remaining[kind] == 0 || !fits_left || !fits_top || !border_fits {
                        continue;
                    }
                    remaining[kind] -= 1;
                    board.push(sides);
                    found += fill(puzzle, remaining, board, limit - found);
                    board.pop();
                    remaining[kind] += 1;
                    if found >= limit {
                        return found;
                    }
                }
            }
            found
        }
        let mut remaining: Vec<u32> = puzzle.kinds.iter().map(|kind| kind.count).collect();
        fill(puzzle, &mut remaining, &mut Vec::new(), limit)
    }

    /// Whether `solution` places exactly the puzzle's tiles and every joint and border fits.
    fn is_solution(puzzle: &Puzzle, solution: &Grid<Placement>) -> bool {
        let mut used = vec![0; puzzle.kinds.len()];
        solution.cells().iter().for_each(|p| used[p.kind] += 1);
        let counts_match = used.iter().zip(&puzzle.kinds).all(|(&n, kind)| n == kind.count);
        let sides: Vec<[u8; 4]> = solution.cells().iter().map(|&p| puzzle.sides(p)).collect();
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        let fits = (0..rows * cols).all(|cell| {
            let (row, col) = (cell / cols, cell % cols);
            let s = sides[cell];
            let joints = (col + 1 == cols || s[RIGHT] == sides[cell + 1][LEFT])
                && (row + 1 == rows || s[BOTTOM] == sides[cell + cols][TOP]);
            joints
                && match puzzle.border {
                    Border::Free => true,
                    Border::Fixed(b) => border_mask(s, b) == cell_mask(rows, cols, row, col),
                }
        });
        counts_match && fits
    }

    /// A random puzzle cut from a random board: joints labelled `0..labels` (border `0` and
    /// inner `1..labels` when `fixed`), optionally one side changed, optionally every tile
    /// turned at random and allowed all its rotations.
    fn random_puzzle(
        rows: usize,
        cols: usize,
        labels: u8,
        fixed: bool,
        rotate: bool,
        break_one: bool,
        seed: u64,
    ) -> Puzzle {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let inner = |rng: &mut ChaCha8Rng| {
            if fixed { rng.random_range(1..labels) } else { rng.random_range(0..labels) }
        };
        let edge = |rng: &mut ChaCha8Rng| if fixed { 0 } else { rng.random_range(0..labels) };
        let mut tiles = vec![[0u8; 4]; rows * cols];
        for cell in 0..rows * cols {
            let (row, col) = (cell / cols, cell % cols);
            let top = if row == 0 { edge(&mut rng) } else { tiles[cell - cols][BOTTOM] };
            let left = if col == 0 { edge(&mut rng) } else { tiles[cell - 1][RIGHT] };
            let right = if col + 1 == cols { edge(&mut rng) } else { inner(&mut rng) };
            let bottom = if row + 1 == rows { edge(&mut rng) } else { inner(&mut rng) };
            tiles[cell] = [top, right, bottom, left];
        }
        if break_one {
            let cell = rng.random_range(0..tiles.len());
            tiles[cell][rng.random_range(0..4)] = rng.random_range(0..labels);
        }
        let border = if fixed { Border::Fixed(0) } else { Border::Free };
        if !rotate {
            return Puzzle::from_tiles(rows, cols, labels as usize, border, &tiles);
        }
        let turn = |sides: [u8; 4], turns: usize| std::array::from_fn(|side| sides[(side + 4 - turns) % 4]);
        let mut kinds: Vec<Kind> = Vec::new();
        for tile in tiles {
            let turned = turn(tile, rng.random_range(0..4));
            if let Some(kind) = kinds.iter_mut().find(|kind| kind.orientations.contains(&turned)) {
                kind.count += 1;
                continue;
            }
            let mut orientations: Vec<[u8; 4]> = Vec::new();
            for turns in 0..4 {
                let sides = turn(turned, turns);
                if !orientations.contains(&sides) {
                    orientations.push(sides);
                }
            }
            kinds.push(Kind { count: 1, orientations });
        }
        Puzzle { rows, cols, labels: labels as usize, border, kinds }
    }

    #[test]
    fn masks_group_by_rotation() {
        assert_eq!(cell_mask(3, 3, 0, 0), 1 << TOP | 1 << LEFT);
        assert_eq!(cell_mask(3, 3, 1, 1), 0);
        assert_eq!(cell_mask(1, 1, 0, 0), 0xf);
        let corners = [0b1001, 0b0011, 0b0110, 0b1100];
        assert!(corners.iter().all(|&mask| rotation_class(mask) == rotation_class(corners[0])));
        assert_ne!(rotation_class(0b0101), rotation_class(0b0011));
        assert_eq!(border_mask([0, 1, 0, 2], 0), 0b0101);
    }

    #[test]
    fn a_line_chains_only_when_balanced_and_connected() {
        let mut line = Line::default();
        for (from, to) in [(0, 1), (1, 2), (2, 2), (2, 0)] {
            line.add(from, to);
        }
        assert!(line.balanced_from(0, 0) && line.connected_from(0));
        // The first two tiles placed: the rest runs from 2 back to 0.
        line.remove(0, 1);
        line.remove(1, 2);
        assert!(line.balanced_from(2, 0) && line.connected_from(2));
        assert!(!line.balanced_from(1, 0));
        // Balanced from 1 to 0, but the loop at 2 cannot be reached.
        let mut apart = Line::default();
        apart.add(1, 0);
        apart.add(2, 2);
        assert!(apart.balanced_from(1, 0) && !apart.connected_from(1));
        apart.add(1, 2);
        apart.add(2, 1);
        assert!(apart.connected_from(1));
    }

    #[test]
    fn root_checks_refuse_what_counting_sees() {
        // A 2×2 jigsaw-like board: corners only, the inner joints labelled 1 and 2.
        let tiles = [[0, 1, 2, 0], [0, 0, 1, 1], [2, 2, 0, 0], [1, 0, 0, 2]];
        let puzzle = Puzzle::from_tiles(2, 2, 3, Border::Fixed(0), &tiles);
        assert!(puzzle.check_counts());
        assert_eq!(count(&puzzle, 10), 1);
        // The bottom-right corner turned into a second top-right corner: border classes fail.
        let wrong_class =
            Puzzle::from_tiles(2, 2, 3, Border::Fixed(0), &[tiles[0], tiles[1], tiles[2], [0, 0, 1, 1]]);
        assert!(!wrong_class.check_counts());
        // Swap the right sides of the two left corners: every per-side count stays, but the top
        // row and the bottom row no longer chain.
        let swapped = [[0, 2, 2, 0], [0, 0, 1, 1], [2, 1, 0, 0], [1, 0, 0, 2]];
        let puzzle = Puzzle::from_tiles(2, 2, 3, Border::Fixed(0), &swapped);
        assert!(puzzle.border_classes_fit(0));
        assert!(!puzzle.check_counts());
        assert_eq!(plain_count(&puzzle, 10), 0);
    }

    #[test]
    fn the_dead_end_table_compares_exact_keys() {
        let puzzle = Puzzle::from_tiles(1, 2, 2, Border::Free, &[[0, 1, 0, 0], [0, 0, 0, 1]]);
        let mut table = DeadEnds::new(&puzzle);
        // Keys hold the cell, two columns, the right label and two counts.
        assert_eq!(table.key_len, 6);
        table.insert(42, &[1, 2, 3, 4, 5, 6]);
        assert!(table.contains(42, &[1, 2, 3, 4, 5, 6]));
        // The same hash for another state is a collision, never a hit.
        assert!(!table.contains(42, &[1, 2, 3, 4, 5, 7]));
        assert!(!table.contains(43, &[1, 2, 3, 4, 5, 6]));
        // A second state with a taken hash is not recorded.
        table.insert(42, &[9, 9, 9, 9, 9, 9]);
        assert!(!table.contains(42, &[9, 9, 9, 9, 9, 9]));
    }

    #[test]
    fn restarts_keep_the_verdict_and_find_real_solutions() {
        for seed in 0..40 {
            let puzzle = random_puzzle(4, 4, 3, true, seed % 4 == 0, seed % 2 == 1, seed);
            let solvable = plain_count(&puzzle, 1) == 1;
            // A budget of a few nodes forces many restarts.
            let outcome = search_with_budget(&puzzle, 1, Some(3));
            assert_eq!(outcome.first.is_some(), solvable, "seed {seed}");
            if let Some(solution) = &outcome.first {
                assert!(is_solution(&puzzle, solution), "seed {seed}");
            }
        }
    }

    #[test]
    fn every_symmetry_keeps_the_solutions() {
        let mut searched = 0;
        for seed in 0..300 {
            let (rows, cols) = (1 + seed as usize % 4, 1 + (seed as usize / 4) % 4);
            let labels = 4 + (seed % 3) as u8;
            let puzzle = random_puzzle(rows, cols, labels, false, false, seed % 2 == 1, seed);
            let expected = plain_count(&puzzle, 50);
            for symmetry in Symmetry::ALL {
                let turned = symmetry.puzzle(&puzzle);
                assert_eq!(plain_count(&turned, 50), expected, "seed {seed}, {symmetry:?}");
            }
            if !BitSearch::applies(&puzzle) {
                continue;
            }
            searched += 1;
            // No budget for the puzzle as given: the search runs in the symmetry it picks.
            for limit in [1, 50] {
                let outcome = bit_search_with_budget(&puzzle, limit, 0);
                assert_eq!(outcome.found, expected.min(limit), "seed {seed}");
                if let Some(solution) = &outcome.first {
                    assert!(is_solution(&puzzle, solution), "seed {seed}");
                }
            }
        }
        assert!(searched > 100, "only {searched} puzzles took the bit search");
    }

    #[test]
    fn split_search_has_the_outcome_of_one_search() {
        let mut split = 0;
        for seed in 0..400 {
            let (rows, cols) = (1 + seed as usize % 4, 1 + (seed as usize / 4) % 4);
            let labels = 4 + (seed % 3) as u8;
            let puzzle = random_puzzle(rows, cols, labels, false, false, seed % 2 == 1, seed);
            if !BitSearch::applies(&puzzle) || rows * cols <= PREFIX {
                continue;
            }
            split += 1;
            for limit in [1, 2, 50] {
                let mut alone = BitSearch::new(&puzzle, limit);
                alone.run();
                // Polling at every node cancels every task that can be cancelled.
                for (threads, poll) in [(2, 1), (3, 1), (2, 5), (4, POLL_NODES)] {
                    let shared = SplitSearch::run(BitSearch::new(&puzzle, limit), threads, poll);
                    let context = format!("seed {seed}, limit {limit}, {threads} threads, poll {poll}");
                    assert_eq!(shared.found, alone.found, "{context}");
                    assert_eq!(shared.first, alone.first, "{context}");
                }
            }
        }
        assert!(split > 100, "only {split} puzzles were split");
    }

    #[test]
    fn symmetries_move_cells_as_they_move_the_board() {
        let turn = Symmetry { mirror: false, turns: 1 };
        // A quarter turn clockwise of a 2 × 3 board: the top-left corner becomes the top-right.
        assert_eq!(turn.position(2, 3, 0, 0), (0, 1));
        assert_eq!(turn.position(2, 3, 1, 2), (2, 0));
        let mirror = Symmetry { mirror: true, turns: 0 };
        assert_eq!(mirror.position(2, 3, 0, 0), (0, 2));
        let tiles = [[1, 2, 3, 4]];
        let turned = turn.puzzle(&Puzzle::from_tiles(1, 1, 5, Border::Free, &tiles));
        assert_eq!(turned.kinds[0].orientations[0], [4, 1, 2, 3]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn counts_agree_with_plain_backtracking(
            rows in 1usize..=4, cols in 1usize..=4, labels in 2u8..=4, fixed: bool, rotate: bool,
            break_one: bool, seed: u64,
        ) {
            let puzzle = random_puzzle(rows, cols, labels, fixed, rotate, break_one, seed);
            let limit = 50;
            let outcome = search(&puzzle, limit);
            prop_assert_eq!(outcome.found, plain_count(&puzzle, limit), "seed {}", seed);
            if let Some(solution) = &outcome.first {
                prop_assert!(is_solution(&puzzle, solution), "seed {}", seed);
            }
            let single = search(&puzzle, 1);
            prop_assert_eq!(single.found, outcome.found.min(1), "seed {}", seed);
        }
    }
}
