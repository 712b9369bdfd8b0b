//! What every puzzlebox puzzle shares.
//!
//! - [`tokens`]: a nom-based reader of whitespace-separated tokens over raw bytes that knows the
//!   byte offset of every token, so any error can be reported at its line and column.
//! - [`lines`]: [`LineRecords`], the check of formats that write one record a line, read as a
//!   stream of tokens all the same.
//! - [`diagnostic`]: the error type for bad input and its rendering with file, line, column and
//!   a caret under the offending token, as [`Diagnostic::render`] shows.
//! - [`input`]: [`Input`], a judge-format input read whole from a file or stdin; [`failure`]:
//!   [`Failure`], why a run ended early.
//! - [`grid`]: [`Grid<T>`](grid::Grid), a row-major rectangle with row, column and neighbour access.
//! - [`edge_match`]: the search shared by the two edge-matching puzzles, tetravex and jigsaw.
//! - [`flat`]: [`FlatGroups`](flat::FlatGroups), many small groups (games, blocks) stored flat,
//!   so that an input of millions of tiny games takes a fraction of its size in memory.
//! - [`search`]: what a search reports, its outcome and its [`Progress`](search::Progress), an
//!   observer the caller passes in; how generators draw what a search accepts; Luby's sequence.
//!   The libraries never draw progress themselves.
//! - [`notes`]: what a library says in the middle of its work (what its pictures left out),
//!   routed by the binary above its progress line.
//! - [`svg`]: the pictures of `--svg DIR`: an SVG writer, the palette, the files.
//! - [`words`]: counts in messages with the noun in the right number ("1 move", "2 moves").
//!
//! # Features
//! - `cli`: the binaries' command-line layer, `cli` (arguments with clap, the live progress line
//!   with indicatif, ctrlc and console, exit statuses). Only the puzzle crates' binaries turn it
//!   on, through their own default feature `cli`: a program that depends on a puzzle library
//!   with `default-features = false` builds none of it. `cargo tree -p tetravex -e normal
//!   --no-default-features` shows what such a program builds.
//! - `testing`, which only the puzzle crates' dev-dependencies turn on: three modules that serve
//!   their tests: `cases`, the harness that runs a puzzle binary on a snapshot test case;
//!   `examples`, which runs every example the READMEs and `--help` texts print; and
//!   `round_trip`, the check that a parser and a printer of the judge format agree.
//! - `render`: the pictures rendered to pixels, for the tests of `--svg`.

#[cfg(feature = "testing")]
pub mod cases;
#[cfg(feature = "cli")]
pub mod cli;
pub mod diagnostic;
pub mod edge_match;
#[cfg(feature = "testing")]
pub mod examples;
pub mod failure;
pub mod flat;
pub mod grid;
pub mod input;
pub mod lines;
pub mod notes;
#[cfg(feature = "testing")]
pub mod round_trip;
pub mod search;
pub mod svg;
pub mod tokens;
pub mod words;

pub use diagnostic::Diagnostic;
pub use failure::Failure;
pub use grid::{Direction, Grid, Pos};
pub use input::Input;
pub use lines::LineRecords;
pub use tokens::{Token, Tokens};
