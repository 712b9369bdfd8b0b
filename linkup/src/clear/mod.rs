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
//! after any other removals: safe moves, branching on how one kind of four is paired, a
//! relaxation that proves most hopeless positions at once, and probes of every branch once a
//! board proves hard, in rounds that restart from the first position ([`still`], where the
//! proofs are).
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
//! each line check of a pair a unit (`Bits::check_cost` units for a flood of more than two
//! turns), each pair the relaxation sets up a unit, each pair a pass of it looks at a
//! unit, and with gravity a unit per few pieces a pass over the board's pieces looks at. Work is
//! charged where it is done, never estimated ahead, so that the budget bounds the time on every
//! rule set within a small factor. One counter (`Meter::spend`, in `meter.rs`) takes it all, and the search
//! stops as soon as it is past the budget, inside a position too (in a pass of the relaxation,
//! between the rows of a kind's pairs): every step of a position is then bounded by the few
//! units between two checks, a pass being at most [`MAX_EDGES`] pairs. A search stopped inside
//! a position records nothing about it (a relaxation or a branch cut short proves nothing): the
//! position is left undecided, never entered as hopeless, and the board is undecided. The
//! relaxation's pairs are its memory: a position that would set up more than [`MAX_EDGES`]
//! stops the search the same way, so a search's memory is bounded whatever the board; the
//! verdict names the limit that stopped the search ([`Limit`]), since no budget raises that one.

//! ## The house
//! This module is the map and the entry points ([`search`], [`search_reporting`], [`joinable`],
//! [`fits`]).
//! Both searches run on shared parts, each a type in its own module that owns its data: the bit
//! board (`bits.rs`, what a pair waits on in `wait.rs`), the position (`position.rs`: pieces,
//! kinds, removals and undo), the work meter (`meter.rs`: budget, progress), the table of
//! hopeless positions (`table.rs`), the rounds of restarts (`rounds.rs`), the pairings of a kind
//! of four (`pairings.rs`) and the hash (`hash.rs`); `search.rs` is what both searches do over a
//! position. Each search ([`still`], [`gravity`]) is a struct of those parts and its own.

#![expect(
    clippy::inline_always,
    reason = "the line checks are `#[inline(always)]`: most fail at once, and a call costs more than such a check"
)]

mod bits;
pub mod gravity;
mod hash;
mod meter;
mod pairings;
mod position;
mod rounds;
mod search;
pub mod still;
mod table;
#[cfg(test)]
mod tests;
mod wait;

use common::Pos;
use common::search::Progress;

use crate::model::{Board, Rules};
use bits::{Bits, Cell};
use gravity::GravitySearch;
use meter::OutOfBudget;
use position::Position;
use search::Search;
use still::StillSearch;

pub use bits::MAX_SIDE;
pub use gravity::{GRAVITY_MEMO_WORDS, RESTART_UNIT};
pub use meter::{DEFAULT_BUDGET, Limit, MAX_EDGES};
pub use still::{MEMO_WORDS, PROBE_AFTER, PROBE_AFTER_HOPELESS};

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
    /// A limit stopped the search first: the budget of work, or the bound on a position's
    /// pairs ([`MAX_EDGES`], which no budget raises).
    Undecided(Limit),
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
///
/// Limits: boards of at most [`MAX_SIDE`] rows and columns (else [`TooLarge`]), any number of
/// pieces. Complexity: exponential in the pieces at worst; the work is bounded by
/// `settings.budget` units (past it the verdict is [`Verdict::Undecided`]), and the memory by
/// [`MEMO_WORDS`] words (with gravity [`GRAVITY_MEMO_WORDS`]) for the table of hopeless
/// positions, [`MAX_EDGES`] pairs for the relaxation and tables of the board's cells and pieces.
/// A kind with an odd number of pieces makes the board hopeless at once. The same board and
/// settings give the same outcome on every machine. Never panics.
pub fn search(board: &Board, settings: Settings) -> Result<Outcome, TooLarge> {
    search_tuned(board, settings, Tuning::default())
}

/// [`search`], reporting its positions to `progress` as it goes, in batches, with an estimate
/// of the positions its budget allows; every position is reported by the time it returns. The
/// same limits and outcome as [`search`].
pub fn search_reporting(board: &Board, settings: Settings, progress: &Progress) -> Result<Outcome, TooLarge> {
    search_tuned(board, settings, Tuning { progress: Some(progress), ..Tuning::default() })
}

/// True when a line within `rules` joins the pieces at 1-based `a` and `b` (two distinct
/// pieces), by the bit-board test the search uses: two runs found with bit scans and a test per
/// middle both reach, or with more than two turns a flood by layers over the words, O(rows ×
/// turns), after O(rows × columns) to lay out the bits.
///
/// Limits: boards of at most [`MAX_SIDE`] rows and columns, whose rows and columns fit the
/// words of the bit board (else [`TooLarge`], before anything is laid out). Panics when a cell
/// is off the board.
pub fn joinable(board: &Board, rules: Rules, a: Pos, b: Pos) -> Result<bool, TooLarge> {
    fits(board)?;
    let on_board = |pos: Pos| (1..=board.rows()).contains(&pos.row) && (1..=board.cols()).contains(&pos.col);
    assert!(
        on_board(a) && on_board(b),
        "{a:?} or {b:?} is off the {} by {} board",
        board.rows(),
        board.cols()
    );
    let cell = |pos: Pos| (pos.row as u8, pos.col as u8);
    Ok(Bits::new(board, rules.outside).joinable(cell(a), cell(b), rules.max_turns))
}

/// `Ok` when `board` is at most [`MAX_SIDE`] on a side, the boards [`search`] and [`joinable`]
/// take; else its size.
pub fn fits(board: &Board) -> Result<(), TooLarge> {
    if board.rows() > MAX_SIDE || board.cols() > MAX_SIDE {
        return Err(TooLarge { rows: board.rows(), cols: board.cols() });
    }
    Ok(())
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
    /// [`GRAVITY_MEMO_WORDS`] with gravity); a full table only forgets, so the search stays
    /// exact but may search positions again.
    memo_words: Option<usize>,
}

impl Default for Tuning<'_> {
    fn default() -> Self {
        Tuning {
            progress: None,
            probe_after: PROBE_AFTER,
            restart_unit: RESTART_UNIT,
            round_unit: None,
            memo_words: None,
        }
    }
}

/// The search with every knob of [`Tuning`] (the shipped search with the defaults; the tests
/// turn the knobs).
fn search_tuned(board: &Board, settings: Settings, tuning: Tuning) -> Result<Outcome, TooLarge> {
    let Tuning { progress, probe_after, restart_unit, round_unit, memo_words } = tuning;
    fits(board)?;
    let (rules, budget) = (settings.rules, settings.budget);
    let progress = progress.filter(|progress| progress.is_shown());
    if settings.gravity {
        let memo_words = memo_words.unwrap_or(GRAVITY_MEMO_WORDS);
        let mut search = GravitySearch::new(board, rules, budget, memo_words);
        let found = watched(&mut search, progress).map(|()| search.run(restart_unit));
        Ok(outcome(&mut search, found))
    } else {
        let mut search = StillSearch::new(board, rules, budget, memo_words.unwrap_or(MEMO_WORDS));
        let found = watched(&mut search, progress).map(|()| search.run(probe_after, round_unit));
        Ok(outcome(&mut search, found))
    }
}

/// Readies `search` to report to `progress`; `None` when a kind has an odd number of pieces,
/// so that the board is hopeless without a search.
fn watched(search: &mut impl Search, progress: Option<&Progress>) -> Option<()> {
    let (position, meter) = search.parts();
    if position.left_per_kind().iter().any(|&left| left % 2 == 1) {
        return None;
    }
    if let Some(progress) = progress {
        meter.watch(progress);
    }
    Some(())
}

/// The outcome of `search`, which found `found` (`None`: hopeless without a search).
fn outcome(search: &mut impl Search, found: Option<Result<bool, OutOfBudget>>) -> Outcome {
    let Some(found) = found else {
        return Outcome { verdict: Verdict::Hopeless, positions: 0, work: 0 };
    };
    let (position, meter) = search.parts();
    meter.report();
    let verdict = match found {
        Err(OutOfBudget) => Verdict::Undecided(meter.stopped_by().unwrap_or(Limit::Budget)),
        Ok(false) => Verdict::Hopeless,
        Ok(true) => Verdict::Cleared(cleared_order(position)),
    };
    Outcome { verdict, positions: meter.positions(), work: meter.work() }
}

/// The removals of `position`, the order that cleared it: the cells of each pair, 1-based.
fn cleared_order(position: &Position) -> Vec<(Pos, Pos)> {
    let pos = |(row, col): Cell| Pos::new(row as usize, col as usize);
    position.order().iter().map(|step| step.cells()).map(|[a, b]| (pos(a), pos(b))).collect()
}
