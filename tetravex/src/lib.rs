//! # Gnome Tetravex
//!
//! ```
//! use common::search::Progress;
//! use common::Tokens;
//!
//! // Two games in the judge's format: a 2×2 game that fits, a 1×1 game that always does.
//! let input = "2\n5 9 1 4\n4 4 5 6\n6 8 5 4\n0 4 4 3\n1\n1 2 3 4\n0\n";
//! let games = tetravex::parse::games(&mut Tokens::new(input.as_bytes()))
//!     .map_err(|bad| bad.render("<input>", input.as_bytes()))?;
//! let mut out = Vec::new();
//! tetravex::answer(&games, tetravex::Options::default(), &Progress::default(), &mut out)?;
//! assert_eq!(String::from_utf8(out)?, "Game 1: Possible\n\nGame 2: Possible\n");
//!
//! // Or one game at a time, with the board found.
//! let game = games.iter().next().expect("two games");
//! let board = tetravex::solve::solve(&game).expect("a solution");
//! assert!(game.is_solution(&board));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! n×n square tiles, each cut by its diagonals into four triangles carrying digits 0–9, must be
//! placed on an n×n board without rotation so that touching triangles of neighbouring tiles
//! carry equal digits (the outer border is free). Is it possible? Input and output follow the
//! judge ZOJ 1008 (format in README.md); boards up to 16×16 are accepted.
//!
//! ## The algorithm
//! Tetravex is edge matching with equality as the fit and a free border, so [`solve`] hands it
//! to [`common::edge_match`], which it shares with the jigsaw crate. That search fills the board
//! row by row over *kinds* of tiles (identical tiles merged with a count, so interchangeable
//! tiles never multiply the work) and, per cell:
//! - takes candidates only from the list for the cell's (left digit, top digit), never scanning
//!   the tiles;
//! - checks in O(1) that the remaining tiles' top digits still cover the open bottom edges, and
//!   that the surplus of right-over-left and bottom-over-top digits of the remaining tiles still
//!   fits in the border cells left to fill (the border must carry exactly what the inside cannot
//!   pair up);
//! - remembers dead ends: the rest of the search depends only on the next cell, the open edge
//!   digits and the remaining counts, so a state that failed once is never searched again.
//!
//! When nearly every tile is distinct (the usual game with five or more digits), the same search
//! runs on bitsets of kinds, also chaining the next row under the bottoms placed so far; and since
//! an unsolvable game must be searched to the end, in a size that depends much on the side the
//! filling starts from, a long search first estimates the tree of each of the board's eight
//! symmetries by random walks and searches the smallest one, on every core.
//!
//! Looking for one solution, a long search is first restarted in random orders under small
//! growing node budgets (the engine's `restarts` module): on random games the time of one fixed
//! order is heavy-tailed, and a solution one order buries under millions of nodes another finds
//! at once. A board found so is checked; otherwise the complete search decides, so answers stay
//! exact, and the orders are seeded from the game, so they stay deterministic.
//!
//! The worst case stays exponential (the problem is NP-complete), but the dead-end table bounds
//! the work by the number of distinct states, which is what collapses few-digit games, the ones
//! where naive search explodes. [`reference`](mod@reference) is the plain row-major search beside it; the
//! crate's README records how the two compare.

pub mod band;
pub mod r#gen;
pub mod model;
pub mod parse;
pub mod parts;
pub mod reference;
pub mod show;
pub mod solve;
pub mod svg;

use std::io::{self, Write};
use std::num::NonZeroUsize;
use std::path::Path;

use common::edge_match::Config;
use common::search::{Progress, count_text, settle};

use model::Games;

/// What to print for each game besides the judge's verdict, and how to search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options<'a> {
    /// Draw a solved board after each verdict.
    pub show: bool,
    /// Print the number of solved boards, counting up to this limit, instead of the verdict.
    pub count_limit: Option<u64>,
    /// Threads for long searches; `None` for every core. The answer is the same for any number.
    pub threads: Option<NonZeroUsize>,
    /// Write each game's pictures into this folder ([`svg::write_game`]).
    pub svg: Option<&'a Path>,
}

/// Writes the answer for every game: `Game k: Possible` or `Game k: Impossible` (or the count),
/// games separated by a blank line, exactly as the judge expects. The searches report their
/// work to `progress` ([`Progress::default`] for none).
pub fn answer(games: &Games, options: Options, progress: &Progress, out: &mut dyn Write) -> io::Result<()> {
    let wants_board = options.show || options.svg.is_some();
    for (index, game) in games.iter().enumerate() {
        let number = index + 1;
        let (count, board) = settle(options.count_limit, wants_board, progress, |limit, progress| {
            solve::search_with(
                &game,
                &Config::new(limit).with_threads(options.threads).with_progress(progress),
            )
        });
        write_game(out, number, options, count, board.as_ref())?;
        if let Some(dir) = options.svg {
            svg::write_game(dir, number, &game, board.as_ref())?;
        }
    }
    Ok(())
}

/// Writes the answer of game `number` (from 1) as [`answer`] does, from its `count` (with a
/// count limit) and the `board` found: the blank line before every game but the first, the
/// verdict or the count, and with `options.show` the board.
fn write_game(
    out: &mut dyn Write,
    number: usize,
    options: Options,
    count: Option<u64>,
    board: Option<&model::Board>,
) -> io::Result<()> {
    if number > 1 {
        writeln!(out)?;
    }
    match count.zip(options.count_limit) {
        None => {
            let verdict = if board.is_some() { "Possible" } else { "Impossible" };
            writeln!(out, "Game {number}: {verdict}")?;
        }
        Some((count, limit)) => writeln!(out, "Game {number}: {}", count_text(count, limit))?,
    }
    if let Some(board) = board.filter(|_| options.show) {
        out.write_all(show::board(board).as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use common::Tokens;

    use super::*;

    #[test]
    fn the_searches_report_their_work_to_the_callers_progress() {
        let input = "2\n5 9 1 4\n4 4 5 6\n6 8 5 4\n0 4 4 3\n0\n";
        let games = parse::games(&mut Tokens::new(input.as_bytes())).expect("a valid game");
        let progress = Progress::watched();
        let options = Options { show: true, count_limit: Some(10), threads: None, svg: None };
        answer(&games, options, &progress, &mut Vec::new()).expect("writing to memory");
        assert!(progress.nodes() > 0, "the count and the search for a board to draw report nodes");
    }
}
