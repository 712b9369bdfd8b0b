//! The parser property every puzzle crate tests, on generated inputs and on arbitrary bytes:
//! whatever a parser accepts, the crate's judge-format printer writes back to an input that
//! parses to the same model; whatever it refuses, it refuses with a diagnostic that points
//! inside the input.
//!
//! Each crate's `tests/props.rs` calls [`check`] with its parser and its generator's printer.

use std::fmt::Debug;
use std::ops::Range;

use crate::Diagnostic;

/// The source name diagnostics are rendered with here.
const SOURCE_NAME: &str = "<input>";

/// Parses `src` with `parse` and checks the outcome:
///
/// - a model: `print` writes it as an input that `parse` reads back to an equal model, so the
///   printer writes the format the parser reads and the model loses nothing the input said;
/// - a diagnostic: its span lies within `src`, and the line and column its rendering names are a
///   line of `src` and a column of that line (at most one past its end), at the byte where the
///   span starts.
///
/// Returns the model (`None` for a diagnostic), or what broke.
pub fn check<M, P>(
    src: &[u8],
    parse: impl Fn(&[u8]) -> Result<M, Diagnostic>,
    print: impl Fn(&M) -> P,
) -> Result<Option<M>, String>
where
    M: PartialEq + Debug,
    P: AsRef<[u8]>,
{
    match parse(src) {
        Ok(model) => {
            let printed = print(&model);
            let printed = printed.as_ref();
            match parse(printed) {
                Ok(again) if again == model => Ok(Some(model)),
                Ok(again) => Err(format!(
                    "printed as {:?}, the model parses back to another one:\n{model:?}\n{again:?}",
                    String::from_utf8_lossy(printed)
                )),
                Err(diagnostic) => Err(format!(
                    "the printed model does not parse:\n{}",
                    diagnostic.render(SOURCE_NAME, printed)
                )),
            }
        }
        Err(diagnostic) => located_inside(&diagnostic, src).map(|()| None),
    }
}

/// Checks that `diagnostic` points inside `src`, as [`check`] describes.
fn located_inside(diagnostic: &Diagnostic, src: &[u8]) -> Result<(), String> {
    let span = &diagnostic.span;
    if span.start > span.end || span.end > src.len() {
        return Err(format!("span {span:?} is not within the {} bytes of input", src.len()));
    }
    let rendered = diagnostic.render(SOURCE_NAME, src);
    let (line, column) =
        rendered_location(&rendered).ok_or_else(|| format!("no location in:\n{rendered}"))?;
    let lines = lines(src);
    let Some(line_bytes) = line.checked_sub(1).and_then(|index| lines.get(index)) else {
        return Err(format!("line {line} of an input of {} lines:\n{rendered}", lines.len()));
    };
    if column == 0 || column > line_bytes.len() + 1 {
        return Err(format!("column {column} of a line of {} bytes:\n{rendered}", line_bytes.len()));
    }
    // A span may start on the `\n` of a `\r\n`: that line end is shown where it starts, at `\r`.
    let mut start = span.start;
    if start > 0 && src.get(start) == Some(&b'\n') && src[start - 1] == b'\r' {
        start -= 1;
    }
    if line_bytes.start + column - 1 != start {
        return Err(format!("line {line}, column {column} is not byte {}:\n{rendered}", span.start));
    }
    Ok(())
}

/// The line and column of a rendered diagnostic's first line, `error: <input>:LINE:COLUMN: …`.
fn rendered_location(rendered: &str) -> Option<(usize, usize)> {
    let rest = rendered.strip_prefix("error: ")?.strip_prefix(SOURCE_NAME)?.strip_prefix(':')?;
    let mut parts = rest.splitn(3, ':');
    let line = parts.next()?.parse().ok()?;
    let column = parts.next()?.parse().ok()?;
    Some((line, column))
}

/// The byte ranges of the lines of `src`, without their ends (`\n`, `\r\n` or a lone `\r`). An
/// input has at least one line, and one more after a final line end.
fn lines(src: &[u8]) -> Vec<Range<usize>> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while at < src.len() {
        match src[at] {
            b'\n' => {
                lines.push(start..at);
                start = at + 1;
            }
            b'\r' => {
                lines.push(start..at);
                if src.get(at + 1) == Some(&b'\n') {
                    at += 1;
                }
                start = at + 1;
            }
            _ => {}
        }
        at += 1;
    }
    lines.push(start..src.len());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tokens;

    /// A list of numbers up to 99 ended by the end of input, and its printer.
    fn numbers(src: &[u8]) -> Result<Vec<u64>, Diagnostic> {
        let mut tokens = Tokens::new(src);
        let mut numbers = Vec::new();
        while !tokens.is_at_end() {
            numbers.push(tokens.number(0..=99, "a number up to 99")?);
        }
        Ok(numbers)
    }

    #[allow(clippy::ptr_arg, reason = "the model the parser returns is a Vec")]
    fn print(numbers: &Vec<u64>) -> String {
        numbers.iter().map(u64::to_string).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn accepted_inputs_round_trip_and_refused_ones_are_located() {
        assert_eq!(check(b" 7 8\r\n9", numbers, print), Ok(Some(vec![7, 8, 9])));
        assert_eq!(check(b"7\r\n\r\n 100", numbers, print), Ok(None));
        assert_eq!(check(b"7\rx", numbers, print), Ok(None));
    }

    #[test]
    fn a_printer_that_loses_something_is_caught() {
        let lossy = |numbers: &Vec<u64>| print(&numbers[1..].to_vec());
        assert!(check(b"1 2", numbers, lossy).unwrap_err().contains("parses back to another"));
        let unreadable = |_: &Vec<u64>| "x";
        assert!(check(b"1 2", numbers, unreadable).unwrap_err().contains("does not parse"));
    }

    #[test]
    fn a_diagnostic_outside_the_input_is_caught() {
        let beyond = |src: &[u8]| Err::<(), _>(Diagnostic::new(src.len() + 1..src.len() + 1, "oops"));
        assert!(check(b"1\n2", beyond, |()| "").unwrap_err().contains("not within"));
        let reversed = |_: &[u8]| Err::<(), _>(Diagnostic::new(Range { start: 2, end: 1 }, "oops"));
        assert!(check(b"1\n2", reversed, |()| "").unwrap_err().contains("not within"));
    }

    #[test]
    fn lines_end_at_every_kind_of_line_end() {
        assert_eq!(lines(b"").iter().map(ExactSizeIterator::len).collect::<Vec<_>>(), [0], "one empty line");
        assert_eq!(lines(b"ab\ncd\r\ne\rf\n"), [0..2, 3..5, 7..8, 9..10, 11..11]);
    }
}
