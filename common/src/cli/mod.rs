//! The binaries' command-line layer, behind the `cli` feature: only the binaries turn it on, so
//! a program that calls a puzzle library builds no argument parser and no terminal UI.
//!
//! Every binary has the same skeleton. Its `main` parses its arguments with [`parse_args`]
//! (clap, with the shape and the answers to mistakes every binary shares), then hands the work
//! to [`run`]; a solver reads its input with [`read_cases`], a generator ends with
//! [`generate`]:
//!
//! ```no_run
//! use std::io::Write;
//! use common::cli::{self, Cases, InputArg};
//!
//! const CASES: Cases = Cases { program: "digits", what: "digits", format: "digits 0-9" };
//! let input = InputArg { file: None }; // the `[FILE]` argument, from `cli::parse_args()`
//! let code = cli::run(|out| {
//!     let digits = cli::read_cases(&input, &CASES, |tokens, _| {
//!         let mut digits = Vec::new();
//!         while !tokens.is_at_end() {
//!             digits.push(tokens.number(0..=9, "a digit")?);
//!         }
//!         Ok(digits)
//!     }, Vec::len)?;
//!     writeln!(out, "{}", digits.len())?;
//!     Ok(())
//! });
//! ```
//!
//! The whole input is read and parsed before the first answer is written, so bad input never
//! leaves a partial answer on stdout. One idea per module:
//! - `command_line`: [`parse_args`], clap with the binaries' shared settings and its answers
//!   to a misspelt subcommand or a word too many;
//! - `args`: the arguments several binaries share ([`InputArg`], [`SeedArg`], [`SearchArgs`])
//!   and the number parsers that say what they want ([`at_least`], [`parse_threads`]);
//! - `reading`: [`read_cases`], the input read, parsed and its mistakes said;
//! - `generated`: [`generate`], [`generate_streamed`] and [`write_generated`], how a `gen`
//!   subcommand ends;
//! - `stdout`: standard output, checked before any work;
//! - `status`: how a [`Failure`] becomes the exit status and the line on stderr;
//! - `progress_line`: [`ProgressLine`], the live progress line on a terminal.

mod args;
mod command_line;
mod generated;
mod progress_line;
mod reading;
mod status;
mod stdout;

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

pub use args::{InputArg, SearchArgs, SeedArg, at_least, parse_threads};
pub use command_line::{HELP_WIDTH, parse_args};
pub use generated::{generate, generate_streamed, write_generated};
pub use progress_line::ProgressLine;
pub use reading::{Cases, read_cases, read_cases_keeping_input};
pub use status::{EXIT_INTERRUPTED, EXIT_OUT_OF_TRIES_HELP, EXIT_STATUS_HELP};

// The input and the failure at the paths they had when they lived here.
pub use crate::{Failure, Input};

/// Runs `body` with a buffered stdout and turns its outcome into the exit status documented
/// in [`EXIT_STATUS_HELP`]. Diagnostics go to stderr. A stdout that cannot be written (open
/// only for reading, a full device) ends the run before `body` starts, so no work is done and
/// no picture written for an answer nobody can receive.
pub fn run(body: impl FnOnce(&mut dyn Write) -> Result<(), Failure>) -> ExitCode {
    let outcome = stdout::standard_output().map_err(Failure::Output).and_then(|stdout| {
        let mut out = BufWriter::with_capacity(1 << 16, stdout);
        body(&mut out).and_then(|()| out.flush().map_err(Failure::Output))
    });
    ExitCode::from(status::report(outcome, &mut io::stderr().lock(), "output"))
}

/// Creates the folder of `--svg DIR`, when given, before any work is done.
///
/// # Errors
/// As [`crate::svg::create_dir`].
pub fn pictures_folder(dir: Option<&Path>) -> Result<(), Failure> {
    match dir {
        Some(dir) => crate::svg::create_dir(dir),
        None => Ok(()),
    }
}

/// True when standard output is a terminal (for colour in human-oriented views).
pub fn stdout_is_terminal() -> bool {
    io::stdout().is_terminal()
}
