//! Playing a whole board, for the `solve` subcommand: greedy play, and the search for an order
//! of removals that clears the board (`--best`).
//!
//! Both rest on one fact: removing a pair only empties cells, so it never breaks a line another
//! pair could use. Hence a pair that can be removed now can be removed later too, and the order
//! of removals only matters through *which* pieces of a kind end up paired.
//!
//! - [`greedy`] goes over the pieces in reading order, again and again: each piece still on the
//!   board is removed with the first piece of its kind the [`Sweep`] reaches from it (fewest
//!   turns first). It stops when a whole pass removes nothing.
//! - [`best`] searches the positions (sets of pieces left) depth first, trying every pair that
//!   can be removed, and remembers the positions found hopeless. Where a kind has exactly two
//!   pieces left and they can be removed, that is the only move tried: by the fact above, some
//!   clearing order removes them first if any clearing order exists. A kind with an odd count
//!   makes the board hopeless from the start.

use std::collections::HashSet;

use common::Pos;

use crate::model::{Board, EMPTY, Kind, Line, Rules};
use crate::solve::{Sweep, Walled};

/// Most pieces a board may hold for [`best`].
pub const BEST_MAX_PIECES: usize = 128;

/// One removal: two pieces of one kind and the line that joined them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removal {
    /// The first piece removed, 1-based.
    pub a: Pos,
    /// The second piece removed, 1-based.
    pub b: Pos,
    /// Their kind.
    pub kind: Kind,
    /// The line that joined them, on the board as it was just before the removal.
    pub line: Line,
}

/// The removals of a game and how many pieces were left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// The removals, in order.
    pub removals: Vec<Removal>,
    /// Pieces left on the board after them.
    pub pieces_left: usize,
}

/// What [`best`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Best {
    /// An order of removals that clears the board.
    Cleared(Vec<Removal>),
    /// No order clears the board.
    Hopeless,
}

/// The result of [`best`], with the number of positions searched (the work done, the same on
/// every machine).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BestOutcome {
    /// What was found.
    pub best: Best,
    /// Positions searched.
    pub positions: u64,
}

/// A board being played: the walled board (open cells and kinds, updated at each removal) and
/// a sweep over it.
struct Table {
    walled: Walled,
    sweep: Sweep,
    max_turns: u32,
}

impl Table {
    fn new(board: &Board, rules: Rules) -> Table {
        let walled = Walled::new(board, rules.outside);
        let sweep = Sweep::new(&walled);
        Table { walled, sweep, max_turns: rules.max_turns }
    }

    /// The cells holding pieces, in reading order.
    fn pieces(&self) -> Vec<usize> {
        (0..self.walled.kinds.len()).filter(|&cell| self.walled.kinds[cell] != EMPTY).collect()
    }

    /// The first piece of `from`'s kind a line reaches from `from`, and the line.
    fn partner(&mut self, from: usize) -> Option<(usize, Line)> {
        let kinds = &self.walled.kinds;
        let kind = kinds[from];
        let hit = self.sweep.run(&self.walled.open, from, self.max_turns, |cell, _| kinds[cell] == kind);
        let found = hit.map(|hit| (hit.cell, self.walled.line(&self.sweep.line_to(&self.walled.open, hit))));
        self.sweep.clear();
        found
    }

    /// Every piece of `from`'s kind a line reaches from `from`.
    fn partners(&mut self, from: usize) -> Vec<usize> {
        let kinds = &self.walled.kinds;
        let kind = kinds[from];
        let mut found = Vec::new();
        self.sweep.run(&self.walled.open, from, self.max_turns, |cell, _| {
            if kinds[cell] == kind && !found.contains(&cell) {
                found.push(cell);
            }
            false
        });
        self.sweep.clear();
        found
    }

    /// The line joining the pieces on `from` and `to`, which a line must join.
    fn line(&mut self, from: usize, to: usize) -> Line {
        let hit = self.sweep.run(&self.walled.open, from, self.max_turns, |cell, _| cell == to);
        let line =
            self.walled.line(&self.sweep.line_to(&self.walled.open, hit.expect("the pieces can be joined")));
        self.sweep.clear();
        line
    }

    /// Empties `cells`, or puts `kind` back on them.
    fn set(&mut self, cells: [usize; 2], kind: Option<Kind>) {
        for cell in cells {
            self.walled.kinds[cell] = kind.unwrap_or(EMPTY);
            self.walled.open[cell] = kind.is_none();
        }
    }
}

/// Plays `board` greedily: see the [module documentation](self).
pub fn greedy(board: &Board, rules: Rules) -> Game {
    let mut table = Table::new(board, rules);
    let pieces = table.pieces();
    let mut removals = Vec::new();
    loop {
        let before = removals.len();
        for &piece in &pieces {
            let kind = table.walled.kinds[piece];
            if kind == EMPTY {
                continue;
            }
            if let Some((partner, line)) = table.partner(piece) {
                table.set([piece, partner], None);
                let (a, b) = (table.walled.pos(piece), table.walled.pos(partner));
                removals.push(Removal { a, b, kind, line });
            }
        }
        if removals.len() == before {
            break;
        }
    }
    let pieces_left = pieces.len() - 2 * removals.len();
    Game { removals, pieces_left }
}

/// Searches for an order of removals that clears `board`: see the
/// [module documentation](self). Boards of more than [`BEST_MAX_PIECES`] pieces are refused.
pub fn best(board: &Board, rules: Rules) -> Result<BestOutcome, String> {
    let table = Table::new(board, rules);
    let pieces = table.pieces();
    if pieces.len() > BEST_MAX_PIECES {
        return Err(format!(
            "--best handles boards of at most {BEST_MAX_PIECES} pieces, not {}",
            pieces.len()
        ));
    }
    let kinds: Vec<Kind> = pieces.iter().map(|&cell| table.walled.kinds[cell]).collect();
    let same_kind: Vec<u128> = kinds
        .iter()
        .map(|&kind| {
            (0..kinds.len()).filter(|&other| kinds[other] == kind).fold(0, |mask, other| mask | 1 << other)
        })
        .collect();
    if same_kind.iter().any(|mask| mask.count_ones() % 2 == 1) {
        return Ok(BestOutcome { best: Best::Hopeless, positions: 0 });
    }
    let mut piece_at = vec![usize::MAX; table.walled.kinds.len()];
    for (index, &cell) in pieces.iter().enumerate() {
        piece_at[cell] = index;
    }
    let mut search = Search {
        table,
        pieces,
        kinds,
        same_kind,
        piece_at,
        hopeless: HashSet::new(),
        positions: 0,
        order: Vec::new(),
    };
    let all = u128::MAX.checked_shr(128 - search.pieces.len() as u32).unwrap_or(0);
    let best = if search.clear(all) {
        let mut replay = Table::new(board, rules);
        let removals = search
            .order
            .iter()
            .map(|&(first, second)| {
                let (from, to) = (search.pieces[first], search.pieces[second]);
                let line = replay.line(from, to);
                replay.set([from, to], None);
                Removal {
                    a: replay.walled.pos(from),
                    b: replay.walled.pos(to),
                    kind: search.kinds[first],
                    line,
                }
            })
            .collect();
        Best::Cleared(removals)
    } else {
        Best::Hopeless
    };
    Ok(BestOutcome { best, positions: search.positions })
}

/// The state of [`best`]'s search. Pieces are numbered in reading order; a position is the set
/// of pieces left, one bit each.
struct Search {
    table: Table,
    /// The cell of every piece.
    pieces: Vec<usize>,
    /// The kind of every piece.
    kinds: Vec<Kind>,
    /// For every piece, the pieces of its kind.
    same_kind: Vec<u128>,
    /// The piece on every cell of the walled board, or `usize::MAX`.
    piece_at: Vec<usize>,
    /// Positions from which no order clears the board.
    hopeless: HashSet<u128>,
    positions: u64,
    /// The removals made so far, as pairs of pieces.
    order: Vec<(usize, usize)>,
}

impl Search {
    /// True when the pieces in `left` (the ones on the table) can all be removed; the order is
    /// then in `order`.
    fn clear(&mut self, left: u128) -> bool {
        if left == 0 {
            return true;
        }
        if self.hopeless.contains(&left) {
            return false;
        }
        self.positions += 1;
        for (first, second) in self.moves(left) {
            let cells = [self.pieces[first], self.pieces[second]];
            self.table.set(cells, None);
            self.order.push((first, second));
            if self.clear(left & !(1 << first) & !(1 << second)) {
                return true;
            }
            self.order.pop();
            self.table.set(cells, Some(self.kinds[first]));
        }
        self.hopeless.insert(left);
        false
    }

    /// The pairs that can be removed from position `left`, or only one of them when it is the
    /// last two pieces of its kind.
    fn moves(&mut self, left: u128) -> Vec<(usize, usize)> {
        let mut moves = Vec::new();
        let mut rest = left;
        while rest != 0 {
            let first = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            for cell in self.table.partners(self.pieces[first]) {
                let second = self.piece_at[cell];
                if second > first {
                    if (left & self.same_kind[first]).count_ones() == 2 {
                        return vec![(first, second)];
                    }
                    moves.push((first, second));
                }
            }
        }
        moves
    }
}
