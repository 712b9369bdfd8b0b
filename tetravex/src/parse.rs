//! Judge-format input → [`Game`](crate::model::Game)s.
//!
//! ```text
//! n            board side; 0 (or the end of input) ends the input
//! t r b l      n·n lines: top, right, bottom and left digit of a tile
//! ```

use common::{Diagnostic, Tokens};

use crate::model::{Games, MAX_SIZE, Tile};

const SIDE_NAMES: [&str; 4] = ["top", "right", "bottom", "left"];

/// Reads every game up to the terminating `0` (or the end of input) and checks that nothing but
/// whitespace follows it. The games are stored flat ([`Games`]): memory stays a fraction of the
/// input's size however many games it holds.
pub fn games(tokens: &mut Tokens<'_>) -> Result<Games, Diagnostic> {
    let mut games = Games::new();
    while !tokens.is_at_end() {
        let what = format!("a board side from 1 to {MAX_SIZE} (or 0 to end the input)");
        let size = tokens.number(0..=MAX_SIZE as u64, &what)? as usize;
        if size == 0 {
            tokens.expect_end("nothing after the terminating 0")?;
            break;
        }
        games.start_group(size as u8);
        for tile in 1..=size * size {
            let mut sides = [0; 4];
            for (side, name) in sides.iter_mut().zip(SIDE_NAMES) {
                let what = || format!("a digit 0-9 for the {name} side of tile {tile}");
                *side = tokens.number_with(0..=9, what)? as u8;
            }
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
