//! The texts of the `tetravex` binary: its `--help` and what it says about its input.

use common::cli::{Cases, EXIT_OUT_OF_TRIES_HELP, EXIT_STATUS_HELP};

/// What the input holds, for what is said about it.
pub const CASES: Cases = Cases {
    program: "tetravex",
    what: "games",
    format: "games: a board side n, then n*n lines of four digits each",
};

/// The first line of `--help`.
pub const ABOUT: &str = "Solves Gnome Tetravex games in the judge format of ZOJ 1008.";

/// The description of `--help`.
pub const LONG_ABOUT: &str = "\
Solves Gnome Tetravex games in the judge format of ZOJ 1008.

Each game is a board side n (1 to 16; the judge allows 1 to 5) followed by n*n lines of four
digits 0-9: the top, right, bottom and left triangle of one tile. A line holding 0 ends the
input. Tiles may not be rotated; touching triangles must carry equal digits.

For game k the answer is `Game k: Possible` or `Game k: Impossible`, games separated by a blank
line.";

/// The end of `--help`: examples and exit statuses.
pub fn after_help() -> String {
    format!(
        "\
Examples:
  $ printf '2\\n5 9 1 4\\n4 4 5 6\\n6 8 5 4\\n0 4 4 3\\n0\\n' | tetravex
  Game 1: Possible
  $ tetravex gen --size 5 --digits 4 --games 3 --seed 7 | tetravex --count
  $ tetravex gen --size 5 --digits 5 --unsolvable --games 5 --seed 7 | tetravex
  $ tetravex gen --size 4 --digits 6 --unique --seed 7
  $ tetravex gen --size 8 --digits 2 --random --games 50 --seed 1 | tetravex --threads 1
  $ tetravex gen --size 8 --digits 5 --perturb --games 2 --seed 1 | tetravex

A search that runs for more than a second shows its progress on stderr when stderr is a
terminal (positions searched, positions per second, and for long searches an ETA from the
search's own estimate of its tree; for gen, the games made and the boards tried); nothing is
printed there otherwise.

gen --unsolvable, --perturb and --unique try up to --tries boards for each game; when they run
out, gen prints the games it made, says on stderr what to change, and exits with status 3.
Where the solver can need minutes or hours a game, gen warns, and refuses the checked kinds.

--part K/N searches part K of N of every game, so that a scheduler can run the N parts side by
side, anywhere: `tetravex merge` prints from their records exactly what one run prints.
  $ tetravex gen --size 6 --digits 6 --seed 3 | tetravex --part 1/2

{EXIT_STATUS_HELP}
{EXIT_OUT_OF_TRIES_HELP}"
    )
}
