//! Drawings for `--show`: the board before the first move and after each move (once settled),
//! side by side, five boards to a band. A cell is its colour as a digit (colour 10 as `0`), `.`
//! when empty; the top row first, the ground under the bottom row:
//!
//! ```text
//! start      1: 0 0 1   2: 3 0 -1
//! 1 1 . 1 .  1 1 . 1 .  . . . . .
//! ---------  ---------  ---------
//! ```

use crate::board::Board;
use crate::model::{Move, WIDTH};

/// Boards side by side in one band.
const BAND: usize = 5;

/// Between two boards of a band.
const GAP: &str = "  ";

/// ANSI foreground colours for colours 1..=10.
const ANSI: [u8; 10] = [31, 32, 33, 34, 35, 36, 91, 92, 93, 94];

/// The board before each move and after the last, titled by the move that led to it. With
/// `ansi`, colours are drawn in colour (for a terminal).
///
/// # Panics
/// In debug builds, when a move is not legal where it is made ([`Board::apply`]).
pub fn sequence(start: &Board, moves: &[Move], ansi: bool) -> String {
    let mut boards = vec![("start".to_owned(), *start)];
    let mut board = *start;
    for (number, &mv) in moves.iter().enumerate() {
        board.apply(mv);
        boards.push((format!("{}: {mv}", number + 1), board));
    }
    let width = 2 * WIDTH - 1;
    let mut out = String::new();
    for (index, band) in boards.chunks(BAND).enumerate() {
        if index > 0 {
            out.push('\n');
        }
        let top =
            band.iter().flat_map(|(_, board)| (0..WIDTH).map(|x| board.height(x))).max().unwrap_or(0).max(1);
        let titles: Vec<String> = band.iter().map(|(title, _)| format!("{title:<width$}")).collect();
        push_line(&mut out, &titles);
        for y in (0..top).rev() {
            let rows: Vec<String> = band.iter().map(|(_, board)| row(board, y, ansi)).collect();
            push_line(&mut out, &rows);
        }
        push_line(&mut out, &vec!["-".repeat(width); band.len()]);
    }
    out
}

fn push_line(out: &mut String, parts: &[String]) {
    out.push_str(parts.join(GAP).trim_end());
    out.push('\n');
}

/// Row `y` of `board`: five cells separated by spaces.
fn row(board: &Board, y: usize, ansi: bool) -> String {
    let cells: Vec<String> = (0..WIDTH)
        .map(|x| match board.cell(x, y) {
            0 => ".".to_owned(),
            colour => {
                let digit = colour % 10;
                if ansi {
                    format!("\x1b[1;{}m{digit}\x1b[0m", ANSI[colour as usize - 1])
                } else {
                    digit.to_string()
                }
            }
        })
        .collect();
    cells.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_each_board_after_its_move() {
        let start = Board::from_picture(&["a....", "11.1."]);
        let drawn = sequence(&start, &[Move::new(3, 0, -1)], false);
        // The dragged 1 completes the bottom row, which vanishes; the 10 falls.
        let expected =
            "start      1: 3 0 -1\n0 . . . .  . . . . .\n1 1 . 1 .  0 . . . .\n---------  ---------\n";
        assert_eq!(drawn, expected);
    }

    #[test]
    fn an_empty_board_keeps_one_row_and_long_sequences_wrap() {
        let start = Board::from_picture(&["1.1.."]);
        let moves = [
            Move::new(0, 0, 1),
            Move::new(1, 0, 1),
            Move::new(2, 0, -1),
            Move::new(1, 0, -1),
            Move::new(0, 0, 1),
        ];
        let drawn = sequence(&start, &moves, false);
        let lines: Vec<&str> = drawn.lines().collect();
        assert_eq!(lines.len(), 7, "{drawn}");
        assert_eq!(lines[4], "5: 0 0 1");
        assert!(lines.iter().all(|line| line.len() <= BAND * 11 && !line.ends_with(' ')));
    }

    #[test]
    fn ansi_colours_wrap_only_the_digits() {
        let drawn = sequence(&Board::from_picture(&["2...."]), &[], true);
        assert_eq!(drawn, "start\n\x1b[1;32m2\x1b[0m . . . .\n---------\n");
    }
}
