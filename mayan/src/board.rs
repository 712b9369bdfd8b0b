//! The board and its rules: moves, falls, and the simultaneous elimination of lines.
//!
//! The search runs these rules millions of times, so a [`Board`] is five machine words and a
//! move allocates nothing. Column `x` is the `u64` `columns[x]`: byte `y` (bits `8y..8y+8`) holds
//! the colour of the block at row `y`, `0` where the cell is empty. Invariants, kept by every
//! method:
//! - *no floating blocks*: the non-zero bytes of a column are exactly bytes `0..height`;
//! - *byte 7 is always zero* (the board has 7 rows); the search uses it to tag memo keys;
//! - colours are 1..=10, below 128, which keeps the byte-parallel tests below exact (no carry
//!   ever crosses from one byte into the next).
//!
//! Lines are found for all 35 cells at once with byte-parallel arithmetic: two columns compared
//! byte by byte give, in the high bit of each byte, "these two cells hold the same colour";
//! three such comparisons give every vertical or horizontal run of three. A line longer than
//! three is the union of its runs of three, and crossing lines share cells, so marking every
//! run and then removing every marked cell at once is exactly the rule "all lines vanish
//! together".

use std::fmt;

use crate::model::{HEIGHT, MAX_COLOUR, Move, WIDTH};

/// The low seven bits of every byte.
const LOW_BITS: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// The high bit of every byte.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `value` that is non-zero. Exact: `(b & 0x7f) + 0x7f` never
/// carries out of its byte, and has its high bit set exactly when `b & 0x7f` is non-zero.
const fn nonzero_bytes(value: u64) -> u64 {
    (((value & LOW_BITS) + LOW_BITS) | value) & HIGH_BITS
}

/// The high bit of each byte where `a` holds a block and `b` the same colour.
const fn same_block(a: u64, b: u64) -> u64 {
    !nonzero_bytes(a ^ b) & nonzero_bytes(a)
}

/// One in every byte.
const BYTE_ONES: u64 = 0x0101_0101_0101_0101;

/// The number of byte flags (high bits) set in `flags`: the bytes' sum, gathered into the top
/// byte by one multiplication (a portable popcount is a dozen instructions without the `popcnt`
/// target feature, and this runs for every colour of every board searched).
const fn count_flags(flags: u64) -> u32 {
    ((flags >> 7).wrapping_mul(BYTE_ONES) >> 56) as u32
}

/// The byte flags (high bits) of `flags` as a bit set, bit `i` for byte `i`: one multiplication
/// moves each flag to its place in the top byte, and no two partial products overlap.
const fn pack_flags(flags: u64) -> u8 {
    ((flags >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The height of a column word: the number of its non-zero bytes (they are at the bottom).
const fn column_height(column: u64) -> usize {
    (64 - column.leading_zeros() as usize).div_ceil(8)
}

/// The column word with the bytes flagged in `marks` (high bits) removed and the bytes above
/// them moved down: the blocks above vanished blocks fall. Removes one flagged row at a time,
/// from the top down, so the rows still to remove keep their places.
fn without_marked(column: u64, marks: u64) -> u64 {
    let mut rows = u32::from(pack_flags(marks));
    let mut column = column;
    while rows != 0 {
        let y = rows.ilog2();
        rows &= !(1 << y);
        let below = (1_u64 << (8 * y)) - 1;
        column = (column & below) | ((column >> 8) & !below);
    }
    column
}

/// The cells of the runs of three (see [`Board::runs`]) as flags, column by column.
fn marks_of(vertical: [u64; WIDTH], horizontal: [u64; WIDTH - 2]) -> [u64; WIDTH] {
    let mut marks = vertical.map(|runs| runs | (runs << 8) | (runs << 16));
    for (x, &runs) in horizontal.iter().enumerate() {
        marks[x] |= runs;
        marks[x + 1] |= runs;
        marks[x + 2] |= runs;
    }
    marks
}

/// A 5×7 board of settled or unsettled blocks. See the [module documentation](self).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    columns: [u64; WIDTH],
}

impl Board {
    /// The board without blocks.
    pub const EMPTY: Board = Board { columns: [0; WIDTH] };

    /// The board holding these columns (colours from the bottom up), as the parser checked them.
    ///
    /// # Panics
    /// When a column is taller than [`HEIGHT`] or holds a colour outside 1..=[`MAX_COLOUR`].
    pub fn from_columns(columns: &[Vec<u8>; WIDTH]) -> Board {
        let mut board = Board::EMPTY;
        for (word, column) in board.columns.iter_mut().zip(columns) {
            assert!(column.len() <= HEIGHT, "a column holds at most {HEIGHT} blocks");
            for (y, &colour) in column.iter().enumerate() {
                assert!((1..=MAX_COLOUR).contains(&colour), "colours are 1..={MAX_COLOUR}");
                *word |= u64::from(colour) << (8 * y);
            }
        }
        board
    }

    /// A board drawn as text, for tests and examples: one string per row, the top row first,
    /// five characters each, `.` for an empty cell, `1`-`9` for colours 1-9 and `a` for 10.
    /// Missing top rows are empty.
    ///
    /// # Panics
    /// On a malformed picture or a block with an empty cell under it.
    pub fn from_picture(rows: &[&str]) -> Board {
        assert!(rows.len() <= HEIGHT, "at most {HEIGHT} rows");
        let mut columns: [Vec<u8>; WIDTH] = Default::default();
        for (y, row) in rows.iter().rev().enumerate() {
            assert_eq!(row.len(), WIDTH, "row {y} of the picture: {row:?}");
            for (x, cell) in row.bytes().enumerate() {
                let colour = match cell {
                    b'.' => continue,
                    b'1'..=b'9' => cell - b'0',
                    b'a' => 10,
                    _ => panic!("unknown cell {:?} in the picture", cell as char),
                };
                assert_eq!(columns[x].len(), y, "the block at ({x}, {y}) floats");
                columns[x].push(colour);
            }
        }
        Board::from_columns(&columns)
    }

    /// The columns, colours from the bottom up.
    pub fn columns(&self) -> [Vec<u8>; WIDTH] {
        std::array::from_fn(|x| (0..self.height(x)).map(|y| self.cell(x, y)).collect())
    }

    /// The five column words (see the [module documentation](self)).
    pub const fn words(&self) -> [u64; WIDTH] {
        self.columns
    }

    /// The colour at column `x`, row `y`; `0` for an empty cell.
    pub const fn cell(&self, x: usize, y: usize) -> u8 {
        (self.columns[x] >> (8 * y)) as u8
    }

    /// The number of blocks in column `x`.
    pub const fn height(&self, x: usize) -> usize {
        column_height(self.columns[x])
    }

    /// True when no block is left.
    pub fn is_empty(&self) -> bool {
        self.columns.iter().all(|&column| column == 0)
    }

    /// The number of blocks on the board.
    pub fn blocks(&self) -> u32 {
        self.columns.iter().map(|&column| nonzero_bytes(column).count_ones()).sum()
    }

    /// The rows of column `x` holding a block, as a bit set (bit `y` for row `y`).
    pub const fn occupied_rows(&self, x: usize) -> u8 {
        pack_flags(nonzero_bytes(self.columns[x]))
    }

    /// The rows of column `x` holding a block of `colour` (1..=10), as a bit set.
    pub const fn colour_rows(&self, x: usize, colour: u8) -> u8 {
        let others = self.columns[x] ^ (colour as u64 * BYTE_ONES);
        pack_flags(!nonzero_bytes(others) & HIGH_BITS)
    }

    /// The rows where columns `x` and `x + 1` hold blocks of the same colour, as a bit set.
    pub const fn same_rows(&self, x: usize) -> u8 {
        pack_flags(same_block(self.columns[x], self.columns[x + 1]))
    }

    /// How many blocks of `colour` (1..=10) column `x` holds.
    pub const fn count_in_column(&self, x: usize, colour: u8) -> u32 {
        let others = self.columns[x] ^ (colour as u64 * BYTE_ONES);
        count_flags(!nonzero_bytes(others) & HIGH_BITS)
    }

    /// How many blocks there are of each colour, indexed by colour (index 0 unused).
    pub fn colour_counts(&self) -> [u8; MAX_COLOUR as usize + 1] {
        let mut counts = [0; MAX_COLOUR as usize + 1];
        for &column in &self.columns {
            let mut rest = column;
            while rest != 0 {
                counts[(rest & 0xff) as usize] += 1;
                rest >>= 8;
            }
        }
        counts
    }

    /// True when `mv` takes a block and stays on the board.
    pub fn is_legal(&self, mv: Move) -> bool {
        (mv.x as usize) < WIDTH
            && (mv.y as usize) < self.height(mv.x as usize)
            && mv.target_column().is_some()
    }

    /// Every legal move, in the judge's order (x, then y, then right before left).
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        (0..WIDTH as u8).flat_map(move |x| {
            (0..self.height(x as usize) as u8).flat_map(move |y| {
                [1, -1].into_iter().map(move |g| Move::new(x, y, g)).filter(|mv| mv.target_column().is_some())
            })
        })
    }

    /// Makes the move and settles the board: the block at (x, y) swaps with the block beside it,
    /// or, if that cell is empty, leaves its column (the blocks above it fall one cell) and falls
    /// in the next column onto its top block. Then lines vanish and blocks fall until nothing
    /// changes (see [`Board::settle`]). Returns the number of elimination rounds.
    ///
    /// # Panics
    /// In debug builds, when the move is not legal ([`Board::is_legal`]).
    pub fn apply(&mut self, mv: Move) -> usize {
        self.displace(mv);
        self.settle()
    }

    /// The move alone, before the board settles: lines it makes are still on the board.
    ///
    /// # Panics
    /// In debug builds, when the move is not legal ([`Board::is_legal`]).
    pub fn displace(&mut self, mv: Move) {
        debug_assert!(self.is_legal(mv), "illegal move {mv} on\n{self:?}");
        let (x, shift) = (mv.x as usize, 8 * mv.y as u32);
        let target = (mv.x as i8 + mv.g) as usize;
        let cell = 0xff_u64 << shift;
        let moving = self.columns[x] & cell;
        let beside = self.columns[target] & cell;
        if beside != 0 {
            self.columns[x] = (self.columns[x] & !cell) | beside;
            self.columns[target] = (self.columns[target] & !cell) | moving;
        } else {
            let below = (1_u64 << shift) - 1;
            self.columns[x] = (self.columns[x] & below) | ((self.columns[x] >> 8) & !below);
            let landing = 8 * self.height(target) as u32;
            self.columns[target] |= (moving >> shift) << landing;
        }
    }

    /// The board after `mv` (see [`Board::apply`]).
    #[must_use]
    pub fn after(mut self, mv: Move) -> Board {
        self.apply(mv);
        self
    }

    /// For each column, the high bit of each byte whose block is in a line of three or more.
    pub fn line_marks(&self) -> [u64; WIDTH] {
        let (vertical, horizontal) = self.runs();
        marks_of(vertical, horizontal)
    }

    /// Every run of three blocks of one colour, flagged at its first cell: upwards for each
    /// column (a run from (x, y) to (x, y + 2)), rightwards for each window of three columns
    /// (from (x, y) to (x + 2, y)).
    fn runs(&self) -> ([u64; WIDTH], [u64; WIDTH - 2]) {
        let c = &self.columns;
        let occupied: [u64; WIDTH] = std::array::from_fn(|x| nonzero_bytes(c[x]));
        // Cell (x, y) holds a block of the same colour as the cell above it / right of it.
        let up: [u64; WIDTH] = std::array::from_fn(|x| !nonzero_bytes(c[x] ^ (c[x] >> 8)) & occupied[x]);
        let right: [u64; WIDTH - 1] = std::array::from_fn(|x| !nonzero_bytes(c[x] ^ c[x + 1]) & occupied[x]);
        (up.map(|pairs| pairs & (pairs >> 8)), std::array::from_fn(|x| right[x] & right[x + 1]))
    }

    /// The cells (x, y) in a line of three or more, column by column, bottom up.
    pub fn line_cells(&self) -> Vec<(usize, usize)> {
        let marks = self.line_marks();
        (0..WIDTH)
            .flat_map(|x| (0..HEIGHT).map(move |y| (x, y)))
            .filter(|&(x, y)| marks[x] >> (8 * y) & 0x80 != 0)
            .collect()
    }

    /// Settles the board: every block in a line of three or more vanishes, all at once; the
    /// blocks above fall; again until no line is left. Returns the number of rounds.
    pub fn settle(&mut self) -> usize {
        let mut rounds = 0;
        loop {
            let (vertical, horizontal) = self.runs();
            if vertical.iter().chain(&horizontal).fold(0, |any, &runs| any | runs) == 0 {
                return rounds;
            }
            let marks = marks_of(vertical, horizontal);
            for (column, mark) in self.columns.iter_mut().zip(marks) {
                if mark != 0 {
                    *column = without_marked(*column, mark);
                }
            }
            rounds += 1;
        }
    }
}

impl fmt::Debug for Board {
    /// The board as [`Board::from_picture`] reads it, top row first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let top = (0..WIDTH).map(|x| self.height(x)).max().unwrap_or(0);
        for y in (0..top).rev() {
            let row: String = (0..WIDTH)
                .map(|x| match self.cell(x, y) {
                    0 => '.',
                    10 => 'a',
                    colour => char::from(b'0' + colour),
                })
                .collect();
            writeln!(f, "{row}")?;
        }
        if top == 0 {
            writeln!(f, "(empty)")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pic(rows: &[&str]) -> Board {
        Board::from_picture(rows)
    }

    fn after(board: Board, x: u8, y: u8, g: i8) -> (Board, usize) {
        let mut board = board;
        let rounds = board.apply(Move::new(x, y, g));
        (board, rounds)
    }

    #[test]
    fn the_byte_tricks_are_exact_for_every_colour_pair() {
        for a in 0..=MAX_COLOUR as u64 {
            for b in 0..=MAX_COLOUR as u64 {
                let word = a << 16 | b << 40;
                assert_eq!(nonzero_bytes(word), (u64::from(a != 0) << 23) | (u64::from(b != 0) << 47));
                let same = same_block(a << 8, b << 8);
                assert_eq!(same, u64::from(a == b && a != 0) << 15, "{a} {b}");
            }
        }
        assert_eq!(pack_flags(0x8000_0080_0000_8080), 0b1001_0011);
        assert_eq!(pack_flags(HIGH_BITS), 0xff);
        assert_eq!(count_flags(0), 0);
        assert_eq!(count_flags(HIGH_BITS >> 8), 7);
        assert_eq!(count_flags(0x80_0000_8000), 2);
        assert_eq!(column_height(0), 0);
        assert_eq!(column_height(0x0a), 1);
        assert_eq!(column_height(0x01_0203_0405_0607), 7);
    }

    #[test]
    fn pictures_round_trip() {
        let board = pic(&["a....", "12..3", "21.43"]);
        assert_eq!(format!("{board:?}"), "a....\n12..3\n21.43\n");
        assert_eq!(board.columns(), [vec![2, 1, 10], vec![1, 2], vec![], vec![4], vec![3, 3]]);
        assert_eq!(board.blocks(), 8);
        assert_eq!(board.colour_counts()[1..=4], [2, 2, 2, 1]);
        assert_eq!([1, 2, 10].map(|colour| board.count_in_column(0, colour)), [1, 1, 1]);
        assert_eq!([1, 3, 4].map(|colour| board.count_in_column(4, colour)), [0, 2, 0]);
        assert_eq!(
            (board.occupied_rows(0), board.occupied_rows(2), board.occupied_rows(4)),
            (0b111, 0, 0b11)
        );
        assert_eq!(
            (board.colour_rows(0, 1), board.colour_rows(0, 10), board.colour_rows(4, 3)),
            (0b10, 0b100, 0b11)
        );
        assert_eq!((board.same_rows(0), board.same_rows(3)), (0, 0));
        assert_eq!(Board::from_picture(&["12...", "21..."]).same_rows(0), 0);
        assert_eq!(Board::from_picture(&["12...", "22..."]).same_rows(0), 0b1);
        assert_eq!(Board::from_columns(&board.columns()), board);
    }

    #[test]
    fn a_swap_exchanges_two_blocks_without_a_line() {
        let (board, rounds) = after(pic(&["12...", "21..."]), 0, 0, 1);
        assert_eq!((board, rounds), (pic(&["12...", "12..."]), 0));
        // The left move into an occupied cell is the same swap.
        assert_eq!(after(pic(&["12...", "21..."]), 1, 0, -1).0, board);
    }

    #[test]
    fn a_swap_of_one_colour_changes_nothing() {
        let board = pic(&["11..."]);
        assert_eq!(after(board, 0, 0, 1), (board, 0));
    }

    #[test]
    fn a_drag_into_an_empty_column_falls_to_the_bottom_and_the_column_above_falls() {
        let (board, rounds) = after(pic(&["3....", "2....", "1...."]), 0, 1, 1);
        assert_eq!((board, rounds), (pic(&["3....", "12..."]), 0));
        // Dragged beside a shorter column, the block falls onto its top.
        let (board, _) = after(pic(&["1....", "2....", "3....", "14..."]), 0, 3, 1);
        assert_eq!(board, pic(&["2....", "31...", "14..."]));
    }

    #[test]
    fn a_fall_can_complete_a_line() {
        // The 2 leaves column 1 to the left; the 1 above it falls between two 1s.
        let (board, rounds) = after(pic(&[".1...", ".2113"]), 1, 0, -1);
        assert_eq!((board, rounds), (pic(&["2...3"]), 1));
    }

    #[test]
    fn an_l_and_a_t_of_five_vanish_together() {
        // L: the swapped 1 is the corner of a row of three and a column of three.
        let (board, rounds) = after(pic(&["..1..", "..1..", "31211", "23423"]), 1, 1, 1);
        assert_eq!((board, rounds), (pic(&["32...", "23423"]), 1));
        // T: the dragged 1 falls onto two 1s and between two more: the middle of a row of three
        // and the top of a column of three.
        let (board, rounds) = after(pic(&["...1.", ".1.1.", ".213.", "23123"]), 3, 3, -1);
        assert_eq!((board, rounds), (pic(&[".2.3.", "23.23"]), 1));
    }

    #[test]
    fn two_separate_lines_vanish_together() {
        // The swap completes a row of 2s on the left and a column of 1s on the right.
        let (board, rounds) = after(pic(&["2212.", "4351.", "3431."]), 2, 2, 1);
        assert_eq!((board, rounds), (pic(&["435..", "343.."]), 1));
    }

    #[test]
    fn a_cascade_runs_three_rounds() {
        // Round 1: the swap lines up three 1s on the bottom row; columns 0-2 fall one cell and
        // the 2s of columns 1 and 2 meet the 2 of column 3 (round 2); columns 1-3 fall one cell
        // and the 3s of columns 1 and 2 meet the 3 of column 0 (round 3).
        let board = pic(&[".33..", "322..", "4542.", "1141."]);
        assert_eq!(board.line_cells(), []);
        let (board, rounds) = after(board, 2, 0, 1);
        assert_eq!((board, rounds), (pic(&["4544."]), 3));
    }

    #[test]
    fn the_last_move_can_empty_the_board() {
        let (board, rounds) = after(pic(&["1.1.."]), 2, 0, -1);
        assert_eq!((board, rounds), (pic(&["11..."]), 0));
        let (board, rounds) = after(pic(&["11.1."]), 3, 0, -1);
        assert_eq!((board, rounds), (Board::EMPTY, 1));
        assert!(board.is_empty());
        assert_eq!(board.moves().count(), 0, "an empty board has no legal move");
    }

    #[test]
    fn moves_at_the_edges_stay_on_the_board() {
        let board = pic(&["1...2", "2...1"]);
        let moves: Vec<String> = board.moves().map(|mv| mv.to_string()).collect();
        assert_eq!(moves, ["0 0 1", "0 1 1", "4 0 -1", "4 1 -1"]);
        assert!(!board.is_legal(Move::new(0, 0, -1)));
        assert!(!board.is_legal(Move::new(4, 1, 1)));
        assert!(!board.is_legal(Move::new(0, 2, 1)), "no block at (0, 2)");
        assert_eq!(after(board, 4, 1, -1).0, pic(&["1....", "2..21"]));
        assert_eq!(after(board, 0, 1, 1).0, pic(&["....2", "21..1"]));
    }

    #[test]
    fn full_columns_swap_at_the_top_and_fall_from_the_bottom() {
        let board = pic(&["12...", "21...", "12...", "21...", "12...", "21...", "12..."]);
        assert_eq!((board.height(0), board.height(1)), (7, 7));
        // Beside a full column every move is a swap, up to the top row.
        let (top, rounds) = after(board, 0, 6, 1);
        assert_eq!((top.cell(0, 6), top.cell(1, 6), rounds), (2, 1, 0));
        assert_eq!(top.height(0) + top.height(1), 14);
        // From the bottom of a full column into an empty one: the whole column falls one cell.
        let full = pic(&["2....", "1....", "3....", "2....", "1....", "3....", "2...."]);
        let (dragged, rounds) = after(full, 0, 0, 1);
        assert_eq!(rounds, 0);
        assert_eq!(dragged, pic(&["2....", "1....", "3....", "2....", "1....", "32..."]));
        // A full column of alternating colours, all five columns full: still no line.
        let rows = ["12121", "21212", "12121", "21212", "12121", "21212", "12121"];
        let full_board = pic(&rows);
        assert_eq!(full_board.blocks(), 35);
        assert_eq!(full_board.moves().count(), 56);
        assert_eq!(full_board.line_cells(), []);
    }

    #[test]
    fn lines_are_found_where_they_are() {
        let board = Board::from_columns(&[vec![1, 2], vec![1], vec![1, 3, 3, 3], vec![], vec![]]);
        assert_eq!(board.line_cells(), [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (2, 3)]);
    }
}
