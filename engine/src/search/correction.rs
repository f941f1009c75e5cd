//! Static-evaluation correction history: how far the search's results have strayed from the
//! static evaluation in positions with the same pawn structure or the same placement of one
//! colour's other pieces, learnt as the search goes.
//!
//! The evaluation misjudges some pawn structures consistently (a blocked centre it thinks is
//! lively, a majority it cannot see will queen). Every node whose search result says the
//! static evaluation was wrong (an exact score, or a bound on the far side of the evaluation)
//! moves the entry of its pawn key, side to move, toward the difference, more strongly the
//! deeper the search was. The corrected evaluation is what pruning decisions and "improving"
//! see; the hash table keeps the raw one, so a correction is never applied twice.
//!
//! Two more tables, keyed by the placement of one colour's pieces other than pawns (king
//! included), learn the same differences; the correction used is a weighted sum of the
//! entries (`CORRECTION_PAWN_WEIGHT` for the pawn one, `CORRECTION_NON_PAWN_WEIGHT` for each
//! colour's, in quarters), as Stockfish combines its several correction tables. (One key for
//! both colours' pieces together was tried first: it names nearly a single position, learns
//! little that carries over, and lost games.)
//!
//! Entries are relaxed atomics like the move histories: a lost concurrent update is harmless
//! and nothing is torn.

use std::sync::atomic::AtomicI16;
use std::sync::atomic::Ordering::Relaxed;

use crate::types::Colour;

use super::params::{
    param, CORRECTION_ENTRIES, CORRECTION_GRAIN, CORRECTION_LIMIT, CORRECTION_MAX_WEIGHT,
    CORRECTION_NON_PAWN_WEIGHT, CORRECTION_PAWN_WEIGHT, CORRECTION_WEIGHT_SCALE, MATE_BOUND,
    ONE_PLY,
};

/// The keys a position's corrections are filed under.
#[derive(Clone, Copy, Debug)]
pub struct CorrectionKeys {
    pub pawn: u64,
    /// Each colour's pieces other than pawns (`Position::non_pawn_key`), by colour index.
    pub non_pawn: [u64; 2],
}

/// The pawn-structure table and one table per colour for its other pieces, each with one
/// half per side to move, indexed by the low bits of their key.
pub struct Correction {
    table: Vec<AtomicI16>,
    /// Both colours' tables, White's first.
    non_pawn: Vec<AtomicI16>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction::new()
    }
}

impl Correction {
    pub fn new() -> Correction {
        let table = |len: usize| (0..len).map(|_| AtomicI16::new(0)).collect();
        Correction {
            table: table(2 * CORRECTION_ENTRIES),
            // A weight of 0 (reachable only as a `tune` option) leaves these tables unused,
            // so they are not allocated and the uses fold away in the normal build.
            non_pawn: table(if param!(CORRECTION_NON_PAWN_WEIGHT) != 0 {
                4 * CORRECTION_ENTRIES
            } else {
                0
            }),
        }
    }

    pub fn clear(&self) {
        self.table.iter().for_each(|v| v.store(0, Relaxed));
        self.non_pawn.iter().for_each(|v| v.store(0, Relaxed));
    }

    #[inline]
    fn slot(table: &[AtomicI16], stm: Colour, key: u64) -> &AtomicI16 {
        &table[stm.index() * CORRECTION_ENTRIES + (key as usize & (CORRECTION_ENTRIES - 1))]
    }

    /// The entry of colour `c`'s other-pieces table (never called at weight 0, when the
    /// tables are empty).
    #[inline]
    fn non_pawn_slot(&self, c: usize, stm: Colour, keys: CorrectionKeys) -> &AtomicI16 {
        let half = &self.non_pawn[c * 2 * CORRECTION_ENTRIES..][..2 * CORRECTION_ENTRIES];
        Self::slot(half, stm, keys.non_pawn[c])
    }

    /// `raw` (the side to move's static evaluation) plus what the tables have learnt, kept
    /// out of the mate range.
    #[inline]
    pub fn corrected(&self, stm: Colour, keys: CorrectionKeys, raw: i32) -> i32 {
        let mut sum = Self::slot(&self.table, stm, keys.pawn).load(Relaxed) as i32
            * param!(CORRECTION_PAWN_WEIGHT);
        if param!(CORRECTION_NON_PAWN_WEIGHT) != 0 {
            let np = |c: usize| self.non_pawn_slot(c, stm, keys).load(Relaxed) as i32;
            sum += (np(0) + np(1)) * param!(CORRECTION_NON_PAWN_WEIGHT);
        }
        let c = sum / (4 * CORRECTION_GRAIN);
        (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// A search to `depth` (fractional plies) found `result` where the raw evaluation said
    /// `raw`: move the entries toward the difference, weighted by depth.
    pub fn update(&self, stm: Colour, keys: CorrectionKeys, raw: i32, result: i32, depth: i32) {
        let target = ((result - raw) * CORRECTION_GRAIN).clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT);
        let w = (depth / ONE_PLY + 1).min(param!(CORRECTION_MAX_WEIGHT));
        let learn = |slot: &AtomicI16| {
            let old = slot.load(Relaxed) as i32;
            let new = (old * (param!(CORRECTION_WEIGHT_SCALE) - w) + target * w)
                / param!(CORRECTION_WEIGHT_SCALE);
            slot.store(
                new.clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) as i16,
                Relaxed,
            );
        };
        learn(Self::slot(&self.table, stm, keys.pawn));
        if param!(CORRECTION_NON_PAWN_WEIGHT) != 0 {
            for c in 0..2 {
                learn(self.non_pawn_slot(c, stm, keys));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys that agree, so every table learns alike and the correction is the learnt
    /// difference times the weights' sum (`scale`).
    fn k(key: u64) -> CorrectionKeys {
        CorrectionKeys {
            pawn: key,
            non_pawn: [key, key],
        }
    }

    #[test]
    fn learns_toward_the_difference_and_stays_bounded() {
        let c = Correction::new();
        assert_eq!(c.corrected(Colour::White, k(7), 50), 50);
        for _ in 0..200 {
            c.update(Colour::White, k(7), 50, 90, 10 * ONE_PLY);
        }
        // The weights' sum in quarters (4 with the other-pieces tables at weight 0).
        let scale = |x: i32| {
            x * (param!(CORRECTION_PAWN_WEIGHT) + 2 * param!(CORRECTION_NON_PAWN_WEIGHT)) / 4
        };
        let v = c.corrected(Colour::White, k(7), 50);
        assert!((50 + scale(35)..=50 + scale(40)).contains(&v), "{v}");
        // The other side to move and other keys are untouched.
        assert_eq!(c.corrected(Colour::Black, k(7), 50), 50);
        assert_eq!(c.corrected(Colour::White, k(8), 50), 50);
        for _ in 0..500 {
            c.update(Colour::White, k(9), 0, 20_000, 30 * ONE_PLY);
        }
        let most = scale(CORRECTION_LIMIT / CORRECTION_GRAIN);
        let v = c.corrected(Colour::White, k(9), 0);
        assert!((most - 1..=most).contains(&v), "{v}");
        c.clear();
        assert_eq!(c.corrected(Colour::White, k(7), 50), 50);
    }
}
