//! King and pawn against king: an exact win/draw bitbase, built once by retrograde analysis the
//! first time it is needed.
//!
//! Coordinates here are plain 0..64 squares (a1 = 0, h8 = 63) with the pawn's side called
//! White and moving up the board; callers flip Black-pawn positions first. Pawns on files e-h
//! are mirrored onto a-d, so the table holds 2 sides to move x 64 x 64 king squares x 24 pawn
//! squares = 196,608 positions, one bit each (win or not) once built.
//!
//! The analysis starts from the positions whose value needs no look-ahead (a pawn that
//! promotes without being taken wins, a pawn the lone king takes or a stalemate draws) and
//! works backwards from the wins: White to move wins when some move reaches a win; Black to
//! move loses when every move reaches a win. What is never reached that way cannot be forced
//! to promotion and is a draw.

use std::sync::LazyLock;

const PAWN_SLOTS: usize = 24;
const SIZE: usize = 2 * 64 * 64 * PAWN_SLOTS;

const UNKNOWN: u8 = 0;
const INVALID: u8 = 1;
const DRAW: u8 = 2;
const WIN: u8 = 3;

/// Side to move in an index: the pawn's side or the lone king's.
const STRONG: usize = 0;
const WEAK: usize = 1;

/// One bit per position: set when the pawn's side wins.
static BITBASE: LazyLock<Vec<u64>> = LazyLock::new(build);

/// Forces the build now (tests, timing); otherwise the first KPK probe builds it, a few
/// milliseconds once per process.
pub fn init() {
    LazyLock::force(&BITBASE);
}

/// Does the pawn's side win? `strong_to_move`: the pawn's side is to move; squares 0..64 with
/// the pawn moving up the board (ranks 2-7). Callers pass only legal positions.
pub fn win(strong_to_move: bool, king: usize, their_king: usize, pawn: usize) -> bool {
    // Files e-h mirror onto d-a, where the table lives.
    let (k, tk, p) = if pawn % 8 >= 4 {
        (king ^ 7, their_king ^ 7, pawn ^ 7)
    } else {
        (king, their_king, pawn)
    };
    let stm = if strong_to_move { STRONG } else { WEAK };
    let i = index(stm, k, tk, p);
    BITBASE[i / 64] >> (i % 64) & 1 != 0
}

fn index(stm: usize, wk: usize, bk: usize, pawn: usize) -> usize {
    let slot = (pawn / 8 - 1) * 4 + pawn % 8;
    ((stm * 64 + wk) * 64 + bk) * PAWN_SLOTS + slot
}

fn decode(i: usize) -> (usize, usize, usize, usize) {
    let slot = i % PAWN_SLOTS;
    let bk = i / PAWN_SLOTS % 64;
    let wk = i / PAWN_SLOTS / 64 % 64;
    let stm = i / PAWN_SLOTS / 64 / 64;
    (stm, wk, bk, (slot / 4 + 1) * 8 + slot % 4)
}

fn dist(a: usize, b: usize) -> usize {
    let df = (a % 8).abs_diff(b % 8);
    let dr = (a / 8).abs_diff(b / 8);
    df.max(dr)
}

/// King steps from every square, padded, with how many are on the board; built at compile time
/// so the analysis loops read a table instead of testing edges.
const KING_STEPS: ([[u8; 8]; 64], [u8; 64]) = {
    let mut steps = [[0u8; 8]; 64];
    let mut counts = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut d = 0;
        while d < 9 {
            let (nf, nr) = (f + d % 3 - 1, r + d / 3 - 1);
            if d != 4 && nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                steps[sq][counts[sq] as usize] = (nr * 8 + nf) as u8;
                counts[sq] += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    (steps, counts)
};

/// The on-board king steps from `sq`.
fn king_steps(sq: usize) -> impl Iterator<Item = usize> {
    KING_STEPS.0[sq][..KING_STEPS.1[sq] as usize]
        .iter()
        .map(|&s| s as usize)
}

fn pawn_attacks(pawn: usize, sq: usize) -> bool {
    sq / 8 == pawn / 8 + 1 && (sq % 8).abs_diff(pawn % 8) == 1
}

/// Black king moves: onto the board, away from the white king, off the pawn's attacks; the
/// pawn itself only when undefended (that capture is decided in `initial`).
fn black_moves(wk: usize, bk: usize, pawn: usize) -> impl Iterator<Item = usize> {
    king_steps(bk).filter(move |&to| dist(to, wk) > 1 && !pawn_attacks(pawn, to) && to != pawn)
}

/// The value found without look-ahead, or `UNKNOWN`.
fn initial(stm: usize, wk: usize, bk: usize, pawn: usize) -> u8 {
    if wk == bk || wk == pawn || bk == pawn || dist(wk, bk) <= 1 {
        return INVALID;
    }
    if stm == STRONG {
        // The lone king cannot stand in check with White to move.
        if pawn_attacks(pawn, bk) {
            return INVALID;
        }
        let queening = pawn + 8;
        if pawn / 8 == 6
            && queening != wk
            && queening != bk
            && (dist(bk, queening) > 1 || dist(wk, queening) == 1)
        {
            return WIN;
        }
        return UNKNOWN;
    }
    if dist(bk, pawn) == 1 && dist(wk, pawn) > 1 {
        return DRAW;
    }
    if black_moves(wk, bk, pawn).next().is_none() {
        // No mate is possible with king and pawn, so no move means stalemate.
        return DRAW;
    }
    UNKNOWN
}

/// Is the position legal (kings apart, squares distinct, the side not to move not in check)?
fn valid(stm: usize, wk: usize, bk: usize, pawn: usize) -> bool {
    wk != bk
        && wk != pawn
        && bk != pawn
        && dist(wk, bk) > 1
        && !(stm == STRONG && pawn_attacks(pawn, bk))
}

/// Retrograde analysis proper: only wins are propagated, each exactly once. A won position
/// with Black to move makes every White-to-move position one move before it a win; a won
/// position with White to move takes one off the count of undecided moves of every Black
/// position one move before it, which is lost when the count reaches zero. Whatever is not a
/// win at the end is a draw.
fn build_table() -> Vec<u8> {
    let mut table = vec![UNKNOWN; SIZE];
    let mut left = vec![0u8; SIZE];
    let mut wins: Vec<u32> = Vec::new();
    for (i, v) in table.iter_mut().enumerate() {
        let (stm, wk, bk, pawn) = decode(i);
        *v = initial(stm, wk, bk, pawn);
        match *v {
            WIN => wins.push(i as u32),
            UNKNOWN if stm == WEAK => left[i] = black_moves(wk, bk, pawn).count() as u8,
            _ => {}
        }
    }
    while let Some(i) = wins.pop() {
        let (stm, wk, bk, pawn) = decode(i as usize);
        if stm == WEAK {
            // White moves that lead here: the king from a neighbouring square, or the pawn
            // from one or two squares behind.
            let mut before = |from_king: usize, from_pawn: usize, table: &mut [u8]| {
                let j = index(STRONG, from_king, bk, from_pawn);
                if table[j] == UNKNOWN {
                    table[j] = WIN;
                    wins.push(j as u32);
                }
            };
            for from in king_steps(wk) {
                if from != pawn && valid(STRONG, from, bk, pawn) {
                    before(from, pawn, &mut table);
                }
            }
            let back = pawn - 8;
            if back >= 8 && back != wk && back != bk {
                if valid(STRONG, wk, bk, back) {
                    before(wk, back, &mut table);
                }
                let back2 = pawn - 16;
                if pawn / 8 == 3 && back2 != wk && back2 != bk && valid(STRONG, wk, bk, back2) {
                    before(wk, back2, &mut table);
                }
            }
        } else {
            // Black king moves that lead here.
            for from in king_steps(bk) {
                if !valid(WEAK, wk, from, pawn) {
                    continue;
                }
                let j = index(WEAK, wk, from, pawn);
                if table[j] == UNKNOWN {
                    left[j] -= 1;
                    if left[j] == 0 {
                        table[j] = WIN;
                        wins.push(j as u32);
                    }
                }
            }
        }
    }
    table
}

fn build() -> Vec<u64> {
    let table = build_table();
    let mut bits = vec![0u64; SIZE.div_ceil(64)];
    for (i, &v) in table.iter().enumerate() {
        if v == WIN {
            bits[i / 64] |= 1 << (i % 64);
        }
    }
    bits
}
