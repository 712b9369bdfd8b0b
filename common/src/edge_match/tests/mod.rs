use proptest::prelude::*;
use rand::RngExt;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::bits::BitSearch;
use super::board_symmetry::Symmetry;
use super::checks::{Line, border_mask, cell_mask, rotation_class};
use super::dead_ends::DeadEnds;
use super::kinds::{KindSet, Mid, Wide};
use super::symmetry;
use super::*;

/// A configuration for up to `limit` solutions with these budgets.
fn config(limit: u64, budgets: Budgets) -> Config {
    Config { budgets, ..Config::new(limit) }
}

/// Counts solutions by plain row-major backtracking over kinds, with no pruning: the
/// yardstick for every rule above.
fn plain_count(puzzle: &Puzzle, limit: u64) -> u64 {
    fn fill(puzzle: &Puzzle, remaining: &mut [u32], board: &mut Vec<[u8; 4]>, limit: u64) -> u64 {
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        let cell = board.len();
        if cell == rows * cols {
            return 1;
        }
        let (row, col) = (cell / cols, cell % cols);
        let mut found = 0;
        for kind in 0..puzzle.kinds.len() {
            for &sides in &puzzle.kinds[kind].orientations {
                let [top, right, bottom, left] = sides;
                let fits_left = col == 0 || board[cell - 1][RIGHT] == left;
                let fits_top = row == 0 || board[cell - cols][BOTTOM] == top;
                let border_fits = match puzzle.border {
                    Border::Free => true,
                    Border::Fixed(b) => {
                        (top == b) == (row == 0)
                            && (left == b) == (col == 0)
                            && (right == b) == (col + 1 == cols)
                            && (bottom == b) == (row + 1 == rows)
                    }
                };
                if remaining[kind] == 0 || !fits_left || !fits_top || !border_fits {
                    continue;
                }
                remaining[kind] -= 1;
                board.push(sides);
                found += fill(puzzle, remaining, board, limit - found);
                board.pop();
                remaining[kind] += 1;
                if found >= limit {
                    return found;
                }
            }
        }
        found
    }
    let mut remaining: Vec<u32> = puzzle.kinds.iter().map(|kind| kind.count).collect();
    fill(puzzle, &mut remaining, &mut Vec::new(), limit)
}

/// Whether `solution` places exactly the puzzle's tiles and every joint and border fits.
fn is_solution(puzzle: &Puzzle, solution: &Grid<Placement>) -> bool {
    let mut used = vec![0; puzzle.kinds.len()];
    solution.cells().iter().for_each(|p| used[p.kind] += 1);
    let counts_match = used.iter().zip(&puzzle.kinds).all(|(&n, kind)| n == kind.count);
    let sides: Vec<[u8; 4]> = solution.cells().iter().map(|&p| puzzle.sides(p)).collect();
    let (rows, cols) = (puzzle.rows, puzzle.cols);
    let fits = (0..rows * cols).all(|cell| {
        let (row, col) = (cell / cols, cell % cols);
        let s = sides[cell];
        let joints = (col + 1 == cols || s[RIGHT] == sides[cell + 1][LEFT])
            && (row + 1 == rows || s[BOTTOM] == sides[cell + cols][TOP]);
        joints
            && match puzzle.border {
                Border::Free => true,
                Border::Fixed(b) => border_mask(s, b) == cell_mask(rows, cols, row, col),
            }
    });
    counts_match && fits
}

/// A random puzzle cut from a random board: joints labelled `0..labels` (border `0` and
/// inner `1..labels` when `fixed`), optionally one side changed, optionally every tile
/// turned at random and allowed all its rotations.
fn random_puzzle(
    rows: usize,
    cols: usize,
    labels: u8,
    fixed: bool,
    rotate: bool,
    break_one: bool,
    seed: u64,
) -> Puzzle {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let inner = |rng: &mut ChaCha8Rng| {
        if fixed { rng.random_range(1..labels) } else { rng.random_range(0..labels) }
    };
    let edge = |rng: &mut ChaCha8Rng| if fixed { 0 } else { rng.random_range(0..labels) };
    let mut tiles = vec![[0u8; 4]; rows * cols];
    for cell in 0..rows * cols {
        let (row, col) = (cell / cols, cell % cols);
        let top = if row == 0 { edge(&mut rng) } else { tiles[cell - cols][BOTTOM] };
        let left = if col == 0 { edge(&mut rng) } else { tiles[cell - 1][RIGHT] };
        let right = if col + 1 == cols { edge(&mut rng) } else { inner(&mut rng) };
        let bottom = if row + 1 == rows { edge(&mut rng) } else { inner(&mut rng) };
        tiles[cell] = [top, right, bottom, left];
    }
    if break_one {
        let cell = rng.random_range(0..tiles.len());
        tiles[cell][rng.random_range(0..4)] = rng.random_range(0..labels);
    }
    let border = if fixed { Border::Fixed(0) } else { Border::Free };
    if !rotate {
        return Puzzle::from_tiles(rows, cols, labels as usize, border, &tiles);
    }
    let turn = |sides: [u8; 4], turns: usize| std::array::from_fn(|side| sides[(side + 4 - turns) % 4]);
    let mut kinds: Vec<Kind> = Vec::new();
    for tile in tiles {
        let turned = turn(tile, rng.random_range(0..4));
        if let Some(kind) = kinds.iter_mut().find(|kind| kind.orientations.contains(&turned)) {
            kind.count += 1;
            continue;
        }
        let mut orientations: Vec<[u8; 4]> = Vec::new();
        for turns in 0..4 {
            let sides = turn(turned, turns);
            if !orientations.contains(&sides) {
                orientations.push(sides);
            }
        }
        kinds.push(Kind { count: 1, orientations });
    }
    Puzzle { rows, cols, labels: labels as usize, border, kinds }
}

#[test]
fn masks_group_by_rotation() {
    assert_eq!(cell_mask(3, 3, 0, 0), 1 << TOP | 1 << LEFT);
    assert_eq!(cell_mask(3, 3, 1, 1), 0);
    assert_eq!(cell_mask(1, 1, 0, 0), 0xf);
    let corners = [0b1001, 0b0011, 0b0110, 0b1100];
    assert!(corners.iter().all(|&mask| rotation_class(mask) == rotation_class(corners[0])));
    assert_ne!(rotation_class(0b0101), rotation_class(0b0011));
    assert_eq!(border_mask([0, 1, 0, 2], 0), 0b0101);
}

#[test]
fn a_line_chains_only_when_balanced_and_connected() {
    let mut line = Line::default();
    for (from, to) in [(0, 1), (1, 2), (2, 2), (2, 0)] {
        line.add(from, to);
    }
    assert!(line.balanced_from(0, 0) && line.connected_from(0));
    // The first two tiles placed: the rest runs from 2 back to 0.
    line.remove(0, 1);
    line.remove(1, 2);
    assert!(line.balanced_from(2, 0) && line.connected_from(2));
    assert!(!line.balanced_from(1, 0));
    // Balanced from 1 to 0, but the loop at 2 cannot be reached.
    let mut apart = Line::default();
    apart.add(1, 0);
    apart.add(2, 2);
    assert!(apart.balanced_from(1, 0) && !apart.connected_from(1));
    apart.add(1, 2);
    apart.add(2, 1);
    assert!(apart.connected_from(1));
}

#[test]
fn root_checks_refuse_what_counting_sees() {
    // A 2×2 jigsaw-like board: corners only, the inner joints labelled 1 and 2.
    let tiles = [[0, 1, 2, 0], [0, 0, 1, 1], [2, 2, 0, 0], [1, 0, 0, 2]];
    let puzzle = Puzzle::from_tiles(2, 2, 3, Border::Fixed(0), &tiles);
    assert!(puzzle.check_counts());
    assert_eq!(count(&puzzle, 10), 1);
    // The bottom-right corner turned into a second top-right corner: border classes fail.
    let wrong_class =
        Puzzle::from_tiles(2, 2, 3, Border::Fixed(0), &[tiles[0], tiles[1], tiles[2], [0, 0, 1, 1]]);
    assert!(!wrong_class.check_counts());
    // Swap the right sides of the two left corners: every per-side count stays, but the top
    // row and the bottom row no longer chain.
    let swapped = [[0, 2, 2, 0], [0, 0, 1, 1], [2, 1, 0, 0], [1, 0, 0, 2]];
    let puzzle = Puzzle::from_tiles(2, 2, 3, Border::Fixed(0), &swapped);
    assert!(puzzle.border_classes_fit(0));
    assert!(!puzzle.check_counts());
    assert_eq!(plain_count(&puzzle, 10), 0);
}

#[test]
fn the_dead_end_table_compares_exact_keys() {
    let puzzle = Puzzle::from_tiles(1, 2, 2, Border::Free, &[[0, 1, 0, 0], [0, 0, 0, 1]]);
    let mut table = DeadEnds::new(&puzzle, &Budgets::DEFAULT);
    // Keys hold the cell, two columns, the right label and two counts.
    assert_eq!(table.key_len, 6);
    table.insert(42, &[1, 2, 3, 4, 5, 6]);
    assert!(table.contains(42, &[1, 2, 3, 4, 5, 6]));
    // The same hash for another state is a collision, never a hit.
    assert!(!table.contains(42, &[1, 2, 3, 4, 5, 7]));
    assert!(!table.contains(43, &[1, 2, 3, 4, 5, 6]));
    // A second state with a taken hash is not recorded.
    table.insert(42, &[9, 9, 9, 9, 9, 9]);
    assert!(!table.contains(42, &[9, 9, 9, 9, 9, 9]));
}

#[test]
fn restarts_keep_the_verdict_and_find_real_solutions() {
    for seed in 0..40 {
        let puzzle = random_puzzle(4, 4, 3, true, seed % 4 == 0, seed % 2 == 1, seed);
        let solvable = plain_count(&puzzle, 1) == 1;
        // A budget of a few nodes forces many restarts.
        let outcome = search(&puzzle, &config(1, Budgets { first_run: 3, ..Budgets::DEFAULT }));
        assert_eq!(outcome.first.is_some(), solvable, "seed {seed}");
        if let Some(solution) = &outcome.first {
            assert!(is_solution(&puzzle, solution), "seed {seed}");
        }
    }
}

/// A puzzle with a free border and single orientations, 1–4 × 1–4 cells and 4–6 labels, one side
/// changed for odd seeds: the cases of the bit search.
fn free_puzzle(seed: u64) -> Puzzle {
    let (rows, cols) = (1 + seed as usize % 4, 1 + (seed as usize / 4) % 4);
    let labels = 4 + (seed % 3) as u8;
    random_puzzle(rows, cols, labels, false, false, seed % 2 == 1, seed)
}

#[test]
fn every_symmetry_keeps_the_solutions() {
    let mut searched = 0;
    for seed in 0..300 {
        let puzzle = free_puzzle(seed);
        let expected = plain_count(&puzzle, 50);
        for symmetry in Symmetry::ALL {
            let turned = symmetry.puzzle(&puzzle);
            assert_eq!(plain_count(&turned, 50), expected, "seed {seed}, {symmetry:?}");
        }
        if !puzzle.nearly_distinct() {
            continue;
        }
        searched += 1;
        // No budget for the puzzle as given: the search runs in the symmetry it picks, the
        // quick estimate's within the bounded search, or (no budget for that search, or no
        // quick estimate) the full estimate's, or (a second look at every tree) the choice
        // among the leaders after more walks.
        let given = Budgets { plain: 0, quick_plain: 0, ..Budgets::DEFAULT };
        let paths = [
            given,
            Budgets { quick_cap: 0, ..given },
            Budgets { quick_tree: 0, ..given },
            Budgets { quick_cap: 0, quick_more_tree: 0, ..given },
        ];
        for (path, budgets) in paths.into_iter().enumerate() {
            for limit in [1, 50] {
                let outcome = symmetry::search::<u64>(&puzzle, &config(limit, budgets));
                assert_eq!(outcome.found, expected.min(limit), "seed {seed}, path {path}");
                if let Some(solution) = &outcome.first {
                    assert!(is_solution(&puzzle, solution), "seed {seed}, path {path}");
                }
                // The wider sets search the same tree in the same order (the two-word ones on
                // one thread: the threads are the same code for every width).
                let one_thread = config(limit, budgets).with_threads(NonZeroUsize::new(1));
                let mid = symmetry::search::<Mid>(&puzzle, &one_thread);
                let wide = symmetry::search::<Wide>(&puzzle, &config(limit, budgets));
                assert_eq!(
                    (&mid.found, &mid.first),
                    (&outcome.found, &outcome.first),
                    "seed {seed}, path {path}"
                );
                assert_eq!(
                    (wide.found, wide.first),
                    (outcome.found, outcome.first),
                    "seed {seed}, path {path}"
                );
            }
        }
    }
    assert!(searched > 100, "only {searched} puzzles took the bit search");
}

#[test]
fn wide_sets_prune_as_narrow_ones() {
    // The wider sets' lookahead goes through the labels, the narrow sets' through byte tables:
    // one search on one thread visits the same nodes either way.
    let mut searched = 0;
    for seed in 0..200 {
        let puzzle = free_puzzle(seed);
        if !puzzle.nearly_distinct() {
            continue;
        }
        searched += 1;
        for limit in [1, 50] {
            let narrow = searched_with::<u64>(&puzzle, limit);
            assert_eq!(searched_with::<Mid>(&puzzle, limit), narrow, "seed {seed}, limit {limit}");
            assert_eq!(searched_with::<Wide>(&puzzle, limit), narrow, "seed {seed}, limit {limit}");
        }
    }
    assert!(searched > 100, "only {searched} puzzles took the bit search");
}

/// One bit search of `puzzle` over sets `S` to `limit` solutions: found, first, nodes.
fn searched_with<S: KindSet>(puzzle: &Puzzle, limit: u64) -> (u64, Option<Grid<Placement>>, u64) {
    let mut search = BitSearch::<S>::new(puzzle, &Config::new(limit));
    search.run();
    (search.found, search.first, search.nodes.count)
}

#[test]
fn every_dead_row_keeps_the_counts() {
    // Row 0 records only the root, rows past the last record nothing: all are valid.
    let mut searched = 0;
    for seed in 0..120 {
        let puzzle = free_puzzle(seed);
        if !puzzle.nearly_distinct() {
            continue;
        }
        searched += 1;
        let expected = plain_count(&puzzle, 50);
        for dead_row in 0..=5 {
            let budgets = Budgets { plain: 0, quick_plain: 0, dead_row, ..Budgets::DEFAULT };
            for limit in [1, 50] {
                let outcome = symmetry::search::<u64>(&puzzle, &config(limit, budgets));
                assert_eq!(outcome.found, expected.min(limit), "seed {seed}, dead row {dead_row}");
                let wide = symmetry::search::<Wide>(&puzzle, &config(limit, budgets));
                assert_eq!(wide.found, outcome.found, "seed {seed}, dead row {dead_row}");
            }
        }
    }
    assert!(searched > 40, "only {searched} puzzles took the bit search");
}

#[test]
fn a_rebuilt_search_runs_as_a_new_one() {
    rebuilt_searches_run_as_new_ones::<u64>();
    rebuilt_searches_run_as_new_ones::<Mid>();
    rebuilt_searches_run_as_new_ones::<Wide>();
}

/// Small puzzles (up to 2 bytes of kinds) alternate with 8×8 ones (8 bytes) under a budget, so
/// each rebuild gets tables and a dead-end table left by a puzzle of another size.
fn rebuilt_searches_run_as_new_ones<S: KindSet>() {
    let mut used = BitSearch::<S>::new(&free_puzzle(0), &Config::new(1));
    let mut compared = 0;
    for seed in 0..200 {
        let puzzle =
            if seed % 4 == 3 { random_puzzle(8, 8, 5, false, false, true, seed) } else { free_puzzle(seed) };
        if !puzzle.nearly_distinct() {
            continue;
        }
        compared += 1;
        for limit in [1, 50] {
            let mut fresh = BitSearch::<S>::new(&puzzle, &Config::new(limit));
            fresh.nodes.set_budget(20_000);
            fresh.run();
            let mut rebuilt = used.rebuilt(&puzzle, &Config::new(limit));
            rebuilt.nodes.set_budget(20_000);
            rebuilt.run();
            assert_eq!(rebuilt.nodes.count, fresh.nodes.count, "seed {seed}, limit {limit}");
            assert_eq!(rebuilt.found, fresh.found, "seed {seed}, limit {limit}");
            assert_eq!(rebuilt.first, fresh.first, "seed {seed}, limit {limit}");
            used = rebuilt;
        }
    }
    assert!(compared > 100, "only {compared} puzzles took the bit search");
}

#[test]
fn symmetries_move_cells_as_they_move_the_board() {
    let turn = Symmetry { mirror: false, turns: 1 };
    // A quarter turn clockwise of a 2 × 3 board: the top-left corner becomes the top-right.
    assert_eq!(turn.position(2, 3, 0, 0), (0, 1));
    assert_eq!(turn.position(2, 3, 1, 2), (2, 0));
    let mirror = Symmetry { mirror: true, turns: 0 };
    assert_eq!(mirror.position(2, 3, 0, 0), (0, 2));
    let tiles = [[1, 2, 3, 4]];
    let turned = turn.puzzle(&Puzzle::from_tiles(1, 1, 5, Border::Free, &tiles));
    assert_eq!(turned.kinds[0].orientations[0], [4, 1, 2, 3]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn counts_agree_with_plain_backtracking(
        rows in 1usize..=4, cols in 1usize..=4, labels in 2u8..=4, fixed: bool, rotate: bool,
        break_one: bool, seed: u64,
    ) {
        let puzzle = random_puzzle(rows, cols, labels, fixed, rotate, break_one, seed);
        let limit = 50;
        let outcome = search(&puzzle, &Config::new(limit));
        prop_assert_eq!(outcome.found, plain_count(&puzzle, limit), "seed {}", seed);
        if let Some(solution) = &outcome.first {
            prop_assert!(is_solution(&puzzle, solution), "seed {}", seed);
        }
        let single = search(&puzzle, &Config::new(1));
        prop_assert_eq!(single.found, outcome.found.min(1), "seed {}", seed);
    }
}

// The randomised restarts of module `restarts`.

use super::restarts::Settled;

#[test]
fn free_border_restarts_keep_the_verdict_and_find_real_solutions() {
    for seed in 0..40 {
        let puzzle = random_puzzle(4, 4, 3, false, false, seed % 2 == 1, seed);
        let solvable = plain_count(&puzzle, 1) == 1;
        // A budget of a few nodes forces many restarts of the row-major search.
        let outcome = search(&puzzle, &config(1, Budgets { first_run: 3, ..Budgets::DEFAULT }));
        assert_eq!(outcome.first.is_some(), solvable, "seed {seed}");
        if let Some(solution) = &outcome.first {
            assert!(is_solution(&puzzle, solution), "seed {seed}");
        }
    }
}

/// Runs the bit search's restarts under `budgets` on the free puzzles of seeds 0..200 that take
/// the bit search: whatever a run settles must be true (checked against plain backtracking), and
/// the same input must settle the same way; with `settle_all`, every puzzle must be settled.
/// Returns the puzzles found solvable and those refuted.
fn check_restarts(budgets: Budgets, settle_all: bool) -> (u32, u32) {
    check_restarts_counting(budgets, 1, settle_all)
}

/// [`check_restarts`] counting to `limit`: a count settled by the restarts must be the count
/// plain backtracking finds up to the limit.
fn check_restarts_counting(budgets: Budgets, limit: u64, settle_all: bool) -> (u32, u32) {
    let (mut found, mut refuted) = (0, 0);
    for seed in 0..200 {
        let puzzle = free_puzzle(seed);
        if !puzzle.nearly_distinct() {
            continue;
        }
        let expected = plain_count(&puzzle, limit);
        let solvable = expected > 0;
        let (settled, _) = restarts::settle::<u64>(&puzzle, &config(limit, budgets), f64::INFINITY);
        match &settled {
            Settled::Found { first: solution, found: count } => {
                assert!(solvable && is_solution(&puzzle, solution), "seed {seed}");
                assert_eq!(*count, expected, "seed {seed}, limit {limit}");
                found += 1;
            }
            Settled::Unsolvable => {
                assert!(!solvable, "seed {seed}");
                refuted += 1;
            }
            Settled::Open => assert!(!settle_all, "seed {seed}: a small puzzle is settled"),
        }
        assert_eq!(
            restarts::settle::<u64>(&puzzle, &config(limit, budgets), f64::INFINITY).0,
            settled,
            "seed {seed}"
        );
    }
    (found, refuted)
}

#[test]
fn bit_search_restarts_find_only_real_solutions() {
    // Small puzzles are settled well within the budget, either way.
    let (found, _) = check_restarts(Budgets { restarts: 50_000, ..Budgets::DEFAULT }, true);
    assert!(found > 20, "only {found} solvable puzzles exercised the restarts");
}

#[test]
fn tiny_luby_units_keep_the_restarts_exact() {
    // Runs of a few nodes, growing by Luby's sequence: the first ones stop at their budget on
    // all but the smallest boards, and whatever a run settles must be true.
    let budgets = Budgets { restarts: 20_000, restart_unit: 3, ..Budgets::DEFAULT };
    let (found, refuted) = check_restarts(budgets, false);
    assert!(found > 10 && refuted > 0, "{found} found, {refuted} refuted: the runs were not exercised");
}

#[test]
fn scarce_first_restarts_stay_exact() {
    // The order that tries scarce kinds first, forced on the small boards: whatever a run
    // settles must still be true, and the same input settle the same way.
    let budgets = Budgets { restarts: 20_000, restart_unit: 3, scarce_cells: 0, ..Budgets::DEFAULT };
    let (found, refuted) = check_restarts(budgets, false);
    assert!(found > 10 && refuted > 0, "{found} found, {refuted} refuted: the runs were not exercised");
}

#[test]
fn counting_restarts_settle_only_true_counts() {
    // Counting to a limit with runs of a few nodes: the distinct boards the stopped runs pool,
    // or a run that ends within its budget, settle the count; either must be the true count.
    let budgets = Budgets { restarts: 20_000, restart_unit: 3, ..Budgets::DEFAULT };
    for limit in [2, 3, 8] {
        let (found, refuted) = check_restarts_counting(budgets, limit, false);
        assert!(found > 10 && refuted > 0, "limit {limit}: {found} counted, {refuted} refuted");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn counts_by_restarts_agree_with_plain_backtracking(
        rows in 1usize..=4, cols in 1usize..=4, labels in 2u8..=6, fixed: bool, rotate: bool,
        break_one: bool, limit in 2u64..=12, seed: u64,
    ) {
        // Runs of a few nodes for both searches, restarted many times: a count comes from the
        // boards the stopped runs pool, or from a run that ended within its budget.
        let puzzle = random_puzzle(rows, cols, labels, fixed, rotate, break_one, seed);
        let budgets = Budgets {
            first_run: 3, plain: 0, quick_plain: 0, quick_tree: 0, restart_share: 1, restart_unit: 2,
            ..Budgets::DEFAULT
        };
        let outcome = search(&puzzle, &config(limit, budgets));
        prop_assert_eq!(outcome.found, plain_count(&puzzle, limit), "seed {}", seed);
        if let Some(solution) = &outcome.first {
            prop_assert!(is_solution(&puzzle, solution), "seed {}", seed);
        }
    }
}

mod parts;
mod threads;
