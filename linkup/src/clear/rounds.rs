//! The rounds of growing budgets both searches run in ([`in_rounds`]): restarts from the first
//! position, the positions found hopeless kept.

use common::search::luby;

use super::hash::mix;
use super::meter::OutOfBudget;
use super::search::Search;

/// Runs `round` in rounds until one ends within its budget, or the work is past the budget of the
/// search ([`Meter::exhausted`](super::meter::Meter::exhausted)): round r may search `unit` times the r-th term of the Luby
/// sequence more positions ([`Meter::end_round_at`](super::meter::Meter::end_round_at)). `round` gets the
/// round's seed: none in the first, then a number drawn from the board's kinds and the round, so
/// that every run on a board searches the same positions. A round that runs out of its budget
/// concludes nothing: the next starts from the first position.
pub(super) fn in_rounds<S: Search>(
    search: &mut S,
    unit: u64,
    mut round: impl FnMut(&mut S, Option<u64>) -> Result<bool, OutOfBudget>,
) -> Result<bool, OutOfBudget> {
    let board_seed = search.parts().0.piece_kinds().iter().fold(0u64, |hash, &k| mix(hash ^ u64::from(k)));
    for number in 1u64.. {
        let seed = (number > 1).then(|| mix(board_seed ^ number));
        let (_, meter) = search.parts();
        meter.end_round_at(meter.positions().saturating_add(luby(number).saturating_mul(unit)));
        match round(search, seed) {
            Err(OutOfBudget) if !search.parts().1.exhausted() => {}
            found => return found,
        }
    }
    unreachable!("the rounds end at the budget")
}
