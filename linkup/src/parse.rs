//! Judge-format input → [`Case`]s, one case at a time.
//!
//! ```text
//! n m            rows and columns; `0 0` (or the end of input) ends the input
//! k ... k        n rows of m piece kinds, 0 for an empty cell
//! q              the number of queries
//! x1 y1 x2 y2    q lines: row and column of two cells, 1-based
//! ```
//!
//! Tokens are separated by any ASCII whitespace; line breaks carry no meaning to the reading,
//! as to the judge's. The format writes one record a line (the size, each row of the board, the
//! query count, each query, the terminator): the [`Reader`] also notes where the lines and the
//! records part ways ([`Reader::lines`]), for a warning.
//!
//! ## Speed
//! A case can hold sixteen million numbers and an input many cases. Sizes and queries are read
//! with [`common::Tokens`] (nom over the raw bytes, no allocation per token, descriptions of what
//! was expected built only on error). A board's numbers go through `kinds`, a bulk reader of
//! 64-byte blocks that [`Tokens::seek`]s the cursor past them; on the first token that does not
//! fit it stops there, and `Tokens` builds the diagnostic: `expected {what}, found `{token}`` at
//! the token, or `found end of input` after the last one. See the crate's README for the figures.
//!
//! ## Memory
//! [`Reader`] yields one case at a time, so a caller that is done with each case before reading
//! the next holds one board at a time ([`Reader::recycle`]); [`cases`] holds them all. Sizes
//! are checked before anything is allocated, and a board's storage is never reserved beyond
//! what the remaining input could fill.

use common::{Diagnostic, LineRecords, Pos, Tokens};
use nom::Parser;
use nom::bytes::complete::take_while;
use nom::character::complete::u32 as decimal_u32;
use nom::error::{Error, ErrorKind};
use nom::sequence::terminated;

use crate::model::{Board, Case, EMPTY, Kind, MAX_CELLS, MAX_QUERIES, MAX_SIDE, Query};

type NomResult<'a, T> = nom::IResult<&'a [u8], T, Error<&'a [u8]>>;

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
fn kinds<'a>(input: &'a [u8], out: &mut [Kind], filled: &mut usize) -> NomResult<'a, ()> {
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

/// The most rows, the most columns and the most cells a [`Reader`] accepts, and what sets
/// those limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideLimit {
    /// Rows, and columns, at most (never above [`MAX_SIDE`]).
    pub side: usize,
    /// Cells, rows × columns, at most (never above [`MAX_CELLS`]).
    pub cells: usize,
    /// What takes no larger board, said in diagnostics after the range (`None`: the input
    /// format itself, [`MAX_SIDE`] and [`MAX_CELLS`]).
    pub set_by: Option<&'static str>,
}

impl SideLimit {
    /// The input format's limits, [`MAX_SIDE`] and [`MAX_CELLS`].
    pub const FORMAT: SideLimit = SideLimit { side: MAX_SIDE, cells: MAX_CELLS, set_by: None };
}

/// The format's rule for its lines, as warnings say it.
const ONE_RECORD_A_LINE: &str = "the size, each row, the query count and each query on a line of their own";

/// Reads the cases of an input one at a time. See the [module documentation](self).
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    tokens: Tokens<'a>,
    limit: SideLimit,
    /// Where the lines and the records parted ways so far.
    lines: LineRecords,
    /// Cases read so far, to name them in warnings.
    case: u64,
    /// Set at the terminator, the end of input, or after an error: nothing more is read.
    done: bool,
    /// Storage of a case the caller is done with, for the next case (see [`Reader::recycle`]).
    spare: Option<Case>,
}

/// What each number of the input must be, as diagnostics say it (`expected {what}, found ...`).
/// Shared with the plain reader of `crate::reference`.
pub mod wanted {
    use super::SideLimit;
    use crate::model::{Kind, MAX_QUERIES};

    /// The row count of a case, or the first `0` of the terminator.
    pub fn rows() -> String {
        rows_within(SideLimit::FORMAT)
    }

    /// [`rows`] under `limit`.
    pub fn rows_within(limit: SideLimit) -> String {
        format!("a row count from 1 to {}{} (or `0 0` to end the input)", limit.side, set_by(limit))
    }

    /// What sets `limit`, as said after its range.
    fn set_by(limit: SideLimit) -> String {
        limit.set_by.map(|by| format!(", the most {by} takes")).unwrap_or_default()
    }

    /// The second `0` of the terminator.
    pub const TERMINATOR: &str = "`0` after `0` (the input ends with `0 0`)";

    /// Whitespace only, after the terminator.
    pub const AFTER_TERMINATOR: &str = "nothing after the terminating `0 0`";

    /// The largest column count for `rows` rows.
    pub fn max_cols(rows: usize) -> usize {
        max_cols_within(rows, SideLimit::FORMAT)
    }

    /// [`max_cols`] under `limit`.
    pub fn max_cols_within(rows: usize, limit: SideLimit) -> usize {
        (limit.cells / rows).min(limit.side)
    }

    /// The column count of a case of `rows` rows.
    pub fn cols(rows: usize) -> String {
        cols_within(rows, SideLimit::FORMAT)
    }

    /// [`cols`] under `limit`.
    pub fn cols_within(rows: usize, limit: SideLimit) -> String {
        let max_cols = max_cols_within(rows, limit);
        if max_cols == limit.side {
            format!("a column count from 1 to {max_cols}{}", set_by(limit))
        } else {
            let cells = limit.cells;
            match limit.set_by {
                Some(by) => {
                    format!("a column count from 1 to {max_cols} (the most {by} takes is {cells} cells)")
                }
                None => format!("a column count from 1 to {max_cols} (a board holds at most {cells} cells)"),
            }
        }
    }

    /// The kind at 0-based `cell` of a board of `cols` columns.
    pub fn kind(cell: usize, cols: usize) -> String {
        let (row, col) = (cell / cols + 1, cell % cols + 1);
        format!("a piece kind (0 for an empty cell, at most {}) at row {row}, column {col}", Kind::MAX)
    }

    /// The number of queries.
    pub fn query_count() -> String {
        format!("a query count from 0 to {MAX_QUERIES}")
    }

    /// Number `part` (0 to 3: `x1 y1 x2 y2`) of query `query` (1-based), on a board of `rows` ×
    /// `cols`.
    pub fn query_part(part: usize, query: u64, rows: usize, cols: usize) -> String {
        const PARTS: [&str; 4] = [
            "row of the first cell",
            "column of the first cell",
            "row of the second cell",
            "column of the second cell",
        ];
        let side = if part.is_multiple_of(2) { rows } else { cols };
        format!("the {} of query {query}, from 1 to {side}", PARTS[part])
    }
}

impl<'a> Reader<'a> {
    /// A reader at the start of `src`.
    pub fn new(src: &'a [u8]) -> Self {
        Reader::within(src, SideLimit::FORMAT)
    }

    /// A reader at the start of `src` that refuses boards larger than `limit`, as it refuses
    /// those beyond the format.
    pub fn within(src: &'a [u8], limit: SideLimit) -> Self {
        Reader {
            tokens: Tokens::new(src),
            limit,
            lines: LineRecords::default(),
            case: 0,
            done: false,
            spare: None,
        }
    }

    /// Where the lines of the input read so far do not hold exactly one record each (the size,
    /// a row, the query count, a query, the terminator).
    pub fn lines(&self) -> &LineRecords {
        &self.lines
    }

    /// Hands back a case the caller is done with: the next case is read into its memory, which
    /// saves allocating (and faulting in) fresh pages for every board of a long input.
    pub fn recycle(&mut self, case: Case) {
        self.spare = Some(case);
    }

    /// The next case; `None` after the terminating `0 0` or at the end of input (checking that
    /// nothing but whitespace follows the terminator).
    pub fn next_case(&mut self) -> Result<Option<Case>, Diagnostic> {
        if self.done {
            return Ok(None);
        }
        let outcome = self.read_case();
        if !matches!(outcome, Ok(Some(_))) {
            self.done = true;
        }
        outcome
    }

    fn read_case(&mut self) -> Result<Option<Case>, Diagnostic> {
        let (tokens, lines) = (&mut self.tokens, &mut self.lines);
        if tokens.is_at_end() {
            return Ok(None);
        }
        self.case += 1;
        let case = self.case;
        let limit = self.limit;
        let start = tokens.offset();
        let rows = tokens.number_with(0..=limit.side as u64, || wanted::rows_within(limit))? as usize;
        if rows == 0 {
            tokens.number(0..=0, wanted::TERMINATOR)?;
            lines.check(tokens, start, ONE_RECORD_A_LINE, || "the terminating `0 0`".to_owned());
            tokens.expect_end(wanted::AFTER_TERMINATOR)?;
            return Ok(None);
        }
        let cols = tokens.number_with(1..=wanted::max_cols_within(rows, limit) as u64, || {
            wanted::cols_within(rows, limit)
        })? as usize;
        lines.check(tokens, start, ONE_RECORD_A_LINE, || format!("the size of case {case}"));

        let cells = rows * cols;
        // Every number but the last takes at least two bytes: never allocate more than the rest
        // of the input could fill, whatever the header claims.
        let room = tokens.rest().len() / 2 + 1;
        let (mut kinds, mut queries) = match self.spare.take() {
            Some(spare) => (spare.board.into_cells(), spare.queries),
            None => (Vec::new(), Vec::new()),
        };
        // Every cell is written before the board is used: memory recycled from the last case
        // needs no clearing, only the part it lacks.
        kinds.truncate(cells.min(room));
        kinds.resize(cells.min(room), EMPTY);
        let filled = read_rows(tokens, lines, &mut kinds, cols, case);
        if filled < cells {
            return Err(tokens.expected_here(&wanted::kind(filled, cols)));
        }
        let board = Board::from_vec(rows, cols, kinds);

        tokens.skip_whitespace();
        let start = tokens.offset();
        let count = tokens.number_with(0..=MAX_QUERIES as u64, wanted::query_count)?;
        lines.check(tokens, start, ONE_RECORD_A_LINE, || format!("the query count of case {case}"));
        queries.clear();
        queries.reserve((count as usize).min(tokens.rest().len() / 8 + 1));
        for query in 1..=count {
            tokens.skip_whitespace();
            let start = tokens.offset();
            let mut values = [0; 4];
            for (part, value) in values.iter_mut().enumerate() {
                let side = if part.is_multiple_of(2) { rows } else { cols };
                *value = tokens
                    .number_with(1..=side as u64, || wanted::query_part(part, query, rows, cols))?
                    as usize;
            }
            lines.check(tokens, start, ONE_RECORD_A_LINE, || format!("query {query} of case {case}"));
            let [x1, y1, x2, y2] = values;
            queries.push(Query { a: Pos::new(x1, y1), b: Pos::new(x2, y2) });
        }
        Ok(Some(Case { board, queries }))
    }
}

/// Reads the kinds of a board of `cols` columns into `kinds` with [`kinds`], a row at a time so
/// that each row is checked as a line record; returns how many cells were read, all of them
/// unless a token is not a kind or the input ends. The cursor is left after the last kind read,
/// or at the token that is not one.
fn read_rows(
    tokens: &mut Tokens<'_>,
    lines: &mut LineRecords,
    kinds: &mut [Kind],
    cols: usize,
    case: u64,
) -> usize {
    let end = tokens.src().len();
    let mut filled = 0;
    for (row, cells) in kinds.chunks_mut(cols).enumerate() {
        tokens.skip_whitespace();
        let start = tokens.offset();
        let mut row_filled = 0;
        let read = self::kinds(tokens.rest(), cells, &mut row_filled);
        filled += row_filled;
        match read {
            Ok((rest, ())) => tokens.seek(end - rest.len()),
            Err(failure) => {
                if let nom::Err::Error(error) | nom::Err::Failure(error) = failure {
                    tokens.seek(end - error.input.len());
                }
                return filled;
            }
        }
        lines.check(tokens, start, ONE_RECORD_A_LINE, || format!("row {} of case {case}", row + 1));
    }
    filled
}

impl Iterator for Reader<'_> {
    type Item = Result<Case, Diagnostic>;

    /// The next case, or the error that ends the input; nothing after an error.
    fn next(&mut self) -> Option<Self::Item> {
        self.next_case().transpose()
    }
}

/// Reads every case of `src`.
pub fn cases(src: &[u8]) -> Result<Vec<Case>, Diagnostic> {
    Reader::new(src).collect()
}

/// Reads every case of `src`, refusing boards larger than `limit`.
pub fn cases_within(src: &[u8], limit: SideLimit) -> Result<Vec<Case>, Diagnostic> {
    Reader::within(src, limit).collect()
}

/// [`cases_within`], noting in `lines` where the lines of `src` do not hold exactly one record
/// each.
pub fn cases_checking_lines(
    src: &[u8],
    limit: SideLimit,
    lines: &mut LineRecords,
) -> Result<Vec<Case>, Diagnostic> {
    let mut reader = Reader::within(src, limit);
    let cases = reader.by_ref().collect();
    *lines = reader.lines;
    cases
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = include_str!("../samples/sample.in");

    #[test]
    fn reads_the_sample() {
        let cases = cases(SAMPLE.as_bytes()).unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].board.row(2), &[4, 3, 2, 1]);
        assert_eq!(cases[0].queries[0], Query::new(1, 1, 3, 4));
        assert_eq!(cases[1].board.row(0), &[0, 1, 4, 3]);
        assert_eq!(cases[1].queries, [Query::new(1, 1, 2, 4), Query::new(1, 3, 2, 3)]);
    }

    #[test]
    fn end_of_input_may_replace_the_terminator() {
        assert_eq!(cases(b"1 2\r\n7 0\r\n1\r\n1 1 1 2\r\n\r\n").unwrap().len(), 1);
        assert!(cases(b"").unwrap().is_empty());
        assert!(cases(b" \n 0 0 \n\n").unwrap().is_empty());
    }

    #[test]
    fn line_breaks_carry_no_meaning() {
        let cases = cases(b"2 2 1\n2 3 4 2 1 1 2 2\t1 2 2 1 0 0").unwrap();
        assert_eq!(cases[0].board.cells(), &[1, 2, 3, 4]);
        assert_eq!(cases[0].queries.len(), 2);
    }

    #[test]
    fn large_kinds_are_pieces() {
        let cases = cases(b"1 2 4294967295 4294967295 1 1 1 1 2 0 0").unwrap();
        assert_eq!(cases[0].board.cells(), &[u32::MAX, u32::MAX]);
    }

    #[test]
    fn bad_input_is_located() {
        let kind = "a piece kind (0 for an empty cell, at most 4294967295)";
        for (src, span, message) in [
            (
                "x",
                0..1,
                "expected a row count from 1 to 8000 (or `0 0` to end the input), found `x`".to_owned(),
            ),
            (
                "8001 1",
                0..4,
                "expected a row count from 1 to 8000 (or `0 0` to end the input), found `8001`".to_owned(),
            ),
            ("0 3", 2..3, "expected `0` after `0` (the input ends with `0 0`), found `3`".to_owned()),
            ("2 0", 2..3, "expected a column count from 1 to 8000, found `0`".to_owned()),
            (
                "4000 4001",
                5..9,
                "expected a column count from 1 to 4000 (a board holds at most 16000000 cells), found `4001`"
                    .to_owned(),
            ),
            ("1 2\n3 -1", 6..8, format!("expected {kind} at row 1, column 2, found `-1`")),
            ("1 2\n3 4294967296", 6..16, format!("expected {kind} at row 1, column 2, found `4294967296`")),
            ("2 2\n1 2\n3", 9..9, format!("expected {kind} at row 2, column 2, found end of input")),
            (
                "1 1\n1\n1000001",
                6..13,
                "expected a query count from 0 to 1000000, found `1000001`".to_owned(),
            ),
            (
                "1 2\n1 1\n1\n1 1 1 3",
                16..17,
                "expected the column of the second cell of query 1, from 1 to 2, found `3`".to_owned(),
            ),
            (
                "1 2\n1 1\n1\n0 1 1 2",
                10..11,
                "expected the row of the first cell of query 1, from 1 to 1, found `0`".to_owned(),
            ),
            (
                "1 1\n1\n0\n0 0 junk",
                12..16,
                "expected nothing after the terminating `0 0`, found `junk`".to_owned(),
            ),
            (
                "1 1\n1\n0\n0 0 0 0",
                12..13,
                "expected nothing after the terminating `0 0`, found `0`".to_owned(),
            ),
            (
                "1 1\n1\n0\n0",
                9..9,
                "expected `0` after `0` (the input ends with `0 0`), found end of input".to_owned(),
            ),
            ("1 1\n7x\n", 4..6, format!("expected {kind} at row 1, column 1, found `7x`")),
        ] {
            let err = cases(src.as_bytes()).unwrap_err();
            assert_eq!((err.span, err.message), (span, message), "{src:?}");
        }
    }

    #[test]
    fn the_row_limit_follows_the_cell_limit() {
        let err = cases(b"1 8001").unwrap_err();
        assert_eq!(err.message, "expected a column count from 1 to 8000, found `8001`");
        // 2000 × 8000 is exactly the cell limit: the header is accepted, the board is short.
        let err = cases(b"2000 8000 1").unwrap_err();
        assert!(err.message.ends_with("at row 1, column 2, found end of input"), "{}", err.message);
    }

    #[test]
    fn junk_in_a_block_of_spaces_and_digits_is_refused_where_it_stands() {
        // Long enough for the 64-byte fast path; `x` is no whitespace and splits no token.
        let src = b"1 1 x0000 000000000 000000000 00 00  000 000 0000 000 000 00 000000    ";
        let error = cases(src).expect_err("x0000 is no kind");
        assert_eq!(error.span, 4..9, "{error:?}");
    }

    #[test]
    fn rows_and_queries_are_line_records() {
        let lines_of = |src: &[u8]| {
            let mut lines = LineRecords::default();
            let read = cases_checking_lines(src, SideLimit::FORMAT, &mut lines).map(|cases| cases.len());
            (read, lines)
        };
        let (read, lines) = lines_of(SAMPLE.as_bytes());
        assert!(read.is_ok() && lines.are_aligned(), "{read:?} {:?}", lines.warning());
        // A row of three where the board has four columns takes the next row's first kind.
        let (read, lines) = lines_of(b"2 4\n1 2 3\n4 5 6 7 8\n1\n1 1 1 2\n0 0\n");
        assert_eq!(read, Ok(1), "read as the judge reads it");
        let warning = lines.warning().expect("row 1 is short");
        assert_eq!(warning.span, 9..9);
        assert!(
            warning.message.starts_with("this line ends inside row 1 of case 1, "),
            "{}",
            warning.message
        );
        // Long enough rows for the 64-byte blocks, one of them with a kind too many.
        let row = "1 ".repeat(40);
        let src = format!("3 40\n{row}\n{row}1\n{row}\n0\n0 0\n");
        let (read, lines) = lines_of(src.as_bytes());
        assert!(read.is_err(), "the kind too many shifts the board into the query count");
        let warning = lines.warning().expect("row 2 holds a kind too many");
        assert!(
            warning.message.starts_with("more on this line after row 2 of case 1, "),
            "{}",
            warning.message
        );
        // Two queries on one line.
        let (_, lines) = lines_of(b"1 2\n5 5\n2\n1 1 1 2 1 2 1 1\n");
        assert!(lines.warning().expect("query 1 shares its line").message.contains("query 1 of case 1"));
    }

    #[test]
    fn nothing_is_read_after_an_error() {
        let mut reader = Reader::new(b"1 1 1 0 1 x 1 1 1 0");
        assert!(reader.next().unwrap().is_ok());
        assert!(reader.next().unwrap().is_err());
        assert!(reader.next().is_none());
    }
}
