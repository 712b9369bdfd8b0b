//! The pictures of `--svg DIR`, checked for what they show: rendered by a real SVG renderer,
//! each picture (a query's, or a frame of a game's sheet) shows the board as it was: every cell
//! a line crosses shows the line at its centre, every other cell its kind's colour (grey when
//! empty) inside an outline, and the two pieces the line joins are ringed. A game's frames are
//! captioned as stdout lists the removals, and a sheet stays within its bound.

use std::collections::HashSet;
use std::path::Path;

use common::Pos;
use common::svg::render::{self, Rendered, file_names, fresh_dir};
use common::svg::{self as pictures};
use linkup::model::{Board, EMPTY, Line, Rules, remove_pair};
use linkup::play::Removal;
use linkup::svg::{self, Frames, PATH, SHEET_BYTES, View};
use linkup::{parse, play};

const BINARY: &str = env!("CARGO_BIN_EXE_linkup");
const SCRATCH: &str = env!("CARGO_TARGET_TMPDIR");

/// The judge's sample: two cases, the first query of the first and the second of the second
/// answered YES.
const SAMPLE: &str = include_str!("../samples/sample.in");

/// The real game's standard deal, 8 × 18 cells, 36 kinds × 4.
const DEAL: &str = include_str!("../samples/solve-3-standard-deal.in");

fn boards(text: &str) -> Vec<Board> {
    let mut reader = parse::Reader::new(text.as_bytes());
    let mut boards = Vec::new();
    while let Some(case) = reader.next_case().expect("a valid input") {
        boards.push(case.board.clone());
        reader.recycle(case);
    }
    boards
}

/// Checks that `picture` shows, where `view` puts it, every cell of `board` in its kind's colour
/// within an outline, except the cells that `lines` cross (on the board or on the ring around
/// it), which show the line; and that the two ends of each line are ringed.
fn assert_shows(picture: &Rendered, view: &View, board: &Board, lines: &[&Line]) {
    let crossed: HashSet<Pos> = lines.iter().flat_map(|line| line.inner_cells()).collect();
    let ends: Vec<Pos> =
        lines.iter().flat_map(|line| [line.points[0], line.points[line.points.len() - 1]]).collect();
    for &pos in &crossed {
        let (x, y) = view.centre(pos);
        assert_eq!(picture.colour(x, y), PATH, "the line crosses ({}, {})", pos.row, pos.col);
    }
    let near_an_end =
        |at: Pos| ends.iter().any(|end| end.row.abs_diff(at.row) <= 1 && end.col.abs_diff(at.col) <= 1);
    for pos in board.positions() {
        let at = Pos::new(pos.row + 1, pos.col + 1);
        if crossed.contains(&at) || !view.shows(at) {
            continue;
        }
        let (x, y) = view.centre(at);
        let expected = match board[pos] {
            EMPTY => pictures::EMPTY,
            kind => pictures::fill(kind as usize),
        };
        assert_eq!(picture.colour(x, y), expected, "cell ({}, {})", at.row, at.col);
        // The pixel column on the cell's left edge: the ring of an end, else the outline that
        // keeps two neighbours of one colour apart.
        let edge = picture.colour(x - view.cell() / 2, y);
        if ends.contains(&at) {
            assert_eq!(edge, PATH, "the end ({}, {}) is ringed", at.row, at.col);
        } else if board[pos] != EMPTY && !near_an_end(at) {
            assert_eq!(edge, pictures::OUTLINE, "the piece at ({}, {}) is outlined", at.row, at.col);
        }
    }
}

/// Checks every frame of the sheet `drawn` of the game `played` on `board`: frame n shows the
/// board before removal n with its line, the last one the board the game ends on, and the
/// captions number the removals as stdout does.
fn assert_sheet_follows_the_game(drawn: &str, board: &Board, played: &[Removal], gravity: bool) {
    let picture = render::render(drawn);
    let frames = Frames::of(board);
    let mut before = board.clone();
    for (index, removal) in played.iter().enumerate() {
        let view = frames.view(index, &before, &[&removal.line]).expect("small enough to draw");
        assert_shows(&picture, &view, &before, &[&removal.line]);
        remove_pair(&mut before, removal.a, removal.b, gravity);
    }
    let view = frames.view(played.len(), &before, &[]).expect("small enough to draw");
    assert_shows(&picture, &view, &before, &[]);

    let captions: Vec<String> = render::texts(drawn).into_iter().filter(|text| text.contains(':')).collect();
    let mut expected: Vec<String> = played
        .iter()
        .enumerate()
        .map(|(index, r)| {
            format!("{}: ({},{}) ({},{}), kind {}", index + 1, r.a.row, r.a.col, r.b.row, r.b.col, r.kind)
        })
        .collect();
    let left = before.cells().iter().filter(|&&kind| kind != EMPTY).count();
    let end = if left == 0 { "cleared".to_owned() } else { format!("{left} pieces left") };
    expected.push(format!("after {} removals: {end}", played.len()));
    assert_eq!(captions, expected);
}

#[test]
fn a_played_deal_is_a_frame_per_removal_each_on_the_board_as_it_was() {
    let board = boards(DEAL).remove(0);
    let game = play::greedy(&board, Rules { max_turns: 2, outside: true }, false);
    assert!(game.removals.len() > 10, "the greedy game removes pieces");
    let drawn = svg::removals(&board, &game.removals, false);
    assert_sheet_follows_the_game(&drawn, &board, &game.removals, false);
}

#[test]
fn with_gravity_each_frame_shows_the_board_the_removal_was_made_on() {
    let dir = fresh_dir(SCRATCH, "linkup-gravity");
    let input = "2 3\n1 2 1\n2 3 3\n0\n0 0\n";
    let played = render::run_with_pictures(BINARY, &["solve", "--gravity"], input.as_bytes(), &dir);
    // The case's line, the removals, the verdict.
    assert_eq!(String::from_utf8(played).expect("text").lines().count() - 2, 3);
    assert_eq!(file_names(&dir), ["case-1-removals.svg"]);
    let board = boards(input).remove(0);
    let game = play::greedy(&board, Rules::default(), true);
    assert_eq!(game.pieces_left, 0);
    let drawn = std::fs::read_to_string(dir.join("case-1-removals.svg")).expect("written");
    assert_sheet_follows_the_game(&drawn, &board, &game.removals, true);
}

#[test]
fn the_binary_draws_each_yes_and_keeps_stdout() {
    let dir = fresh_dir(SCRATCH, "linkup-queries");
    render::run_with_pictures(BINARY, &[], SAMPLE.as_bytes(), &dir);
    assert_eq!(file_names(&dir), ["case-1-query-1.svg", "case-2-query-2.svg"]);

    let board = boards(SAMPLE).remove(0);
    let mut solver = linkup::query::Solver::new(&board, Rules::default());
    let line = solver.line(linkup::model::Query::new(1, 1, 3, 4)).expect("joinable");
    let drawn = std::fs::read_to_string(dir.join("case-1-query-1.svg")).expect("written");
    let view = View::of(&board, &[&line]).expect("small enough to draw");
    assert_shows(&render::render(&drawn), &view, &board, &[&line]);
    insta::assert_snapshot!("sample-query", drawn);
}

#[test]
fn a_query_on_a_large_board_shows_the_cells_around_its_line() {
    let (rows, cols) = (100, 100);
    let mut cells: Vec<u32> = (0..rows * cols).map(|index| (index * 7 % 9 + 1) as u32).collect();
    // Two pieces of kind 50 in row 40, columns 40 and 45, with empty cells between them.
    for col in 40..=45 {
        cells[39 * cols + col - 1] = if col == 40 || col == 45 { 50 } else { EMPTY };
    }
    let board: Board = common::Grid::from_vec(rows, cols, cells);
    let mut solver = linkup::query::Solver::new(&board, Rules::default());
    let line = solver.line(linkup::model::Query::new(40, 40, 40, 45)).expect("joinable");
    let picture = render::render(&svg::query(&board, &line));
    let view = View::of(&board, &[&line]).expect("a short line");
    let side = (svg::MAX_DRAWN as i32 + 2) * pictures::CELL;
    assert_eq!(picture.size(), (side, side), "the 64 rows and columns around the line");
    assert!(view.shows(Pos::new(40 - 31, 40 - 29)) && view.shows(Pos::new(40 + 32, 45 + 29)));
    assert!(!view.shows(Pos::new(8, 40)) && !view.shows(Pos::new(40, 75)));
    assert_shows(&picture, &view, &board, &[&line]);
}

#[test]
fn a_large_board_as_dealt_shows_its_first_rows_and_columns_and_says_so() {
    let input =
        render::run(BINARY, &["gen", "--rows", "100", "--cols", "80", "--queries", "0", "--seed", "1"], b"");
    let board = boards(&String::from_utf8_lossy(&input)).remove(0);
    let drawn = svg::sheet(&board);
    let view = View::of(&board, &[]).expect("a view");
    assert!(view.shows(Pos::new(64, 64)) && !view.shows(Pos::new(65, 1)) && !view.shows(Pos::new(1, 65)));
    let picture = render::render(&drawn);
    let side = (svg::MAX_DRAWN as i32 + 2) * pictures::CELL;
    assert_eq!(picture.size(), (side, side));
    assert_shows(&picture, &view, &board, &[]);
    assert!(render::texts(&drawn).contains(&"rows 1 to 64 and columns 1 to 64 of 100 × 80".to_owned()));
}

#[test]
fn a_new_run_removes_the_pictures_of_an_earlier_one_and_says_so() {
    let dir = fresh_dir(SCRATCH, "linkup-earlier");
    let dir_arg = dir.to_str().expect("a UTF-8 path");
    render::run(BINARY, &["--svg", dir_arg], SAMPLE.as_bytes());
    // A picture of a game that is no longer there, and a file the user keeps beside them.
    std::fs::copy(dir.join("case-1-query-1.svg"), dir.join("case-7-removals.svg")).expect("a copy");
    std::fs::write(dir.join("notes.txt"), "mine\n").expect("a file");
    let second = render::output(BINARY, &["solve", "--svg", dir_arg], b"1 2\n1 1\n0\n");
    assert!(second.status.success());
    assert_eq!(file_names(&dir), ["case-1-removals.svg", "notes.txt"]);
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(stderr, format!("note: removed 3 pictures an earlier run left in `{dir_arg}`\n"));
}

#[test]
fn a_cleared_16_by_30_deal_is_one_picture_of_every_removal() {
    let dir = fresh_dir(SCRATCH, "linkup-deal");
    let dir_arg = dir.to_str().expect("a UTF-8 path");
    let deal_args =
        ["gen", "--rows", "16", "--cols", "30", "--kinds", "30", "--copies", "16", "--outside", "--solvable"];
    let deal = render::run(BINARY, &[&deal_args[..], &["--seed", "1", "--svg", dir_arg]].concat(), b"");
    assert_eq!(file_names(&dir), ["case-1.svg"]);
    let played = render::run_with_pictures(BINARY, &["solve", "--best", "--outside"], &deal, &dir);
    let played = String::from_utf8_lossy(&played);
    assert!(played.starts_with("Case 1:\n"), "{played}");
    assert!(played.contains("\n  board cleared in 240 removals ("), "{played}");
    assert_eq!(file_names(&dir), ["case-1-removals.svg"], "the sheet of the deal went with the earlier run");
    let drawn = std::fs::read_to_string(dir.join("case-1-removals.svg")).expect("written");
    let texts = render::texts(&drawn);
    assert!(texts.iter().any(|text| text.starts_with("240: (")), "every removal has its frame");
    assert!(texts.contains(&"after 240 removals: cleared".to_owned()));
    assert!(drawn.len() < SHEET_BYTES / 2, "{} bytes", drawn.len());
}

/// Bytes of the files in `dir`.
fn folder_bytes(dir: &Path) -> u64 {
    file_names(dir).iter().map(|name| std::fs::metadata(dir.join(name)).expect("listed").len()).sum()
}

#[test]
fn a_long_game_is_drawn_up_to_the_sheets_bound_and_stderr_says_what_is_left_out() {
    let dir = fresh_dir(SCRATCH, "linkup-bound");
    let deal_args =
        ["gen", "--rows", "60", "--cols", "60", "--density", "1", "--kinds", "8", "--queries", "0"];
    let deal = render::run(BINARY, &[&deal_args[..], &["--seed", "1"]].concat(), b"");
    let dir_arg = dir.to_str().expect("a UTF-8 path");
    let output = render::output(BINARY, &["solve", "--gravity", "--svg", dir_arg], &deal);
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("  board cleared in 1800 removals\n"));
    assert_eq!(file_names(&dir), ["case-1-removals.svg"]);
    assert!(folder_bytes(&dir) <= SHEET_BYTES as u64, "{} bytes", folder_bytes(&dir));

    let drawn = std::fs::read_to_string(dir.join("case-1-removals.svg")).expect("written");
    let numbers: Vec<usize> = render::texts(&drawn)
        .iter()
        .filter_map(|text| text.split_once(": (").and_then(|(number, _)| number.parse().ok()))
        .collect();
    let shown = numbers.len();
    assert!(shown > 10, "{shown} frames");
    assert_eq!(numbers, (1..=shown).collect::<Vec<_>>(), "the first frames, in order");
    let left_out = format!("removals {} to 1800 and the board after them left out", shown + 1);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr,
        format!("note: `{dir_arg}/case-1-removals.svg`: {left_out}: a sheet holds at most 10 MB\n")
    );
    assert!(render::texts(&drawn).last().is_some_and(|text| text.starts_with(&left_out)));
}

#[test]
fn a_sheet_holds_at_most_its_number_of_frames() {
    let deal_args =
        ["gen", "--rows", "20", "--cols", "30", "--density", "1", "--kinds", "4", "--queries", "0"];
    let deal = render::run(BINARY, &[&deal_args[..], &["--seed", "1"]].concat(), b"");
    let board = boards(&String::from_utf8(deal).expect("text")).remove(0);
    let game = play::greedy(&board, Rules::default(), false);
    let removals = game.removals.len();
    assert!(removals > svg::MAX_FRAMES, "{removals} removals");
    let drawn = svg::removals(&board, &game.removals, false);
    let texts = render::texts(&drawn);
    let numbers: Vec<usize> = texts
        .iter()
        .filter_map(|text| text.split_once(": (").and_then(|(number, _)| number.parse().ok()))
        .collect();
    assert_eq!(numbers, (1..=svg::MAX_FRAMES).collect::<Vec<_>>());
    let left_out = format!(
        "removals {} to {removals} and the board after them left out: a sheet holds at most {} frames",
        svg::MAX_FRAMES + 1,
        svg::MAX_FRAMES
    );
    assert_eq!(texts.last(), Some(&left_out));
}

#[test]
fn the_readme_picture_is_the_one_the_tool_draws() {
    let input = include_bytes!("../samples/solve-2-best.in");
    let drawn = render::picture_of(
        BINARY,
        &["solve", "--best"],
        input,
        (SCRATCH, "linkup-readme"),
        "case-1-removals.svg",
    );
    assert!(drawn == include_str!("../docs/best-removals.svg"), "run the README's command again");
}

#[test]
fn a_file_given_for_the_folder_is_refused_before_any_input_is_read() {
    for args in [&[][..], &["solve"], &["gen"]] {
        render::refuses_a_file_for_the_folder(BINARY, args);
    }
}

/// A write that fails half way (here the file size limit, as a full disk would) leaves no
/// truncated picture: the folder is as the run found it, and the run fails naming the file.
#[cfg(unix)]
#[test]
fn a_failed_write_leaves_no_truncated_picture() {
    let dir = fresh_dir(SCRATCH, "linkup-failed-write");
    let deal = fresh_dir(SCRATCH, "linkup-failed-write-input").join("deal.in");
    std::fs::write(&deal, DEAL).expect("the input is written");
    let command = format!(
        // With SIGXFSZ ignored, a write past the limit fails with EFBIG instead of killing the
        // process; 64 blocks are 32 or 64 KB, less than the sheet of the deal.
        "trap '' XFSZ; ulimit -f 64; exec '{BINARY}' solve --outside --svg '{}' '{}'",
        dir.display(),
        deal.display()
    );
    let output = std::process::Command::new("sh").args(["-c", &command]).output().expect("sh runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("cannot write `{}`", dir.join("case-1-removals.svg").display())),
        "{stderr}"
    );
    assert_eq!(file_names(&dir), Vec::<String>::new(), "no picture, whole or not, and no temporary file");
}

#[test]
fn bad_input_leaves_no_picture() {
    let dir = fresh_dir(SCRATCH, "linkup-bad-input").join("pictures");
    let dir_arg = dir.to_str().expect("a UTF-8 path");
    // The first case is fine and its query answered YES; the second case is cut short.
    let input = "1 2\n1 1\n1\n1 1 1 2\n2 2\n1\n";
    for args in [&["--svg", dir_arg][..], &["solve", "--svg", dir_arg]] {
        let output = render::output(BINARY, args, input.as_bytes());
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty());
        assert!(!dir.exists(), "{args:?} wrote pictures for bad input");
    }
}
