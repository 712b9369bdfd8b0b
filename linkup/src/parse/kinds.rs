//! The rows of a board read 64 bytes at a time: the hot loop of the judge path, where a case
//! holds up to sixteen million kinds. Every token it cannot read fast goes through [`kind`],
//! which decides exactly as a plain token-by-token reading does.

use nom::Parser;
use nom::bytes::complete::take_while;
use nom::character::complete::u32 as decimal_u32;
use nom::error::{Error, ErrorKind};
use nom::sequence::terminated;

use crate::model::Kind;

/// What the readers of this module return: the rest of the input and the value, or where and
/// why they stopped.
pub(super) type NomResult<'a, T> = nom::IResult<&'a [u8], T, Error<&'a [u8]>>;

/// Whitespace, possibly none.
fn blank(input: &[u8]) -> NomResult<'_, &[u8]> {
    take_while(|b: u8| b.is_ascii_whitespace()).parse_complete(input)
}

/// Fails unless the input is at whitespace or at its end: a number must be a whole token.
fn token_end(input: &[u8]) -> NomResult<'_, ()> {
    match input.first() {
        Some(byte) if !byte.is_ascii_whitespace() => {
            Err(nom::Err::Error(Error::new(input, ErrorKind::Digit)))
        }
        _ => Ok((input, ())),
    }
}

/// The error for a token that is not the number wanted: its input is the token's start, where
/// the diagnostic points.
fn bad_token(token: &[u8]) -> nom::Err<Error<&[u8]>> {
    nom::Err::Error(Error::new(token, ErrorKind::Digit))
}

/// A piece kind: blank, then a token of decimal digits whose value fits a `u32` (nom's parser
/// reports overflow).
fn kind(input: &[u8]) -> NomResult<'_, Kind> {
    let (token, _) = blank(input)?;
    terminated(decimal_u32, token_end).parse_complete(token).map_err(|_| bad_token(token))
}

/// Bytes of a 64-byte block, the unit of [`kinds`]'s fast path.
const BLOCK: usize = 64;
const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const HIGH: u64 = 0x8080_8080_8080_8080;
const ONES: u64 = 0x0101_0101_0101_0101;

/// The high bit of each byte of `word` whose value is above `limit` (at most 0x7F). No carry
/// crosses bytes: `(byte & 0x7F) + (0x7F - limit)` stays below 0x100.
const fn bytes_above(word: u64, limit: u8) -> u64 {
    (((word & LOW7) + ONES * (0x7F - limit as u64)) | word) & HIGH
}

/// One bit per byte, from the high bits of the bytes of `high` (byte `k` → bit `k`). The
/// multiplier's bits sit at 7·(7−k) above each flag, so flag `k` lands on bit 56 + k and no two
/// partial products share a bit.
const fn byte_flags(high: u64) -> u64 {
    (high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The value of the `len` (1 to 4) digits at the start of `digits`, a little-endian word whose
/// bytes are digit values (ASCII minus `'0'`). The digits are moved to the top of the word, then
/// pairs of digits are combined, then the two pairs; no lane overflows (99, then 9999).
const fn digits_value(digits: u32, len: usize) -> u32 {
    let v = digits << (8 * (4 - len));
    let v = (v * 10 + (v >> 8)) & 0x00FF_00FF;
    (v & 0xFFFF) * 100 + (v >> 16)
}

/// One SWAR pass over a block of the input, eight bytes at a time. Returns the whitespace mask
/// (bit `i` set when byte `i` is whitespace) and whether every byte is whitespace or a digit,
/// and fills `pairs`: at each digit, its value plus ten times the digit before it if that is a
/// digit too, so that at the last digit of a token of one or two digits stands the token's
/// value. The block must start at a token boundary (the byte before it counts as no digit).
///
/// Most blocks hold only digits and spaces: a byte that is no digit and at most `' '` is then
/// whitespace, which costs no test of its own. Only a block with a byte below `' '` (a line
/// break, a tab, a control character) or a byte that is neither (junk) has its whitespace
/// looked at byte by byte.
fn scan_block(bytes: &[u8; BLOCK], pairs: &mut [u8; BLOCK]) -> (u64, bool) {
    let mut not_digits = 0;
    let mut usual = HIGH;
    let mut below_space = 0;
    let mut digit_before = 0;
    for (index, (chunk, pair_chunk)) in bytes.chunks_exact(8).zip(pairs.chunks_exact_mut(8)).enumerate() {
        let word = u64::from_le_bytes(chunk.try_into().expect("chunks of eight bytes"));
        let values = word ^ (ONES * u64::from(b'0'));
        let digits = !bytes_above(values, 9) & HIGH;
        usual &= digits | (!bytes_above(word, b' ') & HIGH);
        // Some byte below 0x20 exactly when some byte of `word & 0xE0..` is zero.
        let top_bits = word & (ONES * 0xE0);
        below_space |= top_bits.wrapping_sub(ONES) & !top_bits & HIGH;
        not_digits |= byte_flags(HIGH & !digits) << (8 * index);
        // Digit values where there are digits, zero elsewhere; each pair sum is at most 99, so
        // no byte carries into the next.
        let values = values & ((digits >> 7) * 0xFF);
        let before = (values << 8) | digit_before;
        digit_before = values >> 56;
        pair_chunk.copy_from_slice(&(before * 10 + values).to_le_bytes());
    }
    // Only in a block of digits and bytes at most `' '` are the bytes that are no digits the
    // whitespace: a byte such as `x` is neither, and must split no token.
    if below_space == 0 && usual == HIGH {
        return (not_digits, true);
    }
    let mut whitespace = 0;
    let mut usual = true;
    for (index, &byte) in bytes.iter().enumerate() {
        let space = byte.is_ascii_whitespace();
        usual &= space || byte.is_ascii_digit();
        whitespace |= u64::from(space) << index;
    }
    (whitespace, usual)
}

/// Fills `out` with kinds, as [`kind`] would one by one, and counts them in `filled`; on a
/// token that is not a kind, fails with that token as the error's input and `filled` the index
/// of its cell.
///
/// The fast path takes the input 64 bytes at a time, each block starting at a token boundary.
/// One SWAR pass over the block ([`scan_block`]) gives the whitespace mask, hence every
/// token's start and end without a branch per byte, and the value of every one- or two-digit
/// token at its last byte. When every byte of the block is whitespace or a digit, tokens are
/// read without any test: from the pair values when all are one or two digits long (kinds
/// below 100, the common case), else with [`digits_value`] from one unaligned load when none is
/// longer than four. A token running past the block is left for the next block, which starts at
/// it. Any other block, and the last bytes of the input, go through [`kind`] token by token,
/// which decides exactly as the slow path always does (leading zeros, overflow, junk).
pub(super) fn kinds<'a>(input: &'a [u8], out: &mut [Kind], filled: &mut usize) -> NomResult<'a, ()> {
    let mut count = 0;
    // Where the input is known to sit at a token boundary (whitespace or a token's start).
    let mut base = 0;
    let mut pairs = [0; BLOCK];
    // Keep four bytes past every block for the loads of tokens starting near its end.
    while count < out.len() && base + BLOCK + 4 <= input.len() {
        let window: &[u8; BLOCK + 4] =
            input[base..base + BLOCK + 4].try_into().expect("a block and four bytes");
        let (whitespace, usual) = scan_block(window[..BLOCK].try_into().expect("a block"), &mut pairs);
        let token = !whitespace;
        let mut starts = token & ((whitespace << 1) | 1);
        // Bit i: bytes i, i+1 and i+2 (and i+3, i+4) are all in one token.
        let three = token & (token >> 1) & (token >> 2);
        let five = three & (token >> 3) & (token >> 4);
        if !usual || five != 0 {
            // The general path: every token through `kind`, up to the end of the block or of
            // the token that runs past it.
            let mut end = base + BLOCK;
            while starts != 0 && count < out.len() {
                let start = base + starts.trailing_zeros() as usize;
                starts &= starts - 1;
                match kind(&input[start..]) {
                    Ok((rest, value)) => {
                        out[count] = value;
                        count += 1;
                        let token_end = input.len() - rest.len();
                        // Once `out` is full, the rest of the input starts right after this token.
                        end = if count == out.len() { token_end } else { end.max(token_end) };
                    }
                    Err(error) => {
                        *filled = count;
                        return Err(error);
                    }
                }
            }
            base = end;
            continue;
        }
        // A token reaching the last byte may go on past the block: the next block starts at it.
        let mut next = base + BLOCK;
        if whitespace >> 63 == 0 {
            let last = 63 - starts.leading_zeros() as usize;
            starts &= !(1 << last);
            next = base + last;
        }
        let available = starts.count_ones() as usize;
        let tokens = available.min(out.len() - count);
        let mut last_end = 0;
        if three == 0 {
            // The last digit of every token, but the one running past the block.
            let mut ends = token & (whitespace >> 1);
            for slot in &mut out[count..count + tokens] {
                let end = ends.trailing_zeros() as usize;
                ends &= ends - 1;
                *slot = u32::from(pairs[end % BLOCK]);
                last_end = end + 1;
            }
        } else {
            for slot in &mut out[count..count + tokens] {
                let start = starts.trailing_zeros() as usize;
                starts &= starts - 1;
                let len = (whitespace >> start).trailing_zeros() as usize;
                let word = u32::from_le_bytes(window[start..start + 4].try_into().expect("four bytes"));
                *slot = digits_value(word ^ 0x3030_3030, len);
                last_end = start + len;
            }
        }
        count += tokens;
        // Once `out` is full, the rest of the input starts right after its last token (not at
        // the next block, past the whitespace and the line end that follow it).
        base = if tokens < available || count == out.len() { base + last_end } else { next };
    }
    let mut rest = &input[base.min(input.len())..];
    while count < out.len() {
        match kind(rest) {
            Ok((after, value)) => {
                out[count] = value;
                count += 1;
                rest = after;
            }
            Err(error) => {
                *filled = count;
                return Err(error);
            }
        }
    }
    *filled = count;
    Ok((rest, ()))
}
