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
//! (`Search::probe_rounds`).
//!
//! Lines are checked again as little as possible: each kind's joinable pairs are cached per
//! board state, and brought up to date from a state a few removals up the search path by
//! rechecking only the pairs with a cell emptied since on a line their last check named, or,
//! for a pair whose ends' runs met neither along the rows nor along the columns at its last
//! check, one of the four cells just beyond those runs (`Search::pair_mask`, `Bits::wait_on`);
//! in the relaxation (`Search::can_all_go`) a pair starts from that wait and is rechecked
//! only once a piece is freed on one of its lines or one of its four cells.
//!
//! The relaxation is run as little as possible too. A run that holds leaves a proof: the
//! pairings whose pairs freed each kind. Removals only open cells, so the proof still holds
//! after a branch that keeps each of its pairs allowed and removes no piece whose partner in
//! it stays (`Search::inherits`): a branch on a kind of four freed by one pairing, by that
//! pairing. The probes' proofs go to the branch taken, and are logged for the positions
//! below. A probe's proof is also a proof of the position it was made at, so a probe takes
//! any proof logged by its position's probes, or by its parent's when the move between keeps
//! it, that its branch keeps (`Search::known_proof`). A probe that fails records the pieces it
//! could not free; below, the same branch fails again while all of them are on the board
//! (`Search::still_refuted`). Debug builds run the relaxation anyway wherever an answer is taken,
//! and check it agrees. The probes that do run start from a stage of the position's own relaxation
//! where their kind was still held, not from scratch (`Search::relax_base`).
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
//! Every position searched counts; past the budget the search stops and the board is undecided.
//! The work per position is a pass over the pairs of every kind left, so a search costs
//! O(budget × pairs × (rows + columns)) at most.

#![expect(
    clippy::inline_always,
    reason = "the line checks are `#[inline(always)]`: most fail at once, and a call costs more than such a check (callgrind)"
)]

pub mod gravity;
mod table;

use rustc_hash::FxHashMap;

use common::Pos;
use common::search::luby;

use crate::model::{Board, EMPTY, Kind, Rules};
use table::Table;

/// Most rows, and most columns, of a board the search takes: a framed row or column, with one
/// more closed bit beyond the ring, fits a 64-bit word.
pub const MAX_SIDE: usize = 60;

/// The budget of positions when none is given.
pub const DEFAULT_BUDGET: u64 = 2_000_000;

/// Positions the search without probing may take before it starts again with probing.
pub const PROBE_AFTER: u64 = 200;

/// Positions the search without probing may prove hopeless before it starts again with probing,
/// however few positions it took: a board that soon leads into many hopeless positions is one
/// where probing pays (on the standard deals of seeds 1, 2 and 3: 2.3%, 1.3% and 6.3% fewer
/// instructions than with [`PROBE_AFTER`] alone, 11-14% fewer positions).
pub const PROBE_AFTER_HOPELESS: u64 = 90;

/// Most removals up the search path a kind's cached mask of joinable pairs may lie and still be
/// brought up to date rather than found again (see [`Search::pair_mask`]).
const DERIVE_DEPTH: usize = 4;

/// Most 64-bit words the table of hopeless positions holds (32 MiB).
pub const MEMO_WORDS: usize = 1 << 22;

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The rules a line must follow.
    pub rules: Rules,
    /// Pieces fall down their column after each removal.
    pub gravity: bool,
    /// Most positions to search.
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

/// The verdict and the positions searched (the work done, the same on every machine).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// What was found.
    pub verdict: Verdict,
    /// Positions searched.
    pub positions: u64,
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

/// [`search`], probing once `probe_after` positions are searched (0: from the start) instead
/// of [`PROBE_AFTER`] (or [`PROBE_AFTER_HOPELESS`] are proved hopeless); for tests of either
/// way.
pub fn search_with(board: &Board, settings: Settings, probe_after: u64) -> Result<Outcome, TooLarge> {
    search_inner(board, settings, probe_after, gravity::RESTART_UNIT, None)
}

/// [`search`] with gravity, its rounds of restarts lasting `restart_unit` times the terms of
/// the Luby sequence (see [`gravity`]) instead of [`gravity::RESTART_UNIT`]; for tests of the
/// restarts.
pub fn search_with_restarts(
    board: &Board,
    settings: Settings,
    restart_unit: u64,
) -> Result<Outcome, TooLarge> {
    search_inner(board, settings, PROBE_AFTER, restart_unit.max(1), None)
}

/// [`search_with`] and [`search_with_restarts`] in one; without gravity the rounds of the
/// search with probing last `round_unit` (by default the number of pieces on the board) times
/// the terms of the Luby sequence.
fn search_inner(
    board: &Board,
    settings: Settings,
    probe_after: u64,
    restart_unit: u64,
    round_unit: Option<u64>,
) -> Result<Outcome, TooLarge> {
    if board.rows() > MAX_SIDE || board.cols() > MAX_SIDE {
        return Err(TooLarge { rows: board.rows(), cols: board.cols() });
    }
    let mut search = Search::new(board, settings);
    if search.left.iter().any(|&left| left % 2 == 1) {
        return Ok(Outcome { verdict: Verdict::Hopeless, positions: 0 });
    }
    let found = if settings.gravity {
        search.gravity_rounds(restart_unit)
    } else {
        // Most boards fall to the plain search in a few dozen positions; one that takes more
        // is searched again with probing, in rounds (the positions found hopeless stay known).
        if probe_after == 0 {
            search.probe_rounds(settings.budget, round_unit)
        } else {
            search.probe = false;
            search.budget = settings.budget.min(probe_after);
            match search.plain(false, &Inherit::default()) {
                Err(OutOfBudget) if search.positions < settings.budget => {
                    search.probe_rounds(settings.budget, round_unit)
                }
                found => found,
            }
        }
    };
    let verdict = match found {
        Err(OutOfBudget) => Verdict::Undecided,
        Ok(false) => Verdict::Hopeless,
        Ok(true) => Verdict::Cleared(
            search
                .order
                .iter()
                .map(|step| {
                    let pos = |(row, col): Cell| Pos::new(row as usize, col as usize);
                    (pos(step.at[0]), pos(step.at[1]))
                })
                .collect(),
        ),
    };
    Ok(Outcome { verdict, positions: search.positions })
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

/// What [`Search::can_all_go`] was not run for, as a known answer was taken instead.
#[derive(Debug, Clone, Copy)]
enum Taken {
    /// A proof that it holds, inherited from the position (or the branch) above.
    Proof,
    /// A proof the parent's probe of the same branch found.
    ParentProof,
    /// A refutation the parent's probe of the same branch found.
    Refutation,
    /// A proof a probe of another branch found, here or at the parent.
    OtherProof,
}

#[cfg(test)]
thread_local! {
    /// Answers taken in this thread, by [`Taken`] (for the tests).
    static TAKEN: std::cell::Cell<[u64; 4]> = const { std::cell::Cell::new([0; 4]) };
}

#[cfg(test)]
thread_local! {
    /// Probes run on from a base in this thread (each checked against a run from scratch in
    /// debug builds).
    static FROM_BASE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts an answer of [`Search::can_all_go`] taken rather than found (tests only).
fn count_taken(taken: Taken) {
    #[cfg(test)]
    TAKEN.with(|counts| {
        let mut now = counts.get();
        now[taken as usize] += 1;
        counts.set(now);
    });
    #[cfg(not(test))]
    let _ = taken;
}

/// A framed position: row, column.
type Cell = (u8, u8);

/// The open cells of the framed board, by rows and by columns. Invariant: `rows[r]` bit `c` ==
/// `cols[c]` bit `r` for every framed cell, and every bit beyond the frame is 0.
#[derive(Debug, Clone, Default)]
struct Bits {
    rows: Vec<u64>,
    cols: Vec<u64>,
}

/// Bits `low..=high`.
fn span(low: u32, high: u32) -> u64 {
    (u64::MAX >> (63 - high)) & (u64::MAX << low)
}

/// The run of set bits of `line | 1 << at` around bit `at`: its lowest and highest bit. Bit 63
/// of `line` must be clear.
fn run(line: u64, at: u32) -> (u32, u32) {
    (run_low(line, at), run_high(line, at))
}

/// The lowest bit of [`run`].
#[inline(always)]
fn run_low(line: u64, at: u32) -> u32 {
    // The highest clear bit below `at`, plus one (0 when there is none).
    64 - (!line & ((1 << at) - 1)).leading_zeros()
}

/// The highest bit of [`run`]. Bit 63 of `line` must be clear.
#[inline(always)]
fn run_high(line: u64, at: u32) -> u32 {
    // The lowest clear bit above `at`, minus one.
    (!line & (u64::MAX << at << 1)).trailing_zeros() - 1
}

/// The mark of a shape whose ends' runs do not meet ([`Bits::shape_or_wait`]): no middle is
/// ever above bit 62, so the mark cannot be a mask of middles.
const APART: u64 = 1 << 63;

/// True when `wait` (of [`Bits::wait_on`]) holds two [`APART`] words rather than lines.
fn is_apart(wait: (u64, u64)) -> bool {
    wait.0 & APART != 0
}

/// [`APART`] with two cells along the lines of a shape: position `first_at` of line `first`,
/// and `second_at` of `second` (one byte each, from bit 0).
fn apart(first: usize, first_at: u32, second: usize, second_at: u32) -> u64 {
    APART
        | (first as u64 & 63)
        | u64::from(first_at) << 8
        | (second as u64 & 63) << 16
        | u64::from(second_at) << 24
}

/// The middle lines a shape may use within `max_turns` turns, for ends at `first` and `second`
/// on the axis of the middle line: any with two turns, an end's own with one, the common one
/// with none.
fn middles(first: u32, second: u32, max_turns: u32) -> u64 {
    match max_turns {
        0 if first == second => 1 << first,
        0 => 0,
        1 => 1 << first | 1 << second,
        _ => u64::MAX,
    }
}

impl Bits {
    fn new(board: &Board, outside: bool) -> Bits {
        let (height, width) = (board.rows() + 2, board.cols() + 2);
        let mut bits = Bits { rows: vec![0; height], cols: vec![0; width] };
        for row in 0..height {
            for col in 0..width {
                let open = if row == 0 || col == 0 || row == height - 1 || col == width - 1 {
                    outside
                } else {
                    board[Pos::new(row - 1, col - 1)] == EMPTY
                };
                bits.set((row as u8, col as u8), open);
            }
        }
        bits
    }

    fn set(&mut self, (row, col): Cell, open: bool) {
        let (row_bit, col_bit) = (1u64 << col, 1u64 << row);
        if open {
            self.rows[row as usize] |= row_bit;
            self.cols[col as usize] |= col_bit;
        } else {
            self.rows[row as usize] &= !row_bit;
            self.cols[col as usize] &= !col_bit;
        }
    }

    /// True when a line of at most `max_turns` turns joins the blocked cells `a` and `b`.
    #[inline(always)]
    fn joinable(&self, a: Cell, b: Cell, max_turns: u32) -> bool {
        if max_turns <= 2 {
            Self::shape(&self.rows, &self.cols, a, b, max_turns)
                || Self::shape(&self.cols, &self.rows, (a.1, a.0), (b.1, b.0), max_turns)
        } else {
            self.flood(a, b, max_turns)
        }
    }

    /// Lines along `a`'s line of `lines`, across a middle line, along `b`'s line (rows and
    /// columns exchanged when `lines` are the columns; cells are then (column, row)). The middle
    /// is a position both ends reach along their lines, open everywhere strictly between them.
    /// `across` are the lines the other way (the columns when `lines` are the rows).
    #[inline(always)]
    fn shape(lines: &[u64], across: &[u64], a: Cell, b: Cell, max_turns: u32) -> bool {
        Self::shape_or_wait(lines, across, a, b, max_turns).is_none()
    }

    /// [`Bits::shape`]: `None` when the shape joins `a` and `b`; else, where the runs of the
    /// two ends do not meet, [`APART`] with the two cells whose opening could make them meet
    /// (see [`apart`]); else the positions along the lines (columns when `lines` are the rows)
    /// of the middles both ends reach, as a mask. The shape can only come to join them once a
    /// cell opens on `a`'s or `b`'s line (their runs grow) or, between their lines, at one of
    /// those positions (a middle opens).
    ///
    /// Inlined: most checks of the relaxation fail here at once (the runs do not overlap), so
    /// a call would cost more than the check. A middle is tested on its own line of `across`
    /// (open on every line between), one test per middle both ends reach, usually fewer than
    /// the lines between.
    #[inline(always)]
    fn shape_or_wait(lines: &[u64], across: &[u64], a: Cell, b: Cell, max_turns: u32) -> Option<u64> {
        Self::shape_or_wait_in::<false, false>(lines, across, a, b, max_turns)
    }

    /// [`Bits::shape_or_wait`], told that `a.0 <= b.0` (`LINES_SORTED`) or that `a.1 <= b.1`
    /// (`AT_SORTED`), which spares comparing them: a pair in reading order has both along the
    /// rows its rows sorted, and along the columns its ends' positions (their rows).
    #[inline(always)]
    fn shape_or_wait_in<const LINES_SORTED: bool, const AT_SORTED: bool>(
        lines: &[u64],
        across: &[u64],
        a: Cell,
        b: Cell,
        max_turns: u32,
    ) -> Option<u64> {
        let (a_line, a_at, b_line, b_at) = (a.0 as usize, a.1 as u32, b.0 as usize, b.1 as u32);
        debug_assert!(!LINES_SORTED || a_line <= b_line, "lines not sorted");
        debug_assert!(!AT_SORTED || a_at <= b_at, "positions not sorted");
        // The end nearer the start of the lines first: with `first.1 <= second.1`, the runs
        // meet exactly when the first's reaches as far up as the second's reaches down (each
        // run holds its own end), so most checks, where they do not, find two ends, not four.
        let ((first, first_at), (second, second_at)) = if AT_SORTED || a_at <= b_at {
            ((a_line, a_at), (b_line, b_at))
        } else {
            ((b_line, b_at), (a_line, a_at))
        };
        let (first_line, second_line) = (lines[first & 63], lines[second & 63]);
        let (first_high, second_low) = (run_high(first_line, first_at), run_low(second_line, second_at));
        if second_low > first_high {
            // The first's run grows up only once the cell after its end opens, the second's
            // down only once the cell before its start does.
            return Some(apart(first, first_high + 1, second, second_low - 1));
        }
        let low = run_low(first_line, first_at).max(second_low);
        let high = first_high.min(run_high(second_line, second_at));
        let reached = span(low, high) & middles(a_at, b_at, max_turns);
        let (top, bottom) = if LINES_SORTED {
            (a_line as u32, b_line as u32)
        } else {
            (a_line.min(b_line) as u32, a_line.max(b_line) as u32)
        };
        if bottom <= top + 1 {
            // No line between: any middle reached joins them.
            return if reached != 0 { None } else { Some(0) };
        }
        let between = span(top + 1, bottom - 1);
        let mut middles = reached;
        while middles != 0 {
            let middle = middles.trailing_zeros() as usize;
            if across[middle & 63] & between == between {
                return None;
            }
            middles &= middles - 1;
        }
        Some(reached)
    }

    /// [`Bits::watch_on`] on this board (for the tests).
    #[cfg(test)]
    fn joinable_or_watch(&self, a: Cell, b: Cell, max_turns: u32) -> Option<(u64, u64)> {
        Self::watch_on(&self.rows, &self.cols, a, b, max_turns)
    }

    /// For at most two turns, on the open cells `rows` and `cols` of a framed board: `None`
    /// when a line joins the blocked cells `a` and `b`, else the rows and the columns (masks)
    /// such that no line can join them until a cell in one of those rows or columns opens (see
    /// [`Bits::shape_or_wait`]): [`Bits::wait_on`] in lines, also where the runs are apart.
    fn watch_on(rows: &[u64], cols: &[u64], a: Cell, b: Cell, max_turns: u32) -> Option<(u64, u64)> {
        let wait = Self::wait_on(rows, cols, a, b, max_turns)?;
        Some(if is_apart(wait) { (1 << a.0 | 1 << b.0, 1 << a.1 | 1 << b.1) } else { wait })
    }

    /// For at most two turns, on the open cells `rows` and `cols` of a framed board: `None`
    /// when a line joins the blocked cells `a` and `b`; else, when along both the rows and the
    /// columns the runs of the two ends do not meet, the two [`APART`] words of the shapes
    /// along the rows and along the columns (no line can join them until one of those four
    /// cells opens, [`Bits::still_apart`]); else the watch of [`Bits::watch_on`] (bit 63 of
    /// neither word set: [`is_apart`] tells the two apart).
    #[inline(always)]
    fn wait_on(rows: &[u64], cols: &[u64], a: Cell, b: Cell, max_turns: u32) -> Option<(u64, u64)> {
        let across = Self::shape_or_wait(rows, cols, a, b, max_turns)?;
        let down = Self::shape_or_wait(cols, rows, (a.1, a.0), (b.1, b.0), max_turns)?;
        Some(Self::wait_of(a, b, across, down))
    }

    /// [`Bits::wait_on`] for `a` before `b` in reading order (`a.0 <= b.0`, and then
    /// `a.1 < b.1`): the shapes are told so ([`Bits::shape_or_wait_in`]).
    #[inline(always)]
    fn wait_on_sorted(rows: &[u64], cols: &[u64], a: Cell, b: Cell, max_turns: u32) -> Option<(u64, u64)> {
        let across = Self::shape_or_wait_in::<true, false>(rows, cols, a, b, max_turns)?;
        let down = Self::shape_or_wait_in::<false, true>(cols, rows, (a.1, a.0), (b.1, b.0), max_turns)?;
        Some(Self::wait_of(a, b, across, down))
    }

    /// [`Bits::wait_on_sorted`] for a pair whose last wait `wait` was apart and of whose four cells
    /// only those along the rows (`across_open`) or along the columns (`down_open`) opened since:
    /// the shape along the other lines is not looked at again. Its runs end where they ended,
    /// as the cells beyond their facing ends are still closed (and the cells they hold only
    /// open), so it would find its [`APART`] word again, which neither joins the pair nor
    /// counts in a watch of lines.
    #[inline(always)]
    fn rewait_apart(
        rows: &[u64],
        cols: &[u64],
        (a, b): (Cell, Cell),
        max_turns: u32,
        wait: (u64, u64),
        (across_open, down_open): (bool, bool),
    ) -> Option<(u64, u64)> {
        let across = if across_open {
            Self::shape_or_wait_in::<true, false>(rows, cols, a, b, max_turns)?
        } else {
            wait.0
        };
        let down = if down_open {
            Self::shape_or_wait_in::<false, true>(cols, rows, (a.1, a.0), (b.1, b.0), max_turns)?
        } else {
            wait.1
        };
        debug_assert_eq!(Self::wait_on(rows, cols, a, b, max_turns), Some(Self::wait_of(a, b, across, down)));
        Some(Self::wait_of(a, b, across, down))
    }

    /// The wait of [`Bits::wait_on`] from the shapes along the rows (`across`) and along the
    /// columns (`down`), neither joining `a` and `b`.
    #[inline(always)]
    fn wait_of(a: Cell, b: Cell, across: u64, down: u64) -> (u64, u64) {
        if across & down & APART != 0 {
            return (across, down);
        }
        let strip = |wait: u64| if wait & APART != 0 { 0 } else { wait };
        (1 << a.0 | 1 << b.0 | strip(down), 1 << a.1 | 1 << b.1 | strip(across))
    }

    /// True when the four cells of the [`APART`] words of [`Bits::wait_on`] (along the rows
    /// `across`, along the columns `down`) are all still closed: no line joins the pair.
    #[inline(always)]
    fn still_apart(rows: &[u64], cols: &[u64], (across, down): (u64, u64)) -> bool {
        let open = |lines: &[u64], wait: u64, shift: u32| {
            lines[(wait >> shift) as usize & 63] >> (wait >> (shift + 8) & 63) & 1
        };
        open(rows, across, 0) | open(rows, across, 16) | open(cols, down, 0) | open(cols, down, 16) == 0
    }

    /// Whether one of the two cells along the rows, and one of the two along the columns, of
    /// the [`APART`] words of [`Bits::wait_on`] is open (see [`Bits::still_apart`]).
    #[inline(always)]
    fn apart_opened(rows: &[u64], cols: &[u64], (across, down): (u64, u64)) -> (bool, bool) {
        let open = |lines: &[u64], wait: u64, shift: u32| {
            lines[(wait >> shift) as usize & 63] >> (wait >> (shift + 8) & 63) & 1
        };
        (open(rows, across, 0) | open(rows, across, 16) != 0, open(cols, down, 0) | open(cols, down, 16) != 0)
    }

    /// The layered search for any turn limit: `across[r]` holds the cells a line reaches going
    /// along row r, `down[r]` those it reaches going along a column, with the turns so far.
    fn flood(&self, a: Cell, b: Cell, max_turns: u32) -> bool {
        Self::flood_lines(&self.rows, a, b, max_turns)
    }

    /// [`Bits::flood`] on the open cells `rows` of a framed board, one word per row.
    fn flood_lines(rows: &[u64], a: Cell, b: Cell, max_turns: u32) -> bool {
        let height = rows.len();
        let (mut across, mut down) = ([0u64; 64], [0u64; 64]);
        let (a_row, a_col) = (a.0 as usize, a.1 as u32);
        across[a_row] = 1 << a_col;
        down[a_row] = 1 << a_col;
        Self::fill_across(rows, &mut across);
        Self::fill_down(rows, &mut down);
        let (b_row, b_col) = (b.0 as usize, b.1 as u32);
        let sides = (1u64 << b_col >> 1) | (1u64 << b_col << 1);
        for turns in 0..=max_turns {
            let beside = down[b_row - 1] | if b_row + 1 < height { down[b_row + 1] } else { 0 };
            if across[b_row] & sides != 0 || beside & 1 << b_col != 0 {
                return true;
            }
            if turns == max_turns {
                break;
            }
            let (mut next_across, mut next_down) = (down, across);
            Self::fill_across(rows, &mut next_across);
            Self::fill_down(rows, &mut next_down);
            let mut grew = false;
            for row in 0..height {
                let (old_across, old_down) = (across[row], down[row]);
                across[row] |= next_across[row];
                down[row] |= next_down[row];
                grew |= across[row] != old_across || down[row] != old_down;
            }
            if !grew {
                break;
            }
        }
        false
    }

    /// Extends every set cell along its row over open cells.
    fn fill_across(rows: &[u64], cells: &mut [u64; 64]) {
        for (row, &open) in rows.iter().enumerate() {
            let mut reached = cells[row];
            loop {
                let more = reached | (((reached << 1) | (reached >> 1)) & open);
                if more == reached {
                    break;
                }
                reached = more;
            }
            cells[row] = reached;
        }
    }

    /// Extends every set cell along its column over open cells (two passes cover every column
    /// at once).
    fn fill_down(rows: &[u64], cells: &mut [u64; 64]) {
        let height = rows.len();
        for row in 1..height {
            cells[row] |= cells[row - 1] & rows[row];
        }
        for row in (0..height - 1).rev() {
            cells[row] |= cells[row + 1] & rows[row];
        }
    }
}

/// The search ran out of budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct OutOfBudget;

/// One removal made: the two pieces and their cells at the time.
#[derive(Debug, Clone, Copy)]
struct Step {
    pieces: [u16; 2],
    at: [Cell; 2],
    /// The pairings allowed to the kind before the removal (restored on undo).
    allowed_before: u8,
    /// The board's [`Search::epoch`] before the removal (restored on undo).
    epoch_before: u64,
    /// The length of [`Search::cache_trail`] at the removal (the masks cached since are
    /// put back as they were on undo).
    cache_mark: usize,
}

/// A choice tried at a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Branch {
    /// Remove these two pieces.
    Remove(u16, u16),
    /// Allow kind `.0` only the pairings of mask `.1`.
    Constrain(u32, u8),
}

/// The branches of one kind of four: a removal for some of its pairings, and the other
/// pairings it may keep (0: none).
#[derive(Debug, Clone, Copy)]
struct Choice {
    kind: usize,
    removes: [(u16, u16); 3],
    count: usize,
    rest: u8,
    /// Where in [`Search::proofs`] the probe of each branch left its proof (in branch order:
    /// the removals, then the rest), or [`NO_PROOF`].
    proofs: [u32; 4],
}

/// No proof of [`Search::can_all_go`] was kept for a branch.
const NO_PROOF: u32 = u32::MAX;

/// A branch seen from its kind: kind `kind` (four pieces left) may use only the pairings of
/// `pairings` below it (a removal: its pair's pairing).
#[derive(Debug, Clone, Copy)]
struct Cut {
    kind: usize,
    pairings: u8,
}

impl Cut {
    /// True when a proof of [`Search::can_all_go`] with the pairings `used` (per kind) stays a
    /// proof after the branch (see [`Search::inherits`]).
    fn keeps(self, used: &[u8]) -> bool {
        used[self.kind] & !self.pairings == 0
    }
}

/// What a position may take from its parent's probes: the entries of `probe_log` the parent
/// logged, and the branch that led here ([`Search::probe`]).
#[derive(Debug, Clone, Default)]
struct Inherit {
    log: std::ops::Range<usize>,
    refuted: std::ops::Range<usize>,
    cut: Option<Cut>,
}

/// Every row and every column: what a pair of [`Search::can_all_go`] not checked yet waits on.
/// (Bit 63 is never a line: a wait with it set is apart, see [`Bits::wait_on`].)
const WATCH_ALL: (u64, u64) = (u64::MAX >> 1, u64::MAX >> 1);

/// A pair of [`Search::can_all_go`] that may still free a piece.
#[derive(Debug, Clone, Copy)]
struct Edge {
    /// `a < b`: in reading order, as its checks ([`Bits::wait_on_sorted`]) are told.
    a: u16,
    b: u16,
    /// The kind of both pieces.
    kind: u16,
    /// The cells of `a` and `b`.
    at: [Cell; 2],
    /// The pairing of the pair as a bit (kinds of four: bit p for pairing p; kinds of two: 0;
    /// larger kinds: [`MANY`]).
    pairing: u8,
    /// Known joinable on the relaxed board.
    joined: bool,
    /// Skipped by passes since its last check (see [`Search::can_all_go`]).
    stale: bool,
    /// The rows and columns (masks) a cell must open on before the pair can become joinable.
    watch: (u64, u64),
    /// When `watch` is apart, its four cells ([`apart_cells`]).
    cells: [u16; 4],
}

/// The pairing bit of the pairs of a kind of more than four pieces in [`Search::used`].
const MANY: u8 = 0b1000;

/// All three pairings of a kind with four pieces left.
const ALL_PAIRINGS: u8 = 0b111;

/// The two pairs of pairing `p` of four pieces `w < x < y < z` (indices into them).
const PAIRINGS: [[(usize, usize); 2]; 3] = [[(0, 1), (2, 3)], [(0, 2), (1, 3)], [(0, 3), (1, 2)]];

/// The pairs of a set of pairings (bit p: pairing p), as a mask over [`PAIRINGS`] flattened
/// (bit `2p + i`: pair i of pairing p).
const PAIRS_OF: [u8; 8] = [0, 0b11, 0b1100, 0b1111, 0b11_0000, 0b11_0011, 0b11_1100, 0b11_1111];

/// The hash of a key: splitmix64's finaliser folded over its words (every bit of every word
/// reaches every bit of the hash).
fn fingerprint(key: &[u64]) -> u64 {
    key.iter().fold(0, |hash, &word| mix(hash ^ word))
}

/// A stage of the relaxation of a position, some of the kinds it probes held (see
/// [`Search::relax_base`]): the relaxed board, the pieces freed (bits, count, their lines),
/// the pairings used, and the pairs left, each with what it waits on on that board.
#[derive(Debug, Default)]
struct Base {
    now: Box<Relaxing>,
    freed_count: usize,
    used: Vec<u8>,
    edges: Vec<Edge>,
}

/// The state of a run of the relaxation ([`Search::can_all_go`]), in arrays of fixed size (an
/// index masked to 63 needs no bounds check; a framed side is at most 62 lines, and
/// [`MAX_SIDE`]² pieces fit in 64 words of bits): the relaxed board, the pieces freed, the rows
/// and the columns (one bit per framed line) of the pieces freed since [`Search::relax_run`]
/// last took them (`freed_lines`) and since the run began (`freed_all`). Made by
/// [`Search::relax_setup`] (or from a [`Base`]), taken over by [`Search::relax_run`].
///
/// The relaxed board is also kept a byte per cell (`open`, the cell at row r and column c at
/// [`cell_index`]): a pair apart is looked at every pass, and its four cells cost a byte each
/// that way ([`Edge::cells`]), against a shift, a load and a shift each in the words. Only
/// its first `cells_used` bytes (the framed rows and the row beyond) are ever set: the rest
/// stays 0, and is neither cleared nor copied. A run's state is boxed and reused
/// ([`Search::relaxings`]): made anew, moved or cloned whole, its bytes cost more than the run.
#[derive(Debug)]
struct Relaxing {
    rows: [u64; 64],
    cols: [u64; 64],
    freed: [u64; 64],
    freed_lines: (u64, u64),
    freed_all: (u64, u64),
    open: [u8; 4096],
    cells_used: usize,
}

impl Clone for Relaxing {
    fn clone(&self) -> Relaxing {
        let mut now = Relaxing::default();
        now.clone_from(self);
        now
    }

    fn clone_from(&mut self, source: &Relaxing) {
        let used = self.cells_used.max(source.cells_used);
        self.rows = source.rows;
        self.cols = source.cols;
        self.freed = source.freed;
        self.freed_lines = source.freed_lines;
        self.freed_all = source.freed_all;
        self.open[..used].copy_from_slice(&source.open[..used]);
        self.cells_used = source.cells_used;
    }
}

impl Default for Relaxing {
    fn default() -> Relaxing {
        Relaxing {
            rows: [0; 64],
            cols: [0; 64],
            freed: [0; 64],
            freed_lines: (0, 0),
            freed_all: (0, 0),
            open: [0; 4096],
            cells_used: 0,
        }
    }
}

/// Where the cell at `row` and `col` (at most 63 each: a framed line, or the first beyond the
/// frame, which is never open) is in [`Relaxing::open`].
fn cell_index(row: u32, col: u32) -> u16 {
    ((row & 63) << 6 | (col & 63)) as u16
}

/// The four cells of a wait apart ([`Bits::wait_on`]) as indices into [`Relaxing::open`].
fn apart_cells((across, down): (u64, u64)) -> [u16; 4] {
    let byte = |word: u64, at: u32| (word >> at & 0xFF) as u32;
    [
        cell_index(byte(across, 0), byte(across, 8)),
        cell_index(byte(across, 16), byte(across, 24)),
        cell_index(byte(down, 8), byte(down, 0)),
        cell_index(byte(down, 24), byte(down, 16)),
    ]
}

impl Relaxing {
    /// Becomes the board `bits`, nothing freed.
    fn reset(&mut self, bits: &Bits) {
        let (height, width) = (bits.rows.len(), bits.cols.len());
        self.rows[..height].copy_from_slice(&bits.rows);
        self.rows[height..].fill(0);
        self.cols[..width].copy_from_slice(&bits.cols);
        self.cols[width..].fill(0);
        self.freed.fill(0);
        (self.freed_lines, self.freed_all) = ((0, 0), (0, 0));
        // The framed rows and the row beyond them.
        let cells = usize::from(cell_index(height as u32, 0)) + 64;
        self.open[..self.cells_used.max(cells)].fill(0);
        self.cells_used = cells;
        for (row, &line) in bits.rows.iter().enumerate() {
            let mut open = line;
            while open != 0 {
                self.open[usize::from(cell_index(row as u32, open.trailing_zeros()))] = 1;
                open &= open - 1;
            }
        }
    }

    /// True when the four cells `cells` ([`apart_cells`]) are all closed: [`Bits::still_apart`]
    /// on the relaxed board.
    #[inline(always)]
    fn still_apart(&self, cells: [u16; 4]) -> bool {
        self.apart_opened(cells) == (false, false)
    }

    /// [`Bits::apart_opened`] on the relaxed board, from the four cells `cells`.
    #[inline(always)]
    fn apart_opened(&self, cells: [u16; 4]) -> (bool, bool) {
        let open = |cell: u16| self.open[usize::from(cell) & 4095];
        (open(cells[0]) | open(cells[1]) != 0, open(cells[2]) | open(cells[3]) != 0)
    }

    #[inline(always)]
    fn is_freed(&self, piece: u16) -> bool {
        self.freed[usize::from(piece >> 6) & 63] >> (piece & 63) & 1 == 1
    }

    /// Frees `piece` at `cell`; 1 when it was not yet.
    #[inline(always)]
    fn free(&mut self, piece: u16, (row, col): Cell) -> usize {
        let word = &mut self.freed[usize::from(piece >> 6) & 63];
        let bit = 1 << (piece & 63);
        if *word & bit != 0 {
            return 0;
        }
        *word |= bit;
        self.open[usize::from(cell_index(row.into(), col.into()))] = 1;
        self.rows[usize::from(row) & 63] |= 1 << col;
        self.cols[usize::from(col) & 63] |= 1 << row;
        self.freed_lines.0 |= 1 << row;
        self.freed_lines.1 |= 1 << col;
        self.freed_all.0 |= 1 << row;
        self.freed_all.1 |= 1 << col;
        1
    }

    /// [`Bits::watch_on`] on the relaxed board.
    #[inline(always)]
    fn joinable_or_watch(&self, a: Cell, b: Cell, max_turns: u32) -> Option<(u64, u64)> {
        Bits::watch_on(&self.rows, &self.cols, a, b, max_turns)
    }

    /// [`Bits::joinable`] on the relaxed board of `height` framed rows, for any turn limit.
    fn joinable(&self, a: Cell, b: Cell, max_turns: u32, height: usize) -> bool {
        Bits::flood_lines(&self.rows[..height], a, b, max_turns)
    }
}

/// A kind's cached mask of joinable pairs ([`Search::pair_mask`]): the epoch and pairings
/// allowed it was found at, and the mask.
type CachedMask = (u64, u8, u8);

/// What each pair of a kind's cached mask waits on ([`Search::pair_watch`]).
type PairWatch = [(u64, u64); 6];

/// The state of a search. Pieces are numbered in reading order, kinds densely in order of first
/// appearance.
struct Search {
    bits: Bits,
    max_turns: u32,
    budget: u64,
    positions: u64,
    /// The cell of every piece now.
    cell: Vec<Cell>,
    /// The kind of every piece.
    kind: Vec<u32>,
    /// The pieces of kind k: `members[start[k]..start[k + 1]]`, in reading order.
    members: Vec<u16>,
    start: Vec<usize>,
    /// Pieces of each kind on the board.
    left: Vec<u32>,
    /// The first four pieces of each kind on the board, in reading order ([`Search::live`]):
    /// looked up for every kind at every position (a few times), changed only by removals.
    live_of: Vec<[u16; 4]>,
    /// Pieces on the board, total.
    total_left: usize,
    /// One bit per piece on the board.
    present: Vec<u64>,
    /// Pairings allowed to each kind; [`ALL_PAIRINGS`] unless the kind has four pieces left.
    allowed: Vec<u8>,
    /// The pieces of column c, top to bottom: `column[column_start[c]..column_start[c + 1]]`
    /// (framed columns; for gravity).
    column: Vec<u16>,
    column_start: Vec<usize>,
    /// The row of every piece on the board as given.
    home_row: Vec<u8>,
    /// Rows of the board.
    board_rows: u8,
    /// The removals made, in order.
    order: Vec<Step>,
    /// Constraint branches taken: the kind and its pairings before.
    trail: Vec<(u32, u8)>,
    /// The branches of every position on the search path, one slice per position.
    branches: Vec<Branch>,
    /// The key of the current position, rebuilt by [`Search::key`].
    key: Vec<u64>,
    memo: Table,
    /// Try every branch before choosing (see [`Search::plain_branches`]).
    probe: bool,
    /// Positions the search without probing proved hopeless (see [`PROBE_AFTER_HOPELESS`]).
    hopeless_found: u64,
    /// The order [`Search::plain_branches`] looks at kinds in (of kinds with as few branches,
    /// the first is taken): reading order of first pieces at the start; while probing, a kind
    /// with a branch that fails is moved to its front (see [`Search::plain_branches`]), and
    /// each round starts from the order the rounds before left.
    kind_order: Vec<u32>,
    /// The removals of the kind branched on are tried rotated left by this (modulo their
    /// count) before the one the position's proof carries over to is put first.
    branch_turn: u64,

    /// The board's identity: a new number at every removal ([`Search::next_epoch`]), the one
    /// before restored at its undo. Invariant: two states with the same epoch have the same
    /// pieces on the same cells, so a mask cached at an epoch holds whenever it is current.
    epoch: u64,
    /// The next epoch to give out (epochs are never reused).
    next_epoch: u64,
    /// Per kind: the epoch and pairings allowed when its joinable pairs were found, and the
    /// mask found (see [`Search::pair_mask`]).
    pair_cache: Vec<CachedMask>,
    /// Per kind, with `pair_cache`: for each pair of the mask (its bit) not joinable, the rows
    /// and the columns (masks) a cell must open on before it can be, or, for a pair apart,
    /// the four cells one of which must open ([`Bits::wait_on`]; all lines for other turn
    /// limits). It holds on any board that only opened cells since, so a mask brought up to
    /// date rechecks only the pairs whose wait a cell emptied since ends.
    pair_watch: Vec<PairWatch>,
    /// The masks that caching a new one replaced below the first removal, each with its kind
    /// and watch: undoing a removal puts back the masks of the board before it, which the
    /// positions after the next removal from that board bring up to date.
    cache_trail: Vec<(usize, CachedMask, PairWatch)>,
    /// Masks found now are not cached (set while a probe looks at a child position, so the
    /// masks of the position probed from stay cached for its other children).
    scratch: bool,
    /// Pieces fall (the masks are then never derived from an earlier board's).
    gravity: bool,
    /// The pieces the last run of [`Search::relax_run`] freed (one bit per piece).
    freed: Vec<u64>,
    /// The states of runs of the relaxation not in use, to run the next ones in (see
    /// [`Relaxing`]).
    relaxings: Vec<Box<Relaxing>>,
    /// Scratch for [`Search::can_all_go`]: the pairs that may still free a piece, each with
    /// the rows and columns (masks) it waits on.
    edges: Vec<Edge>,
    /// What [`Search::can_all_go`] last found true used, per kind: the pairings (bit p) of the
    /// pairs that freed its pieces (see [`Search::inherits`]).
    used: Vec<u8>,
    /// Saved copies of `used` (one per position on the search path that holds a proof).
    used_stack: Vec<u8>,
    /// The proofs (`used` of each) that the probes of the positions on the search path found,
    /// for the branches taken to inherit.
    proofs: Vec<u8>,
    /// The probes of the positions on the search path that found a proof: the branch and
    /// where its proof lies in `proofs` (see [`Search::probe`]).
    probe_log: Vec<(Branch, u32)>,
    /// The probes of the positions on the search path that failed: the branch and where the
    /// pieces its relaxation could not free lie in `stuck` (one bit per piece, see
    /// [`Search::still_refuted`]).
    refuted_log: Vec<(Branch, u32)>,
    stuck: Vec<u64>,
    /// Where the last failed probe left its pieces in `stuck`.
    last_stuck: u32,
    /// Pieces freed by the last run of [`Search::relax_run`].
    freed_count: usize,
    /// Per kind: the pairings (bits) [`Search::relax_run`] may not use (0 but while a base is
    /// found or a probe runs from it).
    blocked: Vec<u8>,
    /// The relaxations of the position probed from that the probes of each kind run on from
    /// ([`Search::relax_base`]): `bases[i]` for kind `base_kinds[i]`, found at the position
    /// numbered `bases_at` (the count of positions when it was entered; 0: none).
    bases: Vec<Base>,
    base_kinds: Vec<usize>,
    bases_at: u64,
    /// With gravity: the column tops and the key of the board, kept up to date by
    /// [`Search::settle_pieces`] (see [`gravity`]).
    columns: gravity::Columns,
}

impl Search {
    fn new(board: &Board, settings: Settings) -> Search {
        let mut kind_index: FxHashMap<Kind, u32> = FxHashMap::default();
        let (mut cell, mut kind) = (Vec::new(), Vec::new());
        for row in 0..board.rows() {
            for col in 0..board.cols() {
                let here = board[Pos::new(row, col)];
                if here != EMPTY {
                    let next = kind_index.len() as u32;
                    kind.push(*kind_index.entry(here).or_insert(next));
                    cell.push(((row + 1) as u8, (col + 1) as u8));
                }
            }
        }
        let kinds = kind_index.len();
        let mut left = vec![0u32; kinds];
        for &k in &kind {
            left[k as usize] += 1;
        }
        let mut start = vec![0; kinds + 1];
        for k in 0..kinds {
            start[k + 1] = start[k] + left[k] as usize;
        }
        let mut members = vec![0u16; kind.len()];
        let mut fill = start.clone();
        for (piece, &k) in kind.iter().enumerate() {
            members[fill[k as usize]] = piece as u16;
            fill[k as usize] += 1;
        }
        let width = board.cols() + 2;
        let mut column_start = vec![0; width + 1];
        for &(_, col) in &cell {
            column_start[col as usize + 1] += 1;
        }
        for col in 0..width {
            column_start[col + 1] += column_start[col];
        }
        let mut column = vec![0u16; cell.len()];
        let mut fill = column_start.clone();
        // Reading order puts each column's pieces top to bottom.
        for (piece, &(_, col)) in cell.iter().enumerate() {
            column[fill[col as usize]] = piece as u16;
            fill[col as usize] += 1;
        }
        // Every piece is on the board.
        let live_of = (0..kinds)
            .map(|k| {
                let mut live = [0; 4];
                for (slot, &piece) in live.iter_mut().zip(&members[start[k]..start[k + 1]]) {
                    *slot = piece;
                }
                live
            })
            .collect();
        let pieces = cell.len();
        let piece_words = pieces.div_ceil(64);
        let mut present = vec![0u64; piece_words];
        for piece in 0..cell.len() {
            present[piece / 64] |= 1 << (piece % 64);
        }
        Search {
            bits: Bits::new(board, settings.rules.outside),
            max_turns: settings.rules.max_turns,
            budget: settings.budget,
            positions: 0,
            home_row: cell.iter().map(|&(row, _)| row).collect(),
            total_left: cell.len(),
            cell,
            kind,
            members,
            live_of,
            start,
            left,
            present,
            allowed: vec![ALL_PAIRINGS; kinds],
            column,
            column_start,
            board_rows: board.rows() as u8,
            order: Vec::new(),
            trail: Vec::new(),
            branches: Vec::new(),
            key: Vec::new(),
            memo: Table::new(MEMO_WORDS),
            probe: true,
            hopeless_found: 0,
            kind_order: (0..kinds as u32).collect(),
            branch_turn: 0,
            epoch: 1,
            next_epoch: 2,
            scratch: false,
            gravity: settings.gravity,
            pair_cache: vec![(0, 0, 0); kinds],
            pair_watch: vec![[WATCH_ALL; 6]; kinds],
            // Grown by doubling it would copy most of what it ever holds, entries of a hundred
            // bytes and more (a mask for each kind at each removal down the search path).
            cache_trail: Vec::with_capacity(if settings.gravity { 0 } else { kinds * pieces / 2 }),
            freed: vec![0; piece_words],
            relaxings: Vec::new(),
            edges: Vec::new(),
            used: Vec::new(),
            used_stack: Vec::new(),
            proofs: Vec::new(),
            probe_log: Vec::new(),
            refuted_log: Vec::new(),
            stuck: Vec::new(),
            last_stuck: 0,
            freed_count: 0,
            blocked: vec![0; kinds],
            bases: Vec::new(),
            base_kinds: Vec::new(),
            bases_at: 0,
            columns: gravity::Columns::default(),
        }
    }

    fn is_present(&self, piece: u16) -> bool {
        self.present[piece as usize / 64] >> (piece % 64) & 1 == 1
    }

    /// The pieces of kind `k` on the board, in reading order, into `out` (the first four, when
    /// more are left); returns how many. Without gravity (kept by [`Search::remove`] and
    /// [`Search::undo`]).
    fn live(&self, k: usize, out: &mut [u16; 4]) -> usize {
        debug_assert!(!self.gravity, "the pieces left of a kind are kept without gravity");
        debug_assert_eq!(self.live_of[k], self.find_live(k).0, "the pieces left of a kind are out of date");
        *out = self.live_of[k];
        self.left[k] as usize
    }

    /// [`Search::live`] from the pieces on the board, and how many.
    fn find_live(&self, k: usize) -> ([u16; 4], usize) {
        let (mut out, mut count) = ([0; 4], 0);
        for &piece in &self.members[self.start[k]..self.start[k + 1]] {
            if self.is_present(piece) {
                if count < 4 {
                    out[count] = piece;
                }
                count += 1;
            }
        }
        (out, count)
    }

    fn joinable(&self, a: u16, b: u16) -> bool {
        self.bits.joinable(self.cell[a as usize], self.cell[b as usize], self.max_turns)
    }

    /// Checks the budget for one more position.
    fn count_position(&mut self) -> Result<(), OutOfBudget> {
        if self.positions >= self.budget {
            return Err(OutOfBudget);
        }
        self.positions += 1;
        Ok(())
    }

    /// The pieces on the board and the pairings allowed to kinds of four, into `self.key`.
    fn key(&mut self) {
        self.key.clear();
        self.key.extend_from_slice(&self.present);
        let mut word = 0u64;
        let mut used = 0;
        for &allowed in &self.allowed {
            if used == 63 {
                self.key.push(word);
                (word, used) = (0, 0);
            }
            word |= u64::from(allowed) << used;
            used += 3;
        }
        self.key.push(word);
    }

    /// Removes pieces `a` and `b` (of one kind, joinable now).
    fn remove(&mut self, a: u16, b: u16, gravity: bool) {
        let k = self.kind[a as usize] as usize;
        let step = Step {
            pieces: [a, b],
            at: [self.cell[a as usize], self.cell[b as usize]],
            allowed_before: self.allowed[k],
            epoch_before: self.epoch,
            cache_mark: self.cache_trail.len(),
        };
        self.order.push(step);
        self.epoch = self.next_epoch;
        self.next_epoch += 1;
        self.left[k] -= 2;
        self.total_left -= 2;
        self.allowed[k] = ALL_PAIRINGS;
        for piece in [a, b] {
            self.present[piece as usize / 64] &= !(1 << (piece % 64));
        }
        if !gravity {
            self.live_of[k] = self.find_live(k).0;
        }
        self.update_board(step.pieces, step.at, gravity, true);
    }

    /// Brings the bits up to date after `pieces`, on `cells` when removed, were taken away
    /// (`emptied`) or put back: with gravity their columns are laid out again, else the two
    /// cells flip. (Inlined, with the layout kept out of line: without gravity it is two bit
    /// flips, which a call would cost more than.)
    #[inline(always)]
    fn update_board(&mut self, pieces: [u16; 2], cells: [Cell; 2], gravity: bool, emptied: bool) {
        if gravity {
            self.settle_pieces(pieces, cells);
        } else {
            for at in cells {
                self.bits.set(at, emptied);
            }
        }
    }

    /// Puts back the last removal.
    fn undo(&mut self, gravity: bool) {
        let step = self.order.pop().expect("a removal to undo");
        while self.cache_trail.len() > step.cache_mark {
            let (k, cache, watch) = self.cache_trail.pop().expect("a mask cached below");
            self.pair_cache[k] = cache;
            self.pair_watch[k] = watch;
        }
        let [a, b] = step.pieces;
        let k = self.kind[a as usize] as usize;
        self.epoch = step.epoch_before;
        self.left[k] += 2;
        self.total_left += 2;
        self.allowed[k] = step.allowed_before;
        for piece in [a, b] {
            self.present[piece as usize / 64] |= 1 << (piece % 64);
        }
        if !gravity {
            self.live_of[k] = self.find_live(k).0;
        }
        self.update_board(step.pieces, step.at, gravity, false);
    }

    /// Undoes removals and constraints back to the marks.
    fn undo_to(&mut self, order_mark: usize, trail_mark: usize, gravity: bool) {
        while self.order.len() > order_mark {
            self.undo(gravity);
        }
        while self.trail.len() > trail_mark {
            let (k, before) = self.trail.pop().expect("a constraint to undo");
            self.allowed[k as usize] = before;
        }
    }

    /// The joinable pairs of kind `k` (two or four pieces left) among the allowed pairings, as
    /// a mask over [`PAIRINGS`] flattened (bit `2p + i`: pair i of pairing p; a kind of two
    /// uses bit 0), from the cache when nothing was removed or put back since. When the mask
    /// cached was found a few removals up the search path (and kind `k` lost no piece since),
    /// it is brought up to date instead of found again: without gravity a removal only opens
    /// cells, so a joinable pair stays joinable, and a pair that was not can only become
    /// joinable if a cell emptied since lies on one of the lines its last check named, or
    /// is one of the four cells it waits on when apart (`pair_watch`, [`Bits::wait_on`]; at
    /// most two turns). Constraints only take pairings away, so a mask cached
    /// with more pairings allowed holds for the ones left.
    #[inline(always)]
    fn pair_mask(&mut self, k: usize, live: [u16; 4]) -> u8 {
        let (epoch, cached_allowed, cached) = self.pair_cache[k];
        if epoch == self.epoch && cached_allowed == self.allowed[k] {
            return cached;
        }
        self.pair_mask_again(k, live)
    }

    /// [`Search::pair_mask`] when the cache does not hold it as it is (inlined, the look at
    /// the cache costs less than a call, and most looks find it).
    #[inline(never)]
    fn pair_mask_again(&mut self, k: usize, live: [u16; 4]) -> u8 {
        let allowed = self.allowed[k];
        let (epoch, cached_allowed, cached) = self.pair_cache[k];
        let mut watch = [WATCH_ALL; 6];
        let mask = match self.removals_since(epoch, k) {
            Some(from) if allowed & !cached_allowed == 0 => {
                watch = self.pair_watch[k];
                let mask = self.update_mask(k, live, cached, from, &mut watch);
                debug_assert_eq!(
                    mask,
                    self.find_mask(k, live, &mut [WATCH_ALL; 6]),
                    "a mask brought up to date by the watches differs from one found again"
                );
                mask
            }
            _ => self.find_mask(k, live, &mut watch),
        };
        if !self.scratch {
            if !self.order.is_empty() {
                self.cache_trail.push((k, self.pair_cache[k], self.pair_watch[k]));
            }
            self.pair_cache[k] = (self.epoch, allowed, mask);
            self.pair_watch[k] = watch;
        }
        mask
    }

    /// For at most two turns: `None` when pieces `a` and `b` can be joined now, else what they
    /// wait on ([`Bits::watch_on`]); for other turn limits, every line. `a` comes before `b`
    /// (pieces are numbered in reading order, and without gravity they stay where they are).
    fn joinable_or_watch(&self, a: u16, b: u16) -> Option<(u64, u64)> {
        debug_assert!(a < b && !self.gravity, "a pair out of reading order");
        let (at_a, at_b) = (self.cell[a as usize], self.cell[b as usize]);
        if self.max_turns <= 2 {
            Bits::wait_on_sorted(&self.bits.rows, &self.bits.cols, at_a, at_b, self.max_turns)
        } else {
            (!self.bits.joinable(at_a, at_b, self.max_turns)).then_some(WATCH_ALL)
        }
    }

    /// The index in `order` of the first removal made since the board of `epoch`, when that
    /// board is at most [`DERIVE_DEPTH`] removals up the search path, none of them of kind `k`,
    /// and masks may be derived (no gravity, at most two turns).
    fn removals_since(&self, epoch: u64, k: usize) -> Option<usize> {
        if self.gravity || self.max_turns > 2 {
            return None;
        }
        if epoch == self.epoch {
            return Some(self.order.len());
        }
        let lowest = self.order.len().saturating_sub(DERIVE_DEPTH);
        let from = (lowest..self.order.len()).rev().find(|&index| self.order[index].epoch_before == epoch)?;
        let untouched =
            self.order[from..].iter().all(|step| self.kind[step.pieces[0] as usize] as usize != k);
        untouched.then_some(from)
    }

    /// The pairs of the allowed pairings of kind `k` (two or four left), as a mask like that of
    /// [`Search::pair_mask`] (a pair's bit `2p + i` names its indices into the kind's live
    /// pieces, [`PAIRINGS`] flattened).
    fn allowed_pairs(&self, k: usize) -> u8 {
        if self.left[k] == 2 { 1 } else { PAIRS_OF[usize::from(self.allowed[k] & ALL_PAIRINGS)] }
    }

    /// The mask of [`Search::pair_mask`], every pair checked; what each pair not joinable
    /// waits on into `watch`.
    fn find_mask(&self, k: usize, live: [u16; 4], watch: &mut [(u64, u64); 6]) -> u8 {
        let mut mask = 0;
        let mut pairs = self.allowed_pairs(k);
        while pairs != 0 {
            let bit = pairs.trailing_zeros() as usize;
            pairs &= pairs - 1;
            let (x, y) = PAIRINGS.as_flattened()[bit];
            match self.joinable_or_watch(live[x], live[y]) {
                None => mask |= 1 << bit,
                Some(waits) => watch[bit] = waits,
            }
        }
        mask
    }

    /// The mask of [`Search::pair_mask`] from `cached` and `watch`, found on the board before
    /// the removals `order[from..]` (none of kind `k`) with at least the pairings allowed now;
    /// `watch` is brought up to date with it.
    fn update_mask(
        &self,
        k: usize,
        live: [u16; 4],
        cached: u8,
        from: usize,
        watch: &mut [(u64, u64); 6],
    ) -> u8 {
        let allowed = self.allowed_pairs(k);
        // A pair joinable stays joinable.
        let mut mask = cached & allowed;
        // The rows and the columns of the cells emptied since.
        let (rows, cols) = self.order[from..]
            .iter()
            .flat_map(|step| step.at)
            .fold((0u64, 0u64), |(rows, cols), (row, col)| (rows | 1 << row, cols | 1 << col));
        let mut pairs = allowed & !cached;
        while pairs != 0 {
            let bit = pairs.trailing_zeros() as usize;
            pairs &= pairs - 1;
            let (wait_rows, wait_cols) = watch[bit];
            let touched = if is_apart(watch[bit]) {
                !Bits::still_apart(&self.bits.rows, &self.bits.cols, watch[bit])
            } else {
                rows & wait_rows != 0 || cols & wait_cols != 0
            };
            if touched {
                let (x, y) = PAIRINGS.as_flattened()[bit];
                match self.joinable_or_watch(live[x], live[y]) {
                    None => mask |= 1 << bit,
                    Some(waits) => watch[bit] = waits,
                }
            }
        }
        mask
    }

    /// True when pieces `c` and `d` can be joined once `a` and `b` are gone (tried on the
    /// bits, with no removal made).
    fn joinable_after(&mut self, (a, b): (u16, u16), (c, d): (u16, u16)) -> bool {
        let cells = [self.cell[a as usize], self.cell[b as usize]];
        for cell in cells {
            self.bits.set(cell, true);
        }
        let joinable = self.joinable(c, d);
        for cell in cells {
            self.bits.set(cell, false);
        }
        joinable
    }

    /// Applies safe moves until none is left (no gravity; see the module documentation).
    fn close(&mut self) {
        let mut live = [0u16; 4];
        loop {
            let mut changed = false;
            for k in 0..self.left.len() {
                match self.left[k] {
                    0 => {}
                    2 => {
                        self.live(k, &mut live);
                        if self.pair_mask(k, live) != 0 {
                            self.remove(live[0], live[1], false);
                            changed = true;
                        }
                    }
                    4 => changed |= self.clear_four(k),
                    _ => changed |= self.clear_many(k),
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Removes all four pieces of kind `k` when an allowed pairing's two pairs can be removed
    /// one after the other now, or one pair when only one pairing is allowed and that pair can
    /// be removed. True when something was removed.
    fn clear_four(&mut self, k: usize) -> bool {
        let mut live = [0u16; 4];
        self.live(k, &mut live);
        let mask = self.pair_mask(k, live);
        if mask == 0 {
            return false;
        }
        let forced = self.allowed[k].is_power_of_two();
        for (pairing, pairs) in PAIRINGS.iter().enumerate() {
            let bits = mask >> (2 * pairing) & 0b11;
            if bits == 0 {
                continue;
            }
            let [first, second] = pairs.map(|(x, y)| (live[x], live[y]));
            let (now, then) = if bits & 1 == 1 { (first, second) } else { (second, first) };
            if bits == 0b11 || forced || self.joinable_after(now, then) {
                self.remove(now.0, now.1, false);
                if bits == 0b11 || !forced || self.joinable(then.0, then.1) {
                    self.remove(then.0, then.1, false);
                }
                return true;
            }
        }
        false
    }

    /// Removes every piece of kind `k` (six or more left) when pairs of it removable one after
    /// the other, taken greedily, clear the kind. True when they did.
    fn clear_many(&mut self, k: usize) -> bool {
        self.clear_many_with(k, false)
    }

    /// [`Search::clear_many`] for any count, with or without gravity.
    fn clear_many_with(&mut self, k: usize, gravity: bool) -> bool {
        let mark = self.order.len();
        loop {
            let Some((a, b)) = self.present_pairs(k).find(|&(a, b)| self.joinable(a, b)) else { break };
            self.remove(a, b, gravity);
        }
        if self.left[k] == 0 {
            return true;
        }
        while self.order.len() > mark {
            self.undo(gravity);
        }
        false
    }

    /// Every pair of pieces of kind `k` on the board, in reading order.
    fn present_pairs(&self, k: usize) -> impl Iterator<Item = (u16, u16)> + '_ {
        let members = &self.members[self.start[k]..self.start[k + 1]];
        members.iter().enumerate().filter(|&(_, &a)| self.is_present(a)).flat_map(move |(index, &a)| {
            members[index + 1..].iter().filter(|&&b| self.is_present(b)).map(move |&b| (a, b))
        })
    }

    /// A necessary condition for clearing (no gravity): every piece on the board can be
    /// *freed*, where a piece is freed when a line joins it to a partner it may still pair with
    /// (kinds of four: within an allowed pairing; two: the other) on the board with every piece
    /// freed so far taken away. In a clearing order, each removal's pieces are joined on a board
    /// holding at least the pieces not freed, so by induction every piece removed is freed; a
    /// piece that is not can never go. Call after [`Search::close`] (the pair masks are fresh).
    ///
    ///
    /// The relaxed board only ever opens cells, so (at most two turns) a pair not joinable on
    /// it can only become joinable once a cell opens in one of the rows or columns its last
    /// check named ([`Bits::watch_on`]): each pass rechecks only the pairs with a piece
    /// freed since on such a line (in the previous pass or this one so far). The pairs of kinds
    /// of two or four are known not to be joinable on the board itself (their masks), so they
    /// start watching what their masks' last check named (`pair_watch`; while a probe looks at
    /// a child, whose masks are not cached, the rows between their pieces' rows and the columns
    /// between their columns, where every line of either shape lies); pairs of larger kinds
    /// watch all. A pair whose ends' runs meet neither along the rows nor along the columns
    /// (most pairs checked) waits instead on the four cells just beyond those runs' facing
    /// ends: a run grows only when the cell next to its end opens, and until the runs meet
    /// no line of either shape joins the pair ([`Bits::wait_on`]). A pair whose wait holds is
    /// kept at the top of a pass without looking at its pieces or kind: it frees nothing, and
    /// its wait stays up to date (debug builds check it is not joinable).
    fn can_all_go(&mut self) -> bool {
        let mut now = self.relaxings.pop().unwrap_or_default();
        now.reset(&self.bits);
        let (edges, freed_count) = self.relax_setup(false, &mut now);
        let alive = self.relax_run(&mut now, edges, freed_count, self.total_left);
        self.relaxings.push(now);
        alive
    }

    /// The start of [`Search::can_all_go`]: frees in `now` (the board, nothing freed) the
    /// pieces freed at once, and returns the pairs that may free more and the pieces freed.
    /// With `hold`, the kinds of four with a pair removable now (the kinds
    /// [`Search::plain_branches`] probes) free nothing: all their allowed pairs wait, and they
    /// are blocked (see [`Search::relax_base`]).
    fn relax_setup(&mut self, hold: bool, now: &mut Relaxing) -> (Vec<Edge>, usize) {
        self.used.clear();
        self.used.resize(self.left.len(), 0);
        let mut edges = std::mem::take(&mut self.edges);
        edges.clear();
        let mut freed_count = 0;
        let mut live = [0u16; 4];
        let banded = self.max_turns <= 2;
        // What a pair not joinable on the board waits on: the watch its mask found, when the
        // cache holds it (not while a probe looks at a child), else every row between its
        // pieces' rows and every column between their columns (every line of either shape
        // lies there).
        let cached_watch = !self.scratch;
        let watch_between = |a: Cell, b: Cell| {
            if banded {
                let rows = span(u32::from(a.0.min(b.0)), u32::from(a.0.max(b.0)));
                let cols = span(u32::from(a.1.min(b.1)), u32::from(a.1.max(b.1)));
                (rows, cols)
            } else {
                WATCH_ALL
            }
        };
        // The pairs that may free pieces. Of a kind of four, the pairs joinable now of one
        // pairing (both of its pairs when some pairing has both) free theirs at once, and the
        // kind's other pairs wait in the order of that pairing first, so that a kind is freed by
        // one pairing when the board allows (see `Search::inherits`).
        for k in 0..self.left.len() {
            let count = self.left[k] as usize;
            if count == 0 {
                continue;
            }
            if count > 4 {
                let cell = &self.cell;
                let pairs = self.present_pairs(k).map(|(a, b)| Edge {
                    a,
                    b,
                    kind: k as u16,
                    at: [cell[a as usize], cell[b as usize]],
                    pairing: MANY,
                    joined: false,
                    stale: false,
                    watch: WATCH_ALL,
                    cells: [0; 4],
                });
                edges.extend(pairs);
                continue;
            }
            self.live(k, &mut live);
            let at = live.map(|piece| self.cell[usize::from(piece)]);
            let known = self.pair_mask(k, live);
            if count == 2 {
                if known & 1 == 1 {
                    freed_count += now.free(live[0], at[0]) + now.free(live[1], at[1]);
                } else {
                    let watch =
                        if cached_watch { self.pair_watch[k][0] } else { watch_between(at[0], at[1]) };
                    edges.push(Edge {
                        a: live[0],
                        b: live[1],
                        kind: k as u16,
                        at: [at[0], at[1]],
                        pairing: 0,
                        joined: false,
                        stale: false,
                        watch,
                        cells: if is_apart(watch) { apart_cells(watch) } else { [0; 4] },
                    });
                }
                continue;
            }
            let allowed = self.allowed[k];
            // A kind held frees nothing at once: all its allowed pairs wait.
            let held = hold && known != 0;
            if held {
                self.blocked[k] = ALL_PAIRINGS;
            }
            // Bit 2p for each allowed pairing p with both its pairs joinable, and with either.
            let allowed_bits = PAIRS_OF[usize::from(allowed & ALL_PAIRINGS)] & 0b01_0101;
            let (both, either) = (known & known >> 1 & allowed_bits, (known | known >> 1) & allowed_bits);
            let primary = if held {
                None
            } else {
                let found = if both != 0 { both } else { either };
                (found != 0).then(|| found.trailing_zeros() as usize / 2)
            };
            let order = match primary {
                Some(1) => [1, 0, 2],
                Some(2) => [2, 0, 1],
                _ => [0, 1, 2],
            };
            for pairing in order {
                if allowed >> pairing & 1 == 0 {
                    continue;
                }
                for (index, &(x, y)) in PAIRINGS[pairing].iter().enumerate() {
                    let joined = known >> (2 * pairing + index) & 1 == 1;
                    if joined && primary == Some(pairing) {
                        freed_count += now.free(live[x], at[x]) + now.free(live[y], at[y]);
                        self.used[k] |= 1 << pairing;
                    } else {
                        let watch = if joined {
                            (0, 0)
                        } else if cached_watch {
                            self.pair_watch[k][2 * pairing + index]
                        } else {
                            watch_between(at[x], at[y])
                        };
                        edges.push(Edge {
                            a: live[x],
                            b: live[y],
                            kind: k as u16,
                            at: [at[x], at[y]],
                            pairing: 1 << pairing,
                            joined,
                            stale: false,
                            watch,
                            cells: if is_apart(watch) { apart_cells(watch) } else { [0; 4] },
                        });
                    }
                }
            }
        }
        if edges.iter().any(|edge| edge.watch == WATCH_ALL) {
            // Pairs never checked yet: the first pass checks every pair.
            now.freed_lines = WATCH_ALL;
        }
        (edges, freed_count)
    }

    /// The passes of [`Search::can_all_go`] on `run` from `edges` and `freed_count` pieces
    /// freed, until `target` pieces are freed (true) or a pass frees nothing more (false); `run`
    /// is left as the passes leave it, the pieces freed also in `freed`. A pair of a pairing
    /// its kind has in `blocked` frees nothing; it waits, unchecked.
    fn relax_run(
        &mut self,
        run: &mut Relaxing,
        mut edges: Vec<Edge>,
        mut freed_count: usize,
        target: usize,
    ) -> bool {
        let now = run;
        let banded = self.max_turns <= 2;
        // Without probing, two stages: in the first, a kind of four frees its pieces only by
        // the pairing that freed its first ones, so that proofs use one pairing per kind where
        // they can and the branch of that pairing inherits them (see `Search::inherits`); the
        // other pairs wait, and in the second stage, which starts when the first frees nothing
        // more, every pair counts. Either way the pieces freed at the end are the same (the
        // least fixpoint), so the verdict is. While probing, the stages cost more line checks
        // than the proofs they shape save, so every pair counts at once.
        let mut mixing = self.probe;
        loop {
            let before = freed_count;
            // Rows and columns (bit per framed line) of the pieces freed since the last pass
            // began, and of those freed in this pass so far.
            let previous = std::mem::take(&mut now.freed_lines);
            let mut kept = 0;
            for index in 0..edges.len() {
                // The pair is looked at in place, and moved down only when kept behind a gap.
                let edge = &mut edges[index];
                let idle = if is_apart(edge.watch) {
                    debug_assert_eq!(
                        now.still_apart(edge.cells),
                        Bits::still_apart(&now.rows, &now.cols, edge.watch)
                    );
                    now.still_apart(edge.cells)
                } else {
                    !edge.joined
                        && !edge.stale
                        && (previous.0 | now.freed_lines.0) & edge.watch.0 == 0
                        && (previous.1 | now.freed_lines.1) & edge.watch.1 == 0
                };
                if idle {
                    // Not joinable, whatever its kind may use: its wait holds (no cell opened
                    // on what it waits on since its last check, or it is apart and its four
                    // cells are closed). Kept as it is without a look at its pieces (when both
                    // are freed it is dropped once it is looked at; it frees nothing
                    // meanwhile). Waiting or not, its wait stays up to date.
                    debug_assert!(now.joinable_or_watch(edge.at[0], edge.at[1], self.max_turns).is_some());
                    if kept != index {
                        edges[kept] = edges[index];
                    }
                    kept += 1;
                    continue;
                }
                let (a, b) = (edge.a, edge.b);
                if now.is_freed(a) && now.is_freed(b) {
                    continue;
                }
                let k = edge.kind as usize;
                let used = self.used[k];
                let waits = self.blocked[k] & edge.pairing != 0
                    || !mixing && edge.pairing & ALL_PAIRINGS != 0 && used != 0 && used != edge.pairing;
                let joined = if waits {
                    // Blocked, or waiting for the second stage: checked, once it may free,
                    // against every line freed.
                    edge.stale = true;
                    false
                } else {
                    edge.joined || {
                        let since = if edge.stale { now.freed_all } else { previous };
                        edge.stale = false;
                        // A pair apart waits on four cells of the relaxed board as it is now,
                        // whatever was freed since; others on the lines freed since.
                        // (A pair apart that gets here is no longer: one of its cells opened.)
                        let recheck = is_apart(edge.watch) || {
                            (since.0 | now.freed_lines.0) & edge.watch.0 != 0
                                || (since.1 | now.freed_lines.1) & edge.watch.1 != 0
                        };
                        debug_assert!(
                            recheck
                                || !banded
                                || now.joinable_or_watch(edge.at[0], edge.at[1], self.max_turns).is_some(),
                            "a pair left unchecked is joinable"
                        );
                        let wait = if !recheck {
                            Some(edge.watch)
                        } else if is_apart(edge.watch) {
                            // The shape along lines with both cells still closed is as it was.
                            let ends = (edge.at[0], edge.at[1]);
                            let opened = now.apart_opened(edge.cells);
                            debug_assert_eq!(opened, Bits::apart_opened(&now.rows, &now.cols, edge.watch));
                            Bits::rewait_apart(&now.rows, &now.cols, ends, self.max_turns, edge.watch, opened)
                        } else if banded {
                            Bits::wait_on_sorted(&now.rows, &now.cols, edge.at[0], edge.at[1], self.max_turns)
                        } else {
                            (!now.joinable(edge.at[0], edge.at[1], self.max_turns, self.bits.rows.len()))
                                .then_some(WATCH_ALL)
                        };
                        match wait {
                            None => true,
                            Some(watch) => {
                                edge.watch = watch;
                                if is_apart(watch) {
                                    edge.cells = apart_cells(watch);
                                }
                                false
                            }
                        }
                    }
                };
                if joined {
                    let (pairing, at) = (edge.pairing, edge.at);
                    freed_count += now.free(a, at[0]) + now.free(b, at[1]);
                    self.used[k] |= pairing;
                    if freed_count == target {
                        // Every piece is freed: the pairs not looked at yet would all be
                        // dropped (both their pieces freed), as the pass would drop them.
                        break;
                    }
                } else {
                    if kept != index {
                        edges[kept] = edges[index];
                    }
                    kept += 1;
                }
            }
            edges.truncate(kept);
            if freed_count == target {
                break;
            }
            if freed_count == before {
                if mixing {
                    break;
                }
                mixing = true;
            }
        }
        let words = self.freed.len();
        self.freed.copy_from_slice(&now.freed[..words]);
        self.edges = edges;
        self.freed_count = freed_count;
        freed_count == target
    }

    /// The relaxation of the current position in stages, into `bases`, for the probes of the
    /// position to run on from ([`Search::relax_from_base`]) rather than from scratch: every
    /// kind of four with a pair removable now (the kinds [`Search::plain_branches`] probes) is
    /// held at first (none of its pieces freed, its pairs waiting); the run goes on until a
    /// pass frees nothing, the state is kept as the base of one held kind, that kind is let go,
    /// and so on, the kinds in the reverse of the order they are probed in (the first probed,
    /// most often the only ones, get the bases with the most freed). Computed at the first
    /// probe that runs at a position (a position's own run stays [`Search::can_all_go`]: its
    /// proof shapes the branches below, and the order of this one made set (c') search more).
    ///
    /// Why a probe may run on from its kind's base: a probed branch changes the position only
    /// in its own kind k (a removal takes k's pair away and leaves its other two pieces only
    /// each other; a constraint leaves k fewer pairings) and by opening cells. Up to k's base
    /// the run used no pair of k (k was held) and only pairs the position allows, so after the
    /// branch each of those pairs may still be used and is still joinable at its turn, on a
    /// board with at least the same cells open: by induction along the run, the relaxation
    /// after the branch frees every piece the base freed. The pieces it frees are a least
    /// fixpoint (the same whatever order the pairs fire in), so running on from the base, with
    /// the branch's cells opened, the kinds held after k let go and k allowed only what the
    /// branch leaves it, frees exactly what a run from scratch frees. Each pair left in the
    /// base waits on lines of the base's board (a pass that frees nothing leaves every wait up
    /// to date); the branch's cells are then named as freed lines, and the pairs that were held
    /// are checked against every line freed since the start (stale), so every pair whose wait
    /// could end is checked again. Debug builds run both and check they free the same pieces.
    fn relax_base(&mut self) {
        let mut now = self.relaxings.pop().unwrap_or_default();
        now.reset(&self.bits);
        let (mut edges, mut freed_count) = self.relax_setup(true, &mut now);
        self.base_kinds.clear();
        for index in (0..self.kind_order.len()).rev() {
            let k = self.kind_order[index] as usize;
            if self.blocked[k] == 0 {
                continue;
            }
            self.relax_run(&mut now, edges, freed_count, usize::MAX);
            edges = std::mem::take(&mut self.edges);
            freed_count = self.freed_count;
            let at = self.base_kinds.len();
            if self.bases.len() == at {
                self.bases.push(Base::default());
            }
            let base = &mut self.bases[at];
            base.now.clone_from(&now);
            base.freed_count = freed_count;
            base.used.clone_from(&self.used);
            base.edges.clone_from(&edges);
            self.base_kinds.push(k);
            self.blocked[k] = 0;
        }
        self.relaxings.push(now);
        self.edges = edges;
        self.freed_count = freed_count;
        self.bases_at = self.positions;
    }

    /// [`Search::can_all_go`] after `branch` (made already; `cut`: what it leaves its kind),
    /// run on from its kind's base (see [`Search::relax_base`]).
    fn relax_from_base(&mut self, branch: Branch, cut: Cut) -> bool {
        let at = self.base_kinds.iter().position(|&k| k == cut.kind).expect("a probed kind is held");
        let mut now = self.relaxings.pop().unwrap_or_default();
        let base = &self.bases[at];
        now.clone_from(&base.now);
        now.freed_lines = (0, 0);
        self.used.copy_from_slice(&base.used);
        let mut edges = std::mem::take(&mut self.edges);
        edges.clone_from(&base.edges);
        let mut freed_count = base.freed_count;
        let mut target = self.total_left;
        if let Branch::Remove(a, b) = branch {
            // The pair removed counts as freed: its cells are open.
            freed_count += now.free(a, self.cell[a as usize]) + now.free(b, self.cell[b as usize]);
            target += 2;
        }
        self.blocked[cut.kind] = ALL_PAIRINGS & !cut.pairings;
        let alive = self.relax_run(&mut now, edges, freed_count, target);
        self.relaxings.push(now);
        self.blocked[cut.kind] = 0;
        alive
    }

    /// The search without gravity: true when the position can be cleared (the order is then in
    /// `order`); on false the position is as it was. `proved`: the proof in `used` shows that
    /// [`Search::can_all_go`] holds here (see [`Search::inherits`]), so it is not run (in debug
    /// builds it is, and must agree).
    fn plain(&mut self, proved: bool, from: &Inherit) -> Result<bool, OutOfBudget> {
        let (order_mark, trail_mark) = (self.order.len(), self.trail.len());
        self.close();
        if self.total_left == 0 {
            return Ok(true);
        }
        self.key();
        if self.memo.contains(fingerprint(&self.key), &self.key) {
            self.undo_to(order_mark, trail_mark, false);
            return Ok(false);
        }
        self.count_position()?;
        let key_at = self.branches.len();
        if proved {
            count_taken(Taken::Proof);
        }
        let alive = if proved && !cfg!(debug_assertions) {
            true
        } else {
            let used_at = self.used_stack.len();
            self.used_stack.extend_from_slice(&self.used);
            let alive = self.can_all_go();
            if proved {
                assert!(alive, "an inherited proof of freeing failed");
                self.used.copy_from_slice(&self.used_stack[used_at..]);
            }
            self.used_stack.truncate(used_at);
            alive
        };
        // This position's proof, for the branches that do not inherit it to restore.
        let (used_at, proofs_at, log_at) = (self.used_stack.len(), self.proofs.len(), self.probe_log.len());
        let (refuted_at, stuck_at) = (self.refuted_log.len(), self.stuck.len());
        let mut probed = [NO_PROOF; 4];
        if alive {
            probed = self.plain_branches(from, log_at);
            if self.branches.len() > key_at {
                self.used_stack.extend_from_slice(&self.used);
            }
        }
        let mut index = key_at;
        while index < self.branches.len() {
            let branch = self.branches[index];
            let probed = probed.get(index - key_at).copied().unwrap_or(NO_PROOF);
            index += 1;
            let inherited = self.inherits(branch);
            if !inherited && probed != NO_PROOF {
                let at = probed as usize;
                self.used.copy_from_slice(&self.proofs[at..at + self.left.len()]);
            }
            let proved = inherited || probed != NO_PROOF;
            let below = Inherit {
                log: log_at..self.probe_log.len(),
                refuted: refuted_at..self.refuted_log.len(),
                cut: self.cut(branch),
            };
            let cleared = match branch {
                Branch::Remove(a, b) => {
                    self.remove(a, b, false);
                    let cleared = self.plain(proved, &below)?;
                    if !cleared {
                        self.undo(false);
                    }
                    cleared
                }
                Branch::Constrain(k, mask) => {
                    self.trail.push((k, self.allowed[k as usize]));
                    self.allowed[k as usize] = mask;
                    let cleared = self.plain(proved, &below)?;
                    if !cleared {
                        let (k, before) = self.trail.pop().expect("the constraint just made");
                        self.allowed[k as usize] = before;
                    }
                    cleared
                }
            };
            if cleared {
                self.branches.truncate(key_at);
                self.used_stack.truncate(used_at);
                self.proofs.truncate(proofs_at);
                self.probe_log.truncate(log_at);
                self.refuted_log.truncate(refuted_at);
                self.stuck.truncate(stuck_at);
                return Ok(true);
            }
            if !inherited {
                self.used.copy_from_slice(&self.used_stack[used_at..]);
            }
        }
        self.branches.truncate(key_at);
        self.used_stack.truncate(used_at);
        self.proofs.truncate(proofs_at);
        self.probe_log.truncate(log_at);
        self.refuted_log.truncate(refuted_at);
        self.stuck.truncate(stuck_at);
        // `self.key` was overwritten by the positions below: rebuild it, for the position as
        // it was entered (without the pairings the probes narrowed).
        self.undo_to(self.order.len(), trail_mark, false);
        self.key();
        let key = std::mem::take(&mut self.key);
        self.memo.insert(fingerprint(&key), &key);
        self.key = key;
        if !self.probe {
            self.hopeless_found += 1;
            if self.hopeless_found == PROBE_AFTER_HOPELESS {
                // Start again with probing: the next position is over the budget.
                self.budget = self.budget.min(self.positions);
            }
        }
        self.undo_to(order_mark, trail_mark, false);
        Ok(false)
    }

    /// The search with probing from the first position, in rounds: round r may search up to `unit`
    /// (by default the number of pieces on the board) times the r-th term of the Luby sequence more
    /// positions, and then starts again from the first position (all rounds count against
    /// `budget`). The first round looks at kinds in reading order; each later one in the order the
    /// rounds before left (`kind_order`, see [`Search::plain_branches`]), trying a kind's removals
    /// in an order drawn from the board and the round (`branch_turn`), so every run on a board
    /// searches the same positions. (Rounds after the first drew the order of kinds too until issue
    /// 11's tenth round; keeping the order the probes learned takes 3.8% fewer instructions on the
    /// example's seeds 1 to 4 together: 7.7% fewer on seed 1, 2.2% more on seed 3.)
    ///
    /// Why it stays exact: a round only ever ends by running out of its budget, and then
    /// nothing is concluded from it; what it leaves behind is the table of positions proved
    /// hopeless (each by a subtree searched to the end, which holds whatever order found it:
    /// whether a position can be cleared depends on the position alone). Each round is the same
    /// complete search ([`Search::plain`]) in another order of branches, so a round that ends
    /// within its budget gives the answer, and the last round has all that is left of `budget`.
    /// The proofs and refutations logged by probes belong to one search path, so they are
    /// dropped between rounds. Why rounds: on boards that can be cleared, how long a search
    /// takes varies a lot with the order of branches (a few bad early choices lead into large
    /// hopeless subtrees); short rounds in varied orders find the short searches.
    fn probe_rounds(&mut self, budget: u64, unit: Option<u64>) -> Result<bool, OutOfBudget> {
        self.probe = true;
        let unit = unit.unwrap_or(self.cell.len() as u64).max(1);
        let board_seed = self.kind.iter().fold(0u64, |hash, &k| mix(hash ^ u64::from(k)));
        for round in 1u64.. {
            self.undo_to(0, 0, false);
            self.branches.clear();
            self.used_stack.clear();
            self.proofs.clear();
            self.probe_log.clear();
            self.refuted_log.clear();
            self.stuck.clear();
            self.branch_turn = 0;
            if round == 1 {
                for (index, slot) in self.kind_order.iter_mut().enumerate() {
                    *slot = index as u32;
                }
            } else {
                let seed = mix(board_seed ^ round);
                self.branch_turn = seed >> 32;
            }
            self.budget = budget.min(self.positions.saturating_add(luby(round).saturating_mul(unit)));
            match self.plain(false, &Inherit::default()) {
                Err(OutOfBudget) if self.positions < budget => {}
                found => return found,
            }
        }
        unreachable!("the rounds end at the budget")
    }

    /// Pushes the branches of the current position (after [`Search::close`]) onto `branches`:
    /// those of the four-piece kind with the fewest, or else every removable pair of the kinds
    /// with more pieces. None when nothing can be removed. Without probing, of the kinds with
    /// the fewest, the first with a branch the position's proof carries over to is chosen:
    /// the position below it then takes the proof instead of running the relaxation (on the
    /// standard deals of seeds 1 to 4, 6% to 13% fewer instructions than the first of the
    /// fewest, the same verdicts). When probing, each branch of each
    /// kind is tried first with [`Search::can_all_go`] ([`Search::probe`], which takes known
    /// answers where they hold); branches that fail are dropped, a kind with none left makes
    /// the position hopeless, and the kind with the fewest left is chosen (fail first); a kind
    /// left with a single branch (one removal, or only the rest) ends the probing. The
    /// branch the position's proof carries over to ([`Search::inherits`]) is tried first.
    /// Returns where the probes left the proofs of the branches pushed, in their order.
    ///
    /// The kind that made the position hopeless, or else the kind chosen when a branch of it
    /// failed, or else the first kind (in `kind_order`) with a branch that failed, moves to the
    /// front of `kind_order`, to be probed first at the positions searched next: a kind stuck here
    /// is most often stuck there too, and found first it refutes a position before any other kind
    /// is probed, or, with its branches cut, is the kind chosen (on the hardest hopeless deals of
    /// the seed-4 set, 4.25 G instructions become 0.89 G). Any order is exact: every kind's
    /// branches cover its pairings.
    fn plain_branches(&mut self, from: &Inherit, own_log: usize) -> [u32; 4] {
        let mut live = [0u16; 4];
        let mut best: Option<Choice> = None;
        // The rank of `best`, with a kind the position's proof carries over to first among equals.
        let mut best_key = usize::MAX;
        // Where in `kind_order` the first kind with a probe that failed is, and the kind chosen
        // so far when a probe of it failed.
        let mut failed_first: Option<usize> = None;
        let mut best_failed: Option<usize> = None;
        for index in 0..self.kind_order.len() {
            let k = self.kind_order[index] as usize;
            if self.left[k] != 4 {
                continue;
            }
            self.live(k, &mut live);
            let mask = self.pair_mask(k, live);
            if mask == 0 {
                continue;
            }
            let mut choice =
                Choice { kind: k, removes: [(0, 0); 3], count: 0, rest: 0, proofs: [NO_PROOF; 4] };
            let mut covered = 0u8;
            let mut failed = false;
            for (pairing, two) in PAIRINGS.iter().enumerate() {
                let bits = mask >> (2 * pairing) & 0b11;
                if bits != 0 {
                    covered |= 1 << pairing;
                    let (x, y) = two[usize::from(bits & 1 == 0)];
                    let branch = Branch::Remove(live[x], live[y]);
                    let proof = if self.probe { self.probe(branch, from, own_log) } else { Some(NO_PROOF) };
                    if let Some(proof) = proof {
                        choice.removes[choice.count] = (live[x], live[y]);
                        choice.proofs[choice.count] = proof;
                        choice.count += 1;
                    } else {
                        failed = true;
                    }
                }
            }
            choice.rest = self.allowed[k] & !covered;
            if self.probe && choice.rest != 0 {
                if let Some(proof) = self.probe(Branch::Constrain(k as u32, choice.rest), from, own_log) {
                    choice.proofs[choice.count] = proof;
                } else {
                    choice.rest = 0;
                    failed = true;
                }
            }
            let branches = choice.count + usize::from(choice.rest != 0);
            if failed && failed_first.is_none() {
                failed_first = Some(index);
            }
            if branches == 0 {
                // Move to front: the next positions probe this kind first.
                self.kind_order[..=index].rotate_right(1);
                return [NO_PROOF; 4];
            }
            // Fewest branches; among those, a kind that all its branches remove from; among
            // those, without probing, a kind with a branch the position's proof carries over to.
            let rank = |choice: &Choice| {
                2 * (choice.count + usize::from(choice.rest != 0)) + usize::from(choice.rest != 0)
            };
            // A branch the proof carries over to ([`Search::inherits`]): a removal of a pairing
            // covered, or the rest. (While probing, the branches take the probes' proofs instead.)
            let keeps = |pairings: u8| Cut { kind: k, pairings }.keeps(&self.used);
            let carried = self.probe
                || (0..PAIRINGS.len()).any(|pairing| covered >> pairing & 1 == 1 && keeps(1 << pairing))
                || choice.rest != 0 && keeps(choice.rest);
            let key = 2 * rank(&choice) + usize::from(!carried);
            if key < best_key {
                best_failed = failed.then_some(index);
                best = Some(choice);
                best_key = key;
            }
            if self.probe && best.as_ref().is_some_and(|best| best.count + usize::from(best.rest != 0) == 1) {
                // A single branch: another kind could only do better by refuting the position,
                // which is not worth probing every other kind for (on the standard deals of
                // seeds 1 to 3, 1.2% to 2.1% fewer instructions than when only a single removal
                // stopped the probing, 0.4% on seed 4; the same verdicts).
                break;
            }
        }
        if let Some(index) = best_failed.or(failed_first) {
            // Move to front: the next positions probe this kind first.
            self.kind_order[..=index].rotate_right(1);
        }
        if let Some(mut choice) = best {
            let first_branch = self.branches.len();
            let mut proofs = choice.proofs;
            let turn = (self.branch_turn % choice.count.max(1) as u64) as usize;
            choice.removes[..choice.count].rotate_left(turn);
            proofs[..choice.count].rotate_left(turn);
            for &(a, b) in &choice.removes[..choice.count] {
                self.branches.push(Branch::Remove(a, b));
            }
            if choice.rest != 0 {
                self.branches.push(Branch::Constrain(choice.kind as u32, choice.rest));
            }
            // The branch the position's proof carries over to first: the relaxation found
            // the kind freed by that pairing.
            if let Some(first) =
                (first_branch..self.branches.len()).find(|&at| self.inherits(self.branches[at]))
            {
                self.branches[first_branch..=first].rotate_right(1);
                proofs[..=first - first_branch].rotate_right(1);
            }
            return proofs;
        }
        for k in 0..self.left.len() {
            if self.left[k] > 4 {
                self.push_pairs(k);
            }
        }
        [NO_PROOF; 4]
    }

    /// `None` when `branch` leaves a position [`Search::can_all_go`] refutes; else where in
    /// `proofs` the proof found for that position lies ([`NO_PROOF`] when none was looked
    /// for: the branch inherits the proof now in `used`, see [`Search::inherits`], or clears
    /// the board). The position is left as it was, and so is the proof in `used`. In debug
    /// builds a branch that inherits is looked at all the same, and must survive.
    fn survives(&mut self, branch: Branch) -> Option<u32> {
        let inherited = self.inherits(branch);
        if inherited {
            count_taken(Taken::Proof);
        }
        if inherited && !cfg!(debug_assertions) {
            return Some(NO_PROOF);
        }
        let used_at = self.used_stack.len();
        self.used_stack.extend_from_slice(&self.used);
        if self.bases_at != self.positions {
            // The probes of a position all run before any position below it is entered.
            self.relax_base();
        }
        let cut = self.cut(branch).expect("a probed branch is on a kind of four");
        let (order_mark, trail_mark) = (self.order.len(), self.trail.len());
        match branch {
            Branch::Remove(a, b) => self.remove(a, b, false),
            Branch::Constrain(k, mask) => {
                self.trail.push((k, self.allowed[k as usize]));
                self.allowed[k as usize] = mask;
            }
        }
        self.scratch = true;
        let cleared = self.total_left == 0;
        let alive = cleared || {
            #[cfg(test)]
            FROM_BASE.with(|count| count.set(count.get() + 1));
            if cfg!(debug_assertions) {
                // The run from the base must find what a run from scratch finds: the same
                // least fixpoint.
                let alive = self.can_all_go();
                let freed = self.freed.clone();
                let from_base = self.relax_from_base(branch, cut);
                assert_eq!(alive, from_base, "a probe from the base disagrees: {branch:?}");
                // The pieces on the board freed (the base's run counts the pair removed).
                let on_board = |freed: &[u64]| {
                    freed
                        .iter()
                        .zip(&self.present)
                        .map(|(&freed, &present)| freed & present)
                        .collect::<Vec<_>>()
                };
                assert_eq!(
                    on_board(&freed),
                    on_board(&self.freed),
                    "a probe from the base freed others: {branch:?}"
                );
                from_base
            } else {
                self.relax_from_base(branch, cut)
            }
        };
        self.scratch = false;
        if !alive {
            self.last_stuck = self.stuck.len() as u32;
            for (&present, &freed) in self.present.iter().zip(&self.freed) {
                self.stuck.push(present & !freed);
            }
        }
        self.undo_to(order_mark, trail_mark, false);
        let proof = if !alive {
            None
        } else if inherited || cleared {
            Some(NO_PROOF)
        } else {
            self.proofs.extend_from_slice(&self.used);
            Some((self.proofs.len() - self.used.len()) as u32)
        };
        self.used.copy_from_slice(&self.used_stack[used_at..]);
        self.used_stack.truncate(used_at);
        debug_assert!(alive || !inherited, "an inherited proof of freeing failed after {branch:?}");
        proof
    }

    /// True when the proof that [`Search::can_all_go`] holds now, as `used` describes it, also
    /// proves it holds after `branch` and any safe moves after it, so it need not be run there.
    ///
    /// Why: the proof is a sequence of pairs, each joinable on the relaxed board once the
    /// pieces freed by the pairs before it are taken away. After removals the board only has
    /// more open cells, so each pair of the sequence whose pieces are both still there is still
    /// joinable at its turn, and a pair whose pieces are both gone only opened cells that are
    /// open anyway: the same sequence frees every piece left, provided each of its pairs is
    /// still one the relaxation may use. Only the kind branched on changes which pairs those
    /// are: after `Remove(a, b)` of a kind of four, the two pieces left may pair only with each
    /// other (the pairing of `a` and `b`); after `Constrain(k, mask)`, kind k only within
    /// `mask`. So the branch inherits the proof when the kind's pieces were all freed by pairs
    /// of that pairing, or of pairings in `mask`. Safe moves ([`Search::close`]) then remove
    /// whole kinds, or, of a kind limited to one pairing, a pair of that pairing, which keeps
    /// every pair of the sequence one the relaxation may use. Kinds of more than four pieces
    /// never inherit (removing one of their pairs changes the partners of the others).
    fn inherits(&self, branch: Branch) -> bool {
        self.cut(branch).is_some_and(|cut| cut.keeps(&self.used))
    }

    /// What `branch` (at the current position) leaves of its kind's pairings, for
    /// [`Cut::keeps`]; `None` for a removal from a kind of more than four pieces.
    fn cut(&self, branch: Branch) -> Option<Cut> {
        match branch {
            Branch::Remove(a, b) => {
                let k = self.kind[a as usize] as usize;
                if self.left[k] != 4 {
                    return None;
                }
                let mut live = [0u16; 4];
                self.live(k, &mut live);
                let index = |piece: u16| live.iter().position(|&p| p == piece).expect("a piece of the kind");
                let pairing = match index(a) + index(b) {
                    1 | 5 => 0,
                    2 | 4 => 1,
                    _ => 2,
                };
                Some(Cut { kind: k, pairings: 1 << pairing })
            }
            Branch::Constrain(k, mask) => Some(Cut { kind: k as usize, pairings: mask }),
        }
    }

    /// The probe of `branch` (see [`Search::survives`]), taking a proof already known when one
    /// holds ([`Search::known_proof`]). A proof found or taken is logged in `probe_log` for the
    /// positions below. In debug builds every proof taken is checked by a probe.
    fn probe(&mut self, branch: Branch, from: &Inherit, own_log: usize) -> Option<u32> {
        if let Some(stuck) = self.still_refuted(branch, from) {
            count_taken(Taken::Refutation);
            debug_assert!(
                self.survives(branch).is_none(),
                "a refutation taken from the parent failed: {branch:?}"
            );
            self.refuted_log.push((branch, stuck));
            return None;
        }
        let kinds = self.used.len();
        let reused = self.known_proof(branch, from, own_log);
        let proof = match reused {
            Some((at, taken)) => {
                count_taken(taken);
                debug_assert!(self.survives(branch).is_some(), "a proof taken failed: {branch:?}");
                Some(at)
            }
            None => match self.survives(branch) {
                Some(NO_PROOF) if self.total_left > 2 && self.inherits(branch) => {
                    // The position's own proof: keep a copy for the positions below.
                    self.proofs.extend_from_slice(&self.used);
                    Some((self.proofs.len() - kinds) as u32)
                }
                None => {
                    self.refuted_log.push((branch, self.last_stuck));
                    None
                }
                proof => proof,
            },
        };
        if let Some(at) = proof.filter(|&at| at != NO_PROOF) {
            self.probe_log.push((branch, at));
        }
        proof
    }

    /// Where in `proofs` a proof lies that [`Search::can_all_go`] holds after `branch`, when one
    /// logged by the probes of this position (from `own_log` in `probe_log`) or of the parent
    /// position does, and what sort of answer it is; the parent's probe of the same branch is
    /// taken first.
    ///
    /// Why a proof logged for another branch may do: a probe's proof is a sequence of pairs
    /// that frees every piece after its branch, and it is also a proof for the position the
    /// probe was made at. A constraint only takes pairings away, so its sequence is one the
    /// position allows; after `Remove(a, b)`, the sequence frees the kind's other two pieces
    /// by their own pair, and at the position, `a` and `b`, joinable there, can be freed first
    /// (their pairing is allowed), which opens the cells the sequence ran on. Its pairings
    /// (`proofs`) say so: the kind branched on used only the branch's pairing. So any proof
    /// of this position whose pairings `branch` keeps ([`Cut::keeps`]) proves the branch, by
    /// the argument of [`Search::inherits`]; a proof of the parent's, when the move that led
    /// here keeps it too (`from.cut`), is a proof of this position by the same argument.
    fn known_proof(&self, branch: Branch, from: &Inherit, own_log: usize) -> Option<(u32, Taken)> {
        let kinds = self.used.len();
        let cut = self.cut(branch)?;
        let pairings = |at: u32| &self.proofs[at as usize..at as usize + kinds];
        if let Some(moved) = from.cut {
            let parent = &self.probe_log[from.log.clone()];
            let usable = |&&(_, at): &&(Branch, u32)| moved.keeps(pairings(at)) && cut.keeps(pairings(at));
            if let Some(&(_, at)) = parent.iter().filter(|&&(logged, _)| logged == branch).find(usable) {
                return Some((at, Taken::ParentProof));
            }
            if let Some(&(_, at)) = parent.iter().find(usable) {
                return Some((at, Taken::OtherProof));
            }
        }
        self.probe_log[own_log..]
            .iter()
            .find(|&&(_, at)| cut.keeps(pairings(at)))
            .map(|&(_, at)| (at, Taken::OtherProof))
    }

    /// Where in `stuck` the pieces lie that a probe of the parent position could not free
    /// after `branch` (or after a constraint of the same kind allowing at least the pairings
    /// `branch` allows), when all of them are still on the board: then the probe of `branch`
    /// here fails too, and is not run.
    ///
    /// Why: let F be the pieces that relaxation freed and U the others (all on the board
    /// here). The pieces removed since, and by the safe moves, are then in F, so the board
    /// here after `branch` has at least the cells of the parent's relaxed board at its end
    /// closed (it opens only pieces of F), and the pairs the relaxation may use here are
    /// among those it could use there (the branch that led here only took pairings away, or
    /// left a kind of four with the pair of the pairing it removed; safe moves remove whole
    /// kinds, or a pair of a kind's one allowed pairing). By induction on the relaxation
    /// here, each pair it fires is joinable on the parent's final relaxed board and allowed
    /// there, so both its pieces were in F: it never frees a piece of U.
    fn still_refuted(&self, branch: Branch, from: &Inherit) -> Option<u32> {
        let words = self.present.len();
        self.refuted_log[from.refuted.clone()]
            .iter()
            .filter(|&&(logged, _)| match (logged, branch) {
                (Branch::Constrain(k, mask), Branch::Constrain(j, narrower)) => {
                    k == j && narrower & !mask == 0
                }
                _ => logged == branch,
            })
            .map(|&(_, at)| at)
            .find(|&at| {
                let stuck = &self.stuck[at as usize..at as usize + words];
                stuck.iter().zip(&self.present).all(|(&stuck, &present)| stuck & !present == 0)
            })
    }

    /// Pushes every removable pair of kind `k` as a branch.
    fn push_pairs(&mut self, k: usize) {
        let mut branches = std::mem::take(&mut self.branches);
        branches.extend(
            self.present_pairs(k).filter(|&(a, b)| self.joinable(a, b)).map(|(a, b)| Branch::Remove(a, b)),
        );
        self.branches = branches;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Bits of a framed `height × width` board from one bit per cell (row-major).
    fn bits_of(height: usize, width: usize, open: &[bool]) -> Bits {
        let mut bits = Bits { rows: vec![0; height], cols: vec![0; width] };
        for row in 0..height {
            for col in 0..width {
                bits.set((row as u8, col as u8), open[row * width + col]);
            }
        }
        bits
    }

    /// A small board with two closed cells `a < b` (indices in reading order) for the tests of
    /// what a pair waits on: `open` the board's cells, `more` cells a test may open later.
    #[derive(Debug, Clone)]
    struct PairCase {
        height: usize,
        width: usize,
        open: Vec<bool>,
        more: Vec<bool>,
        a: usize,
        b: usize,
        max_turns: u32,
    }

    impl PairCase {
        /// The cell at `index` in reading order.
        fn cell(&self, index: usize) -> Cell {
            ((index / self.width) as u8, (index % self.width) as u8)
        }

        /// The board with `open`'s cells open, but `a` and `b`, and those `extra` picks.
        fn bits_with(&self, extra: &dyn Fn(usize) -> bool) -> Bits {
            let open: Vec<bool> = (0..self.height * self.width)
                .map(|index| index != self.a && index != self.b && (self.open[index] || extra(index)))
                .collect();
            bits_of(self.height, self.width, &open)
        }
    }

    /// Boards of 3 to 8 rows and columns, any cells open, with two distinct cells closed.
    fn pair_cases() -> impl Strategy<Value = PairCase> {
        (
            3usize..9,
            3usize..9,
            proptest::collection::vec(any::<bool>(), 64),
            proptest::collection::vec(any::<bool>(), 64),
            (0usize..64, 0usize..64),
            0u32..3,
        )
            .prop_filter_map("two distinct cells", |(height, width, open, more, ends, max_turns)| {
                let cells = height * width;
                let (a, b) = (ends.0 % cells, ends.1 % cells);
                (a != b).then(|| {
                    let (open, more) = (open[..cells].to_vec(), more[..cells].to_vec());
                    PairCase { height, width, open, more, a: a.min(b), b: a.max(b), max_turns }
                })
            })
    }

    /// Decides a full deal of `kinds × 4` pieces on `rows × cols` cells from `seed`, with probing
    /// from the first position and after the default [`PROBE_AFTER`], checks that both agree and
    /// that a clearing order is legal (every removal joined by the line search of the queries,
    /// on the board as it is then) and empties the board; returns the verdict.
    fn decide_deal(
        rows: usize,
        cols: usize,
        kinds: u32,
        seed: u64,
        outside: bool,
    ) -> Result<bool, TestCaseError> {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let board = crate::r#gen::deal(rows, cols, kinds, 4, &mut rng);
        let settings = Settings { rules: Rules { max_turns: 2, outside }, gravity: false, budget: 1_000_000 };
        let mut verdicts = Vec::new();
        // Probing from the first position in rounds of the default length, after the default
        // number of positions, and after 2 positions in rounds of 1, 1, 2, 1, ... positions
        // (many rounds, each in its own order).
        for (probe_after, round_unit) in [(0, None), (PROBE_AFTER, None), (2, Some(1))] {
            let outcome = search_inner(&board, settings, probe_after, gravity::RESTART_UNIT, round_unit)
                .expect("small");
            let cleared = match outcome.verdict {
                Verdict::Cleared(order) => {
                    let mut left = board.clone();
                    for (a, b) in order {
                        let query = crate::model::Query { a, b };
                        prop_assert!(
                            crate::reference::joinable(&left, settings.rules, query),
                            "seed {}",
                            seed
                        );
                        left[Pos::new(a.row - 1, a.col - 1)] = EMPTY;
                        left[Pos::new(b.row - 1, b.col - 1)] = EMPTY;
                    }
                    prop_assert!(left.cells().iter().all(|&kind| kind == EMPTY), "seed {}", seed);
                    true
                }
                Verdict::Hopeless => false,
                Verdict::Undecided => return Err(TestCaseError::fail(format!("undecided: seed {seed}"))),
            };
            verdicts.push(cleared);
        }
        prop_assert!(verdicts.iter().all(|&cleared| cleared == verdicts[0]), "seed {}", seed);
        Ok(verdicts[0])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The answers of the relaxation taken rather than found (proofs carried to a branch,
        /// proofs and refutations of the parent's probes) are checked in debug builds against
        /// the relaxation run all the same (the search asserts they agree); here on deals of
        /// kinds of four, where they are taken, with and without the outside open.
        #[test]
        fn answers_taken_agree_with_the_relaxation(seed: u64, shape in 0usize..4, outside: bool) {
            let (rows, cols, kinds) = [(4, 4, 4), (4, 6, 6), (5, 8, 10), (6, 6, 9)][shape];
            decide_deal(rows, cols, kinds, seed, outside)?;
        }
    }

    /// Deals of 8 × 8 cells (16 kinds × 4) take answers of every sort, each checked as in
    /// [`answers_taken_agree_with_the_relaxation`]: each rule of [`Search::inherits`],
    /// [`Search::probe`] and [`Search::still_refuted`] is exercised.
    #[test]
    fn every_sort_of_answer_is_taken() {
        TAKEN.with(|counts| counts.set([0; 4]));
        for seed in 0..40 {
            decide_deal(8, 8, 16, seed, seed % 2 == 0).expect("agrees");
        }
        let counts = TAKEN.with(std::cell::Cell::get);
        assert!(counts.iter().all(|&count| count > 0), "{counts:?}");
        assert!(FROM_BASE.with(std::cell::Cell::get) > 0, "no probe ran on from a base");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]

        /// Probes run on from the bases of [`Search::relax_base`] free the same pieces as runs
        /// from scratch (the search asserts it on every probe in debug builds), under every
        /// turn limit, on deals where the search probes many positions.
        #[test]
        fn probes_from_bases_agree_with_runs_from_scratch(
            seed: u64,
            max_turns in 0u32..=3,
            outside: bool,
        ) {
            use rand::SeedableRng;
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let board = crate::r#gen::deal(6, 8, 12, 4, &mut rng);
            let settings = Settings { rules: Rules { max_turns, outside }, gravity: false, budget: 1_000_000 };
            let outcome = search_inner(&board, settings, 0, gravity::RESTART_UNIT, Some(2)).expect("small");
            prop_assert!(outcome.verdict != Verdict::Undecided, "seed {}", seed);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// The search in rounds (short ones, each in its own order, the table of hopeless
        /// positions kept) agrees with the exhaustive reference on small full deals of kinds
        /// of four, under every turn limit, and its clearing orders replay.
        #[test]
        fn rounds_agree_with_the_reference(
            seed: u64,
            shape in 0usize..4,
            max_turns in 0u32..=3,
            outside: bool,
            probe_after in 0u64..4,
            round_unit in 1u64..4,
        ) {
            use rand::SeedableRng;
            let (rows, cols, kinds) = [(3, 4, 3), (4, 4, 4), (2, 8, 4), (4, 5, 5)][shape];
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let board = crate::r#gen::deal(rows, cols, kinds, 4, &mut rng);
            let rules = Rules { max_turns, outside };
            let settings = Settings { rules, gravity: false, budget: 1_000_000 };
            let outcome = search_inner(&board, settings, probe_after, gravity::RESTART_UNIT, Some(round_unit))
                .expect("small");
            let clearable = crate::reference::clearable(&board, rules, false);
            match outcome.verdict {
                Verdict::Cleared(order) => {
                    prop_assert!(clearable, "seed {}", seed);
                    let mut left = board.clone();
                    for (a, b) in order {
                        let query = crate::model::Query { a, b };
                        prop_assert!(crate::reference::joinable(&left, rules, query), "seed {}", seed);
                        left[Pos::new(a.row - 1, a.col - 1)] = EMPTY;
                        left[Pos::new(b.row - 1, b.col - 1)] = EMPTY;
                    }
                    prop_assert!(left.cells().iter().all(|&kind| kind == EMPTY), "seed {}", seed);
                }
                Verdict::Hopeless => prop_assert!(!clearable, "seed {}", seed),
                Verdict::Undecided => prop_assert!(false, "undecided: seed {}", seed),
            }
        }
    }

    proptest! {
        /// What a pair no line joins waits on holds while it stays closed. The watch
        /// ([`Bits::watch_on`]) names every line a cell must open on before a line can join
        /// them: opening any cells off those rows and columns leaves the pair unjoinable. The
        /// wait ([`Bits::wait_on`]) is that watch, or, when the pair is apart, four cells:
        /// opening any cells but those leaves it unjoinable (and [`Bits::still_apart`] says so).
        #[test]
        fn waits_name_everything_that_matters(case in pair_cases(), swap in any::<bool>()) {
            // Either end first: the checks do not assume reading order.
            let (a, b) = if swap { (case.b, case.a) } else { (case.a, case.b) };
            let (max_turns, cell) = (case.max_turns, |index: usize| case.cell(index));
            let bits = case.bits_with(&|_| false);
            let joinable = bits.joinable(cell(a), cell(b), max_turns);
            let watch = bits.joinable_or_watch(cell(a), cell(b), max_turns);
            let wait = Bits::wait_on(&bits.rows, &bits.cols, cell(a), cell(b), max_turns);
            prop_assert_eq!(watch.is_none(), joinable);
            prop_assert_eq!(wait.is_none(), joinable);
            let (Some((rows, cols)), Some(wait)) = (watch, wait) else { return Ok(()) };
            // Opens the cells `more` picks but `a`, `b` and those `kept` keeps closed.
            let opened = |kept: &dyn Fn(usize) -> bool| case.bits_with(&|index| !kept(index) && case.more[index]);
            let off_lines = opened(&|index| {
                let (row, col) = cell(index);
                rows >> row & 1 == 1 || cols >> col & 1 == 1
            });
            prop_assert!(!off_lines.joinable(cell(a), cell(b), max_turns));
            if !is_apart(wait) {
                prop_assert_eq!(wait, (rows, cols));
                return Ok(());
            }
            prop_assert!(Bits::still_apart(&bits.rows, &bits.cols, wait));
            // The four cells, (row, column), from the words along the rows and the columns.
            let byte = |word: u64, at: u32| (word >> at & 0xFF) as u8;
            let (across, down) = wait;
            let four = [
                (byte(across, 0), byte(across, 8)),
                (byte(across, 16), byte(across, 24)),
                (byte(down, 8), byte(down, 0)),
                (byte(down, 24), byte(down, 16)),
            ];
            let off_cells = opened(&|index| four.contains(&cell(index)));
            prop_assert!(!off_cells.joinable(cell(a), cell(b), max_turns));
            prop_assert!(Bits::still_apart(&off_cells.rows, &off_cells.cols, wait));
        }
    }

    proptest! {
        /// The checks told their ends are in reading order ([`Bits::wait_on_sorted`]), and the
        /// recheck of a pair apart that looks again only along the lines where a cell opened
        /// ([`Bits::rewait_apart`]), find what [`Bits::wait_on`] finds.
        #[test]
        fn sorted_and_partial_waits_agree(case in pair_cases()) {
            let (a, b, max_turns, cell) = (case.a, case.b, case.max_turns, |index: usize| case.cell(index));
            let bits = case.bits_with(&|_| false);
            let wait = Bits::wait_on(&bits.rows, &bits.cols, cell(a), cell(b), max_turns);
            prop_assert_eq!(Bits::wait_on_sorted(&bits.rows, &bits.cols, cell(a), cell(b), max_turns), wait);
            let Some(wait) = wait.filter(|&wait| is_apart(wait)) else { return Ok(()) };
            let later = case.bits_with(&|index| case.more[index]);
            let opened = Bits::apart_opened(&later.rows, &later.cols, wait);
            prop_assume!(opened != (false, false));
            prop_assert_eq!(
                Bits::rewait_apart(&later.rows, &later.cols, (cell(a), cell(b)), max_turns, wait, opened),
                Bits::wait_on(&later.rows, &later.cols, cell(a), cell(b), max_turns)
            );
        }
    }

    proptest! {
        /// [`run_low`] and [`run_high`] (one masked bit scan each) find the ends of the run a
        /// plain walk from the bit finds, on any word with bit 63 clear.
        #[test]
        fn runs_end_where_a_walk_ends(line in any::<u64>(), at in 0u32..63) {
            let line = line & !(1 << 63);
            let open = |bit: u32| bit == at || line >> bit & 1 == 1;
            let (mut low, mut high) = (at, at);
            while low > 0 && open(low - 1) {
                low -= 1;
            }
            while open(high + 1) {
                high += 1;
            }
            prop_assert_eq!((run_low(line, at), run_high(line, at)), (low, high));
        }
    }

    /// Deal 453 of the standard deals (8 × 18, 36 kinds × 4, seed 1, the outside open) leads
    /// the search without probing into [`PROBE_AFTER_HOPELESS`] hopeless positions well before
    /// [`PROBE_AFTER`] positions: it starts again with probing then, and finds what probing from
    /// the start finds.
    #[test]
    fn many_hopeless_positions_start_probing_early() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let board = (0..=453).map(|_| crate::r#gen::deal(8, 18, 36, 4, &mut rng)).last().expect("deals");
        let rules = Rules { max_turns: 2, outside: true };
        let settings = Settings { rules, gravity: false, budget: DEFAULT_BUDGET };
        let mut plain = Search::new(&board, settings);
        plain.probe = false;
        plain.budget = PROBE_AFTER;
        assert_eq!(plain.plain(false, &Inherit::default()), Err(OutOfBudget));
        assert_eq!(plain.hopeless_found, PROBE_AFTER_HOPELESS);
        assert!(plain.positions < PROBE_AFTER, "{} positions", plain.positions);
        let outcome = search(&board, settings).expect("fits");
        assert!(outcome.positions > plain.positions);
        assert_eq!(outcome.verdict, search_with(&board, settings, 0).expect("fits").verdict);
        assert_eq!(outcome.verdict, Verdict::Hopeless);
    }

    #[test]
    fn runs_and_spans() {
        assert_eq!(run(0b0110_1100, 4), (2, 6));
        assert_eq!(run(0b0110_1100, 7), (5, 7));
        assert_eq!(run(0b1001_1100, 6), (6, 7));
        assert_eq!(run(0b0000_0111, 3), (0, 3));
        assert_eq!(span(2, 5), 0b11_1100);
        assert_eq!(span(0, 63), u64::MAX);
    }
}
