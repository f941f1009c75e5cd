//! Static-evaluation correction history: how far the search's results have strayed from the
//! static evaluation in positions with the same pawn structure, learnt as the search goes.
//!
//! The evaluation misjudges some pawn structures consistently (a blocked centre it thinks is
//! lively, a majority it cannot see will queen). Every node whose search result says the
//! static evaluation was wrong (an exact score, or a bound on the far side of the evaluation)
//! moves the entry of its pawn key, side to move, toward the difference, more strongly the
//! deeper the search was. The corrected evaluation is what pruning decisions and "improving"
//! see; the hash table keeps the raw one, so a correction is never applied twice.
//!
//! Entries are relaxed atomics like the move histories: a lost concurrent update is harmless
//! and nothing is torn.

use std::sync::atomic::AtomicI16;
use std::sync::atomic::Ordering::Relaxed;

use crate::types::Colour;

use super::params::{
    param, CORRECTION_ENTRIES, CORRECTION_GRAIN, CORRECTION_LIMIT, CORRECTION_MAX_WEIGHT,
    CORRECTION_WEIGHT_SCALE, MATE_BOUND, ONE_PLY,
};

/// The pawn-structure table, one half per side to move, indexed by the low bits of the pawn
/// key.
pub struct Correction {
    table: Vec<AtomicI16>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction::new()
    }
}

impl Correction {
    pub fn new() -> Correction {
        Correction {
            table: (0..2 * CORRECTION_ENTRIES)
                .map(|_| AtomicI16::new(0))
                .collect(),
        }
    }

    pub fn clear(&self) {
        self.table.iter().for_each(|v| v.store(0, Relaxed));
    }

    #[inline]
    fn slot(&self, stm: Colour, key: u64) -> &AtomicI16 {
        &self.table[stm.index() * CORRECTION_ENTRIES + (key as usize & (CORRECTION_ENTRIES - 1))]
    }

    /// `raw` (the side to move's static evaluation) plus what the table has learnt, kept
    /// out of the mate range.
    #[inline]
    pub fn corrected(&self, stm: Colour, pawn_key: u64, raw: i32) -> i32 {
        let c = self.slot(stm, pawn_key).load(Relaxed) as i32 / CORRECTION_GRAIN;
        (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// A search to `depth` (fractional plies) found `result` where the raw evaluation said
    /// `raw`: move the entry toward the difference, weighted by depth.
    pub fn update(&self, stm: Colour, pawn_key: u64, raw: i32, result: i32, depth: i32) {
        let target = ((result - raw) * CORRECTION_GRAIN).clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT);
        let w = (depth / ONE_PLY + 1).min(param!(CORRECTION_MAX_WEIGHT));
        let slot = self.slot(stm, pawn_key);
        let old = slot.load(Relaxed) as i32;
        let new = (old * (param!(CORRECTION_WEIGHT_SCALE) - w) + target * w)
            / param!(CORRECTION_WEIGHT_SCALE);
        slot.store(
            new.clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) as i16,
            Relaxed,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_toward_the_difference_and_stays_bounded() {
        let c = Correction::new();
        assert_eq!(c.corrected(Colour::White, 7, 50), 50);
        for _ in 0..200 {
            c.update(Colour::White, 7, 50, 90, 10 * ONE_PLY);
        }
        let v = c.corrected(Colour::White, 7, 50);
        assert!((50 + 35..=50 + 40).contains(&v), "{v}");
        // The other side to move and other keys are untouched.
        assert_eq!(c.corrected(Colour::Black, 7, 50), 50);
        assert_eq!(c.corrected(Colour::White, 8, 50), 50);
        for _ in 0..500 {
            c.update(Colour::White, 9, 0, 20_000, 30 * ONE_PLY);
        }
        let most = CORRECTION_LIMIT / CORRECTION_GRAIN;
        let v = c.corrected(Colour::White, 9, 0);
        assert!((most - 1..=most).contains(&v), "{v}");
        c.clear();
        assert_eq!(c.corrected(Colour::White, 7, 50), 50);
    }
}
