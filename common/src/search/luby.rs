//! Luby's sequence, the schedule by which restarted searches grow their budgets.
//!
//! 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, …: the sequence is made of copies of itself
//! followed by the next power of two. Its first n terms sum to about n log n, and every power of
//! two recurs, so a run that needs some budget is never far off (Luby, Sinclair and Zuckerman's
//! universal strategy for Las Vegas algorithms is within a logarithmic factor of the best fixed
//! one).

/// The `index`-th term (from 1) of Luby's sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, …
///
/// # Complexity
/// O(log `index`): each step drops the leading bit of `index`.
///
/// # Panics
/// When `index` is 0: the sequence starts at 1.
pub fn luby(index: u64) -> u64 {
    assert!(index > 0, "Luby's sequence starts at index 1");
    let mut index = index;
    loop {
        // The smallest k with index <= 2^k - 1: term 2^k - 1 closes the k-th block with 2^(k-1);
        // any earlier term of that block repeats the sequence from its start.
        let k = u64::BITS - index.leading_zeros();
        if index == u64::MAX >> (u64::BITS - k) {
            return 1 << (k - 1);
        }
        index -= (1 << (k - 1)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_starts_as_published() {
        let terms: Vec<u64> = (1..=31).map(luby).collect();
        assert_eq!(
            terms,
            [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 16]
        );
    }

    #[test]
    fn each_block_ends_with_the_next_power_of_two() {
        for k in 1..40 {
            assert_eq!(luby((1 << k) - 1), 1 << (k - 1), "term 2^{k} - 1");
        }
        assert_eq!(luby(u64::MAX), 1 << 63);
    }
}
