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
    /// caret stays under the right column. A line ends at `\n`, `\r\n` or a lone `\r`; columns
    /// count bytes from the start of the line.
    ///
    /// A line longer than [`EXCERPT_WIDTH`] is shown as an excerpt of that many bytes around the
    /// column, with `…` where it was cut: the rendering never allocates in proportion to the
    /// line, so a gigabyte token gives a message of a few hundred bytes.
    ///
    /// # Complexity
    /// Linear in the input up to the span (the line ends before it are counted), and in the
    /// line holding it; the text is at most a few hundred bytes plus the message. A span past
    /// the end of `src` is shown at its end, never a panic.
    pub fn render(&self, source_name: &str, src: &[u8]) -> String {
        self.render_as("error", source_name, src)
    }

    /// [`Diagnostic::render`] under another heading than `error` (`warning`), for what is
    /// worth saying about an input that is still read.
    pub fn render_as(&self, level: &str, source_name: &str, src: &[u8]) -> String {
        let mut start = self.span.start.min(src.len());
        // A span starting on the `\n` of a `\r\n` points at that line end, which starts at `\r`.
        if start > 0 && src.get(start) == Some(&b'\n') && src[start - 1] == b'\r' {
            start -= 1;
        }
        let line_start = src[..start].iter().rposition(|&b| is_line_end(b)).map_or(0, |end| end + 1);
        let line_end = src[start..].iter().position(|&b| is_line_end(b)).map_or(src.len(), |end| start + end);
        let line_number = 1 + count_line_ends(&src[..line_start], src);
        let column = start - line_start + 1;

        let (from, to) = excerpt_bounds(line_start..line_end, start);
        let cut_before = from > line_start;
        let cut_after = to < line_end;
        let mut shown = String::with_capacity(to - from + 2 * '…'.len_utf8());
        if cut_before {
            shown.push('…');
        }
        shown.extend(src[from..to].iter().map(|&b| match b {
            b'\t' => ' ',
            b' '..=b'~' => b as char,
            _ => '?',
        }));
        shown.truncate(shown.trim_end().len());
        if cut_after {
            shown.push('…');
        }
        let caret_indent = usize::from(cut_before) + (start - from);
        let span_end = self.span.end.clamp(start, line_end).min(to);
        let carets = span_end.saturating_sub(start).max(1);

        let width = line_number.to_string().len();
        let blank = " ".repeat(width);
        let mut out = String::new();
        let _ = writeln!(out, "{level}: {source_name}:{line_number}:{column}: {}", self.message);
        let _ = writeln!(out, "{blank} |");
        if shown.is_empty() {
            let _ = writeln!(out, "{line_number} |");
        } else {
            let _ = writeln!(out, "{line_number} | {shown}");
        }
        let _ = writeln!(out, "{blank} | {}{}", " ".repeat(caret_indent), "^".repeat(carets));
        out
    }
}

/// The 1-based number of the line that holds byte `offset` of `src`, as [`Diagnostic::render`]
/// counts lines (a line end at `offset` belongs to the line it ends). Linear in `offset`; an
/// offset past the end counts every line.
pub fn line_number(src: &[u8], offset: usize) -> usize {
    let mut start = offset.min(src.len());
    if start > 0 && src.get(start) == Some(&b'\n') && src[start - 1] == b'\r' {
        start -= 1;
    }
    1 + count_line_ends(&src[..start], src)
}

/// Widest stretch of a line a rendered diagnostic shows, in bytes of the input.
pub const EXCERPT_WIDTH: usize = 80;

/// How many bytes before the column an excerpt of a long line keeps, when the line goes on far
/// enough after it.
const EXCERPT_CONTEXT_BEFORE: usize = 30;

/// The line ends diagnostics count: `\n`, and `\r` alone or before `\n`.
fn is_line_end(byte: u8) -> bool {
    byte == b'\n' || byte == b'\r'
}

/// The line ends in `prefix`, a prefix of `src`: every `\n`, and every `\r` that does not start
/// a `\r\n` (looking one byte past the prefix, into `src`).
fn count_line_ends(prefix: &[u8], src: &[u8]) -> usize {
    let next_bytes = src[1.min(src.len())..].iter().copied().chain(std::iter::once(0));
    prefix
        .iter()
        .zip(next_bytes)
        .filter(|&(&byte, next)| byte == b'\n' || (byte == b'\r' && next != b'\n'))
        .count()
}

/// The byte range of `line` to show for a diagnostic at byte `at`: the whole line when it fits
/// in [`EXCERPT_WIDTH`], else a window of that width holding `at`, with some context before it.
fn excerpt_bounds(line: Range<usize>, at: usize) -> (usize, usize) {
    if line.len() <= EXCERPT_WIDTH {
        return (line.start, line.end);
    }
    let to = (at.saturating_sub(EXCERPT_CONTEXT_BEFORE).max(line.start) + EXCERPT_WIDTH).min(line.end);
    (to - EXCERPT_WIDTH, to)
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
    fn a_ten_megabyte_token_gives_a_short_message_at_the_right_place() {
        const LEN: usize = 10 << 20;
        let mut src = b"3\r\n1 2\r".to_vec();
        let offset = src.len();
        src.resize(offset + LEN, b'7');
        src.extend_from_slice(b" 9\n");
        let diagnostic = Diagnostic::expected("a digit", offset, &src[offset..offset + LEN]);
        assert!(diagnostic.message.len() < 100, "{}", diagnostic.message);
        let text = diagnostic.render("<stdin>", &src);
        assert!(text.len() < 600, "{} bytes", text.len());
        let sevens = "7".repeat(EXCERPT_WIDTH);
        let carets = "^".repeat(EXCERPT_WIDTH);
        assert_eq!(
            text,
            format!(
                "error: <stdin>:3:1: expected a digit, found `{}...`\n  |\n3 | {sevens}…\n  | {carets}\n",
                "7".repeat(24)
            )
        );
    }

    #[test]
    fn a_column_deep_in_a_long_line_is_shown_with_context_on_both_sides() {
        let mut src = vec![b'a'; 5_000_000];
        src.extend_from_slice(b" bad ");
        src.resize(src.len() + 5_000_000, b'z');
        let text = Diagnostic::expected("a number", 5_000_001, b"bad").render("f.in", &src);
        let excerpt = format!("…{} bad {}…", "a".repeat(29), "z".repeat(EXCERPT_WIDTH - 34));
        let caret_line = format!("{}^^^", " ".repeat(31));
        assert_eq!(
            text,
            format!(
                "error: f.in:1:5000002: expected a number, found `bad`\n  |\n1 | {excerpt}\n  | {caret_line}\n"
            )
        );
    }

    #[test]
    fn the_end_of_a_long_line_is_shown_up_to_the_line_end() {
        let src = format!("{}\nnext", "x".repeat(200));
        let text = Diagnostic::new(200..200, "expected more").render("<stdin>", src.as_bytes());
        let caret_line = format!("{}^", " ".repeat(EXCERPT_WIDTH + 1));
        assert_eq!(
            text,
            format!(
                "error: <stdin>:1:201: expected more\n  |\n1 | …{}\n  | {caret_line}\n",
                "x".repeat(EXCERPT_WIDTH)
            )
        );
    }

    #[test]
    fn lone_carriage_returns_count_as_line_ends() {
        let src = b"1\r2\r\n\r\n3\rx 4";
        let text = Diagnostic::expected("a number", 9, b"x").render("<stdin>", src);
        assert_eq!(text, "error: <stdin>:5:1: expected a number, found `x`\n  |\n5 | x 4\n  | ^\n");
        // A span on the `\n` of a `\r\n` points at the end of its line, not at a line between.
        let text = Diagnostic::new(4..4, "expected more").render("<stdin>", src);
        assert_eq!(text, "error: <stdin>:2:2: expected more\n  |\n2 | 2\n  |  ^\n");
        let text = Diagnostic::new(5..5, "expected more").render("<stdin>", src);
        assert_eq!(text, "error: <stdin>:3:1: expected more\n  |\n3 |\n  | ^\n");
    }

    #[test]
    fn warnings_render_as_errors_do_under_their_own_heading() {
        let src = b"1\n1 2 3\n";
        let text = Diagnostic::new(7..7, "this line ends early").render_as("warning", "f.in", src);
        assert_eq!(text, "warning: f.in:2:6: this line ends early\n  |\n2 | 1 2 3\n  |      ^\n");
    }

    #[test]
    fn line_numbers_count_as_rendering_does() {
        let src = b"1\r\n2\r3\n\n4";
        for (offset, line) in [(0, 1), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (7, 4), (8, 5), (99, 5)] {
            assert_eq!(line_number(src, offset), line, "offset {offset}");
        }
    }

    #[test]
    fn spans_past_the_line_end_are_cut_at_the_line() {
        let src = b"ab\ncd";
        let text = Diagnostic::new(1..5, "bad").render("<stdin>", src);
        assert_eq!(text, "error: <stdin>:1:2: bad\n  |\n1 | ab\n  |  ^\n");
    }
}
