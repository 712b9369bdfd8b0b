//! Benchmarks of the heavy tail of the search's runtime, one thread, fixed seeds, the same games as
//! `tetravex gen` makes with these seeds. Run with `cargo bench -p tetravex --bench tail`; the
//! figures, and those of the classes too slow for criterion (measured with
//! `examples/tail_timing.rs`), are recorded in `docs/benchmarks/tetravex.md`.
//!
//! - `a_8x8_random`: 50 `gen --random` 8×8 games with 2 digits (seed 1) and 50 with 3 digits
//!   (seed 2), each decided;
//! - `d_7x7_4_digits`: 10 solvable (seed 4) and 10 `--unsolvable` (seed 4) 7×7 games; the
//!   unsolvable ones are read from `data/d_7x7_4_digits_unsolvable.in`, the output of
//!   `tetravex gen --size 7 --digits 4 --unsolvable --games 10 --seed 4`, because making them
//!   takes that command about ten minutes (most boards with a changed triangle stay solvable
//!   or are hard to refute, and are thrown away);
//! - `e_5x5_unsolvable`: 200 unsolvable 5×5 games, 67 with 4 digits (seed 54), 67 with 5 (seed
//!   55) and 66 with 6 (seed 56), the judge's size;
//! - `f_16x16_planted`: 5 solvable 16×16 games with 3 digits (seed 1) and 5 with 4 digits (seed
//!   1), the largest boards; the ten-digit ones are not benchmarked, as the search does not
//!   finish them (see `docs/benchmarks/tetravex.md`);
//! - `g_random_2_digits`: 10 `gen --random` games with 2 digits, 9×9 (seed 1) and 10×10 (seed 1),
//!   each decided.

use std::hint::black_box;
use std::num::NonZeroUsize;

use common::Tokens;
use common::edge_match::Config;
use common::search::{GenError, Progress};
use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tetravex::model::Game;
use tetravex::{r#gen, parse, solve};

type Make = fn(r#gen::Options, &mut ChaCha8Rng, &Progress) -> Result<Vec<Game>, GenError<Game>>;

/// Boards tried per game: as many as any of these shapes and seeds needs, so the games stay
/// those `tetravex gen --tries 100000` makes.
const TRIES: u64 = 100_000;

/// `count` games made by `make` with these options and seed.
fn games(make: Make, size: usize, digits: u8, unsolvable: bool, count: usize, seed: u64) -> Vec<Game> {
    let options = r#gen::Options { size, digits, unsolvable, games: count, tries: TRIES };
    make(options, &mut ChaCha8Rng::seed_from_u64(seed), &Progress::default())
        .expect("the generator makes these shapes")
}

/// How many of `games` are solvable, searching on one thread.
fn solvable(games: &[Game]) -> usize {
    let config = Config::new(1).with_threads(Some(NonZeroUsize::MIN));
    games.iter().filter(|game| solve::search_with(black_box(game), &config).found > 0).count()
}

fn benches(c: &mut Criterion) {
    let two = games(r#gen::random_games, 8, 2, false, 50, 1);
    let three = games(r#gen::random_games, 8, 3, false, 50, 2);
    let (two_solvable, three_solvable) = (solvable(&two), solvable(&three));
    let mut group = c.benchmark_group("a_8x8_random");
    group.sample_size(10);
    group.bench_function("2_digits", |b| b.iter(|| assert_eq!(solvable(&two), two_solvable)));
    group.bench_function("3_digits", |b| b.iter(|| assert_eq!(solvable(&three), three_solvable)));
    group.finish();

    let mut seven = games(r#gen::games, 7, 4, false, 10, 4);
    let unsolvable = include_str!("data/d_7x7_4_digits_unsolvable.in");
    seven.extend(
        parse::games(&mut Tokens::new(unsolvable.as_bytes())).expect("games in the input format").iter(),
    );
    let mut group = c.benchmark_group("d_7x7_4_digits");
    group.sample_size(10);
    group.bench_function("half_solvable", |b| b.iter(|| assert_eq!(solvable(&seven), 10)));
    group.finish();

    let five: Vec<Game> = [(4, 67, 54), (5, 67, 55), (6, 66, 56)]
        .into_iter()
        .flat_map(|(digits, count, seed)| games(r#gen::games, 5, digits, true, count, seed))
        .collect();
    let mut group = c.benchmark_group("e_5x5_unsolvable");
    group.sample_size(10);
    group.bench_function("200_games", |b| b.iter(|| assert_eq!(solvable(&five), 0)));
    group.finish();

    let mut group = c.benchmark_group("f_16x16_planted");
    group.sample_size(10);
    for digits in [3, 4] {
        let planted = games(r#gen::games, 16, digits, false, 5, 1);
        group.bench_function(format!("{digits}_digits"), |b| b.iter(|| assert_eq!(solvable(&planted), 5)));
    }
    group.finish();

    let mut group = c.benchmark_group("g_random_2_digits");
    group.sample_size(10);
    for size in [9, 10] {
        let random = games(r#gen::random_games, size, 2, false, 10, 1);
        let expected = solvable(&random);
        group
            .bench_function(format!("{size}x{size}"), |b| b.iter(|| assert_eq!(solvable(&random), expected)));
    }
    group.finish();
}

criterion_group!(tail_benches, benches);
criterion_main!(tail_benches);
