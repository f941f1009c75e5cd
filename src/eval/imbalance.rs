//! Material imbalance: the bishop pair, and knights and rooks whose worth shifts with the
//! number of own pawns (knights gain in closed positions, rooks in open ones).

use super::params::Params;
use super::score::Score;
use super::trace::Term;
use super::tracer::Tracer;
use super::EvalInfo;
use crate::board::Position;
use crate::types::{Colour, Kind};

/// The pawn count at which the knight and rook values in `psqt` hold unadjusted.
pub const IMBALANCE_PAWN_BASE: i32 = 5;

pub(crate) fn evaluate<T: Tracer>(pos: &Position, p: &Params, info: &mut EvalInfo<T>) {
    for c in Colour::BOTH {
        let mut v = Score::ZERO;
        if pos.count_of(c, Kind::Bishop) >= 2 {
            v += weight!(info.tracer, c, p, bishop_pair);
        }
        let extra_pawns = pos.pawns(c).len() as i32 - IMBALANCE_PAWN_BASE;
        let t = &mut info.tracer;
        let knights = extra_pawns * pos.count_of(c, Kind::Knight) as i32;
        let rooks = extra_pawns * pos.count_of(c, Kind::Rook) as i32;
        v += weight_times!(t, c, p, knight_pawn_adjust, knights);
        v += weight_times!(t, c, p, rook_pawn_adjust, rooks);
        info.add(Term::Imbalance, c, v);
    }
}
