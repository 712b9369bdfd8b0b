//! The pictures of `--svg DIR`, checked for what they show: rendered by a real SVG renderer,
//! every cell of every panel has the colour of its block (or of an empty cell), the cells each
//! move swaps are outlined, and the last panel of a solution is an empty board.

use common::cli::Input;
use common::svg::render::{self, Rendered, file_names, fresh_dir};
use common::svg::{self as pictures, CELL};
use mayan::board::Board;
use mayan::model::{HEIGHT, Move, Puzzle, WIDTH};
use mayan::{parse, svg};

const BINARY: &str = env!("CARGO_BIN_EXE_mayan");
const SCRATCH: &str = env!("CARGO_TARGET_TMPDIR");

/// The judge's sample: three moves empty the board.
const SAMPLE: &str = include_str!("../samples/sample.in");

/// The sky blue of the outline of a swapped cell.
const MARK: &str = "#56b4e9";

fn puzzle(text: &str) -> Puzzle {
    Input::from_bytes("puzzle", text).parse(parse::puzzle).expect("a valid puzzle")
}

/// Checks that panel `panel` of `picture` shows `board`, with the cells of `next` outlined.
fn assert_panel_shows(picture: &Rendered, panel: usize, board: &Board, next: Option<Move>) {
    let corner = svg::board_corner(panel);
    for x in 0..WIDTH {
        for y in 0..HEIGHT {
            let (cx, cy) = svg::cell_centre(corner, x, y);
            let expected = match board.cell(x, y) {
                0 => pictures::EMPTY,
                colour => pictures::fill(colour.into()),
            };
            assert_eq!(picture.colour(cx, cy), expected, "panel {panel}, cell ({x}, {y})");
            let marked = next.is_some_and(|mv| {
                usize::from(mv.y) == y
                    && [i32::from(mv.x), i32::from(mv.x) + i32::from(mv.g)].contains(&(x as i32))
            });
            let edge = picture.colour(cx - CELL / 2 + 3, cy);
            assert_eq!(edge == MARK, marked, "panel {panel}, cell ({x}, {y}): the outline");
        }
    }
}

#[test]
fn the_solution_shows_each_board_once_settled_with_the_next_swap_marked() {
    let puzzle = puzzle(SAMPLE);
    let moves =
        mayan::solve::solve_with(&puzzle, false, common::search::Progress::default()).expect("solvable");
    let drawn = svg::solution(&puzzle, Some(&moves));
    let picture = render::render(&drawn);
    let mut board = Board::from_columns(&puzzle.columns);
    assert_panel_shows(&picture, 0, &board, moves.first().copied());
    for (index, &mv) in moves.iter().enumerate() {
        board.apply(mv);
        assert_panel_shows(&picture, index + 1, &board, moves.get(index + 1).copied());
    }
    assert!(board.is_empty());
    let numbers: Vec<String> = render::texts(&drawn).into_iter().filter(|text| text.len() <= 2).collect();
    assert_eq!(numbers.first().map(String::as_str), Some("1"), "the colours are printed as numbers");
}

#[test]
fn the_binary_writes_the_puzzle_and_its_solution_and_keeps_stdout() {
    let dir = fresh_dir(SCRATCH, "mayan-solve");
    render::run_with_pictures(BINARY, &[], SAMPLE.as_bytes(), &dir);
    assert_eq!(file_names(&dir), ["puzzle.svg", "solution.svg"]);
    let drawn = std::fs::read_to_string(dir.join("solution.svg")).expect("written");
    insta::assert_snapshot!("sample-solution", drawn);
}

#[test]
fn every_colour_a_block_can_have_is_its_own_outlined_fill() {
    // Colours 1 to 10, no three in a line.
    let puzzle = puzzle("1\n9 8 10 0\n10 9 0\n1 2 3 4 0\n5 6 7 0\n9 10 0\n");
    let board = Board::from_columns(&puzzle.columns);
    let picture = render::render(&svg::sheet(&puzzle));
    assert_panel_shows(&picture, 0, &board, None);
    let mut fills = Vec::new();
    for x in 0..WIDTH {
        for y in 0..board.height(x) {
            let (cx, cy) = svg::cell_centre(svg::board_corner(0), x, y);
            let fill = picture.colour(cx, cy);
            if !fills.contains(&(board.cell(x, y), fill.clone())) {
                fills.push((board.cell(x, y), fill));
            }
            assert_eq!(picture.colour(cx - CELL / 2, cy), pictures::OUTLINE, "block ({x}, {y}) is outlined");
        }
    }
    fills.sort();
    assert_eq!(fills.iter().map(|&(colour, _)| colour).collect::<Vec<_>>(), (1..=10).collect::<Vec<u8>>());
    let mut distinct: Vec<&str> =
        fills.iter().map(|(_, fill)| fill.as_str()).chain([pictures::EMPTY]).collect();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 11, "ten colours and the empty cell, each its own fill: {fills:?}");
}

#[test]
fn a_puzzle_without_a_solution_is_drawn_alone() {
    let puzzle = puzzle("1\n1 2 0\n0\n0\n0\n0\n");
    let picture = render::render(&svg::solution(&puzzle, None));
    assert_panel_shows(&picture, 0, &Board::from_columns(&puzzle.columns), None);
    assert_eq!(picture.size(), render::render(&svg::sheet(&puzzle)).size());
}

#[test]
fn gen_writes_the_puzzle_without_its_solution() {
    let dir = fresh_dir(SCRATCH, "mayan-gen").join("new");
    let args = ["gen", "--blocks", "20", "--moves", "3", "--solvable", "--seed", "7"];
    let plain = render::run_with_pictures(BINARY, &args, b"", &dir);
    assert_eq!(file_names(&dir), ["puzzle.svg"]);
    let generated = puzzle(&String::from_utf8(plain).expect("text"));
    let sheet = std::fs::read_to_string(dir.join("puzzle.svg")).expect("written");
    assert_panel_shows(&render::render(&sheet), 0, &Board::from_columns(&generated.columns), None);
}

#[test]
fn the_readme_picture_is_the_one_the_tool_draws() {
    let drawn = render::picture_of(BINARY, &[], SAMPLE.as_bytes(), (SCRATCH, "mayan-readme"), "solution.svg");
    assert!(drawn == include_str!("../docs/sample-solution.svg"), "run the README's command again");
}

#[test]
fn a_file_given_for_the_folder_is_refused_before_any_input_is_read() {
    for args in [&[][..], &["gen"]] {
        render::refuses_a_file_for_the_folder(BINARY, args);
    }
}
