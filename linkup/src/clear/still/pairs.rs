//! The pair cache ([`PairCache`]): each kind's first four pieces left and its joinable pairs,
//! cached per board and brought up to date from a board a few removals up the search path (see
//! [`PairCache::mask`]).

use crate::clear::bits::{Bits, Cell, span};
use crate::clear::meter::Meter;
use crate::clear::pairings::{ALL_PAIRINGS, PAIRINGS, PAIRS_OF};
use crate::clear::position::Position;
use crate::clear::wait::Wait;

/// Most removals up the search path a kind's cached mask of joinable pairs may lie and still be
/// brought up to date rather than found again (see [`PairCache::mask`]).
const DERIVE_DEPTH: usize = 4;

/// A kind's cached mask of joinable pairs ([`PairCache::mask`]): the epoch and pairings
/// allowed it was found at, and the mask.
type CachedMask = (u64, u8, u8);

/// What each pair of a kind's cached mask waits on ([`PairCache::watch`]).
type PairWatch = [Wait; 6];

/// Each kind's first four pieces on the board, and its joinable pairs, cached per board
/// ([`PairCache::mask`]), with what brings them up to date: the board's epoch, what each pair not
/// joinable waits on, and the masks to put back on undo. Kept by the removals and undos of the
/// search without gravity ([`PairCache::enter_board`], [`PairCache::leave_board`]).
#[derive(Debug)]
pub(super) struct PairCache {
    /// The first four pieces of each kind on the board, in reading order ([`PairCache::live`]):
    /// looked up for every kind at every position (a few times), changed only by removals and
    /// their undos.
    live: Vec<[u16; 4]>,
    /// The board's identity: a new number at every removal ([`PairCache::enter_board`]), the
    /// one before restored at its undo. Invariant: two states with the same epoch have the same
    /// pieces on the same cells, so a mask cached at an epoch holds whenever it is current.
    epoch: u64,
    /// The next epoch to give out (epochs are never reused).
    next_epoch: u64,
    /// Per kind: the epoch and pairings allowed when its joinable pairs were found, and the
    /// mask found (see [`PairCache::mask`]).
    masks: Vec<CachedMask>,
    /// Per kind, with `masks`: for each pair of the mask (its bit) not joinable, the rows
    /// and the columns (masks) a cell must open on before it can be, or, for a pair apart,
    /// the four cells one of which must open ([`Bits::wait_on`]; all lines for other turn
    /// limits). It holds on any board that only opened cells since, so a mask brought up to
    /// date rechecks only the pairs whose wait a cell emptied since ends.
    watch: Vec<PairWatch>,
    /// The masks that caching a new one replaced below the first removal, each with its kind
    /// and watch: undoing a removal puts back the masks of the board before it, which the
    /// positions after the next removal from that board bring up to date.
    trail: Vec<(usize, CachedMask, PairWatch)>,
    /// Masks found now are not cached (set while a probe looks at a child position, so the
    /// masks of the position probed from stay cached for its other children).
    scratch: bool,
    /// Per removal on the search path (as [`Position::order`]): the epoch before it and the
    /// length of `trail` at it (the masks cached since are put back as they were on its undo).
    marks: Vec<(u64, usize)>,
}

impl PairCache {
    /// Nothing cached for the pieces of `position`.
    pub(super) fn new(position: &Position) -> PairCache {
        let kinds = position.kinds();
        PairCache {
            live: (0..kinds).map(|k| position.find_live(k).0).collect(),
            epoch: 1,
            next_epoch: 2,
            masks: vec![(0, 0, 0); kinds],
            watch: vec![[Wait::ALL; 6]; kinds],
            // Grown by doubling it would copy most of what it ever holds, entries of a hundred
            // bytes and more (a mask for each kind at each removal down the search path).
            trail: Vec::with_capacity(kinds * position.pieces() / 2),
            scratch: false,
            marks: Vec::new(),
        }
    }

    /// The pieces of kind `k` on the board, in reading order (the first four, when more are
    /// left).
    #[inline(always)]
    pub(super) fn live(&self, position: &Position, k: usize) -> [u16; 4] {
        debug_assert_eq!(self.live[k], position.find_live(k).0, "the pieces left of a kind are out of date");
        self.live[k]
    }

    /// A removal from kind `k` made a new board (`position` after it): it gets a new epoch, and
    /// what is cached from now on is undone with the removal.
    #[inline(always)]
    pub(super) fn enter_board(&mut self, position: &Position, k: usize) {
        self.marks.push((self.epoch, self.trail.len()));
        self.epoch = self.next_epoch;
        self.next_epoch += 1;
        self.live[k] = position.find_live(k).0;
    }

    /// The last removal, from kind `k`, is undone (`position` as before it): the masks cached
    /// since are put back as they were, and the board before it is current again.
    #[inline(always)]
    pub(super) fn leave_board(&mut self, position: &Position, k: usize) {
        let (epoch_before, cache_mark) = self.marks.pop().expect("a removal to undo");
        while self.trail.len() > cache_mark {
            let (k, cache, watch) = self.trail.pop().expect("a mask cached below");
            self.masks[k] = cache;
            self.watch[k] = watch;
        }
        self.epoch = epoch_before;
        self.live[k] = position.find_live(k).0;
    }

    /// Masks found from now on are not cached (while a probe looks at a child position), or
    /// are again.
    pub(super) fn set_scratch(&mut self, scratch: bool) {
        self.scratch = scratch;
    }

    /// The joinable pairs of kind `k` (two or four pieces left, `live`) among the allowed
    /// pairings, as a mask over [`PAIRINGS`] flattened (bit `2p + i`: pair i of pairing p; a kind
    /// of two uses bit 0), from the cache when nothing was removed or put back since. When the
    /// mask cached was found a few removals up the search path (and kind `k` lost no piece
    /// since), it is brought up to date instead of found again: without gravity a removal only
    /// opens cells, so a joinable pair stays joinable, and a pair that was not can only become
    /// joinable if a cell emptied since lies on one of the lines its last check named, or is one
    /// of the four cells it waits on when apart ([`Bits::wait_on`]; at most two turns).
    /// Constraints only take pairings away, so a mask cached with more pairings allowed holds
    /// for the ones left.
    #[inline(always)]
    pub(super) fn mask(&mut self, position: &Position, meter: &mut Meter, k: usize, live: [u16; 4]) -> u8 {
        let (epoch, cached_allowed, cached) = self.masks[k];
        if epoch == self.epoch && cached_allowed == position.allowed(k) {
            return cached;
        }
        self.mask_again(position, meter, k, live)
    }

    /// [`PairCache::mask`] when the cache does not hold it as it is (inlined, the look at the
    /// cache costs less than a call, and most looks find it).
    #[inline(never)]
    fn mask_again(&mut self, position: &Position, meter: &mut Meter, k: usize, live: [u16; 4]) -> u8 {
        let allowed = position.allowed(k);
        let (epoch, cached_allowed, cached) = self.masks[k];
        // A few line checks at most (six pairs); what the budget is checked against, not here.
        meter.spend(meter.check_cost());
        let mut watch = [Wait::ALL; 6];
        let mask = match self.removals_since(position, epoch, k) {
            Some(from) if allowed & !cached_allowed == 0 => {
                watch = self.watch[k];
                let mask = update_mask(position, k, live, cached, from, &mut watch);
                debug_assert_eq!(
                    mask,
                    find_mask(position, k, live, &mut [Wait::ALL; 6]),
                    "a mask brought up to date by the watches differs from one found again"
                );
                mask
            }
            _ => find_mask(position, k, live, &mut watch),
        };
        if !self.scratch {
            if !position.order().is_empty() {
                self.trail.push((k, self.masks[k], self.watch[k]));
            }
            self.masks[k] = (self.epoch, allowed, mask);
            self.watch[k] = watch;
        }
        mask
    }

    /// What the pair of bit `bit` of kind `k`'s mask, on the cells `a` and `b` and not joinable
    /// on the board, waits on: the watch its mask found, when the cache holds it (not while a
    /// probe looks at a child), else every row between its pieces' rows and every column
    /// between their columns (every line of either shape lies there).
    pub(super) fn first_wait(&self, max_turns: u32, k: usize, bit: usize, a: Cell, b: Cell) -> Wait {
        if !self.scratch {
            self.watch[k][bit]
        } else if max_turns <= 2 {
            let rows = span(u32::from(a.0.min(b.0)), u32::from(a.0.max(b.0)));
            let cols = span(u32::from(a.1.min(b.1)), u32::from(a.1.max(b.1)));
            Wait::lines(rows, cols)
        } else {
            Wait::ALL
        }
    }

    /// The index in the removals made of the first one made since the board of `epoch`, when
    /// that board is at most [`DERIVE_DEPTH`] removals up the search path, none of them of kind
    /// `k`, and masks may be derived (at most two turns).
    fn removals_since(&self, position: &Position, epoch: u64, k: usize) -> Option<usize> {
        if position.max_turns() > 2 {
            return None;
        }
        let order = position.order();
        if epoch == self.epoch {
            return Some(order.len());
        }
        let lowest = order.len().saturating_sub(DERIVE_DEPTH);
        let from = (lowest..order.len()).rev().find(|&index| self.marks[index].0 == epoch)?;
        let untouched = order[from..].iter().all(|step| position.kind(step.pieces()[0]) != k);
        untouched.then_some(from)
    }
}

/// For at most two turns: `None` when pieces `a` and `b` can be joined now, else what they
/// wait on ([`Bits::watch_on`]); for other turn limits, every line. `a` comes before `b`
/// (pieces are numbered in reading order, and without gravity they stay where they are).
fn joinable_or_watch(position: &Position, a: u16, b: u16) -> Option<Wait> {
    debug_assert!(a < b, "a pair out of reading order");
    let (at_a, at_b, bits) = (position.cell(a), position.cell(b), position.bits());
    if position.max_turns() <= 2 {
        Bits::wait_on_sorted(bits.rows(), bits.cols(), at_a, at_b, position.max_turns())
    } else {
        (!bits.joinable(at_a, at_b, position.max_turns())).then_some(Wait::ALL)
    }
}

/// The pairs of the allowed pairings of kind `k` (two or four left), as a mask like that of
/// [`PairCache::mask`] (a pair's bit `2p + i` names its indices into the kind's live pieces,
/// [`PAIRINGS`] flattened).
fn allowed_pairs(position: &Position, k: usize) -> u8 {
    if position.left(k) == 2 { 1 } else { PAIRS_OF[usize::from(position.allowed(k) & ALL_PAIRINGS)] }
}

/// The mask of [`PairCache::mask`], every pair checked; what each pair not joinable waits on
/// into `watch`.
fn find_mask(position: &Position, k: usize, live: [u16; 4], watch: &mut PairWatch) -> u8 {
    let mut mask = 0;
    let mut pairs = allowed_pairs(position, k);
    while pairs != 0 {
        let bit = pairs.trailing_zeros() as usize;
        pairs &= pairs - 1;
        let (x, y) = PAIRINGS.as_flattened()[bit];
        match joinable_or_watch(position, live[x], live[y]) {
            None => mask |= 1 << bit,
            Some(waits) => watch[bit] = waits,
        }
    }
    mask
}

/// The mask of [`PairCache::mask`] from `cached` and `watch`, found on the board before the
/// removals from `from` on (none of kind `k`) with at least the pairings allowed now; `watch`
/// is brought up to date with it.
fn update_mask(
    position: &Position,
    k: usize,
    live: [u16; 4],
    cached: u8,
    from: usize,
    watch: &mut PairWatch,
) -> u8 {
    let allowed = allowed_pairs(position, k);
    // A pair joinable stays joinable.
    let mut mask = cached & allowed;
    // The rows and the columns of the cells emptied since.
    let (rows, cols) = position.order()[from..]
        .iter()
        .flat_map(|step| step.cells())
        .fold((0u64, 0u64), |(rows, cols), (row, col)| (rows | 1 << row, cols | 1 << col));
    let mut pairs = allowed & !cached;
    let bits = position.bits();
    while pairs != 0 {
        let bit = pairs.trailing_zeros() as usize;
        pairs &= pairs - 1;
        let touched = if watch[bit].is_apart() {
            !Bits::still_apart(bits.rows(), bits.cols(), watch[bit])
        } else {
            watch[bit].touched((rows, cols))
        };
        if touched {
            let (x, y) = PAIRINGS.as_flattened()[bit];
            match joinable_or_watch(position, live[x], live[y]) {
                None => mask |= 1 << bit,
                Some(waits) => watch[bit] = waits,
            }
        }
    }
    mask
}
