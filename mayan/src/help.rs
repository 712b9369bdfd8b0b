//! The texts of the `mayan` binary: its `--help` and what it says about its input.

use common::cli::{Cases, EXIT_STATUS_HELP};

/// What the input holds, for what is said about it.
pub const CASES: Cases = Cases {
    program: "mayan",
    what: "a puzzle",
    format: "a puzzle: the number of moves n, then five lines of colours, each ending in 0",
};

/// The first line of `--help`.
pub const ABOUT: &str = "Solves the Mayan puzzle in the judge format of NOIP 2011 (Luogu P1312).";

/// The description of `--help`.
pub const LONG_ABOUT: &str = "\
Solves the Mayan puzzle in the judge format of NOIP 2011 (Luogu P1312).

A board of 5 columns and 7 rows holds coloured blocks stacked from the bottom. A move (x, y, g)
drags the block at column x, row y one column right (g = 1) or left (g = -1): it swaps with the
block there, or falls into that column if the cell is empty. Lines of three or more blocks of
one colour, across or up, then vanish all at once and the blocks above fall, until nothing
changes. The board must be empty after exactly n moves.

Input: n (1 to 7; the judge allows 1 to 5), then five lines, column x = 0 first, each holding
the colours (1 to 10) of a column's blocks from the bottom up and a 0.

Output: the lexicographically smallest solution, one move `x y g` a line (compared by x, then
y, then g with 1 before -1), or -1 when there is none.";

/// The end of `--help`: examples and exit statuses.
pub fn after_help() -> String {
    format!(
        "\
Examples:
  $ printf '2\\n1 0\\n1 0\\n0\\n1 0\\n0\\n' | mayan
  0 0 1
  3 0 -1
  $ mayan gen --blocks 30 --colours 4 --moves 5 --solvable --seed 7 | mayan --show

{EXIT_STATUS_HELP}"
    )
}
