//! What every puzzlebox puzzle shares.
//!
//! - [`tokens`]: a nom-based reader of whitespace-separated tokens over raw bytes that knows the
//!   byte offset of every token, so any error can be reported at its line and column.
//! - [`diagnostic`]: the error type for bad input and its rendering with file, line, column and
//!   a caret under the offending token, as [`Diagnostic::render`] shows.
//! - [`grid`]: [`Grid<T>`](grid::Grid), a row-major rectangle with row, column and neighbour access.
//! - [`cli`]: the plumbing every binary needs: read FILE or stdin, parse everything before
//!   answering, buffered stdout, exit codes, quiet on a broken pipe, seeded generators.
//! - [`edge_match`]: the search shared by the two edge-matching puzzles, tetravex and jigsaw.
//! - [`flat`]: [`FlatGroups`](flat::FlatGroups), many small groups (games, blocks) stored flat,
//!   so that an input of millions of tiny games takes a fraction of its size in memory.
//! - [`search`]: what a search reports, its outcome and its [`Progress`](search::Progress), an
//!   observer the caller passes in; the libraries never write to stderr.
//! - [`progress_line`]: the binaries' live progress line on stderr, which reads that report.
//! - [`svg`]: the pictures of `--svg DIR`: an SVG writer, the palette, the files.
//! - [`words`]: counts in messages with the noun in the right number ("1 move", "2 moves").
//!
//! With the `testing` feature, which only the puzzle crates' dev-dependencies turn on, three
//! modules serve their tests: `cases`, the harness that runs a puzzle binary on a snapshot test
//! case; `examples`, which runs every example the READMEs and `--help` texts print; and
//! `round_trip`, the check that a parser and a printer of the judge format agree.

#[cfg(feature = "testing")]
pub mod cases;
pub mod cli;
pub mod diagnostic;
pub mod edge_match;
#[cfg(feature = "testing")]
pub mod examples;
pub mod flat;
pub mod grid;
pub mod progress_line;
#[cfg(feature = "testing")]
pub mod round_trip;
pub mod search;
pub mod svg;
pub mod tokens;
pub mod words;

pub use diagnostic::Diagnostic;
pub use grid::{Direction, Grid, Pos};
pub use tokens::{Token, Tokens};
