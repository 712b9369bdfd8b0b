//! Property tests: the fast solver against the plain reference, `--show` boards against the
//! rules, the parser and the judge-format printer against each other (on generated games and on
//! arbitrary bytes), one thread against several, unique games against the plain reference's
//! count, counts pooled by restarts, and searches cut into parts against one search. Failures
//! print the seed of the game.

use std::num::NonZeroUsize;

use common::edge_match::{Budgets, Config, Part, merge_parts};
use common::search::Progress;
use common::{Diagnostic, Grid, Tokens, round_trip};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tetravex::model::{Board, Game, Tile};
use tetravex::{Options, r#gen, parse, parts, reference, show, solve};

/// Counting stops here: enough to tell solvers apart, small enough for the plain search.
const COUNT_LIMIT: u64 = 64;

/// A random game from a seed: a solved board of `size` with `digits` digits, shuffled, and when
/// `perturb` one random triangle set to a random digit (which may or may not break it).
fn game(size: usize, digits: u8, perturb: bool, seed: u64) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let board = r#gen::solved_board(size, digits, &mut rng);
    let mut game = r#gen::shuffled(&board, &mut rng);
    if perturb {
        let tile = rng.random_range(0..game.tiles.len());
        game.tiles[tile].sides[rng.random_range(0..4)] = rng.random_range(0..digits);
    }
    game
}

/// The games of an input, or where it is wrong.
fn parse_games(src: &[u8]) -> Result<Vec<Game>, Diagnostic> {
    parse::games(&mut Tokens::new(src)).map(|games| games.iter().collect())
}

/// The parser's property on `src` ([`round_trip::check`]): what it reads, the judge-format
/// printer writes back to the same games; what it refuses, it locates inside `src`.
fn parser_holds(src: &[u8]) -> Result<Option<Vec<Game>>, TestCaseError> {
    round_trip::check(src, parse_games, |games| r#gen::to_input(games)).map_err(TestCaseError::fail)
}

/// The merge's property on records `src`: it merges them or refuses them with a message, and
/// never panics.
fn merge_holds(src: &[u8]) -> Result<(), TestCaseError> {
    if let Err(message) = parts::merge([("records.txt", src)]) {
        prop_assert!(message.starts_with("error: ") && message.ends_with('\n'), "{}", message);
    }
    Ok(())
}

/// Reads a `--show` drawing back into a board: the digits sit at fixed places in each cell.
fn read_drawing(text: &str, size: usize) -> Board {
    let lines: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
    assert_eq!(lines.len(), 4 * size + 1, "a drawing of {size} rows:\n{text}");
    let digit = |line: usize, col: usize| lines[line][col] - b'0';
    let tiles = (0..size * size)
        .map(|cell| {
            let (row, col) = (cell / size, cell % size);
            let (top_line, x) = (4 * row + 1, 4 * col);
            Tile::new(
                digit(top_line, x + 2),
                digit(top_line + 1, x + 3),
                digit(top_line + 2, x + 2),
                digit(top_line + 1, x + 1),
            )
        })
        .collect();
    Grid::from_vec(size, size, tiles)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn fast_solver_agrees_with_the_reference(
        size in 1usize..=4, digits in 1u8..=10, perturb: bool, seed: u64,
    ) {
        let game = game(size, digits, perturb, seed);
        let fast = solve::solve(&game);
        let plain = reference::solve(&game);
        prop_assert_eq!(fast.is_some(), plain.is_some(), "verdicts differ, seed {}", seed);
        prop_assert_eq!(solve::count(&game, COUNT_LIMIT), reference::count(&game, COUNT_LIMIT), "seed {}", seed);
        if let Some(board) = fast {
            prop_assert!(game.is_solution(&board), "seed {}", seed);
            let drawn = read_drawing(&show::board(&board), size);
            prop_assert_eq!(&drawn, &board);
            prop_assert!(game.is_solution(&drawn), "seed {}", seed);
        }
        if let Some(board) = plain {
            prop_assert!(game.is_solution(&board), "seed {}", seed);
        }
    }

    #[test]
    fn generated_games_print_and_parse_back_to_themselves(
        shapes in proptest::collection::vec((1usize..=8, 1u8..=10, any::<bool>()), 0..4), seed: u64,
    ) {
        let games: Vec<Game> = shapes
            .iter()
            .enumerate()
            .map(|(i, &(size, digits, perturb))| game(size, digits, perturb, seed ^ i as u64))
            .collect();
        let text = r#gen::to_input(&games);
        prop_assert_eq!(parser_holds(text.as_bytes())?, Some(games), "seed {}", seed);
    }

    #[test]
    fn arbitrary_bytes_round_trip_or_are_located(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        parser_holds(&bytes)?;
    }

    #[test]
    fn arbitrary_bytes_merge_as_records_or_are_refused(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        merge_holds(&bytes)?;
    }

    #[test]
    fn damaged_part_records_merge_or_are_refused(
        seed: u64, count in 1usize..=3, at: prop::sample::Index, byte: u8, cut: bool,
    ) {
        let input = r#gen::to_input(&[game(3, 4, false, seed)]);
        let games = parse::games(&mut Tokens::new(input.as_bytes())).expect("generated games read back");
        let mut records = Vec::new();
        for index in 0..count {
            let part = Part::new(index, count).expect("a part");
            let progress = Progress::default();
            parts::run(input.as_bytes(), &games, Options::default(), part, &progress, &mut records)
                .expect("writing to memory");
        }
        prop_assert!(parts::merge([("records.txt", records.as_slice())]).is_ok());
        let at = at.index(records.len());
        if cut {
            records.truncate(at);
        } else {
            records[at] = byte;
        }
        merge_holds(&records)?;
    }

    #[test]
    fn near_valid_input_round_trips_or_is_located(
        tokens in proptest::collection::vec(prop_oneof![
            Just("0".to_owned()), Just("1".to_owned()), Just("2".to_owned()), Just("9".to_owned()),
            Just("10".to_owned()), Just("-1".to_owned()), Just("x".to_owned()), Just("\n".to_owned()),
            (0u64..20).prop_map(|n| n.to_string()),
        ], 0..60),
    ) {
        parser_holds(tokens.join(" ").as_bytes())?;
    }
}

proptest! {
    // Restarts of a few nodes each on boards up to 5×5: fewer cases here.
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn scarce_first_restarts_agree_with_the_reference(
        size in 3usize..=5, digits in 4u8..=10, perturb: bool, seed: u64,
    ) {
        // The restarts of the bit search with the scarce kinds first, which only large boards
        // take by default, forced on small ones: no first budget, every tree worth restarts.
        let game = game(size, digits, perturb, seed);
        let budgets = Budgets {
            plain: 0, quick_plain: 0, quick_tree: 0, restart_share: 1, restart_unit: 2, scarce_cells: 0,
            ..Budgets::DEFAULT
        };
        let config = Config { budgets, ..Config::new(1).with_threads(Some(NonZeroUsize::MIN)) };
        let outcome = solve::search_with(&game, &config);
        prop_assert_eq!(outcome.found, reference::count(&game, 1), "seed {}", seed);
        if let Some(board) = &outcome.first {
            prop_assert!(game.is_solution(board), "seed {}", seed);
        }
    }
}

proptest! {
    // Counting thousands of boards with the plain search is slow: fewer cases here.
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn few_digit_boards_count_alike(size in 2usize..=4, seed: u64) {
        // Two digits give many solutions: counting them all exercises every pruning rule,
        // none of which may ever cut a branch that holds a solution.
        let game = game(size, 2, false, seed);
        prop_assert_eq!(solve::count(&game, 5000), reference::count(&game, 5000), "seed {}", seed);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn one_thread_and_the_default_give_the_same_output(
        sizes in proptest::collection::vec((1usize..=5, 3u8..=10, any::<bool>()), 1..4),
        show: bool, count: bool, seed: u64,
    ) {
        let games: tetravex::model::Games =
            sizes.iter().enumerate().map(|(i, &(size, digits, perturb))| game(size, digits, perturb, seed ^ i as u64)).collect();
        let output = |threads| {
            let options = Options { show, count_limit: count.then_some(COUNT_LIMIT), threads, svg: None };
            let mut out = Vec::new();
            tetravex::answer(&games, options, &Progress::default(), &mut out).expect("writing to memory");
            out
        };
        prop_assert_eq!(output(Some(NonZeroUsize::MIN)), output(None), "seed {}", seed);
    }

    #[test]
    fn split_searches_find_what_one_thread_finds(
        size in 2usize..=5, digits in 5u8..=10, perturb: bool, limit in 1u64..=3, seed: u64,
    ) {
        // No budget before the symmetry choice and no quick estimate: every search with nearly
        // distinct tiles is split over the threads, whose outcome must be that of one thread,
        // solution included.
        let game = game(size, digits, perturb, seed);
        let config = |threads| Config {
            budgets: Budgets { plain: 0, quick_plain: 0, quick_tree: 0, ..Budgets::DEFAULT },
            ..Config::new(limit).with_threads(NonZeroUsize::new(threads))
        };
        let alone = solve::search_with(&game, &config(1));
        for threads in [2, 3] {
            let split = solve::search_with(&game, &config(threads));
            prop_assert_eq!(split.found, alone.found, "seed {}, {} threads", seed, threads);
            prop_assert_eq!(&split.first, &alone.first, "seed {}, {} threads", seed, threads);
        }
    }

    #[test]
    fn unique_games_have_exactly_one_solution(size in 1usize..=4, digits in 4u8..=10, seed: u64) {
        let options = r#gen::Options { size, digits, unsolvable: false, games: 1, tries: r#gen::default_tries(size) };
        let games = r#gen::unique_games(options, &mut ChaCha8Rng::seed_from_u64(seed), &Progress::default());
        let games = games.map_err(|err| TestCaseError::fail(format!("seed {seed}: {err}")))?;
        prop_assert_eq!(reference::count(&games[0], 2), 1, "seed {}", seed);
    }
}

proptest! {
    // Counting restarted many times, and searches cut into parts: fewer cases here.
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn counts_pooled_by_restarts_agree_with_the_reference(
        size in 2usize..=4, digits in 2u8..=8, perturb: bool, limit in 2u64..=30, seed: u64,
    ) {
        // Runs of a few nodes for both searches: the count comes from the distinct boards the
        // stopped runs pool, or from a run that ended within its budget.
        let game = game(size, digits, perturb, seed);
        let budgets = Budgets {
            first_run: 3, plain: 0, quick_plain: 0, quick_tree: 0, restart_share: 1, restart_unit: 2,
            ..Budgets::DEFAULT
        };
        let config = Config { budgets, ..Config::new(limit).with_threads(Some(NonZeroUsize::MIN)) };
        let outcome = solve::search_with(&game, &config);
        prop_assert_eq!(outcome.found, reference::count(&game, limit), "seed {}", seed);
        if let Some(board) = &outcome.first {
            prop_assert!(game.is_solution(board), "seed {}", seed);
        }
    }

    #[test]
    fn merged_parts_agree_with_one_search_and_the_reference(
        size in 2usize..=5, digits in 3u8..=10, perturb: bool, limit in prop_oneof![Just(1u64), Just(2), Just(40)],
        parts in 1usize..=12, split: bool, seed: u64,
    ) {
        // With `split`, no budget before the symmetry choice and no quick estimate: every game
        // of nearly distinct tiles is cut at its complete search.
        let game = game(size, digits, perturb, seed);
        let budgets = if split {
            Budgets { plain: 0, quick_plain: 0, quick_tree: 0, ..Budgets::DEFAULT }
        } else {
            Budgets::DEFAULT
        };
        let config = Config { budgets, ..Config::new(limit).with_threads(Some(NonZeroUsize::MIN)) };
        let shares = (0..parts).map(|index| solve::search_part(&game, &config, Part::new(index, parts).expect("a part")));
        let merged = merge_parts(limit, shares.collect::<Vec<_>>());
        let alone = solve::search_with(&game, &config);
        prop_assert_eq!(merged.found, alone.found, "seed {}, {} parts", seed, parts);
        prop_assert_eq!(&merged.first, &alone.first, "seed {}, {} parts", seed, parts);
        if size <= 4 {
            prop_assert_eq!(merged.found, reference::count(&game, limit), "seed {}", seed);
        }
        if let Some(board) = &merged.first {
            prop_assert!(game.is_solution(board), "seed {}", seed);
        }
    }
}
