//! How many boards made as `gen --unsolvable` makes them (a solved board with one triangle of an
//! inner joint changed) stay solvable: the reason `gen --size 7 --digits 5 --unsolvable` cannot
//! finish. Prints a line per board (verdict, milliseconds) and the tally.
//!
//! `cargo run --release -p tetravex --example perturbed_share -- SIZE DIGITS BOARDS SEED`

use std::io::Write;
use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tetravex::{r#gen, solve};

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().expect("numbers")).collect();
    let [size, digits, boards, seed] = args[..] else { panic!("expected SIZE DIGITS BOARDS SEED") };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut solvable, mut worst) = (0, 0.0f64);
    let mut out = std::io::stdout();
    for board in 1..=boards {
        let solved = r#gen::solved_board(size as usize, digits as u8, &mut rng);
        let game = r#gen::perturbed(&solved, digits as u8, &mut rng);
        let start = Instant::now();
        let found = solve::solve(&game).is_some();
        let ms = start.elapsed().as_secs_f64() * 1e3;
        solvable += usize::from(found);
        worst = worst.max(ms);
        let verdict = if found { "solvable" } else { "unsolvable" };
        let _ = writeln!(out, "board {board:4} {verdict:10} {ms:10.1} ms");
        let _ = out.flush();
    }
    println!("{solvable} of {boards} boards solvable; slowest {worst:.0} ms");
}
