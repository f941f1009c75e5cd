//! Mop-up: against a bare king, drive it to the edge and bring our own king close, so that the
//! search finds mates with rook, queen or two minors that lie beyond its horizon.

use super::info::EvalInfo;
use super::params::Params;
use super::term::Term;
use super::tracer::Tracer;
use crate::board::geometry::distance;
use crate::board::Position;
use crate::types::{file_of, rank_of, Colour, Kind, Square};

/// Largest edge distance (a centre square) and king distance on the board.
const MAX_EDGE_DISTANCE: i32 = 3;
const MAX_KING_DISTANCE: i32 = 7;

/// Steps from `sq` to the nearest edge: 0 on the rim, 3 in the centre.
fn edge_distance(sq: Square) -> i32 {
    let (f, r) = (file_of(sq) as i32, rank_of(sq) as i32);
    f.min(7 - f).min(r).min(7 - r)
}

/// Enough to mate a bare king by force.
fn can_mate(pos: &Position, c: Colour) -> bool {
    let n = |k| pos.count_of(c, k);
    n(Kind::Queen) + n(Kind::Rook) > 0
        || n(Kind::Bishop) >= 2
        || (n(Kind::Bishop) >= 1 && n(Kind::Knight) >= 1)
}

pub(crate) fn evaluate<T: Tracer>(pos: &Position, p: &Params, info: &mut EvalInfo<T>) {
    for c in Colour::BOTH {
        let them = c.flip();
        if pos.pieces(them).len() != 1 || !pos.pawns(them).is_empty() || !can_mate(pos, c) {
            continue;
        }
        let their_king = pos.king(them);
        let edge = MAX_EDGE_DISTANCE - edge_distance(their_king);
        let near = MAX_KING_DISTANCE - distance(pos.king(c), their_king) as i32;
        let t = &mut info.tracer;
        let v = weight_times!(t, c, p, mopup_edge, edge)
            + weight_times!(t, c, p, mopup_king_distance, near);
        info.add(Term::Mopup, c, v);
    }
}
