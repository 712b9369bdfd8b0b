//! The framed board as bit words, one per row and one per column, and the check of a line of at
//! most two turns between two pieces on them (see the [module documentation](super)): one check
//! for both searches, the middle of a shape tested by [`Bits::crossed`] alone. The search without
//! gravity asks what a pair waits on ([`Bits::wait_on`]); the search with gravity checks many
//! pairs of few pieces, so it finds each piece's runs once ([`Reach`]) and asks
//! [`Bits::reaches_joined`].

use common::Pos;

use super::wait::{ShapeWait, Wait};
use crate::model::{Board, EMPTY};

/// Most rows, and most columns, of a board the search takes: a framed row or column, with one
/// more closed bit beyond the ring, fits a 64-bit word.
pub const MAX_SIDE: usize = 60;

/// Words of a board's lines (rows or columns) kept in fixed arrays: a framed line of a board of
/// at most [`MAX_SIDE`] cells has `MAX_SIDE + 2` bits, and the bit beyond it (always 0) must be
/// below bit 63, which marks a wait as apart (see [`ShapeWait`]).
pub(super) const LINE_WORDS: usize = 64;

const _: () = assert!(MAX_SIDE + 3 <= 63 && MAX_SIDE + 3 <= LINE_WORDS, "a framed line and the bit beyond");

/// A framed position: row, column.
pub(super) type Cell = (u8, u8);

/// The open cells of the framed board, by rows and by columns. Invariant: `rows[r]` bit `c` ==
/// `cols[c]` bit `r` for every framed cell, and every bit beyond the frame is 0 (kept by every
/// method that opens or closes cells).
#[derive(Debug, Clone, Default)]
pub(super) struct Bits {
    rows: Vec<u64>,
    cols: Vec<u64>,
}

/// Bits `low..=high`.
pub(super) fn span(low: u32, high: u32) -> u64 {
    (u64::MAX >> (63 - high)) & (u64::MAX << low)
}

/// The run of set bits of `line | 1 << at` around bit `at`: its lowest and highest bit. Bit 63
/// of `line` must be clear.
pub(super) fn run(line: u64, at: u32) -> (u32, u32) {
    (run_low(line, at), run_high(line, at))
}

/// The lowest bit of [`run`].
#[inline(always)]
pub(super) fn run_low(line: u64, at: u32) -> u32 {
    // The highest clear bit below `at`, plus one (0 when there is none).
    64 - (!line & ((1 << at) - 1)).leading_zeros()
}

/// The highest bit of [`run`]. Bit 63 of `line` must be clear.
#[inline(always)]
pub(super) fn run_high(line: u64, at: u32) -> u32 {
    // The lowest clear bit above `at`, minus one.
    (!line & (u64::MAX << at << 1)).trailing_zeros() - 1
}

/// The rows and the columns (masks) of the cells `a` and `b`.
#[inline(always)]
fn ends(a: Cell, b: Cell) -> (u64, u64) {
    (1 << a.0 | 1 << b.0, 1 << a.1 | 1 << b.1)
}

/// The cells of `line` reached from bit `at` over open cells (set bits), `at` itself included:
/// the span of [`run`].
#[inline(always)]
pub(super) fn reach(line: u64, at: u32) -> u64 {
    let (low, high) = run(line, at);
    span(low, high)
}

/// Of a blocked cell: the cells its row and its column reach from it over open cells (masks
/// along them, [`reach`]), and its row and column, for [`Bits::reaches_joined`] to check many
/// pairs of such cells with the runs found once per cell, not once per pair.
pub(super) type Reach = (u64, u64, (u32, u32));

/// The middle lines a shape may use within `max_turns` turns, for ends at `first` and `second`
/// on the axis of the middle line: any with two turns, an end's own with one, the common one
/// with none.
pub(super) fn middles(first: u32, second: u32, max_turns: u32) -> u64 {
    match max_turns {
        0 if first == second => 1 << first,
        0 => 0,
        1 => 1 << first | 1 << second,
        _ => u64::MAX,
    }
}

impl Bits {
    /// The framed board of `board`, its ring open when `outside`.
    pub(super) fn new(board: &Board, outside: bool) -> Bits {
        let (height, width) = (board.rows() + 2, board.cols() + 2);
        let mut bits = Bits { rows: vec![0; height], cols: vec![0; width] };
        for row in 0..height {
            for col in 0..width {
                let open = if row == 0 || col == 0 || row == height - 1 || col == width - 1 {
                    outside
                } else {
                    board[Pos::new(row - 1, col - 1)] == EMPTY
                };
                bits.set((row as u8, col as u8), open);
            }
        }
        bits
    }

    /// A framed board of `height` rows and `width` columns, every cell closed.
    #[cfg(test)]
    pub(super) fn closed(height: usize, width: usize) -> Bits {
        Bits { rows: vec![0; height], cols: vec![0; width] }
    }

    /// The open cells of each framed row (bit c: column c).
    #[inline(always)]
    pub(super) fn rows(&self) -> &[u64] {
        &self.rows
    }

    /// The open cells of each framed column (bit r: row r).
    #[inline(always)]
    pub(super) fn cols(&self) -> &[u64] {
        &self.cols
    }

    /// The units of work of one line check on this board (see the budget in the
    /// [module documentation](super)): 1 for at most two turns (a few bit scans); else a flood
    /// by layers over every framed row and column, one unit per line.
    pub(super) fn check_cost(&self, max_turns: u32) -> u64 {
        if max_turns <= 2 { 1 } else { (self.rows.len() + self.cols.len()) as u64 }
    }

    /// Opens the cell `(row, col)`, or closes it.
    pub(super) fn set(&mut self, (row, col): Cell, open: bool) {
        let (row_bit, col_bit) = (1u64 << col, 1u64 << row);
        if open {
            self.rows[row as usize] |= row_bit;
            self.cols[col as usize] |= col_bit;
        } else {
            self.rows[row as usize] &= !row_bit;
            self.cols[col as usize] &= !col_bit;
        }
    }

    /// Makes `open` the open cells of column `col` (bit r: row r), the rows' bits following.
    #[inline(always)]
    pub(super) fn set_column(&mut self, col: usize, open: u64) {
        let before = std::mem::replace(&mut self.cols[col], open);
        let mut flipped = before ^ open;
        while flipped != 0 {
            let row = flipped.trailing_zeros() as usize;
            self.rows[row] ^= 1 << col;
            flipped &= flipped - 1;
        }
    }

    /// Flips the cells of rows `first..first + count` in column `col` (open to closed and back),
    /// calling `each` with each row flipped.
    #[inline(always)]
    pub(super) fn flip_column(
        &mut self,
        col: usize,
        first: usize,
        count: usize,
        mut each: impl FnMut(usize),
    ) {
        self.cols[col] ^= span(first as u32, (first + count - 1) as u32);
        for row in first..first + count {
            self.rows[row] ^= 1 << col;
            each(row);
        }
    }

    /// True when a line of at most `max_turns` turns joins the blocked cells `a` and `b`.
    #[inline(always)]
    pub(super) fn joinable(&self, a: Cell, b: Cell, max_turns: u32) -> bool {
        if max_turns <= 2 {
            Self::shape(&self.rows, &self.cols, a, b, max_turns)
                || Self::shape(&self.cols, &self.rows, (a.1, a.0), (b.1, b.0), max_turns)
        } else {
            self.flood(a, b, max_turns)
        }
    }

    /// Lines along `a`'s line of `lines`, across a middle line, along `b`'s line (rows and
    /// columns exchanged when `lines` are the columns; cells are then (column, row)). The middle
    /// is a position both ends reach along their lines, open everywhere strictly between them.
    /// `across` are the lines the other way (the columns when `lines` are the rows).
    #[inline(always)]
    pub(super) fn shape(lines: &[u64], across: &[u64], a: Cell, b: Cell, max_turns: u32) -> bool {
        Self::shape_or_wait(lines, across, a, b, max_turns).is_none()
    }

    /// [`Bits::shape`]: `None` when the shape joins `a` and `b`; else what it waits on: where the
    /// runs of the two ends do not meet, the two cells whose opening could make them meet
    /// ([`ShapeWait::apart`]); else the positions along the lines (columns when `lines` are the
    /// rows) of the middles both ends reach ([`ShapeWait::middles`]). The shape can only come to
    /// join them once a cell opens on `a`'s or `b`'s line (their runs grow) or, between their
    /// lines, at one of those positions (a middle opens).
    ///
    /// Inlined: most checks of the relaxation fail here at once (the runs do not overlap), so a
    /// call would cost more than the check. A middle is tested on its own line of `across` (open on
    /// every line between), one test per middle both ends reach, usually fewer than the lines
    /// between.
    #[inline(always)]
    pub(super) fn shape_or_wait(
        lines: &[u64],
        across: &[u64],
        a: Cell,
        b: Cell,
        turns: u32,
    ) -> Option<ShapeWait> {
        Self::shape_or_wait_in::<false, false>(lines, across, a, b, turns)
    }

    /// [`Bits::shape_or_wait`], told that `a.0 <= b.0` (`LINES_SORTED`) or that `a.1 <= b.1`
    /// (`AT_SORTED`), which spares comparing them: a pair in reading order has both along the
    /// rows its rows sorted, and along the columns its ends' positions (their rows).
    #[inline(always)]
    pub(super) fn shape_or_wait_in<const LINES_SORTED: bool, const AT_SORTED: bool>(
        lines: &[u64],
        across: &[u64],
        a: Cell,
        b: Cell,
        max_turns: u32,
    ) -> Option<ShapeWait> {
        let (a_line, a_at, b_line, b_at) = (a.0 as usize, a.1 as u32, b.0 as usize, b.1 as u32);
        debug_assert!(!LINES_SORTED || a_line <= b_line, "lines not sorted");
        debug_assert!(!AT_SORTED || a_at <= b_at, "positions not sorted");
        // The end nearer the start of the lines first: with `first.1 <= second.1`, the runs
        // meet exactly when the first's reaches as far up as the second's reaches down (each
        // run holds its own end), so most checks, where they do not, find two ends, not four.
        let ((first, first_at), (second, second_at)) = if AT_SORTED || a_at <= b_at {
            ((a_line, a_at), (b_line, b_at))
        } else {
            ((b_line, b_at), (a_line, a_at))
        };
        let (first_line, second_line) = (lines[first & 63], lines[second & 63]);
        let (first_high, second_low) = (run_high(first_line, first_at), run_low(second_line, second_at));
        if second_low > first_high {
            // The first's run grows up only once the cell after its end opens, the second's
            // down only once the cell before its start does.
            return Some(ShapeWait::apart(first, first_high + 1, second, second_low - 1));
        }
        let low = run_low(first_line, first_at).max(second_low);
        let high = first_high.min(run_high(second_line, second_at));
        let reached = span(low, high) & middles(a_at, b_at, max_turns);
        let (top, bottom) = if LINES_SORTED {
            (a_line as u32, b_line as u32)
        } else {
            (a_line.min(b_line) as u32, a_line.max(b_line) as u32)
        };
        if Self::crossed(across, top, bottom, reached) { None } else { Some(ShapeWait::middles(reached)) }
    }

    /// True when a middle of `reached` (positions along the lines `top <= bottom`) is open on
    /// every line strictly between them, `across` being the lines the other way: any middle
    /// when there is no line between, else one test of its own line of `across` per middle.
    #[inline(always)]
    fn crossed(across: &[u64], top: u32, bottom: u32, reached: u64) -> bool {
        if bottom <= top + 1 {
            return reached != 0;
        }
        let between = span(top + 1, bottom - 1);
        let mut middles = reached;
        while middles != 0 {
            let middle = middles.trailing_zeros() as usize;
            if across[middle & 63] & between == between {
                return true;
            }
            middles &= middles - 1;
        }
        false
    }

    /// [`Bits::shape`] from the ends' [`reach`]es along their lines (each end's line, its
    /// position along it and its reach), `across` being the lines the other way: the middles
    /// both reach (within `max_turns` turns) are where their runs overlap.
    #[inline(always)]
    pub(super) fn shape_of_reaches(
        across: &[u64],
        (a_line, a_at, a_reach): (u32, u32, u64),
        (b_line, b_at, b_reach): (u32, u32, u64),
        max_turns: u32,
    ) -> bool {
        let reached = a_reach & b_reach & middles(a_at, b_at, max_turns);
        Self::crossed(across, a_line.min(b_line), a_line.max(b_line), reached)
    }

    /// [`Bits::joinable`] (at most two turns) for two blocked cells of the board of `rows` and
    /// `cols`, from their [`Reach`]es: by a shape along the rows or along the columns.
    #[inline(always)]
    pub(super) fn reaches_joined(rows: &[u64], cols: &[u64], a: Reach, b: Reach, max_turns: u32) -> bool {
        let ((a_across, a_down, (a_row, a_col)), (b_across, b_down, (b_row, b_col))) = (a, b);
        Self::shape_of_reaches(cols, (a_row, a_col, a_across), (b_row, b_col, b_across), max_turns)
            || Self::shape_of_reaches(rows, (a_col, a_row, a_down), (b_col, b_row, b_down), max_turns)
    }

    /// [`Bits::watch_on`] on this board (for the tests).
    #[cfg(test)]
    pub(super) fn joinable_or_watch(&self, a: Cell, b: Cell, max_turns: u32) -> Option<(u64, u64)> {
        Self::watch_on(&self.rows, &self.cols, a, b, max_turns)
    }

    /// For at most two turns, on the open cells `rows` and `cols` of a framed board: `None`
    /// when a line joins the blocked cells `a` and `b`, else the rows and the columns (masks)
    /// such that no line can join them until a cell in one of those rows or columns opens (see
    /// [`Bits::shape_or_wait`]): [`Bits::wait_on`] in lines, also where it is apart.
    pub(super) fn watch_on(
        rows: &[u64],
        cols: &[u64],
        a: Cell,
        b: Cell,
        max_turns: u32,
    ) -> Option<(u64, u64)> {
        let wait = Self::wait_on(rows, cols, a, b, max_turns)?;
        Some(if wait.is_apart() { (1 << a.0 | 1 << b.0, 1 << a.1 | 1 << b.1) } else { wait.rows_cols() })
    }

    /// For at most two turns, on the open cells `rows` and `cols` of a framed board: `None`
    /// when a line joins the blocked cells `a` and `b`; else what the pair waits on: apart when
    /// along both the rows and the columns the runs of the two ends do not meet (no line can
    /// join them until one of those four cells opens, [`Bits::still_apart`]); else the watch
    /// of [`Bits::watch_on`].
    #[inline(always)]
    pub(super) fn wait_on(rows: &[u64], cols: &[u64], a: Cell, b: Cell, turns: u32) -> Option<Wait> {
        Self::wait_on_in::<false>(rows, cols, a, b, turns)
    }

    /// [`Bits::wait_on`] for `a` before `b` in reading order (`a.0 <= b.0`, and then
    /// `a.1 < b.1`): the shapes are told so ([`Bits::shape_or_wait_in`]).
    #[inline(always)]
    pub(super) fn wait_on_sorted(rows: &[u64], cols: &[u64], a: Cell, b: Cell, turns: u32) -> Option<Wait> {
        Self::wait_on_in::<true>(rows, cols, a, b, turns)
    }

    /// [`Bits::wait_on`], told that the pair is in reading order when `SORTED`.
    #[inline(always)]
    fn wait_on_in<const SORTED: bool>(
        rows: &[u64],
        cols: &[u64],
        a: Cell,
        b: Cell,
        turns: u32,
    ) -> Option<Wait> {
        let across = Self::shape_or_wait_in::<SORTED, false>(rows, cols, a, b, turns)?;
        let down = Self::shape_or_wait_in::<false, SORTED>(cols, rows, (a.1, a.0), (b.1, b.0), turns)?;
        Some(Wait::of(ends(a, b), across, down))
    }

    /// [`Bits::wait_on_sorted`] for a pair whose last wait `wait` was apart and of whose four cells
    /// only those along the rows (`across_open`) or along the columns (`down_open`) opened since:
    /// the shape along the other lines is not looked at again. Its runs end where they ended,
    /// as the cells beyond their facing ends are still closed (and the cells they hold only
    /// open), so it would find its [`ShapeWait`] apart again, which neither joins the pair nor
    /// counts in a watch of lines.
    #[inline(always)]
    pub(super) fn rewait_apart(
        rows: &[u64],
        cols: &[u64],
        (a, b): (Cell, Cell),
        max_turns: u32,
        wait: Wait,
        (across_open, down_open): (bool, bool),
    ) -> Option<Wait> {
        let (across_was, down_was) = wait.shapes();
        let across = if across_open {
            Self::shape_or_wait_in::<true, false>(rows, cols, a, b, max_turns)?
        } else {
            across_was
        };
        let down = if down_open {
            Self::shape_or_wait_in::<false, true>(cols, rows, (a.1, a.0), (b.1, b.0), max_turns)?
        } else {
            down_was
        };
        debug_assert_eq!(
            Self::wait_on(rows, cols, a, b, max_turns),
            Some(Wait::of(ends(a, b), across, down))
        );
        Some(Wait::of(ends(a, b), across, down))
    }

    /// True when the four cells of a wait apart ([`Bits::wait_on`]) are all still closed: no
    /// line joins the pair.
    #[inline(always)]
    pub(super) fn still_apart(rows: &[u64], cols: &[u64], wait: Wait) -> bool {
        Self::apart_opened(rows, cols, wait) == (false, false)
    }

    /// Whether one of the two cells along the rows, and one of the two along the columns, of a
    /// wait apart ([`Bits::wait_on`]) is open (see [`Bits::still_apart`]).
    #[inline(always)]
    pub(super) fn apart_opened(rows: &[u64], cols: &[u64], wait: Wait) -> (bool, bool) {
        let (across, down) = wait.shapes();
        (across.opened(rows), down.opened(cols))
    }

    /// The layered search for any turn limit: `across[r]` holds the cells a line reaches going
    /// along row r, `down[r]` those it reaches going along a column, with the turns so far.
    pub(super) fn flood(&self, a: Cell, b: Cell, max_turns: u32) -> bool {
        Self::flood_lines(&self.rows, a, b, max_turns)
    }

    /// [`Bits::flood`] on the open cells `rows` of a framed board, one word per row.
    pub(super) fn flood_lines(rows: &[u64], a: Cell, b: Cell, max_turns: u32) -> bool {
        let height = rows.len();
        let (mut across, mut down) = ([0u64; 64], [0u64; 64]);
        let (a_row, a_col) = (a.0 as usize, a.1 as u32);
        across[a_row] = 1 << a_col;
        down[a_row] = 1 << a_col;
        Self::fill_across(rows, &mut across);
        Self::fill_down(rows, &mut down);
        let (b_row, b_col) = (b.0 as usize, b.1 as u32);
        let sides = (1u64 << b_col >> 1) | (1u64 << b_col << 1);
        for turns in 0..=max_turns {
            let beside = down[b_row - 1] | if b_row + 1 < height { down[b_row + 1] } else { 0 };
            if across[b_row] & sides != 0 || beside & 1 << b_col != 0 {
                return true;
            }
            if turns == max_turns {
                break;
            }
            let (mut next_across, mut next_down) = (down, across);
            Self::fill_across(rows, &mut next_across);
            Self::fill_down(rows, &mut next_down);
            let mut grew = false;
            for row in 0..height {
                let (old_across, old_down) = (across[row], down[row]);
                across[row] |= next_across[row];
                down[row] |= next_down[row];
                grew |= across[row] != old_across || down[row] != old_down;
            }
            if !grew {
                break;
            }
        }
        false
    }

    /// Extends every set cell along its row over open cells.
    pub(super) fn fill_across(rows: &[u64], cells: &mut [u64; 64]) {
        for (row, &open) in rows.iter().enumerate() {
            let mut reached = cells[row];
            loop {
                let more = reached | (((reached << 1) | (reached >> 1)) & open);
                if more == reached {
                    break;
                }
                reached = more;
            }
            cells[row] = reached;
        }
    }

    /// Extends every set cell along its column over open cells (two passes cover every column
    /// at once).
    pub(super) fn fill_down(rows: &[u64], cells: &mut [u64; 64]) {
        let height = rows.len();
        for row in 1..height {
            cells[row] |= cells[row - 1] & rows[row];
        }
        for row in (0..height - 1).rev() {
            cells[row] |= cells[row + 1] & rows[row];
        }
    }
}
