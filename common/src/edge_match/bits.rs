//! The search for nearly distinct tiles ([`BitSearch`]), the choice of the board symmetry to
//! search in ([`Symmetry`]), and the split of a long search over the cores ([`SplitSearch`]);
//! the module documentation of [`super`] describes them.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{
    ANY, Border, Counters, MAX_DEAD_ENDS, MAX_LABELS, MAX_SIDE, Outcome, Placement, Puzzle, Variant,
};
use super::{LEFT, RIGHT};
use crate::Grid;

/// Nodes the bit search spends on the puzzle as given before it looks for a better symmetry.
const PLAIN_BUDGET: u64 = 100_000;

/// Random walks per symmetry when estimating tree sizes.
const PROBES: u32 = 2000;

/// One of the eight symmetries of a rectangle: a left–right mirror (first, when `mirror`),
/// then `turns` quarter turns clockwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Symmetry {
    pub(super) mirror: bool,
    pub(super) turns: u8,
}

impl Symmetry {
    pub(super) const ALL: [Symmetry; 8] = {
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
    pub(super) fn puzzle(self, puzzle: &Puzzle) -> Puzzle {
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
    pub(super) fn position(self, rows: usize, cols: usize, row: usize, col: usize) -> (usize, usize) {
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
pub(super) fn bit_search(puzzle: &Puzzle, limit: u64) -> Outcome {
    bit_search_with_budget(puzzle, limit, PLAIN_BUDGET)
}

/// [`bit_search`], giving the puzzle as given `plain_budget` nodes.
pub(super) fn bit_search_with_budget(puzzle: &Puzzle, limit: u64, plain_budget: u64) -> Outcome {
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
pub(super) const PREFIX: usize = 2;

/// Nodes between two checks of a [`SplitSearch`] task for cancellation.
pub(super) const POLL_NODES: u64 = 1 << 16;

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
pub(super) struct SplitSearch;

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
    pub(super) fn run(mut search: BitSearch, threads: usize, poll: u64) -> Outcome {
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

/// The search of [`Search`](super::Search) for the common tetravex case (free border, single orientations, at
/// most [`BIT_KINDS`] kinds, where [`Search`](super::Search) keeps no dead-end table), with sets of kinds as
/// bitsets: the candidates of a cell are one AND of the list for its (left, top), the kinds
/// still available and the kinds the row lookahead allows, so no refused candidate is ever
/// visited. The same order and checks as [`Search`](super::Search), plus the forced borders and the next-row
/// chain of the module documentation, so the same solutions in the same order; dead ends are
/// recorded only at the start of row [`DEAD_ROW`] (see [`RowState`]). Arrays have fixed sizes
/// and are indexed through masks, so the hot loop has no bounds checks. Invariants:
/// - cells `0..cell` (row-major) are filled, `board[i]` holding the kind in cell `i` and
///   `bottoms[i]` its bottom label;
/// - `remaining[k]` = `kinds[k].count` − tiles of kind `k` on the board, and bit `k` of
///   `available` is set exactly when `remaining[k] > 0`;
/// - `counters` describe the tiles not on the board;
/// - `allowed[r][c]` was built when the search last entered row `r`: the kinds whose right
///   label lets row `r` be completed after column `c` (see [`RowFinish`](super::RowFinish)), that may stand in
///   that column by the forced borders;
/// - `below[r][c]` was built when the tile of (r, c) was placed (see the field);
/// - every state in `dead_rows` is the state at the start of row [`DEAD_ROW`] of a subtree
///   that was searched to its end (not stopped by the limit or the budget) without a solution.
#[derive(Clone)]
pub(super) struct BitSearch {
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
    pub(super) found: u64,
    nodes: u64,
    pub(super) first: Option<Grid<Placement>>,
}

impl BitSearch {
    /// Whether `puzzle` is in the case this search handles (and [`Search`](super::Search) would keep no
    /// dead-end table for it).
    pub(super) fn applies(puzzle: &Puzzle) -> bool {
        let kinds = puzzle.kinds.len();
        puzzle.border == Border::Free
            && puzzle.single_orientations()
            && kinds <= BIT_KINDS
            && puzzle.rows * puzzle.cols < 2 * kinds
            && puzzle.kinds.iter().all(|kind| kind.count < 256)
    }

    pub(super) fn new(puzzle: &Puzzle, limit: u64) -> Self {
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

    pub(super) fn run(&mut self) {
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

    /// Builds `allowed[row]` from the kinds available now (the row lookahead of [`Search`](super::Search));
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
