//! Runs the exact search alone (no greedy play first) on the largest boards under every rule
//! set, on the default budget, and prints per run the verdict, the positions, the work and the
//! time: how well the budget of work bounds the time, whatever the kinds and the rules.
//!
//!     cargo run --release -p linkup --example budget_scan
//!
//! The boards are those of `linkup gen --rows 60 --cols 60 --density D --kinds K --queries 0
//! --seed 1` for the densities and kinds below; the rule sets are at most 1, 2, 3 and 10 turns,
//! inside and outside, without and with gravity. `--budget N` searches with another budget;
//! `--kinds K` (repeated) keeps the boards of those kinds only.

use std::time::Instant;

use linkup::clear::{self, DEFAULT_BUDGET, Settings, Verdict};
use linkup::model::Rules;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The boards: density and kinds.
const BOARDS: [(f64, u32); 8] =
    [(1.0, 2), (1.0, 8), (1.0, 30), (1.0, 100), (1.0, 300), (1.0, 1800), (0.6, 30), (0.6, 300)];

#[allow(clippy::cast_precision_loss, reason = "a rate for people to read")]
fn main() {
    let (mut budget, mut kinds_wanted) = (DEFAULT_BUDGET, Vec::new());
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().and_then(|value| value.parse::<u64>().ok());
        match (arg.as_str(), value) {
            ("--budget", Some(value)) => budget = value,
            ("--kinds", Some(value)) => kinds_wanted.push(value as u32),
            _ => panic!("--budget N or --kinds K"),
        }
    }
    println!(
        "board                 rules                   verdict          positions        work   seconds  M units/s"
    );
    let (mut slowest, mut fastest) = (0.0_f64, f64::MAX);
    for (density, kinds) in
        BOARDS.into_iter().filter(|(_, kinds)| kinds_wanted.is_empty() || kinds_wanted.contains(kinds))
    {
        let board = linkup::r#gen::board(60, 60, density, kinds, &mut ChaCha8Rng::seed_from_u64(1));
        for max_turns in [1, 2, 3, 10] {
            for outside in [false, true] {
                for gravity in [false, true] {
                    let settings = Settings { rules: Rules { max_turns, outside }, gravity, budget };
                    let started = Instant::now();
                    let outcome = clear::search(&board, settings).expect("60 by 60 fits");
                    let seconds = started.elapsed().as_secs_f64();
                    let verdict = match outcome.verdict {
                        Verdict::Cleared(_) => "cleared".to_owned(),
                        Verdict::Hopeless => "hopeless".to_owned(),
                        Verdict::Undecided(limit) => format!("undecided {limit:?}").to_lowercase(),
                    };
                    let rate = outcome.work as f64 / seconds.max(1e-9) / 1e6;
                    let rules = format!(
                        "{max_turns} turns{}{}",
                        if outside { ", outside" } else { "" },
                        if gravity { ", gravity" } else { "" }
                    );
                    println!(
                        "density {density:.1}, {kinds:>4} kinds  {rules:<22}  {verdict:<16} {:>9} {:>11} {seconds:>9.3} {rate:>10.1}",
                        outcome.positions, outcome.work
                    );
                    if outcome.work > budget / 2 {
                        slowest = slowest.max(seconds);
                        fastest = fastest.min(seconds);
                    }
                }
            }
        }
    }
    println!("runs that spent over half the budget: {fastest:.3} s to {slowest:.3} s");
}
