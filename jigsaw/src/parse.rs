//! Judge-format input → [`Block`](crate::model::Block)s.
//!
//! ```text
//! n m      rows and columns, 1..=40 each; `0 0` (or the end of input) ends the input
//! word     n·m words of four letters F, O, I: the top, right, bottom and left side of a piece
//! ```
//!
//! Tokens are read as the judge reads them, across any whitespace. The format writes one record
//! a line (the size, each piece, the terminator): [`blocks_checking_lines`] also notes where
//! the lines and the records part ways, for a warning.

use common::{Diagnostic, LineRecords, Tokens};

use crate::model::{Blocks, MAX_SIDE, Piece, Side};

/// The format's rule for its lines, as warnings say it.
const ONE_PIECE_A_LINE: &str = "the size and each piece on a line of their own";

/// Reads every block up to the terminating `0 0` (or the end of input) and checks that nothing
/// but whitespace follows it. The blocks are stored flat ([`Blocks`]): memory stays a fraction
/// of the input's size however many blocks it holds.
///
/// # Limits
/// Each side 1..=[`MAX_SIDE`]; a larger size, a letter other than `F`, `O`, `I` or a word of
/// another length is refused with a diagnostic at the token. Linear in the input's length.
pub fn blocks(tokens: &mut Tokens<'_>) -> Result<Blocks, Diagnostic> {
    blocks_checking_lines(tokens, &mut LineRecords::default())
}

/// [`blocks`], noting in `lines` every line that does not hold exactly one record (a size line
/// `n m`, a piece, the terminator).
pub fn blocks_checking_lines(tokens: &mut Tokens<'_>, lines: &mut LineRecords) -> Result<Blocks, Diagnostic> {
    let mut blocks = Blocks::new();
    let mut block = 0;
    while !tokens.is_at_end() {
        block += 1;
        let start = tokens.offset();
        let what = format!("a row count from 1 to {MAX_SIDE} (or `0 0` to end the input)");
        let rows = tokens.number(0..=MAX_SIDE as u64, &what)? as usize;
        if rows == 0 {
            tokens.number(0..=0, "0 after a row count of 0 (`0 0` ends the input)")?;
            lines.check(tokens, start, ONE_PIECE_A_LINE, || "the terminating `0 0`".to_owned());
            tokens.expect_end("nothing after the terminating `0 0`")?;
            break;
        }
        let what = format!("a column count from 1 to {MAX_SIDE}");
        let cols = tokens.number(1..=MAX_SIDE as u64, &what)? as usize;
        lines.check(tokens, start, ONE_PIECE_A_LINE, || format!("the size of block {block}"));
        let total = rows * cols;
        blocks.start_group([rows as u8, cols as u8]);
        for index in 1..=total {
            let what = format!("piece {index} of {total}: four letters F, O or I (top, right, bottom, left)");
            let token = tokens.word(&what)?;
            let sides: Option<Vec<Side>> =
                token.text.iter().map(|&letter| Side::from_letter(letter)).collect();
            match sides.and_then(|sides| <[Side; 4]>::try_from(sides).ok()) {
                Some(sides) => blocks.push_item(Piece { sides }),
                None => return Err(token.expected(&what)),
            }
            lines.check(tokens, token.offset, ONE_PIECE_A_LINE, || format!("piece {index} of block {block}"));
        }
    }
    Ok(blocks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Block, piece};

    fn parse(src: &str) -> Result<Vec<Block>, Diagnostic> {
        blocks(&mut Tokens::new(src.as_bytes())).map(|blocks| blocks.iter().collect())
    }

    #[test]
    fn reads_blocks_until_the_terminator() {
        let blocks = parse("1 1\nFFFF\n\n1 2\nFOFF\r\nFFFI\n0 0\n").unwrap();
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0], Block { rows: 1, cols: 1, pieces: vec![piece("FFFF")] });
        assert_eq!(blocks[1].pieces, [piece("FOFF"), piece("FFFI")]);
    }

    #[test]
    fn end_of_input_may_replace_the_terminator() {
        assert_eq!(parse("1 1\r\nFFFF\r\n\r\n").unwrap().len(), 1);
        assert!(parse("").unwrap().is_empty());
        assert!(parse("0 0").unwrap().is_empty());
    }

    #[test]
    fn lines_holding_more_or_less_than_one_record_are_noted() {
        let lines_of = |src: &str| {
            let mut lines = LineRecords::default();
            let blocks = blocks_checking_lines(&mut Tokens::new(src.as_bytes()), &mut lines);
            (blocks.map(|blocks| blocks.iter().count()), lines)
        };
        let (blocks, lines) = lines_of("1 2\nFOFF FFFI\n0 0\n");
        assert_eq!(blocks, Ok(1), "read as the judge reads it");
        let warning = lines.warning().expect("two pieces on line 2");
        assert_eq!(warning.span, 9..13);
        assert!(
            warning.message.starts_with("more on this line after piece 1 of block 1, "),
            "{}",
            warning.message
        );
        let (_, lines) = lines_of("1\n1\nFFFF\n0\n0");
        assert_eq!(lines.warning().map(|warning| warning.span.clone()), Some(1..1));
        assert_eq!(lines.more(), 1, "the terminator too");
        for src in ["1 2\nFOFF\nFFFI\n\n0 0\n", "1 1\r\nFFFF\r\n", ""] {
            let (blocks, lines) = lines_of(src);
            assert!(blocks.is_ok() && lines.are_aligned(), "{src:?}");
        }
    }

    #[test]
    fn bad_input_is_located() {
        let piece_1 = "piece 1 of 1: four letters F, O or I (top, right, bottom, left)";
        for (src, span, message) in [
            ("1 1\nFFfF\n", 4..8, format!("expected {piece_1}, found `FFfF`")),
            ("1 1\nFFF\n", 4..7, format!("expected {piece_1}, found `FFF`")),
            ("1 1\nFFFFF\n", 4..9, format!("expected {piece_1}, found `FFFFF`")),
            ("1 1\n", 3..3, format!("expected {piece_1}, found end of input")),
            (
                "41 1\n",
                0..2,
                "expected a row count from 1 to 40 (or `0 0` to end the input), found `41`".to_owned(),
            ),
            ("2 0\n", 2..3, "expected a column count from 1 to 40, found `0`".to_owned()),
            ("0 3\n", 2..3, "expected 0 after a row count of 0 (`0 0` ends the input), found `3`".to_owned()),
            ("0 0\n1 1\n", 4..5, "expected nothing after the terminating `0 0`, found `1`".to_owned()),
            (
                "x",
                0..1,
                "expected a row count from 1 to 40 (or `0 0` to end the input), found `x`".to_owned(),
            ),
        ] {
            let err = parse(src).unwrap_err();
            assert_eq!((err.span, err.message.as_str()), (span, message.as_str()), "{src:?}");
        }
    }
}
