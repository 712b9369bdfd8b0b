//! Sets of kinds as bitsets, the currency of the bit search (module `bits`): one `u64` for a
//! puzzle of at most [`NARROW_KINDS`] kinds, two words ([`Mid`]) for up to [`MID_KINDS`], four
//! ([`Wide`]) for up to [`BIT_KINDS`].
//!
//! The search is generic over the set, so each width compiles to its own code: the one-word form
//! keeps the single-instruction operations the judge's boards were tuned on, and only puzzles
//! with more kinds (boards past 8×8) pay for the wider words. [`super::search`] picks the width
//! by the number of kinds.

#![allow(clippy::inline_always, reason = "set operations on the hot path of every node")]

use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, IndexMut};

use super::BIT_KINDS;

/// The most kinds of the one-word set.
pub(super) const NARROW_KINDS: usize = u64::BITS as usize;
/// Words of a [`Mid`] set, and the most kinds it holds.
const MID_WORDS: usize = 2;
pub(super) const MID_KINDS: usize = MID_WORDS * NARROW_KINDS;
/// Words of a [`Wide`] set.
const WIDE_WORDS: usize = BIT_KINDS / NARROW_KINDS;

const _: () = assert!(BIT_KINDS.is_multiple_of(NARROW_KINDS) && BIT_KINDS.is_power_of_two());

/// Kinds by byte of a set of kinds (`tables[b][byte]` for byte `b` of the set), the form of the
/// bit search's `feeds` and `follows`: [`KindSet::BYTES`] tables.
pub(super) type ByteTables<S> = Box<[[S; 256]]>;

/// A set of kinds `0..CAPACITY`, one bit each.
pub(super) trait KindSet:
    Copy
    + Eq
    + Hash
    + Send
    + Sync
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + std::fmt::Debug
    + 'static
{
    /// The most kinds a set holds, a power of two.
    const CAPACITY: usize;
    /// Bytes of the set (as [`ByteTables`] index them).
    const BYTES: usize = Self::CAPACITY / 8;
    /// Whether the bit search's lookahead goes through the labels rather than the byte tables
    /// (see `BitSearch::fed_by`): a wide set has 32 bytes, each lookup a set of four words from
    /// tables too large for the first-level cache, where the kinds of a set carry few labels
    /// ([`KindSet::labels`]), each one union of a set already at hand.
    const BY_LABEL: bool;
    /// No kind.
    const EMPTY: Self;
    /// Every kind below the capacity.
    const FULL: Self;
    /// A value per kind, indexed by kind `& (CAPACITY − 1)` without a bounds check.
    type PerKind<T: Copy + Send + Sync>: Copy + Send + Sync + IndexMut<usize, Output = T>;

    /// `value` for every kind.
    fn per_kind<T: Copy + Send + Sync>(value: T) -> Self::PerKind<T>;
    /// The set of `kind` alone.
    fn single(kind: usize) -> Self;
    /// Whether the set holds no kind.
    fn is_empty(self) -> bool;
    /// The smallest kind of a nonempty set.
    fn first(self) -> usize;
    /// The set without its smallest kind.
    #[must_use]
    fn without_first(self) -> Self;
    /// The set without `kind`.
    #[must_use]
    fn without(self, kind: usize) -> Self;
    /// How many kinds the set holds.
    fn len(self) -> u32;
    /// The union of `tables[b][byte b of kinds]` over the first `bytes` bytes of `kinds`.
    fn through(tables: &[[Self; 256]], kinds: Self, bytes: usize) -> Self;
    /// A fresh set of byte tables, all empty.
    fn byte_tables() -> ByteTables<Self> {
        vec![[Self::EMPTY; 256]; Self::BYTES].into_boxed_slice()
    }
    /// The set when `keep`, else the empty set, without a branch.
    #[must_use]
    fn kept_if(self, keep: bool) -> Self;
    /// The mask of `label(k)` over the kinds `k` of the set: bit `d` when some kind has label
    /// `d` (below 32). One step per kind, so cheaper than a test per label on the small sets
    /// the lookahead mostly meets.
    fn labels(self, label: impl Fn(usize) -> u8) -> u32;
}

impl KindSet for u64 {
    const CAPACITY: usize = NARROW_KINDS;
    const BY_LABEL: bool = false;
    const EMPTY: Self = 0;
    const FULL: Self = u64::MAX;
    type PerKind<T: Copy + Send + Sync> = [T; NARROW_KINDS];

    fn per_kind<T: Copy + Send + Sync>(value: T) -> [T; NARROW_KINDS] {
        [value; NARROW_KINDS]
    }

    #[inline(always)]
    fn single(kind: usize) -> Self {
        1 << (kind & (NARROW_KINDS - 1))
    }

    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }

    #[inline(always)]
    fn first(self) -> usize {
        self.trailing_zeros() as usize
    }

    #[inline(always)]
    fn without_first(self) -> Self {
        self & self.wrapping_sub(1)
    }

    #[inline(always)]
    fn without(self, kind: usize) -> Self {
        self & !Self::single(kind)
    }

    #[inline(always)]
    fn len(self) -> u32 {
        self.count_ones()
    }

    /// Four, six or eight bytes are looked up, without a loop or a branch between the lookups,
    /// so they do not wait on each other: the row lookahead (`plan_row`) runs this once a column
    /// on every row start, once a large part of the time of the restarts on 8×8 games. Bytes
    /// past the kinds are zero and every table maps the byte 0 to no kinds, so an extra lookup
    /// adds nothing.
    #[inline(always)]
    fn through(tables: &[[Self; 256]], kinds: Self, bytes: usize) -> Self {
        let tables: &[[u64; 256]; 8] = tables.try_into().expect("eight byte tables");
        let at = |b: usize| tables[b][usize::from((kinds >> (8 * b)) as u8)];
        let low = (at(0) | at(1)) | (at(2) | at(3));
        match bytes {
            0..=4 => low,
            5..=6 => low | (at(4) | at(5)),
            _ => low | ((at(4) | at(5)) | (at(6) | at(7))),
        }
    }

    #[inline(always)]
    fn kept_if(self, keep: bool) -> Self {
        self & 0u64.wrapping_sub(u64::from(keep))
    }

    #[inline(always)]
    fn labels(self, label: impl Fn(usize) -> u8) -> u32 {
        word_labels(self, 0, &label)
    }
}

/// [`KindSet::labels`] of the kinds `base + b` for the bits `b` of `word`.
#[inline(always)]
fn word_labels(mut word: u64, base: usize, label: &impl Fn(usize) -> u8) -> u32 {
    let mut labels = 0;
    while word != 0 {
        labels |= 1 << (label(base + word.trailing_zeros() as usize) & 31);
        word &= word - 1;
    }
    labels
}

/// A set of up to `64 × N` kinds in `N` words, kind `k` at bit `k % 64` of word `k / 64`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Words<const N: usize>([u64; N]);

/// Sets of up to [`MID_KINDS`] kinds: the boards just past 8×8 (9×9 and 10×10 with many
/// digits) take half the words of [`Wide`] sets.
pub(super) type Mid = Words<MID_WORDS>;
/// Sets of up to [`BIT_KINDS`] kinds.
pub(super) type Wide = Words<WIDE_WORDS>;

impl<const N: usize> BitAnd for Words<N> {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, other: Self) -> Self {
        Words(std::array::from_fn(|w| self.0[w] & other.0[w]))
    }
}

impl<const N: usize> BitOr for Words<N> {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, other: Self) -> Self {
        Words(std::array::from_fn(|w| self.0[w] | other.0[w]))
    }
}

impl<const N: usize> BitAndAssign for Words<N> {
    #[inline(always)]
    fn bitand_assign(&mut self, other: Self) {
        *self = *self & other;
    }
}

impl<const N: usize> BitOrAssign for Words<N> {
    #[inline(always)]
    fn bitor_assign(&mut self, other: Self) {
        *self = *self | other;
    }
}

impl<const N: usize> KindSet for Words<N> {
    // A power of two (kinds are masked by it), within the per-kind arrays of `BIT_KINDS`.
    const CAPACITY: usize = {
        assert!(N.is_power_of_two() && N * NARROW_KINDS <= BIT_KINDS);
        N * NARROW_KINDS
    };
    const BY_LABEL: bool = true;
    const EMPTY: Self = Words([0; N]);
    const FULL: Self = Words([u64::MAX; N]);
    // Sized for the widest sets: array lengths cannot depend on `N` here.
    type PerKind<T: Copy + Send + Sync> = [T; BIT_KINDS];

    fn per_kind<T: Copy + Send + Sync>(value: T) -> [T; BIT_KINDS] {
        [value; BIT_KINDS]
    }

    #[inline(always)]
    fn single(kind: usize) -> Self {
        let kind = kind & (Self::CAPACITY - 1);
        let mut set = Self::EMPTY;
        set.0[kind / NARROW_KINDS] = 1 << (kind % NARROW_KINDS);
        set
    }

    #[inline(always)]
    fn is_empty(self) -> bool {
        self.0.iter().fold(0, |any, &word| any | word) == 0
    }

    #[inline(always)]
    fn first(self) -> usize {
        let word = self.0.iter().position(|&word| word != 0).unwrap_or(N - 1);
        word * NARROW_KINDS + self.0[word].trailing_zeros() as usize
    }

    #[inline(always)]
    fn without_first(self) -> Self {
        let mut set = self;
        if let Some(word) = set.0.iter_mut().find(|word| **word != 0) {
            *word &= word.wrapping_sub(1);
        }
        set
    }

    #[inline(always)]
    fn without(self, kind: usize) -> Self {
        let mut set = self;
        let kind = kind & (Self::CAPACITY - 1);
        set.0[kind / NARROW_KINDS] &= !(1 << (kind % NARROW_KINDS));
        set
    }

    #[inline(always)]
    fn len(self) -> u32 {
        self.0.iter().map(|word| word.count_ones()).sum()
    }

    /// Words without kinds are skipped: a row's candidates usually lie in few of them.
    #[inline]
    fn through(tables: &[[Self; 256]], kinds: Self, bytes: usize) -> Self {
        let mut union = Self::EMPTY;
        for (w, &word) in kinds.0.iter().enumerate().filter(|&(_, &word)| word != 0) {
            for b in (8 * w..8 * w + 8).take_while(|&b| b < bytes) {
                union |= tables[b][usize::from((word >> (8 * (b % 8))) as u8)];
            }
        }
        union
    }

    #[inline(always)]
    fn kept_if(self, keep: bool) -> Self {
        let mask = 0u64.wrapping_sub(u64::from(keep));
        Words(self.0.map(|word| word & mask))
    }

    #[inline(always)]
    fn labels(self, label: impl Fn(usize) -> u8) -> u32 {
        let mut labels = 0;
        for (w, &word) in self.0.iter().enumerate() {
            labels |= word_labels(word, w * NARROW_KINDS, &label);
        }
        labels
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kinds of a set, smallest first, through `first` and `without_first`.
    fn members<S: KindSet>(mut set: S) -> Vec<usize> {
        let mut kinds = Vec::new();
        while !set.is_empty() {
            kinds.push(set.first());
            set = set.without_first();
        }
        kinds
    }

    fn set_of<S: KindSet>(kinds: &[usize]) -> S {
        kinds.iter().fold(S::EMPTY, |set, &kind| set | S::single(kind))
    }

    #[test]
    fn both_widths_hold_the_same_kinds() {
        let kinds = [0, 5, 63];
        assert_eq!(members(set_of::<u64>(&kinds)), kinds);
        assert_eq!(members(set_of::<Wide>(&kinds)), kinds);
        assert_eq!(members(set_of::<Mid>(&kinds)), kinds);
        let mid: Mid = set_of(&[1, 64, 127]);
        assert_eq!((members(mid.without_first()), mid.len()), (vec![64, 127], 3));
        assert_eq!(mid.labels(|kind| (kind % 5) as u8), 0b10110);
        let wide = [1, 64, 127, 128, 255];
        let set: Wide = set_of(&wide);
        assert_eq!(members(set), wide);
        assert_eq!(set.len(), 5);
        assert_eq!(members(set.without(128)), [1, 64, 127, 255]);
        assert!(Wide::EMPTY.is_empty() && !set.is_empty());
    }

    #[test]
    fn through_takes_the_union_over_the_bytes() {
        // Table b maps a byte to the set of kinds 8b + (bits of the byte) shifted by one.
        fn tables<S: KindSet>(bytes: usize) -> ByteTables<S> {
            let mut tables = S::byte_tables();
            for b in 0..bytes {
                for byte in 0..256usize {
                    let kinds: Vec<usize> = (0..8)
                        .filter(|bit| byte >> bit & 1 == 1)
                        .map(|bit| (8 * b + bit + 1) % S::CAPACITY)
                        .collect();
                    tables[b][byte] = set_of(&kinds);
                }
            }
            tables
        }
        let narrow = tables::<u64>(8);
        assert_eq!(members(u64::through(&narrow, set_of(&[0, 9, 62]), 8)), [1, 10, 63]);
        let wide = tables::<Wide>(32);
        assert_eq!(members(Wide::through(&wide, set_of(&[0, 9, 62, 200, 255]), 32)), [0, 1, 10, 63, 201]);
    }
}
