//! Tests of the search with gravity.

use proptest::prelude::*;

use super::columns::{Held, NO_KIND};
use super::grid::{LOW_BYTES, side_by_side};
use super::pairs::sunk_joinable;
use super::*;
use crate::clear::{DEFAULT_BUDGET, Settings};
use crate::model::{Board, Rules};

/// The search with gravity of `board` under the judge's rules, every piece on it.
fn search_of(board: &Board, rules: Rules) -> GravitySearch {
    GravitySearch::new(board, rules, DEFAULT_BUDGET, GRAVITY_MEMO_WORDS)
}

/// The search on `board` with the pieces of `kept` (by number) left and fallen: its key,
/// and the board it shows (kind + 1 per framed cell, 0 for empty).
fn key_and_board(board: &Board, kept: &[bool]) -> (Vec<u64>, Vec<u32>) {
    let mut search = search_of(board, Rules::default());
    for (piece, &kept) in kept.iter().enumerate() {
        if !kept {
            search.position.set_present(piece as u16, false);
        }
    }
    let width = search.columns.given().width();
    for col in 0..width {
        search.columns.settle(&mut search.position, col as u8);
    }
    search.columns.init(&search.position);
    let mut cells = vec![0; (board.rows() + 2) * width];
    for piece in 0..search.position.pieces() as u16 {
        if search.position.is_present(piece) {
            let (row, col) = search.position.cell(piece);
            cells[row as usize * width + col as usize] = search.position.kind(piece) as u32 + 1;
        }
    }
    (search.columns.key().to_vec(), cells)
}

/// A board of `rows × cols` whose column `c` holds `heights[c] % (rows + 1)` pieces at its
/// bottom, of kinds 1 and 2 (`kinds`, a bit per cell); with `gap`, a column of two or more
/// has its top piece one row higher, over an empty cell.
fn packed_board(rows: usize, cols: usize, heights: &[usize], kinds: u64, gap: bool) -> Board {
    let mut cells = vec![0; rows * cols];
    for col in 0..cols {
        let height = heights[col] % (rows + 1);
        for below in 0..height {
            let row = rows - 1 - below;
            cells[row * cols + col] = 1 + (kinds >> (row * cols + col) & 1) as u32;
        }
        if gap && height >= 2 && height < rows {
            let top = (rows - height) * cols + col;
            cells[top - cols] = cells[top];
            cells[top] = 0;
        }
    }
    Board::from_vec(rows, cols, cells)
}

/// Boards of [`packed_board`] of at most `side` rows and columns, and whether their columns
/// may have a gap.
fn packed_boards(side: usize) -> impl Strategy<Value = (Board, bool)> {
    (1..=side, 1..=side, proptest::collection::vec(0..=side, side), any::<u64>(), any::<bool>())
        .prop_map(|(rows, cols, heights, kinds, gap)| (packed_board(rows, cols, &heights, kinds, gap), gap))
}

proptest! {
    /// Two sets of pieces get the same key exactly when they leave the same board (columns
    /// given packed), and only then (any board).
    #[test]
    fn keys_name_boards(
        (board, gap) in packed_boards(4),
        first in proptest::collection::vec(any::<bool>(), 16),
        swaps in proptest::collection::vec((0usize..16, 0usize..16), 0..4),
    ) {
        let pieces = board.cells().iter().filter(|&&kind| kind != 0).count();
        let first = &first[..pieces];
        // The second set: the first with some pieces swapped for others, so that the
        // boards left are often the same. (A board with no pieces is kept, not rejected:
        // rejecting it made large case counts fail on too many rejects.)
        let mut second = first.to_vec();
        for &(a, b) in swaps.iter().filter(|_| pieces > 0) {
            second.swap(a % pieces, b % pieces);
        }
        let (first_key, first_board) = key_and_board(&board, first);
        let (second_key, second_board) = key_and_board(&board, &second);
        // Columns given with a gap keep the pieces as they are: their key may tell apart
        // sets that leave one board, but never mixes up two boards.
        if gap {
            prop_assert!(first_key != second_key || first_board == second_board);
        } else {
            prop_assert_eq!(first_key == second_key, first_board == second_board);
        }
    }
}

#[test]
fn two_pieces_of_a_kind_one_on_the_other_leave_one_board() {
    // Column 1 holds kinds 1, 1, 2 top to bottom: taking either 1 leaves the same board.
    let board = Board::from_vec(3, 2, vec![1, 0, 1, 0, 2, 2]);
    let (top_gone, top_board) = key_and_board(&board, &[false, true, true, true]);
    let (middle_gone, middle_board) = key_and_board(&board, &[true, false, true, true]);
    assert_eq!(top_board, middle_board);
    assert_eq!(top_gone, middle_gone);
    let (bottom_gone, bottom_board) = key_and_board(&board, &[true, true, false, true]);
    assert_ne!(top_board, bottom_board);
    assert_ne!(top_gone, bottom_gone);
}

/// What [`Columns`] holds now (see [`Held`]).
fn columns_now(search: &GravitySearch) -> Held {
    search.columns.held()
}

/// True when every piece's code (when held) names its kind and its index among the pieces of
/// its kind, found from the pieces' kinds and `members`.
fn codes_hold(search: &GravitySearch) -> bool {
    search.columns.code().iter().enumerate().all(|(piece, &code)| {
        let k = search.position.kind(piece as u16);
        let members = search.position.members_of(k);
        let index = members.iter().position(|&member| usize::from(member) == piece).expect("a member");
        (code.kind(), code.slot() as usize) == (k, index)
    })
}

/// The cells of the pieces present and the open cells (rows, columns) of `search`.
type Layout = (Vec<Option<Cell>>, Vec<u64>, Vec<u64>);

/// [`Layout`] of `search` now.
fn layout_now(search: &GravitySearch) -> Layout {
    let position = &search.position;
    let cells = (0..position.pieces() as u16)
        .map(|piece| position.is_present(piece).then(|| position.cell(piece)))
        .collect();
    (cells, position.bits().rows().to_vec(), position.bits().cols().to_vec())
}

/// [`Layout`] of `board` with the pieces present in `search`, every column laid out once
/// from the board as given.
fn layout_anew(board: &Board, search: &GravitySearch) -> Layout {
    let mut fresh = search_of(board, Rules::default());
    for piece in 0..fresh.position.pieces() as u16 {
        fresh.position.set_present(piece, search.position.is_present(piece));
    }
    // The board's columns (the ring's keep their bits).
    for col in 1..fresh.columns.given().width() - 1 {
        fresh.columns.settle(&mut fresh.position, col as u8);
    }
    layout_now(&fresh)
}

/// [`columns_now`] found from scratch.
fn columns_from_scratch(search: &mut GravitySearch) -> Held {
    let kept = columns_now(search);
    search.columns.init(&search.position);
    let fresh = columns_now(search);
    // `init` starts over; put back what was kept (equal when the test passes).
    search.columns.restore_held(kept);
    fresh
}

proptest! {
    /// Removals and their undoing keep [`Columns`] as it would be found from scratch and lay
    /// out the pieces as one laying out of the board as given does, and `hash_without`
    /// foresees the key and hash of each removal (boards given packed, with gaps or not).
    #[test]
    fn columns_follow_removals(
        (board, _) in packed_boards(5),
        picks in proptest::collection::vec((0usize..64, 0usize..64), 1..12),
    ) {
        let mut search = search_of(&board, Rules::default());
        search.columns.init(&search.position);
        let mut removed = 0;
        for &(first, second) in &picks {
            let position = &search.position;
            let present: Vec<u16> =
                (0..position.pieces() as u16).filter(|&piece| position.is_present(piece)).collect();
            if present.len() < 2 {
                break;
            }
            let a = present[first % present.len()];
            // A piece of the kind of `a` (removals keep counts even only per pair of a kind).
            let partners: Vec<u16> = present
                .iter()
                .copied()
                .filter(|&piece| piece != a && position.kind(piece) == position.kind(a))
                .collect();
            if partners.is_empty() {
                continue;
            }
            let b = partners[second % partners.len()];
            let mut foreseen = Vec::new();
            let (hash, _) = search.columns.hash_without(&search.position, a.min(b), a.max(b), &mut foreseen);
            search.remove(a.min(b), a.max(b));
            removed += 1;
            prop_assert_eq!(search.columns.hash(), hash);
            prop_assert_eq!(search.columns.key(), &foreseen[..]);
            prop_assert_eq!(columns_now(&search), columns_from_scratch(&mut search));
            prop_assert!(codes_hold(&search));
            prop_assert_eq!(layout_now(&search), layout_anew(&board, &search));
        }
        for _ in 0..removed {
            search.undo();
            prop_assert_eq!(columns_now(&search), columns_from_scratch(&mut search));
            prop_assert_eq!(layout_now(&search), layout_anew(&board, &search));
        }
    }

    /// [`sunk_joinable`] answers as the line check does for every sunk piece and every other
    /// piece (the outside open, two turns; boards packed or with a gap in a column).
    #[test]
    fn sunk_pieces_join_as_lines_do((board, _) in packed_boards(5)) {
        let search = search_of(&board, Rules { max_turns: 2, outside: true });
        let last = board.rows();
        let rows = search.position.bits().rows();
        let open = |(row, col): (usize, usize)| rows[row] >> col & 1 == 1;
        for &sunk in search.position.cells() {
            let (row, col) = (usize::from(sunk.0), usize::from(sunk.1));
            let is_sunk = row == last
                && open((row + 1, col))
                && !open((row, col - 1))
                && !open((row, col + 1))
                && !open((row - 1, col));
            if !is_sunk {
                continue;
            }
            for &other in search.position.cells().iter().filter(|&&other| other != sunk) {
                prop_assert_eq!(
                    sunk_joinable(search.position.bits().cols(), last, sunk, other),
                    search.position.bits().joinable(sunk, other, 2),
                    "{:?} and {:?}", sunk, other
                );
            }
        }
    }

    /// [`side_by_side`] marks exactly the cells holding a piece whose right neighbour (the
    /// next word's first cell after the last) or the one below holds a piece of its kind
    /// (bytes drawn from a few kinds and empty cells, so that matches are common).
    #[test]
    fn side_by_side_finds_equal_neighbours(cells in proptest::collection::vec(0u8..4, 24)) {
        let byte = |cell: u8| if cell == 3 { NO_KIND } else { cell };
        let word = |from: usize| (0..8).fold(0u64, |word, i| word | u64::from(byte(cells[from + i])) << (8 * i));
        let (right, down) = side_by_side(word(0), word(8), word(16));
        for i in 0..8 {
            let here = byte(cells[i]);
            let held = here != NO_KIND;
            prop_assert_eq!(right >> (8 * i + 7) & 1 == 1, held && here == byte(cells[i + 1]));
            prop_assert_eq!(down >> (8 * i + 7) & 1 == 1, held && here == byte(cells[16 + i]));
        }
        prop_assert_eq!((right | down) & !(LOW_BYTES << 7), 0);
    }
}

/// On a board whose pairs are looked for among all pieces of a kind, each position is charged
/// each line check it makes, those that fail included, since they cost as much as those that
/// find a pair.
#[test]
fn pairs_looked_for_among_all_pieces_are_charged_each_check() {
    // A 14 × 12 checkerboard of two kinds with its sixth and seventh rows empty, so that every
    // column has a gap: 72 pieces a kind, over the 64 whose pairs are found by cells. No two
    // pieces of a kind touch or face each other across the gap, and 12 of each have an open
    // side (those beside the gap; the outside is closed): the 66 pairs of each kind's open
    // pieces are checked, and with straight lines only none is joined, so the board is
    // hopeless at its first position.
    let mut cells: Vec<u32> = (0..168).map(|cell| 1 + (cell / 12 + cell % 12) as u32 % 2).collect();
    cells[5 * 12..7 * 12].fill(0);
    let checks = 2 * 12 * 11 / 2;
    let board = Board::from_vec(14, 12, cells);
    let rules = Rules { max_turns: 0, outside: false };
    let outcome =
        crate::clear::search(&board, Settings { rules, gravity: true, budget: DEFAULT_BUDGET }).unwrap();
    assert_eq!((outcome.verdict, outcome.positions), (crate::clear::Verdict::Hopeless, 1));
    assert!(outcome.work >= checks, "{} units of work", outcome.work);
}

/// On the same board, each position is also charged for the pieces it looks at: a pass over
/// the pieces with an open side, and one over every piece for the pairs side by side, a unit
/// per [`open_pairs::PIECES_PER_UNIT`] pieces, so that a position of many pieces and few pairs
/// costs what it does.
#[test]
fn pairs_looked_for_among_all_pieces_are_charged_the_pieces_looked_at() {
    let mut cells: Vec<u32> = (0..168).map(|cell| 1 + (cell / 12 + cell % 12) as u32 % 2).collect();
    cells[5 * 12..7 * 12].fill(0);
    let (pieces, open, checks) = (144, 24, 2 * 12 * 11 / 2);
    let board = Board::from_vec(14, 12, cells);
    let rules = Rules { max_turns: 0, outside: false };
    let outcome =
        crate::clear::search(&board, Settings { rules, gravity: true, budget: DEFAULT_BUDGET }).unwrap();
    assert_eq!((outcome.verdict, outcome.positions), (crate::clear::Verdict::Hopeless, 1));
    let passes = (pieces + open) / open_pairs::PIECES_PER_UNIT;
    assert!(outcome.work >= checks + passes, "{} units of work", outcome.work);
}
