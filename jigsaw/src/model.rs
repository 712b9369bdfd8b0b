//! Sides, pieces, blocks and assembled rectangles.

use std::fmt;

use common::flat::{FlatGroups, Group};
use common::{Direction, Grid};
use itertools::Itertools;

/// Largest accepted number of rows or columns (the judge stops at 6): 1,600 pieces at most,
/// past the common 1,000-piece puzzles (25 × 40, 32 × 32).
pub const MAX_SIDE: usize = 40;

// The search takes boards up to its own capacity; a block's size is stored in a byte.
const _: () = assert!(MAX_SIDE <= common::edge_match::MAX_SIDE && MAX_SIDE <= u8::MAX as usize);

/// One side of a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// `F`: flat, for the rectangle's border only.
    Flat,
    /// `O`: a knob, which fits into a hole.
    Out,
    /// `I`: a hole, which takes a knob.
    In,
}

impl Side {
    /// All three, in the order of their labels in the search (`F` = 0, `O` = 1, `I` = 2).
    pub const ALL: [Side; 3] = [Side::Flat, Side::Out, Side::In];

    /// The letter of the input format.
    pub const fn letter(self) -> char {
        match self {
            Side::Flat => 'F',
            Side::Out => 'O',
            Side::In => 'I',
        }
    }

    /// The side written as `letter`, if it is one of `F`, `O`, `I`.
    pub const fn from_letter(letter: u8) -> Option<Side> {
        match letter {
            b'F' => Some(Side::Flat),
            b'O' => Some(Side::Out),
            b'I' => Some(Side::In),
            _ => None,
        }
    }

    /// True when two sides may meet inside the rectangle: a knob and a hole.
    pub const fn fits(self, other: Side) -> bool {
        matches!((self, other), (Side::Out, Side::In) | (Side::In, Side::Out))
    }
}

/// A piece: four sides, clockwise from the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece {
    /// The top, right, bottom and left side, indexed by [`Direction`].
    pub sides: [Side; 4],
}

impl Piece {
    /// The side facing `direction`.
    pub const fn side(self, direction: Direction) -> Side {
        self.sides[direction.index()]
    }

    /// The piece turned clockwise by `quarter_turns` quarter turns: the top side goes right.
    #[must_use]
    pub fn rotated(self, quarter_turns: usize) -> Piece {
        Piece { sides: std::array::from_fn(|side| self.sides[(side + 4 - quarter_turns % 4) % 4]) }
    }

    /// The piece's distinct orientations, starting with itself (1, 2 or 4 of them).
    pub fn orientations(self) -> Vec<Piece> {
        (0..4).map(|turns| self.rotated(turns)).unique().collect()
    }

    /// The same representative for every rotation of a piece (its smallest orientation).
    #[must_use]
    pub fn canonical(self) -> Piece {
        (0..4).map(|turns| self.rotated(turns)).min().expect("four orientations")
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.sides.iter().try_for_each(|side| write!(f, "{}", side.letter()))
    }
}

/// One block of the input: the rectangle's size and its `rows * cols` pieces, in input order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Rows of the rectangle, 1..=[`MAX_SIDE`].
    pub rows: usize,
    /// Columns of the rectangle, 1..=[`MAX_SIDE`].
    pub cols: usize,
    /// The pieces; exactly `rows * cols` of them.
    pub pieces: Vec<Piece>,
}

/// An assembled (or proposed) rectangle: each cell holds its piece as placed, so turned when
/// rotation is allowed.
pub type Assembly = Grid<Piece>;

/// Every block of an input, stored flat: two bytes per block (its rows and columns) and the
/// four sides of each piece, all blocks' pieces in one vector. A [`Block`] apiece would need
/// several times the input's size; this needs four fifths of it at most (a piece is at least
/// five bytes of input and four here, a size at least four bytes and two here).
pub type Blocks = FlatGroups<Block>;

impl Group for Block {
    /// Rows and columns, each 1..=[`MAX_SIDE`].
    type Header = [u8; 2];
    type Item = Piece;

    fn items_of([rows, cols]: [u8; 2]) -> usize {
        usize::from(rows) * usize::from(cols)
    }

    fn build([rows, cols]: [u8; 2], pieces: &[Piece]) -> Self {
        Block { rows: rows.into(), cols: cols.into(), pieces: pieces.to_vec() }
    }

    fn parts(&self) -> ([u8; 2], &[Piece]) {
        ([self.rows as u8, self.cols as u8], &self.pieces)
    }
}

impl Block {
    /// Distinct pieces with how many of each there are, in order of first appearance. With
    /// `rotate`, pieces that are rotations of each other count as one, represented by the first
    /// of them in the input.
    pub fn kinds(&self, rotate: bool) -> Vec<(Piece, u32)> {
        let key = |piece: Piece| if rotate { piece.canonical() } else { piece };
        let counts = self.pieces.iter().map(|&piece| key(piece)).counts();
        self.pieces
            .iter()
            .copied()
            .unique_by(|&piece| key(piece))
            .map(|piece| (piece, counts[&key(piece)] as u32))
            .collect()
    }

    /// True when `assembly` is a solution of this block: the right size, flat sides exactly on
    /// the border, a knob meeting a hole at every inner joint, and exactly this block's pieces
    /// (as a multiset; with `rotate`, each up to rotation).
    pub fn is_solution(&self, assembly: &Assembly, rotate: bool) -> bool {
        if assembly.rows() != self.rows || assembly.cols() != self.cols {
            return false;
        }
        let fits = assembly.positions().all(|pos| {
            Direction::ALL.into_iter().all(|direction| {
                let side = assembly[pos].side(direction);
                match assembly.neighbour(pos, direction) {
                    None => side == Side::Flat,
                    Some(next) => side.fits(assembly[next].side(direction.opposite())),
                }
            })
        });
        let key = |piece: &Piece| if rotate { piece.canonical() } else { *piece };
        fits && assembly.cells().iter().map(key).sorted().eq(self.pieces.iter().map(key).sorted())
    }
}

/// Parses a piece written as four letters, for tests and examples.
///
/// # Panics
/// When `word` is not four letters `F`, `O`, `I`.
pub fn piece(word: &str) -> Piece {
    let bytes = word.as_bytes();
    assert_eq!(bytes.len(), 4, "a piece is four letters: {word:?}");
    Piece { sides: std::array::from_fn(|i| Side::from_letter(bytes[i]).expect("a letter F, O or I")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Block {
        let words = "FOOF FOOI FFOI IOFF IOFI IFFI";
        Block { rows: 2, cols: 3, pieces: words.split(' ').map(piece).collect() }
    }

    #[test]
    fn rotation_moves_the_top_to_the_right() {
        let p = piece("FOIF");
        assert_eq!(p.rotated(1), piece("FFOI"));
        assert_eq!(p.rotated(2), piece("IFFO"));
        assert_eq!(p.rotated(4), p);
        assert_eq!(piece("OIOI").orientations(), [piece("OIOI"), piece("IOIO")]);
        assert_eq!(piece("OOOO").orientations().len(), 1);
        assert_eq!(piece("OIFF").orientations().len(), 4);
        assert_eq!(piece("IFFO").canonical(), piece("FFOI").canonical());
        assert_eq!(piece("IFFO").canonical(), piece("FFOI"));
    }

    #[test]
    fn recognises_a_solution_and_rejects_others() {
        let block = sample();
        let grid = |words: &str| Grid::from_vec(2, 3, words.split(' ').map(piece).collect());
        assert!(block.is_solution(&grid("FOOF FOOI FFOI IOFF IOFI IFFI"), false));
        // Joints fit but the pieces are not the block's.
        assert!(!block.is_solution(&grid("FOOF FOOI FFII IOFF IOFI OFFI"), false));
        // Two pieces exchanged: the joints no longer fit.
        assert!(!block.is_solution(&grid("FOOI FOOF FFOI IOFF IOFI IFFI"), false));
        // The wrong shape.
        assert!(!block.is_solution(&Grid::from_vec(3, 2, block.pieces.clone()), false));
    }

    #[test]
    fn rotated_pieces_are_the_same_piece_only_with_rotate() {
        let block = Block { rows: 1, cols: 2, pieces: vec![piece("FOFF"), piece("FIFF").rotated(1)] };
        let assembled = Grid::from_vec(1, 2, vec![piece("FOFF"), piece("FFFI")]);
        assert!(block.is_solution(&assembled, true));
        assert!(!block.is_solution(&assembled, false));
        assert_eq!(block.kinds(false).len(), 2);
        let twins = Block { rows: 1, cols: 2, pieces: vec![piece("FOFI"), piece("FIFO")] };
        assert_eq!(twins.kinds(false), [(piece("FOFI"), 1), (piece("FIFO"), 1)]);
        assert_eq!(twins.kinds(true), [(piece("FOFI"), 2)]);
    }

    #[test]
    fn blocks_keep_their_order_and_pieces() {
        let one = Block { rows: 1, cols: 1, pieces: vec![piece("FFFF")] };
        let blocks = vec![sample(), one, sample()];
        let stored: Blocks = blocks.iter().cloned().collect();
        assert_eq!(stored.len(), 3);
        assert_eq!(stored.iter().collect::<Vec<_>>(), blocks);
        assert!(Blocks::new().is_empty());
    }

    #[test]
    fn pieces_print_as_their_letters() {
        assert_eq!(piece("FOIF").to_string(), "FOIF");
    }
}
