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

/// Scores from here up (mates, and Syzygy wins from `TB_WIN_BOUND`) count plies from the root;
/// the table keeps them counted from the node.
const DISTANCE_BOUND: i32 = crate::tablebase::TB_WIN_BOUND;

#[path = "tt_lockless.rs"]
pub mod lockless;
pub use lockless::LocklessTable;

/// The table the engine uses: the lock-striped one unless built with `--features lockless-tt`.
#[cfg(not(feature = "lockless-tt"))]
pub type TranspositionTable = StripedTable;
#[cfg(feature = "lockless-tt")]
pub type TranspositionTable = LocklessTable;

pub const DEFAULT_HASH_MB: usize = 64;
pub const MAX_HASH_MB: usize = 65_536;
const ENTRIES_PER_BUCKET: usize = 4;
/// Age counter wraps at this many searches (it lives in the upper bits of a byte).
const AGE_CYCLE: u8 = 64;
/// A step of age costs an entry as much as this many quarter plies of depth in replacement.
const AGE_WEIGHT: i32 = 8;
/// A shallower result for the same position replaces a deeper one of this search only when
/// it is at most this many quarter plies shallower (or exact).
const SAME_POSITION_DEPTH_SLACK: i32 = 8;
/// Buckets sampled by `hashfull` (4 entries each: 1000 entries).
const HASHFULL_BUCKETS: usize = 250;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

impl Bound {
    fn bits(self) -> u8 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    /// The bound stored in the low two bits of an entry's `flags` (the inverse of `bits`; 0 is
    /// an empty entry). A table rather than a `match`: the compiler made the match a jump
    /// table, an indirect branch per probe that the predictor often missed.
    #[inline]
    fn from_bits(flags: u8) -> Option<Bound> {
        const BOUNDS: [Option<Bound>; 4] = [
            None,
            Some(Bound::Exact),
            Some(Bound::Lower),
            Some(Bound::Upper),
        ];
        BOUNDS[(flags & 3) as usize]
    }
}

impl Bound {
    /// The bound a search result `best` carries, given the window it was searched with.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// What a probe returns (the score already converted back to the probing node's ply).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

impl TtHit {
    /// Does the stored score decide a node searched with this window?
    pub fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    check: u32,
    mv: u32,
    score: i16,
    eval: i16,
    depth: i16,
    /// Bound in the low two bits (0 = empty), age above.
    flags: u8,
    _pad: u8,
}

impl Entry {
    fn bound(&self) -> Option<Bound> {
        Bound::from_bits(self.flags)
    }
    fn age(&self) -> u8 {
        self.flags >> 2
    }
}

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
pub struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

/// Converts a score to its table form: mates (and tablebase wins) counted from this node
/// instead of the root.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= DISTANCE_BOUND {
        score + ply as i32
    } else if score <= -DISTANCE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= DISTANCE_BOUND {
        score - ply as i32
    } else if score <= -DISTANCE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Bucket of `key` among `buckets`: from the low 32 bits of the key (the check bits are the
/// high ones), by a multiply-shift so that any table size works. Both tables use it, so they
/// place every key alike.
#[inline]
pub(crate) fn bucket_index(key: u64, buckets: usize) -> usize {
    (((key & 0xffff_ffff) * buckets as u64) >> 32) as usize
}

#[inline]
fn check_bits(key: u64) -> u32 {
    (key >> 32) as u32
}

impl Bucket {
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let check = check_bits(key);
        self.entries.iter().find_map(|e| {
            let bound = e.bound()?;
            (e.check == check).then(|| TtHit {
                mv: Move(e.mv),
                score: score_from_tt(e.score as i32, ply),
                eval: e.eval as i32,
                depth: e.depth as i32,
                bound,
            })
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
        age: u8,
    ) {
        let check = check_bits(key);
        let slot = match self
            .entries
            .iter()
            .position(|e| e.check == check && e.bound().is_some())
        {
            Some(i) => {
                let e = &self.entries[i];
                // Keep a deeper result of this search for the same position unless the new one is
                // exact; a shallower search says less.
                if bound != Bound::Exact
                    && e.age() == age
                    && depth < e.depth as i32 - SAME_POSITION_DEPTH_SLACK
                {
                    return;
                }
                i
            }
            None => {
                let worth = |e: &Entry| {
                    if e.bound().is_none() {
                        return i32::MIN;
                    }
                    let stale = (age.wrapping_sub(e.age()) % AGE_CYCLE) as i32;
                    e.depth as i32 - AGE_WEIGHT * stale
                };
                let mut victim = 0;
                for i in 1..ENTRIES_PER_BUCKET {
                    if worth(&self.entries[i]) < worth(&self.entries[victim]) {
                        victim = i;
                    }
                }
                victim
            }
        };
        let e = &mut self.entries[slot];
        // Keep the old move when this result has none (a fail-low): it is still the best guess.
        let mv = if mv.is_none() && e.check == check {
            e.mv
        } else {
            mv.0
        };
        *e = Entry {
            check,
            mv,
            score: score_to_tt(score, ply) as i16,
            eval: eval as i16,
            depth: depth as i16,
            flags: bound.bits() | (age << 2),
            _pad: 0,
        };
    }

    fn used_in(&self, age: u8) -> usize {
        self.entries
            .iter()
            .filter(|e| e.bound().is_some() && e.age() == age)
            .count()
    }
}

/// Locks guarding the table: bucket `i` lives in stripe `i % STRIPES`. Enough stripes that two
/// or even sixteen threads rarely meet on one, few enough that the locks stay in cache.
pub const STRIPES: usize = 1024;

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
