//! # Jigsaw rectangle (Puzzle (II), UVa 519)
//!
//! ```
//! use common::search::Progress;
//! use common::Tokens;
//!
//! // Two blocks in the judge's format: a knob meets a hole; two knobs meet.
//! let input = "1 2\nFOFF\nFFFI\n1 2\nFOFF\nFFFO\n0 0\n";
//! let blocks = jigsaw::parse::blocks(&mut Tokens::new(input.as_bytes()))
//!     .map_err(|bad| bad.render("<input>", input.as_bytes()))?;
//! let mut out = Vec::new();
//! jigsaw::answer(&blocks, jigsaw::Options::default(), &Progress::default(), &mut out)?;
//! assert_eq!(String::from_utf8(out)?, "YES\nNO\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! n·m jigsaw pieces, each side flat (`F`), a knob (`O`) or a hole (`I`), must form an n×m
//! rectangle: flat sides exactly on its border, a knob meeting a hole at every inner joint.
//! Pieces keep their orientation, unless `--rotate` allows quarter turns. Is it possible?
//! Input and output follow the judge (format in README.md); rectangles up to 40×40 are accepted.
//!
//! ## The algorithm
//! Relabelled (`F` = 0, `O` = 1, `I` = 2, knob and hole exchanged on the left and top sides), a
//! jigsaw is an edge-matching puzzle with two inner labels and a fixed border, so [`solve`]
//! hands it to [`common::edge_match`], the search it shares with tetravex. Two labels and a
//! flat frame make pieces repeat heavily (at most 16 inner kinds, however large the rectangle), which is exactly where naive
//! search explodes: [`reference`](mod@reference) tries every interchangeable arrangement of a doomed partial
//! rectangle. In the order the checks cost:
//! - **before any search**: knobs and holes balance; every border class (corners, edge pieces
//!   of each side, inner pieces) has as many pieces as the rectangle has places for it; per
//!   side, knobs and holes balance across every row and column boundary; and the pieces of each
//!   border line (say, those with a flat right side) can be chained from corner to corner, an
//!   Euler-trail test. With `--rotate`, the frame pieces, each turned flat side out, must close
//!   into one ring instead ([`solve::frame_closes`]). These refute almost every broken block,
//!   even one broken by `swap`, which keeps every count per side;
//! - **per cell**, candidates come only from the table for the cell's known left and top labels
//!   and its border class (never a scan), over kinds of identical pieces with counts;
//! - **per placement**, O(1) counters: the pieces still to come must cover the open bottom
//!   edges; the unplaced pieces of a border line must stay connected to the line's open end
//!   (a wrong turn down the first or last column is refused at once, not rows later); and the
//!   pieces left for the rows above the bottom row must still split, by (top, bottom) pair,
//!   into rows whose last one meets the bottom row's tops;
//! - **per row**, a lookahead refuses a row whose pieces can no longer be chained;
//! - **per cell** (rectangles of 64 pieces or more), the candidates are tried plentiful kinds
//!   first (by the count of pieces left): a rectangle cut from a picture uses every kind in
//!   proportion, and spending the scarce kinds early leaves bottom rows no remaining pieces can
//!   fill, which on 32×32 rectangles cost tens of millions of nodes where this order mostly
//!   needs none beyond the cells;
//! - **per state**, a table of dead ends: the rest of the search depends only on the next cell,
//!   the open edges and the remaining counts, so a state that failed once is never searched
//!   again;
//! - **restarts**: a search for one solution runs under a node budget and, when it is spent,
//!   starts over in a fresh seeded candidate order with the next budget, keeping the dead
//!   ends. This cuts the heavy tail of solvable blocks where an early wrong piece hides under
//!   millions of fruitless nodes. The budgets double, except in the count order, where a run
//!   either goes through nearly at once or sinks: there they follow Luby's sequence in units
//!   of two nodes per cell, many short runs and a long one now and then.
//!
//! The worst case stays exponential (edge matching is NP-complete); `docs/benchmarks/jigsaw.md`
//! records how far the pruning carries in practice, with the nodes searched on each set.
//!
//! ## Limits
//! Rectangles up to [`model::MAX_SIDE`] × [`model::MAX_SIDE`] pieces; a larger size is refused
//! by the parser before anything is allocated for it.

pub mod r#gen;
pub mod model;
pub mod parse;
pub mod reference;
pub mod show;
pub mod solve;
pub mod svg;

use std::io::{self, Write};
use std::num::NonZeroUsize;
use std::path::Path;

use common::edge_match::Config;
use common::search::{Progress, count_text, settle};

use model::Blocks;

/// What to allow and print besides the judge's verdict, and how to search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options<'a> {
    /// Draw the assembled rectangle after each `YES`.
    pub show: bool,
    /// Allow pieces to be turned by quarter turns.
    pub rotate: bool,
    /// Print the number of assembled rectangles, counting up to this limit, instead of the
    /// verdict.
    pub count_limit: Option<u64>,
    /// Threads for long searches; `None` for every core. The answer is the same for any number.
    pub threads: Option<NonZeroUsize>,
    /// Write each block's pictures into this folder ([`svg::write_block`]).
    pub svg: Option<&'a Path>,
}

/// Writes the answer for every block, `YES` or `NO` on a line, exactly as the judge expects (or
/// with a count limit, `Block k: N solutions`). The searches report their work to `progress`
/// ([`Progress::default`] for none).
///
/// # Complexity
/// One [`solve::search_with`] per block: exponential in the number of pieces in the worst case.
///
/// # Panics
/// When a block is larger than [`model::MAX_SIDE`] a side, which the parser refuses.
///
/// # Errors
/// When `out` cannot be written, or the pictures of `options.svg` cannot be.
pub fn answer(blocks: &Blocks, options: Options, progress: &Progress, out: &mut dyn Write) -> io::Result<()> {
    let wants_assembly = options.show || options.svg.is_some();
    for (index, block) in blocks.iter().enumerate() {
        let (count, assembly) = settle(options.count_limit, wants_assembly, progress, |limit, progress| {
            let config = Config::new(limit).with_threads(options.threads).with_progress(progress);
            solve::search_with(&block, options.rotate, &config)
        });
        match count.zip(options.count_limit) {
            None => writeln!(out, "{}", if assembly.is_some() { "YES" } else { "NO" })?,
            Some((count, limit)) => writeln!(out, "Block {}: {}", index + 1, count_text(count, limit))?,
        }
        if let Some(assembly) = assembly.as_ref().filter(|_| options.show) {
            out.write_all(show::assembly(assembly).as_bytes())?;
        }
        if let Some(dir) = options.svg {
            svg::write_block(dir, index + 1, &block, assembly.as_ref())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use common::Tokens;

    use super::*;

    #[test]
    fn the_searches_report_their_work_to_the_callers_progress() {
        let input = "2 2\nFOIF\nFFOI\nOIFF\nIFFO\n0 0\n";
        let blocks = parse::blocks(&mut Tokens::new(input.as_bytes())).expect("a valid block");
        let progress = Progress::watched();
        let mut out = Vec::new();
        answer(&blocks, Options::default(), &progress, &mut out).expect("writing to memory");
        assert_eq!(out, b"YES\n");
        assert!(progress.nodes() > 0);
    }
}
