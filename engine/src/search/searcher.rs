//! One search. `Search` is the main thread's root driver: iterative deepening with aspiration
//! windows, the root move list, reports and the clock. `Tree` is the per-thread search context
//! (typhoon's searcher thread context: position, move and eval stacks, PV, node counter, the
//! thread's own evaluator and killers, the shared or its own history, the split point it works
//! under) and walks the tree: PVS alpha-beta with extensions, reductions and pruning.
//! Quiescence at the leaves is in `quiescence.rs`; the YBW split loop that a split point's
//! owner and its helpers share, in `smp.rs`.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use crate::board::see::SEE_VALUES;
use crate::board::Position;
use crate::eval::Evaluator;
use crate::moves::Move;
use crate::score::TB_WIN_BOUND;
use crate::types::{file_of, rank_of, Colour, Kind};

use super::control::Control;
use super::correction::CorrectionKeys;
use super::history::{Context, History, Killers};
use super::limits::Limits;
use super::options::Options;
use super::params::*;
use super::picker::Picker;
use super::report::{Iteration, Report, SearchResult};
use super::shared::{Job, NodeInfo, SplitPoint};
use super::strength::{self, Candidate};
use super::time::TimeManager;
use super::tt::{Bound, TranspositionTable, TtHit};

/// Root moves searched for this long before `currmove` reports start.
const CURRMOVE_AFTER_MS: u64 = 1000;
/// Most quiets remembered per node for the history penalty.
const MAX_QUIETS_TRIED: usize = 64;
/// Most captures remembered per node for the capture-history penalty (more than a legal
/// position can have in practice).
const MAX_CAPTURES_TRIED: usize = 64;

/// LMR reduction in quarter plies at `d` plies of depth for the `m`-th move (1-based).
fn lmr_formula(d: usize, m: usize) -> i32 {
    if d == 0 || m == 0 {
        return 0;
    }
    let plies = param!(LMR_BASE) + (d as f64).ln() * (m as f64).ln() * param!(LMR_SCALE);
    (plies * ONE_PLY as f64) as i32
}

/// `lmr_formula` tabled, by depth in plies and move number (0..64 each).
#[cfg(not(feature = "tune"))]
static LMR: std::sync::LazyLock<[[i32; 64]; 64]> = std::sync::LazyLock::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate() {
        for (m, r) in row.iter_mut().enumerate() {
            *r = lmr_formula(d, m);
        }
    }
    t
});

/// The LMR reduction, from the table.
#[cfg(not(feature = "tune"))]
#[inline]
fn lmr(d: usize, m: usize) -> i32 {
    LMR[d][m]
}

/// The LMR reduction under `tune`: from the formula, so that a change of `LMR_BASE` or
/// `LMR_SCALE` by `setoption` acts at once.
#[cfg(feature = "tune")]
#[inline]
fn lmr(d: usize, m: usize) -> i32 {
    lmr_formula(d, m)
}

#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    /// What `score` is: a first move that failed low in a search cut short before the
    /// window was widened holds only an upper bound, and a truncated line.
    bound: Bound,
    /// Score of the last completed iteration (for MultiPV reports and sorting).
    prev_score: i32,
    pv: Vec<Move>,
    seldepth: i32,
    /// Nodes this thread spent under the move in its last search: the order of the moves that
    /// fail low (a big subtree means a refutation that was hard to find, a likely alternative).
    /// Root moves that helpers took at a root split keep their last serial count.
    nodes: u64,
}

/// What only the main thread watches while it walks the tree: the stop and ponder flags, the
/// node limit and the clock. It ends the search for every thread by setting the job's abort.
pub struct MainCtl<'a> {
    limits: &'a Limits,
    control: &'a Control,
    tm: TimeManager,
    pondering: bool,
    /// Most nodes a second (the strength limit), counted from `throttle_start`.
    nps_limit: Option<u64>,
    throttle_start: Instant,
    /// The node rate has held the search back (it slept) at least once.
    throttled: bool,
}

impl MainCtl<'_> {
    /// Sleeps while the search is ahead of `nps` nodes a second; never past the hard
    /// deadline, and in short naps so that `stop` and `ponderhit` are seen at once.
    fn throttle(&mut self, nodes: u64, nps: u64) {
        let due_us = (nodes as u128 * 1_000_000 / nps.max(1) as u128) as u64;
        let elapsed_us = self.throttle_start.elapsed().as_micros() as u64;
        let mut nap = due_us.saturating_sub(elapsed_us);
        if nap < strength::THROTTLE_MIN_SLEEP_US {
            return;
        }
        nap = nap.min(strength::THROTTLE_MAX_SLEEP_US);
        if !self.pondering {
            if let Some(left) = self.tm.hard_remaining() {
                nap = nap.min(left.as_micros() as u64);
            }
        }
        if nap > 0 {
            self.throttled = true;
            std::thread::sleep(std::time::Duration::from_micros(nap));
        }
    }
}

/// The main thread's root driver.
pub struct Search<'a> {
    tree: Tree<'a>,
    limits: &'a Limits,
    control: &'a Control,
    options: &'a Options,
    start: Instant,
    root_moves: Vec<RootMove>,
    best_move_changes: u32,
    /// The lines of the last completed iteration, kept for the strength limit's move choice.
    candidates: Vec<Candidate>,
    /// The first move of the last first line reported: the search ends with a line for the
    /// move it plays.
    last_reported: Move,
}

/// A thread's search context.
pub struct Tree<'a> {
    /// 0 for the main thread.
    pub(super) id: usize,
    pub(super) job: &'a Job,
    pub(super) tt: &'a TranspositionTable,
    pub(super) eval: &'a mut Evaluator,
    pub(super) history: &'a History,
    pub(super) killers: Box<Killers>,
    pub(super) main: Option<MainCtl<'a>>,
    pub(super) pos: Position,
    /// Unwind now: the search was stopped, or a split point above was cut off.
    pub(super) stopped: bool,
    pub(super) nodes: u64,
    pub(super) seldepth: i32,
    pub(super) root_depth: i32,
    /// Triangular PV: `pv[ply][ply..pv_len[ply]]` is the best line found from `ply`.
    pub(super) pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    /// Static evaluation per ply (for "improving"); `-INFINITY` when in check.
    pub(super) evals: [i32; MAX_PLY + 2],
    /// Move made at each ply (`Move::NONE` for a null move).
    pub(super) moves: [Move; MAX_PLY + 2],
    /// The move a singular-extension search leaves out at each ply (`Move::NONE`: none).
    pub(super) excluded: [Move; MAX_PLY + 2],
    /// The innermost split point this thread works under (owner or helper).
    pub(super) split: Option<Arc<SplitPoint>>,
    /// Split points this thread owns on its stack.
    pub(super) splits_owned: usize,
    /// A draw's score for the root's side to move (contempt); `draw_score` flips it by ply.
    pub(super) root_draw: i32,
    /// Nodes between polls, minus one (finer under a node rate).
    pub(super) poll_mask: u64,
    /// A move picker per ply, made on first use and restarted at each node there (a new
    /// picker would zero its 3 KB of buffers at every node). A node takes its ply's picker
    /// and puts it back after its move loop; one that returns early (a stop) drops it.
    pub(super) pickers: Vec<Option<Box<Picker>>>,
}

/// What the singular-extension test decided for the hash move.
enum Singular {
    /// Extend the hash move by this much (negative: search it shallower; 0: as usual).
    Extend(i32),
    /// Enough other moves beat beta: the node fails high with this score.
    MultiCut(i32),
}

/// What became of one move of a node's move loop.
pub(super) enum Step {
    Searched(i32),
    Pruned,
    /// Pruned, and so will every later quiet move be.
    PrunedQuiets,
}

/// Is the pawn of `c` on `sq` passed (no enemy pawn ahead on its own or a neighbouring file)?
fn is_passed(pos: &Position, sq: u8, c: Colour) -> bool {
    let f = file_of(sq) as i32;
    let r = rank_of(sq);
    pos.pawns(c.flip()).iter().all(|&e| {
        let ahead = match c {
            Colour::White => rank_of(e) > r,
            Colour::Black => rank_of(e) < r,
        };
        !(ahead && (file_of(e) as i32 - f).abs() <= 1)
    })
}

impl<'a> Search<'a> {
    /// The main thread's search of `pos`, sharing `job` with the helpers.
    pub fn new(
        pos: &Position,
        limits: &'a Limits,
        control: &'a Control,
        options: &'a Options,
        job: &'a Job,
        eval: &'a mut Evaluator,
        history: &'a History,
    ) -> Search<'a> {
        let root_move = |mv: Move| RootMove {
            mv,
            score: -INFINITY,
            bound: Bound::Exact,
            prev_score: -INFINITY,
            pv: vec![mv],
            seldepth: 0,
            nodes: 0,
        };
        let legal = pos.legal_moves();
        let mut root_moves: Vec<RootMove> = legal
            .iter()
            .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m))
            .map(|&mv| root_move(mv))
            .collect();
        if root_moves.is_empty() {
            // None of the requested moves is legal: search them all rather than nothing.
            root_moves = legal.iter().map(|&mv| root_move(mv)).collect();
        }
        // Syzygy (#48): at a table position, only the moves that keep the best DTZ outcome.
        if let Some(keep) = crate::tablebase::new_search(pos) {
            if root_moves.iter().any(|rm| keep.contains(&rm.mv)) {
                root_moves.retain(|rm| keep.contains(&rm.mv));
            }
        }
        let forced = root_moves.len() == 1;
        let fullmove = u32::from(pos.fullmove_number());
        let tm = TimeManager::new(limits, options.move_overhead_ms, forced, fullmove);
        let mut tree = Tree::main(job, limits, control, options, tm, eval, history);
        tree.pos = pos.clone();
        Search {
            tree,
            limits,
            control,
            options,
            start: Instant::now(),
            root_moves,
            best_move_changes: 0,
            candidates: Vec::new(),
            last_reported: Move::NONE,
        }
    }

    /// The main thread's clock and stop controls.
    fn ctl(&mut self) -> &mut MainCtl<'a> {
        self.tree
            .main
            .as_mut()
            .expect("the main thread's tree carries the search controls")
    }

    /// Nodes of all threads.
    fn nodes(&self) -> u64 {
        self.tree.nodes + self.tree.job.other_nodes(self.tree.id)
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn iteration_report(&self, pv_idx: usize, bound: Bound) -> Iteration {
        let rm = &self.root_moves[pv_idx];
        let ms = self.elapsed_ms();
        let (score, depth) = if bound == Bound::Exact && rm.score == -INFINITY {
            (rm.prev_score, self.tree.root_depth - 1)
        } else {
            (rm.score, self.tree.root_depth)
        };
        Iteration {
            depth: depth.max(1),
            seldepth: rm.seldepth.max(self.tree.seldepth.min(MAX_PLY as i32)),
            multipv: pv_idx + 1,
            score,
            bound,
            nodes: self.nodes(),
            time_ms: ms,
            nps: self.nodes() * 1000 / ms.max(1),
            hashfull: self.tree.tt.hashfull(),
            pv: rm.pv.clone(),
        }
    }

    /// Reports a line, remembering the first move of the first line.
    fn report(&mut self, it: &Iteration, reporter: &mut dyn FnMut(&Report)) {
        if it.multipv == 1 {
            self.last_reported = it.pv.first().copied().unwrap_or(Move::NONE);
        }
        reporter(&Report::Iteration(it));
    }

    /// The line for the move about to be played when no line reported so far starts with it
    /// (a search stopped before its first iteration finished): the best score seen for it.
    fn report_move_played(&mut self, last_score: i32, reporter: &mut dyn FnMut(&Report)) {
        let rm = &self.root_moves[0];
        if rm.mv == self.last_reported {
            return;
        }
        let score = [rm.score, rm.prev_score, last_score]
            .into_iter()
            .find(|&v| v != -INFINITY)
            .unwrap_or(if self.tree.pos.in_check() {
                DRAW
            } else {
                self.tree.evals[0]
            });
        let bound = if rm.score != -INFINITY {
            rm.bound
        } else {
            Bound::Exact
        };
        let mut it = self.iteration_report(0, bound);
        it.score = score;
        if it.pv.first() != Some(&rm.mv) {
            it.pv = vec![rm.mv];
        }
        self.report(&it, reporter);
    }

    /// Iterative deepening. Returns the best move of the deepest completed iteration (or of the
    /// partial one, when it already found a better move).
    pub fn run(&mut self, reporter: &mut dyn FnMut(&Report)) -> SearchResult {
        if self.root_moves.is_empty() {
            let score = if self.tree.pos.in_check() {
                -MATE
            } else {
                DRAW
            };
            self.wait_while_pondering();
            return SearchResult {
                best: Move::NONE,
                ponder: Move::NONE,
                score,
                depth: 0,
                nodes: 0,
                time_ms: self.elapsed_ms(),
            };
        }
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let multipv = self.options.multipv.clamp(1, self.root_moves.len());
        let mut completed = 0;
        // Score of the first line as last seen by a finished root search (exact or a bound),
        // for when the search stops before the best move has a score of its own.
        let mut last_score = -INFINITY;
        for depth in 1..=max_depth {
            self.tree.root_depth = depth;
            self.best_move_changes = 0;
            let mut fail_low = false;
            // The first line's move and score after a fail high at the root, until its
            // re-search completes: a search stopped meanwhile plays that move (it beat the
            // best move's score) and reports it with the bound.
            let mut fail_high: Option<(Move, i32)> = None;
            for pv_idx in 0..multipv {
                self.tree.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = param!(ASPIRATION_DELTA);
                let (mut alpha, mut beta) = if depth >= param!(ASPIRATION_MIN_DEPTH) {
                    ((prev - delta).max(-INFINITY), (prev + delta).min(INFINITY))
                } else {
                    (-INFINITY, INFINITY)
                };
                // Each fail high takes the re-search shallower: the move that failed high is
                // usually confirmed sooner that way, and the next iteration searches it at full
                // depth anyway. A fail low goes back to full depth, since it must find a reply.
                let mut search_depth = depth * ONE_PLY;
                loop {
                    let score = self.root_search(search_depth, alpha, beta, pv_idx, reporter);
                    if self.tree.stopped {
                        // Cut short: only a move this search completed with a score may move
                        // ahead (a stable sort). The others keep the last complete order: the
                        // move being searched has no node count from this search yet, and
                        // ordering the rest by older counts would put a refuted former best
                        // move, with its big subtree, in front of the new one and play it.
                        self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                        break;
                    }
                    // Best first; the moves that failed low (all -INFINITY) by their subtree
                    // size in this search, biggest first.
                    self.root_moves[pv_idx..]
                        .sort_by_key(|rm| std::cmp::Reverse((rm.score, rm.nodes)));
                    if pv_idx == 0 {
                        last_score = score;
                    }
                    if pv_idx == 0 {
                        fail_high = (score >= beta).then(|| (self.root_moves[0].mv, score));
                    }
                    let bound = if score <= alpha {
                        fail_low = true;
                        // Fail low: pull beta down to the middle of the old window.
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INFINITY);
                        search_depth = depth * ONE_PLY;
                        Bound::Upper
                    } else if score >= beta {
                        beta = (score + delta).min(INFINITY);
                        // A mate needs its full depth to be proved.
                        if score.abs() < MATE_BOUND {
                            search_depth = (search_depth - param!(ASPIRATION_FAIL_HIGH_REDUCTION))
                                .max(ONE_PLY);
                        }
                        Bound::Lower
                    } else {
                        break;
                    };
                    if self.elapsed_ms() > CURRMOVE_AFTER_MS {
                        let it = self.iteration_report(pv_idx, bound);
                        self.report(&it, reporter);
                    }
                    delta = delta * param!(ASPIRATION_GROW_NUM) / param!(ASPIRATION_GROW_DEN);
                }
                if self.tree.stopped {
                    break;
                }
                let it = self.iteration_report(pv_idx, Bound::Exact);
                self.report(&it, reporter);
            }
            if self.tree.stopped {
                let rm = &self.root_moves[0];
                if let Some((_, score)) =
                    fail_high.filter(|&(mv, _)| mv == rm.mv && rm.score == -INFINITY)
                {
                    // Stopped in the re-search of a fail high: the move is played, with the
                    // score it is known to reach.
                    let mut it = self.iteration_report(0, Bound::Lower);
                    it.score = score;
                    self.report(&it, reporter);
                } else if rm.score > -INFINITY && depth > 1 {
                    // A partial iteration whose first line is complete is worth reporting,
                    // with its bound: a first move that failed low is stopped before the
                    // wider window could give it an exact score and a whole line.
                    let it = self.iteration_report(0, rm.bound);
                    self.report(&it, reporter);
                }
                break;
            }
            completed = depth;
            if self.options.limit_elo.is_some() {
                self.candidates = self.root_moves[..multipv]
                    .iter()
                    .map(|rm| Candidate {
                        mv: rm.mv,
                        score: rm.score,
                        ponder: rm.pv.get(1).copied().unwrap_or(Move::NONE),
                    })
                    .collect();
            }
            for rm in self.root_moves.iter_mut() {
                rm.prev_score = rm.score;
            }
            if let Some(n) = self.limits.mate {
                let best = self.root_moves[0].score;
                if best > MATE - 2 * n as i32 {
                    break;
                }
            }
            // A proven mate will not change: stop a timed search once the iterations are well
            // past its length.
            let best = self.root_moves[0].score;
            let ctl = self.ctl();
            if ctl.tm.has_deadline()
                && !ctl.pondering
                && best.abs() >= MATE_BOUND
                && depth > MATE - best.abs() + param!(MATE_STOP_EXTRA_DEPTH)
            {
                break;
            }
            let changes = self.best_move_changes;
            let ctl = self.ctl();
            if !ctl.pondering {
                ctl.tm.adjust(changes, fail_low);
                if !ctl.tm.next_iteration_allowed() {
                    break;
                }
            }
        }
        self.report_move_played(last_score, reporter);
        self.wait_while_pondering();
        let best = self.root_moves[0].clone();
        let ponder = match best.pv.get(1) {
            Some(&m) => m,
            None => self.ponder_from_tt(best.mv),
        };
        SearchResult {
            best: best.mv,
            ponder,
            score: [best.score, best.prev_score, last_score]
                .into_iter()
                .find(|&v| v != -INFINITY)
                .unwrap_or(DRAW),
            depth: completed.max(1),
            // This thread's; the engine adds the helpers' once they have finished.
            nodes: self.tree.nodes,
            time_ms: self.elapsed_ms(),
        }
    }

    /// The lines of the last completed iteration (filled only under the strength limit).
    pub fn candidates(&self) -> &[Candidate] {
        &self.candidates
    }

    /// In infinite or ponder mode the answer waits for `stop` (or the ponder hit).
    fn wait_while_pondering(&mut self) {
        while !self.control.is_stopped() && (self.limits.infinite || self.control.is_pondering()) {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// A reply for pondering when the PV ends after our move: the hash move of the next node.
    fn ponder_from_tt(&mut self, best: Move) -> Move {
        if best.is_none() {
            return Move::NONE;
        }
        self.tree.pos.make(best);
        let reply = self
            .tree
            .tt
            .probe(self.tree.pos.key(), 0)
            .map(|h| h.mv)
            .filter(|&m| {
                self.tree.pos.is_pseudo_legal(m) && self.tree.pos.legal_moves().contains(m)
            })
            .unwrap_or(Move::NONE);
        self.tree.pos.unmake();
        reply
    }

    fn root_search(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        pv_idx: usize,
        reporter: &mut dyn FnMut(&Report),
    ) -> i32 {
        let mut best = -INFINITY;
        // Scores of earlier iterations must not compete with this one's when it is cut short.
        for rm in self.root_moves[pv_idx..].iter_mut() {
            rm.score = -INFINITY;
        }
        let in_check = self.tree.pos.in_check();
        // As every node does for its children (`alpha_beta`, step 6).
        self.tree.killers.clear(1);
        self.tree.evals[0] = if in_check {
            -INFINITY
        } else {
            self.tree.eval.evaluate_full(&self.tree.pos)
        };
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if self.elapsed_ms() > CURRMOVE_AFTER_MS {
                reporter(&Report::CurrMove {
                    depth: self.tree.root_depth,
                    mv: m,
                    number: i + 1,
                });
            }
            let nodes_before = self.tree.nodes;
            let score = if i == pv_idx {
                let gives_check = self.tree.pos.gives_check(m);
                let ext = if gives_check {
                    param!(CHECK_EXTENSION)
                } else {
                    0
                };
                self.tree.moves[0] = m;
                self.tree.pos.make(m);
                let s = -self
                    .tree
                    .alpha_beta(-beta, -alpha, depth - ONE_PLY + ext, 1, false);
                self.tree.pos.unmake();
                s
            } else {
                self.tree.root_move(depth, beta, m, i - pv_idx + 1, alpha)
            };
            if self.tree.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            rm.nodes = self.tree.nodes - nodes_before;
            if i == pv_idx || score > alpha {
                rm.score = score;
                rm.bound = Bound::of(score, alpha, beta);
                rm.seldepth = self.tree.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv
                    .extend_from_slice(&self.tree.pv[1][1..self.tree.pv_len[1]]);
                if i != pv_idx && score > alpha {
                    self.best_move_changes += 1;
                }
            } else {
                rm.score = -INFINITY;
            }
            if score > best {
                best = score;
                if score > alpha {
                    if score >= beta {
                        return score;
                    }
                    alpha = score;
                }
            }
            if i + 1 < self.root_moves.len() && self.tree.may_split_root(depth) {
                return self.split_root(depth, beta, i + 1, pv_idx, alpha, best);
            }
        }
        best
    }

    /// Shares the root moves from `next` on with the helpers (the root is a PV node whose
    /// eldest brother has been searched) and takes the results back into the root move list.
    fn split_root(
        &mut self,
        depth: i32,
        beta: i32,
        next: usize,
        pv_idx: usize,
        alpha: i32,
        best: i32,
    ) -> i32 {
        let n = NodeInfo {
            root: true,
            ply: 0,
            depth,
            beta,
            pv_node: true,
            cut_node: false,
            tt_move: Move::NONE,
            singular_ext: 0,
            in_check: self.tree.pos.in_check(),
            eval: self.tree.evals[0],
            improving: false,
            may_extend: true,
            prev: Move::NONE,
            ctx: [Move::NONE; 2],
            killers: self.tree.killers.get(0),
        };
        let moves = self.root_moves[next..]
            .iter()
            .map(|rm| (rm.mv, false))
            .collect();
        let best_move = self.root_moves[pv_idx].mv;
        let done = next - pv_idx;
        let (after, results) =
            self.tree
                .split_with(&n, moves, (alpha, best, best_move), (done, done, false));
        for r in results {
            if let Some(rm) = self.root_moves.iter_mut().find(|rm| rm.mv == r.mv) {
                rm.score = r.score;
                rm.bound = Bound::of(r.score, alpha, beta);
                rm.pv = r.pv;
                rm.seldepth = r.seldepth;
                self.best_move_changes += 1;
            }
        }
        after.best
    }
}

impl<'a> Tree<'a> {
    fn new(
        id: usize,
        job: &'a Job,
        eval: &'a mut Evaluator,
        history: &'a History,
        main: Option<MainCtl<'a>>,
    ) -> Tree<'a> {
        Tree {
            id,
            job,
            tt: &job.tt,
            eval,
            history,
            killers: Box::default(),
            main,
            pos: Position::startpos(),
            stopped: false,
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            pv: Box::new([[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            evals: [0; MAX_PLY + 2],
            excluded: [Move::NONE; MAX_PLY + 2],
            moves: [Move::NONE; MAX_PLY + 2],
            split: None,
            splits_owned: 0,
            root_draw: job.root_draw,
            poll_mask: POLL_MASK,
            pickers: (0..MAX_PLY + 2).map(|_| None).collect(),
        }
    }

    /// The main thread's context: it also watches the clock and the stop flags.
    pub fn main(
        job: &'a Job,
        limits: &'a Limits,
        control: &'a Control,
        options: &Options,
        tm: TimeManager,
        eval: &'a mut Evaluator,
        history: &'a History,
    ) -> Tree<'a> {
        let ctl = MainCtl {
            limits,
            control,
            tm,
            pondering: limits.ponder,
            nps_limit: options.nps_limit,
            throttle_start: Instant::now(),
            throttled: false,
        };
        let mut tree = Tree::new(0, job, eval, history, Some(ctl));
        if options.nps_limit.is_some() {
            tree.poll_mask = strength::THROTTLE_POLL_MASK;
        }
        tree
    }

    /// A helper thread's context: it only works at split points.
    pub fn helper(
        job: &'a Job,
        id: usize,
        eval: &'a mut Evaluator,
        history: &'a History,
    ) -> Tree<'a> {
        Tree::new(id, job, eval, history, None)
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Publishes the node count; the main thread also checks the stop flag, the node limit, a
    /// ponder hit and the hard deadline, and ends the search for every thread.
    pub(super) fn poll(&mut self) {
        self.job.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        let others = self.job.other_nodes(self.id);
        let nodes = self.nodes;
        let root_depth = self.root_depth;
        let Some(ctl) = self.main.as_mut() else {
            if self.job.aborted() {
                self.stopped = true;
            }
            return;
        };
        let stop =
            ctl.control.is_stopped() || ctl.limits.nodes.is_some_and(|n| nodes + others >= n) || {
                if ctl.pondering && !ctl.control.is_pondering() {
                    ctl.pondering = false;
                    ctl.tm.restart();
                }
                // Iteration 1 always completes, so there is always a searched move to play.
                // Once the node rate has held it back, a stretch of the soft deadline ends the
                // search too: the slow search would otherwise run every move into the hard
                // deadline and drain the clock.
                !ctl.pondering
                    && root_depth > 1
                    && (ctl.tm.hard_expired()
                        || (ctl.throttled
                            && ctl.tm.soft_expired_scaled(strength::THROTTLED_SOFT_SHARE)))
            };
        if !stop {
            if let Some(nps) = ctl.nps_limit {
                ctl.throttle(nodes + others, nps);
            }
        }
        if stop {
            self.stopped = true;
            self.job.abort.store(true, Ordering::Relaxed);
        }
    }

    /// Must this thread unwind: the search is over, or a split point it works under (or one
    /// above that) has been cut off?
    pub(super) fn must_unwind(&self) -> bool {
        self.job.aborted() || self.split.as_ref().is_some_and(|sp| sp.cut_here_or_above())
    }

    /// Has the opponent's last move `prev` brought a piece to bear on our king, so that a static
    /// margin (reverse futility, `excess` centipawns above beta) cannot be trusted? A queen
    /// always counts; a rook or minor piece only when the eval stands at least
    /// `RFP_THREAT_EXCESS` above beta (a sacrifice).
    fn threat_on_king(&self, prev: Move, excess: i32) -> bool {
        let moved = prev.moved();
        if moved.is_kind(Kind::Queen) {
            return crate::eval::king::queen_bears_on_king(&self.pos, moved.colour());
        }
        (moved.is_kind(Kind::Rook) || moved.is_kind(Kind::Knight) || moved.is_kind(Kind::Bishop))
            && excess >= param!(RFP_THREAT_EXCESS)
            && crate::eval::king::piece_bears_on_king(&self.pos, prev.to())
    }

    /// LMR amount in quarter plies for the `count`-th move (1-based) at `depth`; a good
    /// `history` score reduces less, a bad one more.
    fn reduction(
        &self,
        depth: i32,
        count: usize,
        pv: bool,
        improving: bool,
        gives_check: bool,
        history: i32,
    ) -> i32 {
        let d = ((depth / ONE_PLY) as usize).min(63);
        let mut r = lmr(d, count.min(63));
        if pv {
            r -= ONE_PLY;
        }
        if !improving {
            r += param!(LMR_NOT_IMPROVING);
        }
        if gives_check {
            r -= ONE_PLY;
        }
        r -= history / param!(LMR_HISTORY_DIVISOR);
        r.clamp(0, (depth - 2 * ONE_PLY).max(0))
    }

    /// The picker of `ply`, made if this ply has none yet (or beyond the stack).
    pub(super) fn take_picker(&mut self, ply: usize) -> Box<Picker> {
        self.pickers
            .get_mut(ply)
            .and_then(Option::take)
            .unwrap_or_else(|| Box::new(Picker::empty()))
    }

    pub(super) fn put_picker(&mut self, ply: usize, picker: Box<Picker>) {
        if let Some(slot) = self.pickers.get_mut(ply) {
            *slot = Some(picker);
        }
    }

    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Common entry of every node: counts it, and answers at once when the search is stopped,
    /// the position is drawn by rule, or the ply limit is reached.
    #[inline]
    pub(super) fn enter_node(&mut self, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
        self.count_node(ply);
        // Under a split point a cutoff above must stop this thread at once.
        if self.split.is_some() && !self.stopped && self.must_unwind() {
            self.stopped = true;
        }
        if self.stopped {
            return Some(0);
        }
        if self.pos.is_repetition(ply) || self.pos.is_fifty_move_draw() {
            return Some(self.draw_score(ply));
        }
        if ply >= MAX_PLY - 1 {
            return Some(if self.pos.in_check() {
                DRAW
            } else {
                self.eval.evaluate(&self.pos, alpha, beta)
            });
        }
        None
    }

    /// A draw's score for the side to move at `ply`: the root side's at even plies, the
    /// opponent's (the negation) at odd ones. `DRAW` without contempt.
    #[inline]
    fn draw_score(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            self.root_draw
        } else {
            -self.root_draw
        }
    }

    /// The hash move of a probe, when it fits this position.
    #[inline]
    pub(super) fn hash_move(&self, hit: Option<TtHit>) -> Move {
        hit.map(|h| h.mv)
            .filter(|&m| self.pos.is_pseudo_legal(m))
            .unwrap_or(Move::NONE)
    }

    /// Counts the node and polls the clock now and then.
    #[inline]
    fn count_node(&mut self, ply: usize) {
        self.nodes += 1;
        if self.nodes & self.poll_mask == 0 {
            self.poll();
        }
        self.pv_len[ply] = ply;
        if ply as i32 > self.seldepth {
            self.seldepth = ply as i32;
        }
    }

    /// `cut_node`: a non-PV node expected to fail high (the zero-window child of a move that
    /// is expected to fail low), as in the usual PV/cut/all node classification.
    ///
    /// The steps, numbered as the `// Step N.` comments below:
    ///  1. Leaves go to quiescence; stop, draw by rule and ply limit.
    ///  2. Mate distance pruning.
    ///  3. Proven draws of the endgame recognisers.
    ///  4. Transposition table probe and cutoff.
    ///  5. Syzygy WDL probe after a zeroing move (`tablebase::probe_search`).
    ///  6. Static evaluation, corrected by the correction history; "improving".
    ///  7. Reverse futility pruning.
    ///  8. Razoring.
    ///  9. Null move, verified where zugzwang is likely.
    /// 10. Internal iterative reduction.
    /// 11. Singular extension test of the hash move (and multi-cut).
    /// 12. Node-wide extensions (single reply, mate threat) and the move picker.
    /// 13. Move loop: each move pruned or searched (`search_move`), cutoffs teaching the
    ///     history and killers; a split into the YBW parallel search when a thread is idle.
    /// 14. Mate, stalemate, and nodes whose every move was pruned.
    /// 15. Correction history update and the hash store.
    fn alpha_beta(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        // Step 1. Quiescence below a ply of depth; the common entry answers stops, draws by
        // rule and the ply limit before any work.
        if depth < ONE_PLY {
            return self.quiescence(alpha, beta, ply, 0);
        }
        if let Some(score) = self.enter_node(alpha, beta, ply) {
            return score;
        }
        let pv_node = beta - alpha > 1;
        let in_check = self.pos.in_check();
        // Step 2. Mate distance pruning: no line from here can beat a mate already found
        // nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        // Step 3. Endgame recognisers: a proven draw (KPK, wrong rook-pawn bishop) is this
        // node's exact score. Only proven draws: known wins and drawish scales are estimates.
        // The root never comes here (it must still choose a move).
        if crate::eval::endgame::proven_draw(&self.pos) {
            return self.draw_score(ply);
        }

        // Step 4. Hash probe. Only non-PV nodes take a cutoff, so the PV stays whole.
        let key = self.pos.key();
        if !in_check {
            self.eval.touch(&self.pos);
        }
        let hit = self.tt.probe(key, ply);
        let tt_move = self.hash_move(hit);
        // A singular-extension search of this node, leaving one move out: it may neither take
        // nor leave a hash result (the entry describes the node with every move).
        let excluded = self.excluded[ply];
        if let Some(h) = hit {
            if excluded.is_none() && !pv_node && h.depth >= depth && h.cuts(alpha, beta) {
                return h.score;
            }
        }

        // Step 5. Tablebase probe (Syzygy): after a zeroing move, a table position's WDL value
        // bounds its score. At a PV node whose window holds the bound, the bound still holds:
        // a win's score is a floor for the move loop, a loss's a ceiling on the result, so the
        // PV keeps the table's verdict (a capture into a won table outranks a check that only
        // delays it).
        let (mut tb_floor, mut tb_ceiling) = (-INFINITY, INFINITY);
        if excluded.is_none() {
            if let Some((score, bound)) =
                crate::tablebase::probe_search(&self.pos, depth / ONE_PLY, ply)
            {
                if bound == Bound::Exact
                    || (bound == Bound::Lower && score >= beta)
                    || (bound == Bound::Upper && score <= alpha)
                {
                    let raw = if in_check {
                        -INFINITY
                    } else {
                        self.eval.evaluate(&self.pos, alpha, beta)
                    };
                    self.tt.store(
                        key,
                        Move::NONE,
                        score,
                        raw,
                        (depth + 6 * ONE_PLY).min(MAX_DEPTH * ONE_PLY),
                        bound,
                        ply,
                    );
                    return score;
                }
                if pv_node {
                    if bound == Bound::Lower {
                        tb_floor = score;
                        alpha = alpha.max(score);
                    } else {
                        tb_ceiling = score;
                    }
                }
            }
        }

        // Step 6. Static evaluation.
        let us = self.pos.side_to_move();
        // The hash table keeps the raw evaluation; what the searches have taught about this
        // pawn structure (the correction history) is added on every use.
        let raw_eval = if in_check {
            -INFINITY
        } else if let Some(h) = hit {
            h.eval
        } else {
            self.eval.evaluate(&self.pos, alpha, beta)
        };
        let eval = if in_check {
            raw_eval
        } else {
            self.corrected(raw_eval)
        };
        self.evals[ply] = eval;
        let improving = !in_check && ply >= 2 && eval > self.evals[ply - 2];
        let prev = self.moves[ply - 1];
        // The children's killers were learnt under other positions at this ply (cousins, a
        // different parent move): a fresh start lets this node's own children fill them. The
        // null-move and singular searches below already refill them from this position.
        self.killers.clear(ply + 1);

        let mut mate_threat = false;
        if !pv_node && !in_check {
            let d = depth / ONE_PLY;
            // Step 7. Reverse futility: far above beta with little depth left, the node will
            // hold, unless the opponent's last move brought a piece to bear on our king: a
            // sacrifice there (WAC.001's Qg6) can leave us far ahead on material and mated,
            // which no static margin prices (`threat_on_king`).
            if d <= param!(REVERSE_FUTILITY_DEPTH)
                && eval.abs() < MATE_BOUND
                && eval - param!(REVERSE_FUTILITY_MARGIN) * (d - improving as i32) >= beta
                && !self.threat_on_king(prev, eval - beta)
            {
                return eval;
            }
            // Step 8. Razoring: hopeless at the frontier unless a capture saves it.
            if d <= param!(RAZOR_DEPTH)
                && excluded.is_none()
                && eval + param!(RAZOR_MARGIN) * d < alpha
            {
                let q = self.quiescence(alpha, beta, ply, 0);
                if q < alpha {
                    return q;
                }
            }
            // Step 9. Adaptive null move: if passing still beats beta, a real move will too,
            // except in zugzwang. Not when the hash entry already says that the node, with
            // every move, stays below beta: the null move would then almost surely fail and
            // cost its search for nothing.
            let tt_says_below = hit
                .is_some_and(|h| matches!(h.bound, Bound::Upper | Bound::Exact) && h.score < beta);
            if depth >= param!(NULL_MIN_DEPTH)
                && excluded.is_none()
                && !tt_says_below
                && eval >= beta
                && !prev.is_none()
                && self.pos.has_non_pawn_material(us)
                && beta > -MATE_BOUND
            {
                let pieces = self.pos.pieces(us).len() - 1;
                let r = param!(NULL_BASE_REDUCTION)
                    + d / param!(NULL_DEPTH_DIVISOR)
                    + ((eval - beta) / param!(NULL_EVAL_DIVISOR)).min(param!(NULL_EVAL_MAX))
                    + (pieces >= param!(NULL_MATERIAL_PIECES)) as i32;
                self.moves[ply] = Move::NONE;
                self.pos.make_null();
                let v = -self.alpha_beta(
                    -beta,
                    -beta + 1,
                    depth - r * ONE_PLY - ONE_PLY,
                    ply + 1,
                    !cut_node,
                );
                self.pos.unmake_null();
                if self.stopped {
                    return 0;
                }
                mate_threat = v <= -MATE_BOUND;
                if v >= beta {
                    let v = if v >= MATE_BOUND { beta } else { v };
                    // Only a zugzwang-prone node (few pieces) deep enough to afford it is
                    // verified; elsewhere the null move's verdict stands.
                    let few_pieces = pieces <= param!(NULL_VERIFY_MAX_PIECES);
                    if !(few_pieces && depth >= param!(NULL_VERIFY_DEPTH)) {
                        return v;
                    }
                    // Confirm with a reduced search that may not pass.
                    let saved = self.moves[ply - 1];
                    self.moves[ply - 1] = Move::NONE;
                    let check = self.alpha_beta(beta - 1, beta, depth - r * ONE_PLY, ply, false);
                    self.moves[ply - 1] = saved;
                    if self.stopped {
                        return 0;
                    }
                    if check >= beta {
                        return v;
                    }
                }
            }
        }

        // Step 10. Internal iterative reduction: without a hash move this node is probably less
        // important than its depth says, and the shallower search will supply one next time.
        if tt_move.is_none() && depth >= param!(IIR_MIN_DEPTH) {
            depth -= ONE_PLY;
        }

        // Step 11. Singular extension: a hash move far better than every other deserves
        // more depth; several moves above beta let the node fail high at once.
        let singular_ext = match hit {
            Some(h) if excluded.is_none() && !tt_move.is_none() => {
                match self.singular(h, tt_move, depth, beta, ply, pv_node, cut_node) {
                    Singular::Extend(e) => e,
                    Singular::MultiCut(v) => return v,
                }
            }
            _ => 0,
        };

        // Step 12. A forced reply or a mate threat makes the whole node more critical.
        let ci = self.pos.check_info();
        if in_check && self.pos.legal_moves().len() == 1 {
            depth += param!(SINGLE_REPLY_EXTENSION);
        }
        let may_extend = (ply as i32) < self.root_depth * param!(EXTENSION_PLY_FACTOR);
        if mate_threat && may_extend {
            depth += param!(MATE_THREAT_EXTENSION);
        }
        let killers = self.killers.get(ply);
        let grand = if ply >= 2 {
            self.killers.get(ply - 2)[0]
        } else {
            Move::NONE
        };
        let counter = self.history.counter(prev);
        let ctx: Context = [
            prev,
            if ply >= 2 {
                self.moves[ply - 2]
            } else {
                Move::NONE
            },
        ];
        let mut picker = self.take_picker(ply);
        picker.start_main(tt_move, in_check, killers, grand, counter, ctx);
        let node = NodeInfo {
            root: false,
            ply,
            depth,
            beta,
            pv_node,
            cut_node,
            tt_move,
            singular_ext,
            in_check,
            eval,
            improving,
            may_extend,
            prev,
            ctx,
            killers,
        };

        // Step 13. The move loop.
        let original_alpha = alpha;
        let mut best = tb_floor;
        let mut best_move = Move::NONE;
        let mut legal = 0usize;
        let mut searched = 0usize;
        let mut quiets = [Move::NONE; MAX_QUIETS_TRIED];
        let mut n_quiets = 0;
        let mut captures = [Move::NONE; MAX_CAPTURES_TRIED];
        let mut n_captures = 0;

        while let Some(m) = picker.next(&self.pos, self.history, &ci) {
            if m == excluded || !self.pos.is_legal(m, &ci) {
                continue;
            }
            legal += 1;
            let quiet = m.is_quiet();
            let bad_capture = picker.in_bad_captures();
            let score = match self.search_move(&node, m, legal, searched, bad_capture, alpha, best)
            {
                Step::Searched(score) => score,
                Step::Pruned => continue,
                Step::PrunedQuiets => {
                    picker.skip_quiets = true;
                    continue;
                }
            };
            if self.stopped {
                return 0;
            }
            searched += 1;

            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            self.history
                                .update_cutoff(m, &quiets[..n_quiets], depth, &ctx);
                            self.killers.update(ply, m);
                        }
                        self.history
                            .update_captures(m, &captures[..n_captures], depth);
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && n_quiets < MAX_QUIETS_TRIED {
                quiets[n_quiets] = m;
                n_quiets += 1;
            } else if !quiet && n_captures < MAX_CAPTURES_TRIED {
                captures[n_captures] = m;
                n_captures += 1;
            }

            // A singular-extension search asks only whether some other move comes near the
            // hash move: the likeliest candidates are the first few quiets and captures in
            // the picker's order, and the rest rarely change the answer (Ethereal's limits).
            // The tried-move lists count them (their 64-move caps bound the limits' ranges).
            if !excluded.is_none() && n_quiets as i32 >= param!(SINGULAR_QUIET_LIMIT) {
                picker.skip_quiets = true;
                if n_captures as i32 >= param!(SINGULAR_NOISY_LIMIT) {
                    break;
                }
            }

            // Young brothers wait: with the first move(s) searched and a thread idle, share
            // the rest of this node.
            if excluded.is_none() && self.may_split(&node, searched) {
                let after = self.split(
                    &node,
                    &mut picker,
                    &ci,
                    (alpha, best, best_move),
                    legal,
                    searched,
                );
                if self.stopped {
                    return 0;
                }
                // A cutoff found under the split teaches the tables as a serial one does, from
                // the moves this thread tried before the split.
                if after.best >= beta && after.best_move != best_move {
                    if after.best_move.is_quiet() {
                        self.history.update_cutoff(
                            after.best_move,
                            &quiets[..n_quiets],
                            depth,
                            &ctx,
                        );
                        self.killers.update(ply, after.best_move);
                    }
                    self.history
                        .update_captures(after.best_move, &captures[..n_captures], depth);
                }
                best = after.best;
                best_move = after.best_move;
                break;
            }
        }
        self.put_picker(ply, picker);

        // Step 14. No legal move is mate or stalemate; no searched move bounds the node by
        // alpha.
        if legal == 0 {
            return if !excluded.is_none() {
                // Only the left-out move was legal: nothing else reaches the singular bound.
                alpha
            } else if in_check {
                -MATE + ply as i32
            } else {
                self.draw_score(ply)
            };
        }
        if searched == 0 {
            // Every legal move was pruned: the node is worth no more than alpha.
            return alpha;
        }
        if !excluded.is_none() {
            return best;
        }
        // Step 15. The result teaches the correction history and goes into the hash table.
        // A table's bound that no move passed is a bound, not the node's exact score.
        let bound = if best > tb_ceiling {
            best = tb_ceiling;
            Bound::Upper
        } else if best_move.is_none() && best == tb_floor {
            Bound::Lower
        } else {
            Bound::of(best, original_alpha, beta)
        };
        // The result teaches the correction history when it says where the true score lies
        // relative to the evaluation: exact, or a bound on the far side of it. Positions won
        // by a capture, and mates and table results, say nothing about the pawn structure's worth.
        if !in_check
            && (best_move.is_none() || best_move.is_quiet())
            && best.abs() < TB_WIN_BOUND
            && !(bound == Bound::Lower && best <= eval)
            && !(bound == Bound::Upper && best >= eval)
        {
            if let Some(keys) = self.correction_keys() {
                self.history
                    .correction
                    .update(us, keys, raw_eval, best, depth);
            }
        }
        let stored_eval = if in_check { 0 } else { raw_eval };
        self.tt
            .store(key, best_move, best, stored_eval, depth, bound, ply);
        best
    }

    /// Singular extension: is the hash move, whose entry says it reaches `h.score`, much
    /// better than every other move here? Searched at half depth with the hash move left
    /// out, against a bound a little below its score. Singular: extend it. Not singular and
    /// even that lowered bound beats beta: several moves refute this node (multi-cut), so it
    /// fails high. Not singular but its score beats beta: search it shallower.
    #[allow(clippy::too_many_arguments)]
    fn singular(
        &mut self,
        h: TtHit,
        tt_move: Move,
        depth: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> Singular {
        let usable = depth >= param!(SINGULAR_MIN_DEPTH)
            && h.depth >= depth - param!(SINGULAR_TT_DEPTH_SLACK)
            && matches!(h.bound, Bound::Lower | Bound::Exact)
            && h.score.abs() < MATE_BOUND
            && (ply as i32) < self.root_depth * param!(EXTENSION_PLY_FACTOR);
        if !usable {
            return Singular::Extend(0);
        }
        let singular_beta = h.score - param!(SINGULAR_MARGIN_PER_PLY) * (depth / ONE_PLY);
        self.excluded[ply] = tt_move;
        let v = self.alpha_beta(
            singular_beta - 1,
            singular_beta,
            (depth - ONE_PLY) / 2,
            ply,
            cut_node,
        );
        self.excluded[ply] = Move::NONE;
        if self.stopped {
            return Singular::Extend(0);
        }
        if !pv_node && v < singular_beta.saturating_sub(param!(SINGULAR_DOUBLE_MARGIN)) {
            Singular::Extend(param!(SINGULAR_DOUBLE_EXTENSION))
        } else if v < singular_beta {
            Singular::Extend(param!(SINGULAR_EXTENSION))
        } else if singular_beta >= beta {
            Singular::MultiCut(singular_beta)
        } else if h.score >= beta {
            Singular::Extend(param!(SINGULAR_NEGATIVE_EXTENSION))
        } else {
            Singular::Extend(0)
        }
    }

    /// One move of a node's move loop: prunes it, or extends, reduces and searches it (PVS,
    /// with a re-search when a reduced or null-window search beats alpha). `legal` counts this
    /// move; `searched` moves came before it; `best` and `alpha` are the node's so far.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_move(
        &mut self,
        n: &NodeInfo,
        m: Move,
        legal: usize,
        searched: usize,
        bad_capture: bool,
        alpha: i32,
        best: i32,
    ) -> Step {
        if n.root {
            return Step::Searched(self.root_move(n.depth, n.beta, m, legal, alpha));
        }
        let ply = n.ply;
        let depth = n.depth;
        let beta = n.beta;
        let d = depth / ONE_PLY;
        let quiet = m.is_quiet();
        let gives_check = self.pos.gives_check(m);

        // A quiet move's history score: read once by the pruning below, reused by LMR.
        let mut quiet_history = None;
        // Pruning of moves that cannot raise alpha, once one line has been searched.
        if !n.in_check && searched > 0 && best > -MATE_BOUND {
            if quiet && !gives_check {
                let lmp_count = (param!(LMP_BASE) + d * d) / if n.improving { 1 } else { 2 };
                if d <= param!(LMP_DEPTH) && legal as i32 > lmp_count {
                    return Step::PrunedQuiets;
                }
                // Futility, history and SEE pruning judge a move by the depth LMR would search
                // it at (Ethereal's and Stockfish's `lmrDepth`): a late quiet with a poor
                // history gets a shallow search anyway, so the margin that fits that depth
                // applies.
                let history = self.history.score(m, &n.ctx);
                quiet_history = Some(history);
                let r = if legal > param!(LMR_MIN_MOVES) + n.pv_node as usize {
                    self.reduction(depth, legal, n.pv_node, n.improving, false, history)
                } else {
                    0
                };
                let lmr_d = ((depth - r) / ONE_PLY).max(0);
                if lmr_d <= param!(FUTILITY_DEPTH)
                    && n.eval + param!(FUTILITY_BASE) + param!(FUTILITY_PER_PLY) * lmr_d <= alpha
                {
                    return Step::PrunedQuiets;
                }
                if lmr_d <= param!(HISTORY_PRUNE_DEPTH)
                    && history < -param!(HISTORY_PRUNE_PER_PLY) * lmr_d.max(1)
                {
                    return Step::Pruned;
                }
                if lmr_d <= param!(SEE_QUIET_DEPTH)
                    && !self.pos.see_ge(m, -param!(SEE_QUIET_MARGIN) * lmr_d)
                {
                    return Step::Pruned;
                }
            } else if !quiet
                && d <= param!(SEE_CAPTURE_DEPTH)
                && !self.pos.see_ge(m, -param!(SEE_CAPTURE_MARGIN) * d)
            {
                return Step::Pruned;
            }
        }

        let prev = n.prev;
        let mut ext = 0;
        if n.may_extend {
            if gives_check {
                ext += param!(CHECK_EXTENSION);
            }
            if m.is_capture() && prev.is_capture() && m.to() == prev.to() {
                let a = SEE_VALUES[m.captured().kind_index() as usize];
                let b = SEE_VALUES[prev.captured().kind_index() as usize];
                if (a - b).abs() <= param!(RECAPTURE_VALUE_TOLERANCE) {
                    ext += param!(RECAPTURE_EXTENSION);
                }
            }
            let us = self.pos.side_to_move();
            if m.moved().is_kind(Kind::Pawn)
                && us.relative_rank(rank_of(m.to())) == 6
                && is_passed(&self.pos, m.to(), us)
            {
                ext += param!(PAWN_SEVENTH_EXTENSION);
            }
            // A double singular extension is the one extension allowed past the cap.
            let cap = if m == n.tt_move {
                ext += n.singular_ext;
                param!(EXTENSION_CAP).max(n.singular_ext)
            } else {
                if quiet && n.pv_node {
                    // A quiet move that has kept refuting both the opponent's last move and our
                    // own move before it is likely the best here: on the PV it earns more depth.
                    let [counter, follow_up] = self.history.continuations(m, &n.ctx);
                    let limit = param!(HISTORY_EXTENSION_LIMIT);
                    if counter > limit && follow_up > limit {
                        ext += param!(HISTORY_EXTENSION);
                    }
                }
                param!(EXTENSION_CAP)
            };
            ext = ext.min(cap);
        }
        let new_depth = depth - ONE_PLY + ext;

        self.moves[ply] = m;
        self.pos.make(m);
        let score = if searched == 0 {
            -self.alpha_beta(-beta, -alpha, new_depth, ply + 1, !n.pv_node && !n.cut_node)
        } else {
            let mut r = 0;
            if depth >= param!(LMR_MIN_DEPTH)
                && searched >= param!(LMR_MIN_MOVES) + n.pv_node as usize
                && !n.in_check
                && (quiet || bad_capture)
            {
                r = self.reduction(
                    depth,
                    searched + 1,
                    n.pv_node,
                    n.improving,
                    gives_check,
                    if quiet {
                        quiet_history.unwrap_or_else(|| self.history.score(m, &n.ctx))
                    } else {
                        0
                    },
                );
                if quiet && (m == n.killers[0] || m == n.killers[1]) {
                    r = (r - ONE_PLY).max(0);
                }
                // Quiets after a capturing hash move are less likely to matter.
                if quiet && n.tt_move.is_capture() {
                    r = (r + param!(LMR_TT_CAPTURE)).min((depth - 2 * ONE_PLY).max(0));
                }
            }
            let (first_depth, child_cut) = if r > 0 {
                (new_depth - r, true)
            } else {
                (new_depth, !n.cut_node)
            };
            let mut alpha = alpha;
            let mut s = -self.alpha_beta(-alpha - 1, -alpha, first_depth, ply + 1, child_cut);
            // At a split point another thread may have raised alpha since this one took the
            // move: a fail high against the old alpha is tried against the new one before
            // the re-searches, which the serial search would not have made.
            if s > alpha {
                s = self.retry_raised_alpha(s, &mut alpha, beta, ply, first_depth, child_cut);
            }
            let mut full_depth = new_depth;
            if s > alpha && r > 0 {
                // The reduced search's margin over the best so far sizes the re-search: far
                // above it, a ply deeper; barely above, a ply shallower.
                let deeper =
                    param!(LMR_DEEPER_BASE) + param!(LMR_DEEPER_PER_PLY) * (new_depth / ONE_PLY);
                if s > best + deeper {
                    full_depth += ONE_PLY;
                } else if s < best + param!(LMR_SHALLOWER_MARGIN) {
                    full_depth -= ONE_PLY;
                }
                if full_depth > new_depth - r {
                    s = -self.alpha_beta(-alpha - 1, -alpha, full_depth, ply + 1, !n.cut_node);
                }
            }
            if s > alpha && s < beta {
                s = self.retry_raised_alpha(s, &mut alpha, beta, ply, full_depth, !n.cut_node);
            }
            if s > alpha && s < beta {
                s = -self.alpha_beta(-beta, -alpha, full_depth, ply + 1, false);
            }
            s
        };
        self.pos.unmake();
        Step::Searched(score)
    }

    /// A root move after the first: reduced when late and quiet, searched with a null window
    /// at alpha, re-searched at full depth and then with the full window when it beats alpha.
    /// `count` is its number (1-based) among the root moves of this line.
    fn root_move(&mut self, depth: i32, beta: i32, m: Move, count: usize, alpha: i32) -> i32 {
        let gives_check = self.pos.gives_check(m);
        let ext = if gives_check {
            param!(CHECK_EXTENSION)
        } else {
            0
        };
        let new_depth = depth - ONE_PLY + ext;
        self.moves[0] = m;
        self.pos.make(m);
        let mut r = 0;
        if depth >= param!(LMR_MIN_DEPTH) && count - 1 > param!(LMR_MIN_MOVES) && m.is_quiet() {
            r = self.reduction(depth, count, true, true, gives_check, 0);
        }
        let mut alpha = alpha;
        let mut s = -self.alpha_beta(-alpha - 1, -alpha, new_depth - r, 1, true);
        // As in `search_move`: a helper's stale alpha is brought up to date before any
        // re-search.
        if s > alpha {
            s = self.retry_raised_alpha(s, &mut alpha, beta, 0, new_depth - r, true);
        }
        if s > alpha && r > 0 {
            s = -self.alpha_beta(-alpha - 1, -alpha, new_depth, 1, true);
        }
        if s > alpha && s < beta {
            s = self.retry_raised_alpha(s, &mut alpha, beta, 0, new_depth, true);
        }
        if s > alpha && s < beta {
            s = -self.alpha_beta(-beta, -alpha, new_depth, 1, false);
        }
        self.pos.unmake();
        s
    }

    /// `s`, a null-window score above `*alpha` from a child of the node at `ply` (the move is
    /// made); but when that node is the split point this thread works at and another thread
    /// has raised its alpha (still below `beta`) since this thread took the move, `*alpha`
    /// becomes the new one and the same search, `depth` deep with `cut`, is made against it.
    /// The only node at that ply on this thread's path is the split point's.
    fn retry_raised_alpha(
        &mut self,
        s: i32,
        alpha: &mut i32,
        beta: i32,
        ply: usize,
        depth: i32,
        cut: bool,
    ) -> i32 {
        let Some(sp) = self.split.as_ref().filter(|sp| sp.node.ply == ply) else {
            return s;
        };
        let now = sp.state.lock().alpha;
        if now <= *alpha || now >= beta {
            return s;
        }
        *alpha = now;
        -self.alpha_beta(-now - 1, -now, depth, ply + 1, cut)
    }

    /// The correction history's keys for this position: its pawn key and each colour's key of
    /// its other pieces, or none without pawns.
    /// Every pawnless position shares one pawn key, so an entry learnt in one pawnless ending
    /// would shift the evaluation of all others (it broke the KBNK mate, whose recogniser's
    /// gradient toward the corner must stay as it is).
    #[inline]
    fn correction_keys(&self) -> Option<CorrectionKeys> {
        (self.pos.kind_set(Kind::Pawn) != 0).then(|| CorrectionKeys {
            pawn: self.pos.pawn_key(),
            non_pawn: Colour::BOTH.map(|c| self.pos.non_pawn_key(c)),
        })
    }

    /// The static evaluation `raw` plus what the correction history has learnt about this
    /// pawn structure.
    #[inline]
    pub(super) fn corrected(&self, raw: i32) -> i32 {
        match self.correction_keys() {
            Some(keys) => self
                .history
                .correction
                .corrected(self.pos.side_to_move(), keys, raw),
            None => raw,
        }
    }
}
