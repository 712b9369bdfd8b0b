//! The search shared by the edge-matching puzzles.
//!
//! # The problem
//! Fill a `rows × cols` board with square tiles. Every tile has four side labels (small integers
//! below [`Puzzle::labels`]), given clockwise from the top in *matching form*: two adjoining tiles
//! fit when the right label of the left tile equals the left label of the right one, and the
//! bottom label of the upper tile equals the top label of the lower one. (A puzzle whose sides fit
//! by some other relation is relabelled into this form, say by exchanging knob and hole on the
//! left and top sides so that "knob meets hole" becomes equality.) Sides on the board's edge
//! follow the [`Border`] rule. Identical tiles form one [`Kind`] with a count; a kind may also
//! list several orientations (its distinct rotations) of which any one may be used.
//!
//! # Using it
//! Describe the puzzle as a [`Puzzle`], say how to search in a [`Config`] (how many solutions,
//! threads, where to report progress), and call [`search`] (or [`solve`], [`count`]). The
//! [`Outcome`] holds the first solution, the number found and the nodes visited.
//!
//! # How it searches
//! The engine picks its methods from properties of the puzzle, documented here so that a
//! puzzle can be shaped to get them:
//! - Every puzzle first goes through the **root checks** ([`Puzzle::check_counts`], module
//!   `checks`): counting arguments that need no search and refute most broken puzzles.
//! - The general search is the **row-major search** (module `rows`): cells filled row by row,
//!   candidates from precomputed lists by (left, top, border class), a row lookahead, O(1)
//!   counting checks, a table of dead ends, and restarts for a single solution (module
//!   `restarts`). Every rule it uses, with its invariants, is documented there.
//! - A puzzle with *nearly distinct tiles* — a free border, single orientations, at most
//!   [`BIT_KINDS`] kinds and fewer than two cells per kind, at most [`BIT_SIDE`] a side — takes the **bit search** (module
//!   `bits`) instead: the same search with sets of kinds as bitsets, plus two more relaxations.
//! - A bit search that outlives its first budget picks the **board symmetry** whose tree is
//!   smallest by Knuth's estimator (module `symmetry`) and searches it to the end, **split over
//!   threads** (module `split`) with the outcome of one thread; looking for one solution, it
//!   first tries randomised restarts (module `restarts`) under a small budget. On small boards a
//!   quick estimate first picks a symmetry for a bounded search (module `symmetry`).
//! - A puzzle with a **fixed border and exactly two other labels** also gets the *last two rows*
//!   check (module `checks`).
//! - Both searches count nodes through module `nodes`: one comparison per node against the next
//!   *poll*, where the budget is enforced, a split task checks for cancellation, and the nodes
//!   (with the symmetry estimate as the tree size) go to [`Config::progress`]; there are no
//!   polls short of the budget when nobody listens.
//!
//! Every budget these steps spend is a field of [`Budgets`]; every capacity the bitset tricks
//! rely on is a named constant with a compile-time assertion next to it, so raising a limit
//! fails to compile rather than corrupting a board.
//!
//! # Complexity
//! Exponential in the worst case (edge matching is NP-complete). A node costs O(candidates) plus
//! O(1) for the checks (O(labels) on border lines); entering a row costs O(cols × tiles with a
//! given top).

use std::num::NonZeroUsize;

use crate::Grid;
pub use crate::search::{Outcome, Progress};
pub use parts::{PREFIXES_PER_PART, Part, PartOutcome, merge_parts, search_part};

// The modules in layers, each using only those listed before it: `kinds`, `nodes`, `checks`,
// `dead_ends`, `distinct` and `board_symmetry` stand alone; `rows` and `bits` search; `split`,
// `restarts` and `symmetry` drive the bit search; `parts` cuts a search into parts.
mod bits;
mod board_symmetry;
mod checks;
mod dead_ends;
mod distinct;
mod kinds;
mod nodes;
mod parts;
mod restarts;
mod rows;
mod split;
mod symmetry;

/// The longest side a board may have (the row-major search's capacity).
pub const MAX_SIDE: usize = 64;
/// The longest side of a board the bit search takes; a larger one takes the row-major search.
/// Its per-row tables pack a row of labels into a `u64`.
pub const BIT_SIDE: usize = 16;
/// The most labels a puzzle may use.
pub const MAX_LABELS: usize = 16;
/// The most kinds the bit search handles: one bit each in a set of four `u64` words (one word
/// up to 64 kinds).
pub const BIT_KINDS: usize = 256;

// Label sets are `u32` masks with a bit for every label and one for [`ANY`]; per-label counters
// are indexed through `& (MAX_LABELS - 1)`.
const _: () = assert!(MAX_LABELS.is_power_of_two() && KEYS <= u32::BITS as usize);
// Exact dead-end keys hold a cell index and kind counts in one or two bytes each (module
// `dead_ends`). Keys are recorded only for a cell past the first and before the last, so the
// cell index is below `MAX_SIDE²` and every remaining count at most `MAX_SIDE² − 1`: both fit
// in two bytes when `MAX_SIDE²` is at most 65,536.
const _: () = assert!(MAX_SIDE * MAX_SIDE <= u16::MAX as usize + 1);
const _: () = assert!(BIT_SIDE <= MAX_SIDE);

/// What the sides on the board's edge must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Border {
    /// Anything.
    Free,
    /// This label on every border side, and never this label on an inner side (say, flat).
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

    /// Whether the tiles are *nearly distinct*, the case of the bit search: a free border,
    /// single orientations, at most [`BIT_KINDS`] kinds and fewer than two cells per kind, on a
    /// board at most [`BIT_SIDE`] a side.
    pub fn nearly_distinct(&self) -> bool {
        let kinds = self.kinds.len();
        self.rows <= BIT_SIDE
            && self.cols <= BIT_SIDE
            && self.border == Border::Free
            && self.single_orientations()
            && kinds <= BIT_KINDS
            && self.rows * self.cols < 2 * kinds
            && self.kinds.iter().all(|kind| u8::try_from(kind.count).is_ok())
    }
}

/// Every budget the search spends, in one place. [`Budgets::DEFAULT`] holds the measured
/// choices (the measurements behind each are in the repository's
/// `docs/benchmarks/tetravex.md`, "Why the engine's settings"); tests shrink them to force
/// the rare paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budgets {
    /// Nodes of the first run when the row-major search restarts; each later run gets twice
    /// the one before (in count order the unit of Luby's schedule instead, at most this; module
    /// `rows`).
    pub first_run: u64,
    /// Units of Luby's schedule the row-major search in count order spends in all before its
    /// runs double instead (module `rows`): Luby's runs reach a complete search of `T` nodes
    /// only after about `T log T`, doubling within about `3 T`. Far above the nodes any
    /// solvable jigsaw measured has needed under Luby's runs, so those are not cut short.
    pub luby_units: u64,
    /// Nodes the bit search spends on the puzzle as given before it looks for a better
    /// symmetry. Small: with a larger budget most of the work of a mid-sized tree (the judge's
    /// 5×5 games) was spent here before the symmetry choice could help it.
    pub plain: u64,
    /// Random walks per symmetry when estimating tree sizes. Few: many more walks pick no
    /// better symmetry, at a cost that is most of the search of a small tree.
    pub probes: u32,
    /// Random walks per symmetry of the *quick* estimate taken first (the first walks of the
    /// full estimate, so nothing is walked twice). On the judge's 5×5 games the full walks
    /// cost about as much time as the search they choose for, and these few choose nearly as
    /// well there.
    pub quick_probes: u32,
    /// The quick estimate is taken only on boards of at most this many cells (the judge's 5×5).
    /// Its error grows with the depth of the walks: on larger boards the few walks often saw a
    /// small part of a tree the search then met whole, and the bounded searches they chose were
    /// wasted; on the judge's boards it saves much.
    pub quick_cells: usize,
    /// Nodes the bit search spends on the puzzle as given, in place of [`Budgets::plain`], on
    /// boards that take the quick estimate: the estimate and the bounded search cost so little
    /// there that a larger budget only delays them.
    pub quick_plain: u64,
    /// A quick estimate below this many nodes is trusted for a *bounded* search of the symmetry
    /// it picks; above it the full estimate is taken at once (a large tree amortises it).
    pub quick_tree: u64,
    /// The bounded search gets the quick estimate times this many nodes…
    pub quick_trust: u32,
    /// … but never more than this. Past its budget the full estimate picks again and the
    /// search starts over, so a quick estimate that was far too low (few walks can miss most of
    /// a tree) wastes at most this many nodes.
    pub quick_cap: u64,
    /// On boards that take the quick estimate, a full estimate (the smallest of the eight)
    /// above this many nodes walks the [`Budgets::quick_more_leaders`] symmetries of the
    /// smallest estimates on to [`Budgets::quick_more_probes`] walks and picks again among
    /// them: on a tree of this size the full walks still err by more than the trees of the
    /// leaders differ, and the extra walks cost a few percent of it.
    pub quick_more_tree: u64,
    /// How many symmetries the second look walks on (see [`Budgets::quick_more_tree`]).
    pub quick_more_leaders: usize,
    /// Random walks in all per symmetry of that second look (see [`Budgets::quick_more_tree`]).
    pub quick_more_probes: u32,
    /// Nodes between two polls of a long search (for cancellation and progress reports).
    pub poll: u64,
    /// The row at whose start the bit search records dead ends. Later rows repeat states too,
    /// but their subtrees are small and their tables large: recording two rows cost more time
    /// than it saved, one row saved a few percent of the nodes. Any value is valid: 0 records
    /// only the root (a whole search without a solution), and a row past the last records
    /// nothing.
    pub dead_row: usize,
    /// The row-major search records a state as a dead end only when its subtree took at least
    /// this many nodes: most dead states are leaves or nearly, which cost less to search again
    /// than to store (a key of `cols + kinds + 2` bytes or more, and on large boards fresh
    /// pages of memory).
    pub dead_end_nodes: u64,
    /// Entries of a dead-end table, so memory stays bounded (an entry of the row-major table is
    /// about 30 bytes plus its key of `cols + kinds + 2` bytes, `cols + 2 × kinds + 3` past 256
    /// cells).
    pub dead_ends: usize,
    /// Nodes the randomised restarts of the bit search may spend in all before the complete
    /// search (module `restarts`). Large: the share of the estimated tree
    /// ([`Budgets::restart_share`]) is what bounds the cost of an unsolvable puzzle, and on
    /// solvable 8×8 games with five digits a smaller budget left many games to the complete
    /// search, which took far longer.
    pub restarts: u64,
    /// The restarts of the bit search also spend at most the estimated tree of the complete
    /// search divided by this: an unsolvable puzzle pays for them on top of its refutation.
    pub restart_share: u32,
    /// Nodes of one unit of the Luby sequence of the bit search's restarts (module `restarts`):
    /// half and twice as many took about as many nodes.
    pub restart_unit: u64,
    /// The restarts of the bit search try the kinds with the scarcest partners first (module
    /// `restarts`, `scarce_first`) on boards of at least this many cells, and in a uniformly
    /// random order on smaller ones: on 16×16 boards with four and five digits the order took
    /// far fewer nodes; on 8×8 boards with five digits and one triangle changed about as many
    /// in all but a worse worst game, so those keep the random order.
    pub scarce_cells: usize,
    /// The row-major search with a fixed border tries each cell's candidates by remaining count
    /// (module `rows`) on boards of at least this many cells: on jigsaws past 8×8 the order cut
    /// the nodes of planted blocks by up to 80 times and the heavy tail of 32×32 ones by far
    /// more; on the judge's 6×6 blocks it saved no nodes and cost a tenth more instructions.
    pub count_order_cells: usize,
}

impl Budgets {
    /// The measured defaults.
    pub const DEFAULT: Budgets = Budgets {
        first_run: 10_000,
        luby_units: 1024,
        plain: 10_000,
        probes: 250,
        quick_probes: 32,
        quick_cells: 25,
        quick_plain: 1000,
        quick_tree: 200_000,
        quick_trust: 32,
        quick_cap: 1_000_000,
        quick_more_tree: 300_000,
        quick_more_leaders: 3,
        quick_more_probes: 1000,
        poll: 1 << 16,
        dead_row: 1,
        dead_end_nodes: 16,
        dead_ends: 1 << 20,
        restarts: 256_000_000,
        restart_share: 128,
        restart_unit: 2000,
        scarce_cells: 81,
        count_order_cells: 64,
    };
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets::DEFAULT
    }
}

/// How to search.
#[derive(Debug, Clone)]
pub struct Config {
    /// Stop after this many solutions (0 counts as 1).
    pub limit: u64,
    /// Threads a long bit search may use, `None` for every core the process may run on; 1 runs
    /// the plain single-thread search. Every number gives the same outcome (count and first
    /// solution).
    pub threads: Option<NonZeroUsize>,
    /// Where to report the work done (hidden by default).
    pub progress: Progress,
    /// What the search may spend where.
    pub budgets: Budgets,
}

impl Config {
    /// Up to `limit` solutions on every core the process may run on, no progress shown.
    pub fn new(limit: u64) -> Self {
        Config { limit, threads: None, progress: Progress::default(), budgets: Budgets::DEFAULT }
    }

    /// The same search on `threads` threads, or on every core when `None`.
    #[must_use]
    pub fn with_threads(self, threads: Option<NonZeroUsize>) -> Self {
        Config { threads, ..self }
    }

    /// The threads a long search uses. Asked only when one starts: finding the cores reads the
    /// process's CPU limits, which costs more than refuting most puzzles.
    fn thread_count(&self) -> usize {
        self.threads.unwrap_or_else(all_cores).get()
    }

    /// The same search, reporting to `progress`.
    #[must_use]
    pub fn with_progress(self, progress: Progress) -> Self {
        Config { progress, ..self }
    }
}

/// The cores this process may run on.
pub fn all_cores() -> NonZeroUsize {
    std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN)
}

/// Searches for up to `config.limit` solutions. Boards count as distinct when some cell holds a
/// different kind or orientation.
///
/// # Panics
/// When the puzzle breaks the limits documented on [`Puzzle`].
pub fn search(puzzle: &Puzzle, config: &Config) -> Outcome<Grid<Placement>> {
    if !puzzle.check_counts() {
        return Outcome::none(0);
    }
    if !puzzle.nearly_distinct() {
        rows::search(puzzle, config)
    } else if puzzle.kinds.len() <= kinds::NARROW_KINDS {
        symmetry::search::<u64>(puzzle, config)
    } else if puzzle.kinds.len() <= kinds::MID_KINDS {
        symmetry::search::<kinds::Mid>(puzzle, config)
    } else {
        symmetry::search::<kinds::Wide>(puzzle, config)
    }
}

/// Finds a solution, or `None` when there is none.
///
/// # Panics
/// When the puzzle breaks the limits documented on [`Puzzle`].
pub fn solve(puzzle: &Puzzle) -> Option<Grid<Placement>> {
    search(puzzle, &Config::new(1)).first
}

/// Counts the distinct solved boards, stopping at `limit`.
///
/// # Panics
/// When the puzzle breaks the limits documented on [`Puzzle`].
pub fn count(puzzle: &Puzzle, limit: u64) -> u64 {
    search(puzzle, &Config::new(limit)).found
}

/// Side indices in `[top, right, bottom, left]`.
const TOP: usize = 0;
const RIGHT: usize = 1;
const BOTTOM: usize = 2;
const LEFT: usize = 3;

/// Label value standing for "anything" (a free border side) in table keys.
const ANY: usize = MAX_LABELS;
/// Table keys run over the labels and [`ANY`].
const KEYS: usize = MAX_LABELS + 1;

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

impl Variant {
    /// Orientation `orientation` of kind `kind` with these sides.
    fn new(kind: usize, orientation: usize, [top, right, bottom, left]: [u8; 4]) -> Self {
        Variant { kind: kind as u16, orientation: orientation as u8, top, right, bottom, left }
    }
}

#[cfg(test)]
mod tests;
