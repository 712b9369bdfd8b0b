//! Generated boards and queries for `gen`, the benchmarks and the property tests.
//!
//! A board holds an even number of pieces, about `density` of its cells, placed at random and dealt
//! out in pairs of one random kind each, so that every kind has an even count. A *deal* (`--copies
//! C`) is the real game's: a full board with exactly C pieces of every kind, placed uniformly at
//! random. With `--solvable`, boards are drawn until one is found clearable as `solve --best` finds
//! it, by greedy play or else the exact search (up to a number of tries). Queries mix pairs of pieces of one kind (each piece with another of its kind),
//! pairs of random pieces (mostly of different kinds), and pairs with an empty cell.

use std::collections::HashMap;
use std::io::{self, Write};

use common::Pos;
use common::search::{Draws, Progress};
use rand::RngExt;

use crate::clear::{self, Settings};
use crate::model::{Board, Case, EMPTY, Kind, MAX_CELLS, MAX_SIDE, Query};
use crate::play;

/// Boards drawn for one case of `--solvable` before giving up, unless `--tries` says
/// otherwise. Most boards are decided quickly, but one the search cannot decide spends the
/// whole budget, so the default bounds the wait on the real game's deals.
pub const DEFAULT_TRIES: u64 = 100;

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// Rows, 1..=[`MAX_SIDE`].
    pub rows: usize,
    /// Columns, 1..=[`MAX_SIDE`], with rows × columns at most [`MAX_CELLS`].
    pub cols: usize,
    /// The share of cells holding a piece, 0 to 1 (unless `copies` is given).
    pub density: f64,
    /// Deal a full board with exactly this many pieces of every kind (even).
    pub copies: Option<usize>,
    /// Only boards found clearable under these settings, as `solve --best` finds them (greedy
    /// play, then the exact search).
    pub solvable: Option<Settings>,
    /// Kinds 1..=`kinds` are dealt.
    pub kinds: Kind,
    /// Queries per case.
    pub queries: usize,
    /// Number of cases.
    pub cases: usize,
    /// With `solvable`, boards drawn for each case before giving up, at least 1.
    pub tries: u64,
}

impl Options {
    /// Checks the ranges documented on the fields.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=MAX_SIDE).contains(&self.rows) || !(1..=MAX_SIDE).contains(&self.cols) {
            return Err(format!("rows and columns must be from 1 to {MAX_SIDE}"));
        }
        if self.rows * self.cols > MAX_CELLS {
            return Err(format!("a board holds at most {MAX_CELLS} cells, not {}", self.rows * self.cols));
        }
        if !(0.0..=1.0).contains(&self.density) {
            return Err(format!("the density must be from 0 to 1, not {}", self.density));
        }
        if self.kinds == 0 {
            return Err("at least one kind is needed".to_owned());
        }
        if let Some(copies) = self.copies {
            if copies == 0 || copies % 2 == 1 {
                return Err(format!("--copies must be even and at least 2, not {copies}"));
            }
            let cells = self.rows * self.cols;
            if (self.kinds as usize).checked_mul(copies) != Some(cells) {
                return Err(format!(
                    "a deal of {} × {copies} copies does not fill {} × {} = {cells} cells",
                    common::words::counted(self.kinds, "kind"),
                    self.rows,
                    self.cols
                ));
            }
        }
        if self.solvable.is_some() && (self.rows > clear::MAX_SIDE || self.cols > clear::MAX_SIDE) {
            return Err(format!(
                "--solvable takes boards of at most {0} rows and {0} columns",
                clear::MAX_SIDE
            ));
        }
        Ok(())
    }
}

/// A board of `rows × cols` with about `density` of its cells holding pieces, in pairs of kinds
/// drawn from 1..=`kinds`. O(rows × cols) time and memory. Panics when the board has more than
/// `u32::MAX` cells or `kinds` is 0 with pieces to deal.
pub fn board(rows: usize, cols: usize, density: f64, kinds: Kind, rng: &mut impl rand::Rng) -> Board {
    let cells = rows * cols;
    let cells_f64 = f64::from(u32::try_from(cells).expect("a board holds at most 16 million cells"));
    let pieces = ((density * cells_f64).round() as usize).min(cells) / 2 * 2;
    // A partial Fisher–Yates shuffle: the first `pieces` entries are a uniform random choice.
    let mut order: Vec<u32> = (0..cells as u32).collect();
    for chosen in 0..pieces {
        let pick = rng.random_range(chosen..cells);
        order.swap(chosen, pick);
    }
    let mut board = vec![EMPTY; cells];
    for pair in order[..pieces].chunks_exact(2) {
        let kind = rng.random_range(1..=kinds);
        board[pair[0] as usize] = kind;
        board[pair[1] as usize] = kind;
    }
    Board::from_vec(rows, cols, board)
}

/// The real game's deal: a full `rows × cols` board holding exactly `copies` pieces of each of
/// the kinds 1..=`kinds` (rows × cols must equal kinds × copies), placed uniformly at random.
/// O(rows × cols). Panics when the counts differ ([`Options::check`] refuses such options).
pub fn deal(rows: usize, cols: usize, kinds: Kind, copies: usize, rng: &mut impl rand::Rng) -> Board {
    let mut cells: Vec<Kind> = (1..=kinds).flat_map(|kind| std::iter::repeat_n(kind, copies)).collect();
    debug_assert_eq!(cells.len(), rows * cols);
    for chosen in (1..cells.len()).rev() {
        let pick = rng.random_range(0..=chosen);
        cells.swap(chosen, pick);
    }
    Board::from_vec(rows, cols, cells)
}

/// `count` queries on `board`: half of them two pieces of one kind, three tenths two random
/// pieces, one fifth an empty cell and a random cell (random cells where the board has too few
/// pieces or no empty cell). O(cells + count). Panics on a board without cells.
pub fn queries(board: &Board, count: usize, rng: &mut impl rand::Rng) -> Vec<Query> {
    let cells = board.cells();
    let pieces: Vec<usize> = (0..cells.len()).filter(|&cell| cells[cell] != EMPTY).collect();
    let empties: Vec<usize> = (0..cells.len()).filter(|&cell| cells[cell] == EMPTY).collect();
    let mut by_kind: HashMap<Kind, Vec<usize>> = HashMap::new();
    for &cell in &pieces {
        by_kind.entry(cells[cell]).or_default().push(cell);
    }
    let pos = |cell: usize| Pos::new(cell / board.cols() + 1, cell % board.cols() + 1);
    (0..count)
        .map(|_| {
            let roll = rng.random_range(0..10);
            let (a, b) = if roll < 5 && pieces.len() >= 2 {
                let a = pieces[rng.random_range(0..pieces.len())];
                // Another piece of `a`'s kind (`a` appears once among them; kinds come in pairs).
                let mates = &by_kind[&cells[a]];
                let others = mates.len() - 1;
                let pick = rng.random_range(0..others.max(1));
                (a, if mates[pick] == a { mates[others] } else { mates[pick] })
            } else if roll < 8 && pieces.len() >= 2 {
                (pieces[rng.random_range(0..pieces.len())], pieces[rng.random_range(0..pieces.len())])
            } else if !empties.is_empty() {
                (empties[rng.random_range(0..empties.len())], rng.random_range(0..cells.len()))
            } else {
                (rng.random_range(0..cells.len()), rng.random_range(0..cells.len()))
            };
            if rng.random_range(0..2) == 0 {
                Query { a: pos(a), b: pos(b) }
            } else {
                Query { a: pos(b), b: pos(a) }
            }
        })
        .collect()
}

/// One generated board: a deal with `copies`, else a board of `density`.
fn any_board(options: &Options, rng: &mut impl rand::Rng) -> Board {
    match options.copies {
        Some(copies) => deal(options.rows, options.cols, options.kinds, copies, rng),
        None => board(options.rows, options.cols, options.density, options.kinds, rng),
    }
}

/// One generated case; with `solvable`, the first board drawn found clearable (by greedy play,
/// else by the search), or what to change when none is within `options.tries`. Options must pass
/// [`Options::check`]. Without `solvable`, O(rows × cols + queries); with it, up to `tries`
/// games and searches of at most their budget of work each.
pub fn case(options: &Options, rng: &mut impl rand::Rng) -> Result<Case, String> {
    case_reporting(options, 0, rng, &Progress::default())
}

/// [`case`] as case `index` (from 0) of `options.cases`, reporting the boards tried and the
/// positions searched to `progress`.
pub fn case_reporting(
    options: &Options,
    index: usize,
    rng: &mut impl rand::Rng,
    progress: &Progress,
) -> Result<Case, String> {
    let board = match options.solvable {
        None => any_board(options, rng),
        Some(settings) => {
            let draws = Draws {
                wanted: options.cases,
                tries: options.tries,
                item: "case",
                candidate: "board",
                advice: "few boards drawn so can be cleared, or the search cannot decide them \
                         within --budget: try --outside, a lower --density, a smaller board or a \
                         higher --budget, or more --tries",
            };
            // As `solve --best` decides: greedy play, then the search where play does not clear.
            let clearable = |board: &Board| play::clears(board, settings, progress).unwrap_or(false);
            let draw = || Some(any_board(options, rng));
            draws.draw(index, progress, draw, clearable).ok_or_else(|| draws.shortfall(index))?
        }
    };
    let queries = queries(&board, options.queries, rng);
    Ok(Case { board, queries })
}

/// Why [`write`](fn@write) failed.
#[derive(Debug)]
pub enum WriteError {
    /// `--solvable` ran out of tries: the cases made before were written, then the end of the
    /// input. What to change.
    OutOfTries(String),
    /// The output could not be written.
    Io(io::Error),
}

/// Writes `options.cases` generated cases in the input format, with the terminating `0 0`,
/// generating one case at a time (so memory holds one case), reporting to `progress` as
/// [`case_reporting`] does. Options must pass [`Options::check`]; the cost is that of [`case`]
/// per case. Stops at the first case out of tries or the first failed write.
pub fn write(
    options: &Options,
    rng: &mut impl rand::Rng,
    progress: &Progress,
    out: &mut dyn Write,
) -> Result<(), WriteError> {
    let mut text = Vec::new();
    for index in 0..options.cases {
        text.clear();
        match case_reporting(options, index, rng, progress) {
            Ok(case) => write_case(&case, &mut text),
            Err(why) => {
                out.write_all(b"0 0\n").map_err(WriteError::Io)?;
                return Err(WriteError::OutOfTries(why));
            }
        }
        out.write_all(&text).map_err(WriteError::Io)?;
    }
    out.write_all(b"0 0\n").map_err(WriteError::Io)
}

/// Appends `case` in the input format.
pub fn write_case(case: &Case, out: &mut Vec<u8>) {
    let board = &case.board;
    push_numbers(out, &[board.rows() as u64, board.cols() as u64]);
    for row in board.iter_rows() {
        let mut first = true;
        for &kind in row {
            if !first {
                out.push(b' ');
            }
            first = false;
            push_number(out, u64::from(kind));
        }
        out.push(b'\n');
    }
    push_numbers(out, &[case.queries.len() as u64]);
    for query in &case.queries {
        push_numbers(out, &[query.a.row, query.a.col, query.b.row, query.b.col].map(|n| n as u64));
    }
}

/// `cases` in the input format, with the terminating `0 0`.
pub fn to_input(cases: &[Case]) -> Vec<u8> {
    let mut out = Vec::new();
    for case in cases {
        write_case(case, &mut out);
    }
    out.extend_from_slice(b"0 0\n");
    out
}

/// Appends `numbers` separated by spaces, and a line break.
fn push_numbers(out: &mut Vec<u8>, numbers: &[u64]) {
    for (index, &number) in numbers.iter().enumerate() {
        if index > 0 {
            out.push(b' ');
        }
        push_number(out, number);
    }
    out.push(b'\n');
}

/// Appends `number` in decimal.
fn push_number(out: &mut Vec<u8>, number: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(number).as_bytes());
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::model::kind_at;

    #[test]
    fn every_kind_comes_in_pairs() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for density in [0.0, 0.3, 0.77, 1.0] {
            let board = board(7, 9, density, 5, &mut rng);
            let mut counts: HashMap<Kind, usize> = HashMap::new();
            for &kind in board.cells() {
                *counts.entry(kind).or_default() += 1;
            }
            let pieces = 63 - counts.get(&EMPTY).copied().unwrap_or(0);
            assert_eq!(pieces, (density * 63.0).round() as usize / 2 * 2);
            assert!(counts.iter().all(|(&kind, &count)| kind == EMPTY || (kind <= 5 && count % 2 == 0)));
        }
    }

    #[test]
    fn deals_hold_every_kind_exactly_copies_times() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let board = deal(8, 18, 36, 4, &mut rng);
        let mut counts: HashMap<Kind, usize> = HashMap::new();
        for &kind in board.cells() {
            *counts.entry(kind).or_default() += 1;
        }
        assert_eq!(counts.len(), 36);
        assert!(counts.iter().all(|(&kind, &count)| (1..=36).contains(&kind) && count == 4));
        // Another deal of the same stream differs: the pieces are shuffled.
        assert_ne!(deal(8, 18, 36, 4, &mut rng), board);
    }

    #[test]
    fn solvable_deals_are_found_clearable() {
        use crate::model::Rules;
        let settings =
            Settings { rules: Rules { max_turns: 2, outside: true }, gravity: false, budget: 10_000_000 };
        let options = Options {
            rows: 6,
            cols: 8,
            density: 0.0,
            copies: Some(4),
            solvable: Some(settings),
            kinds: 12,
            queries: 0,
            cases: 1,
            tries: DEFAULT_TRIES,
        };
        assert_eq!(options.check(), Ok(()));
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for _ in 0..5 {
            let case = case(&options, &mut rng).unwrap();
            let outcome = play::best(&case.board, settings).unwrap();
            assert!(matches!(outcome.best, play::Best::Cleared(_)));
        }
        let bad = Options { copies: Some(3), ..options };
        assert!(bad.check().unwrap_err().contains("even"));
        let unfilled = Options { kinds: 11, ..options };
        assert!(unfilled.check().unwrap_err().contains("does not fill"));
    }

    /// Boards that greedy play clears are accepted at the first try, whatever the budget: on full
    /// 60 × 60 boards of 8 kinds, which the search alone cannot decide on its default budget.
    #[test]
    fn solvable_boards_take_the_boards_play_clears() {
        use crate::model::Rules;
        let settings = Settings { rules: Rules::default(), gravity: false, budget: 1 };
        let options = Options {
            rows: 60,
            cols: 60,
            density: 1.0,
            copies: None,
            solvable: Some(settings),
            kinds: 8,
            queries: 0,
            cases: 3,
            tries: 1,
        };
        assert_eq!(options.check(), Ok(()));
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..options.cases {
            let case = case(&options, &mut rng).expect("play clears the first board drawn");
            assert_eq!(play::greedy(&case.board, settings.rules, false).pieces_left, 0);
            assert!(matches!(
                clear::search(&case.board, settings).unwrap().verdict,
                clear::Verdict::Undecided(_)
            ));
        }
    }

    #[test]
    fn queries_mix_the_three_kinds_of_pairs() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let board = board(10, 10, 0.5, 8, &mut rng);
        let queries = queries(&board, 400, &mut rng);
        let same = queries
            .iter()
            .filter(|q| kind_at(&board, q.a) != EMPTY && kind_at(&board, q.a) == kind_at(&board, q.b));
        let empty = queries.iter().filter(|q| kind_at(&board, q.a) == EMPTY || kind_at(&board, q.b) == EMPTY);
        let (same, empty) = (same.count(), empty.count());
        assert!((150..=280).contains(&same), "{same} pairs of one kind");
        assert!((60..=180).contains(&empty), "{empty} pairs with an empty cell");
        assert!(400 - same - empty >= 60);
    }

    #[test]
    fn input_round_trips_through_the_parser() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let options = Options {
            rows: 6,
            cols: 11,
            density: 0.6,
            copies: None,
            solvable: None,
            kinds: 300,
            queries: 20,
            cases: 3,
            tries: DEFAULT_TRIES,
        };
        let cases: Vec<Case> = (0..3).map(|_| case(&options, &mut rng).unwrap()).collect();
        let text = to_input(&cases);
        assert_eq!(crate::parse::cases(&text).unwrap(), cases);
        let mut written = Vec::new();
        write(&options, &mut ChaCha8Rng::seed_from_u64(3), &Progress::default(), &mut written).unwrap();
        assert_eq!(written, text);
    }
}
