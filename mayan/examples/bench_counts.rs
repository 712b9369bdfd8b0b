//! The boards the fast search visits on each benchmark set of `benches/solve.rs`: the work it
//! does, the same on every machine, the figure to compare versions of the search by. `cargo
//! xtask bench mayan` runs it and shows its table beside the times:
//!
//! `cargo run --release -p mayan --example bench_counts`

use mayan::board::Board;
use mayan::solve;

#[path = "support/sets.rs"]
mod sets;

/// One row: the benchmark, its boards, the number of moves, and the solved boards and boards
/// visited of the fast search on them.
fn row(benchmark: &str, boards: &[Board], moves: usize) {
    let outcomes: Vec<_> = boards.iter().map(|board| solve::search(board, moves, false)).collect();
    let solved = outcomes.iter().filter(|outcome| outcome.first.is_some()).count();
    let visited: u64 = outcomes.iter().map(|outcome| outcome.nodes).sum();
    println!(
        "| {benchmark} | {} | {moves} | {solved} | {visited} | {} |",
        boards.len(),
        visited / boards.len() as u64
    );
}

fn main() {
    println!("Boards the fast search visits (calls of its search, the start board included), on");
    println!("the sets of the benchmarks; the reference has no count, it tries every sequence.");
    println!();
    println!("| benchmark | boards | n | solved | boards visited | per board |");
    println!("|---|--:|--:|--:|--:|--:|");
    let random = sets::random_boards(10, 30, 4);
    row("a_random_30_blocks/fast_n5", &random, 5);
    row("a_random_30_blocks/fast_n4", &random, 4);
    row("b_solvable_30_plus_blocks/fast_n5", &sets::solvable_boards(10, 4, 5), 5);
    row("c_random_30_blocks/fast_n6", &sets::random_boards(5, 30, 4), 6);
}
