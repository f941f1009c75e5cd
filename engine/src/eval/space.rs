//! Space: squares where one side's pieces are cramped, and the centre held uncontested
//! (Ethereal 12's space terms).
//!
//! A square we attack once, and not with a pawn, while the enemy attacks it twice is one our
//! pieces cannot use or hold: an occupied one is a piece short of support, an empty one a
//! square denied. The centre counts the 16 squares c3-f6 the enemy does not attack and we
//! attack or occupy; with few pieces left one rook or queen controls most of them for nothing,
//! so that term waits for enough pieces on the board.

use super::info::EvalInfo;
use super::params::Params;
use super::pawns::count;
use super::term::Term;
use super::tracer::Tracer;
use crate::board::Position;
use crate::types::Colour;

/// Files c-f of ranks 3-6.
const CENTRE: u64 = 0x0000_3c3c_3c3c_0000;

/// The centre term counts only while the game phase (minors 1, rooks 2, queens 4, both
/// colours: `psqt::PHASE_TOTAL` with every piece on) exceeds this, Ethereal's threshold.
pub const CENTRE_MIN_PHASE: i32 = 12;

pub(crate) fn evaluate<T: Tracer>(pos: &Position, p: &Params, info: &mut EvalInfo<T>) {
    let occupied = info.occupied[0] | info.occupied[1];
    let centre_counts = pos.phase() > CENTRE_MIN_PHASE;
    for c in Colour::BOTH {
        let us = c.index();
        let them = c.flip().index();
        let (att, twice) = (info.attacked, info.attacked_twice);
        let restricted = twice[them] & att[us] & !twice[us] & !info.pawns.attacks[us];
        let t = &mut info.tracer;
        let mut v = weight_times!(
            t,
            c,
            p,
            space_restricted_piece,
            count(restricted & occupied)
        ) + weight_times!(
            t,
            c,
            p,
            space_restricted_empty,
            count(restricted & !occupied)
        );
        if centre_counts {
            let held = CENTRE & !att[them] & (att[us] | info.occupied[us]);
            v += weight_times!(t, c, p, space_centre_control, count(held));
        }
        info.add(Term::Space, c, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_is_c3_to_f6() {
        let squares: Vec<u32> = (0..64).filter(|&i| CENTRE >> i & 1 != 0).collect();
        let expected: Vec<u32> = (2..=5)
            .flat_map(|rank| (2..=5).map(move |file| rank * 8 + file))
            .collect();
        assert_eq!(squares, expected);
    }
}
