//! The layered line search for any turn limit ([`Sweep`], see the [module documentation](super))
//! on the walled board.

use common::Pos;

use crate::model::{Board, EMPTY, Line};

/// The framed board with one more ring around it that is always blocked (the *wall*), so that
/// the lines of a [`Sweep`] stop without bounds checks. Cells are numbered row by row: board
/// row r, column c (0-based) is cell (r + 2) * width + c + 2.
#[derive(Debug, Clone, Default)]
pub struct Walled {
    /// Columns, m + 4.
    width: usize,
    /// Which cells a line may pass: empty board cells, and the ring when the outside is open.
    pub open: Vec<bool>,
}

impl Walled {
    /// The walled board of `board`, with the ring open when `outside`.
    pub fn new(board: &Board, outside: bool) -> Walled {
        let mut walled = Walled::default();
        walled.build(board, outside);
        walled
    }

    /// The walled board of a board of `rows` × `cols` cells, all of them blocked, with the
    /// ring open when `outside`; open the board's empty cells ([`Walled::board_cells`]).
    pub fn blocked(rows: usize, cols: usize, outside: bool) -> Walled {
        let mut walled = Walled::default();
        walled.frame(rows, cols, outside);
        walled
    }

    /// Rows of the board (without the ring and the wall).
    pub fn board_rows(&self) -> usize {
        self.open.len() / self.width - 4
    }

    /// The cells of the board (without the ring and the wall), in reading order.
    pub fn board_cells(&self) -> impl Iterator<Item = usize> + use<> {
        let (width, cols) = (self.width, self.width - 4);
        (0..self.board_rows()).flat_map(move |row| (0..cols).map(move |col| Walled::cell_in(width, row, col)))
    }

    /// Columns and cells of the walled board of a board of `rows` × `cols` cells.
    pub fn shape(rows: usize, cols: usize) -> (usize, usize) {
        (cols + 4, (cols + 4) * (rows + 4))
    }

    /// The cell number of 0-based board row `row`, column `col` on a walled board of `width`
    /// columns.
    pub fn cell_in(width: usize, row: usize, col: usize) -> usize {
        (row + 2) * width + col + 2
    }

    /// Rebuilds the walled board for `board` in the memory it already has.
    pub fn build(&mut self, board: &Board, outside: bool) {
        self.frame(board.rows(), board.cols(), outside);
        for (row, kinds) in board.iter_rows().enumerate() {
            let start = Walled::cell_in(self.width, row, 0);
            for (open, &kind) in self.open[start..start + kinds.len()].iter_mut().zip(kinds) {
                *open = kind == EMPTY;
            }
        }
    }

    /// Lays out the ring and the wall of a board of `rows` × `cols` cells, all of them blocked.
    fn frame(&mut self, rows: usize, cols: usize, outside: bool) {
        let (width, cells) = Walled::shape(rows, cols);
        let height = cells / width;
        self.width = width;
        self.open.clear();
        self.open.resize(cells, false);
        for row in 1..height - 1 {
            let line = &mut self.open[row * width..(row + 1) * width];
            if row == 1 || row == height - 2 {
                line[1..width - 1].fill(outside);
            } else {
                line[1] = outside;
                line[width - 2] = outside;
            }
        }
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

/// How a [`Sweep`] stores the fewest turns of the lines reaching each (cell, axis): `u32` for
/// any turn limit, `u8` (a quarter of the memory) when the limit is below [`u8::MAX`].
pub trait Layer: Copy + Eq + Default + std::fmt::Debug {
    /// Never reached in this search.
    const UNSEEN: Self;
    /// Most turns a search may allow: [`Layer::UNSEEN`] is never a number of turns.
    const MOST_TURNS: u32;
    /// The layer of lines of `turns` turns (at most [`Layer::MOST_TURNS`]).
    fn of(turns: u32) -> Self;
    /// The turns of this layer ([`Layer::UNSEEN`] as more than any search allows).
    fn turns(self) -> u32;
}

impl Layer for u32 {
    const UNSEEN: u32 = u32::MAX;
    const MOST_TURNS: u32 = u32::MAX;
    fn of(turns: u32) -> u32 {
        turns
    }
    fn turns(self) -> u32 {
        self
    }
}

impl Layer for u8 {
    const UNSEEN: u8 = u8::MAX;
    const MOST_TURNS: u32 = u8::MAX as u32 - 1;
    fn of(turns: u32) -> u8 {
        turns as u8
    }
    fn turns(self) -> u32 {
        u32::from(self)
    }
}

/// A run of cells a [`Sweep`] reached in one layer along one axis: `len` cells from `start` on,
/// stepping in `direction` (an index into the sweep's steps). The search queue holds runs
/// rather than cells: a line across an emptied region reaches hundreds of cells in one run.
#[derive(Debug, Clone, Copy)]
struct Run {
    start: u32,
    /// `len << 2 | direction`.
    len_direction: u32,
}

// Every cell number fits a `u32`, and every run's length (at most a row or a column of the
// walled board) leaves two bits for the direction.
const _: () = assert!(crate::model::MAX_CELLS + 4 * crate::model::MAX_SIDE + 16 <= u32::MAX as usize);
const _: () = assert!(crate::model::MAX_SIDE + 4 < 1 << 30);

impl Run {
    fn new(start: usize, direction: usize, len: u32) -> Run {
        Run { start: start as u32, len_direction: len << 2 | direction as u32 }
    }

    fn direction(self) -> usize {
        (self.len_direction & 3) as usize
    }

    /// The axis the run lies along.
    fn axis(self) -> Axis {
        self.direction() % 2
    }

    /// The run's cells, in the order they were reached.
    fn cells(self, steps: [isize; 4]) -> impl Iterator<Item = usize> {
        let step = steps[self.direction()];
        let start = self.start as usize;
        (0..(self.len_direction >> 2) as usize)
            .map(move |index| start.wrapping_add_signed(step * index as isize))
    }
}

/// The layered line search of the [module documentation](super), with its tables kept between
/// searches. Cleared after each search by undoing only what it touched.
#[derive(Debug, Clone, Default)]
pub struct Sweep<L = u32> {
    /// Cell-number steps right, down, left, up: `steps[axis]` and `steps[axis + 2]` run along
    /// `axis`.
    steps: [isize; 4],
    /// `layer[2 * cell + axis]`: the fewest turns of a line reaching `cell` along `axis`, or
    /// [`Layer::UNSEEN`].
    layer: Vec<L>,
    /// Every (cell, axis) reached, as runs, layer after layer: the search queue, and the list
    /// of what to clear.
    runs: Vec<Run>,
    /// The cell the last search started from.
    from: usize,
}

impl<L: Layer> Sweep<L> {
    /// A sweep for boards shaped like `walled`.
    pub fn new(walled: &Walled) -> Sweep<L> {
        let mut sweep = Sweep::default();
        sweep.fit(walled);
        sweep
    }

    /// Fits the sweep to boards shaped like `walled`, in the memory it already has. Between
    /// searches every entry of `layer` is [`Layer::UNSEEN`], so only new entries need setting.
    pub fn fit(&mut self, walled: &Walled) {
        self.steps = walled.steps();
        self.layer.resize(2 * walled.open.len(), L::UNSEEN);
    }

    /// Runs the search from the blocked cell `from` of a walled board whose open cells are
    /// `open`, up to `max_turns` turns. Every blocked cell a line runs into, `from` aside, is
    /// offered to `wanted` with the line's turns, in order of turns; the search stops at the
    /// first one wanted and returns it. Call [`Sweep::clear`] before the next search.
    /// `max_turns` is at most [`Layer::MOST_TURNS`].
    pub fn run(
        &mut self,
        open: &[bool],
        from: usize,
        max_turns: u32,
        mut wanted: impl FnMut(usize, u32) -> bool,
    ) -> Option<Hit> {
        assert!(max_turns <= L::MOST_TURNS, "{max_turns} turns do not fit the sweep's layers");
        self.from = from;
        for direction in 0..4 {
            if let Some(hit) = self.line(open, from, direction, 0, 0, &mut wanted) {
                return Some(hit);
            }
        }
        let mut done = 0;
        for turns in 1..=max_turns {
            let layer_end = self.runs.len();
            if done == layer_end {
                break;
            }
            for index in done..layer_end {
                let run = self.runs[index];
                let across = 1 - run.axis();
                for cell in run.cells(self.steps) {
                    // Reached along `across` already: its whole run that way is covered.
                    if self.layer[2 * cell + across] != L::UNSEEN {
                        continue;
                    }
                    self.layer[2 * cell + across] = L::of(turns);
                    // The turning cell and the line leaving it one way are one run.
                    for (direction, marked) in [(across, 1), (across + 2, 0)] {
                        if let Some(hit) = self.line(open, cell, direction, turns, marked, &mut wanted) {
                            return Some(hit);
                        }
                    }
                }
            }
            done = layer_end;
        }
        None
    }

    /// Draws one line of layer `turns` from `cell` (exclusive) in `direction` (an index into
    /// `steps`), up to a blocked cell or a cell reached along this axis before, and queues its
    /// cells as a run, after the `marked` cells (0, or 1 for `cell` itself) marked before it.
    fn line(
        &mut self,
        open: &[bool],
        cell: usize,
        direction: usize,
        turns: u32,
        marked: u32,
        wanted: &mut impl FnMut(usize, u32) -> bool,
    ) -> Option<Hit> {
        let (step, axis) = (self.steps[direction], direction % 2);
        let mut len = marked;
        let mut at = cell.wrapping_add_signed(step);
        while open[at] && self.layer[2 * at + axis] == L::UNSEEN {
            self.layer[2 * at + axis] = L::of(turns);
            len += 1;
            at = at.wrapping_add_signed(step);
        }
        if len > 0 {
            let start = if marked == 0 { cell.wrapping_add_signed(step) } else { cell };
            self.runs.push(Run::new(start, direction, len));
        }
        (!open[at] && at != self.from && wanted(at, turns)).then_some(Hit { cell: at, turns, direction })
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
                    if turns > 0 && self.layer[2 * cell + 1 - axis].turns() < turns {
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
            turns = self.layer[2 * cell + axis].turns();
            directions = vec![axis, axis + 2];
        }
        points.reverse();
        points
    }

    /// Forgets the last search, in time proportional to what it reached.
    pub fn clear(&mut self) {
        for run in self.runs.drain(..) {
            for cell in run.cells(self.steps) {
                self.layer[2 * cell + run.axis()] = L::UNSEEN;
            }
        }
    }
}
