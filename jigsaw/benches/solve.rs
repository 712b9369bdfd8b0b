//! Benchmarks of the fast solver against the plain reference on fixed-seed generated blocks.
//! Run with `cargo bench -p jigsaw`; the figures are recorded in `jigsaw/README.md`.
//!
//! - `a_6x6_swap`: 20 blocks 6×6 broken by `swap`, fast and reference in the same run;
//! - `a_6x6_swap_past_root_checks`: 20 such blocks that pass every check needing no search
//!   (about 1 in 100 swap-broken 6×6 blocks), fast and reference: what the search itself does;
//! - `b_10x10_solvable`: 10 solvable 10×10 blocks;
//! - `c_8x8_swap`: 10 blocks 8×8 broken by `swap`;
//! - `d_6x6_rotate`: 10 solvable 6×6 blocks with every piece turned at random, solved with
//!   `--rotate`;
//! - `e_12x12_solvable`: 10 solvable 12×12 blocks;
//! - `f_16x16`: 16×16 blocks, the largest accepted, 5 of each: solvable (seed 7), broken by
//!   `swap` (seed 8), and both with every piece turned at random, solved with `--rotate`
//!   (seeds 9 and 10).

use std::hint::black_box;
use std::time::Duration;

use common::search::Progress;
use criterion::{Criterion, criterion_group, criterion_main};
use jigsaw::r#gen::{self, Break, Options};
use jigsaw::model::{Assembly, Block};
use jigsaw::{reference, solve};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Rectangles tried per block: as many as any of these shapes and seeds needs, so the blocks
/// stay those `jigsaw gen --tries 10000` makes.
const TRIES: u64 = 10_000;

/// `count` blocks as `jigsaw gen --rows N --cols N [--unsolvable HOW] [--rotate] --seed SEED`
/// makes them.
fn blocks(side: usize, unsolvable: Option<Break>, rotate: bool, count: usize, seed: u64) -> Vec<Block> {
    let options = Options { rows: side, cols: side, unsolvable, rotate, blocks: count, tries: TRIES };
    r#gen::blocks(options, &mut ChaCha8Rng::seed_from_u64(seed), &Progress::default())
        .expect("the generator makes these shapes")
}

fn solve_all(blocks: &[Block], rotate: bool, solver: fn(&Block, bool) -> Option<Assembly>) -> usize {
    blocks.iter().filter(|block| solver(black_box(block), rotate).is_some()).count()
}

/// One benchmark group: the fast solver on `blocks`, and the reference too when `with_reference`;
/// every run must find `solvable` of them solvable.
fn group(
    c: &mut Criterion,
    name: &str,
    blocks: &[Block],
    rotate: bool,
    solvable: usize,
    with_reference: bool,
) {
    let mut group = c.benchmark_group(name);
    if with_reference {
        // The reference needs up to a second per run: ten samples in ten seconds.
        group.sample_size(10).measurement_time(Duration::from_secs(10));
    } else {
        group.sample_size(20);
    }
    group
        .bench_function("fast", |b| b.iter(|| assert_eq!(solve_all(blocks, rotate, solve::solve), solvable)));
    if with_reference {
        group.bench_function("reference", |b| {
            b.iter(|| assert_eq!(solve_all(blocks, rotate, reference::solve), solvable));
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    group(c, "a_6x6_swap", &blocks(6, Some(Break::Swap), false, 20, 1), false, 0, true);

    let residue: Vec<Block> = blocks(6, Some(Break::Swap), false, 4000, 2)
        .into_iter()
        .filter(|block| solve::passes_root_checks(block, false))
        .take(20)
        .collect();
    assert_eq!(residue.len(), 20, "4000 swap-broken blocks hold 20 that pass the root checks");
    group(c, "a_6x6_swap_past_root_checks", &residue, false, 0, true);

    group(c, "b_10x10_solvable", &blocks(10, None, false, 10, 3), false, 10, false);
    group(c, "c_8x8_swap", &blocks(8, Some(Break::Swap), false, 10, 4), false, 0, false);
    group(c, "d_6x6_rotate", &blocks(6, None, true, 10, 5), true, 10, false);
    group(c, "e_12x12_solvable", &blocks(12, None, false, 10, 6), false, 10, false);
    group(c, "f_16x16_solvable", &blocks(16, None, false, 5, 7), false, 5, false);
    group(c, "f_16x16_swap", &blocks(16, Some(Break::Swap), false, 5, 8), false, 0, false);
    group(c, "f_16x16_rotate_solvable", &blocks(16, None, true, 5, 9), true, 5, false);
    group(c, "f_16x16_rotate_swap", &blocks(16, Some(Break::Swap), true, 5, 10), true, 0, false);
}

criterion_group!(solve_benches, benches);
criterion_main!(solve_benches);
