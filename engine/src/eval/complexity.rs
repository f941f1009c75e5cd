//! Complexity (Stockfish 11's "initiative", Ethereal's "complexity"): how hard the side that
//! is ahead in the endgame will find it to convert. Pawns on both wings, many pawns, passers
//! and a king that can outflank the other keep winning chances alive; a pawnless board or
//! a bare pawn ending is either simple or drawish. The term is
//! `c = Σ weight_i · feature_i` (endgame halves of the `complexity_*` weights), added to the
//! endgame half in the direction of its sign: `eg' = eg + sign(eg) · max(c, −|eg|)`, so it can
//! grow a lead or shrink it to nothing but never hand it to the other side, and a level
//! endgame (eg = 0) stays level.
//!
//! Not linear in its weights (the cap and the sign), so the trace keeps the features apart
//! from the linear counts (`linear::EvalTrace::complexity`) and the tuner re-applies this step
//! and differentiates through it. The features are about the whole board, not one colour, so
//! colour symmetry holds by construction: the mirror negates `eg` and keeps every feature.

use super::params::{Field, Params};
use super::pawns::{count, file_squares, PawnEntry};
use super::score::Score;
use crate::board::Position;
use crate::types::{file_of, rank_of, Colour};

/// The features, in the order of `FIELDS`.
pub const FEATURES: usize = 7;

/// The weight of each feature, in order: pawns, both wings, passers, pawn ending, pawnless,
/// outflanking, base.
pub const FIELDS: [Field; FEATURES] = [
    Field::complexity_pawns,
    Field::complexity_both_wings,
    Field::complexity_passers,
    Field::complexity_pawn_ending,
    Field::complexity_pawnless,
    Field::complexity_outflanking,
    Field::complexity_base,
];

/// Each feature's weight number (flat order of `Params::names`), computed once: the tuner
/// reads these per position.
pub const OFFSETS: [usize; FEATURES] = Field::offsets(&FIELDS);

/// Files a-d and e-h, as `file_squares` bytes.
const QUEEN_WING: u8 = 0x0f;
const KING_WING: u8 = 0xf0;

/// The weights of `FIELDS`, read from `p` in the same order.
#[inline]
pub fn weights(p: &Params) -> [Score; FEATURES] {
    [
        p.complexity_pawns,
        p.complexity_both_wings,
        p.complexity_passers,
        p.complexity_pawn_ending,
        p.complexity_pawnless,
        p.complexity_outflanking,
        p.complexity_base,
    ]
}

/// The features of `pos` (the pawn entry holds its pawns and passers). Every one is small:
/// they fit an `i8` in the trace.
#[inline]
pub fn features(pos: &Position, entry: &PawnEntry) -> [i32; FEATURES] {
    let pawns = entry.pawns[0] | entry.pawns[1];
    let on = |wing: u8| pawns & file_squares(wing) != 0;
    let (wk, bk) = (pos.king(Colour::White), pos.king(Colour::Black));
    let files = (file_of(wk) as i32 - file_of(bk) as i32).abs();
    let ranks = (rank_of(wk) as i32 - rank_of(bk) as i32).abs();
    // `pieces` lists the king first: one entry each means kings and pawns only.
    let pawn_ending = pos.pieces(Colour::White).len() == 1 && pos.pieces(Colour::Black).len() == 1;
    [
        count(pawns),
        i32::from(on(QUEEN_WING) && on(KING_WING)),
        count(entry.passed[0] | entry.passed[1]),
        i32::from(pawn_ending),
        i32::from(pawns == 0),
        // A king further across the board than up it can walk round the other one.
        files - ranks,
        1,
    ]
}

/// The complexity `c` of features `f` under `p` (endgame halves only).
#[inline]
pub fn value(p: &Params, f: &[i32; FEATURES]) -> i32 {
    weights(p).iter().zip(f).map(|(w, &x)| w.eg() * x).sum()
}

/// The endgame half `eg` (White-relative) with complexity `c` applied: moved by `c` toward
/// the side it favours, but never past zero.
#[inline]
pub fn adjust(eg: i32, c: i32) -> i32 {
    eg + eg.signum() * c.max(-eg.abs())
}

/// The endgame half of `pos` after complexity, from `eg` before it.
#[inline]
pub fn apply(pos: &Position, p: &Params, entry: &PawnEntry, eg: i32) -> i32 {
    adjust(eg, value(p, &features(pos, entry)))
}

/// True when weight number `index` is a complexity weight (only its endgame half is used).
pub fn is_complexity(index: usize) -> bool {
    OFFSETS.contains(&index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::params::DEFAULT_PARAMS;
    use crate::eval::score::s;

    #[test]
    fn fields_and_weights_agree() {
        let mut p = DEFAULT_PARAMS;
        for (j, f) in FIELDS.iter().enumerate() {
            assert_eq!(f.slots(), 1);
            let name = Params::FIELDS[*f as usize];
            assert!(p.set(name, s(0, 100 + j as i32)));
        }
        let values = p.values();
        for (j, (f, w)) in FIELDS.iter().zip(weights(&p)).enumerate() {
            assert_eq!(values[f.offset()], w, "feature {j}");
            assert_eq!(w.eg(), 100 + j as i32);
        }
    }

    #[test]
    fn adjust_never_flips_the_sign() {
        assert_eq!(adjust(50, 20), 70);
        assert_eq!(adjust(-50, 20), -70);
        assert_eq!(adjust(50, -20), 30);
        assert_eq!(adjust(-50, -20), -30);
        assert_eq!(adjust(50, -80), 0);
        assert_eq!(adjust(-50, -80), 0);
        assert_eq!(adjust(0, 40), 0);
        assert_eq!(adjust(0, -40), 0);
        assert_eq!(adjust(37, 0), 37);
    }

    #[test]
    fn features_of_known_positions() {
        let entry = |pos: &Position| PawnEntry::compute(pos, &DEFAULT_PARAMS);
        // Start position: 16 pawns on both wings, no passers, kings on one file.
        let start = Position::startpos();
        assert_eq!(features(&start, &entry(&start)), [16, 1, 0, 0, 0, -7, 1]);
        // A pawn ending, pawns on one wing and none passed, the kings three files and five
        // ranks apart.
        let p = Position::from_fen("8/5k2/6p1/8/8/6P1/2K2P2/8 w - - 0 1").unwrap();
        assert_eq!(features(&p, &entry(&p)), [3, 0, 0, 1, 0, -2, 1]);
        // A passer each on both wings, a rook each, the kings two files apart on one rank.
        let p = Position::from_fen("r7/p7/8/8/2k1K3/8/7P/7R w - - 0 1").unwrap();
        assert_eq!(features(&p, &entry(&p)), [2, 1, 2, 0, 0, 2, 1]);
        // No pawns.
        let p = Position::from_fen("8/8/3k4/8/8/8/1R6/4K3 w - - 0 1").unwrap();
        assert_eq!(features(&p, &entry(&p)), [0, 0, 0, 0, 1, -4, 1]);
    }
}
