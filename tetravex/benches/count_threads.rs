//! The CPU time of `--count` on one thread against two and four: the split search's tasks count their
//! solutions together, so more threads should not cost more CPU than one. Criterion's times
//! here are the process's CPU time (user and system, from `/proc/self/stat`, Linux only), not
//! the wall clock. Run with `cargo bench -p tetravex --bench count_threads`; the figures are in
//! `docs/benchmarks/tetravex.md`.
//!
//! - `count_6x6_3_digits`: one 6×6 game with 3 digits (seed 1), counted to 5,000 solutions.

use std::hint::black_box;
use std::num::NonZeroUsize;

use common::edge_match::Config;
use common::search::Progress;
use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tetravex::{r#gen, solve};

#[path = "../examples/support/cpu_time.rs"]
mod cpu_time;
use cpu_time::cpu_time;

fn benches(c: &mut Criterion) {
    let options =
        r#gen::Options { size: 6, digits: 3, unsolvable: false, games: 1, tries: r#gen::default_tries(6) };
    let game = r#gen::games(options, &mut ChaCha8Rng::seed_from_u64(1), &Progress::default())
        .expect("the generator makes this shape")
        .remove(0);
    let limit = 5_000;
    let mut group = c.benchmark_group("count_6x6_3_digits");
    group.sample_size(10);
    for threads in [1, 2, 4] {
        let config = Config::new(limit).with_threads(NonZeroUsize::new(threads));
        group.bench_function(format!("{threads}_threads_cpu"), |b| {
            b.iter_custom(|iterations| {
                let start = cpu_time();
                for _ in 0..iterations {
                    assert_eq!(solve::search_with(black_box(&game), &config).found, limit);
                }
                cpu_time().saturating_sub(start)
            });
        });
    }
    group.finish();
}

criterion_group!(count_benches, benches);
criterion_main!(count_benches);
