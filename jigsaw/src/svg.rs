//! Pictures of blocks and assembled rectangles for `--svg DIR`.
//!
//! A piece is drawn as its outline: a flat side straight, a knob as a round bump out of the
//! side's middle, a hole as the same bump cut in, so knobs visibly fill holes in an assembled
//! rectangle and a turned piece looks turned. Pieces that are the same up to turning share a
//! colour, numbered by first appearance in the block, and each piece's word (its sides' letters
//! `F`, `O`, `I` clockwise from the top, as placed) is printed in its middle. A block's sheet
//! shows the empty rectangle beside the pieces as given, in input order, ready to print and play.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use common::svg::{self, CELL, LINE, Svg};
use itertools::Itertools;

use crate::model::{Assembly, Block, Piece, Side};

/// Radius of a knob or hole: small enough that a hole never reaches the piece's centre.
pub const KNOB: i32 = CELL * 3 / 16;

/// Margin around the drawing, room for the knobs of the border pieces.
const MARGIN: i32 = CELL / 2;

/// Space between loose pieces, beside the room their knobs take.
const GAP: i32 = CELL / 6;

/// Size of a piece's word: its four letters fit between the holes of its left and right sides
/// (a capital is about two thirds of the font size wide).
const WORD: i32 = 10;

const _: () = assert!(4 * WORD * 2 / 3 < CELL - 2 * KNOB);

/// The colours of a block's pieces: pieces equal up to turning are one kind, numbered in order
/// of first appearance.
#[derive(Debug, Clone)]
pub struct Kinds {
    canonical: Vec<Piece>,
}

impl Kinds {
    /// The kinds of the pieces of `block`.
    pub fn of(block: &Block) -> Kinds {
        Kinds { canonical: block.pieces.iter().map(|piece| piece.canonical()).unique().collect() }
    }

    /// The colour of `piece` (turned or not), an index into [`svg::PALETTE`]; its darkest and
    /// lightest colours are kept for lines and the background.
    ///
    /// # Panics
    /// When `piece` is no piece of the block.
    pub fn colour(&self, piece: Piece) -> usize {
        let canonical = piece.canonical();
        let kind = self.canonical.iter().position(|&known| known == canonical).expect("a piece of the block");
        1 + kind % (svg::PALETTE.len() - 2)
    }
}

/// Draws `piece` with the top left corner of its square at (`x`, `y`).
fn draw_piece(svg: &mut Svg, x: i32, y: i32, piece: Piece, colour: usize) {
    let corners = [(x, y), (x + CELL, y), (x + CELL, y + CELL), (x, y + CELL)];
    let mut data = format!("M{x},{y}");
    for (side, &kind) in piece.sides.iter().enumerate() {
        let ((ax, ay), (bx, by)) = (corners[side], corners[(side + 1) % 4]);
        let (ux, uy) = ((bx - ax) / CELL, (by - ay) / CELL);
        if kind != Side::Flat {
            let near = CELL / 2 - KNOB;
            let far = CELL / 2 + KNOB;
            // Sides run clockwise, so a clockwise arc bulges out of the piece.
            let sweep = u8::from(kind == Side::Out);
            let _ = write!(
                data,
                " L{},{} A{KNOB},{KNOB} 0 0 {sweep} {},{}",
                ax + ux * near,
                ay + uy * near,
                ax + ux * far,
                ay + uy * far
            );
        }
        let _ = write!(data, " L{bx},{by}");
    }
    data.push_str(" Z");
    svg.path(&data, svg::fill(colour));
    svg.text(x + CELL / 2, y + CELL / 2, WORD, svg::ink(colour), &piece.to_string());
}

/// Where loose piece `index` of a block is drawn on its sheet: in rows of the block's columns,
/// to the right of the empty rectangle.
pub fn loose_piece_corner(block: &Block, index: usize) -> (i32, i32) {
    let pitch = CELL + 2 * KNOB + GAP;
    let left = MARGIN + block.cols as i32 * CELL + CELL + KNOB;
    let (row, col) = ((index / block.cols) as i32, (index % block.cols) as i32);
    (left + col * pitch, MARGIN + row * pitch)
}

/// The sheet of `block`: the empty rectangle, and the pieces as given, in input order.
pub fn sheet(block: &Block) -> String {
    let (rows, cols) = (block.rows as i32, block.cols as i32);
    let pitch = CELL + 2 * KNOB + GAP;
    let width = MARGIN + cols * CELL + CELL + cols * pitch - GAP + MARGIN;
    let height = 2 * MARGIN + (rows * CELL).max(rows * pitch - GAP - 2 * KNOB);
    let mut svg = Svg::new(width, height);
    svg.rect(MARGIN, MARGIN, cols * CELL, rows * CELL, svg::EMPTY);
    svg.frame(MARGIN, MARGIN, cols * CELL, rows * CELL, LINE, 2);
    let kinds = Kinds::of(block);
    for (index, &piece) in block.pieces.iter().enumerate() {
        let (x, y) = loose_piece_corner(block, index);
        draw_piece(&mut svg, x, y, piece, kinds.colour(piece));
    }
    svg.finish()
}

/// Where the piece in row `row`, column `col` of an assembled rectangle is drawn.
pub fn placed_piece_corner(row: usize, col: usize) -> (i32, i32) {
    (MARGIN + col as i32 * CELL, MARGIN + row as i32 * CELL)
}

/// The assembled rectangle of `block`, every piece in place as turned.
pub fn assembly(block: &Block, assembly: &Assembly) -> String {
    let (width, height) = (assembly.cols() as i32 * CELL, assembly.rows() as i32 * CELL);
    let mut svg = Svg::new(width + 2 * MARGIN, height + 2 * MARGIN);
    let kinds = Kinds::of(block);
    for pos in assembly.positions() {
        let (x, y) = placed_piece_corner(pos.row, pos.col);
        draw_piece(&mut svg, x, y, assembly[pos], kinds.colour(assembly[pos]));
    }
    svg.finish()
}

/// Writes the pictures of block `number`: `block-N-pieces.svg`, its sheet, and when it has
/// one, `block-N-assembly.svg`, an assembled rectangle.
pub fn write_block(dir: &Path, number: usize, block: &Block, assembled: Option<&Assembly>) -> io::Result<()> {
    svg::write(dir, &format!("block-{number}-pieces.svg"), || sheet(block))?;
    if let Some(assembled) = assembled {
        svg::write(dir, &format!("block-{number}-assembly.svg"), || assembly(block, assembled))?;
    }
    Ok(())
}

/// Writes the sheet of every block of `blocks` (`block-N-pieces.svg`), for `gen --svg`: the
/// puzzles without their solutions.
pub fn write_sheets(dir: &Path, blocks: &[Block]) -> io::Result<()> {
    for (index, block) in blocks.iter().enumerate() {
        write_block(dir, index + 1, block, None)?;
    }
    Ok(())
}
