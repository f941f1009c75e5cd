//! Passed pawns, the piece-dependent half: what the pawn hash cannot know.
//!
//! Passers win endgames, and how dangerous one is depends on the kings and pieces around it:
//! the enemy king's distance from its stop square (the farther, the better) and our own king's
//! (the nearer, the better), whether its path to promotion is empty, and whether the enemy
//! attacks any square of that path. Against a bare king, a passer outside the king's square
//! (counting the tempo and the double step from the second rank) cannot be caught.

use super::info::EvalInfo;
use super::params::Params;
use super::pawns::bb;
use super::score::Score;
use super::term::Term;
use super::tracer::Tracer;
use crate::board::geometry::distance;
use crate::board::Position;
use crate::types::{from64, rank_of, square, Colour, Square};

/// Relative rank of a pawn on its starting square, which may advance two squares at once.
const START_RANK: usize = 1;
const PROMOTION_RANK: u8 = 7;

pub(crate) fn evaluate<T: Tracer>(pos: &Position, p: &Params, info: &mut EvalInfo<T>) {
    for c in Colour::BOTH {
        let us = c.index();
        let them = c.flip();
        let mut bits = info.pawns.passed[us];
        if bits == 0 {
            continue;
        }
        let own_king = pos.king(c);
        let their_king = pos.king(them);
        let bare_king = pos.pieces(them).len() == 1;
        let mut score = Score::ZERO;
        while bits != 0 {
            let sq = from64(bits.trailing_zeros() as usize);
            bits &= bits - 1;
            let rr = c.relative_rank(rank_of(sq)) as usize;
            let stop = (sq as i16 + c.forward()) as Square;
            let promo = square(sq & 7, c.relative_rank(PROMOTION_RANK));
            let t = &mut info.tracer;
            let (their_distance, own_distance) = (
                distance(their_king, stop) as i32,
                distance(own_king, stop) as i32,
            );
            score += weight_times!(t, c, p, passed_enemy_king_distance[rr], their_distance);
            score += weight_times!(t, c, p, passed_own_king_distance[rr], own_distance);

            let (mut free, mut safe) = (true, true);
            let mut t = stop;
            loop {
                if pos.piece_at(t).is_some() {
                    free = false;
                    break;
                }
                if info.attacked[them.index()] & bb(t) != 0 {
                    safe = false;
                }
                if t == promo {
                    break;
                }
                t = (t as i16 + c.forward()) as Square;
            }
            let t = &mut info.tracer;
            if free {
                score += weight!(t, c, p, passed_free_path[rr]);
                if safe {
                    score += weight!(t, c, p, passed_safe_path[rr]);
                }
            }
            if bare_king && free {
                let pawn_moves = PROMOTION_RANK as i32 - rr as i32 - (rr == START_RANK) as i32;
                let king_moves =
                    distance(their_king, promo) as i32 - (pos.side_to_move() == them) as i32;
                if king_moves > pawn_moves {
                    score += weight!(t, c, p, passed_unstoppable);
                }
            }
        }
        info.add(Term::PassedPawns, c, score);
    }
}
