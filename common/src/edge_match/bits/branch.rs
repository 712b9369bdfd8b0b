//! The placement loops of the bit search: filling a cell with each of its candidates in turn
//! and searching on.

use super::{
    ANY, BitSearch, Counters, Grid, KindSet, MAX_LABELS, PREFIX, Placement, RowState, Variant, bit_key,
    kind_index,
};
use super::{CELL_MASK, SIDE_MASK};

impl<S: KindSet> BitSearch<S> {
    /// Fills `cell` and the cells after it; true when the limit of solutions is reached or
    /// the budget is spent. One call is one node, except that a cell within a row whose
    /// candidates come out empty is counted without a call (see [`BitSearch::descend`]).
    pub(super) fn fill(&mut self, cell: usize, row: usize, col: usize, left: usize) -> bool {
        if self.nodes.count >= self.nodes.next_poll && !self.nodes.poll() {
            return true;
        }
        self.nodes.count += 1;
        let (rows, cols) = (self.rows, self.cols);
        if cell == self.cells {
            self.found += 1;
            if self.first.is_none() {
                let placements = self.board[..cell]
                    .iter()
                    .map(|&kind| Placement { kind: kind as usize, orientation: 0 })
                    .collect();
                self.first = Some(Grid::from_vec(rows, cols, placements));
            }
            return self.found >= self.limit || self.nodes.solution_settles();
        }
        if col == 0 && !self.plan_row(row) {
            return false;
        }
        let row_start = if col == 0 && row == self.dead_row {
            let state = self.row_state(cell);
            if self.dead_rows.contains(&state) {
                return false;
            }
            Some((state, self.found))
        } else {
            None
        };
        let mut candidates = self.candidates(cell, row, col, left);
        if cell < PREFIX {
            candidates &= self.prefix[cell];
        }
        if col == 0 && row > 0 && row + 1 < self.rows && self.cols > 1 {
            self.branch_side(cell, row, col, candidates, row_start)
        } else {
            self.branch(cell, row, col, candidates, row_start)
        }
    }

    /// [`BitSearch::fill`] for a cell after the first in its row and past the prefix, whose
    /// `candidates` the caller has computed.
    fn fill_known(&mut self, cell: usize, row: usize, col: usize, candidates: S) -> bool {
        if self.nodes.count >= self.nodes.next_poll && !self.nodes.poll() {
            return true;
        }
        self.nodes.count += 1;
        // `col > 0` here (the callers' invariant): an inner cell is one off the border whose
        // successor is in the same row.
        if row > 0 && row + 1 < self.rows {
            if col + 1 < self.cols {
                self.branch_inner(cell, row, col, candidates)
            } else {
                self.branch_side(cell, row, col, candidates, None)
            }
        } else {
            self.branch(cell, row, col, candidates, None)
        }
    }

    /// [`BitSearch::branch`] for a cell in the first or the last column (not both: `cols > 1`)
    /// of a row between the first and the last (`0 < row < rows − 1`): the same tries and
    /// nodes, with the counting checks cut to what such a cell changes. Of the counters of
    /// `Counters::place` it changes only the horizontal surplus of its left (first column) or
    /// right (last column) label and the open-bottoms counter of its bottom label. Every
    /// `spare_tops` entry is nonnegative at every node (each decrement is checked, or undone),
    /// so only the bottom's needs a check; `v_positive` changes only in the first and last
    /// rows, where `Counters::hold` checked it against `cols`, the bound of every row between;
    /// `h_positive` is checked against the right-border cells left after this one, as there.
    #[allow(
        clippy::inline_always,
        reason = "inlined into both callers, on the path of every row start and end"
    )]
    #[inline(always)]
    fn branch_side(
        &mut self,
        cell: usize,
        row: usize,
        col: usize,
        mut candidates: S,
        row_start: Option<(RowState<S>, u64)>,
    ) -> bool {
        let first = col == 0;
        let (next_row, next_col) = if first { (row, 1) } else { (row + 1, 0) };
        let right_border_left = (self.rows - 1 - row + usize::from(first)) as i32;
        let delta = if first { 1 } else { -1 };
        let follow = self.follow(row, col);
        while !candidates.is_empty() {
            let kind = kind_index::<S>(candidates.first());
            candidates = candidates.without_first();
            let v = self.sides[kind];
            let bottom = v.bottom as usize & (MAX_LABELS - 1);
            let side = if first { v.left } else { v.right };
            self.lay(cell, kind, v);
            let counters = &mut self.counters;
            Counters::add(&mut counters.h_surplus, &mut counters.h_positive, side, delta);
            counters.spare_tops[bottom] -= 1;
            if counters.spare_tops[bottom] >= 0
                && counters.h_positive <= right_border_left
                && self.below_chains(row, col, v, follow)
                && self.descend(cell, next_row, next_col, v)
            {
                return true;
            }
            let counters = &mut self.counters;
            counters.spare_tops[bottom] += 1;
            Counters::add(&mut counters.h_surplus, &mut counters.h_positive, side, -delta);
            self.lift(kind);
        }
        self.record_dead(row_start);
        false
    }

    /// Records a row start (its state and the solutions found before it) as a dead end when
    /// nothing was found below it, while the table has room.
    fn record_dead(&mut self, row_start: Option<(RowState<S>, u64)>) {
        if let Some((state, found)) = row_start
            && self.found == found
            && self.dead_rows.len() < self.dead_rows_capacity
        {
            self.dead_rows.insert(state);
        }
    }

    /// [`BitSearch::branch`] for a cell off the border, after the first in its row and past
    /// the prefix, whose successor is in the same row (`0 < row < rows − 1`,
    /// `0 < col < cols − 1`): the same tries and nodes, with what does not depend on the
    /// candidate taken out of the loop. Within the subtree of this cell only cells after it
    /// are filled, so `below[row][col − 1]`, `allowed[row][col + 1]` and the top of the next
    /// cell stay as they are; only `available` (and the counters) change per candidate.
    /// Only the open-bottoms counter of the bottom label changes here (see
    /// `Counters::place`), and the surplus bounds are those of the cell before, which passed:
    /// only that counter is checked.
    #[allow(
        clippy::inline_always,
        reason = "inlined into its one caller, on the hot path of every inner cell"
    )]
    #[inline(always)]
    fn branch_inner(&mut self, cell: usize, row: usize, col: usize, mut candidates: S) -> bool {
        let next = cell + 1;
        let follow = self.follow(row, col);
        let next_top = self.bottoms[(next - self.cols) & CELL_MASK] as usize;
        let next_allowed = self.allowed[row & SIDE_MASK][(col + 1) & SIDE_MASK];
        while !candidates.is_empty() {
            let kind = kind_index::<S>(candidates.first());
            candidates = candidates.without_first();
            let v = self.sides[kind];
            let bottom = v.bottom as usize & (MAX_LABELS - 1);
            self.lay(cell, kind, v);
            self.counters.spare_tops[bottom] -= 1;
            if self.counters.spare_tops[bottom] >= 0 {
                // The next-row chain (`below_chains`) with the row and column known.
                let possible = self.lists[bit_key(ANY, bottom)] & self.available & follow;
                self.below[row & SIDE_MASK][col & SIDE_MASK] = possible;
                if !possible.is_empty() {
                    // `descend` with the next cell known to be in this row, past the prefix.
                    let next_candidates =
                        self.lists[bit_key(v.right as usize, next_top)] & self.available & next_allowed;
                    if next_candidates.is_empty() && self.nodes.count < self.nodes.next_poll {
                        self.nodes.count += 1;
                    } else if self.fill_known(next, row, col + 1, next_candidates) {
                        return true;
                    }
                }
            }
            self.counters.spare_tops[bottom] += 1;
            self.lift(kind);
        }
        false
    }

    /// Tries every kind of `candidates` in `cell` at (row, col) and searches on; records the
    /// row start (its state and the solutions found before it) as a dead end when nothing was
    /// found below it. For cells in the first or the last row, and the first cells of a search
    /// (the others take [`BitSearch::branch_inner`] and [`BitSearch::branch_side`]), so the
    /// counting checks run in full.
    #[allow(
        clippy::inline_always,
        reason = "inlined into both callers: measured 7% faster on 6×6 boards with five labels"
    )]
    #[inline(always)]
    fn branch(
        &mut self,
        cell: usize,
        row: usize,
        col: usize,
        mut candidates: S,
        row_start: Option<(RowState<S>, u64)>,
    ) -> bool {
        let (rows, cols) = (self.rows, self.cols);
        let (next_row, next_col) = if col + 1 == cols { (row + 1, 0) } else { (row, col + 1) };
        // Within this subtree only later cells are filled: `below[row][col − 1]` stays.
        let follow = if row + 1 < rows { self.follow(row, col) } else { S::EMPTY };
        while !candidates.is_empty() {
            let kind = kind_index::<S>(candidates.first());
            candidates = candidates.without_first();
            let v = self.sides[kind];
            self.lay(cell, kind, v);
            self.counters.place(rows, cols, row, col, v);
            if self.counters.hold(rows, cols, row, col, v, true)
                && self.below_chains(row, col, v, follow)
                && self.descend(cell, next_row, next_col, v)
            {
                return true;
            }
            self.counters.unplace(rows, cols, row, col, v);
            self.lift(kind);
        }
        self.record_dead(row_start);
        false
    }

    /// Searches on from `cell + 1` at (next_row, next_col), `v` having landed in `cell`. Within
    /// a row the candidates of the next cell are computed here, and a cell without any is
    /// counted as a node without a call (unless the budget is reached, where
    /// [`BitSearch::fill_known`] decides), as `fill` would.
    #[allow(clippy::inline_always, reason = "on the hot path of every placement")]
    #[inline(always)]
    fn descend(&mut self, cell: usize, next_row: usize, next_col: usize, v: Variant) -> bool {
        let next = cell + 1;
        if next_col == 0 || next < PREFIX {
            let next_left = if next_col == 0 { ANY } else { v.right as usize };
            return self.fill(next, next_row, next_col, next_left);
        }
        let candidates = self.candidates(next, next_row, next_col, v.right as usize);
        if candidates.is_empty() && self.nodes.count < self.nodes.next_poll {
            self.nodes.count += 1;
            return false;
        }
        self.fill_known(next, next_row, next_col, candidates)
    }
}
