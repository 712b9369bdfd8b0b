//! The choice of the board symmetry to search in.
//!
//! A refutation must exhaust the tree, whose size depends much (up to 6× on 6×6 boards with
//! five labels) on the side the filling starts from. The bit search first gets a budget of nodes
//! ([`Budgets::plain`](super::Budgets::plain)); past it, Knuth's estimator (random walks) sizes the tree of each of the
//! board's eight symmetries (mirror, then quarter turns; a free border and single orientations
//! make every symmetric board a puzzle of the same kind), and the smallest is searched to the
//! end, split over threads (module `split`). Solutions map one to one between symmetric boards,
//! so counts agree, and a solution found is mapped back. The estimate is also what the progress
//! line shows as the size of the search.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::bits::BitSearch;
use super::split::SplitSearch;
use super::{ANY, Config, LEFT, Outcome, Placement, Puzzle, RIGHT};
use crate::Grid;

/// The seed of the random walks. Any fixed value works; this one is kept so that node counts
/// stay those recorded before.
const WALK_SEED: u64 = 0x7465_7472_6176_6578;

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
    pub(super) fn solution_back(
        self,
        rows: usize,
        cols: usize,
        solution: &Grid<Placement>,
    ) -> Grid<Placement> {
        let cells = (0..rows * cols)
            .map(|cell| {
                let (row, col) = self.position(rows, cols, cell / cols, cell % cols);
                solution.cells()[row * solution.cols() + col]
            })
            .collect();
        Grid::from_vec(rows, cols, cells)
    }
}

/// The bit search of a [nearly distinct](Puzzle::nearly_distinct) puzzle, with the symmetry
/// choice of the module documentation.
pub(super) fn search(puzzle: &Puzzle, config: &Config) -> Outcome<Grid<Placement>> {
    let mut plain = BitSearch::new(puzzle, config);
    plain.nodes.set_budget(config.budgets.plain);
    plain.run();
    if !plain.nodes.out_of_budget {
        return Outcome { first: plain.first, found: plain.found, nodes: plain.nodes.count };
    }
    let mut nodes = plain.nodes.count;
    let mut best: Option<(f64, Symmetry, Puzzle)> = None;
    for symmetry in Symmetry::ALL {
        let turned = symmetry.puzzle(puzzle);
        let mut probe = BitSearch::new(&turned, config);
        let size = estimate(&mut probe, config.budgets.probes, WALK_SEED);
        probe.nodes.report();
        nodes += probe.nodes.count;
        if best.as_ref().is_none_or(|(smallest, _, _)| size < *smallest) {
            best = Some((size, symmetry, turned));
        }
    }
    let Some((size, symmetry, turned)) = best else { unreachable!("eight symmetries") };
    // One solution wanted: randomised restarts (module `restarts`) either settle the puzzle or
    // leave it to the complete search below.
    if config.limit <= 1 {
        let (settled, spent) = super::restarts::find_one(puzzle, config, size);
        nodes += spent;
        match settled {
            super::restarts::Settled::Found(first) => return Outcome { first: Some(first), found: 1, nodes },
            super::restarts::Settled::Unsolvable => return Outcome::none(nodes),
            super::restarts::Settled::Open => {}
        }
    }
    config.progress.set_estimate(nodes.saturating_add(size as u64));
    let outcome =
        SplitSearch::run(BitSearch::new(&turned, config), config.thread_count(), config.budgets.poll);
    let outcome = outcome.map(|solution| symmetry.solution_back(puzzle.rows, puzzle.cols, &solution));
    Outcome { nodes: nodes + outcome.nodes, ..outcome }
}

/// Knuth's estimate of the size of the tree of `search`, averaged over `probes` random walks
/// from the root (a node per step). A step takes the candidates the masks leave (list,
/// available kinds, row lookahead) as the branching and walks into one drawn at random; the
/// walk ends where there is none or the drawn tile fails the counting checks. Cheap steps and
/// many walks estimated better than exact branching and fewer walks (on ten 6×6 boards with
/// five labels: 30M against 35M nodes in all). Leaves the search at the root.
fn estimate(search: &mut BitSearch, probes: u32, seed: u64) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (cells, cols) = (search.cells, search.cols);
    let mut total = 0.0;
    for _ in 0..probes {
        let (mut weight, mut size) = (1.0f64, 1.0f64);
        let mut cell = 0;
        while cell < cells {
            let (row, col) = (cell / cols, cell % cols);
            if col == 0 && !search.plan_row(row) {
                break;
            }
            let left = if col == 0 { ANY } else { search.right_of(cell - 1) };
            let mut candidates = search.candidates(cell, row, col, left);
            let count = candidates.count_ones();
            search.nodes.count += 1;
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
            if !search.try_place(cell, row, col, candidates.trailing_zeros() as usize) {
                break;
            }
            cell += 1;
        }
        total += size;
        while cell > 0 {
            cell -= 1;
            search.take_back(cell, cell / cols, cell % cols);
        }
    }
    total / f64::from(probes.max(1))
}
