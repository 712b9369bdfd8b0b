//! Judge-format input → [`Puzzle`].
//!
//! ```text
//! n              the number of moves, 1..=7 (the judge's: 1..=5)
//! c c ... 0      five lines, x = 0 first: the colours 1..=10 of a column from the bottom up, then 0
//! ```
//!
//! The number of moves and each column are line records: a column whose line ends before its
//! `0` is reported there (a missing terminator), not in the next line. Blank lines between the
//! records are fine.

use common::{Diagnostic, Tokens};

use crate::board::Board;
use crate::model::{HEIGHT, MAX_COLOUR, MAX_MOVES, Puzzle, WIDTH};

/// Reads the puzzle and checks that nothing but whitespace follows it and that the board holds
/// no three in a line.
///
/// # Limits
/// 1..=[`MAX_MOVES`] moves, [`WIDTH`] columns of at most [`HEIGHT`] blocks in colours
/// 1..=[`MAX_COLOUR`]; anything else is refused with a diagnostic at the token, never
/// allocated. Linear in the input's length.
pub fn puzzle(tokens: &mut Tokens<'_>) -> Result<Puzzle, Diagnostic> {
    let moves_what = format!("a number of moves from 1 to {MAX_MOVES}");
    let moves = tokens.number(1..=MAX_MOVES as u64, &moves_what)? as usize;
    end_of_record(tokens, "the end of the line after the number of moves")?;

    let mut columns: [Vec<u8>; WIDTH] = Default::default();
    // Where each block's colour was read, to point at a line of three.
    let mut offsets = [[(0, 0); HEIGHT]; WIDTH];
    for (x, column) in columns.iter_mut().enumerate() {
        let what = format!("column x = {x}: colours 1-{MAX_COLOUR} from the bottom up, ending in 0");
        tokens.skip_whitespace();
        if tokens.is_at_end() {
            return Err(Diagnostic::expected_at_end(&what, tokens.src()));
        }
        loop {
            let Some(token) = tokens.inline_token() else {
                let at = tokens.offset();
                let found = if tokens.is_at_end() { "end of input" } else { "end of line" };
                let message =
                    format!("expected a colour 1-{MAX_COLOUR} or 0 to end column x = {x}, found {found}");
                return Err(Diagnostic::new(at..at, message));
            };
            let colour = Tokens::new(token.text).number(0..=u64::from(MAX_COLOUR), "").map_err(|_| {
                token.expected(&format!("a colour 1-{MAX_COLOUR} or 0 to end column x = {x}"))
            })?;
            if colour == 0 {
                break;
            }
            if column.len() == HEIGHT {
                return Err(
                    token.expected(&format!("0 to end column x = {x}, which holds at most {HEIGHT} blocks"))
                );
            }
            offsets[x][column.len()] = (token.offset, token.text.len());
            column.push(colour as u8);
        }
        end_of_record(tokens, &format!("the end of the line after the 0 of column x = {x}"))?;
    }
    tokens.expect_end("nothing after the five columns")?;

    let board = Board::from_columns(&columns);
    if let Some(&(x, y)) = board.line_cells().first() {
        let (offset, len) = offsets[x][y];
        let line = line_through(&board, x, y);
        let cells: Vec<String> = line.iter().map(|(x, y)| format!("({x}, {y})")).collect();
        let message = format!(
            "expected a board with no three in a line, found {} blocks of colour {} in a line at {}",
            line.len(),
            board.cell(x, y),
            cells.join(", ")
        );
        return Err(Diagnostic::new(offset..offset + len, message));
    }
    Ok(Puzzle { moves, columns })
}

/// Fails unless only blanks are left on the current line (or the input ends).
fn end_of_record(tokens: &mut Tokens<'_>, what: &str) -> Result<(), Diagnostic> {
    if let Some(token) = tokens.inline_token() {
        return Err(token.expected(what));
    }
    tokens.next_line();
    Ok(())
}

/// The longest run of one colour through the marked cell (x, y): its row if three or more of
/// the row are that colour, else its column.
fn line_through(board: &Board, x: usize, y: usize) -> Vec<(usize, usize)> {
    let colour = board.cell(x, y);
    let run = |cells: &mut dyn Iterator<Item = (usize, usize)>| {
        cells.take_while(|&(cx, cy)| board.cell(cx, cy) == colour).collect::<Vec<_>>()
    };
    let mut row: Vec<_> = run(&mut (0..x).rev().map(|cx| (cx, y)));
    row.reverse();
    row.extend(run(&mut (x..WIDTH).map(|cx| (cx, y))));
    if row.len() >= 3 {
        return row;
    }
    let mut column: Vec<_> = run(&mut (0..y).rev().map(|cy| (x, cy)));
    column.reverse();
    column.extend(run(&mut (y..HEIGHT).map(|cy| (x, cy))));
    column
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> Result<Puzzle, Diagnostic> {
        puzzle(&mut Tokens::new(src.as_bytes()))
    }

    const SAMPLE: &str = "3 \n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n";

    #[test]
    fn reads_the_sample() {
        let puzzle = parse(SAMPLE).unwrap();
        assert_eq!(puzzle.moves, 3);
        assert_eq!(puzzle.columns, [vec![1], vec![2, 1], vec![2, 3, 4], vec![3, 1], vec![2, 4, 3, 4]]);
    }

    #[test]
    fn any_line_endings_blank_lines_and_missing_final_newline_are_fine() {
        let crlf = SAMPLE.replace('\n', "\r\n").replace("2 1 0", "\r\n\t2 1 0");
        assert_eq!(parse(&crlf).unwrap(), parse(SAMPLE).unwrap());
        assert_eq!(parse(SAMPLE.trim_end()).unwrap(), parse(SAMPLE).unwrap());
        let empty = parse("1\n0\n0\n0\n0\n0").unwrap();
        assert_eq!(empty.blocks(), 0);
    }

    #[test]
    fn bad_input_is_located() {
        for (src, span, message) in [
            ("", 0..0, "expected a number of moves from 1 to 7, found end of input"),
            ("8\n", 0..1, "expected a number of moves from 1 to 7, found `8`"),
            ("0\n", 0..1, "expected a number of moves from 1 to 7, found `0`"),
            ("2 1 0\n", 2..3, "expected the end of the line after the number of moves, found `1`"),
            ("1\n1 11 0\n", 4..6, "expected a colour 1-10 or 0 to end column x = 0, found `11`"),
            ("1\n1 -1 0\n", 4..6, "expected a colour 1-10 or 0 to end column x = 0, found `-1`"),
            ("1\n1 2\n0\n", 5..5, "expected a colour 1-10 or 0 to end column x = 0, found end of line"),
            ("1\n0\n1 2", 7..7, "expected a colour 1-10 or 0 to end column x = 1, found end of input"),
            (
                "1\n0\n0\n1 2 1 2 1 2 1 2 0\n",
                20..21,
                "expected 0 to end column x = 2, which holds at most 7 blocks, found `2`",
            ),
            (
                "1\n0\n0\n",
                5..5,
                "expected column x = 2: colours 1-10 from the bottom up, ending in 0, found end of input",
            ),
            ("1\n0 0\n", 4..5, "expected the end of the line after the 0 of column x = 0, found `0`"),
            ("1\n0\n0\n0\n0\n0\n7\n", 12..13, "expected nothing after the five columns, found `7`"),
        ] {
            let err = parse(src).unwrap_err();
            assert_eq!((err.span, err.message.as_str()), (span, message), "{src:?}");
        }
    }

    #[test]
    fn a_line_of_three_is_reported_at_its_first_block() {
        let err = parse("1\n1 0\n1 0\n1 2 0\n0\n0\n").unwrap_err();
        assert_eq!(err.span, 2..3);
        let found = "found 3 blocks of colour 1 in a line at (0, 0), (1, 0), (2, 0)";
        assert_eq!(err.message, format!("expected a board with no three in a line, {found}"));
        let err = parse("1\n0\n2 3 3 3 3 0\n0\n0\n0\n").unwrap_err();
        assert_eq!(err.span, 6..7);
        let found = "found 4 blocks of colour 3 in a line at (1, 1), (1, 2), (1, 3), (1, 4)";
        assert_eq!(err.message, format!("expected a board with no three in a line, {found}"));
    }
}
