//! `EvalInfo`: what the term modules share during one evaluation (the attack maps, the king
//! zones, the pawn entry, each term per colour and the tracer).

use super::pawns::{step_forward, PawnEntry};
use super::score::Score;
use super::term::{Term, TERM_COUNT};
use super::tracer::{NoTrace, Tracer};
use crate::board::bitboard;
use crate::board::Position;
use crate::types::{to64, Colour, Square};

/// Kind-indexed tables (`Kind as usize`, 1..=6) have this many slots.
const KIND_SLOTS: usize = 7;

/// Squares next to `sq`.
#[inline]
pub fn king_reach(sq: Square) -> u64 {
    bitboard::KING[to64(sq) & 63]
}

/// The king's square and the squares next to it.
#[inline]
pub fn king_zone(sq: Square) -> u64 {
    king_reach(sq) | bitboard::bit64(sq)
}

/// The king safety area of `c`'s king on `sq` (Ethereal's shape): the king's square, its
/// neighbours and the three squares two ranks ahead of it; on an edge file one file wider.
#[inline]
pub fn king_area(sq: Square, c: Colour) -> u64 {
    let reach = king_reach(sq);
    let mut area = reach | bitboard::bit64(sq) | step_forward(c, reach);
    match to64(sq) & 7 {
        0 => area |= area << 1,
        7 => area |= area >> 1,
        _ => {}
    }
    area
}

/// What the term modules share during one evaluation; squares are bitboards (see `pawns::bb`).
#[derive(Clone, Debug)]
pub struct EvalInfo<'a, T: Tracer = NoTrace> {
    /// The pawn hash's entry, read in place (it is a few hundred bytes).
    pub pawns: &'a PawnEntry,
    pub occupied: [u64; 2],
    /// Squares each colour attacks (pawns and king included).
    pub attacked: [u64; 2],
    /// Squares each colour attacks with each kind (`Kind as usize`).
    pub attacked_by: [[u64; KIND_SLOTS]; 2],
    /// Squares each colour attacks with at least two men (two pawns count), so that threats
    /// and space can tell an outnumbered defence from an even one.
    pub attacked_twice: [u64; 2],
    /// The king's area (`king_area`) less the squares two of its own pawns guard: attacks on
    /// it count toward the danger.
    pub king_zone: [u64; 2],
    /// Pieces of a colour attacking the *enemy* king zone, by kind (`mobility::kind_slot`:
    /// P N B R Q, pawns not counted), and the zone squares they hit (once per attacker).
    pub king_attackers: [[i32; 5]; 2],
    pub king_zone_hits: [i32; 2],
    /// Each term per colour, from that colour's point of view.
    pub terms: [[Score; 2]; TERM_COUNT],
    /// Told of every weight used.
    pub tracer: T,
}

impl<'a, T: Tracer> EvalInfo<'a, T> {
    pub(super) fn new(pos: &Position, pawns: &'a PawnEntry, tracer: T) -> EvalInfo<'a, T> {
        let occupied = occupancy(pos);
        let mut king_zone = [0u64; 2];
        for c in Colour::BOTH {
            let k = pos.king(c);
            // Squares two of the defender's pawns guard are not the attack's to count.
            king_zone[c.index()] = king_area(k, c) & !pawns.attacks_twice[c.index()];
        }
        EvalInfo {
            pawns,
            occupied,
            attacked: [0; 2],
            attacked_by: [[0; KIND_SLOTS]; 2],
            attacked_twice: [0; 2],
            king_zone,
            king_attackers: [[0; 5]; 2],
            king_zone_hits: [0; 2],
            terms: [[Score::ZERO; 2]; TERM_COUNT],
            tracer,
        }
    }

    #[inline]
    pub fn add(&mut self, term: Term, c: Colour, v: Score) {
        self.terms[term as usize][c.index()] += v;
    }

    /// Sum of every term, White minus Black.
    pub(super) fn balance(&self) -> Score {
        self.terms
            .iter()
            .fold(Score::ZERO, |acc, t| acc + t[0] - t[1])
    }
}

/// Squares each colour occupies, kept by the position.
#[inline]
fn occupancy(pos: &Position) -> [u64; 2] {
    Colour::BOTH.map(|c| pos.occupancy(c))
}
