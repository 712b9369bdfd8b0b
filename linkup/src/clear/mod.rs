//! The exact search for an order of removals that clears a board (`solve --best`), on bit
//! boards.
//!
//! ## The board as bits
//! The framed board (the board and its ring, see [`crate::model`]) is kept twice as open cells:
//! one 64-bit word per framed row (bit c: column c is open) and one per framed column (bit r:
//! row r is open). Bits beyond the frame are always 0, so a board of at most [`MAX_SIDE`] rows
//! and columns fits. Whether two pieces can be joined with at most two turns costs two runs
//! found with bit scans and one test per middle both runs reach (`Bits::joinable`); most checks
//! fail because the runs do not meet, which two of their four ends show. Other turn limits use
//! a flood by layers of straight lines over the words.
//!
//! ## Without gravity
//! Removing a pair only empties cells, so a pair that can be removed now can still be removed
//! after any other removals (as long as its two pieces are there). Three facts follow, each
//! proved by "do it first": in a clearing order, moving the removal of a pair that is removable
//! now to the front keeps every later removal legal, since each later board is the same board
//! with fewer pieces.
//! - Safe moves: when all pieces left of a kind can be removed now by removals of that kind
//!   alone (a kind with two pieces left that can be joined, a kind of four whose two pairs can be
//!   removed one after the other), removing them is never wrong.
//! - A kind with four pieces left is paired in one of three ways ("pairings"), and a clearing
//!   order uses one of them. Branching on one kind is complete: for each pairing with a pair
//!   removable now, remove that pair; and one more branch for "this kind uses one of the other
//!   pairings", which removes nothing but forbids the pairings tried (a constraint, part of the
//!   position).
//! - A kind with six or more pieces left is not branched on while some four-piece kind can be;
//!   otherwise every removable pair of those kinds is tried.
//!
//! The search is depth first, tries the kind with the fewest branches (without probing, below,
//! of those first one with a branch the position's proof of the relaxation carries over to, so
//! that the position below it need not run the relaxation again), and remembers positions
//! (pieces left and constraints) from which no order clears the board, in a table bounded by
//! [`MEMO_WORDS`]: when it is full, new positions are no longer remembered, so the search stays
//! exact but may search a position again (counting it again).
//!
//! A board that takes more than [`PROBE_AFTER`] positions, or proves [`PROBE_AFTER_HOPELESS`]
//! of them hopeless, is searched again with probing (every branch tried with the relaxation below
//! first), in rounds that restart from the first position: round r may take the pieces of the board
//! times the r-th term of the Luby sequence (1, 1, 2, 1, 1, 2, 4, …) positions, the first looking
//! at kinds in reading order, each later one ordering a kind's removals as drawn from the board and
//! the round, so a board always gets the same answer and count. While probing, a kind whose probed
//! branches all fail (which makes its position hopeless), or else the kind branched on when one of
//! its branches failed, or else the first kind with a branch that failed, moves to the front of the
//! order kinds are looked at in, so the positions searched next probe it first: a refutation tends
//! to hold nearby, and one found first spares the probes of every other kind (a kind that lost
//! branches is also the likely one to branch on); a round starts with the order the rounds before
//! left. Exact because a round that runs out concludes nothing, and what it leaves (the table of
//! hopeless positions, each proved by a subtree searched to the end) holds whatever the order;
//! every round is the same complete search, and the last has the rest of the budget
//! (`StillSearch::probe_rounds`).
//!
//! Lines are checked again as little as possible: each kind's joinable pairs are cached per
//! board state, and brought up to date from a state a few removals up the search path by
//! rechecking only the pairs with a cell emptied since on a line their last check named, or,
//! for a pair whose ends' runs met neither along the rows nor along the columns at its last
//! check, one of the four cells just beyond those runs (`StillSearch::pair_mask`, `Bits::wait_on`);
//! in the relaxation (`StillSearch::can_all_go`) a pair starts from that wait and is rechecked
//! only once a piece is freed on one of its lines or one of its four cells.
//!
//! The relaxation is run as little as possible too. A run that holds leaves a proof: the
//! pairings whose pairs freed each kind. Removals only open cells, so the proof still holds
//! after a branch that keeps each of its pairs allowed and removes no piece whose partner in
//! it stays (`StillSearch::inherits`): a branch on a kind of four freed by one pairing, by that
//! pairing. The probes' proofs go to the branch taken, and are logged for the positions
//! below. A probe's proof is also a proof of the position it was made at, so a probe takes
//! any proof logged by its position's probes, or by its parent's when the move between keeps
//! it, that its branch keeps (`StillSearch::known_proof`). A probe that fails records the pieces it
//! could not free; below, the same branch fails again while all of them are on the board
//! (`StillSearch::still_refuted`). Debug builds run the relaxation anyway wherever an answer is taken,
//! and check it agrees. The probes that do run start from a stage of the position's own relaxation
//! where their kind was still held, not from scratch (`StillSearch::relax_base`).
//!
//! ## With gravity
//! A removal can make pieces fall into the line of another pair, so no move is safe but a kind
//! whose pieces are all on top of their columns. The board after any removals depends only on
//! the set of pieces left (in each column, the pieces below the lowest piece removed have not
//! moved, and the ones above it rest on each other on top of them), so a position is that set;
//! every removable pair is tried, pairs that finish their kind first. The search
//! ([`gravity`]) keys hopeless positions by the board they show (two sets of pieces that leave
//! the same kinds on the same cells are one position), skips pairs that only commute with a
//! pair already refuted (sleep sets), and runs in rounds of growing budgets, each round but the
//! first breaking ties in its own seeded order, the table of hopeless positions kept.
//!
//! ## The budget
//! The budget is of work, not positions: a position costs one unit per kind left and one more,
//! each line check of a pair a unit, each pair the relaxation sets up a unit and each pair a
//! pass of it looks at a unit. One counter (`Position::spend`) takes it all, and the search
//! stops as soon as it is past the budget, inside a position too (in a pass of the relaxation,
//! between the rows of a kind's pairs): every step of a position is then bounded by the few
//! units between two checks, a pass being at most [`MAX_EDGES`] pairs. A search stopped inside
//! a position records nothing about it (a relaxation or a branch cut short proves nothing): the
//! position is left undecided, never entered as hopeless, and the board is undecided. The
//! relaxation's pairs are its memory: a position that would set up more than [`MAX_EDGES`]
//! stops the search the same way, so a search's memory is bounded whatever the board.

#![expect(
    clippy::inline_always,
    reason = "the line checks are `#[inline(always)]`: most fail at once, and a call costs more than such a check"
)]

mod bits;
pub mod gravity;
mod pairs;
mod position;
mod proofs;
mod relax;
mod relaxed;
mod rounds;
mod safe;
mod still;
mod table;
#[cfg(test)]
mod tests;

use common::Pos;
use common::search::Progress;

use crate::model::{Board, Rules};
use bits::{Bits, Cell, Reach, Wait, reach, span};
use pairs::{ALL_PAIRINGS, MANY, PAIRINGS, PAIRS_OF, PairCache};
use position::{Position, Search, fingerprint};
use proofs::{Cut, Inherit, NO_PROOF, Taken, count_taken};
use relaxed::{Base, Edge, Relaxing, apart_cells};
use still::StillSearch;
use table::Table;

/// Most rows, and most columns, of a board the search takes: a framed row or column, with one
/// more closed bit beyond the ring, fits a 64-bit word.
pub const MAX_SIDE: usize = 60;

/// Words of a board's lines (rows or columns) kept in fixed arrays: a framed line of a board of
/// at most [`MAX_SIDE`] cells has `MAX_SIDE + 2` bits, and the bit beyond it (always 0) must be
/// below bit 63, which marks a wait as apart (see [`bits`]).
const LINE_WORDS: usize = 64;

/// Words of one bit per piece in fixed arrays: [`MAX_SIDE`]² pieces fit.
const PIECE_WORDS: usize = 64;

/// Bytes of the relaxed board's grid of cells, the cell at row r and column c at `r << 6 | c`
/// (see [`relaxed`]), for every framed line and the one beyond.
const CELL_BYTES: usize = 64 * 64;

const _: () = assert!(MAX_SIDE + 3 <= 63 && MAX_SIDE + 3 <= LINE_WORDS, "a framed line and the bit beyond");
const _: () = assert!(MAX_SIDE * MAX_SIDE <= 64 * PIECE_WORDS, "one bit per piece");
const _: () = assert!(MAX_SIDE * MAX_SIDE < u16::MAX as usize, "pieces are numbered in u16");
const _: () = assert!((MAX_SIDE + 3) << 6 <= CELL_BYTES, "a cell's index in the grid of cells");

/// The budget of work when none is given (see [the budget](self#the-budget)).
pub const DEFAULT_BUDGET: u64 = 100_000_000;

/// Most pairs the relaxation of one position may set up (each of a few dozen bytes); a position
/// that needs more stops the search, undecided. Kinds of more than four pieces bring a pair for
/// every two of their pieces.
pub const MAX_EDGES: usize = 1 << 20;

/// Positions the search without probing may take before it starts again with probing.
pub const PROBE_AFTER: u64 = 200;

/// Positions the search without probing may prove hopeless before it starts again with probing,
/// however few positions it took: a board that soon leads into many hopeless positions is one
/// where probing pays.
pub const PROBE_AFTER_HOPELESS: u64 = 90;

/// Most 64-bit words the table of hopeless positions holds (32 MiB).
pub const MEMO_WORDS: usize = 1 << 22;

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The rules a line must follow.
    pub rules: Rules,
    /// Pieces fall down their column after each removal.
    pub gravity: bool,
    /// Most work to spend (see [the budget](self#the-budget)).
    pub budget: u64,
}

/// What the search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// An order of removals that clears the board: the two cells (1-based, on the board as it
    /// is just before the removal).
    Cleared(Vec<(Pos, Pos)>),
    /// No order of removals clears the board.
    Hopeless,
    /// The budget ran out first.
    Undecided,
}

/// The verdict, the positions searched and the work spent (the same on every machine).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// What was found.
    pub verdict: Verdict,
    /// Positions searched.
    pub positions: u64,
    /// Work spent, in the units of [`Settings::budget`].
    pub work: u64,
}

/// Why a board is not searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--best takes boards of at most {MAX_SIDE} rows and {MAX_SIDE} columns, not {} by {}",
            self.rows, self.cols
        )
    }
}

/// Searches `board` for an order of removals that clears it: see the
/// [module documentation](self).
pub fn search(board: &Board, settings: Settings) -> Result<Outcome, TooLarge> {
    search_with(board, settings, PROBE_AFTER)
}

/// [`search`], reporting its positions to `progress` as it goes, in batches, with an estimate
/// of the positions its budget allows (see `Position::report`); every position is reported by
/// the time it returns.
pub fn search_reporting(board: &Board, settings: Settings, progress: &Progress) -> Result<Outcome, TooLarge> {
    search_tuned(board, settings, Tuning { progress: Some(progress), ..Tuning::default() })
}

/// [`search`], probing once `probe_after` positions are searched (0: from the start) instead
/// of [`PROBE_AFTER`] (or [`PROBE_AFTER_HOPELESS`] are proved hopeless); for tests of either
/// way.
pub fn search_with(board: &Board, settings: Settings, probe_after: u64) -> Result<Outcome, TooLarge> {
    search_tuned(board, settings, Tuning { probe_after, ..Tuning::default() })
}

/// [`search`] with gravity, its rounds of restarts lasting `restart_unit` times the terms of
/// the Luby sequence (see [`gravity`]) instead of [`gravity::RESTART_UNIT`]; for tests of the
/// restarts.
pub fn search_with_restarts(
    board: &Board,
    settings: Settings,
    restart_unit: u64,
) -> Result<Outcome, TooLarge> {
    search_tuned(board, settings, Tuning { restart_unit: restart_unit.max(1), ..Tuning::default() })
}

/// [`search`] with a table of hopeless positions bounded by `memo_words` words instead of
/// [`MEMO_WORDS`] (or [`gravity::GRAVITY_MEMO_WORDS`]); for tests of a table that fills up.
/// The search stays exact: a full table only forgets, so positions may be searched again.
pub fn search_with_table(board: &Board, settings: Settings, memo_words: usize) -> Result<Outcome, TooLarge> {
    search_tuned(board, settings, Tuning { memo_words: Some(memo_words), ..Tuning::default() })
}

/// The knobs the tests turn; the defaults are the shipped search's.
#[derive(Debug, Clone, Copy)]
struct Tuning<'a> {
    /// Where to report positions as the search runs (`None`: nowhere).
    progress: Option<&'a Progress>,
    /// Positions without probing before the search starts again with probing (0: probe from the
    /// start); see [`PROBE_AFTER`].
    probe_after: u64,
    /// With gravity, the unit of the Luby sequence of the rounds' budgets.
    restart_unit: u64,
    /// Without gravity, the unit of the rounds of the search with probing (by default the
    /// number of pieces on the board).
    round_unit: Option<u64>,
    /// The bound of the table of hopeless positions in words (by default [`MEMO_WORDS`], or
    /// [`gravity::GRAVITY_MEMO_WORDS`] with gravity).
    memo_words: Option<usize>,
}

impl Default for Tuning<'_> {
    fn default() -> Self {
        Tuning {
            progress: None,
            probe_after: PROBE_AFTER,
            restart_unit: gravity::RESTART_UNIT,
            round_unit: None,
            memo_words: None,
        }
    }
}

/// The search with every knob of [`Tuning`].
fn search_tuned(board: &Board, settings: Settings, tuning: Tuning) -> Result<Outcome, TooLarge> {
    let Tuning { progress, probe_after, restart_unit, round_unit, memo_words } = tuning;
    if board.rows() > MAX_SIDE || board.cols() > MAX_SIDE {
        return Err(TooLarge { rows: board.rows(), cols: board.cols() });
    }
    let default_words = if settings.gravity { gravity::GRAVITY_MEMO_WORDS } else { MEMO_WORDS };
    let memo_words = memo_words.unwrap_or(default_words);
    let progress = progress.filter(|progress| progress.is_shown());
    if settings.gravity {
        let mut search = gravity::GravitySearch::new(board, settings, memo_words);
        let found = watched(&mut search.position, progress).map(|()| search.gravity_rounds(restart_unit));
        Ok(outcome(&mut search.position, found))
    } else {
        let mut search = StillSearch::new(board, settings, memo_words);
        let found = watched(&mut search.position, progress).map(|()| {
            // Most boards fall to the search without probing in a few dozen positions; one that takes
            // more is searched again with probing, in rounds (the positions found hopeless stay known).
            if probe_after == 0 {
                return search.probe_rounds(round_unit);
            }
            search.still.probe = false;
            search.position.budget = probe_after;
            match search.search_still(false, &Inherit::default()) {
                Err(OutOfBudget) if !search.position.exhausted => search.probe_rounds(round_unit),
                found => found,
            }
        });
        Ok(outcome(&mut search.position, found))
    }
}

/// Readies `position` to report to `progress`; `None` when a kind has an odd number of pieces,
/// so that the board is hopeless without a search.
fn watched(position: &mut Position, progress: Option<&Progress>) -> Option<()> {
    if position.left.iter().any(|&left| left % 2 == 1) {
        return None;
    }
    if let Some(progress) = progress {
        position.progress = progress.clone();
        position.report_at = position::REPORT_EVERY;
    }
    Some(())
}

/// The outcome of a search of `position` that found `found` (`None`: hopeless without a search).
fn outcome(position: &mut Position, found: Option<Result<bool, OutOfBudget>>) -> Outcome {
    let Some(found) = found else {
        return Outcome { verdict: Verdict::Hopeless, positions: 0, work: 0 };
    };
    position.report();
    let verdict = match found {
        Err(OutOfBudget) => Verdict::Undecided,
        Ok(false) => Verdict::Hopeless,
        Ok(true) => Verdict::Cleared(
            position
                .order
                .iter()
                .map(|step| {
                    let pos = |(row, col): Cell| Pos::new(row as usize, col as usize);
                    (pos(step.at[0]), pos(step.at[1]))
                })
                .collect(),
        ),
    };
    Outcome { verdict, positions: position.positions, work: position.work }
}

/// splitmix64's finaliser: equal inputs give equal outputs, close ones look unrelated (the
/// seeds of both searches' rounds, the hash of a key without gravity).
fn mix(value: u64) -> u64 {
    let mut value = value.wrapping_add(0x9E37_79B9_7F4A_7C15);
    value = (value ^ (value >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    value = (value ^ (value >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    value ^ (value >> 31)
}

/// True when a line within `rules` joins the pieces at 1-based `a` and `b` (two distinct
/// pieces), by the bit-board test the search uses; for checks against the reference. The board
/// must be at most [`MAX_SIDE`] on a side.
pub fn joinable(board: &Board, rules: Rules, a: Pos, b: Pos) -> bool {
    let cell = |pos: Pos| (pos.row as u8, pos.col as u8);
    Bits::new(board, rules.outside).joinable(cell(a), cell(b), rules.max_turns)
}

/// The search ran out of budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct OutOfBudget;

/// A choice tried at a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Branch {
    /// Remove these two pieces.
    Remove(u16, u16),
    /// Allow kind `.0` only the pairings of mask `.1`.
    Constrain(u32, u8),
}
