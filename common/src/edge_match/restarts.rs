//! Randomised restarts for finding solutions: the remedy for the heavy tail of the search's
//! runtime on solvable puzzles.
//!
//! Backtracking in one fixed order can sink millions of nodes into a subtree without solutions
//! that a different first choice would never enter; on random 8×8 tetravex games with two digits
//! a few games took thousands of times the nodes of most. Running the search in
//! several orders under small budgets that grow as Luby's sequence (1, 1, 2, 1, 1, 2, 4, …
//! units) finds such solutions in a predictable number of nodes.
//!
//! - **Row-major search** (module `rows`): looking for one solution it restarts with shuffled
//!   candidate lists and doubling budgets (Luby's in count order), for every border (done
//!   there).
//! - **Bit search** (module `symmetry`): when the first budget is spent, [`settle`] runs the
//!   bit search on randomly chosen board symmetries with the kinds in a random order (the order
//!   in which candidates are tried; on large boards the kinds with the fewest partners first,
//!   see [`scarce_first`]), for at most [`Budgets::restarts`](super::Budgets::restarts) nodes in
//!   all and at most a share ([`Budgets::restart_share`](super::Budgets::restart_share)) of the
//!   tree the complete search is estimated to take, so an unsolvable puzzle, which pays for the
//!   restarts on top of its refutation, loses little; then the complete search runs as before.
//!   Looking for one solution, the first run that finds one settles the puzzle. Counting, the
//!   runs pool the distinct boards they find (module `distinct`) and settle the count once they
//!   hold the limit: where solutions abound, a count to a small limit (is this puzzle unique?)
//!   ends as fast as a verdict, where one fixed order can sink into a subtree without any.
//!
//! **Exactness.** A restart either finds solutions, each mapped back to the puzzle (the first
//! also checked against its rules), or gives up to the complete search: an unsolvable puzzle
//! is still refuted by the complete search alone. A count settled here is either the count of
//! a complete run or the limit, reached by distinct boards (module `distinct`). **Determinism.**
//! The random order is seeded from a hash of the puzzle, so one input
//! always gives the same answer and the same solution, on any number of threads.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::bits::BitSearch;
use super::board_symmetry::Symmetry;
use super::distinct::DistinctBoards;
use super::kinds::KindSet;
use super::{BOTTOM, Border, Config, LEFT, MAX_LABELS, Placement, Puzzle, RIGHT, TOP};
use crate::Grid;
use crate::search::luby;

/// What the restarts of the bit search settled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Settled {
    /// Solutions enough: `found` of them (the limit, or all there are when a run was complete)
    /// and the first, checked against the rules.
    Found { first: Grid<Placement>, found: u64 },
    /// A run ended within its budget without a solution: it was a complete search.
    Unsolvable,
    /// The budget ran out first: the complete search must decide.
    Open,
}

/// A seed drawn from the puzzle itself, so that restarts are the same for the same input.
fn puzzle_seed(puzzle: &Puzzle) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325 ^ (puzzle.rows as u64) << 8 ^ puzzle.cols as u64;
    for kind in &puzzle.kinds {
        for sides in &kind.orientations {
            for &label in sides {
                hash = (hash ^ u64::from(label)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        hash = (hash ^ u64::from(kind.count)).wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// One run of the restarts: the puzzle in `symmetry` with its kinds in `order`.
struct Run {
    symmetry: Symmetry,
    order: Vec<usize>,
}

impl Run {
    /// A board of the run's puzzle (kinds in `turned` positions), back on `puzzle`.
    fn back(
        &self,
        puzzle: &Puzzle,
        kinds: impl IntoIterator<Item = usize>,
        rows: usize,
        cols: usize,
    ) -> Grid<Placement> {
        let cells = kinds.into_iter().map(|kind| Placement { kind: self.order[kind], orientation: 0 });
        let unshuffled = Grid::from_vec(rows, cols, cells.collect());
        self.symmetry.solution_back(puzzle.rows, puzzle.cols, &unshuffled)
    }
}

/// Randomised restarts of the bit search of a [nearly distinct](Puzzle::nearly_distinct)
/// `puzzle`, as the module documentation says, spending at most
/// [`Budgets::restarts`](super::Budgets::restarts) nodes and a share of `tree`, the estimated
/// size of the complete search's tree. Looking for one solution, the first run that finds one
/// settles the puzzle; counting (a limit above 1), the runs pool the distinct boards they find
/// (module `distinct`) until they hold the limit. Returns what was settled (see [`Settled`])
/// and the nodes spent.
pub(super) fn settle<S: KindSet>(puzzle: &Puzzle, config: &Config, tree: f64) -> (Settled, u64) {
    // An unsolvable puzzle pays the restarts on top of its refutation: a share of the estimated
    // tree bounds that cost.
    let cap = config.budgets.restarts.min((tree / f64::from(config.budgets.restart_share.max(1))) as u64);
    let counting = config.limit > 1;
    let mut boards = DistinctBoards::default();
    let mut first_found: Option<Grid<Placement>> = None;
    let mut rng = ChaCha8Rng::seed_from_u64(puzzle_seed(puzzle));
    let mut spent = 0u64;
    // Each symmetry's puzzle is turned once; the storage of one search serves every run.
    let mut turned_by_symmetry: [Option<Puzzle>; Symmetry::ALL.len()] = Default::default();
    let mut spare: Option<BitSearch<S>> = None;
    let mut shuffled = puzzle.clone();
    // Taken once for every symmetry: a symmetry moves opposite sides to opposite sides, so it
    // only permutes the four partner counts of each kind, and it keeps the kinds' indices.
    let scarcity = (puzzle.rows * puzzle.cols >= config.budgets.scarce_cells).then(|| scarcities(puzzle));
    for round in 1.. {
        let budget = luby(round).saturating_mul(config.budgets.restart_unit.max(1));
        if spent + budget > cap {
            break;
        }
        let pick = rng.random_range(0..Symmetry::ALL.len());
        let symmetry = Symmetry::ALL[pick];
        let turned = turned_by_symmetry[pick].get_or_insert_with(|| symmetry.puzzle(puzzle));
        let mut order: Vec<usize> = (0..turned.kinds.len()).collect();
        order.shuffle(&mut rng);
        if let Some(scarcity) = &scarcity {
            scarce_first(scarcity, &mut order, &mut rng);
        }
        (shuffled.rows, shuffled.cols, shuffled.labels, shuffled.border) =
            (turned.rows, turned.cols, turned.labels, turned.border);
        // The kinds' own allocations are reused too (a symmetry keeps the kinds and their order,
        // so `shuffled` has as many as `turned`).
        for (slot, &kind) in shuffled.kinds.iter_mut().zip(&order) {
            slot.count = turned.kinds[kind].count;
            slot.orientations.clone_from(&turned.kinds[kind].orientations);
        }
        let mut search = match spare.take() {
            Some(used) => used.rebuilt(&shuffled, config),
            None => BitSearch::new(&shuffled, config),
        };
        search.nodes.set_budget(budget);
        search.recorded = counting.then(Vec::new);
        search.run();
        spent += search.nodes.count;
        let run = Run { symmetry, order };
        let (rows, cols) = (shuffled.rows, shuffled.cols);
        let complete = !search.nodes.out_of_budget;
        if let Some(solution) = search.first.take() {
            let back = run.back(puzzle, solution.cells().iter().map(|p| p.kind), rows, cols);
            if solves(puzzle, &back) {
                if complete {
                    // The run reached the limit, or found every solution there is.
                    return (Settled::Found { first: back, found: search.found }, spent);
                }
                first_found.get_or_insert(back);
            } else {
                debug_assert!(false, "a restart found a board that breaks the rules");
            }
        } else if complete {
            // A run to its end in any order and symmetry is the complete search: no solution.
            return (Settled::Unsolvable, spent);
        }
        for board in search.recorded.iter().flat_map(|kinds| kinds.chunks_exact(rows * cols)) {
            let back = run.back(puzzle, board.iter().map(|&kind| usize::from(kind)), rows, cols);
            boards.insert(back.cells().iter().copied());
        }
        if boards.len() >= config.limit
            && let Some(first) = first_found.take()
        {
            return (Settled::Found { first, found: config.limit }, spent);
        }
        spare = Some(search);
    }
    (Settled::Open, spent)
}

/// How much the order of [`scarce_first`] is shaken, in units of the natural logarithm of a
/// kind's partners (see there): enough to vary the order from run to run among kinds of about
/// equal scarcity, so the runs differ; too little to put a kind with plainly more partners
/// before a scarce one. Measured against other amounts in the tetravex README.
const SCARCITY_NOISE: f64 = 0.15;

/// The scarcity of each kind of the single-orientation `puzzle`: the natural logarithm of the
/// product of its *partners*, for each of its four sides the tiles that carry its label on the
/// opposite side (those that can lie against it).
fn scarcities(puzzle: &Puzzle) -> Vec<f64> {
    let mut carried = [[0u32; MAX_LABELS]; 4];
    for kind in &puzzle.kinds {
        for (side, &label) in kind.orientations[0].iter().enumerate() {
            carried[side][usize::from(label) & (MAX_LABELS - 1)] += kind.count;
        }
    }
    let opposite = [BOTTOM, LEFT, TOP, RIGHT];
    let scarcity = |sides: [u8; 4]| -> f64 {
        let partners =
            (0..4).map(|side| carried[opposite[side]][usize::from(sides[side]) & (MAX_LABELS - 1)]);
        partners.map(|n| f64::from(n.max(1)).ln()).sum()
    };
    puzzle.kinds.iter().map(|kind| scarcity(kind.orientations[0])).collect()
}

/// Reorders `order` (a shuffled list of kinds) by their `scarcity` ([`scarcities`]) plus a
/// little noise ([`SCARCITY_NOISE`]), the scarcest first. Candidates are tried in the order of
/// the kinds, so scarce tiles are placed while the board still has many open cells to take
/// them, and the tiles left for the last rows are those that fit many neighbours: a search
/// that fails there fails because its leftover tiles cannot be chained, which abundant ones do
/// more often.
fn scarce_first(scarcity: &[f64], order: &mut Vec<usize>, rng: &mut ChaCha8Rng) {
    let mut keyed: Vec<(f64, usize)> =
        order.iter().map(|&kind| (scarcity[kind] + SCARCITY_NOISE * rng.random::<f64>(), kind)).collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    order.clear();
    order.extend(keyed.into_iter().map(|(_, kind)| kind));
}

/// Whether `board` solves `puzzle`: the right shape, every kind used as often as it counts,
/// every joint matching and the border rule kept.
fn solves(puzzle: &Puzzle, board: &Grid<Placement>) -> bool {
    let (rows, cols) = (puzzle.rows, puzzle.cols);
    if board.rows() != rows || board.cols() != cols {
        return false;
    }
    let mut used = vec![0u32; puzzle.kinds.len()];
    for p in board.cells() {
        match used.get_mut(p.kind) {
            Some(n) if p.orientation < puzzle.kinds[p.kind].orientations.len() => *n += 1,
            _ => return false,
        }
    }
    if used.iter().zip(&puzzle.kinds).any(|(&n, kind)| n != kind.count) {
        return false;
    }
    let sides: Vec<[u8; 4]> = board.cells().iter().map(|&p| puzzle.sides(p)).collect();
    (0..rows * cols).all(|cell| {
        let (row, col) = (cell / cols, cell % cols);
        let s = sides[cell];
        let joints = (col + 1 == cols || s[RIGHT] == sides[cell + 1][LEFT])
            && (row + 1 == rows || s[BOTTOM] == sides[cell + cols][TOP]);
        let border = match puzzle.border {
            Border::Free => true,
            Border::Fixed(label) => {
                let on_border = [row == 0, col + 1 == cols, row + 1 == rows, col == 0];
                (0..4).all(|side| (s[side] == label) == on_border[side])
            }
        };
        joints && border
    })
}
