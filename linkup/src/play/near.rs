//! Greedy play's partner at 0 or 1 turns, found without walking the lines (boards without
//! gravity, where cells only ever open).
//!
//! The sweep's first two layers are four lines from the piece (right, down, left, up), then,
//! for each of their cells in that order, the two lines at right angles (down then up from a
//! line along the row, right then left from one along the column). No two of these lines share
//! a cell on one axis, so each runs to the first blocked cell, which it offers. Where a line
//! stops is asked of [`Stops`] instead of walked, so a line across an emptied region costs
//! nothing; the order of the offers, and the line drawn, are the sweep's.

/// For each of the four directions, the first blocked cell at or after each cell: union-find
/// over the open cells (each open cell points further along; a blocked cell is its own stop),
/// halving paths as it goes. Cells only ever open, which union-find handles.
pub(super) struct Stops {
    /// `next[direction][cell]`: `cell` when blocked, else a cell further along `direction`.
    next: [Vec<u32>; 4],
    /// Cell-number steps right, down, left, up.
    steps: [isize; 4],
}

impl Stops {
    /// The stops of a walled board with these open cells and this width.
    pub(super) fn new(open: &[bool], width: usize) -> Stops {
        let steps = [1, width as isize, -1, -(width as isize)];
        let next = steps.map(|step| {
            (0..open.len())
                .map(|cell| if open[cell] { cell.wrapping_add_signed(step) as u32 } else { cell as u32 })
                .collect()
        });
        Stops { next, steps }
    }

    /// `cell` has opened.
    pub(super) fn open(&mut self, cell: usize) {
        for (next, step) in self.next.iter_mut().zip(self.steps) {
            next[cell] = cell.wrapping_add_signed(step) as u32;
        }
    }

    /// The first blocked cell at or after `cell` in `direction`.
    fn stop(&mut self, direction: usize, cell: usize) -> usize {
        let next = &mut self.next[direction];
        let mut at = cell;
        while next[at] as usize != at {
            let further = next[next[at] as usize];
            next[at] = further;
            at = further as usize;
        }
        at
    }

    /// The sweep's first hit of a piece of `kind` from the piece on `from` at 0 turns, then at
    /// 1 turn when `max_turns` allows, as the cells of its line (ends and turn).
    pub(super) fn partner(&mut self, kinds: &[u32], from: usize, max_turns: u32) -> Option<Vec<usize>> {
        let kind = kinds[from];
        let ends = [0, 1, 2, 3]
            .map(|direction| self.stop(direction, from.wrapping_add_signed(self.steps[direction])));
        if let Some(&end) = ends.iter().find(|&&end| kinds[end] == kind) {
            return Some(vec![from, end]);
        }
        if max_turns == 0 {
            return None;
        }
        for (direction, &end) in ends.iter().enumerate() {
            let (step, across) = (self.steps[direction], 1 - direction % 2);
            let mut at = from.wrapping_add_signed(step);
            while at != end {
                for turn in [across, across + 2] {
                    let hit = self.stop(turn, at.wrapping_add_signed(self.steps[turn]));
                    if kinds[hit] == kind {
                        return Some(vec![from, at, hit]);
                    }
                }
                at = at.wrapping_add_signed(step);
            }
        }
        None
    }
}
