//! `solve --best`: greedy play first, then the exact search of [`crate::clear`] where play does
//! not clear the board, so that `--best` never reports less than plain play on the same board.
//!
//! Greedy play costs O(pieces × cells) (a few milliseconds on the largest board the search
//! takes) against a search that is exponential at worst, and it clears most boards that can be
//! cleared: a board it clears is answered with its removals and no search. The search alone
//! can run out of its budget on large boards that play clears at once (a full 60 × 60 board of
//! 8 kinds: play clears it, the search is still in its third position when the default budget
//! is spent). Play's work is not charged to the budget.

use common::search::Progress;

use super::{Removal, Table, greedy};
use crate::clear::{self, Limit, Settings, TooLarge, Verdict};
use crate::model::Board;

/// What [`best`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Best {
    /// An order of removals that clears the board.
    Cleared(Vec<Removal>),
    /// No order clears the board.
    Hopeless,
    /// A limit stopped the search before it knew: its budget of work, or the bound on a
    /// position's pairs ([`clear::MAX_EDGES`]).
    Undecided(Limit),
}

/// Who decided a board in [`best`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decider {
    /// Greedy play cleared the board: no search was made.
    Play,
    /// The exact search.
    Search,
}

/// The result of [`best`], with who decided it, the positions searched and the work spent (the
/// same on every machine; both 0 when play cleared the board).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BestOutcome {
    /// What was found.
    pub best: Best,
    /// Who found it.
    pub by: Decider,
    /// Positions searched.
    pub positions: u64,
    /// Work spent, in the units of the budget (see [`clear::Settings::budget`]).
    pub work: u64,
}

/// Plays `board` greedily under `settings`' rules and, when play does not clear it, searches it
/// for an order of removals that clears it ([`clear::search`], with its limits and complexity:
/// boards larger than [`clear::MAX_SIDE`] on a side are refused, the work is bounded by
/// `settings.budget`), then replays the order found on the board, drawing each removal's line
/// with a sweep: O(pieces × cells) more. Never panics.
pub fn best(board: &Board, settings: Settings) -> Result<BestOutcome, TooLarge> {
    best_reporting(board, settings, &Progress::default())
}

/// [`best`], reporting the positions searched to `progress` as the search runs, with an
/// estimate (see [`clear::search_reporting`]); the same limits and outcome.
pub fn best_reporting(
    board: &Board,
    settings: Settings,
    progress: &Progress,
) -> Result<BestOutcome, TooLarge> {
    let outcome = match decide(board, settings, progress)? {
        Decided::ByPlay(removals) => {
            return Ok(BestOutcome {
                best: Best::Cleared(removals),
                by: Decider::Play,
                positions: 0,
                work: 0,
            });
        }
        Decided::BySearch(outcome) => outcome,
    };
    let best = match outcome.verdict {
        Verdict::Hopeless => Best::Hopeless,
        Verdict::Undecided(limit) => Best::Undecided(limit),
        Verdict::Cleared(order) => {
            let mut replay = Table::of(board, settings.rules, settings.gravity);
            let removals = order
                .into_iter()
                .map(|(a, b)| {
                    let (from, to) = (replay.walled.cell(a), replay.walled.cell(b));
                    let kind = replay.ids.name(replay.ids.of_cell[from]);
                    let line = replay.line(from, to).expect("every removal of the search can be made");
                    replay.remove([from, to]);
                    Removal { a, b, kind, line }
                })
                .collect();
            Best::Cleared(removals)
        }
    };
    Ok(BestOutcome { best, by: Decider::Search, positions: outcome.positions, work: outcome.work })
}

/// True when [`best`] finds that `board` can be cleared: greedy play clears it, or the search
/// finds an order within its budget (no removals are replayed). The same limits; its positions
/// are reported to `progress`.
pub fn clears(board: &Board, settings: Settings, progress: &Progress) -> Result<bool, TooLarge> {
    Ok(match decide(board, settings, progress)? {
        Decided::ByPlay(_) => true,
        Decided::BySearch(outcome) => matches!(outcome.verdict, Verdict::Cleared(_)),
    })
}

/// How [`decide`] decided.
enum Decided {
    /// Greedy play cleared the board by these removals.
    ByPlay(Vec<Removal>),
    /// Play did not clear it; the search's outcome.
    BySearch(clear::Outcome),
}

/// Greedy play, then the search where play does not clear `board`; a board larger than the
/// search takes is refused before play.
fn decide(board: &Board, settings: Settings, progress: &Progress) -> Result<Decided, TooLarge> {
    clear::fits(board)?;
    let game = greedy(board, settings.rules, settings.gravity);
    if game.pieces_left == 0 {
        return Ok(Decided::ByPlay(game.removals));
    }
    clear::search_reporting(board, settings, progress).map(Decided::BySearch)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};

    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::model::{Query, Rules, remove_pair};

    /// On full 60 × 60 boards of 8 kinds, greedy play clears the board while the search alone
    /// runs out of its budget (of the default, too: in its third position); `--best` clears them
    /// by play, with and without gravity, and its removals clear the board.
    #[test]
    fn best_is_never_worse_than_play() {
        for (seed, gravity) in [(1, false), (2, false), (1, true)] {
            let board = crate::r#gen::board(60, 60, 1.0, 8, &mut ChaCha8Rng::seed_from_u64(seed));
            let settings = Settings { rules: Rules::default(), gravity, budget: 2_000_000 };
            assert_eq!(greedy(&board, settings.rules, gravity).pieces_left, 0, "seed {seed}");
            let alone = clear::search(&board, settings).expect("fits");
            assert_eq!(alone.verdict, Verdict::Undecided(Limit::Budget), "seed {seed} gravity {gravity}");
            let outcome = best(&board, settings).expect("fits");
            assert_eq!((outcome.by, outcome.positions, outcome.work), (Decider::Play, 0, 0));
            let Best::Cleared(removals) = outcome.best else { panic!("seed {seed}: not cleared") };
            let mut now = board.clone();
            for removal in &removals {
                let query = Query { a: removal.a, b: removal.b };
                assert_eq!(removal.line.check(&now, settings.rules, query), Ok(()), "seed {seed}");
                remove_pair(&mut now, removal.a, removal.b, gravity);
            }
            assert!(now.cells().iter().all(|&kind| kind == crate::model::EMPTY));
            assert!(clears(&board, settings, &Progress::default()).expect("fits"));
        }
    }

    /// Where play does not clear the board, the search decides it, and clears those that can be.
    #[test]
    fn the_search_decides_where_play_is_stuck() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let settings = Settings { rules: Rules::default(), gravity: false, budget: 1_000_000 };
        let mut cleared_by_search = 0;
        for _ in 0..300 {
            let board = crate::r#gen::board(5, 5, 0.8, 3, &mut rng);
            if greedy(&board, settings.rules, false).pieces_left == 0 {
                continue;
            }
            let outcome = best(&board, settings).expect("fits");
            assert_eq!(outcome.by, Decider::Search);
            assert!(outcome.positions > 0 || outcome.best == Best::Hopeless, "{board:?}");
            cleared_by_search += usize::from(matches!(outcome.best, Best::Cleared(_)));
        }
        assert!(cleared_by_search > 0, "no board that play leaves stuck was cleared");
    }

    /// A board larger than the search takes is refused before play.
    #[test]
    fn boards_beyond_the_search_are_refused() {
        let side = clear::MAX_SIDE + 1;
        let board = Board::from_vec(side, 1, vec![0; side]);
        let settings = Settings { rules: Rules::default(), gravity: false, budget: 1 };
        assert_eq!(best(&board, settings), Err(TooLarge { rows: side, cols: 1 }));
    }

    /// A board that play leaves stuck, on which the search with gravity and [`BUDGET`] visits a
    /// thousand positions or so before its budget runs out: the first such board drawn.
    fn hard_board() -> Board {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        std::iter::repeat_with(|| crate::r#gen::board(40, 40, 0.6, 30, &mut rng))
            .find(|board| {
                greedy(board, Rules::default(), true).pieces_left > 0
                    && matches!(clear::search(board, settings(BUDGET)), Ok(outcome) if outcome.verdict == Verdict::Undecided(Limit::Budget))
            })
            .expect("an endless stream")
    }

    const BUDGET: u64 = 3_000_000;

    fn settings(budget: u64) -> Settings {
        Settings { rules: Rules::default(), gravity: true, budget }
    }

    /// A watched search tells its positions while it runs, not only when it ends, and by the
    /// time it returns it has told them all, with an estimate no smaller.
    #[test]
    fn the_search_reports_positions_as_it_runs() {
        let board = hard_board();
        let progress = Progress::watched();
        let done = AtomicBool::new(false);
        let (outcome, seen_running) = std::thread::scope(|scope| {
            let search = scope.spawn(|| {
                let outcome = best_reporting(&board, settings(BUDGET), &progress);
                done.store(true, Ordering::SeqCst);
                outcome
            });
            let mut seen_running = false;
            while !done.load(Ordering::SeqCst) {
                // Positions read before the search is seen to run on were told while it ran.
                let nodes = progress.nodes();
                seen_running |= nodes > 0 && !done.load(Ordering::SeqCst);
                std::thread::yield_now();
            }
            (search.join().expect("the search does not panic"), seen_running)
        });
        let outcome = outcome.expect("the board fits");
        assert_eq!(outcome.best, Best::Undecided(Limit::Budget));
        assert!(outcome.positions > 100, "{} positions", outcome.positions);
        assert!(seen_running, "no position was told before the search ended");
        assert_eq!(progress.nodes(), outcome.positions);
        assert!(progress.estimate() >= outcome.positions);
    }

    /// Watched or not, the search finds the same outcome.
    #[test]
    fn an_unwatched_search_finds_the_same() {
        let board = hard_board();
        let watched = Progress::watched();
        let seen = best_reporting(&board, settings(BUDGET / 4), &watched).expect("fits");
        assert_eq!(seen, best(&board, settings(BUDGET / 4)).expect("fits"));
    }
}
