//! The state of a run of the relaxation: the relaxed board, the pieces freed, the pairs that may
//! still free one (see [`super::StillSearch::can_all_go`]).

use super::{Bits, CELL_BYTES, Cell, LINE_WORDS, PIECE_WORDS, Wait};

/// A pair of [`super::StillSearch::can_all_go`] that may still free a piece.
#[derive(Debug, Clone, Copy)]
pub(super) struct Edge {
    /// `a < b`: in reading order, as its checks ([`Bits::wait_on_sorted`]) are told.
    pub(super) a: u16,
    pub(super) b: u16,
    /// The kind of both pieces.
    pub(super) kind: u16,
    /// The cells of `a` and `b`.
    pub(super) at: [Cell; 2],
    /// The pairing of the pair as a bit (kinds of four: bit p for pairing p; kinds of two: 0;
    /// larger kinds: [`MANY`](super::pairs::MANY)).
    pub(super) pairing: u8,
    /// Known joinable on the relaxed board.
    pub(super) joined: bool,
    /// Skipped by passes since its last check (see [`super::StillSearch::can_all_go`]).
    pub(super) stale: bool,
    /// What the pair waits on: the rows and columns (masks) a cell must open on, or four
    /// cells, before it can become joinable.
    pub(super) watch: Wait,
    /// When `watch` is apart, its four cells ([`apart_cells`]).
    pub(super) cells: [u16; 4],
}

impl Edge {
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

    /// The pair of pieces `a < b` (on the cells `at`) of kind `kind` and pairing bit `pairing`,
    /// not known joinable, waiting on `watch`.
    pub(super) fn waiting((a, b): (u16, u16), kind: usize, at: [Cell; 2], pairing: u8, watch: Wait) -> Edge {
        let cells = if watch.is_apart() { apart_cells(watch) } else { [0; 4] };
        Edge { a, b, kind: kind as u16, at, pairing, joined: false, stale: false, watch, cells }
    }
}

/// A stage of the relaxation of a position, some of the kinds it probes held (see
/// [`super::StillSearch::relax_base`]): the relaxed board, the pieces freed (bits, count, their lines),
/// the pairings used, and the pairs left, each with what it waits on on that board.
#[derive(Debug, Default)]
pub(super) struct Base {
    pub(super) now: Box<Relaxing>,
    pub(super) freed_count: usize,
    pub(super) used: Vec<u8>,
    pub(super) edges: Vec<Edge>,
}

/// The state of a run of the relaxation ([`super::StillSearch::can_all_go`]), in arrays of fixed
/// size (an index masked to 63 needs no bounds check; a framed side is at most 62 lines, and
/// [`MAX_SIDE`](super::MAX_SIDE)² pieces fit in 64 words of bits): the relaxed board, the pieces
/// freed, the rows and the columns (one bit per framed line) of the pieces freed since
/// [`super::StillSearch::relax_run`] last took them (`freed_lines`) and since the run began
/// (`freed_all`). Made by [`super::StillSearch::relax_setup`] (or from a [`Base`]), taken over by
/// [`super::StillSearch::relax_run`].
///
/// The relaxed board is also kept a byte per cell (`open`, the cell at row r and column c at
/// [`cell_index`]): a pair apart is looked at every pass, and its four cells cost a byte each that
/// way ([`Edge::cells`]), against a shift, a load and a shift each in the words. Only its first
/// `cells_used` bytes (the framed rows and the row beyond) are ever set: the rest stays 0, and is
/// neither cleared nor copied. A run's state is boxed and reused
/// ([`Still::relaxings`](super::still::Still::relaxings)): made anew, moved or cloned whole, its
/// bytes cost more than the run.
#[derive(Debug)]
pub(super) struct Relaxing {
    pub(super) rows: [u64; LINE_WORDS],
    pub(super) cols: [u64; LINE_WORDS],
    pub(super) freed: [u64; PIECE_WORDS],
    pub(super) freed_lines: (u64, u64),
    pub(super) freed_all: (u64, u64),
    pub(super) open: [u8; CELL_BYTES],
    pub(super) cells_used: usize,
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
/// frame, which is never open) is in [`Relaxing::open`].
pub(super) fn cell_index(row: u32, col: u32) -> u16 {
    ((row & 63) << 6 | (col & 63)) as u16
}

/// The four cells of a wait apart ([`Bits::wait_on`]) as indices into [`Relaxing::open`].
pub(super) fn apart_cells(wait: Wait) -> [u16; 4] {
    let (across, down) = wait.shapes();
    let ([(row_a, col_a), (row_b, col_b)], [(col_c, row_c), (col_d, row_d)]) = (across.cells(), down.cells());
    [cell_index(row_a, col_a), cell_index(row_b, col_b), cell_index(row_c, col_c), cell_index(row_d, col_d)]
}

impl Relaxing {
    /// Becomes the board `bits`, nothing freed.
    pub(super) fn reset(&mut self, bits: &Bits) {
        let (height, width) = (bits.rows.len(), bits.cols.len());
        self.rows[..height].copy_from_slice(&bits.rows);
        self.rows[height..].fill(0);
        self.cols[..width].copy_from_slice(&bits.cols);
        self.cols[width..].fill(0);
        self.freed.fill(0);
        (self.freed_lines, self.freed_all) = ((0, 0), (0, 0));
        // The framed rows and the row beyond them.
        let cells = usize::from(cell_index(height as u32, 0)) + 64;
        self.open[..self.cells_used.max(cells)].fill(0);
        self.cells_used = cells;
        for (row, &line) in bits.rows.iter().enumerate() {
            let mut open = line;
            while open != 0 {
                self.open[usize::from(cell_index(row as u32, open.trailing_zeros()))] = 1;
                open &= open - 1;
            }
        }
    }

    /// True when the four cells `cells` ([`apart_cells`]) are all closed: [`Bits::still_apart`]
    /// on the relaxed board.
    #[inline(always)]
    pub(super) fn still_apart(&self, cells: [u16; 4]) -> bool {
        self.apart_opened(cells) == (false, false)
    }

    /// [`Bits::apart_opened`] on the relaxed board, from the four cells `cells`.
    #[inline(always)]
    pub(super) fn apart_opened(&self, cells: [u16; 4]) -> (bool, bool) {
        let open = |cell: u16| self.open[usize::from(cell) & (CELL_BYTES - 1)];
        (open(cells[0]) | open(cells[1]) != 0, open(cells[2]) | open(cells[3]) != 0)
    }

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
    pub(super) fn joinable_or_watch(&self, a: Cell, b: Cell, max_turns: u32) -> Option<(u64, u64)> {
        Bits::watch_on(&self.rows, &self.cols, a, b, max_turns)
    }

    /// [`Bits::joinable`] on the relaxed board of `height` framed rows, for any turn limit.
    pub(super) fn flood_joinable(&self, a: Cell, b: Cell, max_turns: u32, height: usize) -> bool {
        Bits::flood_lines(&self.rows[..height], a, b, max_turns)
    }
}
