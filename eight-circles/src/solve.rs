//! The fast solvers: a bitmask search with forward checking for any graph, and a [`Table`] of
//! all solutions of a graph that answers each case without searching.
//!
//! # The search
//! Digit sets are `u32` bitmasks, bit `d` for digit `d` (1..=k ≤ 16, so bits `d - 1` and
//! `d + 1` always exist). The state is the set of unfilled circles, the set of free digits, and
//! for every circle the digits its filled neighbours still allow. Invariants:
//! - a filled circle's digit is in no free set and was allowed where it stands;
//! - `allowed[u]` excludes `d - 1` and `d + 1` for every filled neighbour of `u` holding `d`;
//! - the unfilled circles and the free digits are equally many.
//!
//! Placing `d` in a circle takes `d` out of the free digits and `d ± 1` out of its unfilled
//! neighbours' allowed sets. Then the *forward check* runs in O(k): every unfilled circle must
//! keep a candidate (an allowed free digit), and every free digit must remain a candidate of
//! some unfilled circle (by the counting invariant, a free digit that fits nowhere can never be
//! placed). Pre-filled digits are placed before the search starts, which is how a digit given
//! twice or two connected pre-fills with consecutive digits are found: they leave no state.
//!
//! Two orders: [`Order::Lexicographic`] fills circles in index order and tries digits upwards,
//! so solutions come out in lexicographic order (what `--all` prints, with nothing stored);
//! [`Order::FewestCandidates`] fills the circle with the fewest candidates first, which finds
//! contradictions and second solutions sooner (what a verdict needs).

use std::ops::ControlFlow;

use crate::model::{Graph, MAX_CIRCLES, Verdict};

/// A set of digits: bit `d` for digit `d`.
type Digits = u32;

/// The order in which the search fills circles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Circles in index order, digits upwards: solutions in lexicographic order.
    Lexicographic,
    /// The unfilled circle with the fewest candidates first (ties: the lowest index).
    FewestCandidates,
}

/// Visits the solutions of `case` (one digit 0..=k per circle of `graph`, 0 for empty) in the
/// given order until `visit` breaks. Returns the number of search nodes (digits placed), a
/// machine-independent measure of the work.
///
/// # Complexity
/// O(k) a node for k circles, and at most k! leaves: exponential in the empty circles in the
/// worst case; the forward check cuts most branches early.
///
/// # Panics
/// When `case` does not hold one digit 0..=k per circle.
pub fn search(graph: &Graph, case: &[u8], order: Order, visit: impl FnMut(&[u8]) -> ControlFlow<()>) -> u64 {
    let circles = graph.circles();
    assert_eq!(case.len(), circles, "a case holds one digit per circle");
    let mut search = Search {
        neighbours: std::array::from_fn(|v| if v < circles { graph.neighbours(v) } else { 0 }),
        circles,
        order,
        digits: [0; MAX_CIRCLES],
        nodes: 0,
        visit,
    };
    let all_digits: Digits = ((1 << (circles + 1)) - 1) & !1;
    let mut free = all_digits;
    let mut unfilled: u16 = ((1u32 << circles) - 1) as u16;
    let mut allowed = [all_digits; MAX_CIRCLES];
    for (circle, &digit) in case.iter().enumerate().filter(|(_, digit)| **digit != 0) {
        let bit = 1 << digit;
        assert!(bit & all_digits != 0, "digit {digit} in a graph of {circles} circles");
        if free & bit == 0 {
            return 0; // The digit is given twice.
        }
        free &= !bit;
        unfilled &= !(1 << circle);
        search.digits[circle] = digit;
        for neighbour in ones(graph.neighbours(circle)) {
            allowed[neighbour] &= !neighbours_of(digit as u32);
        }
    }
    let prefills_agree = ones(!unfilled & ((1u32 << circles) - 1) as u16)
        .all(|circle| allowed[circle] & (1 << search.digits[circle]) != 0);
    if prefills_agree && feasible(unfilled, free, &allowed) {
        let _ = search.fill(unfilled, free, &allowed);
    }
    search.nodes
}

/// The judge's verdict on `case`: the search stops at the second solution.
///
/// # Complexity
/// As [`search`], stopped at the second solution.
///
/// # Panics
/// As [`search`].
pub fn verdict(graph: &Graph, case: &[u8]) -> Verdict<Vec<u8>> {
    let mut first: Option<Vec<u8>> = None;
    let mut many = false;
    search(graph, case, Order::FewestCandidates, |solution| {
        if first.is_some() {
            many = true;
            return ControlFlow::Break(());
        }
        first = Some(solution.to_vec());
        ControlFlow::Continue(())
    });
    match first {
        None => Verdict::NoAnswer,
        Some(_) if many => Verdict::NotUnique,
        Some(solution) => Verdict::Unique(solution),
    }
}

/// Visits every solution of `case` in lexicographic order, storing none.
///
/// # Complexity
/// As [`search`], to the end.
///
/// # Panics
/// As [`search`].
pub fn solutions(graph: &Graph, case: &[u8], mut visit: impl FnMut(&[u8])) {
    search(graph, case, Order::Lexicographic, |solution| {
        visit(solution);
        ControlFlow::Continue(())
    });
}

/// The number of solutions of `case`, counting stopped at `limit`.
///
/// # Complexity
/// As [`search`], stopped at the `limit`-th solution.
///
/// # Panics
/// As [`search`].
pub fn count(graph: &Graph, case: &[u8], limit: u64) -> u64 {
    let mut found = 0;
    search(graph, case, Order::FewestCandidates, |_| {
        found += 1;
        if found >= limit { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    });
    found
}

struct Search<F> {
    neighbours: [u16; MAX_CIRCLES],
    circles: usize,
    order: Order,
    /// The digit of every filled circle; unfilled circles hold stale values.
    digits: [u8; MAX_CIRCLES],
    nodes: u64,
    visit: F,
}

impl<F: FnMut(&[u8]) -> ControlFlow<()>> Search<F> {
    /// Fills the circles of `unfilled` (a bitmask) with the `free` digits, each circle taking
    /// only digits of its `allowed` set. Breaks when the visitor does.
    fn fill(&mut self, unfilled: u16, free: Digits, allowed: &[Digits; MAX_CIRCLES]) -> ControlFlow<()> {
        if unfilled == 0 {
            return (self.visit)(&self.digits[..self.circles]);
        }
        let circle = self.pick(unfilled, free, allowed);
        let rest = unfilled & !(1 << circle);
        let mut candidates = allowed[circle] & free;
        while candidates != 0 {
            let digit = candidates.trailing_zeros();
            candidates &= candidates - 1;
            self.nodes += 1;
            let free_after = free & !(1 << digit);
            let mut next = *allowed;
            for neighbour in ones(self.neighbours[circle] & rest) {
                next[neighbour] &= !neighbours_of(digit);
            }
            if feasible(rest, free_after, &next) {
                self.digits[circle] = digit as u8;
                self.fill(rest, free_after, &next)?;
            }
        }
        ControlFlow::Continue(())
    }

    fn pick(&self, unfilled: u16, free: Digits, allowed: &[Digits; MAX_CIRCLES]) -> usize {
        match self.order {
            Order::Lexicographic => unfilled.trailing_zeros() as usize,
            Order::FewestCandidates => ones(unfilled)
                .min_by_key(|&circle| (allowed[circle] & free).count_ones())
                .expect("called with an unfilled circle"),
        }
    }
}

/// The digits consecutive to `digit` (1..=16): `digit - 1` and `digit + 1`.
fn neighbours_of(digit: u32) -> Digits {
    (1 << (digit - 1)) | (1 << (digit + 1))
}

/// The forward check: every unfilled circle keeps a candidate and every free digit is a
/// candidate somewhere.
fn feasible(unfilled: u16, free: Digits, allowed: &[Digits; MAX_CIRCLES]) -> bool {
    let mut placeable = 0;
    for circle in ones(unfilled) {
        let candidates = allowed[circle] & free;
        if candidates == 0 {
            return false;
        }
        placeable |= candidates;
    }
    placeable == free
}

/// The indices of the set bits of `mask`, upwards.
fn ones(mut mask: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let bit = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        (bit < 16).then_some(bit)
    })
}

/// Most solutions a [`Table`] holds.
pub const MAX_TABLE_SOLUTIONS: usize = 1 << 16;

/// Every solution of a graph, found once, indexed so that a case is answered by a few bitmask
/// ANDs instead of a search.
///
/// The solutions are numbered in lexicographic order. For each circle and digit there is a
/// bitset over the solutions: bit `s` is set when solution `s` holds that digit in that circle
/// (for digit 0, an empty circle, every solution's bit is set). The solutions keeping a case's
/// pre-fills are the AND of the case's bitsets, one per circle. A digit given twice, or connected
/// pre-fills with consecutive digits, leave nothing: no solution holds them.
///
/// The judge's graph has 4 solutions: one 64-bit word per bitset, eight ANDs per case.
#[derive(Debug, Clone)]
pub struct Table {
    circles: usize,
    /// The solutions, `circles` digits each, in lexicographic order.
    solutions: Vec<u8>,
    /// Words per bitset.
    words: usize,
    /// The bitset of circle `c` and digit `d` is `index[(c * (circles + 1) + d) * words..][..words]`.
    index: Vec<u64>,
}

impl Table {
    /// All solutions of `graph`, or `None` when it has more than [`MAX_TABLE_SOLUTIONS`].
    ///
    /// # Complexity
    /// One [`search`] of the empty case; memory O(k² · ⌈s/64⌉) words for k circles and s
    /// solutions.
    pub fn new(graph: &Graph) -> Option<Table> {
        let circles = graph.circles();
        let mut solutions = Vec::new();
        let mut too_many = false;
        search(graph, &vec![0; circles], Order::Lexicographic, |solution| {
            if solutions.len() == MAX_TABLE_SOLUTIONS * circles {
                too_many = true;
                return ControlFlow::Break(());
            }
            solutions.extend_from_slice(solution);
            ControlFlow::Continue(())
        });
        if too_many {
            return None;
        }
        let count = solutions.len() / circles;
        let words = count.div_ceil(64);
        let mut index = vec![0u64; circles * (circles + 1) * words];
        for (number, solution) in solutions.chunks_exact(circles).enumerate() {
            let (word, bit) = (number / 64, 1u64 << (number % 64));
            for (circle, &digit) in solution.iter().enumerate() {
                for row in [0, digit as usize] {
                    index[(circle * (circles + 1) + row) * words + word] |= bit;
                }
            }
        }
        Some(Table { circles, solutions, words, index })
    }

    /// Number of solutions of the graph.
    pub fn len(&self) -> usize {
        self.solutions.len() / self.circles
    }

    /// True when the graph has no solution.
    pub fn is_empty(&self) -> bool {
        self.solutions.is_empty()
    }

    /// Solution number `number` (in lexicographic order).
    pub fn solution(&self, number: usize) -> &[u8] {
        &self.solutions[number * self.circles..][..self.circles]
    }

    /// Word `word` of the bitset of solutions keeping `case`'s pre-fills.
    fn keeping(&self, case: &[u8], word: usize) -> u64 {
        let stride = self.circles + 1;
        case.iter().enumerate().fold(!0, |kept, (circle, &digit)| {
            kept & self.index[(circle * stride + digit as usize) * self.words + word]
        })
    }

    /// The verdict on `case`, with the number of the unique solution.
    ///
    /// # Complexity
    /// O(k · ⌈s/64⌉) word operations for k circles and s solutions.
    ///
    /// # Panics
    /// When `case` does not hold one digit 0..=k per circle.
    pub fn verdict(&self, case: &[u8]) -> Verdict<usize> {
        assert_eq!(case.len(), self.circles, "a case holds one digit per circle");
        let mut first = None;
        for word in 0..self.words {
            let kept = self.keeping(case, word);
            if kept != 0 {
                if first.is_some() || kept.count_ones() > 1 {
                    return Verdict::NotUnique;
                }
                first = Some(word * 64 + kept.trailing_zeros() as usize);
            }
        }
        first.map_or(Verdict::NoAnswer, Verdict::Unique)
    }

    /// The numbers of the solutions keeping `case`'s pre-fills, upwards (so in lexicographic
    /// order).
    pub fn matching<'a>(&'a self, case: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
        assert_eq!(case.len(), self.circles, "a case holds one digit per circle");
        (0..self.words).flat_map(move |word| {
            let mut kept = self.keeping(case, word);
            std::iter::from_fn(move || {
                let bit = kept.trailing_zeros() as usize;
                kept &= kept.wrapping_sub(1);
                (bit < 64).then_some(word * 64 + bit)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE_SOLUTION: [u8; 8] = [7, 3, 1, 4, 5, 8, 6, 2];

    fn all(graph: &Graph, case: &[u8]) -> Vec<Vec<u8>> {
        let mut found = Vec::new();
        solutions(graph, case, |s| found.push(s.to_vec()));
        found
    }

    #[test]
    fn the_sample_cases() {
        let graph = Graph::builtin();
        assert_eq!(verdict(&graph, &[7, 3, 1, 4, 5, 8, 0, 0]), Verdict::Unique(SAMPLE_SOLUTION.to_vec()));
        assert_eq!(verdict(&graph, &[7, 0, 0, 0, 0, 0, 0, 0]), Verdict::NotUnique);
        assert_eq!(verdict(&graph, &[1, 0, 0, 0, 0, 0, 0, 0]), Verdict::NoAnswer);
    }

    #[test]
    fn the_judge_graph_has_four_solutions_in_order() {
        let graph = Graph::builtin();
        let found = all(&graph, &[0; 8]);
        assert_eq!(
            found,
            [[2, 5, 8, 6, 3, 1, 4, 7], [2, 6, 8, 5, 4, 1, 3, 7], SAMPLE_SOLUTION, [7, 4, 1, 3, 6, 8, 5, 2]]
        );
        assert!(found.iter().all(|s| graph.is_solution(s)));
        assert_eq!(count(&graph, &[0; 8], 100), 4);
        assert_eq!(count(&graph, &[0; 8], 3), 3);
    }

    #[test]
    fn clashing_prefills_have_no_answer() {
        let graph = Graph::builtin();
        // 7 twice; A-B connected with 7 and 6; both on a full, otherwise valid, assignment.
        assert_eq!(verdict(&graph, &[7, 3, 1, 4, 5, 8, 6, 7]), Verdict::NoAnswer);
        assert_eq!(verdict(&graph, &[7, 6, 0, 0, 0, 0, 0, 0]), Verdict::NoAnswer);
        assert_eq!(
            search(&graph, &[7, 6, 0, 0, 0, 0, 0, 0], Order::Lexicographic, |_| ControlFlow::Continue(())),
            0
        );
        // Consecutive digits in unconnected circles (A and E) are fine.
        assert_eq!(verdict(&graph, &[7, 0, 0, 0, 6, 0, 0, 0]), Verdict::Unique(vec![7, 4, 1, 3, 6, 8, 5, 2]));
    }

    #[test]
    fn full_graphs_have_no_solution_and_empty_ones_every_permutation() {
        let names = |k: usize| (0..k).map(|i| i.to_string()).collect::<Vec<_>>();
        let full: Vec<(usize, usize)> = (0..16).flat_map(|a| (a + 1..16).map(move |b| (a, b))).collect();
        assert_eq!(count(&Graph::new(names(16), &full), &[0; 16], 10), 0);
        assert_eq!(count(&Graph::new(names(5), &[]), &[0; 5], 1000), 120);
        assert_eq!(verdict(&Graph::new(names(1), &[]), &[0]), Verdict::Unique(vec![1]));
        assert_eq!(verdict(&Graph::new(names(16), &[]), &[0; 16]), Verdict::NotUnique);
    }

    #[test]
    fn the_table_answers_like_the_search() {
        let graph = Graph::builtin();
        let table = Table::new(&graph).unwrap();
        assert_eq!(table.len(), 4);
        for case in [
            [7, 3, 1, 4, 5, 8, 0, 0],
            [7, 0, 0, 0, 0, 0, 0, 0],
            [1, 0, 0, 0, 0, 0, 0, 0],
            [0; 8],
            [2, 2, 0, 0, 0, 0, 0, 0],
        ] {
            let by_table = table.verdict(&case).map(|number| table.solution(number).to_vec());
            assert_eq!(by_table, verdict(&graph, &case), "{case:?}");
            let listed: Vec<Vec<u8>> = table.matching(&case).map(|n| table.solution(n).to_vec()).collect();
            assert_eq!(listed, all(&graph, &case), "{case:?}");
        }
    }

    #[test]
    fn tables_span_several_words_and_refuse_huge_graphs() {
        // 6 loose circles: 720 solutions, 12 words per bitset.
        let names = |k: usize| (0..k).map(|i| i.to_string()).collect::<Vec<_>>();
        let loose = Graph::new(names(6), &[]);
        let table = Table::new(&loose).unwrap();
        assert_eq!(table.len(), 720);
        assert_eq!(table.matching(&[0; 6]).count(), 720);
        assert_eq!(table.verdict(&[6, 5, 4, 3, 2, 0]), Verdict::Unique(719));
        assert_eq!(table.verdict(&[6, 5, 4, 3, 0, 0]), Verdict::NotUnique);
        assert_eq!(table.matching(&[1, 2, 0, 0, 0, 0]).collect::<Vec<_>>(), (0..24).collect::<Vec<_>>());
        assert!(Table::new(&Graph::new(names(9), &[])).is_none());
        let triangle = Graph::new(names(3), &[(0, 1), (1, 2), (0, 2)]);
        let table = Table::new(&triangle).unwrap();
        assert!(table.is_empty());
        assert_eq!(table.verdict(&[0; 3]), Verdict::NoAnswer);
    }
}
