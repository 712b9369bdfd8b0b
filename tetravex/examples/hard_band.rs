//! Prints the games of the hard band (a random solved board with about one arrangement of its
//! tiles expected: 8×8 and 7×7 with 6 digits) in the judge format, without asking the solver
//! which to keep, so that a set can hold games the search cannot decide: `planted` games are a
//! solved board's tiles shuffled, `perturbed` ones have one triangle of an inner joint changed
//! as well (solvable or not). Time them one by one with `tail_timing` under `timeout`.
//!
//! `cargo run --release -p tetravex --example hard_band -- planted|perturbed SIZE DIGITS GAMES SEED`

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tetravex::r#gen;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, numbers @ ..] = &args[..] else { panic!("expected planted|perturbed SIZE DIGITS GAMES SEED") };
    let numbers: Vec<u64> = numbers.iter().map(|a| a.parse().expect("numbers")).collect();
    let [size, digits, count, seed] = numbers[..] else { panic!("expected SIZE DIGITS GAMES SEED") };
    let (size, digits) = (size as usize, digits as u8);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let games: Vec<_> = (0..count)
        .map(|_| {
            let solved = r#gen::solved_board(size, digits, &mut rng);
            match mode.as_str() {
                "planted" => r#gen::shuffled(&solved, &mut rng),
                "perturbed" => r#gen::perturbed(&solved, digits, &mut rng),
                _ => panic!("the mode is planted or perturbed"),
            }
        })
        .collect();
    print!("{}", r#gen::to_input(&games));
}
