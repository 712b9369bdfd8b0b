//! Tests of the search's parts.

use super::bits::{run, run_high, run_low};
use super::proofs::{FROM_BASE, TAKEN};
use super::*;
use crate::model::EMPTY;
use proptest::prelude::*;

/// Bits of a framed `height × width` board from one bit per cell (row-major).
fn bits_of(height: usize, width: usize, open: &[bool]) -> Bits {
    let mut bits = Bits { rows: vec![0; height], cols: vec![0; width] };
    for row in 0..height {
        for col in 0..width {
            bits.set((row as u8, col as u8), open[row * width + col]);
        }
    }
    bits
}

/// A small board with two closed cells `a < b` (indices in reading order) for the tests of
/// what a pair waits on: `open` the board's cells, `more` cells a test may open later.
#[derive(Debug, Clone)]
struct PairCase {
    height: usize,
    width: usize,
    open: Vec<bool>,
    more: Vec<bool>,
    a: usize,
    b: usize,
    max_turns: u32,
}

impl PairCase {
    /// The cell at `index` in reading order.
    fn cell(&self, index: usize) -> Cell {
        ((index / self.width) as u8, (index % self.width) as u8)
    }

    /// The board with `open`'s cells open, but `a` and `b`, and those `extra` picks.
    fn bits_with(&self, extra: &dyn Fn(usize) -> bool) -> Bits {
        let open: Vec<bool> = (0..self.height * self.width)
            .map(|index| index != self.a && index != self.b && (self.open[index] || extra(index)))
            .collect();
        bits_of(self.height, self.width, &open)
    }
}

/// Boards of 3 to 8 rows and columns, any cells open, with two distinct cells closed.
fn pair_cases() -> impl Strategy<Value = PairCase> {
    (
        3usize..9,
        3usize..9,
        proptest::collection::vec(any::<bool>(), 64),
        proptest::collection::vec(any::<bool>(), 64),
        (0usize..64, 0usize..64),
        0u32..3,
    )
        .prop_filter_map("two distinct cells", |(height, width, open, more, ends, max_turns)| {
            let cells = height * width;
            let (a, b) = (ends.0 % cells, ends.1 % cells);
            (a != b).then(|| {
                let (open, more) = (open[..cells].to_vec(), more[..cells].to_vec());
                PairCase { height, width, open, more, a: a.min(b), b: a.max(b), max_turns }
            })
        })
}

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
            Verdict::Undecided => return Err(TestCaseError::fail(format!("undecided: seed {seed}"))),
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
        prop_assert!(outcome.verdict != Verdict::Undecided, "seed {}", seed);
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
            Verdict::Undecided => prop_assert!(false, "undecided: seed {}", seed),
        }
    }
}

proptest! {
    /// What a pair no line joins waits on holds while it stays closed. The watch
    /// ([`Bits::watch_on`]) names every line a cell must open on before a line can join
    /// them: opening any cells off those rows and columns leaves the pair unjoinable. The
    /// wait ([`Bits::wait_on`]) is that watch, or, when the pair is apart, four cells:
    /// opening any cells but those leaves it unjoinable (and [`Bits::still_apart`] says so).
    #[test]
    fn waits_name_everything_that_matters(case in pair_cases(), swap in any::<bool>()) {
        // Either end first: the checks do not assume reading order.
        let (a, b) = if swap { (case.b, case.a) } else { (case.a, case.b) };
        let (max_turns, cell) = (case.max_turns, |index: usize| case.cell(index));
        let bits = case.bits_with(&|_| false);
        let joinable = bits.joinable(cell(a), cell(b), max_turns);
        let watch = bits.joinable_or_watch(cell(a), cell(b), max_turns);
        let wait = Bits::wait_on(&bits.rows, &bits.cols, cell(a), cell(b), max_turns);
        prop_assert_eq!(watch.is_none(), joinable);
        prop_assert_eq!(wait.is_none(), joinable);
        let (Some((rows, cols)), Some(wait)) = (watch, wait) else { return Ok(()) };
        // Opens the cells `more` picks but `a`, `b` and those `kept` keeps closed.
        let opened = |kept: &dyn Fn(usize) -> bool| case.bits_with(&|index| !kept(index) && case.more[index]);
        let off_lines = opened(&|index| {
            let (row, col) = cell(index);
            rows >> row & 1 == 1 || cols >> col & 1 == 1
        });
        prop_assert!(!off_lines.joinable(cell(a), cell(b), max_turns));
        if !wait.is_apart() {
            prop_assert_eq!(wait.rows_cols(), (rows, cols));
            return Ok(());
        }
        prop_assert!(Bits::still_apart(&bits.rows, &bits.cols, wait));
        // The four cells, (row, column), from the shapes along the rows and the columns.
        let (across, down) = wait.shapes();
        let as_cell = |(row, col): (u32, u32)| (row as u8, col as u8);
        let [first, second] = across.cells().map(as_cell);
        let [third, fourth] = down.cells().map(|(col, row)| as_cell((row, col)));
        let four = [first, second, third, fourth];
        let off_cells = opened(&|index| four.contains(&cell(index)));
        prop_assert!(!off_cells.joinable(cell(a), cell(b), max_turns));
        prop_assert!(Bits::still_apart(&off_cells.rows, &off_cells.cols, wait));
    }
}

proptest! {
    /// The checks told their ends are in reading order ([`Bits::wait_on_sorted`]), and the
    /// recheck of a pair apart that looks again only along the lines where a cell opened
    /// ([`Bits::rewait_apart`]), find what [`Bits::wait_on`] finds.
    #[test]
    fn sorted_and_partial_waits_agree(case in pair_cases()) {
        let (a, b, max_turns, cell) = (case.a, case.b, case.max_turns, |index: usize| case.cell(index));
        let bits = case.bits_with(&|_| false);
        let wait = Bits::wait_on(&bits.rows, &bits.cols, cell(a), cell(b), max_turns);
        prop_assert_eq!(Bits::wait_on_sorted(&bits.rows, &bits.cols, cell(a), cell(b), max_turns), wait);
        let Some(wait) = wait.filter(|&wait| wait.is_apart()) else { return Ok(()) };
        let later = case.bits_with(&|index| case.more[index]);
        let opened = Bits::apart_opened(&later.rows, &later.cols, wait);
        prop_assume!(opened != (false, false));
        prop_assert_eq!(
            Bits::rewait_apart(&later.rows, &later.cols, (cell(a), cell(b)), max_turns, wait, opened),
            Bits::wait_on(&later.rows, &later.cols, cell(a), cell(b), max_turns)
        );
    }
}

proptest! {
    /// [`run_low`] and [`run_high`] (one masked bit scan each) find the ends of the run a
    /// plain walk from the bit finds, on any word with bit 63 clear.
    #[test]
    fn runs_end_where_a_walk_ends(line in any::<u64>(), at in 0u32..63) {
        let line = line & !(1 << 63);
        let open = |bit: u32| bit == at || line >> bit & 1 == 1;
        let (mut low, mut high) = (at, at);
        while low > 0 && open(low - 1) {
            low -= 1;
        }
        while open(high + 1) {
            high += 1;
        }
        prop_assert_eq!((run_low(line, at), run_high(line, at)), (low, high));
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
    let mut without_probes = StillSearch::new(&board, settings, MEMO_WORDS);
    without_probes.still.probe = false;
    without_probes.position.budget = PROBE_AFTER;
    assert_eq!(without_probes.search_still(false, &Inherit::default()), Err(OutOfBudget));
    assert_eq!(without_probes.still.hopeless_found, PROBE_AFTER_HOPELESS);
    assert!(
        without_probes.position.positions < PROBE_AFTER,
        "{} positions",
        without_probes.position.positions
    );
    let outcome = search(&board, settings).expect("fits");
    assert!(outcome.positions > without_probes.position.positions);
    assert_eq!(outcome.verdict, search_with(&board, settings, 0).expect("fits").verdict);
    assert_eq!(outcome.verdict, Verdict::Hopeless);
}

#[test]
fn runs_and_spans() {
    assert_eq!(run(0b0110_1100, 4), (2, 6));
    assert_eq!(run(0b0110_1100, 7), (5, 7));
    assert_eq!(run(0b1001_1100, 6), (6, 7));
    assert_eq!(run(0b0000_0111, 3), (0, 3));
    assert_eq!(span(2, 5), 0b11_1100);
    assert_eq!(span(0, 63), u64::MAX);
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
/// kinds' pairs, and their relaxation more than [`MAX_EDGES`] pairs): the default budget ends
/// the search undecided, having spent no more than it allows.
#[test]
fn the_default_budget_ends_a_largest_board_of_two_kinds_undecided() {
    let board = largest_board_of_two_kinds(1);
    let settings =
        Settings { rules: Rules { max_turns: 2, outside: true }, gravity: false, budget: DEFAULT_BUDGET };
    let outcome = search(&board, settings).expect("fits");
    assert_eq!(outcome.verdict, Verdict::Undecided);
    assert!(outcome.work <= DEFAULT_BUDGET + OVERSHOOT, "{} units of work", outcome.work);
}

/// A small budget stops the search inside its first position, with and without gravity, and
/// what was cut short is not entered as hopeless.
#[test]
fn a_small_budget_stops_inside_the_first_position() {
    let board = largest_board_of_two_kinds(2);
    for gravity in [false, true] {
        let settings = Settings { rules: Rules { max_turns: 2, outside: true }, gravity, budget: 1_000 };
        let outcome = search(&board, settings).expect("fits");
        assert_eq!(outcome.verdict, Verdict::Undecided, "gravity {gravity}");
        // Counted once its safe moves are made, which are already past the budget without gravity.
        assert!(outcome.positions <= 1, "gravity {gravity}: {} positions", outcome.positions);
        assert!(outcome.work <= 1_000 + OVERSHOOT, "gravity {gravity}: {} units of work", outcome.work);
    }
    let settings = Settings { rules: Rules { max_turns: 2, outside: true }, gravity: false, budget: 1_000 };
    let mut search = StillSearch::new(&board, settings, MEMO_WORDS);
    assert_eq!(search.search_still(false, &Inherit::default()), Err(OutOfBudget));
    assert!(search.position.exhausted);
    search.undo_to(0, 0);
    search.position.key();
    assert!(
        !search.position.memo.contains(fingerprint(&search.position.key), &search.position.key),
        "a position cut short is not hopeless"
    );
}
