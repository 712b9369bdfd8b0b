//! Generated games for `gen`, the benchmarks and the property tests.
//!
//! A solvable game is a board whose joints get random digits, cut into tiles and shuffled. An
//! unsolvable one starts the same way, then one triangle on an inner joint gets another digit;
//! the solver confirms there is no solution (else another board is tried). A *perturbed* solvable
//! game is made the same way but kept only when the solver finds it still solvable. A *random*
//! game has every triangle drawn independently: no board is planted, so it may or may not have a
//! solution (the class where plain backtracking shows a heavy tail).

use std::fmt::Write as _;

use common::{Direction, Grid, Pos};
use rand::RngExt;
use rand::seq::SliceRandom;

use common::edge_match::Config;
use common::search::{Progress, draw_until};

use crate::model::{Board, DIGITS, Game, MAX_SIZE, Tile};
use crate::solve;

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Board side, 1..=[`MAX_SIZE`].
    pub size: usize,
    /// Digits used: 0..digits, 1..=10. Fewer digits make harder searches.
    pub digits: u8,
    /// Make games without a solution.
    pub unsolvable: bool,
    /// How many games.
    pub games: usize,
}

/// Boards tried before giving up on an unsolvable game.
const ATTEMPTS: usize = 100_000;

/// Generates `options.games` games; an error when unsolvable games are asked for but cannot
/// be made (a 1×1 board, or a single digit). The solver's work goes to `progress`, a stage per
/// board tried.
pub fn games(options: Options, rng: &mut impl rand::Rng, progress: &Progress) -> Result<Vec<Game>, String> {
    assert!((1..=MAX_SIZE).contains(&options.size) && (1..=DIGITS as u8).contains(&options.digits));
    if options.unsolvable && (options.size == 1 || options.digits == 1) {
        return Err("an unsolvable game needs a board side of at least 2 and at least 2 digits".to_owned());
    }
    (0..options.games)
        .map(|index| {
            if !options.unsolvable {
                return Ok(shuffled(&solved_board(options.size, options.digits, rng), rng));
            }
            draw_until(
                ATTEMPTS,
                progress,
                board_stage(index, options.games),
                || Some(perturbed(&solved_board(options.size, options.digits, rng), options.digits, rng)),
                |game| solutions(game, 1, progress) == 0,
            )
            .ok_or_else(|| format!("no unsolvable game found in {ATTEMPTS} attempts"))
        })
        .collect()
}

/// Generates `options.games` games of `options.size²` tiles whose triangles are all drawn
/// independently below `options.digits`: no solution is planted. `options.unsolvable` is not
/// allowed (a random game is whatever it turns out to be).
pub fn random_games(
    options: Options,
    rng: &mut impl rand::Rng,
    _progress: &Progress,
) -> Result<Vec<Game>, String> {
    assert!((1..=MAX_SIZE).contains(&options.size) && (1..=DIGITS as u8).contains(&options.digits));
    if options.unsolvable {
        return Err("a random game is not drawn to be unsolvable; leave out --unsolvable".to_owned());
    }
    Ok((0..options.games)
        .map(|_| Game {
            size: options.size,
            tiles: (0..options.size * options.size)
                .map(|_| Tile { sides: std::array::from_fn(|_| rng.random_range(0..options.digits)) })
                .collect(),
        })
        .collect())
}

/// Generates `options.games` solvable games made like the unsolvable ones (a solved board with
/// one triangle of an inner joint changed), keeping only those the solver still solves; an
/// error when `options.unsolvable` is set, the board has no inner joint or one digit leaves
/// nothing to change, or no such game turns up.
pub fn perturbed_games(
    options: Options,
    rng: &mut impl rand::Rng,
    progress: &Progress,
) -> Result<Vec<Game>, String> {
    assert!((1..=MAX_SIZE).contains(&options.size) && (1..=DIGITS as u8).contains(&options.digits));
    if options.unsolvable {
        return Err("--perturb keeps the games that stay solvable; leave out --unsolvable".to_owned());
    }
    if options.size == 1 || options.digits == 1 {
        return Err("a perturbed game needs a board side of at least 2 and at least 2 digits".to_owned());
    }
    (0..options.games)
        .map(|index| {
            draw_until(
                ATTEMPTS,
                progress,
                board_stage(index, options.games),
                || Some(perturbed(&solved_board(options.size, options.digits, rng), options.digits, rng)),
                |game| solutions(game, 1, progress) == 1,
            )
            .ok_or_else(|| format!("no solvable perturbed game found in {ATTEMPTS} attempts"))
        })
        .collect()
}

/// Shuffled boards tried per game before giving up on a game with a unique solution.
const UNIQUE_ATTEMPTS: usize = 10_000;

/// Generates `options.games` solvable games that each have exactly one solution (one solved
/// board: interchangeable tiles do not make another), checked by counting up to 2; an error
/// when `options.unsolvable` is set or when no such game turns up (few digits and large
/// boards make many solutions likely).
pub fn unique_games(
    options: Options,
    rng: &mut impl rand::Rng,
    progress: &Progress,
) -> Result<Vec<Game>, String> {
    assert!((1..=MAX_SIZE).contains(&options.size) && (1..=DIGITS as u8).contains(&options.digits));
    if options.unsolvable {
        return Err("a game cannot be both unsolvable and uniquely solvable".to_owned());
    }
    (0..options.games)
        .map(|index| {
            draw_until(
                UNIQUE_ATTEMPTS,
                progress,
                board_stage(index, options.games),
                || Some(shuffled(&solved_board(options.size, options.digits, rng), rng)),
                |game| solutions(game, 2, progress) == 1,
            )
            .ok_or_else(|| {
                format!("no game with a unique solution found in {UNIQUE_ATTEMPTS} attempts; try more digits")
            })
        })
        .collect()
}

/// The progress stage of the boards tried for game `index` (from 0) of `games`: "game G of N,
/// board B".
fn board_stage(index: usize, games: usize) -> impl Fn(usize) -> String {
    move |attempt| format!("game {} of {games}, board {attempt}", index + 1)
}

/// The solutions of `game` up to `limit`, found on every core, with the work reported to
/// `progress`.
fn solutions(game: &Game, limit: u64, progress: &Progress) -> u64 {
    solve::search_with(game, &Config::new(limit).with_progress(progress.clone())).found
}

/// A solved `size × size` board: every joint, and every border triangle, a random digit below
/// `digits`.
pub fn solved_board(size: usize, digits: u8, rng: &mut impl rand::Rng) -> Board {
    let mut board = Grid::new(size, size, Tile::new(0, 0, 0, 0));
    for pos in board.positions() {
        let mut tile = Tile { sides: std::array::from_fn(|_| rng.random_range(0..digits)) };
        if pos.col > 0 {
            tile.sides[3] = board[Pos::new(pos.row, pos.col - 1)].sides[1];
        }
        if pos.row > 0 {
            tile.sides[0] = board[Pos::new(pos.row - 1, pos.col)].sides[2];
        }
        board[pos] = tile;
    }
    board
}

/// The board's tiles in random order.
pub fn shuffled(board: &Board, rng: &mut impl rand::Rng) -> Game {
    let mut tiles = board.cells().to_vec();
    tiles.shuffle(rng);
    Game { size: board.rows(), tiles }
}

/// The board's tiles, shuffled, with one triangle of an inner joint changed to another digit.
pub fn perturbed(board: &Board, digits: u8, rng: &mut impl rand::Rng) -> Game {
    let size = board.rows();
    let mut tiles = board.cells().to_vec();
    let cell = rng.random_range(0..tiles.len());
    let inner_sides: Vec<Direction> =
        board.neighbours(Pos::new(cell / size, cell % size)).map(|(d, _)| d).collect();
    let side = inner_sides[rng.random_range(0..inner_sides.len())].index();
    let old = tiles[cell].sides[side];
    let new = (old + rng.random_range(1..digits)) % digits;
    tiles[cell].sides[side] = new;
    tiles.shuffle(rng);
    Game { size, tiles }
}

/// Games in the judge's input format, with the terminating `0`.
pub fn to_input(games: &[Game]) -> String {
    let mut out = String::new();
    for game in games {
        let _ = writeln!(out, "{}", game.size);
        for tile in &game.tiles {
            let [top, right, bottom, left] = tile.sides;
            let _ = writeln!(out, "{top} {right} {bottom} {left}");
        }
    }
    out.push_str("0\n");
    out
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    #[test]
    fn solvable_games_are_solved_by_their_own_board() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for size in 1..=MAX_SIZE {
            let board = solved_board(size, 3, &mut rng);
            let game = shuffled(&board, &mut rng);
            assert!(game.is_solution(&board));
            assert!(game.tiles.iter().flat_map(|t| t.sides).all(|d| d < 3));
        }
    }

    #[test]
    fn unsolvable_games_are_refused_where_impossible() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let options = Options { size: 1, digits: 4, unsolvable: true, games: 1 };
        assert!(games(options, &mut rng, &Progress::default()).is_err());
        let options = Options { size: 3, digits: 1, unsolvable: true, games: 1 };
        assert!(games(options, &mut rng, &Progress::default()).is_err());
    }

    #[test]
    fn unsolvable_games_have_no_solution() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let options = Options { size: 3, digits: 3, unsolvable: true, games: 5 };
        for game in games(options, &mut rng, &Progress::default()).unwrap() {
            assert_eq!(crate::reference::solve(&game), None);
        }
    }

    #[test]
    fn unique_games_have_one_solution_and_refuse_to_be_unsolvable() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let options = Options { size: 3, digits: 4, unsolvable: false, games: 5 };
        for game in unique_games(options, &mut rng, &Progress::default()).unwrap() {
            assert_eq!(crate::reference::count(&game, 10), 1);
        }
        let options = Options { size: 3, digits: 4, unsolvable: true, games: 1 };
        assert!(unique_games(options, &mut rng, &Progress::default()).is_err());
        // One digit: every arrangement of the identical tiles is the one board...
        let options = Options { size: 2, digits: 1, unsolvable: false, games: 1 };
        assert_eq!(unique_games(options, &mut rng, &Progress::default()).unwrap().len(), 1);
    }

    #[test]
    fn random_games_are_seeded_and_refuse_to_be_unsolvable() {
        let options = Options { size: 4, digits: 3, unsolvable: false, games: 3 };
        let drawn = random_games(options, &mut ChaCha8Rng::seed_from_u64(6), &Progress::default()).unwrap();
        assert_eq!(
            drawn,
            random_games(options, &mut ChaCha8Rng::seed_from_u64(6), &Progress::default()).unwrap()
        );
        assert_ne!(
            drawn,
            random_games(options, &mut ChaCha8Rng::seed_from_u64(7), &Progress::default()).unwrap()
        );
        assert!(drawn.iter().all(|game| game.tiles.len() == 16));
        assert!(drawn.iter().flat_map(|game| &game.tiles).flat_map(|tile| tile.sides).all(|d| d < 3));
        let options = Options { unsolvable: true, ..options };
        assert!(random_games(options, &mut ChaCha8Rng::seed_from_u64(6), &Progress::default()).is_err());
    }

    #[test]
    fn perturbed_games_are_solvable_with_one_triangle_off_a_solved_board() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let options = Options { size: 3, digits: 3, unsolvable: false, games: 5 };
        for game in perturbed_games(options, &mut rng, &Progress::default()).unwrap() {
            assert!(crate::reference::solve(&game).is_some());
        }
        let options = Options { size: 1, ..options };
        assert!(perturbed_games(options, &mut rng, &Progress::default()).is_err());
        let options = Options { size: 3, unsolvable: true, ..options };
        assert!(perturbed_games(options, &mut rng, &Progress::default()).is_err());
    }

    #[test]
    fn input_round_trips_through_the_parser() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let options = Options { size: 4, digits: 10, unsolvable: false, games: 3 };
        let generated = games(options, &mut rng, &Progress::default()).unwrap();
        let text = to_input(&generated);
        let parsed = crate::parse::games(&mut common::Tokens::new(text.as_bytes())).unwrap();
        assert_eq!(parsed.iter().collect::<Vec<_>>(), generated);
    }
}
