//! The fixed-seed blocks of the benchmarks, shared by `benches/solve.rs` (which times the
//! solvers on them) and the example `bench_counts` (which counts the search's nodes), so that
//! both describe the same work.

use common::search::Progress;
use jigsaw::r#gen::{self, Break, Options};
use jigsaw::model::Block;
use jigsaw::solve;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Rectangles tried per block: as many as any of these shapes and seeds needs, so the blocks
/// stay those `jigsaw gen --tries 10000` makes.
const TRIES: u64 = 10_000;

/// One benchmark group's blocks and what is known of them.
pub struct Set {
    /// The group's name.
    pub name: &'static str,
    pub blocks: Vec<Block>,
    /// Solved with pieces allowed to turn.
    pub rotate: bool,
    /// How many of the blocks have a solution.
    pub solvable: usize,
    /// Whether the plain reference is timed beside the fast solver.
    #[allow(dead_code, reason = "the benchmark reads it, the example that counts nodes does not")]
    pub with_reference: bool,
}

/// `count` blocks as `jigsaw gen --rows N --cols N [--unsolvable HOW] [--rotate] --seed SEED`
/// makes them.
fn blocks(side: usize, unsolvable: Option<Break>, rotate: bool, count: usize, seed: u64) -> Vec<Block> {
    planted(side, side, unsolvable, rotate, count, seed)
}

/// `count` blocks as `jigsaw gen --rows ROWS --cols COLS [--unsolvable HOW] [--rotate] --seed
/// SEED` makes them.
pub fn planted(
    rows: usize,
    cols: usize,
    unsolvable: Option<Break>,
    rotate: bool,
    count: usize,
    seed: u64,
) -> Vec<Block> {
    let options = Options { rows, cols, unsolvable, rotate, blocks: count, tries: TRIES };
    r#gen::blocks(options, &mut ChaCha8Rng::seed_from_u64(seed), &Progress::default())
        .expect("the generator makes these shapes")
}

/// `count` rectangles with a knob and a hole swapped, as `gen --unsolvable swap` draws them
/// but not checked: most still have an assembly (another one), some have none.
pub fn swapped(rows: usize, cols: usize, rotate: bool, count: usize, seed: u64) -> Vec<Block> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let board = r#gen::solved_board(rows, cols, &mut rng);
            let pieces = r#gen::broken(&board, Break::Swap, &mut rng).expect("room for a swap");
            r#gen::shuffled(rows, cols, pieces, rotate, &mut rng)
        })
        .collect()
}

/// The first 20 of 4000 swap-broken 6×6 blocks that pass every check needing no search.
fn past_root_checks() -> Vec<Block> {
    let residue: Vec<Block> = blocks(6, Some(Break::Swap), false, 4000, 2)
        .into_iter()
        .filter(|block| solve::passes_root_checks(block, false))
        .take(20)
        .collect();
    assert_eq!(residue.len(), 20, "4000 swap-broken blocks hold 20 that pass the root checks");
    residue
}

/// Every set, in the order of the benchmarks.
pub fn all() -> Vec<Set> {
    let swap = Some(Break::Swap);
    let set = |name, blocks, rotate, solvable, with_reference| Set {
        name,
        blocks,
        rotate,
        solvable,
        with_reference,
    };
    vec![
        set("a_6x6_swap", blocks(6, swap, false, 20, 1), false, 0, true),
        set("a_6x6_swap_past_root_checks", past_root_checks(), false, 0, true),
        set("b_10x10_solvable", blocks(10, None, false, 10, 3), false, 10, false),
        set("c_8x8_swap", blocks(8, swap, false, 10, 4), false, 0, false),
        set("d_6x6_rotate", blocks(6, None, true, 10, 5), true, 10, false),
        set("e_12x12_solvable", blocks(12, None, false, 10, 6), false, 10, false),
        set("f_16x16_solvable", blocks(16, None, false, 5, 7), false, 5, false),
        set("f_16x16_swap", blocks(16, swap, false, 5, 8), false, 0, false),
        set("f_16x16_rotate_solvable", blocks(16, None, true, 5, 9), true, 5, false),
        set("f_16x16_rotate_swap", blocks(16, swap, true, 5, 10), true, 0, false),
        set("g_20x20_planted", planted(20, 20, None, false, 5, 11), false, 5, false),
        set("g_20x20_swapped", swapped(20, 20, false, 5, 12), false, 5, false),
        set("g_20x20_rotate_planted", planted(20, 20, None, true, 5, 13), true, 5, false),
        set("g_20x20_rotate_swapped", swapped(20, 20, true, 5, 14), true, 4, false),
        set("h_32x32_planted", planted(32, 32, None, false, 5, 15), false, 5, false),
        set("h_32x32_swapped", swapped(32, 32, false, 5, 16), false, 4, false),
        set("h_32x32_rotate_planted", planted(32, 32, None, true, 5, 17), true, 5, false),
        set("h_32x32_rotate_swapped", swapped(32, 32, true, 5, 18), true, 5, false),
        set("i_25x40_planted", planted(25, 40, None, false, 5, 19), false, 5, false),
        set("i_25x40_swapped", swapped(25, 40, false, 5, 20), false, 5, false),
        set("i_25x40_rotate_planted", planted(25, 40, None, true, 5, 21), true, 5, false),
        set("i_25x40_rotate_swapped", swapped(25, 40, true, 5, 22), true, 4, false),
    ]
}
