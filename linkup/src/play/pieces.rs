//! Where the pieces of each kind stand, for greedy play: how many each kind has left, and the
//! cells of a kind when few are left (the direct check of [`super::direct`] goes through
//! them; a kind not listed is left to the sweep, which finds the same partner).
//!
//! Listed kinds' cells lie in one array, kind after kind (kinds by their [`Id`]), so a kind
//! costs three numbers and a listed piece one.
//!
//! Without gravity a cell that empties never holds a piece again, so:
//! - a removed piece may stay in its kind's cells until more than half of them are removed
//!   ones, when they are dropped in one pass: O(1) per removal amortised, no table by cell;
//! - a kind is listed only once few of its pieces are left: the board is scanned for every
//!   kind with at most [`LIST_AT_MOST`] pieces left at the start, and again whenever the
//!   direct check asks for a kind not listed. A scan is a pass over the board's kinds, a few
//!   instructions a cell, where the alternative is a sweep, which on a board emptied enough
//!   for the check covers much of it; each kind starting with more pieces causes at most one
//!   scan. On a full board of few kinds the array then holds a few pieces instead of all.
//!
//! With gravity pieces move, and a moved piece's entry must be found from its cell, so every
//! kind is listed from the start and each cell keeps its place in the array.

use super::ids::Id;

/// Most pieces left of a kind that a scan lists: twice what the direct check takes, so that a
/// kind listed by a scan serves the direct check for many removals.
pub(super) const LIST_AT_MOST: usize = 2 * (super::direct::MOST_CANDIDATES + 1);

/// `start` of a kind not listed.
const UNLISTED: u32 = u32::MAX;

/// The pieces of every kind on a walled board.
pub(super) struct Pieces {
    /// The cells of listed kind `k`'s pieces are `cells[start[k]..start[k] + listed[k]]`, in
    /// no order. Without gravity they may include cells emptied since (see the module
    /// documentation); with gravity, only pieces on the board.
    cells: Vec<u32>,
    start: Vec<u32>,
    listed: Vec<u32>,
    /// Pieces of each kind on the board.
    left: Vec<u32>,
    /// With gravity, `slot[cell]`: where the piece on `cell` stands in `cells`.
    slot: Option<Vec<u32>>,
}

// Cells and pieces are numbered in `u32`s, and no array of pieces reaches `UNLISTED`.
const _: () = assert!(crate::model::MAX_CELLS + 4 * crate::model::MAX_SIDE + 16 < UNLISTED as usize);

impl Pieces {
    /// The pieces of the walled board whose kind ids are `ids` (`kinds` kinds); `gravity` if
    /// they will move.
    pub(super) fn new<K: Id>(ids: &[K], kinds: usize, gravity: bool) -> Pieces {
        let mut left = vec![0_u32; kinds + 1];
        for &id in ids {
            left[id.index()] += 1;
        }
        left[0] = 0;
        let mut pieces = Pieces {
            cells: Vec::new(),
            start: vec![UNLISTED; kinds + 1],
            listed: vec![0; kinds + 1],
            left,
            slot: gravity.then(|| vec![0; ids.len()]),
        };
        pieces.scan(ids, if gravity { usize::MAX } else { LIST_AT_MOST });
        pieces
    }

    /// Lists every kind not listed with at most `most` pieces left.
    fn scan<K: Id>(&mut self, ids: &[K], most: usize) {
        // `next[k]`: where kind k's next piece goes while it is being listed.
        let mut next = vec![UNLISTED; self.left.len()];
        let mut end = self.cells.len() as u32;
        let kinds = self.start.iter_mut().zip(&mut self.listed).zip(&self.left).zip(&mut next).skip(1);
        for (((start, listed), &left), next) in kinds {
            if *start == UNLISTED && left as usize <= most {
                (*start, *listed, *next) = (end, left, end);
                end += left;
            }
        }
        self.cells.resize(end as usize, 0);
        for (cell, &id) in ids.iter().enumerate() {
            let at = &mut next[id.index()];
            if *at != UNLISTED && id != K::default() {
                self.cells[*at as usize] = cell as u32;
                if let Some(slot) = &mut self.slot {
                    slot[cell] = *at;
                }
                *at += 1;
            }
        }
    }

    /// Pieces of kind `id` on the board.
    pub(super) fn left<K: Id>(&self, id: K) -> usize {
        self.left[id.index()] as usize
    }

    /// The cells of the pieces of kind `id` on the board, where `ids` are the board's kinds,
    /// if it has at most [`LIST_AT_MOST`] left (listed by a scan now if it was not yet).
    pub(super) fn cells<'a, K: Id>(
        &'a mut self,
        id: K,
        ids: &'a [K],
    ) -> Option<impl Iterator<Item = usize> + Clone + 'a> {
        let kind = id.index();
        if self.start[kind] == UNLISTED && self.left[kind] as usize <= LIST_AT_MOST {
            self.scan(ids, LIST_AT_MOST);
        }
        if self.start[kind] == UNLISTED {
            return None;
        }
        let start = self.start[kind] as usize;
        let listed = &self.cells[start..start + self.listed[kind] as usize];
        Some(listed.iter().map(|&cell| cell as usize).filter(move |&cell| ids[cell] == id))
    }

    /// The piece of kind `id` on `cell` has left the board; `ids` are the board's kinds after it.
    pub(super) fn remove<K: Id>(&mut self, id: K, cell: usize, ids: &[K]) {
        let kind = id.index();
        self.left[kind] -= 1;
        if self.start[kind] == UNLISTED {
            return;
        }
        let first = self.start[kind] as usize;
        let listed = first..first + self.listed[kind] as usize;
        let Some(slot_of) = &mut self.slot else {
            if self.listed[kind] > 2 * self.left[kind] {
                let mut kept = first;
                for at in listed {
                    if ids[self.cells[at] as usize] == id {
                        self.cells[kept] = self.cells[at];
                        kept += 1;
                    }
                }
                self.listed[kind] = (kept - first) as u32;
            }
            return;
        };
        // Swap the last listed piece into the removed one's place.
        let (slot, last) = (slot_of[cell] as usize, listed.end - 1);
        self.cells[slot] = self.cells[last];
        slot_of[self.cells[slot] as usize] = slot as u32;
        self.listed[kind] -= 1;
    }

    /// With gravity: the pieces on the first cells move to the second ones.
    pub(super) fn moved(&mut self, moves: &[(usize, usize)]) {
        let slot_of = self.slot.as_mut().expect("pieces move only with gravity");
        // A piece may land where another stood: read every place before writing any.
        let slots: Vec<u32> = moves.iter().map(|&(from, _)| slot_of[from]).collect();
        for (&(_, to), slot) in moves.iter().zip(slots) {
            self.cells[slot as usize] = to as u32;
            slot_of[to] = slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// As pieces leave a board without gravity, each kind's count is right, and a kind with few
    /// left lists exactly its pieces, whether listed from the start or by a later scan.
    #[test]
    fn listed_cells_are_the_pieces_left() {
        let mut rng = ChaCha8Rng::seed_from_u64(66);
        for _ in 0..50 {
            let kinds = rng.random_range(1..=6_usize);
            let mut ids: Vec<u8> = (0..rng.random_range(1..=600))
                .map(|_| if rng.random_bool(0.2) { 0 } else { rng.random_range(1..=kinds as u8) })
                .collect();
            let mut pieces = Pieces::new(&ids, kinds, false);
            let mut order: Vec<usize> = (0..ids.len()).filter(|&cell| ids[cell] != 0).collect();
            order.shuffle(&mut rng);
            for cell in order {
                let id = std::mem::take(&mut ids[cell]);
                pieces.remove(id, cell, &ids);
                for kind in 1..=kinds as u8 {
                    let left: Vec<usize> = (0..ids.len()).filter(|&at| ids[at] == kind).collect();
                    assert_eq!(pieces.left(kind), left.len());
                    let listed = pieces.cells(kind, &ids).map(|cells| {
                        let mut cells: Vec<usize> = cells.collect();
                        cells.sort_unstable();
                        cells
                    });
                    assert_eq!(listed, (left.len() <= LIST_AT_MOST).then_some(left));
                }
            }
        }
    }
}
