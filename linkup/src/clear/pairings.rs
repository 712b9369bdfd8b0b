//! The three ways ("pairings") of pairing a kind with four pieces left, as bits (see the
//! search without gravity, [`super::still`]).

/// All three pairings of a kind with four pieces left.
pub(super) const ALL_PAIRINGS: u8 = 0b111;

/// The two pairs of pairing `p` of four pieces `w < x < y < z` (indices into them).
pub(super) const PAIRINGS: [[(usize, usize); 2]; 3] = [[(0, 1), (2, 3)], [(0, 2), (1, 3)], [(0, 3), (1, 2)]];

/// The pairs of a set of pairings (bit p: pairing p), as a mask over [`PAIRINGS`] flattened
/// (bit `2p + i`: pair i of pairing p).
pub(super) const PAIRS_OF: [u8; 8] = [0, 0b11, 0b1100, 0b1111, 0b11_0000, 0b11_0011, 0b11_1100, 0b11_1111];

/// The pairing of the pair of the pieces at indices `x` and `y` (distinct, below 4) of four.
pub(super) fn pairing_of(x: usize, y: usize) -> usize {
    match x + y {
        1 | 5 => 0,
        2 | 4 => 1,
        _ => 2,
    }
}
