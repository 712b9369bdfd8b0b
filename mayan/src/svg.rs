//! Pictures of a puzzle and its solution for `--svg DIR`.
//!
//! A board is drawn as the game shows it, 5 columns of 7 cells over the ground, each block in
//! its colour, outlined, with the colour's number printed on it. The solution is a strip of panels: the
//! start, then the board after each move once its cascade has settled, each board with the two
//! cells the next move swaps marked by a thick outline and an arrow, and captioned with it.

use std::io;
use std::path::Path;

use common::svg::{self, CELL, FONT, LINE, Svg};

use crate::board::Board;
use crate::model::{HEIGHT, Move, Puzzle, WIDTH};

/// Margin around the drawing.
const MARGIN: i32 = CELL / 2;

/// Room for a board's two caption lines above it.
const TITLE: i32 = 2 * FONT + FONT / 2;

/// Space between two panels.
const GAP: i32 = CELL;

/// Panels to a row of the strip.
const PANELS_PER_ROW: usize = 4;

/// The outline of the cells a move swaps: a colour the palette does not use (Okabe–Ito's sky
/// blue), so it stands out on every block.
const MARK: &str = "#56b4e9";

const BOARD_WIDTH: i32 = WIDTH as i32 * CELL;
const BOARD_HEIGHT: i32 = HEIGHT as i32 * CELL;

/// The top left corner of the board of panel `panel`.
pub fn board_corner(panel: usize) -> (i32, i32) {
    let (row, col) = ((panel / PANELS_PER_ROW) as i32, (panel % PANELS_PER_ROW) as i32);
    (MARGIN + col * (BOARD_WIDTH + GAP), MARGIN + TITLE + row * (TITLE + BOARD_HEIGHT + GAP))
}

/// The centre of cell (`x`, `y`), counted from the bottom, of a board drawn at `corner`.
pub fn cell_centre((left, top): (i32, i32), x: usize, y: usize) -> (i32, i32) {
    (left + x as i32 * CELL + CELL / 2, top + (HEIGHT - 1 - y) as i32 * CELL + CELL / 2)
}

/// Draws `board` at `corner`, titled `title`, with the cells of `next` marked.
fn draw_board(svg: &mut Svg, corner: (i32, i32), board: &Board, title: &str, next: Option<Move>) {
    let (left, top) = corner;
    svg.caption(left, top - TITLE + FONT, title);
    svg.rect(left, top, BOARD_WIDTH, BOARD_HEIGHT, svg::EMPTY);
    for x in 0..WIDTH {
        for y in 0..board.height(x) {
            let colour = usize::from(board.cell(x, y));
            let (cx, cy) = cell_centre(corner, x, y);
            svg.square(cx - CELL / 2, cy - CELL / 2, CELL, svg::fill(colour));
            svg.text(cx, cy, FONT, svg::ink(colour), &colour.to_string());
        }
    }
    svg.polyline(
        &[(left - CELL / 4, top + BOARD_HEIGHT), (left + BOARD_WIDTH + CELL / 4, top + BOARD_HEIGHT)],
        LINE,
        3,
    );
    if let Some(mv) = next {
        svg.caption(left, top - FONT / 2, &format!("next: {mv}"));
        let target = (i32::from(mv.x) + i32::from(mv.g)) as usize;
        let from = cell_centre(corner, mv.x.into(), mv.y.into());
        let to = cell_centre(corner, target, mv.y.into());
        for (cx, cy) in [from, to] {
            svg.frame(cx - CELL / 2 + 2, cy - CELL / 2 + 2, CELL - 4, CELL - 4, MARK, 4);
        }
        // The arrow runs above the cells' centres, where the colours are read.
        let (y, head) = (from.1 - CELL / 4, (to.0 - from.0).signum() * CELL / 8);
        svg.polyline(&[(from.0, y), (to.0, y)], MARK, 3);
        svg.polyline(&[(to.0 - head, y - CELL / 8), (to.0, y), (to.0 - head, y + CELL / 8)], MARK, 3);
    }
}

/// A picture of `panels` boards, each with its title and the move marked on it.
fn strip(panels: &[(String, Board, Option<Move>)]) -> String {
    let columns = panels.len().min(PANELS_PER_ROW) as i32;
    let rows = panels.len().div_ceil(PANELS_PER_ROW) as i32;
    let width = 2 * MARGIN + columns * BOARD_WIDTH + (columns - 1) * GAP;
    let height = 2 * MARGIN + rows * (TITLE + BOARD_HEIGHT) + (rows - 1) * GAP;
    let mut svg = Svg::new(width, height);
    for (panel, (title, board, next)) in panels.iter().enumerate() {
        draw_board(&mut svg, board_corner(panel), board, title, *next);
    }
    svg.finish()
}

/// The puzzle as given: its board, titled with the number of moves to empty it.
pub fn sheet(puzzle: &Puzzle) -> String {
    let moves = puzzle.moves;
    let title = format!("empty in {moves} move{}", if moves == 1 { "" } else { "s" });
    strip(&[(title, Board::from_columns(&puzzle.columns), None)])
}

/// The solution `moves` of `puzzle`: the start and the board after each move, each with the
/// next move marked; or the start alone, titled "no solution".
pub fn solution(puzzle: &Puzzle, moves: Option<&[Move]>) -> String {
    let mut board = Board::from_columns(&puzzle.columns);
    let Some(moves) = moves else {
        return strip(&[("no solution".to_owned(), board, None)]);
    };
    let mut panels = vec![("start".to_owned(), board, moves.first().copied())];
    for (index, &mv) in moves.iter().enumerate() {
        board.apply(mv);
        panels.push((format!("after move {}: {mv}", index + 1), board, moves.get(index + 1).copied()));
    }
    strip(&panels)
}

/// Writes `puzzle.svg`, the puzzle as given, and `solution.svg`, its solution `moves` ([`solution`]).
pub fn write_solution(dir: &Path, puzzle: &Puzzle, moves: Option<&[Move]>) -> io::Result<()> {
    svg::write(dir, "puzzle.svg", || sheet(puzzle))?;
    svg::write(dir, "solution.svg", || solution(puzzle, moves))?;
    Ok(())
}

/// Writes `puzzle.svg`, the puzzle as given, for `gen --svg`.
pub fn write_sheet(dir: &Path, puzzle: &Puzzle) -> io::Result<()> {
    svg::write(dir, "puzzle.svg", || sheet(puzzle))?;
    Ok(())
}
