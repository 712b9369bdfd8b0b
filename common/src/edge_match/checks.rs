//! The checks that need no search or O(1) per placement, for both searches.
//!
//! # Root checks
//! [`Puzzle::check_counts`] runs first; it needs no search and refutes most broken puzzles:
//! - the tile count fits the board;
//! - *fixed border:* every *border class* (the set of sides on the border: corner, edge, inner
//!   and so on) has as many tiles as the board has cells of that class, up to rotation when
//!   tiles turn;
//! - *single orientations, free border:* per label, the surplus of right over left (bottom over
//!   top) sides fits in one column (row);
//! - *single orientations, fixed border:* per label, right and left (bottom and top) sides
//!   balance, and each of the four *border lines* can be chained: the tiles of the top row
//!   (those with a border top) must form a path from the left border to the right one, each
//!   tile an edge from its left label to its right label, so they must admit an Euler trail
//!   (balanced labels, all edges connected); likewise the bottom row, and the first and last
//!   columns from top to bottom.
//!
//! # Checks per placement (single orientations)
//! - **Open bottoms** ([`Counters`]). Every placed tile whose lower neighbour is still empty
//!   leaves an open bottom edge; for each label, the remaining tiles with that top label must
//!   be at least as many as the open bottom edges with it. O(1).
//! - **Surplus** ([`Counters`], free border only). Over the remaining tiles, the positive part
//!   of (right sides − left sides) per label must fit in the right-border cells still empty, and
//!   likewise bottoms over tops in the bottom row: the border must carry exactly what the inside
//!   cannot pair up. O(1). (With a fixed border these sums never change, so the root check
//!   covers them.)
//! - **Border lines** ([`FixedChecks`], fixed border only). The tiles of a border line not yet
//!   placed must still form a trail from the line's open end (the last placed tile's right, or
//!   bottom, label) to the border. Placing tiles along the line keeps the trail's label
//!   balance, so only its connectivity can break: a placement is refused when some remaining
//!   tile of the line is no longer reachable from the open end. This catches a wrong turn in
//!   the first or last column at once, instead of rows later. O(labels) per line tile.
//! - **Last two rows** ([`LastRows`], a fixed border with exactly two other labels). The bottom
//!   row's tiles are known (their bottom is the border), so the tiles left for the rows above it
//!   must, counted by (top, bottom) label pair, split into the rest of the current row and at
//!   most one more row such that tops meet the open bottom edges and the last of them meet the
//!   tops of the bottom row. With two labels this is a test on four counters. O(1).

use super::{BOTTOM, Border, LEFT, MAX_LABELS, MAX_SIDE, Puzzle, RIGHT, TOP, Variant};

/// Per-label counters are indexed through this mask, so the hot loop has no bounds checks.
const LABEL_MASK: usize = MAX_LABELS - 1;
// Border masks are four bits, one per side; `Line` keeps label sets in `u32`s.
const _: () = assert!(MAX_LABELS <= u32::BITS as usize && BORDER_CLASSES == 16);

/// Border masks: four bits, one per side.
const BORDER_CLASSES: usize = 1 << 4;

/// The four border lines: the side that lies on the border, and the sides a line's tile joins
/// its predecessor and successor by (left and right for rows, top and bottom for columns).
const LINES: [(usize, usize, usize); 4] =
    [(TOP, LEFT, RIGHT), (RIGHT, TOP, BOTTOM), (BOTTOM, LEFT, RIGHT), (LEFT, TOP, BOTTOM)];

/// Bits of the sides of `sides` that carry `label`: bit `s` for side `s`.
pub(super) fn border_mask(sides: [u8; 4], label: u8) -> u8 {
    (0..4).filter(|&side| sides[side] == label).fold(0, |mask, side| mask | 1 << side)
}

/// The border mask of the cell at (`row`, `col`): bit `s` when side `s` lies on the border.
pub(super) fn cell_mask(rows: usize, cols: usize, row: usize, col: usize) -> u8 {
    u8::from(row == 0) << TOP
        | u8::from(col + 1 == cols) << RIGHT
        | u8::from(row + 1 == rows) << BOTTOM
        | u8::from(col == 0) << LEFT
}

/// The smallest of a border mask's four rotations: equal for masks that differ by a turn.
pub(super) fn rotation_class(mask: u8) -> u8 {
    (0..4).map(|turns| ((mask << turns) | (mask >> (4 - turns))) & 0xf).min().unwrap_or(mask)
}

impl Puzzle {
    /// The root checks: necessary conditions that need no search. The tile count fits the board;
    /// with a fixed border, every border class (corner, edge, inner…) has as many tiles as cells;
    /// with single orientations, per label the sides balance across every joint (up to what the
    /// border can take with a free border), and with a fixed border each border line can be
    /// chained from corner to corner (an Euler trail). False means there is no solution.
    pub fn check_counts(&self) -> bool {
        let tiles: u32 = self.kinds.iter().map(|kind| kind.count).sum();
        if tiles as usize != self.rows * self.cols {
            return false;
        }
        if let Border::Fixed(label) = self.border
            && !self.border_classes_fit(label)
        {
            return false;
        }
        if !self.single_orientations() {
            return true;
        }
        let mut side_counts = [[0i64; MAX_LABELS]; 4];
        for kind in &self.kinds {
            for (side, &label) in kind.orientations[0].iter().enumerate() {
                side_counts[side][label as usize] += i64::from(kind.count);
            }
        }
        let [top, right, bottom, left] = side_counts;
        // `line` border sides take the surplus of `plus` over `minus` sides (right over left,
        // bottom over top); every other side meets its partner inside.
        let balanced = |plus: &[i64; MAX_LABELS], minus: &[i64; MAX_LABELS], line: usize| {
            let line = line as i64;
            match self.border {
                Border::Free => (0..self.labels).map(|d| (plus[d] - minus[d]).max(0)).sum::<i64>() <= line,
                Border::Fixed(border) => (0..self.labels).all(|d| {
                    if d == border as usize {
                        plus[d] == line && minus[d] == line
                    } else {
                        plus[d] == minus[d]
                    }
                }),
            }
        };
        let lines_chain = match self.border {
            Border::Free => true,
            Border::Fixed(label) => self
                .border_lines(label)
                .iter()
                .all(|line| line.balanced_from(label, label) && line.connected_from(label)),
        };
        balanced(&right, &left, self.rows) && balanced(&bottom, &top, self.cols) && lines_chain
    }

    /// The four border lines, in the order of [`LINES`], holding every tile whose side on that
    /// line is `label` (single orientations only).
    pub(super) fn border_lines(&self, label: u8) -> Box<[Line; 4]> {
        let mut lines: Box<[Line; 4]> = Box::default();
        for (line, &(on, from, to)) in lines.iter_mut().zip(&LINES) {
            for kind in self.kinds.iter().filter(|kind| kind.orientations[0][on] == label) {
                let sides = kind.orientations[0];
                (0..kind.count).for_each(|_| line.add(sides[from], sides[to]));
            }
        }
        lines
    }

    /// Whether each border class has as many tiles as cells (by exact mask, or by rotation
    /// class when some kind turns).
    pub(super) fn border_classes_fit(&self, label: u8) -> bool {
        let class = |mask: u8| if self.single_orientations() { mask } else { rotation_class(mask) };
        let mut balance = [0i64; BORDER_CLASSES];
        for row in 0..self.rows {
            for col in 0..self.cols {
                balance[class(cell_mask(self.rows, self.cols, row, col)) as usize] += 1;
            }
        }
        for kind in &self.kinds {
            balance[class(border_mask(kind.orientations[0], label)) as usize] -= i64::from(kind.count);
        }
        balance.iter().all(|&difference| difference == 0)
    }
}

/// Per-label counters for the open-bottoms and surplus checks (the surplus ones are read with a
/// free border only, where "the next cell's left" is free in column 0). Invariants, over the
/// tiles not yet placed and the cells not yet filled (filled cells precede empty ones in
/// row-major order):
/// - `h_surplus[d] = right sides d − left sides d + [the next cell's left must be d]`,
///   `h_positive = Σ max(h_surplus[d], 0)`;
/// - `v_surplus[d] = bottom sides d − top sides d + open bottom edges d`,
///   `v_positive = Σ max(v_surplus[d], 0)`;
/// - `spare_tops[d]` = remaining tiles with top `d` − open bottom edges labelled `d` (an open
///   bottom edge is the bottom of a filled cell above an empty one).
#[derive(Debug, Clone, Default)]
pub(super) struct Counters {
    pub(super) h_surplus: [i32; MAX_LABELS],
    pub(super) h_positive: i32,
    pub(super) v_surplus: [i32; MAX_LABELS],
    pub(super) v_positive: i32,
    pub(super) spare_tops: [i32; MAX_LABELS],
}

impl Counters {
    /// The counters with no tile placed (single orientations).
    pub(super) fn of(puzzle: &Puzzle) -> Self {
        let mut counters = Counters::default();
        for kind in &puzzle.kinds {
            let [top, right, bottom, left] = kind.orientations[0];
            let n = kind.count as i32;
            Self::add(&mut counters.h_surplus, &mut counters.h_positive, right, n);
            Self::add(&mut counters.h_surplus, &mut counters.h_positive, left, -n);
            Self::add(&mut counters.v_surplus, &mut counters.v_positive, bottom, n);
            Self::add(&mut counters.v_surplus, &mut counters.v_positive, top, -n);
            counters.spare_tops[top as usize & LABEL_MASK] += n;
        }
        counters
    }

    /// The root surplus check: with no tile placed, every left (top) side lies on the left
    /// border (top row) or meets a right (bottom) side inside, so the surplus must fit in one
    /// column (row) with all cells empty.
    pub(super) fn surplus_fits(&self, rows: usize, cols: usize) -> bool {
        self.h_positive <= rows as i32 && self.v_positive <= cols as i32
    }

    pub(super) fn add(surplus: &mut [i32; MAX_LABELS], positive: &mut i32, label: u8, delta: i32) {
        let entry = &mut surplus[label as usize & LABEL_MASK];
        *positive -= (*entry).max(0);
        *entry += delta;
        *positive += (*entry).max(0);
    }

    /// Updates the open-bottom and surplus counters for a tile placed at (row, col) of a
    /// `rows × cols` board.
    pub(super) fn place(&mut self, rows: usize, cols: usize, row: usize, col: usize, v: Variant) {
        // Only tiles in the border columns and rows change the surplus: inner joints cancel.
        if col == 0 {
            Self::add(&mut self.h_surplus, &mut self.h_positive, v.left, 1);
        }
        if col + 1 == cols {
            Self::add(&mut self.h_surplus, &mut self.h_positive, v.right, -1);
        }
        if row == 0 {
            Self::add(&mut self.v_surplus, &mut self.v_positive, v.top, 1);
            self.spare_tops[v.top as usize & LABEL_MASK] -= 1;
        }
        if row + 1 == rows {
            Self::add(&mut self.v_surplus, &mut self.v_positive, v.bottom, -1);
        } else {
            self.spare_tops[v.bottom as usize & LABEL_MASK] -= 1;
        }
    }

    /// The mirror of [`Counters::place`].
    pub(super) fn unplace(&mut self, rows: usize, cols: usize, row: usize, col: usize, v: Variant) {
        if col == 0 {
            Self::add(&mut self.h_surplus, &mut self.h_positive, v.left, -1);
        }
        if col + 1 == cols {
            Self::add(&mut self.h_surplus, &mut self.h_positive, v.right, 1);
        }
        if row == 0 {
            Self::add(&mut self.v_surplus, &mut self.v_positive, v.top, -1);
            self.spare_tops[v.top as usize & LABEL_MASK] += 1;
        }
        if row + 1 == rows {
            Self::add(&mut self.v_surplus, &mut self.v_positive, v.bottom, 1);
        } else {
            self.spare_tops[v.bottom as usize & LABEL_MASK] += 1;
        }
    }

    /// The open-bottom checks, and the surplus ones when `surplus`, after `v` landed at
    /// (row, col).
    pub(super) fn hold(
        &self,
        rows: usize,
        cols: usize,
        row: usize,
        col: usize,
        v: Variant,
        surplus: bool,
    ) -> bool {
        let spare = self.spare_tops[v.bottom as usize & LABEL_MASK] >= 0
            && self.spare_tops[v.top as usize & LABEL_MASK] >= 0;
        if !surplus {
            return spare;
        }
        let last_row = rows - 1;
        let last_col = cols - 1;
        // Empty cells left on the right border and in the bottom row, after this one.
        let right_border_left = (last_row - row) + usize::from(col < last_col);
        let bottom_row_left = if row == last_row { last_col - col } else { cols };
        spare && self.h_positive <= right_border_left as i32 && self.v_positive <= bottom_row_left as i32
    }
}

/// The tiles of one border line not yet placed, as a multigraph on labels: each tile an edge
/// from the label joining its predecessor to the label joining its successor. Invariants:
/// `edges[a][b]` counts the tiles with labels (a, b); `degree[d]` counts edge ends at `d`;
/// bit `b` of `adjacent[a]` is set exactly when `edges[a][b] + edges[b][a] > 0`; bit `d` of
/// `used` exactly when `degree[d] > 0`.
#[derive(Debug, Clone)]
pub(super) struct Line {
    edges: [[u16; MAX_LABELS]; MAX_LABELS],
    degree: [u16; MAX_LABELS],
    adjacent: [u32; MAX_LABELS],
    used: u32,
}

impl Default for Line {
    fn default() -> Self {
        Line {
            edges: [[0; MAX_LABELS]; MAX_LABELS],
            degree: [0; MAX_LABELS],
            adjacent: [0; MAX_LABELS],
            used: 0,
        }
    }
}

impl Line {
    pub(super) fn add(&mut self, from: u8, to: u8) {
        let (a, b) = (from as usize, to as usize);
        self.edges[a][b] += 1;
        self.degree[a] += 1;
        self.degree[b] += 1;
        self.adjacent[a] |= 1 << b;
        self.adjacent[b] |= 1 << a;
        self.used |= 1 << a | 1 << b;
    }

    pub(super) fn remove(&mut self, from: u8, to: u8) {
        let (a, b) = (from as usize, to as usize);
        self.edges[a][b] -= 1;
        self.degree[a] -= 1;
        self.degree[b] -= 1;
        if self.edges[a][b] == 0 && self.edges[b][a] == 0 {
            self.adjacent[a] &= !(1 << b);
            self.adjacent[b] &= !(1 << a);
        }
        for d in [a, b] {
            if self.degree[d] == 0 {
                self.used &= !(1 << d);
            }
        }
    }

    /// Whether every label has as many edges out as in, except one more out of `start` and
    /// one more into `end`: the degree condition for a trail from `start` to `end`.
    pub(super) fn balanced_from(&self, start: u8, end: u8) -> bool {
        (0..MAX_LABELS).all(|d| {
            let out: i32 = self.edges[d].iter().map(|&n| i32::from(n)).sum();
            let into: i32 = self.edges.iter().map(|row| i32::from(row[d])).sum();
            out - into == i32::from(d == start as usize) - i32::from(d == end as usize)
        })
    }

    /// Whether every remaining edge can be reached from `start` (edges taken either way).
    /// With the balance of [`Line::balanced_from`], this makes the Euler-trail condition exact.
    pub(super) fn connected_from(&self, start: u8) -> bool {
        let mut reached = 1u32 << start;
        loop {
            let mut next = reached;
            let mut pending = reached;
            while pending != 0 {
                next |= self.adjacent[pending.trailing_zeros() as usize];
                pending &= pending - 1;
            }
            if next == reached {
                break;
            }
            reached = next;
        }
        self.used & !reached == 0
    }
}

/// Counters for the last-two-rows check (fixed border, exactly two other labels `x` and `y`),
/// over the tiles not yet placed. Invariants:
/// - `middle[i][j]`: tiles with neither top nor bottom on the border, whose top is the `i`-th
///   and bottom the `j`-th of (`x`, `y`);
/// - `bottom_row_x`: tiles with a border bottom and top `x` (the bottom row's tops);
/// - `open_x`: open bottom edges labelled `x`; `row_x[r]`: bottoms `x` placed in row `r`.
#[derive(Debug, Clone)]
pub(super) struct LastRows {
    x: u8,
    y: u8,
    middle: [[i32; 2]; 2],
    bottom_row_x: i32,
    open_x: i32,
    row_x: [i32; MAX_SIDE],
}

/// The checks that need a fixed border and single orientations: the four border lines, in
/// the order of [`LINES`], and the last-two-rows counts when there are two other labels.
#[derive(Debug, Clone)]
pub(super) struct FixedChecks {
    lines: [Line; 4],
    last_rows: Option<LastRows>,
}

impl FixedChecks {
    /// The checks with no tile placed, for a puzzle with single orientations and the border
    /// label `label`.
    pub(super) fn new(puzzle: &Puzzle, label: u8) -> Self {
        let last_rows = (puzzle.labels == 3).then(|| LastRows::new(puzzle, label));
        FixedChecks { lines: *puzzle.border_lines(label), last_rows }
    }

    /// For each border line, the (predecessor, successor) labels of `v` when (row, col) lies on
    /// that line.
    fn line_sides(rows: usize, cols: usize, row: usize, col: usize, v: Variant) -> [Option<(u8, u8)>; 4] {
        [
            (row == 0).then_some((v.left, v.right)),
            (col + 1 == cols).then_some((v.top, v.bottom)),
            (row + 1 == rows).then_some((v.left, v.right)),
            (col == 0).then_some((v.top, v.bottom)),
        ]
    }

    /// Moves `v` at (row, col) out of the tiles not placed (`delta` = −1) or back (`delta` = 1).
    pub(super) fn update(
        &mut self,
        rows: usize,
        cols: usize,
        row: usize,
        col: usize,
        v: Variant,
        delta: i32,
    ) {
        for (line, sides) in self.lines.iter_mut().zip(Self::line_sides(rows, cols, row, col, v)) {
            match sides {
                Some((from, to)) if delta < 0 => line.remove(from, to),
                Some((from, to)) => line.add(from, to),
                None => {}
            }
        }
        if let Some(last) = &mut self.last_rows {
            last.update(v, row, rows, delta);
        }
    }

    /// Whether the lines through (row, col) still chain from `v` on, and the last rows still
    /// split, after `v` landed there.
    pub(super) fn hold(&self, rows: usize, cols: usize, row: usize, col: usize, v: Variant) -> bool {
        let ends = Self::line_sides(rows, cols, row, col, v);
        let lines_chain = self
            .lines
            .iter()
            .zip(ends)
            .all(|(line, sides)| sides.is_none_or(|(_, to)| line.connected_from(to)));
        let next = row * cols + col + 1;
        lines_chain
            && self.last_rows.as_ref().is_none_or(|last| last.feasible(next / cols, next % cols, rows, cols))
    }
}

impl LastRows {
    /// The counters with no tile placed, for a puzzle whose labels are the border label `label`
    /// and two others.
    fn new(puzzle: &Puzzle, label: u8) -> Self {
        let mut others = (0..3u8).filter(|&d| d != label);
        let (x, y) = (others.next().unwrap_or(0), others.next().unwrap_or(0));
        let mut last =
            LastRows { x, y, middle: [[0; 2]; 2], bottom_row_x: 0, open_x: 0, row_x: [0; MAX_SIDE] };
        for kind in &puzzle.kinds {
            let [top, _, bottom, _] = kind.orientations[0];
            let n = kind.count as i32;
            if top != label && bottom != label {
                last.middle[usize::from(top == y)][usize::from(bottom == y)] += n;
            } else if bottom == label && top == x {
                last.bottom_row_x += n;
            }
        }
        last
    }

    /// Moves `v`, placed in `row` (`delta` = −1) or taken back (`delta` = 1), in or out of the
    /// counts of tiles not placed.
    pub(super) fn update(&mut self, v: Variant, row: usize, rows: usize, delta: i32) {
        let border_top = row == 0;
        let border_bottom = row + 1 == rows;
        if !border_top && !border_bottom {
            self.middle[usize::from(v.top == self.y)][usize::from(v.bottom == self.y)] += delta;
        } else if border_bottom && !border_top && v.top == self.x {
            self.bottom_row_x += delta;
        }
        // Placing closes the open edge above the tile and opens the one below it (none below
        // the last row).
        if !border_top && v.top == self.x {
            self.open_x += delta;
        }
        if !border_bottom && v.bottom == self.x {
            self.open_x -= delta;
            self.row_x[row] -= delta;
        }
    }

    /// Whether the tiles left for the rows above the bottom row can still be split as the module
    /// documentation says, in the state before filling column `col` of `row`. Checked only when
    /// at most one full row lies between the current row and the bottom row.
    fn feasible(&self, row: usize, col: usize, rows: usize, cols: usize) -> bool {
        if row == 0 || row + 2 > rows || row + 3 < rows {
            return true;
        }
        let [[xx, xy], [yx, yy]] = self.middle;
        // The rest of this row: `width` cells under `tops_x` open edges labelled x; the bottoms
        // placed in this row so far hold `placed_x` labels x.
        let width = (cols - col) as i32;
        let placed_x = self.row_x[row];
        let tops_x = self.open_x - placed_x;
        if row + 2 == rows {
            // The rest of this row takes every tile left; its bottoms, with those placed, must
            // match the bottom row's tops.
            return xx + xy == tops_x && placed_x + xx + yx == self.bottom_row_x;
        }
        // One more row follows. The rest of this row takes `a` tiles (x, x), `tops_x − a`
        // tiles (x, y), `b` tiles (y, x) and `width − tops_x − b` tiles (y, y); the next row
        // the others. Its tops must meet this row's bottoms and its bottoms the bottom row's
        // tops, which fixes `a + b`; each count lies in a range.
        let sum = xx + yx - self.bottom_row_x;
        let (low_a, high_a) = ((tops_x - xy).max(0), xx.min(tops_x));
        let (low_b, high_b) = ((width - tops_x - yy).max(0), yx.min(width - tops_x));
        low_a <= high_a && low_b <= high_b && low_a + low_b <= sum && sum <= high_a + high_b
    }
}
