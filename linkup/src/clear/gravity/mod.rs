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
//! Most clearable deals fall to the first order of moves; the ones that do not tend to lose
//! themselves under an early move that cannot be cleared but takes a
//! long time to refute. The search therefore runs in rounds with budgets that grow as the Luby
//! sequence (1, 1, 2, 1, 1, 2, 4, …) times [`RESTART_UNIT`] positions. Every round tries the
//! pairs that finish their kind first; the first round then goes in reading order, each later
//! round in a pseudo-random order drawn from the board and the round, so the answer is the
//! same on every run. (Trying first the pairs that make the fewest pieces fall, as the search
//! did before, left the rounds little to vary, and took more positions and left deals undecided;
//! the figures are in the crate's `docs/history.md`.) The table of hopeless
//! positions is kept from round to round (a position is entered only once every move from it was
//! refuted, which no order changes), so each round skips what the rounds before proved. A round
//! that ends without running out of its budget is exact: it found a clearing order or refuted every
//! move from the start. The positions of every round count against the one budget of the search.
//!
//! ## Work per position
//! Everything a position needs about its board is kept up to date column by column (`Columns`,
//! whose invariants are written there) as `Columns::settle_packed` lays a column out after a
//! removal or its undo, visiting only the pieces at and above the lowest one removed or put back
//! (`Columns::settle` lays out a column given with a gap): the column tops and their count
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
//! (`Pairs::update`, where the proof is): when every column was given packed, a
//! removal only opens the top cells of its columns, so only the pairs of a piece that fell or that
//! sees an opened cell along a row or a column can change; the others are the parent's. A pair
//! joined is dropped when it is in the sleep set (a position has a few branches, and many more
//! pairs are looked at). Before any branch is played, the key and hash it would leave before
//! anything falls (`Columns::hash_without`: the key depends only on which pieces are left)
//! are made for every branch, then looked up in the table of hopeless positions one after the
//! other, so that the lookups' loads are in flight together; a key found there was entered after
//! its safe moves, so it has none, the branch's position is that board, and the branch is refuted
//! without being played. None of this changes which positions are searched or their order.

//!
//! ## The house
//! The search (`GravitySearch`) is a struct of parts: the position and the work meter (shared
//! with the search without gravity), the table of hopeless positions, the columns as given
//! (`given.rs`) and as laid out now with the key of the board (`columns.rs`), the joinable pairs
//! of the positions on the search path (`pairs.rs`), and what the branches of each position
//! look up. Only this module takes the whole search.

mod columns;
mod given;
mod grid;
mod key;
mod open_pairs;
mod pairs;
#[cfg(test)]
mod tests;

use columns::Columns;
use given::Given;
use open_pairs::OpenPairs;
use pairs::{Pairs, Parent};

use crate::clear::bits::Cell;
use crate::clear::hash::mix;
use crate::clear::meter::{Limit, MAX_EDGES, Meter, OutOfBudget};
use crate::clear::position::{Branch, Position};
use crate::clear::rounds::in_rounds;
use crate::clear::search::{Search, clear_many};
use crate::clear::table::Table;
use crate::model::{Board, Rules};

/// Positions of the shortest round of the restarts (the unit of the Luby sequence).
pub const RESTART_UNIT: u64 = 1_000;

/// Most 64-bit words the table of hopeless positions holds with gravity (64 MiB): a standard
/// deal's slot takes 4 words, so the table holds 1.9 million positions.
pub const GRAVITY_MEMO_WORDS: usize = 1 << 23;

/// The search with gravity: its parts, each owning its data.
pub(in crate::clear) struct GravitySearch {
    /// The pieces left, the board, the removals made.
    position: Position,
    /// The work spent and the positions searched.
    meter: Meter,
    /// The hopeless positions, kept from round to round.
    memo: Table,
    /// The branches of every position on the search path, one slice per position.
    branches: Vec<Branch>,
    /// The columns as given and as laid out now, with the key of the board.
    columns: Columns,
    /// The joinable pairs of the positions on the search path.
    pairs: Pairs,
    /// The scratch that finds the removable pairs kind by kind, where pieces have no codes.
    open_pairs: OpenPairs,
    /// The sleep sets of the positions on the search path, each a slice from a mark.
    sleep: Vec<(u16, u16)>,
    /// What the branches of the positions on the search path look up.
    lookups: Lookups,
}

/// Per branch on the search path (as [`GravitySearch::branches`]): what its board looks up in
/// the table of hopeless positions, with the scratch that orders and keys the branches.
#[derive(Debug, Default)]
struct Lookups {
    /// The tie-breaking seed of this round; 0 in the first (reading order).
    seed: u64,
    /// Scratch for sorting the branches of a position.
    order_keys: Vec<OrderKey>,
    /// Per branch: its board is known hopeless.
    known: Vec<bool>,
    /// Per branch: the hash of its board before anything falls.
    child_hash: Vec<u64>,
    /// Per branch: what its removal will find in its columns ([`Columns::foresee`]).
    child_matched: Vec<[(usize, u64, u64); 2]>,
    /// Scratch: the keys of a position's branches' boards, one after the other
    /// ([`Columns::hash_without`]).
    child_key: Vec<u64>,
}

impl GravitySearch {
    /// The search of `board` under `rules` with gravity, every piece on it, with `budget` units of
    /// work and a table of hopeless positions of at most `memo_words` words.
    pub(in crate::clear) fn new(
        board: &Board,
        rules: Rules,
        budget: u64,
        memo_words: usize,
    ) -> GravitySearch {
        let position = Position::new(board, rules);
        let meter = Meter::new(budget, position.bits().check_cost(rules.max_turns));
        let given = Given::new(&position, board.rows(), board.cols());
        GravitySearch {
            meter,
            memo: Table::new(memo_words),
            branches: Vec::new(),
            columns: Columns::new(given),
            pairs: Pairs::new(false),
            open_pairs: OpenPairs::default(),
            sleep: Vec::new(),
            lookups: Lookups::default(),
            position,
        }
    }

    /// The search with gravity, in rounds of `restart_unit` times the terms of the Luby
    /// sequence (see the [module documentation](self)). True when the board can be cleared (the
    /// order is then the position's).
    pub(in crate::clear) fn run(&mut self, restart_unit: u64) -> Result<bool, OutOfBudget> {
        self.columns.init(&self.position);
        let ring_open = self.position.bits().rows()[0] & 1 == 1;
        let max_turns = self.position.max_turns();
        let incremental = !self.columns.code().is_empty()
            && self.columns.given().all_packed()
            && (max_turns <= 1 || max_turns == 2 && ring_open);
        self.pairs.set_incremental(incremental);
        self.columns.set_cells_on_demand(incremental);
        in_rounds(self, restart_unit, |search, seed| {
            search.undo_to(0, 0);
            search.branches.clear();
            // Not 0 after the first round: 0 is reading order.
            search.lookups.seed = seed.map_or(0, |seed| seed | 1);
            search.sleep.clear();
            search.pairs.truncate(0);
            search.gravity(0, None)
        })
    }

    /// The first kind from `from` on whose pieces left are all on top of their columns (see
    /// [`GravitySearch::close_gravity`]).
    fn first_all_top_kind(&self, from: usize) -> Option<usize> {
        for (word, &paired) in self.columns.paired_tops().iter().enumerate().skip(from / 64) {
            let mut kinds = paired;
            if word == from / 64 {
                kinds &= u64::MAX << (from % 64);
            }
            while kinds != 0 {
                let k = word * 64 + kinds.trailing_zeros() as usize;
                kinds &= kinds - 1;
                if u32::from(self.columns.tops_of_kind(k)) == self.position.left(k) {
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
    fn close_gravity(&mut self) {
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
    /// piece of `then` above one of `slept` in its column (none of them falls). `then_at`: the
    /// cells of `then`, found once for the many pairs of a sleep set.
    fn independent(&self, slept: (u16, u16), then: (u16, u16), then_at: [Cell; 2]) -> bool {
        [slept.0, slept.1].iter().all(|&low| {
            let (row, col) = self.position.cell(low);
            self.columns.given().packed(col as usize)
                && low != then.0
                && low != then.1
                && then_at.iter().all(|&(high_row, high_col)| high_col != col || high_row > row)
        })
    }

    /// One round of the search with gravity: the safe moves, then every removable pair, those
    /// finishing their kind first, then in the round's order; but not the pairs of the sleep set
    /// `sleep[sleep_from..]` (given for the board before the safe moves), known to lead to a
    /// hopeless board (see the [module documentation](self)).
    ///
    /// `parent` is where the position the search came from keeps its pairs (none at the first
    /// position of a round).
    fn gravity(&mut self, sleep_from: usize, parent: Option<Parent>) -> Result<bool, OutOfBudget> {
        let order_mark = self.position.order().len();
        self.close_gravity();
        if self.position.total_left() == 0 {
            return Ok(true);
        }
        if self.position.order().len() > order_mark {
            self.keep_sleepers(sleep_from, order_mark);
        }
        let Ok(reserved) = self.memo.enter(self.columns.hash(), self.columns.key()) else {
            self.undo_to(order_mark, self.position.trail_len());
            return Ok(false);
        };
        self.meter.count_position(self.position.kinds())?;
        let from = self.branches.len();
        let pairs_from = self.pairs.len();
        let pair_work = self.push_gravity_branches(sleep_from, parent)?;
        // Each joinable pair found is a branch, whose board's key is made and looked up; the
        // pairs of the positions on the search path are kept, their memory bounded.
        let keyed = ((self.branches.len() - from) * (self.columns.key().len() + 1)) as u64;
        if !self.meter.spend(pair_work + keyed) || self.pairs.len() > MAX_EDGES {
            self.meter.stop(Limit::Pairs);
            return Err(OutOfBudget);
        }
        let here = self.pairs.parent(pairs_from, self.position.order().len());
        self.look_up_branches(from);
        // `sleep[sleep_from..refuted_end]`: the sleep set, then the pairs refuted here.
        let mut index = from;
        while index < self.branches.len() {
            let Branch::Remove(a, b) = self.branches[index] else { unreachable!("gravity only removes") };
            let (known, hash) = (self.lookups.known[index], self.lookups.child_hash[index]);
            index += 1;
            if known {
                self.sleep.push((a, b));
                continue;
            }
            let refuted_end = self.sleep.len();
            let then_at = [self.position.cell(a), self.position.cell(b)];
            for slot in sleep_from..refuted_end {
                let slept = self.sleep[slot];
                if self.independent(slept, (a, b), then_at) {
                    self.sleep.push(slept);
                }
            }
            // The branch's slot, looked up again on entering it: the subtrees of the branches
            // before have often pushed it out of the caches since it was looked up above, and
            // its line now comes in while the removal is played (unless safe moves follow).
            self.memo.touch(hash);
            self.columns.foresee(self.lookups.child_matched[index - 1]);
            self.remove(a, b);
            let cleared = self.gravity(refuted_end, Some(here))?;
            self.sleep.truncate(refuted_end);
            if cleared {
                self.branches.truncate(from);
                self.pairs.truncate(pairs_from);
                return Ok(true);
            }
            self.undo();
            self.sleep.push((a, b));
        }
        self.branches.truncate(from);
        self.sleep.truncate(sleep_from);
        self.pairs.truncate(pairs_from);
        // Every removal was undone: the key is this position's again.
        self.memo.prove(reserved, self.columns.hash(), self.columns.key());
        self.undo_to(order_mark, self.position.trail_len());
        Ok(false)
    }

    /// The sleep set `sleep[sleep_from..]` after the safe moves from `order_mark` on: a pair
    /// stays when each of them commutes with it.
    fn keep_sleepers(&mut self, sleep_from: usize, order_mark: usize) {
        let mut kept = sleep_from;
        for index in sleep_from..self.sleep.len() {
            let slept = self.sleep[index];
            let stays = self.position.order()[order_mark..].iter().all(|step| {
                let [a, b] = step.pieces();
                self.independent(slept, (a, b), [self.position.cell(a), self.position.cell(b)])
            });
            if stays {
                self.sleep[kept] = slept;
                kept += 1;
            }
        }
        self.sleep.truncate(kept);
    }

    /// Pushes the branches of the position onto `branches`: every removable pair but those of
    /// the sleep set `sleep[sleep_from..]`, in the order of [`GravitySearch::order_key`]; the
    /// pairs found are kept too (brought up to date from `parent`'s when it has them and pairs
    /// are found incrementally). Charges the work of finding them as it goes where it may be
    /// large (kind by kind: the pieces and pairs looked at without codes, the floods of more
    /// than two turns), and returns the rest to charge: each pair found when they are found by
    /// cells or brought up to date with at most two turns (a check for each piece that moved or
    /// sees an opened cell). Stops once the budget is spent.
    fn push_gravity_branches(
        &mut self,
        sleep_from: usize,
        parent: Option<Parent>,
    ) -> Result<u64, OutOfBudget> {
        let from = self.branches.len();
        self.pairs.find_exposed(&self.position, self.columns.given());
        let pairs_from = self.pairs.len();
        // The branches' sort keys, made straight from the pairs when found as pairs.
        self.lookups.order_keys.clear();
        let work = if self.columns.code().is_empty() {
            let board = open_pairs::Board {
                position: &self.position,
                grid: self.columns.grid(),
                given: self.columns.given(),
                exposed: self.pairs.exposed(),
                asleep: &self.sleep[sleep_from..],
            };
            self.open_pairs.push(board, &mut self.meter, &mut self.branches)?;
            for index in from..self.branches.len() {
                let Branch::Remove(a, b) = self.branches[index] else { unreachable!("gravity only removes") };
                let order_key = self.order_key(a, b);
                self.lookups.order_keys.push(order_key);
            }
            self.branches.truncate(from);
            0
        } else {
            let work = self.pairs.find(&self.position, &mut self.columns, parent, &mut self.meter)?;
            // A pair is looked for in the sleep set only once found joined: a position has a
            // few branches and a sleep set of a few pairs, against many more pairs of open
            // pieces looked at.
            let asleep = &self.sleep[sleep_from..];
            for &(a, b) in self.pairs.since(pairs_from) {
                // Both pieces in one number, so that a pair of the sleep set is one comparison.
                let pair = u32::from(a) | u32::from(b) << 16;
                if !asleep.iter().any(|&(x, y)| u32::from(x) | u32::from(y) << 16 == pair) {
                    let order_key = self.order_key(a, b);
                    self.lookups.order_keys.push(order_key);
                }
            }
            work
        };
        self.lookups.order_keys.sort_unstable();
        for &order_key in &self.lookups.order_keys {
            let (a, b) = order_key.pair();
            self.branches.push(Branch::Remove(a, b));
        }
        Ok(work)
    }

    /// Looks up in the table of hopeless positions the board each branch from `from` on leaves
    /// before anything falls, with the hashes and what their removals will find in their columns.
    fn look_up_branches(&mut self, from: usize) {
        // The branches whose board (before anything falls) is in the table already: all looked
        // up before any is tried, so that the lookups overlap. Such a board was entered in the
        // table after its safe moves, so it has none, and the branch's position is that board.
        let lookups = &mut self.lookups;
        lookups.known.truncate(from);
        lookups.child_hash.truncate(from);
        lookups.child_matched.truncate(from);
        // The keys first, then the lookups: with nothing between them, the lookups' loads are
        // in flight together.
        lookups.child_key.clear();
        for &branch in &self.branches[from..] {
            let Branch::Remove(a, b) = branch else { unreachable!("gravity only removes") };
            let (hash, foreseen) = self.columns.hash_without(&self.position, a, b, &mut lookups.child_key);
            lookups.child_hash.push(hash);
            lookups.child_matched.push(foreseen);
        }
        let key_words = self.columns.key().len();
        for (index, key) in lookups.child_key.chunks_exact(key_words).enumerate() {
            lookups.known.push(self.memo.contains(lookups.child_hash[from + index], key));
        }
    }

    /// The sort key of the branch removing `a` and `b` (`a` the lower) in the round: by the
    /// pieces left of the kind, then the round's tie, then kind by kind in reading order
    /// ([`OrderKey`]).
    fn order_key(&self, a: u16, b: u16) -> OrderKey {
        let seed = self.lookups.seed;
        let k = self.position.kind(a);
        let tie = if seed == 0 { 0 } else { mix(seed ^ (u64::from(a) << 16 | u64::from(b))) };
        OrderKey::new(self.position.left(k), tie, k as u32, (a, b))
    }
}

impl Search for GravitySearch {
    #[inline(always)]
    fn parts(&mut self) -> (&mut Position, &mut Meter) {
        (&mut self.position, &mut self.meter)
    }

    /// Removes the pieces; the pieces above them fall.
    #[inline(always)]
    fn remove(&mut self, a: u16, b: u16) {
        let step = self.position.take(a, b);
        self.columns.settle_pieces(&mut self.position, step.pieces(), step.cells());
    }

    /// Puts the pieces back; the pieces above them rise again.
    #[inline(always)]
    fn undo(&mut self) {
        let step = self.position.put_back();
        self.columns.settle_pieces(&mut self.position, step.pieces(), step.cells());
    }
}

/// The sort key of a branch of a position with gravity: the pieces left of its kind (16 bits),
/// the round's tie (64 bits), then its kind and its two pieces (16 bits each), high to low in
/// one number, so that a comparison is one of two words rather than of a tuple. A board holds
/// at most [`MAX_SIDE`](crate::clear::bits::MAX_SIDE)² pieces (so at most as many kinds), so
/// every field fits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct OrderKey(u128);

const _: () = assert!(crate::clear::bits::MAX_SIDE.pow(2) <= 1 << 16, "a field of the sort key");

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
