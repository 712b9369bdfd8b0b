//! Past one machine: the search of one puzzle cut into parts, each an independent run that a
//! scheduler may place anywhere, and the merge of their outcomes into that of one search.
//!
//! **The split.** Every part runs what the bit search does before its complete search (module
//! `symmetry`: the first budget, the estimates, the choice of symmetry), which depends only on
//! the puzzle and the budgets, so all parts choose the same tree. The first part alone also runs
//! the randomised restarts. The complete search's tree is then cut by its first cells: the
//! *prefixes* are the kinds of the first `depth` cells that pass the counting checks, listed in
//! search order, for the smallest depth that gives at least [`PREFIXES_PER_PART`] prefixes a
//! part (or the whole board). Part `k` of `n` searches the prefixes `k, k + n, k + 2n, …` (dealt
//! round the parts, so that neighbouring subtrees, which tend to be alike in size, go to
//! different parts), in order, each as a search restricted to its prefix, until it has found as
//! many solutions as wanted.
//!
//! **The merge.** A puzzle settled before the complete search is reported whole by the first
//! part ([`PartOutcome::Whole`]); the others report an empty share. Otherwise the prefixes are
//! disjoint subtrees covering the tree, so the solutions of the shares add up (capped at the
//! limit: a share that reached it alone makes the sum reach it too), and the first solution of
//! the search is the first solution of the prefix that comes first in search order. So the
//! merge of every part's outcome is the outcome of one search: the same count, the same first
//! solution (only the nodes differ). The row-major search (puzzles whose tiles repeat) is not
//! split: the first part runs it whole.
//!
//! **Determinism.** A part runs on one thread; its outcome depends only on the puzzle, the
//! budgets and the part, so a part run twice gives the same outcome.

use std::fmt;
use std::str::FromStr;

use super::bits::BitSearch;
use super::kinds::{self, KindSet};
use super::symmetry::{self, Chosen};
use super::{ANY, Config, Outcome, Placement, Puzzle, rows};
use crate::Grid;

/// The prefixes of the complete search each part gets at least, when the tree has as many: a
/// scheduler balances parts of unequal size only when each holds several subtrees.
pub const PREFIXES_PER_PART: usize = 4;

/// One of the parts of a split search: part `index` (from 0) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    index: usize,
    count: usize,
}

impl Part {
    /// Part `index` (from 0) of `count`; `None` unless `index < count`.
    pub fn new(index: usize, count: usize) -> Option<Self> {
        (index < count).then_some(Part { index, count })
    }

    /// The part's index, from 0.
    pub fn index(self) -> usize {
        self.index
    }

    /// How many parts the search is cut into.
    pub fn count(self) -> usize {
        self.count
    }
}

/// Parts are written `K/N`, `K` from 1 to `N`, as schedulers number their tasks.
impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

impl FromStr for Part {
    type Err = String;

    /// `K/N` with `1 <= K <= N`.
    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || format!("`{text}` is not a part: expected K/N with 1 <= K <= N, say 3/1000");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (usize, usize) =
            (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        k.checked_sub(1).and_then(|index| Part::new(index, n)).ok_or_else(bad)
    }
}

/// What one part found (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartOutcome<S> {
    /// The search was settled before its complete search: the outcome of one search,
    /// reported by the first part alone.
    Whole(Outcome<S>),
    /// The part's share of the complete search.
    Share {
        /// Solutions found in the part's prefixes, up to the limit.
        found: u64,
        /// The first of them, with the place of its prefix in the search order.
        first: Option<(u64, S)>,
        /// Nodes the part visited, the steps before the split included.
        nodes: u64,
    },
}

impl<S> PartOutcome<S> {
    /// The same outcome with its solution carried over by `map`.
    pub fn map<T>(self, map: impl FnOnce(S) -> T) -> PartOutcome<T> {
        match self {
            PartOutcome::Whole(outcome) => PartOutcome::Whole(outcome.map(map)),
            PartOutcome::Share { found, first, nodes } => {
                PartOutcome::Share { found, first: first.map(|(place, s)| (place, map(s))), nodes }
            }
        }
    }

    /// An empty share after `nodes` nodes.
    fn nothing(nodes: u64) -> Self {
        PartOutcome::Share { found: 0, first: None, nodes }
    }
}

/// Searches `part` of `puzzle` for up to `config.limit` solutions, on one thread whatever
/// `config.threads` says; [`merge_parts`] joins the outcomes of all parts. See the module
/// documentation.
///
/// # Panics
/// When the puzzle breaks the limits documented on [`Puzzle`].
pub fn search_part(puzzle: &Puzzle, config: &Config, part: Part) -> PartOutcome<Grid<Placement>> {
    let first_part = part.index == 0;
    if !puzzle.check_counts() {
        return if first_part { PartOutcome::Whole(Outcome::none(0)) } else { PartOutcome::nothing(0) };
    }
    if !puzzle.nearly_distinct() {
        return if first_part {
            PartOutcome::Whole(rows::search(puzzle, config))
        } else {
            PartOutcome::nothing(0)
        };
    }
    if puzzle.kinds.len() <= kinds::NARROW_KINDS {
        share::<u64>(puzzle, config, part)
    } else if puzzle.kinds.len() <= kinds::MID_KINDS {
        share::<kinds::Mid>(puzzle, config, part)
    } else {
        share::<kinds::Wide>(puzzle, config, part)
    }
}

/// The outcome of one search from the outcomes of every part of it (see the module
/// documentation); `limit` is the search's. The nodes are those of all parts.
pub fn merge_parts<S>(limit: u64, parts: impl IntoIterator<Item = PartOutcome<S>>) -> Outcome<S> {
    let (mut whole, mut found, mut first, mut nodes) = (None, 0u64, None::<(u64, S)>, 0u64);
    for part in parts {
        match part {
            PartOutcome::Whole(outcome) => {
                nodes += outcome.nodes;
                whole = Some(outcome);
            }
            PartOutcome::Share { found: share, first: share_first, nodes: share_nodes } => {
                found = found.saturating_add(share);
                nodes += share_nodes;
                if let Some((place, solution)) = share_first
                    && first.as_ref().is_none_or(|(before, _)| place < *before)
                {
                    first = Some((place, solution));
                }
            }
        }
    }
    match whole {
        Some(outcome) => Outcome { nodes, ..outcome },
        None => Outcome { first: first.map(|(_, solution)| solution), found: found.min(limit.max(1)), nodes },
    }
}

/// [`search_part`] for the bit search over sets `S`.
fn share<S: KindSet>(puzzle: &Puzzle, config: &Config, part: Part) -> PartOutcome<Grid<Placement>> {
    let first_part = part.index == 0;
    let (symmetry, turned, mut nodes) = match symmetry::choose::<S>(puzzle, config, first_part) {
        Chosen::Settled(outcome) if first_part => return PartOutcome::Whole(outcome),
        Chosen::Settled(outcome) => return PartOutcome::nothing(outcome.nodes),
        Chosen::Complete { symmetry, turned, nodes, .. } => (symmetry, turned, nodes),
    };
    let template = BitSearch::<S>::new(&turned, config);
    let prefixes = prefixes(&template, PREFIXES_PER_PART.saturating_mul(part.count));
    let limit = config.limit.max(1);
    let (mut found, mut first) = (0, None);
    for (place, prefix) in prefixes.iter().enumerate().skip(part.index).step_by(part.count) {
        let mut search = template.clone();
        search.prefix = prefix.iter().map(|&kind| S::single(kind.into())).collect();
        search.limit = limit - found;
        search.run();
        nodes += search.nodes.count;
        found += search.found;
        if first.is_none()
            && let Some(solution) = search.first
        {
            first = Some((place as u64, symmetry.solution_back(puzzle.rows, puzzle.cols, &solution)));
        }
        if found >= limit {
            break;
        }
    }
    PartOutcome::Share { found, first, nodes }
}

/// The prefixes of `search`'s tree (a search at its root): the kinds of the first `depth` cells
/// on every path that passes the counting checks, in search order, for the smallest depth with
/// at least `wanted` of them, or the whole board.
fn prefixes<S: KindSet>(search: &BitSearch<S>, wanted: usize) -> Vec<Vec<u8>> {
    let mut walker = search.clone();
    let mut depth = 1;
    loop {
        let mut found = Vec::new();
        if walker.root_fits() {
            descend(&mut walker, 0, depth, &mut Vec::new(), &mut found);
        }
        if found.len() >= wanted || depth >= search.cells {
            return found;
        }
        depth += 1;
    }
}

/// Adds to `found`, in search order, the paths of `depth` cells below `cell` of `search`, whose
/// cells before `cell` hold `path`.
fn descend<S: KindSet>(
    search: &mut BitSearch<S>,
    cell: usize,
    depth: usize,
    path: &mut Vec<u8>,
    found: &mut Vec<Vec<u8>>,
) {
    if cell == depth {
        found.push(path.clone());
        return;
    }
    let (row, col) = (cell / search.cols, cell % search.cols);
    if col == 0 && !search.plan_row(row) {
        return;
    }
    let left = if col == 0 { ANY } else { search.right_of(cell - 1) };
    let mut candidates = search.candidates(cell, row, col, left);
    while !candidates.is_empty() {
        let kind = candidates.first();
        candidates = candidates.without_first();
        if search.try_place(cell, row, col, kind) {
            path.push(kind as u8);
            descend(search, cell + 1, depth, path, found);
            path.pop();
            search.take_back(cell, row, col);
        }
    }
}
