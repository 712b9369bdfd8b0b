//! The judge's answers: [`Solver`] answers queries about one board.
//!
//! ## At most two turns: [`Index`], O(n + m) per query
//! A line with at most two turns from `a` to `b` is always one of two shapes:
//! - *across a column*: along `a`'s row to some column `c`, along column `c` to `b`'s row, along
//!   that row to `b` (with `c` = `a.col` or `b.col` it has one turn fewer);
//! - *across a row*: the same with rows and columns exchanged.
//!
//! For the first shape, `c` must lie in the run of open cells around `a` in its row (`a`'s own
//! column included), likewise around `b`, and column `c` must be open strictly between the two
//! rows. The [`Index`] holds, for every row and every column of the framed board, prefix counts
//! of its blocked cells, so that any straight segment is checked in O(1) and a run is found by
//! a galloping search; the candidate columns are then scanned in O(m), the candidate rows in
//! O(n). The counts fit in `u16` (at most 8002 cells in a row or a column of the framed board),
//! four bytes per cell for both tables. The column counts cost one vectorised pass over the
//! board, once per case and only when some query needs them; a row is counted when a query
//! first needs it. The tables' memory is kept from one case to the next ([`Tables`]).
//!
//! The exact search of `solve --best` has its own two-turn check on bit boards
//! (`clear/bits.rs`): a line of its board is one 64-bit word, which fits boards of at most 60
//! lines. Queries take boards of thousands of cells a line, hence prefix counts here.
//!
//! ## Any number of turns: [`Sweep`], O(cells reached) per query
//! A breadth-first search by layers of straight lines: layer 0 is the four lines leaving `a`;
//! layer t + 1 is the lines leaving, at right angles, every cell first reached in layer t. A
//! line stops at a blocked cell (which it *hits*: if that is `b`, the answer is t turns) and at a
//! cell already reached along the same axis: that cell's whole open run along that axis has
//! been covered already, by an earlier or equal layer, because every line covers the whole run
//! it is in (it starts inside the run and goes to both ends, or starts at a piece and runs the
//! whole run on that side). So each (cell, axis) is reached once, and the layer at which it is
//! reached is the fewest turns of a line arriving there along that axis. The sweep also serves
//! `solve`, which needs every piece a piece can reach.

use crate::model::{Board, Line, Query, Rules, refusal};

mod index;
mod sweep;
pub use index::Index;
pub use sweep::{Hit, Layer, Sweep, Walled};

/// The tables of a [`Solver`], kept from one board to the next: a long input then reuses the
/// same memory for every case instead of allocating (and faulting in) fresh pages each time.
#[derive(Debug, Clone, Default)]
pub struct Tables {
    index: Index,
    walled: Walled,
    sweep: Sweep,
}

/// Answers queries about one board under one set of rules. Its tables are built on first need
/// and kept for the next queries.
#[derive(Debug)]
pub struct Solver<'b> {
    board: &'b Board,
    rules: Rules,
    tables: Tables,
    index_built: bool,
    sweep_built: bool,
}

impl<'b> Solver<'b> {
    /// A solver for `board` under `rules`; nothing is built yet. Takes any board [`crate::parse`]
    /// accepts (up to [`crate::model::MAX_CELLS`] cells); its tables take 4 bytes a cell at
    /// most once built, and are built in O(n·m) on first need.
    pub fn new(board: &'b Board, rules: Rules) -> Self {
        Solver::with_tables(board, rules, Tables::default())
    }

    /// A solver that builds its tables in the memory of `tables` (from [`Solver::into_tables`]).
    pub fn with_tables(board: &'b Board, rules: Rules, tables: Tables) -> Self {
        Solver { board, rules, tables, index_built: false, sweep_built: false }
    }

    /// The tables, for the next board.
    pub fn into_tables(self) -> Tables {
        self.tables
    }

    /// True when the query's two cells hold pieces of one kind that a line can join. With at
    /// most two turns O(n + m) (after the tables, and O(m) for each row a query first needs);
    /// with more, O(cells reached). Panics when a cell of the query is off the board (1-based:
    /// row 1..=n, column 1..=m), as [`crate::parse`] never gives.
    pub fn joinable(&mut self, query: Query) -> bool {
        if refusal(self.board, query).is_some() {
            return false;
        }
        let max_turns = self.rules.max_turns;
        if max_turns <= 2 {
            let board = self.board;
            self.index().bends(board, query.a, query.b, max_turns, false).is_some()
        } else {
            let Tables { walled, sweep, .. } = self.sweep();
            let (from, to) = (walled.cell(query.a), walled.cell(query.b));
            let hit = sweep.run(&walled.open, from, max_turns, |cell, _| cell == to);
            sweep.clear();
            hit.is_some()
        }
    }

    /// A line joining the query's two cells, with the fewest turns (and, for at most two turns,
    /// the shortest of those), or `None` when [`Solver::joinable`] is false. The same cost and
    /// panics as [`Solver::joinable`], plus the line's points.
    pub fn line(&mut self, query: Query) -> Option<Line> {
        if refusal(self.board, query).is_some() {
            return None;
        }
        let max_turns = self.rules.max_turns;
        if max_turns <= 2 {
            let board = self.board;
            let [first, second] = self.index().bends(board, query.a, query.b, max_turns, true)?;
            Some(Line::through([query.a, first, second, query.b]))
        } else {
            let Tables { walled, sweep, .. } = self.sweep();
            let (from, to) = (walled.cell(query.a), walled.cell(query.b));
            let line = sweep
                .run(&walled.open, from, max_turns, |cell, _| cell == to)
                .map(|hit| walled.line(&sweep.line_to(&walled.open, hit)));
            sweep.clear();
            line
        }
    }

    fn index(&mut self) -> &mut Index {
        if !self.index_built {
            self.tables.index.build(self.board, self.rules.outside);
            self.index_built = true;
        }
        &mut self.tables.index
    }

    fn sweep(&mut self) -> &mut Tables {
        if !self.sweep_built {
            self.tables.walled.build(self.board, self.rules.outside);
            self.tables.sweep.fit(&self.tables.walled);
            self.sweep_built = true;
        }
        &mut self.tables
    }
}
