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
//! then sweeps the undecided positions until nothing changes: White to move wins when some
//! move reaches a win and draws when every move reaches a draw; Black to move draws when some
//! move reaches a draw and loses when every move reaches a win. What is still undecided at the
//! fixed point cannot be forced to promotion and is a draw.

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

/// Forces the build now (start-up) rather than at the first KPK position met in a search.
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

/// The on-board king steps from `sq`, without allocation.
fn king_steps(sq: usize) -> impl Iterator<Item = usize> {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    (-1..=1)
        .flat_map(move |df| (-1..=1).map(move |dr| (df, dr)))
        .filter(|&d| d != (0, 0))
        .filter_map(move |(df, dr)| {
            let (nf, nr) = (f + df, r + dr);
            ((0..8).contains(&nf) && (0..8).contains(&nr)).then_some((nr * 8 + nf) as usize)
        })
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

/// One look at the successors of an undecided position.
fn step(table: &[u8], stm: usize, wk: usize, bk: usize, pawn: usize) -> u8 {
    if stm == STRONG {
        let mut all_draw = true;
        let mut see = |v: u8| {
            if v == WIN {
                return true;
            }
            all_draw &= v == DRAW;
            false
        };
        for to in king_steps(wk) {
            if to != pawn && dist(to, bk) > 1 && see(table[index(WEAK, to, bk, pawn)]) {
                return WIN;
            }
        }
        let push = pawn + 8;
        if push != wk && push != bk {
            if pawn / 8 == 6 {
                // A promotion that was not a win in `initial` loses the new piece: a draw.
                see(DRAW);
            } else {
                if see(table[index(WEAK, wk, bk, push)]) {
                    return WIN;
                }
                let double = push + 8;
                if pawn / 8 == 1
                    && double != wk
                    && double != bk
                    && see(table[index(WEAK, wk, bk, double)])
                {
                    return WIN;
                }
            }
        }
        return if all_draw { DRAW } else { UNKNOWN };
    }
    let mut all_win = true;
    for to in black_moves(wk, bk, pawn) {
        match table[index(STRONG, wk, to, pawn)] {
            DRAW => return DRAW,
            WIN => {}
            _ => all_win = false,
        }
    }
    if all_win {
        WIN
    } else {
        UNKNOWN
    }
}

fn build() -> Vec<u64> {
    let mut table = vec![UNKNOWN; SIZE];
    let mut open = Vec::new();
    for (i, v) in table.iter_mut().enumerate() {
        let (stm, wk, bk, pawn) = decode(i);
        *v = initial(stm, wk, bk, pawn);
        if *v == UNKNOWN {
            open.push(i as u32);
        }
    }
    loop {
        let before = open.len();
        open.retain(|&i| {
            let (stm, wk, bk, pawn) = decode(i as usize);
            let v = step(&table, stm, wk, bk, pawn);
            table[i as usize] = v;
            v == UNKNOWN
        });
        if open.len() == before {
            break;
        }
    }
    let mut bits = vec![0u64; SIZE.div_ceil(64)];
    for (i, &v) in table.iter().enumerate() {
        if v == WIN {
            bits[i / 64] |= 1 << (i % 64);
        }
    }
    bits
}
