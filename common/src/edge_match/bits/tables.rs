//! The byte tables of the bit search's lookahead: `feeds` and `follows` (see their fields).

use super::{BitSearch, KindSet, MAX_LABELS};

/// Fills `search.feeds` and `search.follows` for its first `kinds` kinds, whatever the tables
/// held before (a rebuilt search gets another puzzle's).
///
/// Kind `k` is fed by the kinds whose right label is its left one, and followed by those whose
/// left label is its right one. Each table entry is built from the entry of its byte without
/// the lowest bit (every byte below 256 is visited after that one), so a table costs 256 ORs:
/// the symmetry choice builds ten searches per puzzle, and the judge's 5×5 puzzles take few
/// nodes each.
pub(super) fn build<S: KindSet>(search: &mut BitSearch<S>, kinds: usize) {
    // The bytes past this puzzle's kinds must be empty, and so must every entry for the byte 0
    // (see `KindSet::through`).
    for b in 0..S::BYTES {
        if b < search.feed_bytes {
            (search.feeds[b][0], search.follows[b][0]) = (S::EMPTY, S::EMPTY);
        } else {
            search.feeds[b].fill(S::EMPTY);
            search.follows[b].fill(S::EMPTY);
        }
    }
    for b in 0..search.feed_bytes {
        for byte in 1..256usize {
            let kind = 8 * b + byte.trailing_zeros() as usize;
            let rest = byte & (byte - 1);
            let (mut fed, mut followed) = (search.feeds[b][rest], search.follows[b][rest]);
            if kind < kinds {
                let v = search.sides[kind];
                fed |= search.with_right[v.left as usize & (MAX_LABELS - 1)];
                followed |= search.with_left[v.right as usize & (MAX_LABELS - 1)];
            }
            search.feeds[b][byte] = fed;
            search.follows[b][byte] = followed;
        }
    }
}
