//! # The Mayan puzzle
//!
//! ```
//! use common::search::Progress;
//! use common::Tokens;
//!
//! // The judge's format: 2 moves, then the five columns, bottom up, each ended by 0.
//! let input = "2\n1 0\n1 0\n0\n1 0\n0\n";
//! let puzzle = mayan::parse::puzzle(&mut Tokens::new(input.as_bytes()))
//!     .map_err(|bad| bad.render("<input>", input.as_bytes()))?;
//! let mut out = Vec::new();
//! mayan::answer(&puzzle, mayan::Options::default(), &Progress::default(), &mut out)?;
//! assert_eq!(String::from_utf8(out)?, "0 0 1\n3 0 -1\n");
//!
//! // Or the moves themselves.
//! let moves = mayan::solve::solve(&puzzle).expect("a solution");
//! assert_eq!(moves.len(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A 5×7 board of coloured blocks stacked in columns. A move drags one block one column left or
//! right: it swaps with the block there, or falls into the next column if the cell beside it is
//! empty (the blocks above its old place fall too). Then every horizontal or vertical line of
//! three or more blocks of one colour vanishes, all at once (crossing lines included), the
//! blocks above fall, and so on until nothing changes. Find the lexicographically smallest
//! sequence of exactly n moves that leaves the board empty. Input and output follow the judge
//! NOIP 2011 / Luogu P1312 (format and decisions in README.md); up to 7 moves are accepted.
//!
//! ## The algorithm
//! [`board`] simulates the rules on five machine words, finding every line of the board at once
//! with byte-parallel arithmetic and allocating nothing, so a move is a handful of word
//! operations. [`solve`] is a depth-first search over the legal moves in the judge's order,
//! so the first solution it meets is the lexicographically smallest; it prunes only branches
//! that provably hold no earlier solution:
//! - a lower bound on the moves left: a block only changes column when a move moves it, one
//!   column at a time, and at most two blocks per move (one per colour), so each colour needs a
//!   number of transfers before every one of its blocks can be in a line: the fewest one-column
//!   steps to a count per column where each block has the partners a line needs (one or two
//!   blocks of a colour can never vanish). The bound forces the colours the next move must
//!   move, and is read one move ahead, before a move is made;
//! - a left move into an occupied cell is the same swap as the right move of its neighbour,
//!   searched just before;
//! - two moves that clear nothing and touch different columns commute, so after one of them
//!   failed, the other's subtree does not try it again;
//! - boards that failed with the same number of moves left are never searched again;
//! - a swap as the last move is made only if it completes a line.
//!
//! Swaps of two blocks of one colour are searched like any move: they change nothing but are
//! legal, and exactly n moves may need one (they are skipped only where any move would be, as
//! the last move or when the bound forces a transfer).
//!
//! The search is exponential in n (up to 56 legal moves a board: 56ⁿ sequences); the bound,
//! the dead-end table and the sleeping moves cut that by orders of magnitude, and the boards it
//! visits are counted beside the benchmarks' times in `docs/benchmarks/mayan.md`.
//! [`reference`](mod@reference) is the plain search beside it.
//!
//! ## Limits
//! A board is [`model::WIDTH`] × [`model::HEIGHT`] cells in colours 1..=[`model::MAX_COLOUR`];
//! the parser accepts 1..=[`model::MAX_MOVES`] moves. The table of dead ends holds at most
//! 917,504 boards (about 43 MB) and is emptied when full, so memory stays bounded for any n.

pub mod board;
pub mod r#gen;
pub mod model;
pub mod parse;
pub mod reference;
pub mod show;
pub mod solve;
pub mod svg;

use std::io::{self, Write};
use std::path::Path;

use board::Board;
use common::search::Progress;
use model::Puzzle;

/// What to print besides the judge's answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options<'a> {
    /// Solve in the fewest moves up to n instead of exactly n.
    pub fewest: bool,
    /// Draw the board before the first move and after each move.
    pub show: bool,
    /// Draw colours with ANSI escapes (for a terminal).
    pub ansi: bool,
    /// Write the puzzle's and the solution's pictures into this folder ([`svg::write_solution`]).
    pub svg: Option<&'a Path>,
}

/// Writes the answer: one line `x y g` per move of the lexicographically smallest solution, or
/// `-1`, exactly as the judge expects; with `show`, a blank line and the boards. The search
/// reports its work to `progress` ([`Progress::default`] for none).
///
/// # Complexity
/// That of [`solve::search`]: exponential in `puzzle.moves` in the worst case.
///
/// # Panics
/// When `puzzle` breaks what the parser checks ([`parse::puzzle`]): a column taller than
/// [`model::HEIGHT`], a colour outside 1..=[`model::MAX_COLOUR`], or (in debug builds) three
/// blocks in a line.
///
/// # Errors
/// When `out` cannot be written, or the pictures of `options.svg` cannot be.
pub fn answer(puzzle: &Puzzle, options: Options, progress: &Progress, out: &mut dyn Write) -> io::Result<()> {
    let solution = solve::solve_with(puzzle, options.fewest, progress.clone());
    match &solution {
        Some(moves) => {
            for mv in moves {
                writeln!(out, "{mv}")?;
            }
        }
        None => writeln!(out, "-1")?,
    }
    if let Some(dir) = options.svg {
        svg::write_solution(dir, puzzle, solution.as_deref())?;
    }
    if options.show {
        writeln!(out)?;
        let start = Board::from_columns(&puzzle.columns);
        out.write_all(
            show::sequence(&start, solution.as_deref().unwrap_or_default(), options.ansi).as_bytes(),
        )?;
    }
    Ok(())
}
