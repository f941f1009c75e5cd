//! Threats: pieces attacked by pawns and pieces left hanging. The quiescence search resolves
//! captures, but a side to move facing two threats, or a piece that must retreat, loses time
//! that the static score should see.

use super::params::Params;
use super::pawns::bb;
use super::score::Score;
use super::trace::Term;
use super::tracer::Tracer;
use super::EvalInfo;
use crate::board::Position;
use crate::types::{Colour, Kind};

pub(crate) fn evaluate<T: Tracer>(pos: &Position, p: &Params, info: &mut EvalInfo<T>) {
    for c in Colour::BOTH {
        let us = c.index();
        let them = c.flip();
        let mut v = Score::ZERO;
        for &sq in &pos.pieces(them)[1..] {
            let b = bb(sq);
            if info.pawns.attacks[us] & b != 0 {
                v += match pos.piece_at(sq).kind() {
                    Kind::Knight | Kind::Bishop => weight!(info.tracer, c, p, pawn_threat_minor),
                    _ => weight!(info.tracer, c, p, pawn_threat_major),
                };
            } else if info.attacked[us] & b != 0 && info.attacked[them.index()] & b == 0 {
                v += weight!(info.tracer, c, p, hanging);
            }
        }
        info.add(Term::Threats, c, v);
    }
}
