//! Property tests: the fast solver against the plain reference on random boards, `--show` lines
//! and drawings and `solve` games against the rules, the fast reader against the plain one on
//! near-valid and arbitrary bytes, and the reader and the judge-format printer against each
//! other (on generated cases and on those bytes). Failures print the seed.

use common::{Diagnostic, Pos, round_trip};
use linkup::clear::{self, Settings};
use linkup::model::{Board, Case, EMPTY, Line, Query, Rules, kind_at, on_board};
use linkup::play::{self, Best, Removal};
use linkup::query::Solver;
use linkup::reference::clear::game_board;
use linkup::{r#gen, parse, reference, show};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random board of up to 12×12 from a seed, and queries on it: the generator's mix, and as
/// many pairs of uniformly random cells.
fn instance(seed: u64) -> (Board, Vec<Query>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (rows, cols) = (rng.random_range(1..=12), rng.random_range(1..=12));
    let density = rng.random_range(0.0..=1.0);
    let kinds = rng.random_range(1..=6);
    let board = r#gen::board(rows, cols, density, kinds, &mut rng);
    let mut queries = r#gen::queries(&board, 12, &mut rng);
    for _ in 0..12 {
        let a = Pos::new(rng.random_range(1..=rows), rng.random_range(1..=cols));
        let b = Pos::new(rng.random_range(1..=rows), rng.random_range(1..=cols));
        queries.push(Query { a, b });
    }
    (board, queries)
}

/// Reads a `--show` drawing back: the cell at every row and column it shows, as the text of its
/// field (`[k]` for an end, ` k ` for a piece, ` . ` for an empty cell, strokes for the line).
fn read_drawing(text: &str) -> Vec<(Pos, String)> {
    let mut lines = text.lines().skip(1);
    let Some(header) = lines.next() else { return Vec::new() };
    if header.starts_with("(not drawn") {
        return Vec::new();
    }
    let cols: Vec<usize> = header.split_whitespace().map(|n| n.parse().unwrap()).collect();
    let rows: Vec<&str> = lines.collect();
    let label = rows.iter().map(|line| line.split_whitespace().next().unwrap().len()).max().unwrap();
    // The header is `label + 1` blanks, then a field of `width` per column, trimmed at the end.
    let first_field = label + 1;
    let width = (header.len() + 1 - first_field) / cols.len();
    let mut cells = Vec::new();
    for line in rows {
        let row: usize = line.split_whitespace().next().unwrap().parse().unwrap();
        for (index, &col) in cols.iter().enumerate() {
            let start = first_field + index * width;
            let field: String = line.chars().skip(start).take(width).collect();
            cells.push((Pos::new(row, col), format!("{field:<width$}")));
        }
    }
    cells
}

/// Checks a drawing against the board and the line: ends in brackets, the line's inner cells
/// drawn with strokes, every other cell as on the board.
fn check_drawing(board: &Board, line: &Line, drawing: &str) -> Result<(), String> {
    let inner = line.inner_cells();
    let ends = [line.points[0], line.points[line.points.len() - 1]];
    for (pos, field) in read_drawing(drawing) {
        let trimmed = field.trim();
        let expected_ok = if ends.contains(&pos) {
            trimmed.strip_prefix('[').and_then(|rest| rest.strip_suffix(']')).map(str::trim)
                == Some(kind_at(board, pos).to_string().as_str())
        } else if inner.contains(&pos) {
            !trimmed.is_empty() && trimmed.chars().all(|c| matches!(c, '-' | '|' | '+'))
        } else if !on_board(board, pos) {
            trimmed.is_empty()
        } else if kind_at(board, pos) == EMPTY {
            trimmed == "."
        } else {
            trimmed == kind_at(board, pos).to_string()
        };
        if !expected_ok {
            return Err(format!("cell {pos:?} drawn as {field:?}:\n{drawing}"));
        }
    }
    Ok(())
}

/// Checks that `removals` are legal one after the other from `board`, and returns the board
/// left. With `gravity`, after each removal every column that lost a piece is rebuilt here:
/// the pieces above its lowest emptied cell are stacked, in order, on the first piece below
/// that cell (or the bottom row).
fn replay(board: &Board, rules: Rules, gravity: bool, removals: &[Removal]) -> Result<Board, String> {
    let mut board = board.clone();
    for removal in removals {
        let query = Query { a: removal.a, b: removal.b };
        removal.line.check(&board, rules, query)?;
        if kind_at(&board, removal.a) != removal.kind {
            return Err(format!("{removal:?} names the wrong kind"));
        }
        for pos in [removal.a, removal.b] {
            board[Pos::new(pos.row - 1, pos.col - 1)] = EMPTY;
        }
        if !gravity {
            continue;
        }
        let cols = if removal.a.col == removal.b.col {
            vec![removal.a.col]
        } else {
            vec![removal.a.col, removal.b.col]
        };
        for col in cols {
            let lowest = [removal.a, removal.b]
                .iter()
                .filter(|pos| pos.col == col)
                .map(|pos| pos.row - 1)
                .max()
                .unwrap();
            let above: Vec<u32> =
                (0..lowest).map(|row| board[Pos::new(row, col - 1)]).filter(|&kind| kind != EMPTY).collect();
            let mut floor = lowest;
            while floor + 1 < board.rows() && board[Pos::new(floor + 1, col - 1)] == EMPTY {
                floor += 1;
            }
            for row in 0..=floor {
                board[Pos::new(row, col - 1)] = EMPTY;
            }
            for (index, &kind) in above.iter().rev().enumerate() {
                board[Pos::new(floor - index, col - 1)] = kind;
            }
        }
    }
    Ok(board)
}

/// The reader's property on `src` ([`round_trip::check`]): what it reads, the judge-format
/// printer writes back to the same cases; what it refuses, it locates inside `src`.
fn reader_holds(src: &[u8]) -> Result<Option<Vec<Case>>, TestCaseError> {
    let read = |src: &[u8]| -> Result<Vec<Case>, Diagnostic> { parse::cases(src) };
    round_trip::check(src, read, |cases| r#gen::to_input(cases)).map_err(TestCaseError::fail)
}

/// Near-valid input: one or more cases whose numbers are mostly right, with every kind of
/// separator, numbers of one to ten digits, and now and then a bad token, a wrong count, or a
/// cut. Long boards make the fast reader's 64-byte blocks and their edges matter.
fn near_valid_input(seed: u64) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let separators: [&[u8]; 7] = [b" ", b" ", b" ", b"\n", b"\r\n", b"\t", b"  \x0c"];
    let mut text = Vec::new();
    let push = |text: &mut Vec<u8>, token: &[u8], rng: &mut ChaCha8Rng| {
        text.extend_from_slice(token);
        text.extend_from_slice(separators[rng.random_range(0..separators.len())]);
    };
    let odd_tokens: [&[u8]; 9] = [
        b"x",
        b"-1",
        b"7x",
        b"+3",
        b"\xff",
        b"4294967296",
        b"0000000000007",
        b"1\x0b2",
        b"99999999999999999999",
    ];
    let bad = rng.random_range(0..4) == 0;
    for _ in 0..rng.random_range(1..=3) {
        let (rows, cols) = (rng.random_range(1..=5usize), rng.random_range(1..=60usize));
        push(&mut text, rows.to_string().as_bytes(), &mut rng);
        push(&mut text, cols.to_string().as_bytes(), &mut rng);
        for _ in 0..rows * cols {
            if bad && rng.random_range(0..200) == 0 {
                push(&mut text, odd_tokens[rng.random_range(0..odd_tokens.len())], &mut rng);
                continue;
            }
            let kind: u64 = match rng.random_range(0..10) {
                0..=3 => 0,
                4..=6 => rng.random_range(1..10),
                7 => rng.random_range(10..100),
                8 => rng.random_range(100..100_000),
                _ => rng.random_range(0..=u64::from(u32::MAX)),
            };
            let token = if rng.random_range(0..20) == 0 { format!("{kind:04}") } else { kind.to_string() };
            push(&mut text, token.as_bytes(), &mut rng);
        }
        let count = rng.random_range(0..4);
        push(&mut text, count.to_string().as_bytes(), &mut rng);
        for _ in 0..count {
            for side in [rows, cols, rows, cols] {
                let value = rng.random_range(1..=side + usize::from(bad));
                push(&mut text, value.to_string().as_bytes(), &mut rng);
            }
        }
    }
    if rng.random_range(0..3) > 0 {
        text.extend_from_slice(b"0 0\n");
    }
    if bad && rng.random_range(0..2) == 0 {
        let cut = rng.random_range(0..=text.len());
        text.truncate(cut);
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn fast_answers_agree_with_the_reference(seed: u64, max_turns in 0u32..=3, outside: bool) {
        let (board, queries) = instance(seed);
        let rules = Rules { max_turns, outside };
        let mut solver = Solver::new(&board, rules);
        for query in queries {
            let fast = solver.joinable(query);
            let plain = reference::joinable(&board, rules, query);
            prop_assert_eq!(fast, plain, "seed {}, {:?}, {:?}", seed, rules, query);
            let line = solver.line(query);
            prop_assert_eq!(line.is_some(), fast, "seed {}, {:?}, {:?}", seed, rules, query);
            if let Some(line) = line {
                prop_assert_eq!(line.check(&board, rules, query), Ok(()), "seed {}, {:?}, {:?}", seed, rules, query);
                let fewest = reference::fewest_turns(&board, outside, query, max_turns);
                prop_assert_eq!(Some(line.turns() as u32), fewest, "fewest turns: seed {}, {:?}, {:?}", seed, rules, query);
                let drawing = show::line(&board, &line);
                prop_assert_eq!(check_drawing(&board, &line, &drawing), Ok(()), "seed {}", seed);
            }
        }
    }

    #[test]
    fn generated_cases_print_and_parse_back_to_themselves(seeds in proptest::collection::vec(any::<u64>(), 0..4)) {
        let cases: Vec<Case> = seeds
            .iter()
            .map(|&seed| {
                let (board, queries) = instance(seed);
                Case { board, queries }
            })
            .collect();
        prop_assert_eq!(reader_holds(&r#gen::to_input(&cases))?, Some(cases), "seeds {:?}", seeds);
    }

    #[test]
    fn the_fast_reader_agrees_with_the_plain_one(seed: u64) {
        let text = near_valid_input(seed);
        reader_holds(&text)?;
        let plain = reference::cases(&text);
        prop_assert_eq!(&parse::cases(&text), &plain, "seed {}: {:?}", seed, String::from_utf8_lossy(&text));
        // Reading each case into the memory of the one before gives the same cases.
        let mut reader = parse::Reader::new(&text);
        let mut recycled = Vec::new();
        let read = loop {
            match reader.next_case() {
                Ok(Some(case)) => {
                    recycled.push(case.clone());
                    reader.recycle(case);
                }
                Ok(None) => break Ok(recycled),
                Err(diagnostic) => break Err(diagnostic),
            }
        };
        prop_assert_eq!(read, plain, "seed {}", seed);
    }

    #[test]
    fn arbitrary_bytes_read_alike_and_round_trip_or_are_located(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        reader_holds(&bytes)?;
        prop_assert_eq!(parse::cases(&bytes), reference::cases(&bytes));
    }

    #[test]
    fn digits_and_spaces_read_alike_and_round_trip_or_are_located(bytes in proptest::collection::vec(prop_oneof![
        Just(b' '), Just(b'\n'), Just(b'0'), Just(b'1'), Just(b'2'), Just(b'9'), Just(b'x'),
    ], 0..400)) {
        reader_holds(&bytes)?;
        prop_assert_eq!(parse::cases(&bytes), reference::cases(&bytes));
    }
}

/// Checks a game's verdict: a clearing order replays to an empty board; a hopeless or undecided
/// board is not cleared by greedy play.
fn check_best(board: &Board, rules: Rules, gravity: bool, seed: u64) -> Result<Best, TestCaseError> {
    let settings = Settings { rules, gravity, budget: 100_000_000 };
    let best = play::best(board, settings).map_err(|too_large| TestCaseError::fail(too_large.to_string()))?;
    if let Best::Cleared(removals) = &best.best {
        let left = replay(board, rules, gravity, removals)
            .map_err(|why| TestCaseError::fail(format!("seed {seed}: {why}")))?;
        prop_assert!(left.cells().iter().all(|&kind| kind == EMPTY), "seed {}", seed);
    }
    let game = play::greedy(board, rules, gravity);
    let left = replay(board, rules, gravity, &game.removals)
        .map_err(|why| TestCaseError::fail(format!("seed {seed}: {why}")))?;
    prop_assert_eq!(
        left.cells().iter().filter(|&&kind| kind != EMPTY).count(),
        game.pieces_left,
        "seed {}",
        seed
    );
    if game.pieces_left == 0 {
        prop_assert!(
            matches!(best.best, Best::Cleared(_)),
            "greedy play cleared a board the search did not: seed {}",
            seed
        );
    }
    Ok(best.best)
}

proptest! {
    // Whole games: the exhaustive reference is exponential, so boards hold at most 8 pieces.
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn the_search_agrees_with_the_exhaustive_reference(seed: u64, max_turns in 0u32..=3, outside: bool, gravity: bool) {
        let board = game_board(seed, 8);
        let rules = Rules { max_turns, outside };
        let best = check_best(&board, rules, gravity, seed)?;
        prop_assert!(!matches!(best, Best::Undecided(_)), "seed {}", seed);
        let clearable = reference::clearable(&board, rules, gravity);
        prop_assert_eq!(matches!(best, Best::Cleared(_)), clearable, "seed {}", seed);
        // (The same with probing from the first position is a test of the crate's own, in
        // `src/clear/tests.rs`: when to probe is not a setting.)
    }

    #[test]
    fn the_bit_board_test_agrees_with_the_reference(seed: u64, max_turns in 0u32..=4, outside: bool) {
        let (board, _) = instance(seed);
        let rules = Rules { max_turns, outside };
        let pieces: Vec<Pos> = board.positions().filter(|&pos| board[pos] != EMPTY).map(|pos| Pos::new(pos.row + 1, pos.col + 1)).collect();
        for (index, &a) in pieces.iter().enumerate() {
            for &b in &pieces[index + 1..] {
                // The reference refuses two kinds: ask it with both pieces of `a`'s kind.
                let mut same = board.clone();
                same[Pos::new(b.row - 1, b.col - 1)] = kind_at(&board, a);
                let query = Query { a, b };
                prop_assert_eq!(clear::joinable(&board, rules, a, b).expect("a small board"), reference::joinable(&same, rules, query), "seed {}, {:?}", seed, query);
            }
        }
    }
}

proptest! {
    // Larger games, checked by replay.
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn larger_games_follow_the_rules(seed: u64, max_turns in 1u32..=3, outside: bool, gravity: bool) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (rows, cols) = (rng.random_range(2..=7), rng.random_range(2..=7));
        let board = r#gen::board(rows, cols, rng.random_range(0.3..=1.0), rng.random_range(1..=8), &mut rng);
        check_best(&board, Rules { max_turns, outside }, gravity, seed)?;
    }

    /// Full boards with gravity: every column is packed, so the search brings each position's
    /// pairs up to date from its parent's, and test builds check each update against the pairs
    /// found from scratch.
    #[test]
    fn full_boards_with_gravity_follow_the_rules(seed: u64, max_turns in 1u32..=2, outside: bool) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (rows, cols) = (rng.random_range(2..=7), rng.random_range(2..=8));
        let board = r#gen::board(rows, cols, 1.0, rng.random_range(2..=10), &mut rng);
        check_best(&board, Rules { max_turns, outside }, true, seed)?;
    }
}
