//! The plain solver, the yardstick for tests and benchmarks.
//!
//! Keep the case's pre-filled digits where they are, put the other digits of 1..=k in the
//! other circles in every possible way (every permutation, in lexicographic order), and keep
//! the assignments with no consecutive digits in connected circles. Nothing is pruned: every
//! assignment is built in full and then checked against every connection. Only the pre-fills
//! are honoured by construction, which is what lets the tests ask about graphs of ten and more
//! circles: the work is (k - pre-filled)! assignments, not k!.

use crate::model::{Graph, Verdict};

/// Most circles left empty by a case that the reference accepts: 10! = 3,628,800 assignments.
pub const MAX_EMPTY: usize = 10;

/// Every solution of `case`, in lexicographic order.
///
/// # Complexity
/// O(e! · k) for e empty circles of k: every assignment, each checked against every connection.
///
/// # Panics
/// When the case leaves more than [`MAX_EMPTY`] circles empty, or does not hold one digit per
/// circle.
pub fn solutions(graph: &Graph, case: &[u8]) -> Vec<Vec<u8>> {
    let circles = graph.circles();
    assert_eq!(case.len(), circles, "one entry per circle");
    let empty: Vec<usize> = (0..circles).filter(|&circle| case[circle] == 0).collect();
    assert!(
        empty.len() <= MAX_EMPTY,
        "the reference tries every assignment of the empty circles only up to {MAX_EMPTY} of them"
    );
    // The pre-filled digits must be distinct digits of 1..=k, or nothing keeps them.
    let mut unused: Vec<u8> = (1..=circles as u8).collect();
    for &digit in case.iter().filter(|&&digit| digit != 0) {
        match unused.iter().position(|&free| free == digit) {
            Some(at) => {
                unused.remove(at);
            }
            None => return Vec::new(),
        }
    }
    let connections = graph.connections();
    let mut found = Vec::new();
    let mut digits = case.to_vec();
    every_assignment(&mut digits, &empty, &mut unused, &mut |digits| {
        if connections.iter().all(|&(a, b)| digits[a].abs_diff(digits[b]) != 1) {
            found.push(digits.to_vec());
        }
    });
    found
}

/// The judge's verdict on `case`, from all its solutions.
pub fn verdict(graph: &Graph, case: &[u8]) -> Verdict<Vec<u8>> {
    let mut found = solutions(graph, case);
    match found.len() {
        0 => Verdict::NoAnswer,
        1 => Verdict::Unique(found.remove(0)),
        _ => Verdict::NotUnique,
    }
}

/// Calls `visit` with `digits` once for every way of putting the `unused` digits (ascending)
/// into the circles `empty` (ascending), in lexicographic order of the whole assignment: the
/// first empty circle takes each unused digit in turn, smallest first, and the rest are
/// assigned after it the same way.
fn every_assignment(digits: &mut [u8], empty: &[usize], unused: &mut Vec<u8>, visit: &mut impl FnMut(&[u8])) {
    let Some((&circle, rest)) = empty.split_first() else {
        visit(digits);
        return;
    };
    for index in 0..unused.len() {
        let digit = unused.remove(index);
        digits[circle] = digit;
        every_assignment(digits, rest, unused, visit);
        unused.insert(index, digit);
    }
    digits[circle] = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_cases() {
        let graph = Graph::builtin();
        assert_eq!(verdict(&graph, &[7, 3, 1, 4, 5, 8, 0, 0]), Verdict::Unique(vec![7, 3, 1, 4, 5, 8, 6, 2]));
        assert_eq!(verdict(&graph, &[7, 0, 0, 0, 0, 0, 0, 0]), Verdict::NotUnique);
        assert_eq!(verdict(&graph, &[1, 0, 0, 0, 0, 0, 0, 0]), Verdict::NoAnswer);
    }

    #[test]
    fn tries_every_assignment_that_keeps_the_prefills() {
        let loose = Graph::new((0..4).map(|i| i.to_string()).collect(), &[]);
        let all = solutions(&loose, &[0; 4]);
        assert_eq!(all.len(), 24);
        assert!(all.windows(2).all(|pair| pair[0] < pair[1]));
        let kept = solutions(&loose, &[0, 3, 0, 0]);
        assert_eq!(
            kept,
            [[1, 3, 2, 4], [1, 3, 4, 2], [2, 3, 1, 4], [2, 3, 4, 1], [4, 3, 1, 2], [4, 3, 2, 1]]
        );
        assert_eq!(solutions(&loose, &[0, 0, 4, 4]), Vec::<Vec<u8>>::new(), "a repeated digit");
        assert_eq!(solutions(&loose, &[0, 0, 5, 0]), Vec::<Vec<u8>>::new(), "a digit beyond k");
        assert_eq!(solutions(&loose, &[2, 1, 4, 3]), [[2, 1, 4, 3]]);
    }

    #[test]
    fn connected_circles_never_hold_consecutive_digits() {
        // A path 0-1-2: the middle circle must differ by two or more from both ends.
        let path = Graph::new((0..3).map(|i| i.to_string()).collect(), &[(0, 1), (1, 2)]);
        assert_eq!(solutions(&path, &[0; 3]), Vec::<Vec<u8>>::new());
        let path = Graph::new((0..4).map(|i| i.to_string()).collect(), &[(0, 1), (1, 2)]);
        let all = solutions(&path, &[0; 4]);
        assert!(all.iter().all(|s| s[0].abs_diff(s[1]) > 1 && s[1].abs_diff(s[2]) > 1));
        // By hand: the middle holds 1 (its ends 3 and 4) or 4 (its ends 1 and 2), either way round.
        assert_eq!(all.len(), 4);
    }
}
