//! Attack sets as 64-bit boards, for the evaluation's attack maps.
//!
//! The board itself stays a 0x88 mailbox; the evaluation, though, wants the squares a piece
//! reaches as a set (mobility counts, king-zone hits, threat maps), and walking 0x88 rays
//! square by square costs a branch per step. Here each slider direction is one table ray cut at
//! its first blocker (the "classical approach"): the blocker is the lowest set bit of
//! `ray & occupied` on rays that grow with the square index and the highest on the others, and
//! everything beyond it is removed by the blocker's own ray. All tables are built at compile
//! time. Squares are 0..64 (`to64`), bit `8 * rank + file`.

use crate::types::Colour;

/// Rank and file steps of the eight directions. The first four grow the square index (north,
/// east, north-east, north-west), the last four shrink it.
const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (1, -1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (-1, 1),
];

/// The direction index (of `ray`, `RAYS`) that moves by `delta` on the 0x88 board (rank step
/// times 16 plus file step), or `None` for a delta that is not one of the eight.
pub(crate) const fn direction_of(delta: i16) -> Option<usize> {
    let mut d = 0;
    while d < DIRS.len() {
        if DIRS[d].0 * 16 + DIRS[d].1 == delta as i32 {
            return Some(d);
        }
        d += 1;
    }
    None
}

const fn on(rank: i32, file: i32) -> bool {
    rank >= 0 && rank < 8 && file >= 0 && file < 8
}

const fn build_rays() -> [[u64; 64]; 8] {
    let mut rays = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (dr, df) = DIRS[d];
            let (mut r, mut f) = (sq as i32 / 8 + dr, sq as i32 % 8 + df);
            while on(r, f) {
                rays[d][sq] |= 1u64 << (r * 8 + f);
                r += dr;
                f += df;
            }
            sq += 1;
        }
        d += 1;
    }
    rays
}

const fn build_leaper(steps: [(i32, i32); 8]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 8 {
            let (r, f) = (sq as i32 / 8 + steps[i].0, sq as i32 % 8 + steps[i].1);
            if on(r, f) {
                table[sq] |= 1u64 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// `BETWEEN[a][b]`: the squares strictly between `a` and `b` when they share a rank, file or
/// diagonal, else empty. A slider's path is clear when this set holds no occupied square, one
/// load and a mask instead of a walk.
pub static BETWEEN: [[u64; 64]; 64] = build_between();

const fn build_between() -> [[u64; 64]; 64] {
    let mut table = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, df) = DIRS[d];
            let (mut r, mut f) = (a as i32 / 8 + dr, a as i32 % 8 + df);
            let mut path = 0u64;
            while on(r, f) {
                let b = (r * 8 + f) as usize;
                table[a][b] = path;
                path |= 1u64 << b;
                r += dr;
                f += df;
            }
            d += 1;
        }
        a += 1;
    }
    table
}

/// The 64-bit bit of a 0x88 square.
#[inline(always)]
pub fn bit64(sq: crate::types::Square) -> u64 {
    1u64 << crate::types::to64(sq)
}

pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = FILE_A << 7;

/// Squares attacked by the pawns in `pawns` of colour `c`.
#[inline]
pub fn pawn_attacks(c: Colour, pawns: u64) -> u64 {
    match c {
        Colour::White => ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9),
        Colour::Black => ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7),
    }
}

/// `RAYS[direction][square]`: every square from `square` to the edge, the square itself left out.
static RAYS: [[u64; 64]; 8] = build_rays();

/// Every square on the rays of directions `dirs` from each square: a slider's reach on an empty
/// board.
const fn build_lines(dirs: [usize; 4]) -> [u64; 64] {
    let rays = build_rays();
    let mut lines = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 4 {
            lines[sq] |= rays[dirs[i]][sq];
            i += 1;
        }
        sq += 1;
    }
    lines
}

/// The diagonals through each square (the square left out): a bishop's reach on an empty board.
pub static DIAGONALS: [u64; 64] = build_lines([2, 3, 6, 7]);
/// The rank and file through each square (the square left out).
pub static ORTHOGONALS: [u64; 64] = build_lines([0, 1, 4, 5]);

/// Squares a knight on the square attacks.
pub static KNIGHT: [u64; 64] = build_leaper([
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
    (1, 2),
    (1, -2),
    (-1, 2),
    (-1, -2),
]);

/// Squares next to the square: one step in each of the eight directions.
pub static KING: [u64; 64] = build_leaper(DIRS);

/// `PAWN_ATTACKERS[colour][square]`: where a pawn of that colour stands when it attacks the
/// square (one rank behind it from that colour's side, one file either way). The builder
/// takes eight steps, so each of the two is given four times.
pub static PAWN_ATTACKERS: [[u64; 64]; 2] = [
    build_leaper([
        (-1, -1),
        (-1, 1),
        (-1, -1),
        (-1, 1),
        (-1, -1),
        (-1, 1),
        (-1, -1),
        (-1, 1),
    ]),
    build_leaper([
        (1, -1),
        (1, 1),
        (1, -1),
        (1, 1),
        (1, -1),
        (1, 1),
        (1, -1),
        (1, 1),
    ]),
];

/// The ray in direction `d` from `sq`, up to and including its first occupied square.
///
/// Branch-free: a sentinel bit stands for "no blocker" (square 63 on the rays that grow the
/// index, square 0 on the others), and the ray beyond either corner is empty, so cutting at the
/// sentinel leaves the full ray. A real blocker on the corner square cuts nothing either, as
/// it should: nothing lies beyond it.
#[inline(always)]
pub(crate) fn ray(d: usize, sq: usize, occupied: u64) -> u64 {
    let rays = &RAYS[d & 7];
    let full = rays[sq & 63];
    let blockers = full & occupied;
    let first = if d < 4 {
        (blockers | 1 << 63).trailing_zeros()
    } else {
        63 - (blockers | 1).leading_zeros()
    };
    full ^ rays[first as usize & 63]
}

/// Squares a rook on `sq` attacks (blockers included) with `occupied` the occupied squares.
#[inline]
pub fn rook(sq: usize, occupied: u64) -> u64 {
    ray(0, sq, occupied) | ray(1, sq, occupied) | ray(4, sq, occupied) | ray(5, sq, occupied)
}

/// Squares a bishop on `sq` attacks.
#[inline]
pub fn bishop(sq: usize, occupied: u64) -> u64 {
    ray(2, sq, occupied) | ray(3, sq, occupied) | ray(6, sq, occupied) | ray(7, sq, occupied)
}

/// Squares a queen on `sq` attacks.
#[inline]
pub fn queen(sq: usize, occupied: u64) -> u64 {
    rook(sq, occupied) | bishop(sq, occupied)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same sets by walking each direction step by step.
    fn walk(sq: usize, occupied: u64, dirs: &[(i32, i32)], slides: bool) -> u64 {
        let mut set = 0;
        for &(dr, df) in dirs {
            let (mut r, mut f) = (sq as i32 / 8 + dr, sq as i32 % 8 + df);
            while on(r, f) {
                let bit = 1u64 << (r * 8 + f);
                set |= bit;
                if !slides || occupied & bit != 0 {
                    break;
                }
                r += dr;
                f += df;
            }
        }
        set
    }

    #[test]
    fn sliders_match_a_step_walk_on_random_boards() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occupied = x & (x >> 3) & (x >> 5);
            for sq in 0..64 {
                assert_eq!(
                    rook(sq, occupied),
                    walk(sq, occupied, &DIRS[..2], true) | walk(sq, occupied, &DIRS[4..6], true)
                );
                assert_eq!(
                    bishop(sq, occupied),
                    walk(sq, occupied, &DIRS[2..4], true) | walk(sq, occupied, &DIRS[6..], true)
                );
                assert_eq!(queen(sq, occupied), walk(sq, occupied, &DIRS, true));
            }
        }
    }

    #[test]
    fn between_holds_the_squares_strictly_between() {
        // a1..h8 diagonal: b2..g7; a1..a8: a2..a7; knight-apart squares: nothing.
        assert_eq!(BETWEEN[0][63], 0x0040_2010_0804_0200);
        assert_eq!(BETWEEN[63][0], BETWEEN[0][63]);
        assert_eq!(BETWEEN[0][56], 0x0001_0101_0101_0100);
        assert_eq!(BETWEEN[0][17], 0);
        assert_eq!(BETWEEN[0][1], 0);
        // Against a walk on the 0x88 board along the vector-delta table's step.
        for (a, row) in BETWEEN.iter().enumerate() {
            for (b, &between) in row.iter().enumerate() {
                let (a88, b88) = (crate::types::from64(a), crate::types::from64(b));
                let d = if a == b {
                    0
                } else {
                    super::super::geometry::step(a88, b88)
                };
                let mut path = 0u64;
                if d != 0 {
                    let mut sq = a88 as i16 + d;
                    while sq != b88 as i16 {
                        path |= bit64(sq as crate::types::Square);
                        sq += d;
                    }
                }
                assert_eq!(between, path, "{a} {b}");
            }
        }
    }

    #[test]
    fn leapers_match_their_steps() {
        for (sq, &set) in KING.iter().enumerate() {
            assert_eq!(set, walk(sq, 0, &DIRS, false));
        }
        assert_eq!(KNIGHT[0].count_ones(), 2);
        assert_eq!(KNIGHT[27].count_ones(), 8);
        assert_eq!(KNIGHT[0], (1 << 10) | (1 << 17));
    }
}
