//! The fixed-seed inputs of the benchmarks, shared by `benches/solve.rs` (which times the
//! solvers on them) and the example `bench_counts` (which counts what they hold and the
//! search's nodes), so that both describe the same work.

use eight_circles::r#gen;
use eight_circles::model::{Cases, Graph};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The input of `a_million_cases`: what `eight-circles gen --cases 1000000 --seed 1` prints.
pub fn million_case_input() -> Vec<u8> {
    let options = r#gen::CaseOptions { cases: 1_000_000, filled: None, solvable: false };
    let cases =
        r#gen::cases(&Graph::builtin(), options, &mut ChaCha8Rng::seed_from_u64(1)).expect("valid options");
    r#gen::to_input(&cases).into_bytes()
}

/// The graph and case of `b_graph_12_circles_20_connections_3_filled`: `gen graph --circles 12
/// --connections 20 --seed 1`, then `gen --graph FILE --cases 1 --filled 3 --seed 2`.
pub fn twelve_circle_graph() -> (Graph, Cases) {
    let graph = r#gen::graph(12, 20, &mut ChaCha8Rng::seed_from_u64(1)).expect("20 connections fit");
    let options = r#gen::CaseOptions { cases: 1, filled: Some(3), solvable: false };
    let cases = r#gen::cases(&graph, options, &mut ChaCha8Rng::seed_from_u64(2)).expect("valid options");
    (graph, cases)
}
