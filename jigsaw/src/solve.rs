//! The fast solver: the block relabelled into the matching form of [`common::edge_match`],
//! whose search does the work.
//!
//! Relabelling: `F` = 0, `O` = 1, `I` = 2, and on the left and top sides of every piece `O` and
//! `I` are exchanged, so that "a knob meets a hole" becomes "equal labels meet"; the border is
//! [`Border::Fixed`]`(0)`: flat exactly on the border. With rotation, a piece's orientations are
//! its distinct rotations, each relabelled after turning it.

use common::Grid;
use common::edge_match::{self, Border, Config, Kind, Puzzle};
use common::search::Outcome;

use crate::model::{Assembly, Block, Piece, Side};

/// The label of the flat side, the fixed border label.
const FLAT: u8 = 0;

/// A side's label as it stands on a right or bottom side.
const fn label(side: Side) -> u8 {
    match side {
        Side::Flat => FLAT,
        Side::Out => 1,
        Side::In => 2,
    }
}

/// A side's label as it stands on a left or top side: knob and hole exchanged.
const fn facing_label(side: Side) -> u8 {
    match side {
        Side::Flat => FLAT,
        Side::Out => 2,
        Side::In => 1,
    }
}

/// A piece in matching form: `[top, right, bottom, left]` labels.
pub fn matching_form(piece: Piece) -> [u8; 4] {
    let [top, right, bottom, left] = piece.sides;
    [facing_label(top), label(right), label(bottom), facing_label(left)]
}

/// The block as an edge-matching puzzle, with the piece each kind stands for. With `rotate`,
/// kinds are pieces up to rotation and list their distinct orientations, in the order of
/// [`Piece::orientations`].
pub fn puzzle(block: &Block, rotate: bool) -> (Puzzle, Vec<Piece>) {
    let kinds = block.kinds(rotate);
    let puzzle = Puzzle {
        rows: block.rows,
        cols: block.cols,
        labels: 3,
        border: Border::Fixed(FLAT),
        kinds: kinds
            .iter()
            .map(|&(piece, count)| {
                let orientations = if rotate { piece.orientations() } else { vec![piece] };
                Kind { count, orientations: orientations.into_iter().map(matching_form).collect() }
            })
            .collect(),
    };
    (puzzle, kinds.into_iter().map(|(piece, _)| piece).collect())
}

/// Whether the block has as many knobs as holes, as every inner joint takes one of each. The
/// shared search checks this per side for pieces that keep their orientation; turning a piece
/// carries its sides between the knob-hole-exchanged left and top and the others, so with
/// rotation the plain count is checked here.
pub fn knobs_meet_holes(block: &Block) -> bool {
    let sides = block.pieces.iter().flat_map(|piece| piece.sides);
    let balance: i64 = sides.map(|side| i64::from(side == Side::Out) - i64::from(side == Side::In)).sum();
    balance == 0
}

/// Whether the pieces of the frame can close into a ring, for pieces that may turn. Going
/// clockwise round the frame, an edge piece (one flat side, turned to the top) is entered from
/// its left and left by its right side; a corner (flat top and left) is entered from below and
/// left by its right side. Taking each frame piece as an edge from the side it needs at its
/// entrance (the one its entrance fits: a knob for a hole) to its exit, the whole frame is a
/// closed walk: every side kind is entered as often as left, and all edges hang together. The
/// shared search checks the four border lines only for pieces that keep their orientation;
/// this is the rotation-proof counterpart. True for rectangles one piece wide (no ring).
pub fn frame_closes(block: &Block) -> bool {
    if block.rows < 2 || block.cols < 2 {
        return true;
    }
    let flat = |piece: Piece, side: usize| piece.sides[side] == Side::Flat;
    // Frame pieces by (need at the entrance, exit): knob→knob, knob→hole, hole→knob, hole→hole.
    let mut edges = [0u32; 4];
    for &piece in &block.pieces {
        let flats = (0..4).filter(|&side| flat(piece, side)).count();
        // The turn putting a flat side on top and, for a corner, the other one on the left.
        let turned = (0..4).map(|turns| piece.rotated(turns)).find(|turned| match flats {
            1 => flat(*turned, 0),
            2 => flat(*turned, 0) && flat(*turned, 3),
            _ => false,
        });
        let Some(turned) = turned else { continue };
        let entrance = if flats == 1 { turned.sides[3] } else { turned.sides[2] };
        let needs_hole = entrance == Side::Out;
        let exit_hole = turned.sides[1] == Side::In;
        edges[usize::from(needs_hole) * 2 + usize::from(exit_hole)] += 1;
    }
    let [knob_knob, knob_hole, hole_knob, hole_hole] = edges;
    // Two labels: balanced when the walk crosses between them equally often both ways;
    // connected when it crosses at all, or when it only ever loops on one of them.
    knob_hole == hole_knob && (knob_hole > 0 || knob_knob == 0 || hole_hole == 0)
}

/// Whether the block passes every check that needs no search: knobs meet holes, the frame
/// closes (with rotation), and the shared search's root checks. False means the answer is NO.
pub fn passes_root_checks(block: &Block, rotate: bool) -> bool {
    knobs_meet_holes(block) && (!rotate || frame_closes(block)) && puzzle(block, rotate).0.check_counts()
}

/// Searches for up to `limit` solutions (rectangles differing in some cell's piece or turn), on
/// every core.
///
/// # Complexity
/// The checks that need no search are linear in the pieces and settle almost every block
/// broken by `swap` or `flip`; the search is exponential in the pieces in the worst case (edge
/// matching is NP-complete), bounded in memory by its table of dead ends.
///
/// # Panics
/// When the block is larger than [`MAX_SIDE`](crate::model::MAX_SIDE) a side, which the parser
/// refuses.
pub fn search(block: &Block, rotate: bool, limit: u64) -> Outcome<Assembly> {
    search_with(block, rotate, &Config::new(limit))
}

/// Searches as `config` says: up to `config.limit` solutions, on `config.threads` threads,
/// reporting to `config.progress`. The outcome's `nodes` counts placements tried.
///
/// # Complexity
/// As [`search`]; the answer is the same for any number of threads.
///
/// # Panics
/// As [`search`].
pub fn search_with(block: &Block, rotate: bool, config: &Config) -> Outcome<Assembly> {
    if !knobs_meet_holes(block) || (rotate && !frame_closes(block)) {
        return Outcome::none(0);
    }
    let (puzzle, pieces) = puzzle(block, rotate);
    edge_match::search(&puzzle, config).map(|solution| {
        // Without rotation every placement uses orientation 0, the piece as given.
        let cells = solution.cells().iter().map(|p| pieces[p.kind].orientations()[p.orientation]);
        Grid::from_vec(block.rows, block.cols, cells.collect())
    })
}

/// An assembled rectangle, or `None` when the pieces cannot form one.
///
/// # Panics
/// As [`search`].
pub fn solve(block: &Block, rotate: bool) -> Option<Assembly> {
    search(block, rotate, 1).first
}

/// The number of distinct assembled rectangles (differing in some cell's piece or turn),
/// stopping at `limit`.
///
/// # Complexity
/// As [`search`], growing with `limit`: every solution counted is visited.
///
/// # Panics
/// As [`search`].
pub fn count(block: &Block, rotate: bool, limit: u64) -> u64 {
    search(block, rotate, limit).found
}
