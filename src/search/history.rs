//! Move-ordering memory: killers (two per ply), counter moves, a piece-to history and
//! continuation histories (piece-to of this move given the piece-to of the moves one and two
//! plies earlier). The histories reward the quiet move that caused a cutoff and penalise the
//! quiets tried before it.
//!
//! History values move toward ±HISTORY_MAX with a "gravity" update (the bonus shrinks as the
//! value approaches the bound), so they saturate instead of overflowing and old results fade.

use crate::moves::Move;
use crate::types::{to64, Piece};

use super::params::{HISTORY_BONUS_MAX, HISTORY_MAX, MAX_PLY, ONE_PLY};

pub struct History {
    killers: [[Move; 2]; MAX_PLY + 2],
    /// `butterfly[piece][to]`.
    quiet: Vec<[i32; 128]>,
    /// `counter[previous piece][previous to]`: the quiet reply that refuted that move last time.
    counter: Vec<[Move; 128]>,
    /// `cont[previous piece-to][piece-to]`, piece-to = piece * 64 + to (0..64 square).
    cont: Vec<[i16; PIECE_TO]>,
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

/// History bonus for a cutoff at `depth` (fractional plies): depth² in plies, capped.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    let d = depth / ONE_PLY;
    (d * d).min(HISTORY_BONUS_MAX)
}

#[inline]
fn gravity(v: &mut i32, bonus: i32) {
    *v += bonus - *v * bonus.abs() / HISTORY_MAX;
}

impl History {
    pub fn new() -> History {
        History {
            killers: [[Move::NONE; 2]; MAX_PLY + 2],
            quiet: vec![[0; 128]; Piece::COUNT],
            counter: vec![[Move::NONE; 128]; Piece::COUNT],
            cont: vec![[0; PIECE_TO]; PIECE_TO],
        }
    }

    pub fn clear(&mut self) {
        *self = History::new();
    }

    /// Forget the killers (a new search starts from another root).
    pub fn clear_killers(&mut self) {
        self.killers = [[Move::NONE; 2]; MAX_PLY + 2];
    }

    #[inline]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    /// Ordering score of a quiet move: its own history plus its continuation histories.
    #[inline]
    pub fn score(&self, m: Move, ctx: &Context) -> i32 {
        let pt = piece_to(m);
        let mut v = self.quiet[m.moved().index()][m.to() as usize];
        for p in ctx {
            if !p.is_none() {
                v += self.cont[piece_to(*p)][pt] as i32;
            }
        }
        v
    }

    fn reward(&mut self, m: Move, ctx: &Context, bonus: i32) {
        gravity(&mut self.quiet[m.moved().index()][m.to() as usize], bonus);
        let pt = piece_to(m);
        for p in ctx {
            if !p.is_none() {
                let e = &mut self.cont[piece_to(*p)][pt];
                let mut v = *e as i32;
                gravity(&mut v, bonus);
                *e = v as i16;
            }
        }
    }

    #[inline]
    pub fn counter(&self, prev: Move) -> Move {
        if prev.is_none() {
            Move::NONE
        } else {
            self.counter[prev.moved().index()][prev.to() as usize]
        }
    }

    /// A quiet move `best` refuted the node: reward it, make it a killer and counter move, and
    /// penalise the quiets in `tried` that were searched before it without success.
    pub fn update_cutoff(
        &mut self,
        best: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
        ctx: &Context,
    ) {
        let b = bonus(depth);
        self.reward(best, ctx, b);
        for &m in tried {
            if m != best {
                self.reward(m, ctx, -b);
            }
        }
        let k = &mut self.killers[ply];
        if k[0] != best {
            k[1] = k[0];
            k[0] = best;
        }
        let p = ctx[0];
        if !p.is_none() {
            self.counter[p.moved().index()][p.to() as usize] = best;
        }
    }
}
