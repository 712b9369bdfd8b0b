//! Whole games written out for `solve`: for each case, its removals and how the game ended
//! ([`play`], behind [`crate::play()`]), greedy games streamed as they are played.

use std::io;
use std::path::Path;

use common::search::Progress;
use common::words::counted;

use crate::answers::indent;
use crate::clear::{self, Limit, TooLarge};
use crate::model::{self, Board, Case, Rules};
use crate::play::{self, Best, BestOutcome, Decider, Removal};
use crate::{parse, show, svg};

/// How to play whole boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayOptions<'a> {
    /// The rules a line must follow.
    pub rules: Rules,
    /// Pieces fall down their column after each removal (the real game's gravity variant).
    pub gravity: bool,
    /// Search for an order of removals that clears the board instead of playing greedily.
    pub best: bool,
    /// Most units of work the search of `best` may spend per board ([`clear::Settings::budget`]).
    pub budget: u64,
    /// Draw the board, then each removal's line on the board as it was.
    pub show: bool,
    /// Write a picture of each game into this folder ([`svg::write_game`]).
    pub svg: Option<&'a Path>,
}

impl Default for PlayOptions<'_> {
    fn default() -> Self {
        PlayOptions {
            rules: Rules::default(),
            gravity: false,
            best: false,
            budget: clear::DEFAULT_BUDGET,
            show: false,
            svg: None,
        }
    }
}

impl PlayOptions<'_> {
    /// Whether play has progress to report ([`crate::play()`]'s `progress`): the search of
    /// `best` reports its positions; greedy play has none to report (it is quick for its
    /// size, and its removals are on stdout), so a binary draws no progress line for it.
    pub fn reports_progress(&self) -> bool {
        self.best
    }

    /// The largest board these options can play: with `best`, what the search takes; without,
    /// what greedy play takes ([`play::MAX_SIDE`], [`play::MAX_CELLS`]).
    pub fn side_limit(&self) -> parse::SideLimit {
        if self.best {
            parse::SideLimit {
                side: clear::MAX_SIDE,
                cells: model::MAX_CELLS,
                set_by: Some("`solve --best`"),
            }
        } else {
            parse::SideLimit { side: play::MAX_SIDE, cells: play::MAX_CELLS, set_by: Some("`solve`") }
        }
    }
}

/// Why [`crate::play()`] stopped.
#[derive(Debug)]
pub enum PlayError {
    /// With `best`, case `case` (1-based) has a board larger than the search takes (read the
    /// input with [`PlayOptions::side_limit`] to refuse such boards where they stand).
    TooLarge {
        /// The case, 1-based.
        case: usize,
        /// Its board's size.
        too_large: TooLarge,
    },
    /// Without `best`, case `case` (1-based) has a board larger than greedy play takes,
    /// [`play::MAX_SIDE`] on a side (read the input with [`PlayOptions::side_limit`] to refuse
    /// such boards where they stand).
    TooLargeToPlay {
        /// The case, 1-based.
        case: usize,
        /// Its board's size.
        too_large: TooLarge,
    },
    /// A picture could not be written.
    Picture(io::Error),
    /// The output could not be written.
    Output(io::Error),
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::TooLarge { case, too_large } => write!(f, "case {case}: {too_large}"),
            PlayError::TooLargeToPlay { case, too_large: TooLarge { rows, cols } } => write!(
                f,
                "case {case}: `solve` plays boards of at most {side} rows and {side} columns, not {rows} by {cols}",
                side = play::MAX_SIDE
            ),
            PlayError::Picture(error) => write!(f, "cannot write a picture: {error}"),
            PlayError::Output(error) => write!(f, "cannot write the output: {error}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// [`crate::play()`]: the sizes checked first, then every case played and written in turn.
pub(crate) fn play(
    cases: Vec<Case>,
    options: PlayOptions,
    progress: &Progress,
    out: &mut dyn io::Write,
) -> Result<(), PlayError> {
    let limit = options.side_limit();
    // Both limits are square: a board within the side is within the cells.
    if let Some((index, case)) = cases
        .iter()
        .enumerate()
        .find(|(_, case)| case.board.rows() > limit.side || case.board.cols() > limit.side)
    {
        let (case, too_large) = (index + 1, TooLarge { rows: case.board.rows(), cols: case.board.cols() });
        return Err(if options.best {
            PlayError::TooLarge { case, too_large }
        } else {
            PlayError::TooLargeToPlay { case, too_large }
        });
    }
    for (number, case) in (1..).zip(cases) {
        write_line(out, format_args!("Case {number}:")).map_err(PlayError::Output)?;
        // A streamed game lets the board go once it has its own tables.
        if !options.best && !options.show && options.svg.is_none() {
            play_streamed(case, options, out).map_err(PlayError::Output)?;
            continue;
        }
        let (verdict, removals) = if options.best {
            progress.set_stage(|| format!("case {number}"));
            let settings =
                clear::Settings { rules: options.rules, gravity: options.gravity, budget: options.budget };
            let outcome = play::best_reporting(&case.board, settings, progress)
                .map_err(|too_large| PlayError::TooLarge { case: number, too_large })?;
            search_verdict(outcome)
        } else {
            let game = play::greedy(&case.board, options.rules, options.gravity);
            (greedy_verdict(game.removals.len(), game.pieces_left), game.removals)
        };
        write_removals(&case.board, options, &removals, out).map_err(PlayError::Output)?;
        write_line(out, format_args!("  {verdict}")).map_err(PlayError::Output)?;
        if let Some(dir) = options.svg {
            svg::write_game(dir, number, &case.board, &removals, options.gravity)
                .map_err(PlayError::Picture)?;
        }
    }
    Ok(())
}

/// Greedy play of `case` with nothing to draw: each removal is written into `out` as it is
/// made, then the verdict, which counts them; the game stops at the first failed write.
fn play_streamed(case: Case, options: PlayOptions, out: &mut dyn io::Write) -> io::Result<()> {
    let mut removals = 0;
    let pieces_left = play::greedy_each(case.board, options.rules, options.gravity, |removal| {
        removals += 1;
        write_removal(removals, &removal, out)
    })?;
    write_line(out, format_args!("  {}", greedy_verdict(removals, pieces_left)))
}

/// How `--best` ended, and the removals to print.
fn search_verdict(outcome: BestOutcome) -> (String, Vec<Removal>) {
    let positions = counted(outcome.positions, "position");
    match (outcome.best, outcome.by) {
        (Best::Cleared(removals), Decider::Play) => (
            format!(
                "board cleared in {} (greedy play, before any search)",
                counted(removals.len(), "removal")
            ),
            removals,
        ),
        (Best::Cleared(removals), Decider::Search) => (
            format!("board cleared in {} (search: {positions})", counted(removals.len(), "removal")),
            removals,
        ),
        (Best::Hopeless, _) => {
            (format!("no order of removals clears the board (search: {positions})"), Vec::new())
        }
        (Best::Undecided(limit), _) => {
            let work = counted(outcome.work, "unit");
            let why = match limit {
                Limit::Budget => "the budget; raise it with --budget".to_owned(),
                Limit::Pairs => format!(
                    "a position needs more than {} pairs, a bound of memory that --budget does not raise",
                    clear::MAX_EDGES
                ),
            };
            (format!("undecided after {positions}, {work} of work ({why})"), Vec::new())
        }
    }
}

/// How greedy play ended, after `removals` removals with `pieces_left` pieces left.
fn greedy_verdict(removals: usize, pieces_left: usize) -> String {
    let removals = counted(removals, "removal");
    if pieces_left == 0 {
        format!("board cleared in {removals}")
    } else {
        format!("stuck after {removals}, {} left", counted(pieces_left, "piece"))
    }
}

/// One line per removal; with `show`, the board first, and each line drawn on the board as it
/// was before it.
fn write_removals(
    board: &Board,
    options: PlayOptions,
    removals: &[Removal],
    out: &mut dyn io::Write,
) -> io::Result<()> {
    let mut board = options.show.then(|| board.clone());
    if let Some(board) = &board {
        out.write_all(indent("  ", &show::board(board)).as_bytes())?;
    }
    for (number, removal) in (1..).zip(removals) {
        write_removal(number, removal, out)?;
        if let Some(board) = &mut board {
            out.write_all(indent("    ", &show::line(board, &removal.line)).as_bytes())?;
            model::remove_pair(board, removal.a, removal.b, options.gravity);
        }
    }
    Ok(())
}

/// The line of removal `number` (1-based), written in one call (see [`write_line`]); made with
/// `itoa` on the stack, since it is written for each of up to half a million removals.
fn write_removal(number: usize, removal: &Removal, out: &mut dyn io::Write) -> io::Result<()> {
    let mut line = Line::default();
    let turns = removal.line.turns();
    line.push(b"  ").number(number as u64).push(b": (").number(removal.a.row as u64).push(b",");
    line.number(removal.a.col as u64).push(b") (").number(removal.b.row as u64).push(b",");
    line.number(removal.b.col as u64).push(b"), kind ").number(u64::from(removal.kind)).push(b", ");
    line.number(turns as u64).push(if turns == 1 { b" turn\n" } else { b" turns\n" });
    out.write_all(line.bytes())
}

/// A removal's line being made: at most a few numbers of 20 digits and some words.
struct Line {
    bytes: [u8; 192],
    len: usize,
}

impl Default for Line {
    fn default() -> Self {
        Line { bytes: [0; 192], len: 0 }
    }
}

impl Line {
    fn push(&mut self, text: &[u8]) -> &mut Line {
        self.bytes[self.len..self.len + text.len()].copy_from_slice(text);
        self.len += text.len();
        self
    }

    fn number(&mut self, number: u64) -> &mut Line {
        self.push(itoa::Buffer::new().format(number).as_bytes())
    }

    fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// Writes `text` and a line break into `out` in one call. `out` is a buffer in front of stdout
/// that passes on what it holds when the next write does not fit; written a whole line at a
/// time, it passes on whole lines only, so a run that Ctrl-C ends (which does not flush the
/// buffer) leaves stdout ending on a whole line.
fn write_line(out: &mut dyn io::Write, text: std::fmt::Arguments) -> io::Result<()> {
    let mut line = text.to_string();
    line.push('\n');
    out.write_all(line.as_bytes())
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// Played without drawing, each removal is written as it is made and the verdict after
    /// them: the same text as from the game kept whole, case after case.
    #[test]
    fn streamed_games_read_as_whole_ones() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let cases: Vec<Case> = (0..40)
            .map(|_| {
                let (rows, cols) = (rng.random_range(1..=14), rng.random_range(1..=14));
                let (density, kinds) = (rng.random_range(0.1..=1.0), rng.random_range(1..=9));
                Case { board: crate::r#gen::board(rows, cols, density, kinds, &mut rng), queries: Vec::new() }
            })
            .collect();
        for gravity in [false, true] {
            let options = PlayOptions { gravity, ..PlayOptions::default() };
            let mut streamed = Vec::new();
            play(cases.clone(), options, &Progress::default(), &mut streamed).expect("small boards");
            let mut whole = Vec::new();
            for (number, case) in (1..).zip(&cases) {
                let game = play::greedy(&case.board, options.rules, gravity);
                let verdict = greedy_verdict(game.removals.len(), game.pieces_left);
                let _ = writeln!(whole, "Case {number}:");
                write_removals(&case.board, options, &game.removals, &mut whole).expect("into memory");
                let _ = writeln!(whole, "  {verdict}");
            }
            assert_eq!(String::from_utf8(streamed), String::from_utf8(whole), "gravity {gravity}");
        }
    }

    /// An output that records what each write was given.
    #[derive(Default)]
    struct Writes(Vec<Vec<u8>>);

    impl io::Write for Writes {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.push(bytes.to_vec());
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Every write of a game is of whole lines, greedy or searched, drawn or not: a buffer in
    /// front of stdout then only ever passes on whole lines, so an interrupted run ends on one.
    #[test]
    fn games_are_written_a_whole_line_at_a_time() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let cases: Vec<Case> = (0..6)
            .map(|_| Case { board: crate::r#gen::board(6, 7, 0.8, 4, &mut rng), queries: Vec::new() })
            .collect();
        for (best, show) in [(false, false), (false, true), (true, false), (true, true)] {
            let options = PlayOptions { best, show, ..PlayOptions::default() };
            let mut writes = Writes::default();
            play(cases.clone(), options, &Progress::default(), &mut writes).expect("small boards");
            assert!(writes.0.len() > cases.len() * 2, "best {best} show {show}");
            for write in &writes.0 {
                assert_eq!(
                    write.last(),
                    Some(&b'\n'),
                    "best {best} show {show}: {:?}",
                    String::from_utf8_lossy(write)
                );
            }
        }
    }

    /// An output that takes `room` bytes, then fails every write, counting them.
    struct FullAfter {
        room: usize,
        failed_writes: usize,
    }

    impl io::Write for FullAfter {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                self.failed_writes += 1;
                return Err(io::Error::from(io::ErrorKind::BrokenPipe));
            }
            let taken = bytes.len().min(self.room);
            self.room -= taken;
            Ok(taken)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// When the output fails (a closed pipe), streamed play stops at once with the error
    /// instead of playing on to the end of the game.
    #[test]
    fn streamed_play_stops_at_the_first_failed_write() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let case = Case { board: crate::r#gen::board(30, 30, 1.0, 4, &mut rng), queries: Vec::new() };
        let mut out = FullAfter { room: 200, failed_writes: 0 };
        let error = play(vec![case], PlayOptions::default(), &Progress::default(), &mut out)
            .expect_err("the output fills");
        assert!(matches!(&error, PlayError::Output(error) if error.kind() == io::ErrorKind::BrokenPipe));
        assert_eq!(out.failed_writes, 1);
    }

    /// Greedy play refuses a board larger than it takes before playing any case.
    #[test]
    fn greedy_play_refuses_boards_beyond_its_side() {
        let small = Case { board: Board::from_vec(1, 2, vec![5, 5]), queries: Vec::new() };
        let large = Case {
            board: Board::from_vec(play::MAX_SIDE + 1, 1, vec![0; play::MAX_SIDE + 1]),
            queries: Vec::new(),
        };
        let mut out = Vec::new();
        let error = play(vec![small, large], PlayOptions::default(), &Progress::default(), &mut out)
            .expect_err("the second board is too large");
        assert!(matches!(error, PlayError::TooLargeToPlay { case: 2, .. }), "{error}");
        assert!(out.is_empty(), "nothing played");
        assert_eq!(
            error.to_string(),
            format!(
                "case 2: `solve` plays boards of at most 1000 rows and 1000 columns, not {} by 1",
                play::MAX_SIDE + 1
            )
        );
    }
}
