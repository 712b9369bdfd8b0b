//! # Jigsaw rectangle (Puzzle (II), UVa 519)
//!
//! n·m jigsaw pieces, each side flat (`F`), a knob (`O`) or a hole (`I`), must form an n×m
//! rectangle: flat sides exactly on its border, a knob meeting a hole at every inner joint.
//! Pieces keep their orientation, unless `--rotate` allows quarter turns. Is it possible?
//! Input and output follow the judge (`specs/jigsaw.md`); rectangles up to 12×12 are accepted.
//!
//! ## The algorithm
//! Relabelled (`F` = 0, `O` = 1, `I` = 2, knob and hole exchanged on the left and top sides), a
//! jigsaw is an edge-matching puzzle with two inner labels and a fixed border, so [`solve`]
//! hands it to [`common::edge_match`], the search it shares with tetravex. Two inner labels and
//! a flat frame make pieces repeat heavily (at most 16 inner kinds), which is exactly where
//! naive search explodes: [`reference`] may try each of the many interchangeable arrangements
//! of a doomed partial rectangle. The shared search, in the order its checks cost:
//! - **at the root**, the counting checks: per side, flat sides exactly as many as the border
//!   has, and knobs balancing holes across every row and column boundary;
//! - **per cell**, candidates only from the table for the cell's known left and top labels and
//!   its border class (never a scan), over kinds of identical pieces with counts;
//! - **per placement**, O(1) counters: the pieces still to come must still cover the open
//!   bottom edges, the surplus of right over left (bottom over top) labels must fit the border
//!   cells left, and the pieces of the last column, of the first column and of the bottom row
//!   must still be able to form their chains from the open end to the corner (the trail
//!   balance of each border line);
//! - **per row**, a lookahead that refuses a row whose pieces can no longer be chained;
//! - **per state**, a table of dead ends: the rest of the search depends only on the next cell,
//!   the open edges and the remaining counts, so a state that failed once is never searched
//!   again.
//!
//! The worst case stays exponential (edge matching is NP-complete); the crate's README records
//! how far the pruning carries in practice.

pub mod r#gen;
pub mod model;
pub mod parse;
pub mod reference;
pub mod show;
pub mod solve;

use std::io::{self, Write};

use model::Block;

/// What to allow and print besides the judge's verdict.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Draw the assembled rectangle after each `YES`.
    pub show: bool,
    /// Allow pieces to be turned by quarter turns.
    pub rotate: bool,
}

/// Writes the answer for every block, `YES` or `NO` on a line, exactly as the judge expects.
pub fn answer(blocks: &[Block], options: Options, out: &mut dyn Write) -> io::Result<()> {
    for block in blocks {
        match solve::solve(block, options.rotate) {
            Some(assembly) => {
                writeln!(out, "YES")?;
                if options.show {
                    out.write_all(show::assembly(&assembly).as_bytes())?;
                }
            }
            None => writeln!(out, "NO")?,
        }
    }
    Ok(())
}
