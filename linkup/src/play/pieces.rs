//! Where the pieces of each kind stand, for greedy play: how many a kind has left, and their
//! cells when few are left (the direct check of [`super::direct`] goes through them).
//!
//! Without gravity a cell that empties never holds a piece again, so a removed piece may stay
//! in its kind's list until the list is more than half dead, when the dead are dropped in one
//! pass: O(1) per removal amortised, and no table by cell. With gravity pieces move, and a
//! moved piece's entry must be found from its cell, so each cell keeps its place in its
//! kind's list.

use rustc_hash::FxHashMap;

use crate::model::{EMPTY, Kind};

/// The cells of one kind's pieces, and how many of them are still on the board.
#[derive(Default)]
struct KindCells {
    /// The cells of the kind's pieces, in no order. Without gravity it may also hold cells
    /// emptied since (see the module documentation); with gravity, only pieces on the board.
    cells: Vec<u32>,
    /// Pieces of the kind on the board.
    left: usize,
}

/// The pieces of every kind on a walled board.
pub(super) struct Pieces {
    of_kind: FxHashMap<Kind, KindCells>,
    /// With gravity, `slot[cell]`: where the piece on `cell` stands in its kind's list.
    slot: Option<Vec<u32>>,
}

impl Pieces {
    /// The pieces of the walled board whose kinds are `kinds`; `gravity` if they will move.
    pub(super) fn new(kinds: &[Kind], gravity: bool) -> Pieces {
        let mut pieces =
            Pieces { of_kind: FxHashMap::default(), slot: gravity.then(|| vec![0; kinds.len()]) };
        for (cell, &kind) in kinds.iter().enumerate().filter(|&(_, &kind)| kind != EMPTY) {
            let of_kind = pieces.of_kind.entry(kind).or_default();
            if let Some(slot) = &mut pieces.slot {
                slot[cell] = of_kind.cells.len() as u32;
            }
            of_kind.cells.push(cell as u32);
            of_kind.left += 1;
        }
        pieces
    }

    /// Pieces of `kind` on the board.
    pub(super) fn left(&self, kind: Kind) -> usize {
        self.of_kind.get(&kind).map_or(0, |of_kind| of_kind.left)
    }

    /// The cells of the pieces of `kind` on the board, where `kinds` are the board's kinds.
    pub(super) fn cells<'a>(
        &'a self,
        kind: Kind,
        kinds: &'a [Kind],
    ) -> impl Iterator<Item = usize> + Clone + 'a {
        let cells = self.of_kind.get(&kind).map_or(&[][..], |of_kind| &of_kind.cells);
        cells.iter().map(|&cell| cell as usize).filter(move |&cell| kinds[cell] == kind)
    }

    /// The piece of `kind` on `cell` has left the board; `kinds` are the board's kinds after it.
    pub(super) fn remove(&mut self, kind: Kind, cell: usize, kinds: &[Kind]) {
        let of_kind = self.of_kind.get_mut(&kind).expect("a piece on the board is listed");
        of_kind.left -= 1;
        let Some(slot_of) = &mut self.slot else {
            if of_kind.cells.len() > 2 * of_kind.left {
                of_kind.cells.retain(|&cell| kinds[cell as usize] == kind);
            }
            return;
        };
        let slot = slot_of[cell] as usize;
        of_kind.cells.swap_remove(slot);
        if let Some(&moved) = of_kind.cells.get(slot) {
            slot_of[moved as usize] = slot as u32;
        }
    }

    /// With gravity: the pieces of the listed kinds move from the first cells to the second.
    pub(super) fn moved(&mut self, moves: &[(Kind, usize, usize)]) {
        let slot_of = self.slot.as_mut().expect("pieces move only with gravity");
        let slots: Vec<u32> = moves.iter().map(|&(_, from, _)| slot_of[from]).collect();
        for (&(kind, _, to), slot) in moves.iter().zip(slots) {
            let of_kind = self.of_kind.get_mut(&kind).expect("a piece on the board is listed");
            of_kind.cells[slot as usize] = to as u32;
            slot_of[to] = slot;
        }
    }
}
