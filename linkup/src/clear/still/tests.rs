//! Tests of the search without gravity: answers taken against the relaxation, probes from bases,
//! rounds against the reference, the start of probing, and the budget.

use common::Pos;
use proptest::prelude::*;

use super::PROBE_AFTER;
use super::probing::PROBE_AFTER_HOPELESS;
use super::proofs::{FROM_BASE, Inherit, TAKEN};
use super::search::StillSearch;
use crate::clear::meter::OutOfBudget;
use crate::clear::search::Search;
use crate::clear::{
    DEFAULT_BUDGET, Limit, MAX_EDGES, MAX_SIDE, MEMO_WORDS, Settings, Tuning, Verdict, search, search_tuned,
};
use crate::model::{Board, EMPTY, Rules};

/// Decides a full deal of `kinds × 4` pieces on `rows × cols` cells from `seed`, with probing
/// from the first position and after the default [`PROBE_AFTER`], checks that both agree and
/// that a clearing order is legal (every removal joined by the line search of the queries,
/// on the board as it is then) and empties the board; returns the verdict.
fn decide_deal(
    rows: usize,
    cols: usize,
    kinds: u32,
    seed: u64,
    outside: bool,
) -> Result<bool, TestCaseError> {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let board = crate::r#gen::deal(rows, cols, kinds, 4, &mut rng);
    let settings = Settings { rules: Rules { max_turns: 2, outside }, gravity: false, budget: 100_000_000 };
    let mut verdicts = Vec::new();
    // Probing from the first position in rounds of the default length, after the default
    // number of positions, and after 2 positions in rounds of 1, 1, 2, 1, ... positions
    // (many rounds, each in its own order).
    for (probe_after, round_unit) in [(0, None), (PROBE_AFTER, None), (2, Some(1))] {
        let outcome = search_tuned(&board, settings, Tuning { probe_after, round_unit, ..Tuning::default() })
            .expect("small");
        let cleared = match outcome.verdict {
            Verdict::Cleared(order) => {
                let mut left = board.clone();
                for (a, b) in order {
                    let query = crate::model::Query { a, b };
                    prop_assert!(crate::reference::joinable(&left, settings.rules, query), "seed {}", seed);
                    left[Pos::new(a.row - 1, a.col - 1)] = EMPTY;
                    left[Pos::new(b.row - 1, b.col - 1)] = EMPTY;
                }
                prop_assert!(left.cells().iter().all(|&kind| kind == EMPTY), "seed {}", seed);
                true
            }
            Verdict::Hopeless => false,
            Verdict::Undecided(_) => return Err(TestCaseError::fail(format!("undecided: seed {seed}"))),
        };
        verdicts.push(cleared);
    }
    prop_assert!(verdicts.iter().all(|&cleared| cleared == verdicts[0]), "seed {}", seed);
    Ok(verdicts[0])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The answers of the relaxation taken rather than found (proofs carried to a branch,
    /// proofs and refutations of the parent's probes) are checked in debug builds against
    /// the relaxation run all the same (the search asserts they agree); here on deals of
    /// kinds of four, where they are taken, with and without the outside open.
    #[test]
    fn answers_taken_agree_with_the_relaxation(seed: u64, shape in 0usize..4, outside: bool) {
        let (rows, cols, kinds) = [(4, 4, 4), (4, 6, 6), (5, 8, 10), (6, 6, 9)][shape];
        decide_deal(rows, cols, kinds, seed, outside)?;
    }
}

/// Deals of 8 × 8 cells (16 kinds × 4) take answers of every sort, each checked as in
/// [`answers_taken_agree_with_the_relaxation`]: each rule of [`StillSearch::inherits`],
/// [`StillSearch::probe`] and [`StillSearch::still_refuted`] is exercised.
#[test]
fn every_sort_of_answer_is_taken() {
    TAKEN.with(|counts| counts.set([0; 4]));
    for seed in 0..40 {
        decide_deal(8, 8, 16, seed, seed % 2 == 0).expect("agrees");
    }
    let counts = TAKEN.with(std::cell::Cell::get);
    assert!(counts.iter().all(|&count| count > 0), "{counts:?}");
    assert!(FROM_BASE.with(std::cell::Cell::get) > 0, "no probe ran on from a base");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Probes run on from the bases of [`StillSearch::relax_base`] free the same pieces as runs
    /// from scratch (the search asserts it on every probe in debug builds), under every
    /// turn limit, on deals where the search probes many positions.
    #[test]
    fn probes_from_bases_agree_with_runs_from_scratch(
        seed: u64,
        max_turns in 0u32..=3,
        outside: bool,
    ) {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let board = crate::r#gen::deal(6, 8, 12, 4, &mut rng);
        let settings = Settings { rules: Rules { max_turns, outside }, gravity: false, budget: 100_000_000 };
        let outcome = search_tuned(&board, settings, Tuning { probe_after: 0, round_unit: Some(2), ..Tuning::default() }).expect("small");
        prop_assert!(!matches!(outcome.verdict, Verdict::Undecided(_)), "seed {}", seed);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// The search in rounds (short ones, each in its own order, the table of hopeless
    /// positions kept) agrees with the exhaustive reference on small full deals of kinds
    /// of four, under every turn limit, and its clearing orders replay.
    #[test]
    fn rounds_agree_with_the_reference(
        seed: u64,
        shape in 0usize..4,
        max_turns in 0u32..=3,
        outside: bool,
        probe_after in 0u64..4,
        round_unit in 1u64..4,
    ) {
        use rand::SeedableRng;
        let (rows, cols, kinds) = [(3, 4, 3), (4, 4, 4), (2, 8, 4), (4, 5, 5)][shape];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let board = crate::r#gen::deal(rows, cols, kinds, 4, &mut rng);
        let rules = Rules { max_turns, outside };
        let settings = Settings { rules, gravity: false, budget: 100_000_000 };
        let outcome = search_tuned(&board, settings, Tuning { probe_after, round_unit: Some(round_unit), ..Tuning::default() })
            .expect("small");
        let clearable = crate::reference::clearable(&board, rules, false);
        match outcome.verdict {
            Verdict::Cleared(order) => {
                prop_assert!(clearable, "seed {}", seed);
                let mut left = board.clone();
                for (a, b) in order {
                    let query = crate::model::Query { a, b };
                    prop_assert!(crate::reference::joinable(&left, rules, query), "seed {}", seed);
                    left[Pos::new(a.row - 1, a.col - 1)] = EMPTY;
                    left[Pos::new(b.row - 1, b.col - 1)] = EMPTY;
                }
                prop_assert!(left.cells().iter().all(|&kind| kind == EMPTY), "seed {}", seed);
            }
            Verdict::Hopeless => prop_assert!(!clearable, "seed {}", seed),
            Verdict::Undecided(_) => prop_assert!(false, "undecided: seed {}", seed),
        }
    }
}

/// Deal 453 of the standard deals (8 × 18, 36 kinds × 4, seed 1, the outside open) leads
/// the search without probing into [`PROBE_AFTER_HOPELESS`] hopeless positions well before
/// [`PROBE_AFTER`] positions: it starts again with probing then, and finds what probing from
/// the start finds.
#[test]
fn many_hopeless_positions_start_probing_early() {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let board = (0..=453).map(|_| crate::r#gen::deal(8, 18, 36, 4, &mut rng)).last().expect("deals");
    let rules = Rules { max_turns: 2, outside: true };
    let settings = Settings { rules, gravity: false, budget: DEFAULT_BUDGET };
    let mut without_probes = StillSearch::new(&board, rules, settings.budget, MEMO_WORDS);
    without_probes.probing.set(false);
    without_probes.meter.end_round_at(PROBE_AFTER);
    assert_eq!(without_probes.search_still(false, &Inherit::default()), Err(OutOfBudget));
    assert_eq!(without_probes.probing.hopeless_found(), PROBE_AFTER_HOPELESS);
    let positions = without_probes.meter.positions();
    assert!(positions < PROBE_AFTER, "{positions} positions");
    let outcome = search(&board, settings).expect("fits");
    assert!(outcome.positions > positions);
    let probing = Tuning { probe_after: 0, ..Tuning::default() };
    assert_eq!(outcome.verdict, search_tuned(&board, settings, probing).expect("fits").verdict);
    assert_eq!(outcome.verdict, Verdict::Hopeless);
}

/// A full board of the largest size with two kinds (1,800 pieces of each), dealt from `seed`.
fn largest_board_of_two_kinds(seed: u64) -> Board {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    crate::r#gen::deal(MAX_SIDE, MAX_SIDE, 2, MAX_SIDE * MAX_SIDE / 2, &mut rng)
}

/// The most work past the budget a search spends before it stops: the step that crosses it, at
/// most a row of a kind's pairs, a pass over the relaxation's pairs or a position's branches.
const OVERSHOOT: u64 = (MAX_EDGES + MAX_SIDE * MAX_SIDE * 64) as u64;

/// A position of the largest board with two kinds costs tens of millions of line checks (its
/// kinds' pairs, and their relaxation more than [`MAX_EDGES`] pairs): the search ends undecided
/// within the default budget, and says that the bound on the pairs stopped it, not the budget.
#[test]
fn the_bound_on_pairs_ends_a_largest_board_of_two_kinds_undecided() {
    let board = largest_board_of_two_kinds(1);
    let settings =
        Settings { rules: Rules { max_turns: 2, outside: true }, gravity: false, budget: DEFAULT_BUDGET };
    let outcome = search(&board, settings).expect("fits");
    assert_eq!(outcome.verdict, Verdict::Undecided(Limit::Pairs));
    assert!(outcome.work <= DEFAULT_BUDGET, "{} units of work", outcome.work);
    // A larger budget does not raise the bound.
    let outcome = search(&board, Settings { budget: 4 * DEFAULT_BUDGET, ..settings }).expect("fits");
    assert_eq!(outcome.verdict, Verdict::Undecided(Limit::Pairs));
}

/// A small budget stops the search inside its first position, with and without gravity, and
/// what was cut short is not entered as hopeless.
#[test]
fn a_small_budget_stops_inside_the_first_position() {
    let board = largest_board_of_two_kinds(2);
    for gravity in [false, true] {
        let settings = Settings { rules: Rules { max_turns: 2, outside: true }, gravity, budget: 1_000 };
        let outcome = search(&board, settings).expect("fits");
        assert_eq!(outcome.verdict, Verdict::Undecided(Limit::Budget), "gravity {gravity}");
        // Counted once its safe moves are made, which are already past the budget without gravity.
        assert!(outcome.positions <= 1, "gravity {gravity}: {} positions", outcome.positions);
        assert!(outcome.work <= 1_000 + OVERSHOOT, "gravity {gravity}: {} units of work", outcome.work);
    }
    let settings = Settings { rules: Rules { max_turns: 2, outside: true }, gravity: false, budget: 1_000 };
    let mut search = StillSearch::new(&board, settings.rules, settings.budget, MEMO_WORDS);
    assert_eq!(search.search_still(false, &Inherit::default()), Err(OutOfBudget));
    assert!(search.meter.exhausted());
    search.undo_to(0, 0);
    assert!(!search.memo.contains(&search.position), "a position cut short is not hopeless");
}
