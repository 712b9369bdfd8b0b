//! The nodes of the fast search on each benchmark set of `benches/solve.rs`, on one thread (so
//! the same on every machine, the figure to compare versions of the search by), and how many
//! blocks the checks that need no search settle. `cargo xtask bench jigsaw` runs it and shows
//! its table beside the times:
//!
//! `cargo run --release -p jigsaw --example bench_counts`

use std::num::NonZeroUsize;

use common::edge_match::Config;
use jigsaw::solve;

#[path = "support/sets.rs"]
mod sets;

fn main() {
    println!("Nodes of the fast search for one solution, on one thread (placements tried, the");
    println!("restarts included), and the blocks settled before any search by the root checks.");
    println!();
    println!("| benchmark | blocks | solvable | settled by root checks | nodes |");
    println!("|---|--:|--:|--:|--:|");
    let config = Config::new(1).with_threads(Some(NonZeroUsize::MIN));
    for set in sets::all() {
        let settled = set.blocks.iter().filter(|block| !solve::passes_root_checks(block, set.rotate)).count();
        let outcomes: Vec<_> =
            set.blocks.iter().map(|block| solve::search_with(block, set.rotate, &config)).collect();
        let solvable = outcomes.iter().filter(|outcome| outcome.first.is_some()).count();
        assert_eq!(solvable, set.solvable, "{}", set.name);
        let nodes: u64 = outcomes.iter().map(|outcome| outcome.nodes).sum();
        println!("| {} | {} | {solvable} | {settled} | {nodes} |", set.name, set.blocks.len());
    }
}
