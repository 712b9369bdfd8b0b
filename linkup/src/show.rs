//! Drawings for `--show`: the region of the board around a joining line, with the line drawn.
//!
//! ```text
//!    1  2  3  4
//! 1 [1] 2  3  4
//! 2  +--------+
//! 3  4  3  2 [1]
//! ```
//!
//! The two pieces joined are in brackets, the line runs over the empty cells between them (`-`,
//! `|`, and `+` where it turns), other empty cells are `.`. The ring around the board is shown
//! where the line runs on it (`--outside`), blank elsewhere. Rows and columns are numbered as
//! in the input (the ring is row and column 0, and n + 1, m + 1).

use std::collections::HashMap;
use std::fmt::Write as _;

use common::Pos;

use crate::model::{Board, Line, kind_at, on_board};

/// Regions with more rows or columns than this are not drawn.
pub const MAX_DRAWN: usize = 60;

/// How the line passes a cell strictly between its ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stroke {
    Across,
    Down,
    /// A turn whose horizontal arm goes left.
    TurnLeft,
    /// A turn whose horizontal arm goes right.
    TurnRight,
}

/// The line's turns and ends as text, then the region around it drawn (or a note when it is
/// larger than [`MAX_DRAWN`]). Every line ends in `\n`.
pub fn line(board: &Board, line: &Line) -> String {
    let mut out = String::new();
    let turns = line.turns();
    let _ = write!(out, "{turns} {}:", if turns == 1 { "turn" } else { "turns" });
    for point in &line.points {
        let _ = write!(out, " ({},{})", point.row, point.col);
    }
    out.push('\n');

    // One cell of margin around the line, on the board, or on the ring where the line runs.
    let span = |values: Vec<usize>, size: usize| {
        let (least, most) =
            (values.iter().min().copied().unwrap_or(1), values.iter().max().copied().unwrap_or(1));
        least.saturating_sub(1).max(least.min(1))..=(most + 1).min(most.max(size))
    };
    let rows = span(line.points.iter().map(|p| p.row).collect(), board.rows());
    let cols = span(line.points.iter().map(|p| p.col).collect(), board.cols());
    if rows.clone().count() > MAX_DRAWN || cols.clone().count() > MAX_DRAWN {
        let _ = writeln!(
            out,
            "(not drawn: the region around the line is {} by {} cells)",
            rows.clone().count(),
            cols.clone().count()
        );
        return out;
    }

    let strokes = strokes(line);
    let ends = [line.points[0], line.points[line.points.len() - 1]];
    let digits = |n: usize| n.to_string().len();
    let kind_width = rows
        .clone()
        .flat_map(|row| cols.clone().map(move |col| Pos::new(row, col)))
        .filter(|&pos| on_board(board, pos))
        .map(|pos| digits(kind_at(board, pos) as usize))
        .max()
        .unwrap_or(1);
    let width = kind_width.max(digits(*cols.end()));
    let label_width = digits(*rows.end());

    let mut header = " ".repeat(label_width + 1);
    for col in cols.clone() {
        let _ = write!(header, " {col:>width$} ");
    }
    out.push_str(header.trim_end());
    out.push('\n');
    for row in rows {
        let mut text = format!("{row:>label_width$} ");
        for col in cols.clone() {
            let pos = Pos::new(row, col);
            let field = if ends.contains(&pos) {
                format!("[{:>width$}]", kind_at(board, pos))
            } else if let Some(stroke) = strokes.get(&pos) {
                let (before, mark, after) = match stroke {
                    Stroke::Across => ('-', '-', '-'),
                    Stroke::Down => (' ', '|', ' '),
                    Stroke::TurnLeft => ('-', '+', ' '),
                    Stroke::TurnRight => (' ', '+', '-'),
                };
                format!("{}{mark}{after}", before.to_string().repeat(width))
            } else if !on_board(board, pos) {
                " ".repeat(width + 2)
            } else if kind_at(board, pos) == 0 {
                format!("{}. ", " ".repeat(width))
            } else {
                format!(" {:>width$} ", kind_at(board, pos))
            };
            text.push_str(&field);
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

/// The whole board, rows and columns numbered, `.` for empty cells (or a note when it is
/// larger than [`MAX_DRAWN`]). Every line ends in `\n`.
pub fn board(board: &Board) -> String {
    let (rows, cols) = (board.rows(), board.cols());
    if rows > MAX_DRAWN || cols > MAX_DRAWN {
        return format!("(not drawn: the board is {rows} by {cols} cells)\n");
    }
    let digits = |n: usize| n.to_string().len();
    let kind_width = board.cells().iter().map(|&kind| digits(kind as usize)).max().unwrap_or(1);
    let width = kind_width.max(digits(cols));
    let label_width = digits(rows);
    let mut out = " ".repeat(label_width + 1);
    for col in 1..=cols {
        let _ = write!(out, " {col:>width$} ");
    }
    let mut out = out.trim_end().to_owned();
    out.push('\n');
    for (row, kinds) in board.iter_rows().enumerate() {
        let mut text = format!("{:>label_width$} ", row + 1);
        for &kind in kinds {
            if kind == 0 {
                let _ = write!(text, "{}. ", " ".repeat(width));
            } else {
                let _ = write!(text, " {kind:>width$} ");
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

/// The stroke at every cell the line passes strictly between its ends.
fn strokes(line: &Line) -> HashMap<Pos, Stroke> {
    let mut path = vec![line.points[0]];
    path.extend(line.inner_cells());
    path.push(line.points[line.points.len() - 1]);
    path.windows(3)
        .map(|cells| {
            let [before, cell, after] = [cells[0], cells[1], cells[2]];
            let horizontal = |other: Pos| other.row == cell.row;
            let stroke = match (horizontal(before), horizontal(after)) {
                (true, true) => Stroke::Across,
                (false, false) => Stroke::Down,
                _ => {
                    let side = if horizontal(before) { before } else { after };
                    if side.col < cell.col { Stroke::TurnLeft } else { Stroke::TurnRight }
                }
            };
            (cell, stroke)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use common::Grid;

    use super::*;

    #[test]
    fn draws_the_sample_line() {
        let board = Grid::from_vec(3, 4, vec![1, 2, 3, 4, 0, 0, 0, 0, 4, 3, 2, 1]);
        let p = Pos::new;
        let drawn = line(&board, &Line::through([p(1, 1), p(2, 1), p(2, 4), p(3, 4)]));
        assert_eq!(
            drawn,
            "2 turns: (1,1) (2,1) (2,4) (3,4)\n   1  2  3  4\n1 [1] 2  3  4\n2  +--------+\n3  4  3  2 [1]\n"
        );
    }

    #[test]
    fn draws_the_ring_when_the_line_goes_around() {
        let board = Grid::from_vec(2, 3, vec![1, 2, 1, 0, 3, 0]);
        let p = Pos::new;
        let drawn = line(&board, &Line::through([p(1, 1), p(0, 1), p(0, 3), p(1, 3)]));
        assert_eq!(
            drawn,
            "2 turns: (1,1) (0,1) (0,3) (1,3)\n   1  2  3\n0  +-----+\n1 [1] 2 [1]\n2  .  3  .\n"
        );
    }

    #[test]
    fn large_regions_are_not_drawn() {
        let board = Grid::from_vec(1, 100, (0..100).map(|c| u32::from(c == 0 || c == 99)).collect());
        let drawn = line(&board, &Line::through([Pos::new(1, 1), Pos::new(1, 100)]));
        assert_eq!(
            drawn,
            "0 turns: (1,1) (1,100)\n(not drawn: the region around the line is 1 by 100 cells)\n"
        );
    }
}
