//! The fast answers: [`Solver`] answers queries about one board.
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
//! four bytes per cell for both tables. Building them costs one pass over the board, done once
//! per case and only when some query needs it.
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

use common::Pos;

use crate::model::{Board, EMPTY, Kind, Line, Query, Rules, kind_at, refusal};

/// Answers queries about one board under one set of rules. Tables are built on first need and
/// kept for the next queries.
#[derive(Debug)]
pub struct Solver<'b> {
    board: &'b Board,
    rules: Rules,
    index: Option<Index>,
    sweep: Option<(Walled, Sweep)>,
}

impl<'b> Solver<'b> {
    /// A solver for `board` under `rules`; nothing is built yet.
    pub fn new(board: &'b Board, rules: Rules) -> Self {
        Solver { board, rules, index: None, sweep: None }
    }

    /// True when the query's two cells hold pieces of one kind that a line can join.
    pub fn joinable(&mut self, query: Query) -> bool {
        if refusal(self.board, query).is_some() {
            return false;
        }
        if self.rules.max_turns <= 2 {
            let index = self.index.get_or_insert_with(|| Index::new(self.board, self.rules.outside));
            index.bends(query.a, query.b, self.rules.max_turns, false).is_some()
        } else {
            let max_turns = self.rules.max_turns;
            let (walled, sweep) = self.sweep();
            let (from, to) = (walled.cell(query.a), walled.cell(query.b));
            let hit = sweep.run(&walled.open, from, max_turns, |cell, _| cell == to);
            sweep.clear();
            hit.is_some()
        }
    }

    /// A line joining the query's two cells, with the fewest turns (and, for at most two turns,
    /// the shortest of those), or `None` when [`Solver::joinable`] is false.
    pub fn line(&mut self, query: Query) -> Option<Line> {
        if refusal(self.board, query).is_some() {
            return None;
        }
        if self.rules.max_turns <= 2 {
            let index = self.index.get_or_insert_with(|| Index::new(self.board, self.rules.outside));
            let [first, second] = index.bends(query.a, query.b, self.rules.max_turns, true)?;
            Some(Line::through([query.a, first, second, query.b]))
        } else {
            let max_turns = self.rules.max_turns;
            let (walled, sweep) = self.sweep();
            let (from, to) = (walled.cell(query.a), walled.cell(query.b));
            let line = sweep
                .run(&walled.open, from, max_turns, |cell, _| cell == to)
                .map(|hit| walled.line(&sweep.line_to(&walled.open, hit)));
            sweep.clear();
            line
        }
    }

    fn sweep(&mut self) -> (&Walled, &mut Sweep) {
        let (walled, sweep) = self.sweep.get_or_insert_with(|| {
            let walled = Walled::new(self.board, self.rules.outside);
            let sweep = Sweep::new(&walled);
            (walled, sweep)
        });
        (walled, sweep)
    }
}

/// Prefix counts of blocked cells along every row and column of the framed board (the board
/// and its ring; the ring is blocked unless the outside is open). See the
/// [module documentation](self).
#[derive(Debug, Clone)]
pub struct Index {
    /// Columns of the framed board, m + 2.
    width: usize,
    /// Rows of the framed board, n + 2.
    height: usize,
    /// `row_blocked[r * (width + 1) + c]`: blocked cells of framed row `r` left of column `c`.
    row_blocked: Vec<u16>,
    /// `col_blocked[r * width + c]`: blocked cells of framed column `c` above row `r`.
    col_blocked: Vec<u16>,
}

impl Index {
    /// The tables for `board`, with the ring open when `outside`.
    pub fn new(board: &Board, outside: bool) -> Index {
        let (width, height) = (board.cols() + 2, board.rows() + 2);
        let ring = u16::from(!outside);
        let mut row_blocked = vec![0; height * (width + 1)];
        let mut col_blocked = vec![0; (height + 1) * width];
        let mut blocked = vec![ring; width];
        for row in 0..height {
            if row == 0 || row == height - 1 {
                blocked.fill(ring);
            } else {
                for (flag, &kind) in blocked[1..width - 1].iter_mut().zip(board.row(row - 1)) {
                    *flag = u16::from(kind != EMPTY);
                }
            }
            let prefix = &mut row_blocked[row * (width + 1)..(row + 1) * (width + 1)];
            for col in 0..width {
                prefix[col + 1] = prefix[col] + blocked[col];
            }
            let (above, below) = col_blocked.split_at_mut((row + 1) * width);
            for ((next, &previous), &flag) in below[..width].iter_mut().zip(&above[row * width..]).zip(&blocked) {
                *next = previous + flag;
            }
        }
        Index { width, height, row_blocked, col_blocked }
    }

    /// Blocked cells of framed row `row` in columns `from..to`.
    fn blocked_in_row(&self, row: usize, from: usize, to: usize) -> u16 {
        let base = row * (self.width + 1);
        self.row_blocked[base + to] - self.row_blocked[base + from]
    }

    /// Blocked cells of framed column `col` in rows `from..to`.
    fn blocked_in_col(&self, col: usize, from: usize, to: usize) -> u16 {
        self.col_blocked[to * self.width + col] - self.col_blocked[from * self.width + col]
    }

    /// The columns `first..=last` around `pos` in its row whose cells, `pos` apart, are open.
    fn row_run(&self, pos: Pos) -> (usize, usize) {
        let base = pos.row * (self.width + 1);
        let count = |col: usize| self.row_blocked[base + col];
        let (left_of, right_of) = (count(pos.col), count(pos.col + 1));
        let first = gallop_down(pos.col, |col| count(col) == left_of);
        let last = gallop_up(pos.col, self.width - 1, |col| count(col + 1) == right_of);
        (first, last)
    }

    /// The rows `first..=last` around `pos` in its column whose cells, `pos` apart, are open.
    fn col_run(&self, pos: Pos) -> (usize, usize) {
        let count = |row: usize| self.col_blocked[row * self.width + pos.col];
        let (above, below) = (count(pos.row), count(pos.row + 1));
        let first = gallop_down(pos.row, |row| count(row) == above);
        let last = gallop_up(pos.row, self.height - 1, |row| count(row + 1) == below);
        (first, last)
    }

    /// The two bends of a line from `a` to `b` (two distinct pieces on the board) with at most
    /// `max_turns` (≤ 2) turns, or `None`. A bend equal to an end or to the other bend is no
    /// turn. With `fewest`, the line has the fewest turns and, among those, the fewest cells;
    /// otherwise it is the first found.
    pub fn bends(&self, a: Pos, b: Pos, max_turns: u32, fewest: bool) -> Option<[Pos; 2]> {
        let across_column = (a.row != b.row).then(|| self.across_column(a, b, max_turns, fewest)).flatten();
        let across_row = (a.col != b.col).then(|| self.across_row(a, b, max_turns, fewest)).flatten();
        let column_line = across_column.map(|col| (shape_cost(a.col, b.col, col, a.row, b.row), col));
        let row_line = across_row.map(|row| (shape_cost(a.row, b.row, row, a.col, b.col), row));
        let by_column = |col: usize| Some([Pos::new(a.row, col), Pos::new(b.row, col)]);
        match (column_line, row_line) {
            (Some((column_cost, col)), Some((row_cost, _))) if column_cost <= row_cost => by_column(col),
            (Some((_, col)), None) => by_column(col),
            (_, Some((_, row))) => Some([Pos::new(row, a.col), Pos::new(row, b.col)]),
            (None, None) => None,
        }
    }

    /// The column of a line along `a`'s row, down (or up) a column, along `b`'s row (which
    /// differs from `a`'s).
    fn across_column(&self, a: Pos, b: Pos, max_turns: u32, fewest: bool) -> Option<usize> {
        let (a_first, a_last) = self.row_run(a);
        let (b_first, b_last) = self.row_run(b);
        let (first, last) = (a_first.max(b_first), a_last.min(b_last));
        if first > last {
            return None;
        }
        let (top, bottom) = (a.row.min(b.row), a.row.max(b.row));
        let open = |col: usize| self.blocked_in_col(col, top + 1, bottom) == 0;
        let candidate = |col: usize| (first..=last).contains(&col) && open(col);
        if max_turns < 2 || fewest {
            // One turn or none: the line turns in `a`'s or `b`'s column.
            if let Some(col) = [a.col, b.col].into_iter().find(|&col| {
                let turns = u32::from(col != a.col) + u32::from(col != b.col);
                turns <= max_turns && candidate(col)
            }) {
                return Some(col);
            }
            if max_turns < 2 {
                return None;
            }
        }
        let upper = &self.col_blocked[(top + 1) * self.width + first..=(top + 1) * self.width + last];
        let lower = &self.col_blocked[bottom * self.width + first..=bottom * self.width + last];
        let mut open_cols = upper.iter().zip(lower).enumerate().filter(|(_, (u, l))| u == l).map(|(i, _)| first + i);
        if fewest {
            open_cols.min_by_key(|&col| shape_cost(a.col, b.col, col, a.row, b.row))
        } else {
            open_cols.next()
        }
    }

    /// The row of a line along `a`'s column, across a row, along `b`'s column (which differs
    /// from `a`'s).
    fn across_row(&self, a: Pos, b: Pos, max_turns: u32, fewest: bool) -> Option<usize> {
        let (a_first, a_last) = self.col_run(a);
        let (b_first, b_last) = self.col_run(b);
        let (first, last) = (a_first.max(b_first), a_last.min(b_last));
        if first > last {
            return None;
        }
        let (left, right) = (a.col.min(b.col), a.col.max(b.col));
        let open = |row: usize| self.blocked_in_row(row, left + 1, right) == 0;
        let candidate = |row: usize| (first..=last).contains(&row) && open(row);
        if max_turns < 2 || fewest {
            if let Some(row) = [a.row, b.row].into_iter().find(|&row| {
                let turns = u32::from(row != a.row) + u32::from(row != b.row);
                turns <= max_turns && candidate(row)
            }) {
                return Some(row);
            }
            if max_turns < 2 {
                return None;
            }
        }
        let mut open_rows = (first..=last).filter(|&row| open(row));
        if fewest {
            open_rows.min_by_key(|&row| shape_cost(a.row, b.row, row, a.col, b.col))
        } else {
            open_rows.next()
        }
    }
}

/// Turns, then cells, of a line across `middle`: `from` to `middle` to `to` on one axis, plus
/// `along_from` to `along_to` on the other.
fn shape_cost(from: usize, to: usize, middle: usize, along_from: usize, along_to: usize) -> (usize, usize) {
    let turns = usize::from(middle != from) + usize::from(middle != to);
    (turns, from.abs_diff(middle) + middle.abs_diff(to) + along_from.abs_diff(along_to))
}

/// The smallest `x ≤ start` such that `holds(y)` for every `y` in `x..=start`, where `holds` is
/// monotone (false below some point, true from there on) and `holds(start)`. Gallops down from
/// `start` (steps 1, 2, 4, ...) then bisects, so a short run costs a few probes near `start`.
fn gallop_down(start: usize, holds: impl Fn(usize) -> bool) -> usize {
    // Invariant: holds(good), and every probe so far above `good` held.
    let mut good = start;
    let mut step = 1;
    let mut bad = loop {
        if good == 0 {
            return 0;
        }
        let probe = good.saturating_sub(step);
        if !holds(probe) {
            break probe;
        }
        good = probe;
        step *= 2;
    };
    // Now !holds(bad), bad < good, holds(good).
    while good - bad > 1 {
        let middle = bad + (good - bad) / 2;
        if holds(middle) {
            good = middle;
        } else {
            bad = middle;
        }
    }
    good
}

/// The largest `x` in `start..=end` such that `holds(y)` for every `y` in `start..=x`, where
/// `holds` is monotone (true up to some point, false after) and `holds(start)`. Gallops up from
/// `start`, then bisects.
fn gallop_up(start: usize, end: usize, holds: impl Fn(usize) -> bool) -> usize {
    let mut good = start;
    let mut step = 1;
    let mut bad = loop {
        if good == end {
            return end;
        }
        let probe = (good + step).min(end);
        if !holds(probe) {
            break probe;
        }
        good = probe;
        step *= 2;
    };
    // Now holds(good), good < bad, !holds(bad).
    while bad - good > 1 {
        let middle = good + (bad - good) / 2;
        if holds(middle) {
            good = middle;
        } else {
            bad = middle;
        }
    }
    good
}

/// The framed board with one more ring around it that is always blocked (the *wall*), so that
/// the lines of a [`Sweep`] stop without bounds checks. Cells are numbered row by row.
#[derive(Debug, Clone)]
pub struct Walled {
    /// Columns, m + 4.
    width: usize,
    /// Which cells a line may pass: empty board cells, and the ring when the outside is open.
    pub open: Vec<bool>,
    /// The kind of every cell; [`EMPTY`] on the ring and the wall.
    pub kinds: Vec<Kind>,
}

impl Walled {
    /// The walled board of `board`, with the ring open when `outside`.
    pub fn new(board: &Board, outside: bool) -> Walled {
        let (width, height) = (board.cols() + 4, board.rows() + 4);
        let mut open = vec![false; width * height];
        let mut kinds = vec![EMPTY; width * height];
        for row in 1..height - 1 {
            for col in 1..width - 1 {
                let framed = Pos::new(row - 1, col - 1);
                let on_board = (1..=board.rows()).contains(&framed.row) && (1..=board.cols()).contains(&framed.col);
                let cell = row * width + col;
                if on_board {
                    kinds[cell] = kind_at(board, framed);
                    open[cell] = kinds[cell] == EMPTY;
                } else {
                    open[cell] = outside;
                }
            }
        }
        Walled { width, open, kinds }
    }

    /// The cell number of a 1-based position (the ring is row 0 and column 0).
    pub fn cell(&self, pos: Pos) -> usize {
        (pos.row + 1) * self.width + pos.col + 1
    }

    /// The 1-based position of a cell of the board or the ring.
    pub fn pos(&self, cell: usize) -> Pos {
        Pos::new(cell / self.width - 1, cell % self.width - 1)
    }

    /// Cell numbers one step away: right, down, left, up (in the `Sweep`'s axis order:
    /// horizontal steps first).
    fn steps(&self) -> [isize; 4] {
        let width = self.width as isize;
        [1, width, -1, -width]
    }

    /// The line through the given cells as positions.
    pub fn line(&self, cells: &[usize]) -> Line {
        Line::through(cells.iter().map(|&cell| self.pos(cell)))
    }

    /// Number of columns (m + 4).
    pub fn width(&self) -> usize {
        self.width
    }
}

/// The axis of a line: 0 horizontal, 1 vertical.
type Axis = usize;

/// A blocked cell a line of a [`Sweep`] ran into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    /// The cell hit.
    pub cell: usize,
    /// Turns of the line that hit it.
    pub turns: u32,
    /// The direction the line was going (an index into the sweep's steps).
    direction: usize,
}

/// Never reached in this search.
const UNSEEN: u32 = u32::MAX;

/// The layered line search of the [module documentation](self), with its tables kept between
/// searches. Cleared after each search by undoing only what it touched.
#[derive(Debug, Clone)]
pub struct Sweep {
    /// Cell-number steps right, down, left, up: `steps[axis]` and `steps[axis + 2]` run along
    /// `axis`.
    steps: [isize; 4],
    /// `layer[2 * cell + axis]`: the fewest turns of a line reaching `cell` along `axis`, or
    /// [`UNSEEN`].
    layer: Vec<u32>,
    /// Every (cell, axis) reached, as `2 * cell + axis`, layer after layer: the search queue,
    /// and the list of what to clear.
    reached: Vec<u32>,
    /// The cell the last search started from.
    from: usize,
}

impl Sweep {
    /// A sweep for boards shaped like `walled`.
    pub fn new(walled: &Walled) -> Sweep {
        Sweep { steps: walled.steps(), layer: vec![UNSEEN; 2 * walled.open.len()], reached: Vec::new(), from: 0 }
    }

    /// Runs the search from the blocked cell `from` of a walled board whose open cells are
    /// `open`, up to `max_turns` turns. Every blocked cell a line runs into, `from` aside, is
    /// offered to `wanted` with the line's turns, in order of turns; the search stops at the
    /// first one wanted and returns it. Call [`Sweep::clear`] before the next search.
    pub fn run(
        &mut self,
        open: &[bool],
        from: usize,
        max_turns: u32,
        mut wanted: impl FnMut(usize, u32) -> bool,
    ) -> Option<Hit> {
        self.from = from;
        for direction in 0..4 {
            if let Some(hit) = self.line(open, from, direction, 0, &mut wanted) {
                return Some(hit);
            }
        }
        let mut done = 0;
        for turns in 1..=max_turns {
            let layer_end = self.reached.len();
            if done == layer_end {
                break;
            }
            for index in done..layer_end {
                let slot = self.reached[index] as usize;
                let (cell, across) = (slot / 2, 1 - slot % 2);
                // Reached along `across` already: its whole run that way is covered.
                if self.layer[2 * cell + across] != UNSEEN {
                    continue;
                }
                self.mark(cell, across, turns);
                for direction in [across, across + 2] {
                    if let Some(hit) = self.line(open, cell, direction, turns, &mut wanted) {
                        return Some(hit);
                    }
                }
            }
            done = layer_end;
        }
        None
    }

    fn mark(&mut self, cell: usize, axis: Axis, turns: u32) {
        self.layer[2 * cell + axis] = turns;
        self.reached.push((2 * cell + axis) as u32);
    }

    /// Draws one line of layer `turns` from `cell` (exclusive) in `direction` (an index into
    /// `steps`), up to a blocked cell or a cell reached along this axis before.
    fn line(
        &mut self,
        open: &[bool],
        cell: usize,
        direction: usize,
        turns: u32,
        wanted: &mut impl FnMut(usize, u32) -> bool,
    ) -> Option<Hit> {
        let (step, axis) = (self.steps[direction], direction % 2);
        let mut at = cell.wrapping_add_signed(step);
        while open[at] {
            if self.layer[2 * at + axis] != UNSEEN {
                return None;
            }
            self.mark(at, axis, turns);
            at = at.wrapping_add_signed(step);
        }
        (at != self.from && wanted(at, turns)).then_some(Hit { cell: at, turns, direction })
    }

    /// The ends and turns of a line from the last search's start to `hit`, in order. Call
    /// before [`Sweep::clear`].
    pub fn line_to(&self, open: &[bool], hit: Hit) -> Vec<usize> {
        let mut points = vec![hit.cell];
        let mut axis = hit.direction % 2;
        let mut turns = hit.turns;
        // Back along the line that hit: the opposite direction only.
        let mut directions = vec![(hit.direction + 2) % 4];
        let mut at = hit.cell;
        loop {
            // Walk from `at` along `axis` to the start, or to a cell reached along the other
            // axis in fewer turns: a line with fewer turns turned there. Some direction finds
            // one before a blocked cell: the line that reached `at` came from there.
            let found = directions.iter().find_map(|&direction| {
                let step = self.steps[direction];
                let mut cell = at.wrapping_add_signed(step);
                loop {
                    if cell == self.from {
                        return Some(cell);
                    }
                    if !open[cell] {
                        return None;
                    }
                    if turns > 0 && self.layer[2 * cell + 1 - axis] < turns {
                        return Some(cell);
                    }
                    cell = cell.wrapping_add_signed(step);
                }
            });
            let cell = found.expect("every cell the sweep reached lies on a line from the start");
            points.push(cell);
            if cell == self.from {
                break;
            }
            at = cell;
            axis = 1 - axis;
            turns = self.layer[2 * cell + axis];
            directions = vec![axis, axis + 2];
        }
        points.reverse();
        points
    }

    /// Forgets the last search, in time proportional to what it reached.
    pub fn clear(&mut self) {
        for &slot in &self.reached {
            self.layer[slot as usize] = UNSEEN;
        }
        self.reached.clear();
    }
}
