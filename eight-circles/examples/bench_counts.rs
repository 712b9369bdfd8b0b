//! What the benchmark inputs of `benches/solve.rs` hold and what the search does on them, the
//! same on every machine: the verdicts of the million cases, and the solutions and search nodes
//! of the 12-circle graph. `cargo xtask bench eight-circles` runs it and shows its tables beside
//! the times:
//!
//! `cargo run --release -p eight-circles --example bench_counts`

use std::ops::ControlFlow;

use common::Tokens;
use eight_circles::model::{Graph, Verdict};
use eight_circles::parse;
use eight_circles::solve::{self, Order, Table};

#[path = "support/sets.rs"]
mod sets;

fn main() {
    let builtin = Graph::builtin();
    let input = sets::million_case_input();
    let cases = parse::cases(&mut Tokens::new(&input), &builtin).expect("generated input");
    let table = Table::new(&builtin).expect("the judge's graph has few solutions");
    let mut verdicts = [0_u64; 3];
    for case in &cases {
        let kind = match table.verdict(case) {
            Verdict::NoAnswer => 0,
            Verdict::NotUnique => 1,
            Verdict::Unique(_) => 2,
        };
        verdicts[kind] += 1;
    }
    println!("`a_million_cases`: {} bytes of input, the verdicts of its cases.", input.len());
    println!();
    println!("| verdict | cases |");
    println!("|---|--:|");
    for (name, count) in ["No answer", "Not unique", "unique"].iter().zip(verdicts) {
        println!("| {name} | {count} |");
    }

    let (graph, case) = sets::twelve_circle_graph();
    let case = case.iter().next().expect("one case");
    let mut solutions = 0_u64;
    let all = solve::search(&graph, case, Order::Lexicographic, |_| {
        solutions += 1;
        ControlFlow::Continue(())
    });
    let mut seen = 0;
    let verdict = solve::search(&graph, case, Order::FewestCandidates, |_| {
        seen += 1;
        if seen == 2 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    });
    println!();
    println!("`b_graph_12_circles_20_connections_3_filled`: {solutions} solutions; search nodes");
    println!("(digits placed) of each benchmark.");
    println!();
    println!("| benchmark | nodes |");
    println!("|---|--:|");
    println!("| all | {all} |");
    println!("| verdict | {verdict} |");
}
