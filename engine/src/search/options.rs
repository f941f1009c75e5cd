//! The search's settings that persist from one search to the next (the protocols' options).

use super::time;

/// Settings that persist between searches.
#[derive(Clone, Debug)]
pub struct Options {
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub threads: usize,
    /// All threads share one history table. Off: each helper keeps its own, because the
    /// main thread's move ordering is better without updates from distant subtrees mixed in
    /// (smp-test, see the README).
    pub share_history: bool,
    /// Pseudo-Elo by which the side to move at the root expects to outscore its opponent: a
    /// draw is worth the WDL model's score of that edge less to it (and more to the opponent).
    pub contempt: i32,
    /// `UCI_LimitStrength` with `UCI_Elo`: play at this level (None: full strength).
    pub limit_elo: Option<u32>,
    /// Seed of the strength limit's move choice (0: from the clock).
    pub strength_seed: u64,
    /// Most nodes a second; set by the strength limit for one search.
    pub nps_limit: Option<u64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            multipv: 1,
            move_overhead_ms: time::DEFAULT_MOVE_OVERHEAD_MS,
            threads: 1,
            share_history: false,
            contempt: 0,
            limit_elo: None,
            strength_seed: 0,
            nps_limit: None,
        }
    }
}
