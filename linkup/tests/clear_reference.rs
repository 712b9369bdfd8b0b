//! The exact search of `solve --best` (`clear`) against the plain exact reference
//! (`clear_reference`) on whole random boards of up to 32 pieces, 500 boards for each rule set
//! (inside the board or around it, with or without gravity), clearable and hopeless both: the
//! verdicts agree, and every clearing order found is legal on the plain rules. The same boards
//! are searched again with a table of hopeless positions too small to hold what the search
//! meets, so its full-table path gives the same verdicts.

use common::Pos;
use linkup::clear::{self, DEFAULT_BUDGET, Outcome, Settings, Verdict};
use linkup::model::{Board, EMPTY, Query, Rules};
use linkup::reference::clear::{self as clear_reference, MAX_PIECES};
use linkup::reference::{joinable, settle};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Boards per rule set.
const BOARDS: u64 = 500;

/// Words of the small table: a slot or two for the keys of these boards, so it fills at once.
const SMALL_TABLE_WORDS: usize = 8;

/// A board of 2 to 6 rows and columns holding up to [`MAX_PIECES`] pieces at random cells, in
/// kinds of two or four pieces (now and then six, or one odd piece out), from `seed`.
fn board(seed: u64) -> Board {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (rows, cols) = (rng.random_range(2..=6usize), rng.random_range(2..=6usize));
    let room = (rows * cols).min(MAX_PIECES);
    let target = rng.random_range(2..=room);
    let mut pieces = Vec::new();
    let mut kind = 0;
    while pieces.len() < target {
        kind += 1;
        let copies = match rng.random_range(0..20) {
            0 => 1,
            1 => 6,
            2..=9 => 2,
            _ => 4,
        };
        let copies = copies.min(target - pieces.len());
        pieces.extend(std::iter::repeat_n(kind, copies));
    }
    let mut cells = vec![EMPTY; rows * cols];
    let mut at: Vec<usize> = (0..rows * cols).collect();
    at.shuffle(&mut rng);
    for (&cell, &kind) in at.iter().zip(&pieces) {
        cells[cell] = kind;
    }
    Board::from_vec(rows, cols, cells)
}

/// Replays `order` on `board` by the plain rules: every removal joined then, the board empty at
/// the end.
fn replays(board: &Board, rules: Rules, gravity: bool, order: &[(Pos, Pos)]) -> Result<(), String> {
    let mut left = board.clone();
    for (step, &(a, b)) in order.iter().enumerate() {
        if !joinable(&left, rules, Query { a, b }) {
            return Err(format!("removal {step} ({a:?}, {b:?}) is not joined"));
        }
        left[Pos::new(a.row - 1, a.col - 1)] = EMPTY;
        left[Pos::new(b.row - 1, b.col - 1)] = EMPTY;
        if gravity {
            settle(&mut left, &[a, b]);
        }
    }
    if left.cells().iter().any(|&kind| kind != EMPTY) {
        return Err("pieces are left".to_owned());
    }
    Ok(())
}

/// Whether the search's outcome says cleared (its order replayed) or hopeless, as the
/// reference does.
fn agrees(
    outcome: &Outcome,
    board: &Board,
    rules: Rules,
    gravity: bool,
    clearable: bool,
) -> Result<(), String> {
    match &outcome.verdict {
        Verdict::Cleared(order) if clearable => replays(board, rules, gravity, order),
        Verdict::Hopeless if !clearable => Ok(()),
        verdict => Err(format!("the search says {verdict:?}, the reference clearable: {clearable}")),
    }
}

/// Checks [`BOARDS`] boards under `rules` and `gravity` (seeds from `first`); both verdicts
/// must come up often.
fn compare(rules: Rules, gravity: bool, first: u64) {
    let settings = Settings { rules, gravity, budget: DEFAULT_BUDGET };
    let (mut cleared, mut hopeless) = (0, 0);
    for seed in first..first + BOARDS {
        let board = board(seed);
        let clearable = clear_reference::clearable(&board, rules, gravity).expect("few pieces");
        let outcome = clear::search(&board, settings).expect("small");
        if let Err(why) = agrees(&outcome, &board, rules, gravity, clearable) {
            panic!("seed {seed}: {why}\n{board:?}");
        }
        let small = clear::search_with_table(&board, settings, SMALL_TABLE_WORDS).expect("small");
        if let Err(why) = agrees(&small, &board, rules, gravity, clearable) {
            panic!("seed {seed}, small table: {why}\n{board:?}");
        }
        if clearable {
            cleared += 1;
        } else {
            hopeless += 1;
        }
    }
    assert!(cleared >= BOARDS / 10 && hopeless >= BOARDS / 10, "{cleared} cleared, {hopeless} hopeless");
}

#[test]
fn inside_the_board() {
    compare(Rules { max_turns: 2, outside: false }, false, 1_000);
}

#[test]
fn around_the_outside() {
    compare(Rules { max_turns: 2, outside: true }, false, 2_000);
}

#[test]
fn inside_the_board_with_gravity() {
    compare(Rules { max_turns: 2, outside: false }, true, 3_000);
}

#[test]
fn around_the_outside_with_gravity() {
    compare(Rules { max_turns: 2, outside: true }, true, 4_000);
}
