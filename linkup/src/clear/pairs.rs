//! Each kind's joinable pairs, cached per board and brought up to date from a board a few removals
//! up the search path (see [`StillSearch::pair_mask`]).

use super::{Bits, StillSearch, Wait};

/// Most removals up the search path a kind's cached mask of joinable pairs may lie and still be
/// brought up to date rather than found again (see [`StillSearch::pair_mask`]).
pub(super) const DERIVE_DEPTH: usize = 4;

/// The pairing bit of the pairs of a kind of more than four pieces in
/// [`Still::used`](super::still::Still::used).
pub(super) const MANY: u8 = 0b1000;

/// All three pairings of a kind with four pieces left.
pub(super) const ALL_PAIRINGS: u8 = 0b111;

/// The two pairs of pairing `p` of four pieces `w < x < y < z` (indices into them).
pub(super) const PAIRINGS: [[(usize, usize); 2]; 3] = [[(0, 1), (2, 3)], [(0, 2), (1, 3)], [(0, 3), (1, 2)]];

/// The pairs of a set of pairings (bit p: pairing p), as a mask over [`PAIRINGS`] flattened
/// (bit `2p + i`: pair i of pairing p).
pub(super) const PAIRS_OF: [u8; 8] = [0, 0b11, 0b1100, 0b1111, 0b11_0000, 0b11_0011, 0b11_1100, 0b11_1111];

/// A kind's cached mask of joinable pairs ([`StillSearch::pair_mask`]): the epoch and pairings
/// allowed it was found at, and the mask.
pub(super) type CachedMask = (u64, u8, u8);

/// What each pair of a kind's cached mask waits on ([`PairCache::watch`]).
pub(super) type PairWatch = [Wait; 6];

/// Each kind's joinable pairs, cached per board ([`StillSearch::pair_mask`]), with what brings them
/// up to date: the board's epoch, what each pair not joinable waits on, and the masks to put
/// back on undo. Kept by the removals and undos of both searches; read only without gravity.
#[derive(Debug)]
pub(super) struct PairCache {
    /// The board's identity: a new number at every removal ([`PairCache::next_epoch`]), the one
    /// before restored at its undo. Invariant: two states with the same epoch have the same
    /// pieces on the same cells, so a mask cached at an epoch holds whenever it is current.
    pub(super) epoch: u64,
    /// The next epoch to give out (epochs are never reused).
    pub(super) next_epoch: u64,
    /// Per kind: the epoch and pairings allowed when its joinable pairs were found, and the
    /// mask found (see [`StillSearch::pair_mask`]).
    pub(super) masks: Vec<CachedMask>,
    /// Per kind, with `masks`: for each pair of the mask (its bit) not joinable, the rows
    /// and the columns (masks) a cell must open on before it can be, or, for a pair apart,
    /// the four cells one of which must open ([`Bits::wait_on`]; all lines for other turn
    /// limits). It holds on any board that only opened cells since, so a mask brought up to
    /// date rechecks only the pairs whose wait a cell emptied since ends.
    pub(super) watch: Vec<PairWatch>,
    /// The masks that caching a new one replaced below the first removal, each with its kind
    /// and watch: undoing a removal puts back the masks of the board before it, which the
    /// positions after the next removal from that board bring up to date.
    pub(super) trail: Vec<(usize, CachedMask, PairWatch)>,
    /// Masks found now are not cached (set while a probe looks at a child position, so the
    /// masks of the position probed from stay cached for its other children).
    pub(super) scratch: bool,
    /// Per removal on the search path (as [`Position::order`](super::Position::order)): the epoch
    /// before it and the length of `trail` at it (the masks cached since are put back as they
    /// were on its undo).
    pub(super) marks: Vec<(u64, usize)>,
}

impl PairCache {
    /// Nothing cached, for `kinds` kinds, with room in the trail for `trail_room` masks.
    pub(super) fn new(kinds: usize, trail_room: usize) -> PairCache {
        PairCache {
            epoch: 1,
            next_epoch: 2,
            masks: vec![(0, 0, 0); kinds],
            watch: vec![[Wait::ALL; 6]; kinds],
            // Grown by doubling it would copy most of what it ever holds, entries of a hundred
            // bytes and more (a mask for each kind at each removal down the search path).
            trail: Vec::with_capacity(trail_room),
            scratch: false,
            marks: Vec::new(),
        }
    }

    /// A removal makes a new board: it gets a new epoch, and what is cached from now on is
    /// undone with the removal.
    #[inline(always)]
    pub(super) fn enter_board(&mut self) {
        self.marks.push((self.epoch, self.trail.len()));
        self.epoch = self.next_epoch;
        self.next_epoch += 1;
    }

    /// The last removal is undone: the masks cached since are put back as they were, and the
    /// board before it is current again.
    #[inline(always)]
    pub(super) fn leave_board(&mut self) {
        let (epoch_before, cache_mark) = self.marks.pop().expect("a removal to undo");
        while self.trail.len() > cache_mark {
            let (k, cache, watch) = self.trail.pop().expect("a mask cached below");
            self.masks[k] = cache;
            self.watch[k] = watch;
        }
        self.epoch = epoch_before;
    }
}

impl StillSearch {
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
    pub(super) fn pair_mask(&mut self, k: usize, live: [u16; 4]) -> u8 {
        let (epoch, cached_allowed, cached) = self.pairs.masks[k];
        if epoch == self.pairs.epoch && cached_allowed == self.position.allowed[k] {
            return cached;
        }
        self.pair_mask_again(k, live)
    }

    /// [`StillSearch::pair_mask`] when the cache does not hold it as it is (inlined, the look at
    /// the cache costs less than a call, and most looks find it).
    #[inline(never)]
    pub(super) fn pair_mask_again(&mut self, k: usize, live: [u16; 4]) -> u8 {
        let allowed = self.position.allowed[k];
        let (epoch, cached_allowed, cached) = self.pairs.masks[k];
        // A few line checks at most (six pairs); what the budget is checked against, not here.
        self.position.spend(self.position.check_cost);
        let mut watch = [Wait::ALL; 6];
        let mask = match self.removals_since(epoch, k) {
            Some(from) if allowed & !cached_allowed == 0 => {
                watch = self.pairs.watch[k];
                let mask = self.update_mask(k, live, cached, from, &mut watch);
                debug_assert_eq!(
                    mask,
                    self.find_mask(k, live, &mut [Wait::ALL; 6]),
                    "a mask brought up to date by the watches differs from one found again"
                );
                mask
            }
            _ => self.find_mask(k, live, &mut watch),
        };
        if !self.pairs.scratch {
            if !self.position.order.is_empty() {
                self.pairs.trail.push((k, self.pairs.masks[k], self.pairs.watch[k]));
            }
            self.pairs.masks[k] = (self.pairs.epoch, allowed, mask);
            self.pairs.watch[k] = watch;
        }
        mask
    }

    /// For at most two turns: `None` when pieces `a` and `b` can be joined now, else what they
    /// wait on ([`Bits::watch_on`]); for other turn limits, every line. `a` comes before `b`
    /// (pieces are numbered in reading order, and without gravity they stay where they are).
    pub(super) fn joinable_or_watch(&self, a: u16, b: u16) -> Option<Wait> {
        debug_assert!(a < b, "a pair out of reading order");
        let (at_a, at_b) = (self.position.cell[a as usize], self.position.cell[b as usize]);
        if self.position.max_turns <= 2 {
            Bits::wait_on_sorted(
                &self.position.bits.rows,
                &self.position.bits.cols,
                at_a,
                at_b,
                self.position.max_turns,
            )
        } else {
            (!self.position.bits.joinable(at_a, at_b, self.position.max_turns)).then_some(Wait::ALL)
        }
    }

    /// The index in `order` of the first removal made since the board of `epoch`, when that
    /// board is at most [`DERIVE_DEPTH`] removals up the search path, none of them of kind `k`,
    /// and masks may be derived (no gravity, at most two turns).
    pub(super) fn removals_since(&self, epoch: u64, k: usize) -> Option<usize> {
        if self.position.max_turns > 2 {
            return None;
        }
        if epoch == self.pairs.epoch {
            return Some(self.position.order.len());
        }
        let lowest = self.position.order.len().saturating_sub(DERIVE_DEPTH);
        let from =
            (lowest..self.position.order.len()).rev().find(|&index| self.pairs.marks[index].0 == epoch)?;
        let untouched = self.position.order[from..]
            .iter()
            .all(|step| self.position.kind[step.pieces[0] as usize] as usize != k);
        untouched.then_some(from)
    }

    /// The pairs of the allowed pairings of kind `k` (two or four left), as a mask like that of
    /// [`StillSearch::pair_mask`] (a pair's bit `2p + i` names its indices into the kind's live
    /// pieces, [`PAIRINGS`] flattened).
    pub(super) fn allowed_pairs(&self, k: usize) -> u8 {
        if self.position.left[k] == 2 {
            1
        } else {
            PAIRS_OF[usize::from(self.position.allowed[k] & ALL_PAIRINGS)]
        }
    }

    /// The mask of [`StillSearch::pair_mask`], every pair checked; what each pair not joinable
    /// waits on into `watch`.
    pub(super) fn find_mask(&self, k: usize, live: [u16; 4], watch: &mut PairWatch) -> u8 {
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

    /// The mask of [`StillSearch::pair_mask`] from `cached` and `watch`, found on the board before
    /// the removals `order[from..]` (none of kind `k`) with at least the pairings allowed now;
    /// `watch` is brought up to date with it.
    pub(super) fn update_mask(
        &self,
        k: usize,
        live: [u16; 4],
        cached: u8,
        from: usize,
        watch: &mut PairWatch,
    ) -> u8 {
        let allowed = self.allowed_pairs(k);
        // A pair joinable stays joinable.
        let mut mask = cached & allowed;
        // The rows and the columns of the cells emptied since.
        let (rows, cols) = self.position.order[from..]
            .iter()
            .flat_map(|step| step.at)
            .fold((0u64, 0u64), |(rows, cols), (row, col)| (rows | 1 << row, cols | 1 << col));
        let mut pairs = allowed & !cached;
        while pairs != 0 {
            let bit = pairs.trailing_zeros() as usize;
            pairs &= pairs - 1;
            let touched = if watch[bit].is_apart() {
                !Bits::still_apart(&self.position.bits.rows, &self.position.bits.cols, watch[bit])
            } else {
                watch[bit].touched((rows, cols))
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
}
