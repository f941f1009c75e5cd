//! Move-ordering memory: killers (two per ply), counter moves and a piece-to history that
//! rewards the quiet move that caused a cutoff and penalises the quiets tried before it.
//!
//! History values move toward ±HISTORY_MAX with a "gravity" update (the bonus shrinks as the
//! value approaches the bound), so they saturate instead of overflowing and old results fade.

use crate::moves::Move;
use crate::types::Piece;

use super::params::{HISTORY_BONUS_MAX, HISTORY_MAX, MAX_PLY, ONE_PLY};

pub struct History {
    killers: [[Move; 2]; MAX_PLY + 2],
    /// `butterfly[piece][to]`.
    quiet: Vec<[i32; 128]>,
    /// `counter[previous piece][previous to]`: the quiet reply that refuted that move last time.
    counter: Vec<[Move; 128]>,
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

    #[inline]
    pub fn score(&self, m: Move) -> i32 {
        self.quiet[m.moved().index()][m.to() as usize]
    }

    #[inline]
    pub fn counter(&self, prev: Option<Move>) -> Move {
        match prev {
            Some(p) if !p.is_none() => self.counter[p.moved().index()][p.to() as usize],
            _ => Move::NONE,
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
        prev: Option<Move>,
    ) {
        let b = bonus(depth);
        gravity(&mut self.quiet[best.moved().index()][best.to() as usize], b);
        for &m in tried {
            if m != best {
                gravity(&mut self.quiet[m.moved().index()][m.to() as usize], -b);
            }
        }
        let k = &mut self.killers[ply];
        if k[0] != best {
            k[1] = k[0];
            k[0] = best;
        }
        if let Some(p) = prev {
            if !p.is_none() {
                self.counter[p.moved().index()][p.to() as usize] = best;
            }
        }
    }
}
