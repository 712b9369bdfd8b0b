//! The distinct solved boards that restarted runs have found between them, for counting with
//! restarts (modules `rows` and `restarts`).
//!
//! Restarted runs search the same puzzle in other orders, so they meet some boards more than
//! once; a count built from them must add each board once. The set keeps a 64-bit hash per
//! board rather than the board: a million boards of 256 cells would take a quarter of a
//! gigabyte. **Why hashes keep the count exact:** the count taken from the set is its number of
//! distinct hashes, and boards with distinct hashes are distinct boards, so the set never holds
//! more boards than were found. Two boards that collide count once, which can only make the
//! restarts stop later (or leave the count to the complete search), never claim a board that
//! is not there.

use rustc_hash::FxHashSet;

use super::Placement;

/// A set of solved boards, by hash (see the module documentation).
#[derive(Debug, Default)]
pub(super) struct DistinctBoards {
    hashes: FxHashSet<u64>,
}

impl DistinctBoards {
    /// Adds the board whose cells, in row-major order, are `cells`; whether it was new.
    pub(super) fn insert(&mut self, cells: impl IntoIterator<Item = Placement>) -> bool {
        self.hashes.insert(board_hash(cells))
    }

    /// How many distinct boards the set holds.
    pub(super) fn len(&self) -> u64 {
        self.hashes.len() as u64
    }
}

/// A 64-bit hash of a board: each cell's kind and orientation mixed in turn (a multiply and a
/// rotation per cell), then finalised so that every input bit reaches every output bit.
fn board_hash(cells: impl IntoIterator<Item = Placement>) -> u64 {
    let mut hash: u64 = 0x243f_6a88_85a3_08d3;
    for placement in cells {
        let word = (placement.kind as u64) << 8 | placement.orientation as u64;
        hash = (hash ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    }
    hash ^= hash >> 32;
    hash = hash.wrapping_mul(0xd6e8_feb8_6659_fd93);
    hash ^ hash >> 32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(kinds: &[usize]) -> Vec<Placement> {
        kinds.iter().map(|&kind| Placement { kind, orientation: 0 }).collect()
    }

    #[test]
    fn boards_count_once_and_differ_by_any_cell() {
        let mut set = DistinctBoards::default();
        assert!(set.insert(board(&[0, 1, 2, 3])));
        assert!(!set.insert(board(&[0, 1, 2, 3])));
        assert!(set.insert(board(&[1, 0, 2, 3])));
        assert!(set.insert(board(&[0, 1, 3, 2])));
        let turned = [Placement { kind: 0, orientation: 1 }, Placement { kind: 1, orientation: 0 }];
        assert!(set.insert(turned));
        assert_eq!(set.len(), 4);
    }
}
