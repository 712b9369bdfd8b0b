//! Rectangles of real puzzles' sizes (1,000 pieces and more, up to the largest accepted): planted
//! blocks are solved, with and without turning, and every assembly is checked against the rules
//! and the block's pieces. Fixed seeds; a failure names its shape and seed.

use std::num::NonZeroUsize;

use common::edge_match::Config;
use jigsaw::model::{Block, MAX_SIDE};
use jigsaw::{r#gen, solve};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A planted block of `rows × cols` pieces from `seed`, turned at random when `rotate`.
fn planted(rows: usize, cols: usize, rotate: bool, seed: u64) -> Block {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let board = r#gen::solved_board(rows, cols, &mut rng);
    r#gen::shuffled(rows, cols, board.into_cells(), rotate, &mut rng)
}

/// Solves `block` on one thread and checks the assembly.
fn assert_solved(block: &Block, rotate: bool, what: &str) {
    let config = Config::new(1).with_threads(Some(NonZeroUsize::MIN));
    let assembly = solve::search_with(block, rotate, &config).first;
    let assembly = assembly.unwrap_or_else(|| panic!("{what}: no assembly found"));
    assert!(block.is_solution(&assembly, rotate), "{what}: the assembly breaks the rules");
}

#[test]
fn planted_32_by_32_blocks_are_solved_with_and_without_turning() {
    for seed in 0..3 {
        let block = planted(32, 32, false, seed);
        assert_solved(&block, false, &format!("32×32 seed {seed}"));
        let turned = planted(32, 32, true, seed);
        assert_solved(&turned, true, &format!("32×32 turned, seed {seed}"));
    }
}

#[test]
fn thousand_piece_rectangles_both_ways_and_the_largest_are_solved() {
    for (rows, cols) in [(25, 40), (40, 25), (MAX_SIDE, MAX_SIDE)] {
        for rotate in [false, true] {
            let block = planted(rows, cols, rotate, 7);
            assert_solved(&block, rotate, &format!("{rows}×{cols} rotate {rotate}"));
        }
    }
}
