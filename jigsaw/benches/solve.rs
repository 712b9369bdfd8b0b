//! Benchmarks of the fast solver against the plain reference on fixed-seed generated blocks
//! (`cargo bench -p jigsaw`; `cargo xtask bench jigsaw` writes the results, with the search's
//! nodes on each set, to `docs/benchmarks/jigsaw.md`):
//!
//! - `a_6x6_swap`: 20 blocks 6×6 broken by `swap`, fast and reference in the same run;
//! - `a_6x6_swap_past_root_checks`: 20 such blocks that pass every check needing no search
//!   (the first 20 of 4000), fast and reference: what the search itself does;
//! - `b_10x10_solvable`: 10 solvable 10×10 blocks;
//! - `c_8x8_swap`: 10 blocks 8×8 broken by `swap`;
//! - `d_6x6_rotate`: 10 solvable 6×6 blocks with every piece turned at random, solved with
//!   `--rotate`;
//! - `e_12x12_solvable`: 10 solvable 12×12 blocks;
//! - `f_16x16`: 16×16 blocks, the largest accepted, 5 of each: solvable (seed 7), broken by
//!   `swap` (seed 8), and both with every piece turned at random, solved with `--rotate`
//!   (seeds 9 and 10);
//! - `g_20x20_*`, `h_32x32_*`, `i_25x40_*`: the sizes of real puzzles (1,000 pieces: 32×32,
//!   25×40), 5 blocks each: `planted`, solvable blocks as `gen` makes them; `swapped`, planted
//!   rectangles with one knob and hole swapped as `gen --unsolvable swap` draws them but not
//!   checked, so most have another assembly and some none; `rotate_*` the same with every
//!   piece turned at random, solved with `--rotate` (seeds 11 to 22, in the order of
//!   `examples/support/sets.rs`).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use jigsaw::model::{Assembly, Block};
use jigsaw::{reference, solve};

#[path = "../examples/support/sets.rs"]
mod sets;

fn solve_all(blocks: &[Block], rotate: bool, solver: fn(&Block, bool) -> Option<Assembly>) -> usize {
    blocks.iter().filter(|block| solver(black_box(block), rotate).is_some()).count()
}

/// One benchmark group: the fast solver on the set's blocks, and the reference too when the set
/// asks for it; every run must find the set's solvable blocks.
fn group(c: &mut Criterion, set: &sets::Set) {
    let sets::Set { name, ref blocks, rotate, solvable, with_reference } = *set;
    let mut group = c.benchmark_group(name);
    if with_reference {
        // The reference is slow: fewer samples, over a longer time.
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
    for set in sets::all() {
        group(c, &set);
    }
}

criterion_group!(solve_benches, benches);
criterion_main!(solve_benches);
