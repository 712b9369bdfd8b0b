//! The search without gravity as a struct of parts ([`StillSearch`]), its removals, and the depth
//! first search of one position ([`StillSearch::search_still`]) and of a round.

use super::memo::Memo;
use super::pairs::PairCache;
use super::probing::Probing;
use super::proofs::{Inherit, NO_PROOF, ProofLog, Taken, count_taken};
use super::relax::Relaxation;
use crate::clear::meter::{Meter, OutOfBudget};
use crate::clear::position::{Branch, Position};
use crate::clear::rounds::in_rounds;
use crate::clear::search::Search;
use crate::model::{Board, Rules};

/// The search without gravity: its parts, each owning its data. A function of the search takes
/// the whole of it only where it plays branches; the parts' own work is theirs.
pub(in crate::clear) struct StillSearch {
    /// The pieces left, the board, the removals and constraints made.
    pub(super) position: Position,
    /// The work spent and the positions searched.
    pub(super) meter: Meter,
    /// The positions known hopeless.
    pub(super) memo: Memo,
    /// The branches of every position on the search path, one slice per position.
    pub(super) branches: Vec<Branch>,
    /// Each kind's first pieces and joinable pairs, per board.
    pub(super) pairs: PairCache,
    /// The proofs and refutations logged along the search path.
    pub(super) proofs: ProofLog,
    /// The relaxation's scratch and its last proof.
    pub(super) relax: Relaxation,
    /// Whether the search probes, and the order it looks at kinds in.
    pub(super) probing: Probing,
}

impl StillSearch {
    /// The search of `board` under `rules`, every piece on it, with `budget` units of work and a
    /// table of hopeless positions of at most `memo_words` words.
    pub(in crate::clear) fn new(board: &Board, rules: Rules, budget: u64, memo_words: usize) -> StillSearch {
        let position = Position::new(board, rules);
        let meter = Meter::new(budget, position.bits().check_cost(rules.max_turns));
        let kinds = position.kinds();
        StillSearch {
            meter,
            memo: Memo::new(memo_words),
            branches: Vec::new(),
            pairs: PairCache::new(&position),
            proofs: ProofLog::default(),
            relax: Relaxation::new(kinds, position.pieces().div_ceil(64)),
            probing: Probing::new(kinds),
            position,
        }
    }

    /// The first four pieces of kind `k` on the board (two or four left) and its joinable pairs
    /// (see [`PairCache::mask`]).
    #[inline(always)]
    pub(super) fn live_pairs(&mut self, k: usize) -> ([u16; 4], u8) {
        let live = self.pairs.live(&self.position, k);
        (live, self.pairs.mask(&self.position, &mut self.meter, k, live))
    }

    /// The search: without probing for `probe_after` positions (0: probing from the start), then
    /// with probing in rounds of `round_unit` (by default the number of pieces on the board)
    /// times the terms of the Luby sequence (see [`StillSearch::probe_rounds`]). True when the
    /// board can be cleared (the order is then the position's).
    pub(in crate::clear) fn run(
        &mut self,
        probe_after: u64,
        round_unit: Option<u64>,
    ) -> Result<bool, OutOfBudget> {
        // Most boards fall to the search without probing in a few dozen positions; one that takes
        // more is searched again with probing, in rounds (the positions found hopeless stay known).
        if probe_after == 0 {
            return self.probe_rounds(round_unit);
        }
        self.probing.set(false);
        self.meter.end_round_at(probe_after);
        match self.search_still(false, &Inherit::default()) {
            Err(OutOfBudget) if !self.meter.exhausted() => self.probe_rounds(round_unit),
            found => found,
        }
    }

    /// The search with probing from the first position, in rounds: round r may search up to
    /// `unit` (by default the number of pieces on the board) times the r-th term of the Luby
    /// sequence more positions, and then starts again from the first position (all rounds spend
    /// the work of one budget). The first round looks at kinds in reading order; each later one
    /// in the order the rounds before left (see [`Probing`]), trying a kind's removals in an
    /// order drawn from the board and the round, so every run on a board searches the same
    /// positions. The order of kinds is kept rather than drawn: it holds what the probes learned
    /// about which kinds get stuck.
    ///
    /// Why it stays exact: a round only ever ends by running out of its budget, and then
    /// nothing is concluded from it; what it leaves behind is the table of positions proved
    /// hopeless (each by a subtree searched to the end, which holds whatever order found it:
    /// whether a position can be cleared depends on the position alone). Each round is the same
    /// complete search ([`StillSearch::search_still`]) in another order of branches, so a round
    /// that ends within its budget gives the answer, and the last round has all that is left of
    /// the budget. The proofs and refutations logged by probes belong to one search path, so
    /// they are dropped between rounds. Why rounds: on boards that can be cleared, how long a
    /// search takes varies a lot with the order of branches (a few bad early choices lead into
    /// large hopeless subtrees); short rounds in varied orders find the short searches.
    fn probe_rounds(&mut self, unit: Option<u64>) -> Result<bool, OutOfBudget> {
        self.probing.set(true);
        let unit = unit.unwrap_or(self.position.pieces() as u64).max(1);
        in_rounds(self, unit, |search, seed| {
            search.undo_to(0, 0);
            search.branches.clear();
            search.proofs.clear();
            search.probing.start_round(seed);
            search.search_still(false, &Inherit::default())
        })
    }

    /// The search of the current position: true when it can be cleared (the order is then the
    /// position's); on false the position is as it was. `proved`: the relaxation's proof shows
    /// that it holds here (see [`StillSearch::inherits`]), so it is not run (in debug builds it
    /// is, and must agree). `from`: what the position may take from its parent's probes.
    pub(super) fn search_still(&mut self, proved: bool, from: &Inherit) -> Result<bool, OutOfBudget> {
        let (order_mark, trail_mark) = (self.position.order().len(), self.position.trail_len());
        self.close();
        if self.position.total_left() == 0 {
            return Ok(true);
        }
        if self.memo.contains(&self.position) {
            self.undo_to(order_mark, trail_mark);
            return Ok(false);
        }
        self.meter.count_position(self.position.kinds())?;
        let key_at = self.branches.len();
        let alive = self.relaxation_holds(proved);
        // This position's proof, for the branches that do not inherit it to restore.
        let marks = self.proofs.marks();
        let mut probed = [NO_PROOF; 4];
        let mut saved = 0;
        if alive {
            probed = self.still_branches(from, self.proofs.probe_log_len());
            if self.branches.len() > key_at {
                saved = self.proofs.save(self.relax.proof());
            }
        }
        let mut index = key_at;
        while index < self.branches.len() {
            let branch = self.branches[index];
            let probed = probed.get(index - key_at).copied().unwrap_or(NO_PROOF);
            index += 1;
            let inherited = self.inherits(branch);
            if !inherited && probed != NO_PROOF {
                let proof = self.proofs.proof_at(probed, self.position.kinds());
                self.relax.proof_mut().copy_from_slice(proof);
            }
            let below = self.proofs.below(marks, self.cut(branch));
            if self.try_branch(branch, inherited || probed != NO_PROOF, &below)? {
                self.branches.truncate(key_at);
                self.proofs.truncate(marks);
                return Ok(true);
            }
            if !inherited {
                self.proofs.restore(saved, self.relax.proof_mut());
            }
        }
        self.branches.truncate(key_at);
        self.proofs.truncate(marks);
        if self.meter.exhausted() {
            // A relaxation, probe or list of branches cut short proves nothing.
            return Err(OutOfBudget);
        }
        self.remember_hopeless(trail_mark);
        self.undo_to(order_mark, trail_mark);
        Ok(false)
    }

    /// Whether the relaxation holds at the position: taken as true when `proved` (a proof
    /// carried here holds, see [`StillSearch::inherits`]), else run. Debug builds run it anyway
    /// and check it agrees; the relaxation's proof is then the one carried here.
    fn relaxation_holds(&mut self, proved: bool) -> bool {
        if proved {
            count_taken(Taken::Proof);
            if !cfg!(debug_assertions) {
                return true;
            }
        }
        let saved = self.proofs.save(self.relax.proof());
        let alive =
            self.relax.can_all_go(&self.position, &mut self.pairs, &mut self.meter, self.probing.on());
        if proved {
            assert!(alive || self.meter.exhausted(), "an inherited proof of freeing failed");
            self.proofs.restore(saved, self.relax.proof_mut());
        }
        self.proofs.drop_saved(saved);
        alive
    }

    /// Plays `branch` and searches on below it (`proved`: the relaxation's proof holds there);
    /// true when the board is cleared, else the branch is undone.
    fn try_branch(&mut self, branch: Branch, proved: bool, below: &Inherit) -> Result<bool, OutOfBudget> {
        match branch {
            Branch::Remove(a, b) => {
                self.remove(a, b);
                let cleared = self.search_still(proved, below)?;
                if !cleared {
                    self.undo();
                }
                Ok(cleared)
            }
            Branch::Constrain(k, mask) => {
                let trail_mark = self.position.trail_len();
                self.position.constrain(k, mask);
                let cleared = self.search_still(proved, below)?;
                if !cleared {
                    self.position.unconstrain_to(trail_mark);
                }
                Ok(cleared)
            }
        }
    }

    /// Enters the position as it was entered (the constraints since `trail_mark` undone) in
    /// the table of hopeless positions; without probing, counts it (see [`Probing`]).
    fn remember_hopeless(&mut self, trail_mark: usize) {
        // The key is made again for the position as it was entered (without the pairings the
        // probes narrowed).
        self.undo_to(self.position.order().len(), trail_mark);
        self.memo.insert(&self.position);
        if self.probing.count_hopeless() {
            // Start again with probing: the next position is over the budget.
            self.meter.end_round_now();
        }
    }
}

impl Search for StillSearch {
    #[inline(always)]
    fn parts(&mut self) -> (&mut Position, &mut Meter) {
        (&mut self.position, &mut self.meter)
    }

    /// Removes the pieces and empties their cells; the cached pairs move to a new board.
    #[inline(always)]
    fn remove(&mut self, a: u16, b: u16) {
        let step = self.position.take(a, b);
        self.pairs.enter_board(&self.position, self.position.kind(a));
        for at in step.cells() {
            self.position.bits_mut().set(at, true);
        }
    }

    /// Puts the pieces back on their cells and the cached pairs as they were before.
    #[inline(always)]
    fn undo(&mut self) {
        let step = self.position.put_back();
        self.pairs.leave_board(&self.position, self.position.kind(step.pieces()[0]));
        for at in step.cells() {
            self.position.bits_mut().set(at, false);
        }
    }
}
