//! Judge-format input → [`Block`](crate::model::Block)s.
//!
//! ```text
//! n m      rows and columns, 1..=16 each; `0 0` (or the end of input) ends the input
//! word     n·m words of four letters F, O, I: the top, right, bottom and left side of a piece
//! ```

use common::{Diagnostic, Tokens};

use crate::model::{Blocks, MAX_SIDE, Piece, Side};

/// Reads every block up to the terminating `0 0` (or the end of input) and checks that nothing
/// but whitespace follows it. The blocks are stored flat ([`Blocks`]): memory stays a fraction
/// of the input's size however many blocks it holds.
pub fn blocks(tokens: &mut Tokens<'_>) -> Result<Blocks, Diagnostic> {
    let mut blocks = Blocks::new();
    while !tokens.is_at_end() {
        let what = format!("a row count from 1 to {MAX_SIDE} (or `0 0` to end the input)");
        let rows = tokens.number(0..=MAX_SIDE as u64, &what)? as usize;
        if rows == 0 {
            tokens.number(0..=0, "0 after a row count of 0 (`0 0` ends the input)")?;
            tokens.expect_end("nothing after the terminating `0 0`")?;
            break;
        }
        let what = format!("a column count from 1 to {MAX_SIDE}");
        let cols = tokens.number(1..=MAX_SIDE as u64, &what)? as usize;
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
    fn bad_input_is_located() {
        let piece_1 = "piece 1 of 1: four letters F, O or I (top, right, bottom, left)";
        for (src, span, message) in [
            ("1 1\nFFfF\n", 4..8, format!("expected {piece_1}, found `FFfF`")),
            ("1 1\nFFF\n", 4..7, format!("expected {piece_1}, found `FFF`")),
            ("1 1\nFFFFF\n", 4..9, format!("expected {piece_1}, found `FFFFF`")),
            ("1 1\n", 3..3, format!("expected {piece_1}, found end of input")),
            (
                "17 1\n",
                0..2,
                "expected a row count from 1 to 16 (or `0 0` to end the input), found `17`".to_owned(),
            ),
            ("2 0\n", 2..3, "expected a column count from 1 to 16, found `0`".to_owned()),
            ("0 3\n", 2..3, "expected 0 after a row count of 0 (`0 0` ends the input), found `3`".to_owned()),
            ("0 0\n1 1\n", 4..5, "expected nothing after the terminating `0 0`, found `1`".to_owned()),
            (
                "x",
                0..1,
                "expected a row count from 1 to 16 (or `0 0` to end the input), found `x`".to_owned(),
            ),
        ] {
            let err = parse(src).unwrap_err();
            assert_eq!((err.span, err.message.as_str()), (span, message.as_str()), "{src:?}");
        }
    }
}
