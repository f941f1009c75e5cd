//! What the threads of one search share: the `Job` (the transposition table, the abort flag,
//! the registry of split points, the counters) and the young-brothers-wait `SplitPoint`, with
//! the `NodeInfo` a split point hands to its helpers. Plain data and its locking: the tree
//! walk is in `searcher.rs`, the split loop and the helper threads in `smp.rs`.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use crossbeam_utils::CachePadded;
use parking_lot::Mutex;

use crate::board::Position;
use crate::moves::Move;

use super::history::{Context, History, Killers};
use super::tt::TranspositionTable;

/// Counters of the parallel search for the last search, summed over all threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SmpStats {
    /// Split points created (a node handing its remaining moves to idle threads).
    pub splits: u64,
    /// Times a thread joined another thread's split point.
    pub joins: u64,
    /// Split points ended early by a beta cutoff.
    pub split_cutoffs: u64,
    /// Transposition-table accesses that found their stripe locked and had to wait.
    pub tt_lock_waits: u64,
    /// Nodes searched by threads other than the main one.
    pub helper_nodes: u64,
    /// Microseconds threads spent looking for work (helpers without a split point to join,
    /// owners waiting for their helpers with nothing to help below), summed over threads.
    pub idle_us: u64,
}

/// What a node knows before its move loop; a split point hands it to every helper.
#[derive(Clone, Debug)]
pub struct NodeInfo {
    /// The root: moves are searched the root's way and their results kept one by one.
    pub root: bool,
    pub ply: usize,
    /// Remaining depth in quarter plies (after IIR and the single-reply extension).
    pub depth: i32,
    pub beta: i32,
    pub pv_node: bool,
    /// An expected cut node (see `alpha_beta`).
    pub cut_node: bool,
    pub tt_move: Move,
    /// Extension of the hash move from the singular-extension test (may be negative).
    pub singular_ext: i32,
    pub in_check: bool,
    pub eval: i32,
    pub improving: bool,
    pub may_extend: bool,
    pub prev: Move,
    pub ctx: Context,
    pub killers: [Move; 2],
}

/// A root move searched at a split point that raised alpha when it finished.
#[derive(Clone, Debug)]
pub struct RootResult {
    pub mv: Move,
    pub score: i32,
    pub pv: Vec<Move>,
    pub seldepth: i32,
}

/// The part of a split point that changes, guarded by its lock.
pub struct SplitState {
    /// The remaining legal moves in the order the picker gave them, each with "came from the
    /// bad-capture stage" (reduced like a quiet).
    pub moves: Vec<(Move, bool)>,
    pub next: usize,
    /// Legal moves taken so far at this node, before and after the split.
    pub legal: usize,
    /// Moves searched so far at this node.
    pub searched: usize,
    /// Moves taken and still being searched by some thread.
    pub in_flight: usize,
    pub alpha: i32,
    pub best: i32,
    pub best_move: Move,
    /// The best line from this node (PV nodes only).
    pub pv: Vec<Move>,
    /// At the root: every move that raised alpha, with its score, line and selective depth.
    pub root_results: Vec<RootResult>,
    /// Late-move pruning has started: further quiet moves are skipped.
    pub skip_quiets: bool,
    /// Threads other than the owner working here.
    pub helpers: usize,
    /// The owner has stopped taking moves: nobody may join any more.
    pub closed: bool,
}

pub struct SplitPoint {
    pub node: NodeInfo,
    /// The position at the node, with its key history for repetitions.
    pub pos: Position,
    /// Moves and static evals of the path from the root (for continuation history and
    /// "improving" below the split point).
    pub path_moves: Vec<Move>,
    pub path_evals: Vec<i32>,
    pub root_depth: i32,
    /// The owner's killers when it split: the helpers' start in this part of the tree.
    pub killers: Killers,
    /// The split point this node lies under (the owner's), if any.
    pub parent: Option<Arc<SplitPoint>>,
    /// Set by the thread that finds a beta cutoff: everyone below stops. Read at every node
    /// below, so it has a cache line of its own: a line shared with the state's lock would
    /// be pulled away from the searching threads each time another thread takes a move.
    pub cutoff: CachePadded<AtomicBool>,
    /// The owner has run out of moves and waits for its helpers (it can only help below).
    pub owner_waiting: CachePadded<AtomicBool>,
    pub state: CachePadded<Mutex<SplitState>>,
}

impl SplitPoint {
    /// This split point, then each one above it up to the outermost.
    fn chain(&self) -> impl Iterator<Item = &SplitPoint> {
        std::iter::successors(Some(self), |x| x.parent.as_deref())
    }

    /// Is `sp` one of the split points above this one?
    pub fn lies_under(&self, sp: &Arc<SplitPoint>) -> bool {
        self.chain().skip(1).any(|x| std::ptr::eq(x, &**sp))
    }

    /// Does the owner of this split point or of one above it wait for its helpers?
    pub fn owner_waiting_here_or_above(&self) -> bool {
        self.chain()
            .any(|x| x.owner_waiting.load(Ordering::Relaxed))
    }

    /// Has this split point or one above it been cut off?
    pub fn cut_here_or_above(&self) -> bool {
        self.chain().any(|x| x.cutoff.load(Ordering::Relaxed))
    }
}

/// Everything the threads of one search share. The flags read at every node (`abort`) and the
/// fields written while others search (the registry, the idle count, the counters) each
/// have a cache line of their own, so a write by one thread does not slow the others' reads.
pub struct Job {
    pub tt: Arc<TranspositionTable>,
    /// The history all threads share, or `None` when each helper keeps its own.
    pub shared_history: Option<Arc<History>>,
    pub threads: usize,
    /// Set when the search must end now (stop, time, node limit): every thread unwinds.
    pub abort: CachePadded<AtomicBool>,
    /// The main thread has finished: helpers go back to sleep.
    pub done: CachePadded<AtomicBool>,
    /// Split points that may still have moves for a helper.
    pub registry: CachePadded<Mutex<Vec<Arc<SplitPoint>>>>,
    /// Split points in the registry (read without the lock by idle threads).
    pub open: CachePadded<AtomicUsize>,
    /// Threads looking for work (idle helpers and owners waiting for their helpers).
    pub idle: CachePadded<AtomicUsize>,
    /// Nodes per thread, published every few thousand nodes and at the end.
    pub nodes: Box<[CachePadded<AtomicU64>]>,
    pub splits: CachePadded<AtomicU64>,
    pub joins: CachePadded<AtomicU64>,
    pub split_cutoffs: CachePadded<AtomicU64>,
    pub idle_us: CachePadded<AtomicU64>,
    /// History and pawn hash of the helpers must be cleared before this search (a new game).
    pub clear_epoch: u64,
    /// The score of a draw for the side to move at the root (contempt; `DRAW` without).
    pub root_draw: i32,
}

impl Job {
    pub fn new(
        tt: Arc<TranspositionTable>,
        shared_history: Option<Arc<History>>,
        threads: usize,
        clear_epoch: u64,
    ) -> Job {
        Job {
            tt,
            shared_history,
            threads,
            abort: CachePadded::new(AtomicBool::new(false)),
            done: CachePadded::new(AtomicBool::new(false)),
            registry: CachePadded::new(Mutex::new(Vec::new())),
            open: CachePadded::new(AtomicUsize::new(0)),
            idle: CachePadded::new(AtomicUsize::new(0)),
            nodes: (0..threads)
                .map(|_| CachePadded::new(AtomicU64::new(0)))
                .collect(),
            splits: CachePadded::new(AtomicU64::new(0)),
            joins: CachePadded::new(AtomicU64::new(0)),
            split_cutoffs: CachePadded::new(AtomicU64::new(0)),
            idle_us: CachePadded::new(AtomicU64::new(0)),
            clear_epoch,
            root_draw: 0,
        }
    }

    pub fn aborted(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }

    /// Counts the time since `since` as idle.
    pub fn add_idle(&self, since: std::time::Instant) {
        let us = since.elapsed().as_micros() as u64;
        self.idle_us.fetch_add(us, Ordering::Relaxed);
    }

    /// Nodes published by every thread but `except`.
    pub fn other_nodes(&self, except: usize) -> u64 {
        self.nodes
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != except)
            .map(|(_, n)| n.load(Ordering::Relaxed))
            .sum()
    }

    /// Publishes a split point for helpers.
    pub fn publish(&self, sp: &Arc<SplitPoint>) {
        self.splits.fetch_add(1, Ordering::Relaxed);
        self.registry.lock().push(sp.clone());
        self.open.fetch_add(1, Ordering::Relaxed);
    }

    /// Removes a finished split point.
    pub fn withdraw(&self, sp: &Arc<SplitPoint>) {
        let mut reg = self.registry.lock();
        if let Some(i) = reg.iter().position(|x| Arc::ptr_eq(x, sp)) {
            reg.swap_remove(i);
            self.open.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Finds a split point with moves left and joins it as a helper (counted in its
    /// `helpers`); `under`: only split points below this one (an owner helping its helpers).
    /// The deepest remaining subtree (nearest the root) is preferred: most work per join.
    pub fn find_work(
        &self,
        under: Option<&Arc<SplitPoint>>,
        max_helpers: usize,
    ) -> Option<Arc<SplitPoint>> {
        if self.open.load(Ordering::Relaxed) == 0 {
            return None;
        }
        let reg = self.registry.lock();
        let eligible = |sp: &&Arc<SplitPoint>| {
            !sp.cutoff.load(Ordering::Relaxed) && under.is_none_or(|u| sp.lies_under(u))
        };
        let join = |sp: &Arc<SplitPoint>| {
            let mut st = sp.state.lock();
            let ok = !st.closed && st.next < st.moves.len() && st.helpers < max_helpers;
            if ok {
                st.helpers += 1;
                self.joins.fetch_add(1, Ordering::Relaxed);
            }
            ok
        };
        // The deepest first; any other with moves left when that one is full or finished.
        let deepest = reg.iter().filter(eligible).max_by_key(|sp| sp.node.depth)?;
        if join(deepest) {
            return Some(deepest.clone());
        }
        reg.iter()
            .filter(eligible)
            .find(|sp| !Arc::ptr_eq(sp, deepest) && join(sp))
            .cloned()
    }
}
