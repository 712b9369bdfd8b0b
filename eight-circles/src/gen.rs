//! Generated inputs for `gen`, the benchmarks and the property tests: cases with random
//! pre-fills for a graph, and random graphs.
//!
//! A random case pre-fills distinct circles with distinct digits (repeated digits would only
//! ever give `No answer`). A solvable case is built one pre-fill at a time: a random empty
//! circle gets the first digit, in random order, that leaves the case solvable; as the case was
//! solvable before, some digit always does.

use std::fmt::Write as _;

use rand::RngExt;
use rand::seq::SliceRandom;

use crate::model::{Cases, Graph, MAX_CIRCLES};
use crate::solve;

/// What cases to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaseOptions {
    /// How many cases.
    pub cases: usize,
    /// Pre-filled circles per case; `None` for a random number from 0 to k in each case.
    pub filled: Option<usize>,
    /// Only cases with at least one solution.
    pub solvable: bool,
}

/// Generates cases for `graph`; an error when more circles are to be pre-filled than there
/// are, or solvable cases are asked of a graph without a solution.
pub fn cases(graph: &Graph, options: CaseOptions, rng: &mut impl rand::Rng) -> Result<Cases, String> {
    let circles = graph.circles();
    if let Some(filled) = options.filled.filter(|&filled| filled > circles) {
        return Err(format!("cannot pre-fill {filled} circles of a graph of {circles}"));
    }
    if options.solvable && solve::count(graph, &vec![0; circles], 1) == 0 {
        return Err("the graph has no solution at all, so no case of it is solvable".to_owned());
    }
    let mut cases = Cases::new(circles);
    cases.reserve(options.cases);
    let mut case = vec![0u8; circles];
    for _ in 0..options.cases {
        let filled = options.filled.unwrap_or_else(|| rng.random_range(0..=circles));
        case.fill(0);
        let mut order: Vec<usize> = (0..circles).collect();
        order.shuffle(rng);
        let mut digits: Vec<u8> = (1..=circles as u8).collect();
        if options.solvable {
            for &circle in &order[..filled] {
                digits.shuffle(rng);
                let digit = digits
                    .iter()
                    .copied()
                    .find(|&digit| {
                        case[circle] = digit;
                        solve::count(graph, &case, 1) > 0
                    })
                    .expect("a solvable case has a solution, which puts some digit in every circle");
                case[circle] = digit;
            }
        } else {
            digits.shuffle(rng);
            for (&circle, &digit) in order.iter().zip(&digits).take(filled) {
                case[circle] = digit;
            }
        }
        cases.push(&case);
    }
    Ok(cases)
}

/// A random graph of `circles` circles named A, B, C, ... and `connections` distinct
/// connections; an error when that many do not fit.
///
/// # Panics
/// When `circles` is not in 1..=[`MAX_CIRCLES`].
pub fn graph(circles: usize, connections: usize, rng: &mut impl rand::Rng) -> Result<Graph, String> {
    assert!((1..=MAX_CIRCLES).contains(&circles), "1 to {MAX_CIRCLES} circles");
    let mut pairs: Vec<(usize, usize)> =
        (0..circles).flat_map(|a| (a + 1..circles).map(move |b| (a, b))).collect();
    if connections > pairs.len() {
        return Err(format!(
            "there is room for at most {} among {}, not {connections}",
            common::words::counted(pairs.len(), "connection"),
            common::words::counted(circles, "circle")
        ));
    }
    pairs.shuffle(rng);
    let names = (0..circles).map(|circle| char::from(b'A' + circle as u8).to_string()).collect();
    Ok(Graph::new(names, &pairs[..connections]))
}

/// Cases in the judge's input format: their number, then one line per case.
pub fn to_input(cases: &Cases) -> String {
    let mut out = String::with_capacity(16 + cases.len() * 2 * cases.circles());
    let _ = writeln!(out, "{}", cases.len());
    for case in cases {
        for (index, digit) in case.iter().enumerate() {
            let _ = write!(out, "{}{digit}", if index == 0 { "" } else { " " });
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::model::Verdict;

    #[test]
    fn random_cases_prefill_distinct_circles_with_distinct_digits() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let options = CaseOptions { cases: 200, filled: Some(3), solvable: false };
        let cases = cases(&Graph::builtin(), options, &mut rng).unwrap();
        assert_eq!(cases.len(), 200);
        for case in &cases {
            let mut given: Vec<u8> = case.iter().copied().filter(|&d| d != 0).collect();
            given.sort_unstable();
            given.dedup();
            assert_eq!(given.len(), 3, "{case:?}");
        }
    }

    #[test]
    fn solvable_cases_have_a_solution() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let graph = graph(10, 15, &mut rng).unwrap();
        let options = CaseOptions { cases: 50, filled: None, solvable: true };
        for case in &cases(&graph, options, &mut rng).unwrap() {
            assert_ne!(solve::verdict(&graph, case), Verdict::NoAnswer, "{case:?}");
        }
        let options = CaseOptions { cases: 10, filled: Some(8), solvable: true };
        for case in &cases(&Graph::builtin(), options, &mut rng).unwrap() {
            assert!(Graph::builtin().is_solution(case), "{case:?}");
        }
    }

    #[test]
    fn impossible_requests_are_refused() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let options = CaseOptions { cases: 1, filled: Some(9), solvable: false };
        assert!(cases(&Graph::builtin(), options, &mut rng).is_err());
        let triangle = Graph::new(vec!["a".into(), "b".into(), "c".into()], &[(0, 1), (1, 2), (0, 2)]);
        let options = CaseOptions { cases: 1, filled: None, solvable: true };
        assert!(cases(&triangle, options, &mut rng).is_err());
        assert!(graph(4, 7, &mut rng).is_err());
        assert_eq!(graph(4, 6, &mut rng).unwrap().connections().len(), 6);
    }

    #[test]
    fn input_round_trips_through_the_parser() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let graph = graph(12, 20, &mut rng).unwrap();
        let options = CaseOptions { cases: 30, filled: None, solvable: false };
        let generated = cases(&graph, options, &mut rng).unwrap();
        let parsed =
            crate::parse::cases(&mut common::Tokens::new(to_input(&generated).as_bytes()), &graph).unwrap();
        assert_eq!(parsed, generated);
        let file = graph.to_file("random");
        assert_eq!(crate::parse::graph(&mut common::Tokens::new(file.as_bytes())).unwrap(), graph);
    }
}
