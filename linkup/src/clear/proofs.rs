//! The proofs the relaxation leaves, carried to branches and probes (see the
//! [module documentation](super)).

use super::{Branch, Search, StillSearch};

/// What [`StillSearch::can_all_go`] was not run for, as a known answer was taken instead.
#[derive(Debug, Clone, Copy)]
pub(super) enum Taken {
    /// A proof that it holds, inherited from the position (or the branch) above.
    Proof,
    /// A proof the parent's probe of the same branch found.
    ParentProof,
    /// A refutation the parent's probe of the same branch found.
    Refutation,
    /// A proof a probe of another branch found, here or at the parent.
    OtherProof,
}

#[cfg(test)]
thread_local! {
    /// Answers taken in this thread, by [`Taken`] (for the tests).
    pub(super) static TAKEN: std::cell::Cell<[u64; 4]> = const { std::cell::Cell::new([0; 4]) };
}

#[cfg(test)]
thread_local! {
    /// Probes run on from a base in this thread (each checked against a run from scratch in
    /// debug builds).
    pub(super) static FROM_BASE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts an answer of [`StillSearch::can_all_go`] taken rather than found (tests only).
pub(super) fn count_taken(taken: Taken) {
    #[cfg(test)]
    TAKEN.with(|counts| {
        let mut now = counts.get();
        now[taken as usize] += 1;
        counts.set(now);
    });
    #[cfg(not(test))]
    let _ = taken;
}

/// No proof of [`StillSearch::can_all_go`] was kept for a branch.
pub(super) const NO_PROOF: u32 = u32::MAX;

/// A branch seen from its kind: kind `kind` (four pieces left) may use only the pairings of
/// `pairings` below it (a removal: its pair's pairing).
#[derive(Debug, Clone, Copy)]
pub(super) struct Cut {
    pub(super) kind: usize,
    pub(super) pairings: u8,
}

impl Cut {
    /// True when a proof of [`StillSearch::can_all_go`] with the pairings `used` (per kind) stays a
    /// proof after the branch (see [`StillSearch::inherits`]).
    pub(super) fn keeps(self, used: &[u8]) -> bool {
        used[self.kind] & !self.pairings == 0
    }
}

/// What a position may take from its parent's probes: the entries of `probe_log` the parent
/// logged, and the branch that led here ([`StillSearch::probe`]).
#[derive(Debug, Clone, Default)]
pub(super) struct Inherit {
    pub(super) log: std::ops::Range<usize>,
    pub(super) refuted: std::ops::Range<usize>,
    pub(super) cut: Option<Cut>,
}

impl StillSearch {
    /// `None` when `branch` leaves a position [`StillSearch::can_all_go`] refutes; else where in
    /// `proofs` the proof found for that position lies ([`NO_PROOF`] when none was looked
    /// for: the branch inherits the proof now in `used`, see [`StillSearch::inherits`], or clears
    /// the board). The position is left as it was, and so is the proof in `used`. In debug
    /// builds a branch that inherits is looked at all the same, and must survive.
    pub(super) fn survives(&mut self, branch: Branch) -> Option<u32> {
        let inherited = self.inherits(branch);
        if inherited {
            count_taken(Taken::Proof);
        }
        if inherited && !cfg!(debug_assertions) {
            return Some(NO_PROOF);
        }
        let used_at = self.still.used_stack.len();
        self.still.used_stack.extend_from_slice(&self.still.used);
        if self.still.bases_at != self.position.positions {
            // The probes of a position all run before any position below it is entered.
            self.relax_base();
        }
        if self.position.exhausted {
            // The bases were cut short: the probe proves nothing, and the search stops.
            self.still.used.copy_from_slice(&self.still.used_stack[used_at..]);
            self.still.used_stack.truncate(used_at);
            return None;
        }
        let cut = self.cut(branch).expect("a probed branch is on a kind of four");
        let (order_mark, trail_mark) = (self.position.order.len(), self.position.trail.len());
        match branch {
            Branch::Remove(a, b) => self.remove(a, b),
            Branch::Constrain(k, mask) => {
                self.position.trail.push((k, self.position.allowed[k as usize]));
                self.position.allowed[k as usize] = mask;
            }
        }
        self.pairs.scratch = true;
        let cleared = self.position.total_left == 0;
        let alive = cleared || {
            #[cfg(test)]
            FROM_BASE.with(|count| count.set(count.get() + 1));
            if cfg!(debug_assertions) {
                // The run from the base must find what a run from scratch finds: the same
                // least fixpoint.
                let alive = self.can_all_go();
                let freed = self.still.freed.clone();
                let from_base = self.relax_from_base(branch, cut);
                // (Unless the work ran out in either: then both prove nothing.)
                assert!(
                    self.position.exhausted || alive == from_base,
                    "a probe from the base disagrees: {branch:?}"
                );
                // The pieces on the board freed (the base's run counts the pair removed).
                let on_board = |freed: &[u64]| {
                    freed
                        .iter()
                        .zip(&self.position.present)
                        .map(|(&freed, &present)| freed & present)
                        .collect::<Vec<_>>()
                };
                assert!(
                    self.position.exhausted || on_board(&freed) == on_board(&self.still.freed),
                    "a probe from the base freed others: {branch:?}"
                );
                from_base
            } else {
                self.relax_from_base(branch, cut)
            }
        };
        self.pairs.scratch = false;
        if !alive {
            self.still.last_stuck = self.still.stuck.len() as u32;
            for (&present, &freed) in self.position.present.iter().zip(&self.still.freed) {
                self.still.stuck.push(present & !freed);
            }
        }
        self.undo_to(order_mark, trail_mark);
        let proof = if !alive {
            None
        } else if inherited || cleared {
            Some(NO_PROOF)
        } else {
            self.still.proofs.extend_from_slice(&self.still.used);
            Some((self.still.proofs.len() - self.still.used.len()) as u32)
        };
        self.still.used.copy_from_slice(&self.still.used_stack[used_at..]);
        self.still.used_stack.truncate(used_at);
        debug_assert!(
            alive || !inherited || self.position.exhausted,
            "an inherited proof of freeing failed after {branch:?}"
        );
        proof
    }

    /// True when the proof that [`StillSearch::can_all_go`] holds now, as `used` describes it, also
    /// proves it holds after `branch` and any safe moves after it, so it need not be run there.
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
    /// of that pairing, or of pairings in `mask`. Safe moves ([`StillSearch::close`]) then remove
    /// whole kinds, or, of a kind limited to one pairing, a pair of that pairing, which keeps
    /// every pair of the sequence one the relaxation may use. Kinds of more than four pieces
    /// never inherit (removing one of their pairs changes the partners of the others).
    pub(super) fn inherits(&self, branch: Branch) -> bool {
        self.cut(branch).is_some_and(|cut| cut.keeps(&self.still.used))
    }

    /// What `branch` (at the current position) leaves of its kind's pairings, for
    /// [`Cut::keeps`]; `None` for a removal from a kind of more than four pieces.
    pub(super) fn cut(&self, branch: Branch) -> Option<Cut> {
        match branch {
            Branch::Remove(a, b) => {
                let k = self.position.kind[a as usize] as usize;
                if self.position.left[k] != 4 {
                    return None;
                }
                let mut live = [0u16; 4];
                self.live(k, &mut live);
                let index = |piece: u16| live.iter().position(|&p| p == piece).expect("a piece of the kind");
                let pairing = match index(a) + index(b) {
                    1 | 5 => 0,
                    2 | 4 => 1,
                    _ => 2,
                };
                Some(Cut { kind: k, pairings: 1 << pairing })
            }
            Branch::Constrain(k, mask) => Some(Cut { kind: k as usize, pairings: mask }),
        }
    }

    /// The probe of `branch` (see [`StillSearch::survives`]), taking a proof already known when one
    /// holds ([`StillSearch::known_proof`]). A proof found or taken is logged in `probe_log` for the
    /// positions below. In debug builds every proof taken is checked by a probe.
    pub(super) fn probe(&mut self, branch: Branch, from: &Inherit, own_log: usize) -> Option<u32> {
        if let Some(stuck) = self.still_refuted(branch, from) {
            count_taken(Taken::Refutation);
            if cfg!(debug_assertions) {
                assert!(
                    !self.survives_unlogged(branch),
                    "a refutation taken from the parent failed: {branch:?}"
                );
            }
            self.still.refuted_log.push((branch, stuck));
            return None;
        }
        let kinds = self.still.used.len();
        let reused = self.known_proof(branch, from, own_log);
        let proof = match reused {
            Some((at, taken)) => {
                count_taken(taken);
                if cfg!(debug_assertions) {
                    assert!(self.survives_unlogged(branch), "a proof taken failed: {branch:?}");
                }
                Some(at)
            }
            None => match self.survives(branch) {
                Some(NO_PROOF) if self.position.total_left > 2 && self.inherits(branch) => {
                    // The position's own proof: keep a copy for the positions below.
                    self.still.proofs.extend_from_slice(&self.still.used);
                    Some((self.still.proofs.len() - kinds) as u32)
                }
                None => {
                    self.still.refuted_log.push((branch, self.still.last_stuck));
                    None
                }
                proof => proof,
            },
        };
        if let Some(at) = proof.filter(|&at| at != NO_PROOF) {
            self.still.probe_log.push((branch, at));
        }
        proof
    }

    /// Whether `branch` survives its probe ([`StillSearch::survives`]), with what the probe logs (the
    /// proof it found, the pieces it could not free) dropped again: the debug builds' check of
    /// an answer taken, which must leave the search as the release build has it. (The probe may
    /// also find the position's bases, [`StillSearch::relax_base`]; they depend on the position alone,
    /// so a probe after it finds the same.)
    fn survives_unlogged(&mut self, branch: Branch) -> bool {
        let (proofs, stuck, last_stuck) =
            (self.still.proofs.len(), self.still.stuck.len(), self.still.last_stuck);
        let survived = self.survives(branch).is_some();
        self.still.proofs.truncate(proofs);
        self.still.stuck.truncate(stuck);
        self.still.last_stuck = last_stuck;
        survived
    }

    /// Where in `proofs` a proof lies that [`StillSearch::can_all_go`] holds after `branch`, when one
    /// logged by the probes of this position (from `own_log` in `probe_log`) or of the parent
    /// position does, and what sort of answer it is; the parent's probe of the same branch is
    /// taken first.
    ///
    /// Why a proof logged for another branch may do: a probe's proof is a sequence of pairs
    /// that frees every piece after its branch, and it is also a proof for the position the
    /// probe was made at. A constraint only takes pairings away, so its sequence is one the
    /// position allows; after `Remove(a, b)`, the sequence frees the kind's other two pieces
    /// by their own pair, and at the position, `a` and `b`, joinable there, can be freed first
    /// (their pairing is allowed), which opens the cells the sequence ran on. Its pairings
    /// (`proofs`) say so: the kind branched on used only the branch's pairing. So any proof
    /// of this position whose pairings `branch` keeps ([`Cut::keeps`]) proves the branch, by
    /// the argument of [`StillSearch::inherits`]; a proof of the parent's, when the move that led
    /// here keeps it too (`from.cut`), is a proof of this position by the same argument.
    pub(super) fn known_proof(&self, branch: Branch, from: &Inherit, own_log: usize) -> Option<(u32, Taken)> {
        let kinds = self.still.used.len();
        let cut = self.cut(branch)?;
        let pairings = |at: u32| &self.still.proofs[at as usize..at as usize + kinds];
        if let Some(moved) = from.cut {
            let parent = &self.still.probe_log[from.log.clone()];
            let usable = |&&(_, at): &&(Branch, u32)| moved.keeps(pairings(at)) && cut.keeps(pairings(at));
            if let Some(&(_, at)) = parent.iter().filter(|&&(logged, _)| logged == branch).find(usable) {
                return Some((at, Taken::ParentProof));
            }
            if let Some(&(_, at)) = parent.iter().find(usable) {
                return Some((at, Taken::OtherProof));
            }
        }
        self.still.probe_log[own_log..]
            .iter()
            .find(|&&(_, at)| cut.keeps(pairings(at)))
            .map(|&(_, at)| (at, Taken::OtherProof))
    }

    /// Where in `stuck` the pieces lie that a probe of the parent position could not free
    /// after `branch` (or after a constraint of the same kind allowing at least the pairings
    /// `branch` allows), when all of them are still on the board: then the probe of `branch`
    /// here fails too, and is not run.
    ///
    /// Why: let F be the pieces that relaxation freed and U the others (all on the board
    /// here). The pieces removed since, and by the safe moves, are then in F, so the board
    /// here after `branch` has at least the cells of the parent's relaxed board at its end
    /// closed (it opens only pieces of F), and the pairs the relaxation may use here are
    /// among those it could use there (the branch that led here only took pairings away, or
    /// left a kind of four with the pair of the pairing it removed; safe moves remove whole
    /// kinds, or a pair of a kind's one allowed pairing). By induction on the relaxation
    /// here, each pair it fires is joinable on the parent's final relaxed board and allowed
    /// there, so both its pieces were in F: it never frees a piece of U.
    pub(super) fn still_refuted(&self, branch: Branch, from: &Inherit) -> Option<u32> {
        let words = self.position.present.len();
        self.still.refuted_log[from.refuted.clone()]
            .iter()
            .filter(|&&(logged, _)| match (logged, branch) {
                (Branch::Constrain(k, mask), Branch::Constrain(j, narrower)) => {
                    k == j && narrower & !mask == 0
                }
                _ => logged == branch,
            })
            .map(|&(_, at)| at)
            .find(|&at| {
                let stuck = &self.still.stuck[at as usize..at as usize + words];
                stuck.iter().zip(&self.position.present).all(|(&stuck, &present)| stuck & !present == 0)
            })
    }
}
