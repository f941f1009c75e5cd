//! Transposition table: 64-byte buckets of four 16-byte entries.
//!
//! An entry keeps 32 check bits of the key (the bucket index comes from the other 32 bits), the
//! move, the score (mate scores stored relative to the node), the static eval, the depth in
//! fractional plies, the bound and the search age. Replacement within a bucket prefers deep and
//! current entries; a new result always goes in (replacing the least valuable entry), so the
//! table is both depth-preferred and always-replace.
//!
//! The bucket is the unit of work: `Bucket::probe` and `Bucket::store` do everything on one
//! bucket; the table finds the bucket and holds its stripe's lock around the call, so threads
//! share one table safely.
//!
//! `StripedTable` is the table the engine uses. `LocklessTable` (in `tt_lockless.rs`) is a
//! lockless alternative with the same API, indexing and replacement, kept for comparison; the
//! cargo feature `lockless-tt` makes `TranspositionTable` name it instead.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use crossbeam_utils::CachePadded;
use parking_lot::Mutex;

use crate::moves::Move;

use super::tt_bucket::{bucket_index, AGE_CYCLE, ENTRIES_PER_BUCKET, HASHFULL_BUCKETS};
pub use super::tt_bucket::{
    score_from_tt, score_to_tt, Bound, Bucket, TtHit, DEFAULT_HASH_MB, MAX_HASH_MB, STRIPES,
};

#[path = "tt_lockless.rs"]
pub mod lockless;
pub use lockless::LocklessTable;

/// The table the engine uses: the lock-striped one unless built with `--features lockless-tt`.
#[cfg(not(feature = "lockless-tt"))]
pub type TranspositionTable = StripedTable;
#[cfg(feature = "lockless-tt")]
pub type TranspositionTable = LocklessTable;

type Stripe = CachePadded<Mutex<Box<[Bucket]>>>;

/// The shared table: buckets spread over `STRIPES` locks, so every probe and store sees and
/// leaves whole entries (no torn or mixed entries) while threads rarely wait for each other.
pub struct StripedTable {
    stripes: Box<[Stripe]>,
    /// Total buckets, a multiple of `STRIPES`.
    buckets: usize,
    age: AtomicU8,
    /// Accesses that found their stripe taken (a measure of contention); on a line of its
    /// own, away from the fields every access reads.
    waits: CachePadded<AtomicU64>,
}

impl StripedTable {
    pub fn new(mb: usize) -> StripedTable {
        let mut t = StripedTable {
            stripes: Box::new([]),
            buckets: 0,
            age: AtomicU8::new(0),
            waits: CachePadded::new(AtomicU64::new(0)),
        };
        t.resize(mb);
        t
    }

    /// Reallocates to `mb` megabytes (clamped to 1..=MAX_HASH_MB); the contents are lost.
    pub fn resize(&mut self, mb: usize) {
        let n = (mb.clamp(1, MAX_HASH_MB) << 20) / std::mem::size_of::<Bucket>();
        let per_stripe = (n / STRIPES).max(1);
        self.stripes = (0..STRIPES)
            .map(|_| CachePadded::new(Mutex::new(vec![Bucket::default(); per_stripe].into())))
            .collect();
        self.buckets = per_stripe * STRIPES;
    }

    pub fn size_mb(&self) -> usize {
        (self.buckets * std::mem::size_of::<Bucket>()) >> 20
    }

    pub fn clear(&mut self) {
        for s in self.stripes.iter_mut() {
            s.get_mut().fill(Bucket::default());
        }
        self.age.store(0, Ordering::Relaxed);
        self.waits.store(0, Ordering::Relaxed);
    }

    /// Called at the start of each search so that older entries lose value.
    pub fn new_search(&mut self) {
        let age = self.age.get_mut();
        *age = (*age + 1) % AGE_CYCLE;
    }

    /// Bucket index from the low 32 bits of the key (the check bits are the high ones), by a
    /// multiply-shift so that any table size works.
    #[inline]
    pub fn index(&self, key: u64) -> usize {
        bucket_index(key, self.buckets)
    }

    /// Runs `f` on the key's bucket with its stripe locked; the guard unlocks on return.
    #[inline]
    fn with_bucket<R>(&self, key: u64, f: impl FnOnce(&mut Bucket) -> R) -> R {
        let i = self.index(key);
        let stripe = &self.stripes[i % STRIPES];
        let mut guard = match stripe.try_lock() {
            Some(g) => g,
            None => {
                self.waits.fetch_add(1, Ordering::Relaxed);
                stripe.lock()
            }
        };
        f(&mut guard[i / STRIPES])
    }

    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        self.with_bucket(key, |b| b.probe(key, ply))
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let age = self.age.load(Ordering::Relaxed);
        self.with_bucket(key, |b| {
            b.store(key, mv, score, eval, depth, bound, ply, age)
        });
    }

    /// Entries of the current search per mille, sampled over the first buckets.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let n = HASHFULL_BUCKETS.min(self.buckets);
        let used: usize = (0..n)
            .map(|i| self.stripes[i % STRIPES].lock()[i / STRIPES].used_in(age))
            .sum();
        (used * 1000 / (n * ENTRIES_PER_BUCKET)) as u32
    }

    /// Stripe waits since the last `take_waits`.
    pub fn take_waits(&self) -> u64 {
        self.waits.swap(0, Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::MATE;
    use crate::search::tt_bucket::Entry;

    /// `from_bits`'s table and `bits`'s match spell one mapping twice: they must agree, with
    /// the age bits above ignored.
    #[test]
    fn bound_bits_round_trip() {
        for bound in [Bound::Exact, Bound::Lower, Bound::Upper] {
            for age in [0u8, 1, AGE_CYCLE - 1] {
                assert_eq!(Bound::from_bits(bound.bits() | (age << 2)), Some(bound));
            }
        }
        assert_eq!(Bound::from_bits(0), None);
        assert_eq!(Bound::from_bits((AGE_CYCLE - 1) << 2), None);
    }

    #[test]
    fn bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Entry>(), 16);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
    }

    #[test]
    fn store_then_probe_and_mate_scores_are_node_relative() {
        let tt = StripedTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        tt.store(key, Move(77), MATE - 10, 5, 12, Bound::Exact, 4);
        let hit = tt.probe(key, 6).unwrap();
        assert_eq!(hit.mv, Move(77));
        // Mate in 10 plies from the root seen at ply 4 is mate in 6 from that node; probed at
        // ply 6 it is mate in 12 from the root.
        assert_eq!(hit.score, MATE - 12);
        assert_eq!(hit.depth, 12);
        assert!(tt.probe(key ^ (1 << 40), 0).is_none());
    }

    #[test]
    fn full_bucket_evicts_the_shallowest() {
        let tt = StripedTable::new(1);
        let base = 0x0000_0001_0000_0000u64;
        for i in 0..4u64 {
            tt.store(
                base * (i + 1),
                Move::NONE,
                0,
                0,
                10 + i as i32,
                Bound::Lower,
                0,
            );
        }
        tt.store(base * 9, Move::NONE, 0, 0, 30, Bound::Lower, 0);
        assert!(tt.probe(base, 0).is_none(), "depth 10 entry evicted");
        assert!(tt.probe(base * 9, 0).is_some());
        assert!(tt.probe(base * 4, 0).is_some());
    }
}
