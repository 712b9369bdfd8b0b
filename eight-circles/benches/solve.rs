//! Benchmarks on fixed-seed generated inputs (`cargo bench -p eight-circles`; `cargo xtask
//! bench eight-circles` writes the results, with what the inputs hold and the search's nodes,
//! to `docs/benchmarks/eight-circles.md`):
//!
//! - `a_million_cases`: one input of 1,000,000 cases of the judge's graph, each with a random
//!   number (0 to 8) of random pre-fills, as `eight-circles gen --cases 1000000 --seed 1` makes
//!   it: reading the input (`parse`), answering it into memory (`answer`), and both (`whole`);
//! - `b_graph_12_circles`: a random graph of 12 circles and 20 connections with one case of 3
//!   pre-filled circles, every solution listed (`--graph FILE --all`), and the verdict alone.

use std::hint::black_box;
use std::time::Duration;

use common::Tokens;
use criterion::{Criterion, criterion_group, criterion_main};
use eight_circles::model::{Cases, Graph};
use eight_circles::{Method, Options, parse};

#[path = "../examples/support/sets.rs"]
mod sets;

fn answer(graph: &Graph, cases: &Cases, options: Options) -> usize {
    let mut out = Vec::with_capacity(32 << 20);
    eight_circles::answer(graph, cases, options, &mut out).expect("writing to memory");
    out.len()
}

fn benches(c: &mut Criterion) {
    let builtin = Graph::builtin();
    let input = sets::million_case_input();
    let parse_all = |input: &[u8]| parse::cases(&mut Tokens::new(input), &builtin).expect("generated input");
    let cases = parse_all(&input);

    let mut group = c.benchmark_group("a_million_cases");
    group.sample_size(10).measurement_time(Duration::from_secs(15));
    group.bench_function("parse", |b| b.iter(|| parse_all(black_box(&input)).len()));
    group.bench_function("answer", |b| b.iter(|| answer(&builtin, black_box(&cases), Options::default())));
    group.bench_function("whole", |b| {
        b.iter(|| answer(&builtin, &parse_all(black_box(&input)), Options::default()));
    });
    group.finish();

    let (graph, case) = sets::twelve_circle_graph();
    let mut group = c.benchmark_group("b_graph_12_circles_20_connections_3_filled");
    group.sample_size(20).measurement_time(Duration::from_secs(10));
    let all = Options { all: true, show: false, method: Method::Search };
    group.bench_function("all", |b| b.iter(|| answer(&graph, black_box(&case), all)));
    let verdict = Options { method: Method::Search, ..Options::default() };
    group.bench_function("verdict", |b| b.iter(|| answer(&graph, black_box(&case), verdict)));
    group.finish();
}

criterion_group!(solve_benches, benches);
criterion_main!(solve_benches);
