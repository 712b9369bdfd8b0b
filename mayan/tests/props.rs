//! Property tests: the fast solver against the plain reference, every solution replayed by the
//! reference's own simulation of the rules (not the fast [`Board`]), the `--show` boards against
//! that replay, and the parser and the judge-format printer against each other (on generated
//! puzzles and on arbitrary bytes). Failures print the seed of the board.

use common::{Diagnostic, Tokens, round_trip};
use mayan::board::Board;
use mayan::model::{MAX_MOVES, Move, Puzzle, WIDTH};
use mayan::{r#gen, parse, reference, show, solve};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A random board from a seed: `blocks` blocks in `colours` colours, no three in a line. One
/// colour cannot place many blocks without a line: at most four then.
fn board(blocks: usize, colours: u8, seed: u64) -> Board {
    let blocks = if colours == 1 { blocks.min(4) } else { blocks };
    r#gen::random_board(blocks, colours, &mut ChaCha8Rng::seed_from_u64(seed))
        .expect("such small boards turn up")
}

/// The puzzle of an input, or where it is wrong.
fn parse_puzzle(src: &[u8]) -> Result<Puzzle, Diagnostic> {
    parse::puzzle(&mut Tokens::new(src))
}

/// The parser's property on `src` ([`round_trip::check`]): what it reads, the judge-format
/// printer writes back to the same puzzle; what it refuses, it locates inside `src`.
fn parser_holds(src: &[u8]) -> Result<Option<Puzzle>, TestCaseError> {
    round_trip::check(src, parse_puzzle, r#gen::to_input).map_err(TestCaseError::fail)
}

/// Reads the boards back from a `--show` drawing, as columns of colours from the bottom up: each
/// board is five cells, two characters apart, in an 11-character slot of its band.
fn read_drawing(text: &str) -> Vec<[Vec<u8>; WIDTH]> {
    let mut boards = Vec::new();
    for band in text.split("\n\n") {
        let lines: Vec<&str> = band.lines().collect();
        let rows = &lines[1..lines.len() - 1];
        let count = lines[lines.len() - 1].split_whitespace().count();
        for slot in 0..count {
            let mut columns: [Vec<u8>; WIDTH] = Default::default();
            for line in rows.iter().rev() {
                for (x, column) in columns.iter_mut().enumerate() {
                    match line.as_bytes().get(11 * slot + 2 * x).copied().unwrap_or(b'.') {
                        b'.' => {}
                        b'0' => column.push(10),
                        digit => column.push(digit - b'0'),
                    }
                }
            }
            boards.push(columns);
        }
    }
    boards
}

/// Checks a solution against the rules, replayed by the reference's own simulation: every move
/// legal (so the board is never empty before the last move) and the board empty after the
/// last; and the `--show` drawing shows exactly the boards of that replay.
fn check_solution(start: &Board, moves: &[Move]) -> Result<(), TestCaseError> {
    let columns = start.columns();
    let boards = match reference::replay(&columns, moves) {
        Ok(boards) => boards,
        Err(number) => return Err(TestCaseError::fail(format!("move {number} of {moves:?} is not legal"))),
    };
    prop_assert!(boards.last().is_some_and(reference::is_empty), "{:?} leaves blocks", moves);
    let mut expected = vec![columns];
    expected.extend(boards.iter().map(reference::columns));
    prop_assert_eq!(read_drawing(&show::sequence(start, moves, false)), expected);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn fast_solver_agrees_with_the_reference(
        blocks in 0usize..=12, colours in 1u8..=4, moves in 1usize..=3, seed: u64,
    ) {
        let start = board(blocks, colours, seed);
        let fast = solve::search(&start, moves, false).first;
        let plain = reference::exactly(&start.columns(), moves);
        prop_assert_eq!(&fast, &plain, "seed {}", seed);
        if let Some(moves) = fast {
            check_solution(&start, &moves)?;
        }
    }

    #[test]
    fn every_move_agrees_with_the_reference_simulation(
        blocks in 0usize..=35, colours in 2u8..=6, seed: u64,
    ) {
        // Up to full boards, and more colours than the solver tests use: long chains, crossing
        // lines and full columns, every legal move of each board made by both simulations.
        let Some(start) = r#gen::random_board(blocks, colours, &mut ChaCha8Rng::seed_from_u64(seed)) else {
            return Ok(()); // two colours rarely fill a board without a line
        };
        let cells = reference::cells(&start.columns());
        let moves: Vec<Move> = start.moves().collect();
        prop_assert_eq!(&moves, &reference::legal_moves(&cells), "seed {}", seed);
        for mv in moves {
            let by_reference = reference::after(&cells, mv).expect("a legal move");
            prop_assert_eq!(start.after(mv).columns(), reference::columns(&by_reference), "seed {}, {}", seed, mv);
        }
    }

    #[test]
    fn fewest_agrees_with_the_reference(
        blocks in 3usize..=12, colours in 1u8..=3, moves in 1usize..=3, seed: u64,
    ) {
        let start = board(blocks, colours, seed);
        let puzzle = Puzzle { moves, columns: start.columns() };
        let fast = solve::fewest(&puzzle);
        prop_assert_eq!(&fast, &reference::fewest(&puzzle), "seed {}", seed);
        if let Some(moves) = fast {
            check_solution(&start, &moves)?;
        }
    }

    #[test]
    fn generated_puzzles_print_and_parse_back_to_themselves(
        blocks in 0usize..=35, colours in 2u8..=10, moves in 1usize..=MAX_MOVES, seed: u64,
    ) {
        let Some(start) = r#gen::random_board(blocks, colours, &mut ChaCha8Rng::seed_from_u64(seed)) else {
            return Ok(()); // few colours rarely fill a board without a line
        };
        let puzzle = Puzzle { moves, columns: start.columns() };
        prop_assert_eq!(parser_holds(r#gen::to_input(&puzzle).as_bytes())?, Some(puzzle), "seed {}", seed);
    }

    #[test]
    fn arbitrary_bytes_round_trip_or_are_located(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        parser_holds(&bytes)?;
    }

    #[test]
    fn near_valid_input_round_trips_or_is_located(
        tokens in proptest::collection::vec(prop_oneof![
            Just("0".to_owned()), Just("1".to_owned()), Just("2".to_owned()), Just("10".to_owned()),
            Just("11".to_owned()), Just("-1".to_owned()), Just("x".to_owned()), Just("\n".to_owned()),
            Just("\n".to_owned()), Just("\r\n".to_owned()), (0u64..12).prop_map(|n| n.to_string()),
        ], 0..60),
    ) {
        if let Some(puzzle) = parser_holds(tokens.join(" ").as_bytes())? {
            prop_assert!(!reference::has_line(&reference::cells(&puzzle.columns)));
        }
    }
}

proptest! {
    // Solvable boards from the generator: the reference needs a while at n = 3 on 9 blocks.
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn generated_solvable_boards_are_solved_alike(moves in 1usize..=3, blocks in 3usize..=9, seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let Ok((start, witness)) = r#gen::solvable_board(blocks, 3, moves, &mut rng) else {
            return Ok(()); // no such board with these numbers (more blocks than the moves can clear)
        };
        prop_assert!(r#gen::replays(&start, &witness), "seed {}", seed);
        prop_assert!(reference::is_solution(&start.columns(), &witness), "seed {}", seed);
        let fast = solve::search(&start, moves, false).first;
        prop_assert_eq!(&fast, &reference::exactly(&start.columns(), moves), "seed {}", seed);
        let fast = fast.expect("the witness is a solution");
        prop_assert!(fast <= witness, "the smallest solution is at most the witness, seed {}", seed);
        check_solution(&start, &fast)?;
    }
}
