//! The fast solver: the reference's depth-first search in the judge's move order, with sound
//! pruning. Every rule below only skips moves whose subtree holds no solution, or whose subtree
//! is identical to one an earlier sibling already searched, so the first solution found is the
//! lexicographically smallest, the very sequence [`crate::reference`] returns.
//!
//! ## Transfers, the lower bound
//! A block changes column only when a move drags or swaps it; falls and eliminations never move
//! a block sideways. A swap of two blocks of one colour leaves the board as it was, so count it
//! as moving no block (the two blocks can be relabelled). Then every move moves at most one
//! block of each colour one column, and at most two blocks in all (a swap of two colours).
//! Call one block moved one column one *transfer* of its colour.
//!
//! For the board to empty, every block of colour `c` must vanish. Follow them to the moment
//! each one vanishes and let `F(x)` count those that vanish in column `x`, whenever that is. A
//! block vanishes in a line of three or more of its colour: vertical (then at least three blocks
//! of `c` vanish together in its column, all counted in `F(x)`) or horizontal (then blocks of `c`
//! vanish with it in its row in a window of three consecutive columns around it). So a column
//! with `F(x)` = 1 or 2 had no vertical line, and:
//! - `F(x) = 1`: some window of three columns around `x` has `F ≥ 1` in each column;
//! - `F(x) = 2`: there are two windows `W1`, `W2` around `x` (maybe the same one) with
//!   `F(w) ≥ [w ∈ W1] + [w ∈ W2]` in every other column `w`: the two blocks lie in different
//!   rows or vanish at different moments, so the partners they need in a shared column are two
//!   different blocks.
//!
//! Call a count vector with these two properties a *vanishing profile* (`may_vanish`): `F` is
//! one. Each block is transferred at least as often as the distance from its present column to
//! the column it vanishes in, so the transfers of `c` are at least the earth mover's distance
//! from the colour's present count per column `C` to the nearest vanishing profile with as many
//! blocks: `need(c)`. In one dimension that distance is the least number of one-column steps of
//! single blocks that turn `C` into `F` (each step changes one prefix sum of the counts by one,
//! and steps that close the prefix differences without ever making a count negative exist).
//! One or two blocks have no vanishing profile: their need is infinite, they never vanish.
//! With `r` moves left:
//! - `need(c) ≤ r` for every colour, and `Σ need(c) ≤ 2r`; else no solution (*bound*).
//! - a colour with `need(c) = r` must have a block transferred by *every* remaining move, this
//!   one included; when `Σ need(c) = 2r` every remaining move must transfer two blocks, so it is
//!   a swap of two colours (*forced colours*).
//! - *The bound one move ahead*: the bound also holds for the board right after the next move,
//!   before it settles, with `r - 1` moves: the blocks that vanish in that settling are in their
//!   vanishing columns already, and every other block is transferred by later moves only. The
//!   move changes the count vectors of at most two colours by one transfer each, so whether it
//!   keeps every need within `r - 1` and their sum within `2(r - 1)` is read from the table of
//!   needs before the move is made. Moves that do not are skipped. (This implies the forced
//!   colours; those are still applied first, to bit sets of moves, because they cost no lookup.)
//!
//! ## The table of needs
//! `need` depends only on the count per column. For a colour of `t` blocks it is a table over
//! the prefix sums `P0..P3` of the counts (`P4 = t`), a box of `(t + 1)⁴` cells of which only
//! count vectors are read, filled breadth first from every vanishing profile at once (a step
//! moves one block across one border: one prefix sum changes by one). So the need of the
//! count vector after a transfer is a neighbouring cell. Each table is built on first use,
//! once per process, for each count up to the most blocks of one colour on the board: `t ≤ 35`,
//! so a table has at most 36⁴ one-byte cells, and a colour of few blocks has a small one.
//!
//! ## The other rules
//! - *Mirror moves*: a left move of the block at (x, y) into an occupied cell swaps it with the
//!   block at (x-1, y), exactly as the right move (x-1, y, 1) does, which comes earlier in the
//!   judge's order and was searched first with the same result. Skip it.
//! - *The last move*: with one move left, a swap can only empty the board if a line forms
//!   through one of the two blocks it moves; `swap_may_clear` reads that from row masks, and
//!   only those swaps are made. (Drags are always made.)
//! - *Dead ends*: whether `r` more moves can empty a board depends only on the board and `r`,
//!   so a (board, r) whose search failed is remembered and never searched again. Keyed by the
//!   exact `r`: a board that cannot be emptied in exactly 3 moves may be emptied in exactly 2.
//!   The table is capped at 917,504 boards, about 43 MB (`MAX_DEAD_ENDS`): when it is full
//!   it is emptied and filled again. The search stays exact (the table only skips failures it
//!   remembers); past the cap it is only slower, meeting forgotten dead ends again.
//! - *Sleeping moves*: call a move *quiet* on a board when nothing vanishes after it. Two quiet
//!   moves on disjoint columns commute: a move only changes its own two columns (a drag lands
//!   on the height of its target column alone), so in either order the board after both is the
//!   board with both blocks moved, settled once, and each move is still legal after the other.
//!   So when a quiet move `m1` was searched from a board and failed, and a later quiet sibling
//!   `m2` touches other columns, the child of `m2` need not try `m1`: `(m2, m1, rest)` reaches
//!   the board `(m1, m2, rest)` reached, and that failed under `m1`. Only the child is told (a
//!   move quiet here need not be quiet two moves later). Failing stays a fact about the board,
//!   so the dead-end table may still record it.
//! - An empty board with moves left has no legal move: the judge does not let a sequence empty
//!   the board before its last move.
//!
//! A swap of two blocks of one colour is a legal move like any other and is searched like any
//! other: it may be what makes the count of moves exact (the second sample of the spec starts
//! with one). It is skipped only where the rules above prove it useless, as any move would be:
//! as the last move (it leaves a board that is not empty as it was), and when the bound one
//! move ahead fails for the board itself (it transfers nothing, so the board after it is the
//! same board with one move fewer), which includes every board with a forced colour.
//!
//! ## Cost
//! The moves worth trying on a board (legal, not a mirror move, not asleep, transferring every
//! forced colour) are found as bit sets, so a board whose bound forces one colour costs a few
//! candidates, not fifty; each is then checked against the bound one move ahead with two table
//! lookups. A move made is a displacement and a byte-parallel line test ([`crate::board`]);
//! a swap that `swap_may_clear` shows to complete no line is only a displacement (nothing can
//! vanish: the board before had no line, and a swap only changes its two cells). After a move
//! that removes nothing, the child's needs are the ones the move was checked with, so only the
//! children where blocks vanished count their colours again. Most boards met have one move
//! left, and the dead-end table answers many of those; the boards visited on the benchmarks'
//! sets are counted in `docs/benchmarks/mayan.md`.
//!
//! The worst case stays exponential in the moves: at most 56 legal moves a board, so 56ⁿ
//! sequences, and each board visited costs O(1) (a board is five words, the tables are read,
//! not searched). Memory is the dead-end table, at most `MAX_DEAD_ENDS` keys, and the tables
//! of needs.

mod dead_ends;
mod needs;

pub use common::search::Outcome;
use common::search::Progress;

use dead_ends::{DeadEnds, MAX_DEAD_ENDS, dead_end_key};
use needs::{Forced, NeedTable, Needs};

use crate::board::Board;
use crate::model::{Move, Puzzle, WIDTH};

/// The lexicographically smallest sequence of exactly `puzzle.moves` moves that empties the
/// board, or `None`.
///
/// # Complexity
/// Exponential in `puzzle.moves` in the worst case (see [`search`]).
///
/// # Panics
/// When the board breaks what the parser checks ([`Board::from_columns`]).
pub fn solve(puzzle: &Puzzle) -> Option<Vec<Move>> {
    search(&Board::from_columns(&puzzle.columns), puzzle.moves, false).first
}

/// [`solve`], or with `fewest` [`fewest`], reporting the work to `progress`.
///
/// # Panics
/// As [`solve`].
pub fn solve_with(puzzle: &Puzzle, fewest: bool, progress: Progress) -> Option<Vec<Move>> {
    search_with(&Board::from_columns(&puzzle.columns), puzzle.moves, fewest, progress).first
}

/// The lexicographically smallest of the shortest sequences of at most `puzzle.moves` moves
/// that empty the board, or `None`.
///
/// # Complexity
/// One exact search for each number of moves up to the first that succeeds, sharing their dead
/// ends: no more than [`search`] for `puzzle.moves` costs, times `puzzle.moves`.
///
/// # Panics
/// As [`solve`].
pub fn fewest(puzzle: &Puzzle) -> Option<Vec<Move>> {
    search(&Board::from_columns(&puzzle.columns), puzzle.moves, true).first
}

/// Searches `board` for a sequence of exactly `moves` moves, or with `fewest` of the fewest
/// moves up to `moves`, that empties it. The board must be settled, with no three in a line, as
/// the parser and the generator guarantee (the last-move rule relies on it). The outcome's
/// `nodes` counts the boards visited.
///
/// # Complexity
/// O(56^`moves`) boards visited in the worst case, each in O(1); the pruning of the module
/// documentation keeps that far lower in practice. Memory: at most 917,504 dead ends
/// (about 43 MB) and the tables of needs, whatever `moves` is.
///
/// # Panics
/// In debug builds, when `board` has three in a line.
pub fn search(board: &Board, moves: usize, fewest: bool) -> Outcome<Vec<Move>> {
    search_with(board, moves, fewest, Progress::default())
}

/// [`search`], reporting the boards searched to `progress`.
///
/// # Panics
/// As [`search`].
pub fn search_with(board: &Board, moves: usize, fewest: bool, progress: Progress) -> Outcome<Vec<Move>> {
    search_with_dead_ends(board, moves, fewest, progress, MAX_DEAD_ENDS)
}

/// [`search_with`] with the dead-end table capped at `max_dead_ends` keys.
fn search_with_dead_ends(
    board: &Board,
    moves: usize,
    fewest: bool,
    progress: Progress,
    max_dead_ends: usize,
) -> Outcome<Vec<Move>> {
    debug_assert!(board.line_cells().is_empty(), "an unsettled board:\n{board:?}");
    let counts = board.colour_counts();
    let colours = counts.iter().rposition(|&count| count > 0).unwrap_or(0) as u8;
    // No move brings a block: no colour ever has more blocks than now.
    let most = counts.iter().copied().max().unwrap_or(0) as usize;
    let need_tables = (0..=most).map(NeedTable::get).collect();
    let mut search = Search {
        colours,
        need_tables,
        dead_ends: DeadEnds::new(max_dead_ends),
        path: Vec::with_capacity(moves),
        nodes: 0,
        progress,
    };
    let first = if fewest { 1 } else { moves };
    // A shortest solution of k moves empties the board after exactly k moves (an empty board
    // has no move), so the fewest moves are the first k that an exact search solves. The dead
    // ends found for one k stay true for the next: they are keyed by the moves left.
    let found = (first..=moves).any(|exact| search.exactly(*board, exact, 0, None));
    Outcome { first: found.then_some(search.path), found: u64::from(found), nodes: search.nodes }
}

struct Search {
    /// The colours in play are 1..=colours (no move brings a new colour).
    colours: u8,
    /// The table of needs for each number of blocks a colour may have.
    need_tables: Vec<&'static NeedTable>,
    dead_ends: DeadEnds,
    /// The moves leading to the board being searched; the solution when the search succeeds.
    path: Vec<Move>,
    nodes: u64,
    /// Where the boards searched are reported, [`PROGRESS_EVERY`] at a time.
    progress: Progress,
}

/// Boards between two progress reports (a power of two: one mask test per board).
const PROGRESS_EVERY: u64 = 1 << 16;

impl Search {
    /// True when exactly `remaining` moves can empty `board`; the moves are then in `path`.
    /// The moves in `asleep` (bits by [`move_bit`]) need not be searched here (see *Sleeping
    /// moves* in the module documentation).
    ///
    /// `known` holds the needs of `board` when the caller knows them (see [`Needs`]).
    fn exactly(&mut self, board: Board, remaining: usize, asleep: u64, known: Option<Needs>) -> bool {
        self.nodes += 1;
        if self.nodes & (PROGRESS_EVERY - 1) == 0 {
            self.progress.add_nodes(PROGRESS_EVERY);
        }
        if remaining == 0 {
            return board.is_empty();
        }
        if board.is_empty() {
            return false;
        }
        // The table first: most boards met deep in the search were met before, and a lookup
        // costs less than the bound.
        let key = dead_end_key(&board, remaining);
        if self.dead_ends.contains(&key) {
            return false;
        }
        debug_assert!(known.is_none_or(|known| known == Needs::of(&board, self.colours, &self.need_tables)));
        let needs = known.unwrap_or_else(|| Needs::of(&board, self.colours, &self.need_tables));
        let Some(bound) = needs.bound(remaining, self.colours) else { return false };
        // The quiet moves searched so far here, by the pair of columns they touch (the left one).
        let mut quiet_searched = [0_u64; WIDTH - 1];
        let candidates = candidates(&board, bound.forced, self.colours) & !asleep;
        for x in 0..WIDTH {
            // Column x's candidates in the judge's order: bit 2y for (x, y, 1), 2y + 1 for (x, y, -1).
            let right = if x + 1 < WIDTH { (candidates >> (7 * x)) & 0x7f } else { 0 };
            let left = if x > 0 { (candidates >> (7 * (x + 3))) & 0x7f } else { 0 };
            let mut ordered = SPREAD[right as usize] | (SPREAD[left as usize] << 1);
            while ordered != 0 {
                let index = ordered.trailing_zeros() as usize;
                ordered &= ordered - 1;
                let (y, g) = (index / 2, if index & 1 == 0 { 1 } else { -1 });
                let mv = Move::new(x as u8, y as u8, g);
                let to = (x as i8 + g) as usize;
                let Some(transfers) = needs.after_move(&bound, &board, (x, y, to), &self.need_tables) else {
                    continue;
                };
                // A swap that completes no line leaves a settled board: nothing to test or
                // remove, and as the last move it cannot empty the board.
                let quiet_swap = g > 0 && !swap_may_clear(&board, x, y);
                if remaining == 1 && quiet_swap {
                    continue;
                }
                let mut child = board;
                let quiet = if quiet_swap {
                    child.displace(mv);
                    true
                } else {
                    child.apply(mv) == 0
                };
                if remaining == 1 {
                    if child.is_empty() {
                        self.path.push(mv);
                        return true;
                    }
                    continue;
                }
                let pair = if g > 0 { x } else { x - 1 };
                let child_asleep = if quiet {
                    let far =
                        quiet_searched.iter().enumerate().filter(|&(other, _)| other.abs_diff(pair) >= 2);
                    far.fold(0, |all, (_, moves)| all | moves)
                } else {
                    0
                };
                self.path.push(mv);
                // Settling that removes nothing leaves the needs as the move made them.
                if self.exactly(child, remaining - 1, child_asleep, quiet.then(|| needs.with(transfers))) {
                    return true;
                }
                self.path.pop();
                if quiet {
                    quiet_searched[pair] |= move_bit(x, y, g);
                }
            }
        }
        self.dead_ends.insert(key);
        false
    }
}

/// A bit for each move that stays on the board: the right moves of columns 0-3 in bits 0..28,
/// the left moves of columns 1-4 in bits 28..56, seven rows each.
const fn move_bit(x: usize, y: usize, g: i8) -> u64 {
    let index = if g > 0 { 7 * x + y } else { 7 * (x + 3) + y };
    1 << index
}

/// `SPREAD[b]`: the seven bits of `b` moved to the even positions 0, 2, ..., 12.
const SPREAD: [u16; 128] = {
    let mut table = [0; 128];
    let mut bits = 0;
    while bits < 128 {
        let mut bit = 0;
        while bit < 7 {
            table[bits] |= ((bits as u16 >> bit) & 1) << (2 * bit);
            bit += 1;
        }
        bits += 1;
    }
    table
};

/// The moves worth searching on `board`, as bits by [`move_bit`]: every legal move but the
/// mirror moves (left moves into an occupied cell), and only those that transfer a block of
/// every forced colour (a swap of two colours when two transfers are forced).
fn candidates(board: &Board, forced: Forced, colours: u8) -> u64 {
    let occupied: [u64; WIDTH] = std::array::from_fn(|x| u64::from(board.occupied_rows(x)));
    let mut moves = 0;
    for (x, rows) in occupied.iter().enumerate().take(WIDTH - 1) {
        moves |= rows << (7 * x);
    }
    for x in 1..WIDTH {
        moves |= (occupied[x] & !occupied[x - 1]) << (7 * (x + 3));
    }
    for colour in 1..=colours {
        if forced.colours & (1 << colour) == 0 {
            continue;
        }
        // A right move transfers the colour when exactly one of the two cells holds it (the
        // other may be empty); a left drag, when the dragged block has it.
        let own: [u64; WIDTH] = std::array::from_fn(|x| u64::from(board.colour_rows(x, colour)));
        let mut transferring = 0;
        for x in 0..WIDTH - 1 {
            transferring |= (occupied[x] & (own[x] ^ own[x + 1])) << (7 * x);
        }
        for (x, rows) in own.iter().enumerate().skip(1) {
            transferring |= rows << (7 * (x + 3));
        }
        moves &= transferring;
    }
    if forced.two {
        // Only swaps of two colours transfer two blocks.
        let mut swaps = 0;
        for x in 0..WIDTH - 1 {
            swaps |= (occupied[x] & occupied[x + 1] & !u64::from(board.same_rows(x))) << (7 * x);
        }
        moves &= swaps;
    }
    moves
}

/// False when the right move of the block at (x, y) is a swap after which no line stands, so
/// nothing vanishes (on a settled board, which has no line): it swaps one colour for itself, or
/// neither block completes a line in its new cell. Such a swap cannot empty the board. A swap of
/// two colours makes a line only through the two blocks it moves: the one moving right to
/// (x + 1, y) can only line up with blocks above, below or further right of it (its old cell now
/// holds the other colour), the other one with blocks above, below or left of (x, y). Reading
/// that from a few row masks costs less than making the move and testing the whole board, and
/// most swaps complete nothing. True for a drag (the rules decide) and for a swap that
/// completes a line.
fn swap_may_clear(board: &Board, x: usize, y: usize) -> bool {
    let (right_moving, left_moving) = (board.cell(x, y), board.cell(x + 1, y));
    if left_moving == 0 {
        return true; // a drag, not a swap: let the rules decide
    }
    if right_moving == left_moving {
        return false; // changes nothing on a board that is not empty
    }
    // Three in column x with (x, y) among them, the cell itself not counted.
    let in_column = |x: usize, colour: u8| {
        let rows = u32::from(board.colour_rows(x, colour)) << 2;
        let around = rows >> y; // bit 2 is row y; bits 0, 1 below it, 3, 4 above
        around & 0b11 == 0b11 || around & 0b1010 == 0b1010 || around & 0b11000 == 0b11000
    };
    let in_row = |x: usize, colour: u8| board.colour_rows(x, colour) >> y & 1 != 0;
    in_column(x + 1, right_moving)
        || in_column(x, left_moving)
        || (x + 3 < WIDTH && in_row(x + 2, right_moving) && in_row(x + 3, right_moving))
        || (x >= 2 && in_row(x - 1, left_moving) && in_row(x - 2, left_moving))
}

#[cfg(test)]
mod tests;
