//! Benchmarks of the fast solver against the plain reference on fixed-seed generated games.
//! Run with `cargo bench -p tetravex`; the figures are recorded in `docs/benchmarks/tetravex.md`.
//!
//! - `a_5x5_unsolvable`: 50 unsolvable 5×5 games, ten at each digit count 2..=6 (fast only:
//!   the reference needs minutes on the few-digit ones);
//! - `a_subset`: the 30 of them with 4, 5 and 6 digits, where the reference finishes within
//!   seconds, fast and reference in the same run;
//! - `b_6x6_unsolvable`: 10 unsolvable 6×6 games with 5 digits;
//! - `c_7x7_solvable`: 10 solvable 7×7 games with 4 digits.

use std::hint::black_box;
use std::time::Duration;

use common::search::Progress;
use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tetravex::model::Game;
use tetravex::{r#gen, reference, solve};

/// Boards tried per game: as many as any of these shapes and seeds needs, so the games stay
/// those `tetravex gen --tries 100000` makes.
const TRIES: u64 = 100_000;

/// `count` games of the given shape from a seed fixed by the shape, as `tetravex gen` makes them.
fn games(size: usize, digits: u8, unsolvable: bool, count: usize) -> Vec<Game> {
    let seed = 1000 * size as u64 + 10 * u64::from(digits) + u64::from(unsolvable);
    let options = r#gen::Options { size, digits, unsolvable, games: count, tries: TRIES };
    r#gen::games(options, &mut ChaCha8Rng::seed_from_u64(seed), &Progress::default())
        .expect("the generator makes these shapes")
}

fn solve_all(games: &[Game], solver: fn(&Game) -> Option<tetravex::model::Board>) -> usize {
    games.iter().filter(|game| solver(black_box(game)).is_some()).count()
}

fn benches(c: &mut Criterion) {
    let five: Vec<Vec<Game>> = (2..=6).map(|digits| games(5, digits, true, 10)).collect();
    let all_fifty: Vec<Game> = five.concat();
    let subset: Vec<Game> = five[2..].concat();

    let mut group = c.benchmark_group("a_5x5_unsolvable");
    group.sample_size(20);
    group.bench_function("fast_all_50", |b| b.iter(|| assert_eq!(solve_all(&all_fifty, solve::solve), 0)));
    group.finish();

    let mut group = c.benchmark_group("a_subset_4_to_6_digits");
    group.sample_size(10).measurement_time(Duration::from_secs(40));
    group.bench_function("fast", |b| b.iter(|| assert_eq!(solve_all(&subset, solve::solve), 0)));
    group.bench_function("reference", |b| b.iter(|| assert_eq!(solve_all(&subset, reference::solve), 0)));
    group.finish();

    let six = games(6, 5, true, 10);
    let mut group = c.benchmark_group("b_6x6_unsolvable_5_digits");
    group.sample_size(10).measurement_time(Duration::from_secs(60));
    group.bench_function("fast", |b| b.iter(|| assert_eq!(solve_all(&six, solve::solve), 0)));
    group.finish();

    let seven = games(7, 4, false, 10);
    let mut group = c.benchmark_group("c_7x7_solvable_4_digits");
    group.sample_size(10);
    group.bench_function("fast", |b| b.iter(|| assert_eq!(solve_all(&seven, solve::solve), 10)));
    group.finish();
}

criterion_group!(solve_benches, benches);
criterion_main!(solve_benches);
