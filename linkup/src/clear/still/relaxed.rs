//! The state of a run of the relaxation ([`Relaxing`]): the relaxed board, the pieces freed, and
//! the pairs that may still free one ([`Edge`]), each with what it waits on (see
//! [`Relaxation::can_all_go`](super::relax::Relaxation::can_all_go)).

use crate::clear::bits::{Bits, Cell, LINE_WORDS};
use crate::clear::position::PIECE_WORDS;
use crate::clear::wait::Wait;

/// Bytes of the relaxed board's grid of cells, the cell at row r and column c at `r << 6 | c`
/// ([`cell_index`]), for every framed line and the one beyond.
const CELL_BYTES: usize = 64 * 64;

const _: () =
    assert!((crate::clear::bits::MAX_SIDE + 3) << 6 <= CELL_BYTES, "a cell's index in the grid of cells");

/// The pairing bit of the pairs of a kind of more than four pieces in the relaxation's proof.
pub(super) const MANY: u8 = 0b1000;

/// A pair of the relaxation that may still free a piece.
#[derive(Debug, Clone, Copy)]
pub(super) struct Edge {
    /// `a < b`: in reading order, as its checks ([`Bits::wait_on_sorted`]) are told.
    a: u16,
    b: u16,
    /// The kind of both pieces.
    kind: u16,
    /// The cells of `a` and `b`.
    at: [Cell; 2],
    /// The pairing of the pair as a bit (kinds of four: bit p for pairing p; kinds of two: 0;
    /// larger kinds: [`MANY`]).
    pairing: u8,
    /// Known joinable on the relaxed board.
    joined: bool,
    /// Skipped by passes since its last check (its wait may have ended on any line freed since
    /// the run began).
    stale: bool,
    /// What the pair waits on: the rows and columns (masks) a cell must open on, or four
    /// cells, before it can become joinable.
    watch: Wait,
    /// When `watch` is apart, its four cells ([`apart_cells`]).
    cells: [u16; 4],
}

impl Edge {
    /// The pair of pieces `a < b` (on the cells `at`) of kind `kind` and pairing bit `pairing`,
    /// known joinable when `joined`, else waiting on `watch`.
    pub(super) fn new(
        (a, b): (u16, u16),
        kind: usize,
        at: [Cell; 2],
        pairing: u8,
        joined: bool,
        watch: Wait,
    ) -> Edge {
        let cells = if watch.is_apart() { apart_cells(watch) } else { [0; 4] };
        Edge { a, b, kind: kind as u16, at, pairing, joined, stale: false, watch, cells }
    }

    /// The two pieces.
    #[inline(always)]
    pub(super) fn pieces(&self) -> (u16, u16) {
        (self.a, self.b)
    }

    /// The kind of both pieces.
    #[inline(always)]
    pub(super) fn kind(&self) -> usize {
        self.kind as usize
    }

    /// The cells of both pieces.
    #[inline(always)]
    pub(super) fn cells(&self) -> [Cell; 2] {
        self.at
    }

    /// The pairing bit of the pair.
    #[inline(always)]
    pub(super) fn pairing(&self) -> u8 {
        self.pairing
    }

    /// Not checked until it may free: checked then against every line freed since the run
    /// began.
    #[inline(always)]
    pub(super) fn skip(&mut self) {
        self.stale = true;
    }

    /// True when the pair was never checked yet (it waits on every line).
    pub(super) fn unchecked(&self) -> bool {
        self.watch == Wait::ALL
    }

    /// True when the pair is not joinable on the relaxed board `now`, whatever its kind may
    /// use, because its wait holds: it is apart and its four cells are closed, or, neither
    /// known joined nor stale, no cell opened on a line it waits on since the last pass began
    /// (`previous`) or in this pass.
    #[inline(always)]
    pub(super) fn idle(&self, now: &Relaxing, previous: (u64, u64)) -> bool {
        if self.watch.is_apart() {
            debug_assert_eq!(
                now.still_apart(self.cells),
                Bits::still_apart(&now.rows, &now.cols, self.watch)
            );
            now.still_apart(self.cells)
        } else {
            !self.joined
                && !self.stale
                && !self.watch.touched((previous.0 | now.freed_lines.0, previous.1 | now.freed_lines.1))
        }
    }

    /// True when the pair is not joinable on `now` (for the checks of debug builds: a pair whose
    /// wait holds).
    pub(super) fn waits_on(&self, now: &Relaxing, max_turns: u32) -> bool {
        Bits::watch_on(&now.rows, &now.cols, self.at[0], self.at[1], max_turns).is_some()
    }

    /// Whether the pair (which may free now) is joinable on the relaxed board `now` (of `height`
    /// framed rows) within `max_turns`: checked again only when a cell it waits on opened since
    /// its last check (`previous`: the lines freed since the last pass began; every line freed
    /// since the run began when it was stale), else its wait stands; a wait that changes is
    /// brought up to date.
    #[inline(always)]
    pub(super) fn joined_on(
        &mut self,
        now: &Relaxing,
        previous: (u64, u64),
        max_turns: u32,
        height: usize,
    ) -> bool {
        if self.joined {
            return true;
        }
        let banded = max_turns <= 2;
        let since = if self.stale { now.freed_all } else { previous };
        self.stale = false;
        // A pair apart waits on four cells of the relaxed board as it is now, whatever was
        // freed since; others on the lines freed since. (A pair apart that gets here is no
        // longer: one of its cells opened.)
        let recheck = self.watch.is_apart()
            || self.watch.touched((since.0 | now.freed_lines.0, since.1 | now.freed_lines.1));
        debug_assert!(
            recheck || !banded || now.joinable_or_watch(self.at[0], self.at[1], max_turns).is_some(),
            "a pair left unchecked is joinable"
        );
        let wait = if !recheck {
            Some(self.watch)
        } else if self.watch.is_apart() {
            // The shape along lines with both cells still closed is as it was.
            let ends = (self.at[0], self.at[1]);
            let opened = now.apart_opened(self.cells);
            debug_assert_eq!(opened, Bits::apart_opened(&now.rows, &now.cols, self.watch));
            Bits::rewait_apart(&now.rows, &now.cols, ends, max_turns, self.watch, opened)
        } else if banded {
            Bits::wait_on_sorted(&now.rows, &now.cols, self.at[0], self.at[1], max_turns)
        } else {
            (!now.flood_joinable(self.at[0], self.at[1], max_turns, height)).then_some(Wait::ALL)
        };
        match wait {
            None => true,
            Some(watch) => {
                self.watch = watch;
                if watch.is_apart() {
                    self.cells = apart_cells(watch);
                }
                false
            }
        }
    }
}

/// The state of a run of the relaxation, in arrays of fixed size (an index masked to 63 needs no
/// bounds check; a framed side is at most 62 lines, and [`MAX_SIDE`](crate::clear::bits::MAX_SIDE)²
/// pieces fit in 64 words of bits): the relaxed board, the pieces freed, the rows and the
/// columns (one bit per framed line) of the pieces freed since the run last took them
/// (`freed_lines`, [`Relaxing::take_freed_lines`]) and since the run began (`freed_all`).
///
/// The relaxed board is also kept a byte per cell (`open`, the cell at row r and column c at
/// [`cell_index`]): a pair apart is looked at every pass, and its four cells cost a byte each
/// that way ([`Edge::idle`]), against a shift, a load and a shift each in the words. Only its
/// first `cells_used` bytes (the framed rows and the row beyond) are ever set: the rest stays 0,
/// and is neither cleared nor copied. A run's state is boxed and reused: made anew, moved or
/// cloned whole, its bytes cost more than the run.
#[derive(Debug)]
pub(super) struct Relaxing {
    rows: [u64; LINE_WORDS],
    cols: [u64; LINE_WORDS],
    freed: [u64; PIECE_WORDS],
    freed_lines: (u64, u64),
    freed_all: (u64, u64),
    open: [u8; CELL_BYTES],
    cells_used: usize,
}

impl Clone for Relaxing {
    fn clone(&self) -> Relaxing {
        let mut now = Relaxing::default();
        now.clone_from(self);
        now
    }

    fn clone_from(&mut self, source: &Relaxing) {
        let used = self.cells_used.max(source.cells_used);
        self.rows = source.rows;
        self.cols = source.cols;
        self.freed = source.freed;
        self.freed_lines = source.freed_lines;
        self.freed_all = source.freed_all;
        self.open[..used].copy_from_slice(&source.open[..used]);
        self.cells_used = source.cells_used;
    }
}

impl Default for Relaxing {
    fn default() -> Relaxing {
        Relaxing {
            rows: [0; LINE_WORDS],
            cols: [0; LINE_WORDS],
            freed: [0; PIECE_WORDS],
            freed_lines: (0, 0),
            freed_all: (0, 0),
            open: [0; CELL_BYTES],
            cells_used: 0,
        }
    }
}

/// Where the cell at `row` and `col` (at most 63 each: a framed line, or the first beyond the
/// frame, which is never open) is in the relaxed board's bytes.
fn cell_index(row: u32, col: u32) -> u16 {
    ((row & 63) << 6 | (col & 63)) as u16
}

/// The four cells of a wait apart ([`Bits::wait_on`]) as indices into the relaxed board's bytes.
fn apart_cells(wait: Wait) -> [u16; 4] {
    let (across, down) = wait.shapes();
    let ([(row_a, col_a), (row_b, col_b)], [(col_c, row_c), (col_d, row_d)]) = (across.cells(), down.cells());
    [cell_index(row_a, col_a), cell_index(row_b, col_b), cell_index(row_c, col_c), cell_index(row_d, col_d)]
}

impl Relaxing {
    /// Becomes the board `bits`, nothing freed.
    pub(super) fn reset(&mut self, bits: &Bits) {
        let (rows, cols) = (bits.rows(), bits.cols());
        let (height, width) = (rows.len(), cols.len());
        self.rows[..height].copy_from_slice(rows);
        self.rows[height..].fill(0);
        self.cols[..width].copy_from_slice(cols);
        self.cols[width..].fill(0);
        self.freed.fill(0);
        (self.freed_lines, self.freed_all) = ((0, 0), (0, 0));
        // The framed rows and the row beyond them.
        let cells = usize::from(cell_index(height as u32, 0)) + 64;
        self.open[..self.cells_used.max(cells)].fill(0);
        self.cells_used = cells;
        for (row, &line) in rows.iter().enumerate() {
            let mut open = line;
            while open != 0 {
                self.open[usize::from(cell_index(row as u32, open.trailing_zeros()))] = 1;
                open &= open - 1;
            }
        }
    }

    /// The rows and the columns of the pieces freed since the last call (or since the run or
    /// its base began), which are then forgotten.
    #[inline(always)]
    pub(super) fn take_freed_lines(&mut self) -> (u64, u64) {
        std::mem::take(&mut self.freed_lines)
    }

    /// Names every line as freed: the next pass checks every pair.
    pub(super) fn free_all_lines(&mut self) {
        self.freed_lines = Wait::ALL.rows_cols();
    }

    /// The pieces freed, a bit per piece, in `words` words.
    pub(super) fn freed(&self, words: usize) -> &[u64] {
        &self.freed[..words]
    }

    /// True when the four cells `cells` ([`apart_cells`]) are all closed: [`Bits::still_apart`]
    /// on the relaxed board.
    #[inline(always)]
    fn still_apart(&self, cells: [u16; 4]) -> bool {
        self.apart_opened(cells) == (false, false)
    }

    /// [`Bits::apart_opened`] on the relaxed board, from the four cells `cells`.
    #[inline(always)]
    fn apart_opened(&self, cells: [u16; 4]) -> (bool, bool) {
        let open = |cell: u16| self.open[usize::from(cell) & (CELL_BYTES - 1)];
        (open(cells[0]) | open(cells[1]) != 0, open(cells[2]) | open(cells[3]) != 0)
    }

    /// True when `piece` is freed.
    #[inline(always)]
    pub(super) fn is_freed(&self, piece: u16) -> bool {
        self.freed[usize::from(piece >> 6) & 63] >> (piece & 63) & 1 == 1
    }

    /// Frees `piece` at `cell`; 1 when it was not yet.
    #[inline(always)]
    pub(super) fn free(&mut self, piece: u16, (row, col): Cell) -> usize {
        let word = &mut self.freed[usize::from(piece >> 6) & 63];
        let bit = 1 << (piece & 63);
        if *word & bit != 0 {
            return 0;
        }
        *word |= bit;
        self.open[usize::from(cell_index(row.into(), col.into()))] = 1;
        self.rows[usize::from(row) & 63] |= 1 << col;
        self.cols[usize::from(col) & 63] |= 1 << row;
        self.freed_lines.0 |= 1 << row;
        self.freed_lines.1 |= 1 << col;
        self.freed_all.0 |= 1 << row;
        self.freed_all.1 |= 1 << col;
        1
    }

    /// [`Bits::watch_on`] on the relaxed board.
    #[inline(always)]
    fn joinable_or_watch(&self, a: Cell, b: Cell, max_turns: u32) -> Option<(u64, u64)> {
        Bits::watch_on(&self.rows, &self.cols, a, b, max_turns)
    }

    /// [`Bits::joinable`] on the relaxed board of `height` framed rows, for any turn limit.
    fn flood_joinable(&self, a: Cell, b: Cell, max_turns: u32, height: usize) -> bool {
        Bits::flood_lines(&self.rows[..height], a, b, max_turns)
    }
}
