//! How generators make items a search must accept: candidates drawn until one is accepted, up
//! to a number of tries, and what to say when the tries run out.

use std::fmt;

use crate::search::Progress;
use crate::words::counted;

/// How a generator makes items (games, blocks, boards) that a search must accept: it draws
/// candidates, and gives up on an item after [`Draws::tries`] of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Draws {
    /// How many items to make.
    pub wanted: usize,
    /// Candidates drawn for each item before giving up, at least 1.
    pub tries: u64,
    /// What an item is called, for the progress line ("game").
    pub item: &'static str,
    /// What a candidate is called ("board").
    pub candidate: &'static str,
    /// What to change when the tries run out ("try more digits or a smaller board").
    pub advice: &'static str,
}

/// The items a generator made before one of them ran out of [`Draws::tries`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutOfTries<T> {
    /// The items made, in order (fewer than wanted).
    pub made: Vec<T>,
    /// What was asked.
    pub draws: Draws,
}

impl<T> fmt::Display for OutOfTries<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.draws.shortfall(self.made.len()))
    }
}

impl Draws {
    /// The first candidate `draw` makes that `accept` takes for item `index` (from 0), within
    /// [`Draws::tries`] draws (a draw of `None` is a try that made nothing to test); `None`
    /// when the tries ran out. Each candidate tested is a stage of `progress`, named by the
    /// items made and the candidates tried: `2 of 10 games made, board 57 of 400`.
    ///
    /// # Complexity
    /// At most [`Draws::tries`] calls of `draw`, and of `accept` for those that made something.
    pub fn draw<T>(
        &self,
        index: usize,
        progress: &Progress,
        mut draw: impl FnMut() -> Option<T>,
        mut accept: impl FnMut(&T) -> bool,
    ) -> Option<T> {
        let Draws { wanted, tries, item, candidate, .. } = *self;
        for tried in 1..=tries {
            if let Some(drawn) = draw() {
                progress.set_stage(|| {
                    format!("{index} of {} made, {candidate} {tried} of {tries}", counted(wanted, item))
                });
                if accept(&drawn) {
                    return Some(drawn);
                }
            }
        }
        None
    }

    /// What to say when item `index` (from 0) ran out of tries: "400 boards tried without
    /// finding game 2 of 3; try more digits" (the games before it were made).
    pub fn shortfall(&self, index: usize) -> String {
        let Draws { wanted, tries, item, candidate, advice } = *self;
        let tried = format!("{} tried without finding", counted(tries, candidate));
        if wanted == 1 {
            format!("{tried} a {item}; {advice}")
        } else {
            format!("{tried} {item} {} of {wanted}; {advice}", index + 1)
        }
    }
}

/// Makes `draws.wanted` items, each with [`Draws::draw`], all reporting to `progress`; when one
/// runs out of tries, the items made before it.
///
/// # Complexity
/// At most `draws.wanted × draws.tries` draws; room for at most 65,536 items is reserved ahead,
/// whatever `draws.wanted` says.
///
/// # Errors
/// [`OutOfTries`], with the items made, when an item's tries run out.
pub fn draw_each<T>(
    draws: Draws,
    progress: &Progress,
    mut draw: impl FnMut() -> Option<T>,
    mut accept: impl FnMut(&T) -> bool,
) -> Result<Vec<T>, OutOfTries<T>> {
    let mut made = Vec::with_capacity(draws.wanted.min(1 << 16));
    while made.len() < draws.wanted {
        match draws.draw(made.len(), progress, &mut draw, &mut accept) {
            Some(item) => made.push(item),
            None => return Err(OutOfTries { made, draws }),
        }
    }
    Ok(made)
}

/// Why a generator made less than was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GenError<T> {
    /// The options ask for what cannot be made at all: why.
    Refused(String),
    /// The items checked by a search ran out of tries.
    OutOfTries(OutOfTries<T>),
}

impl<T> fmt::Display for GenError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenError::Refused(why) => f.write_str(why),
            GenError::OutOfTries(short) => short.fmt(f),
        }
    }
}

impl<T> From<OutOfTries<T>> for GenError<T> {
    fn from(out_of_tries: OutOfTries<T>) -> Self {
        GenError::OutOfTries(out_of_tries)
    }
}

/// What a generator made: everything asked, or the items made before it ran out of tries; none
/// when its options were refused.
pub fn made<T>(generated: &Result<Vec<T>, GenError<T>>) -> Option<&[T]> {
    match generated {
        Ok(items) => Some(items),
        Err(GenError::OutOfTries(short)) => Some(&short.made),
        Err(GenError::Refused(_)) => None,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    const DRAWS: Draws =
        Draws { wanted: 2, tries: 4, item: "game", candidate: "board", advice: "try more digits" };

    #[test]
    fn drawing_takes_the_first_accepted_candidate_for_each_item() {
        let mut next = 0;
        let draw = || {
            next += 1;
            (next % 3 != 0).then_some(next)
        };
        // 1, 2 and 4 refused, 3 makes nothing (a try all the same), 5 taken on the fifth try;
        // 6 makes nothing, 7 refused, 8 taken.
        let draws = Draws { tries: 5, ..DRAWS };
        assert_eq!(draw_each(draws, &Progress::default(), draw, |&n| n == 5 || n == 8), Ok(vec![5, 8]));
        assert_eq!(next, 8);
    }

    #[test]
    fn drawing_gives_up_after_the_tries_of_one_item_and_keeps_what_it_made() {
        let next = std::cell::Cell::new(0);
        let progress = Progress::watched();
        let stages = Mutex::new(Vec::new());
        let outcome = draw_each(
            DRAWS,
            &progress,
            || {
                next.set(next.get() + 1);
                Some(next.get())
            },
            |&drawn| {
                stages.lock().unwrap().push(progress.stage());
                drawn == 2
            },
        );
        let out_of_tries = outcome.unwrap_err();
        assert_eq!(out_of_tries.made, [2]);
        assert_eq!(next.get(), 6, "two tries for the first game, then four");
        assert_eq!(out_of_tries.to_string(), "4 boards tried without finding game 2 of 2; try more digits");
        let stages = stages.into_inner().unwrap();
        assert_eq!(stages[..2], ["0 of 2 games made, board 1 of 4", "0 of 2 games made, board 2 of 4"]);
        assert_eq!(stages[5], "1 of 2 games made, board 4 of 4");
    }
}
