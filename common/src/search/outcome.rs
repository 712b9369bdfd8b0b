//! What a search found: its [`Outcome`], and the searches one case's answer needs.

use crate::search::Progress;

/// The result of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome<S> {
    /// The first solution found, if any.
    pub first: Option<S>,
    /// Solutions found: all of them, or the limit when it was reached.
    pub found: u64,
    /// Nodes visited: the work done, independent of the machine.
    pub nodes: u64,
}

impl<S> Outcome<S> {
    /// No solution, after `nodes` nodes.
    pub fn none(nodes: u64) -> Self {
        Outcome { first: None, found: 0, nodes }
    }

    /// The same outcome with the solution carried over by `map`.
    pub fn map<T>(self, map: impl FnOnce(S) -> T) -> Outcome<T> {
        Outcome { first: self.first.map(map), found: self.found, nodes: self.nodes }
    }
}

/// The line printed for `--count`: `N solutions`, or `at least N solutions (counting stopped at
/// --limit L)` when the count reached the limit.
pub fn count_text(count: u64, limit: u64) -> String {
    let noun = if count == 1 { "solution" } else { "solutions" };
    if count >= limit {
        format!("at least {count} {noun} (counting stopped at --limit {limit})")
    } else {
        format!("{count} {noun}")
    }
}

/// Runs the searches one case's answer needs, all reporting to `progress`: with `count_limit`,
/// the solutions counted up to it; and a solution, to decide the case, or with a count to draw
/// it when `show` asks for it. `search(limit, progress)` searches for up to `limit` solutions.
///
/// # Complexity
/// One search, or two (the count, then one solution to show) when both are asked for and the
/// count found any.
pub fn settle<S>(
    count_limit: Option<u64>,
    show: bool,
    progress: &Progress,
    search: impl Fn(u64, Progress) -> Outcome<S>,
) -> (Option<u64>, Option<S>) {
    match count_limit {
        None => (None, search(1, progress.clone()).first),
        Some(limit) => {
            let count = search(limit, progress.clone()).found;
            let first = if show && count > 0 { search(1, progress.clone()).first } else { None };
            (Some(count), first)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    #[test]
    fn counts_name_the_limit_when_they_reach_it() {
        assert_eq!(count_text(1, 10), "1 solution");
        assert_eq!(count_text(0, 10), "0 solutions");
        assert_eq!(count_text(10, 10), "at least 10 solutions (counting stopped at --limit 10)");
    }

    #[test]
    fn settling_counts_then_finds_a_solution_to_show() {
        let searches = Mutex::new(Vec::new());
        let search = |limit: u64, progress: Progress| {
            searches.lock().unwrap().push(limit);
            progress.add_nodes(10);
            Outcome { first: Some(limit), found: limit.min(3), nodes: 10 }
        };
        let progress = Progress::watched();
        assert_eq!(settle(None, true, &progress, search), (None, Some(1)));
        assert_eq!(settle(Some(5), false, &progress, search), (Some(3), None));
        assert_eq!(settle(Some(5), true, &progress, search), (Some(3), Some(1)));
        assert_eq!(*searches.lock().unwrap(), [1, 5, 5, 1]);
        assert_eq!(progress.nodes(), 40, "every search reports to the caller's progress");
    }
}
