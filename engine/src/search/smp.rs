//! Parallel search, young brothers wait (typhoon's design): a node searches its first move (at
//! a PV node) or its first few moves (at an expected ALL node) alone; then, when a thread is
//! idle, it becomes a *split point*: its remaining moves go into a shared list from which the
//! owner and any helpers take moves one at a time, under the split point's lock, sharing
//! alpha, the best score, the best move and the PV. A beta cutoff at a split point stops every
//! thread below it at once (each thread checks the split points above it at every node); an
//! owner that runs out of moves helps its own helpers (joins split points below its own)
//! instead of spinning.
//!
//! Here live the split itself (the loop that owner and helpers share, an owner's wait for its
//! helpers, a helper's idle loop) and the helper-thread `Pool` (threads started once and parked
//! between searches). The shared data (`Job`, `SplitPoint`) is in `shared.rs`; the tree walk
//! in `searcher.rs`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use crossbeam_utils::{Backoff, CachePadded};
use parking_lot::{Condvar, Mutex};

use crate::board::attacks::CheckInfo;
use crate::eval::Evaluator;
use crate::moves::Move;

use super::history::History;
use super::params::*;
use super::picker::Picker;
use super::searcher::{Step, Tree};
use super::shared::{Job, NodeInfo, RootResult, SplitPoint, SplitState};

/// Stack of every search thread: deep recursion with move lists on the stack.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// A node's results after a split: the loop's variables, brought up to date.
pub(super) struct AfterSplit {
    pub(super) best: i32,
    pub(super) best_move: Move,
}

impl Tree<'_> {
    /// May the root share its remaining moves now?
    pub(super) fn may_split_root(&self, depth: i32) -> bool {
        self.job.threads > 1
            && depth >= param!(SPLIT_MIN_DEPTH)
            && self.job.idle.load(Ordering::Relaxed) > 0
    }

    /// Is this node worth sharing now? Deep enough, its eldest brothers searched (one at a
    /// PV node, a few at an expected ALL node — just one when an owner above waits idle for
    /// this thread), and a thread is looking for work.
    pub(super) fn may_split(&self, n: &NodeInfo, searched: usize) -> bool {
        let all_moves = || {
            let owner_idle = self
                .split
                .as_ref()
                .is_some_and(|sp| sp.owner_waiting_here_or_above());
            if owner_idle {
                param!(SPLIT_ALL_MOVES_OWNER_WAITING)
            } else {
                param!(SPLIT_ALL_MOVES)
            }
        };
        self.job.threads > 1
            && n.depth >= param!(SPLIT_MIN_DEPTH)
            && searched
                >= if n.pv_node {
                    param!(SPLIT_PV_MOVES)
                } else {
                    all_moves()
                }
            && self.splits_owned < param!(SPLIT_MAX_PER_THREAD)
            && self.job.idle.load(Ordering::Relaxed) > 0
    }

    /// Turns this node into a split point: its remaining legal moves, in the picker's order,
    /// go into a shared list; this thread searches them with whichever helpers join, then
    /// waits for (and helps) its helpers, and returns the node's result.
    pub(super) fn split(
        &mut self,
        n: &NodeInfo,
        picker: &mut Picker,
        ci: &CheckInfo,
        so_far: (i32, i32, Move),
        legal: usize,
        searched: usize,
    ) -> AfterSplit {
        let mut moves = Vec::new();
        while let Some(m) = picker.next(&self.pos, self.history, ci) {
            if self.pos.is_legal(m, ci) {
                moves.push((m, picker.in_bad_captures()));
            }
        }
        if moves.is_empty() {
            return AfterSplit {
                best: so_far.1,
                best_move: so_far.2,
            };
        }
        let counts = (legal, searched, picker.skip_quiets);
        self.split_with(n, moves, so_far, counts).0
    }

    /// The split itself, for a list of `moves` still to search (each with "bad capture"), given
    /// the node's (alpha, best, best move) and (legal moves, searched moves, quiets pruned) so
    /// far. Also returns, at the root, the moves that raised alpha.
    pub(super) fn split_with(
        &mut self,
        n: &NodeInfo,
        moves: Vec<(Move, bool)>,
        (alpha, best, best_move): (i32, i32, Move),
        (legal, searched, skip_quiets): (usize, usize, bool),
    ) -> (AfterSplit, Vec<RootResult>) {
        let ply = n.ply;
        let pv = if n.pv_node {
            self.pv[ply][ply..self.pv_len[ply].max(ply)].to_vec()
        } else {
            Vec::new()
        };
        let sp = Arc::new(SplitPoint {
            node: n.clone(),
            pos: self.pos.clone(),
            path_moves: self.moves[..=ply].to_vec(),
            path_evals: self.evals[..=ply].to_vec(),
            root_depth: self.root_depth,
            killers: self.killers.as_ref().clone(),
            parent: self.split.clone(),
            cutoff: CachePadded::new(AtomicBool::new(false)),
            owner_waiting: CachePadded::new(AtomicBool::new(false)),
            state: CachePadded::new(Mutex::new(SplitState {
                moves,
                next: 0,
                legal,
                searched,
                in_flight: 0,
                alpha,
                best,
                best_move,
                pv,
                root_results: Vec::new(),
                skip_quiets,
                helpers: 0,
                closed: false,
            })),
        });
        self.job.publish(&sp);
        let outer = self.split.replace(sp.clone());
        self.splits_owned += 1;
        self.split_loop(&sp);
        sp.state.lock().closed = true;
        self.wait_for_helpers(&sp);
        self.job.withdraw(&sp);
        self.splits_owned -= 1;
        self.split = outer;
        self.stopped = self.must_unwind();
        let mut st = sp.state.lock();
        if n.pv_node {
            let len = st.pv.len().min(MAX_PLY + 1 - ply);
            self.pv[ply][ply..ply + len].copy_from_slice(&st.pv[..len]);
            self.pv_len[ply] = ply + len;
        }
        let after = AfterSplit {
            best: st.best,
            best_move: st.best_move,
        };
        (after, std::mem::take(&mut st.root_results))
    }

    /// Takes moves from a split point and searches them until none is left or the split point
    /// is cut off; used by the owner and by its helpers alike.
    fn split_loop(&mut self, sp: &Arc<SplitPoint>) {
        let n = &sp.node;
        while !self.stopped {
            let (m, bad_capture, legal, searched, alpha, best) = {
                let mut st = sp.state.lock();
                if sp.cutoff.load(Ordering::Relaxed) {
                    break;
                }
                let mut taken = None;
                while st.next < st.moves.len() {
                    let (m, bad) = st.moves[st.next];
                    st.next += 1;
                    if !(st.skip_quiets && m.is_quiet()) {
                        taken = Some((m, bad));
                        break;
                    }
                }
                let Some((m, bad)) = taken else {
                    break;
                };
                st.legal += 1;
                // A move is reduced by its place among the moves searched before it, and
                // those other threads are still searching count: finished ones alone would
                // put it a place or more earlier than the serial search does, and reduce it
                // less (smp-test A/B, docs/smp.md).
                let searched = st.searched + st.in_flight;
                st.in_flight += 1;
                (m, bad, st.legal, searched, st.alpha, st.best)
            };
            let score = match self.search_move(n, m, legal, searched, bad_capture, alpha, best) {
                Step::Searched(score) => score,
                Step::Pruned => {
                    sp.state.lock().in_flight -= 1;
                    continue;
                }
                Step::PrunedQuiets => {
                    let mut st = sp.state.lock();
                    st.in_flight -= 1;
                    st.skip_quiets = true;
                    continue;
                }
            };
            let mut st = sp.state.lock();
            st.in_flight -= 1;
            if self.stopped {
                break;
            }
            st.searched += 1;
            if n.root && score > st.alpha {
                let mut pv = vec![m];
                pv.extend_from_slice(&self.pv[1][1..self.pv_len[1].max(1)]);
                let seldepth = self.seldepth;
                st.root_results.push(RootResult {
                    mv: m,
                    score,
                    pv,
                    seldepth,
                });
            }
            if score > st.best {
                st.best = score;
                if score > st.alpha {
                    st.best_move = m;
                    if n.pv_node {
                        let ply = n.ply;
                        st.pv.clear();
                        st.pv.push(m);
                        let child_len = self.pv_len[ply + 1].max(ply + 1);
                        st.pv
                            .extend_from_slice(&self.pv[ply + 1][ply + 1..child_len]);
                    }
                    if score >= n.beta {
                        sp.cutoff.store(true, Ordering::Relaxed);
                        self.job.split_cutoffs.fetch_add(1, Ordering::Relaxed);
                        break;
                    }
                    st.alpha = score;
                }
            }
        }
    }

    /// The owner of a split point without moves left waits for its helpers, and meanwhile
    /// helps them: it joins split points below its own (never any other, so it is free the
    /// moment its own helpers finish).
    fn wait_for_helpers(&mut self, sp: &Arc<SplitPoint>) {
        let backoff = Backoff::new();
        let mut since = Instant::now();
        self.job.idle.fetch_add(1, Ordering::Relaxed);
        sp.owner_waiting.store(true, Ordering::Relaxed);
        while sp.state.lock().helpers > 0 {
            if self.help_once(Some(sp), &mut since) {
                backoff.reset();
            } else {
                // The main thread waiting on slow helpers still watches the clock: nobody
                // else does.
                if self.main.is_some() {
                    self.poll();
                }
                backoff.snooze();
            }
        }
        sp.owner_waiting.store(false, Ordering::Relaxed);
        self.job.add_idle(since);
        self.job.idle.fetch_sub(1, Ordering::Relaxed);
    }

    /// Works at another thread's split point (this thread is already counted among its
    /// helpers), then leaves it; the thread's own position and stacks are kept aside.
    fn work_at(&mut self, sp: &Arc<SplitPoint>) {
        let ply = sp.node.ply;
        let saved_pos = std::mem::replace(&mut self.pos, sp.pos.clone());
        let saved_moves = self.moves;
        let saved_evals = self.evals;
        let saved_root_depth = self.root_depth;
        self.moves[..=ply].copy_from_slice(&sp.path_moves);
        self.evals[..=ply].copy_from_slice(&sp.path_evals);
        self.root_depth = sp.root_depth;
        *self.killers = sp.killers.clone();
        let outer = self.split.replace(sp.clone());
        self.split_loop(sp);
        sp.state.lock().helpers -= 1;
        self.split = outer;
        self.stopped = self.must_unwind();
        self.pos = saved_pos;
        self.moves = saved_moves;
        self.evals = saved_evals;
        self.root_depth = saved_root_depth;
    }

    /// An idle thread's step: joins a split point (below `under`, if given) and works there,
    /// counting the time since `since` as idle and restarting that clock; false when no split
    /// point had work.
    fn help_once(&mut self, under: Option<&Arc<SplitPoint>>, since: &mut Instant) -> bool {
        let Some(sp) = self.job.find_work(under, param!(SPLIT_MAX_HELPERS)) else {
            return false;
        };
        self.job.add_idle(*since);
        self.job.idle.fetch_sub(1, Ordering::Relaxed);
        self.work_at(&sp);
        self.job.idle.fetch_add(1, Ordering::Relaxed);
        *since = Instant::now();
        true
    }

    /// A helper thread's life during one search: join split points until the search ends.
    pub(super) fn idle_loop(&mut self) {
        let backoff = Backoff::new();
        let mut since = Instant::now();
        self.job.idle.fetch_add(1, Ordering::Relaxed);
        while !self.job.done.load(Ordering::Acquire) {
            if self.help_once(None, &mut since) {
                backoff.reset();
            } else if backoff.is_completed() {
                std::thread::yield_now();
            } else {
                backoff.snooze();
            }
        }
        self.job.add_idle(since);
        self.job.idle.fetch_sub(1, Ordering::Relaxed);
    }
}

struct PoolState {
    job: Option<Arc<Job>>,
    /// Bumped for every search, so a helper knows a job is new.
    generation: u64,
    /// Helpers still working on the current job.
    running: usize,
    quit: bool,
}

struct PoolShared {
    state: Mutex<PoolState>,
    /// Helpers wait here between searches.
    wake: Condvar,
    /// The main thread waits here for the helpers to finish a search.
    finished: Condvar,
}

/// Helper threads (the main search thread is the caller's): started once, parked on a
/// condition variable between searches, each with its own evaluator (pawn hash) and history.
pub struct Pool {
    shared: Arc<PoolShared>,
    handles: Vec<JoinHandle<()>>,
}

impl Pool {
    pub fn new() -> Pool {
        Pool {
            shared: Arc::new(PoolShared {
                state: Mutex::new(PoolState {
                    job: None,
                    generation: 0,
                    running: 0,
                    quit: false,
                }),
                wake: Condvar::new(),
                finished: Condvar::new(),
            }),
            handles: Vec::new(),
        }
    }

    /// Helper threads running.
    pub fn helpers(&self) -> usize {
        self.handles.len()
    }

    /// Makes the pool `n` helpers strong (stops and restarts the threads when it changes).
    /// Falls back to fewer helpers if the system refuses to start threads.
    pub fn resize(&mut self, n: usize) {
        if n == self.handles.len() {
            return;
        }
        self.shutdown();
        let generation = {
            let mut st = self.shared.state.lock();
            st.quit = false;
            st.generation
        };
        for id in 1..=n {
            let shared = self.shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("squall-helper-{id}"))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn(move || helper_main(id, shared, generation));
            match spawned {
                Ok(h) => self.handles.push(h),
                Err(_) => break,
            }
        }
    }

    /// Hands `job` to every helper.
    pub fn start(&self, job: &Arc<Job>) {
        let mut st = self.shared.state.lock();
        st.job = Some(job.clone());
        st.generation += 1;
        st.running = self.handles.len();
        self.shared.wake.notify_all();
    }

    /// Waits until every helper has left the current job, and forgets it.
    pub fn wait(&self) {
        let mut st = self.shared.state.lock();
        while st.running > 0 {
            self.shared.finished.wait(&mut st);
        }
        st.job = None;
    }

    fn shutdown(&mut self) {
        {
            let mut st = self.shared.state.lock();
            st.quit = true;
            self.shared.wake.notify_all();
        }
        for h in self.handles.drain(..) {
            // A helper that panicked has already reported it; nothing more to do here.
            let _ = h.join();
        }
    }
}

impl Default for Pool {
    fn default() -> Self {
        Pool::new()
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn helper_main(id: usize, shared: Arc<PoolShared>, mut seen: u64) {
    let mut eval = Evaluator::new();
    let own_history = History::new();
    let mut cleared = 0;
    loop {
        let job = {
            let mut st = shared.state.lock();
            while !st.quit && st.generation == seen {
                shared.wake.wait(&mut st);
            }
            if st.quit {
                return;
            }
            seen = st.generation;
            st.job.clone()
        };
        if let Some(job) = job {
            if job.clear_epoch != cleared {
                eval.clear();
                own_history.clear();
                cleared = job.clear_epoch;
            }
            let history = job.shared_history.as_deref().unwrap_or(&own_history);
            let mut tree = Tree::helper(&job, id, &mut eval, history);
            tree.idle_loop();
            job.nodes[id].store(tree.nodes(), Ordering::Relaxed);
        }
        let mut st = shared.state.lock();
        st.running = st.running.saturating_sub(1);
        shared.finished.notify_all();
    }
}
