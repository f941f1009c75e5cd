//! The lockless transposition table, kept to compare with the lock-striped one (`StripedTable`);
//! the cargo feature `lockless-tt` makes the engine use it.
//!
//! Same public API, same bucket count and multiply-shift index, same replacement: a probe or a
//! store loads the bucket's eight words (relaxed atomics), decodes them into a local `Bucket`,
//! runs `Bucket::probe` / `Bucket::store` on that copy and writes back only the entries that
//! changed. Threads never wait, but two writers can interleave on one entry, so an entry may be
//! read back as the first word of one store and the second word of another.
//!
//! Such torn entries are caught with Hyatt's "key XOR data" trick. An entry is two words: `a`
//! (the 32 check bits in its upper half, the move in its lower half) and `d` (score, eval,
//! depth, flags). It is kept as `w0 = a ^ mix(d)`, `w1 = d`, and read back as
//! `a = w0 ^ mix(w1)`. When `w0` and `w1` come from stores with data `d1` and `d2`, the recovered
//! check bits are off by the upper half of `mix(d1) ^ mix(d2)`, so the entry no longer matches
//! the key and is never used as a hit (it can still be chosen as the entry to replace, which is
//! harmless).
//!
//! `mix(d) = d * K` (wrapping, `K` odd) rather than plain `d`, because `a` has only 32 check
//! bits: with `a ^ d`, only the half of `d` lying over the check bits would guard them, and two
//! stores that differ only in score or eval would tear into an entry whose check bits still
//! match, with a corrupt move. The product's upper half depends on every bit of `d`, and:
//! - stores whose data differ only in the upper half of `d` (depth, bound, age) always tear into
//!   a mismatch: `d1 * K - d2 * K` is then a non-zero multiple of 2^32 (mod 2^64), so the
//!   products' upper halves differ;
//! - stores whose score or eval differ tear into a match only if the two products agree in
//!   their upper 32 bits, odds of about 2^-32 (as for two positions sharing check bits).
//!
//! One multiply per entry is cheap, the map is a bijection (so decoding is exact), and
//! `mix(0) == 0`, so zeroed memory holds empty entries.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use crate::moves::Move;

use crate::search::tt_bucket::{
    Bound, Bucket, Entry, TtHit, AGE_CYCLE, ENTRIES_PER_BUCKET, HASHFULL_BUCKETS, MAX_HASH_MB,
    STRIPES,
};

const WORDS_PER_BUCKET: usize = 2 * ENTRIES_PER_BUCKET;

/// One bucket as eight atomic words (two per entry), one cache line.
#[derive(Default)]
#[repr(C, align(64))]
struct AtomicBucket([AtomicU64; WORDS_PER_BUCKET]);

/// Multiplies the data word into the check bits: see the module documentation.
#[inline]
fn mix(d: u64) -> u64 {
    d.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// An entry as two words: `a` (check bits above, move below) and `d` (the data).
#[inline]
fn pack(e: &Entry) -> (u64, u64) {
    let a = (e.check as u64) << 32 | e.mv as u64;
    let d = e.score as u16 as u64
        | (e.eval as u16 as u64) << 16
        | (e.depth as u16 as u64) << 32
        | (e.flags as u64) << 48
        | (e._pad as u64) << 56;
    (a, d)
}

/// An entry's two stored words.
#[inline]
fn encode(e: &Entry) -> (u64, u64) {
    let (a, d) = pack(e);
    (a ^ mix(d), d)
}

/// The entry two stored words hold (a torn pair decodes to an entry with wrong check bits).
#[inline]
fn decode(w0: u64, w1: u64) -> Entry {
    let a = w0 ^ mix(w1);
    Entry {
        check: (a >> 32) as u32,
        mv: a as u32,
        score: w1 as u16 as i16,
        eval: (w1 >> 16) as u16 as i16,
        depth: (w1 >> 32) as u16 as i16,
        flags: (w1 >> 48) as u8,
        _pad: (w1 >> 56) as u8,
    }
}

impl AtomicBucket {
    /// The bucket the words decode to, one relaxed load per word.
    #[inline]
    fn load(&self) -> Bucket {
        let mut b = Bucket::default();
        for (e, w) in b.entries.iter_mut().zip(self.0.chunks_exact(2)) {
            *e = decode(w[0].load(Ordering::Relaxed), w[1].load(Ordering::Relaxed));
        }
        b
    }

    /// Writes the entries of `b` that differ from those of `old` (what `load` returned).
    #[inline]
    fn write_changed(&self, old: &Bucket, b: &Bucket) {
        for ((e, o), w) in b
            .entries
            .iter()
            .zip(&old.entries)
            .zip(self.0.chunks_exact(2))
        {
            if pack(e) != pack(o) {
                let (w0, w1) = encode(e);
                w[0].store(w0, Ordering::Relaxed);
                w[1].store(w1, Ordering::Relaxed);
            }
        }
    }
}

/// The shared table without locks: see the module documentation.
pub struct LocklessTable {
    buckets: Box<[AtomicBucket]>,
    age: AtomicU8,
}

impl LocklessTable {
    pub fn new(mb: usize) -> LocklessTable {
        let mut t = LocklessTable {
            buckets: Box::new([]),
            age: AtomicU8::new(0),
        };
        t.resize(mb);
        t
    }

    /// Reallocates to `mb` megabytes (clamped to 1..=MAX_HASH_MB); the contents are lost. The
    /// bucket count is the striped table's (a multiple of `STRIPES`), so both index alike.
    pub fn resize(&mut self, mb: usize) {
        let n = (mb.clamp(1, MAX_HASH_MB) << 20) / std::mem::size_of::<AtomicBucket>();
        let buckets = (n / STRIPES).max(1) * STRIPES;
        self.buckets = Box::new([]);
        self.buckets = (0..buckets).map(|_| AtomicBucket::default()).collect();
    }

    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<AtomicBucket>()) >> 20
    }

    pub fn clear(&mut self) {
        for w in self.buckets.iter_mut().flat_map(|b| b.0.iter_mut()) {
            *w.get_mut() = 0;
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Called at the start of each search so that older entries lose value.
    pub fn new_search(&mut self) {
        let age = self.age.get_mut();
        *age = (*age + 1) % AGE_CYCLE;
    }

    /// Bucket index from the low 32 bits of the key, as in `StripedTable::index`.
    #[inline]
    pub fn index(&self, key: u64) -> usize {
        super::bucket_index(key, self.buckets.len())
    }

    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        self.buckets[self.index(key)].load().probe(key, ply)
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
        let slot = &self.buckets[self.index(key)];
        let old = slot.load();
        let mut b = old;
        b.store(key, mv, score, eval, depth, bound, ply, age);
        slot.write_changed(&old, &b);
    }

    /// Entries of the current search per mille, sampled over the first buckets.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let n = HASHFULL_BUCKETS.min(self.buckets.len());
        let used: usize = self.buckets[..n]
            .iter()
            .map(|b| b.load().used_in(age))
            .sum();
        (used * 1000 / (n * ENTRIES_PER_BUCKET)) as u32
    }

    /// Always 0: nothing waits. Kept so that the two tables share one API.
    pub fn take_waits(&self) -> u64 {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::super::StripedTable;
    use super::*;
    use crate::search::params::MATE;

    /// xorshift64: a reproducible stream of keys for the tests.
    fn next(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    #[test]
    fn tt_feature_selects_the_table() {
        let name = std::any::type_name::<super::super::TranspositionTable>();
        assert_eq!(
            name.ends_with("LocklessTable"),
            cfg!(feature = "lockless-tt"),
            "{name}"
        );
    }

    #[test]
    fn lockless_bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<AtomicBucket>(), 64);
        assert_eq!(std::mem::align_of::<AtomicBucket>(), 64);
    }

    #[test]
    fn lockless_same_size_and_index_as_striped() {
        for mb in [1, 3, 64] {
            let (l, s) = (LocklessTable::new(mb), StripedTable::new(mb));
            assert_eq!(l.size_mb(), s.size_mb());
            let mut k = 0x9E37_79B9_7F4A_7C15;
            for _ in 0..1000 {
                let key = next(&mut k);
                assert_eq!(l.index(key), s.index(key));
            }
        }
    }

    #[test]
    fn lockless_encode_decode_round_trip_and_zero_is_empty() {
        let e = Entry {
            check: 0xdead_beef,
            mv: 0x1234_5678,
            score: -30_000,
            eval: 1234,
            depth: -4,
            flags: 0xff,
            _pad: 0,
        };
        let (w0, w1) = encode(&e);
        let d = decode(w0, w1);
        assert_eq!(encode(&d), (w0, w1));
        assert_eq!(
            (d.check, d.mv, d.score, d.eval),
            (e.check, e.mv, e.score, e.eval)
        );
        assert_eq!((d.depth, d.flags), (e.depth, e.flags));
        assert_eq!(encode(&Entry::default()), (0, 0));
        assert!(decode(0, 0).bound().is_none());
    }

    #[test]
    fn lockless_store_then_probe_and_mate_scores_are_node_relative() {
        let tt = LocklessTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        tt.store(key, Move(77), MATE - 10, 5, 12, Bound::Exact, 4);
        let hit = tt.probe(key, 6).unwrap();
        assert_eq!(hit.mv, Move(77));
        assert_eq!(hit.score, MATE - 12);
        assert_eq!(hit.eval, 5);
        assert_eq!(hit.depth, 12);
        assert_eq!(hit.bound, Bound::Exact);
        assert!(tt.probe(key ^ (1 << 40), 0).is_none());
        tt.store(key, Move(78), -MATE + 10, -5, 16, Bound::Upper, 4);
        let hit = tt.probe(key, 2).unwrap();
        assert_eq!((hit.mv, hit.score), (Move(78), -MATE + 8));
        assert_eq!((hit.eval, hit.bound), (-5, Bound::Upper));
    }

    #[test]
    fn lockless_clear_and_hashfull() {
        let mut tt = LocklessTable::new(1);
        let mut k = 1u64;
        for _ in 0..100_000 {
            let key = next(&mut k);
            tt.store(key, Move(1), 0, 0, 4, Bound::Exact, 0);
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0, "old entries are not counted");
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
        assert!(tt.probe(k, 0).is_none());
        assert_eq!(tt.take_waits(), 0);
    }

    /// The entry one store of these values writes into an empty bucket.
    #[allow(clippy::too_many_arguments)]
    fn entry(key: u64, mv: u32, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> Entry {
        let mut b = Bucket::default();
        b.store(key, Move(mv), score, eval, depth, bound, 0, age);
        b.entries[0]
    }

    /// Is the entry made of the first word of `e1` and the second of `e2` a hit for `key`?
    fn torn_hits(key: u64, e1: &Entry, e2: &Entry) -> bool {
        let mut torn = Bucket::default();
        torn.entries[0] = decode(encode(e1).0, encode(e2).1);
        torn.probe(key, 0).is_some()
    }

    /// Words from two stores of one position whose data differ only in depth, bound or age (the
    /// upper half of the data word) never decode to a hit, for every such pair; nor do those of
    /// stores that differ in score or eval (a plain `a ^ d` would let these through, with
    /// matching check bits and a corrupt move).
    #[test]
    fn lockless_torn_entry_is_never_a_hit() {
        let key = 0xabcd_ef01_0000_0005u64;
        let bounds = [Bound::Exact, Bound::Lower, Bound::Upper];
        let variants: Vec<Entry> = (0..32)
            .flat_map(|d| (0..3).flat_map(move |b| (0..4).map(move |a| (d * 5, b, a))))
            .map(|(d, b, a)| entry(key, 99, 17, 3, d, bounds[b], a))
            .collect();
        for (i, e1) in variants.iter().enumerate() {
            for (j, e2) in variants.iter().enumerate() {
                assert_eq!(torn_hits(key, e1, e2), i == j, "{i} {j}");
            }
        }
        // Score, eval, move.
        let e = entry(key, 99, 17, 3, 8, Bound::Lower, 0);
        for other in [
            entry(key, 99, 18, 3, 8, Bound::Lower, 0),
            entry(key, 99, -17, 3, 8, Bound::Lower, 0),
            entry(key, 99, 17, 4, 8, Bound::Lower, 0),
            entry(key, 98, 16, 3, 9, Bound::Upper, 1),
        ] {
            assert!(!torn_hits(key, &e, &other) && !torn_hits(key, &other, &e));
        }
        // Whole entries decode to themselves.
        let mut whole = Bucket::default();
        whole.entries[0] = decode(encode(&e).0, encode(&e).1);
        let hit = whole.probe(key, 0).unwrap();
        assert_eq!((hit.mv, hit.score, hit.eval), (Move(99), 17, 3));
        assert_eq!((hit.depth, hit.bound), (8, Bound::Lower));
    }

    /// One thread, the same random stores, probes and new searches on both tables: the same
    /// answers every time.
    #[test]
    fn lockless_behaves_like_striped() {
        let mut l = LocklessTable::new(1);
        let mut s = StripedTable::new(1);
        let mut r = 0x2545_F491_4F6C_DD1Du64;
        // 512 positions in 64 buckets (256 entries), so that replacement is exercised hard.
        let keys: Vec<u64> = (0..512)
            .map(|_| next(&mut r) & 0xffff_ffff_00ff_ffff)
            .collect();
        let mut hits = 0;
        for i in 0..60_000 {
            let x = next(&mut r);
            let key = keys[(x >> 12) as usize % keys.len()];
            if i % 5000 == 4999 {
                l.new_search();
                s.new_search();
            }
            let ply = (x % 20) as usize;
            if x & 0x100 != 0 {
                let mv = Move((x >> 9) as u32 & 0x7fff);
                let score = (x >> 24) as i32 % 40_000 - 20_000;
                let score = score.clamp(-MATE + 100, MATE - 100);
                let eval = (x >> 40) as i16 as i32 / 4;
                let depth = (x >> 56) as i32;
                let bound = [Bound::Exact, Bound::Lower, Bound::Upper][(x >> 10) as usize % 3];
                l.store(key, mv, score, eval, depth, bound, ply);
                s.store(key, mv, score, eval, depth, bound, ply);
            } else {
                let hit = l.probe(key, ply);
                assert_eq!(hit, s.probe(key, ply), "op {i}");
                hits += hit.is_some() as usize;
            }
        }
        assert!(hits > 3000, "only {hits} hits");
        assert_eq!(l.hashfull(), s.hashfull());
    }

    /// Two threads store and probe the same few keys (all in 8 buckets) without pause; every
    /// hit must be exactly one store's data for that key. Each store for key `j` writes a
    /// variant `v` into every field, so a mix of two stores is caught.
    #[test]
    fn lockless_two_threads_never_see_torn_entries() {
        const KEYS: u64 = 64;
        const OPS: usize = 200_000;
        let tt = LocklessTable::new(1);
        // Key j: bucket j % 8 (low half below 2^21 maps to the first 8 of 16384 buckets),
        // distinct non-zero check bits.
        let key = |j: u64| ((j + 1).wrapping_mul(0x9E37_79B1) << 32) | (j % 8) << 18 | j;
        let bounds = [Bound::Exact, Bound::Lower, Bound::Upper];
        let expected = |j: u64, v: u64| {
            let mv = Move((v << 8 | (j + 1)) as u32);
            let score = (j * 100 + v) as i32 - 3000;
            let eval = 3000 - (j * 64 + v) as i32;
            let depth = ((v * 7 + j) % 120) as i32;
            let bound = bounds[((v + j) % 3) as usize];
            (mv, score, eval, depth, bound)
        };
        let hits: usize = std::thread::scope(|s| {
            let workers: Vec<_> = (0..2u64)
                .map(|t| {
                    let tt = &tt;
                    s.spawn(move || {
                        let mut r = 0x1234_5678_9abc_def1 ^ (t << 40);
                        let mut hits = 0;
                        for _ in 0..OPS {
                            let x = next(&mut r);
                            let j = x % KEYS;
                            let ply = (x >> 20) as usize % 8;
                            if x & 0x100 != 0 {
                                let v = (x >> 9) % 64;
                                let (mv, score, eval, depth, bound) = expected(j, v);
                                tt.store(key(j), mv, score, eval, depth, bound, ply);
                            } else if let Some(h) = tt.probe(key(j), ply) {
                                let v = (h.mv.0 >> 8) as u64;
                                assert_eq!(h.mv.0 & 0xff, j as u32 + 1, "move of another key");
                                assert!(v < 64, "move not stored");
                                let (_, score, eval, depth, bound) = expected(j, v);
                                assert_eq!((h.score, h.eval), (score, eval), "key {j} v {v}");
                                assert_eq!((h.depth, h.bound), (depth, bound), "key {j} v {v}");
                                hits += 1;
                            }
                        }
                        hits
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).sum()
        });
        assert!(hits > 1000, "only {hits} hits");
    }
}
