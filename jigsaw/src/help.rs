//! The texts of the `jigsaw` binary: its `--help` and what it says about its input.

use common::cli::{Cases, EXIT_OUT_OF_TRIES_HELP, EXIT_STATUS_HELP};

/// What the input holds, for what is said about it.
pub const CASES: Cases = Cases {
    program: "jigsaw",
    what: "blocks",
    format: "blocks: a line `n m`, then n*m lines of a piece each, such as FOIF",
};

/// The first line of `--help`.
pub const ABOUT: &str = "Tells whether jigsaw pieces form a rectangle, in the judge format of UVa 519.";

/// The description of `--help`.
pub const LONG_ABOUT: &str = "\
Tells whether jigsaw pieces form a rectangle, in the judge format of UVa 519.

Each block is a line `n m` (rows and columns, 1 to 40 each; the judge allows 1 to 6) followed by
n*m words of four letters, the top, right, bottom and left side of one piece: F flat, O a knob,
I a hole. A line `0 0` ends the input. Flat sides must lie exactly on the rectangle's border and
a knob must meet a hole at every inner joint; pieces may not be turned (unless --rotate).

For each block the answer is a line `YES` or `NO`.";

/// The end of `--help`: examples and exit statuses.
pub fn after_help() -> String {
    format!(
        "\
Examples:
  $ printf '1 2\\nFOFF\\nFFFI\\n0 0\\n' | jigsaw --show
  YES
  +---+---+
  | F | F |
  |F O|I F|
  | F | F |
  +---+---+
  $ jigsaw gen --rows 8 --cols 8 --unsolvable swap --blocks 10 --seed 7 | jigsaw
  $ jigsaw gen --rows 4 --cols 4 --unique --seed 7 | jigsaw --count --threads 1
  Block 1: 1 solution

A search that runs for more than a second shows its progress on stderr when stderr is a
terminal (positions searched and positions per second; for gen, the blocks made and the
rectangles tried); nothing is printed there otherwise.

gen --unsolvable and --unique try up to --tries rectangles for each block; when they run out,
gen prints the blocks it made, says on stderr what to change, and exits with status 3.

{EXIT_STATUS_HELP}
{EXIT_OUT_OF_TRIES_HELP}"
    )
}
