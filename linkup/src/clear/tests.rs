//! Tests of the parts both searches share (the bit board's line checks and what a pair waits
//! on), and of the searches with their knobs turned against the references.

use proptest::prelude::*;

use super::bits::{Bits, Cell, run, run_high, run_low, span};
use super::{DEFAULT_BUDGET, Settings, Tuning, Verdict, search_tuned};
use crate::model::{Board, Rules};
use crate::reference;
use crate::reference::clear::{
    self as clear_reference, game_board, packed_game_board, random_board, replays,
};

/// Bits of a framed `height × width` board from one bit per cell (row-major).
fn bits_of(height: usize, width: usize, open: &[bool]) -> Bits {
    let mut bits = Bits::closed(height, width);
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
        let wait = Bits::wait_on(bits.rows(), bits.cols(), cell(a), cell(b), max_turns);
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
        prop_assert!(Bits::still_apart(bits.rows(), bits.cols(), wait));
        // The four cells, (row, column), from the shapes along the rows and the columns.
        let (across, down) = wait.shapes();
        let as_cell = |(row, col): (u32, u32)| (row as u8, col as u8);
        let [first, second] = across.cells().map(as_cell);
        let [third, fourth] = down.cells().map(|(col, row)| as_cell((row, col)));
        let four = [first, second, third, fourth];
        let off_cells = opened(&|index| four.contains(&cell(index)));
        prop_assert!(!off_cells.joinable(cell(a), cell(b), max_turns));
        prop_assert!(Bits::still_apart(off_cells.rows(), off_cells.cols(), wait));
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
        let wait = Bits::wait_on(bits.rows(), bits.cols(), cell(a), cell(b), max_turns);
        prop_assert_eq!(Bits::wait_on_sorted(bits.rows(), bits.cols(), cell(a), cell(b), max_turns), wait);
        let Some(wait) = wait.filter(|&wait| wait.is_apart()) else { return Ok(()) };
        let later = case.bits_with(&|index| case.more[index]);
        let opened = Bits::apart_opened(later.rows(), later.cols(), wait);
        prop_assume!(opened != (false, false));
        prop_assert_eq!(
            Bits::rewait_apart(later.rows(), later.cols(), (cell(a), cell(b)), max_turns, wait, opened),
            Bits::wait_on(later.rows(), later.cols(), cell(a), cell(b), max_turns)
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

#[test]
fn runs_and_spans() {
    assert_eq!(run(0b0110_1100, 4), (2, 6));
    assert_eq!(run(0b0110_1100, 7), (5, 7));
    assert_eq!(run(0b1001_1100, 6), (6, 7));
    assert_eq!(run(0b0000_0111, 3), (0, 3));
    assert_eq!(span(2, 5), 0b11_1100);
    assert_eq!(span(0, 63), u64::MAX);
}

/// The search's verdict on `board` against the reference's (`clearable`): a clearing order
/// replays on the plain rules, and hopeless is hopeless.
fn agrees(
    board: &Board,
    rules: Rules,
    gravity: bool,
    verdict: Verdict,
    clearable: bool,
) -> Result<(), String> {
    match verdict {
        Verdict::Cleared(order) if clearable => replays(board, rules, gravity, &order),
        Verdict::Hopeless if !clearable => Ok(()),
        verdict => Err(format!("the search says {verdict:?}, the reference clearable: {clearable}")),
    }
}

/// Words of a table of hopeless positions too small for the boards of [`random_board`]: a slot
/// or two for their keys, so it fills at once.
const SMALL_TABLE_WORDS: usize = 8;

/// The boards of the comparison with the exhaustive reference (`tests/clear_reference.rs`, 500
/// for each rule set) searched with a table of hopeless positions of [`SMALL_TABLE_WORDS`],
/// which fills at once: the full table's path only forgets, so the verdicts still agree with the
/// reference, and every clearing order replays.
#[test]
fn a_full_table_gives_the_same_verdicts() {
    let sets = [(false, false, 1_000), (true, false, 2_000), (false, true, 3_000), (true, true, 4_000)];
    for (outside, gravity, first) in sets {
        let rules = Rules { max_turns: 2, outside };
        let settings = Settings { rules, gravity, budget: DEFAULT_BUDGET };
        for seed in first..first + 500 {
            let board = random_board(seed);
            let clearable = clear_reference::clearable(&board, rules, gravity).expect("few pieces");
            let small = Tuning { memo_words: Some(SMALL_TABLE_WORDS), ..Tuning::default() };
            let outcome = search_tuned(&board, settings, small).expect("small");
            if let Err(why) = agrees(&board, rules, gravity, outcome.verdict, clearable) {
                panic!("seed {seed}, small table: {why}\n{board:?}");
            }
        }
    }
}

proptest! {
    // Whole games: the exhaustive reference is exponential, so boards hold at most 8 pieces.
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// The search probing from the first position agrees with the exhaustive reference on the
    /// small boards of whole games (`tests/props.rs` checks the search as shipped on the same
    /// boards), its clearing orders replayed cell by cell.
    #[test]
    fn probing_from_the_first_position_agrees_with_the_reference(
        seed: u64,
        max_turns in 0u32..=3,
        outside: bool,
        gravity: bool,
    ) {
        let board = game_board(seed, 8);
        let rules = Rules { max_turns, outside };
        let clearable = reference::clearable(&board, rules, gravity);
        let settings = Settings { rules, gravity, budget: 100_000_000 };
        let probing = search_tuned(&board, settings, Tuning { probe_after: 0, ..Tuning::default() }).unwrap();
        let agreed = agrees(&board, rules, gravity, probing.verdict, clearable);
        prop_assert!(agreed.is_ok(), "seed {}: {:?}", seed, agreed);
    }
}

proptest! {
    // The search with gravity on packed boards (where the key of hopeless positions is the
    // board, not the pieces) and with restarts after every few positions.
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn gravity_with_restarts_agrees_with_the_reference(
        seed: u64,
        max_turns in 0u32..=3,
        outside: bool,
        restart_unit in 1u64..=4,
    ) {
        let board = packed_game_board(seed, 10);
        let rules = Rules { max_turns, outside };
        let settings = Settings { rules, gravity: true, budget: 100_000_000 };
        let outcome = search_tuned(&board, settings, Tuning { restart_unit, ..Tuning::default() }).unwrap();
        let clearable = reference::clearable(&board, rules, true);
        let agreed = agrees(&board, rules, true, outcome.verdict, clearable);
        prop_assert!(agreed.is_ok(), "seed {}: {:?}", seed, agreed);
    }
}

/// The most work past its budget a search spends before it stops, whatever the rules: the step
/// that crosses it, at most a pass over the relaxation's pairs ([`super::MAX_EDGES`]) or a row
/// of a kind's pairs, each a flood over the board's rows and columns at worst.
const OVERSHOOT: u64 =
    (super::MAX_EDGES + super::MAX_SIDE * super::MAX_SIDE * (2 * super::MAX_SIDE + 8)) as u64;

/// On the largest boards, of 2 and of 300 kinds, every rule set (1, 2, 3 and 10 turns, inside
/// and outside, without and with gravity) stops within its budget, a step past it at most: the
/// work is charged as it is done, floods of more than two turns included, never estimated
/// ahead (with gravity, floods were once charged for every pair a position might check).
#[test]
fn every_rule_set_stops_at_its_budget() {
    use rand::SeedableRng;
    const BUDGET: u64 = 400_000;
    for kinds in [2, 300] {
        let board = crate::r#gen::board(60, 60, 1.0, kinds, &mut rand_chacha::ChaCha8Rng::seed_from_u64(1));
        let rule_sets = [1, 2, 3, 10].into_iter().flat_map(|turns| {
            [(turns, false, false), (turns, false, true), (turns, true, false), (turns, true, true)]
        });
        for (max_turns, outside, gravity) in rule_sets {
            let settings = Settings { rules: Rules { max_turns, outside }, gravity, budget: BUDGET };
            let outcome = search_tuned(&board, settings, Tuning::default()).expect("fits");
            let rules = format!("{kinds} kinds, {max_turns} turns, outside {outside}, gravity {gravity}");
            if matches!(outcome.verdict, Verdict::Undecided(super::Limit::Budget)) {
                assert!(outcome.work > BUDGET, "{rules}: stopped by the budget at {} units", outcome.work);
            }
            assert!(outcome.work <= BUDGET + OVERSHOOT, "{rules}: {} units of work", outcome.work);
        }
    }
}

/// The bit board's line check refuses boards wider or taller than its words hold, rather than
/// answer from bits that do not fit: a 61 × 2 board of two pieces side by side, and its
/// transpose, which fit a query's line search.
#[test]
fn joinable_refuses_boards_beyond_the_bit_board() {
    use common::Pos;
    let side = super::MAX_SIDE + 1;
    let mut tall = vec![0; side * 2];
    tall[(side - 1) * 2..].fill(7);
    let tall = Board::from_vec(side, 2, tall);
    let (a, b) = (Pos::new(side, 1), Pos::new(side, 2));
    assert_eq!(super::joinable(&tall, Rules::default(), a, b), Err(super::TooLarge { rows: side, cols: 2 }));
    let mut wide = vec![0; side * 2];
    wide[side - 1] = 7;
    wide[2 * side - 1] = 7;
    let wide = Board::from_vec(2, side, wide);
    let (a, b) = (Pos::new(1, side), Pos::new(2, side));
    assert_eq!(super::joinable(&wide, Rules::default(), a, b), Err(super::TooLarge { rows: 2, cols: side }));
    // The largest board it takes is answered.
    let mut largest = vec![0; super::MAX_SIDE * 2];
    largest[(super::MAX_SIDE - 1) * 2..].fill(7);
    let largest = Board::from_vec(super::MAX_SIDE, 2, largest);
    let (a, b) = (Pos::new(super::MAX_SIDE, 1), Pos::new(super::MAX_SIDE, 2));
    assert_eq!(super::joinable(&largest, Rules::default(), a, b), Ok(true));
}
