//! Property tests: the fast solver against the plain reference, `--show` rectangles against the
//! rules, the parser and the judge-format printer against each other (on generated blocks and on
//! arbitrary bytes), one thread against several, and unique blocks against the plain reference's
//! count. Failures print the seed of the block.

use std::num::NonZeroUsize;

use common::edge_match::{Budgets, Config};
use common::search::Progress;
use common::{Diagnostic, Grid, Tokens, round_trip};
use jigsaw::r#gen::{self, Break};
use jigsaw::model::{Assembly, Block, Piece, Side};
use jigsaw::{parse, reference, show, solve};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Counting stops here: enough to tell solvers apart, small enough for the plain search.
const COUNT_LIMIT: u64 = 64;

/// How a test block is made from a random solved rectangle.
#[derive(Debug, Clone, Copy)]
enum Making {
    /// As cut.
    Solved,
    /// Broken by the generator's `flip` or `swap` (which may leave it solvable: the solver was
    /// not asked).
    Broken(Break),
    /// Four random letters per piece, with flat sides where the border class wants them about
    /// as often as elsewhere: mostly unsolvable, exercising every root check.
    Random,
}

/// A random block from a seed; pieces turned at random when `turn`.
fn block(rows: usize, cols: usize, making: Making, turn: bool, seed: u64) -> Block {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let board = r#gen::solved_board(rows, cols, &mut rng);
    let pieces = match making {
        Making::Solved => board.cells().to_vec(),
        Making::Broken(how) => r#gen::broken(&board, how, &mut rng).unwrap_or_else(|| board.cells().to_vec()),
        Making::Random => board
            .cells()
            .iter()
            .map(|piece| Piece {
                sides: piece
                    .sides
                    .map(|side| if rng.random_bool(0.7) { side } else { Side::ALL[rng.random_range(0..3)] }),
            })
            .collect(),
    };
    r#gen::shuffled(rows, cols, pieces, turn, &mut rng)
}

/// The blocks of an input, or where it is wrong.
fn parse_blocks(src: &[u8]) -> Result<Vec<Block>, Diagnostic> {
    parse::blocks(&mut Tokens::new(src)).map(|blocks| blocks.iter().collect())
}

/// The parser's property on `src` ([`round_trip::check`]): what it reads, the judge-format
/// printer writes back to the same blocks; what it refuses, it locates inside `src`.
fn parser_holds(src: &[u8]) -> Result<Option<Vec<Block>>, TestCaseError> {
    round_trip::check(src, parse_blocks, |blocks| r#gen::to_input(blocks)).map_err(TestCaseError::fail)
}

fn making() -> impl Strategy<Value = Making> {
    prop_oneof![
        Just(Making::Solved),
        Just(Making::Broken(Break::Flip)),
        Just(Making::Broken(Break::Swap)),
        Just(Making::Random),
    ]
}

/// Reads a `--show` drawing back into pieces: the letters sit at fixed places in each cell.
fn read_drawing(text: &str, rows: usize, cols: usize) -> Assembly {
    let lines: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
    assert_eq!(lines.len(), 4 * rows + 1, "a drawing of {rows} rows:\n{text}");
    let side = |line: usize, col: usize| Side::from_letter(lines[line][col]).expect("a letter F, O or I");
    let pieces = (0..rows * cols)
        .map(|cell| {
            let (top_line, x) = (4 * (cell / cols) + 1, 4 * (cell % cols));
            Piece {
                sides: [
                    side(top_line, x + 2),
                    side(top_line + 1, x + 3),
                    side(top_line + 2, x + 2),
                    side(top_line + 1, x + 1),
                ],
            }
        })
        .collect();
    Grid::from_vec(rows, cols, pieces)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn fast_solver_agrees_with_the_reference(
        rows in 1usize..=4, cols in 1usize..=4, making in making(), rotate: bool, seed: u64,
    ) {
        // Turned pieces only make sense when turning is allowed; keep some unturned ones too.
        let block = block(rows, cols, making, rotate && seed % 4 != 0, seed);
        let fast = solve::solve(&block, rotate);
        let plain = reference::solve(&block, rotate);
        prop_assert_eq!(fast.is_some(), plain.is_some(), "verdicts differ, seed {}", seed);
        let fast_count = solve::search(&block, rotate, COUNT_LIMIT).found;
        let plain_count = reference::count(&block, rotate, COUNT_LIMIT);
        prop_assert_eq!(fast_count, plain_count, "seed {}", seed);
        // The count order, which only larger rectangles take by default, forced on.
        let budgets = Budgets { count_order_cells: 0, ..Budgets::DEFAULT };
        let ordered = Config { budgets, ..Config::new(COUNT_LIMIT) };
        prop_assert_eq!(solve::search_with(&block, rotate, &ordered).found, plain_count, "seed {}", seed);
        let ordered = Config { budgets, ..Config::new(1) };
        let first = solve::search_with(&block, rotate, &ordered).first;
        prop_assert_eq!(first.is_some(), plain.is_some(), "seed {}", seed);
        prop_assert!(first.is_none_or(|assembly| block.is_solution(&assembly, rotate)), "seed {}", seed);
        // And with a first run of two nodes, so that the count order's restarts (Luby's
        // schedule) run too, up to the complete search.
        let restarting = Budgets { first_run: 2, ..budgets };
        let ordered = Config { budgets: restarting, ..Config::new(COUNT_LIMIT) };
        prop_assert_eq!(solve::search_with(&block, rotate, &ordered).found, plain_count, "seed {}", seed);
        let ordered = Config { budgets: restarting, ..Config::new(1) };
        let first = solve::search_with(&block, rotate, &ordered).first;
        prop_assert_eq!(first.is_some(), plain.is_some(), "seed {}", seed);
        prop_assert!(first.is_none_or(|assembly| block.is_solution(&assembly, rotate)), "seed {}", seed);
        // And with the Luby phase over after a few units, so that the runs double from there.
        let doubling = Budgets { luby_units: seed % 4, ..restarting };
        let ordered = Config { budgets: doubling, ..Config::new(COUNT_LIMIT) };
        prop_assert_eq!(solve::search_with(&block, rotate, &ordered).found, plain_count, "seed {}", seed);
        if let Some(assembly) = fast {
            prop_assert!(block.is_solution(&assembly, rotate), "seed {}", seed);
            let drawn = read_drawing(&show::assembly(&assembly), rows, cols);
            prop_assert_eq!(&drawn, &assembly);
            prop_assert!(block.is_solution(&drawn, rotate), "seed {}", seed);
        }
        if let Some(assembly) = plain {
            prop_assert!(block.is_solution(&assembly, rotate), "seed {}", seed);
        }
    }

    #[test]
    fn generated_blocks_print_and_parse_back_to_themselves(
        shapes in proptest::collection::vec((1usize..=12, 1usize..=12, making(), any::<bool>()), 0..4),
        seed: u64,
    ) {
        let blocks: Vec<Block> = shapes
            .iter()
            .enumerate()
            .map(|(i, &(rows, cols, making, turn))| block(rows, cols, making, turn, seed ^ i as u64))
            .collect();
        let text = r#gen::to_input(&blocks);
        prop_assert_eq!(parser_holds(text.as_bytes())?, Some(blocks), "seed {}", seed);
    }

    #[test]
    fn arbitrary_bytes_round_trip_or_are_located(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        parser_holds(&bytes)?;
    }

    #[test]
    fn near_valid_input_round_trips_or_is_located(
        tokens in proptest::collection::vec(prop_oneof![
            Just("0".to_owned()), Just("1".to_owned()), Just("2".to_owned()), Just("12".to_owned()),
            Just("13".to_owned()), Just("-1".to_owned()), Just("FOOF".to_owned()), Just("FFFF".to_owned()),
            Just("FOO".to_owned()), Just("foof".to_owned()), Just("\n".to_owned()),
            "[FOIX]{3,5}", (0u64..20).prop_map(|n| n.to_string()),
        ], 0..60),
    ) {
        parser_holds(tokens.join(" ").as_bytes())?;
    }
}

proptest! {
    // Larger rectangles than the plain search can settle: every YES must be a real assembly,
    // and every solved rectangle, however shuffled and turned, must be found.
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn solved_rectangles_are_always_assembled(rows in 1usize..=12, cols in 1usize..=12, rotate: bool, seed: u64) {
        let block = block(rows, cols, Making::Solved, rotate, seed);
        let assembly = solve::solve(&block, rotate);
        prop_assert!(assembly.is_some(), "seed {}", seed);
        let assembly = assembly.expect("checked above");
        prop_assert!(block.is_solution(&assembly, rotate), "seed {}", seed);
        prop_assert!(block.is_solution(&read_drawing(&show::assembly(&assembly), rows, cols), rotate), "seed {}", seed);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn one_thread_and_the_default_give_the_same_output(
        shapes in proptest::collection::vec((1usize..=6, 1usize..=6, making(), any::<bool>()), 1..4),
        rotate: bool, show: bool, count: bool, seed: u64,
    ) {
        let blocks: jigsaw::model::Blocks = shapes
            .iter()
            .enumerate()
            .map(|(i, &(rows, cols, making, turn))| block(rows, cols, making, turn && rotate, seed ^ i as u64))
            .collect();
        let output = |threads| {
            let options = jigsaw::Options { show, rotate, count_limit: count.then_some(COUNT_LIMIT), threads, svg: None };
            let mut out = Vec::new();
            jigsaw::answer(&blocks, options, &Progress::default(), &mut out).expect("writing to memory");
            out
        };
        prop_assert_eq!(output(Some(NonZeroUsize::MIN)), output(None), "seed {}", seed);
    }

    #[test]
    fn unique_blocks_have_exactly_one_solution(rows in 1usize..=4, cols in 1usize..=4, seed: u64) {
        let options = r#gen::Options { rows, cols, unsolvable: None, rotate: false, blocks: 1, tries: r#gen::default_tries(rows, cols) };
        let blocks = r#gen::unique_blocks(options, &mut ChaCha8Rng::seed_from_u64(seed), &Progress::default());
        let blocks = blocks.map_err(|err| TestCaseError::fail(format!("seed {seed}: {err}")))?;
        prop_assert_eq!(reference::count(&blocks[0], false, 2), 1, "seed {}", seed);
    }
}
