//! The pictures of `--svg DIR`, checked for what they show: rendered by a real SVG renderer,
//! every piece has its kind's colour, every knob shows outside its side and every hole inside,
//! and the assembled rectangle holds the block's pieces.

use common::cli::Input;
use common::svg::render::{self, Rendered, file_names, fresh_dir};
use common::svg::{CELL, PALETTE};
use jigsaw::model::{Block, Piece, Side};
use jigsaw::svg::{self, KNOB, Kinds};
use jigsaw::{parse, solve};

const BINARY: &str = env!("CARGO_BIN_EXE_jigsaw");
const SCRATCH: &str = env!("CARGO_TARGET_TMPDIR");

/// The bundled samples: the judge's and one to be solved with turns.
const SAMPLES: [&str; 2] = [include_str!("../samples/sample.in"), include_str!("../samples/rotate.in")];

fn blocks(text: &str) -> Vec<Block> {
    let input = Input::from_bytes("blocks", text);
    input.parse(parse::blocks).expect("valid blocks").iter().collect()
}

/// The side of the piece drawn in `colour` at (`x`, `y`) that faces side `side`, read from the
/// pixels just outside and just inside the middle of that side.
fn side_at(picture: &Rendered, (x, y): (i32, i32), side: usize, colour: &str) -> Side {
    let probe = KNOB / 2;
    // A negative inset is a point outside the side.
    let point = |depth: i32| {
        let (px, py) = common::svg::inside_side(x, y, side, -depth);
        picture.colour(px, py)
    };
    match (point(probe) == colour, point(-probe) == colour) {
        (true, true) => Side::Out,
        (false, true) => Side::Flat,
        (false, false) => Side::In,
        (true, false) => panic!("side {side} of the piece at ({x}, {y}) is drawn outside in"),
    }
}

#[test]
fn a_sheet_shows_every_piece_in_input_order_with_its_sides_and_colour() {
    for block in SAMPLES.into_iter().flat_map(blocks) {
        let sheet = svg::sheet(&block);
        let picture = render::render(&sheet);
        let kinds = Kinds::of(&block);
        for (index, &piece) in block.pieces.iter().enumerate() {
            let (x, y) = svg::loose_piece_corner(&block, index);
            let colour = PALETTE[kinds.colour(piece)];
            assert_eq!(picture.colour(x + CELL / 2, y + CELL / 2), colour, "piece {index}");
            let drawn = Piece { sides: std::array::from_fn(|side| side_at(&picture, (x, y), side, colour)) };
            assert_eq!(drawn, piece, "piece {index}");
        }
        let words: Vec<String> = block.pieces.iter().map(ToString::to_string).collect();
        assert_eq!(render::texts(&sheet), words);
    }
}

#[test]
fn pieces_equal_up_to_turning_share_a_colour_and_others_do_not() {
    let block = blocks("1 3\nFOFF\nFFFI\nFFOF\n0 0\n").remove(0);
    let kinds = Kinds::of(&block);
    let colours: Vec<usize> = block.pieces.iter().map(|&piece| kinds.colour(piece)).collect();
    assert_eq!(colours[0], colours[2]);
    assert_ne!(colours[0], colours[1]);
}

#[test]
fn the_binary_draws_the_assembled_rectangle_of_turned_pieces_and_keeps_stdout() {
    let dir = fresh_dir(SCRATCH, "jigsaw-solve");
    let input = "1 3\nFOFF\nIFOF\nIFFF\n0 0\n";
    render::run_with_pictures(BINARY, &["--rotate"], input.as_bytes(), &dir);
    assert_eq!(file_names(&dir), ["block-1-assembly.svg", "block-1-pieces.svg"]);

    let block = blocks(input).remove(0);
    let kinds = Kinds::of(&block);
    let drawn = std::fs::read_to_string(dir.join("block-1-assembly.svg")).expect("written");
    let picture = render::render(&drawn);
    let (x, y) = svg::placed_piece_corner(0, 0);
    assert_eq!(side_at(&picture, (x, y), 3, PALETTE[kinds.colour(block.pieces[0])]), Side::Flat);
    let turned =
        solve::search_with(&block, true, &common::edge_match::Config::new(1)).first.expect("solvable");
    for col in 0..3 {
        let (x, y) = svg::placed_piece_corner(0, col);
        let colour = PALETTE[kinds.colour(turned.row(0)[col])];
        assert_eq!(picture.colour(x + CELL / 2, y + CELL / 2), colour, "column {col}");
    }
    // The middle piece is the second one given turned a quarter back (FOFI): its hole is on the
    // left, where the first piece's knob fills it with the first piece's colour.
    let (x, y) = svg::placed_piece_corner(0, 1);
    assert_eq!(picture.colour(x + KNOB / 2, y + CELL / 2), PALETTE[kinds.colour(block.pieces[0])]);
    assert_eq!(drawn, svg::assembly(&block, &turned));
    insta::assert_snapshot!("turned-assembly", drawn);
}

#[test]
fn gen_writes_sheets_without_solutions_into_a_new_folder() {
    let dir = fresh_dir(SCRATCH, "jigsaw-gen").join("sheets");
    let args = ["gen", "--rows", "2", "--cols", "4", "--blocks", "2", "--rotate", "--seed", "7"];
    let plain = render::run_with_pictures(BINARY, &args, b"", &dir);
    assert_eq!(file_names(&dir), ["block-1-pieces.svg", "block-2-pieces.svg"]);
    let generated = blocks(&String::from_utf8(plain).expect("text"));
    let sheet = std::fs::read_to_string(dir.join("block-2-pieces.svg")).expect("written");
    assert_eq!(sheet, svg::sheet(&generated[1]));
}

#[test]
fn the_readme_picture_is_the_one_the_tool_draws() {
    let drawn = render::picture_of(
        BINARY,
        &["--rotate"],
        SAMPLES[1].as_bytes(),
        (SCRATCH, "jigsaw-readme"),
        "block-1-assembly.svg",
    );
    assert!(drawn == include_str!("../docs/rotate-assembly.svg"), "run the README's command again");
}

#[test]
fn a_file_given_for_the_folder_is_refused_before_any_input_is_read() {
    for args in [&[][..], &["gen"]] {
        render::refuses_a_file_for_the_folder(BINARY, args);
    }
}
