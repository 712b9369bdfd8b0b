//! Greedy play's partner at 0 or 1 turns, found without walking the lines.
//!
//! The sweep's first two layers are four lines from the piece (right, down, left, up), then,
//! for each of their cells in that order, the two lines at right angles (down then up from a
//! line along the row, right then left from one along the column). No two of these lines share
//! a cell on one axis, so each runs to the first blocked cell, which it offers. Where a line
//! stops is asked of [`Stops`] instead of walked, so a line across an emptied region costs a
//! word per 64 cells; the order of the offers, and the line drawn, are the sweep's.

/// Cells of one row (or column) in one word of [`Bits`].
const WORD: usize = u64::BITS as usize;

/// One bit per cell of each row of a grid (a bit set when the cell is open), the rows padded
/// to whole words with blocked bits: the first blocked cell along a row is found a word at a
/// time.
struct Bits {
    /// `words[row * per_row + index / WORD]`, bit `index % WORD`: cell `index` of `row`.
    words: Vec<u64>,
    per_row: usize,
}

impl Bits {
    /// `rows` rows of `len` cells each, all blocked.
    fn new(rows: usize, len: usize) -> Bits {
        let per_row = len.div_ceil(WORD);
        Bits { words: vec![0; rows * per_row], per_row }
    }

    fn open(&mut self, row: usize, index: usize) {
        self.words[row * self.per_row + index / WORD] |= 1 << (index % WORD);
    }

    fn close(&mut self, row: usize, index: usize) {
        self.words[row * self.per_row + index / WORD] &= !(1 << (index % WORD));
    }

    /// The first blocked cell of `row` at or after `index`. Every row ends in a blocked cell
    /// (the wall), so one is found before the row's words run out.
    fn blocked_from(&self, row: usize, index: usize) -> usize {
        let words = &self.words[row * self.per_row..(row + 1) * self.per_row];
        let mut word = index / WORD;
        let mut blocked = !words[word] & (u64::MAX << (index % WORD));
        while blocked == 0 {
            word += 1;
            blocked = !words[word];
        }
        word * WORD + blocked.trailing_zeros() as usize
    }

    /// The last blocked cell of `row` at or before `index`. Every row starts with a blocked
    /// cell (the wall).
    fn blocked_to(&self, row: usize, index: usize) -> usize {
        let words = &self.words[row * self.per_row..(row + 1) * self.per_row];
        let mut word = index / WORD;
        let mut blocked = !words[word] & (u64::MAX >> (WORD - 1 - index % WORD));
        while blocked == 0 {
            word -= 1;
            blocked = !words[word];
        }
        word * WORD + (WORD - 1 - blocked.leading_zeros() as usize)
    }
}

/// For each of the four directions, the first blocked cell at or after a cell: the open cells
/// as bits by row and, transposed, by column, scanned a word at a time. Walled boards are
/// blocked all around, so every scan ends on the board.
pub(super) struct Stops {
    /// Bit `col` of row `row`.
    rows: Bits,
    /// Bit `row` of column `col`.
    cols: Bits,
    /// Cells per row of the walled board.
    width: usize,
    /// Cell-number steps right, down, left, up.
    steps: [isize; 4],
}

impl Stops {
    /// The stops of a walled board with these open cells and this width.
    pub(super) fn new(open: &[bool], width: usize) -> Stops {
        let height = open.len() / width;
        let steps = [1, width as isize, -1, -(width as isize)];
        let mut stops =
            Stops { rows: Bits::new(height, width), cols: Bits::new(width, height), width, steps };
        for cell in (0..open.len()).filter(|&cell| open[cell]) {
            stops.open(cell);
        }
        stops
    }

    /// `cell` has opened.
    pub(super) fn open(&mut self, cell: usize) {
        let (row, col) = (cell / self.width, cell % self.width);
        self.rows.open(row, col);
        self.cols.open(col, row);
    }

    /// `cell` holds a piece again (with gravity, one fell onto it). Never a cell of the wall.
    pub(super) fn close(&mut self, cell: usize) {
        let (row, col) = (cell / self.width, cell % self.width);
        self.rows.close(row, col);
        self.cols.close(col, row);
    }

    /// The first blocked cell at or after `cell` in `direction`.
    fn stop(&self, direction: usize, cell: usize) -> usize {
        let (row, col) = (cell / self.width, cell % self.width);
        match direction {
            0 => row * self.width + self.rows.blocked_from(row, col),
            1 => self.cols.blocked_from(col, row) * self.width + col,
            2 => row * self.width + self.rows.blocked_to(row, col),
            _ => self.cols.blocked_to(col, row) * self.width + col,
        }
    }

    /// The sweep's first hit of a piece of `kind` from the piece on `from` at 0 turns, then at
    /// 1 turn when `max_turns` allows, as the cells of its line (ends and turn).
    pub(super) fn partner<K: PartialEq>(
        &self,
        kinds: &[K],
        from: usize,
        max_turns: u32,
    ) -> Option<Vec<usize>> {
        let kind = &kinds[from];
        let ends = [0, 1, 2, 3]
            .map(|direction| self.stop(direction, from.wrapping_add_signed(self.steps[direction])));
        if let Some(&end) = ends.iter().find(|&&end| kinds[end] == *kind) {
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
                    if kinds[hit] == *kind {
                        return Some(vec![from, at, hit]);
                    }
                }
                at = at.wrapping_add_signed(step);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// The first blocked cell from `cell` along `step`, walked cell by cell.
    fn walked(open: &[bool], cell: usize, step: isize) -> usize {
        let mut at = cell;
        while open[at] {
            at = at.wrapping_add_signed(step);
        }
        at
    }

    /// Stops found a word at a time are the ones walked, also after cells open and close, on
    /// boards wider and taller than a word.
    #[test]
    fn stops_are_the_walked_ones() {
        let mut rng = ChaCha8Rng::seed_from_u64(64);
        for _ in 0..40 {
            let (width, height) = (rng.random_range(3..=150), rng.random_range(3..=150));
            let density = rng.random_range(0.0..=1.0);
            let mut open: Vec<bool> = (0..width * height)
                .map(|cell| {
                    let (row, col) = (cell / width, cell % width);
                    row > 0 && row < height - 1 && col > 0 && col < width - 1 && rng.random_bool(density)
                })
                .collect();
            let mut stops = Stops::new(&open, width);
            for _ in 0..3 {
                // The border is blocked, so every walk ends on the grid.
                for cell in 0..open.len() {
                    for direction in 0..4 {
                        assert_eq!(stops.stop(direction, cell), walked(&open, cell, stops.steps[direction]));
                    }
                }
                for _ in 0..width * height / 4 {
                    let (row, col) = (rng.random_range(1..height - 1), rng.random_range(1..width - 1));
                    // Mostly opened, and some closed again (as pieces fall with gravity).
                    let opened = rng.random_bool(0.8);
                    open[row * width + col] = opened;
                    if opened {
                        stops.open(row * width + col);
                    } else {
                        stops.close(row * width + col);
                    }
                }
            }
        }
    }
}
