//! Generated blocks for `gen`, the benchmarks and the property tests.
//!
//! A solvable block is a rectangle whose inner joints each get a knob on a random side, cut
//! into pieces and shuffled (and, for the rotation variant, each piece turned at random). An
//! unsolvable one is broken before shuffling, by [`Break::Flip`] or [`Break::Swap`], and the
//! solver confirms there is no solution (else another rectangle is tried).

use std::fmt::Write as _;

use common::{Direction, Grid, Pos};
use rand::RngExt;
use rand::seq::SliceRandom;

use common::edge_match::Config;
use common::search::{Draws, GenError, Progress, draw_each};

use crate::model::{Assembly, Block, MAX_SIDE, Piece, Side};
use crate::solve;

/// How an unsolvable block is made from a solved rectangle (a value of `gen --unsolvable` for
/// the binary, hence clap's `ValueEnum` with the `cli` feature).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Break {
    /// Turn one inner side's knob into a hole or back: the knob and hole counts no longer
    /// balance.
    Flip,
    /// Exchange a knob and a hole on the same side (say, both right sides) of two pieces:
    /// every count of F, O and I, per side, stays the same, which defeats counting checks.
    Swap,
}

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Rows, 1..=[`MAX_SIDE`].
    pub rows: usize,
    /// Columns, 1..=[`MAX_SIDE`].
    pub cols: usize,
    /// Make blocks without a solution, broken this way.
    pub unsolvable: Option<Break>,
    /// Turn every piece by a random number of quarter turns; unsolvable blocks are then
    /// confirmed with rotation allowed.
    pub rotate: bool,
    /// How many blocks.
    pub blocks: usize,
    /// Rectangles tried for each block a search must accept before giving up, at least 1.
    pub tries: u64,
}

/// Rectangles tried for each block of `--unsolvable` or `--unique` of `rows × cols` pieces
/// before giving up, unless `--tries` says otherwise. A try (a search that must refute or count
/// the rectangle) is cheap up to 64 pieces and can be a thousand times dearer on the largest
/// rectangles, so fewer tries there keep the wait short for most blocks.
pub fn default_tries(rows: usize, cols: usize) -> u64 {
    if rows * cols <= 64 { 1000 } else { 50 }
}

/// The draws of the blocks of `options` that a search checks, giving `advice` when the tries
/// run out.
fn draws(options: Options, advice: &'static str) -> Draws {
    Draws { wanted: options.blocks, tries: options.tries, item: "block", candidate: "rectangle", advice }
}

/// Generates `options.blocks` blocks; refused when unsolvable blocks are asked for but cannot be
/// made (a flip needs an inner joint, a swap at least three pieces).
///
/// # Complexity
/// An unsolvable block costs one search per rectangle tried, at most `options.tries` of them.
///
/// # Errors
/// [`GenError::Refused`] as above; [`GenError::OutOfTries`], with the blocks made so far, when
/// the tries run out.
///
/// # Panics
/// When `options.rows` or `options.cols` is not in 1..=[`MAX_SIDE`].
pub fn blocks(
    options: Options,
    rng: &mut impl rand::Rng,
    progress: &Progress,
) -> Result<Vec<Block>, GenError<Block>> {
    let Options { rows, cols, unsolvable, rotate, blocks, .. } = options;
    assert!((1..=MAX_SIDE).contains(&rows) && (1..=MAX_SIDE).contains(&cols));
    let Some(how) = unsolvable else {
        return Ok((0..blocks)
            .map(|_| shuffled(rows, cols, solved_board(rows, cols, rng).into_cells(), rotate, rng))
            .collect());
    };
    let (name, needed, advice) = match how {
        Break::Flip => {
            ("flip", 2, "a flipped knob always leaves a block without a solution: try more --tries")
        }
        Break::Swap => (
            "swap",
            3,
            "a swapped knob and hole seldom leave a large block without a solution: try \
             --unsolvable flip or a smaller block, or more --tries",
        ),
    };
    if rows * cols < needed {
        return Err(GenError::Refused(format!(
            "an unsolvable block made by `{name}` needs at least {needed} pieces"
        )));
    }
    Ok(draw_each(
        draws(options, advice),
        progress,
        || {
            let pieces = broken(&solved_board(rows, cols, rng), how, rng)?;
            Some(shuffled(rows, cols, pieces, rotate, rng))
        },
        |block| solutions(block, rotate, 1, progress) == 0,
    )?)
}

/// Generates `options.blocks` solvable blocks that each have exactly one assembly (identical
/// pieces swapped make no other), checked by counting up to 2; refused when `options` asks for
/// unsolvable or turned pieces (a rectangle turned as a whole is another assembly, so turning
/// blocks are never unique).
///
/// # Complexity
/// One count to 2 per rectangle tried, at most `options.tries` of them.
///
/// # Errors
/// [`GenError::Refused`] as above; [`GenError::OutOfTries`], with the blocks made so far, when
/// the tries run out.
///
/// # Panics
/// When `options.rows` or `options.cols` is not in 1..=[`MAX_SIDE`].
pub fn unique_blocks(
    options: Options,
    rng: &mut impl rand::Rng,
    progress: &Progress,
) -> Result<Vec<Block>, GenError<Block>> {
    let Options { rows, cols, unsolvable, rotate, .. } = options;
    assert!((1..=MAX_SIDE).contains(&rows) && (1..=MAX_SIDE).contains(&cols));
    if unsolvable.is_some() || rotate {
        return Err(GenError::Refused(
            "a block with a unique solution can be neither unsolvable nor turned".to_owned(),
        ));
    }
    let advice = "large blocks seldom have a single assembly: try a smaller block, or more --tries";
    Ok(draw_each(
        draws(options, advice),
        progress,
        || Some(shuffled(rows, cols, solved_board(rows, cols, rng).into_cells(), false, rng)),
        |block| solutions(block, false, 2, progress) == 1,
    )?)
}

/// The assemblies of `block` up to `limit` (pieces turned when `rotate`), found on every core,
/// with the work reported to `progress`.
fn solutions(block: &Block, rotate: bool, limit: u64, progress: &Progress) -> u64 {
    solve::search_with(block, rotate, &Config::new(limit).with_progress(progress.clone())).found
}

/// A solved `rows × cols` rectangle: flat on the border, and at every inner joint a knob on a
/// random one of the two sides.
pub fn solved_board(rows: usize, cols: usize, rng: &mut impl rand::Rng) -> Assembly {
    let mut board = Grid::new(rows, cols, Piece { sides: [Side::Flat; 4] });
    for pos in board.positions() {
        let mut piece = Piece { sides: [Side::Flat; 4] };
        for direction in [Direction::Right, Direction::Down] {
            if board.neighbour(pos, direction).is_some() {
                piece.sides[direction.index()] = if rng.random_bool(0.5) { Side::Out } else { Side::In };
            }
        }
        if pos.col > 0 {
            piece.sides[3] = opposite(board[Pos::new(pos.row, pos.col - 1)].sides[1]);
        }
        if pos.row > 0 {
            piece.sides[0] = opposite(board[Pos::new(pos.row - 1, pos.col)].sides[2]);
        }
        board[pos] = piece;
    }
    board
}

/// The side that fits `side` at an inner joint.
fn opposite(side: Side) -> Side {
    match side {
        Side::Out => Side::In,
        Side::In => Side::Out,
        Side::Flat => Side::Flat,
    }
}

/// The pieces in random order, each turned at random when `rotate`.
pub fn shuffled(
    rows: usize,
    cols: usize,
    mut pieces: Vec<Piece>,
    rotate: bool,
    rng: &mut impl rand::Rng,
) -> Block {
    pieces.shuffle(rng);
    if rotate {
        for piece in &mut pieces {
            *piece = piece.rotated(rng.random_range(0..4));
        }
    }
    Block { rows, cols, pieces }
}

/// The board's pieces, broken by `how`; `None` when this board offers no place to do it.
pub fn broken(board: &Assembly, how: Break, rng: &mut impl rand::Rng) -> Option<Vec<Piece>> {
    let mut pieces = board.cells().to_vec();
    let inner_sides: Vec<(usize, usize)> = board
        .positions()
        .enumerate()
        .flat_map(|(cell, pos)| board.neighbours(pos).map(move |(direction, _)| (cell, direction.index())))
        .collect();
    match how {
        Break::Flip => {
            let &(cell, side) = inner_sides.get(rng.random_range(0..inner_sides.len().max(1)))?;
            pieces[cell].sides[side] = opposite(pieces[cell].sides[side]);
        }
        Break::Swap => {
            let ((a, b), side) = swap_pair(&pieces, &inner_sides, rng)?;
            let (side_a, side_b) = (pieces[a].sides[side], pieces[b].sides[side]);
            pieces[a].sides[side] = side_b;
            pieces[b].sides[side] = side_a;
        }
    }
    Some(pieces)
}

/// Two pieces `a < b` and a side, inner on both, holding a knob on one and a hole on the other,
/// drawn uniformly from all such pairs (in the order of `inner_sides`, pairs by their first
/// member, then their second); `None` when there is none. `inner_sides` lists (piece, side) by
/// piece, so for one side the later entries are the later pieces. The pairs are counted, not
/// listed: a 32×32 board has millions of them.
fn swap_pair(
    pieces: &[Piece],
    inner_sides: &[(usize, usize)],
    rng: &mut impl rand::Rng,
) -> Option<((usize, usize), usize)> {
    let letter = |&(piece, side): &(usize, usize)| usize::from(pieces[piece].sides[side] == Side::In);
    // partners[i]: the entries after i with its side and the other letter.
    let mut later = [[0usize; 2]; 4];
    let mut partners = vec![0; inner_sides.len()];
    for (i, entry) in inner_sides.iter().enumerate().rev() {
        partners[i] = later[entry.1][1 - letter(entry)];
        later[entry.1][letter(entry)] += 1;
    }
    let total: usize = partners.iter().sum();
    if total == 0 {
        return None;
    }
    let (mut pick, mut first) = (rng.random_range(0..total), 0);
    while pick >= partners[first] {
        pick -= partners[first];
        first += 1;
    }
    let (a, side) = inner_sides[first];
    let second = inner_sides[first + 1..]
        .iter()
        .filter(|entry| entry.1 == side && letter(entry) != letter(&(a, side)))
        .nth(pick)?;
    Some(((a, second.0), side))
}

/// Blocks in the judge's input format, each followed by a blank line, then `0 0`.
pub fn to_input(blocks: &[Block]) -> String {
    let mut out = String::new();
    for block in blocks {
        let _ = writeln!(out, "{} {}", block.rows, block.cols);
        for piece in &block.pieces {
            let _ = writeln!(out, "{piece}");
        }
        out.push('\n');
    }
    out.push_str("0 0\n");
    out
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// Rectangles tried per block: more than any of these small shapes needs.
    const TRIES: u64 = 1000;

    #[test]
    fn unique_blocks_have_one_solution_and_refuse_what_cannot_be_unique() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let options = Options { rows: 3, cols: 4, unsolvable: None, rotate: false, blocks: 5, tries: TRIES };
        for block in unique_blocks(options, &mut rng, &Progress::default()).unwrap() {
            assert_eq!(crate::reference::count(&block, false, 10), 1);
        }
        let turned = Options { rotate: true, ..options };
        assert!(unique_blocks(turned, &mut rng, &Progress::default()).is_err());
        let broken = Options { unsolvable: Some(Break::Swap), ..options };
        assert!(unique_blocks(broken, &mut rng, &Progress::default()).is_err());
        // Two tries per block on a 7×7 rectangle run out (its inner pieces are of few kinds, so
        // most rectangles have other assemblies), and the blocks made before are kept.
        let options = Options { rows: 7, cols: 7, blocks: 3, tries: 2, ..options };
        let Err(GenError::OutOfTries(short)) = unique_blocks(options, &mut rng, &Progress::default()) else {
            panic!("a unique 7×7 block in two tries");
        };
        assert!(short.made.len() < 3 && short.draws.tries == 2);
        assert!(short.made.iter().all(|block| crate::reference::count(block, false, 10) == 1));
    }

    #[test]
    fn solvable_blocks_are_solved_by_their_own_board() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for (rows, cols) in [(1, 1), (1, 5), (4, 1), (3, 3), (MAX_SIDE, MAX_SIDE)] {
            let board = solved_board(rows, cols, &mut rng);
            let block = shuffled(rows, cols, board.cells().to_vec(), false, &mut rng);
            assert!(block.is_solution(&board, false));
            let turned = shuffled(rows, cols, board.cells().to_vec(), true, &mut rng);
            assert!(turned.is_solution(&board, true));
        }
    }

    #[test]
    fn breaks_are_refused_where_impossible() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let options = |rows, cols, how| Options {
            rows,
            cols,
            unsolvable: Some(how),
            rotate: false,
            blocks: 1,
            tries: TRIES,
        };
        assert!(blocks(options(1, 1, Break::Flip), &mut rng, &Progress::default()).is_err());
        assert!(blocks(options(1, 2, Break::Swap), &mut rng, &Progress::default()).is_err());
        assert!(blocks(options(1, 2, Break::Flip), &mut rng, &Progress::default()).is_ok());
    }

    #[test]
    fn swaps_keep_every_count_per_side() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..50 {
            let board = solved_board(3, 4, &mut rng);
            let pieces = broken(&board, Break::Swap, &mut rng).expect("a 3×4 board has places to swap");
            let changed = pieces.iter().zip(board.cells()).filter(|(a, b)| a != b).count();
            assert_eq!(changed, 2);
            for side in 0..4 {
                let mut before: Vec<Side> = board.cells().iter().map(|p| p.sides[side]).collect();
                let mut after: Vec<Side> = pieces.iter().map(|p| p.sides[side]).collect();
                before.sort();
                after.sort();
                assert_eq!(before, after);
            }
        }
    }

    #[test]
    fn unsolvable_blocks_have_no_solution() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for (how, rotate) in [(Break::Flip, false), (Break::Swap, false), (Break::Swap, true)] {
            let options =
                Options { rows: 3, cols: 3, unsolvable: Some(how), rotate, blocks: 5, tries: TRIES };
            for block in blocks(options, &mut rng, &Progress::default()).unwrap() {
                assert_eq!(crate::reference::solve(&block, rotate), None, "{how:?}");
            }
        }
    }

    #[test]
    fn input_round_trips_through_the_parser() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let options = Options { rows: 4, cols: 2, unsolvable: None, rotate: true, blocks: 3, tries: TRIES };
        let generated = blocks(options, &mut rng, &Progress::default()).unwrap();
        let text = to_input(&generated);
        let parsed = crate::parse::blocks(&mut common::Tokens::new(text.as_bytes())).unwrap();
        assert_eq!(parsed.iter().collect::<Vec<_>>(), generated);
    }
}
