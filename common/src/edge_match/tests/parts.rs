//! The split of one search into parts (module `parts`): the merge of every part's outcome is
//! the outcome of one search.

use std::num::NonZeroUsize;

use proptest::prelude::*;

use super::super::parts::{Part, PartOutcome, merge_parts, search_part};
use super::{is_solution, random_puzzle};
use crate::edge_match::{Budgets, Config, search};

/// `puzzle` searched in `parts` parts and merged.
fn merged(
    puzzle: &super::Puzzle,
    config: &Config,
    parts: usize,
) -> crate::search::Outcome<crate::Grid<super::Placement>> {
    let outcomes: Vec<_> = (0..parts)
        .map(|index| search_part(puzzle, config, Part::new(index, parts).expect("a part")))
        .collect();
    merge_parts(config.limit, outcomes)
}

/// Budgets that leave every puzzle of the bit search past its first budget to the complete
/// search, without a bounded quick search, with or without restarts before it.
fn to_the_split(restarts: bool) -> Budgets {
    let restarts = if restarts { Budgets::DEFAULT.restarts } else { 0 };
    Budgets { plain: 0, quick_plain: 0, quick_tree: 0, restarts, restart_unit: 2, ..Budgets::DEFAULT }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn merged_parts_have_the_outcome_of_one_search(
        rows in 1usize..=5, cols in 1usize..=5, labels in 3u8..=8, break_one: bool, restarts: bool,
        limit in prop_oneof![Just(1u64), Just(2), Just(50)], parts in prop_oneof![Just(1usize), 2usize..=9, Just(40usize)],
        seed: u64,
    ) {
        let puzzle = random_puzzle(rows, cols, labels, false, false, break_one, seed);
        for budgets in [to_the_split(restarts), Budgets::DEFAULT] {
            let config = Config { budgets, ..Config::new(limit).with_threads(NonZeroUsize::new(1)) };
            let alone = search(&puzzle, &config);
            let split = merged(&puzzle, &config, parts);
            prop_assert_eq!(split.found, alone.found, "seed {}, {} parts", seed, parts);
            prop_assert_eq!(&split.first, &alone.first, "seed {}, {} parts", seed, parts);
            if let Some(solution) = &split.first {
                prop_assert!(is_solution(&puzzle, solution), "seed {}", seed);
            }
        }
    }

    #[test]
    fn parts_of_repeated_tiles_merge_too(
        rows in 1usize..=4, cols in 1usize..=4, labels in 2u8..=3, fixed: bool, rotate: bool,
        limit in 1u64..=5, parts in 1usize..=5, seed: u64,
    ) {
        // The row-major search is not split: the first part runs it whole.
        let puzzle = random_puzzle(rows, cols, labels, fixed, rotate, false, seed);
        let config = Config::new(limit);
        let alone = search(&puzzle, &config);
        let split = merged(&puzzle, &config, parts);
        prop_assert_eq!((split.found, split.first), (alone.found, alone.first), "seed {}", seed);
    }
}

#[test]
fn a_part_run_twice_reports_the_same() {
    let puzzle = random_puzzle(5, 5, 5, false, false, true, 7);
    let config = Config { budgets: to_the_split(true), ..Config::new(3) };
    for index in 0..6 {
        let part = Part::new(index, 6).expect("a part");
        assert_eq!(search_part(&puzzle, &config, part), search_part(&puzzle, &config, part));
    }
}

#[test]
fn many_parts_share_the_tree_between_them() {
    // Puzzles with many solutions past their first budget, cut into 20 parts and counted: the
    // solutions lie in the shares of several parts, which add up to the count of one search.
    let mut spread = 0;
    for seed in 0..20 {
        let puzzle = random_puzzle(5, 5, 4, false, false, false, seed);
        if !puzzle.nearly_distinct() {
            continue;
        }
        let config = Config { budgets: to_the_split(false), ..Config::new(1_000) };
        let outcomes: Vec<_> = (0..20)
            .map(|index| search_part(&puzzle, &config, Part::new(index, 20).expect("a part")))
            .collect();
        let with_solutions = outcomes
            .iter()
            .filter(|outcome| matches!(outcome, PartOutcome::Share { found, .. } if *found > 0));
        if with_solutions.count() >= 2 {
            spread += 1;
        }
        assert_eq!(merge_parts(config.limit, outcomes).found, search(&puzzle, &config).found, "seed {seed}");
    }
    assert!(spread >= 5, "only {spread} puzzles had solutions in two parts or more");
}

#[test]
fn parts_are_written_as_schedulers_number_them() {
    let part: Part = "3/1000".parse().expect("a part");
    assert_eq!((part.index(), part.count()), (2, 1000));
    assert_eq!(part.to_string(), "3/1000");
    for bad in ["0/5", "6/5", "5", "a/b", "1/0", "-1/3", ""] {
        assert!(bad.parse::<Part>().is_err(), "{bad}");
    }
}
