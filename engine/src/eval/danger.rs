//! King danger: the attack on the enemy king as one smooth curve (Ethereal 12's shape).
//!
//! For each colour attacking the enemy king, the danger is a weighted sum of the attack's
//! features, `d = Σ weight_i · feature_i` (middlegame halves of the `king_danger_*` weights):
//! the knights, bishops, rooks and queens that hit the king zone (`info::king_area`: the
//! king's square, its neighbours and the three squares two ranks ahead, a file wider on an
//! edge, less the squares two defending pawns guard), the zone squares they hit (once per
//! attacker), the weak zone squares (ones we attack that the defender guards with nothing but
//! its king or queen), the safe checks of each kind (checking squares the defender does not
//! guard and we do not occupy), no queen of ours, and a constant. The attacker gains
//! `max(d, 0)² / 720` in the middlegame and `max(d, 0) / 20` in the endgame (integer
//! division): the danger climbs steeply as the attack grows, and a weak attack is worth
//! nothing.
//!
//! The attack counts only with at least one attacker and when the attacker has a queen or
//! enough other material to mate with; otherwise every feature is 0 and so is the danger.
//!
//! Not linear in its weights (the square and the floor at 0), so the trace keeps the features
//! of each colour apart from the linear counts (`linear::EvalTrace::king_danger`) and the
//! tuner re-applies the curve and differentiates through it. Both colours go through the same
//! integer steps, so colour symmetry holds by construction.

use super::info::EvalInfo;
use super::mobility::kind_slot;
use super::params::{Field, Params};
use super::psqt;
use super::score::{s, Score};
use super::term::Term;
use super::tracer::Tracer;
use crate::board::bitboard;
use crate::board::Position;
use crate::types::{to64, Colour, Kind};

/// The features, in the order of `FIELDS`.
pub const FEATURES: usize = 12;

/// The weight of each feature, in order: knights, bishops, rooks and queens attacking the
/// zone, zone hits, weak zone squares, safe knight, bishop, rook and queen checks, no queen,
/// base.
pub const FIELDS: [Field; FEATURES] = [
    Field::king_danger_knights,
    Field::king_danger_bishops,
    Field::king_danger_rooks,
    Field::king_danger_queens,
    Field::king_danger_zone_hits,
    Field::king_danger_weak_squares,
    Field::king_danger_knight_checks,
    Field::king_danger_bishop_checks,
    Field::king_danger_rook_checks,
    Field::king_danger_queen_checks,
    Field::king_danger_no_queen,
    Field::king_danger_base,
];

/// Each feature's weight number (flat order of `Params::names`), computed once: the tuner
/// reads these per position.
pub const OFFSETS: [usize; FEATURES] = Field::offsets(&FIELDS);

/// The middlegame gain is `d² / MG_DIVISOR`.
pub const MG_DIVISOR: i32 = 720;
/// The endgame gain is `d / EG_DIVISOR`.
pub const EG_DIVISOR: i32 = 20;

/// Without a queen, an attack counts only with at least this much phase material (a rook is
/// 2, a minor 1): two rooks and a minor, say.
const KING_ATTACK_MIN_PHASE: i32 = 5;

/// The weights of `FIELDS`, read from `p` in the same order.
#[inline]
pub fn weights(p: &Params) -> [Score; FEATURES] {
    [
        p.king_danger_knights,
        p.king_danger_bishops,
        p.king_danger_rooks,
        p.king_danger_queens,
        p.king_danger_zone_hits,
        p.king_danger_weak_squares,
        p.king_danger_knight_checks,
        p.king_danger_bishop_checks,
        p.king_danger_rook_checks,
        p.king_danger_queen_checks,
        p.king_danger_no_queen,
        p.king_danger_base,
    ]
}

/// Phase weight of `c`'s pieces: how much mating material it has.
fn attack_material(pos: &Position, c: Colour) -> i32 {
    [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen]
        .iter()
        .map(|&k| psqt::phase_weight(k) * pos.count_of(c, k) as i32)
        .sum()
}

/// The features of `c`'s attack on the enemy king (`info` holds the attack maps), or `None`
/// when the attack does not count (no attacker, or no queen and too little material).
#[inline]
pub fn features<T: Tracer>(
    pos: &Position,
    info: &EvalInfo<T>,
    c: Colour,
) -> Option<[i32; FEATURES]> {
    let us = c.index();
    let attackers = &info.king_attackers[us];
    let queens = pos.count_of(c, Kind::Queen);
    if attackers.iter().all(|&n| n == 0)
        || (queens == 0 && attack_material(pos, c) < KING_ATTACK_MIN_PHASE)
    {
        return None;
    }
    let them = c.flip();
    let by = &info.attacked_by[us];
    let theirs = &info.attacked_by[them.index()];
    // Squares the defender guards with something other than its king or queen.
    let guarded = theirs[Kind::Pawn as usize]
        | theirs[Kind::Knight as usize]
        | theirs[Kind::Bishop as usize]
        | theirs[Kind::Rook as usize];
    let weak = info.king_zone[them.index()] & info.attacked[us] & !guarded;
    let safe = !info.attacked[them.index()] & !info.occupied[us];
    let occupied = info.occupied[0] | info.occupied[1];
    let from = to64(pos.king(them));
    let knight = bitboard::KNIGHT[from & 63];
    let diagonal = bitboard::bishop(from, occupied);
    let straight = bitboard::rook(from, occupied);
    let checks =
        |squares: u64, kind: Kind| (squares & by[kind as usize] & safe).count_ones() as i32;
    Some([
        attackers[kind_slot(Kind::Knight)],
        attackers[kind_slot(Kind::Bishop)],
        attackers[kind_slot(Kind::Rook)],
        attackers[kind_slot(Kind::Queen)],
        info.king_zone_hits[us],
        weak.count_ones() as i32,
        checks(knight, Kind::Knight),
        checks(diagonal, Kind::Bishop),
        checks(straight, Kind::Rook),
        checks(diagonal | straight, Kind::Queen),
        i32::from(queens == 0),
        1,
    ])
}

/// The danger `d` of features `f` under `p` (middlegame halves only).
#[inline]
pub fn value(p: &Params, f: &[i32; FEATURES]) -> i32 {
    weights(p).iter().zip(f).map(|(w, &x)| w.mg() * x).sum()
}

/// What the attacker gains from danger `d`: `max(d, 0)² / 720` and `max(d, 0) / 20`.
#[inline]
pub fn gain(d: i32) -> Score {
    let d = d.max(0);
    let mg = i64::from(d) * i64::from(d) / i64::from(MG_DIVISOR);
    s(mg.min(i64::from(i32::MAX)) as i32, d / EG_DIVISOR)
}

/// True when weight number `index` is a king-danger weight (only its middlegame half is used).
pub fn is_king_danger(index: usize) -> bool {
    OFFSETS.contains(&index)
}

pub(crate) fn evaluate<T: Tracer>(pos: &Position, p: &Params, info: &mut EvalInfo<T>) {
    for c in Colour::BOTH {
        if let Some(f) = features(pos, info, c) {
            info.add(Term::KingAttack, c, gain(value(p, &f)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::params::DEFAULT_PARAMS;

    #[test]
    fn fields_and_weights_agree() {
        let mut p = DEFAULT_PARAMS;
        for (j, f) in FIELDS.iter().enumerate() {
            assert_eq!(f.slots(), 1);
            let name = Params::FIELDS[*f as usize];
            assert!(p.set(name, s(100 + j as i32, 0)));
        }
        let values = p.values();
        for (j, (f, w)) in FIELDS.iter().zip(weights(&p)).enumerate() {
            assert_eq!(values[f.offset()], w, "feature {j}");
            assert_eq!(w.mg(), 100 + j as i32);
        }
    }

    #[test]
    fn gain_is_zero_below_zero_and_quadratic_above() {
        assert_eq!(gain(-50), s(0, 0));
        assert_eq!(gain(0), s(0, 0));
        assert_eq!(gain(19), s(0, 0));
        assert_eq!(gain(100), s(13, 5));
        assert_eq!(gain(720), s(720, 36));
    }
}
