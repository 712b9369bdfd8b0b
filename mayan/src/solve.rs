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
//! count vector after a transfer is a neighbouring cell. Each table is built on first use;
//! `t ≤ 35`, and a colour of the 30-block boards of the benchmarks has at most about 15 blocks:
//! a table of 16⁴ bytes.
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
//! children where blocks vanished count their colours again. On random 30-block boards with 4
//! colours and n = 5, the search visits about 8,500 boards a board (the reference: about 50⁵
//! sequences); the dead-end table answers about half of those met with one move left.

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use rustc_hash::{FxBuildHasher, FxHashSet};

pub use common::search::Outcome;
use common::search::Progress;

use crate::board::Board;
use crate::model::{HEIGHT, MAX_COLOUR, Move, Puzzle, WIDTH};

/// The lexicographically smallest sequence of exactly `puzzle.moves` moves that empties the
/// board, or `None`.
pub fn solve(puzzle: &Puzzle) -> Option<Vec<Move>> {
    search(&Board::from_columns(&puzzle.columns), puzzle.moves, false).first
}

/// [`solve`], or with `fewest` [`fewest`], reporting the work to `progress`.
pub fn solve_with(puzzle: &Puzzle, fewest: bool, progress: Progress) -> Option<Vec<Move>> {
    search_with(&Board::from_columns(&puzzle.columns), puzzle.moves, fewest, progress).first
}

/// The lexicographically smallest of the shortest sequences of at most `puzzle.moves` moves
/// that empty the board, or `None`.
pub fn fewest(puzzle: &Puzzle) -> Option<Vec<Move>> {
    search(&Board::from_columns(&puzzle.columns), puzzle.moves, true).first
}

/// Searches `board` for a sequence of exactly `moves` moves, or with `fewest` of the fewest
/// moves up to `moves`, that empties it. The board must be settled, with no three in a line, as
/// the parser and the generator guarantee (the last-move rule relies on it).
pub fn search(board: &Board, moves: usize, fewest: bool) -> Outcome<Vec<Move>> {
    search_with(board, moves, fewest, Progress::default())
}

/// [`search`], reporting the boards searched to `progress`.
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

/// What the next move must do, from the transfer bound (see the module documentation).
#[derive(Debug, Clone, Copy)]
struct Forced {
    /// Colours (bit set) of which the next move must transfer a block.
    colours: u16,
    /// The next move must transfer two blocks.
    two: bool,
}

/// Colours are indexed 1..=10 (index 0 unused: its need stays 0).
const COLOUR_SLOTS: usize = MAX_COLOUR as usize + 1;

/// Each colour's count per column on one board, as its cell in the table of needs for its
/// number of blocks, and the need there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Needs {
    blocks: [u8; COLOUR_SLOTS],
    cell: [u32; COLOUR_SLOTS],
    need: [u8; COLOUR_SLOTS],
}

impl Needs {
    /// The needs of the colours 1..=`colours` on `board` (`tables` indexed by block count).
    fn of(board: &Board, colours: u8, tables: &[&'static NeedTable]) -> Needs {
        let mut needs = Needs { blocks: [0; COLOUR_SLOTS], cell: [0; COLOUR_SLOTS], need: [0; COLOUR_SLOTS] };
        for colour in 1..=colours as usize {
            let counts: [usize; WIDTH] =
                std::array::from_fn(|x| board.count_in_column(x, colour as u8) as usize);
            let blocks = counts.iter().sum::<usize>();
            let table = tables[blocks];
            let cell = table.cell(&counts);
            needs.blocks[colour] = blocks as u8;
            needs.cell[colour] = cell as u32;
            needs.need[colour] = table.needs[cell];
        }
        needs
    }

    /// The bound with `remaining` moves left, `None` when they cannot empty the board.
    fn bound(&self, remaining: usize, colours: u8) -> Option<Bound> {
        let mut total = 0;
        let mut forced = 0;
        for colour in 1..=colours as usize {
            let need = self.need[colour] as usize;
            if need > remaining {
                return None;
            }
            if need == remaining {
                forced |= 1 << colour;
            }
            total += need;
        }
        (total <= 2 * remaining).then_some(Bound {
            total,
            remaining,
            forced: Forced { colours: forced, two: total == 2 * remaining },
        })
    }

    /// The cell and need of `colour` once one of its blocks moved from column `from` to the
    /// neighbouring column `to` (the colour must have a block in column `from`): its count
    /// vector is a neighbouring cell.
    fn after_transfer(&self, colour: u8, from: usize, to: usize, tables: &[&'static NeedTable]) -> (u32, u8) {
        let colour = colour as usize;
        let table = tables[self.blocks[colour] as usize];
        let cell = self.cell[colour] as usize;
        // Moving right lowers the prefix sum at `from`; moving left raises it at `to`.
        let cell = if to > from { cell - table.strides[from] } else { cell + table.strides[to] };
        (cell as u32, table.needs[cell])
    }

    /// The change the move of the block at (`x`, `y`) to column `to` makes to the needs, before
    /// the board settles, if the needs after it meet `bound` with one move fewer (see *The bound
    /// one move ahead*); `None` if not.
    fn after_move(
        &self,
        bound: &Bound,
        board: &Board,
        (x, y, to): (usize, usize, usize),
        tables: &[&'static NeedTable],
    ) -> Option<Transfers> {
        let left = bound.remaining - 1;
        let (moving, beside) = (board.cell(x, y), board.cell(to, y));
        if moving == beside {
            // A swap of one colour transfers nothing: the board itself, one move fewer.
            return (bound.forced.colours == 0 && bound.total <= 2 * left).then_some(Transfers::NONE);
        }
        let (moving_cell, moving_need) = self.after_transfer(moving, x, to, tables);
        // A drag moves no second block: "colour 0", whose need is 0 before and after.
        let (beside_cell, beside_need) =
            if beside == 0 { (0, 0) } else { self.after_transfer(beside, to, x, tables) };
        let total = bound.total + moving_need as usize + beside_need as usize
            - self.need[moving as usize] as usize
            - self.need[beside as usize] as usize;
        // The colours not transferred keep their need: none may be forced.
        let transferred = (1_u16 << moving) | (1 << beside);
        let fits = bound.forced.colours & !transferred == 0
            && moving_need as usize <= left
            && beside_need as usize <= left
            && total <= 2 * left;
        fits.then_some(Transfers {
            colours: [moving, beside],
            cells: [moving_cell, beside_cell],
            needs: [moving_need, beside_need],
        })
    }

    /// The needs once `transfers` are made.
    fn with(mut self, transfers: Transfers) -> Needs {
        for ((colour, cell), need) in transfers.colours.into_iter().zip(transfers.cells).zip(transfers.needs)
        {
            self.cell[colour as usize] = cell;
            self.need[colour as usize] = need;
        }
        self
    }
}

/// The colours a move transfers (0 for none: slot 0 of [`Needs`] stays at need 0), and their
/// cells and needs after it.
#[derive(Clone, Copy)]
struct Transfers {
    colours: [u8; 2],
    cells: [u32; 2],
    needs: [u8; 2],
}

impl Transfers {
    const NONE: Transfers = Transfers { colours: [0; 2], cells: [0; 2], needs: [0; 2] };
}

/// The transfer bound on one board with `remaining` moves left.
#[derive(Debug)]
struct Bound {
    /// The sum of the needs.
    total: usize,
    remaining: usize,
    forced: Forced,
}

/// Larger than any number of moves: a colour that can never vanish.
const NEVER: u8 = u8::MAX;

/// The need of a colour of `blocks` blocks for every count per column, indexed by the prefix
/// sums of the counts (see *The table of needs* in the module documentation).
struct NeedTable {
    /// The cell of the count vector with prefix sums P0..P3 is `Σ P_x · strides[x]`.
    strides: [usize; WIDTH - 1],
    /// A box of (blocks + 1)⁴ cells; only the cells of count vectors are read.
    needs: Box<[u8]>,
}

impl NeedTable {
    /// The table for colours of `blocks` blocks, built on first use.
    fn get(blocks: usize) -> &'static NeedTable {
        static TABLES: [OnceLock<NeedTable>; WIDTH * HEIGHT + 1] =
            [const { OnceLock::new() }; WIDTH * HEIGHT + 1];
        TABLES[blocks].get_or_init(|| NeedTable::build(blocks))
    }

    /// The cell of a count vector (its sum the table's number of blocks).
    fn cell(&self, counts: &[usize; WIDTH]) -> usize {
        self.cell_of_prefixes(&prefix_sums(counts))
    }

    fn cell_of_prefixes(&self, prefixes: &[usize; WIDTH - 1]) -> usize {
        prefixes.iter().zip(self.strides).map(|(prefix, stride)| prefix * stride).sum()
    }

    /// The earth mover's distance from every count vector to the nearest vanishing profile:
    /// breadth first from all the profiles at once, a step moving one block one column.
    fn build(blocks: usize) -> NeedTable {
        let side = blocks + 1;
        let strides = [side * side * side, side * side, side, 1];
        let mut table = NeedTable { strides, needs: vec![NEVER; side.pow(4)].into_boxed_slice() };
        // Count vectors as prefix sums, in the order they are reached.
        let mut reached = Vec::new();
        for_each_count_vector(blocks, &mut |profile| {
            if may_vanish(profile) {
                let prefixes = prefix_sums(profile);
                table.needs[table.cell_of_prefixes(&prefixes)] = 0;
                reached.push(prefixes);
            }
        });
        let mut next = 0;
        while let Some(&prefixes) = reached.get(next) {
            next += 1;
            let need = table.needs[table.cell_of_prefixes(&prefixes)] + 1;
            for border in 0..WIDTH - 1 {
                // A block crosses the border between columns `border` and `border + 1`: to the
                // right if column `border` has one, to the left if column `border + 1` has one.
                let below = if border == 0 { 0 } else { prefixes[border - 1] };
                let above = prefixes.get(border + 1).copied().unwrap_or(blocks);
                let right = (prefixes[border] > below).then(|| prefixes[border] - 1);
                let left = (prefixes[border] < above).then(|| prefixes[border] + 1);
                for prefix in right.into_iter().chain(left) {
                    let mut neighbour = prefixes;
                    neighbour[border] = prefix;
                    let cell = table.cell_of_prefixes(&neighbour);
                    if table.needs[cell] == NEVER {
                        table.needs[cell] = need;
                        reached.push(neighbour);
                    }
                }
            }
        }
        table
    }
}

/// The number of blocks in columns 0..=x, for x = 0..4 (the last, all blocks, left out).
fn prefix_sums(counts: &[usize; WIDTH]) -> [usize; WIDTH - 1] {
    let mut sum = 0;
    std::array::from_fn(|x| {
        sum += counts[x];
        sum
    })
}

/// Calls `visit` with every way of putting `blocks` blocks in the five columns.
fn for_each_count_vector(blocks: usize, visit: &mut impl FnMut(&[usize; WIDTH])) {
    fn place(counts: &mut [usize; WIDTH], x: usize, left: usize, visit: &mut impl FnMut(&[usize; WIDTH])) {
        if x == WIDTH - 1 {
            counts[x] = left;
            visit(counts);
            return;
        }
        for count in 0..=left {
            counts[x] = count;
            place(counts, x + 1, left - count, visit);
        }
    }
    place(&mut [0; WIDTH], 0, blocks, visit);
}

/// True when `profile` (blocks of one colour per column) is a vanishing profile: every column
/// with one or two of them has the horizontal windows its blocks need (see the module
/// documentation). A column with none or three and more needs nothing.
fn may_vanish(profile: &[usize; WIDTH]) -> bool {
    let windows = |x: usize| (x.saturating_sub(2)..=x.min(WIDTH - 3)).map(|first| first..first + 3);
    (0..WIDTH).all(|x| match profile[x] {
        1 => windows(x).any(|window| window.clone().all(|w| profile[w] >= 1)),
        2 => windows(x).any(|first| {
            windows(x).any(|second| {
                (0..WIDTH)
                    .filter(|&w| w != x)
                    .all(|w| profile[w] >= usize::from(first.contains(&w)) + usize::from(second.contains(&w)))
            })
        }),
        _ => true,
    })
}

/// The board's words with the moves left in byte 7 of column 0, always zero in a board (and
/// `remaining` ≥ 1, so no key is all zeros).
fn dead_end_key(board: &Board, remaining: usize) -> [u64; WIDTH] {
    let mut words = board.words();
    words[0] |= (remaining as u64) << 56;
    words
}

/// Most dead ends [`DeadEnds`] holds at once: 7/8 of 2^20, the most a hash table of 2^20 slots
/// holds before it doubles, so the table stays at about 43 MB (40-byte keys and a control byte
/// per slot). Searches of 6 and 7 moves on 30-block boards in three colours meet that many
/// failing boards in about a second.
const MAX_DEAD_ENDS: usize = (1 << 20) / 8 * 7;

/// The set of dead-end keys, capped: when it holds `limit` keys it forgets them all and starts
/// over. The table only ever skips a search whose failure it remembers, so forgetting keeps the
/// search exact (the same solution, the same verdict); it only searches those boards again if
/// it meets them again. Clearing, rather than refusing new keys, keeps the keys of the part of
/// the tree being searched, where most hits are.
struct DeadEnds {
    keys: FxHashSet<DeadEndKey>,
    limit: usize,
}

impl DeadEnds {
    fn new(limit: usize) -> Self {
        DeadEnds { keys: FxHashSet::with_capacity_and_hasher(1 << 12, FxBuildHasher), limit }
    }

    fn contains(&self, key: &[u64; WIDTH]) -> bool {
        self.keys.contains(&DeadEndKey(*key))
    }

    fn insert(&mut self, key: [u64; WIDTH]) {
        if self.keys.len() >= self.limit {
            self.keys.clear();
        }
        self.keys.insert(DeadEndKey(key));
    }
}

/// A dead-end key hashed as its five words (the derived hash of an array hashes its length and
/// then its bytes as a string, twice the work on this path, which runs for every board met).
#[derive(PartialEq, Eq)]
struct DeadEndKey([u64; WIDTH]);

impl Hash for DeadEndKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.iter().for_each(|&word| state.write_u64(word));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn need_of(counts: [usize; WIDTH]) -> u8 {
        let table = NeedTable::get(counts.iter().sum());
        table.needs[table.cell(&counts)]
    }

    #[test]
    fn vanishing_profiles_give_every_block_its_line() {
        assert!(may_vanish(&[0; WIDTH]));
        assert!(may_vanish(&[1, 1, 1, 0, 0]));
        assert!(may_vanish(&[0, 0, 0, 0, 3]));
        assert!(may_vanish(&[3, 1, 1, 0, 0]), "an L");
        assert!(may_vanish(&[1, 2, 2, 1, 0]), "rows across columns 0-2 and 1-3");
        assert!(may_vanish(&[2, 2, 2, 0, 0]), "two rows across columns 0-2");
        assert!(!may_vanish(&[1, 1, 0, 0, 0]));
        assert!(!may_vanish(&[3, 1, 0, 0, 0]), "the 1 has no row");
        assert!(!may_vanish(&[1, 2, 1, 0, 0]), "one of the 2 has no row");
        assert!(!may_vanish(&[0, 0, 1, 1, 2]), "column 4's two blocks share columns 2 and 3");
        assert!(!may_vanish(&[2, 1, 2, 1, 2]));
    }

    #[test]
    fn need_counts_transfers_to_a_vanishing_profile() {
        assert_eq!(need_of([0; WIDTH]), 0);
        assert_eq!(need_of([1, 1, 0, 0, 0]), NEVER, "two blocks never vanish");
        assert_eq!(need_of([1, 1, 1, 0, 0]), 0);
        assert_eq!(need_of([3, 0, 0, 0, 0]), 0, "a column of three");
        assert_eq!(need_of([1, 1, 0, 1, 0]), 1, "one block one column over");
        // The lone block to column 2 and one of the pair to column 3: three transfers.
        assert_eq!(need_of([1, 0, 0, 0, 2]), 3);
        assert_eq!(need_of([1, 0, 0, 0, 1]), NEVER);
        // The lone block one column right and the block of column 4 one column left.
        assert_eq!(need_of([1, 0, 0, 2, 1]), 2);
        // Every block has two others within reach, but no vanishing profile is one transfer
        // away; two transfers make [1, 2, 2, 2, 1], rows across columns 0-4 and 1-3.
        assert_eq!(need_of([2, 1, 2, 1, 2]), 2);
    }

    /// The earth mover's distance, `Σ |prefix difference|`, to the nearest vanishing profile,
    /// computed directly.
    fn need_by_brute_force(counts: &[usize; WIDTH]) -> u8 {
        let mut best = NEVER;
        for_each_count_vector(counts.iter().sum(), &mut |profile| {
            if may_vanish(profile) {
                let (from, to) = (prefix_sums(counts), prefix_sums(profile));
                let distance: usize = from.iter().zip(to).map(|(a, b)| a.abs_diff(b)).sum();
                best = best.min(distance as u8);
            }
        });
        best
    }

    #[test]
    fn the_table_holds_the_earth_movers_distance() {
        for blocks in 0..=8 {
            let table = NeedTable::get(blocks);
            for_each_count_vector(blocks, &mut |counts| {
                assert_eq!(table.needs[table.cell(counts)], need_by_brute_force(counts), "{counts:?}");
            });
        }
    }

    /// A board with its needs and its bound with `remaining` moves left.
    struct Probe {
        board: Board,
        tables: Vec<&'static NeedTable>,
        needs: Needs,
        bound: Option<Bound>,
    }

    fn probe(picture: &[&str], remaining: usize) -> Probe {
        let board = Board::from_picture(picture);
        let counts = board.colour_counts();
        let tables: Vec<_> = (0..=*counts.iter().max().unwrap() as usize).map(NeedTable::get).collect();
        let colours = counts.iter().rposition(|&count| count > 0).unwrap_or(0) as u8;
        let needs = Needs::of(&board, colours, &tables);
        Probe { board, needs, bound: needs.bound(remaining, colours), tables }
    }

    impl Probe {
        fn forced(&self) -> Forced {
            self.bound.as_ref().expect("within the bound").forced
        }

        /// True when the bound one move ahead lets the block at (x, y) move to column `to`.
        fn admits(&self, x: usize, y: usize, to: usize) -> bool {
            let bound = self.bound.as_ref().expect("within the bound");
            self.needs.after_move(bound, &self.board, (x, y, to), &self.tables).is_some()
        }
    }

    #[test]
    fn the_forced_move_rules_read_the_bound() {
        // Colour 1 in columns 0, 3 and 4: the block in column 0 needs 2 transfers.
        let picture = ["1..11"];
        assert!(probe(&picture, 1).bound.is_none());
        let two_left = probe(&picture, 2);
        let forced = two_left.forced();
        assert_eq!((forced.colours, forced.two), (1 << 1, false));
        // The right drag of the 1 in column 0 and the left drag of the 1 in column 3; not the
        // swap of the two 1s on the right (it transfers nothing), nor its mirror.
        assert_eq!(candidates(&two_left.board, forced, 1), move_bit(0, 0, 1) | move_bit(3, 0, -1));
        // Of those, only the first brings colour 1 closer to a line: the second splits the pair.
        assert!(two_left.admits(0, 0, 1));
        assert!(!two_left.admits(3, 0, 2));
        assert!(!two_left.admits(3, 0, 4), "a swap of one colour when a transfer is forced");
        // Colours 1 and 2 each need one transfer: one move must swap a 1 with a 2.
        let one_left = probe(&["2.21.", "1.12."], 1);
        let forced = one_left.forced();
        assert_eq!((forced.colours, forced.two), (0b110, true));
        assert_eq!(candidates(&one_left.board, forced, 2), move_bit(2, 0, 1) | move_bit(2, 1, 1));
    }

    #[test]
    fn the_last_move_must_leave_every_colour_a_vanishing_profile() {
        let one_left = probe(&["11.1."], 1);
        assert!(one_left.admits(3, 0, 2), "the drag that completes the row");
        assert!(!one_left.admits(1, 0, 2), "a drag that leaves the row broken");
        assert!(!one_left.admits(0, 0, 1), "a swap of one colour leaves the board as it is");
        // With a move to spare, the swap of one colour keeps the board within the bound.
        assert!(probe(&["11.1."], 2).admits(0, 0, 1));
    }

    #[test]
    fn a_move_that_removes_nothing_leaves_the_needs_it_was_checked_with() {
        let start = probe(&["2.3..", "1231.", "32123", "21312"], 3);
        let bound = start.bound.as_ref().unwrap();
        let colours = 3;
        let mut quiet = 0;
        for mv in start.board.moves() {
            let (x, y) = (mv.x as usize, mv.y as usize);
            let Some(transfers) = start.needs.after_move(
                bound,
                &start.board,
                (x, y, mv.target_column().unwrap() as usize),
                &start.tables,
            ) else {
                continue;
            };
            let mut child = start.board;
            if child.apply(mv) == 0 {
                quiet += 1;
                assert_eq!(start.needs.with(transfers), Needs::of(&child, colours, &start.tables), "{mv}");
            }
        }
        assert!(quiet >= 10, "only {quiet} quiet moves");
    }

    #[test]
    fn dead_ends_remember_keys_up_to_the_cap() {
        let mut dead_ends = DeadEnds::new(100_000);
        let keys: Vec<[u64; WIDTH]> = (1..10_000_u64).map(|i| [1 << 56 | i, i, i * 7, 0, i % 3]).collect();
        for key in &keys {
            dead_ends.insert(*key);
        }
        assert!(keys.iter().all(|key| dead_ends.contains(key)));
        assert!(!dead_ends.contains(&[1 << 56, 2, 0, 0, 0]));
        let mut capped = DeadEnds::new(1000);
        for key in &keys {
            capped.insert(*key);
        }
        assert!(capped.keys.len() <= 1000);
        assert!(capped.contains(keys.last().unwrap()), "the newest key is kept");
    }

    #[test]
    fn a_capped_dead_end_table_changes_the_work_not_the_answer() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for moves in [3, 4] {
            for _ in 0..6 {
                let board = crate::r#gen::random_board(20, 3, &mut rng).expect("20 blocks in 3 colours fit");
                let free = search(&board, moves, false);
                let capped = search_with_dead_ends(&board, moves, false, Progress::default(), 8);
                assert_eq!(capped.first, free.first, "{board:?}");
                assert!(capped.nodes >= free.nodes);
            }
            let (board, _) =
                crate::r#gen::solvable_board(20, 3, moves, &mut rng).expect("the generator makes these");
            let free = search(&board, moves, true);
            assert!(free.first.is_some());
            assert_eq!(search_with_dead_ends(&board, moves, true, Progress::default(), 8).first, free.first);
        }
    }
}
