//! # Another Eight Puzzle
//!
//! ```
//! use common::Tokens;
//! use eight_circles::model::Graph;
//!
//! // The judge's format: the number of cases, then each case's digits for A..H (0: empty).
//! let input = "3\n7 3 1 4 5 8 0 0\n7 0 0 0 0 0 0 0\n1 0 0 0 0 0 0 0\n";
//! let graph = Graph::builtin();
//! let cases = eight_circles::parse::cases(&mut Tokens::new(input.as_bytes()), &graph)
//!     .map_err(|bad| bad.render("<input>", input.as_bytes()))?;
//! let mut out = Vec::new();
//! eight_circles::answer(&graph, &cases, eight_circles::Options::default(), &mut out)?;
//! assert_eq!(
//!     String::from_utf8(out)?,
//!     "Case 1: 7 3 1 4 5 8 6 2\nCase 2: Not unique\nCase 3: No answer\n"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Eight circles A..H joined by 17 connections are to hold the digits 1..8, each once, so that
//! no two connected circles hold consecutive digits; some circles come pre-filled. For each case
//! the answer is the only solution, `Not unique`, or `No answer`. Input and output follow the
//! judge HDU 2514 (see README.md). The graph is data ([`model::Graph`]): `--graph`
//! reads any graph of up to 16 circles, whose digits are then 1..=k.
//!
//! ## The algorithm
//! The judge's graph has only 4 solutions. They are found once, by the search below, and put in
//! a [`solve::Table`]: for every circle and digit, the bitset of the solutions holding that digit
//! there. A case is answered by ANDing one bitset per circle (an empty circle's bitset holds every
//! solution) and counting the bits: O(k) word operations, no search. Pre-filled digits that repeat
//! or that put consecutive digits in connected circles match no solution, so they give
//! `No answer` with no special case. Reading and printing dominate the time.
//!
//! For a `--graph`, each case is searched ([`solve::search`]): digits and circles are bitmasks,
//! placing a digit removes its two consecutive digits from the neighbours' candidates, and a
//! forward check after each placement cuts the branch when an unfilled circle has no candidate
//! left or a free digit fits in no unfilled circle. The verdict's search fills the circle with
//! the fewest candidates first and stops at the second solution; `--all` fills circles in order
//! and so lists solutions in lexicographic order without storing them. The worst case is
//! exponential in k (at most k! leaves), which is why k is capped at 16. [`reference`](mod@reference) tries every
//! assignment of the empty circles, the plain idea beside it.
//!
//! ## Limits
//! Graphs of 1..=[`model::MAX_CIRCLES`] circles with names of at most [`model::MAX_NAME_LEN`]
//! characters, and at most [`model::MAX_CASES`] cases; the parser refuses more before
//! allocating for it.

pub mod r#gen;
pub mod model;
pub mod parse;
pub mod reference;
pub mod show;
pub mod solve;
pub mod svg;

use std::io::{self, Write};
use std::ops::ControlFlow;

use model::{Cases, Graph, Verdict};
use solve::{Order, Table};

/// How the cases are answered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Method {
    /// From the table of all the graph's solutions, built once (the judge's graph). Falls back
    /// to [`Method::Search`] for a graph with more than [`solve::MAX_TABLE_SOLUTIONS`].
    #[default]
    Table,
    /// A search per case (`--graph`).
    Search,
}

/// What to print besides the judge's answer, and how to find it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// After each case line, every solution (lexicographic order), then their count.
    pub all: bool,
    /// Draw the unique solution under its case line (with `all`: every solution listed).
    pub show: bool,
    /// Table or search.
    pub method: Method,
}

/// Output is gathered here and written in blocks of about this size.
const BLOCK: usize = 1 << 16;

/// Writes the answer to every case: `Case k: ` and the solution's digits separated by single
/// spaces, `Not unique` or `No answer`, exactly as the judge expects; then what `options` add,
/// each extra line indented by two spaces.
///
/// # Complexity
/// With [`Method::Table`], one search of the whole graph, then O(k · ⌈s/64⌉) word operations a
/// case for a graph of k circles and s solutions, plus the solutions listed with `all`; with
/// [`Method::Search`] (or a graph of more than [`solve::MAX_TABLE_SOLUTIONS`] solutions), one
/// search a case, exponential in k in the worst case ([`solve::search`]).
///
/// # Panics
/// When a case does not hold one digit 0..=k per circle of `graph`, as the parser guarantees.
///
/// # Errors
/// When `out` cannot be written.
pub fn answer(graph: &Graph, cases: &Cases, options: Options, out: &mut dyn Write) -> io::Result<()> {
    let table = match options.method {
        Method::Table => Table::new(graph),
        Method::Search => None,
    };
    let mut printer = Printer { graph, options, out, buffer: Vec::with_capacity(2 * BLOCK), failed: None };
    match table {
        Some(table) => {
            let texts: Vec<Vec<u8>> =
                (0..table.len()).map(|number| digits_text(table.solution(number))).collect();
            for (index, case) in cases.iter().enumerate() {
                let verdict = table.verdict(case);
                printer.case_line(index + 1, &verdict.clone().map(|number| texts[number].as_slice()))?;
                if options.all {
                    let mut found = 0;
                    for number in table.matching(case) {
                        printer.listed(table.solution(number));
                        found += 1;
                    }
                    printer.count_line(found)?;
                } else if let Verdict::Unique(number) = verdict {
                    printer.drawing(table.solution(number));
                }
            }
        }
        None => {
            for (index, case) in cases.iter().enumerate() {
                let verdict = solve::verdict(graph, case);
                printer.case_line(index + 1, &verdict.clone().map(|solution| digits_text(&solution)))?;
                if options.all {
                    let mut found = 0u64;
                    solve::search(graph, case, Order::Lexicographic, |solution| {
                        found += 1;
                        printer.listed(solution);
                        if printer.failed.is_some() {
                            ControlFlow::Break(())
                        } else {
                            ControlFlow::Continue(())
                        }
                    });
                    printer.count_line(found)?;
                } else if let Verdict::Unique(solution) = verdict {
                    printer.drawing(&solution);
                }
            }
        }
    }
    printer.flush()
}

/// The digits separated by single spaces.
fn digits_text(digits: &[u8]) -> Vec<u8> {
    let mut text = Vec::with_capacity(3 * digits.len());
    for (index, &digit) in digits.iter().enumerate() {
        if index > 0 {
            text.push(b' ');
        }
        push_decimal(&mut text, digit);
    }
    text
}

/// Appends `value` in decimal with `itoa`, without going through `fmt` (a million case numbers
/// add up).
fn push_decimal(buffer: &mut Vec<u8>, value: impl itoa::Integer) {
    buffer.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
}

/// Gathers the output in a buffer and writes it in blocks. A write error is kept in `failed`
/// (so that the `--all` listing, which runs inside the search's callback, can stop the search)
/// and returned by the next method that returns a result.
struct Printer<'a> {
    graph: &'a Graph,
    options: Options,
    out: &'a mut dyn Write,
    buffer: Vec<u8>,
    failed: Option<io::Error>,
}

impl Printer<'_> {
    fn case_line<S: AsRef<[u8]>>(&mut self, number: usize, verdict: &Verdict<S>) -> io::Result<()> {
        self.buffer.extend_from_slice(b"Case ");
        push_decimal(&mut self.buffer, number);
        self.buffer.extend_from_slice(b": ");
        self.buffer.extend_from_slice(match verdict {
            Verdict::Unique(text) => text.as_ref(),
            Verdict::NotUnique => b"Not unique",
            Verdict::NoAnswer => b"No answer",
        });
        self.buffer.push(b'\n');
        self.write_full_blocks();
        self.result()
    }

    /// A solution listed by `--all`, with its drawing under `--show`.
    fn listed(&mut self, solution: &[u8]) {
        self.buffer.extend_from_slice(b"  ");
        self.buffer.extend_from_slice(&digits_text(solution));
        self.buffer.push(b'\n');
        self.drawing(solution);
    }

    /// The drawing of `solution` under `--show`.
    fn drawing(&mut self, solution: &[u8]) {
        if self.options.show {
            for line in show::solution(self.graph, solution).lines() {
                self.buffer.extend_from_slice(b"  ");
                self.buffer.extend_from_slice(line.as_bytes());
                self.buffer.push(b'\n');
            }
        }
        self.write_full_blocks();
    }

    fn count_line(&mut self, found: u64) -> io::Result<()> {
        self.buffer.extend_from_slice(b"  ");
        push_decimal(&mut self.buffer, found);
        self.buffer.extend_from_slice(if found == 1 { b" solution\n" } else { b" solutions\n" });
        self.write_full_blocks();
        self.result()
    }

    fn write_full_blocks(&mut self) {
        if self.buffer.len() >= BLOCK && self.failed.is_none() {
            if let Err(error) = self.out.write_all(&self.buffer) {
                self.failed = Some(error);
            }
            self.buffer.clear();
        }
    }

    fn result(&mut self) -> io::Result<()> {
        self.failed.take().map_or(Ok(()), Err)
    }

    fn flush(mut self) -> io::Result<()> {
        self.result()?;
        self.out.write_all(&self.buffer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE_OUTPUT: &str = "Case 1: 7 3 1 4 5 8 6 2\nCase 2: Not unique\nCase 3: No answer\n";

    fn sample_cases() -> Cases {
        let mut cases = Cases::new(8);
        for case in [[7, 3, 1, 4, 5, 8, 0, 0], [7, 0, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0]] {
            cases.push(&case);
        }
        cases
    }

    fn run(options: Options) -> String {
        let mut out = Vec::new();
        answer(&Graph::builtin(), &sample_cases(), options, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_sample_answer_by_table_and_by_search() {
        assert_eq!(run(Options::default()), SAMPLE_OUTPUT);
        assert_eq!(run(Options { method: Method::Search, ..Options::default() }), SAMPLE_OUTPUT);
    }

    #[test]
    fn all_lists_solutions_with_their_count_alike_by_table_and_search() {
        let all = Options { all: true, show: true, method: Method::Table };
        let listed = run(all);
        assert!(
            listed.starts_with("Case 1: 7 3 1 4 5 8 6 2\n  7 3 1 4 5 8 6 2\n      7           A\n"),
            "{listed}"
        );
        assert!(listed.contains("Case 2: Not unique\n  7 3 1 4 5 8 6 2\n"), "{listed}");
        assert!(listed.contains("  7 4 1 3 6 8 5 2\n"), "{listed}");
        assert!(listed.ends_with("  2 solutions\nCase 3: No answer\n  0 solutions\n"), "{listed}");
        assert_eq!(run(Options { method: Method::Search, ..all }), listed);
    }

    #[test]
    fn large_outputs_are_written_whole() {
        let mut cases = Cases::new(8);
        for _ in 0..20_000 {
            cases.push(&[7, 3, 1, 4, 5, 8, 0, 0]);
        }
        let mut out = Vec::new();
        answer(&Graph::builtin(), &cases, Options::default(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 20_000);
        assert_eq!(text.lines().last(), Some("Case 20000: 7 3 1 4 5 8 6 2"));
    }

    #[test]
    fn decimals() {
        let mut buffer = Vec::new();
        for value in [0, 7, 10, 1_000_000, u64::MAX] {
            push_decimal(&mut buffer, value);
            buffer.push(b',');
        }
        assert_eq!(buffer, format!("0,7,10,1000000,{},", u64::MAX).into_bytes());
    }
}
