//! How a solver reads its input: the whole of FILE or stdin, parsed before the first answer,
//! with the mistakes around it said on stderr.
//!
//! - On a terminal with no FILE, a line on stderr says the solver reads what is typed and how
//!   to end it or give a file instead; then it reads, as any filter does.
//! - An input with nothing but whitespace is bad input (exit status 2), said in one line with
//!   what the input should hold: most likely the wrong file, or a generator that printed
//!   nothing. An input that ends at its terminator before any case (`0`, `0 0`, a case count of
//!   0) is what it says: no case, status 0, and a note on stderr.
//! - Where a format writes one record a line, the first line that does not hold exactly one
//!   record is a warning, and an error after it names the line where the shift began (see
//!   [`LineRecords`]). The reading itself stays the judge's.

use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};

use super::args::InputArg;
use crate::words::counted;
use crate::{Diagnostic, Failure, Input, LineRecords, Tokens};

/// What a solver's input holds, for what is said about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cases {
    /// The binary's name, for "see `tetravex --help`".
    pub program: &'static str,
    /// What the input holds, as in "reading games from the terminal": `games`, `a puzzle`.
    pub what: &'static str,
    /// What the input should hold, said when it is empty: `games: a board side n, then n*n
    /// lines of four digits`.
    pub format: &'static str,
}

/// Reads the input `arg` names, then parses it with `parse`, which notes its line records in
/// the [`LineRecords`] it is given; `count` says how many cases the input held. On the way, on
/// stderr: a hint when stdin is a terminal; the first line that does not hold exactly one
/// record, as a warning; a note when the input holds no case. An input of nothing but
/// whitespace is bad input; an error after a shifted line names where the shift began.
///
/// # Limits
/// The whole input is read into memory first, so that bad input never leaves a partial
/// answer; what `parse` refuses is never allocated.
///
/// # Errors
/// [`Failure::Input`], rendered with file, line, column and caret: an unreadable file, an
/// input of nothing but whitespace, or what `parse` refused.
pub fn read_cases<T>(
    arg: &InputArg,
    cases: &Cases,
    parse: impl for<'a> FnOnce(&mut Tokens<'a>, &mut LineRecords) -> Result<T, Diagnostic>,
    count: impl FnOnce(&T) -> usize,
) -> Result<T, Failure> {
    read_cases_keeping_input(arg, cases, parse, count).map(|(_, parsed)| parsed)
}

/// [`read_cases`], also giving back the input as read: for a run whose answer depends on its
/// bytes (a part of a split search names the input it searched by a fingerprint of them).
///
/// # Errors
/// As [`read_cases`].
pub fn read_cases_keeping_input<T>(
    arg: &InputArg,
    cases: &Cases,
    parse: impl for<'a> FnOnce(&mut Tokens<'a>, &mut LineRecords) -> Result<T, Diagnostic>,
    count: impl FnOnce(&T) -> usize,
) -> Result<(Input, T), Failure> {
    let stdin = arg.path().is_none();
    if stdin && io::stdin().is_terminal() {
        // A hint that cannot be written changes nothing: the input is read all the same.
        let _ = io::stderr().write_all(terminal_hint(cases).as_bytes());
    }
    let input = Input::read(arg.path())?;
    let parsed = parse_cases(&input, cases, parse, count, &mut io::stderr().lock())?;
    Ok((input, parsed))
}

/// [`read_cases`] on an input already read, saying on `stderr` what it has to say.
fn parse_cases<T>(
    input: &Input,
    cases: &Cases,
    parse: impl for<'a> FnOnce(&mut Tokens<'a>, &mut LineRecords) -> Result<T, Diagnostic>,
    count: impl FnOnce(&T) -> usize,
    stderr: &mut dyn Write,
) -> Result<T, Failure> {
    if input.is_blank() {
        let Cases { program, format, .. } = cases;
        return Err(Failure::Input(format!(
            "error: {} is empty: expected {format} (see `{program} --help`)\n",
            input.name
        )));
    }
    let mut lines = LineRecords::default();
    let parsed = parse(&mut Tokens::new(&input.bytes), &mut lines);
    // What is said on stderr cannot change the answer: a stderr that cannot be written is
    // passed over, as the exit status still tells bad input.
    let _ = stderr.write_all(line_warnings(input, &lines).as_bytes());
    match parsed {
        Ok(parsed) => {
            if count(&parsed) == 0 {
                let _ = writeln!(
                    stderr,
                    "note: {} holds no {}: there is nothing to answer",
                    input.name, cases.what
                );
            }
            Ok(parsed)
        }
        Err(diagnostic) => {
            let mut message = diagnostic.render(&input.name, &input.bytes);
            if let Some(note) = lines.note_for(&input.bytes, diagnostic.span.start) {
                message.push_str(&note);
                message.push('\n');
            }
            Err(Failure::Input(message))
        }
    }
}

/// The line on stderr when a solver reads a terminal.
fn terminal_hint(cases: &Cases) -> String {
    let end = if cfg!(windows) { "Ctrl-Z and Enter" } else { "Ctrl-D on a line of its own" };
    let Cases { program, what, .. } = cases;
    format!(
        "{program}: reading {what} from the terminal; end with {end} (or give a FILE; see `{program} --help`)\n"
    )
}

/// The warnings about `input`'s line records, rendered; empty when every record fills its line.
fn line_warnings(input: &Input, lines: &LineRecords) -> String {
    let Some(warning) = lines.warning() else { return String::new() };
    let mut text = warning.render_as("warning", &input.name, &input.bytes);
    let more = lines.more();
    if more > 0 {
        let verb = if more == 1 { "does" } else { "do" };
        let more = counted(more, "more record");
        let _ = writeln!(text, "warning: {more} after it {verb} not fill exactly one line either");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAIRS: Cases =
        Cases { program: "pairs", what: "pairs", format: "pairs of digits, one pair a line" };

    /// Pairs of digits, one a line, until the end of the input.
    fn pairs(tokens: &mut Tokens<'_>, lines: &mut LineRecords) -> Result<Vec<[u64; 2]>, Diagnostic> {
        let mut pairs = Vec::new();
        while !tokens.is_at_end() {
            let start = tokens.offset();
            let pair = [tokens.number(0..=9, "a digit")?, tokens.number(0..=9, "a digit")?];
            pairs.push(pair);
            lines.check(tokens, start, "one pair a line", || format!("pair {}", pairs.len()));
        }
        Ok(pairs)
    }

    /// What parsing `src` gives and says.
    fn run(src: &str) -> (Result<Vec<[u64; 2]>, String>, String) {
        let mut stderr = Vec::new();
        let input = Input::from_bytes("<stdin>", src);
        let parsed =
            parse_cases(&input, &PAIRS, pairs, Vec::len, &mut stderr).map_err(|failure| match failure {
                Failure::Input(message) => message,
                other => panic!("{other:?}"),
            });
        (parsed, String::from_utf8(stderr).expect("text"))
    }

    #[test]
    fn an_empty_input_says_what_it_should_hold() {
        let (parsed, said) = run(" \n\r\n");
        assert_eq!(
            parsed,
            Err("error: <stdin> is empty: expected pairs of digits, one pair a line (see `pairs --help`)\n"
                .into())
        );
        assert_eq!(said, "");
    }

    #[test]
    fn a_terminal_is_told_how_to_end_the_input() {
        assert_eq!(
            terminal_hint(&PAIRS),
            "pairs: reading pairs from the terminal; end with Ctrl-D on a line of its own (or give a FILE; \
             see `pairs --help`)\n"
        );
    }

    #[test]
    fn aligned_records_are_read_without_a_word() {
        assert_eq!(run("1 2\n3 4\n"), (Ok(vec![[1, 2], [3, 4]]), String::new()));
    }

    #[test]
    fn a_shifted_line_is_a_warning_and_the_input_is_still_read() {
        let (parsed, said) = run("1 2\n3\n4 5\n6\n");
        assert_eq!(parsed, Ok(vec![[1, 2], [3, 4], [5, 6]]));
        assert_eq!(
            said,
            "warning: <stdin>:2:2: this line ends inside pair 2, which is read on from the next line (one \
             pair a line)\n  |\n2 | 3\n  |  ^\n\
             warning: 1 more record after it does not fill exactly one line either\n"
        );
    }

    #[test]
    fn an_error_after_a_shift_names_where_it_began() {
        let (parsed, said) = run("1 2\n3\n4 5 6\n7\n");
        let message = parsed.expect_err("pair 4 has no second digit");
        assert!(
            message.starts_with("error: <stdin>:4:2: expected a digit, found end of input\n"),
            "{message}"
        );
        assert!(
            message.ends_with(
                "note: the records are read shifted from line 2 on, where the warning above points\n"
            ),
            "{message}"
        );
        assert!(said.starts_with("warning: <stdin>:2:2: "), "{said}");
    }

    #[test]
    fn an_input_without_cases_is_noted() {
        let (parsed, said) = run("\n");
        assert!(parsed.is_err(), "blank: an error");
        assert_eq!(said, "");
        let mut stderr = Vec::new();
        let input = Input::from_bytes("<stdin>", "0");
        let none = parse_cases(&input, &PAIRS, |tokens, _| tokens.number(0..=0, "0"), |_| 0, &mut stderr);
        assert!(matches!(none, Ok(0)));
        assert_eq!(
            String::from_utf8(stderr).unwrap(),
            "note: <stdin> holds no pairs: there is nothing to answer\n"
        );
    }
}
