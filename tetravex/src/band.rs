//! The hard band: the board sides and numbers of digits where the solver can need minutes or
//! hours for one game, so that `gen` can say so before it makes any.
//!
//! Where a random set of tiles expects about one arrangement (the phase transition of edge
//! matching), a search that places one tile at a time passes through far more partial boards
//! than there are solutions, and nothing it checks refutes most of them early. The band below
//! is measured, not derived: five planted games of each side from 7 to 10 and 5, 6, 7, 8 or 10
//! digits, each on one thread under a cap of 10 s of CPU (`examples/band_table.rs`; the figures
//! are in `docs/benchmarks/tetravex.md`). A cell is in the band when some game of it ran past the
//! cap. Between measured cells the band is taken as wide as its neighbours make it (9 digits on
//! an 8×8 or 9×9 board, where 8 digits are in the band), and past 10×10 as wide as on 10×10,
//! which the 16×16 games with 6 and 10 digits confirm; boards up to 6×6 are decided within
//! seconds with any number of digits. 9×9 with 10 digits left the band when two-word kind sets
//! made its nodes cheaper: its five games take at most 9 s, and counting one to the end (what
//! `--unique` does) about a minute.

use std::ops::RangeInclusive;

use crate::model::MAX_SIZE;

/// The numbers of digits in the band on a board of side `size` (see the module documentation).
fn band(size: usize) -> Option<RangeInclusive<u8>> {
    match size {
        0..=6 => None,
        7 => Some(6..=6),
        8 | 9 => Some(6..=9),
        10..=MAX_SIZE => Some(6..=10),
        _ => None,
    }
}

/// Whether games of side `size` with `digits` digits lie in the band.
pub fn in_band(size: usize, digits: u8) -> bool {
    band(size).is_some_and(|band| band.contains(&digits))
}

/// What `gen` says, before it makes a game of side `size` with `digits` digits, when those lie in
/// the band: `Ok(Some(warning))` for games it only draws, a refusal for games it checks with the
/// solver (`checked`: `--unique`, `--unsolvable`, `--perturb`), which could search for hours per
/// board; `Ok(None)` outside the band. Each message says what to change.
pub fn advice(size: usize, digits: u8, checked: bool) -> Result<Option<String>, String> {
    if !in_band(size, digits) {
        return Ok(None);
    }
    let what = format!(
        "{size}x{size} games with {digits} digits lie where the solver can need minutes or hours a game \
         (of five such games measured, some ran past 10 s)"
    );
    let change = change(size, digits);
    if checked {
        return Err(format!(
            "{what}, and these games are checked by the solver board by board; {change}, or draw \
             unchecked games (leave out --unique, --unsolvable and --perturb)"
        ));
    }
    Ok(Some(format!(
        "warning: {what}; {change}; a game that runs long can be split into parts run side by side \
         (tetravex --part K/N, then tetravex merge)"
    )))
}

/// What to change to leave the band: other numbers of digits on this board, or a smaller board.
fn change(size: usize, digits: u8) -> String {
    let mut choices = Vec::new();
    if let Some(band) = band(size) {
        let below = band.start() - 1;
        choices.push(format!("at most {below} digits"));
        match band.end() + 1 {
            10 => choices.push("10".to_owned()),
            above if above < 10 => choices.push(format!("{above} or more")),
            _ => {}
        }
    }
    let smaller = (1..size).rev().find(|&side| !in_band(side, digits));
    let board = smaller.map(|side| format!(", or a board of side {side} or less")).unwrap_or_default();
    format!("games of this size are decided within seconds with {}{board}", choices.join(" or "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_band_holds_the_measured_cells_that_ran_long() {
        for (size, digits) in [(7, 6), (8, 6), (8, 7), (8, 8), (9, 6), (9, 9), (10, 7), (10, 10), (16, 10)] {
            assert!(in_band(size, digits), "{size}x{size}, {digits} digits");
        }
        for (size, digits) in [(6, 6), (7, 5), (7, 7), (7, 10), (8, 5), (8, 10), (9, 10), (10, 5), (16, 4)] {
            assert!(!in_band(size, digits), "{size}x{size}, {digits} digits");
        }
    }

    #[test]
    fn advice_warns_for_drawn_games_and_refuses_checked_ones() {
        assert_eq!(advice(8, 5, true), Ok(None));
        let warning = advice(8, 7, false).expect("a warning").expect("in the band");
        assert!(warning.starts_with("warning: 8x8 games with 7 digits"), "{warning}");
        assert!(
            warning.contains("at most 5 digits or 10,") && warning.contains("side 7 or less"),
            "{warning}"
        );
        assert!(warning.contains("--part"), "{warning}");
        let refusal = advice(10, 10, true).expect_err("refused");
        assert!(refusal.contains("at most 5 digits") && refusal.contains("side 9 or less"), "{refusal}");
        assert!(refusal.contains("leave out --unique"), "{refusal}");
    }
}
