//! Eight cells a word: the word tricks on the grids of the columns
//! ([`Columns`](super::columns::Columns)) that find a position's pairs with gravity
//! ([`side_by_side`], [`bucket_open_pieces`]).

use super::columns::Code;

/// Bytes 0x01 of a word, and bytes 0x7F.
pub(super) const LOW_BYTES: u64 = u64::MAX / 255;
pub(super) const LOW_SEVEN: u64 = LOW_BYTES * 0x7F;

/// The high bit of each byte of `word` that is zero (exactly: no carry crosses a byte).
pub(super) fn zero_bytes(word: u64) -> u64 {
    !((word & LOW_SEVEN).wrapping_add(LOW_SEVEN) | word | LOW_SEVEN)
}

/// For eight cells of a row of the grid of kinds (`here`, followed on the row by `next`) and the
/// eight below them (`below`): the high bit of byte `i` of the first word when cell `i` holds a
/// piece of the kind of the cell on its right, of the second when of the kind of the cell below
/// it.
pub(super) fn side_by_side(here: u64, next: u64, below: u64) -> (u64, u64) {
    let held = !zero_bytes(!here) & LOW_BYTES << 7;
    let right = here >> 8 | next << 56;
    (zero_bytes(here ^ right) & held, zero_bytes(here ^ below) & held)
}

/// Adds each piece with an open side (`exposed`, a word per framed row; the rows from 1 up to those
/// `grid` holds, the grid of pieces, `width` columns) to the first mask of its kind's bucket in
/// `open_of_kind` (the bit of its index in its kind, from its [`Code`] in `code`), and returns the
/// kinds met, bit `k % 64` of word `k / 64`, in `WORDS` words (enough for every kind: at most
/// 256).
pub(super) fn bucket_open_pieces<const WORDS: usize>(
    exposed: &[u64],
    grid: &[u16],
    code: &[Code],
    width: usize,
    open_of_kind: &mut [(u64, u64); 256],
) -> [u64; WORDS] {
    let mut kinds_seen = [0u64; WORDS];
    for (row, row_pieces) in grid.chunks_exact(width).enumerate().skip(1) {
        let mut open = exposed[row];
        while open != 0 {
            let col = open.trailing_zeros() as usize;
            open &= open - 1;
            let code = code[usize::from(row_pieces[col])];
            let k = code.kind();
            kinds_seen[k / 64 % WORDS] |= 1 << (k % 64);
            open_of_kind[k].0 |= 1 << code.slot();
        }
    }
    kinds_seen
}
