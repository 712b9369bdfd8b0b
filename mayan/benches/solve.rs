//! Benchmarks of the fast solver against the plain reference on fixed-seed generated boards.
//! Run with `cargo bench -p mayan`; the figures are recorded in `mayan/README.md`.
//!
//! - `a_random_30_blocks/fast_n5`: 10 random boards of 30 blocks in 4 colours, no solution in
//!   exactly 5 moves (the whole tree must be refuted);
//! - `a_random_30_blocks/{fast,reference}_n4`: the same boards with n = 4, where the reference
//!   finishes in seconds (at n = 5 it would need minutes), fast and reference in the same run;
//! - `b_solvable_30_plus_blocks/fast_n5`: 10 boards of 30 to 34 blocks in 4 colours built to be
//!   solvable in exactly 5 moves;
//! - `c_random_30_blocks/fast_n6`: 5 random boards of 30 blocks in 4 colours, n = 6.
//!
//! Before each group, the number of boards the fast search visits on its set is printed.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use mayan::board::Board;
use mayan::model::Move;
use mayan::{r#gen, reference, solve};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// `count` random boards of `blocks` blocks in `colours` colours, as `mayan gen --seed` makes
/// them, from seeds fixed by the shape.
fn random_boards(count: usize, blocks: usize, colours: u8) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(1000 * blocks as u64 + u64::from(colours));
    (0..count)
        .map(|_| r#gen::random_board(blocks, colours, &mut rng).expect("30 blocks in 4 colours fit"))
        .collect()
}

/// `count` boards solvable in exactly `moves` moves, of 30 to 34 blocks in `colours` colours.
fn solvable_boards(count: usize, colours: u8, moves: usize) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(7000 + moves as u64);
    (0..count)
        .map(|index| {
            let blocks = 30 + index % 5;
            r#gen::solvable_board(blocks, colours, moves, &mut rng)
                .expect("the generator makes these shapes")
                .0
        })
        .collect()
}

fn solved(boards: &[Board], moves: usize, solver: fn(&Board, usize) -> Option<Vec<Move>>) -> usize {
    boards.iter().filter(|board| solver(black_box(board), moves).is_some()).count()
}

fn fast(board: &Board, moves: usize) -> Option<Vec<Move>> {
    solve::search(board, moves, false).first
}

/// The reference, which simulates the rules on a grid of its own, from the board's columns.
fn plain(board: &Board, moves: usize) -> Option<Vec<Move>> {
    reference::exactly(&board.columns(), moves)
}

/// Prints the boards the fast search visits on a set: the work done, the same on any machine
/// (the figure to compare versions of the search by, beside the timings).
fn report_nodes(set: &str, boards: &[Board], moves: usize) {
    let nodes: u64 = boards.iter().map(|board| solve::search(board, moves, false).nodes).sum();
    println!("{set}: the fast search visits {nodes} boards at n = {moves}");
}

fn benches(c: &mut Criterion) {
    let random = random_boards(10, 30, 4);
    report_nodes("a_random_30_blocks", &random, 5);
    let mut group = c.benchmark_group("a_random_30_blocks");
    group.sample_size(20);
    group.bench_function("fast_n5", |b| b.iter(|| assert_eq!(solved(&random, 5, fast), 0)));
    group.bench_function("fast_n4", |b| b.iter(|| assert_eq!(solved(&random, 4, fast), 0)));
    group.sample_size(10).measurement_time(Duration::from_secs(30));
    group.bench_function("reference_n4", |b| b.iter(|| assert_eq!(solved(&random, 4, plain), 0)));
    group.finish();

    let solvable = solvable_boards(10, 4, 5);
    report_nodes("b_solvable_30_plus_blocks", &solvable, 5);
    let mut group = c.benchmark_group("b_solvable_30_plus_blocks");
    group.sample_size(20).measurement_time(Duration::from_secs(8));
    group.bench_function("fast_n5", |b| b.iter(|| assert_eq!(solved(&solvable, 5, fast), 10)));
    group.finish();

    let six = random_boards(5, 30, 4);
    report_nodes("c_random_30_blocks", &six, 6);
    let mut group = c.benchmark_group("c_random_30_blocks");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).measurement_time(Duration::from_secs(5));
    group.bench_function("fast_n6", |b| b.iter(|| assert_eq!(solved(&six, 6, fast), 0)));
    group.finish();
}

criterion_group!(solve_benches, benches);
criterion_main!(solve_benches);
