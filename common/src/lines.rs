//! Line records: where a format writes one record a line (a tile, a piece, a board's row), and
//! the reading is still the judge's, a stream of tokens across any whitespace.
//!
//! A tile line with three digits takes its fourth from the next line; one with five gives its
//! last to the next tile. The judge reads both that way, and so do the parsers, but the person
//! who wrote the input most likely meant something else. A parser notes every record it reads
//! with [`LineRecords::check`]; where a record does not fill exactly one line, the first such
//! line becomes a [warning](LineRecords::warning) naming it, and the lines after it are
//! counted. An error met after that line is most likely caused by the shift, so
//! [`LineRecords::note_for`] names where the shift began.
//!
//! The check costs a look at the bytes of each record and at those after it up to the line
//! end: no allocation, no pass of its own over the input.

use std::ops::Range;

use crate::Diagnostic;
use crate::diagnostic::line_number;
use crate::tokens::Tokens;

/// What a parser found about the line records of one input. See the [module
/// documentation](self).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineRecords {
    /// The first record that does not fill exactly one line, as a warning.
    first: Option<Diagnostic>,
    /// Lines after the first that do not hold exactly one record either.
    more: u64,
}

impl LineRecords {
    /// Notes the record whose first token starts at byte `start` and whose last ends at the
    /// cursor of `tokens`, in a format whose rule is `rule` (`the side and each tile on a line of their own`).
    /// `record` names it for a warning (`tile 3 of game 1`) and is called only then.
    ///
    /// The record fills its line when no line ends inside it and nothing but blanks follow it up
    /// to the line end. That it also starts its line follows from the record before it ending
    /// its own, which the same call checked; only the first record of an input is taken as it
    /// stands, after whatever precedes it.
    ///
    /// # Complexity
    /// Linear in the record's bytes and the blanks after it up to the line end; no allocation
    /// unless the record is the first that does not fill its line.
    ///
    /// # Panics
    /// When `start` lies after the cursor of `tokens`.
    #[inline]
    pub fn check(&mut self, tokens: &Tokens<'_>, start: usize, rule: &str, record: impl FnOnce() -> String) {
        let src = tokens.src();
        let end = tokens.offset();
        if !holds_line_end(src, start..end) && blank_to_line_end(&src[end..]).is_ok() {
            return;
        }
        self.misaligned(src, start, end, rule, record);
    }

    /// Notes a record that does not fill its line: as the warning when it is the first (only
    /// then is it named), else in the count.
    #[cold]
    fn misaligned(
        &mut self,
        src: &[u8],
        start: usize,
        end: usize,
        rule: &str,
        record: impl FnOnce() -> String,
    ) {
        if self.first.is_some() {
            self.more += 1;
            return;
        }
        let record = record();
        let warning = if let Some(line_end) = src[start..end].iter().position(|&byte| is_line_end(byte)) {
            let at = start + line_end;
            let message =
                format!("this line ends inside {record}, which is read on from the next line ({rule})");
            Diagnostic::new(at..at, message)
        } else {
            let extra = end + blank_to_line_end(&src[end..]).expect_err("more on the line");
            let len = src[extra..].iter().position(u8::is_ascii_whitespace).unwrap_or(src.len() - extra);
            let message =
                format!("more on this line after {record}, read as the start of what comes next ({rule})");
            Diagnostic::new(extra..extra + len, message)
        };
        self.first = Some(warning);
    }

    /// True when every record filled exactly one line.
    pub fn are_aligned(&self) -> bool {
        self.first.is_none()
    }

    /// The first line that does not hold exactly one record, as a warning to render against
    /// the input (with [`Diagnostic::render_as`]); `None` when every record fills its line.
    pub fn warning(&self) -> Option<&Diagnostic> {
        self.first.as_ref()
    }

    /// How many records after the warning's do not fill exactly one line either.
    pub fn more(&self) -> u64 {
        self.more
    }

    /// For an error at byte `error_at` of `src`: a note naming the line where the records began
    /// to be read shifted, when that line comes before the error (the shift most likely caused
    /// it); `None` otherwise. Linear in the input up to the warning's line.
    pub fn note_for(&self, src: &[u8], error_at: usize) -> Option<String> {
        let warning = self.first.as_ref()?;
        if warning.span.start >= error_at {
            return None;
        }
        let line = line_number(src, warning.span.start);
        Some(format!(
            "note: the records are read shifted from line {line} on, where the warning above points"
        ))
    }
}

/// The line ends [`Tokens::next_line`] and [`Diagnostic`] count: `\n`, and `\r` alone or before
/// `\n`.
fn is_line_end(byte: u8) -> bool {
    byte == b'\n' || byte == b'\r'
}

/// True when the bytes `range` of `src` hold a line end. A short record (a tile's seven bytes)
/// is one load of eight bytes, its own masked; a longer one goes to [`long_holds_line_end`].
#[inline]
fn holds_line_end(src: &[u8], range: Range<usize>) -> bool {
    let len = range.len();
    if len <= 8
        && let Some(bytes) = src.get(range.start..range.start + 8)
    {
        let word = u64::from_le_bytes(bytes.try_into().expect("eight bytes"));
        let own = if len == 8 { u64::MAX } else { (1 << (8 * len)) - 1 };
        return line_end_bytes(word) & own != 0;
    }
    long_holds_line_end(&src[range])
}

/// True when `bytes` hold a line end. Looked at 32 bytes at a time, without an exit inside a
/// chunk, which the compiler turns into vector compares: a board's row of thousands of bytes is
/// looked at in a fraction of the time it takes to read its numbers.
#[inline(never)]
fn long_holds_line_end(bytes: &[u8]) -> bool {
    let mut chunks = bytes.chunks_exact(32);
    for chunk in &mut chunks {
        let found =
            chunk.iter().fold(0u8, |found, &byte| found | u8::from(byte == b'\n') | u8::from(byte == b'\r'));
        if found != 0 {
            return true;
        }
    }
    chunks.remainder().iter().any(|&byte| is_line_end(byte))
}

/// Eight copies of a byte value.
const ONES: u64 = 0x0101_0101_0101_0101;

/// The high bit of each byte of `word` that is `\n` or `\r`, and no other bit.
const fn line_end_bytes(word: u64) -> u64 {
    zero_bytes(word ^ (ONES * b'\n' as u64)) | zero_bytes(word ^ (ONES * b'\r' as u64))
}

/// The high bit of each zero byte of `word`, exactly: `(byte & 0x7F) + 0x7F` reaches the high bit
/// for every byte but 0 (and carries into no other byte), and the byte's own high bit covers the
/// bytes from 0x80 up.
const fn zero_bytes(word: u64) -> u64 {
    const LOW7: u64 = ONES * 0x7F;
    !(((word & LOW7) + LOW7) | word) & (ONES * 0x80)
}

/// `Ok` when `rest` holds only blanks up to its first line end or its end; otherwise the offset
/// in `rest` of the first byte that is neither.
fn blank_to_line_end(rest: &[u8]) -> Result<(), usize> {
    for (at, &byte) in rest.iter().enumerate() {
        if is_line_end(byte) {
            return Ok(());
        }
        if !byte.is_ascii_whitespace() {
            return Err(at);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULE: &str = "one pair a line";

    /// Reads `src` as pairs of numbers, checking each as a line record.
    fn pairs(src: &str) -> LineRecords {
        let mut tokens = Tokens::new(src.as_bytes());
        let mut lines = LineRecords::default();
        let mut pair = 0;
        while !tokens.is_at_end() {
            let start = tokens.offset();
            tokens.number(0..=9, "a digit").unwrap();
            tokens.number(0..=9, "a digit").unwrap();
            pair += 1;
            lines.check(&tokens, start, RULE, || format!("pair {pair}"));
        }
        lines
    }

    #[test]
    fn records_that_fill_their_lines_pass() {
        for src in ["1 2\n3 4\n", "1 2\r\n\r\n 3\t4 \r\n", "1 2\r3 4", "", "1 2"] {
            assert!(pairs(src).are_aligned(), "{src:?}");
        }
    }

    #[test]
    fn a_short_line_is_named_where_it_ends() {
        let lines = pairs("1 2\n3\n4 5 6\n");
        let warning = lines.warning().expect("line 2 is short");
        assert_eq!(warning.span, 5..5);
        assert_eq!(
            warning.message,
            "this line ends inside pair 2, which is read on from the next line (one pair a line)"
        );
        // Pair 3 is `5 6`, on the rest of line 3.
        assert_eq!(lines.more(), 0, "pair 3 is the rest of line 3");
    }

    #[test]
    fn a_long_line_is_named_at_its_extra_token() {
        let src = "1 2\n3 4 56\n";
        let mut tokens = Tokens::new(src.as_bytes());
        let mut lines = LineRecords::default();
        for pair in 1..=2 {
            tokens.skip_whitespace();
            let start = tokens.offset();
            tokens.number(0..=9, "a digit").unwrap();
            tokens.number(0..=9, "a digit").unwrap();
            lines.check(&tokens, start, RULE, || format!("pair {pair}"));
        }
        let warning = lines.warning().expect("line 2 is long");
        assert_eq!((warning.span.clone(), &src[warning.span.clone()]), (8..10, "56"));
        assert!(warning.message.starts_with("more on this line after pair 2, "), "{}", warning.message);
    }

    #[test]
    fn errors_after_the_shift_are_noted_and_errors_before_it_are_not() {
        let src = "1 2\n3\n4 5 6\n";
        let lines = pairs(src);
        assert_eq!(
            lines.note_for(src.as_bytes(), 9).as_deref(),
            Some("note: the records are read shifted from line 2 on, where the warning above points")
        );
        assert_eq!(lines.note_for(src.as_bytes(), 2), None);
        assert_eq!(LineRecords::default().note_for(src.as_bytes(), 9), None);
    }

    #[test]
    fn line_ends_are_found_at_every_place_and_length() {
        // Records of every length, at the end of the input and before more of it (a line end
        // just past the record is not the record's).
        for len in 0..80 {
            for after in [&b""[..], b"\n\r\n\r\n\r\n\r\n"] {
                let mut src = vec![b'7'; len];
                src.extend_from_slice(after);
                assert!(!holds_line_end(&src, 0..len), "{len} digits, then {after:?}");
                for at in 0..len {
                    for end in [b'\n', b'\r'] {
                        let mut bytes = src.clone();
                        bytes[at] = end;
                        assert!(holds_line_end(&bytes, 0..len), "{end} at {at} of {len}");
                    }
                }
            }
        }
        let every_other_byte: Vec<u8> = (0..=255).filter(|&byte| byte != b'\n' && byte != b'\r').collect();
        for len in [5, 8, every_other_byte.len()] {
            assert!(!holds_line_end(&every_other_byte, 0..len));
        }
    }

    #[test]
    fn descriptions_are_built_only_for_warnings() {
        let mut tokens = Tokens::new(b"1 2\n");
        tokens.number(0..=9, "a digit").unwrap();
        tokens.number(0..=9, "a digit").unwrap();
        LineRecords::default().check(&tokens, 0, RULE, || unreachable!("an aligned record is not named"));
    }
}
