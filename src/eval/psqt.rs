//! Material values and piece-square tables, kept incrementally by the board.
//!
//! `psq(piece, sq)` is the piece's value plus its square bonus, from White's point of view
//! (black pieces count negative), so the board's running sum is already a White-relative
//! material + placement score. The tables are generated from a few named shape parameters
//! rather than typed in by hand; the evaluation issue and the tuner refine them.

use std::sync::LazyLock;

use super::score::{s, Score};
use crate::types::{file_of, flip_rank, rank_of, Colour, Kind, Piece, Square};

/// Material values (middlegame, endgame), indexed by kind.
pub const PAWN_VALUE: Score = s(85, 110);
pub const KNIGHT_VALUE: Score = s(330, 310);
pub const BISHOP_VALUE: Score = s(340, 325);
pub const ROOK_VALUE: Score = s(465, 540);
pub const QUEEN_VALUE: Score = s(1010, 1030);

/// Game-phase weights of the non-pawn pieces; a full set of pieces is `PHASE_TOTAL`.
pub const KNIGHT_PHASE: i32 = 1;
pub const BISHOP_PHASE: i32 = 1;
pub const ROOK_PHASE: i32 = 2;
pub const QUEEN_PHASE: i32 = 4;
pub const PHASE_TOTAL: i32 = 4 * KNIGHT_PHASE + 4 * BISHOP_PHASE + 4 * ROOK_PHASE + 2 * QUEEN_PHASE;

pub const fn value(kind: Kind) -> Score {
    match kind {
        Kind::Pawn => PAWN_VALUE,
        Kind::Knight => KNIGHT_VALUE,
        Kind::Bishop => BISHOP_VALUE,
        Kind::Rook => ROOK_VALUE,
        Kind::Queen => QUEEN_VALUE,
        Kind::King => Score::ZERO,
    }
}

pub const fn phase_weight(kind: Kind) -> i32 {
    match kind {
        Kind::Knight => KNIGHT_PHASE,
        Kind::Bishop => BISHOP_PHASE,
        Kind::Rook => ROOK_PHASE,
        Kind::Queen => QUEEN_PHASE,
        Kind::Pawn | Kind::King => 0,
    }
}

/// Shape parameters of the generated square tables.
mod shape {
    /// Per step toward the centre (0..=3 steps), for knights (mg, eg).
    pub const KNIGHT_CENTRE: (i32, i32) = (9, 7);
    pub const BISHOP_CENTRE: (i32, i32) = (4, 4);
    pub const QUEEN_CENTRE: (i32, i32) = (2, 5);
    pub const KING_CENTRE_EG: i32 = 10;
    /// Pawn advance bonus per rank (mg on the centre files, eg everywhere).
    pub const PAWN_ADVANCE: (i32, i32) = (4, 8);
    /// King in the middlegame: penalty per rank away from home.
    pub const KING_ADVANCE_MG: i32 = 14;
    /// King in the middlegame: bonus for standing on the wings rather than the centre files.
    pub const KING_WING_MG: i32 = 10;
}

/// Distance-to-centre steps: 3 in the four centre squares, 0 on the rim.
fn centrality(sq: Square) -> i32 {
    let f = file_of(sq) as i32;
    let r = rank_of(sq) as i32;
    let df = if f < 4 { f } else { 7 - f };
    let dr = if r < 4 { r } else { 7 - r };
    df.min(dr)
}

/// Square bonus for a white piece of `kind` on `sq`.
fn square_bonus(kind: Kind, sq: Square) -> Score {
    use shape::*;
    let c = centrality(sq);
    let f = file_of(sq) as i32;
    let r = rank_of(sq) as i32;
    match kind {
        Kind::Pawn => {
            let centre_file = if (2..=5).contains(&f) { 1 } else { 0 };
            let adv = (r - 1).max(0);
            s(PAWN_ADVANCE.0 * adv * centre_file, PAWN_ADVANCE.1 * adv)
        }
        Kind::Knight => s(KNIGHT_CENTRE.0 * (c - 1), KNIGHT_CENTRE.1 * (c - 1)),
        Kind::Bishop => s(BISHOP_CENTRE.0 * c, BISHOP_CENTRE.1 * (c - 1)),
        // The seventh rank is an evaluation term (`rook_seventh`), which checks that it bites.
        Kind::Rook => Score::ZERO,
        Kind::Queen => s(QUEEN_CENTRE.0 * c, QUEEN_CENTRE.1 * (c - 1)),
        Kind::King => {
            let wing = if (3..=4).contains(&f) {
                0
            } else {
                KING_WING_MG
            };
            s(wing - KING_ADVANCE_MG * r, KING_CENTRE_EG * (c - 1))
        }
    }
}

static PSQ: LazyLock<[[Score; 128]; Piece::COUNT]> = LazyLock::new(|| {
    let mut t = [[Score::ZERO; 128]; Piece::COUNT];
    for kind in Kind::ALL {
        for sq in (0..128u8).filter(|sq| sq & 0x88 == 0) {
            let white = value(kind) + square_bonus(kind, sq);
            t[Piece::new(Colour::White, kind).index()][sq as usize] = white;
            t[Piece::new(Colour::Black, kind).index()][flip_rank(sq) as usize] = -white;
        }
    }
    t
});

/// Value plus square bonus of `p` on `sq`, White-relative.
#[inline]
pub fn psq(p: Piece, sq: Square) -> Score {
    PSQ[p.index()][sq as usize]
}
