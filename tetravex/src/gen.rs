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
use common::search::{Draws, GenError, Progress, draw_each};

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
    /// Boards tried for each game a search must accept before giving up, at least 1.
    pub tries: u64,
}

/// Boards tried for each game of `--unsolvable`, `--perturb` or `--unique` on a board of side
/// `size` before giving up, unless `--tries` says otherwise. One try costs about a millisecond
/// up to 6×6 and up to a second on the largest boards (more where a refutation is hard), so
/// the default keeps the wait at a few seconds for most games and under a minute at worst for
/// a game that cannot be found.
pub fn default_tries(size: usize) -> u64 {
    if size <= 6 { 1000 } else { 50 }
}

/// The draws of the games of `options` that a search checks, giving `advice` when the tries
/// run out.
fn draws(options: Options, advice: &'static str) -> Draws {
    Draws { wanted: options.games, tries: options.tries, item: "game", candidate: "board", advice }
}

/// Generates `options.games` games; refused when unsolvable games are asked for but cannot be
/// made (a 1×1 board, or a single digit). The solver's work goes to `progress`, a stage per
/// board tried.
pub fn games(
    options: Options,
    rng: &mut impl rand::Rng,
    progress: &Progress,
) -> Result<Vec<Game>, GenError<Game>> {
    assert!((1..=MAX_SIZE).contains(&options.size) && (1..=DIGITS as u8).contains(&options.digits));
    if !options.unsolvable {
        return Ok((0..options.games)
            .map(|_| shuffled(&solved_board(options.size, options.digits, rng), rng))
            .collect());
    }
    if options.size == 1 || options.digits == 1 {
        return Err(GenError::Refused(
            "an unsolvable game needs a board side of at least 2 and at least 2 digits".to_owned(),
        ));
    }
    let advice = "a changed triangle seldom takes every solution from a large board with few \
                  digits: try more digits or a smaller board, or more --tries";
    perturbed_kept(draws(options, advice), options, false, rng, progress)
}

/// Generates `options.games` games of `options.size²` tiles whose triangles are all drawn
/// independently below `options.digits`: no solution is planted. `options.unsolvable` is
/// refused (a random game is whatever it turns out to be).
pub fn random_games(
    options: Options,
    rng: &mut impl rand::Rng,
    _progress: &Progress,
) -> Result<Vec<Game>, GenError<Game>> {
    assert!((1..=MAX_SIZE).contains(&options.size) && (1..=DIGITS as u8).contains(&options.digits));
    if options.unsolvable {
        return Err(GenError::Refused(
            "a random game is not drawn to be unsolvable; leave out --unsolvable".to_owned(),
        ));
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
/// one triangle of an inner joint changed), keeping only those the solver still solves; refused
/// when `options.unsolvable` is set, or the board has no inner joint or one digit leaves
/// nothing to change.
pub fn perturbed_games(
    options: Options,
    rng: &mut impl rand::Rng,
    progress: &Progress,
) -> Result<Vec<Game>, GenError<Game>> {
    assert!((1..=MAX_SIZE).contains(&options.size) && (1..=DIGITS as u8).contains(&options.digits));
    if options.unsolvable {
        return Err(GenError::Refused(
            "--perturb keeps the games that stay solvable; leave out --unsolvable".to_owned(),
        ));
    }
    if options.size == 1 || options.digits == 1 {
        return Err(GenError::Refused(
            "a perturbed game needs a board side of at least 2 and at least 2 digits".to_owned(),
        ));
    }
    let advice = "a changed triangle seldom leaves a small board with many digits solvable: try \
                  fewer digits or a larger board, or more --tries";
    perturbed_kept(draws(options, advice), options, true, rng, progress)
}

/// Games of `options` drawn as solved boards with one triangle changed ([`perturbed`]), kept
/// when the solver finds them solvable if `solvable`, unsolvable otherwise.
fn perturbed_kept(
    draws: Draws,
    options: Options,
    solvable: bool,
    rng: &mut impl rand::Rng,
    progress: &Progress,
) -> Result<Vec<Game>, GenError<Game>> {
    Ok(draw_each(
        draws,
        progress,
        || Some(perturbed(&solved_board(options.size, options.digits, rng), options.digits, rng)),
        |game| (solutions(game, 1, progress) == 1) == solvable,
    )?)
}

/// Generates `options.games` solvable games that each have exactly one solution (one solved
/// board: interchangeable tiles do not make another), checked by counting up to 2; refused
/// when `options.unsolvable` is set.
pub fn unique_games(
    options: Options,
    rng: &mut impl rand::Rng,
    progress: &Progress,
) -> Result<Vec<Game>, GenError<Game>> {
    assert!((1..=MAX_SIZE).contains(&options.size) && (1..=DIGITS as u8).contains(&options.digits));
    if options.unsolvable {
        return Err(GenError::Refused("a game cannot be both unsolvable and uniquely solvable".to_owned()));
    }
    let advice = "large boards with few digits seldom have a single solution: try more digits or a \
                  smaller board, or more --tries";
    Ok(draw_each(
        draws(options, advice),
        progress,
        || Some(shuffled(&solved_board(options.size, options.digits, rng), rng)),
        |game| solutions(game, 2, progress) == 1,
    )?)
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

    /// Boards tried per game: more than any of these small shapes needs.
    const TRIES: u64 = 1000;

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
        let options = Options { size: 1, digits: 4, unsolvable: true, games: 1, tries: TRIES };
        assert!(games(options, &mut rng, &Progress::default()).is_err());
        let options = Options { size: 3, digits: 1, unsolvable: true, games: 1, tries: TRIES };
        assert!(games(options, &mut rng, &Progress::default()).is_err());
    }

    #[test]
    fn unsolvable_games_have_no_solution() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let options = Options { size: 3, digits: 3, unsolvable: true, games: 5, tries: TRIES };
        for game in games(options, &mut rng, &Progress::default()).unwrap() {
            assert_eq!(crate::reference::solve(&game), None);
        }
    }

    #[test]
    fn unique_games_have_one_solution_and_refuse_to_be_unsolvable() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let options = Options { size: 3, digits: 4, unsolvable: false, games: 5, tries: TRIES };
        for game in unique_games(options, &mut rng, &Progress::default()).unwrap() {
            assert_eq!(crate::reference::count(&game, 10), 1);
        }
        // Two digits on a 5×5 board: many solutions, so two tries per game run out, and the
        // games made before that are kept.
        let options = Options { size: 5, digits: 2, unsolvable: false, games: 3, tries: 2 };
        let Err(GenError::OutOfTries(short)) = unique_games(options, &mut rng, &Progress::default()) else {
            panic!("a unique 5×5 game of two digits in two tries");
        };
        assert!(short.made.len() < 3 && short.draws.tries == 2);
        assert!(short.made.iter().all(|game| crate::reference::count(game, 10) == 1));
        let options = Options { size: 3, digits: 4, unsolvable: true, games: 1, tries: TRIES };
        assert!(unique_games(options, &mut rng, &Progress::default()).is_err());
        // One digit: every arrangement of the identical tiles is the one board...
        let options = Options { size: 2, digits: 1, unsolvable: false, games: 1, tries: TRIES };
        assert_eq!(unique_games(options, &mut rng, &Progress::default()).unwrap().len(), 1);
    }

    #[test]
    fn random_games_are_seeded_and_refuse_to_be_unsolvable() {
        let options = Options { size: 4, digits: 3, unsolvable: false, games: 3, tries: TRIES };
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
        let options = Options { size: 3, digits: 3, unsolvable: false, games: 5, tries: TRIES };
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
        let options = Options { size: 4, digits: 10, unsolvable: false, games: 3, tries: TRIES };
        let generated = games(options, &mut rng, &Progress::default()).unwrap();
        let text = to_input(&generated);
        let parsed = crate::parse::games(&mut common::Tokens::new(text.as_bytes())).unwrap();
        assert_eq!(parsed.iter().collect::<Vec<_>>(), generated);
    }
}
