//! Threats: pieces attacked by pawns, by minor pieces and by rooks, pieces left hanging or
//! outnumbered, pieces with one defender against one attacker, the queen under attack, and
//! pawn pushes that would attack a piece. The quiescence search resolves captures, but a side
//! to move facing two threats, or a piece that must retreat, loses time that the static score
//! should see.
//!
//! "Poorly defended" (Ethereal's set) counts attackers roughly: a square we attack that the
//! enemy does not defend, or that we attack twice and the enemy defends once and not with a
//! pawn. It stands for a capture that wins material without working out the exchange.

use super::info::EvalInfo;
use super::mobility::kind_slot;
use super::params::Params;
use super::pawns::{count, pawn_attacks, rank_mask};
use super::score::Score;
use super::term::Term;
use super::tracer::Tracer;
use crate::board::bitboard;
use crate::board::Position;
use crate::types::{from64, Colour, Kind};

pub(crate) fn evaluate<T: Tracer>(pos: &Position, p: &Params, info: &mut EvalInfo<T>) {
    for c in Colour::BOTH {
        let us = c.index();
        let them = c.flip();
        // Enemy pieces (king and pawns aside) attacked by our pawns, else hanging: attacked
        // by us and not defended. Counted on the sets, one weight times a count per kind.
        let theirs = info.occupied[them.index()];
        let minors = (pos.kind_set(Kind::Knight) | pos.kind_set(Kind::Bishop)) & theirs;
        let majors = (pos.kind_set(Kind::Rook) | pos.kind_set(Kind::Queen)) & theirs;
        let by_pawns = info.pawns.attacks[us];
        let hanging =
            (minors | majors) & !by_pawns & info.attacked[us] & !info.attacked[them.index()];
        let t = &mut info.tracer;
        let mut v = weight_times!(t, c, p, pawn_threat_minor, count(minors & by_pawns))
            + weight_times!(t, c, p, pawn_threat_major, count(majors & by_pawns))
            + weight_times!(t, c, p, hanging, count(hanging));
        v += piece_threats(pos, p, info, c);
        v += defence_threats(pos, p, info, c);
        v += push_threats(p, info, c);
        info.add(Term::Threats, c, v);
    }
}

/// Enemy pieces and pawns attacked by our minor pieces or rooks, by the victim's kind. A pawn
/// or a piece of the attacker's own kind counts only when no enemy pawn defends it (otherwise
/// the capture is an even trade at best).
fn piece_threats<T: Tracer>(
    pos: &Position,
    p: &Params,
    info: &mut EvalInfo<T>,
    c: Colour,
) -> Score {
    let us = c.index();
    let them = c.flip();
    let by = &info.attacked_by[us];
    let minors = by[Kind::Knight as usize] | by[Kind::Bishop as usize];
    let rooks = by[Kind::Rook as usize];
    let pawn_defended = info.pawns.attacks[them.index()];
    let mut v = Score::ZERO;
    // Only the attacked enemy men can score; the king is never a victim here.
    let mut victims = (minors | rooks) & info.occupied[them.index()] & !pos.kind_set(Kind::King);
    while victims != 0 {
        let b = victims & victims.wrapping_neg();
        victims ^= b;
        let kind = pos.piece_at(from64(b.trailing_zeros() as usize)).kind();
        let slot = kind_slot(kind);
        let weak = pawn_defended & b == 0;
        if minors & b != 0 && (weak || matches!(kind, Kind::Rook | Kind::Queen)) {
            v += weight!(info.tracer, c, p, minor_threat[slot]);
        }
        if rooks & b != 0 && (weak || kind == Kind::Queen) {
            v += weight!(info.tracer, c, p, rook_threat[slot]);
        }
    }
    v
}

/// Enemy men that the defence covers too thinly: weak pawns, outnumbered and overloaded
/// pieces, the queen attacked, minors and rooks the king attacks. One weight times a count
/// each, on the attack maps.
fn defence_threats<T: Tracer>(
    pos: &Position,
    p: &Params,
    info: &mut EvalInfo<T>,
    c: Colour,
) -> Score {
    let us = c.index();
    let them = c.flip().index();
    let (att, twice) = (info.attacked, info.attacked_twice);
    let their_pawn_cover = info.pawns.attacks[them];
    let poorly = (att[us] & !att[them]) | (twice[us] & !twice[them] & !their_pawn_cover);
    let theirs = info.occupied[them];
    let minors = (pos.kind_set(Kind::Knight) | pos.kind_set(Kind::Bishop)) & theirs;
    let rooks = pos.kind_set(Kind::Rook) & theirs;
    let queens = pos.kind_set(Kind::Queen) & theirs;
    let pieces = minors | rooks | queens;
    // Men our pawns attack score as pawn threats already.
    let not_by_pawns = !info.pawns.attacks[us];
    let weak_pawns = info.pawns.pawns[them] & not_by_pawns & poorly;
    let outnumbered = pieces & not_by_pawns & poorly & att[them];
    let overloaded = pieces & att[us] & !twice[us] & att[them] & !twice[them];
    let by_king = info.attacked_by[us][Kind::King as usize] & poorly;
    let xrayed = xrayed_queens(pos, info, c, queens);
    let t = &mut info.tracer;
    weight_times!(t, c, p, weak_pawn, count(weak_pawns))
        + weight_times!(t, c, p, poorly_defended, count(outnumbered))
        + weight_times!(t, c, p, overloaded, count(overloaded))
        + weight_times!(t, c, p, queen_attacked, count(queens & att[us]))
        + weight_times!(t, c, p, queen_xrayed, xrayed)
        + weight_times!(t, c, p, king_threat_minor, count(minors & by_king))
        + weight_times!(t, c, p, king_threat_rook, count(rooks & by_king))
}

/// Enemy queens in `queens` that a bishop or rook of `c` would attack but for one man in
/// between (of either colour: a pin, or a discovered attack).
fn xrayed_queens<T: Tracer>(pos: &Position, info: &EvalInfo<T>, c: Colour, queens: u64) -> i32 {
    let own = info.occupied[c.index()];
    let bishops = pos.kind_set(Kind::Bishop) & own;
    let rooks = pos.kind_set(Kind::Rook) & own;
    if bishops | rooks == 0 {
        return 0;
    }
    let occupied = info.occupied[0] | info.occupied[1];
    let mut n = 0;
    let mut set = queens;
    while set != 0 {
        let q = set.trailing_zeros() as usize;
        set &= set - 1;
        let diagonal = bitboard::bishop(q, occupied);
        let beyond = bitboard::bishop(q, occupied & !diagonal) & !diagonal;
        let straight = bitboard::rook(q, occupied);
        let past = bitboard::rook(q, occupied & !straight) & !straight;
        n += i32::from(beyond & bishops != 0 || past & rooks != 0);
    }
    n
}

/// Enemy pieces that one of our pawns would attack after a push to a square where it is not
/// lost at once (no enemy pawn attacks it, and the enemy does not attack it or we defend it).
fn push_threats<T: Tracer>(p: &Params, info: &mut EvalInfo<T>, c: Colour) -> Score {
    let us = c.index();
    let them = c.flip().index();
    let empty = !(info.occupied[0] | info.occupied[1]);
    let own = info.pawns.pawns[us];
    let (single, double_rank) = match c {
        Colour::White => ((own << 8) & empty, rank_mask(3)),
        Colour::Black => ((own >> 8) & empty, rank_mask(4)),
    };
    let double = match c {
        Colour::White => (single << 8) & empty & double_rank,
        Colour::Black => (single >> 8) & empty & double_rank,
    };
    let safe = !info.pawns.attacks[them] & (!info.attacked[them] | info.attacked[us]);
    let pushed = (single | double) & safe;
    let pieces = info.occupied[them] & !info.pawns.pawns[them];
    let n = (pawn_attacks(c, pushed) & pieces).count_ones() as i32;
    weight_times!(info.tracer, c, p, pawn_push_threat, n)
}
