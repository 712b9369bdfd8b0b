//! Playing a whole board, for the `solve` subcommand: greedy play, and the exact search for an
//! order of removals that clears the board (`--best`, in [`crate::clear`]).
//!
//! - [`greedy`] goes over the cells in reading order, again and again: each piece still on the
//!   board is removed with the first piece of its kind the [`Sweep`] reaches from it (fewest
//!   turns first). It stops when a whole pass removes nothing. The sweep's answer is often
//!   known without running it: at 0 or 1 turn from where the lines stop (`near`), and when
//!   the kind has few pieces left from checking each (`direct`). Its tables stay small: the
//!   kinds as numbers of a byte or two (`ids`), a kind's pieces listed only once few are left
//!   (`pieces`), the board as read let go once numbered, and each removal handed on as it is
//!   made ([`greedy_each`]), so a game needs less memory than reading its input did.
//! - [`best`] runs the search of [`crate::clear`] and replays the order found on the walled
//!   board, drawing each removal's line with the [`Sweep`], as a check and for the output.
//!
//! With gravity, after each removal the pieces above an emptied cell fall down their column
//! ([`crate::model::fall`]); removals are named by their cells on the board after the falls
//! before them.

mod best;
mod direct;
mod ids;
mod near;
mod pieces;

/// Most rows, and most columns, of a board greedy play takes; see [`MAX_CELLS`].
pub const MAX_SIDE: usize = 1_000;

/// Largest board, in cells, that greedy play takes. A partner that lies two turns away is
/// found by a sweep over the region the lines from the piece reach, so a game costs up to
/// pieces × cells: the worst deals of this size (half full, about a hundred kinds) already play
/// the longest games the binary should, a board of more cells takes longer as the square of its
/// cells, and a long narrow board of as many cells longer still (`docs/benchmarks/linkup.md` at
/// the repository root has the figures), hence [`MAX_SIDE`]. The judge's boards (at most 1000 × 999) fit.
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

const _: () = assert!(MAX_SIDE <= crate::model::MAX_SIDE && MAX_CELLS <= crate::model::MAX_CELLS);

use std::convert::Infallible;

use common::Pos;

use direct::Direct;
use ids::{Id, Ids, Numbering};
use near::Stops;
use pieces::Pieces;

pub use best::{Best, BestOutcome, Decider, best, best_reporting, clears};

use crate::model::{Board, Kind, Line, Rules, fall};
use crate::query::{Layer, Sweep, Walled};

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

/// A board being played: the walled board (its open cells) and the kind of each cell as an id
/// `K`, updated at each removal, the pieces of each kind, and a sweep over the board, its layers
/// stored as `L`.
struct Table<L = u32, K = u32> {
    walled: Walled,
    ids: Ids<K>,
    pieces: Pieces,
    /// Most other pieces of a kind for which the partner is decided directly.
    most_direct: usize,
    /// Where lines stop (`None` only in tests, which play by sweeps alone).
    stops: Option<Stops>,
    sweep: Sweep<L>,
    max_turns: u32,
    gravity: bool,
}

impl Table {
    /// The table of a game on `board`.
    fn of(board: &Board, rules: Rules, gravity: bool) -> Table {
        let walled = Walled::new(board, rules.outside);
        let ids = Ids::new(board, Numbering::of(board));
        Table::new(walled, ids, rules, gravity)
    }
}

impl<L: Layer, K: Id> Table<L, K> {
    /// The table of a game on the walled board `walled`, whose kinds are `ids`.
    fn new(walled: Walled, ids: Ids<K>, rules: Rules, gravity: bool) -> Table<L, K> {
        let sweep = Sweep::new(&walled);
        let pieces = Pieces::new(&ids.of_cell, ids.count(), gravity);
        let most_direct = direct::MOST_CANDIDATES;
        let stops = Some(Stops::new(&walled.open, walled.width()));
        let max_turns = rules.max_turns;
        Table { walled, ids, pieces, most_direct, stops, sweep, max_turns, gravity }
    }

    /// The first piece of `from`'s kind a line reaches from `from`, and the line: decided
    /// directly when the kind has few other pieces left (see [`direct`]), else by the sweep.
    fn partner(&mut self, from: usize) -> Option<(usize, Line)> {
        let kinds = &self.ids.of_cell;
        let kind = kinds[from];
        let others = self.pieces.left(kind) - 1;
        if others == 0 {
            return None;
        }
        if let Some(stops) = &self.stops {
            if let Some(cells) = stops.partner(kinds, from, self.max_turns) {
                let to = *cells.last().expect("a line has two ends");
                return Some((to, self.walled.line(&cells)));
            }
            if self.max_turns <= 1 {
                return None;
            }
        }
        if others <= self.most_direct
            && self.max_turns <= 2
            && let Some(of_kind) = self.pieces.cells(kind, kinds)
        {
            let grid = direct::Grid { open: &self.walled.open, width: self.walled.width() };
            match grid.partner(from, of_kind, self.max_turns) {
                Direct::Found(to, cells) => return Some((to, self.walled.line(&cells))),
                Direct::Nothing => return None,
                Direct::Tie => {}
            }
        }
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
            let kind = std::mem::take(&mut self.ids.of_cell[cell]);
            self.pieces.remove(kind, cell, &self.ids.of_cell);
            if let Some(stops) = &mut self.stops {
                stops.open(cell);
            }
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
        let (width, rows) = (self.walled.width(), self.walled.board_rows());
        let at = |row: usize| Walled::cell_in(width, row, col - 1);
        let pieces_in = |kinds: &[K]| -> Vec<usize> {
            (0..rows).map(at).filter(|&cell| kinds[cell] != K::default()).collect()
        };
        let before = pieces_in(&self.ids.of_cell);
        fall(&mut self.ids.of_cell, at, rows, lowest - 1);
        for row in 0..rows {
            let (cell, open) = (at(row), self.ids.of_cell[at(row)] == K::default());
            if self.walled.open[cell] != open {
                self.walled.open[cell] = open;
                if let Some(stops) = &mut self.stops {
                    if open { stops.open(cell) } else { stops.close(cell) }
                }
            }
        }
        // Pieces keep their order down the column as they fall.
        let moves: Vec<(usize, usize)> =
            before.into_iter().zip(pieces_in(&self.ids.of_cell)).filter(|(from, to)| from != to).collect();
        self.pieces.moved(&moves);
    }
}

/// Plays `board` greedily: see the [module documentation](self). Complexity: O(pieces ×
/// cells) at worst (a sweep per partner two turns away), memory a few bytes a cell and the
/// removals kept. The size is not checked here: [`crate::play()`] refuses boards beyond
/// [`MAX_SIDE`] on a side, which this may take minutes to play. Never panics.
pub fn greedy(board: &Board, rules: Rules, gravity: bool) -> Game {
    kept(|each| greedy_each(board.clone(), rules, gravity, each))
}

/// A removal handed on as it is made, by a game that cannot fail.
type Each<'a> = &'a mut dyn FnMut(Removal) -> Result<(), Infallible>;

/// The game `play` plays, handing each removal to the function it is given, with the
/// removals kept.
fn kept(play: impl FnOnce(Each) -> Result<usize, Infallible>) -> Game {
    let mut removals = Vec::new();
    let Ok(pieces_left) = play(&mut |removal| {
        removals.push(removal);
        Ok(())
    });
    Game { removals, pieces_left }
}

/// [`greedy`], handing each removal to `each` as it is made instead of keeping them all (a
/// large board's removals take more memory than its tables), and letting `board` go once the
/// game has its own copy; returns the pieces left, or the first error of `each`, which ends
/// the game. The same complexity as [`greedy`], with memory about 4 bytes a cell at most.
pub fn greedy_each<E>(
    board: Board,
    rules: Rules,
    gravity: bool,
    each: impl FnMut(Removal) -> Result<(), E>,
) -> Result<usize, E> {
    let numbering = Numbering::of(&board);
    // The kinds' ids in a byte, or two, where they fit.
    if numbering.kinds() <= u8::MOST_KINDS {
        greedy_numbered::<u8, E>(board, numbering, rules, gravity, each)
    } else if numbering.kinds() <= u16::MOST_KINDS {
        greedy_numbered::<u16, E>(board, numbering, rules, gravity, each)
    } else {
        greedy_numbered::<u32, E>(board, numbering, rules, gravity, each)
    }
}

/// [`greedy_each`] with the kinds' ids stored as `K`.
fn greedy_numbered<K: Id, E>(
    board: Board,
    numbering: Numbering,
    rules: Rules,
    gravity: bool,
    each: impl FnMut(Removal) -> Result<(), E>,
) -> Result<usize, E> {
    // The board as read goes before the open cells are laid out: never three copies at once.
    let (rows, cols) = (board.rows(), board.cols());
    let ids = Ids::<K>::new(&board, numbering);
    drop(board);
    let mut walled = Walled::blocked(rows, cols, rules.outside);
    for cell in walled.board_cells() {
        walled.open[cell] = ids.of_cell[cell] == K::default();
    }
    // A byte per (cell, axis) for the sweep's layers where the turns allow it.
    if rules.max_turns <= <u8 as Layer>::MOST_TURNS {
        greedy_on(Table::<u8, K>::new(walled, ids, rules, gravity), each)
    } else {
        greedy_on(Table::<u32, K>::new(walled, ids, rules, gravity), each)
    }
}

/// [`greedy_each`] on `table`.
fn greedy_on<L: Layer, K: Id, E>(
    mut table: Table<L, K>,
    mut each: impl FnMut(Removal) -> Result<(), E>,
) -> Result<usize, E> {
    let pieces = table.ids.of_cell.iter().filter(|&&kind| kind != K::default()).count();
    let mut removals = 0;
    loop {
        let before = removals;
        for cell in table.walled.board_cells() {
            let kind = table.ids.of_cell[cell];
            if kind == K::default() {
                continue;
            }
            if let Some((partner, line)) = table.partner(cell) {
                let (a, b) = (table.walled.pos(cell), table.walled.pos(partner));
                table.remove([cell, partner]);
                removals += 1;
                each(Removal { a, b, kind: table.ids.name(kind), line })?;
            }
        }
        if removals == before {
            break;
        }
    }
    Ok(pieces - 2 * removals)
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::model::{Query, remove_pair};

    /// Greedy play that always sweeps, as it did before partners were decided directly.
    fn greedy_by_sweeps(board: &Board, rules: Rules, gravity: bool) -> Game {
        let mut table = Table::of(board, rules, gravity);
        table.most_direct = 0;
        table.stops = None;
        kept(|each| greedy_on(table, each))
    }

    /// Sweeps with layers of a byte and of four bytes play the same games: on boards this
    /// small no line needs 254 turns, so limits of 254 and 300 (which takes `u32` layers) agree.
    #[test]
    fn byte_layers_play_as_wide_ones() {
        let mut rng = ChaCha8Rng::seed_from_u64(254);
        for _ in 0..100 {
            let (rows, cols) = (rng.random_range(1..=10), rng.random_range(1..=10));
            let board = crate::r#gen::board(rows, cols, rng.random_range(0.1..=1.0), 6, &mut rng);
            let (outside, gravity) = (rng.random(), rng.random());
            let play = |max_turns| greedy(&board, Rules { max_turns, outside }, gravity);
            assert_eq!(play(254), play(300), "{board:?} outside {outside} gravity {gravity}");
        }
    }

    /// The game of `board` with the kinds' ids stored as `K`.
    fn greedy_as<K: Id>(board: &Board, rules: Rules, gravity: bool) -> Game {
        kept(|each| greedy_numbered::<K, _>(board.clone(), Numbering::of(board), rules, gravity, each))
    }

    /// Kinds numbered in a byte, two bytes or four play the same games, on boards of few kinds
    /// and of more than a byte numbers, with kinds as large as the input allows.
    #[test]
    fn narrow_ids_play_as_wide_ones() {
        let mut rng = ChaCha8Rng::seed_from_u64(255);
        for round in 0..60 {
            let (rows, cols) = (rng.random_range(1..=30), rng.random_range(1..=30));
            let kinds = if round % 2 == 0 { rng.random_range(1..=8) } else { 300 };
            let mut board = crate::r#gen::board(rows, cols, rng.random_range(0.3..=1.0), kinds, &mut rng);
            for kind in board.cells_mut().iter_mut().filter(|kind| **kind % 7 == 1) {
                *kind = Kind::MAX - *kind;
            }
            let (rules, gravity) = (Rules { max_turns: 2, outside: rng.random() }, rng.random());
            let wide = greedy_as::<u32>(&board, rules, gravity);
            assert_eq!(greedy_as::<u16>(&board, rules, gravity), wide, "{board:?}");
            if Numbering::of(&board).kinds() <= u8::MOST_KINDS {
                assert_eq!(greedy_as::<u8>(&board, rules, gravity), wide, "{board:?}");
            }
        }
    }

    /// Deciding partners directly or by where lines stop pairs the same pieces, with the same
    /// turns, as sweeping, and every line drawn joins its pair on the board of the moment.
    #[test]
    fn direct_partners_are_the_sweeps_partners() {
        let mut rng = ChaCha8Rng::seed_from_u64(25);
        for _ in 0..600 {
            let (rows, cols) = (rng.random_range(1..=12), rng.random_range(1..=12));
            let density = rng.random_range(0.05..=1.0);
            let board = crate::r#gen::board(rows, cols, density, rng.random_range(1..=12), &mut rng);
            let rules = Rules { max_turns: rng.random_range(0..=3), outside: rng.random() };
            let gravity = rng.random();
            let (direct, swept) = (greedy(&board, rules, gravity), greedy_by_sweeps(&board, rules, gravity));
            // Lines of two turns may take another path; those of fewer are the sweep's own.
            let pairs = |game: &Game| {
                let line = |removal: &Removal| (removal.line.turns() < 2).then(|| removal.line.clone());
                game.removals.iter().map(|r| (r.a, r.b, r.kind, r.line.turns(), line(r))).collect::<Vec<_>>()
            };
            assert_eq!(pairs(&direct), pairs(&swept), "{board:?} {rules:?} gravity {gravity}");
            assert_eq!(direct.pieces_left, swept.pieces_left);
            let mut now = board.clone();
            for removal in &direct.removals {
                let query = Query { a: removal.a, b: removal.b };
                assert_eq!(removal.line.check(&now, rules, query), Ok(()), "{board:?} {rules:?}");
                remove_pair(&mut now, removal.a, removal.b, gravity);
            }
        }
    }
}
