//! The plain solver, the yardstick for tests and benchmarks.
//!
//! Try every one of the k! ways to put 1..=k in the circles, in lexicographic order, and keep
//! those that keep the case's pre-filled digits and hold no consecutive digits in connected
//! circles. Nothing is pruned: every permutation is checked in full.

use std::sync::OnceLock;

use crate::model::{Graph, Verdict};

/// Most circles the reference accepts: 9! = 362,880 permutations per case.
pub const MAX_CIRCLES: usize = 9;

/// Every solution of `case`, in lexicographic order.
///
/// # Panics
/// When the graph has more than [`MAX_CIRCLES`] circles.
pub fn solutions(graph: &Graph, case: &[u8]) -> Vec<Vec<u8>> {
    let circles = graph.circles();
    assert!(circles <= MAX_CIRCLES, "the reference tries all k! permutations only up to k = {MAX_CIRCLES}");
    let connections = graph.connections();
    let mut found = Vec::new();
    for digits in permutations(circles).chunks_exact(circles) {
        let keeps_prefills = (0..circles).all(|circle| case[circle] == 0 || case[circle] == digits[circle]);
        if keeps_prefills && connections.iter().all(|&(a, b)| digits[a].abs_diff(digits[b]) != 1) {
            found.push(digits.to_vec());
        }
    }
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

/// Every permutation of 1..=k, k digits each, in lexicographic order. Built once per k and
/// kept: the tests ask the reference about tens of thousands of cases.
fn permutations(circles: usize) -> &'static [u8] {
    static BUILT: [OnceLock<Vec<u8>>; MAX_CIRCLES + 1] = [const { OnceLock::new() }; MAX_CIRCLES + 1];
    BUILT[circles].get_or_init(|| {
        let mut all = Vec::new();
        every_permutation(&mut [0; MAX_CIRCLES][..circles], 0, 0, &mut |permutation| {
            all.extend_from_slice(permutation);
        });
        all
    })
}

/// Calls `visit` with every permutation of 1..=k (k = `permutation.len()`) whose first
/// `filled` places are those of `permutation` already, in lexicographic order; bit `d` of
/// `used` tells whether digit `d` is among them.
fn every_permutation(permutation: &mut [u8], filled: usize, used: u16, visit: &mut impl FnMut(&[u8])) {
    if filled == permutation.len() {
        visit(permutation);
        return;
    }
    for digit in 1..=permutation.len() as u8 {
        if used & (1 << digit) == 0 {
            permutation[filled] = digit;
            every_permutation(permutation, filled + 1, used | (1 << digit), visit);
        }
    }
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
    fn tries_every_permutation() {
        let loose = Graph::new((0..4).map(|i| i.to_string()).collect(), &[]);
        let all = solutions(&loose, &[0; 4]);
        assert_eq!(all.len(), 24);
        assert!(all.windows(2).all(|pair| pair[0] < pair[1]));
        assert_eq!(solutions(&loose, &[0, 0, 4, 4]), Vec::<Vec<u8>>::new());
    }
}
