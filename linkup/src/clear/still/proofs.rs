//! The proof log ([`ProofLog`]): the proofs and refutations the relaxation leaves along the search
//! path, carried to branches and probes (see the [module documentation](super)).
//!
//! A proof is what a run of the relaxation that holds used: per kind, the pairings (bit p) of the
//! pairs that freed its pieces ([`Cut::keeps`] says which branches keep it). A refutation is the
//! pieces a run that failed could not free.

use crate::clear::position::Branch;

/// What the relaxation was not run for, as a known answer was taken instead.
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

/// Counts an answer of the relaxation taken rather than found (tests only).
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

/// Counts a probe run on from a base (tests only).
pub(super) fn count_from_base() {
    #[cfg(test)]
    FROM_BASE.with(|count| count.set(count.get() + 1));
}

/// No proof of the relaxation was kept for a branch.
pub(super) const NO_PROOF: u32 = u32::MAX;

/// A branch seen from its kind: kind `kind` (four pieces left) may use only the pairings of
/// `pairings` below it (a removal: its pair's pairing).
#[derive(Debug, Clone, Copy)]
pub(super) struct Cut {
    kind: usize,
    pairings: u8,
}

impl Cut {
    /// Kind `kind` may use only the pairings of `pairings`.
    pub(super) fn new(kind: usize, pairings: u8) -> Cut {
        Cut { kind, pairings }
    }

    /// The kind branched on.
    pub(super) fn kind(self) -> usize {
        self.kind
    }

    /// The pairings the branch leaves its kind.
    pub(super) fn pairings(self) -> u8 {
        self.pairings
    }

    /// True when a proof of the relaxation with the pairings `used` (per kind) stays a proof
    /// after the branch (see `StillSearch::inherits`).
    pub(super) fn keeps(self, used: &[u8]) -> bool {
        used[self.kind] & !self.pairings == 0
    }
}

/// What a position may take from its parent's probes: the entries of the log the parent's
/// probes made, and the branch that led here (see `StillSearch::probe`).
#[derive(Debug, Clone, Default)]
pub(super) struct Inherit {
    log: std::ops::Range<usize>,
    refuted: std::ops::Range<usize>,
    cut: Option<Cut>,
}

/// Where the logs of a position's proofs and refutations ended when it was entered.
#[derive(Debug, Clone, Copy)]
pub(super) struct LogMarks {
    saved: usize,
    proofs: usize,
    log: usize,
    refuted: usize,
    stuck: usize,
}

/// Where the log of a probe's finds ended before it, to drop them again ([`ProofLog::forget`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct ProbeMark {
    proofs: usize,
    stuck: usize,
    last_stuck: u32,
}

/// The proofs and refutations of the positions on the search path. Invariant: each position's
/// entries come after its parent's, and are dropped when the search leaves it
/// ([`ProofLog::truncate`]), so a range of the log taken at a position ([`Inherit`]) names what
/// its parent's probes found as long as the search is below it.
#[derive(Debug, Default)]
pub(super) struct ProofLog {
    /// Saved proofs (the relaxation's, one per position on the search path that holds one).
    saved: Vec<u8>,
    /// The proofs the probes of the positions on the search path found, a proof a run of
    /// `kinds` bytes, for the branches taken to inherit.
    proofs: Vec<u8>,
    /// The probes of the positions on the search path that found a proof: the branch and
    /// where its proof lies in `proofs`.
    probe_log: Vec<(Branch, u32)>,
    /// The probes of the positions on the search path that failed: the branch and where the
    /// pieces its relaxation could not free lie in `stuck`.
    refuted_log: Vec<(Branch, u32)>,
    /// The pieces failed probes could not free, a bit per piece, a run of words per probe.
    stuck: Vec<u64>,
    /// Where the last failed probe left its pieces in `stuck`.
    last_stuck: u32,
}

impl ProofLog {
    /// Where the logs end now (see [`ProofLog::truncate`]).
    pub(super) fn marks(&self) -> LogMarks {
        LogMarks {
            saved: self.saved.len(),
            proofs: self.proofs.len(),
            log: self.probe_log.len(),
            refuted: self.refuted_log.len(),
            stuck: self.stuck.len(),
        }
    }

    /// Drops what was logged since `marks`.
    pub(super) fn truncate(&mut self, marks: LogMarks) {
        self.saved.truncate(marks.saved);
        self.proofs.truncate(marks.proofs);
        self.probe_log.truncate(marks.log);
        self.refuted_log.truncate(marks.refuted);
        self.stuck.truncate(marks.stuck);
    }

    /// Drops everything (a new round starts from the first position).
    pub(super) fn clear(&mut self) {
        self.saved.clear();
        self.proofs.clear();
        self.probe_log.clear();
        self.refuted_log.clear();
        self.stuck.clear();
    }

    /// What a position below the one whose logs began at `marks` may take, the branch to it
    /// leaving its kind `cut`: the probes logged since `marks`.
    pub(super) fn below(&self, marks: LogMarks, cut: Option<Cut>) -> Inherit {
        Inherit { log: marks.log..self.probe_log.len(), refuted: marks.refuted..self.refuted_log.len(), cut }
    }

    /// Where the log of probes that found a proof ends now.
    pub(super) fn probe_log_len(&self) -> usize {
        self.probe_log.len()
    }

    /// Saves a copy of `proof`; returns where it lies, for [`ProofLog::restore`].
    pub(super) fn save(&mut self, proof: &[u8]) -> usize {
        let at = self.saved.len();
        self.saved.extend_from_slice(proof);
        at
    }

    /// Copies the proof saved at `at` (the last saved) into `proof`.
    pub(super) fn restore(&self, at: usize, proof: &mut [u8]) {
        proof.copy_from_slice(&self.saved[at..]);
    }

    /// Drops the saved proofs from `at` on.
    pub(super) fn drop_saved(&mut self, at: usize) {
        self.saved.truncate(at);
    }

    /// Keeps a copy of `proof`, a probe's, for the positions below; returns where it lies.
    pub(super) fn push_proof(&mut self, proof: &[u8]) -> u32 {
        self.proofs.extend_from_slice(proof);
        (self.proofs.len() - proof.len()) as u32
    }

    /// The proof kept at `at` by [`ProofLog::push_proof`], of `kinds` kinds.
    pub(super) fn proof_at(&self, at: u32, kinds: usize) -> &[u8] {
        &self.proofs[at as usize..at as usize + kinds]
    }

    /// Logs that the probe of `branch` found the proof at `at`.
    pub(super) fn log_proof(&mut self, branch: Branch, at: u32) {
        self.probe_log.push((branch, at));
    }

    /// Logs that the probe of `branch` failed, the pieces it could not free at `stuck` (see
    /// [`ProofLog::record_stuck`]).
    pub(super) fn log_refuted(&mut self, branch: Branch, stuck: u32) {
        self.refuted_log.push((branch, stuck));
    }

    /// Keeps the pieces a failed probe could not free: those `present` but not `freed` (a bit
    /// per piece); [`ProofLog::last_stuck`] then says where.
    pub(super) fn record_stuck(&mut self, present: &[u64], freed: &[u64]) {
        self.last_stuck = self.stuck.len() as u32;
        for (&present, &freed) in present.iter().zip(freed) {
            self.stuck.push(present & !freed);
        }
    }

    /// Where the last failed probe left the pieces it could not free.
    pub(super) fn last_stuck(&self) -> u32 {
        self.last_stuck
    }

    /// Where a probe's finds will begin, to drop them again.
    pub(super) fn probe_mark(&self) -> ProbeMark {
        ProbeMark { proofs: self.proofs.len(), stuck: self.stuck.len(), last_stuck: self.last_stuck }
    }

    /// Drops what a probe found since `mark` (a proof, the pieces it could not free).
    pub(super) fn forget(&mut self, mark: ProbeMark) {
        self.proofs.truncate(mark.proofs);
        self.stuck.truncate(mark.stuck);
        self.last_stuck = mark.last_stuck;
    }

    /// Where in the proofs a proof lies that the relaxation holds after `branch` (which leaves
    /// its kind `cut`, at a board of `kinds` kinds), when one logged by the probes of this
    /// position (from `own_log` in the log) or of the parent position (`from`) does, and what
    /// sort of answer it is; the parent's probe of the same branch is taken first.
    ///
    /// Why a proof logged for another branch may do: a probe's proof is a sequence of pairs
    /// that frees every piece after its branch, and it is also a proof for the position the
    /// probe was made at. A constraint only takes pairings away, so its sequence is one the
    /// position allows; after `Remove(a, b)`, the sequence frees the kind's other two pieces
    /// by their own pair, and at the position, `a` and `b`, joinable there, can be freed first
    /// (their pairing is allowed), which opens the cells the sequence ran on. Its pairings
    /// say so: the kind branched on used only the branch's pairing. So any proof of this
    /// position whose pairings `branch` keeps ([`Cut::keeps`]) proves the branch, by the
    /// argument of `StillSearch::inherits`; a proof of the parent's, when the move that led
    /// here keeps it too (`from.cut`), is a proof of this position by the same argument.
    pub(super) fn known_proof(
        &self,
        branch: Branch,
        cut: Cut,
        kinds: usize,
        from: &Inherit,
        own_log: usize,
    ) -> Option<(u32, Taken)> {
        let pairings = |at: u32| self.proof_at(at, kinds);
        if let Some(moved) = from.cut {
            let parent = &self.probe_log[from.log.clone()];
            let usable = |&&(_, at): &&(Branch, u32)| moved.keeps(pairings(at)) && cut.keeps(pairings(at));
            if let Some(&(_, at)) = parent.iter().filter(|&&(logged, _)| logged == branch).find(usable) {
                return Some((at, Taken::ParentProof));
            }
            if let Some(&(_, at)) = parent.iter().find(usable) {
                return Some((at, Taken::OtherProof));
            }
        }
        self.probe_log[own_log..]
            .iter()
            .find(|&&(_, at)| cut.keeps(pairings(at)))
            .map(|&(_, at)| (at, Taken::OtherProof))
    }

    /// Where in the log of stuck pieces the pieces lie that a probe of the parent position
    /// (`from`) could not free after `branch` (or after a constraint of the same kind allowing
    /// at least the pairings `branch` allows), when all of them are still on the board (of the
    /// pieces `present`): then the probe of `branch` here fails too, and is not run.
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
    pub(super) fn still_refuted(&self, branch: Branch, from: &Inherit, present: &[u64]) -> Option<u32> {
        let words = present.len();
        self.refuted_log[from.refuted.clone()]
            .iter()
            .filter(|&&(logged, _)| match (logged, branch) {
                (Branch::Constrain(k, mask), Branch::Constrain(j, narrower)) => {
                    k == j && narrower & !mask == 0
                }
                _ => logged == branch,
            })
            .map(|&(_, at)| at)
            .find(|&at| {
                let stuck = &self.stuck[at as usize..at as usize + words];
                stuck.iter().zip(present).all(|(&stuck, &present)| stuck & !present == 0)
            })
    }
}
