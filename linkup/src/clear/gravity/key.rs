//! The canonical key of the board with gravity and its Zobrist hash ([`Key`]), kept column by
//! column as the columns are laid out (see the [module documentation](super)).

use super::given::Given;
use crate::clear::hash::mix;
use crate::clear::position::Position;

/// The canonical key of the board: per framed column the pieces of [`Given::canonical_slots`],
/// one bit per piece, with its hash.
///
/// Invariants (once [`Key::new`] made it): `words` holds the pieces of `matched` of every column;
/// `hash` is the XOR of `zobrist[p]` over the pieces `p` of `words`; each entry of `restore[c]`
/// is a removal from column c not undone yet, oldest first.
#[derive(Debug, Default)]
pub(super) struct Key {
    /// Per framed column: its pieces in `words` (bit `slot` for the piece of [`Given::pieces`]
    /// at `slot`).
    matched: Vec<u64>,
    /// One bit per piece.
    words: Vec<u64>,
    hash: u64,
    /// A pseudo-random word per piece; empty until [`Key::new`] made the key.
    zobrist: Vec<u64>,
    /// Per framed column: for each removal from it not undone yet, oldest first, its pieces
    /// present and in the key before, so that an undo, which brings back exactly those pieces,
    /// takes its key's slots back rather than matching them again.
    restore: Vec<Vec<(u64, u64)>>,
    /// Per column of the branch about to be played (column, pieces present after, their slots
    /// in the key), as [`Key::hash_without`] found them, for its removal to take. The slots in
    /// the key depend only on the column and its pieces present, so an entry matching both is
    /// right whenever it is taken; a stale one is just not taken.
    foreseen: [(usize, u64, u64); 2],
}

impl Key {
    /// The key of no piece, for a board of `width` framed columns and the pieces of `position`,
    /// to be laid out column by column.
    pub(super) fn new(width: usize, position: &Position) -> Key {
        Key {
            matched: vec![0; width],
            words: vec![0; position.present().len()],
            hash: 0,
            zobrist: (0..position.pieces() as u64).map(|piece| mix(piece ^ 0x5EED)).collect(),
            restore: vec![Vec::new(); width],
            foreseen: [(usize::MAX, 0, 0); 2],
        }
    }

    /// True once [`Key::new`] made the key (the columns are set up).
    #[inline(always)]
    pub(super) fn ready(&self) -> bool {
        !self.zobrist.is_empty()
    }

    /// The key, one bit per piece.
    #[inline(always)]
    pub(super) fn words(&self) -> &[u64] {
        &self.words
    }

    /// The hash of the key.
    #[inline(always)]
    pub(super) fn hash(&self) -> u64 {
        self.hash
    }

    /// Puts back a key and hash the tests kept.
    #[cfg(test)]
    pub(super) fn restore_held(&mut self, words: Vec<u64>, hash: u64) {
        (self.words, self.hash) = (words, hash);
    }

    /// What the removal of the branch about to be played will find in its columns (see
    /// [`Key::foreseen`]).
    #[inline(always)]
    pub(super) fn foresee(&mut self, foreseen: [(usize, u64, u64); 2]) {
        self.foreseen = foreseen;
    }

    /// Makes `matched` the pieces of column `col` (`pieces`, as given) in the key, flipping in
    /// the key and the hash only the pieces whose bit changes. (Inlined: the layouts call it at
    /// every removal and undo.)
    #[inline(always)]
    pub(super) fn set(&mut self, pieces: &[u16], col: usize, matched: u64) {
        let mut changed = matched ^ self.matched[col];
        self.matched[col] = matched;
        while changed != 0 {
            let piece = pieces[changed.trailing_zeros() as usize] as usize;
            changed &= changed - 1;
            self.words[piece / 64] ^= 1 << (piece % 64);
            self.hash ^= self.zobrist[piece];
        }
    }

    /// [`Given::canonical_slots`] of column `col` going from the pieces `before` to `present`
    /// (not the same), taken from [`Key::restore`] on an undo or [`Key::foreseen`] on a removal
    /// when there, else found.
    pub(super) fn matched_slots(&mut self, given: &Given, col: usize, before: u64, present: u64) -> u64 {
        let matched = if before & !present == 0 {
            // Pieces only came back: an undo of the last removal from the column, unless the
            // column was laid out otherwise since (then its entry does not match).
            match self.restore[col].last() {
                Some(&(was, matched)) if was == present => {
                    self.restore[col].pop();
                    matched
                }
                _ => given.canonical_slots(col, present),
            }
        } else {
            if present & !before == 0 {
                self.restore[col].push((before, self.matched[col]));
            }
            match self.foreseen {
                [(at, after, matched), _] | [_, (at, after, matched)] if at == col && after == present => {
                    matched
                }
                _ => given.canonical_slots(col, present),
            }
        };
        debug_assert_eq!(matched, given.canonical_slots(col, present));
        matched
    }

    /// The key and its hash once pieces `a` and `b` of `position` are gone, before anything
    /// falls (the key appended to `keys`; `present`: per framed column its pieces on the board),
    /// and per column of theirs (the second [`usize::MAX`] when they share one) its pieces
    /// present then and their slots in the key: only the pieces of their columns in the key can
    /// change.
    pub(super) fn hash_without(
        &self,
        given: &Given,
        present: &[u64],
        position: &Position,
        (a, b): (u16, u16),
        keys: &mut Vec<u64>,
    ) -> (u64, [(usize, u64, u64); 2]) {
        let start = keys.len();
        keys.extend_from_slice(&self.words);
        let key = &mut keys[start..];
        let mut hash = self.hash;
        let (a_col, b_col) = (position.cell(a).1 as usize, position.cell(b).1 as usize);
        let columns = if a_col == b_col { 1 } else { 2 };
        let mut foreseen = [(usize::MAX, 0, 0); 2];
        for (index, col) in [a_col, b_col].into_iter().take(columns).enumerate() {
            let mut present = present[col];
            for piece in [a, b] {
                if position.cell(piece).1 as usize == col {
                    present &= !(1 << given.slot(piece));
                }
            }
            let pieces = given.pieces(col);
            let matched = given.canonical_slots(col, present);
            foreseen[index] = (col, present, matched);
            let mut changed = matched ^ self.matched[col];
            while changed != 0 {
                let piece = pieces[changed.trailing_zeros() as usize] as usize;
                changed &= changed - 1;
                key[piece / 64] ^= 1 << (piece % 64);
                hash ^= self.zobrist[piece];
            }
        }
        (hash, foreseen)
    }
}
