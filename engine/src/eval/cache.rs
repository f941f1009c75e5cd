//! The evaluation cache: full evaluations remembered by position key.
//!
//! The search meets the same position again and again (transpositions, re-searches after a
//! fail, the next iteration), and the hash table keeps a static evaluation only where a
//! search stored an entry. A full evaluation costs a few thousand instructions; a lookup here
//! costs one load. Each slot packs the key's upper 48 bits with the 16-bit score, so a slot is
//! a single `u64` and a torn or stale entry is simply a miss.
//!
//! Only full evaluations are cached, and the cache is consulted only where the full evaluation
//! would be computed anyway, so the search sees exactly the values it saw without it.

/// Slots per evaluator (a power of two): 512 KB.
pub const EVAL_CACHE_ENTRIES: usize = 64 * 1024;

const SCORE_BITS: u64 = 0xFFFF;

pub struct EvalCache {
    slots: Vec<u64>,
}

impl EvalCache {
    pub fn new() -> EvalCache {
        EvalCache {
            slots: vec![0; EVAL_CACHE_ENTRIES],
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill(0);
    }

    #[inline]
    fn index(key: u64) -> usize {
        key as usize & (EVAL_CACHE_ENTRIES - 1)
    }

    /// The cached full evaluation of the position with this key, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<i32> {
        let slot = self.slots[Self::index(key)];
        if slot != 0 && (slot ^ key) & !SCORE_BITS == 0 {
            Some((slot & SCORE_BITS) as u16 as i16 as i32)
        } else {
            None
        }
    }

    /// The raw slot of `key` (for `Evaluator::touch`).
    #[inline]
    pub fn slot(&self, key: u64) -> u64 {
        self.slots[Self::index(key)]
    }

    /// Remembers `score` (within `i16`, as every evaluation is) for `key`.
    #[inline]
    pub fn put(&mut self, key: u64, score: i32) {
        debug_assert!(i16::try_from(score).is_ok());
        self.slots[Self::index(key)] = (key & !SCORE_BITS) | (score as i16 as u16 as u64);
    }
}

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_scores_of_either_sign() {
        let mut c = EvalCache::new();
        let key = 0x1234_5678_9ABC_DEF0u64;
        assert_eq!(c.get(key), None);
        c.put(key, -1234);
        assert_eq!(c.get(key), Some(-1234));
        c.put(key, 19_999);
        assert_eq!(c.get(key), Some(19_999));
        // Same slot, other key: a miss, not the other position's score.
        assert_eq!(c.get(key ^ (1 << 40)), None);
        c.clear();
        assert_eq!(c.get(key), None);
    }
}
