//! The row-major search: the general method, for every puzzle.
//!
//! Cells are filled row by row, left to right. A cell's left and top labels are fixed by the
//! tiles already placed, so only kinds matching both are tried: candidate lists are precomputed
//! for every (left label, top label, border class) and hold (kind, orientation) *variants*; a
//! variant is skipped when its kind is used up. Interchangeable tiles are one kind, so no
//! arrangement is visited twice. Every placement is then tested by the row lookahead, the
//! counting checks of module `checks` that apply, and the dead-end table:
//!
//! - **Row lookahead.** On entering a row, a right-to-left pass over the row's cells computes,
//!   for each column, the left labels from which the rest of the row can still be chained under
//!   the known tops using the tiles available then (each tile may serve twice in this
//!   relaxation). A placement whose right label cannot continue the row is refused in O(1); a
//!   row that cannot be chained at all is refused before any tile is tried.
//! - **Dead ends** (when tiles repeat, at least two cells per kind, and always with a fixed
//!   border). The rest of the search depends only on the next cell, the labels of the open edges
//!   and the remaining count of every kind, whatever tiles led there; states whose subtree held
//!   no solution go into a table and are never searched again, when their subtree took at least
//!   [`Budgets::dead_end_nodes`](super::Budgets::dead_end_nodes) nodes (a smaller one costs less
//!   to search again than to store). The table is keyed by a hash kept up to date in O(1) per
//!   placement and stores each state's exact key, so a hash collision can never prune a live
//!   state.
//!
//! **Scarce kinds last** (fixed border, boards of at least
//! [`Budgets::count_order_cells`](super::Budgets::count_order_cells) cells). A cell's candidates are tried in order of the remaining
//! count of their kind, largest first (ties in list order). With a fixed border every kind's
//! count binds to the last cell (the frame takes no surplus), and a planted solution uses every
//! kind in proportion: spending the plentiful kinds first keeps the tiles left looking like
//! those the rest of the board needs, where the list order drains a kind early and leaves
//! rows near the bottom that no remaining tiles can fill, found out only there. The order is
//! a choice among the same candidates, so the search stays complete.
//!
//! **Restarts** (see module `restarts`). A wrong tile early in a solvable puzzle can hide under
//! a subtree without solutions that takes millions of nodes to exhaust. The search therefore
//! runs under a node budget; when it runs out, it starts again with the candidate lists in a
//! fresh seeded order and the next budget of its [`Schedule`]. The dead-end table is kept
//! across runs, so work already proven fruitless is not repeated. The budgets grow without
//! bound, so some run ends within its budget: a complete search, which settles unsolvable
//! puzzles.
//!
//! - Without the count order the budgets double from
//!   [`Budgets::first_run`](super::Budgets::first_run).
//! - In count order they follow Luby's sequence (1, 1, 2, 1, 1, 2, 4, … units) in units of
//!   [`LUBY_NODES_PER_CELL`] nodes per cell: many short runs, a long one now and then. A run
//!   in count order either goes through nearly greedily, about one node per cell, or sinks
//!   into a subtree without solutions that a larger budget seldom gets it out of; doubling
//!   spent ever longer runs in such subtrees. The runs still differ, though only in how ties
//!   are broken: that turned out to be enough when runs are short, and orders perturbed more
//!   (random noise on the counts, a random first cell in each row) did no better. A complete
//!   search would pay for Luby's schedule with a factor that grows with the logarithm of its
//!   nodes, so once the runs have spent [`Budgets::luby_units`](super::Budgets::luby_units)
//!   units the budgets double from there (each run as many nodes as all before it).
//!
//! Counting, the stopped runs pool the boards they found (module `distinct`): once they hold
//! `limit` distinct boards the count is settled at its limit, so a count where solutions abound
//! ends as fast as a verdict; otherwise the last, complete run counts alone. Everything stays
//! deterministic: the orders are drawn from seeds fixed by the restart's number.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::checks::{Counters, FixedChecks};
use super::dead_ends::DeadEnds;
use super::distinct::DistinctBoards;
use super::nodes::Nodes;
use super::{ANY, Border, Config, KEYS, MAX_LABELS, MAX_SIDE, Outcome, Placement, Puzzle, Variant};
use crate::Grid;
use crate::search::luby;

/// Runs the row-major search, restarting as the module documentation says.
pub(super) fn search(puzzle: &Puzzle, config: &Config) -> Outcome<Grid<Placement>> {
    // Restarts pay when few solutions are wanted, with a free border too: random 8×8 tetravex
    // games with two digits fall to them, being full of repeated tiles. Counting, the runs
    // pool the distinct boards they find (module `distinct`), so that where solutions abound
    // the count stops at its limit as soon as one solution settles a verdict.
    let counting = config.limit > 1;
    let mut search = Search::new(puzzle, config, Vec::new());
    if counting {
        search.distinct = Some(DistinctBoards::default());
    }
    let schedule = Schedule::of(&search, config);
    let mut budget = schedule.budget(1, 0);
    let mut nodes = 0;
    // The first board the stopped runs found, the count's board when they settle it.
    let mut first = None;
    for round in 1.. {
        search.nodes.set_budget(budget);
        search.run();
        nodes += search.nodes.count;
        if !search.nodes.out_of_budget {
            break;
        }
        first = first.or(search.first.take());
        if search.distinct.as_ref().is_some_and(|boards| boards.len() >= config.limit) {
            // As many distinct boards as asked: the count is settled at its limit.
            return Outcome { first, found: config.limit, nodes };
        }
        // Out of budget: start again in a fresh order, keeping the dead ends and the boards
        // (and the lists of the count order, scratch space that many short runs would
        // otherwise fill again each time).
        let (dead_ends, distinct) = (search.dead_ends.take(), search.distinct.take());
        search = Search::new(puzzle, config, std::mem::take(&mut search.ordered));
        search.dead_ends = dead_ends;
        search.distinct = distinct;
        if let Some(table) = &mut search.dead_ends {
            table.restart(&search.remaining);
        }
        search.shuffle_candidates(round);
        budget = schedule.budget(round + 1, nodes);
    }
    Outcome { first: search.first, found: search.found, nodes }
}

/// How many nodes each run of the row-major search may spend (see the module documentation).
#[derive(Debug, Clone, Copy)]
enum Schedule {
    /// `first` nodes, twice as many each run after.
    Doubling { first: u64 },
    /// Luby's sequence of `unit` nodes (the count order) while the runs have spent less than
    /// `phase` nodes; past that each run gets as many as all before it.
    Luby { unit: u64, phase: u64 },
}

/// Nodes per cell in a unit of [`Schedule::Luby`]: a run in count order that goes through
/// places nearly every tile at the first try, so a unit of two nodes per cell lets it finish
/// and cuts off one that sinks soon (one per cell left most runs short of the last row).
const LUBY_NODES_PER_CELL: u64 = 2;

impl Schedule {
    /// Luby's schedule for a search in count order, its unit [`LUBY_NODES_PER_CELL`] per cell
    /// but at most [`Budgets::first_run`](super::Budgets::first_run) (so that tests shrinking
    /// that budget force restarts on every path); doubling otherwise.
    fn of(search: &Search, config: &Config) -> Self {
        let first = config.budgets.first_run.max(1);
        if search.by_count {
            let cells = (search.rows * search.cols) as u64;
            let unit = first.min(LUBY_NODES_PER_CELL * cells);
            Schedule::Luby { unit, phase: unit.saturating_mul(config.budgets.luby_units) }
        } else {
            Schedule::Doubling { first }
        }
    }

    /// The budget of run `run`, counted from 1, after `spent` nodes in the runs before it.
    fn budget(self, run: u64, spent: u64) -> u64 {
        match self {
            Schedule::Doubling { first } => {
                let doublings = u32::try_from(run - 1).unwrap_or(u32::MAX);
                first.saturating_mul(1u64.checked_shl(doublings).unwrap_or(u64::MAX))
            }
            // Past the Luby phase every run gets all that came before: the runs' total doubles
            // with each, so a tree of `T` nodes is searched whole before `3 T` more are spent.
            Schedule::Luby { phase, .. } if spent >= phase => spent.max(1),
            Schedule::Luby { unit, .. } => unit.saturating_mul(luby(run)),
        }
    }
}

/// `finish[c]` for one row: the left labels with which the row can still be completed from
/// column `c` on (bit `ANY` for a free left border in column 0), given the tops above it. Built
/// when the search enters the row, from the tiles available then: a superset of those
/// available later in the row, so the test never cuts a branch that holds a solution.
/// Multiplicities are ignored (a tile may serve twice in the row).
type RowFinish = [u32; MAX_SIDE + 1];

/// The longest candidate list the count order sorts (a jigsaw's lists hold at most a few
/// kinds); a puzzle with a longer list keeps the list order everywhere.
const ORDERED: usize = 32;

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
/// - `counters` and `fixed` describe the tiles not on the board, and `dead_ends` the state
///   (see [`DeadEnds`]);
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
    /// Whether each cell's candidates are tried by remaining count (a fixed border, at least
    /// [`Budgets::count_order_cells`](super::Budgets::count_order_cells) cells, and no list
    /// longer than [`ORDERED`]).
    by_count: bool,
    /// With `by_count`, the candidates of each cell in the order they are tried (one list per
    /// cell, so the hot loop allocates nothing); empty otherwise.
    ordered: Vec<[Variant; ORDERED]>,
    /// Whether the open-bottoms check applies (no kind has several orientations).
    counting: bool,
    /// Whether the surplus checks apply (counting, free border).
    surplus: bool,
    counters: Counters,
    /// The border-line and last-two-rows checks (counting, fixed border).
    fixed: Option<Box<FixedChecks>>,
    finish: Vec<RowFinish>,
    /// The table of dead ends, when kept: when tiles repeat (at least two cells per kind), and
    /// always with a fixed border.
    dead_ends: Option<DeadEnds>,
    limit: u64,
    nodes: Nodes,
    found: u64,
    first: Option<Grid<Placement>>,
    /// Counting: every board found by this run and the runs before it.
    distinct: Option<DistinctBoards>,
}

/// Candidate-list key: a cell's required left and top labels (or [`ANY`]) and its class.
fn candidate_key(left: usize, top: usize, class: usize) -> usize {
    (left * KEYS + top) * 4 + class
}

impl Search {
    /// The search before any placement; `ordered` is space for [`Search::ordered`] (any
    /// contents, as the search writes a cell's list before reading it), empty the first time.
    fn new(puzzle: &Puzzle, config: &Config, mut ordered: Vec<[Variant; ORDERED]>) -> Self {
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        assert!((1..=MAX_SIDE).contains(&rows) && (1..=MAX_SIDE).contains(&cols));
        assert!(puzzle.labels <= MAX_LABELS && puzzle.kinds.len() < usize::from(u16::MAX));
        let mut variants = Vec::new();
        for (kind_index, kind) in puzzle.kinds.iter().enumerate() {
            assert!((1..=4).contains(&kind.orientations.len()));
            for (orientation, &sides) in kind.orientations.iter().enumerate() {
                assert!(sides.iter().all(|&label| (label as usize) < puzzle.labels));
                variants.push(Variant::new(kind_index, orientation, sides));
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

        // With a fixed border a cell's left and top are labels, never `ANY`: those lists only.
        let labels = || 0..puzzle.labels;
        let by_count = border_label != ANY
            && rows * cols >= config.budgets.count_order_cells
            && labels().all(|left| {
                labels().all(|top| {
                    (0..4).all(|class| {
                        let (start, end) = lists[candidate_key(left, top, class)];
                        (end - start) as usize <= ORDERED
                    })
                })
            });
        let counting = puzzle.single_orientations();
        let fixed =
            (counting && border_label != ANY).then(|| Box::new(FixedChecks::new(puzzle, border_label as u8)));
        let dead_ends = (border_label != ANY || rows * cols >= 2 * puzzle.kinds.len())
            .then(|| DeadEnds::new(puzzle, &config.budgets));
        Search {
            rows,
            cols,
            cells,
            border_label,
            first_lefts: if border_label == ANY { u32::MAX } else { 1 << border_label },
            lists,
            pool,
            by_count,
            ordered: {
                ordered.resize(if by_count { rows * cols } else { 0 }, [Variant::default(); ORDERED]);
                ordered
            },
            remaining: puzzle.kinds.iter().map(|kind| kind.count).collect(),
            board: vec![Variant::default(); rows * cols],
            counting,
            surplus: counting && border_label == ANY,
            counters: if counting { Counters::of(puzzle) } else { Counters::default() },
            fixed,
            finish: vec![[0; MAX_SIDE + 1]; rows],
            dead_ends,
            limit: config.limit.max(1),
            nodes: Nodes::new(config.progress.clone(), config.budgets.poll),
            found: 0,
            first: None,
            distinct: None,
        }
    }

    /// Puts every candidate list in an order drawn from `seed`.
    fn shuffle_candidates(&mut self, seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for &(start, end) in &self.lists {
            self.pool[start as usize..end as usize].shuffle(&mut rng);
        }
    }

    fn run(&mut self) {
        if !self.surplus || self.counters.surplus_fits(self.rows, self.cols) {
            self.fill(0);
        }
        self.nodes.report();
    }

    /// Fills `cell` and the cells after it. Returns true when the search should stop: the
    /// limit of solutions is reached, or the node budget is spent.
    fn fill(&mut self, cell: usize) -> bool {
        if self.nodes.count >= self.nodes.next_poll && !self.nodes.poll(false) {
            return true;
        }
        self.nodes.count += 1;
        if cell == self.rows * self.cols {
            return self.solution();
        }
        let Cell { row, col, class } = self.cells[cell];
        if col == 0 && !self.plan_row(row) {
            return false;
        }
        let remember = cell > 0 && self.dead_ends.is_some();
        let right = if cell > 0 { self.board[cell - 1].right } else { 0 };
        let hash = match &mut self.dead_ends {
            Some(table) if remember => {
                let hash = table.hash_at(cell, right);
                if table.is_dead(cell, hash, right, &self.remaining) {
                    return false;
                }
                hash
            }
            _ => 0,
        };
        let (found_before, nodes_before) = (self.found, self.nodes.count);
        let left = if col == 0 { self.border_label } else { self.board[cell - 1].right as usize };
        let top = if row == 0 { self.border_label } else { self.board[cell - self.cols].bottom as usize };
        let (start, end) = self.lists[candidate_key(left, top, class)];
        if self.by_count {
            self.order_by_count(cell, start as usize..end as usize);
        }
        for index in start..end {
            let variant = if self.by_count {
                self.ordered[cell][(index - start) as usize]
            } else {
                self.pool[index as usize]
            };
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
        if remember
            && self.found == found_before
            && let Some(table) = &mut self.dead_ends
            && self.nodes.count - nodes_before >= table.min_nodes
        {
            // Every candidate was tried (a spent budget would have returned above): dead.
            table.record(cell, hash, right, &self.remaining);
        }
        false
    }

    /// The candidates `pool[list]` into `ordered[cell]`, by remaining count of their kind, largest
    /// first, ties in list order (an insertion sort: the lists are a few entries long).
    fn order_by_count(&mut self, cell: usize, list: std::ops::Range<usize>) {
        let remaining = &self.remaining;
        let count = |v: &Variant| remaining[v.kind as usize];
        let ordered = &mut self.ordered[cell];
        for (len, &variant) in self.pool[list].iter().enumerate() {
            let mut at = len;
            while at > 0 && count(&ordered[at - 1]) < count(&variant) {
                ordered[at] = ordered[at - 1];
                at -= 1;
            }
            ordered[at] = variant;
        }
    }

    /// Records the board filled now as a solution; whether the limit is reached.
    #[cold]
    fn solution(&mut self) -> bool {
        self.found += 1;
        let placements = self
            .board
            .iter()
            .map(|v| Placement { kind: v.kind as usize, orientation: v.orientation as usize });
        if let Some(boards) = &mut self.distinct {
            boards.insert(placements.clone());
        }
        if self.first.is_none() {
            self.first = Some(Grid::from_vec(self.rows, self.cols, placements.collect()));
        }
        self.found >= self.limit
    }

    /// Puts `v` in `cell` at (row, col) and updates every counter.
    fn place(&mut self, cell: usize, row: usize, col: usize, v: Variant) {
        let kind = v.kind as usize;
        self.remaining[kind] -= 1;
        self.board[cell] = v;
        if let Some(table) = &mut self.dead_ends {
            table.place(kind, col, v.bottom);
        }
        if self.counting {
            self.counters.place(self.rows, self.cols, row, col, v);
        }
        if let Some(fixed) = &mut self.fixed {
            fixed.update(self.rows, self.cols, row, col, v, -1);
        }
    }

    /// Takes `v` back from `cell` at (row, col), restoring every counter. (The mirror of
    /// `place`; one function with a sign argument was slower.)
    fn unplace(&mut self, cell: usize, row: usize, col: usize, v: Variant) {
        let kind = v.kind as usize;
        self.remaining[kind] += 1;
        if let Some(table) = &mut self.dead_ends {
            let above = if row == 0 { ANY as u8 } else { self.board[cell - self.cols].bottom };
            table.unplace(kind, col, above, v.bottom);
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
