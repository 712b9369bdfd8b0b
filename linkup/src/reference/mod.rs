//! The plain solvers, the yardstick for tests and benchmarks: a plain reader, a plain search per
//! query, and plain searches for a clearing order (here for tiny boards, in [`clear`] with
//! hopeless boards remembered). Compiled only for tests and benchmarks: the crate's unit tests,
//! and the crate feature `reference`, which the crate's dev-dependency on itself turns on for
//! its integration tests, benchmarks and examples; no binary ships it.
//!
//! [`cases`] reads the input token by token with [`common::Tokens`], the way every puzzle of the
//! workspace reads its input; [`crate::parse`] must give exactly the same cases and the same
//! diagnostics.
//!
//! [`joinable`] is a breadth-first search over states (cell, direction, turns so far) on the whole
//! framed board, one search per query. The line leaves the first cell in any of the four directions
//! with no turn taken. From a state, it steps one cell in its direction: onto the second cell, and
//! the answer is yes; onto a blocked cell or off the frame, and this state ends; onto an open cell
//! (an empty cell, or the ring when the outside is open), and it may go on in the same direction,
//! or in either direction at right angles if a turn is left. Each state is visited at most once, so
//! the search ends, and it visits every state a line within the rules can be in, so it finds the
//! second cell exactly when some line reaches it.

use std::collections::VecDeque;

use common::{Diagnostic, Direction, Pos, Tokens};

use crate::model::{Board, Case, EMPTY, Kind, MAX_QUERIES, MAX_SIDE, Query, Rules, is_open, refusal};
use crate::parse::wanted;

pub mod clear;

/// Reads every case of `src` with [`Tokens::number`], one number at a time.
pub fn cases(src: &[u8]) -> Result<Vec<Case>, Diagnostic> {
    let mut tokens = Tokens::new(src);
    // The number wanted, with the message built only when it is missing.
    let number =
        |tokens: &mut Tokens<'_>, range: std::ops::RangeInclusive<u64>, what: &dyn Fn() -> String| {
            let before = tokens.clone();
            tokens.number(range.clone(), "").map_err(|_| before.clone().number(range, &what()).unwrap_err())
        };
    let mut cases = Vec::new();
    while !tokens.is_at_end() {
        let rows = number(&mut tokens, 0..=MAX_SIDE as u64, &wanted::rows)? as usize;
        if rows == 0 {
            number(&mut tokens, 0..=0, &|| wanted::TERMINATOR.to_owned())?;
            tokens.expect_end(wanted::AFTER_TERMINATOR)?;
            break;
        }
        let cols = number(&mut tokens, 1..=wanted::max_cols(rows) as u64, &|| wanted::cols(rows))? as usize;
        let mut kinds = Vec::new();
        for cell in 0..rows * cols {
            kinds.push(number(&mut tokens, 0..=u64::from(Kind::MAX), &|| wanted::kind(cell, cols))? as Kind);
        }
        let count = number(&mut tokens, 0..=MAX_QUERIES as u64, &wanted::query_count)?;
        let mut queries = Vec::new();
        for query in 1..=count {
            let mut values = [0; 4];
            for (part, value) in values.iter_mut().enumerate() {
                let side = if part.is_multiple_of(2) { rows } else { cols };
                *value =
                    number(&mut tokens, 1..=side as u64, &|| wanted::query_part(part, query, rows, cols))?
                        as usize;
            }
            queries.push(Query::new(values[0], values[1], values[2], values[3]));
        }
        cases.push(Case { board: Board::from_vec(rows, cols, kinds), queries });
    }
    Ok(cases)
}

/// True when the query's cells hold two pieces of one kind that a line within `rules` joins.
pub fn joinable(board: &Board, rules: Rules, query: Query) -> bool {
    if refusal(board, query).is_some() {
        return false;
    }
    let (rows, cols) = (board.rows() + 2, board.cols() + 2);
    let levels = rules.max_turns as usize + 1;
    let state = |pos: Pos, direction: Direction, turns: u32| {
        ((pos.row * cols + pos.col) * 4 + direction.index()) * levels + turns as usize
    };
    let mut seen = vec![false; rows * cols * 4 * levels];
    let mut queue: VecDeque<(Pos, Direction, u32)> =
        Direction::ALL.into_iter().map(|d| (query.a, d, 0)).collect();
    while let Some((pos, direction, turns)) = queue.pop_front() {
        let (dr, dc) = direction.delta();
        let (Some(row), Some(col)) = (pos.row.checked_add_signed(dr), pos.col.checked_add_signed(dc)) else {
            continue;
        };
        let next = Pos::new(row, col);
        if next == query.b {
            return true;
        }
        if !is_open(board, rules.outside, next) {
            continue;
        }
        for heading in Direction::ALL {
            let turned = turns + u32::from(heading != direction);
            if heading == direction.opposite() || turned > rules.max_turns {
                continue;
            }
            let index = state(next, heading, turned);
            if !seen[index] {
                seen[index] = true;
                queue.push_back((next, heading, turned));
            }
        }
    }
    false
}

/// The fewest turns of a line joining the query's cells, trying limits up to `max`, or `None`.
pub fn fewest_turns(board: &Board, outside: bool, query: Query, max: u32) -> Option<u32> {
    (0..=max).find(|&max_turns| joinable(board, Rules { max_turns, outside }, query))
}

/// True when some order of removals clears `board`: tries every pair that can be removed, then
/// the rest of the board, with no memory of positions seen and no shortcut. For tiny boards.
/// With `gravity`, pieces fall after each removal as [`settle`] lets them.
pub fn clearable(board: &Board, rules: Rules, gravity: bool) -> bool {
    let pieces: Vec<Pos> = (1..=board.rows())
        .flat_map(|row| (1..=board.cols()).map(move |col| Pos::new(row, col)))
        .filter(|&pos| board[Pos::new(pos.row - 1, pos.col - 1)] != EMPTY)
        .collect();
    if pieces.is_empty() {
        return true;
    }
    pieces.iter().enumerate().any(|(index, &a)| {
        pieces[index + 1..].iter().any(|&b| {
            if !joinable(board, rules, Query { a, b }) {
                return false;
            }
            let mut rest = board.clone();
            rest[Pos::new(a.row - 1, a.col - 1)] = EMPTY;
            rest[Pos::new(b.row - 1, b.col - 1)] = EMPTY;
            if gravity {
                settle(&mut rest, &[a, b]);
            }
            clearable(&rest, rules, gravity)
        })
    })
}

/// Gravity, one cell at a time: the pieces above the `emptied` cells (1-based) are the falling
/// ones; any falling piece over an empty cell moves down one row, until none can.
pub fn settle(board: &mut Board, emptied: &[Pos]) {
    let mut falling = vec![false; board.rows() * board.cols()];
    for pos in emptied {
        for row in 0..pos.row - 1 {
            falling[row * board.cols() + pos.col - 1] = true;
        }
    }
    let mut moved = true;
    while moved {
        moved = false;
        for row in (0..board.rows() - 1).rev() {
            for col in 0..board.cols() {
                let (here, below) = (row * board.cols() + col, (row + 1) * board.cols() + col);
                if falling[here] && board.cells()[here] != EMPTY && board.cells()[below] == EMPTY {
                    board.cells_mut().swap(here, below);
                    falling.swap(here, below);
                    moved = true;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use common::Grid;

    use super::*;

    #[test]
    fn answers_the_sample() {
        let board = Grid::from_vec(3, 4, vec![1, 2, 3, 4, 0, 0, 0, 0, 4, 3, 2, 1]);
        let judge = Rules::default();
        assert!(joinable(&board, judge, Query::new(1, 1, 3, 4)));
        assert!(!joinable(&board, judge, Query::new(1, 1, 2, 4)));
        assert!(!joinable(&board, judge, Query::new(1, 1, 3, 3)));
        assert!(!joinable(&board, judge, Query::new(2, 1, 2, 4)));
        assert_eq!(fewest_turns(&board, false, Query::new(1, 1, 3, 4), 5), Some(2));
        // 1 and 1 at the top corners of a full row: around the outside only.
        let full = Grid::from_vec(1, 3, vec![1, 2, 1]);
        assert!(!joinable(&full, Rules { max_turns: 9, outside: false }, Query::new(1, 1, 1, 3)));
        assert_eq!(fewest_turns(&full, true, Query::new(1, 1, 1, 3), 5), Some(2));
    }
}
