//! The texts of the `linkup` binary: its `--help` and what it says about its input.

use common::cli::{Cases, EXIT_OUT_OF_TRIES_HELP, EXIT_STATUS_HELP};
use linkup::clear::{self, DEFAULT_BUDGET};
use linkup::model::{MAX_CELLS, MAX_QUERIES, MAX_SIDE};

/// What the input holds, for what is said about it.
pub const CASES: Cases = Cases {
    program: "linkup",
    what: "cases",
    format: "cases: a line `n m`, n rows of m piece kinds, the query count q, q queries, and `0 0` to end",
};

/// The first line of `--help`.
pub const ABOUT: &str = "Answers Lianliankan (link-up) queries in the judge format of HDU 1175.";

/// The description of `--help`.
pub fn long_about() -> String {
    format!(
        "\
Answers Lianliankan (link-up) queries in the judge format of HDU 1175.

Each case is a line `n m` (rows and columns, 1 to {MAX_SIDE} each, at most {MAX_CELLS} cells;
the judge allows n <= 1000, m < 1000), n rows of m piece kinds (0 is an empty cell), a line q
(0 to {MAX_QUERIES} queries; the judge allows 1 to 49), then q lines `x1 y1 x2 y2`: the row and
column of two cells, 1-based. A line `0 0` ends the input.

Two pieces can be removed together when they are of one kind and a line joins them that runs
horizontally and vertically over empty cells only, turns at most twice, and stays inside the
board. For each query the answer is YES or NO, one per line. A query on an empty cell, on two
kinds, or naming one cell twice is answered NO."
    )
}

/// The end of `--help`: examples and exit statuses.
pub fn after_help() -> String {
    format!(
        "\
Examples:
  $ printf '1 4\\n5 0 0 5\\n1\\n1 1 1 4\\n0 0\\n' | linkup
  YES
  $ linkup gen --rows 8 --cols 8 --density 0.6 --kinds 5 --seed 7 | linkup --show
  $ linkup gen --rows 6 --cols 6 --kinds 4 --seed 1 | linkup solve --best --outside
  $ linkup gen --rows 8 --cols 18 --kinds 36 --copies 4 --outside --solvable --seed 3 \\
      | linkup solve --best --outside --show

gen --solvable draws up to --tries boards for each case; when they run out, gen prints the
cases it made, says on stderr what to change, and exits with status 3. On a terminal it shows
the cases made, the boards tried and the positions searched.

{EXIT_STATUS_HELP}
{EXIT_OUT_OF_TRIES_HELP}"
    )
}

/// The end of `solve --help`: how play and the search go, and an example.
pub fn solve_after_help() -> String {
    let (side, edges, budget) = (clear::MAX_SIDE, clear::MAX_EDGES, DEFAULT_BUDGET);
    let play_side = linkup::play::MAX_SIDE;
    format!(
        "\
Without --best, each pass goes over the cells in reading order and removes each piece with the
first piece of its kind a line reaches from it; play stops when a pass removes nothing. It
takes boards of up to {play_side} rows and {play_side} columns (the judge's size): a game costs
up to pieces x cells, so the largest take tens of seconds on the worst deals.

Each case prints `Case k:`, its removals, one a line (`  i: (r1,c1) (r2,c2), kind K, T
turns`), then how it ended (`  board cleared in R removals`, `  stuck after R removals, P
pieces left`); the verdict comes last since it counts the removals, which are written as
they are made.

With --best, greedy play is tried first; where it does not clear the board, an exact search
prints an order that clears it, or proves that none does, or, when it has spent --budget units
of work first, says the board is undecided and which limit stopped it (exit status 0).
A unit is one line check between two pieces, or one pair the search's relaxation sets up or
looks at; with --turns above 2 a check (a flood over the board) costs rows + columns + 4
units; a position costs one more unit per kind of piece and one. The search stops inside
a position when the budget runs out, and a position whose relaxation would hold more than
{edges} pairs (a kind of more than about 1,400 pieces) ends the search undecided (a bound of
memory, which --budget does not raise), so the default budget ({budget}) ends any board it
takes within a few seconds.
It takes boards of up to {side} rows and {side} columns (the real game's largest is 16 x 30),
any number of pieces; a board with an odd number of some kind is hopeless. On a terminal it
shows on stderr, as it runs, the case searched, the positions searched and how many the budget
allows at the work per position so far (with the time until it is spent).

With --gravity, after each removal the pieces above an emptied cell fall down their column
until they rest on a piece or the bottom row; each removal names its cells on the board after
the falls before it.

Example (the real game's standard deal, 8 x 18 cells, 36 kinds x 4):
  $ linkup gen --rows 8 --cols 18 --kinds 36 --copies 4 --seed 1 | linkup solve --best --outside"
    )
}
