//! Boards, queries, the rules in force and joining lines.
//!
//! ## Coordinates
//! Positions are 1-based, as the judge gives them: row 1 is the top row, column 1 the left
//! column. The same numbers are 0-based positions on the *framed* board, the board with a
//! one-cell ring around it: row 0, row n+1, column 0 and column m+1 are the ring. The ring is
//! where the real game lets a line run around the board ([`Rules::outside`]); without that rule
//! it is a wall. Every search in this crate works on the framed board, so lines through the ring
//! need no special case.

use common::{Grid, Pos};

/// Largest accepted number of rows, and of columns (the judge stops at 1000).
pub const MAX_SIDE: usize = 8_000;

/// Largest accepted number of cells, rows × columns.
pub const MAX_CELLS: usize = 16_000_000;

/// Largest accepted number of queries in one case (the judge stops at 49).
pub const MAX_QUERIES: usize = 1_000_000;

/// A piece kind; [`EMPTY`] is an empty cell.
pub type Kind = u32;

/// The kind of an empty cell: `Kind::default()`.
pub const EMPTY: Kind = 0;

/// A board: `n × m` kinds, row-major, stored 0-based (use [`kind_at`] with 1-based positions).
pub type Board = Grid<Kind>;

/// One query: can the pieces at `a` and `b` (1-based positions) be removed together?
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Query {
    /// The first cell, 1-based.
    pub a: Pos,
    /// The second cell, 1-based.
    pub b: Pos,
}

impl Query {
    /// A query from the judge's `x1 y1 x2 y2` (1-based rows and columns).
    pub const fn new(x1: usize, y1: usize, x2: usize, y2: usize) -> Self {
        Query { a: Pos::new(x1, y1), b: Pos::new(x2, y2) }
    }
}

/// One case of the input: a board and the queries asked about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// The board.
    pub board: Board,
    /// The queries, in input order.
    pub queries: Vec<Query>,
}

/// The rules a line must follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// Most turns the line may take (the game's rule: 2).
    pub max_turns: u32,
    /// The line may run through the ring of empty space around the board (the real game's
    /// rule; the judge's rule keeps it inside).
    pub outside: bool,
}

impl Default for Rules {
    /// The judge's rules: at most two turns, inside the board.
    fn default() -> Self {
        Rules { max_turns: 2, outside: false }
    }
}

/// The kind at 1-based position `pos`, which must be on the board (else panics).
pub fn kind_at(board: &Board, pos: Pos) -> Kind {
    board[Pos::new(pos.row - 1, pos.col - 1)]
}

/// True when `pos` is on the board proper (1-based), not on the ring or beyond.
pub fn on_board(board: &Board, pos: Pos) -> bool {
    (1..=board.rows()).contains(&pos.row) && (1..=board.cols()).contains(&pos.col)
}

/// True when a line may pass through `pos` of the framed board: an empty cell of the board, or
/// a cell of the ring when the rules allow the outside. Positions beyond the ring are never open.
pub fn is_open(board: &Board, outside: bool, pos: Pos) -> bool {
    if on_board(board, pos) {
        kind_at(board, pos) == EMPTY
    } else {
        outside && pos.row <= board.rows() + 1 && pos.col <= board.cols() + 1
    }
}

/// Gravity in one column whose cells `at(0)` (top) to `at(rows - 1)` (bottom row) index
/// `kinds`, after cells of it were emptied, the lowest of them at row `lowest`: the pieces above
/// that row fall until they rest on a piece or the bottom row (so they land on the first piece
/// below it, through any empty cells, and on each other). Pieces below it do not move.
/// The kinds may be numbered in any type whose default is the empty cell, as [`EMPTY`] is.
pub fn fall<K: Copy + Eq + Default>(
    kinds: &mut [K],
    at: impl Fn(usize) -> usize,
    rows: usize,
    lowest: usize,
) {
    let empty = K::default();
    let mut landing = lowest;
    while landing + 1 < rows && kinds[at(landing + 1)] == empty {
        landing += 1;
    }
    // Invariant: `landing > row`, and every cell from `landing` to `lowest` is empty.
    for row in (0..lowest).rev() {
        let kind = kinds[at(row)];
        if kind != empty {
            kinds[at(row)] = empty;
            kinds[at(landing)] = kind;
            landing -= 1;
        }
    }
}

/// Removes the pieces at 1-based `a` and `b` from `board`; with `gravity`, the pieces above
/// them fall (see [`fall`]): O(rows). Panics when a cell is off the board.
pub fn remove_pair(board: &mut Board, a: Pos, b: Pos, gravity: bool) {
    let (rows, cols) = (board.rows(), board.cols());
    for pos in [a, b] {
        board[Pos::new(pos.row - 1, pos.col - 1)] = EMPTY;
    }
    if gravity {
        let lowest_a = if a.col == b.col { a.row.max(b.row) } else { a.row };
        fall(board.cells_mut(), |row| row * cols + a.col - 1, rows, lowest_a - 1);
        if b.col != a.col {
            fall(board.cells_mut(), |row| row * cols + b.col - 1, rows, b.row - 1);
        }
    }
}

/// Why the two cells of a query cannot be removed together, before any line is looked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Both coordinates name the same cell; a piece does not pair with itself.
    SameCell,
    /// One of the cells is empty.
    Empty,
    /// The pieces are of different kinds.
    DifferentKinds,
}

/// The reason the query's cells can never be joined whatever the board around them, or `None`
/// when they are two pieces of one kind and the answer depends on a line joining them. O(1);
/// panics when a cell is off the board.
pub fn refusal(board: &Board, query: Query) -> Option<Refusal> {
    let (a, b) = (kind_at(board, query.a), kind_at(board, query.b));
    if query.a == query.b {
        Some(Refusal::SameCell)
    } else if a == EMPTY || b == EMPTY {
        Some(Refusal::Empty)
    } else if a != b {
        Some(Refusal::DifferentKinds)
    } else {
        None
    }
}

/// A joining line: its two ends and the cells where it turns, in order from the first end.
/// Positions are 1-based (so the ring is row 0 or n+1, column 0 or m+1).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Line {
    /// The first end, each turn, then the second end. Consecutive points share a row or a
    /// column.
    pub points: Vec<Pos>,
}

impl Line {
    /// A line through `points`, dropping repeated points and points where it does not turn, so
    /// that every inner point is a turn.
    pub fn through(points: impl IntoIterator<Item = Pos>) -> Line {
        let mut kept: Vec<Pos> = Vec::new();
        for point in points {
            if kept.last() == Some(&point) {
                continue;
            }
            if let [.., before, last] = kept[..]
                && ((before.row == last.row && last.row == point.row)
                    || (before.col == last.col && last.col == point.col))
            {
                kept.pop();
            }
            kept.push(point);
        }
        Line { points: kept }
    }

    /// The number of turns: points other than the two ends.
    pub fn turns(&self) -> usize {
        self.points.len().saturating_sub(2)
    }

    /// Every cell the line passes over strictly between its two ends, in order. (A segment
    /// that is not straight is walked diagonally; [`Line::check`] refuses such lines first.)
    pub fn inner_cells(&self) -> Vec<Pos> {
        fn toward(from: usize, to: usize) -> usize {
            match from.cmp(&to) {
                std::cmp::Ordering::Less => from + 1,
                std::cmp::Ordering::Equal => from,
                std::cmp::Ordering::Greater => from - 1,
            }
        }
        let mut cells = Vec::new();
        for pair in self.points.windows(2) {
            let (mut cell, to) = (pair[0], pair[1]);
            while cell != to {
                cell = Pos::new(toward(cell.row, to.row), toward(cell.col, to.col));
                cells.push(cell);
            }
        }
        cells.pop();
        cells
    }

    /// Checks that the line joins the two cells of `query` on `board` under `rules`: it runs
    /// from `query.a` to `query.b` in straight horizontal and vertical segments, turns at most
    /// `rules.max_turns` times, and passes only over open cells between its ends. The query's
    /// cells must hold two pieces of one kind. An error says what is wrong.
    pub fn check(&self, board: &Board, rules: Rules, query: Query) -> Result<(), String> {
        if let Some(refusal) = refusal(board, query) {
            return Err(format!("the query's cells cannot pair at all: {refusal:?}"));
        }
        let (Some(&first), Some(&last)) = (self.points.first(), self.points.last()) else {
            return Err("the line has no points".to_owned());
        };
        if (first, last) != (query.a, query.b) {
            return Err(format!("the line runs from {first:?} to {last:?}, not between the query's cells"));
        }
        for pair in self.points.windows(2) {
            if pair[0] == pair[1] || (pair[0].row != pair[1].row && pair[0].col != pair[1].col) {
                return Err(format!("{:?} to {:?} is not a straight segment", pair[0], pair[1]));
            }
        }
        for turn in self.points.windows(3) {
            let straight = (turn[0].row == turn[1].row) == (turn[1].row == turn[2].row);
            if straight {
                return Err(format!("the line does not turn at {:?}", turn[1]));
            }
        }
        if self.turns() > rules.max_turns as usize {
            return Err(format!("{} turns, more than {}", self.turns(), rules.max_turns));
        }
        match self.inner_cells().into_iter().find(|&cell| !is_open(board, rules.outside, cell)) {
            Some(cell) => Err(format!("the line passes over {cell:?}, which is not open")),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Board {
        Grid::from_vec(3, 4, vec![1, 2, 3, 4, 0, 0, 0, 0, 4, 3, 2, 1])
    }

    #[test]
    fn lines_keep_only_their_turns() {
        let p = Pos::new;
        let line = Line::through([p(1, 1), p(2, 1), p(2, 2), p(2, 2), p(2, 4), p(3, 4)]);
        assert_eq!(line.points, [p(1, 1), p(2, 1), p(2, 4), p(3, 4)]);
        assert_eq!(line.turns(), 2);
        assert_eq!(line.inner_cells(), [p(2, 1), p(2, 2), p(2, 3), p(2, 4)]);
        assert_eq!(Line::through([p(1, 1), p(1, 2)]).inner_cells(), []);
    }

    #[test]
    fn checks_lines_against_the_rules() {
        let p = Pos::new;
        let board = board();
        let query = Query::new(1, 1, 3, 4);
        let line = Line::through([p(1, 1), p(2, 1), p(2, 4), p(3, 4)]);
        assert_eq!(line.check(&board, Rules::default(), query), Ok(()));
        let one_turn = Rules { max_turns: 1, outside: false };
        assert!(line.check(&board, one_turn, query).unwrap_err().contains("turns"));
        let through_pieces = Line::through([p(1, 1), p(1, 4), p(3, 4)]);
        assert!(through_pieces.check(&board, Rules::default(), query).unwrap_err().contains("not open"));
        let around = Line::through([p(1, 1), p(0, 1), p(0, 5), p(3, 5), p(3, 4)]);
        let outside = Rules { max_turns: 3, outside: true };
        assert_eq!(around.check(&board, outside, query), Ok(()));
        assert!(around.check(&board, Rules { outside: false, ..outside }, query).is_err());
        let diagonal = Line { points: vec![p(1, 1), p(3, 4)] };
        assert!(diagonal.check(&board, outside, query).unwrap_err().contains("straight"));
    }

    #[test]
    fn refusals_come_before_any_line() {
        let board = board();
        assert_eq!(refusal(&board, Query::new(1, 1, 1, 1)), Some(Refusal::SameCell));
        assert_eq!(refusal(&board, Query::new(1, 1, 2, 1)), Some(Refusal::Empty));
        assert_eq!(refusal(&board, Query::new(1, 1, 1, 2)), Some(Refusal::DifferentKinds));
        assert_eq!(refusal(&board, Query::new(1, 1, 3, 4)), None);
    }

    #[test]
    fn pieces_fall_onto_the_piece_below_the_emptied_cell() {
        // One column, top to bottom: 1 0 2 3 0 4 0 5, the 4 (row index 5) just emptied: the
        // pieces above fall through the gap below it onto the 5; the gap above the 4 closes.
        let mut column = vec![1, 0, 2, 3, 0, 0, 0, 5];
        fall(&mut column, |row| row, 8, 5);
        assert_eq!(column, [0, 0, 0, 0, 1, 2, 3, 5]);
        // Pieces below the emptied cell stay, even over a gap.
        let mut column = vec![1, 0, 2, 0, 3];
        fall(&mut column, |row| row, 5, 1);
        assert_eq!(column, [0, 1, 2, 0, 3]);
    }

    #[test]
    fn the_ring_is_open_only_outside() {
        let board = board();
        assert!(!is_open(&board, false, Pos::new(0, 2)));
        assert!(is_open(&board, true, Pos::new(0, 2)));
        assert!(is_open(&board, true, Pos::new(4, 5)));
        assert!(!is_open(&board, true, Pos::new(5, 5)));
        assert!(is_open(&board, false, Pos::new(2, 3)));
        assert!(!is_open(&board, true, Pos::new(1, 3)));
    }
}
