//! Where the pieces of each kind stand, for greedy play: how many a kind has left, and their
//! cells when few are left (the direct check of [`super::direct`] goes through them).
//!
//! The cells of all pieces lie in one array, kind after kind (kinds by their [`Id`]), so a
//! kind costs three numbers and a piece one, whatever the number of kinds. Without gravity a
//! cell that empties never holds a piece again, so a removed piece may stay in its kind's
//! cells until more than half of them are removed ones, when they are dropped in one pass:
//! O(1) per removal amortised, and no table by cell. With gravity pieces move, and a moved
//! piece's entry must be found from its cell, so each cell keeps its place in the array.

use super::ids::Id;

/// The pieces of every kind on a walled board.
pub(super) struct Pieces {
    /// The cells of kind `k`'s pieces are `cells[start[k]..start[k] + listed[k]]`, in no
    /// order. Without gravity they may include cells emptied since (see the module
    /// documentation); with gravity, only pieces on the board.
    cells: Vec<u32>,
    start: Vec<u32>,
    listed: Vec<u32>,
    /// Pieces of each kind on the board.
    left: Vec<u32>,
    /// With gravity, `slot[cell]`: where the piece on `cell` stands in `cells`.
    slot: Option<Vec<u32>>,
}

// Cells and pieces are numbered in `u32`s.
const _: () = assert!(crate::model::MAX_CELLS + 4 * crate::model::MAX_SIDE + 16 <= u32::MAX as usize);

impl Pieces {
    /// The pieces of the walled board whose kind ids are `ids` (`kinds` kinds); `gravity` if
    /// they will move.
    pub(super) fn new<K: Id>(ids: &[K], kinds: usize, gravity: bool) -> Pieces {
        let mut left = vec![0_u32; kinds + 1];
        for &id in ids {
            left[id.index()] += 1;
        }
        left[0] = 0;
        let mut start = Vec::with_capacity(kinds + 2);
        start.push(0);
        for &count in &left {
            start.push(start.last().expect("one pushed") + count);
        }
        let mut slot = gravity.then(|| vec![0; ids.len()]);
        let mut cells = vec![0; start[kinds + 1] as usize];
        let mut next = start.clone();
        for (cell, &id) in ids.iter().enumerate().filter(|&(_, &id)| id != K::default()) {
            let at = &mut next[id.index()];
            cells[*at as usize] = cell as u32;
            if let Some(slot) = &mut slot {
                slot[cell] = *at;
            }
            *at += 1;
        }
        Pieces { cells, start, listed: left.clone(), left, slot }
    }

    /// Pieces of kind `id` on the board.
    pub(super) fn left<K: Id>(&self, id: K) -> usize {
        self.left[id.index()] as usize
    }

    /// The listed cells of kind `id`, those emptied since included.
    fn listed<K: Id>(&self, id: K) -> std::ops::Range<usize> {
        let start = self.start[id.index()] as usize;
        start..start + self.listed[id.index()] as usize
    }

    /// The cells of the pieces of kind `id` on the board, where `ids` are the board's kinds.
    pub(super) fn cells<'a, K: Id>(
        &'a self,
        id: K,
        ids: &'a [K],
    ) -> impl Iterator<Item = usize> + Clone + 'a {
        self.cells[self.listed(id)].iter().map(|&cell| cell as usize).filter(move |&cell| ids[cell] == id)
    }

    /// The piece of kind `id` on `cell` has left the board; `ids` are the board's kinds after it.
    pub(super) fn remove<K: Id>(&mut self, id: K, cell: usize, ids: &[K]) {
        let kind = id.index();
        self.left[kind] -= 1;
        let listed = self.listed(id);
        let Some(slot_of) = &mut self.slot else {
            if self.listed[kind] > 2 * self.left[kind] {
                let first = listed.start;
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
