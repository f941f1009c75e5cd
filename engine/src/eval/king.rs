//! King safety: pawn shelter and storm (from the pawn hash) and the attack on the king zone.
//!
//! Shelter: the king is credited with the better of its current file and the files it could
//! still castle to, so an uncastled king is not punished for pawns it is about to hide behind.
//!
//! Attack: every piece hitting the enemy king zone adds its kind's weight; the sum is
//! multiplied by a factor that grows with the number of attackers (one piece alone is rarely
//! dangerous), zone hits and safe checking squares add more units, and the units go through a
//! convex table, so the danger climbs steeply as attackers pile up. It only counts when the
//! attacker has a queen or enough other material to mate with.

use super::info::{king_zone, EvalInfo};
use super::mobility::kind_slot;
use super::params::{Params, KING_ATTACKERS_SCALE_ONE, KING_SAFETY_UNITS};
use super::pawns::{PawnEntry, LONG_CASTLE_FILE, SHORT_CASTLE_FILE};
use super::psqt;
use super::score::Score;
use super::term::Term;
use super::tracer::Tracer;
use crate::board::bitboard;
use crate::board::{castle_rights, Position};
use crate::types::{to64, Colour, Kind, Piece};

/// Without a queen, an attack counts only with at least this much phase material (a rook is
/// 2, a minor 1): two rooks and a minor, say.
const KING_ATTACK_MIN_PHASE: i32 = 5;
/// Most attackers the count-dependent multiplier distinguishes.
const MAX_COUNTED_ATTACKERS: usize = 7;

/// The file whose shelter `c`'s king is credited with: its own, or a castling file whose
/// shelter is better in the middlegame.
fn shelter_file(pos: &Position, e: &PawnEntry, c: Colour) -> usize {
    let (short, long) = castle_rights(c);
    let mut file = (pos.king(c) & 7) as usize;
    for (right, castle_file) in [(short, SHORT_CASTLE_FILE), (long, LONG_CASTLE_FILE)] {
        if pos.castling() & right != 0
            && e.shelter_at(c, castle_file).mg() > e.shelter_at(c, file).mg()
        {
            file = castle_file;
        }
    }
    file
}

/// Tells the tracer of the shelter weights behind `shelter(pos, e, c)`.
pub(crate) fn trace_shelter<T: Tracer>(
    pos: &Position,
    p: &Params,
    e: &PawnEntry,
    c: Colour,
    t: &mut T,
) {
    e.shelter_on(p, c, shelter_file(pos, e, c) as u8, t);
}

/// Shelter and storm score of `c`'s king.
pub fn shelter(pos: &Position, e: &PawnEntry, c: Colour) -> Score {
    e.shelter_at(c, shelter_file(pos, e, c))
}

/// Does a queen of `c` reach the enemy king's square or a square next to it? Such a queen
/// can be worth more than any static margin (a mate, or a sacrifice that mates).
pub fn queen_bears_on_king(pos: &Position, c: Colour) -> bool {
    let queen = Piece::new(c, Kind::Queen);
    if pos.count(queen) == 0 {
        return false;
    }
    let their_king = pos.king(c.flip());
    let zone = king_zone(their_king);
    let occupied = pos.occupied();
    pos.pieces(c)[1..]
        .iter()
        .filter(|&&sq| pos.piece_at(sq) == queen)
        .any(|&sq| bitboard::queen(to64(sq), occupied) & zone != 0)
}

/// Does the piece on `sq` (a knight, bishop, rook or queen) reach its enemy king's square or a
/// square next to it? The search asks this of the piece just moved: a piece that has come to
/// bear on the king can threaten a mate that no static margin prices.
pub fn piece_bears_on_king(pos: &Position, sq: crate::types::Square) -> bool {
    let p = pos.piece_at(sq);
    if p.is_none() {
        return false;
    }
    let their_king = pos.king(p.colour().flip());
    let zone = king_zone(their_king);
    let from = to64(sq);
    let reach = match p.kind() {
        Kind::Knight => bitboard::KNIGHT[from & 63],
        Kind::Bishop => bitboard::bishop(from, pos.occupied()),
        Kind::Rook => bitboard::rook(from, pos.occupied()),
        Kind::Queen => bitboard::queen(from, pos.occupied()),
        _ => 0,
    };
    reach & zone != 0
}

/// Phase weight of `c`'s pieces: how much mating material it has.
fn attack_material(pos: &Position, c: Colour) -> i32 {
    [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen]
        .iter()
        .map(|&k| psqt::phase_weight(k) * pos.count_of(c, k) as i32)
        .sum()
}

/// Attack units for checks from squares the defender does not guard.
fn safe_check_units<T: Tracer>(pos: &Position, p: &Params, info: &EvalInfo<T>, c: Colour) -> i32 {
    let us = c.index();
    let them = c.flip();
    let ksq = pos.king(them);
    let safe = !info.attacked[them.index()] & !info.occupied[us];
    let by = &info.attacked_by[us];
    let occupied = info.occupied[0] | info.occupied[1];
    let from = to64(ksq);
    let knight = bitboard::KNIGHT[from & 63];
    let diagonal = bitboard::bishop(from, occupied);
    let straight = bitboard::rook(from, occupied);
    let count = |squares: u64, kind: Kind| {
        (squares & by[kind as usize] & safe).count_ones() as i32
            * p.king_safe_check[kind_slot(kind)].mg()
    };
    count(knight, Kind::Knight)
        + count(diagonal, Kind::Bishop)
        + count(straight, Kind::Rook)
        + count(diagonal | straight, Kind::Queen)
}

pub(crate) fn evaluate<T: Tracer>(pos: &Position, p: &Params, info: &mut EvalInfo<T>) {
    for c in Colour::BOTH {
        let us = c.index();
        if info.king_attackers[us] == 0 {
            continue;
        }
        if pos.count_of(c, Kind::Queen) == 0 && attack_material(pos, c) < KING_ATTACK_MIN_PHASE {
            continue;
        }
        let attackers = (info.king_attackers[us] as usize).min(MAX_COUNTED_ATTACKERS);
        let units = info.king_attack_weight[us] * p.king_attackers_scale[attackers].mg()
            / KING_ATTACKERS_SCALE_ONE
            + info.king_zone_hits[us] * p.king_zone_hit.mg()
            + safe_check_units(pos, p, info, c);
        let units = units.clamp(0, KING_SAFETY_UNITS as i32 - 1) as usize;
        let danger = weight!(info.tracer, c, p, king_safety[units]);
        info.add(Term::KingAttack, c, danger);
    }
}
