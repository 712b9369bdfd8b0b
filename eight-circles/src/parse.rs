//! Judge-format input → [`Cases`], and `--graph` files → [`Graph`]s.
//!
//! The judge's input is line records:
//!
//! ```text
//! T                   the number of cases, alone on the first line
//! d1 d2 ... dk        T lines, one per case: a digit 0..=k per circle, 0 for an empty circle
//! ```
//!
//! A case line with too few or too many numbers is an error at that line, even when the total
//! count of numbers would come out right. Blank lines before, between and after the case lines
//! are skipped; anything but whitespace after the T-th case line is an error.
//!
//! A graph file is words separated by whitespace, a word starting with `#` beginning a comment
//! that runs to the end of its line:
//!
//! ```text
//! circles A B C D E F G H     the circles' names, on the same line as `circles`
//! A-B A-C A-D B-C ...         connections, anywhere after that line
//! ```

use common::{Diagnostic, Token, Tokens};

use crate::model::{Cases, Graph, MAX_CASES, MAX_CIRCLES, MAX_NAME_LEN};

/// Reads the number of cases and that many case lines of one digit per circle of `graph`,
/// and checks that nothing but whitespace follows.
///
/// # Limits
/// At most [`MAX_CASES`] cases, digits 0..=k; anything else is refused with a diagnostic at
/// the token. The cases reserved are bounded by the input's length, not by the count it
/// claims. Linear in the input's length.
pub fn cases(tokens: &mut Tokens<'_>, graph: &Graph) -> Result<Cases, Diagnostic> {
    let circles = graph.circles();
    let top = circles as u8;
    let src = tokens.src();
    let count = tokens.number(0..=MAX_CASES, &format!("the number of cases, from 0 to {MAX_CASES}"))?;
    if let Some(extra) = tokens.inline_token() {
        return Err(extra.expected("the end of the first line, which holds only the number of cases"));
    }
    tokens.next_line();

    let mut cases = Cases::new(circles);
    // A case line takes at least two bytes per digit but the last: never reserve more than
    // the input can hold, whatever T claims.
    cases.reserve((count as usize).min(src.len() / (2 * circles - 1).max(1) + 1));
    let mut case = [0u8; MAX_CIRCLES];
    let line_rule = || format!("a case is one line of {circles} digits 0-{circles}");
    for number in 1..=count {
        tokens.skip_whitespace();
        if tokens.offset() == src.len() {
            let what = format!("case {number} of {count} ({})", line_rule());
            return Err(Diagnostic::expected_at_end(&what, src));
        }
        let mut last_end = tokens.offset();
        for (circle, slot) in case[..circles].iter_mut().enumerate() {
            let name = &graph.names()[circle];
            let Some(token) = tokens.inline_token() else {
                let found = if tokens.offset() == src.len() { "end of input" } else { "the end of the line" };
                let message = format!(
                    "expected a digit 0-{circles} for circle {name} of case {number} ({}), found {found}",
                    line_rule()
                );
                return Err(Diagnostic::new(last_end..last_end, message));
            };
            let what = || format!("a digit 0-{circles} for circle {name} of case {number}");
            *slot = match *token.text {
                // The judge's inputs: one byte per digit. Keep this path short.
                [single @ b'0'..=b'9'] if single - b'0' <= top => single - b'0',
                _ => token.number(0..=u64::from(top), &what())? as u8,
            };
            last_end = token.offset + token.text.len();
        }
        if let Some(extra) = tokens.inline_token() {
            return Err(extra.expected(&format!("the end of the line of case {number} ({})", line_rule())));
        }
        tokens.next_line();
        cases.push(&case[..circles]);
    }
    if let Some(extra) = tokens.token() {
        return Err(extra
            .expected(&format!("the end of input after the last case (the first line announced {count})")));
    }
    Ok(cases)
}

const CIRCLES_LINE: &str = "`circles` followed by the names of the circles on the same line";

/// Reads a `--graph` file: the `circles` line, then the connections. See the [module
/// documentation](self).
pub fn graph(tokens: &mut Tokens<'_>) -> Result<Graph, Diagnostic> {
    let keyword = next_word(tokens).ok_or_else(|| Diagnostic::expected_at_end(CIRCLES_LINE, tokens.src()))?;
    if keyword.text != b"circles" {
        return Err(keyword.expected(CIRCLES_LINE));
    }
    let mut names: Vec<String> = Vec::new();
    loop {
        let token = match tokens.inline_token() {
            Some(token) if !token.text.starts_with(b"#") => token,
            _ => break,
        };
        let text = token.text;
        let valid =
            text.len() <= MAX_NAME_LEN && text.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_');
        if !valid {
            return Err(token.expected(&format!(
                "a circle name of 1 to {MAX_NAME_LEN} letters, digits or `_` on the `circles` line"
            )));
        }
        if names.len() == MAX_CIRCLES {
            return Err(
                token.expected(&format!("the end of the `circles` line (at most {MAX_CIRCLES} circles)"))
            );
        }
        let name = String::from_utf8_lossy(text).into_owned();
        if names.contains(&name) {
            return Err(token.expected("a circle name not given before on the `circles` line"));
        }
        names.push(name);
    }
    tokens.next_line();
    if names.is_empty() {
        let end = keyword.span().end;
        return Err(Diagnostic::new(
            end..end,
            "expected the names of the circles after `circles` on the same line, found the end of the line",
        ));
    }

    let mut connections = Vec::new();
    let mut neighbours = [0u16; MAX_CIRCLES];
    while let Some(word) = next_word(tokens) {
        let (a, b) = connection(word, &names)?;
        if a == b {
            return Err(word.expected("a connection between two different circles"));
        }
        if neighbours[a] & (1 << b) != 0 {
            return Err(word.expected("a connection not given before"));
        }
        neighbours[a] |= 1 << b;
        neighbours[b] |= 1 << a;
        connections.push((a, b));
    }
    Ok(Graph::new(names, &connections))
}

/// The circles a word `X-Y` connects.
fn connection(word: Token<'_>, names: &[String]) -> Result<(usize, usize), Diagnostic> {
    let shape = || word.expected("a connection `X-Y` between two circles named on the `circles` line");
    let dash = word.text.iter().position(|&b| b == b'-').ok_or_else(shape)?;
    let (left, right) = (&word.text[..dash], &word.text[dash + 1..]);
    if left.is_empty() || right.is_empty() || right.contains(&b'-') {
        return Err(shape());
    }
    let find = |name: &[u8], offset: usize| {
        names
            .iter()
            .position(|known| known.as_bytes() == name)
            .ok_or_else(|| Diagnostic::expected("a circle named on the `circles` line", offset, name))
    };
    Ok((find(left, word.offset)?, find(right, word.offset + dash + 1)?))
}

/// The next word that is not part of a comment.
fn next_word<'a>(tokens: &mut Tokens<'a>) -> Option<Token<'a>> {
    loop {
        let token = tokens.token()?;
        if !token.text.starts_with(b"#") {
            return Some(token);
        }
        tokens.next_line();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> Result<Cases, Diagnostic> {
        cases(&mut Tokens::new(src.as_bytes()), &Graph::builtin())
    }

    fn parse_graph(src: &str) -> Result<Graph, Diagnostic> {
        graph(&mut Tokens::new(src.as_bytes()))
    }

    #[test]
    fn reads_the_sample() {
        let cases = parse("3\n7 3 1 4 5 8 0 0\n7 0 0 0 0 0 0 0\n1 0 0 0 0 0 0 0\n").unwrap();
        assert_eq!(cases.len(), 3);
        assert_eq!(cases.iter().next(), Some(&[7, 3, 1, 4, 5, 8, 0, 0][..]));
    }

    #[test]
    fn blank_lines_crlf_and_a_missing_last_newline_are_fine() {
        let cases = parse("\r\n2\r\n\r\n1 2 3 4 5 6 7 8\r\n\r\n\t0 0 0 0 0 0 0 0 \r\n\n").unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(parse("1\n0 0 0 0 0 0 0 08").unwrap().len(), 1);
        assert!(parse("0\n").unwrap().is_empty());
    }

    #[test]
    fn bad_input_is_located() {
        for (src, span, message) in [
            ("", 0..0, "expected the number of cases, from 0 to 10000000, found end of input"),
            ("x", 0..1, "expected the number of cases, from 0 to 10000000, found `x`"),
            ("10000001", 0..8, "expected the number of cases, from 0 to 10000000, found `10000001`"),
            (
                "1 0 0 0 0 0 0 0 0\n",
                2..3,
                "expected the end of the first line, which holds only the number of cases, found `0`",
            ),
            ("1\n1 2 3 4 5 6 7 9\n", 16..17, "expected a digit 0-8 for circle H of case 1, found `9`"),
            ("1\n1 2 3 -4 5 6 7 8\n", 8..10, "expected a digit 0-8 for circle D of case 1, found `-4`"),
            ("1\n1 2 3 +4 5 6 7 8\n", 8..10, "expected a digit 0-8 for circle D of case 1, found `+4`"),
            (
                "2\n1 2 3 4\n5 6 7 8\n0 0 0 0 0 0 0 0\n",
                9..9,
                "expected a digit 0-8 for circle E of case 1 (a case is one line of 8 digits 0-8), \
                 found the end of the line",
            ),
            (
                "1\n1 2 3",
                7..7,
                "expected a digit 0-8 for circle D of case 1 (a case is one line of 8 digits 0-8), \
                 found end of input",
            ),
            (
                "1\n1 2 3 4 5 6 7 8 0\n",
                18..19,
                "expected the end of the line of case 1 (a case is one line of 8 digits 0-8), found `0`",
            ),
            (
                "2\n1 2 3 4 5 6 7 8\n\n",
                17..17,
                "expected case 2 of 2 (a case is one line of 8 digits 0-8), found end of input",
            ),
            (
                "1\n1 2 3 4 5 6 7 8\n\n9\n",
                19..20,
                "expected the end of input after the last case (the first line announced 1), found `9`",
            ),
        ] {
            let err = parse(src).unwrap_err();
            assert_eq!((err.message.as_str(), err.span), (message, span), "{src:?}");
        }
    }

    #[test]
    fn digits_follow_the_graph_size() {
        let graph = Graph::new((0..12).map(|i| format!("c{i}")).collect(), &[(0, 1)]);
        let cases = cases(&mut Tokens::new(b"1\n12 0 011 0 0 0 0 0 0 0 0 1\n"), &graph).unwrap();
        assert_eq!(cases.iter().next().unwrap()[..3], [12, 0, 11]);
        let err = super::cases(&mut Tokens::new(b"1\n13 0 0 0 0 0 0 0 0 0 0 0\n"), &graph).unwrap_err();
        assert_eq!(err.message, "expected a digit 0-12 for circle c0 of case 1, found `13`");
        let err = super::cases(&mut Tokens::new(b"1\n99999999999 0\n"), &graph).unwrap_err();
        assert_eq!(err.span, 2..13);
        // Bytes just above `9` are not digits 10, 11, 12.
        let err = super::cases(&mut Tokens::new(b"1\n0 : 0 0 0 0 0 0 0 0 0 0\n"), &graph).unwrap_err();
        assert_eq!(err.message, "expected a digit 0-12 for circle c1 of case 1, found `:`");
    }

    #[test]
    fn reads_a_graph_with_comments_in_any_layout() {
        let src = "# a triangle and a loner\n  circles x y  z w # names\nx-y   # first\n\ny-z z-x\n";
        let graph = parse_graph(src).unwrap();
        assert_eq!(graph.names(), ["x", "y", "z", "w"]);
        assert_eq!(graph.connections(), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(parse_graph("circles A").unwrap().connections(), []);
    }

    #[test]
    fn the_builtin_graph_round_trips_through_its_file_form() {
        let builtin = Graph::builtin();
        assert_eq!(parse_graph(&builtin.to_file("the judge's graph")).unwrap(), builtin);
    }

    #[test]
    fn bad_graphs_are_located() {
        for (src, span, message) in [
            (
                "",
                0..0,
                "expected `circles` followed by the names of the circles on the same line, found end of input",
            ),
            (
                "A-B",
                0..3,
                "expected `circles` followed by the names of the circles on the same line, found `A-B`",
            ),
            (
                "circles\nA B\n",
                7..7,
                "expected the names of the circles after `circles` on the same line, found the end of the line",
            ),
            (
                "circles A A",
                10..11,
                "expected a circle name not given before on the `circles` line, found `A`",
            ),
            (
                "circles A B-C",
                10..13,
                "expected a circle name of 1 to 16 letters, digits or `_` on the `circles` line, found `B-C`",
            ),
            ("circles A B\nA-C", 14..15, "expected a circle named on the `circles` line, found `C`"),
            (
                "circles A B\nAB",
                12..14,
                "expected a connection `X-Y` between two circles named on the `circles` line, found `AB`",
            ),
            (
                "circles A B\nA-B-A",
                12..17,
                "expected a connection `X-Y` between two circles named on the `circles` line, found `A-B-A`",
            ),
            (
                "circles A B\nA-",
                12..14,
                "expected a connection `X-Y` between two circles named on the `circles` line, found `A-`",
            ),
            ("circles A B\nB-B", 12..15, "expected a connection between two different circles, found `B-B`"),
            ("circles A B\nA-B B-A", 16..19, "expected a connection not given before, found `B-A`"),
        ] {
            let err = parse_graph(src).unwrap_err();
            assert_eq!((err.message.as_str(), err.span), (message, span), "{src:?}");
        }
        let seventeen = format!("circles {}", (0..17).map(|i| format!("c{i}")).collect::<Vec<_>>().join(" "));
        let err = parse_graph(&seventeen).unwrap_err();
        assert_eq!(err.message, "expected the end of the `circles` line (at most 16 circles), found `c16`");
    }
}
