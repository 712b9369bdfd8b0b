//! Generated puzzles for `gen`, the benchmarks and the property tests.
//!
//! A random board draws column heights and then colours cell by cell, avoiding lines. A board
//! solvable in exactly n moves is built backwards from the empty board: each step back either
//! inserts one or two lines (3 to 5 blocks each) that vanish together and then undoes a move
//! that would complete them, or undoes a move that clears nothing (a swap of two neighbours).
//! Every step is checked by running the rules forwards, and the whole sequence, the witness,
//! is replayed at the end.

use std::fmt::Write as _;

use rand::RngExt;
use rand::seq::SliceRandom;

use crate::board::Board;
use crate::model::{HEIGHT, MAX_COLOUR, Move, Puzzle, WIDTH};

/// Boards tried before giving up.
const ATTEMPTS: usize = 10_000;

/// The longest line one move can complete and still have been no line before it: a swap out of
/// the middle of five leaves two and two.
const LONGEST_LINE: usize = 5;

/// The most blocks one step of a solvable board clears: two lines.
const MOST_PER_STEP: usize = 2 * LONGEST_LINE;

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Blocks on the board, 0..=35.
    pub blocks: usize,
    /// Colours used: 1..=colours, 1..=10.
    pub colours: u8,
    /// Moves of the puzzle, 1..=7.
    pub moves: usize,
    /// Build a board known to be solvable in exactly `moves` moves.
    pub solvable: bool,
}

/// A puzzle as `gen` prints it; an error when the options cannot be met.
///
/// # Panics
/// When `options` are out of range: more blocks than the board holds, `colours` not in
/// 1..=[`MAX_COLOUR`], or (with `solvable`) no moves.
pub fn puzzle(options: Options, rng: &mut impl rand::Rng) -> Result<Puzzle, String> {
    let board = if options.solvable {
        solvable_board(options.blocks, options.colours, options.moves, rng)?.0
    } else {
        random_board(options.blocks, options.colours, rng).ok_or_else(|| {
            format!(
                "no board of {} blocks in {} without three in a line turned up",
                options.blocks,
                common::words::counted(options.colours, "colour")
            )
        })?
    };
    Ok(Puzzle { moves: options.moves, columns: board.columns() })
}

/// A board of `blocks` blocks in colours 1..=`colours` that exactly `moves` moves can empty,
/// and such a sequence of moves (not necessarily the smallest). An error when the numbers
/// cannot be met: fewer than 3 blocks, more than 10 a move, or no board found.
///
/// # Panics
/// When `blocks` exceeds the board, `colours` is not in 1..=10 or `moves` is 0.
pub fn solvable_board(
    blocks: usize,
    colours: u8,
    moves: usize,
    rng: &mut impl rand::Rng,
) -> Result<(Board, Vec<Move>), String> {
    assert!(blocks <= WIDTH * HEIGHT && (1..=MAX_COLOUR).contains(&colours) && moves > 0);
    let fewest_steps = blocks.div_ceil(MOST_PER_STEP).max(1);
    let most_steps = moves.min(blocks / 3);
    if blocks < 3 || fewest_steps > most_steps {
        return Err(format!(
            "a board solvable in exactly {} needs 3 to {} blocks here",
            common::words::counted(moves, "move"),
            (MOST_PER_STEP * moves).min(WIDTH * HEIGHT)
        ));
    }
    for _ in 0..ATTEMPTS / 10 {
        let clearing = rng.random_range(fewest_steps..=most_steps);
        let mut sizes = vec![3; clearing];
        for _ in 0..blocks - 3 * clearing {
            let open: Vec<usize> = (0..clearing).filter(|&step| sizes[step] < MOST_PER_STEP).collect();
            sizes[open[rng.random_range(0..open.len())]] += 1;
        }
        // The last move clears; the other clearing moves go anywhere before it.
        let mut plan = vec![0; moves - 1];
        plan[..clearing - 1].copy_from_slice(&sizes[1..]);
        plan.shuffle(rng);
        plan.push(sizes[0]);

        let mut board = Board::EMPTY;
        let mut witness = Vec::with_capacity(moves);
        for &size in plan.iter().rev() {
            let step =
                if size == 0 { unmove_quietly(&board, rng) } else { unclear(&board, size, colours, rng) };
            let Some((before, mv)) = step else { break };
            board = before;
            witness.push(mv);
        }
        witness.reverse();
        if witness.len() == moves && replays(&board, &witness) {
            return Ok((board, witness));
        }
    }
    Err(format!(
        "no board of {blocks} blocks in {} solvable in exactly {} turned up",
        common::words::counted(colours, "colour"),
        common::words::counted(moves, "move")
    ))
}

/// True when `moves` are legal on `board` one after the other, the board has no line to start
/// with, is never empty before the last move and is empty after it.
pub fn replays(board: &Board, moves: &[Move]) -> bool {
    let mut board = *board;
    if !board.line_cells().is_empty() {
        return false;
    }
    for mv in moves {
        if board.is_empty() || !board.is_legal(*mv) {
            return false;
        }
        board.apply(*mv);
    }
    board.is_empty()
}

/// A board and a move on it that clears nothing and gives `after`: a swap of two neighbours.
fn unmove_quietly(after: &Board, rng: &mut impl rand::Rng) -> Option<(Board, Move)> {
    let mut swaps: Vec<Move> =
        after.moves().filter(|mv| mv.g == 1 && after.cell(mv.x as usize + 1, mv.y as usize) != 0).collect();
    swaps.shuffle(rng);
    swaps.into_iter().find_map(|mv| {
        let mut before = *after;
        before.displace(mv);
        before.line_cells().is_empty().then_some((before, mv))
    })
}

/// A board and a move on it whose lines, `size` blocks in all, vanish and give `after`.
fn unclear(after: &Board, size: usize, colours: u8, rng: &mut impl rand::Rng) -> Option<(Board, Move)> {
    for _ in 0..200 {
        let lengths = match size {
            3..=LONGEST_LINE if rng.random_bool(0.7) || size < 6 => vec![size],
            _ => {
                let first =
                    rng.random_range(size.saturating_sub(LONGEST_LINE).max(3)..=(size - 3).min(LONGEST_LINE));
                vec![first, size - first]
            }
        };
        let Some(lined) = with_lines(after, &lengths, colours, rng) else { continue };
        let mut settled = lined;
        settled.settle();
        if settled != *after {
            continue;
        }
        let mut undos: Vec<Move> = lined.moves().collect();
        undos.shuffle(rng);
        for undo in undos {
            let mut before = lined;
            before.displace(undo);
            let Some(forward) = inverse(&lined, undo) else { continue };
            if before.line_cells().is_empty() && before.is_legal(forward) {
                let mut redone = before;
                redone.displace(forward);
                if redone == lined {
                    return Some((before, forward));
                }
            }
        }
    }
    None
}

/// The move that undoes `mv` made on `board`: the same swap, or the drag back from where the
/// dragged block landed (which only undoes it when the block came from the top of its column).
fn inverse(board: &Board, mv: Move) -> Option<Move> {
    let target = mv.target_column()?;
    let row = mv.y as usize;
    if board.cell(target as usize, row) != 0 {
        return Some(Move::new(mv.x.min(target), mv.y, 1));
    }
    Some(Move::new(target, board.height(target as usize) as u8, -mv.g))
}

/// `board` with lines of the given lengths inserted (blocks above them pushed up), each of a
/// random colour, every line after the first through a cell beside a cell of the first.
fn with_lines(board: &Board, lengths: &[usize], colours: u8, rng: &mut impl rand::Rng) -> Option<Board> {
    let mut columns = board.columns();
    let first_colour = rng.random_range(1..=colours);
    let first = insert_line(&mut columns, lengths[0], first_colour, None, rng)?;
    for &length in &lengths[1..] {
        let (x, y) = first[rng.random_range(0..first.len())];
        let beside = if x == 0 || (x + 1 < WIDTH && rng.random_bool(0.5)) { x + 1 } else { x - 1 };
        let colour =
            if colours == 1 { 1 } else { (first_colour + rng.random_range(1..colours) - 1) % colours + 1 };
        insert_line(&mut columns, length, colour, Some((beside, y)), rng)?;
    }
    Some(Board::from_columns(&columns))
}

/// Inserts a line of `length` blocks of `colour`, through `through` if given, and returns its
/// cells; `None` where it does not fit.
fn insert_line(
    columns: &mut [Vec<u8>; WIDTH],
    length: usize,
    colour: u8,
    through: Option<(usize, usize)>,
    rng: &mut impl rand::Rng,
) -> Option<Vec<(usize, usize)>> {
    let vertical = rng.random_bool(0.5);
    if vertical {
        let x = through.map_or_else(|| rng.random_range(0..WIDTH), |(x, _)| x);
        let height = columns[x].len();
        if height + length > HEIGHT {
            return None;
        }
        let lowest = through.map_or(0, |(_, y)| (y + 1).saturating_sub(length));
        let highest = through.map_or(height, |(_, y)| y.min(height));
        if lowest > highest {
            return None;
        }
        let y = rng.random_range(lowest..=highest);
        columns[x].splice(y..y, std::iter::repeat_n(colour, length));
        Some((y..y + length).map(|row| (x, row)).collect())
    } else {
        let y = through.map_or_else(|| rng.random_range(0..HEIGHT), |(_, y)| y);
        let start = match through {
            None => rng.random_range(0..=WIDTH - length),
            // Away from the first line's cell: starting at `x` going right, or ending there.
            Some((x, _)) => {
                let right = x + length <= WIDTH && (x + 1 < length || rng.random_bool(0.5));
                if right { x } else { (x + 1).checked_sub(length)? }
            }
        };
        if start + length > WIDTH {
            return None;
        }
        let cells: Vec<usize> = (start..start + length).collect();
        if cells.iter().any(|&x| columns[x].len() < y || columns[x].len() == HEIGHT) {
            return None;
        }
        for &x in &cells {
            columns[x].insert(y, colour);
        }
        Some(cells.into_iter().map(|x| (x, y)).collect())
    }
}

/// A random board of `blocks` blocks with colours 1..=`colours` and no three in a line: column
/// heights drawn block by block, then colours drawn cell by cell among those that make no line
/// with the cells already coloured. `None` when no such board turned up in many attempts (few
/// colours cannot fill many cells without lines).
///
/// # Panics
/// When `blocks` exceeds the board or `colours` is not in 1..=10.
pub fn random_board(blocks: usize, colours: u8, rng: &mut impl rand::Rng) -> Option<Board> {
    assert!(blocks <= WIDTH * HEIGHT && (1..=MAX_COLOUR).contains(&colours));
    'attempt: for _ in 0..ATTEMPTS {
        let mut heights = [0; WIDTH];
        for _ in 0..blocks {
            let open: Vec<usize> = (0..WIDTH).filter(|&x| heights[x] < HEIGHT).collect();
            heights[open[rng.random_range(0..open.len())]] += 1;
        }
        let mut cells = [[0_u8; HEIGHT]; WIDTH];
        for x in 0..WIDTH {
            for y in 0..heights[x] {
                let makes_line = |colour: u8| {
                    (y >= 2 && cells[x][y - 1] == colour && cells[x][y - 2] == colour)
                        || (x >= 2 && cells[x - 1][y] == colour && cells[x - 2][y] == colour)
                };
                let allowed: Vec<u8> = (1..=colours).filter(|&colour| !makes_line(colour)).collect();
                if allowed.is_empty() {
                    continue 'attempt;
                }
                cells[x][y] = allowed[rng.random_range(0..allowed.len())];
            }
        }
        let columns = std::array::from_fn(|x| cells[x][..heights[x]].to_vec());
        return Some(Board::from_columns(&columns));
    }
    None
}

/// The puzzle in the judge's input format.
pub fn to_input(puzzle: &Puzzle) -> String {
    let mut out = format!("{}\n", puzzle.moves);
    for column in &puzzle.columns {
        for colour in column {
            let _ = write!(out, "{colour} ");
        }
        out.push_str("0\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    #[test]
    fn random_boards_have_the_blocks_and_colours_asked_for_and_no_line() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for (blocks, colours) in [(0, 1), (1, 1), (12, 3), (30, 4), (35, 3), (35, 10)] {
            let board = random_board(blocks, colours, &mut rng).unwrap();
            assert_eq!(board.blocks() as usize, blocks);
            assert!(board.colour_counts()[colours as usize + 1..].iter().all(|&count| count == 0));
            assert_eq!(board.line_cells(), []);
        }
        assert_eq!(random_board(35, 1, &mut rng), None, "one colour cannot fill the board");
    }

    #[test]
    fn solvable_boards_replay_their_witness() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for (blocks, colours, moves) in [(3, 1, 1), (3, 2, 4), (12, 3, 3), (30, 4, 5), (32, 5, 5), (20, 4, 7)]
        {
            let (board, witness) = solvable_board(blocks, colours, moves, &mut rng).unwrap();
            assert_eq!((board.blocks() as usize, witness.len()), (blocks, moves));
            assert!(replays(&board, &witness), "{board:?} {witness:?}");
        }
        assert!(solvable_board(2, 3, 2, &mut rng).is_err());
        assert!(solvable_board(31, 3, 3, &mut rng).is_err(), "at most ten blocks a move");
    }

    #[test]
    fn small_solvable_boards_are_solved_by_the_reference() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for moves in 1..=3 {
            let (board, _) = solvable_board(9, 3, moves, &mut rng).unwrap();
            assert!(crate::reference::exactly(&board.columns(), moves).is_some());
        }
    }

    #[test]
    fn input_round_trips_through_the_parser() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let options = Options { blocks: 20, colours: 10, moves: 4, solvable: false };
        let puzzle = puzzle(options, &mut rng).unwrap();
        let text = to_input(&puzzle);
        assert_eq!(crate::parse::puzzle(&mut common::Tokens::new(text.as_bytes())).unwrap(), puzzle);
    }
}
