//! Prefix counts of blocked cells per row and column ([`Index`]): the check of a line of at most
//! two turns in O(n + m) (see the [module documentation](super)).

use common::Pos;

use crate::model::{Board, EMPTY};

/// Prefix counts of blocked cells along the rows and columns of the framed board (the board
/// and its ring; the ring is blocked unless the outside is open). See the
/// [module documentation](super).
///
/// The column counts are built for the whole board at once (a pass that vectorises: each row
/// adds its flags to the counts of the row above). A row's counts are a running sum along the
/// row, a chain of dependent additions, so each row is counted only when a query first needs
/// it: a case with a few queries touches a few rows.
#[derive(Debug, Clone, Default)]
pub struct Index {
    /// Columns of the framed board, m + 2.
    width: usize,
    /// Rows of the framed board, n + 2.
    height: usize,
    /// The ring is open.
    outside: bool,
    /// `row_blocked[r * (width + 1) + c]`: blocked cells of framed row `r` left of column `c`,
    /// valid once row `r` is counted.
    row_blocked: Vec<u16>,
    /// Row `r` is counted for the current board when `row_counted[r] == board_number`.
    row_counted: Vec<u32>,
    /// Numbers the boards the index was built for, so that a new board needs no clearing.
    board_number: u32,
    /// `col_blocked[r * width + c]`: blocked cells of framed column `c` above row `r`.
    col_blocked: Vec<u16>,
}

impl Index {
    /// The tables for `board`, with the ring open when `outside`.
    pub fn new(board: &Board, outside: bool) -> Index {
        let mut index = Index::default();
        index.build(board, outside);
        index
    }

    /// Rebuilds the tables for `board` in the memory they already have.
    pub fn build(&mut self, board: &Board, outside: bool) {
        let (width, height) = (board.cols() + 2, board.rows() + 2);
        (self.width, self.height, self.outside) = (width, height, outside);
        self.board_number = self.board_number.wrapping_add(1);
        if self.board_number == 0 {
            self.row_counted.fill(0);
            self.board_number = 1;
        }
        self.row_counted.resize(height, 0);
        self.row_blocked.resize(height * (width + 1), 0);
        // Every entry of the column counts is written below: no clearing needed.
        self.col_blocked.resize((height + 1) * width, 0);
        self.col_blocked[..width].fill(0);
        let ring = u16::from(!outside);
        for row in 0..height {
            let (above, below) = self.col_blocked.split_at_mut((row + 1) * width);
            let (previous, next) = (&above[row * width..], &mut below[..width]);
            if row == 0 || row == height - 1 {
                for (next, &previous) in next.iter_mut().zip(previous) {
                    *next = previous + ring;
                }
            } else {
                next[0] = previous[0] + ring;
                next[width - 1] = previous[width - 1] + ring;
                // Slices of one length, indexed alike: the loop vectorises.
                let cols = width - 2;
                let (next, previous, kinds) =
                    (&mut next[1..=cols], &previous[1..=cols], &board.row(row - 1)[..cols]);
                for col in 0..cols {
                    next[col] = previous[col] + u16::from(kinds[col] != EMPTY);
                }
            }
        }
    }

    /// Counts framed row `row` of `board` if no query has needed it yet.
    fn count_row(&mut self, board: &Board, row: usize) {
        if self.row_counted[row] == self.board_number {
            return;
        }
        let ring = u16::from(!self.outside);
        let width = self.width;
        let prefix = &mut self.row_blocked[row * (width + 1)..(row + 1) * (width + 1)];
        if row == 0 || row == self.height - 1 {
            for (col, count) in prefix.iter_mut().enumerate() {
                *count = col as u16 * ring;
            }
        } else {
            // The running sum stays in a register: no store-to-load chain through memory.
            let mut sum = ring;
            prefix[0] = 0;
            prefix[1] = ring;
            for (count, &kind) in prefix[2..width].iter_mut().zip(board.row(row - 1)) {
                sum += u16::from(kind != EMPTY);
                *count = sum;
            }
            prefix[width] = sum + ring;
        }
        self.row_counted[row] = self.board_number;
    }

    /// Blocked cells of framed row `row` (counted) in columns `from..to`.
    fn blocked_in_row(&self, row: usize, from: usize, to: usize) -> u16 {
        let base = row * (self.width + 1);
        self.row_blocked[base + to] - self.row_blocked[base + from]
    }

    /// Blocked cells of framed column `col` in rows `from..to`.
    fn blocked_in_col(&self, col: usize, from: usize, to: usize) -> u16 {
        self.col_blocked[to * self.width + col] - self.col_blocked[from * self.width + col]
    }

    /// The columns `first..=last` around `pos` in its row (counted) whose cells, `pos` apart,
    /// are open.
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

    /// The two bends of a line from `a` to `b` (two distinct pieces of `board`, the board the
    /// index was built for) with at most `max_turns` (≤ 2) turns, or `None`. A bend equal to an
    /// end or to the other bend is no turn. With `fewest`, the line has the fewest turns and,
    /// among those, the fewest cells; otherwise it is the first found.
    pub fn bends(&mut self, board: &Board, a: Pos, b: Pos, max_turns: u32, fewest: bool) -> Option<[Pos; 2]> {
        let across_column =
            (a.row != b.row).then(|| self.across_column(board, a, b, max_turns, fewest)).flatten();
        let across_row = (a.col != b.col).then(|| self.across_row(board, a, b, max_turns, fewest)).flatten();
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
    fn across_column(
        &mut self,
        board: &Board,
        a: Pos,
        b: Pos,
        max_turns: u32,
        fewest: bool,
    ) -> Option<usize> {
        self.count_row(board, a.row);
        self.count_row(board, b.row);
        let (a_first, a_last) = self.row_run(a);
        let (b_first, b_last) = self.row_run(b);
        let (first, last) = (a_first.max(b_first), a_last.min(b_last));
        if first > last {
            return None;
        }
        let (top, bottom) = (a.row.min(b.row), a.row.max(b.row));
        if max_turns < 2 || fewest {
            // One turn or none: the line turns in `a`'s or `b`'s column.
            let turns = |col: usize| u32::from(col != a.col) + u32::from(col != b.col);
            let candidate = |col: usize| {
                turns(col) <= max_turns
                    && (first..=last).contains(&col)
                    && self.blocked_in_col(col, top + 1, bottom) == 0
            };
            if let Some(col) = [a.col, b.col].into_iter().find(|&col| candidate(col)) {
                return Some(col);
            }
            if max_turns < 2 {
                return None;
            }
        }
        // Column `col` is open between the rows when its counts below `top + 1` and below
        // `bottom` are equal: two contiguous slices compared.
        let upper = &self.col_blocked[(top + 1) * self.width + first..=(top + 1) * self.width + last];
        let lower = &self.col_blocked[bottom * self.width + first..=bottom * self.width + last];
        let mut open_cols =
            upper.iter().zip(lower).enumerate().filter(|(_, (u, l))| u == l).map(|(i, _)| first + i);
        if fewest {
            open_cols.min_by_key(|&col| shape_cost(a.col, b.col, col, a.row, b.row))
        } else {
            open_cols.next()
        }
    }

    /// The row of a line along `a`'s column, across a row, along `b`'s column (which differs
    /// from `a`'s).
    fn across_row(&mut self, board: &Board, a: Pos, b: Pos, max_turns: u32, fewest: bool) -> Option<usize> {
        let (a_first, a_last) = self.col_run(a);
        let (b_first, b_last) = self.col_run(b);
        let (first, last) = (a_first.max(b_first), a_last.min(b_last));
        if first > last {
            return None;
        }
        let (left, right) = (a.col.min(b.col), a.col.max(b.col));
        let open = |index: &mut Index, row: usize| {
            index.count_row(board, row);
            index.blocked_in_row(row, left + 1, right) == 0
        };
        if max_turns < 2 || fewest {
            for row in [a.row, b.row] {
                let turns = u32::from(row != a.row) + u32::from(row != b.row);
                if turns <= max_turns && (first..=last).contains(&row) && open(self, row) {
                    return Some(row);
                }
            }
            if max_turns < 2 {
                return None;
            }
        }
        let mut best: Option<((usize, usize), usize)> = None;
        for row in first..=last {
            if open(self, row) {
                if !fewest {
                    return Some(row);
                }
                let cost = shape_cost(a.row, b.row, row, a.col, b.col);
                if best.is_none_or(|(best_cost, _)| cost < best_cost) {
                    best = Some((cost, row));
                }
            }
        }
        best.map(|(_, row)| row)
    }
}

/// Turns, then cells, of a line across `middle`: `from` to `middle` to `to` on one axis, plus
/// `along_from` to `along_to` on the other.
fn shape_cost(from: usize, to: usize, middle: usize, along_from: usize, along_to: usize) -> (usize, usize) {
    let turns = usize::from(middle != from) + usize::from(middle != to);
    (turns, from.abs_diff(middle) + middle.abs_diff(to) + along_from.abs_diff(along_to))
}

/// The largest `distance ≤ most` such that `holds(d)` for every `d` in `0..=distance`, where
/// `holds` is monotone (true up to some distance, false beyond) and `holds(0)`. Gallops
/// (distances 1, 2, 4, ...) then bisects, so a short run costs a few probes near the start.
fn reach(most: usize, holds: impl Fn(usize) -> bool) -> usize {
    let mut good = 0;
    let mut step = 1;
    let mut bad = loop {
        if good == most {
            return most;
        }
        let probe = (good + step).min(most);
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

/// The smallest `x ≤ start` such that `holds(y)` for every `y` in `x..=start` (`holds` monotone,
/// `holds(start)`).
fn gallop_down(start: usize, holds: impl Fn(usize) -> bool) -> usize {
    start - reach(start, |distance| holds(start - distance))
}

/// The largest `x` in `start..=end` such that `holds(y)` for every `y` in `start..=x` (`holds`
/// monotone, `holds(start)`).
fn gallop_up(start: usize, end: usize, holds: impl Fn(usize) -> bool) -> usize {
    start + reach(end - start, |distance| holds(start + distance))
}

#[cfg(test)]
mod tests {
    use common::Grid;

    use super::*;

    #[test]
    fn reach_finds_the_last_distance_that_holds() {
        for most in 0..40 {
            for threshold in 0..=most + 1 {
                // Holds for distances up to `threshold`, not beyond.
                let expected = threshold.min(most);
                assert_eq!(reach(most, |distance| distance <= threshold), expected, "{most} {threshold}");
            }
        }
        assert_eq!(gallop_down(10, |x| x >= 4), 4);
        assert_eq!(gallop_up(3, 12, |x| x <= 7), 7);
    }

    #[test]
    fn runs_stop_at_pieces_and_at_the_closed_ring() {
        let board = Grid::from_vec(2, 5, vec![1, 0, 0, 2, 0, 0, 0, 3, 0, 0]);
        let mut index = Index::new(&board, false);
        index.count_row(&board, 1);
        assert_eq!(index.row_run(Pos::new(1, 1)), (1, 3));
        assert_eq!(index.row_run(Pos::new(1, 4)), (2, 5));
        assert_eq!(index.col_run(Pos::new(1, 4)), (1, 2));
        assert_eq!(index.col_run(Pos::new(1, 3)), (1, 1));
        let mut outside = Index::new(&board, true);
        outside.count_row(&board, 1);
        assert_eq!(outside.row_run(Pos::new(1, 1)), (0, 3));
        assert_eq!(outside.row_run(Pos::new(1, 4)), (2, 6));
        assert_eq!(outside.col_run(Pos::new(1, 4)), (0, 3));
        assert_eq!(outside.col_run(Pos::new(2, 3)), (0, 3));
    }
}
