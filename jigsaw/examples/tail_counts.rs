//! Nodes of the fast search per block on the large rectangles, on one thread: the harness
//! behind "the swapped tail" of `docs/benchmarks/jigsaw.md`. The sets are the rectangles
//! `gen` draws for the seeds named (swapped ones unchecked, as `gen --unsolvable swap` draws
//! them before its search), the planted sets of that page, and the benchmark sets. One line per
//! set (blocks, solvable, nodes in all, the largest and the block that took it), and one line
//! per block past a million nodes; with `--each`, one line per block.
//!
//! `cargo run --release -p jigsaw --example tail_counts [-- [--each] [SET[:BLOCK]…]]` (a set
//! is run when its name contains one of the `SET` words, every set without any; `SET:BLOCK`
//! runs only that block of the set, numbered from 0 as the lines print them).

use std::num::NonZeroUsize;
use std::time::Instant;

use common::edge_match::Config;
use jigsaw::model::Block;
use jigsaw::solve;

#[path = "support/sets.rs"]
mod sets;

/// Blocks past this many nodes get a line of their own.
const LARGE: u64 = 1_000_000;

/// A named set of blocks, made only when it is run.
struct Family {
    name: String,
    rotate: bool,
    make: Box<dyn Fn() -> Vec<Block>>,
    /// How many blocks have a solution, when known (the benchmark sets).
    solvable: Option<usize>,
}

/// The swapped rectangles among `draws` that pass every check needing no search.
fn past_root_checks(name: &str, rows: usize, cols: usize, rotate: bool, draws: usize, seed: u64) -> Family {
    family(name, rotate, move || {
        let mut blocks = sets::swapped(rows, cols, rotate, draws, seed);
        blocks.retain(|block| solve::passes_root_checks(block, rotate));
        blocks
    })
}

fn family(name: &str, rotate: bool, make: impl Fn() -> Vec<Block> + 'static) -> Family {
    Family { name: name.to_owned(), rotate, make: Box::new(make), solvable: None }
}

/// Every set, the swapped tails first.
fn families() -> Vec<Family> {
    let swapped = |name, rows, cols, rotate, count, seed| {
        family(name, rotate, move || sets::swapped(rows, cols, rotate, count, seed))
    };
    let planted = |name, rows, cols, rotate, count, seed| {
        family(name, rotate, move || sets::planted(rows, cols, None, rotate, count, seed))
    };
    let mut all = vec![
        swapped("swap31_32x32", 32, 32, false, 65, 31),
        swapped("swap41_32x32", 32, 32, false, 100, 41),
        swapped("swap42_25x40", 25, 40, false, 100, 42),
        swapped("swap43_20x20", 20, 20, false, 100, 43),
        swapped("swap44_32x32_rotate", 32, 32, true, 50, 44),
        swapped("swap45_25x40_rotate", 25, 40, true, 50, 45),
        swapped("swap46_20x20_rotate", 20, 20, true, 50, 46),
        planted("planted11_20x20", 20, 20, false, 5, 11),
        planted("planted12_20x20_rotate", 20, 20, true, 5, 12),
        planted("planted11_32x32", 32, 32, false, 10, 11),
        planted("planted12_32x32_rotate", 32, 32, true, 10, 12),
        planted("planted13_25x40", 25, 40, false, 10, 13),
        planted("planted14_40x25", 40, 25, false, 10, 14),
        planted("planted16_40x40", 40, 40, false, 10, 16),
        planted("planted17_40x40_rotate", 40, 40, true, 10, 17),
        planted("planted51_32x32", 32, 32, false, 30, 51),
        planted("planted52_25x40", 25, 40, false, 30, 52),
        planted("planted53_20x20", 20, 20, false, 30, 53),
        planted("planted54_25x40_rotate", 25, 40, true, 30, 54),
        // Wider samples, to see the tails of a restart schedule.
        planted("wide61_planted_32x32", 32, 32, false, 300, 61),
        planted("wide62_planted_25x40", 25, 40, false, 200, 62),
        planted("wide63_planted_32x32_rotate", 32, 32, true, 50, 63),
        swapped("wide64_swap_32x32", 32, 32, false, 400, 64),
        swapped("wide65_swap_40x40", 40, 40, false, 50, 65),
        // Past the root checks: where an unsolvable block needs the complete search.
        past_root_checks("past71_swap_8x8", 8, 8, false, 4000, 71),
        past_root_checks("past72_swap_10x10", 10, 10, false, 4000, 72),
        past_root_checks("past73_swap_8x8_rotate", 8, 8, true, 2000, 73),
        past_root_checks("past74_swap_12x12_rotate", 12, 12, true, 1000, 74),
    ];
    for set in sets::all() {
        let sets::Set { name, blocks, rotate, solvable, .. } = set;
        let bench = family(&format!("bench_{name}"), rotate, move || blocks.clone());
        all.push(Family { solvable: Some(solvable), ..bench });
    }
    all
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let each = args.iter().any(|arg| arg == "--each");
    args.retain(|arg| arg != "--each");
    // `--limit N`: count to N (a complete search unless N boards turn up) instead of one.
    let mut limit = 1;
    if let Some(at) = args.iter().position(|arg| arg == "--limit") {
        limit = args.get(at + 1).and_then(|n| n.parse().ok()).expect("a number after --limit");
        args.drain(at..at + 2);
    }
    let config = Config::new(limit).with_threads(Some(NonZeroUsize::MIN));
    println!("| set | blocks | solvable | nodes | largest | block | ms of largest |");
    println!("|---|--:|--:|--:|--:|--:|--:|");
    for family in families() {
        let words: Vec<(&str, Option<usize>)> = args
            .iter()
            .map(|arg| match arg.split_once(':') {
                Some((set, block)) => (set, Some(block.parse().expect("a block number after `:`"))),
                None => (arg.as_str(), None),
            })
            .filter(|(set, _)| family.name.contains(set))
            .collect();
        if !args.is_empty() && words.is_empty() {
            continue;
        }
        let chosen =
            |index| words.is_empty() || words.iter().any(|&(_, block)| block.is_none_or(|b| b == index));
        let blocks = (family.make)();
        let (mut run, mut solvable, mut total, mut largest, mut slowest) = (0, 0, 0, (0, 0), 0);
        for (index, block) in blocks.iter().enumerate().filter(|&(index, _)| chosen(index)) {
            run += 1;
            let start = Instant::now();
            let outcome = solve::search_with(block, family.rotate, &config);
            let ms = start.elapsed().as_millis();
            solvable += usize::from(outcome.first.is_some());
            total += outcome.nodes;
            if outcome.nodes > largest.0 {
                (largest, slowest) = ((outcome.nodes, index), ms);
            }
            if each || outcome.nodes >= LARGE {
                let found = outcome.first.is_some();
                println!(
                    "  {} block {index}: {} nodes, solvable {found}, found {}, {ms} ms",
                    family.name, outcome.nodes, outcome.found
                );
            }
        }
        if let Some(expected) = family.solvable.filter(|_| words.iter().all(|&(_, block)| block.is_none())) {
            assert_eq!(solvable, expected, "{}", family.name);
        }
        println!(
            "| {} | {} | {solvable} | {total} | {} | {} | {slowest} |",
            family.name, run, largest.0, largest.1
        );
    }
}
