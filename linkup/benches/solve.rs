//! Benchmarks on fixed-seed generated inputs. Run with `cargo bench -p linkup`; the figures are
//! recorded in `docs/benchmarks/linkup.md` at the repository root.
//!
//! - `a_10_boards_1000x999`: 10 cases of 1000×999 at densities 0.1 to 0.9 (kinds 1 to 20), 49
//!   queries each (the judge's largest), 22.7 MB:
//!   - `whole_from_file`: the input read from a file, parsed and answered, as the binary does;
//!   - `file_only`: the file read into memory alone (`common::cli::Input::read`);
//!   - `read_only` / `read_with_tokens`: parsing alone from memory, with the crate's reader (as
//!     the binary uses it) and with the plain reader on `common::Tokens` (the reference);
//!   - `queries_fast` / `queries_reference`: answering the parsed cases, fast (building the
//!     prefix counts included) and with the reference's search per query.
//! - `b_4000x4000_100k_queries`: one 4000×4000 board at density 0.5 (kinds 1 to 20) with 100,000
//!   queries, read from a file and answered.
//! - `c_solve_20x20`: greedy play of a 20×20 board (density 0.8, 12 kinds), inside and with the
//!   outside open; `--best` on an 8×8 board (48 pieces, 6 kinds) with the outside open (greedy
//!   play first, as the binary does).
//! - `d_real_game`: the real game's deals with the outside open, decided by `solve --best` (the
//!   exact search, default budget): (a) the first 100 of the 1,000 standard deals (8×18, 36
//!   kinds × 4) of seed 1, all 100 per iteration; (b) the same deals with gravity; (c) the
//!   first 10 of the 100 deals 16×30 (120 kinds × 4) of seed 3; (d) `gen --solvable` of one
//!   standard deal. The survey adds (c'): 100 deals 16×30 of 30 kinds × 16.
//!
//! Set `LINKUP_SURVEY=1` (or the letters of some sets: `LINKUP_SURVEY=ac`) to first run every
//! deal of (a), (b) and (c) once and print, per set,
//! how many were decided and cleared, the total time, the median and worst time and
//! positions and work per deal, and the positions of all deals (single thread). The real-game
//! figures come from it. `LINKUP_SURVEY_LIST=N` also lists every deal that took more than N
//! positions.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::cli::Input;
use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group};
use linkup::clear::{self, Settings, Verdict};
use linkup::model::{Board, Case, Rules};
use linkup::query::{Solver, Tables};
use linkup::{Options, r#gen, parse, play, reference};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Kinds in every generated board: a typical count of tiles in the game.
const KINDS: u32 = 20;

/// A generated case from a seed.
fn case(rows: usize, cols: usize, density: f64, kinds: u32, queries: usize, seed: u64) -> Case {
    let options = r#gen::Options {
        rows,
        cols,
        density,
        copies: None,
        solvable: None,
        kinds,
        queries,
        cases: 1,
        tries: 1,
    };
    r#gen::case(&options, &mut ChaCha8Rng::seed_from_u64(seed)).expect("no --solvable")
}

/// A temporary input file, removed when dropped.
struct TempInput(PathBuf);

impl TempInput {
    fn new(name: &str, bytes: &[u8]) -> TempInput {
        let path = std::env::temp_dir().join(format!("linkup-bench-{}-{name}.in", std::process::id()));
        std::fs::write(&path, bytes).expect("the temporary directory is writable");
        TempInput(path)
    }
}

impl Drop for TempInput {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Reads the file and answers it as the binary does; returns the length of the answer.
fn answer_file(path: &Path) -> usize {
    let input = Input::read(Some(path)).expect("the file is readable");
    let cases = parse::cases(&input.bytes).expect("the input is valid");
    let mut out = Vec::new();
    linkup::answer(&cases, Options::default(), &mut out).expect("no pictures to write");
    out.len()
}

/// Reads every case as the binary does (each case into the memory of the one before); returns
/// the number of queries.
fn read_all(text: &[u8]) -> usize {
    let mut reader = parse::Reader::new(text);
    let mut queries = 0;
    while let Some(case) = reader.next_case().expect("valid") {
        queries += case.queries.len();
        reader.recycle(case);
    }
    queries
}

/// The number of YES answers over all queries of `cases`, with the fast solver (one per case).
fn answer_fast(cases: &[Case], rules: Rules) -> usize {
    let mut tables = Tables::default();
    let mut yes = 0;
    for case in cases {
        let mut solver = Solver::with_tables(&case.board, rules, tables);
        yes += case.queries.iter().filter(|&&query| solver.joinable(query)).count();
        tables = solver.into_tables();
    }
    yes
}

/// The same with the reference's search per query.
fn answer_reference(cases: &[Case], rules: Rules) -> usize {
    cases
        .iter()
        .map(|case| case.queries.iter().filter(|&&q| reference::joinable(&case.board, rules, q)).count())
        .sum()
}

fn a_ten_boards(c: &mut Criterion) {
    let cases: Vec<Case> = (0..10u32)
        .map(|i| case(1000, 999, 0.1 + 0.8 * f64::from(i) / 9.0, KINDS, 49, 100 + u64::from(i)))
        .collect();
    let text = r#gen::to_input(&cases);
    let file = TempInput::new("a", &text);
    let rules = Rules::default();

    let mut group = c.benchmark_group("a_10_boards_1000x999");
    group.warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    group.sample_size(20).throughput(Throughput::BytesDecimal(text.len() as u64));
    group.bench_function("whole_from_file", |b| b.iter(|| answer_file(black_box(&file.0))));
    group.bench_function("file_only", |b| {
        b.iter(|| Input::read(Some(black_box(&file.0))).expect("the file is readable").bytes.len());
    });
    group.bench_function("read_only", |b| b.iter(|| read_all(black_box(&text))));
    group.sample_size(10);
    group.bench_function("read_with_tokens", |b| {
        b.iter(|| reference::cases(black_box(&text)).expect("valid").len());
    });
    group.throughput(Throughput::Elements(490));
    group.sample_size(20);
    group.bench_function("queries_fast", |b| b.iter(|| answer_fast(black_box(&cases), rules)));
    group.sample_size(10);
    group.bench_function("queries_reference", |b| b.iter(|| answer_reference(black_box(&cases), rules)));
    group.finish();
}

fn b_large_board(c: &mut Criterion) {
    let large = case(4000, 4000, 0.5, KINDS, 100_000, 200);
    let text = r#gen::to_input(std::slice::from_ref(&large));
    drop(large);
    let file = TempInput::new("b", &text);
    let mut group = c.benchmark_group("b_4000x4000_100k_queries");
    group.warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    group.sample_size(10).throughput(Throughput::BytesDecimal(text.len() as u64));
    group.bench_function("whole_from_file", |b| b.iter(|| answer_file(black_box(&file.0))));
    group.finish();
}

fn c_solve(c: &mut Criterion) {
    let board = case(20, 20, 0.8, 12, 0, 300).board;
    let small = case(8, 8, 0.75, 6, 0, 301).board;
    let mut group = c.benchmark_group("c_solve_20x20");
    group.warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(2));
    group.sample_size(20);
    group.bench_function("greedy_inside", |b| {
        b.iter(|| play::greedy(black_box(&board), Rules::default(), false).pieces_left);
    });
    let outside = Rules { max_turns: 2, outside: true };
    group.bench_function("greedy_outside", |b| {
        b.iter(|| play::greedy(black_box(&board), outside, false).pieces_left);
    });
    group.bench_function("best_8x8_outside", |b| {
        b.iter(|| play::best(black_box(&small), settings(false)).expect("small").positions);
    });
    group.finish();
}

/// The real game's rules: two turns, the outside open; the default budget.
fn settings(gravity: bool) -> Settings {
    Settings { rules: Rules { max_turns: 2, outside: true }, gravity, budget: clear::DEFAULT_BUDGET }
}

/// `count` deals of `rows × cols` with `kinds × 4` pieces from one seeded stream.
fn deals(rows: usize, cols: usize, kinds: u32, count: usize, seed: u64) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count).map(|_| r#gen::deal(rows, cols, kinds, 4, &mut rng)).collect()
}

/// The deals of (a) and (b), and of (c).
fn standard_deals() -> Vec<Board> {
    deals(8, 18, 36, 1000, 1)
}

/// (c): the largest board with four pieces of a kind, as in the standard deal.
fn largest_deals() -> Vec<Board> {
    deals(16, 30, 120, 100, 3)
}

/// (c'): the largest board with 30 kinds × 16 pieces.
fn largest_deals_16_copies() -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    (0..100).map(|_| r#gen::deal(16, 30, 30, 16, &mut rng)).collect()
}

/// Decides every deal once and prints what was found and how long it took.
fn survey(name: &str, boards: &[Board], gravity: bool) {
    let (mut times, mut positions, mut work) = (Vec::new(), Vec::new(), Vec::new());
    let (mut cleared, mut hopeless, mut undecided) = (0, 0, 0);
    // `LINKUP_SURVEY_LIST=N`: also list the deals that took more than N positions.
    let list_over = std::env::var("LINKUP_SURVEY_LIST").ok().and_then(|n| n.parse::<u64>().ok());
    let start = Instant::now();
    for (index, board) in boards.iter().enumerate() {
        let began = Instant::now();
        let outcome = clear::search(board, settings(gravity)).expect("board fits");
        times.push(began.elapsed());
        positions.push(outcome.positions);
        work.push(outcome.work);
        if list_over.is_some_and(|over| outcome.positions > over) {
            let verdict = match outcome.verdict {
                Verdict::Cleared(_) => "cleared",
                Verdict::Hopeless => "hopeless",
                Verdict::Undecided(_) => "undecided",
            };
            println!("  deal {index}: {verdict}, {} positions, {:.3?}", outcome.positions, times[index]);
        }
        match outcome.verdict {
            Verdict::Cleared(_) => cleared += 1,
            Verdict::Hopeless => hopeless += 1,
            Verdict::Undecided(_) => undecided += 1,
        }
    }
    let total = start.elapsed();
    let all_positions: u64 = positions.iter().sum();
    times.sort();
    positions.sort_unstable();
    work.sort_unstable();
    let middle = boards.len() / 2;
    println!(
        "survey {name}: {} deals, {cleared} cleared, {hopeless} hopeless, {undecided} undecided; total {total:.3?}; \
         per deal median {:.3?}, worst {:.3?}; positions median {}, worst {}, total {all_positions}; \
         work median {}, worst {}",
        boards.len(),
        times[middle],
        times[times.len() - 1],
        positions[middle],
        positions[positions.len() - 1],
        work[middle],
        work[work.len() - 1],
    );
}

fn d_real_game(c: &mut Criterion) {
    let standard = standard_deals();
    let largest = largest_deals();
    let mut group = c.benchmark_group("d_real_game");
    group.warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    group.sample_size(10);
    let decide = |boards: &[Board], gravity: bool| {
        boards
            .iter()
            .filter(|board| {
                matches!(clear::search(board, settings(gravity)).expect("fits").verdict, Verdict::Cleared(_))
            })
            .count()
    };
    group.throughput(Throughput::Elements(100));
    group.bench_function("a_100_standard_deals", |b| b.iter(|| decide(black_box(&standard[..100]), false)));
    group.bench_function("b_100_standard_deals_gravity", |b| {
        b.iter(|| decide(black_box(&standard[..100]), true));
    });
    group.throughput(Throughput::Elements(10));
    group.bench_function("c_10_deals_16x30", |b| b.iter(|| decide(black_box(&largest[..10]), false)));
    group.throughput(Throughput::Elements(1));
    let options = r#gen::Options {
        rows: 8,
        cols: 18,
        density: 0.0,
        copies: Some(4),
        solvable: Some(settings(false)),
        kinds: 36,
        queries: 0,
        cases: 1,
        tries: r#gen::DEFAULT_TRIES,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    group.bench_function("d_gen_solvable_standard_deal", |b| {
        b.iter(|| r#gen::case(black_box(&options), &mut rng).expect("a clearable deal").board.rows());
    });
    group.finish();
}

criterion_group!(benches, a_ten_boards, b_large_board, c_solve, d_real_game);

fn main() {
    // `LINKUP_SURVEY=1`: every set; else the letters of the sets wanted, e.g. `LINKUP_SURVEY=ac`.
    if let Ok(sets) = std::env::var("LINKUP_SURVEY") {
        let wanted = |set: char| sets == "1" || sets.contains(set);
        let standard = standard_deals();
        if wanted('a') {
            survey("(a) 1000 standard deals 8x18, outside", &standard, false);
        }
        if wanted('b') {
            survey("(b) 1000 standard deals 8x18, outside, gravity", &standard, true);
        }
        if wanted('c') {
            survey("(c) 100 deals 16x30 (120 kinds x 4), outside", &largest_deals(), false);
            survey("(c') 100 deals 16x30 (30 kinds x 16), outside", &largest_deals_16_copies(), false);
        }
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
