//! Material imbalance: the bishop pair, knights and rooks whose worth shifts with the number of
//! own pawns (knights gain in closed positions, rooks in open ones), and the trades whose worth
//! `squall imbalance` measured by games (a queen against three minors by the rooks left, a rook
//! against two minors, the exchange).

use super::info::EvalInfo;
use super::params::Params;
use super::score::Score;
use super::term::Term;
use super::tracer::Tracer;
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
        v += trades(pos, p, c, t);
        info.add(Term::Imbalance, c, v);
    }
}

/// The trade weights for side `c`, from the piece counts (what the material key holds).
fn trades<T: Tracer>(pos: &Position, p: &Params, c: Colour, t: &mut T) -> Score {
    let o = c.flip();
    let count = |side: Colour, k: Kind| pos.count_of(side, k) as i32;
    let minors = |side: Colour| count(side, Kind::Knight) + count(side, Kind::Bishop);
    let (queens, rooks) = (
        count(c, Kind::Queen) - count(o, Kind::Queen),
        count(c, Kind::Rook) - count(o, Kind::Rook),
    );
    let minors_down = minors(o) - minors(c);
    if queens == 1 && rooks == 0 && minors_down >= 2 {
        let pairs = count(c, Kind::Rook).min(count(o, Kind::Rook)).min(2) as usize;
        weight!(t, c, p, queen_vs_minors[pairs])
    } else if queens == 0 && rooks == 1 && minors_down == 2 {
        weight!(t, c, p, rook_vs_minors)
    } else if queens == 0 && rooks == 1 && minors_down == 1 {
        weight!(t, c, p, exchange)
    } else {
        Score::ZERO
    }
}
