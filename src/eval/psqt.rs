//! Material values and piece-square tables, kept incrementally by the board.
//!
//! `psq(piece, sq)` is the piece's value plus its square bonus, from White's point of view
//! (black pieces count negative), so the board's running sum is already a White-relative
//! material + placement score. The values live in `Params` (`material` and one 64-square
//! table per kind, where the tuner reaches them); the table here is built from the built-in
//! weights once. The shape parameters below generated the first, untuned tables.

use std::sync::LazyLock;

use super::params::{Field, Params, DEFAULT_PARAMS};
use super::score::{s, Score};
use crate::board::Position;
use crate::types::{file_of, flip_rank, from64, rank_of, to64, Colour, Kind, Piece, Square};

/// Untuned material values (middlegame, endgame), the starting point of `Params::material`.
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

/// The built-in material value of `kind` (the king's is zero).
pub const fn value(kind: Kind) -> Score {
    match kind {
        Kind::King => Score::ZERO,
        _ => DEFAULT_PARAMS.material[kind as usize - Kind::Pawn as usize],
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
    /// Knights gain in the middlegame as they advance toward the enemy camp, by rank.
    pub const KNIGHT_RANK_MG: [i32; 8] = [-10, -4, 0, 6, 12, 15, 9, -4];
    /// Undeveloped minor pieces on their first rank.
    pub const MINOR_BACK_RANK_MG: i32 = -10;
    /// Bishop on one of the two long diagonals.
    pub const BISHOP_LONG_DIAGONAL_MG: i32 = 6;
    /// Rooks are a little better on the central files, by file.
    pub const ROOK_FILE_MG: [i32; 8] = [-3, -1, 2, 5, 5, 2, -1, -3];
    /// King in the middlegame: safest tucked away on the wings, by file ...
    pub const KING_FILE_MG: [i32; 8] = [28, 38, 14, -6, -6, 14, 38, 28];
    /// ... and on its first rank, by rank.
    pub const KING_RANK_MG: [i32; 8] = [0, -14, -32, -46, -56, -62, -66, -70];
}

/// Distance-to-centre steps: 3 in the four centre squares, 0 on the rim.
const fn centrality(sq: Square) -> i32 {
    let f = file_of(sq) as i32;
    let r = rank_of(sq) as i32;
    let df = if f < 4 { f } else { 7 - f };
    let dr = if r < 4 { r } else { 7 - r };
    if df < dr {
        df
    } else {
        dr
    }
}

/// Square bonus for a white piece of `kind` on `sq`, from the shape parameters: the starting
/// point of the tuned tables.
const fn square_bonus(kind: Kind, sq: Square) -> Score {
    use shape::*;
    let c = centrality(sq);
    let f = file_of(sq) as i32;
    let r = rank_of(sq) as i32;
    let back_rank = if r == 0 { MINOR_BACK_RANK_MG } else { 0 };
    match kind {
        Kind::Pawn => {
            let centre_file = if f >= 2 && f <= 5 { 1 } else { 0 };
            let adv = if r > 1 { r - 1 } else { 0 };
            s(PAWN_ADVANCE.0 * adv * centre_file, PAWN_ADVANCE.1 * adv)
        }
        Kind::Knight => s(
            KNIGHT_CENTRE.0 * (c - 1) + KNIGHT_RANK_MG[r as usize] + back_rank,
            KNIGHT_CENTRE.1 * (c - 1),
        ),
        Kind::Bishop => {
            let long_diagonal = if f == r || f == 7 - r {
                BISHOP_LONG_DIAGONAL_MG
            } else {
                0
            };
            s(
                BISHOP_CENTRE.0 * c + long_diagonal + back_rank,
                BISHOP_CENTRE.1 * (c - 1),
            )
        }
        // The seventh rank and open files are evaluation terms, which check that they bite.
        Kind::Rook => s(ROOK_FILE_MG[f as usize], 0),
        Kind::Queen => s(QUEEN_CENTRE.0 * c, QUEEN_CENTRE.1 * (c - 1)),
        Kind::King => s(
            KING_FILE_MG[f as usize] + KING_RANK_MG[r as usize],
            KING_CENTRE_EG * (c - 1),
        ),
    }
}

/// The shape-generated square table of `kind`, indexed by 64-square index from White's side
/// (a1 = 0, h8 = 63): the untuned default of the `Params` tables.
pub const fn shape_table(kind: Kind) -> [Score; 64] {
    let mut t = [Score::ZERO; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = square_bonus(kind, from64(i));
        i += 1;
    }
    t
}

/// The square table of `kind` in `p` (64-square index from White's side).
pub const fn square_table(p: &Params, kind: Kind) -> &[Score; 64] {
    match kind {
        Kind::Pawn => &p.pawn_square,
        Kind::Knight => &p.knight_square,
        Kind::Bishop => &p.bishop_square,
        Kind::Rook => &p.rook_square,
        Kind::Queen => &p.queen_square,
        Kind::King => &p.king_square,
    }
}

/// The `Params` field of `kind`'s square table (for the tracer).
pub const fn square_field(kind: Kind) -> Field {
    match kind {
        Kind::Pawn => Field::pawn_square,
        Kind::Knight => Field::knight_square,
        Kind::Bishop => Field::bishop_square,
        Kind::Rook => Field::rook_square,
        Kind::Queen => Field::queen_square,
        Kind::King => Field::king_square,
    }
}

/// Value plus square bonus of a white `kind` on the 64-square index `i` under weights `p`.
#[inline]
pub fn white_psq(p: &Params, kind: Kind, i: usize) -> Score {
    let material = match kind {
        Kind::King => Score::ZERO,
        _ => p.material[kind as usize - Kind::Pawn as usize],
    };
    material + square_table(p, kind)[i]
}

/// The White-relative material and placement sum of `pos` under weights `p`, from scratch
/// (the board keeps the same sum for the built-in weights incrementally).
pub fn psq_sum(pos: &Position, p: &Params) -> Score {
    let mut total = Score::ZERO;
    for c in Colour::BOTH {
        for &sq in pos.pieces(c).iter().chain(pos.pawns(c).iter()) {
            let kind = pos.piece_at(sq).kind();
            let v = white_psq(p, kind, relative64(c, sq));
            match c {
                Colour::White => total += v,
                Colour::Black => total -= v,
            }
        }
    }
    total
}

/// The 64-square index of `sq` seen from `c`'s side (Black's squares mirrored by rank).
#[inline]
pub const fn relative64(c: Colour, sq: Square) -> usize {
    match c {
        Colour::White => to64(sq),
        Colour::Black => to64(flip_rank(sq)),
    }
}

static PSQ: LazyLock<[[Score; 128]; Piece::COUNT]> = LazyLock::new(|| {
    let p = &DEFAULT_PARAMS;
    let mut t = [[Score::ZERO; 128]; Piece::COUNT];
    for kind in Kind::ALL {
        for sq in (0..128u8).filter(|sq| sq & 0x88 == 0) {
            let white = white_psq(p, kind, to64(sq));
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
