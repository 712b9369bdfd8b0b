//! The relaxation ([`Relaxation`]): every piece left must be freed by a partner it may still pair
//! with, on a board where the pieces freed are taken away (see [`Relaxation::can_all_go`]). Its
//! scratch and its last proof are its own; it reads the position and the pair cache, and spends
//! on the meter.

use super::pairs::PairCache;
use super::proofs::{Cut, count_from_base};
use super::relaxed::{Edge, MANY, Relaxing};
use crate::clear::meter::{Limit, MAX_EDGES, Meter};
use crate::clear::pairings::{ALL_PAIRINGS, PAIRINGS, PAIRS_OF};
use crate::clear::position::{Branch, Position};
use crate::clear::wait::Wait;

/// A stage of the relaxation of a position, some of the kinds it probes held (see
/// [`Relaxation::base`]): the relaxed board, the pieces freed (bits, count, their lines), the
/// pairings used, and the pairs left, each with what it waits on on that board.
#[derive(Debug, Default)]
struct Base {
    now: Box<Relaxing>,
    freed_count: usize,
    used: Vec<u8>,
    edges: Vec<Edge>,
}

/// The relaxation's scratch, its bases and its last proof.
///
/// Invariant: `blocked` is all 0 between calls; `bases[..base_kinds.len()]` are the bases of the
/// position numbered `bases_at` (in positions counted), `bases[i]` that of kind `base_kinds[i]`.
#[derive(Debug)]
pub(super) struct Relaxation {
    /// What the last run that held used, per kind: the pairings (bit p) of the pairs that freed
    /// its pieces ([`MANY`] for kinds of more than four; see `StillSearch::inherits`).
    used: Vec<u8>,
    /// The pieces the last run freed (one bit per piece).
    freed: Vec<u64>,
    /// Pieces freed by the last run.
    freed_count: usize,
    /// The states of runs not in use, to run the next ones in.
    relaxings: Vec<Box<Relaxing>>,
    /// The pairs that may still free a piece, between the stages of a run.
    edges: Vec<Edge>,
    /// Per kind: the pairings (bits) a run may not use (0 but while a base is found or a probe
    /// runs from it).
    blocked: Vec<u8>,
    /// The relaxations of the position probed from that the probes of each kind run on from
    /// ([`Relaxation::base`]): `bases[i]` for kind `base_kinds[i]`, found at the position
    /// numbered `bases_at` (the count of positions when it was entered; 0: none).
    bases: Vec<Base>,
    base_kinds: Vec<usize>,
    bases_at: u64,
}

/// What a pass of a run of the relaxation works with ([`Relaxation::pass`]).
#[derive(Debug, Clone, Copy)]
struct Stage {
    /// Every pair counts (else a kind of four frees its pieces only by the pairing that freed its
    /// first ones, see [`Relaxation::run`]).
    mixing: bool,
    max_turns: u32,
    /// Framed rows of the board.
    height: usize,
    /// The pieces to free.
    target: usize,
}

/// What a run reads and spends on besides its own scratch.
struct Parts<'a> {
    position: &'a Position,
    /// The masks and waits the pairs of kinds of two and four start from.
    pairs: &'a mut PairCache,
    meter: &'a mut Meter,
    /// The search probes: every pair counts at once (see [`Relaxation::run`]).
    probing: bool,
}

impl Relaxation {
    /// Nothing run yet, on a board of `kinds` kinds and `piece_words` words of one bit per piece.
    pub(super) fn new(kinds: usize, piece_words: usize) -> Relaxation {
        Relaxation {
            used: Vec::new(),
            freed: vec![0; piece_words],
            freed_count: 0,
            relaxings: Vec::new(),
            edges: Vec::new(),
            blocked: vec![0; kinds],
            bases: Vec::new(),
            base_kinds: Vec::new(),
            bases_at: 0,
        }
    }

    /// The proof of the last run that held (see [`Relaxation::used`]), per kind.
    #[inline(always)]
    pub(super) fn proof(&self) -> &[u8] {
        &self.used
    }

    /// The proof, to put another in its place (a proof carried here from a probe, or saved).
    pub(super) fn proof_mut(&mut self) -> &mut [u8] {
        &mut self.used
    }

    /// The pieces the last run freed, a bit per piece.
    pub(super) fn freed(&self) -> &[u64] {
        &self.freed
    }

    /// True when the bases are not those of the position numbered `positions`.
    pub(super) fn bases_stale(&self, positions: u64) -> bool {
        self.bases_at != positions
    }

    /// A necessary condition for clearing (no gravity): every piece on the board of `position`
    /// can be *freed*, where a piece is freed when a line joins it to a partner it may still
    /// pair with (kinds of four: within an allowed pairing; two: the other) on the board with
    /// every piece freed so far taken away. In a clearing order, each removal's pieces are
    /// joined on a board holding at least the pieces not freed, so by induction every piece
    /// removed is freed; a piece that is not can never go. Call after the safe moves (the pair
    /// masks of `pairs` are fresh). Each pair set up or looked at is a unit of work on `meter`;
    /// a run cut short by the budget proves nothing (false).
    ///
    /// The relaxed board only ever opens cells, so (at most two turns) a pair not joinable on
    /// it can only become joinable once a cell opens in one of the rows or columns its last
    /// check named ([`crate::clear::bits::Bits::watch_on`]): each pass rechecks only the pairs
    /// with a piece freed since on such a line (in the previous pass or this one so far). The
    /// pairs of kinds of two or four are known not to be joinable on the board itself (their
    /// masks), so they start watching what their masks' last check named
    /// ([`PairCache::first_wait`]; while a probe looks at a child, whose masks are not cached,
    /// the rows between their pieces' rows and the columns between their columns, where every
    /// line of either shape lies); pairs of larger kinds watch all. A pair whose ends' runs meet
    /// neither along the rows nor along the columns (most pairs checked) waits instead on the
    /// four cells just beyond those runs' facing ends: a run grows only when the cell next to
    /// its end opens, and until the runs meet no line of either shape joins the pair. A pair
    /// whose wait holds is kept at the top of a pass without looking at its pieces or kind: it
    /// frees nothing, and its wait stays up to date (debug builds check it is not joinable).
    pub(super) fn can_all_go(
        &mut self,
        position: &Position,
        pairs: &mut PairCache,
        meter: &mut Meter,
        probing: bool,
    ) -> bool {
        let mut parts = Parts { position, pairs, meter, probing };
        let mut now = self.relaxings.pop().unwrap_or_default();
        now.reset(position.bits());
        let (edges, freed_count) = self.setup(&mut parts, false, &mut now);
        let alive = self.run(&mut parts, &mut now, edges, freed_count, position.total_left());
        self.relaxings.push(now);
        alive
    }

    /// The start of [`Relaxation::can_all_go`]: frees in `now` (the board, nothing freed) the
    /// pieces freed at once, and returns the pairs that may free more and the pieces freed.
    /// With `hold`, the kinds of four with a pair removable now (the kinds the search probes)
    /// free nothing: all their allowed pairs wait, and they are blocked (see
    /// [`Relaxation::base`]).
    fn setup(&mut self, parts: &mut Parts, hold: bool, now: &mut Relaxing) -> (Vec<Edge>, usize) {
        let position = parts.position;
        self.used.clear();
        self.used.resize(position.kinds(), 0);
        let mut edges = std::mem::take(&mut self.edges);
        edges.clear();
        let mut freed_count = 0;
        for k in 0..position.kinds() {
            let count = position.left(k) as usize;
            if count > 4 {
                // Bounded before it is set up: a pair for every two pieces of the kind.
                if edges.len() + count * (count - 1) / 2 > MAX_EDGES
                    || !parts.meter.spend((count * (count - 1) / 2) as u64)
                {
                    parts.meter.stop(Limit::Pairs);
                    break;
                }
                edges.extend(position.present_pairs(k).map(|(a, b)| {
                    Edge::new((a, b), k, [position.cell(a), position.cell(b)], MANY, false, Wait::ALL)
                }));
            } else if count > 0 {
                let live = parts.pairs.live(position, k);
                freed_count += if count == 2 {
                    Self::setup_two(parts, k, live, now, &mut edges)
                } else {
                    self.setup_four(parts, k, live, hold, now, &mut edges)
                };
            }
        }
        if edges.iter().any(Edge::unchecked) {
            // Pairs never checked yet: the first pass checks every pair.
            now.free_all_lines();
        }
        (edges, freed_count)
    }

    /// [`Relaxation::setup`] for kind `k` with the two pieces `live` left: frees them in `now`
    /// when they are joinable, else their pair waits; returns the pieces freed.
    fn setup_two(
        parts: &mut Parts,
        k: usize,
        live: [u16; 4],
        now: &mut Relaxing,
        edges: &mut Vec<Edge>,
    ) -> usize {
        let position = parts.position;
        let at = [position.cell(live[0]), position.cell(live[1])];
        if parts.pairs.mask(position, parts.meter, k, live) & 1 == 1 {
            return now.free(live[0], at[0]) + now.free(live[1], at[1]);
        }
        let watch = parts.pairs.first_wait(position.max_turns(), k, 0, at[0], at[1]);
        edges.push(Edge::new((live[0], live[1]), k, at, 0, false, watch));
        0
    }

    /// [`Relaxation::setup`] for kind `k` with the four pieces `live` left: the pairs joinable
    /// now of one pairing (both of its pairs when some pairing has both) free theirs at once,
    /// and the kind's other pairs wait in the order of that pairing first, so that a kind is
    /// freed by one pairing when the board allows (see `StillSearch::inherits`). With `hold` a
    /// kind with a pair joinable is held: it frees nothing at once and is blocked. Returns the
    /// pieces freed.
    fn setup_four(
        &mut self,
        parts: &mut Parts,
        k: usize,
        live: [u16; 4],
        hold: bool,
        now: &mut Relaxing,
        edges: &mut Vec<Edge>,
    ) -> usize {
        let position = parts.position;
        let at = live.map(|piece| position.cell(piece));
        let known = parts.pairs.mask(position, parts.meter, k, live);
        let allowed = position.allowed(k);
        let held = hold && known != 0;
        if held {
            self.blocked[k] = ALL_PAIRINGS;
        }
        // Bit 2p for each allowed pairing p with both its pairs joinable, and with either.
        let allowed_bits = PAIRS_OF[usize::from(allowed & ALL_PAIRINGS)] & 0b01_0101;
        let (both, either) = (known & known >> 1 & allowed_bits, (known | known >> 1) & allowed_bits);
        let primary = if held {
            None
        } else {
            let found = if both != 0 { both } else { either };
            (found != 0).then(|| found.trailing_zeros() as usize / 2)
        };
        let order = match primary {
            Some(1) => [1, 0, 2],
            Some(2) => [2, 0, 1],
            _ => [0, 1, 2],
        };
        let mut freed_count = 0;
        for pairing in order.into_iter().filter(|&pairing| allowed >> pairing & 1 == 1) {
            for (index, &(x, y)) in PAIRINGS[pairing].iter().enumerate() {
                let joined = known >> (2 * pairing + index) & 1 == 1;
                if joined && primary == Some(pairing) {
                    freed_count += now.free(live[x], at[x]) + now.free(live[y], at[y]);
                    self.used[k] |= 1 << pairing;
                } else {
                    let watch = if joined {
                        Wait::NOTHING
                    } else {
                        parts.pairs.first_wait(position.max_turns(), k, 2 * pairing + index, at[x], at[y])
                    };
                    edges.push(Edge::new((live[x], live[y]), k, [at[x], at[y]], 1 << pairing, joined, watch));
                }
            }
        }
        freed_count
    }

    /// The passes of [`Relaxation::can_all_go`] on `now` from `edges` and `freed_count` pieces
    /// freed, until `target` pieces are freed (true) or a pass frees nothing more (false); `now`
    /// is left as the passes leave it, the pieces freed also in `freed`. A pair of a pairing
    /// its kind has in `blocked` frees nothing; it waits, unchecked.
    fn run(
        &mut self,
        parts: &mut Parts,
        now: &mut Relaxing,
        mut edges: Vec<Edge>,
        mut freed_count: usize,
        target: usize,
    ) -> bool {
        let (max_turns, height) = (parts.position.max_turns(), parts.position.bits().rows().len());
        // Without probing, two stages: in the first, a kind of four frees its pieces only by
        // the pairing that freed its first ones, so that proofs use one pairing per kind where
        // they can and the branch of that pairing inherits them (see `StillSearch::inherits`); the
        // other pairs wait, and in the second stage, which starts when the first frees nothing
        // more, every pair counts. Either way the pieces freed at the end are the same (the
        // least fixpoint), so the verdict is. While probing, the stages cost more line checks
        // than the proofs they shape save, so every pair counts at once.
        let mut mixing = parts.probing;
        // A pass looks at each pair once, a unit each, counted here and spent at the end (the
        // counter stays out of the passes); a run cut short frees too little and proves nothing
        // (the search stops, see `Meter::exhausted`).
        let allowance = parts.meter.allowance();
        let check_cost = parts.meter.check_cost();
        let mut looked = 0u64;
        loop {
            looked += edges.len() as u64 * check_cost;
            if looked > allowance {
                break;
            }
            let before = freed_count;
            let stage = Stage { mixing, max_turns, height, target };
            self.pass(now, &mut edges, stage, &mut freed_count);
            if freed_count == target {
                break;
            }
            if freed_count == before {
                if mixing {
                    break;
                }
                mixing = true;
            }
        }
        let words = self.freed.len();
        self.freed.copy_from_slice(now.freed(words));
        self.edges = edges;
        self.freed_count = freed_count;
        parts.meter.spend(looked);
        freed_count == target && !parts.meter.exhausted()
    }

    /// One pass of [`Relaxation::run`] over `edges` on `now` at `stage`: each pair that may free
    /// is looked at, the pieces it frees counted in `freed_count`, and the pairs left kept in
    /// their order (all dropped once `stage.target` pieces are freed).
    #[inline(always)]
    fn pass(&mut self, now: &mut Relaxing, edges: &mut Vec<Edge>, stage: Stage, freed_count: &mut usize) {
        let Stage { mixing, max_turns, height, target } = stage;
        // Rows and columns (bit per framed line) of the pieces freed since the last pass
        // began, and of those freed in this pass so far.
        let previous = now.take_freed_lines();
        let mut kept = 0;
        for index in 0..edges.len() {
            // The pair is looked at in place, and moved down only when kept behind a gap.
            let edge = &mut edges[index];
            if edge.idle(now, previous) {
                // Not joinable, whatever its kind may use: its wait holds (no cell opened
                // on what it waits on since its last check, or it is apart and its four
                // cells are closed). Kept as it is without a look at its pieces (when both
                // are freed it is dropped once it is looked at; it frees nothing
                // meanwhile). Waiting or not, its wait stays up to date.
                debug_assert!(edge.waits_on(now, max_turns));
                if kept != index {
                    edges[kept] = edges[index];
                }
                kept += 1;
                continue;
            }
            let (a, b) = edge.pieces();
            if now.is_freed(a) && now.is_freed(b) {
                continue;
            }
            let (k, pairing) = (edge.kind(), edge.pairing());
            let used = self.used[k];
            let waits = self.blocked[k] & pairing != 0
                || !mixing && pairing & ALL_PAIRINGS != 0 && used != 0 && used != pairing;
            let joined = if waits {
                // Blocked, or waiting for the second stage: checked, once it may free,
                // against every line freed.
                edge.skip();
                false
            } else {
                edge.joined_on(now, previous, max_turns, height)
            };
            if joined {
                let at = edge.cells();
                *freed_count += now.free(a, at[0]) + now.free(b, at[1]);
                self.used[k] |= pairing;
                if *freed_count == target {
                    // Every piece is freed: the pairs not looked at yet would all be
                    // dropped (both their pieces freed), as the pass would drop them.
                    break;
                }
            } else {
                if kept != index {
                    edges[kept] = edges[index];
                }
                kept += 1;
            }
        }
        edges.truncate(kept);
    }

    /// The relaxation of the position in stages, into the bases, for the probes of the position
    /// to run on from ([`Relaxation::run_from_base`]) rather than from scratch: every kind of four
    /// with a pair removable now (the kinds the search probes) is held at first (none of its
    /// pieces freed, its pairs waiting); the run goes on until a pass frees nothing, the state is
    /// kept as the base of one held kind, that kind is let go, and so on, the kinds in the
    /// reverse of `kind_order`, the order they are probed in (the first probed, most often the
    /// only ones, get the bases with the most freed). Computed at the first probe that runs at a
    /// position (a position's own run stays [`Relaxation::can_all_go`]: its proof shapes the
    /// branches below, and the order of this one made the deals of 16 × 30 with 16 pieces a kind
    /// search more).
    ///
    /// Why a probe may run on from its kind's base: a probed branch changes the position only
    /// in its own kind k (a removal takes k's pair away and leaves its other two pieces only
    /// each other; a constraint leaves k fewer pairings) and by opening cells. Up to k's base
    /// the run used no pair of k (k was held) and only pairs the position allows, so after the
    /// branch each of those pairs may still be used and is still joinable at its turn, on a
    /// board with at least the same cells open: by induction along the run, the relaxation
    /// after the branch frees every piece the base freed. The pieces it frees are a least
    /// fixpoint (the same whatever order the pairs fire in), so running on from the base, with
    /// the branch's cells opened, the kinds held after k let go and k allowed only what the
    /// branch leaves it, frees exactly what a run from scratch frees. Each pair left in the
    /// base waits on lines of the base's board (a pass that frees nothing leaves every wait up
    /// to date); the branch's cells are then named as freed lines, and the pairs that were held
    /// are checked against every line freed since the start (stale), so every pair whose wait
    /// could end is checked again. Debug builds run both and check they free the same pieces.
    pub(super) fn base(
        &mut self,
        position: &Position,
        pairs: &mut PairCache,
        meter: &mut Meter,
        kind_order: &[u32],
    ) {
        let mut parts = Parts { position, pairs, meter, probing: true };
        let mut now = self.relaxings.pop().unwrap_or_default();
        now.reset(position.bits());
        let (mut edges, mut freed_count) = self.setup(&mut parts, true, &mut now);
        self.base_kinds.clear();
        // The pairs the bases keep in all: their memory.
        let mut kept = 0;
        for &k in kind_order.iter().rev() {
            let k = k as usize;
            if self.blocked[k] == 0 {
                continue;
            }
            if parts.meter.exhausted() {
                self.blocked[k] = 0;
                continue;
            }
            self.run(&mut parts, &mut now, edges, freed_count, usize::MAX);
            edges = std::mem::take(&mut self.edges);
            freed_count = self.freed_count;
            let at = self.base_kinds.len();
            if self.bases.len() == at {
                self.bases.push(Base::default());
            }
            // The base's copy of the pairs waiting.
            kept += edges.len();
            if kept > MAX_EDGES || !parts.meter.spend(edges.len() as u64) {
                parts.meter.stop(Limit::Pairs);
                self.blocked[k] = 0;
                continue;
            }
            let base = &mut self.bases[at];
            base.now.clone_from(&now);
            base.freed_count = freed_count;
            base.used.clone_from(&self.used);
            base.edges.clone_from(&edges);
            self.base_kinds.push(k);
            self.blocked[k] = 0;
        }
        self.relaxings.push(now);
        self.edges = edges;
        self.freed_count = freed_count;
        self.bases_at = parts.meter.positions();
    }

    /// [`Relaxation::can_all_go`] after `branch` (made already on `position`; `cut`: what it
    /// leaves its kind), run on from its kind's base (see [`Relaxation::base`]).
    pub(super) fn run_from_base(
        &mut self,
        position: &Position,
        pairs: &mut PairCache,
        meter: &mut Meter,
        branch: Branch,
        cut: Cut,
    ) -> bool {
        count_from_base();
        let mut parts = Parts { position, pairs, meter, probing: true };
        let at = self.base_kinds.iter().position(|&k| k == cut.kind()).expect("a probed kind is held");
        let mut now = self.relaxings.pop().unwrap_or_default();
        let base = &self.bases[at];
        now.clone_from(&base.now);
        now.take_freed_lines();
        self.used.copy_from_slice(&base.used);
        let mut edges = std::mem::take(&mut self.edges);
        edges.clone_from(&base.edges);
        let mut freed_count = base.freed_count;
        let mut target = position.total_left();
        if let Branch::Remove(a, b) = branch {
            // The pair removed counts as freed: its cells are open.
            freed_count += now.free(a, position.cell(a)) + now.free(b, position.cell(b));
            target += 2;
        }
        self.blocked[cut.kind()] = ALL_PAIRINGS & !cut.pairings();
        let alive = self.run(&mut parts, &mut now, edges, freed_count, target);
        self.relaxings.push(now);
        self.blocked[cut.kind()] = 0;
        alive
    }
}
