//! Probes: a branch tried with the relaxation before it is played, answered from the proofs and
//! refutations logged where they hold (see the [module documentation](super)).

use super::proofs::{Cut, Inherit, NO_PROOF, Taken, count_taken};
use super::search::StillSearch;
use crate::clear::pairings::pairing_of;
use crate::clear::position::Branch;
use crate::clear::search::Search;

impl StillSearch {
    /// True when the relaxation's proof at the position, as it describes it, also proves the
    /// relaxation holds after `branch` and any safe moves after it, so it need not be run there.
    ///
    /// Why: the proof is a sequence of pairs, each joinable on the relaxed board once the
    /// pieces freed by the pairs before it are taken away. After removals the board only has
    /// more open cells, so each pair of the sequence whose pieces are both still there is still
    /// joinable at its turn, and a pair whose pieces are both gone only opened cells that are
    /// open anyway: the same sequence frees every piece left, provided each of its pairs is
    /// still one the relaxation may use. Only the kind branched on changes which pairs those
    /// are: after `Remove(a, b)` of a kind of four, the two pieces left may pair only with each
    /// other (the pairing of `a` and `b`); after `Constrain(k, mask)`, kind k only within
    /// `mask`. So the branch inherits the proof when the kind's pieces were all freed by pairs
    /// of that pairing, or of pairings in `mask`. Safe moves ([`StillSearch::close`]) then
    /// remove whole kinds, or, of a kind limited to one pairing, a pair of that pairing, which
    /// keeps every pair of the sequence one the relaxation may use. Kinds of more than four
    /// pieces never inherit (removing one of their pairs changes the partners of the others).
    pub(super) fn inherits(&self, branch: Branch) -> bool {
        self.cut(branch).is_some_and(|cut| cut.keeps(self.relax.proof()))
    }

    /// What `branch` (at the current position) leaves of its kind's pairings, for
    /// [`Cut::keeps`]; `None` for a removal from a kind of more than four pieces.
    pub(super) fn cut(&self, branch: Branch) -> Option<Cut> {
        match branch {
            Branch::Remove(a, b) => {
                let k = self.position.kind(a);
                if self.position.left(k) != 4 {
                    return None;
                }
                let live = self.pairs.live(&self.position, k);
                let index = |piece: u16| live.iter().position(|&p| p == piece).expect("a piece of the kind");
                Some(Cut::new(k, 1 << pairing_of(index(a), index(b))))
            }
            Branch::Constrain(k, mask) => Some(Cut::new(k as usize, mask)),
        }
    }

    /// The probe of `branch` (see [`StillSearch::survives`]), taking a proof already known when
    /// one holds ([`super::proofs::ProofLog::known_proof`]) or a refutation of the parent's. A
    /// proof found or taken is logged for the positions below. In debug builds every answer
    /// taken is checked by a probe.
    pub(super) fn probe(&mut self, branch: Branch, from: &Inherit, own_log: usize) -> Option<u32> {
        if let Some(stuck) = self.proofs.still_refuted(branch, from, self.position.present()) {
            count_taken(Taken::Refutation);
            if cfg!(debug_assertions) {
                assert!(
                    !self.survives_unlogged(branch),
                    "a refutation taken from the parent failed: {branch:?}"
                );
            }
            self.proofs.log_refuted(branch, stuck);
            return None;
        }
        let kinds = self.position.kinds();
        let reused =
            self.cut(branch).and_then(|cut| self.proofs.known_proof(branch, cut, kinds, from, own_log));
        let proof = match reused {
            Some((at, taken)) => {
                count_taken(taken);
                if cfg!(debug_assertions) {
                    assert!(self.survives_unlogged(branch), "a proof taken failed: {branch:?}");
                }
                Some(at)
            }
            None => match self.survives(branch) {
                Some(NO_PROOF) if self.position.total_left() > 2 && self.inherits(branch) => {
                    // The position's own proof: keep a copy for the positions below.
                    Some(self.proofs.push_proof(self.relax.proof()))
                }
                None => {
                    self.proofs.log_refuted(branch, self.proofs.last_stuck());
                    None
                }
                proof => proof,
            },
        };
        if let Some(at) = proof.filter(|&at| at != NO_PROOF) {
            self.proofs.log_proof(branch, at);
        }
        proof
    }

    /// Whether `branch` survives its probe ([`StillSearch::survives`]), with what the probe logs
    /// (the proof it found, the pieces it could not free) dropped again: the debug builds' check
    /// of an answer taken, which must leave the search as the release build has it. (The probe
    /// may also find the position's bases; they depend on the position alone, so a probe after
    /// it finds the same.)
    fn survives_unlogged(&mut self, branch: Branch) -> bool {
        let mark = self.proofs.probe_mark();
        let survived = self.survives(branch).is_some();
        self.proofs.forget(mark);
        survived
    }

    /// `None` when `branch` leaves a position the relaxation refutes (the pieces it could not
    /// free are then recorded); else where in the proofs logged the proof found for that
    /// position lies ([`NO_PROOF`] when none was looked for: the branch inherits the position's
    /// proof, see [`StillSearch::inherits`], or clears the board). The position is left as it
    /// was, and so is the relaxation's proof. The probe runs on from the base of the branch's
    /// kind (found at the first probe of a position). In debug builds a branch that inherits is
    /// looked at all the same, and must survive, and the run from the base is checked against a
    /// run from scratch.
    fn survives(&mut self, branch: Branch) -> Option<u32> {
        let inherited = self.inherits(branch);
        if inherited {
            count_taken(Taken::Proof);
        }
        if inherited && !cfg!(debug_assertions) {
            return Some(NO_PROOF);
        }
        let saved = self.proofs.save(self.relax.proof());
        if self.relax.bases_stale(self.meter.positions()) {
            // The probes of a position all run before any position below it is entered.
            self.relax.base(&self.position, &mut self.pairs, &mut self.meter, self.probing.kind_order());
        }
        if self.meter.exhausted() {
            // The bases were cut short: the probe proves nothing, and the search stops.
            self.proofs.restore(saved, self.relax.proof_mut());
            self.proofs.drop_saved(saved);
            return None;
        }
        let cut = self.cut(branch).expect("a probed branch is on a kind of four");
        let (order_mark, trail_mark) = (self.position.order().len(), self.position.trail_len());
        match branch {
            Branch::Remove(a, b) => self.remove(a, b),
            Branch::Constrain(k, mask) => self.position.constrain(k, mask),
        }
        self.pairs.set_scratch(true);
        let cleared = self.position.total_left() == 0;
        let alive = cleared || self.relax_after(branch, cut);
        self.pairs.set_scratch(false);
        if !alive {
            self.proofs.record_stuck(self.position.present(), self.relax.freed());
        }
        self.undo_to(order_mark, trail_mark);
        let proof = if !alive {
            None
        } else if inherited || cleared {
            Some(NO_PROOF)
        } else {
            Some(self.proofs.push_proof(self.relax.proof()))
        };
        self.proofs.restore(saved, self.relax.proof_mut());
        self.proofs.drop_saved(saved);
        debug_assert!(
            alive || !inherited || self.meter.exhausted(),
            "an inherited proof of freeing failed after {branch:?}"
        );
        proof
    }

    /// The relaxation after `branch` (just made; `cut`: what it leaves its kind), run on from the
    /// base of its kind. Debug builds run it from scratch too, and check both free the same.
    fn relax_after(&mut self, branch: Branch, cut: Cut) -> bool {
        let Self { position, pairs, meter, relax, probing, .. } = self;
        if !cfg!(debug_assertions) {
            return relax.run_from_base(position, pairs, meter, branch, cut);
        }
        // The run from the base must find what a run from scratch finds: the same least
        // fixpoint.
        let alive = relax.can_all_go(position, pairs, meter, probing.on());
        let freed = relax.freed().to_vec();
        let from_base = relax.run_from_base(position, pairs, meter, branch, cut);
        // (Unless the work ran out in either: then both prove nothing.)
        assert!(meter.exhausted() || alive == from_base, "a probe from the base disagrees: {branch:?}");
        // The pieces on the board freed (the base's run counts the pair removed).
        let on_board = |freed: &[u64]| {
            freed.iter().zip(position.present()).map(|(&freed, &present)| freed & present).collect::<Vec<_>>()
        };
        assert!(
            meter.exhausted() || on_board(&freed) == on_board(relax.freed()),
            "a probe from the base freed others: {branch:?}"
        );
        from_base
    }
}
