//! Judge-format input → [`Game`](crate::model::Game)s.
//!
//! ```text
//! n            board side; 0 (or the end of input) ends the input
//! t r b l      n·n lines: top, right, bottom and left digit of a tile
//! ```
//!
//! Tokens are read as the judge reads them, across any whitespace. The format writes one record
//! a line (the side, each tile, the terminator): [`games_checking_lines`] also notes where the
//! lines and the records part ways (a tile line of three digits takes the next line's first),
//! for a warning.

use common::{Diagnostic, LineRecords, Tokens};

use crate::model::{Games, MAX_SIZE, Tile};

const SIDE_NAMES: [&str; 4] = ["top", "right", "bottom", "left"];

/// The format's rule for its lines, as warnings say it.
const ONE_TILE_A_LINE: &str = "the side and each tile on a line of their own";

/// Reads every game up to the terminating `0` (or the end of input) and checks that nothing but
/// whitespace follows it. The games are stored flat ([`Games`]): memory stays a fraction of the
/// input's size however many games it holds.
pub fn games(tokens: &mut Tokens<'_>) -> Result<Games, Diagnostic> {
    games_checking_lines(tokens, &mut LineRecords::default())
}

/// [`games`], noting in `lines` every line that does not hold exactly one record (a board side,
/// a tile, the terminator).
pub fn games_checking_lines(tokens: &mut Tokens<'_>, lines: &mut LineRecords) -> Result<Games, Diagnostic> {
    let mut games = Games::new();
    let mut game = 0;
    while !tokens.is_at_end() {
        game += 1;
        let what = format!("a board side from 1 to {MAX_SIZE} (or 0 to end the input)");
        let start = tokens.offset();
        let size = tokens.number(0..=MAX_SIZE as u64, &what)? as usize;
        if size == 0 {
            lines.check(tokens, start, ONE_TILE_A_LINE, || "the terminating 0".to_owned());
            tokens.expect_end("nothing after the terminating 0")?;
            break;
        }
        lines.check(tokens, start, ONE_TILE_A_LINE, || format!("the board side of game {game}"));
        games.start_group(size as u8);
        for tile in 1..=size * size {
            tokens.skip_whitespace();
            let start = tokens.offset();
            let mut sides = [0; 4];
            for (side, name) in sides.iter_mut().zip(SIDE_NAMES) {
                let what = || format!("a digit 0-9 for the {name} side of tile {tile}");
                *side = tokens.number_with(0..=9, what)? as u8;
            }
            lines.check(tokens, start, ONE_TILE_A_LINE, || format!("tile {tile} of game {game}"));
            games.push_item(Tile { sides });
        }
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Game;

    fn parse(src: &str) -> Result<Vec<Game>, Diagnostic> {
        games(&mut Tokens::new(src.as_bytes())).map(|games| games.iter().collect())
    }

    #[test]
    fn reads_games_until_the_terminator() {
        let games = parse("1\n1 2 3 4\n2\n0 0 0 0\n1 1 1 1\n2 2 2 2\n3 3 3 3\n0\n").unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0], Game { size: 1, tiles: vec![Tile::new(1, 2, 3, 4)] });
        assert_eq!(games[1].tiles[3], Tile::new(3, 3, 3, 3));
    }

    #[test]
    fn end_of_input_may_replace_the_terminator() {
        assert_eq!(parse("1\r\n9 9 9 9\r\n\r\n").unwrap().len(), 1);
        assert!(parse("").unwrap().is_empty());
    }

    fn lines_of(src: &str) -> (Result<usize, Diagnostic>, LineRecords) {
        let mut lines = LineRecords::default();
        let games = games_checking_lines(&mut Tokens::new(src.as_bytes()), &mut lines);
        (games.map(|games| games.iter().count()), lines)
    }

    #[test]
    fn a_tile_line_of_three_digits_is_read_as_the_judge_reads_it_and_warned_of() {
        // `1 2 3` and the terminator make a tile `1 2 3 0`: one game, and a warning at line 2.
        let (games, lines) = lines_of("1\n1 2 3\n0\n");
        assert_eq!(games, Ok(1));
        let warning = lines.warning().expect("line 2 holds three digits");
        assert_eq!(warning.span, 7..7);
        assert!(
            warning.message.starts_with("this line ends inside tile 1 of game 1, "),
            "{}",
            warning.message
        );
        // Five digits: the fifth starts tile 2, and the shift goes on to the end.
        let (games, lines) = lines_of("2\n1 2 3 4 5\n1 2 3 4\n1 2 3 4\n1 2 3 4\n0\n");
        assert!(games.is_err(), "the last tile runs into the terminator's line");
        assert_eq!(lines.warning().map(|warning| warning.span.clone()), Some(10..11));
        assert_eq!(lines.more(), 3, "tiles 2 to 4 straddle lines too");
        // A side line holding a tile.
        let (_, lines) = lines_of("1 5 5 5 5\n");
        assert!(lines.warning().expect("two records on line 1").message.contains("the board side of game 1"));
    }

    #[test]
    fn one_record_a_line_gives_no_warning() {
        for src in ["1\n1 2 3 4\n0\n", "2\r\n1 1 1 1\r\n2 2 2 2\r\n\r\n3 3 3 3\n4 4 4 4\n", "", "0"] {
            let (games, lines) = lines_of(src);
            assert!(games.is_ok() && lines.are_aligned(), "{src:?}");
        }
    }

    #[test]
    fn bad_input_is_located() {
        for (src, span, message) in [
            ("1\n1 2 10 4\n", 6..8, "expected a digit 0-9 for the bottom side of tile 1, found `10`"),
            ("17\n", 0..2, "expected a board side from 1 to 16 (or 0 to end the input), found `17`"),
            ("1\n1 2 3\n", 7..7, "expected a digit 0-9 for the left side of tile 1, found end of input"),
            ("1\n1 2 3 4\n0\n2\n", 12..13, "expected nothing after the terminating 0, found `2`"),
            ("x", 0..1, "expected a board side from 1 to 16 (or 0 to end the input), found `x`"),
        ] {
            let err = parse(src).unwrap_err();
            assert_eq!((err.span, err.message.as_str()), (span, message), "{src:?}");
        }
    }
}
