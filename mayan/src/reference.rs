//! The plain solver, the yardstick for tests and benchmarks, with a simulation of the rules of
//! its own.
//!
//! It shares nothing with the fast solver but the [`Move`] type: the board is a plain grid,
//! `cells[x][y]` the colour at column `x`, row `y` (`0` for an empty cell), and the rules run
//! one step at a time, as the puzzle states them: move the block, let every block fall, mark
//! every block in a line of three or more, remove the marked blocks together, let the blocks
//! fall, mark again. So a bug in the byte-parallel [`crate::board`] cannot hide in the
//! reference, and tests replay every solution with [`replay`]. (The grid is a fixed array, not
//! nested vectors, only so that the thousands of searches in the tests allocate nothing.)
//!
//! The search is depth-first over every legal move in the judge's order (x, then y, then right
//! before left), exactly `n` moves deep, no pruning at all: the first sequence that leaves the
//! board empty after its last move is the lexicographically smallest. An empty board has no
//! legal move, so a sequence that empties the board early is never completed.

use crate::model::{HEIGHT, Move, Puzzle, WIDTH};

/// A board as a plain grid: `cells[x][y]` is the colour at column `x`, row `y` (row 0 at the
/// bottom), `0` where the cell is empty.
pub type Cells = [[u8; HEIGHT]; WIDTH];

/// The grid of these columns (colours from the bottom up).
///
/// # Panics
/// When a column is taller than [`HEIGHT`].
pub fn cells(columns: &[Vec<u8>; WIDTH]) -> Cells {
    let mut cells = [[0; HEIGHT]; WIDTH];
    for (x, column) in columns.iter().enumerate() {
        cells[x][..column.len()].copy_from_slice(column);
    }
    cells
}

/// The columns of a grid, colours from the bottom up, empty cells left out.
pub fn columns(cells: &Cells) -> [Vec<u8>; WIDTH] {
    std::array::from_fn(|x| cells[x].iter().copied().filter(|&colour| colour != 0).collect())
}

/// True when no block is left.
pub fn is_empty(cells: &Cells) -> bool {
    cells.iter().flatten().all(|&colour| colour == 0)
}

/// Every legal move in the judge's order: each block, column by column from the left and
/// bottom up in each column, first to the right, then to the left, if that stays on the board.
pub fn legal_moves(cells: &Cells) -> Vec<Move> {
    let mut moves = Vec::new();
    for (x, column) in cells.iter().enumerate() {
        for (y, &colour) in column.iter().enumerate() {
            if colour == 0 {
                continue;
            }
            if x + 1 < WIDTH {
                moves.push(Move::new(x as u8, y as u8, 1));
            }
            if x > 0 {
                moves.push(Move::new(x as u8, y as u8, -1));
            }
        }
    }
    moves
}

/// The board after `mv`, settled; `None` when the move is not legal (no block at (x, y), or
/// the target column off the board).
pub fn after(cells: &Cells, mv: Move) -> Option<Cells> {
    let (x, y) = (usize::from(mv.x), usize::from(mv.y));
    let target = x as i64 + i64::from(mv.g);
    if x >= WIDTH || y >= HEIGHT || cells[x][y] == 0 || !(0..WIDTH as i64).contains(&target) {
        return None;
    }
    let target = target as usize;
    let mut next = *cells;
    // A block beside it swaps places with it; an empty cell beside it takes it, and the fall
    // below brings it down onto the target column's top (and the blocks above its old place
    // down by one).
    next[x][y] = cells[target][y];
    next[target][y] = cells[x][y];
    fall(&mut next);
    loop {
        let marked = marked_lines(&next);
        if !marked.iter().flatten().any(|&mark| mark) {
            return Some(next);
        }
        for x in 0..WIDTH {
            for y in 0..HEIGHT {
                if marked[x][y] {
                    next[x][y] = 0;
                }
            }
        }
        fall(&mut next);
    }
}

/// True when some block is in a line of three or more (a settled board has none).
pub fn has_line(cells: &Cells) -> bool {
    marked_lines(cells).iter().flatten().any(|&mark| mark)
}

/// Lets every block fall: each column keeps its blocks in order, moved down onto each other.
fn fall(cells: &mut Cells) {
    for column in cells.iter_mut() {
        let mut blocks = 0;
        for y in 0..HEIGHT {
            if column[y] != 0 {
                column[blocks] = column[y];
                blocks += 1;
            }
        }
        column[blocks..].fill(0);
    }
}

/// Marks every block in a horizontal or vertical run of three blocks of one colour; a longer
/// line is covered by its runs of three, crossing lines by each of theirs.
fn marked_lines(cells: &Cells) -> [[bool; HEIGHT]; WIDTH] {
    let mut marked = [[false; HEIGHT]; WIDTH];
    for x in 0..WIDTH {
        for y in 0..HEIGHT {
            let colour = cells[x][y];
            if colour == 0 {
                continue;
            }
            if x + 2 < WIDTH && cells[x + 1][y] == colour && cells[x + 2][y] == colour {
                marked[x][y] = true;
                marked[x + 1][y] = true;
                marked[x + 2][y] = true;
            }
            if y + 2 < HEIGHT && cells[x][y + 1] == colour && cells[x][y + 2] == colour {
                marked[x][y] = true;
                marked[x][y + 1] = true;
                marked[x][y + 2] = true;
            }
        }
    }
    marked
}

/// Replays `moves` from the board of `columns`: the board after each move, or the 1-based
/// number of the first move that is not legal where it is made (an empty board has none).
pub fn replay(columns: &[Vec<u8>; WIDTH], moves: &[Move]) -> Result<Vec<Cells>, usize> {
    let mut board = cells(columns);
    let mut boards = Vec::with_capacity(moves.len());
    for (index, &mv) in moves.iter().enumerate() {
        board = after(&board, mv).ok_or(index + 1)?;
        boards.push(board);
    }
    Ok(boards)
}

/// True when `moves` are legal one after the other from the board of `columns` and leave it
/// empty after the last one.
pub fn is_solution(columns: &[Vec<u8>; WIDTH], moves: &[Move]) -> bool {
    replay(columns, moves).is_ok_and(|boards| boards.last().is_some_and(is_empty))
}

/// The lexicographically smallest sequence of exactly `puzzle.moves` moves that empties the
/// board, or `None`.
///
/// # Complexity
/// As [`exactly`].
///
/// # Panics
/// When a column is taller than [`HEIGHT`].
pub fn solve(puzzle: &Puzzle) -> Option<Vec<Move>> {
    exactly(&puzzle.columns, puzzle.moves)
}

/// The lexicographically smallest of the shortest sequences of at most `puzzle.moves` moves
/// that empty the board, or `None`.
///
/// # Complexity
/// One [`exactly`] for each number of moves up to the first that succeeds.
///
/// # Panics
/// When a column is taller than [`HEIGHT`].
pub fn fewest(puzzle: &Puzzle) -> Option<Vec<Move>> {
    (1..=puzzle.moves).find_map(|moves| exactly(&puzzle.columns, moves))
}

/// The lexicographically smallest sequence of exactly `moves` moves that empties the board of
/// `columns` (colours from the bottom up).
///
/// # Complexity
/// Every sequence of legal moves, no pruning: up to 56^`moves` boards, each simulated step by
/// step on the grid. Meant for tests and benchmarks of a few moves.
///
/// # Panics
/// When a column is taller than [`HEIGHT`].
pub fn exactly(columns: &[Vec<u8>; WIDTH], moves: usize) -> Option<Vec<Move>> {
    let mut path = Vec::with_capacity(moves);
    search(&cells(columns), moves, &mut path).then_some(path)
}

fn search(cells: &Cells, remaining: usize, path: &mut Vec<Move>) -> bool {
    if remaining == 0 {
        return is_empty(cells);
    }
    for mv in legal_moves(cells) {
        let next = after(cells, mv).expect("legal_moves gives legal moves");
        path.push(mv);
        if search(&next, remaining - 1, path) {
            return true;
        }
        path.pop();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid drawn as text, the top row first, `.` for an empty cell, digits for colours.
    fn picture(rows: &[&str]) -> Cells {
        let mut cells = [[0; HEIGHT]; WIDTH];
        for (y, row) in rows.iter().rev().enumerate() {
            for (x, cell) in row.bytes().enumerate() {
                cells[x][y] = if cell == b'.' { 0 } else { cell - b'0' };
            }
        }
        cells
    }

    #[test]
    fn a_drag_falls_and_the_blocks_above_follow() {
        let start = picture(&["2....", "1....", "3...."]);
        let after_drag = after(&start, Move::new(0, 1, 1)).unwrap();
        assert_eq!(after_drag, picture(&["2....", "31..."]));
    }

    #[test]
    fn a_swap_exchanges_two_blocks() {
        let start = picture(&["12..."]);
        assert_eq!(after(&start, Move::new(0, 0, 1)).unwrap(), picture(&["21..."]));
        assert_eq!(after(&start, Move::new(1, 0, -1)).unwrap(), picture(&["21..."]));
    }

    #[test]
    fn crossing_lines_vanish_together_and_chains_follow() {
        // The 1 dragged from (3, 2) lands on column 2's two 1s, completing a row and a column
        // of 1s through (2, 2): all five vanish at once. Then the 4 on column 0 falls onto the
        // two 4s below it, and those three vanish in a second round.
        let start = picture(&["4....", "11.1.", "4312.", "4213."]);
        let end = after(&start, Move::new(3, 2, -1)).unwrap();
        assert_eq!(end, picture(&[".3.2.", ".2.3."]));
    }

    #[test]
    fn illegal_moves_are_refused() {
        let start = picture(&["1...."]);
        assert_eq!(after(&start, Move::new(0, 0, -1)), None, "off the board");
        assert_eq!(after(&start, Move::new(0, 1, 1)), None, "no block there");
        assert_eq!(after(&start, Move::new(5, 0, -1)), None, "no such column");
        assert_eq!(legal_moves(&start), [Move::new(0, 0, 1)]);
        assert_eq!(replay(&columns(&start), &[Move::new(0, 0, 1), Move::new(0, 0, 1)]), Err(2));
    }

    #[test]
    fn the_samples_of_the_judge() {
        let sample = [vec![1], vec![2, 1], vec![2, 3, 4], vec![3, 1], vec![2, 4, 3, 4]];
        let expected = [Move::new(2, 1, 1), Move::new(3, 1, 1), Move::new(3, 0, 1)];
        assert_eq!(exactly(&sample, 3).as_deref(), Some(&expected[..]));
        assert!(is_solution(&sample, &expected));
        let same_colour_swap = [vec![1], vec![1], vec![], vec![1], vec![]];
        let expected = [Move::new(0, 0, 1), Move::new(3, 0, -1)];
        assert_eq!(exactly(&same_colour_swap, 2).as_deref(), Some(&expected[..]));
        assert_eq!(exactly(&same_colour_swap, 1).as_deref(), Some(&[Move::new(3, 0, -1)][..]));
        let puzzle = Puzzle { moves: 2, columns: same_colour_swap };
        assert_eq!(fewest(&puzzle).as_deref(), Some(&[Move::new(3, 0, -1)][..]));
        assert!(!is_solution(&puzzle.columns, &[Move::new(3, 0, -1), Move::new(0, 0, 1)]));
    }
}
