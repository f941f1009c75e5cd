//! Quiescence search: at the leaves, captures (and at its first ply quiet checks) until the
//! position is quiet, so the evaluation is never asked about a position with a piece hanging.

use crate::board::see::SEE_VALUES;
use crate::moves::Move;

use super::params::*;
use super::searcher::Tree;
use super::tt::Bound;

impl Tree<'_> {
    pub(super) fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: i32) -> i32 {
        if let Some(score) = self.enter_node(alpha, beta, ply) {
            return score;
        }
        let in_check = self.pos.in_check();
        let pv_node = beta - alpha > 1;
        let key = self.pos.key();
        let use_tt = qply < param!(QS_TT_PLIES);
        if !in_check {
            self.eval.touch(&self.pos);
        }
        let hit = if use_tt {
            self.tt.probe(key, ply)
        } else {
            None
        };
        let tt_move = self.hash_move(hit);
        if let Some(h) = hit {
            if !pv_node && h.cuts(alpha, beta) {
                return h.score;
            }
        }

        let original_alpha = alpha;
        let stand_pat;
        let raw_eval;
        let mut best;
        if in_check {
            stand_pat = -INFINITY;
            raw_eval = 0;
            best = -MATE + ply as i32;
        } else {
            raw_eval = match hit {
                Some(h) => h.eval,
                None => self.eval.evaluate(&self.pos, alpha, beta),
            };
            stand_pat = self.corrected(raw_eval);
            if stand_pat >= beta {
                if use_tt && hit.is_none() {
                    self.tt
                        .store(key, Move::NONE, stand_pat, raw_eval, 0, Bound::Lower, ply);
                }
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }

        let ci = self.pos.check_info();
        let mut picker = self.take_picker(ply);
        picker.start_quiescence(tt_move, in_check, qply < param!(QS_CHECK_PLIES));
        let mut best_move = Move::NONE;
        while let Some(m) = picker.next(&self.pos, self.history, &ci) {
            // The pruning tests come before the legality test: most captures they drop are
            // never tested for legality at all (the order changes no result).
            if !in_check {
                // Delta pruning: the capture cannot lift the score to alpha, unless it checks
                // (a checking capture can mate, as 1...fxg6 2.Nxg6# in WAC.001).
                if m.is_capture()
                    && !m.is_promotion()
                    && stand_pat
                        + SEE_VALUES[m.captured().kind_index() as usize]
                        + param!(DELTA_MARGIN)
                        <= alpha
                    && !self.pos.gives_check(m)
                {
                    continue;
                }
                // A capture must win material, and when the stand-pat score lies far below
                // alpha, enough of it to come within QS_SEE_MARGIN of alpha: an even trade
                // rarely changes the score, and skipping it saves its whole subtree.
                // Quiet checks keep the plain test (they win nothing by exchange).
                let threshold = if m.is_quiet() {
                    0
                } else {
                    (alpha - stand_pat - param!(QS_SEE_MARGIN)).max(1)
                };
                if !self.pos.see_ge(m, threshold) {
                    continue;
                }
            }
            if !self.pos.is_legal(m, &ci) {
                continue;
            }
            self.moves[ply] = m;
            self.pos.make(m);
            let score = -self.quiescence(-beta, -alpha, ply + 1, qply + 1);
            self.pos.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        self.put_picker(ply, picker);
        if use_tt {
            let bound = Bound::of(best, original_alpha, beta);
            self.tt.store(key, best_move, best, raw_eval, 0, bound, ply);
        }
        best
    }
}
