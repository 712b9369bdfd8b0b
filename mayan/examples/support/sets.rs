//! The fixed-seed boards of the benchmarks, shared by `benches/solve.rs` (which times the
//! searches on them) and the example `bench_counts` (which counts the boards they visit), so
//! that both describe the same work.

use mayan::board::Board;
use mayan::r#gen;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// `count` random boards of `blocks` blocks in `colours` colours, as `mayan gen --seed` makes
/// them, from seeds fixed by the shape.
pub fn random_boards(count: usize, blocks: usize, colours: u8) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(1000 * blocks as u64 + u64::from(colours));
    (0..count)
        .map(|_| r#gen::random_board(blocks, colours, &mut rng).expect("30 blocks in 4 colours fit"))
        .collect()
}

/// `count` boards solvable in exactly `moves` moves, of 30 to 34 blocks in `colours` colours.
pub fn solvable_boards(count: usize, colours: u8, moves: usize) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(7000 + moves as u64);
    (0..count)
        .map(|index| {
            let blocks = 30 + index % 5;
            r#gen::solvable_board(blocks, colours, moves, &mut rng)
                .expect("the generator makes these shapes")
                .0
        })
        .collect()
}
