//! The plain solver, the yardstick for tests and benchmarks.
//!
//! Try every one of the k! ways to put 1..=k in the circles, in lexicographic order, and keep
//! those that keep the case's pre-filled digits and hold no consecutive digits in connected
//! circles. Nothing is pruned: every permutation is built in full and then checked.

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
    let mut permutation = Vec::with_capacity(circles);
    let mut used = vec![false; circles + 1];
    every_permutation(&mut permutation, &mut used, circles, &mut |digits| {
        let breaks_no_connection = connections.iter().all(|&(a, b)| digits[a].abs_diff(digits[b]) != 1);
        if Graph::keeps_prefills(case, digits) && breaks_no_connection {
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

/// Calls `visit` with every permutation of 1..=k that extends `permutation`, in lexicographic
/// order; `used[d]` tells whether `d` is already in `permutation`.
fn every_permutation(permutation: &mut Vec<u8>, used: &mut [bool], circles: usize, visit: &mut dyn FnMut(&[u8])) {
    if permutation.len() == circles {
        visit(permutation);
        return;
    }
    for digit in 1..=circles {
        if !used[digit] {
            used[digit] = true;
            permutation.push(digit as u8);
            every_permutation(permutation, used, circles, visit);
            permutation.pop();
            used[digit] = false;
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
