//! The exact search of `solve --best` (`clear`) against the plain exact reference
//! (`reference::clear`) on whole random boards of up to 32 pieces, 500 boards for each rule set
//! (inside the board or around it, with or without gravity), clearable and hopeless both: the
//! verdicts agree, and every clearing order found is legal on the plain rules. (The same boards
//! searched with a table of hopeless positions too small to hold what the search meets are a
//! test of the crate's own, in `src/clear/tests.rs`: the table's bound is not a setting.)

use linkup::clear::{self, DEFAULT_BUDGET, Outcome, Settings, Verdict};
use linkup::model::{Board, Rules};
use linkup::reference::clear::{self as clear_reference, random_board, replays};

/// Boards per rule set.
const BOARDS: u64 = 500;

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
        let board = random_board(seed);
        let clearable = clear_reference::clearable(&board, rules, gravity).expect("few pieces");
        let outcome = clear::search(&board, settings).expect("small");
        if let Err(why) = agrees(&outcome, &board, rules, gravity, clearable) {
            panic!("seed {seed}: {why}\n{board:?}");
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
