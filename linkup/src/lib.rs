//! # Lianliankan (link-up)
//!
//! ```
//! use linkup::model::Rules;
//! use linkup::query::Solver;
//!
//! // One case in the judge's format: a 1×4 board, then two queries.
//! let input = "1 4\n5 0 0 5\n2\n1 1 1 4\n1 1 1 2\n0 0\n";
//! let cases = linkup::parse::cases(input.as_bytes())
//!     .map_err(|bad| bad.render("<input>", input.as_bytes()))?;
//! let mut solver = Solver::new(&cases[0].board, Rules::default());
//! let answers: Vec<bool> = cases[0].queries.iter().map(|&query| solver.joinable(query)).collect();
//! assert_eq!(answers, [true, false]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A board of n rows and m columns holds pieces, each of a kind (a positive integer; 0 is an
//! empty cell). Two pieces of one kind can be removed together when a line joins them that runs
//! horizontally and vertically over empty cells only and turns at most twice; the judge keeps
//! the line inside the board, the real game lets it run around the outside. Each query asks
//! whether the pieces at two cells could be removed together. Input and output follow the judge
//! HDU 1175 (format and decisions in README.md); boards up to 16 million cells are accepted.
//!
//! ## The crate by its jobs
//! - [`parse`] reads the input, [`model`] holds boards, queries, rules and lines.
//! - [`query`] answers the judge's queries ([`answer`] writes the answers).
//! - [`play`](mod@play) plays whole boards greedily, and replays the exact search's order
//!   ([`play()`] writes the games).
//! - [`clear`] is the exact search for an order of removals that clears a board (`--best`).
//! - `reference` holds the plain solvers the tests and benchmarks compare against; it is
//!   compiled only for them (the crate feature `reference`, which the crate's own
//!   dev-dependency turns on).
//! - [`gen`](mod@gen) makes instances, [`show`] and [`svg`] draw them.
//!
//! ## The algorithm
//! Reading dominates: a case holds up to sixteen million numbers, so [`parse`] reads the board
//! 64 bytes at a time with SWAR masks and no test per byte (several times the speed of the
//! general token reader). The binary reads and checks every case before it answers any, so bad
//! input is refused before the first search; the input's bytes are let go once read.
//!
//! A query with an empty cell, two kinds, or one cell twice is answered at once. Otherwise:
//! - with at most two turns ([`query::Index`]), every line is "along a row, down a column, along
//!   a row" or the same turned a quarter; the candidate columns are those both pieces reach
//!   along their rows, and each is checked in O(1) with prefix counts of blocked cells per row
//!   and per column. A query costs O(n + m) (a few probes on crowded boards), after one
//!   vectorised O(n·m) pass per case for the column counts (a row is counted when a query first
//!   needs it);
//! - with any other limit (`--turns K`), a breadth-first search by layers of straight lines
//!   ([`query::Sweep`]) reaches each (cell, axis) once: O(cells reached) per query.
//!
//! The plain breadth-first search over (cell, direction, turns) on the whole board stands beside
//! them in `reference`; `docs/benchmarks/linkup.md` records how the two compare.
//! [`play`](mod@play) plays whole boards for `solve`: greedy play pairs a piece by where the
//! lines from it stop (0 or 1 turn, without walking them), by checking each other piece of its
//! kind when few are left, or else by a sweep, which costs O(cells) once the board has emptied:
//! O(pieces × cells) at worst, as on large dense boards of few kinds. `--best` plays greedily
//! first and, where play does not clear the board, runs the exact search of [`clear`] on bit
//! boards (boards up to 60 × 60, any number of pieces): safe
//! moves, branching on the pairing of one kind, a relaxation that proves most hopeless deals at
//! once, a bounded table of hopeless positions, and a budget of work past which the board is
//! said to be undecided (or the bound on a position's memory, which the verdict names). It is
//! exponential at worst; `docs/benchmarks/linkup.md` at the repository root has the figures on
//! the real game's deals. With gravity ([`model::fall`]) pieces fall after each removal.

mod answers;
pub mod clear;
mod games;
pub mod r#gen;
pub mod model;
pub mod parse;
pub mod play;
pub mod query;
#[cfg(any(test, feature = "reference"))]
pub mod reference;
pub mod show;
pub mod svg;

use std::io;

use common::search::Progress;

pub use answers::Options;
pub use games::{PlayError, PlayOptions};
use model::Case;

/// Writes `YES` or `NO` for every query of `cases`, one per line, as the judge expects; with
/// `show`, each `YES` is followed by the line drawn (indented), and with `svg` a picture of it is
/// written into that folder.
///
/// Limits: the boards and queries [`parse`] accepts (at most [`model::MAX_CELLS`] cells and
/// [`model::MAX_QUERIES`] queries a case). Complexity: with at most two turns, O(n·m) per case
/// for the column counts, then O(n + m) per query (and O(m) for each row a query first needs);
/// with more turns, O(cells reached) per query. Fails only when a picture cannot be written;
/// never panics.
pub fn answer(cases: &[Case], options: Options, out: &mut Vec<u8>) -> io::Result<()> {
    answers::write(cases, options, out)
}

/// Plays the board of every case of `cases` (their queries are not answered), letting each go
/// once played: for case k, a line `Case k:`, the removals, one per line, then a line saying
/// how the game ended. Greedy play without drawings writes each removal as it is made (the
/// verdict, which counts them, comes last), so a large game's text is never held: put `out`
/// behind a buffer. Every write is of whole lines, so a buffer passes on whole lines only. With
/// `best`, greedy play comes first ([`play::best`]), and each case's search is a stage of `progress`
/// ([`Progress::default`] for none), which it tells its positions as it runs, with an estimate
/// of the positions its budget allows.
///
/// Limits: a board larger than [`PlayOptions::side_limit`] ([`play::MAX_SIDE`] on a side for
/// greedy play, [`clear::MAX_SIDE`] with `best`) stops the play with
/// [`PlayError::TooLargeToPlay`] or [`PlayError::TooLarge`] before anything is written.
/// Complexity: greedy play costs O(pieces × cells) per board at worst; the search of `best` is
/// exponential at worst and bounded by `budget` units of work per board (a board whose budget
/// runs out is reported undecided). Fails when the output or a picture cannot be written; never
/// panics.
pub fn play(
    cases: Vec<Case>,
    options: PlayOptions,
    progress: &Progress,
    out: &mut dyn io::Write,
) -> Result<(), PlayError> {
    games::play(cases, options, progress, out)
}
