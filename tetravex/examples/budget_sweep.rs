//! Solves every game of a judge-format input on one thread under each of several engine
//! budgets (`Budgets`), one line per setting: the nodes of the whole set, of its worst game and
//! the milliseconds taken. The harness behind the budget choices in the README: nodes do not
//! depend on the machine, so a setting can be judged on a busy one.
//!
//! `cargo run --release -p tetravex --example budget_sweep -- 100000:2000 10000:250 < games.txt`
//! (each argument is `PLAIN:PROBES[:RESTART_SHARE]` or `NAME=VALUE,…`, say
//! `plain=1000,quick_tree=0`; see `Budgets` in `common::edge_match`; an argument `--games`
//! before them also prints the nodes of each game).

use std::io::Read;
use std::num::NonZeroUsize;
use std::time::Instant;

use common::Tokens;
use common::edge_match::{Budgets, Config};
use tetravex::{parse, solve};

/// The budgets an argument names, the others as by default: `PLAIN:PROBES[:RESTART_SHARE]`, or
/// `NAME=VALUE,…` with the names `plain`, `probes`, `restart_share`, `quick_probes`,
/// `quick_cells`, `quick_plain`, `quick_tree`, `quick_trust`, `quick_cap`, `restarts`,
/// `restart_unit`, `dead_row`, `scarce_cells`.
fn budgets(arg: &str) -> Budgets {
    let mut budgets = Budgets::DEFAULT;
    if arg.contains('=') {
        for setting in arg.split(',') {
            let (name, value) = setting.split_once('=').expect("NAME=VALUE");
            let value: u64 = value.parse().expect("a number");
            let narrow = || u32::try_from(value).expect("a smaller number");
            match name {
                "plain" => budgets.plain = value,
                "probes" => budgets.probes = narrow(),
                "restart_share" => budgets.restart_share = narrow(),
                "quick_probes" => budgets.quick_probes = narrow(),
                "quick_cells" => budgets.quick_cells = value as usize,
                "quick_plain" => budgets.quick_plain = value,
                "quick_tree" => budgets.quick_tree = value,
                "quick_trust" => budgets.quick_trust = narrow(),
                "quick_cap" => budgets.quick_cap = value,
                "restarts" => budgets.restarts = value,
                "restart_unit" => budgets.restart_unit = value,
                "dead_row" => budgets.dead_row = value as usize,
                "scarce_cells" => budgets.scarce_cells = value as usize,
                _ => panic!("unknown budget {name}"),
            }
        }
        return budgets;
    }
    let numbers: Vec<u64> = arg.split(':').map(|n| n.parse().expect("numbers separated by ':'")).collect();
    match numbers[..] {
        [plain, probes] => (budgets.plain, budgets.probes) = (plain, probes as u32),
        [plain, probes, share] => {
            (budgets.plain, budgets.probes, budgets.restart_share) = (plain, probes as u32, share as u32);
        }
        _ => panic!("expected PLAIN:PROBES[:RESTART_SHARE], got {arg}"),
    }
    budgets
}

fn main() {
    let mut text = Vec::new();
    std::io::stdin().read_to_end(&mut text).expect("readable stdin");
    let games = parse::games(&mut Tokens::new(&text)).expect("games in the judge format");
    let mut per_game = false;
    for arg in std::env::args().skip(1) {
        if arg == "--games" {
            per_game = true;
            continue;
        }
        let mut config = Config::new(1).with_threads(Some(NonZeroUsize::MIN));
        config.budgets = budgets(&arg);
        let start = Instant::now();
        let (mut nodes, mut worst) = (0, 0);
        let mut each = Vec::new();
        for game in games.iter() {
            let outcome = solve::search_with(&game, &config);
            if let Some(board) = &outcome.first {
                assert!(game.is_solution(board), "a wrong board under {arg}");
            }
            nodes += outcome.nodes;
            worst = worst.max(outcome.nodes);
            each.push(outcome.nodes.to_string());
        }
        if per_game {
            println!("{arg:>16}  each game: {}", each.join(" "));
        }
        let ms = start.elapsed().as_secs_f64() * 1e3;
        println!("{arg:>16}  nodes {nodes:>12}  worst game {worst:>11}  {ms:9.1} ms");
    }
}
