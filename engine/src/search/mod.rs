//! The engine core: iterative-deepening PVS over the 0x88 board, behind a small API that the
//! protocols drive. The core never prints; it hands iteration reports to a callback and returns
//! the best move and the expected reply.
//!
//! Files: `control` (stop and ponder flags), `report` (iterations and the result), `options`
//! (settings between searches), `params` (every tunable), `limits` (what a `go` asks for), `time` (deadlines), `tt`
//! (transposition table), `history` (killers, counter moves, history), `picker` (staged move
//! ordering), `searcher` (the per-search context: iterative deepening, alpha-beta), `quiescence`,
//! `smp` (the YBW split loop and the helper threads), `shared` (what the threads of a search
//! share), `correction` (correction history), `strength` (the strength limit). Scores and
//! mate helpers are in `crate::score`.

pub mod control;
pub mod correction;
pub mod history;
pub mod limits;
pub mod options;
pub mod params;
pub mod picker;
mod quiescence;
pub mod report;
pub mod searcher;
pub mod shared;
pub mod smp;
pub mod strength;
pub mod time;
pub mod tt;
pub mod tt_bucket;
pub mod tune;

use std::sync::atomic::Ordering;
use std::sync::Arc;

use crate::board::Position;
use crate::eval::{EvalStats, Evaluator};

pub use crate::score::{mate_in, INFINITY, MATE, MATE_BOUND};
pub use control::Control;
pub use limits::Limits;
pub use options::Options;
pub use report::{Iteration, Report, SearchResult};
pub use shared::SmpStats;
pub use tt::{Bound, TranspositionTable};

use history::History;
use searcher::Search;
use shared::Job;
use smp::Pool;

/// Most search threads (the `Threads` option's maximum).
pub const MAX_THREADS: usize = 256;

/// The score of a draw for the side to move at the root under `contempt` pseudo-Elo: minus
/// the centipawn equivalent, by the WDL model in this position, of expecting to outscore the
/// opponent by that much. Zero without contempt.
pub fn root_draw_score(pos: &Position, contempt: i32) -> i32 {
    if contempt == 0 {
        return 0;
    }
    let f = crate::wdl::Features::of(pos);
    -crate::wdl::weights::MODEL.contempt_cp(&f, contempt as f64)
}

/// Everything that lives from one search to the next: the shared hash table, the main
/// thread's pawn hash and history, the helper threads (parked between searches) and the
/// options.
pub struct Engine {
    /// Shared with the helpers during a search only; between searches this is the one owner,
    /// so resizing and clearing need no lock.
    tt: Arc<TranspositionTable>,
    evaluator: Evaluator,
    history: Arc<History>,
    pool: Pool,
    /// Bumped by `clear`, so helpers clear their own tables before the next search.
    clear_epoch: u64,
    smp_stats: SmpStats,
    /// The strength limit's random generator and the full weights while weakened.
    handicap: strength::Handicap,
    pub options: Options,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(tt::DEFAULT_HASH_MB)
    }
}

impl Engine {
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            evaluator: Evaluator::new(),
            history: Arc::new(History::new()),
            pool: Pool::new(),
            clear_epoch: 0,
            smp_stats: SmpStats::default(),
            handicap: strength::Handicap::new(),
            options: Options::default(),
        }
    }

    /// The table, for changes between searches (the helpers hold no reference then).
    fn tt_mut(&mut self) -> &mut TranspositionTable {
        if Arc::get_mut(&mut self.tt).is_none() {
            // Not reachable (a search always takes its references back), but a fresh table
            // is a safe answer.
            self.tt = Arc::new(TranspositionTable::new(self.tt.size_mb()));
        }
        Arc::get_mut(&mut self.tt).expect("a fresh table has one owner")
    }

    /// Resizes the hash table (contents are lost).
    pub fn set_hash(&mut self, mb: usize) {
        self.tt_mut().resize(mb);
    }

    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Forget everything learnt: hash table, pawn hashes, histories (a new game).
    pub fn clear(&mut self) {
        self.tt_mut().clear();
        self.evaluator.clear();
        self.history.clear();
        self.clear_epoch += 1;
        // A new game replays a seeded strength limit's choices from the start.
        self.handicap.reseed(self.options.strength_seed);
    }

    /// Parallel-search counters of the last search (all zero on one thread).
    pub fn smp_stats(&self) -> SmpStats {
        self.smp_stats
    }

    pub fn eval_stats(&self) -> EvalStats {
        self.evaluator.stats
    }

    pub fn evaluator(&mut self) -> &mut Evaluator {
        &mut self.evaluator
    }

    /// Searches `pos` (whose move history counts for repetitions) within `limits` on
    /// `options.threads` threads. Reports go to `reporter` on the calling thread; `control`
    /// stops the search or ends pondering.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &Control,
        reporter: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        // The strength limit searches on one thread (the node rate is the main thread's),
        // with enough lines to err among and its weakened weights.
        let level = self.options.limit_elo.map(strength::Level::new);
        self.handicap.prepare(
            level.as_ref(),
            self.options.strength_seed,
            &mut self.evaluator,
        );
        let mut options = self.options.clone();
        if let Some(l) = &level {
            options.threads = 1;
            options.multipv = options.multipv.max(l.candidates);
            options.nps_limit = Some(l.nps);
        }
        self.pool.resize(options.threads.clamp(1, MAX_THREADS) - 1);
        let tt = self.tt_mut();
        tt.new_search();
        tt.take_waits();
        let shared_history = options.share_history.then(|| self.history.clone());
        let mut job = Job::new(
            self.tt.clone(),
            shared_history,
            self.pool.helpers() + 1,
            self.clear_epoch,
        );
        job.root_draw = root_draw_score(pos, self.options.contempt);
        let job = Arc::new(job);
        self.pool.start(&job);
        let (mut result, candidates) = {
            let mut s = Search::new(
                pos,
                limits,
                control,
                &options,
                &job,
                &mut self.evaluator,
                &self.history,
            );
            let r = s.run(reporter);
            (r, s.candidates().to_vec())
        };
        if let Some(l) = &level {
            if !candidates.is_empty() {
                let c = candidates[self.handicap.choose(l, &candidates)];
                result.best = c.mv;
                result.ponder = c.ponder;
                result.score = c.score;
            }
        }
        // Every split point of the main thread is finished; release the helpers.
        job.abort.store(true, Ordering::Relaxed);
        job.done.store(true, Ordering::Release);
        self.pool.wait();
        self.smp_stats = SmpStats {
            splits: job.splits.load(Ordering::Relaxed),
            joins: job.joins.load(Ordering::Relaxed),
            split_cutoffs: job.split_cutoffs.load(Ordering::Relaxed),
            tt_lock_waits: self.tt.take_waits(),
            helper_nodes: job.other_nodes(0),
            idle_us: job.idle_us.load(Ordering::Relaxed),
        };
        result.nodes += self.smp_stats.helper_nodes;
        result
    }
}
