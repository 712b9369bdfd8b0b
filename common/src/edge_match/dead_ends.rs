//! The dead-end table of the row-major search.
//!
//! The rest of the search depends only on the next cell, the open bottom label of every column
//! (or none yet), the right label of the last tile and the remaining count of every kind,
//! whatever tiles led there. States whose subtree held no solution go into a table and are never
//! searched again. The table is keyed by a hash kept up to date in O(1) per placement, and stores
//! each state's exact key, compared on every hit, so a hash collision can never prune a live
//! state.

use std::collections::hash_map::Entry;

use nohash_hasher::IntMap;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{ANY, Budgets, KEYS, MAX_SIDE, Puzzle};

/// The seed of the random numbers whose sums are the state hashes. Any fixed value works; this
/// one is kept so that node counts stay those recorded before.
const HASH_SEED: u64 = 0x6a69_6773_6177;

/// How an exact key stores its numbers, the cell index and every remaining count: one byte
/// each on boards of at most 256 cells, two (little-endian) on larger ones. A key is recorded
/// only for a cell past the first, so the cell index and every remaining count are below the
/// board's cells, which fit two bytes ([`MAX_SIDE`]² ≤ 65,536, asserted in the parent module).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum KeyNumber {
    /// One byte: boards of at most 256 cells.
    Byte,
    /// Two bytes: larger boards.
    Pair,
}

impl KeyNumber {
    /// The width that holds the numbers of a board of `cells` cells.
    pub(super) fn for_cells(cells: usize) -> Self {
        if cells <= usize::from(u8::MAX) + 1 { KeyNumber::Byte } else { KeyNumber::Pair }
    }

    /// Bytes per number.
    pub(super) fn bytes(self) -> usize {
        match self {
            KeyNumber::Byte => 1,
            KeyNumber::Pair => 2,
        }
    }

    /// Appends `values` (each below the board's cells) to `key`, one width for all: a choice
    /// per value cost tetravex a tenth of its instructions on repeated-tile boards.
    fn extend(self, key: &mut Vec<u8>, values: &[u32]) {
        match self {
            KeyNumber::Byte => key.extend(values.iter().map(|&value| value as u8)),
            KeyNumber::Pair => key.extend(values.iter().flat_map(|&value| (value as u16).to_le_bytes())),
        }
    }
}

/// The table, with the hash of the current state. The hash is a sum of random numbers, one per
/// (kind, count unit), (column, label), right label and cell. Invariants, for the state of the
/// search it belongs to: `frontier[c]` is the open bottom label of column `c` ([`ANY`] before
/// any tile), and `state_hash` = Σ `kind_hash[k]`·`remaining[k]` + Σ
/// `column_hash[c][frontier[c]]`; every entry of `table` is the hash of the exact key at that
/// index of `keys` (`key_len` bytes each).
#[derive(Debug)]
pub(super) struct DeadEnds {
    kind_hash: Vec<u64>,
    column_hash: Vec<[u64; KEYS]>,
    right_hash: [u64; KEYS],
    cell_hash: Vec<u64>,
    frontier: [u8; MAX_SIDE],
    state_hash: u64,
    /// Exact keys by hash (already random: no further hashing).
    table: IntMap<u64, u32>,
    /// The most entries the table takes ([`Budgets::dead_ends`]).
    capacity: usize,
    /// The nodes a subtree must have taken for its state to be recorded
    /// ([`Budgets::dead_end_nodes`]).
    pub(super) min_nodes: u64,
    cols: usize,
    number: KeyNumber,
    pub(super) key_len: usize,
    keys: Vec<u8>,
    /// Scratch buffer for exact keys.
    key: Vec<u8>,
}

impl DeadEnds {
    /// An empty table for `puzzle`, for the search with no tile placed.
    pub(super) fn new(puzzle: &Puzzle, budgets: &Budgets) -> Self {
        let number = KeyNumber::for_cells(puzzle.rows * puzzle.cols);
        let mut rng = ChaCha8Rng::seed_from_u64(HASH_SEED);
        let mut random = || rng.next_u64();
        let mut table = DeadEnds {
            kind_hash: puzzle.kinds.iter().map(|_| random()).collect(),
            column_hash: (0..puzzle.cols).map(|_| std::array::from_fn(|_| random())).collect(),
            right_hash: std::array::from_fn(|_| random()),
            cell_hash: (0..puzzle.rows * puzzle.cols).map(|_| random()).collect(),
            frontier: [ANY as u8; MAX_SIDE],
            state_hash: 0,
            table: IntMap::default(),
            capacity: budgets.dead_ends,
            min_nodes: budgets.dead_end_nodes,
            cols: puzzle.cols,
            number,
            key_len: puzzle.cols + 1 + number.bytes() * (puzzle.kinds.len() + 1),
            keys: Vec::new(),
            key: Vec::new(),
        };
        let remaining: Vec<u32> = puzzle.kinds.iter().map(|kind| kind.count).collect();
        table.restart(&remaining);
        table
    }

    /// Back to a board with no tile placed and `remaining` tiles of each kind, keeping the
    /// recorded states (a restart of the search).
    pub(super) fn restart(&mut self, remaining: &[u32]) {
        self.frontier = [ANY as u8; MAX_SIDE];
        let kinds = self.kind_hash.iter().zip(remaining);
        let counts = kinds.fold(0u64, |hash, (&z, &n)| hash.wrapping_add(z.wrapping_mul(u64::from(n))));
        let columns = self.column_hash.iter().zip(&self.frontier);
        self.state_hash = columns.fold(counts, |hash, (z, &label)| hash.wrapping_add(z[label as usize]));
    }

    /// The hash of the state before filling `cell` (not the first), after a tile whose right
    /// label is `right`.
    #[inline]
    pub(super) fn hash_at(&self, cell: usize, right: u8) -> u64 {
        self.state_hash.wrapping_add(self.right_hash[right as usize]).wrapping_add(self.cell_hash[cell])
    }

    /// A tile of kind `kind` with bottom label `bottom` placed in column `col`.
    #[inline]
    pub(super) fn place(&mut self, kind: usize, col: usize, bottom: u8) {
        let old = std::mem::replace(&mut self.frontier[col], bottom);
        let column = &self.column_hash[col];
        self.state_hash = self
            .state_hash
            .wrapping_sub(self.kind_hash[kind])
            .wrapping_sub(column[old as usize])
            .wrapping_add(column[bottom as usize]);
    }

    /// The mirror of [`DeadEnds::place`]: the column's open label is `above` again.
    #[inline]
    pub(super) fn unplace(&mut self, kind: usize, col: usize, above: u8, bottom: u8) {
        self.frontier[col] = above;
        let column = &self.column_hash[col];
        self.state_hash = self
            .state_hash
            .wrapping_add(self.kind_hash[kind])
            .wrapping_add(column[above as usize])
            .wrapping_sub(column[bottom as usize]);
    }

    /// Whether the state before filling `cell`, with this hash, right label and remaining
    /// counts, is a recorded dead end. The exact key is built only when the hash is in the
    /// table.
    pub(super) fn is_dead(&mut self, cell: usize, hash: u64, right: u8, remaining: &[u32]) -> bool {
        if self.find(hash).is_none() {
            return false;
        }
        self.encode(cell, right, remaining);
        self.find(hash) == Some(self.key.as_slice())
    }

    /// Records the state before filling `cell` as a dead end.
    pub(super) fn record(&mut self, cell: usize, hash: u64, right: u8, remaining: &[u32]) {
        self.encode(cell, right, remaining);
        let key = std::mem::take(&mut self.key);
        self.insert(hash, &key);
        self.key = key;
    }

    /// The exact key into `key`: the cell, the open bottom label of every column, the last
    /// right label, and the remaining count of every kind (the numbers as [`KeyNumber`] says).
    fn encode(&mut self, cell: usize, right: u8, remaining: &[u32]) {
        let (key, number) = (&mut self.key, self.number);
        key.clear();
        number.extend(key, &[cell as u32]);
        key.extend_from_slice(&self.frontier[..self.cols]);
        key.push(right);
        number.extend(key, remaining);
    }

    /// The exact key recorded under this hash, if any.
    fn find(&self, hash: u64) -> Option<&[u8]> {
        self.table.get(&hash).map(|&index| {
            let start = index as usize * self.key_len;
            &self.keys[start..start + self.key_len]
        })
    }

    /// Whether the state with this hash and exact key is a recorded dead end.
    #[cfg(test)]
    pub(super) fn contains(&self, hash: u64, key: &[u8]) -> bool {
        self.find(hash) == Some(key)
    }

    /// Records a dead end, unless the table is full or the hash is taken by another state.
    pub(super) fn insert(&mut self, hash: u64, key: &[u8]) {
        let index = self.table.len();
        if index < self.capacity
            && let Entry::Vacant(slot) = self.table.entry(hash)
        {
            slot.insert(index as u32);
            self.keys.extend_from_slice(key);
        }
    }
}
