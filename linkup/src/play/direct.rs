//! Greedy play's partner found without a sweep, when a piece's kind has few other pieces left.
//!
//! A [`Sweep`](crate::query::Sweep) from a piece reaches cells layer by layer (by turns) until a
//! line runs into a piece of its kind; on a board that has emptied it covers most of the board
//! before it finds one, or before it finds none. When the kind has only a few other pieces
//! left, each is checked directly instead, for a line of 0, then 1, then 2 turns. The sweep's
//! first hit lies in the layer of the fewest turns any of them needs, so:
//! - no candidate joined: the sweep would find nothing;
//! - one candidate joined with fewer turns than all the others: it is the one the sweep would
//!   hit first, with the same turns;
//! - two or more with the same fewest turns: which one the sweep meets first depends on its
//!   order of exploration, so the sweep decides ([`Direct::Tie`]).
//!
//! The line returned is one with the fewest turns; where several exist, it may differ from the
//! one the sweep would have drawn, never in its number of turns.

/// Most other pieces of a kind that are checked one by one instead of sweeping: each check
/// walks a few runs of cells, a sweep of an emptied board covers the whole board.
pub(super) const MOST_CANDIDATES: usize = 32;

/// What the direct check decided.
pub(super) enum Direct {
    /// The partner and the cells of a line to it with the fewest turns: its ends and turns.
    Found(usize, Vec<usize>),
    /// No piece of the kind can be reached.
    Nothing,
    /// Several pieces need the same fewest turns: a sweep must say which comes first.
    Tie,
}

/// A cell's row or column on a walled board of the given width.
type Coordinate = fn(usize, usize) -> usize;

/// The walled board's open cells and its width, for walking lines cell by cell.
#[derive(Clone, Copy)]
pub(super) struct Grid<'a> {
    pub open: &'a [bool],
    pub width: usize,
}

impl Grid<'_> {
    /// Decides the partner of the piece on `from` among the pieces of its kind on the cells
    /// `of_kind` (at most [`MOST_CANDIDATES`] others), with lines of at most `max_turns` (≤ 2)
    /// turns.
    pub(super) fn partner(
        self,
        from: usize,
        of_kind: impl Iterator<Item = usize> + Clone,
        max_turns: u32,
    ) -> Direct {
        let candidates = of_kind.filter(|&cell| cell != from);
        for turns in 0..=max_turns {
            let mut joined = candidates.clone().filter_map(|to| Some((to, self.line(from, to, turns)?)));
            match (joined.next(), joined.next()) {
                (Some((to, line)), None) => return Direct::Found(to, line),
                (Some(_), Some(_)) => return Direct::Tie,
                (None, _) => {}
            }
        }
        Direct::Nothing
    }

    /// A line from `a` to `b` with exactly `turns` (0 to 2) turns, as its ends and turns.
    fn line(self, a: usize, b: usize, turns: u32) -> Option<Vec<usize>> {
        let (row, col) = (|cell: usize| cell / self.width, |cell: usize| cell % self.width);
        match turns {
            0 => ((row(a) == row(b) || col(a) == col(b)) && self.clear(a, b)).then(|| vec![a, b]),
            1 => {
                let (in_a_row, in_a_column) = (row(a) * self.width + col(b), row(b) * self.width + col(a));
                // The sweep leaves `a` right, down, left, up, in that order: the corner on the
                // line leaving down comes first only when `b` is below and to the left.
                let corners = if row(b) > row(a) && col(b) < col(a) {
                    [in_a_column, in_a_row]
                } else {
                    [in_a_row, in_a_column]
                };
                corners
                    .into_iter()
                    .find(|&corner| self.open[corner] && self.clear(a, corner) && self.clear(corner, b))
                    .map(|corner| vec![a, corner, b])
            }
            _ => self.two_turns(a, b, 1).or_else(|| self.two_turns(a, b, self.width)),
        }
    }

    /// A line of two turns from `a` to `b` whose first and last segments run along `step`
    /// (1: along rows, the middle one down a column; the width: along columns).
    fn two_turns(self, a: usize, b: usize, step: usize) -> Option<Vec<usize>> {
        // Coordinates along `step` (`along`) and across it (`line`): column and row for rows.
        let (column, row): (Coordinate, Coordinate) =
            (|cell, width| cell % width, |cell, width| cell / width);
        let (along, line) = if step == 1 { (column, row) } else { (row, column) };
        let width = self.width;
        if line(a, width) == line(b, width) {
            return None;
        }
        let (a_low, a_high) = self.run(a, step);
        let (b_low, b_high) = self.run(b, step);
        let (a_at, b_at) = (along(a, width), along(b, width));
        let low = along(a_low, width).max(along(b_low, width));
        let high = along(a_high, width).min(along(b_high, width));
        (low..=high).filter(|&at| at != a_at && at != b_at).find_map(|at| {
            let (bend_a, bend_b) = (a - a_at * step + at * step, b - b_at * step + at * step);
            self.clear(bend_a, bend_b).then(|| vec![a, bend_a, bend_b, b])
        })
    }

    /// The first and last cells of the open run through `cell` along `step` (`cell` itself
    /// when no open cell is next to it on that side).
    fn run(self, cell: usize, step: usize) -> (usize, usize) {
        let mut low = cell;
        while self.open[low - step] {
            low -= step;
        }
        let mut high = cell;
        while self.open[high + step] {
            high += step;
        }
        (low, high)
    }

    /// True when every cell strictly between `a` and `b`, on one row or one column, is open.
    fn clear(self, a: usize, b: usize) -> bool {
        let (low, high) = (a.min(b), a.max(b));
        let step = if low / self.width == high / self.width { 1 } else { self.width };
        (low + step..high).step_by(step).all(|cell| self.open[cell])
    }
}
