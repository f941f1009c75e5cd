//! Constant geometry of the 0x88 board: the vector-delta tables.
//!
//! On a 0x88 board the difference `to - from` of two squares names the vector between them
//! uniquely (it lies in -119..=119), so a 256-entry table indexed by `to - from + 128` can say,
//! with one load, which piece kinds could attack `to` from `from` (`ATTACK_MASK`) and which unit
//! step walks from `from` toward `to` along a queen line (`STEP`). Everything that needs
//! geometry — attack tests, pins, check detection, SEE, mobility — starts from these tables.
//! They are built at compile time, so there is no initialisation order to get wrong.

use crate::types::{Piece, Square};

/// Attack-mask bits, one per attacker class; pawns differ by colour.
pub const WHITE_PAWN_BIT: u8 = 1;
pub const BLACK_PAWN_BIT: u8 = 2;
pub const KNIGHT_BIT: u8 = 4;
pub const BISHOP_BIT: u8 = 8;
pub const ROOK_BIT: u8 = 16;
pub const QUEEN_BIT: u8 = 32;
pub const KING_BIT: u8 = 64;
/// Classes that attack along a line and can be blocked.
pub const SLIDER_BITS: u8 = BISHOP_BIT | ROOK_BIT | QUEEN_BIT;

pub const KNIGHT_DELTAS: [i16; 8] = [-33, -31, -18, -14, 14, 18, 31, 33];
pub const KING_DELTAS: [i16; 8] = [-17, -16, -15, -1, 1, 15, 16, 17];
pub const BISHOP_DIRS: [i16; 4] = [-17, -15, 15, 17];
pub const ROOK_DIRS: [i16; 4] = [-16, -1, 1, 16];
pub const QUEEN_DIRS: [i16; 8] = KING_DELTAS;

const fn build_tables() -> ([u8; 256], [i8; 256]) {
    let mut mask = [0u8; 256];
    let mut step = [0i8; 256];
    let mut i = 0;
    while i < 8 {
        mask[(KNIGHT_DELTAS[i] + 128) as usize] |= KNIGHT_BIT;
        mask[(KING_DELTAS[i] + 128) as usize] |= KING_BIT;
        i += 1;
    }
    mask[(15 + 128) as usize] |= WHITE_PAWN_BIT;
    mask[(17 + 128) as usize] |= WHITE_PAWN_BIT;
    mask[(-15 + 128) as usize] |= BLACK_PAWN_BIT;
    mask[(-17 + 128) as usize] |= BLACK_PAWN_BIT;
    let mut d = 0;
    while d < 8 {
        let dir = QUEEN_DIRS[d];
        let diagonal = dir == 15 || dir == 17 || dir == -15 || dir == -17;
        let mut k = 1;
        while k < 8 {
            let idx = (dir * k + 128) as usize;
            mask[idx] |= QUEEN_BIT | if diagonal { BISHOP_BIT } else { ROOK_BIT };
            step[idx] = dir as i8;
            k += 1;
        }
        d += 1;
    }
    (mask, step)
}

const TABLES: ([u8; 256], [i8; 256]) = build_tables();

/// `NEAR_MASK[ksq - from + 128]`: the attacker classes that can reach, from `from`, the square
/// `ksq` or one of its eight neighbours on an empty board. A piece outside this set cannot attack
/// any square a king on `ksq` might step to, so king-move tests can skip it.
pub const NEAR_MASK: [u8; 256] = {
    let mut near = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let mut k = 0;
        while k < 9 {
            let off = if k == 8 { 0 } else { KING_DELTAS[k] };
            let j = i as i16 + off;
            if j >= 0 && j < 256 {
                near[i] |= TABLES.0[j as usize];
            }
            k += 1;
        }
        i += 1;
    }
    near
};

/// Which attacker classes can reach `to` from `from`: `ATTACK_MASK[to - from + 128]`.
pub const ATTACK_MASK: [u8; 256] = TABLES.0;
/// Unit step from `from` toward `to` along a queen line, or 0: `STEP[to - from + 128]`.
pub const STEP: [i8; 256] = TABLES.1;

#[inline]
pub const fn delta_index(from: Square, to: Square) -> usize {
    // Byte arithmetic: for two board squares the difference plus 128 lies in 9..=247, so the
    // wrapping sum is exact, and a u8 index into a 256-entry table needs no bounds check.
    to.wrapping_sub(from).wrapping_add(128) as usize
}

/// Attacker classes able to reach `to` from `from` on an empty board.
#[inline]
pub const fn attack_mask(from: Square, to: Square) -> u8 {
    ATTACK_MASK[delta_index(from, to)]
}

/// Unit step from `from` toward `to` (0 when not on a common rank, file or diagonal).
#[inline]
pub const fn step(from: Square, to: Square) -> i16 {
    STEP[delta_index(from, to)] as i16
}

/// Attack-mask bit of every piece code (0 for an empty square and the unused codes 0 and 1).
const PIECE_BITS: [u8; 16] = {
    let mut t = [0u8; 16];
    t[2] = WHITE_PAWN_BIT;
    t[3] = BLACK_PAWN_BIT;
    t[4] = KNIGHT_BIT;
    t[5] = KNIGHT_BIT;
    t[6] = BISHOP_BIT;
    t[7] = BISHOP_BIT;
    t[8] = ROOK_BIT;
    t[9] = ROOK_BIT;
    t[10] = QUEEN_BIT;
    t[11] = QUEEN_BIT;
    t[12] = KING_BIT;
    t[13] = KING_BIT;
    t
};

/// The attack-mask bit of a coloured piece. A table load rather than a match on kind and
/// colour: it sits in the inner loop of every attack test, and the masked index needs no bounds
/// check.
#[inline]
pub const fn piece_bit(p: Piece) -> u8 {
    PIECE_BITS[(p.0 & 15) as usize]
}

/// Chebyshev distance between two squares (king moves).
#[inline]
pub const fn distance(a: Square, b: Square) -> u8 {
    let df = (a & 7).abs_diff(b & 7);
    let dr = (a >> 4).abs_diff(b >> 4);
    if df > dr {
        df
    } else {
        dr
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{parse_square, Colour, Kind};

    fn sq(s: &str) -> Square {
        parse_square(s).unwrap()
    }

    #[test]
    fn knight_and_slider_vectors() {
        assert!(attack_mask(sq("g1"), sq("f3")) & KNIGHT_BIT != 0);
        assert!(attack_mask(sq("a1"), sq("h8")) & BISHOP_BIT != 0);
        assert_eq!(step(sq("a1"), sq("h8")), 17);
        assert!(attack_mask(sq("a1"), sq("a8")) & ROOK_BIT != 0);
        assert_eq!(step(sq("a8"), sq("a1")), -16);
        assert_eq!(attack_mask(sq("a1"), sq("b3")) & SLIDER_BITS, 0);
        assert_eq!(step(sq("a1"), sq("b3")), 0);
        // h1 -> a2 is not a line even though the raw index difference is 15 on a 0..64 board.
        assert_eq!(attack_mask(sq("h1"), sq("a2")), 0);
    }

    #[test]
    fn pawn_vectors_by_colour() {
        let wp = piece_bit(Piece::new(Colour::White, Kind::Pawn));
        let bp = piece_bit(Piece::new(Colour::Black, Kind::Pawn));
        assert!(attack_mask(sq("e4"), sq("d5")) & wp != 0);
        assert!(attack_mask(sq("e4"), sq("d5")) & bp == 0);
        assert!(attack_mask(sq("e5"), sq("f4")) & bp != 0);
    }

    #[test]
    fn distances() {
        assert_eq!(distance(sq("a1"), sq("h8")), 7);
        assert_eq!(distance(sq("e4"), sq("f6")), 2);
    }
}
