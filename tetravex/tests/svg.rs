//! The pictures of `--svg DIR`, checked for what they show: rendered by a real SVG renderer,
//! every triangle has the colour of its digit, and the solved board's colours spell a solution.

use common::Grid;
use common::cli::Input;
use common::svg::PALETTE;
use common::svg::render::{self, file_names, fresh_dir};
use tetravex::model::{Board, Game, Tile};
use tetravex::{parse, svg};

const BINARY: &str = env!("CARGO_BIN_EXE_tetravex");
const SCRATCH: &str = env!("CARGO_TARGET_TMPDIR");

/// Two games: the judge's solvable 2×2 sample, and a 2×2 game whose tiles cannot meet.
const GAMES: &str = "2\n5 9 1 4\n4 4 5 6\n6 8 5 4\n0 4 4 3\n2\n1 1 1 1\n2 2 2 2\n3 3 3 3\n4 4 4 4\n0\n";

fn games(text: &str) -> Vec<Game> {
    let input = Input::from_bytes("games", text);
    let games = input.parse(parse::games).expect("valid games");
    games.iter().collect()
}

/// The digit whose colour `colour` is.
fn digit_of(colour: &str) -> u8 {
    let digit = PALETTE.iter().position(|&fill| fill == colour);
    digit.unwrap_or_else(|| panic!("{colour} is no digit's colour")) as u8
}

/// The tile drawn at (`x`, `y`) in `picture`, read from the colours of its triangles.
fn tile_at(picture: &render::Rendered, (x, y): (i32, i32)) -> Tile {
    let [top, right, bottom, left] = std::array::from_fn(|side| {
        let (cx, cy) = svg::triangle_centre(x, y, side);
        digit_of(&picture.colour(cx, cy))
    });
    Tile::new(top, right, bottom, left)
}

#[test]
fn a_sheet_shows_every_tile_in_input_order_in_its_colours_and_digits() {
    for game in games(GAMES) {
        let sheet = svg::sheet(&game);
        let picture = render::render(&sheet);
        for (index, &tile) in game.tiles.iter().enumerate() {
            assert_eq!(tile_at(&picture, svg::loose_tile_corner(game.size, index)), tile, "tile {index}");
        }
        let digits: Vec<String> =
            game.tiles.iter().flat_map(|tile| tile.sides.map(|digit| digit.to_string())).collect();
        assert_eq!(render::texts(&sheet), digits);
    }
}

#[test]
fn the_binary_writes_a_solved_board_whose_colours_are_a_solution_and_keeps_stdout() {
    let dir = fresh_dir(SCRATCH, "tetravex-solve");
    render::run_with_pictures(BINARY, &[], GAMES.as_bytes(), &dir);
    assert_eq!(file_names(&dir), ["game-1-board.svg", "game-1-tiles.svg", "game-2-tiles.svg"]);

    let game = &games(GAMES)[0];
    let drawn = std::fs::read_to_string(dir.join("game-1-board.svg")).expect("written");
    let picture = render::render(&drawn);
    let tiles = (0..4).map(|cell| tile_at(&picture, svg::placed_tile_corner(cell / 2, cell % 2))).collect();
    let board: Board = Grid::from_vec(2, 2, tiles);
    assert!(game.is_solution(&board), "the board drawn is no solution: {board:?}");
    insta::assert_snapshot!("solved-board", drawn);
}

#[test]
fn gen_writes_sheets_without_solutions_into_a_new_folder() {
    let dir = fresh_dir(SCRATCH, "tetravex-gen").join("made/by/gen");
    let args = ["gen", "--size", "3", "--games", "2", "--seed", "7"];
    let plain = render::run_with_pictures(BINARY, &args, b"", &dir);
    assert_eq!(file_names(&dir), ["game-1-tiles.svg", "game-2-tiles.svg"]);
    let generated = games(&String::from_utf8(plain).expect("text"));
    let sheet = std::fs::read_to_string(dir.join("game-2-tiles.svg")).expect("written");
    assert_eq!(sheet, svg::sheet(&generated[1]));
}

#[test]
fn the_largest_board_stays_small() {
    let game = Game { size: 8, tiles: (0..64).map(|n| Tile::new(n % 10, n / 10, 9 - n % 10, 3)).collect() };
    assert!(svg::sheet(&game).len() < 100_000);
}

#[test]
fn the_readme_picture_is_the_one_the_tool_draws() {
    let game = render::run(BINARY, &["gen", "--size", "4", "--digits", "6", "--unique", "--seed", "7"], b"");
    let drawn = render::picture_of(BINARY, &[], &game, (SCRATCH, "tetravex-readme"), "game-1-board.svg");
    assert!(drawn == include_str!("../docs/unique-4x4-board.svg"), "run the README's command again");
}

#[test]
fn a_file_given_for_the_folder_is_refused_before_any_input_is_read() {
    for args in [&[][..], &["gen"]] {
        render::refuses_a_file_for_the_folder(BINARY, args);
    }
}
