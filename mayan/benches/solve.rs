//! Benchmarks of the fast solver against the plain reference on fixed-seed generated boards
//! (`cargo bench -p mayan`; `cargo xtask bench mayan` writes the results, with the boards the
//! fast search visits on each set, to `docs/benchmarks/mayan.md`):
//!
//! - `a_random_30_blocks/fast_n5`: 10 random boards of 30 blocks in 4 colours, no solution in
//!   exactly 5 moves (the whole tree must be refuted);
//! - `a_random_30_blocks/{fast,reference}_n4`: the same boards with n = 4, the most moves the
//!   unpruned reference refutes in reasonable time, fast and reference in the same run;
//! - `b_solvable_30_plus_blocks/fast_n5`: 10 boards of 30 to 34 blocks in 4 colours built to be
//!   solvable in exactly 5 moves;
//! - `c_random_30_blocks/fast_n6`: 5 random boards of 30 blocks in 4 colours, n = 6.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use mayan::board::Board;
use mayan::model::Move;
use mayan::{reference, solve};

#[path = "../examples/support/sets.rs"]
mod sets;

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

fn benches(c: &mut Criterion) {
    let random = sets::random_boards(10, 30, 4);
    let mut group = c.benchmark_group("a_random_30_blocks");
    group.sample_size(20);
    group.bench_function("fast_n5", |b| b.iter(|| assert_eq!(solved(&random, 5, fast), 0)));
    group.bench_function("fast_n4", |b| b.iter(|| assert_eq!(solved(&random, 4, fast), 0)));
    group.sample_size(10).measurement_time(Duration::from_secs(30));
    group.bench_function("reference_n4", |b| b.iter(|| assert_eq!(solved(&random, 4, plain), 0)));
    group.finish();

    let solvable = sets::solvable_boards(10, 4, 5);
    let mut group = c.benchmark_group("b_solvable_30_plus_blocks");
    group.sample_size(20).measurement_time(Duration::from_secs(8));
    group.bench_function("fast_n5", |b| b.iter(|| assert_eq!(solved(&solvable, 5, fast), 10)));
    group.finish();

    let six = sets::random_boards(5, 30, 4);
    let mut group = c.benchmark_group("c_random_30_blocks");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).measurement_time(Duration::from_secs(5));
    group.bench_function("fast_n6", |b| b.iter(|| assert_eq!(solved(&six, 6, fast), 0)));
    group.finish();
}

criterion_group!(solve_benches, benches);
criterion_main!(solve_benches);
