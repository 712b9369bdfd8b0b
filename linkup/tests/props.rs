//! Property tests: the fast solver against the plain reference on random boards, `--show` lines
//! against the rules, and the parser against arbitrary bytes. Failures print the seed.

use linkup::model::{Board, Query, Rules};
use linkup::{r#gen, reference, solve::Solver};
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
        let mut cell = || linkup::model::Query::new(rng.random_range(1..=rows), rng.random_range(1..=cols), 0, 0).a;
        let (a, b) = (cell(), cell());
        queries.push(Query { a, b });
    }
    (board, queries)
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
                prop_assert_eq!(Some(line.turns() as u32), fewest, "seed {}, {:?}, {:?}", seed, rules, query);
            }
        }
    }
}
