//! The texts of the `eight-circles` binary: its `--help` and what it says about its input.

use common::cli::{Cases, EXIT_STATUS_HELP};
use eight_circles::model::{MAX_CASES, MAX_CIRCLES, MAX_NAME_LEN};

/// What the input holds, for what is said about it.
pub const CASES: Cases = Cases {
    program: "eight-circles",
    what: "cases",
    format: "the number of cases T, then T lines of a digit for each circle",
};

/// The first line of `--help`.
pub const ABOUT: &str = "Solves Another Eight Puzzle cases in the judge format of HDU 2514.";

/// The description of `--help`.
pub fn long_about() -> String {
    format!(
        "\
Solves Another Eight Puzzle cases in the judge format of HDU 2514.

Eight circles A..H joined by 17 connections (A-B A-C A-D B-C B-E B-F C-D C-E C-F C-G D-F D-G
E-F E-H F-G F-H G-H) must hold the digits 1..8, each once, with no consecutive digits in two
connected circles (8 and 1 are not consecutive).

Input: the number of cases T (0 to {MAX_CASES}) alone on the first line, then T lines of 8
digits 0-8, the circles A..H, 0 for an empty circle. A case is exactly one line: a line with
more or fewer numbers is an error at that line. Blank lines before, between and after the case
lines are ignored; anything else after the T-th case is an error.

For case k the answer is `Case k: ` followed by the digits of the only solution, A..H, separated
by spaces, or `Not unique`, or `No answer`. Pre-filled digits must obey the rules too: a digit
given twice, or consecutive digits pre-filled in connected circles, give `No answer`.

Graph files (--graph FILE): words separated by whitespace; a word starting with `#` begins a
comment that runs to the end of its line. The first word is `circles`, followed on the same line
by the names of 1 to {MAX_CIRCLES} circles ({MAX_NAME_LEN} characters at most: letters, digits, `_`), in the
order of the digits on a case line. Every later word is a connection `X-Y` between two different
named circles, each pair at most once. With k circles the digits are 1..k and a case line holds
k digits 0..k. The built-in graph as a file (eight-circles/samples/builtin.graph):

  circles A B C D E F G H
  A-B A-C A-D
  B-C B-E B-F
  C-D C-E C-F C-G
  D-F D-G
  E-F E-H
  F-G F-H
  G-H"
    )
}

/// The end of `--help`: examples and exit statuses.
pub fn after_help() -> String {
    format!(
        "\
Examples:
  $ printf '3\\n7 3 1 4 5 8 0 0\\n7 0 0 0 0 0 0 0\\n1 0 0 0 0 0 0 0\\n' | eight-circles
  Case 1: 7 3 1 4 5 8 6 2
  Case 2: Not unique
  Case 3: No answer
  $ eight-circles gen graph --circles 12 --connections 20 --seed 1 > g.graph
  $ eight-circles gen --graph g.graph --cases 2 --filled 6 --seed 2 \\
      | eight-circles --graph g.graph --all
  Case 1: Not unique
    2 6 3 5 4 7 9 11 12 1 10 8
    2 6 3 5 4 7 9 12 11 1 10 8
    2 6 11 5 4 7 3 12 9 1 10 8
    2 6 12 5 4 7 3 11 9 1 10 8
    4 solutions
  Case 2: No answer
    0 solutions

{EXIT_STATUS_HELP}"
    )
}
