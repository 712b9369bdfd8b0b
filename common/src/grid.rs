//! [`Grid<T>`]: a rectangle of cells stored row-major, with positions and the four directions.

use std::ops::{Index, IndexMut};

/// A cell position: row from the top, column from the left, both 0-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// Row, 0 at the top.
    pub row: usize,
    /// Column, 0 at the left.
    pub col: usize,
}

impl Pos {
    /// The position at `row`, `col`.
    pub const fn new(row: usize, col: usize) -> Self {
        Pos { row, col }
    }
}

/// One of the four directions on a grid, also naming the four sides of a square tile.
/// The order (up, right, down, left) is clockwise and is the order tile sides are read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[must_use]
pub enum Direction {
    /// Towards row 0; the top side of a tile.
    Up = 0,
    /// Towards higher columns; the right side of a tile.
    Right = 1,
    /// Towards higher rows; the bottom side of a tile.
    Down = 2,
    /// Towards column 0; the left side of a tile.
    Left = 3,
}

impl Direction {
    /// All four, clockwise from up.
    pub const ALL: [Direction; 4] = [Direction::Up, Direction::Right, Direction::Down, Direction::Left];

    /// The direction's index in [`Direction::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The opposite direction.
    pub const fn opposite(self) -> Direction {
        self.rotated(2)
    }

    /// The direction after `quarter_turns` turns clockwise.
    pub const fn rotated(self, quarter_turns: usize) -> Direction {
        Direction::ALL[(self as usize + quarter_turns) % 4]
    }

    /// True for left and right.
    pub const fn is_horizontal(self) -> bool {
        matches!(self, Direction::Left | Direction::Right)
    }

    /// Row and column steps of one move in this direction.
    pub const fn delta(self) -> (isize, isize) {
        match self {
            Direction::Up => (-1, 0),
            Direction::Right => (0, 1),
            Direction::Down => (1, 0),
            Direction::Left => (0, -1),
        }
    }
}

/// A `rows × cols` rectangle of `T`, stored row by row in one vector.
///
/// # Complexity
/// Access by position ([`Grid::get`], indexing, [`Grid::neighbour`]) and [`Grid::row`] are
/// O(1); [`Grid::new`], [`Grid::map`] and the drawing are linear in the cells.
///
/// # Panics
/// Indexing with a position outside the grid, and [`Grid::row`] past the last row, panic;
/// [`Grid::get`] and [`Grid::neighbour`] answer `None` instead.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grid<T> {
    rows: usize,
    cols: usize,
    cells: Vec<T>,
}

impl<T> Grid<T> {
    /// A grid of `rows × cols` copies of `fill`.
    pub fn new(rows: usize, cols: usize, fill: T) -> Self
    where
        T: Clone,
    {
        Grid { rows, cols, cells: vec![fill; rows * cols] }
    }

    /// A grid over `cells` given row by row.
    ///
    /// # Panics
    /// When `cells.len() != rows * cols`.
    pub fn from_vec(rows: usize, cols: usize, cells: Vec<T>) -> Self {
        assert_eq!(cells.len(), rows * cols, "a {rows}x{cols} grid needs {} cells", rows * cols);
        Grid { rows, cols, cells }
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// All cells, row by row.
    pub fn cells(&self) -> &[T] {
        &self.cells
    }

    /// All cells, row by row, mutably.
    pub fn cells_mut(&mut self) -> &mut [T] {
        &mut self.cells
    }

    /// The cells, row by row, giving up the grid.
    pub fn into_cells(self) -> Vec<T> {
        self.cells
    }

    /// True when `pos` lies inside the grid.
    pub fn contains(&self, pos: Pos) -> bool {
        pos.row < self.rows && pos.col < self.cols
    }

    /// The cell at `pos`, if inside.
    pub fn get(&self, pos: Pos) -> Option<&T> {
        self.contains(pos).then(|| &self.cells[pos.row * self.cols + pos.col])
    }

    /// Row `row` as a slice.
    ///
    /// # Panics
    /// When `row` is not below [`Grid::rows`].
    pub fn row(&self, row: usize) -> &[T] {
        &self.cells[row * self.cols..(row + 1) * self.cols]
    }

    /// The rows, top to bottom, each a slice.
    pub fn iter_rows(&self) -> std::slice::ChunksExact<'_, T> {
        self.cells.chunks_exact(self.cols.max(1))
    }

    /// Column `col`, top to bottom.
    pub fn column(&self, col: usize) -> impl DoubleEndedIterator<Item = &T> {
        self.cells.iter().skip(col).step_by(self.cols.max(1)).take(self.rows)
    }

    /// Every position, row by row.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + use<T> {
        let cols = self.cols;
        (0..self.rows * cols).map(move |i| Pos::new(i / cols, i % cols))
    }

    /// The position one step from `pos` in `direction`, if it is inside the grid.
    pub fn neighbour(&self, pos: Pos, direction: Direction) -> Option<Pos> {
        let (dr, dc) = direction.delta();
        let next = Pos::new(pos.row.checked_add_signed(dr)?, pos.col.checked_add_signed(dc)?);
        self.contains(next).then_some(next)
    }

    /// The neighbours of `pos` inside the grid, with the direction leading to each.
    pub fn neighbours(&self, pos: Pos) -> impl Iterator<Item = (Direction, Pos)> + '_ {
        Direction::ALL.into_iter().filter_map(move |d| Some((d, self.neighbour(pos, d)?)))
    }

    /// A grid of the same shape with `f` applied to every cell.
    pub fn map<U>(&self, f: impl FnMut(&T) -> U) -> Grid<U> {
        Grid { rows: self.rows, cols: self.cols, cells: self.cells.iter().map(f).collect() }
    }

    /// The grid drawn as text: every cell a box of 3 × 3 characters given by `face` (three
    /// rows of three), boxes separated by `|` and rules of `+---+`, each line ending in `\n`.
    /// Used by the `--show` drawings of the edge-matching puzzles.
    pub fn draw_boxes(&self, face: impl Fn(&T) -> [[char; 3]; 3]) -> String {
        let rule = format!("+{}\n", "---+".repeat(self.cols));
        let mut out = rule.clone();
        for row in self.iter_rows() {
            let faces: Vec<[[char; 3]; 3]> = row.iter().map(&face).collect();
            for line in 0..3 {
                out.push('|');
                for face in &faces {
                    out.extend(face[line]);
                    out.push('|');
                }
                out.push('\n');
            }
            out.push_str(&rule);
        }
        out
    }
}

impl<T> Index<Pos> for Grid<T> {
    type Output = T;

    fn index(&self, pos: Pos) -> &T {
        assert!(self.contains(pos), "{pos:?} is outside a {}x{} grid", self.rows, self.cols);
        &self.cells[pos.row * self.cols + pos.col]
    }
}

impl<T> IndexMut<Pos> for Grid<T> {
    fn index_mut(&mut self, pos: Pos) -> &mut T {
        assert!(self.contains(pos), "{pos:?} is outside a {}x{} grid", self.rows, self.cols);
        &mut self.cells[pos.row * self.cols + pos.col]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(rows: usize, cols: usize) -> Grid<usize> {
        Grid::from_vec(rows, cols, (0..rows * cols).collect())
    }

    #[test]
    fn boxes_are_drawn_row_by_row_with_their_faces() {
        let face = |&n: &usize| {
            let c = char::from(b'0' + n as u8);
            [[c, '-', c], ['.', c, '.'], [c, '_', c]]
        };
        let drawn = numbered(2, 2).draw_boxes(face);
        let expected = "+---+---+\n|0-0|1-1|\n|.0.|.1.|\n|0_0|1_1|\n+---+---+\n\
                        |2-2|3-3|\n|.2.|.3.|\n|2_2|3_3|\n+---+---+\n";
        assert_eq!(drawn, expected);
    }

    #[test]
    fn rows_and_columns() {
        let grid = numbered(3, 4);
        assert_eq!(grid.row(1), &[4, 5, 6, 7]);
        assert_eq!(grid.column(2).copied().collect::<Vec<_>>(), [2, 6, 10]);
        assert_eq!(grid.iter_rows().count(), 3);
        assert_eq!(grid[Pos::new(2, 3)], 11);
        assert_eq!(grid.get(Pos::new(3, 0)), None);
        assert_eq!(grid.positions().nth(5), Some(Pos::new(1, 1)));
    }

    #[test]
    fn neighbours_stay_inside() {
        let grid = numbered(2, 3);
        let corner: Vec<_> = grid.neighbours(Pos::new(0, 0)).collect();
        assert_eq!(corner, [(Direction::Right, Pos::new(0, 1)), (Direction::Down, Pos::new(1, 0))]);
        assert_eq!(grid.neighbours(Pos::new(1, 1)).count(), 3);
        assert_eq!(grid.neighbour(Pos::new(1, 2), Direction::Right), None);
        assert_eq!(grid.neighbour(Pos::new(1, 2), Direction::Up), Some(Pos::new(0, 2)));
    }

    #[test]
    fn directions_turn_clockwise() {
        assert_eq!(Direction::Up.rotated(1), Direction::Right);
        assert_eq!(Direction::Left.rotated(1), Direction::Up);
        assert_eq!(Direction::Down.opposite(), Direction::Up);
        assert!(Direction::Left.is_horizontal() && !Direction::Up.is_horizontal());
        for d in Direction::ALL {
            let (dr, dc) = d.delta();
            let (or, oc) = d.opposite().delta();
            assert_eq!((dr + or, dc + oc), (0, 0));
        }
    }

    #[test]
    #[should_panic(expected = "outside")]
    fn indexing_outside_panics() {
        let _ = numbered(2, 2)[Pos::new(0, 2)];
    }

    #[test]
    fn map_keeps_the_shape() {
        let doubled = numbered(2, 2).map(|v| v * 2);
        assert_eq!(doubled.cells(), &[0, 2, 4, 6]);
        assert_eq!((doubled.rows(), doubled.cols()), (2, 2));
    }
}
