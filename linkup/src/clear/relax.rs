//! The relaxation: every piece left must be freed by a partner it may still pair with, on a
//! board where the pieces freed are taken away (see [`StillSearch::can_all_go`]).

use super::{
    ALL_PAIRINGS, Base, Bits, Branch, Cell, Cut, Edge, MANY, MAX_EDGES, PAIRINGS, PAIRS_OF, Relaxing,
    StillSearch, Wait, apart_cells, span,
};

impl StillSearch {
    /// A necessary condition for clearing (no gravity): every piece on the board can be
    /// *freed*, where a piece is freed when a line joins it to a partner it may still pair with
    /// (kinds of four: within an allowed pairing; two: the other) on the board with every piece
    /// freed so far taken away. In a clearing order, each removal's pieces are joined on a board
    /// holding at least the pieces not freed, so by induction every piece removed is freed; a
    /// piece that is not can never go. Call after [`StillSearch::close`] (the pair masks are fresh).
    ///
    ///
    /// The relaxed board only ever opens cells, so (at most two turns) a pair not joinable on
    /// it can only become joinable once a cell opens in one of the rows or columns its last
    /// check named ([`Bits::watch_on`]): each pass rechecks only the pairs with a piece
    /// freed since on such a line (in the previous pass or this one so far). The pairs of kinds
    /// of two or four are known not to be joinable on the board itself (their masks), so they
    /// start watching what their masks' last check named (`pair_watch`; while a probe looks at
    /// a child, whose masks are not cached, the rows between their pieces' rows and the columns
    /// between their columns, where every line of either shape lies); pairs of larger kinds
    /// watch all. A pair whose ends' runs meet neither along the rows nor along the columns
    /// (most pairs checked) waits instead on the four cells just beyond those runs' facing
    /// ends: a run grows only when the cell next to its end opens, and until the runs meet
    /// no line of either shape joins the pair ([`Bits::wait_on`]). A pair whose wait holds is
    /// kept at the top of a pass without looking at its pieces or kind: it frees nothing, and
    /// its wait stays up to date (debug builds check it is not joinable).
    pub(super) fn can_all_go(&mut self) -> bool {
        let mut now = self.still.relaxings.pop().unwrap_or_default();
        now.reset(&self.position.bits);
        let (edges, freed_count) = self.relax_setup(false, &mut now);
        let alive = self.relax_run(&mut now, edges, freed_count, self.position.total_left);
        self.still.relaxings.push(now);
        alive
    }

    /// The start of [`StillSearch::can_all_go`]: frees in `now` (the board, nothing freed) the
    /// pieces freed at once, and returns the pairs that may free more and the pieces freed.
    /// With `hold`, the kinds of four with a pair removable now (the kinds
    /// [`StillSearch::still_branches`] probes) free nothing: all their allowed pairs wait, and they
    /// are blocked (see [`StillSearch::relax_base`]).
    pub(super) fn relax_setup(&mut self, hold: bool, now: &mut Relaxing) -> (Vec<Edge>, usize) {
        self.still.used.clear();
        self.still.used.resize(self.position.left.len(), 0);
        let mut edges = std::mem::take(&mut self.still.edges);
        edges.clear();
        let mut freed_count = 0;
        let mut live = [0u16; 4];
        for k in 0..self.position.left.len() {
            let count = self.position.left[k] as usize;
            if count > 4 {
                // Bounded before it is set up: a pair for every two pieces of the kind.
                if edges.len() + count * (count - 1) / 2 > MAX_EDGES
                    || !self.position.spend((count * (count - 1) / 2) as u64)
                {
                    self.position.exhausted = true;
                    break;
                }
                let cell = &self.position.cell;
                edges.extend(self.position.present_pairs(k).map(|(a, b)| {
                    Edge::waiting((a, b), k, [cell[a as usize], cell[b as usize]], MANY, Wait::ALL)
                }));
            } else if count > 0 {
                self.live(k, &mut live);
                freed_count += if count == 2 {
                    self.setup_two(k, live, now, &mut edges)
                } else {
                    self.setup_four(k, live, hold, now, &mut edges)
                };
            }
        }
        if edges.iter().any(|edge| edge.watch == Wait::ALL) {
            // Pairs never checked yet: the first pass checks every pair.
            now.freed_lines = Wait::ALL.rows_cols();
        }
        (edges, freed_count)
    }

    /// What the pair of bit `bit` of kind `k`'s mask, on the cells `a` and `b` and not joinable
    /// on the board, waits on: the watch its mask found, when the cache holds it (not while a
    /// probe looks at a child), else every row between its pieces' rows and every column
    /// between their columns (every line of either shape lies there).
    fn first_wait(&self, k: usize, bit: usize, a: Cell, b: Cell) -> Wait {
        if !self.pairs.scratch {
            self.pairs.watch[k][bit]
        } else if self.position.max_turns <= 2 {
            let rows = span(u32::from(a.0.min(b.0)), u32::from(a.0.max(b.0)));
            let cols = span(u32::from(a.1.min(b.1)), u32::from(a.1.max(b.1)));
            Wait::lines(rows, cols)
        } else {
            Wait::ALL
        }
    }

    /// [`StillSearch::relax_setup`] for kind `k` with the two pieces `live` left: frees them in
    /// `now` when they are joinable, else their pair waits; returns the pieces freed.
    fn setup_two(&mut self, k: usize, live: [u16; 4], now: &mut Relaxing, edges: &mut Vec<Edge>) -> usize {
        let at = [self.position.cell[usize::from(live[0])], self.position.cell[usize::from(live[1])]];
        if self.pair_mask(k, live) & 1 == 1 {
            return now.free(live[0], at[0]) + now.free(live[1], at[1]);
        }
        let watch = self.first_wait(k, 0, at[0], at[1]);
        edges.push(Edge::waiting((live[0], live[1]), k, at, 0, watch));
        0
    }

    /// [`StillSearch::relax_setup`] for kind `k` with the four pieces `live` left: the pairs
    /// joinable now of one pairing (both of its pairs when some pairing has both) free theirs
    /// at once, and the kind's other pairs wait in the order of that pairing first, so that a
    /// kind is freed by one pairing when the board allows (see [`StillSearch::inherits`]). With
    /// `hold` a kind with a pair joinable is held: it frees nothing at once and is blocked.
    /// Returns the pieces freed.
    fn setup_four(
        &mut self,
        k: usize,
        live: [u16; 4],
        hold: bool,
        now: &mut Relaxing,
        edges: &mut Vec<Edge>,
    ) -> usize {
        let at = live.map(|piece| self.position.cell[usize::from(piece)]);
        let known = self.pair_mask(k, live);
        let allowed = self.position.allowed[k];
        let held = hold && known != 0;
        if held {
            self.still.blocked[k] = ALL_PAIRINGS;
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
                    self.still.used[k] |= 1 << pairing;
                } else {
                    let watch = if joined {
                        Wait::NOTHING
                    } else {
                        self.first_wait(k, 2 * pairing + index, at[x], at[y])
                    };
                    let mut edge = Edge::waiting((live[x], live[y]), k, [at[x], at[y]], 1 << pairing, watch);
                    edge.joined = joined;
                    edges.push(edge);
                }
            }
        }
        freed_count
    }

    /// The passes of [`StillSearch::can_all_go`] on `run` from `edges` and `freed_count` pieces
    /// freed, until `target` pieces are freed (true) or a pass frees nothing more (false); `run`
    /// is left as the passes leave it, the pieces freed also in `freed`. A pair of a pairing
    /// its kind has in `blocked` frees nothing; it waits, unchecked.
    pub(super) fn relax_run(
        &mut self,
        run: &mut Relaxing,
        mut edges: Vec<Edge>,
        mut freed_count: usize,
        target: usize,
    ) -> bool {
        let now = run;
        // Without probing, two stages: in the first, a kind of four frees its pieces only by
        // the pairing that freed its first ones, so that proofs use one pairing per kind where
        // they can and the branch of that pairing inherits them (see `StillSearch::inherits`); the
        // other pairs wait, and in the second stage, which starts when the first frees nothing
        // more, every pair counts. Either way the pieces freed at the end are the same (the
        // least fixpoint), so the verdict is. While probing, the stages cost more line checks
        // than the proofs they shape save, so every pair counts at once.
        let mut mixing = self.still.probe;
        // A pass looks at each pair once, a unit each, counted here and spent at the end (the
        // counter stays out of the passes); a run cut short frees too little and proves nothing
        // (the search stops, see `Position::exhausted`).
        let allowance = if self.position.exhausted {
            0
        } else {
            self.position.work_limit.saturating_sub(self.position.work)
        };
        let mut looked = 0u64;
        loop {
            looked += edges.len() as u64 * self.position.check_cost;
            if looked > allowance {
                break;
            }
            let before = freed_count;
            // Rows and columns (bit per framed line) of the pieces freed since the last pass
            // began, and of those freed in this pass so far.
            let previous = std::mem::take(&mut now.freed_lines);
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
                    debug_assert!(
                        now.joinable_or_watch(edge.at[0], edge.at[1], self.position.max_turns).is_some()
                    );
                    if kept != index {
                        edges[kept] = edges[index];
                    }
                    kept += 1;
                    continue;
                }
                let (a, b) = (edge.a, edge.b);
                if now.is_freed(a) && now.is_freed(b) {
                    continue;
                }
                let k = edge.kind as usize;
                let used = self.still.used[k];
                let waits = self.still.blocked[k] & edge.pairing != 0
                    || !mixing && edge.pairing & ALL_PAIRINGS != 0 && used != 0 && used != edge.pairing;
                let joined = if waits {
                    // Blocked, or waiting for the second stage: checked, once it may free,
                    // against every line freed.
                    edge.stale = true;
                    false
                } else {
                    self.edge_joined(now, edge, previous)
                };
                if joined {
                    let (pairing, at) = (edge.pairing, edge.at);
                    freed_count += now.free(a, at[0]) + now.free(b, at[1]);
                    self.still.used[k] |= pairing;
                    if freed_count == target {
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
        let words = self.still.freed.len();
        self.still.freed.copy_from_slice(&now.freed[..words]);
        self.still.edges = edges;
        self.still.freed_count = freed_count;
        self.position.spend(looked);
        freed_count == target && !self.position.exhausted
    }

    /// Whether `edge` (which may free now) is joinable on the relaxed board `now`: checked
    /// again only when a cell it waits on opened since its last check (`previous`: the lines
    /// freed since the last pass began; every line freed since the run began when it was
    /// stale), else its wait stands; a wait that changes is brought up to date.
    #[inline(always)]
    fn edge_joined(&self, now: &Relaxing, edge: &mut Edge, previous: (u64, u64)) -> bool {
        if edge.joined {
            return true;
        }
        let banded = self.position.max_turns <= 2;
        let since = if edge.stale { now.freed_all } else { previous };
        edge.stale = false;
        // A pair apart waits on four cells of the relaxed board as it is now, whatever was
        // freed since; others on the lines freed since. (A pair apart that gets here is no
        // longer: one of its cells opened.)
        let recheck = edge.watch.is_apart()
            || edge.watch.touched((since.0 | now.freed_lines.0, since.1 | now.freed_lines.1));
        debug_assert!(
            recheck
                || !banded
                || now.joinable_or_watch(edge.at[0], edge.at[1], self.position.max_turns).is_some(),
            "a pair left unchecked is joinable"
        );
        let wait = if !recheck {
            Some(edge.watch)
        } else if edge.watch.is_apart() {
            // The shape along lines with both cells still closed is as it was.
            let ends = (edge.at[0], edge.at[1]);
            let opened = now.apart_opened(edge.cells);
            debug_assert_eq!(opened, Bits::apart_opened(&now.rows, &now.cols, edge.watch));
            Bits::rewait_apart(&now.rows, &now.cols, ends, self.position.max_turns, edge.watch, opened)
        } else if banded {
            Bits::wait_on_sorted(&now.rows, &now.cols, edge.at[0], edge.at[1], self.position.max_turns)
        } else {
            (!now.flood_joinable(
                edge.at[0],
                edge.at[1],
                self.position.max_turns,
                self.position.bits.rows.len(),
            ))
            .then_some(Wait::ALL)
        };
        match wait {
            None => true,
            Some(watch) => {
                edge.watch = watch;
                if watch.is_apart() {
                    edge.cells = apart_cells(watch);
                }
                false
            }
        }
    }

    /// The relaxation of the current position in stages, into `bases`, for the probes of the
    /// position to run on from ([`StillSearch::relax_from_base`]) rather than from scratch: every
    /// kind of four with a pair removable now (the kinds [`StillSearch::still_branches`] probes) is
    /// held at first (none of its pieces freed, its pairs waiting); the run goes on until a
    /// pass frees nothing, the state is kept as the base of one held kind, that kind is let go,
    /// and so on, the kinds in the reverse of the order they are probed in (the first probed,
    /// most often the only ones, get the bases with the most freed). Computed at the first
    /// probe that runs at a position (a position's own run stays [`StillSearch::can_all_go`]: its
    /// proof shapes the branches below, and the order of this one made set (c') search more).
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
    pub(super) fn relax_base(&mut self) {
        let mut now = self.still.relaxings.pop().unwrap_or_default();
        now.reset(&self.position.bits);
        let (mut edges, mut freed_count) = self.relax_setup(true, &mut now);
        self.still.base_kinds.clear();
        // The pairs the bases keep in all: their memory.
        let mut kept = 0;
        for index in (0..self.still.kind_order.len()).rev() {
            let k = self.still.kind_order[index] as usize;
            if self.still.blocked[k] == 0 {
                continue;
            }
            if self.position.exhausted {
                self.still.blocked[k] = 0;
                continue;
            }
            self.relax_run(&mut now, edges, freed_count, usize::MAX);
            edges = std::mem::take(&mut self.still.edges);
            freed_count = self.still.freed_count;
            let at = self.still.base_kinds.len();
            if self.still.bases.len() == at {
                self.still.bases.push(Base::default());
            }
            // The base's copy of the pairs waiting.
            kept += edges.len();
            if kept > MAX_EDGES || !self.position.spend(edges.len() as u64) {
                self.position.exhausted = true;
                self.still.blocked[k] = 0;
                continue;
            }
            let base = &mut self.still.bases[at];
            base.now.clone_from(&now);
            base.freed_count = freed_count;
            base.used.clone_from(&self.still.used);
            base.edges.clone_from(&edges);
            self.still.base_kinds.push(k);
            self.still.blocked[k] = 0;
        }
        self.still.relaxings.push(now);
        self.still.edges = edges;
        self.still.freed_count = freed_count;
        self.still.bases_at = self.position.positions;
    }

    /// [`StillSearch::can_all_go`] after `branch` (made already; `cut`: what it leaves its kind),
    /// run on from its kind's base (see [`StillSearch::relax_base`]).
    pub(super) fn relax_from_base(&mut self, branch: Branch, cut: Cut) -> bool {
        let at = self.still.base_kinds.iter().position(|&k| k == cut.kind).expect("a probed kind is held");
        let mut now = self.still.relaxings.pop().unwrap_or_default();
        let base = &self.still.bases[at];
        now.clone_from(&base.now);
        now.freed_lines = (0, 0);
        self.still.used.copy_from_slice(&base.used);
        let mut edges = std::mem::take(&mut self.still.edges);
        edges.clone_from(&base.edges);
        let mut freed_count = base.freed_count;
        let mut target = self.position.total_left;
        if let Branch::Remove(a, b) = branch {
            // The pair removed counts as freed: its cells are open.
            freed_count +=
                now.free(a, self.position.cell[a as usize]) + now.free(b, self.position.cell[b as usize]);
            target += 2;
        }
        self.still.blocked[cut.kind] = ALL_PAIRINGS & !cut.pairings;
        let alive = self.relax_run(&mut now, edges, freed_count, target);
        self.still.relaxings.push(now);
        self.still.blocked[cut.kind] = 0;
        alive
    }
}
