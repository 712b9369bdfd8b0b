//! Playing a whole board, for the `solve` subcommand: greedy play, and the exact search for an
//! order of removals that clears the board (`--best`, in [`crate::clear`]).
//!
//! - [`greedy`] goes over the cells in reading order, again and again: each piece still on the
//!   board is removed with the first piece of its kind the [`Sweep`] reaches from it (fewest
//!   turns first). It stops when a whole pass removes nothing.
//! - [`best`] runs the search of [`crate::clear`] and replays the order found on the walled
//!   board, drawing each removal's line with the [`Sweep`], as a check and for the output.
//!
//! With gravity, after each removal the pieces above an emptied cell fall down their column
//! ([`crate::model::fall`]); removals are named by their cells on the board after the falls
//! before them.

use common::Pos;

use crate::clear::{self, Settings, TooLarge, Verdict};
use crate::model::{Board, EMPTY, Kind, Line, Rules, fall};
use crate::solve::{Sweep, Walled};

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
    /// The budget of positions ran out before the search knew.
    Undecided,
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
    gravity: bool,
    rows: usize,
}

impl Table {
    fn new(board: &Board, rules: Rules, gravity: bool) -> Table {
        let walled = Walled::new(board, rules.outside);
        let sweep = Sweep::new(&walled);
        Table { walled, sweep, max_turns: rules.max_turns, gravity, rows: board.rows() }
    }

    /// The cells of the board, in reading order.
    fn board_cells(&self) -> Vec<usize> {
        let cols = self.walled.width() - 4;
        (1..=self.rows)
            .flat_map(|row| (1..=cols).map(move |col| (row, col)))
            .map(|(row, col)| self.walled.cell(Pos::new(row, col)))
            .collect()
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

    /// The line joining the pieces on `from` and `to`, if a line joins them.
    fn line(&mut self, from: usize, to: usize) -> Option<Line> {
        let hit = self.sweep.run(&self.walled.open, from, self.max_turns, |cell, _| cell == to);
        let line = hit.map(|hit| self.walled.line(&self.sweep.line_to(&self.walled.open, hit)));
        self.sweep.clear();
        line
    }

    /// Removes the pieces on `cells`; with gravity, the pieces above them fall.
    fn remove(&mut self, cells: [usize; 2]) {
        for cell in cells {
            self.walled.kinds[cell] = EMPTY;
            self.walled.open[cell] = true;
        }
        if !self.gravity {
            return;
        }
        let [a, b] = cells.map(|cell| self.walled.pos(cell));
        if a.col == b.col {
            self.fall(a.col, a.row.max(b.row));
        } else {
            self.fall(a.col, a.row);
            self.fall(b.col, b.row);
        }
    }

    /// Gravity in column `col` (1-based) after its cell on 1-based row `lowest` was emptied.
    fn fall(&mut self, col: usize, lowest: usize) {
        let width = self.walled.width();
        // 0-based board row r of this column is walled cell (r + 2) * width + col + 1.
        let at = |row: usize| (row + 2) * width + col + 1;
        fall(&mut self.walled.kinds, at, self.rows, lowest - 1);
        for row in 0..self.rows {
            self.walled.open[at(row)] = self.walled.kinds[at(row)] == EMPTY;
        }
    }
}

/// Plays `board` greedily: see the [module documentation](self).
pub fn greedy(board: &Board, rules: Rules, gravity: bool) -> Game {
    let mut table = Table::new(board, rules, gravity);
    let cells = table.board_cells();
    let pieces = board.cells().iter().filter(|&&kind| kind != EMPTY).count();
    let cells: Vec<usize> = if gravity {
        cells
    } else {
        cells.into_iter().filter(|&cell| table.walled.kinds[cell] != EMPTY).collect()
    };
    let mut removals = Vec::new();
    loop {
        let before = removals.len();
        for &cell in &cells {
            let kind = table.walled.kinds[cell];
            if kind == EMPTY {
                continue;
            }
            if let Some((partner, line)) = table.partner(cell) {
                let (a, b) = (table.walled.pos(cell), table.walled.pos(partner));
                table.remove([cell, partner]);
                removals.push(Removal { a, b, kind, line });
            }
        }
        if removals.len() == before {
            break;
        }
    }
    let pieces_left = pieces - 2 * removals.len();
    Game { removals, pieces_left }
}

/// Searches for an order of removals that clears `board`: see [`crate::clear`]. Boards larger
/// than [`clear::MAX_SIDE`] on a side are refused.
pub fn best(board: &Board, settings: Settings) -> Result<BestOutcome, TooLarge> {
    let outcome = clear::search(board, settings)?;
    let best = match outcome.verdict {
        Verdict::Hopeless => Best::Hopeless,
        Verdict::Undecided => Best::Undecided,
        Verdict::Cleared(order) => {
            let mut replay = Table::new(board, settings.rules, settings.gravity);
            let removals = order
                .into_iter()
                .map(|(a, b)| {
                    let (from, to) = (replay.walled.cell(a), replay.walled.cell(b));
                    let kind = replay.walled.kinds[from];
                    let line = replay.line(from, to).expect("every removal of the search can be made");
                    replay.remove([from, to]);
                    Removal { a, b, kind, line }
                })
                .collect();
            Best::Cleared(removals)
        }
    };
    Ok(BestOutcome { best, positions: outcome.positions })
}
