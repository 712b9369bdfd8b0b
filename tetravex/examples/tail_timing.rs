//! Times every game of a judge-format input on one thread, one line per game (index, verdict,
//! nodes, milliseconds), then the median, the worst, the total time and the nodes of all games:
//! the harness for games too slow for criterion.
//! `cargo run --release -p tetravex --example tail_timing < games.txt`; wrap it in `timeout`
//! when a game may not finish. With `TAIL_PROGRESS` set in the environment, the nodes searched
//! so far go to stderr every half second (`progress N estimate E`, E once the search has sized
//! its tree, else 0).

use std::io::{Read, Write};
use std::num::NonZeroUsize;
use std::time::Instant;

use common::Tokens;
use common::edge_match::{Config, Progress};
use tetravex::{parse, solve};

fn main() {
    let mut text = Vec::new();
    std::io::stdin().read_to_end(&mut text).expect("readable stdin");
    let games = parse::games(&mut Tokens::new(&text)).expect("games in the judge format");
    let mut config = Config::new(1).with_threads(Some(NonZeroUsize::MIN));
    if std::env::var_os("TAIL_PROGRESS").is_some() {
        // The nodes so far (and the search's estimate of all it will visit, once it has one) on
        // stderr every half second, for a harness that stops a long game (`band_table`): the
        // last line tells how far it got.
        let progress = Progress::watched();
        config = config.with_progress(progress.clone());
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(std::time::Duration::from_millis(500));
                eprintln!("progress {} estimate {}", progress.nodes(), progress.estimate());
            }
        });
    }
    let mut times = Vec::new();
    let mut nodes = 0u64;
    let mut out = std::io::stdout();
    for (index, game) in games.iter().enumerate() {
        let start = Instant::now();
        let outcome = solve::search_with(&game, &config);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        if let Some(board) = &outcome.first {
            assert!(game.is_solution(board), "game {} got a wrong board", index + 1);
        }
        let verdict = if outcome.found > 0 { "solvable" } else { "unsolvable" };
        let line = writeln!(out, "game {:3} {verdict:10} nodes {:12} {ms:10.2} ms", index + 1, outcome.nodes);
        if line.and_then(|()| out.flush()).is_err() {
            // A closed pipe (`| head`): nobody reads the rest.
            return;
        }
        times.push(ms);
        nodes += outcome.nodes;
    }
    times.sort_by(f64::total_cmp);
    if let (Some(worst), false) = (times.last(), times.is_empty()) {
        let total: f64 = times.iter().sum();
        let _ = writeln!(
            out,
            "games {} median {:.2} ms worst {worst:.2} ms total {total:.2} ms nodes {nodes}",
            times.len(),
            times[times.len() / 2]
        );
    }
}
