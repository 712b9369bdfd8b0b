//! The one error type for bad input, and its rendering.
//!
//! A [`Diagnostic`] holds a byte span of the input and a message. Lines and columns are computed
//! only when it is rendered, so the parsers never pay for position tracking on the happy path.

use std::fmt::Write as _;
use std::ops::Range;

/// Bad input: what was wrong, and where (a byte span of the whole input).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Bytes of the input the caret underlines. An empty span points between two bytes.
    pub span: Range<usize>,
    /// What was expected and what was found, without location; starts in lower case.
    pub message: String,
}

/// Longest piece of a found token quoted in a message.
const MAX_QUOTED: usize = 24;

impl Diagnostic {
    /// A diagnostic with a free-form message.
    pub fn new(span: Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic { span, message: message.into() }
    }

    /// `expected {what}, found `{text}``, underlining `text`, which starts at byte `offset`.
    pub fn expected(what: &str, offset: usize, text: &[u8]) -> Self {
        Diagnostic::new(offset..offset + text.len(), format!("expected {what}, found `{}`", quote(text)))
    }

    /// `expected {what}, found end of input`, pointing just past the last non-blank byte of `src`.
    pub fn expected_at_end(what: &str, src: &[u8]) -> Self {
        let end = src.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |last| last + 1);
        Diagnostic::new(end..end, format!("expected {what}, found end of input"))
    }

    /// Renders the diagnostic for input `src` read from `source_name` (a path or `<stdin>`):
    ///
    /// ```text
    /// error: <stdin>:3:5: expected a digit 0-9 for the right edge, found `12`
    ///   |
    /// 3 | 4 4 12 6
    ///   |     ^^
    /// ```
    ///
    /// The text ends with a newline. Bytes that are not printable ASCII are shown as `?` so the
    /// caret stays under the right column.
    pub fn render(&self, source_name: &str, src: &[u8]) -> String {
        let start = self.span.start.min(src.len());
        let line_start = src[..start].iter().rposition(|&b| b == b'\n').map_or(0, |nl| nl + 1);
        let line_end = src[start..].iter().position(|&b| b == b'\n').map_or(src.len(), |nl| start + nl);
        let line_number = src[..line_start].split(|&b| b == b'\n').count();
        let column = start - line_start + 1;
        let shown: String = src[line_start..line_end]
            .iter()
            .map(|&b| match b {
                b'\t' | b'\r' => ' ',
                b' '..=b'~' => b as char,
                _ => '?',
            })
            .collect();
        let shown = shown.trim_end();
        let span_end = self.span.end.clamp(start, line_end);
        let carets = (span_end - start).max(1);

        let width = line_number.to_string().len();
        let blank = " ".repeat(width);
        let mut out = String::new();
        let _ = writeln!(out, "error: {source_name}:{line_number}:{column}: {}", self.message);
        let _ = writeln!(out, "{blank} |");
        if shown.is_empty() {
            let _ = writeln!(out, "{line_number} |");
        } else {
            let _ = writeln!(out, "{line_number} | {shown}");
        }
        let _ = writeln!(out, "{blank} | {}{}", " ".repeat(column - 1), "^".repeat(carets));
        out
    }
}

/// A token as it appears in a message: ASCII escapes for anything unprintable, shortened with
/// `...` when long.
pub fn quote(text: &[u8]) -> String {
    let shown = &text[..text.len().min(MAX_QUOTED)];
    let mut quoted = shown.escape_ascii().to_string();
    if text.len() > MAX_QUOTED {
        quoted.push_str("...");
    }
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_the_conventions_example() {
        let src = b"2\n5 9 1 4\n4 4 12 6\n";
        let diagnostic = Diagnostic::expected("a digit 0-9 for the right edge", 14, b"12");
        assert_eq!(
            diagnostic.render("<stdin>", src),
            "error: <stdin>:3:5: expected a digit 0-9 for the right edge, found `12`\n\
             \x20 |\n\
             3 | 4 4 12 6\n\
             \x20 |     ^^\n"
        );
    }

    #[test]
    fn gutter_widens_with_the_line_number() {
        let src = "x\n".repeat(11) + "bad";
        let at = src.len() - 3;
        let text = Diagnostic::expected("a number", at, b"bad").render("f.in", src.as_bytes());
        assert_eq!(text, "error: f.in:12:1: expected a number, found `bad`\n   |\n12 | bad\n   | ^^^\n");
    }

    #[test]
    fn end_of_input_points_after_the_last_token() {
        let src = b"3\n1 2\n\n\n";
        let diagnostic = Diagnostic::expected_at_end("a number", src);
        assert_eq!(diagnostic.span, 5..5);
        assert_eq!(
            diagnostic.render("<stdin>", src),
            "error: <stdin>:2:4: expected a number, found end of input\n  |\n2 | 1 2\n  |    ^\n"
        );
    }

    #[test]
    fn empty_input_points_at_line_one() {
        let text = Diagnostic::expected_at_end("a number", b"").render("<stdin>", b"");
        assert_eq!(text, "error: <stdin>:1:1: expected a number, found end of input\n  |\n1 |\n  | ^\n");
    }

    #[test]
    fn carriage_returns_tabs_and_binary_keep_the_caret_aligned() {
        let src = b"\t\xff 7x\r\n";
        let text = Diagnostic::expected("a digit", 3, b"7x").render("<stdin>", src);
        assert_eq!(text, "error: <stdin>:1:4: expected a digit, found `7x`\n  |\n1 |  ? 7x\n  |    ^^\n");
    }

    #[test]
    fn long_and_binary_tokens_are_quoted_safely() {
        assert_eq!(quote(b"\x00a\xff"), "\\x00a\\xff");
        assert_eq!(quote(&[b'9'; 30]), format!("{}...", "9".repeat(24)));
    }

    #[test]
    fn spans_past_the_line_end_are_cut_at_the_line() {
        let src = b"ab\ncd";
        let text = Diagnostic::new(1..5, "bad").render("<stdin>", src);
        assert_eq!(text, "error: <stdin>:1:2: bad\n  |\n1 | ab\n  |  ^\n");
    }
}
