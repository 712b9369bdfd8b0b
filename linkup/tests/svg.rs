//! The pictures of `--svg DIR`, checked for what they show: rendered by a real SVG renderer,
//! every cell a line crosses shows the line at its centre, every other cell its kind's colour
//! (grey when empty), and every removal's number is printed on its two pieces.

use std::collections::HashSet;

use common::Pos;
use common::svg::render::{self, Rendered, file_names, fresh_dir};
use common::svg::{self as pictures};
use linkup::model::{Board, EMPTY, Line, Rules};
use linkup::svg::{self, PATH, View};
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

/// Checks that `picture` shows every cell of `board` in its kind's colour, except the cells
/// that `lines` cross (on the board or on the ring around it), which show the line.
fn assert_shows(picture: &Rendered, board: &Board, lines: &[&Line]) {
    let view = View::of(board, lines).expect("small enough to draw");
    let crossed: HashSet<Pos> = lines.iter().flat_map(|line| line.inner_cells()).collect();
    for &pos in &crossed {
        let (x, y) = view.centre(pos);
        assert_eq!(picture.colour(x, y), PATH, "the line crosses ({}, {})", pos.row, pos.col);
    }
    for pos in board.positions() {
        let at = Pos::new(pos.row + 1, pos.col + 1);
        if crossed.contains(&at) {
            continue;
        }
        let expected = match board[pos] {
            EMPTY => pictures::EMPTY,
            kind => pictures::fill(kind as usize),
        };
        let (x, y) = view.centre(at);
        assert_eq!(picture.colour(x, y), expected, "cell ({}, {})", at.row, at.col);
    }
}

#[test]
fn a_played_deal_shows_every_line_on_the_cells_it_crosses_and_every_number() {
    let board = boards(DEAL).remove(0);
    let game = play::greedy(&board, Rules { max_turns: 2, outside: true }, false);
    assert!(game.removals.len() > 10, "the greedy game removes pieces");
    let drawn = svg::removals(&board, &game.removals);
    let lines: Vec<&Line> = game.removals.iter().map(|removal| &removal.line).collect();
    assert_shows(&render::render(&drawn), &board, &lines);
    let texts = render::texts(&drawn);
    for number in 1..=game.removals.len() {
        let printed = texts.iter().filter(|text| **text == number.to_string()).count();
        let kinds = board.cells().iter().filter(|&&kind| kind as usize == number).count();
        assert_eq!(printed, 2 + kinds, "removal {number} is numbered on its two pieces");
    }
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
    assert_shows(&render::render(&drawn), &board, &[&line]);
    insta::assert_snapshot!("sample-query", drawn);
}

#[test]
fn a_cleared_16_by_30_deal_is_one_small_picture() {
    let dir = fresh_dir(SCRATCH, "linkup-deal");
    let dir_arg = dir.to_str().expect("a UTF-8 path");
    let deal_args =
        ["gen", "--rows", "16", "--cols", "30", "--kinds", "30", "--copies", "16", "--outside", "--solvable"];
    let deal = render::run(BINARY, &[&deal_args[..], &["--seed", "1", "--svg", dir_arg]].concat(), b"");
    assert_eq!(file_names(&dir), ["case-1.svg"]);
    let played = render::run_with_pictures(BINARY, &["solve", "--best", "--outside"], &deal, &dir);
    let played = String::from_utf8_lossy(&played);
    assert!(played.starts_with("Case 1:\n"), "{played}");
    assert!(played.contains("\n  board cleared in 240 removals (search: "), "{played}");
    assert_eq!(file_names(&dir), ["case-1-removals.svg", "case-1.svg"]);
    let size = std::fs::metadata(dir.join("case-1-removals.svg")).expect("written").len();
    assert!(size < 200_000, "{size} bytes");
}

#[test]
fn with_gravity_each_removal_is_drawn_on_the_board_it_was_made_on() {
    let dir = fresh_dir(SCRATCH, "linkup-gravity");
    let input = "2 3\n1 2 1\n2 3 3\n0\n0 0\n";
    let played = render::run_with_pictures(BINARY, &["solve", "--gravity"], input.as_bytes(), &dir);
    // The case's line, the removals, the verdict.
    let removals = String::from_utf8(played).expect("text").lines().count() - 2;
    assert_eq!(removals, 3);
    let mut expected = vec!["case-1-removals.svg".to_owned()];
    expected.extend((1..=removals).map(|number| format!("case-1-removal-{number}.svg")));
    expected.sort();
    assert_eq!(file_names(&dir), expected);
    let board = boards(input).remove(0);
    let game = play::greedy(&board, Rules::default(), true);
    let mut before = board.clone();
    for (index, removal) in game.removals.iter().enumerate() {
        let drawn =
            std::fs::read_to_string(dir.join(format!("case-1-removal-{}.svg", index + 1))).expect("written");
        assert_shows(&render::render(&drawn), &before, &[&removal.line]);
        linkup::model::remove_pair(&mut before, removal.a, removal.b, true);
    }
    assert!(before.cells().iter().all(|&kind| kind == EMPTY));
}

#[test]
fn the_readme_picture_is_the_one_the_tool_draws() {
    let args = ["solve", "--best", "--outside"];
    let drawn =
        render::picture_of(BINARY, &args, DEAL.as_bytes(), (SCRATCH, "linkup-readme"), "case-1-removals.svg");
    assert!(drawn == include_str!("../docs/standard-deal-removals.svg"), "run the README's command again");
}

#[test]
fn bad_input_leaves_no_picture() {
    let dir = fresh_dir(SCRATCH, "linkup-bad-input").join("pictures");
    let dir_arg = dir.to_str().expect("a UTF-8 path");
    // The first case is fine and its query answered YES; the second case is cut short.
    let input = "1 2\n1 1\n1\n1 1 1 2\n2 2\n1\n";
    for args in [&["--svg", dir_arg][..], &["solve", "--svg", dir_arg]] {
        let output = std::process::Command::new(BINARY)
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write as _;
                child.stdin.take().expect("piped").write_all(input.as_bytes())?;
                child.wait_with_output()
            })
            .expect("the binary runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty());
        assert!(!dir.exists(), "{args:?} wrote pictures for bad input");
    }
}
