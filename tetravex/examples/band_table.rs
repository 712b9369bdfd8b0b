//! The table of games decided near the threshold: for every board side and number of digits
//! asked, a set of games drawn as `hard_band` draws them (`planted`: a solved board's tiles
//! shuffled, the games `tetravex gen` makes with the same seed; `perturbed`: one inner
//! triangle changed as well), each game solved alone on one thread by `tail_timing` under a
//! CPU-time cap (`ulimit -t`), with its verdict, nodes and CPU seconds (`/usr/bin/time`). A game
//! past the cap is reported with the nodes it had reached. One line per game, then one per set.
//!
//! ```text
//! cargo build --release -p tetravex --example band_table --example tail_timing
//! target/release/examples/band_table planted 7,8,9,10 5,6,7,8,10 5 --cap 10
//! target/release/examples/band_table perturbed 7 6 10 --seed 76 --cap 10
//! ```
//!
//! The seed of a set is `--seed`, or `100 × side + digits`. `--solver PATH` times another build
//! of `tail_timing` (say the one before a change) on the same games.

use std::path::{Path, PathBuf};
use std::process::Command;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tetravex::r#gen;
use tetravex::model::Game;

/// What one game came to.
struct Timed {
    /// The verdict, or `None` past the cap.
    verdict: Option<String>,
    nodes: u64,
    cpu: f64,
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut take = |flag: &str| {
        let at = args.iter().position(|arg| arg == flag)?;
        let value = args.get(at + 1).cloned().unwrap_or_else(|| panic!("{flag} needs a value"));
        args.drain(at..=at + 1);
        Some(value)
    };
    let cap: u64 = take("--cap").map_or(10, |cap| cap.parse().expect("--cap SECONDS"));
    let seed: Option<u64> = take("--seed").map(|seed| seed.parse().expect("--seed N"));
    let solver = take("--solver").map_or_else(
        || std::env::current_exe().expect("this program's path").with_file_name("tail_timing"),
        PathBuf::from,
    );
    let [mode, sizes, digits, games] = &args[..] else {
        panic!("usage: band_table planted|perturbed SIZES DIGITS GAMES [--seed N] [--cap S] [--solver PATH]")
    };
    let list = |text: &str| -> Vec<u64> { text.split(',').map(|n| n.parse().expect("numbers")).collect() };
    let games: usize = games.parse().expect("a number of games");
    let scratch = std::env::temp_dir().join(format!("band-table-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("a scratch folder");
    println!("board digits game: verdict, nodes, CPU seconds (cap {cap} s; {mode}, {})", solver.display());
    for &size in &list(sizes) {
        for &digits in &list(digits) {
            let set_seed = seed.unwrap_or(100 * size + digits);
            let drawn = draw(mode, size as usize, digits as u8, games, set_seed);
            let mut timed = Vec::new();
            for (index, game) in drawn.iter().enumerate() {
                let file = scratch.join("game.txt");
                std::fs::write(&file, r#gen::to_input(std::slice::from_ref(game))).expect("writing a game");
                let result = time(&solver, &file, cap);
                let verdict = result.verdict.clone().unwrap_or_else(|| format!("past {cap} s CPU"));
                println!(
                    "{size}x{size} {digits} {}: {verdict}, {} nodes, {:.2} s",
                    index + 1,
                    result.nodes,
                    result.cpu
                );
                timed.push(result);
            }
            summary(size, digits, set_seed, &timed);
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

/// `count` games of the mode, side and digits from `seed`, as `hard_band` draws them.
fn draw(mode: &str, size: usize, digits: u8, count: usize, seed: u64) -> Vec<Game> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let solved = r#gen::solved_board(size, digits, &mut rng);
            match mode {
                "planted" => r#gen::shuffled(&solved, &mut rng),
                "perturbed" => r#gen::perturbed(&solved, digits, &mut rng),
                _ => panic!("the mode is planted or perturbed"),
            }
        })
        .collect()
}

/// Solves the game in `file` with `solver` under a CPU cap of `cap` seconds.
fn time(solver: &Path, file: &Path, cap: u64) -> Timed {
    let script = format!(
        "ulimit -t {cap}; exec /usr/bin/time -f 'cpu %U %S' '{}' < '{}'",
        solver.display(),
        file.display()
    );
    let output =
        Command::new("sh").arg("-c").arg(script).env("TAIL_PROGRESS", "1").output().expect("sh runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    let mut timed = Timed { verdict: None, nodes: 0, cpu: 0.0 };
    for line in stdout.lines().filter(|line| line.starts_with("game ")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        timed.verdict = words.get(2).map(|verdict| (*verdict).to_owned());
        timed.nodes = words.get(4).and_then(|nodes| nodes.parse().ok()).unwrap_or(0);
    }
    for line in stderr.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[..] {
            ["progress", nodes, "estimate", _] if timed.verdict.is_none() => {
                timed.nodes = nodes.parse().unwrap_or(timed.nodes);
            }
            ["cpu", user, system] => {
                timed.cpu = user.parse::<f64>().unwrap_or(0.0) + system.parse::<f64>().unwrap_or(0.0);
            }
            _ => {}
        }
    }
    timed
}

/// The line of one set: games decided, their median and worst CPU time, nodes.
fn summary(size: u64, digits: u64, seed: u64, timed: &[Timed]) {
    let decided: Vec<&Timed> = timed.iter().filter(|t| t.verdict.is_some()).collect();
    let mut cpu: Vec<f64> = decided.iter().map(|t| t.cpu).collect();
    cpu.sort_by(f64::total_cmp);
    let nodes: u64 = decided.iter().map(|t| t.nodes).sum();
    let (median, worst) =
        (cpu.get(cpu.len() / 2).copied().unwrap_or(0.0), cpu.last().copied().unwrap_or(0.0));
    println!(
        "set {size}x{size} {digits} digits (seed {seed}): {} of {} decided, median {median:.2} s, worst {worst:.2} s, {nodes} nodes decided",
        decided.len(),
        timed.len()
    );
}
