//! Parallel search: the helper-thread pool, YBW split points and their statistics.

/// Counters of the parallel search for the last search, summed over all threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SmpStats {
    /// Split points created (a node handing its remaining moves to idle threads).
    pub splits: u64,
    /// Times a thread joined another thread's split point.
    pub joins: u64,
    /// Split points ended early by a beta cutoff while helpers were working there.
    pub split_cutoffs: u64,
    /// Transposition-table accesses that found their stripe locked and had to wait.
    pub tt_lock_waits: u64,
    /// Nodes searched by threads other than the main one.
    pub helper_nodes: u64,
}
