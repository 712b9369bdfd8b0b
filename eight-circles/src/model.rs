//! Graphs of circles, cases (pre-filled digits) and verdicts.
//!
//! A graph has k circles, each with a name, and connections between pairs of them. A solution
//! puts the digits 1..=k in the circles, each digit once, so that no two connected circles hold
//! consecutive digits. A case gives one digit 0..=k per circle, 0 for an empty circle.

use std::fmt::Write as _;

/// Most circles a graph may have: digit sets are bitmasks of `u32` (bits 1..=k, with room for
/// the neighbours `d - 1` and `d + 1` of every digit), and the reference tries every one of k!
/// permutations only up to 9.
pub const MAX_CIRCLES: usize = 16;

/// Longest accepted circle name.
pub const MAX_NAME_LEN: usize = 16;

/// Most cases an input may announce (the judge stops at 10).
pub const MAX_CASES: u64 = 10_000_000;

/// The circles of the judge's graph, in input order.
pub const BUILTIN_NAMES: [&str; 8] = ["A", "B", "C", "D", "E", "F", "G", "H"];

/// The judge's 17 connections, as indices into [`BUILTIN_NAMES`].
pub const BUILTIN_CONNECTIONS: [(usize, usize); 17] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (1, 2),
    (1, 4),
    (1, 5),
    (2, 3),
    (2, 4),
    (2, 5),
    (2, 6),
    (3, 5),
    (3, 6),
    (4, 5),
    (4, 7),
    (5, 6),
    (5, 7),
    (6, 7),
];

/// Circles with names and the connections between them: a simple undirected graph of
/// 1..=[`MAX_CIRCLES`] circles.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Graph {
    names: Vec<String>,
    /// `neighbours[v]` has bit `u` set when `v` and `u` are connected; never bit `v` itself.
    neighbours: Vec<u16>,
}

impl Graph {
    /// A graph of the circles `names` joined by `connections` (pairs of indices into `names`).
    ///
    /// # Panics
    /// When there are no circles or more than [`MAX_CIRCLES`], or a connection joins a circle
    /// to itself or names a circle that does not exist. (The parser and the generator check
    /// these first and report them as errors.)
    pub fn new(names: Vec<String>, connections: &[(usize, usize)]) -> Self {
        let circles = names.len();
        assert!(
            (1..=MAX_CIRCLES).contains(&circles),
            "a graph has 1 to {MAX_CIRCLES} circles, not {circles}"
        );
        let mut neighbours = vec![0u16; circles];
        for &(a, b) in connections {
            assert!(a < circles && b < circles && a != b, "bad connection {a}-{b} in a graph of {circles}");
            neighbours[a] |= 1 << b;
            neighbours[b] |= 1 << a;
        }
        Graph { names, neighbours }
    }

    /// The judge's graph: circles A..H and the 17 connections of the puzzle.
    pub fn builtin() -> Self {
        Graph::new(BUILTIN_NAMES.map(str::to_owned).to_vec(), &BUILTIN_CONNECTIONS)
    }

    /// Number of circles, k; the digits are 1..=k.
    pub fn circles(&self) -> usize {
        self.names.len()
    }

    /// The circles' names, in input order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The circles connected to `circle`, as a bitmask over circle indices.
    pub fn neighbours(&self, circle: usize) -> u16 {
        self.neighbours[circle]
    }

    /// True when circles `a` and `b` are connected.
    pub fn connected(&self, a: usize, b: usize) -> bool {
        self.neighbours[a] & (1 << b) != 0
    }

    /// Every connection once, as `(a, b)` with `a < b`, in increasing order.
    pub fn connections(&self) -> Vec<(usize, usize)> {
        (0..self.circles())
            .flat_map(|a| (a + 1..self.circles()).filter(move |&b| self.connected(a, b)).map(move |b| (a, b)))
            .collect()
    }

    /// True when `digits` solves the puzzle: exactly 1..=k, each once, and no two connected
    /// circles holding consecutive digits.
    pub fn is_solution(&self, digits: &[u8]) -> bool {
        let k = self.circles();
        let mut seen = vec![false; k + 1];
        let each_once = digits.len() == k
            && digits
                .iter()
                .all(|&d| (1..=k).contains(&(d as usize)) && !std::mem::replace(&mut seen[d as usize], true));
        each_once && self.connections().iter().all(|&(a, b)| digits[a].abs_diff(digits[b]) != 1)
    }

    /// True when `solution` keeps every digit pre-filled in `case`.
    pub fn keeps_prefills(case: &[u8], solution: &[u8]) -> bool {
        case.len() == solution.len()
            && case.iter().zip(solution).all(|(&given, &digit)| given == 0 || given == digit)
    }

    /// The graph in the `--graph` file format (see the crate README), with a comment line on top.
    pub fn to_file(&self, comment: &str) -> String {
        let mut out = String::new();
        for line in comment.lines() {
            let _ = writeln!(out, "# {line}");
        }
        let _ = writeln!(out, "circles {}", self.names.join(" "));
        let mut connections = self.connections().into_iter().peekable();
        while let Some((a, b)) = connections.next() {
            // One line per first circle, as the puzzle statement lists them.
            let _ = write!(out, "{}-{}", self.names[a], self.names[b]);
            let same_line = connections.peek().is_some_and(|&(next, _)| next == a);
            out.push(if same_line { ' ' } else { '\n' });
        }
        out
    }
}

/// The cases of one input: `circles` digits per case, stored flat.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Cases {
    circles: usize,
    digits: Vec<u8>,
}

impl Cases {
    /// No cases yet, each to hold `circles` digits.
    pub fn new(circles: usize) -> Self {
        Cases { circles, digits: Vec::new() }
    }

    /// Room for `cases` more cases without reallocating.
    pub fn reserve(&mut self, cases: usize) {
        self.digits.reserve(cases * self.circles);
    }

    /// Appends one case.
    ///
    /// # Panics
    /// When `case` does not hold exactly one digit per circle.
    pub fn push(&mut self, case: &[u8]) {
        assert_eq!(case.len(), self.circles, "a case holds one digit per circle");
        self.digits.extend_from_slice(case);
    }

    /// Digits per case.
    pub fn circles(&self) -> usize {
        self.circles
    }

    /// Number of cases.
    pub fn len(&self) -> usize {
        self.digits.len().checked_div(self.circles).unwrap_or(0)
    }

    /// True when there is no case.
    pub fn is_empty(&self) -> bool {
        self.digits.is_empty()
    }

    /// The cases in order, each one digit per circle (0 for an empty circle).
    pub fn iter(&self) -> std::slice::ChunksExact<'_, u8> {
        self.digits.chunks_exact(self.circles.max(1))
    }
}

impl<'a> IntoIterator for &'a Cases {
    type Item = &'a [u8];
    type IntoIter = std::slice::ChunksExact<'a, u8>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The judge's three answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict<S> {
    /// No solution keeps the pre-filled digits.
    NoAnswer,
    /// Exactly one solution: this one.
    Unique(S),
    /// At least two solutions.
    NotUnique,
}

impl<S> Verdict<S> {
    /// The verdict with the unique solution mapped by `f`.
    pub fn map<T>(self, f: impl FnOnce(S) -> T) -> Verdict<T> {
        match self {
            Verdict::NoAnswer => Verdict::NoAnswer,
            Verdict::Unique(solution) => Verdict::Unique(f(solution)),
            Verdict::NotUnique => Verdict::NotUnique,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_graph_has_the_puzzle_connections() {
        let graph = Graph::builtin();
        assert_eq!(graph.circles(), 8);
        assert_eq!(graph.connections(), BUILTIN_CONNECTIONS);
        let degrees: Vec<u32> = (0..8).map(|v| graph.neighbours(v).count_ones()).collect();
        assert_eq!(degrees, [3, 4, 6, 4, 4, 6, 4, 3]);
    }

    #[test]
    fn recognises_the_sample_solution_and_rejects_others() {
        let graph = Graph::builtin();
        assert!(graph.is_solution(&[7, 3, 1, 4, 5, 8, 6, 2]));
        // A-B hold 7 and 6.
        assert!(!graph.is_solution(&[7, 6, 1, 4, 5, 8, 3, 2]));
        // A digit twice, a digit out of range, the wrong length.
        assert!(!graph.is_solution(&[7, 3, 1, 4, 5, 8, 6, 6]));
        assert!(!graph.is_solution(&[7, 3, 1, 4, 5, 8, 6, 9]));
        assert!(!graph.is_solution(&[7, 3, 1, 4, 5, 8, 6]));
    }

    #[test]
    fn prefills_are_kept_or_not() {
        assert!(Graph::keeps_prefills(&[7, 0, 0], &[7, 1, 3]));
        assert!(!Graph::keeps_prefills(&[7, 0, 2], &[7, 1, 3]));
    }

    #[test]
    fn file_form_lists_connections_by_first_circle() {
        let file = Graph::builtin().to_file("the judge's graph");
        assert!(file.starts_with("# the judge's graph\ncircles A B C D E F G H\nA-B A-C A-D\nB-C B-E B-F\n"));
        assert!(file.ends_with("F-G F-H\nG-H\n"));
    }

    #[test]
    fn cases_are_stored_flat() {
        let mut cases = Cases::new(3);
        cases.push(&[1, 0, 0]);
        cases.push(&[0, 2, 3]);
        assert_eq!(cases.len(), 2);
        assert_eq!(cases.iter().nth(1), Some(&[0, 2, 3][..]));
    }
}
