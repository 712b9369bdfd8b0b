//! The choice of the board symmetry to search in.
//!
//! A refutation must exhaust the tree, whose size depends much (several times over) on the side
//! the filling starts from. The bit search first gets a budget of nodes
//! ([`Budgets::plain`](super::Budgets::plain)); past it, Knuth's estimator (random walks) sizes the tree of each of the
//! board's eight symmetries (mirror, then quarter turns; a free border and single orientations
//! make every symmetric board a puzzle of the same kind), and the smallest is searched to the
//! end, split over threads (module `split`). Solutions map one to one between symmetric boards,
//! so counts agree, and a solution found is mapped back. The estimate is also what the progress
//! line shows as the size of the search.
//!
//! **The quick estimate** (small boards, [`Budgets::quick_cells`](super::Budgets::quick_cells)).
//! On the judge's 5×5 boards most trees past the first budget are small, and the full walks of
//! every symmetry cost about as much time as the search they choose for. So there the first
//! budget is smaller ([`Budgets::quick_plain`](super::Budgets::quick_plain)), and the first 32
//! walks of each symmetry pick a symmetry for a *bounded* search: at most
//! [`Budgets::quick_trust`](super::Budgets::quick_trust) times the quick estimate, and at most
//! [`Budgets::quick_cap`](super::Budgets::quick_cap) nodes. Ended within its budget, that search
//! is complete (or reached the limit of solutions), so its outcome is the answer. Otherwise the
//! walks go on to the full 250 (the same walks: the quick ones are their start), which pick as
//! they would have without the quick step, and everything continues as above. Few walks can
//! underestimate a tree by far (trusted without a bound, they took some searches of larger
//! boards from milliseconds to minutes); the bound keeps the loss
//! of a wrong quick choice at most `quick_cap` nodes, paid once. The bounded search runs on one
//! thread and makes no restarts: its trees are small.
//!
//! **A second look** (the same small boards, [`Budgets::quick_more_tree`](super::Budgets::quick_more_tree)).
//! Where even the smallest of the full estimates is large, the full walks still err by more
//! than the trees of the leading symmetries differ: the [`Budgets::quick_more_leaders`](super::Budgets::quick_more_leaders) symmetries of the smallest estimates (three) walk on to
//! [`Budgets::quick_more_probes`](super::Budgets::quick_more_probes) and the smallest of their
//! new estimates is searched. The extra walks cost a few percent of such a tree.
//!
//! Everything here is deterministic: the walks have a fixed seed, and every choice depends
//! only on the puzzle and the budgets.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::bits::BitSearch;
use super::board_symmetry::Symmetry;
use super::kinds::KindSet;
use super::restarts::{self, Settled};
use super::split::SplitSearch;
use super::{ANY, Config, Outcome, Placement, Puzzle};
use crate::Grid;

/// The seed of the random walks. Any fixed value works; this one is kept so that node counts
/// stay those recorded before.
const WALK_SEED: u64 = 0x7465_7472_6176_6578;

/// The bit search of a [nearly distinct](Puzzle::nearly_distinct) puzzle, with the symmetry
/// choice of the module documentation.
pub(super) fn search<S: KindSet>(puzzle: &Puzzle, config: &Config) -> Outcome<Grid<Placement>> {
    match choose::<S>(puzzle, config, true) {
        Chosen::Settled(outcome) => outcome,
        Chosen::Complete { symmetry, turned, size, nodes } => {
            config.progress.set_estimate(nodes.saturating_add(size as u64));
            let search = BitSearch::<S>::new(&turned, config);
            let outcome = SplitSearch::run(search, config.thread_count(), config.budgets.poll);
            let outcome = outcome.map(|solution| symmetry.solution_back(puzzle.rows, puzzle.cols, &solution));
            Outcome { nodes: nodes + outcome.nodes, ..outcome }
        }
    }
}

/// Where the bit search stands once it has chosen its symmetry ([`choose`]).
pub(super) enum Chosen {
    /// Settled before the complete search.
    Settled(Outcome<Grid<Placement>>),
    /// The complete search is left: the puzzle laid out under `symmetry` is `turned`, its tree
    /// estimated at `size` nodes, after `nodes` spent.
    Complete { symmetry: Symmetry, turned: Puzzle, size: f64, nodes: u64 },
}

/// Everything the bit search does before its complete search, as the module documentation
/// says: the budget on the puzzle as given, the quick estimate and its bounded search, the
/// estimate that chooses the symmetry, and when `restarts`, the randomised restarts. Depends
/// only on the puzzle and the budgets.
pub(super) fn choose<S: KindSet>(puzzle: &Puzzle, config: &Config, restarts: bool) -> Chosen {
    let budgets = &config.budgets;
    let quick = budgets.quick_probes < budgets.probes && puzzle.rows * puzzle.cols <= budgets.quick_cells;
    let mut plain = BitSearch::<S>::new(puzzle, config);
    plain.nodes.set_budget(if quick { budgets.quick_plain } else { budgets.plain });
    plain.run();
    if !plain.nodes.out_of_budget {
        return Chosen::Settled(Outcome { first: plain.first, found: plain.found, nodes: plain.nodes.count });
    }
    let mut nodes = plain.nodes.count;
    let mut probes: Vec<Probe<S>> =
        Symmetry::ALL.iter().map(|&symmetry| Probe::new(symmetry, puzzle, config)).collect();
    // The quick estimate, trusted for a bounded search (see `Budgets::quick_tree`).
    if quick {
        let (size, chosen) = estimate_all(&mut probes, budgets.quick_probes, &mut nodes);
        // `as` saturates: an estimate too large for a `u64` is past any budget.
        let size = size as u64;
        if size < budgets.quick_tree {
            let budget = size.saturating_mul(u64::from(budgets.quick_trust)).min(budgets.quick_cap);
            let probe = &probes[chosen];
            let mut bounded = BitSearch::<S>::new(&probe.puzzle, config);
            bounded.nodes.set_budget(budget);
            bounded.run();
            nodes += bounded.nodes.count;
            // Within its budget (or stopped by the limit of solutions) the search was complete
            // as far as the outcome goes, exactly as the search below would be.
            if !bounded.nodes.out_of_budget {
                let first = bounded
                    .first
                    .map(|solution| probe.symmetry.solution_back(puzzle.rows, puzzle.cols, &solution));
                return Chosen::Settled(Outcome { first, found: bounded.found, nodes });
            }
        }
    }
    // The full estimate continues the quick one's walks: its choice is the one it would make
    // without the quick step.
    let (mut size, mut chosen) = estimate_all(&mut probes, budgets.probes, &mut nodes);
    // `as` saturates: an estimate too large for a `u64` is past any bound.
    if quick && size as u64 > budgets.quick_more_tree {
        (size, chosen) =
            estimate_leaders(&mut probes, budgets.quick_more_leaders, budgets.quick_more_probes, &mut nodes);
    }
    let Probe { symmetry, puzzle: turned, .. } = probes.swap_remove(chosen);
    if restarts {
        // Randomised restarts (module `restarts`) either settle the puzzle or leave it to the
        // complete search.
        let (settled, spent) = restarts::settle::<S>(puzzle, config, size);
        nodes += spent;
        match settled {
            Settled::Found { first, found } => {
                return Chosen::Settled(Outcome { first: Some(first), found, nodes });
            }
            Settled::Unsolvable => return Chosen::Settled(Outcome::none(nodes)),
            Settled::Open => {}
        }
    }
    Chosen::Complete { symmetry, turned, size, nodes }
}

/// Walks every probe up to `walks` random walks, adding the nodes walked to `nodes`; returns
/// the smallest estimate and its probe (the first of equal ones, in the order of
/// [`Symmetry::ALL`]).
fn estimate_all<S: KindSet>(probes: &mut [Probe<S>], walks: u32, nodes: &mut u64) -> (f64, usize) {
    smallest_after(probes, 0..probes.len(), walks, nodes)
}

/// Walks the `leaders` probes of the smallest estimates so far up to `walks` walks,
/// adding the nodes walked to `nodes`; returns the smallest of their new estimates and its
/// probe (the first of equal ones, in the order of [`Symmetry::ALL`]).
fn estimate_leaders<S: KindSet>(
    probes: &mut [Probe<S>],
    leaders: usize,
    walks: u32,
    nodes: &mut u64,
) -> (f64, usize) {
    let mut order: Vec<usize> = (0..probes.len()).collect();
    // Stable: equal estimates keep the order of `Symmetry::ALL`.
    order.sort_by(|&a, &b| probes[a].mean().total_cmp(&probes[b].mean()));
    order.truncate(leaders.max(1));
    order.sort_unstable();
    smallest_after(probes, order, walks, nodes)
}

/// Walks the probes of `indices` (increasing) up to `walks` walks, adding the nodes walked to
/// `nodes`; returns the smallest of their estimates and its probe, the first of equal ones.
fn smallest_after<S: KindSet>(
    probes: &mut [Probe<S>],
    indices: impl IntoIterator<Item = usize>,
    walks: u32,
    nodes: &mut u64,
) -> (f64, usize) {
    let mut best: Option<(f64, usize)> = None;
    for index in indices {
        let size = probes[index].estimate_counted(walks, nodes);
        if best.is_none_or(|(smallest, _)| size < smallest) {
            best = Some((size, index));
        }
    }
    best.unwrap_or((f64::INFINITY, 0))
}

/// Knuth's estimate of the size of the tree of one symmetry of the puzzle, as the mean size
/// of random walks from the root (a node per step), which can be extended by more walks. A
/// step takes the candidates the masks leave (list, available kinds, row lookahead) as the
/// branching and walks into one drawn at random; the walk ends where there is none or the
/// drawn tile fails the counting checks. Cheap steps and many walks estimated better than
/// exact branching and fewer walks. Every walk starts from the same seed's stream where the last one stopped, so
/// `estimate(32)` then `estimate(250)` gives what `estimate(250)` alone gives.
struct Probe<S: KindSet> {
    symmetry: Symmetry,
    /// The puzzle laid out under `symmetry`.
    puzzle: Puzzle,
    /// At the root between walks; its node count is the steps walked.
    search: BitSearch<S>,
    /// Whether the first row can be planned at all with every tile available. The plan is
    /// the same at the start of every walk (the root), so it is built once: `allowed[0]` is
    /// written only by `plan_row(0)`, which walks then never call.
    root_plans: bool,
    rng: ChaCha8Rng,
    /// The sum of the sizes of the walks so far, and their number.
    total: f64,
    walks: u32,
}

impl<S: KindSet> Probe<S> {
    fn new(symmetry: Symmetry, puzzle: &Puzzle, config: &Config) -> Self {
        let turned = symmetry.puzzle(puzzle);
        let mut search = BitSearch::new(&turned, config);
        let root_plans = search.plan_row(0);
        let rng = ChaCha8Rng::seed_from_u64(WALK_SEED);
        Probe { symmetry, puzzle: turned, search, root_plans, rng, total: 0.0, walks: 0 }
    }

    /// The estimate after `walks` walks in all (at least one), walking those not yet walked.
    fn estimate(&mut self, walks: u32) -> f64 {
        while self.walks < walks.max(1) {
            self.total += self.walk();
            self.walks += 1;
        }
        self.mean()
    }

    /// [`Probe::estimate`], adding the nodes walked to `nodes` (and to the progress line).
    fn estimate_counted(&mut self, walks: u32, nodes: &mut u64) -> f64 {
        let before = self.search.nodes.count;
        let size = self.estimate(walks);
        self.search.nodes.report();
        *nodes += self.search.nodes.count - before;
        size
    }

    /// The estimate after the walks walked so far (at least one).
    fn mean(&self) -> f64 {
        self.total / f64::from(self.walks.max(1))
    }

    /// One random walk from the root; its size (one plus the products of the branchings
    /// along it). Leaves the search at the root.
    fn walk(&mut self) -> f64 {
        let search = &mut self.search;
        let (cells, cols) = (search.cells, search.cols);
        let (mut weight, mut size) = (1.0f64, 1.0f64);
        let mut cell = 0;
        while cell < cells {
            let (row, col) = (cell / cols, cell % cols);
            let planned = if cell == 0 { self.root_plans } else { col != 0 || search.plan_row(row) };
            if !planned {
                break;
            }
            let left = if col == 0 { ANY } else { search.right_of(cell - 1) };
            let mut candidates = search.candidates(cell, row, col, left);
            let count = candidates.len();
            search.nodes.count += 1;
            if count == 0 {
                break;
            }
            weight *= f64::from(count);
            size += weight;
            let mut pick = self.rng.next_u64() % u64::from(count);
            while pick > 0 {
                candidates = candidates.without_first();
                pick -= 1;
            }
            if !search.try_place(cell, row, col, candidates.first()) {
                break;
            }
            cell += 1;
        }
        while cell > 0 {
            cell -= 1;
            search.take_back(cell, cell / cols, cell % cols);
        }
        size
    }
}
