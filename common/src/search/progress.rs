//! A running search's report of its work, read by whoever called it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// A running search's report of its work, shared by all its threads. Cloning is cheap. The
/// hidden report ([`Progress::default`]) takes nothing and costs nothing: searches ask
/// [`Progress::is_shown`] and only poll when it is true.
#[derive(Debug, Clone, Default)]
pub struct Progress {
    shared: Option<Arc<Counts>>,
}

/// What a search has reported so far.
#[derive(Debug, Default)]
struct Counts {
    nodes: AtomicU64,
    /// The search's estimate of its whole tree in nodes, plus `stage_start`; 0 while it has
    /// none.
    estimate: AtomicU64,
    /// Nodes reported before the current stage began.
    stage_start: AtomicU64,
    /// What is being searched, when the work has stages (empty otherwise).
    stage: Mutex<String>,
}

impl Progress {
    /// A report that keeps what the searches tell it, for a caller that reads it while they
    /// run (from another thread): [`Progress::nodes`], [`Progress::estimate`],
    /// [`Progress::stage`]. Every clone reads and writes the same counts.
    pub fn watched() -> Self {
        Progress { shared: Some(Arc::default()) }
    }

    /// Whether anyone reads the report.
    pub fn is_shown(&self) -> bool {
        self.shared.is_some()
    }

    /// Adds `nodes` visited since the last report.
    pub fn add_nodes(&self, nodes: u64) {
        if let Some(counts) = &self.shared {
            counts.nodes.fetch_add(nodes, Ordering::Relaxed);
        }
    }

    /// Sets the estimated size of the whole search, in nodes, counting those it reported
    /// already (in this stage, see [`Progress::set_stage`]).
    pub fn set_estimate(&self, nodes: u64) {
        if let Some(counts) = &self.shared {
            let start = counts.stage_start.load(Ordering::Relaxed);
            counts.estimate.store(start.saturating_add(nodes), Ordering::Relaxed);
        }
    }

    /// Begins a new stage of the work, a search of its own named by `name` (called only when
    /// the report is shown), forgetting the estimate of the stage before.
    pub fn set_stage(&self, name: impl FnOnce() -> String) {
        if let Some(counts) = &self.shared {
            counts.stage_start.store(counts.nodes.load(Ordering::Relaxed), Ordering::Relaxed);
            counts.estimate.store(0, Ordering::Relaxed);
            *counts.stage.lock().unwrap_or_else(PoisonError::into_inner) = name();
        }
    }

    /// Nodes reported so far, over all stages.
    pub fn nodes(&self) -> u64 {
        self.shared.as_ref().map_or(0, |counts| counts.nodes.load(Ordering::Relaxed))
    }

    /// The estimated nodes of all the work up to the end of the current stage (the nodes of
    /// the stages before, plus the stage's own estimate); 0 while the stage has none.
    pub fn estimate(&self) -> u64 {
        self.shared.as_ref().map_or(0, |counts| counts.estimate.load(Ordering::Relaxed))
    }

    /// The name of the current stage; empty when the work has none.
    pub fn stage(&self) -> String {
        self.shared.as_ref().map_or_else(String::new, |counts| {
            counts.stage.lock().unwrap_or_else(PoisonError::into_inner).clone()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stage_counts_its_estimate_from_its_start() {
        let progress = Progress::watched();
        progress.add_nodes(1000);
        progress.set_estimate(5000);
        assert_eq!(progress.estimate(), 5000);
        progress.set_stage(|| "board 2".to_owned());
        assert_eq!(progress.estimate(), 0, "the last stage's estimate is gone");
        progress.set_estimate(300);
        assert_eq!(progress.estimate(), 1300);
        assert_eq!(progress.stage(), "board 2");
        let hidden = Progress::default();
        hidden.set_stage(|| unreachable!("a hidden report names no stage"));
    }

    #[test]
    fn a_watched_report_adds_up_the_threads() {
        let progress = Progress::watched();
        std::thread::scope(|scope| {
            for _ in 0..3 {
                scope.spawn(|| progress.clone().add_nodes(7));
            }
        });
        assert_eq!(progress.nodes(), 21);
    }

    #[test]
    fn a_hidden_report_keeps_nothing() {
        let hidden = Progress::default();
        hidden.add_nodes(5);
        hidden.set_estimate(9);
        assert!(!hidden.is_shown());
        assert_eq!((hidden.nodes(), hidden.estimate(), hidden.stage()), (0, 0, String::new()));
    }
}
