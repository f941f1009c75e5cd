//! Move-ordering memory: killers (two per ply, per thread), counter moves, a piece-to history and
//! continuation histories (piece-to of this move given the piece-to of the moves one and two
//! plies earlier). The histories reward the quiet move that caused a cutoff and penalise the
//! quiets tried before it.
//!
//! History values move toward ±HISTORY_MAX with a "gravity" update (the bonus shrinks as the
//! value approaches the bound), so they saturate instead of overflowing and old results fade.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicI16, AtomicI32, AtomicU32};

use super::correction::Correction;
use crate::moves::Move;
use crate::types::{to64, Piece};

use super::params::{
    param, HISTORY_BONUS_LINEAR, HISTORY_BONUS_MAX, HISTORY_BONUS_QUAD, HISTORY_MAX, MAX_PLY,
    ONE_PLY,
};

/// The histories and counter moves. Threads may share one: every field is an atomic used
/// with relaxed loads and stores (plain moves on x86), so a read-modify-write can lose a
/// concurrent update — harmless for ordering statistics — but nothing is ever torn.
pub struct History {
    /// `butterfly[piece][to]`.
    quiet: Vec<[AtomicI32; 128]>,
    /// `counter[previous piece][previous to]`: the quiet reply that refuted that move last time.
    counter: Vec<[AtomicU32; 128]>,
    /// `cont[previous piece-to][piece-to]`, piece-to = piece * 64 + to (0..64 square).
    cont: Vec<[AtomicI16; PIECE_TO]>,
    /// `capture[piece-to][captured kind]`: how often this capture refuted a node (or failed
    /// to), which orders captures of equal victims better than the attacker's value alone.
    capture: Vec<[AtomicI16; CAPTURED_KINDS]>,
    /// What the searches have taught about the static evaluation, by pawn structure (kept
    /// here since it lives, is shared and is forgotten exactly as the move histories are).
    pub correction: Correction,
}

/// Captured-kind slots of the capture history (`Piece::kind_index()`, 0 for a quiet
/// promotion).
const CAPTURED_KINDS: usize = 7;

/// Two killer moves per ply: always the thread's own (they describe its part of the tree); a
/// split point hands a copy of its owner's to the helpers.
#[derive(Clone)]
pub struct Killers {
    table: [[Move; 2]; MAX_PLY + 2],
}

impl Default for Killers {
    fn default() -> Self {
        Killers {
            table: [[Move::NONE; 2]; MAX_PLY + 2],
        }
    }
}

impl Killers {
    #[inline]
    pub fn get(&self, ply: usize) -> [Move; 2] {
        self.table[ply]
    }

    /// Forgets the killers of `ply`.
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.table[ply] = [Move::NONE; 2];
    }

    /// `best` refuted a node at `ply`.
    pub fn update(&mut self, ply: usize, best: Move) {
        let k = &mut self.table[ply];
        if k[0] != best {
            k[1] = k[0];
            k[0] = best;
        }
    }
}

/// Number of (piece, 64-square) pairs.
const PIECE_TO: usize = Piece::COUNT * 64;

/// The moves one and two plies before a node (`Move::NONE` when absent or a null move): the
/// context of the continuation histories.
pub type Context = [Move; 2];

#[inline]
fn piece_to(m: Move) -> usize {
    m.moved().index() * 64 + to64(m.to())
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

/// History bonus for a cutoff at `depth` (fractional plies): quadratic in plies, capped.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    let d = depth / ONE_PLY;
    (param!(HISTORY_BONUS_QUAD) * d * d + param!(HISTORY_BONUS_LINEAR) * d)
        .min(param!(HISTORY_BONUS_MAX))
}

#[inline]
fn gravity(v: i32, bonus: i32) -> i32 {
    v + bonus - v * bonus.abs() / HISTORY_MAX
}

/// The gravity update applied to a 16-bit entry (continuation and capture histories).
#[inline]
fn nudge(e: &AtomicI16, bonus: i32) {
    e.store(gravity(e.load(Relaxed) as i32, bonus) as i16, Relaxed);
}

impl History {
    pub fn new() -> History {
        History {
            quiet: (0..Piece::COUNT)
                .map(|_| std::array::from_fn(|_| AtomicI32::new(0)))
                .collect(),
            counter: (0..Piece::COUNT)
                .map(|_| std::array::from_fn(|_| AtomicU32::new(Move::NONE.0)))
                .collect(),
            cont: (0..PIECE_TO)
                .map(|_| std::array::from_fn(|_| AtomicI16::new(0)))
                .collect(),
            capture: (0..PIECE_TO)
                .map(|_| std::array::from_fn(|_| AtomicI16::new(0)))
                .collect(),
            correction: Correction::new(),
        }
    }

    /// Forget everything (a new game).
    pub fn clear(&self) {
        for row in &self.quiet {
            row.iter().for_each(|v| v.store(0, Relaxed));
        }
        for row in &self.counter {
            row.iter().for_each(|v| v.store(Move::NONE.0, Relaxed));
        }
        for row in &self.cont {
            row.iter().for_each(|v| v.store(0, Relaxed));
        }
        for row in &self.capture {
            row.iter().for_each(|v| v.store(0, Relaxed));
        }
        self.correction.clear();
    }

    #[inline]
    fn capture_entry(&self, m: Move) -> &AtomicI16 {
        &self.capture[piece_to(m)][m.captured().kind_index() as usize % CAPTURED_KINDS]
    }

    /// Capture-history value of a capture (or promotion).
    #[inline]
    pub fn capture_score(&self, m: Move) -> i32 {
        self.capture_entry(m).load(Relaxed) as i32
    }

    /// A node failed high: reward `best` when it is a capture, and penalise the captures in
    /// `tried` searched before it without success.
    pub fn update_captures(&self, best: Move, tried: &[Move], depth: i32) {
        let b = bonus(depth);
        if !best.is_quiet() {
            nudge(self.capture_entry(best), b);
        }
        for &m in tried {
            if m != best {
                nudge(self.capture_entry(m), -b);
            }
        }
    }

    /// Ordering score of a quiet move: its own history plus its continuation histories.
    #[inline(always)]
    pub fn score(&self, m: Move, ctx: &Context) -> i32 {
        let pt = piece_to(m);
        let mut v = self.quiet[m.moved().index()][m.to() as usize].load(Relaxed);
        for p in ctx {
            v += self.cont_value(*p, pt);
        }
        v
    }

    /// The continuation-history value of the move to piece-to `pt` after `prev`; 0 where
    /// `prev` is missing.
    #[inline(always)]
    fn cont_value(&self, prev: Move, pt: usize) -> i32 {
        if prev.is_none() {
            0
        } else {
            self.cont[piece_to(prev)][pt].load(Relaxed) as i32
        }
    }

    /// The continuation-history entries of a quiet move apart: after the move one ply earlier
    /// (the counter-move history) and two plies earlier (the follow-up history); 0 where that
    /// move is missing.
    #[inline]
    pub fn continuations(&self, m: Move, ctx: &Context) -> [i32; 2] {
        let pt = piece_to(m);
        [self.cont_value(ctx[0], pt), self.cont_value(ctx[1], pt)]
    }

    fn reward(&self, m: Move, ctx: &Context, bonus: i32) {
        let q = &self.quiet[m.moved().index()][m.to() as usize];
        q.store(gravity(q.load(Relaxed), bonus), Relaxed);
        let pt = piece_to(m);
        for p in ctx {
            if !p.is_none() {
                nudge(&self.cont[piece_to(*p)][pt], bonus);
            }
        }
    }

    #[inline]
    pub fn counter(&self, prev: Move) -> Move {
        if prev.is_none() {
            Move::NONE
        } else {
            Move(self.counter[prev.moved().index()][prev.to() as usize].load(Relaxed))
        }
    }

    /// A quiet move `best` refuted the node: reward it and make it the counter move, and
    /// penalise the quiets in `tried` that were searched before it without success.
    pub fn update_cutoff(&self, best: Move, tried: &[Move], depth: i32, ctx: &Context) {
        let b = bonus(depth);
        self.reward(best, ctx, b);
        for &m in tried {
            if m != best {
                self.reward(m, ctx, -b);
            }
        }
        let p = ctx[0];
        if !p.is_none() {
            self.counter[p.moved().index()][p.to() as usize].store(best.0, Relaxed);
        }
    }
}
