//! The rounds of growing budgets both searches run in ([`in_rounds`]), and the rounds of
//! the search without gravity with probing ([`StillSearch::probe_rounds`]).

use super::{Inherit, OutOfBudget, Search, StillSearch, mix};
use common::search::luby;

impl StillSearch {
    /// The search with probing from the first position, in rounds: round r may search up to `unit`
    /// (by default the number of pieces on the board) times the r-th term of the Luby sequence more
    /// positions, and then starts again from the first position (all rounds spend the
    /// work of one budget). The first round looks at kinds in reading order; each later one in the order the
    /// rounds before left (`kind_order`, see [`StillSearch::still_branches`]), trying a kind's removals
    /// in an order drawn from the board and the round (`branch_turn`), so every run on a board
    /// searches the same positions. The order of kinds is kept rather than drawn: it holds what the
    /// probes learned about which kinds get stuck.
    ///
    /// Why it stays exact: a round only ever ends by running out of its budget, and then
    /// nothing is concluded from it; what it leaves behind is the table of positions proved
    /// hopeless (each by a subtree searched to the end, which holds whatever order found it:
    /// whether a position can be cleared depends on the position alone). Each round is the same
    /// complete search ([`StillSearch::search_still`]) in another order of branches, so a round that ends
    /// within its budget gives the answer, and the last round has all that is left of the budget.
    /// The proofs and refutations logged by probes belong to one search path, so they are
    /// dropped between rounds. Why rounds: on boards that can be cleared, how long a search
    /// takes varies a lot with the order of branches (a few bad early choices lead into large
    /// hopeless subtrees); short rounds in varied orders find the short searches.
    pub(super) fn probe_rounds(&mut self, unit: Option<u64>) -> Result<bool, OutOfBudget> {
        self.still.probe = true;
        let unit = unit.unwrap_or(self.position.cell.len() as u64).max(1);
        in_rounds(self, unit, |search, seed| {
            search.undo_to(0, 0);
            search.position.branches.clear();
            search.still.used_stack.clear();
            search.still.proofs.clear();
            search.still.probe_log.clear();
            search.still.refuted_log.clear();
            search.still.stuck.clear();
            search.still.branch_turn = seed.map_or(0, |seed| seed >> 32);
            if seed.is_none() {
                for (index, slot) in search.still.kind_order.iter_mut().enumerate() {
                    *slot = index as u32;
                }
            }
            search.search_still(false, &Inherit::default())
        })
    }
}

/// Runs `round` in rounds until one ends within its budget, or the work is past the budget of the
/// search ([`super::Position::exhausted`]): round r may search `unit` times the r-th term of the
/// Luby sequence more positions ([`super::Position::budget`] is set to that). `round` gets the
/// round's seed: none in the first, then a number drawn from the board's kinds and the round, so
/// that every run on a board searches the same positions. A round that runs out of its budget
/// concludes nothing: the next starts from the first position.
pub(super) fn in_rounds<S: Search>(
    search: &mut S,
    unit: u64,
    mut round: impl FnMut(&mut S, Option<u64>) -> Result<bool, OutOfBudget>,
) -> Result<bool, OutOfBudget> {
    let board_seed = search.position().kind.iter().fold(0u64, |hash, &k| mix(hash ^ u64::from(k)));
    for number in 1u64.. {
        let seed = (number > 1).then(|| mix(board_seed ^ number));
        let position = search.position();
        position.budget = position.positions.saturating_add(luby(number).saturating_mul(unit));
        match round(search, seed) {
            Err(OutOfBudget) if !search.position().exhausted => {}
            found => return found,
        }
    }
    unreachable!("the rounds end at the budget")
}
