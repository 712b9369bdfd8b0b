//! Pictures of boards and games for `--svg DIR`.
//!
//! A piece is a square in its kind's colour with the kind printed on it, outlined so that two
//! neighbours of one colour stay two pieces; an empty cell is grey; the ring of empty space
//! around the board, where `--outside` lets lines run, is the white margin. A line joining two
//! pieces runs from the edge of one, through the centres of the cells it crosses, to the edge of
//! the other, in black on a white casing so that it shows on every colour, and its two pieces
//! are ringed the same way.
//!
//! A played game is a sheet of numbered frames, read left to right and down: frame n is the
//! board just before removal n, with that removal's line, captioned as stdout lists it; the last
//! frame is the board the game ends on. Each frame shows the board as it was, so a line only
//! ever crosses empty cells and never hides a kind, with or without gravity. A sheet holds at
//! most [`MAX_FRAMES`] frames and [`SHEET_BYTES`]: the frames that would not fit are left out,
//! and the sheet and stderr say which.
//!
//! Of a board of more than [`MAX_DRAWN`] rows or columns a picture shows the [`MAX_DRAWN`] rows
//! and columns around its line, a frame the [`MAX_FRAMED`] around it; a picture without a line
//! (a board as dealt, the board a game ends on) shows the first of them, and a board as dealt
//! says which in the margin above.

use std::collections::HashSet;
use std::io;
use std::path::Path;

use common::Pos;
use common::svg::{self, CELL, FONT, LINE, Svg};

use crate::model::{Board, EMPTY, Kind, Line, remove_pair};
use crate::parse;
use crate::play::Removal;

/// Most rows, and columns, a picture shows: the real game's largest deal (16×30) whole, while a
/// board of millions of cells never becomes a picture of millions of elements.
pub const MAX_DRAWN: usize = 64;

/// Most bytes of one game's sheet of frames: a picture a browser opens without a wait, while
/// the frames of a large board are large.
pub const SHEET_BYTES: usize = 10_000_000;

/// Most frames of one game's sheet: every removal of the real game's largest deal (16×30) and
/// the board it ends on, while a sheet of a long game stays a sheet a person can scroll.
pub const MAX_FRAMES: usize = 250;

/// Most rows, and columns, a frame of a board larger than [`MAX_DRAWN`] shows around its line.
pub const MAX_FRAMED: usize = 24;

/// The side of a cell in the frames of a game on a board of more than 10 rows or
/// columns: half that of a single board, so that three frames of the real game's deal stand
/// side by side. Smaller boards keep their cells whole.
pub const FRAME_CELL: i32 = CELL / 2;

/// The most rows and columns of a board whose frames have whole cells ([`FRAME_CELL`]).
const SMALL: usize = 10;

/// The colour of a line and of the rings of its two pieces.
pub const PATH: &str = "#000000";
const CASING: &str = "#ffffff";

/// Room above a frame for its caption.
const CAPTION: i32 = FONT + FONT / 2;

/// Space between two frames.
const GAP: i32 = CELL / 2;

/// About how wide a sheet is: frames go side by side up to this width.
const SHEET_WIDTH: i32 = 1600;

/// The narrowest a frame's place on a sheet is: room for its caption.
const MIN_FRAME_WIDTH: i32 = 6 * CELL;

/// The rows and columns of a board a picture shows (1-based, first and count), where it is
/// drawn, and how large its cells are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View {
    first: Pos,
    rows: usize,
    cols: usize,
    cell: i32,
    /// The top left corner of the drawing, the ring around the board included.
    corner: (i32, i32),
}

impl View {
    /// A single picture of `board` with `lines`: the whole board when it is no larger than
    /// [`MAX_DRAWN`] each way; else the [`MAX_DRAWN`] rows and columns around `lines`, if they
    /// fit in them, or with no line the first [`MAX_DRAWN`] rows and columns.
    pub fn of(board: &Board, lines: &[&Line]) -> Option<View> {
        View::window(board, lines, MAX_DRAWN, (CELL, (0, 0)))
    }

    /// [`View::of`], the part around `lines` `max` cells each way (fewer on a smaller board),
    /// with cells of side `cell` drawn from `corner`.
    fn window(board: &Board, lines: &[&Line], max: usize, (cell, corner): (i32, (i32, i32))) -> Option<View> {
        let (rows, cols) = (board.rows(), board.cols());
        if rows <= MAX_DRAWN && cols <= MAX_DRAWN {
            return Some(View { first: Pos::new(1, 1), rows, cols, cell, corner });
        }
        if lines.is_empty() {
            let (rows, cols) = (rows.min(max), cols.min(max));
            return Some(View { first: Pos::new(1, 1), rows, cols, cell, corner });
        }
        let points = || lines.iter().flat_map(|line| &line.points);
        // The first of `max` rows (or columns) of `size` around the points' span, the ring
        // around the board (0 and size + 1) shown beside the first and last.
        let span = |value: fn(&Pos) -> usize, size: usize| {
            let count = max.min(size);
            let least = points().map(value).min()?.clamp(1, size);
            let most = points().map(value).max()?.clamp(1, size);
            let spare = count.checked_sub(most + 1 - least)?;
            Some((least.saturating_sub(spare / 2).clamp(1, size + 1 - count), count))
        };
        let (first_row, rows) = span(|pos| pos.row, rows)?;
        let (first_col, cols) = span(|pos| pos.col, cols)?;
        Some(View { first: Pos::new(first_row, first_col), rows, cols, cell, corner })
    }

    /// The centre of the cell at `pos` (1-based; 0 and one past the board are the ring).
    pub fn centre(&self, pos: Pos) -> (i32, i32) {
        let x = self.corner.0 + (1 + pos.col as i32 - self.first.col as i32) * self.cell + self.cell / 2;
        let y = self.corner.1 + (1 + pos.row as i32 - self.first.row as i32) * self.cell + self.cell / 2;
        (x, y)
    }

    /// True when the cell at `pos` (1-based) is drawn.
    pub fn shows(&self, pos: Pos) -> bool {
        (self.first.row..self.first.row + self.rows).contains(&pos.row)
            && (self.first.col..self.first.col + self.cols).contains(&pos.col)
    }

    /// The side of a cell.
    pub fn cell(&self) -> i32 {
        self.cell
    }

    /// Width and height, the ring included.
    fn size(&self) -> (i32, i32) {
        ((self.cols as i32 + 2) * self.cell, (self.rows as i32 + 2) * self.cell)
    }

    /// True when the view shows every cell of `board`.
    fn shows_all(&self, board: &Board) -> bool {
        (self.rows, self.cols) == (board.rows(), board.cols())
    }

    /// What part of `board` the view shows, when not all of it: "rows 1 to 64 and columns 1 to
    /// 64 of 1000 × 1000".
    fn part(&self, board: &Board) -> Option<String> {
        let (first, rows, cols) = (self.first, self.rows, self.cols);
        (!self.shows_all(board)).then(|| {
            format!(
                "rows {} to {} and columns {} to {} of {} × {}",
                first.row,
                first.row + rows - 1,
                first.col,
                first.col + cols - 1,
                board.rows(),
                board.cols()
            )
        })
    }

    /// The cells shown, row by row.
    fn cells(&self) -> impl Iterator<Item = Pos> + use<> {
        let View { first, rows, cols, .. } = *self;
        (first.row..first.row + rows)
            .flat_map(move |row| (first.col..first.col + cols).map(move |col| Pos::new(row, col)))
    }
}

/// The kind at 1-based `pos` of `board`.
fn kind_at(board: &Board, pos: Pos) -> Kind {
    board[Pos::new(pos.row - 1, pos.col - 1)]
}

/// A picture being drawn, and the shapes of its pieces: one per kind, all of one size, defined
/// where first drawn and reused after, so that a piece costs one short element.
#[derive(Debug)]
struct Canvas {
    svg: Svg,
    cell: i32,
    defined: HashSet<Kind>,
    /// The kinds of `defined` in the order they were defined.
    order: Vec<Kind>,
}

impl Canvas {
    /// A picture of pieces `cell` wide, sized later.
    fn new(cell: i32) -> Canvas {
        Canvas { svg: Svg::new(0, 0), cell, defined: HashSet::new(), order: Vec::new() }
    }

    /// How far the picture is drawn, to go back to with [`Canvas::rewind`].
    fn mark(&self) -> (usize, usize) {
        (self.svg.mark(), self.order.len())
    }

    /// Takes back what was drawn, and the shapes defined, since [`Canvas::mark`] gave `mark`.
    fn rewind(&mut self, (drawn, shapes): (usize, usize)) {
        self.svg.rewind(drawn);
        for kind in self.order.drain(shapes..) {
            self.defined.remove(&kind);
        }
    }

    /// Draws a piece of `kind` with its top left corner at (`x`, `y`).
    fn piece(&mut self, kind: Kind, (x, y): (i32, i32)) {
        let (id, cell) = (format!("k{kind}"), self.cell);
        if self.defined.insert(kind) {
            self.order.push(kind);
            let digits = kind.to_string();
            // A digit is about 0.6 of the font size wide; short kinds keep the usual size.
            let fitting = (cell - 4) * 5 / (3 * digits.len() as i32);
            let size = fitting.min(if cell >= CELL { FONT } else { FONT * 3 / 4 });
            self.svg.shape(&id);
            self.svg.square(0, 0, cell, svg::fill(kind as usize));
            self.svg.text(cell / 2, cell / 2, size, svg::ink(kind as usize), &digits);
            self.svg.end_shape();
        }
        self.svg.reuse(&id, x, y);
    }

    /// Draws what `view` shows of `board`, with `lines` and their pieces ringed.
    fn board(&mut self, view: &View, board: &Board, lines: &[&Line]) {
        let cell = view.cell;
        let (left, top) = view.centre(view.first);
        let (left, top) = (left - cell / 2, top - cell / 2);
        let (width, height) = (view.cols as i32 * cell, view.rows as i32 * cell);
        // The board's border, one pixel outside it, then its empty cells.
        self.svg.rect(left - 1, top - 1, width + 2, height + 2, LINE);
        self.svg.rect(left, top, width, height, svg::EMPTY);
        for pos in view.cells() {
            let kind = kind_at(board, pos);
            if kind != EMPTY {
                let (x, y) = view.centre(pos);
                self.piece(kind, (x - cell / 2, y - cell / 2));
            }
        }
        for line in lines {
            draw_line(&mut self.svg, view, line);
        }
    }

    /// Draws frame `index` of a sheet laid out by `frames`: `board` with `lines`, captioned.
    fn frame(&mut self, frames: &Frames, index: usize, board: &Board, lines: &[&Line], caption: &str) {
        let (x, y) = frames.corner(index);
        self.svg.caption(x, y + FONT, caption);
        match frames.view(index, board, lines) {
            Some(view) => self.board(&view, board, lines),
            None => not_drawn(&mut self.svg, (x, y + CAPTION)),
        }
    }
}

/// Draws `line` from the edge of its first cell to the edge of its last, and rings both.
fn draw_line(svg: &mut Svg, view: &View, line: &Line) {
    let cell = view.cell;
    let mut points: Vec<(i32, i32)> = line.points.iter().map(|&pos| view.centre(pos)).collect();
    let last = points.len() - 1;
    for (end, next) in [(0, 1), (last, last - 1)] {
        let ((x, y), (to_x, to_y)) = (points[end], points[next]);
        points[end] = (x + (to_x - x).signum() * cell / 2, y + (to_y - y).signum() * cell / 2);
    }
    svg.polyline(&points, CASING, 5);
    svg.polyline(&points, PATH, 2);
    for end in [line.points[0], line.points[last]] {
        let (x, y) = view.centre(end);
        svg.frame(x - cell / 2, y - cell / 2, cell, cell, CASING, 5);
        svg.frame(x - cell / 2, y - cell / 2, cell, cell, PATH, 2);
    }
}

/// Says at (`x`, `y`) that a line is not drawn: it spans more rows or columns than a picture
/// shows.
fn not_drawn(svg: &mut Svg, (x, y): (i32, i32)) {
    svg.caption(x, y + FONT, "not drawn: the line spans too many rows or columns");
}

/// A single picture: `board` with `lines`.
fn single(board: &Board, lines: &[&Line]) -> String {
    let mut canvas = Canvas::new(CELL);
    if let Some(view) = View::of(board, lines) {
        let (width, height) = view.size();
        canvas.svg.set_size(width, height);
        canvas.board(&view, board, lines);
    } else {
        canvas.svg.set_size(16 * CELL, CELL);
        not_drawn(&mut canvas.svg, (CELL / 4, CELL / 4));
    }
    canvas.svg.finish()
}

/// `board` alone, as dealt: a sheet to print. Of a board over [`MAX_DRAWN`] rows or columns,
/// the first [`MAX_DRAWN`] rows and columns, captioned with what they are in the margin above.
pub fn sheet(board: &Board) -> String {
    let view = View::of(board, &[]).expect("a view without lines is always found");
    let mut canvas = Canvas::new(CELL);
    let (width, height) = view.size();
    canvas.svg.set_size(width, height);
    canvas.board(&view, board, &[]);
    if let Some(part) = view.part(board) {
        canvas.svg.caption(CELL / 4, CELL / 4 + FONT, &part);
    }
    canvas.svg.finish()
}

/// `board` with the line of a query answered YES.
pub fn query(board: &Board, line: &Line) -> String {
    single(board, &[line])
}

/// Where the frames of a game's sheet go: side by side up to about 1,600 pixels, each in a
/// place as large as the largest view of the board, its caption above it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frames {
    /// The side of a cell.
    cell: i32,
    /// Most rows and columns a frame shows.
    max: usize,
    columns: usize,
    /// Width and height of a frame's place, caption included, and the gap after it.
    pitch: (i32, i32),
}

impl Frames {
    /// The layout of the frames of a game on `board`.
    pub fn of(board: &Board) -> Frames {
        let largest = board.rows().max(board.cols());
        let cell = if largest <= SMALL { CELL } else { FRAME_CELL };
        let max = if largest <= MAX_DRAWN { MAX_DRAWN } else { MAX_FRAMED };
        let shown = |size: usize| (size.min(max) as i32 + 2) * cell;
        let width = shown(board.cols()).max(MIN_FRAME_WIDTH);
        let height = CAPTION + shown(board.rows());
        let columns = ((SHEET_WIDTH + GAP) / (width + GAP)).max(1) as usize;
        Frames { cell, max, columns, pitch: (width + GAP, height + GAP) }
    }

    /// The top left corner of frame `index`'s place (0-based), where its caption goes.
    fn corner(&self, index: usize) -> (i32, i32) {
        let (row, col) = ((index / self.columns) as i32, (index % self.columns) as i32);
        (GAP + col * self.pitch.0, GAP + row * self.pitch.1)
    }

    /// The view frame `index` shows of `board` with `lines`.
    pub fn view(&self, index: usize, board: &Board, lines: &[&Line]) -> Option<View> {
        let (x, y) = self.corner(index);
        View::window(board, lines, self.max, (self.cell, (x, y + CAPTION)))
    }

    /// Width and height of a sheet of `count` frames, with room for a line under them.
    fn size(&self, count: usize) -> (i32, i32) {
        let columns = count.clamp(1, self.columns) as i32;
        let rows = count.div_ceil(self.columns).max(1) as i32;
        (GAP + columns * self.pitch.0, GAP + rows * self.pitch.1 + CAPTION)
    }
}

/// The caption of the frame of removal `number`, as stdout lists it.
fn removal_caption(number: usize, removal: &Removal) -> String {
    let (a, b) = (removal.a, removal.b);
    format!("{number}: ({},{}) ({},{}), kind {}", a.row, a.col, b.row, b.col, removal.kind)
}

/// The caption of the last frame: how the game ends.
fn end_caption(board: &Board, removals: usize) -> String {
    let plural = |count: usize| if count == 1 { "" } else { "s" };
    let left = board.cells().iter().filter(|&&kind| kind != EMPTY).count();
    let after = format!("after {removals} removal{}", plural(removals));
    if left == 0 {
        format!("{after}: cleared")
    } else {
        format!("{after}: {left} piece{} left", plural(left))
    }
}

/// The sheet of the game `played` on `board` (with gravity or not), within [`MAX_FRAMES`] frames
/// and [`SHEET_BYTES`]; and, when frames are left out, which and why.
fn game_sheet(board: &Board, played: &[Removal], gravity: bool) -> (String, Option<String>) {
    let frames = Frames::of(board);
    let mut canvas = Canvas::new(frames.cell);
    let mut board = board.clone();
    let mut drawn = 0;
    let mut full = None;
    while drawn <= played.len() {
        if drawn == MAX_FRAMES {
            full = Some(format!("a sheet holds at most {MAX_FRAMES} frames"));
            break;
        }
        let mark = canvas.mark();
        match played.get(drawn) {
            Some(removal) => {
                let caption = removal_caption(drawn + 1, removal);
                canvas.frame(&frames, drawn, &board, &[&removal.line], &caption);
            }
            None => canvas.frame(&frames, drawn, &board, &[], &end_caption(&board, played.len())),
        }
        if canvas.svg.mark() > SHEET_BYTES {
            canvas.rewind(mark);
            full = Some(format!("a sheet holds at most {} MB", SHEET_BYTES / 1_000_000));
            break;
        }
        if let Some(removal) = played.get(drawn) {
            remove_pair(&mut board, removal.a, removal.b, gravity);
        }
        drawn += 1;
    }
    let (width, height) = frames.size(drawn);
    canvas.svg.set_size(width, height);
    let left_out = full.map(|why| format!("{}: {why}", left_out(drawn, played.len())));
    if let Some(left_out) = &left_out {
        canvas.svg.caption(GAP, height - FONT / 2, left_out);
    }
    (canvas.svg.finish(), left_out)
}

/// What a sheet of `drawn` frames of a game of `removals` removals leaves out.
fn left_out(drawn: usize, removals: usize) -> String {
    match removals - drawn.min(removals) {
        0 => "the board after the last removal left out".to_owned(),
        1 => format!("removal {removals} and the board after it left out"),
        _ => format!("removals {} to {removals} and the board after them left out", drawn + 1),
    }
}

/// The sheet of the game `played` on `board`: a frame per removal and one for the board it
/// ends on ([module documentation](self)).
pub fn removals(board: &Board, played: &[Removal], gravity: bool) -> String {
    game_sheet(board, played, gravity).0
}

/// Writes `case-K-query-J.svg` for query J of case K, answered YES by `line`.
pub fn write_query(
    dir: &Path,
    case: usize,
    query_number: usize,
    board: &Board,
    line: &Line,
) -> io::Result<()> {
    svg::write(dir, &format!("case-{case}-query-{query_number}.svg"), || query(board, line))?;
    Ok(())
}

/// Writes `case-K-removals.svg`, the sheet of case K played by `played` ([`removals`]); when
/// frames are left out, stderr says which.
pub fn write_game(
    dir: &Path,
    case: usize,
    board: &Board,
    played: &[Removal],
    gravity: bool,
) -> io::Result<()> {
    let name = format!("case-{case}-removals.svg");
    let mut left_out = None;
    let written = svg::write(dir, &name, || {
        let sheet;
        (sheet, left_out) = game_sheet(board, played, gravity);
        sheet
    })?;
    if let Some(left_out) = left_out.filter(|_| written) {
        svg::note(&format!("`{}`: {left_out}", dir.join(name).display()));
    }
    Ok(())
}

/// Writes `case-K.svg`, the board of every case of the generated input `generated`, for `gen
/// --svg`.
pub fn write_sheets(dir: &Path, generated: &[u8]) -> io::Result<()> {
    let mut reader = parse::Reader::new(generated);
    let mut number = 0;
    while let Some(case) = reader.next_case().map_err(|_| io::Error::other("generated an unreadable case"))? {
        number += 1;
        svg::write(dir, &format!("case-{number}.svg"), || sheet(&case.board))?;
        reader.recycle(case);
    }
    Ok(())
}
