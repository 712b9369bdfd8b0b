//! Pictures of games and solved boards for `--svg DIR`.
//!
//! A tile is drawn as GNOME Tetravex draws it: a square cut by its diagonals into four
//! triangles, each painted in the colour of its digit ([`common::svg::PALETTE`]) with the digit
//! printed on it. A game's sheet shows the empty board beside the tiles in input order, ready to
//! print and play; a solved board shows the tiles in place, matching colours meeting at every
//! joint.

use std::io;
use std::path::Path;

use common::svg::{self, CELL, FONT, LINE, Svg, inside_side};

use crate::model::{Board, Game, Tile};

/// Margin around the drawing.
const MARGIN: i32 = CELL / 2;

/// Space between loose tiles.
const GAP: i32 = CELL / 6;

/// How far in from its edge a digit is printed: where its triangle is wide enough for the glyph.
const DIGIT_INSET: i32 = CELL * 5 / 24;

/// The centroid of the triangle facing side `side` (top, right, bottom, left) of a tile drawn
/// at (`x`, `y`): where its colour is sure to show.
pub fn triangle_centre(x: i32, y: i32, side: usize) -> (i32, i32) {
    inside_side(x, y, side, CELL / 6)
}

/// Draws `tile` with its top left corner at (`x`, `y`).
fn draw_tile(svg: &mut Svg, x: i32, y: i32, tile: Tile) {
    let corners = [(x, y), (x + CELL, y), (x + CELL, y + CELL), (x, y + CELL)];
    let centre = (x + CELL / 2, y + CELL / 2);
    for (side, &digit) in tile.sides.iter().enumerate() {
        let digit = usize::from(digit);
        svg.polygon(&[corners[side], corners[(side + 1) % 4], centre], svg::fill(digit));
        let (text_x, text_y) = inside_side(x, y, side, DIGIT_INSET);
        svg.text(text_x, text_y, FONT, svg::ink(digit), &digit.to_string());
    }
}

/// Where loose tile `index` of a game of side `size` is drawn on its sheet: in rows of `size`
/// to the right of the empty board.
pub fn loose_tile_corner(size: usize, index: usize) -> (i32, i32) {
    let side = size as i32;
    let left = MARGIN + side * CELL + CELL;
    let (row, col) = ((index / size) as i32, (index % size) as i32);
    (left + col * (CELL + GAP), MARGIN + row * (CELL + GAP))
}

/// The sheet of `game`: the empty board, and the tiles as given, in input order.
pub fn sheet(game: &Game) -> String {
    let side = game.size as i32;
    let width = MARGIN + side * CELL + CELL + side * (CELL + GAP) - GAP + MARGIN;
    let height = 2 * MARGIN + side * (CELL + GAP) - GAP;
    let mut svg = Svg::new(width, height);
    svg.rect(MARGIN, MARGIN, side * CELL, side * CELL, svg::EMPTY);
    for line in 0..=side {
        let at = MARGIN + line * CELL;
        svg.polyline(&[(MARGIN, at), (MARGIN + side * CELL, at)], LINE, 1);
        svg.polyline(&[(at, MARGIN), (at, MARGIN + side * CELL)], LINE, 1);
    }
    for (index, &tile) in game.tiles.iter().enumerate() {
        let (x, y) = loose_tile_corner(game.size, index);
        draw_tile(&mut svg, x, y, tile);
    }
    svg.finish()
}

/// Where the tile in row `row`, column `col` of a solved board is drawn.
pub fn placed_tile_corner(row: usize, col: usize) -> (i32, i32) {
    (MARGIN + col as i32 * CELL, MARGIN + row as i32 * CELL)
}

/// The solved `board`, every tile in place.
pub fn board(board: &Board) -> String {
    let (width, height) = (board.cols() as i32 * CELL, board.rows() as i32 * CELL);
    let mut svg = Svg::new(width + 2 * MARGIN, height + 2 * MARGIN);
    for pos in board.positions() {
        let (x, y) = placed_tile_corner(pos.row, pos.col);
        draw_tile(&mut svg, x, y, board[pos]);
    }
    svg.frame(MARGIN, MARGIN, width, height, LINE, 2);
    svg.finish()
}

/// Writes the pictures of game `number`: `game-N-tiles.svg`, its sheet, and when it has one,
/// `game-N-board.svg`, a solved board.
pub fn write_game(dir: &Path, number: usize, game: &Game, solved: Option<&Board>) -> io::Result<()> {
    svg::write(dir, &format!("game-{number}-tiles.svg"), || sheet(game))?;
    if let Some(solved) = solved {
        svg::write(dir, &format!("game-{number}-board.svg"), || board(solved))?;
    }
    Ok(())
}

/// Writes the sheet of every game of `games` (`game-N-tiles.svg`), for `gen --svg`: the
/// puzzles without their solutions.
pub fn write_sheets(dir: &Path, games: &[Game]) -> io::Result<()> {
    for (index, game) in games.iter().enumerate() {
        write_game(dir, index + 1, game, None)?;
    }
    Ok(())
}
