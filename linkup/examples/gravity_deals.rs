//! Decides some of the 1,000 standard deals of the benchmark's set (b) (8 × 18, 36 kinds × 4,
//! seed 1, the outside open, gravity) and prints, per deal, the verdict, the positions searched
//! and the time: a quick way to follow the search on its hardest deals.
//!
//!     cargo run --release -p linkup --example gravity_deals -- 76 448
//!
//! With no deal named, every deal is decided and the totals printed. `--plain` decides without
//! gravity instead; `--input` prints the deals named as an input for the binary instead, e.g.
//! `... -- --input 76 | linkup solve --best --gravity --outside`; `--every` prints every deal
//! decided (by default, with no deal named, only those over 20,000 positions); `--seed S` deals
//! another 1,000 (seed 1 is the benchmark's).

use std::io::Write;
use std::time::{Duration, Instant};

use linkup::clear::{self, Settings, Verdict};
use linkup::model::{Board, Case, Rules};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn main() {
    let (mut gravity, mut input, mut each) = (true, false, false);
    let (mut seed, mut seed_next) = (1, false);
    let mut wanted = Vec::new();
    for arg in std::env::args().skip(1) {
        if seed_next {
            seed = arg.parse::<u64>().expect("a seed after --seed");
            seed_next = false;
        } else if arg == "--seed" {
            seed_next = true;
        } else if arg == "--plain" {
            gravity = false;
        } else if arg == "--input" {
            input = true;
        } else if arg == "--every" {
            each = true;
        } else {
            wanted.push(
                arg.parse::<usize>().expect("a deal number (0-based), --plain, --input, --every or --seed S"),
            );
        }
    }
    // With seed 1, the same stream as `standard_deals` in `benches/solve.rs`.
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let deals: Vec<Board> = (0..1000).map(|_| linkup::r#gen::deal(8, 18, 36, 4, &mut rng)).collect();
    if input {
        let cases: Vec<Case> =
            wanted.iter().map(|&index| Case { board: deals[index].clone(), queries: Vec::new() }).collect();
        let _ = std::io::stdout().write_all(&linkup::r#gen::to_input(&cases));
        return;
    }
    let every = wanted.is_empty();
    if every {
        wanted = (0..deals.len()).collect();
    }
    let settings =
        Settings { rules: Rules { max_turns: 2, outside: true }, gravity, budget: clear::DEFAULT_BUDGET };
    let (mut positions, mut worst, mut total) = (0, Duration::ZERO, Duration::ZERO);
    let mut out = std::io::stdout();
    for &index in &wanted {
        let began = Instant::now();
        let outcome = clear::search(&deals[index], settings).expect("a standard deal fits");
        let took = began.elapsed();
        let verdict = match outcome.verdict {
            Verdict::Cleared(_) => "cleared",
            Verdict::Hopeless => "hopeless",
            Verdict::Undecided(_) => "undecided",
        };
        let shown = !every || each || outcome.positions > 20_000;
        if shown
            && writeln!(out, "deal {index}: {verdict}, {} positions, {took:.3?}", outcome.positions).is_err()
        {
            // A closed pipe (`| head`): nobody reads the rest.
            return;
        }
        positions += outcome.positions;
        worst = worst.max(took);
        total += took;
    }
    let _ =
        writeln!(out, "{} deals: {positions} positions, total {total:.3?}, worst {worst:.3?}", wanted.len());
}
