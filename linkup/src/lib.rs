//! # Lianliankan (link-up)
//!
//! A board of n rows and m columns holds pieces, each of a kind (a positive integer; 0 is an
//! empty cell). Two pieces of one kind can be removed together when a line joins them that runs
//! horizontally and vertically over empty cells only and turns at most twice; the judge keeps
//! the line inside the board, the real game lets it run around the outside. Each query asks
//! whether the pieces at two cells could be removed together. Input and output follow the judge
//! HDU 1175 (format and decisions in README.md); boards up to 16 million cells are accepted.
//!
//! ## The algorithm
//! Reading dominates: a case holds up to sixteen million numbers, so [`parse`] reads the board
//! 64 bytes at a time with SWAR masks and no test per byte (five to seven times the speed of the
//! general token reader). The binary reads and checks every case before it answers any, so bad
//! input is refused before the first search; the input's bytes are let go once read.
//!
//! A query with an empty cell, two kinds, or one cell twice is answered at once. Otherwise:
//! - with at most two turns ([`solve::Index`]), every line is "along a row, down a column, along
//!   a row" or the same turned a quarter; the candidate columns are those both pieces reach
//!   along their rows, and each is checked in O(1) with prefix counts of blocked cells per row
//!   and per column. A query costs O(n + m) (a few probes on crowded boards), after one
//!   vectorised O(n·m) pass per case for the column counts (a row is counted when a query first
//!   needs it);
//! - with any other limit (`--turns K`), a breadth-first search by layers of straight lines
//!   ([`solve::Sweep`]) reaches each (cell, axis) once: O(cells reached) per query.
//!
//! [`reference`](mod@reference) is the plain breadth-first search over (cell, direction,
//! turns) on the whole board beside it; the crate's README records how the two compare.
//! [`play`](mod@play) plays whole boards for `solve`: greedy play pairs a piece by where the
//! lines from it stop (0 or 1 turn, without walking them), by checking each other piece of its
//! kind when few are left, or else by a sweep, which costs O(cells) once the board has emptied:
//! O(pieces × cells) at worst, as on large dense boards of few kinds. `--best` runs the
//! exact search of [`clear`] on bit boards (boards up to 60 × 60, any number of pieces): safe
//! moves, branching on the pairing of one kind, a relaxation that proves most hopeless deals at
//! once, a bounded table of hopeless positions, and a budget of positions past which the board
//! is said to be undecided. It is exponential at worst; the crate's README has the figures on
//! the real game's deals. With gravity ([`model::fall`]) pieces fall after each removal.

pub mod clear;
pub mod r#gen;
pub mod model;
pub mod parse;
pub mod play;
pub mod reference;
pub mod show;
pub mod solve;

use std::fmt::Write as _;

use clear::TooLarge;
use common::words::counted;
use model::{Board, Case, Rules};
use play::{Best, Removal};
use solve::{Solver, Tables};

/// How to answer queries.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// The rules a line must follow.
    pub rules: Rules,
    /// Draw the joining line after each `YES`.
    pub show: bool,
}

/// Writes `YES` or `NO` for every query of `cases`, one per line, as the judge expects; with
/// `show`, each `YES` is followed by the line drawn (indented).
pub fn answer(cases: &[Case], options: Options, out: &mut Vec<u8>) {
    let mut tables = Tables::default();
    for case in cases {
        let mut solver = Solver::with_tables(&case.board, options.rules, tables);
        for &query in &case.queries {
            if !options.show {
                out.extend_from_slice(if solver.joinable(query) { b"YES\n" } else { b"NO\n" });
            } else if let Some(line) = solver.line(query) {
                out.extend_from_slice(b"YES\n");
                out.extend_from_slice(indent("  ", &show::line(&case.board, &line)).as_bytes());
            } else {
                out.extend_from_slice(b"NO\n");
            }
        }
        tables = solver.into_tables();
    }
}

/// How to play whole boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayOptions {
    /// The rules a line must follow.
    pub rules: Rules,
    /// Pieces fall down their column after each removal (the real game's gravity variant).
    pub gravity: bool,
    /// Search for an order of removals that clears the board instead of playing greedily.
    pub best: bool,
    /// Most positions the search of `best` may visit per board.
    pub budget: u64,
    /// Draw the board, then each removal's line on the board as it was.
    pub show: bool,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            rules: Rules::default(),
            gravity: false,
            best: false,
            budget: clear::DEFAULT_BUDGET,
            show: false,
        }
    }
}

/// Why [`play()`] stopped: with `best`, a case whose board is larger than the search takes
/// (read the input with [`PlayOptions::side_limit`] to refuse such boards where they stand).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayError {
    /// The case, 1-based.
    pub case: usize,
    /// Its board's size.
    pub too_large: TooLarge,
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "case {}: {}", self.case, self.too_large)
    }
}

impl std::error::Error for PlayError {}

impl PlayOptions {
    /// The largest board these options can play: with `best`, what the search takes.
    pub fn side_limit(&self) -> parse::SideLimit {
        if self.best {
            parse::SideLimit { side: clear::MAX_SIDE, set_by: Some("`solve --best`") }
        } else {
            parse::SideLimit::FORMAT
        }
    }
}

/// Plays the board of every case of `cases` (their queries are not answered): for case k, a
/// line `Case k: ...` saying how the game ended, then the removals, one per line. With `best`,
/// a board larger than [`PlayOptions::side_limit`] stops the play before any search.
pub fn play(cases: &[Case], options: PlayOptions, out: &mut Vec<u8>) -> Result<(), PlayError> {
    let limit = options.side_limit();
    if let Some((index, case)) = cases
        .iter()
        .enumerate()
        .find(|(_, case)| case.board.rows() > limit.side || case.board.cols() > limit.side)
    {
        let too_large = TooLarge { rows: case.board.rows(), cols: case.board.cols() };
        return Err(PlayError { case: index + 1, too_large });
    }
    // On a terminal, the case being searched (drawn on stderr; hidden when it is no terminal).
    let progress = options.best.then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        bar
    });
    for (number, case) in (1..).zip(cases) {
        if let Some(bar) = &progress {
            bar.set_message(format!("searching case {number}"));
        }
        let (verdict, removals) = if options.best {
            let settings =
                clear::Settings { rules: options.rules, gravity: options.gravity, budget: options.budget };
            let outcome = play::best(&case.board, settings)
                .map_err(|too_large| PlayError { case: number, too_large })?;
            search_verdict(outcome)
        } else {
            greedy_verdict(play::greedy(&case.board, options.rules, options.gravity))
        };
        let mut text = format!("Case {number}: {verdict}\n");
        write_removals(&case.board, options, &removals, &mut text);
        out.extend_from_slice(text.as_bytes());
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    Ok(())
}

/// How the search of `--best` ended, and the removals to print.
fn search_verdict(outcome: play::BestOutcome) -> (String, Vec<Removal>) {
    let positions = counted(outcome.positions, "position");
    match outcome.best {
        Best::Cleared(removals) => (
            format!("board cleared in {} (search: {positions})", counted(removals.len(), "removal")),
            removals,
        ),
        Best::Hopeless => {
            (format!("no order of removals clears the board (search: {positions})"), Vec::new())
        }
        Best::Undecided => {
            (format!("undecided after {positions} (the budget; raise it with --budget)"), Vec::new())
        }
    }
}

/// How greedy play ended, and its removals.
fn greedy_verdict(game: play::Game) -> (String, Vec<Removal>) {
    let removals = counted(game.removals.len(), "removal");
    let verdict = if game.pieces_left == 0 {
        format!("board cleared in {removals}")
    } else {
        format!("stuck after {removals}, {} left", counted(game.pieces_left, "piece"))
    };
    (verdict, game.removals)
}

/// One line per removal; with `show`, the board first, and each line drawn on the board as it
/// was before it.
fn write_removals(board: &Board, options: PlayOptions, removals: &[Removal], text: &mut String) {
    let mut board = board.clone();
    if options.show {
        text.push_str(&indent("  ", &show::board(&board)));
    }
    for (index, removal) in removals.iter().enumerate() {
        let turns = removal.line.turns();
        let _ = writeln!(
            text,
            "  {}: ({},{}) ({},{}), kind {}, {}",
            index + 1,
            removal.a.row,
            removal.a.col,
            removal.b.row,
            removal.b.col,
            removal.kind,
            counted(turns, "turn")
        );
        if options.show {
            text.push_str(&indent("    ", &show::line(&board, &removal.line)));
            model::remove_pair(&mut board, removal.a, removal.b, options.gravity);
        }
    }
}

/// `text` with `prefix` before every line.
fn indent(prefix: &str, text: &str) -> String {
    text.lines().fold(String::new(), |mut out, line| {
        let _ = writeln!(out, "{prefix}{line}");
        out
    })
}
