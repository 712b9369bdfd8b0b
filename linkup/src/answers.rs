//! The judge's answers written out: `YES` or `NO` per query, with the line drawn or pictured
//! when asked ([`write`], behind [`crate::answer`]).

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use crate::model::{Case, Rules};
use crate::query::{Solver, Tables};
use crate::{show, svg};

/// How to answer queries.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options<'a> {
    /// The rules a line must follow.
    pub rules: Rules,
    /// Draw the joining line after each `YES`.
    pub show: bool,
    /// Write a picture of each `YES` into this folder ([`svg::write_query`]).
    pub svg: Option<&'a Path>,
}

/// [`crate::answer`]: every query of `cases` answered into `out`, the solver's tables reused
/// from one case to the next.
pub(crate) fn write(cases: &[Case], options: Options, out: &mut Vec<u8>) -> io::Result<()> {
    let mut tables = Tables::default();
    for (number, case) in (1..).zip(cases) {
        let mut solver = Solver::with_tables(&case.board, options.rules, tables);
        for (index, &query) in case.queries.iter().enumerate() {
            if !options.show && options.svg.is_none() {
                out.extend_from_slice(if solver.joinable(query) { b"YES\n" } else { b"NO\n" });
            } else if let Some(line) = solver.line(query) {
                out.extend_from_slice(b"YES\n");
                if options.show {
                    out.extend_from_slice(indent("  ", &show::line(&case.board, &line)).as_bytes());
                }
                if let Some(dir) = options.svg {
                    svg::write_query(dir, number, index + 1, &case.board, &line)?;
                }
            } else {
                out.extend_from_slice(b"NO\n");
            }
        }
        tables = solver.into_tables();
    }
    Ok(())
}

/// `text` with `prefix` before every line: a drawing set under the line it belongs to.
pub(crate) fn indent(prefix: &str, text: &str) -> String {
    text.lines().fold(String::new(), |mut out, line| {
        let _ = writeln!(out, "{prefix}{line}");
        out
    })
}
