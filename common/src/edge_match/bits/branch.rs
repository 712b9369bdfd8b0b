//! The placement loops of the bit search: filling a cell with each of its candidates in turn
//! and searching on.

use super::{
    ANY, BitSearch, Counters, Grid, KindSet, MAX_LABELS, Placement, RowState, Variant, bit_key, kind_index,
};
use super::{CELL_MASK, SIDE_MASK};

impl<S: KindSet> BitSearch<S> {
    /// Fills `cell` and the cells after it; true when the limit of solutions is reached or
    /// the budget is spent. One call is one node, except that a cell within a row whose
    /// candidates come out empty is counted without a call (see [`BitSearch::descend`]).
    pub(super) fn fill(&mut self, cell: usize, row: usize, col: usize, left: usize) -> bool {
        if self.nodes.count >= self.nodes.next_poll && !self.nodes.poll(cell > self.prefix.len()) {
            self.stopped_at(cell, S::FULL);
            return true;
        }
        self.nodes.count += 1;
        if cell == self.cells {
            return self.solution();
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
        if cell < self.prefix.len() {
            candidates &= self.prefix[cell];
        }
        if col == 0 && row > 0 && row + 1 < self.rows && self.cols > 1 {
            self.branch::<{ Cells::SIDE }>(cell, row, col, candidates, row_start)
        } else {
            self.branch::<{ Cells::EDGE }>(cell, row, col, candidates, row_start)
        }
    }

    /// Records the board filled now as a solution (and in [`BitSearch::recorded`] when it
    /// keeps them); whether the search may stop.
    #[cold]
    fn solution(&mut self) -> bool {
        let cell = self.cells;
        self.found += 1;
        if let Some(boards) = &mut self.recorded {
            boards.extend_from_slice(&self.board[..cell]);
        }
        let first = self.first.is_none();
        if first {
            let placements = self.board[..cell]
                .iter()
                .map(|&kind| Placement { kind: kind as usize, orientation: 0 })
                .collect();
            self.first = Some(Grid::from_vec(self.rows, self.cols, placements));
        }
        // Every solution goes to the shared count of a split task, the last one too.
        let settled = self.nodes.solution_settles(first);
        settled || self.found >= self.limit
    }

    /// [`BitSearch::fill`] for a cell after the first in its row and past the prefix, whose
    /// `candidates` the caller has computed.
    fn fill_known(&mut self, cell: usize, row: usize, col: usize, candidates: S) -> bool {
        if self.nodes.count >= self.nodes.next_poll && !self.nodes.poll(cell > self.prefix.len()) {
            self.stopped_at(cell, candidates);
            return true;
        }
        self.nodes.count += 1;
        // `col > 0` here (the callers' invariant): an inner cell is one off the border whose
        // successor is in the same row.
        if row > 0 && row + 1 < self.rows {
            if col + 1 < self.cols {
                self.branch::<{ Cells::INNER }>(cell, row, col, candidates, None)
            } else {
                self.branch::<{ Cells::SIDE }>(cell, row, col, candidates, None)
            }
        } else {
            self.branch::<{ Cells::EDGE }>(cell, row, col, candidates, None)
        }
    }

    /// Records a row start (its state and the solutions found before it) as a dead end when
    /// nothing was found below it, while the table has room.
    fn record_dead(&mut self, row_start: Option<(RowState<S>, u64)>) {
        if let Some((state, found)) = row_start
            && self.found == found
            && self.dead_rows_capacity > self.dead_rows.len()
        {
            self.dead_rows.insert(state);
        }
    }

    /// The placement loop: tries every kind of `candidates` in `cell` at (row, col) and
    /// searches on; records the row start (its state and the solutions found before it) as a
    /// dead end when nothing was found below it. `AT` says where the cell lies ([`Cells`]),
    /// which decides only how much of the counting checks runs and what is known of the next
    /// cell before the loop: one loop, compiled once per kind of cell with every test on `AT`
    /// folded away. (It replaced three hand-written copies, one per kind of cell, at the cost
    /// of a few more instructions.)
    #[allow(clippy::inline_always, reason = "inlined into both callers, on the hot path of every node")]
    #[inline(always)]
    fn branch<const AT: u8>(
        &mut self,
        cell: usize,
        row: usize,
        col: usize,
        mut candidates: S,
        row_start: Option<(RowState<S>, u64)>,
    ) -> bool {
        let (rows, cols) = (self.rows, self.cols);
        let (next_row, next_col) = if col + 1 == cols { (row + 1, 0) } else { (row, col + 1) };
        // Within this subtree only later cells are filled: `below[row][col − 1]` stays, and so
        // do the top and the lookahead of the next cell when it is in this row.
        let follow = if row + 1 < rows { self.follow(row, col) } else { S::EMPTY };
        // A side cell's surplus update and bound (see `count_in`).
        let first = col == 0;
        let side = (if first { 1 } else { -1 }, (rows - 1 - row + usize::from(first)) as i32);
        let next = if AT == Cells::INNER {
            let next_top = self.bottoms[(cell + 1 - cols) & CELL_MASK] as usize;
            Some((next_top, self.allowed[row & SIDE_MASK][(col + 1) & SIDE_MASK]))
        } else {
            None
        };
        // Only a cell of the first column starts the next row's chain at its left border; an
        // inner cell never is one, and saying so as a constant drops the test from its loop.
        let first_col = AT != Cells::INNER && first;
        while !candidates.is_empty() {
            let kind = kind_index::<S>(candidates.first());
            candidates = candidates.without_first();
            let v = self.sides[kind];
            self.lay(cell, kind, v);
            if self.count_in::<AT>(row, col, v, side)
                // Only the last row and the first cells may have no row below.
                && (AT != Cells::EDGE && self.below_chains(row, col, v, follow, first_col)
                    || AT == Cells::EDGE && (row + 1 == rows || self.below_chains(row, col, v, follow, first_col)))
                && self.descend(cell, next_row, next_col, v, next)
            {
                if self.nodes.split {
                    // What this loop had left, after the node below it (search order).
                    self.remainder.push((cell, candidates));
                }
                return true;
            }
            self.count_out::<AT>(row, col, v, side.0);
            self.lift(kind);
        }
        self.record_dead(row_start);
        false
    }

    /// The counting checks of `v` landing at (row, col), a cell of kind `AT`, with the counters
    /// updated (undone by [`BitSearch::count_out`] whatever the answer). On the border rows and
    /// the first cells ([`Cells::EDGE`]) they run in full (`Counters::place` and `hold`).
    /// Elsewhere a cell changes only the open-bottoms counter of its bottom label, and in the
    /// first or the last column ([`Cells::SIDE`]) the horizontal surplus of its left or right
    /// label. Every `spare_tops` entry is nonnegative at every node (each decrement is checked,
    /// or undone), so only the bottom's needs a check; `v_positive` changes only in the first
    /// and last rows, where `hold` checked it against `cols`, the bound of every row between;
    /// `h_positive` is checked against the right-border cells left after this one, as there;
    /// and an inner cell's surplus bounds are those of the cell before, which passed. `side` is
    /// a side cell's change of the horizontal surplus (1 for its left label in the first
    /// column, −1 for its right one in the last) and the right-border cells left after it.
    #[allow(clippy::inline_always, reason = "on the hot path of every placement")]
    #[inline(always)]
    fn count_in<const AT: u8>(&mut self, row: usize, col: usize, v: Variant, side: (i32, i32)) -> bool {
        let (rows, cols) = (self.rows, self.cols);
        let counters = &mut self.counters;
        if AT == Cells::EDGE {
            counters.place(rows, cols, row, col, v);
            return counters.hold(rows, cols, row, col, v, true);
        }
        let bottom = v.bottom as usize & (MAX_LABELS - 1);
        counters.spare_tops[bottom] -= 1;
        if AT == Cells::INNER {
            return counters.spare_tops[bottom] >= 0;
        }
        let (delta, right_border_left) = side;
        let label = if delta > 0 { v.left } else { v.right };
        Counters::add(&mut counters.h_surplus, &mut counters.h_positive, label, delta);
        counters.spare_tops[bottom] >= 0 && counters.h_positive <= right_border_left
    }

    /// Undoes [`BitSearch::count_in`].
    #[allow(clippy::inline_always, reason = "on the hot path of every placement")]
    #[inline(always)]
    fn count_out<const AT: u8>(&mut self, row: usize, col: usize, v: Variant, delta: i32) {
        let (rows, cols) = (self.rows, self.cols);
        let counters = &mut self.counters;
        if AT == Cells::EDGE {
            counters.unplace(rows, cols, row, col, v);
            return;
        }
        counters.spare_tops[v.bottom as usize & (MAX_LABELS - 1)] += 1;
        if AT == Cells::SIDE {
            let label = if delta > 0 { v.left } else { v.right };
            Counters::add(&mut counters.h_surplus, &mut counters.h_positive, label, -delta);
        }
    }

    /// Searches on from `cell + 1` at (next_row, next_col), `v` having landed in `cell`. Within
    /// a row the candidates of the next cell are computed here (from its top label and
    /// lookahead in `known`, when the caller has them), and a cell without any is counted as a
    /// node without a call (unless the budget is reached, where [`BitSearch::fill_known`]
    /// decides), as `fill` would.
    #[allow(clippy::inline_always, reason = "on the hot path of every placement")]
    #[inline(always)]
    fn descend(
        &mut self,
        cell: usize,
        next_row: usize,
        next_col: usize,
        v: Variant,
        known: Option<(usize, S)>,
    ) -> bool {
        let next = cell + 1;
        if next_col == 0 || next < self.prefix.len() {
            let next_left = if next_col == 0 { ANY } else { v.right as usize };
            return self.fill(next, next_row, next_col, next_left);
        }
        let candidates = match known {
            Some((top, allowed)) => self.lists[bit_key(v.right as usize, top)] & self.available & allowed,
            None => self.candidates(next, next_row, next_col, v.right as usize),
        };
        if candidates.is_empty() && self.nodes.count < self.nodes.next_poll {
            self.nodes.count += 1;
            return false;
        }
        self.fill_known(next, next_row, next_col, candidates)
    }
}

/// The kinds of cell the placement loop ([`BitSearch::branch`]) is compiled for.
struct Cells;

impl Cells {
    /// A cell of the first or the last row, or one of the cells a split task fixes: every check.
    const EDGE: u8 = 0;
    /// A cell of the first or the last column (not both) of a row between.
    const SIDE: u8 = 1;
    /// Any other cell: off the border, after the first of its row, before the last.
    const INNER: u8 = 2;
}
