//! The table of dead ends: (board, moves left) pairs whose search failed (see *Dead ends* in
//! the [search's documentation](super)).

use std::hash::{Hash, Hasher};

use rustc_hash::{FxBuildHasher, FxHashSet};

use crate::board::Board;
use crate::model::WIDTH;

/// The board's words with the moves left in byte 7 of column 0, always zero in a board (and
/// `remaining` ≥ 1, so no key is all zeros).
pub(super) fn dead_end_key(board: &Board, remaining: usize) -> [u64; WIDTH] {
    let mut words = board.words();
    words[0] |= (remaining as u64) << 56;
    words
}

/// Most dead ends [`DeadEnds`] holds at once: 7/8 of 2^20, the most a hash table of 2^20 slots
/// holds before it doubles, so the table stays at about 43 MB (40-byte keys and a control byte
/// per slot). Long searches (6 and 7 moves on boards of few colours) do meet that many failing
/// boards, so the cap is reached in practice.
pub(super) const MAX_DEAD_ENDS: usize = (1 << 20) / 8 * 7;

// The figure the crate's documentation gives for the cap.
const _: () = assert!(MAX_DEAD_ENDS == 917_504);

/// The set of dead-end keys, capped: when it holds `limit` keys it forgets them all and starts
/// over. The table only ever skips a search whose failure it remembers, so forgetting keeps the
/// search exact (the same solution, the same verdict); it only searches those boards again if
/// it meets them again. Clearing, rather than refusing new keys, keeps the keys of the part of
/// the tree being searched, where most hits are.
pub(super) struct DeadEnds {
    keys: FxHashSet<DeadEndKey>,
    limit: usize,
}

impl DeadEnds {
    pub(super) fn new(limit: usize) -> Self {
        DeadEnds { keys: FxHashSet::with_capacity_and_hasher(1 << 12, FxBuildHasher), limit }
    }

    pub(super) fn contains(&self, key: &[u64; WIDTH]) -> bool {
        self.keys.contains(&DeadEndKey(*key))
    }

    pub(super) fn insert(&mut self, key: [u64; WIDTH]) {
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
}
