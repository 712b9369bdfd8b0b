//! Pictures of boards and removals for `--svg DIR`.
//!
//! A piece is a square in its kind's colour with the kind printed on it; an empty cell is grey;
//! the ring of empty space around the board, where `--outside` lets lines run, is the white
//! margin. A line joining two pieces runs from the edge of one, through the centres of the
//! cells it crosses, to the edge of the other, in black on a white casing so that it shows on
//! every colour. A played deal is drawn once, every removal's line on it, with the removal's
//! number in the corner of its two pieces.
//!
//! A board of more than [`MAX_DRAWN`] rows or columns is drawn only around the line(s) it shows.

use std::io;
use std::path::Path;

use common::Pos;
use common::svg::{self, CELL, FONT, LINE, Svg};

use crate::model::{Board, EMPTY, Line, remove_pair};
use crate::parse;
use crate::play::Removal;

/// Most rows, and columns, a picture shows: the real game's largest deal (16×30) whole, while a
/// board of millions of cells never becomes a picture of millions of elements.
pub const MAX_DRAWN: usize = 64;

/// The colour of a line, and of its casing.
pub const PATH: &str = "#000000";
const CASING: &str = "#ffffff";

/// Room around the board: one cell, the ring outside it.
const MARGIN: i32 = CELL;

/// Size of the removal numbers.
const NUMBER: i32 = 10;

/// The rows and columns of a board a picture shows (1-based, first and count).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View {
    first: Pos,
    rows: usize,
    cols: usize,
}

impl View {
    /// The whole of `board` when it is no larger than [`MAX_DRAWN`] each way; else the part
    /// around `lines` with one cell to spare, if that is small enough.
    pub fn of(board: &Board, lines: &[&Line]) -> Option<View> {
        let (rows, cols) = (board.rows(), board.cols());
        if rows <= MAX_DRAWN && cols <= MAX_DRAWN {
            return Some(View { first: Pos::new(1, 1), rows, cols });
        }
        let points = || lines.iter().flat_map(|line| &line.points);
        let span = |value: fn(&Pos) -> usize, size: usize| {
            let least = points().map(value).min()?.saturating_sub(1).max(1);
            let most = (points().map(value).max()? + 1).min(size);
            (most + 1 - least <= MAX_DRAWN).then_some((least, most + 1 - least))
        };
        let (first_row, rows) = span(|pos| pos.row, rows)?;
        let (first_col, cols) = span(|pos| pos.col, cols)?;
        Some(View { first: Pos::new(first_row, first_col), rows, cols })
    }

    /// The centre of the cell at `pos` (1-based; 0 and one past the board are the ring).
    pub fn centre(&self, pos: Pos) -> (i32, i32) {
        let x = MARGIN + (pos.col as i32 - self.first.col as i32) * CELL + CELL / 2;
        let y = MARGIN + (pos.row as i32 - self.first.row as i32) * CELL + CELL / 2;
        (x, y)
    }

    fn size(&self) -> (i32, i32) {
        (2 * MARGIN + self.cols as i32 * CELL, 2 * MARGIN + self.rows as i32 * CELL)
    }
}

/// A picture saying why there is none: the board is too large to show.
fn not_drawn(board: &Board) -> String {
    let mut svg = Svg::new(16 * CELL, CELL);
    let (rows, cols) = (board.rows(), board.cols());
    svg.caption(CELL / 4, CELL / 2 + FONT / 3, &format!("not drawn: the board is {rows} by {cols} cells"));
    svg.finish()
}

/// `board`, with `lines` drawn on it, each numbered when it has a number.
fn draw(board: &Board, lines: &[(Option<usize>, &Line)]) -> String {
    let plain: Vec<&Line> = lines.iter().map(|&(_, line)| line).collect();
    let Some(view) = View::of(board, &plain) else { return not_drawn(board) };
    let (width, height) = view.size();
    let mut svg = Svg::new(width, height);
    let cells = || {
        let rows = view.first.row..view.first.row + view.rows;
        rows.flat_map(move |row| {
            (view.first.col..view.first.col + view.cols).map(move |col| Pos::new(row, col))
        })
    };
    let kind_at = |pos: Pos| board[Pos::new(pos.row - 1, pos.col - 1)];
    for pos in cells() {
        let (x, y) = view.centre(pos);
        let fill = match kind_at(pos) {
            EMPTY => svg::EMPTY,
            kind => svg::fill(kind as usize),
        };
        svg.rect(x - CELL / 2, y - CELL / 2, CELL, CELL, fill);
    }
    let (left, top) = view.centre(view.first);
    svg.frame(left - CELL / 2, top - CELL / 2, view.cols as i32 * CELL, view.rows as i32 * CELL, LINE, 1);
    for &(_, line) in lines {
        draw_line(&mut svg, &view, line);
    }
    // The kinds and numbers go over the lines, which would hide them.
    for pos in cells().filter(|&pos| kind_at(pos) != EMPTY) {
        let ((x, y), kind) = (view.centre(pos), kind_at(pos));
        // Kinds of three digits and more in a smaller font, to stay inside their cell.
        let size = if kind < 100 { FONT } else { FONT * 3 / 4 };
        svg.text(x, y, size, svg::ink(kind as usize), &kind.to_string());
    }
    for &(number, line) in lines {
        let Some(number) = number else { continue };
        for end in [line.points[0], line.points[line.points.len() - 1]] {
            let (x, y) = view.centre(end);
            let ink = svg::ink(kind_at(end) as usize);
            svg.text(x - CELL / 4, y - CELL / 3, NUMBER, ink, &number.to_string());
        }
    }
    svg.finish()
}

/// Draws `line` from the edge of its first cell to the edge of its last.
fn draw_line(svg: &mut Svg, view: &View, line: &Line) {
    let mut points: Vec<(i32, i32)> = line.points.iter().map(|&pos| view.centre(pos)).collect();
    let last = points.len() - 1;
    for (end, next) in [(0, 1), (last, last - 1)] {
        let ((x, y), (to_x, to_y)) = (points[end], points[next]);
        points[end] = (x + (to_x - x).signum() * CELL / 2, y + (to_y - y).signum() * CELL / 2);
    }
    svg.polyline(&points, CASING, 5);
    svg.polyline(&points, PATH, 2);
}

/// `board` alone, as dealt: a sheet to print.
pub fn sheet(board: &Board) -> String {
    draw(board, &[])
}

/// `board` with the line of a query answered YES.
pub fn query(board: &Board, line: &Line) -> String {
    draw(board, &[(None, line)])
}

/// The deal `board` with every removal's line drawn on it and numbered in order. Without
/// gravity every line runs over cells that were empty at its turn, so one picture tells the
/// whole game.
pub fn removals(board: &Board, removals: &[Removal]) -> String {
    let lines: Vec<(Option<usize>, &Line)> =
        removals.iter().enumerate().map(|(index, removal)| (Some(index + 1), &removal.line)).collect();
    draw(board, &lines)
}

/// Writes `case-K-query-J.svg` for query J of case K, answered YES by `line`.
pub fn write_query(
    dir: &Path,
    case: usize,
    query_number: usize,
    board: &Board,
    line: &Line,
) -> io::Result<()> {
    svg::write(dir, &format!("case-{case}-query-{query_number}.svg"), &query(board, line))
}

/// Writes the pictures of case `case` played by `removals`: `case-K-removals.svg`, the deal
/// with every line numbered ([`removals`]); with gravity, where pieces move after each removal,
/// the deal alone, and `case-K-removal-N.svg`, the board just before removal N with its line.
pub fn write_game(
    dir: &Path,
    case: usize,
    board: &Board,
    played: &[Removal],
    gravity: bool,
) -> io::Result<()> {
    if !gravity {
        return svg::write(dir, &format!("case-{case}-removals.svg"), &removals(board, played));
    }
    svg::write(dir, &format!("case-{case}-removals.svg"), &sheet(board))?;
    let mut board = board.clone();
    for (index, removal) in played.iter().enumerate() {
        let number = index + 1;
        let picture = draw(&board, &[(Some(number), &removal.line)]);
        svg::write(dir, &format!("case-{case}-removal-{number}.svg"), &picture)?;
        remove_pair(&mut board, removal.a, removal.b, true);
    }
    Ok(())
}

/// Writes `case-K.svg`, the board of every case of the generated input `generated`, for `gen
/// --svg`.
pub fn write_sheets(dir: &Path, generated: &[u8]) -> io::Result<()> {
    let mut reader = parse::Reader::new(generated);
    let mut number = 0;
    while let Some(case) = reader.next_case().map_err(|_| io::Error::other("generated an unreadable case"))? {
        number += 1;
        svg::write(dir, &format!("case-{number}.svg"), &sheet(&case.board))?;
        reader.recycle(case);
    }
    Ok(())
}
