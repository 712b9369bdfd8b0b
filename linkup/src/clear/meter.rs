//! The work meter both searches run on ([`Meter`]): the work spent against the budget, the
//! positions counted against the round's share of them, and what a watched search reports as it
//! goes (see the budget in the [module documentation](super)).

use common::search::Progress;

/// The budget of work when none is given (see the budget in the [module documentation](super)).
pub const DEFAULT_BUDGET: u64 = 100_000_000;

/// Most pairs the relaxation of one position may set up (each of a few dozen bytes), and most
/// joinable pairs the search with gravity keeps along its path; a position that needs more stops
/// the search, undecided, as the budget does. Kinds of more than four pieces bring a pair for
/// every two of their pieces.
pub const MAX_EDGES: usize = 1 << 20;

/// Units of work between two reports of a watched search: a few milliseconds of search, so
/// that the progress line moves smoothly and reporting costs nothing measurable.
const REPORT_EVERY: u64 = 1 << 16;

/// Which limit stopped a search before it knew (see the budget in the
/// [module documentation](super)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// The work went past the budget (`--budget` raises it).
    Budget,
    /// A position needed more than [`MAX_EDGES`] pairs: a bound of memory, not of work, which
    /// no budget raises.
    Pairs,
}

/// The search ran out of budget (of work, of the round's positions, or of memory: see
/// [`Meter::exhausted`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct OutOfBudget;

/// The work spent and the positions searched, against their budgets.
///
/// Invariants: `exhausted` is set exactly once the work went past `limit` or a step stopped the
/// search ([`Meter::stop`]), and stays set; `stopped_by` is then the first limit reached;
/// `reported <= positions`; while nobody watches, `report_at` is `u64::MAX`, so that
/// [`Meter::spend`] pays one comparison for the reports.
#[derive(Debug)]
pub(super) struct Meter {
    /// Positions searched.
    positions: u64,
    /// The count of positions at which the current round ends (see `rounds::in_rounds`).
    round_end: u64,
    /// The work spent so far.
    work: u64,
    /// The most work the search may spend.
    limit: u64,
    /// The units of work of one line check ([`super::bits::Bits::check_cost`]).
    check_cost: u64,
    /// The search may not go on.
    exhausted: bool,
    /// The limit that stopped it, once `exhausted` (the budget until a step stops the search,
    /// [`Meter::stop`]).
    stopped_by: Limit,
    /// Where the positions go as the search runs ([`Meter::report`]).
    progress: Progress,
    /// The work at which to report next.
    report_at: u64,
    /// Positions already reported.
    reported: u64,
}

impl Meter {
    /// Nothing spent yet, with `limit` units of work to spend, a line check costing
    /// `check_cost` of them, and no round ending.
    pub(super) fn new(limit: u64, check_cost: u64) -> Meter {
        Meter {
            positions: 0,
            round_end: u64::MAX,
            work: 0,
            limit,
            check_cost,
            exhausted: false,
            stopped_by: Limit::Budget,
            progress: Progress::default(),
            report_at: u64::MAX,
            reported: 0,
        }
    }

    /// Reports the positions to `progress` as the search runs, every [`REPORT_EVERY`] units of
    /// work.
    pub(super) fn watch(&mut self, progress: &Progress) {
        self.progress = progress.clone();
        self.report_at = REPORT_EVERY;
    }

    /// Positions searched so far.
    pub(super) fn positions(&self) -> u64 {
        self.positions
    }

    /// Work spent so far.
    pub(super) fn work(&self) -> u64 {
        self.work
    }

    /// The units of work of one line check.
    #[inline(always)]
    pub(super) fn check_cost(&self) -> u64 {
        self.check_cost
    }

    /// Set once the search may not go on: the work is past the budget, or a step would need
    /// more memory than the search allows (see [`MAX_EDGES`]). A search cut short proves
    /// nothing about the position it was in.
    #[inline(always)]
    pub(super) fn exhausted(&self) -> bool {
        self.exhausted
    }

    /// The limit that stopped the search, if one did.
    pub(super) fn stopped_by(&self) -> Option<Limit> {
        self.exhausted.then_some(self.stopped_by)
    }

    /// Stops the search: a step would need more memory than it allows ([`Limit::Pairs`]), unless
    /// a limit stopped it already (then that one is kept).
    #[cold]
    pub(super) fn stop(&mut self, limit: Limit) {
        if !self.exhausted {
            (self.exhausted, self.stopped_by) = (true, limit);
        }
    }

    /// The work left before the budget is spent (none once the search stopped).
    pub(super) fn allowance(&self) -> u64 {
        if self.exhausted() { 0 } else { self.limit.saturating_sub(self.work) }
    }

    /// Ends the current round once `end` positions are counted in all.
    pub(super) fn end_round_at(&mut self, end: u64) {
        self.round_end = end;
    }

    /// Ends the current round now: the next position counted is over its budget.
    pub(super) fn end_round_now(&mut self) {
        self.round_end = self.round_end.min(self.positions);
    }

    /// Checks the budgets for one more position: the round's positions and the work. A
    /// position of a board of `kinds` kinds costs one unit per kind (the passes over the kinds
    /// each position makes) and one more.
    pub(super) fn count_position(&mut self, kinds: usize) -> Result<(), OutOfBudget> {
        if self.positions >= self.round_end || !self.spend(kinds as u64 + 1) {
            return Err(OutOfBudget);
        }
        self.positions += 1;
        Ok(())
    }

    /// Adds `units` of work (line checks, pairs of the relaxation looked at or set up);
    /// false once the work is past the budget (then [`Meter::exhausted`] stays set).
    #[inline(always)]
    pub(super) fn spend(&mut self, units: u64) -> bool {
        self.work += units;
        if self.work >= self.report_at {
            self.report();
        }
        if self.work > self.limit {
            // `stopped_by` stays what it is: the budget, unless a step stopped the search first.
            self.exhausted = true;
        }
        !self.exhausted
    }

    /// Reports the positions searched since the last report to `progress`, with an estimate:
    /// the positions the whole budget of work allows at the work per position so far (the
    /// search may end sooner, never later). Then again [`REPORT_EVERY`] units of work on.
    #[cold]
    pub(super) fn report(&mut self) {
        self.progress.add_nodes(self.positions - self.reported);
        self.reported = self.positions;
        let allowed = u128::from(self.positions) * u128::from(self.limit) / u128::from(self.work.max(1));
        self.progress.set_estimate(u64::try_from(allowed).unwrap_or(u64::MAX).max(self.positions));
        self.report_at = self.work.saturating_add(REPORT_EVERY);
    }
}
