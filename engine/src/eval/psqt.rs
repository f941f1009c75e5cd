//! Material values and piece-square tables, kept incrementally by the board.
//!
//! `psq(piece, sq)` is the piece's value plus its square bonus, from White's point of view
//! (black pieces count negative), so the board's running sum is already a White-relative
//! material + placement score. The values live in `Params` (`material` and one 64-square
//! table per kind, where the tuner reaches them); the table here is built from the built-in
//! weights once.

use std::sync::LazyLock;

use super::params::{Field, Params, DEFAULT_PARAMS};
use super::score::Score;
use crate::types::{flip_rank, to64, Colour, Kind, Piece, Square};

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

/// The 64-square index of `sq` seen from `c`'s side (Black's squares mirrored by rank).
#[inline]
pub const fn relative64(c: Colour, sq: Square) -> usize {
    match c {
        Colour::White => to64(sq),
        Colour::Black => to64(flip_rank(sq)),
    }
}

/// One row per 4-bit piece code (the unused codes stay zero) so that `psq` indexes with masks.
static PSQ: LazyLock<[[Score; 128]; 16]> = LazyLock::new(|| {
    let p = &DEFAULT_PARAMS;
    let mut t = [[Score::ZERO; 128]; 16];
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
    // The masks spare the bounds checks; for a piece on a board square they change nothing.
    PSQ[(p.0 & 15) as usize][(sq & 0x7f) as usize]
}
