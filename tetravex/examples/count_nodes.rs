//! Counts every game of a judge-format input to a limit on several thread counts, one line per
//! game and thread count (found, nodes, CPU milliseconds of the process): the harness for the
//! CPU cost of `--count` on threads.
//! `cargo run --release -p tetravex --example count_nodes -- [--plain] LIMIT THREADS… < games.txt`.
//!
//! With `--plain` each game is searched as given to the end: no symmetry choice and no
//! restarts, so the nodes are those of one fixed tree, the measure of a change to the
//! search's checks (the same order, fewer nodes).

use std::io::Read;
use std::num::NonZeroUsize;

use common::Tokens;
use common::edge_match::{Budgets, Config};
use tetravex::{parse, solve};

#[path = "support/cpu_time.rs"]
mod cpu_time;
use cpu_time::cpu_time;

fn main() {
    let plain = std::env::args().nth(1).is_some_and(|arg| arg == "--plain");
    let args: Vec<u64> = std::env::args()
        .skip(1 + usize::from(plain))
        .map(|arg| arg.parse().expect("numbers: the limit, then thread counts"))
        .collect();
    let (&limit, threads) = args.split_first().expect("a limit and thread counts");
    let mut text = Vec::new();
    std::io::stdin().read_to_end(&mut text).expect("readable stdin");
    let games = parse::games(&mut Tokens::new(&text)).expect("games in the judge format");
    for (index, game) in games.iter().enumerate() {
        for &count in threads {
            let mut config = Config::new(limit).with_threads(NonZeroUsize::new(count as usize));
            if plain {
                // The budgets of the search as given, past which the symmetry choice and the
                // restarts would begin.
                config.budgets = Budgets { plain: u64::MAX, quick_plain: u64::MAX, ..Budgets::default() };
            }
            let start = cpu_time();
            let outcome = solve::search_with(&game, &config);
            let cpu = cpu_time().saturating_sub(start);
            println!(
                "game {:3} threads {count:2} found {:8} nodes {:12} cpu {:8} ms",
                index + 1,
                outcome.found,
                outcome.nodes,
                cpu.as_millis()
            );
        }
    }
}
