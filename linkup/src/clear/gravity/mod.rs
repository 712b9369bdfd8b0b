//! The search with gravity (see the [module documentation](super)).
//!
//! ## Positions
//! Pieces fall straight down and never pass each other, and what falls after a removal depends
//! only on which cells hold which kinds (the pieces above an emptied cell fall onto the next
//! piece or the bottom row). So the future of a position depends only on its board: which kind
//! lies on which cell, not which piece of the kind. In a column whose pieces were given packed
//! at its bottom (no gap under any piece), the pieces present always stay packed at the bottom,
//! so the column is the sequence of the kinds present, bottom to top; two sets of pieces that
//! leave the same sequence are the same board. The table of hopeless positions is keyed by a
//! canonical set of pieces per packed column: the sequence of kinds present matched greedily,
//! bottom up, onto the column's pieces as given (greedy matching finds a match whenever the
//! sequence is a subsequence of the column, and the same sequence gives the same match).
//! Columns given with a gap keep the pieces present as they are.
//!
//! ## Sleep sets
//! A position from which no order clears the board is *hopeless*, and so is every position
//! reached from it (else the two orders together would clear it). In a column given packed, a
//! removal only empties cells (the pieces left stay packed at the bottom) and moves only the
//! pieces above the ones removed. So when a pair `s` was refuted at a position `P` (`P − s` is
//! hopeless) and another pair `n` is tried there, with no piece in common, the columns of `s`
//! given packed and no piece of `n` above a piece of `s` in its column: after `s`, the pieces
//! of `n` have not moved and every cell open before is still open, so `n` can be removed from
//! `P − s`, and `P − n − s`, the same set of pieces as `P − s − n`, is hopeless. Below `n`, the
//! pair `s` is not tried: it sits in the *sleep set* of `P − n`. The sleep set of a position
//! holds the pairs of its parent's sleep set and the pairs refuted at the parent before it,
//! each kept when it commutes so with the pair removed; the safe moves made on arriving keep
//! only the pairs that commute so with each of them. This saves the work of positions found in
//! the table; the positions counted are the same.
//!
//! A line leaves each of its two pieces through an open cell beside it, unless they touch, so
//! the pairs with a piece shut in on all four sides are not looked at.
//!
//! ## Restarts
//! Most clearable deals fall to the first order of moves in a few hundred positions; the ones
//! that do not tend to lose themselves under an early move that cannot be cleared but takes a
//! long time to refute. The search therefore runs in rounds with budgets that grow as the Luby
//! sequence (1, 1, 2, 1, 1, 2, 4, …) times [`RESTART_UNIT`] positions. Every round tries the
//! pairs that finish their kind first; the first round then goes in reading order, each later
//! round in a pseudo-random order drawn from the board and the round, so the answer is the
//! same on every run. (Trying first the pairs that make the fewest pieces fall, as the search
//! did before, left the rounds little to vary: on the 1,000 standard deals it took 8.0 million
//! positions and left one deal undecided, against 2.7 million and none.) The table of hopeless
//! positions is kept from round to round (a position is entered only once every move from it was
//! refuted, which no order changes), so each round skips what the rounds before proved. A round
//! that ends without running out of its budget is exact: it found a clearing order or refuted every
//! move from the start. The positions of every round count against the one budget of the search.
//!
//! ## Work per position
//! Everything a position needs about its board is kept up to date column by column (`Columns`,
//! whose invariants are written there) as `GravitySearch::settle_packed` lays a column out after a
//! removal or its undo, visiting only the pieces at and above the lowest one removed or put back
//! (`GravitySearch::settle` lays out a column given with a gap): the column tops and their count
//! per kind (the safe moves above, which look only at the kinds with two or more pieces on top), a
//! grid of pieces, only in the rows that change, and the key of the board with its Zobrist hash,
//! changed only for the pieces whose bit changes (a removal takes the key's slots of its columns
//! from the lookup of its branch, an undo takes back those from before the removal). The first
//! position of a round lays out a grid of kinds of one byte a cell from the grid of pieces (kept at
//! every removal only when every position finds its pairs from scratch) and finds its joinable
//! pairs from scratch: those of two pieces with an open side (row masks, bucketed by kind through
//! each piece's code, its kind and index in the kind; a pair with a sunk piece is checked by one
//! mask, `sunk_joinable`) and those side by side with a piece shut in (the grid of kinds, eight
//! cells a word: `side_by_side`). Every other position brings its parent's pairs up to date
//! (`GravitySearch::update_pairs`, where the proof is): when every column was given packed, a
//! removal only opens the top cells of its columns, so only the pairs of a piece that fell or that
//! sees an opened cell along a row or a column can change; the others are the parent's. A pair
//! joined is dropped when it is in the sleep set (a position has a few branches, and many more
//! pairs are looked at). Before any branch is played, the key and hash it would leave before
//! anything falls (`GravitySearch::hash_without`: the key depends only on which pieces are left)
//! are made for every branch, then looked up in the table of hopeless positions one after the
//! other, so that the lookups' loads are in flight together; a key found there was entered after
//! its safe moves, so it has none, the branch's position is that board, and the branch is refuted
//! without being played. None of this changes which positions are searched or their order.

mod columns;
mod pairs;
#[cfg(test)]
mod tests;

use super::position::grouped;
use super::rounds::in_rounds;
use super::safe::clear_many;
use super::table::Table;
use super::{
    Bits, Branch, Cell, MAX_EDGES, OutOfBudget, Position, Reach, Search, Settings, mix, reach, span,
};
use crate::model::Board;
pub(super) use columns::Columns;
use columns::{Code, NO_PIECE};
use pairs::NO_KIND;

/// Positions of the shortest round of the restarts (the unit of the Luby sequence).
pub const RESTART_UNIT: u64 = 1_000;

/// Most 64-bit words the table of hopeless positions holds with gravity (64 MiB): a standard
/// deal's slot takes 4 words, so the table holds 1.9 million positions, nearly every position of
/// the default budget.
pub const GRAVITY_MEMO_WORDS: usize = 1 << 23;

/// The board's columns as given, which gravity lays a column out from (see [`GravitySearch::settle`]).
#[derive(Debug)]
pub(in crate::clear) struct Given {
    /// The pieces of column c, top to bottom: `column[column_start[c]..column_start[c + 1]]`
    /// (framed columns).
    pub(in crate::clear) column: Vec<u16>,
    pub(in crate::clear) column_start: Vec<usize>,
    /// The row of every piece on the board as given.
    pub(in crate::clear) home_row: Vec<u8>,
}

/// The search with gravity: the position, the board's columns as given ([`Given`]), which the
/// layout reads, and the column tops and the key of the board ([`Columns`]), kept up to date
/// by [`GravitySearch::settle_pieces`].
pub(in crate::clear) struct GravitySearch {
    pub(in crate::clear) position: Position,
    pub(in crate::clear) given: Given,
    pub(in crate::clear) columns: Columns,
}

impl GravitySearch {
    /// The search of `board` with gravity, every piece on it, with a table of hopeless
    /// positions of at most `memo_words` words.
    pub(in crate::clear) fn new(board: &Board, settings: Settings, memo_words: usize) -> GravitySearch {
        let position = Position::new(board, settings, memo_words);
        // Reading order puts each column's pieces top to bottom.
        let cells = position.cell.iter();
        let (column, column_start) =
            grouped(board.cols() + 2, cells.clone().map(|&(_, col)| usize::from(col)));
        let given = Given { column, column_start, home_row: cells.map(|&(row, _)| row).collect() };
        GravitySearch { position, given, columns: Columns::default() }
    }
}

impl Search for GravitySearch {
    #[inline(always)]
    fn position(&mut self) -> &mut Position {
        &mut self.position
    }

    /// Removes the pieces; the pieces above them fall.
    #[inline(always)]
    fn remove(&mut self, a: u16, b: u16) {
        let step = self.position.take(a, b);
        self.settle_pieces(step.pieces, step.at);
    }

    /// Puts the pieces back; the pieces above them rise again.
    #[inline(always)]
    fn undo(&mut self) {
        let step = self.position.put_back();
        self.settle_pieces(step.pieces, step.at);
    }
}

/// What the search with gravity keeps besides the search.
pub(in crate::clear) struct Gravity {
    /// The hopeless positions, kept from round to round.
    pub(in crate::clear) memo: Table,
    /// The tie-breaking seed of this round; 0 in the first (reading order).
    pub(in crate::clear) seed: u64,
    /// The sleep sets of the positions on the search path, each a slice from a mark.
    pub(in crate::clear) sleep: Vec<(u16, u16)>,
    /// Scratch for sorting the branches of a position.
    pub(in crate::clear) order_keys: Vec<OrderKey>,
    /// Scratch: the cells holding a piece with an open side ([`GravitySearch::find_exposed`]).
    pub(in crate::clear) exposed: Vec<u64>,
    /// The joinable pairs of the positions on the search path (each pair low piece first, in
    /// no particular order), each position's from a mark ([`Parent::pairs_from`]).
    pub(in crate::clear) pairs: Vec<(u16, u16)>,
    /// Scratch for [`GravitySearch::update_pairs`]: one bit per piece (as `Position::present`, laid out
    /// anew at each use; [`super::MAX_SIDE`]² pieces fit in 64 words, so a word index masked to
    /// 63 needs no bounds check), and the pieces whose pairs are found again.
    pub(in crate::clear) dirty: Box<[u64; 64]>,
    pub(in crate::clear) dirty_pieces: Vec<u16>,
    /// Every column was given packed, the lines turn at most once, or twice with the ring
    /// open, and every kind has at most 64 pieces: a position's pairs are then found from its
    /// parent's ([`GravitySearch::update_pairs`]).
    pub(in crate::clear) incremental: bool,
    /// Scratch for [`GravitySearch::find_pairs_by_cells`]: per kind (fewer than 256 when it is
    /// used), its pieces with an open side and those of them sunk (see
    /// [`sunk_joinable`](pairs::sunk_joinable); bits of the index in the kind of [`Columns::code`];
    /// all 0 between uses). Fixed sizes, indexed by masked numbers, need no bounds checks.
    pub(in crate::clear) open_of_kind: Box<[(u64, u64); 256]>,
    /// Per branch on the search path (as [`Position::branches`]): its board is known hopeless.
    pub(in crate::clear) known: Vec<bool>,
    /// Per branch on the search path: the hash of its board before anything falls.
    pub(in crate::clear) child_hash: Vec<u64>,
    /// Per branch on the search path: what its removal will find in its columns
    /// ([`Columns::foreseen`]).
    pub(in crate::clear) child_matched: Vec<[(usize, u64, u64); 2]>,
    /// Scratch: the keys of a position's branches' boards, one after the other
    /// ([`GravitySearch::hash_without`]).
    pub(in crate::clear) child_key: Vec<u64>,
    /// Scratch for [`GravitySearch::push_open_pairs_of_kind`]: per piece with an open side and not
    /// sunk, of a kind with two or more such pieces, by its index among the pieces of its kind
    /// ([`Columns::code`]): the cells its row and its column reach from it over open
    /// cells (as masks along them; see [`reach`]), and its row and column.
    pub(in crate::clear) reach: Box<[Reach; 64]>,
}

/// Where a position's parent on the search path keeps what [`GravitySearch::update_pairs`] needs.
#[derive(Debug, Clone, Copy)]
pub(in crate::clear) struct Parent {
    /// Its joinable pairs: `Gravity::pairs[pairs_from..pairs_end]`.
    pub(in crate::clear) pairs_from: usize,
    pub(in crate::clear) pairs_end: usize,
    /// The length of `Position::order` at its board (after its safe moves).
    pub(in crate::clear) order_end: usize,
}

impl GravitySearch {
    /// The search with gravity, in rounds of `restart_unit` times the terms of the Luby
    /// sequence (see the [module documentation](self)).
    pub(in crate::clear) fn gravity_rounds(&mut self, restart_unit: u64) -> Result<bool, OutOfBudget> {
        self.init_columns();
        let mut state = Gravity {
            memo: Table::new(self.position.memo_words),
            seed: 0,
            sleep: Vec::new(),
            order_keys: Vec::new(),
            exposed: Vec::new(),
            pairs: Vec::new(),
            incremental: false,
            dirty: Box::new([0; 64]),
            dirty_pieces: Vec::new(),
            open_of_kind: Box::new([(0, 0); 256]),
            known: Vec::new(),
            child_hash: Vec::new(),
            child_matched: Vec::new(),
            child_key: Vec::new(),
            reach: Box::new([(0, 0, (0, 0)); 64]),
        };
        let ring_open = self.position.bits.rows[0] & 1 == 1;
        state.incremental = !self.columns.code.is_empty()
            && self.columns.packed.iter().all(|&packed| packed)
            && (self.position.max_turns <= 1 || self.position.max_turns == 2 && ring_open);
        self.columns.cells_on_demand = state.incremental;
        in_rounds(self, restart_unit, |search, seed| {
            search.undo_to(0, 0);
            search.position.branches.clear();
            // Not 0 after the first round: 0 is reading order.
            state.seed = seed.map_or(0, |seed| seed | 1);
            state.sleep.clear();
            state.pairs.clear();
            search.gravity(&mut state, 0, None)
        })
    }

    /// The first kind from `from` on whose pieces left are all on top of their columns (see
    /// [`GravitySearch::close_gravity`]).
    pub(in crate::clear) fn first_all_top_kind(&self, from: usize) -> Option<usize> {
        let columns = &self.columns;
        for word in from / 64..columns.paired_tops.len() {
            let mut kinds = columns.paired_tops[word];
            if word == from / 64 {
                kinds &= u64::MAX << (from % 64);
            }
            while kinds != 0 {
                let k = word * 64 + kinds.trailing_zeros() as usize;
                kinds &= kinds - 1;
                if u32::from(columns.tops_of_kind[k]) == self.position.left[k] {
                    return Some(k);
                }
            }
        }
        None
    }

    /// Safe moves with gravity: a kind whose pieces left are all on top of their columns,
    /// removable in pairs one after the other. Such removals make nothing fall, so in any
    /// clearing order, removing them first leaves every later board the same but for them
    /// (the pieces below stack the same way without them on top), and every later line open.
    /// The kinds are tried in order, pass after pass, until a pass removes nothing.
    pub(in crate::clear) fn close_gravity(&mut self) {
        loop {
            let mut changed = false;
            let mut from = 0;
            while let Some(k) = self.first_all_top_kind(from) {
                changed |= clear_many(self, k);
                from = k + 1;
            }
            if !changed {
                break;
            }
        }
    }

    /// True when removing the pieces of `slept` and then those of `then` leaves the same board as
    /// the other way round, and `then` stays removable after `slept` if it is now: no piece in
    /// common, the columns of `slept` given packed (a removal there only empties cells), and no
    /// piece of `then` above one of `slept` in its column (none of them falls).
    pub(in crate::clear) fn independent(&self, slept: (u16, u16), then: (u16, u16)) -> bool {
        let then_at = [self.position.cell[then.0 as usize], self.position.cell[then.1 as usize]];
        self.independent_of(slept, then, then_at)
    }

    /// [`GravitySearch::independent`] with the cells of `then` (`then_at`) found once for the many
    /// pairs of a sleep set.
    pub(in crate::clear) fn independent_of(
        &self,
        slept: (u16, u16),
        then: (u16, u16),
        then_at: [Cell; 2],
    ) -> bool {
        [slept.0, slept.1].iter().all(|&low| {
            let (row, col) = self.position.cell[low as usize];
            self.columns.packed[col as usize]
                && low != then.0
                && low != then.1
                && then_at.iter().all(|&(high_row, high_col)| high_col != col || high_row > row)
        })
    }

    /// One round of the search with gravity: the safe moves, then every removable pair, those
    /// finishing their kind first, then in the round's order; but not the pairs
    /// of the sleep set `state.sleep[sleep_from..]` (given for the board before the safe
    /// moves), known to lead to a hopeless board (see the [module documentation](self)).
    ///
    /// `parent` is where the position the search came from keeps its pairs (none at the first
    /// position of a round).
    pub(in crate::clear) fn gravity(
        &mut self,
        state: &mut Gravity,
        sleep_from: usize,
        parent: Option<Parent>,
    ) -> Result<bool, OutOfBudget> {
        let order_mark = self.position.order.len();
        self.close_gravity();
        if self.position.total_left == 0 {
            return Ok(true);
        }
        if self.position.order.len() > order_mark {
            self.keep_sleepers(state, sleep_from, order_mark);
        }
        let Ok(reserved) = state.memo.enter(self.columns.hash, &self.columns.key) else {
            self.undo_to(order_mark, self.position.trail.len());
            return Ok(false);
        };
        self.position.count_position()?;
        let from = self.position.branches.len();
        let pairs_from = state.pairs.len();
        let pair_work = self.push_gravity_branches(state, sleep_from, parent);
        // Each joinable pair found is a branch, whose board's key is made and looked up; the
        // pairs of the positions on the search path are kept, their memory bounded.
        let keyed = ((self.position.branches.len() - from) * (self.columns.key.len() + 1)) as u64;
        let found = if self.position.check_cost > 1 {
            // Floods: charged for every pair of a kind the search may check (at most), since
            // the checks that fail cost as much as those that find a pair.
            self.position
                .left
                .iter()
                .map(|&left| u64::from(left) * u64::from(left.saturating_sub(1)) / 2)
                .sum::<u64>()
                * self.position.check_cost
        } else {
            pair_work
        };
        if !self.position.spend(found + keyed) || state.pairs.len() > MAX_EDGES {
            self.position.exhausted = true;
            return Err(OutOfBudget);
        }
        let here = Parent { pairs_from, pairs_end: state.pairs.len(), order_end: self.position.order.len() };
        self.look_up_branches(state, from);
        // `state.sleep[sleep_from..refuted_end]`: the sleep set, then the pairs refuted here.
        let mut index = from;
        while index < self.position.branches.len() {
            let Branch::Remove(a, b) = self.position.branches[index] else {
                unreachable!("gravity only removes")
            };
            let (known, hash) = (state.known[index], state.child_hash[index]);
            index += 1;
            if known {
                state.sleep.push((a, b));
                continue;
            }
            let refuted_end = state.sleep.len();
            let then_at = [self.position.cell[a as usize], self.position.cell[b as usize]];
            for slot in sleep_from..refuted_end {
                let slept = state.sleep[slot];
                if self.independent_of(slept, (a, b), then_at) {
                    state.sleep.push(slept);
                }
            }
            // The branch's slot, looked up again on entering it: the subtrees of the branches
            // before have often pushed it out of the caches since it was looked up above, and
            // its line now comes in while the removal is played (unless safe moves follow).
            state.memo.touch(hash);
            self.columns.foreseen = state.child_matched[index - 1];
            self.remove(a, b);
            let cleared = self.gravity(state, refuted_end, Some(here))?;
            state.sleep.truncate(refuted_end);
            if cleared {
                self.position.branches.truncate(from);
                state.pairs.truncate(pairs_from);
                return Ok(true);
            }
            self.undo();
            state.sleep.push((a, b));
        }
        self.position.branches.truncate(from);
        state.sleep.truncate(sleep_from);
        state.pairs.truncate(pairs_from);
        // Every removal was undone: the key is this position's again.
        state.memo.prove(reserved, self.columns.hash, &self.columns.key);
        self.undo_to(order_mark, self.position.trail.len());
        Ok(false)
    }

    /// The sleep set `state.sleep[sleep_from..]` after the safe moves `order[order_mark..]`: a
    /// pair stays when each of them commutes with it.
    fn keep_sleepers(&self, state: &mut Gravity, sleep_from: usize, order_mark: usize) {
        let mut kept = sleep_from;
        for index in sleep_from..state.sleep.len() {
            let slept = state.sleep[index];
            let stays = self.position.order[order_mark..]
                .iter()
                .all(|step| self.independent(slept, (step.pieces[0], step.pieces[1])));
            if stays {
                state.sleep[kept] = slept;
                kept += 1;
            }
        }
        state.sleep.truncate(kept);
    }

    /// Pushes the branches of the position onto `branches`: every removable pair but those of
    /// the sleep set `state.sleep[sleep_from..]`, in the order of [`GravitySearch::order_key`]; the
    /// pairs found are pushed onto `state.pairs` too (brought up to date from `parent`'s when
    /// it has them and pairs are found incrementally). Returns the work of finding the pairs
    /// with lines of at most two turns: each line check made when they are looked for among all
    /// pieces of each kind, each pair found when they are found by cells or brought up to date
    /// (a check for each piece that moved or sees an opened cell).
    fn push_gravity_branches(
        &mut self,
        state: &mut Gravity,
        sleep_from: usize,
        parent: Option<Parent>,
    ) -> u64 {
        let from = self.position.branches.len();
        self.find_exposed(state);
        let pairs_from = state.pairs.len();
        // The branches' sort keys, made straight from the pairs when found as pairs.
        state.order_keys.clear();
        let work = if self.columns.code.is_empty() {
            let asleep = std::mem::take(&mut state.sleep);
            let checks = self.push_open_pairs(state, &asleep[sleep_from..]);
            state.sleep = asleep;
            for branch in &self.position.branches[from..] {
                let Branch::Remove(a, b) = *branch else { unreachable!("gravity only removes") };
                state.order_keys.push(self.order_key(state.seed, a, b));
            }
            self.position.branches.truncate(from);
            checks
        } else {
            match parent {
                Some(parent) if state.incremental => {
                    self.update_pairs(state, parent);
                    #[cfg(debug_assertions)]
                    self.check_pairs(state, pairs_from);
                }
                _ => self.find_pairs_by_cells(state),
            }
            // A pair is looked for in the sleep set only once found joined: a position has a
            // few branches and a sleep set of a few pairs, against
            // many more pairs of open pieces looked at.
            let asleep = &state.sleep[sleep_from..];
            for &(a, b) in &state.pairs[pairs_from..] {
                // Both pieces in one number, so that a pair of the sleep set is one comparison.
                let pair = u32::from(a) | u32::from(b) << 16;
                if !asleep.iter().any(|&(x, y)| u32::from(x) | u32::from(y) << 16 == pair) {
                    state.order_keys.push(self.order_key(state.seed, a, b));
                }
            }
            (state.pairs.len() - pairs_from) as u64
        };
        state.order_keys.sort_unstable();
        for &order_key in &state.order_keys {
            let (a, b) = order_key.pair();
            self.position.branches.push(Branch::Remove(a, b));
        }
        work
    }

    /// Looks up in the table of hopeless positions the board each branch from `from` on leaves
    /// before anything falls, into `state.known`, with the hashes and what their removals will
    /// find in their columns (`state.child_hash`, `state.child_matched`).
    fn look_up_branches(&mut self, state: &mut Gravity, from: usize) {
        // The branches whose board (before anything falls) is in the table already: all looked
        // up before any is tried, so that the lookups overlap. Such a board was entered in the
        // table after its safe moves, so it has none, and the branch's position is that board.
        state.known.truncate(from);
        state.child_hash.truncate(from);
        state.child_matched.truncate(from);
        // The keys first, then the lookups: with nothing between them, the lookups' loads are
        // in flight together.
        state.child_key.clear();
        for index in from..self.position.branches.len() {
            let Branch::Remove(a, b) = self.position.branches[index] else {
                unreachable!("gravity only removes")
            };
            let (hash, foreseen) = self.hash_without(a, b, &mut state.child_key);
            state.child_hash.push(hash);
            state.child_matched.push(foreseen);
        }
        let key_words = self.columns.key.len();
        for (index, key) in state.child_key.chunks_exact(key_words).enumerate() {
            state.known.push(state.memo.contains(state.child_hash[from + index], key));
        }
    }

    /// The sort key of the branch removing `a` and `b` (`a` the lower) in a round of tie seed
    /// `seed`: by the pieces left of the kind, then the round's tie, then kind by kind in reading
    /// order ([`OrderKey`]).
    pub(in crate::clear) fn order_key(&self, seed: u64, a: u16, b: u16) -> OrderKey {
        let k = self.position.kind[a as usize];
        let tie = if seed == 0 { 0 } else { mix(seed ^ (u64::from(a) << 16 | u64::from(b))) };
        OrderKey::new(self.position.left[k as usize], tie, k, (a, b))
    }
}

/// The sort key of a branch of a position with gravity: the pieces left of its kind (16 bits),
/// the round's tie (64 bits), then its kind and its two pieces (16 bits each), high to low in
/// one number, so that a comparison is one of two words rather than of a tuple. A board holds
/// at most [`super::MAX_SIDE`]² pieces (so at most as many kinds), so every field fits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(in crate::clear) struct OrderKey(u128);

const _: () = assert!(super::MAX_SIDE * super::MAX_SIDE <= 1 << 16, "a field of the sort key");

impl OrderKey {
    /// The key of the branch removing the pieces `a` and `b` of kind `kind`, of which `left`
    /// are left, with the tie `tie`.
    #[inline(always)]
    fn new(left: u32, tie: u64, kind: u32, (a, b): (u16, u16)) -> OrderKey {
        debug_assert!(left >> 16 == 0 && kind >> 16 == 0, "a field of the sort key overflows");
        let found = u64::from(kind) << 32 | u64::from(a) << 16 | u64::from(b);
        OrderKey(u128::from(left) << 112 | u128::from(tie) << 48 | u128::from(found))
    }

    /// The two pieces of the branch.
    #[inline(always)]
    fn pair(self) -> (u16, u16) {
        ((self.0 >> 16) as u16, self.0 as u16)
    }
}
