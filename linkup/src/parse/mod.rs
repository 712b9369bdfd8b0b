//! Judge-format input → [`Case`]s, one case at a time.
//!
//! ```text
//! n m            rows and columns; `0 0` (or the end of input) ends the input
//! k ... k        n rows of m piece kinds, 0 for an empty cell
//! q              the number of queries
//! x1 y1 x2 y2    q lines: row and column of two cells, 1-based
//! ```
//!
//! Tokens are separated by any ASCII whitespace; line breaks carry no meaning to the reading,
//! as to the judge's. The format writes one record a line (the size, each row of the board, the
//! query count, each query, the terminator): the [`Reader`] also notes where the lines and the
//! records part ways ([`Reader::lines`]), for a warning.
//!
//! ## Speed
//! A case can hold sixteen million numbers and an input many cases. Sizes and queries are read
//! with [`common::Tokens`] (nom over the raw bytes, no allocation per token, descriptions of what
//! was expected built only on error). A board's numbers go through `kinds`, a bulk reader of
//! 64-byte blocks that [`Tokens::seek`]s the cursor past them; on the first token that does not
//! fit it stops there, and `Tokens` builds the diagnostic: `expected {what}, found `{token}`` at
//! the token, or `found end of input` after the last one. See the crate's README for the figures.
//!
//! ## Memory
//! [`Reader`] yields one case at a time, so a caller that is done with each case before reading
//! the next holds one board at a time ([`Reader::recycle`]); [`cases`] holds them all. Sizes
//! are checked before anything is allocated, and a board's storage is never reserved beyond
//! what the remaining input could fill.

mod kinds;
#[cfg(test)]
mod tests;

use common::{Diagnostic, LineRecords, Pos, Tokens};

use crate::model::{Board, Case, EMPTY, Kind, MAX_CELLS, MAX_QUERIES, MAX_SIDE, Query};
use kinds::kinds;

/// The most rows, the most columns and the most cells a [`Reader`] accepts, and what sets
/// those limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideLimit {
    /// Rows, and columns, at most (never above [`MAX_SIDE`]).
    pub side: usize,
    /// Cells, rows × columns, at most (never above [`MAX_CELLS`]).
    pub cells: usize,
    /// What takes no larger board, said in diagnostics after the range (`None`: the input
    /// format itself, [`MAX_SIDE`] and [`MAX_CELLS`]).
    pub set_by: Option<&'static str>,
}

impl SideLimit {
    /// The input format's limits, [`MAX_SIDE`] and [`MAX_CELLS`].
    pub const FORMAT: SideLimit = SideLimit { side: MAX_SIDE, cells: MAX_CELLS, set_by: None };
}

/// The format's rule for its lines, as warnings say it.
const ONE_RECORD_A_LINE: &str = "the size, each row, the query count and each query on a line of their own";

/// Reads the cases of an input one at a time. See the [module documentation](self).
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    tokens: Tokens<'a>,
    limit: SideLimit,
    /// Where the lines and the records parted ways so far.
    lines: LineRecords,
    /// Cases read so far, to name them in warnings.
    case: u64,
    /// Set at the terminator, the end of input, or after an error: nothing more is read.
    done: bool,
    /// Storage of a case the caller is done with, for the next case (see [`Reader::recycle`]).
    spare: Option<Case>,
}

/// What each number of the input must be, as diagnostics say it (`expected {what}, found ...`).
/// Shared with the plain reader of `crate::reference`.
pub mod wanted {
    use super::SideLimit;
    use crate::model::{Kind, MAX_QUERIES};

    /// The row count of a case, or the first `0` of the terminator.
    pub fn rows() -> String {
        rows_within(SideLimit::FORMAT)
    }

    /// [`rows`] under `limit`.
    pub fn rows_within(limit: SideLimit) -> String {
        format!("a row count from 1 to {}{} (or `0 0` to end the input)", limit.side, set_by(limit))
    }

    /// What sets `limit`, as said after its range.
    fn set_by(limit: SideLimit) -> String {
        limit.set_by.map(|by| format!(", the most {by} takes")).unwrap_or_default()
    }

    /// The second `0` of the terminator.
    pub const TERMINATOR: &str = "`0` after `0` (the input ends with `0 0`)";

    /// Whitespace only, after the terminator.
    pub const AFTER_TERMINATOR: &str = "nothing after the terminating `0 0`";

    /// The largest column count for `rows` rows.
    pub fn max_cols(rows: usize) -> usize {
        max_cols_within(rows, SideLimit::FORMAT)
    }

    /// [`max_cols`] under `limit`.
    pub fn max_cols_within(rows: usize, limit: SideLimit) -> usize {
        (limit.cells / rows).min(limit.side)
    }

    /// The column count of a case of `rows` rows.
    pub fn cols(rows: usize) -> String {
        cols_within(rows, SideLimit::FORMAT)
    }

    /// [`cols`] under `limit`.
    pub fn cols_within(rows: usize, limit: SideLimit) -> String {
        let max_cols = max_cols_within(rows, limit);
        if max_cols == limit.side {
            format!("a column count from 1 to {max_cols}{}", set_by(limit))
        } else {
            let cells = limit.cells;
            match limit.set_by {
                Some(by) => {
                    format!("a column count from 1 to {max_cols} (the most {by} takes is {cells} cells)")
                }
                None => format!("a column count from 1 to {max_cols} (a board holds at most {cells} cells)"),
            }
        }
    }

    /// The kind at 0-based `cell` of a board of `cols` columns.
    pub fn kind(cell: usize, cols: usize) -> String {
        let (row, col) = (cell / cols + 1, cell % cols + 1);
        format!("a piece kind (0 for an empty cell, at most {}) at row {row}, column {col}", Kind::MAX)
    }

    /// The number of queries.
    pub fn query_count() -> String {
        format!("a query count from 0 to {MAX_QUERIES}")
    }

    /// Number `part` (0 to 3: `x1 y1 x2 y2`) of query `query` (1-based), on a board of `rows` ×
    /// `cols`.
    pub fn query_part(part: usize, query: u64, rows: usize, cols: usize) -> String {
        const PARTS: [&str; 4] = [
            "row of the first cell",
            "column of the first cell",
            "row of the second cell",
            "column of the second cell",
        ];
        let side = if part.is_multiple_of(2) { rows } else { cols };
        format!("the {} of query {query}, from 1 to {side}", PARTS[part])
    }
}

impl<'a> Reader<'a> {
    /// A reader at the start of `src`.
    pub fn new(src: &'a [u8]) -> Self {
        Reader::within(src, SideLimit::FORMAT)
    }

    /// A reader at the start of `src` that refuses boards larger than `limit`, as it refuses
    /// those beyond the format.
    pub fn within(src: &'a [u8], limit: SideLimit) -> Self {
        Reader {
            tokens: Tokens::new(src),
            limit,
            lines: LineRecords::default(),
            case: 0,
            done: false,
            spare: None,
        }
    }

    /// Where the lines of the input read so far do not hold exactly one record each (the size,
    /// a row, the query count, a query, the terminator).
    pub fn lines(&self) -> &LineRecords {
        &self.lines
    }

    /// Hands back a case the caller is done with: the next case is read into its memory, which
    /// saves allocating (and faulting in) fresh pages for every board of a long input.
    pub fn recycle(&mut self, case: Case) {
        self.spare = Some(case);
    }

    /// The next case; `None` after the terminating `0 0` or at the end of input (checking that
    /// nothing but whitespace follows the terminator).
    pub fn next_case(&mut self) -> Result<Option<Case>, Diagnostic> {
        if self.done {
            return Ok(None);
        }
        let outcome = self.read_case();
        if !matches!(outcome, Ok(Some(_))) {
            self.done = true;
        }
        outcome
    }

    fn read_case(&mut self) -> Result<Option<Case>, Diagnostic> {
        let (tokens, lines) = (&mut self.tokens, &mut self.lines);
        if tokens.is_at_end() {
            return Ok(None);
        }
        self.case += 1;
        let case = self.case;
        let limit = self.limit;
        let start = tokens.offset();
        let rows = tokens.number_with(0..=limit.side as u64, || wanted::rows_within(limit))? as usize;
        if rows == 0 {
            tokens.number(0..=0, wanted::TERMINATOR)?;
            lines.check(tokens, start, ONE_RECORD_A_LINE, || "the terminating `0 0`".to_owned());
            tokens.expect_end(wanted::AFTER_TERMINATOR)?;
            return Ok(None);
        }
        let cols = tokens.number_with(1..=wanted::max_cols_within(rows, limit) as u64, || {
            wanted::cols_within(rows, limit)
        })? as usize;
        lines.check(tokens, start, ONE_RECORD_A_LINE, || format!("the size of case {case}"));

        let cells = rows * cols;
        // Every number but the last takes at least two bytes: never allocate more than the rest
        // of the input could fill, whatever the header claims.
        let room = tokens.rest().len() / 2 + 1;
        let (mut kinds, mut queries) = match self.spare.take() {
            Some(spare) => (spare.board.into_cells(), spare.queries),
            None => (Vec::new(), Vec::new()),
        };
        // Every cell is written before the board is used: memory recycled from the last case
        // needs no clearing, only the part it lacks.
        kinds.truncate(cells.min(room));
        kinds.resize(cells.min(room), EMPTY);
        let filled = read_rows(tokens, lines, &mut kinds, cols, case);
        if filled < cells {
            return Err(tokens.expected_here(&wanted::kind(filled, cols)));
        }
        let board = Board::from_vec(rows, cols, kinds);

        tokens.skip_whitespace();
        let start = tokens.offset();
        let count = tokens.number_with(0..=MAX_QUERIES as u64, wanted::query_count)?;
        lines.check(tokens, start, ONE_RECORD_A_LINE, || format!("the query count of case {case}"));
        queries.clear();
        queries.reserve((count as usize).min(tokens.rest().len() / 8 + 1));
        for query in 1..=count {
            tokens.skip_whitespace();
            let start = tokens.offset();
            let mut values = [0; 4];
            for (part, value) in values.iter_mut().enumerate() {
                let side = if part.is_multiple_of(2) { rows } else { cols };
                *value = tokens
                    .number_with(1..=side as u64, || wanted::query_part(part, query, rows, cols))?
                    as usize;
            }
            lines.check(tokens, start, ONE_RECORD_A_LINE, || format!("query {query} of case {case}"));
            let [x1, y1, x2, y2] = values;
            queries.push(Query { a: Pos::new(x1, y1), b: Pos::new(x2, y2) });
        }
        Ok(Some(Case { board, queries }))
    }
}

/// Reads the kinds of a board of `cols` columns into `kinds` with [`kinds`], a row at a time so
/// that each row is checked as a line record; returns how many cells were read, all of them
/// unless a token is not a kind or the input ends. The cursor is left after the last kind read,
/// or at the token that is not one.
fn read_rows(
    tokens: &mut Tokens<'_>,
    lines: &mut LineRecords,
    kinds: &mut [Kind],
    cols: usize,
    case: u64,
) -> usize {
    let end = tokens.src().len();
    let mut filled = 0;
    for (row, cells) in kinds.chunks_mut(cols).enumerate() {
        tokens.skip_whitespace();
        let start = tokens.offset();
        let mut row_filled = 0;
        let read = self::kinds(tokens.rest(), cells, &mut row_filled);
        filled += row_filled;
        match read {
            Ok((rest, ())) => tokens.seek(end - rest.len()),
            Err(failure) => {
                if let nom::Err::Error(error) | nom::Err::Failure(error) = failure {
                    tokens.seek(end - error.input.len());
                }
                return filled;
            }
        }
        lines.check(tokens, start, ONE_RECORD_A_LINE, || format!("row {} of case {case}", row + 1));
    }
    filled
}

impl Iterator for Reader<'_> {
    type Item = Result<Case, Diagnostic>;

    /// The next case, or the error that ends the input; nothing after an error.
    fn next(&mut self) -> Option<Self::Item> {
        self.next_case().transpose()
    }
}

/// Reads every case of `src`.
pub fn cases(src: &[u8]) -> Result<Vec<Case>, Diagnostic> {
    Reader::new(src).collect()
}

/// Reads every case of `src`, refusing boards larger than `limit`.
pub fn cases_within(src: &[u8], limit: SideLimit) -> Result<Vec<Case>, Diagnostic> {
    Reader::within(src, limit).collect()
}

/// [`cases_within`], noting in `lines` where the lines of `src` do not hold exactly one record
/// each.
pub fn cases_checking_lines(
    src: &[u8],
    limit: SideLimit,
    lines: &mut LineRecords,
) -> Result<Vec<Case>, Diagnostic> {
    let mut reader = Reader::within(src, limit);
    let cases = reader.by_ref().collect();
    *lines = reader.lines;
    cases
}
