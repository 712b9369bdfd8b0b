//! A reader of whitespace-separated tokens over raw bytes, built on nom's complete parsers.
//!
//! [`Tokens`] is a cursor over the whole input. Every token it hands out carries its byte offset,
//! so a parser can report bad input with [`Diagnostic`]s that point at the exact spot. Nothing is
//! allocated per token and no line counting happens until an error is rendered, which keeps the
//! reading path fast on inputs of hundreds of megabytes.
//!
//! Whitespace is any ASCII whitespace (`' '`, `\t`, `\n`, `\r`, form feed). Most formats are
//! free-form token streams; for formats where a line is a record, [`Tokens::inline_token`] and
//! [`Tokens::next_line`] read one line at a time. A line ends at `\n`, `\r\n` or a lone `\r`
//! (old Mac files), as [`Diagnostic`] counts lines.

use std::ops::{Range, RangeInclusive};

use nom::Parser;
use nom::bytes::complete::{take_till1, take_while};
use nom::character::complete::u64 as decimal_u64;

use crate::Diagnostic;

/// One token of the input: its bytes and where they start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// The token's bytes, never empty, never containing whitespace.
    pub text: &'a [u8],
    /// Byte offset of the token's first byte in the whole input.
    pub offset: usize,
}

impl Token<'_> {
    /// The token's byte range in the whole input.
    pub fn span(&self) -> Range<usize> {
        self.offset..self.offset + self.text.len()
    }

    /// `expected {what}, found `{token}`` at this token.
    pub fn expected(&self, what: &str) -> Diagnostic {
        Diagnostic::expected(what, self.offset, self.text)
    }

    /// The token as a decimal integer within `range`: the whole token must be digits (no sign)
    /// and the value must not overflow; otherwise `expected {what}, found `{token}``. For
    /// formats that read a line at a time with [`Tokens::inline_token`].
    pub fn number(&self, range: RangeInclusive<u64>, what: &str) -> Result<u64, Diagnostic> {
        match decimal_u64::<_, nom::error::Error<&[u8]>>(self.text) {
            Ok((rest, value)) if rest.is_empty() && range.contains(&value) => Ok(value),
            _ => Err(self.expected(what)),
        }
    }
}

/// A cursor over the whole input. See the [module documentation](self).
///
/// # Complexity
/// Each method costs time linear in the bytes it passes over (the whitespace and the token) and
/// allocates nothing, but for the [`Diagnostic`] of an error; [`Tokens::peek`] reads the next
/// token without moving, so a peek and a read pass over it twice. Numbers are `u64`: a longer
/// run of digits is an error at the token, never a wrap.
#[derive(Debug, Clone)]
pub struct Tokens<'a> {
    src: &'a [u8],
    pos: usize,
}

type NomResult<'a, T> = nom::IResult<&'a [u8], T, nom::error::Error<&'a [u8]>>;

fn whitespace(input: &[u8]) -> NomResult<'_, &[u8]> {
    take_while(|b: u8| b.is_ascii_whitespace()).parse_complete(input)
}

fn inline_space(input: &[u8]) -> NomResult<'_, &[u8]> {
    take_while(|b: u8| b != b'\n' && b != b'\r' && b.is_ascii_whitespace()).parse_complete(input)
}

fn token_text(input: &[u8]) -> NomResult<'_, &[u8]> {
    take_till1(|b: u8| b.is_ascii_whitespace()).parse_complete(input)
}

impl<'a> Tokens<'a> {
    /// A cursor at the start of `src`.
    pub fn new(src: &'a [u8]) -> Self {
        Tokens { src, pos: 0 }
    }

    /// The whole input.
    pub fn src(&self) -> &'a [u8] {
        self.src
    }

    /// Byte offset of the cursor.
    pub fn offset(&self) -> usize {
        self.pos
    }

    fn advance_to(&mut self, rest: &'a [u8]) {
        self.pos = self.src.len() - rest.len();
    }

    /// Skips whitespace, including line breaks.
    pub fn skip_whitespace(&mut self) {
        if let Ok((rest, _)) = whitespace(self.rest()) {
            self.advance_to(rest);
        }
    }

    /// True when only whitespace is left.
    pub fn is_at_end(&mut self) -> bool {
        self.skip_whitespace();
        self.pos == self.src.len()
    }

    /// The next token, or `None` at the end of the input.
    pub fn token(&mut self) -> Option<Token<'a>> {
        self.skip_whitespace();
        let offset = self.pos;
        let (rest, text) = token_text(self.rest()).ok()?;
        self.advance_to(rest);
        Some(Token { text, offset })
    }

    /// The next token without consuming it.
    pub fn peek(&self) -> Option<Token<'a>> {
        self.clone().token()
    }

    /// The next token; at the end of input, `expected {what}, found end of input`.
    pub fn word(&mut self, what: &str) -> Result<Token<'a>, Diagnostic> {
        self.token().ok_or_else(|| Diagnostic::expected_at_end(what, self.src))
    }

    /// The next token as a decimal integer within `range`, with the token it was read from.
    /// Signs, other characters and overflow are errors at the token: `expected {what}, found ...`.
    pub fn number_token(
        &mut self,
        range: RangeInclusive<u64>,
        what: &str,
    ) -> Result<(u64, Token<'a>), Diagnostic> {
        let token = self.word(what)?;
        Ok((token.number(range, what)?, token))
    }

    /// The next token as a decimal integer within `range`; see [`Tokens::number_token`].
    pub fn number(&mut self, range: RangeInclusive<u64>, what: &str) -> Result<u64, Diagnostic> {
        self.number_with(range, || what.to_owned())
    }

    /// [`Tokens::number`] with the description built only on error, for hot loops whose
    /// descriptions carry positions (`|| format!("... of tile {tile}")`). One pass over the
    /// token, no allocation on success.
    pub fn number_with(
        &mut self,
        range: RangeInclusive<u64>,
        what: impl FnOnce() -> String,
    ) -> Result<u64, Diagnostic> {
        self.skip_whitespace();
        if let Ok((rest, value)) = decimal_u64::<_, nom::error::Error<&[u8]>>(self.rest())
            && rest.first().is_none_or(u8::is_ascii_whitespace)
            && range.contains(&value)
        {
            self.advance_to(rest);
            return Ok(value);
        }
        Err(self.expected_here(&what()))
    }

    /// `expected {what}, found `{token}`` at the next token, or `found end of input`; the
    /// cursor does not move.
    pub fn expected_here(&self, what: &str) -> Diagnostic {
        match self.peek() {
            Some(token) => token.expected(what),
            None => Diagnostic::expected_at_end(what, self.src),
        }
    }

    /// The input from the cursor on.
    pub fn rest(&self) -> &'a [u8] {
        &self.src[self.pos..]
    }

    /// Moves the cursor to byte `offset` of the input, for a reader that consumed a stretch of
    /// it by other means (a bulk reader of numbers, say).
    ///
    /// # Panics
    /// When `offset` lies past the end of the input.
    pub fn seek(&mut self, offset: usize) {
        assert!(offset <= self.src.len(), "offset {offset} is past the end of the input");
        self.pos = offset;
    }

    /// Succeeds when only whitespace is left; otherwise `expected {what}, found `{token}``.
    pub fn expect_end(&mut self, what: &str) -> Result<(), Diagnostic> {
        match self.token() {
            None => Ok(()),
            Some(token) => Err(token.expected(what)),
        }
    }

    /// The next token on the current line, or `None` at a line break or the end of input (the
    /// line break is not consumed).
    pub fn inline_token(&mut self) -> Option<Token<'a>> {
        if let Ok((rest, _)) = inline_space(self.rest()) {
            self.advance_to(rest);
        }
        let offset = self.pos;
        let (rest, text) = token_text(self.rest()).ok()?;
        self.advance_to(rest);
        Some(Token { text, offset })
    }

    /// Moves past the rest of the current line and its line break (`\n`, `\r\n` or `\r`).
    pub fn next_line(&mut self) {
        let rest = self.rest();
        self.pos = match rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(end) if rest[end] == b'\r' && rest.get(end + 1) == Some(&b'\n') => self.pos + end + 2,
            Some(end) => self.pos + end + 1,
            None => self.src.len(),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reads_tokens_across_any_whitespace() {
        let mut tokens = Tokens::new(b"  12\t7\r\n\r\n x9 \x0c");
        assert_eq!(tokens.number(0..=99, "n").unwrap(), 12);
        assert_eq!(tokens.number(0..=9, "d").unwrap(), 7);
        let word = tokens.word("w").unwrap();
        assert_eq!((word.text, word.offset), (&b"x9"[..], 11));
        assert!(tokens.is_at_end());
        assert!(tokens.token().is_none());
    }

    #[test]
    fn numbers_must_be_whole_unsigned_tokens_in_range() {
        for (src, message) in [
            ("12", "expected a digit, found `12`"),
            ("-3", "expected a digit, found `-3`"),
            ("+3", "expected a digit, found `+3`"),
            ("4x", "expected a digit, found `4x`"),
            ("99999999999999999999999", "expected a digit, found `99999999999999999999999`"),
            ("  ", "expected a digit, found end of input"),
        ] {
            let err = Tokens::new(src.as_bytes()).number(0..=9, "a digit").unwrap_err();
            assert_eq!(err.message, message, "{src:?}");
        }
        let err = Tokens::new(b" 4x").number(0..=9, "a digit").unwrap_err();
        assert_eq!(err.span, 1..3);
    }

    #[test]
    fn number_token_reports_where_the_number_was() {
        let (value, token) = Tokens::new(b"\n 007 ").number_token(0..=10, "n").unwrap();
        assert_eq!((value, token.span()), (7, 2..5));
    }

    #[test]
    fn a_single_token_reads_as_a_number() {
        let mut tokens = Tokens::new(b"7 12 +1 3x 99999999999999999999999");
        let mut next = || tokens.inline_token().unwrap();
        assert_eq!(next().number(0..=9, "a digit"), Ok(7));
        for _ in 0..4 {
            let token = next();
            assert_eq!(token.number(0..=9, "a digit").unwrap_err().span, token.span());
        }
    }

    #[test]
    fn lazy_descriptions_and_seeking() {
        let mut tokens = Tokens::new(b"5 x 7");
        assert_eq!(tokens.number_with(0..=9, || unreachable!("no error, no description")), Ok(5));
        let err = tokens.number_with(0..=9, || "a digit".to_owned()).unwrap_err();
        assert_eq!((err.span, err.message.as_str()), (2..3, "expected a digit, found `x`"));
        tokens.seek(3);
        assert_eq!(tokens.rest(), b" 7");
        assert_eq!(tokens.number(0..=9, "a digit"), Ok(7));
        assert_eq!(tokens.expected_here("more").message, "expected more, found end of input");
    }

    #[test]
    fn peek_does_not_consume() {
        let mut tokens = Tokens::new(b"a b");
        assert_eq!(tokens.peek().unwrap().text, b"a");
        assert_eq!(tokens.token().unwrap().text, b"a");
    }

    #[test]
    fn expect_end_names_the_trailing_token() {
        let mut tokens = Tokens::new(b"0\n\n junk");
        tokens.number(0..=0, "n").unwrap();
        let err = tokens.expect_end("end of input after the terminator").unwrap_err();
        assert_eq!(err.message, "expected end of input after the terminator, found `junk`");
        assert_eq!(err.span, 4..8);
    }

    #[test]
    fn line_records_stop_at_line_breaks() {
        let mut tokens = Tokens::new(b"1 2\r\n3\n\n4");
        let line: Vec<_> = std::iter::from_fn(|| tokens.inline_token()).map(|t| t.text).collect();
        assert_eq!(line, [b"1", b"2"]);
        tokens.next_line();
        assert_eq!(tokens.inline_token().unwrap().text, b"3");
        assert!(tokens.inline_token().is_none());
        tokens.next_line();
        assert!(tokens.inline_token().is_none());
        tokens.next_line();
        assert_eq!(tokens.inline_token().unwrap().text, b"4");
        tokens.next_line();
        assert!(tokens.is_at_end());
    }

    #[test]
    fn lone_carriage_returns_end_lines_like_newlines() {
        for src in [&b"1 2\n3\n\n4"[..], b"1 2\r\n3\r\n\r\n4", b"1 2\r3\r\r4"] {
            let mut tokens = Tokens::new(src);
            let mut lines = Vec::new();
            while !tokens.is_at_end() {
                let line: Vec<_> = std::iter::from_fn(|| tokens.inline_token()).map(|t| t.text).collect();
                lines.push(line);
                tokens.next_line();
            }
            assert_eq!(lines, [vec![&b"1"[..], b"2"], vec![b"3"], vec![b"4"]], "{src:?}");
        }
        // A blank line stays a line: `next_line` moves past one line end only.
        let mut tokens = Tokens::new(b"1\r\r2");
        tokens.inline_token();
        tokens.next_line();
        assert!(tokens.inline_token().is_none());
        tokens.next_line();
        assert_eq!(tokens.inline_token().unwrap().text, b"2");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn arbitrary_bytes_never_panic_and_always_progress(src in proptest::collection::vec(any::<u8>(), 0..200)) {
            let mut tokens = Tokens::new(&src);
            let mut steps = 0;
            while !tokens.is_at_end() {
                let before = tokens.offset();
                match steps % 3 {
                    0 => { let _ = tokens.number(0..=1000, "n"); }
                    1 => { let _ = tokens.inline_token(); tokens.next_line(); }
                    _ => { tokens.word("w").unwrap(); }
                }
                // A failed number read consumes nothing; the next step reads it as a word.
                prop_assert!(tokens.offset() >= before);
                steps += 1;
                prop_assert!(steps <= 3 * src.len() + 3);
            }
            let err = tokens.number(0..=1, "n").unwrap_err();
            let rendered = err.render("<stdin>", &src);
            prop_assert!(rendered.starts_with("error: <stdin>:"));
        }
    }
}
