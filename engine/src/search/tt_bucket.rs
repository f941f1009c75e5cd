//! The transposition table's unit of work: 64-byte buckets of four 16-byte entries, their
//! probe and replacement, the bound of a stored score and the conversions of mate and tablebase
//! scores between root and node distances. `tt.rs` (the lock-striped table) and
//! `tt_lockless.rs` (the lockless one) both lay their memory out in these buckets.

use crate::moves::Move;
use crate::score::TB_WIN_BOUND;

/// Scores from here up (mates, and Syzygy wins from `TB_WIN_BOUND`) count plies from the root;
/// the table keeps them counted from the node.
const DISTANCE_BOUND: i32 = TB_WIN_BOUND;

pub const DEFAULT_HASH_MB: usize = 64;
pub const MAX_HASH_MB: usize = 65_536;
pub(super) const ENTRIES_PER_BUCKET: usize = 4;
/// Age counter wraps at this many searches (it lives in the upper bits of a byte).
pub(super) const AGE_CYCLE: u8 = 64;
/// A step of age costs an entry as much as this many quarter plies of depth in replacement.
pub(super) const AGE_WEIGHT: i32 = 8;
/// A shallower result for the same position replaces a deeper one of this search only when
/// it is at most this many quarter plies shallower (or exact).
pub(super) const SAME_POSITION_DEPTH_SLACK: i32 = 8;
/// Buckets sampled by `hashfull` (4 entries each: 1000 entries).
pub(super) const HASHFULL_BUCKETS: usize = 250;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

impl Bound {
    pub(super) fn bits(self) -> u8 {
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
    pub(super) fn from_bits(flags: u8) -> Option<Bound> {
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
pub(super) struct Entry {
    pub(super) check: u32,
    pub(super) mv: u32,
    pub(super) score: i16,
    pub(super) eval: i16,
    pub(super) depth: i16,
    /// Bound in the low two bits (0 = empty), age above.
    pub(super) flags: u8,
    pub(super) _pad: u8,
}

impl Entry {
    pub(super) fn bound(&self) -> Option<Bound> {
        Bound::from_bits(self.flags)
    }
    pub(super) fn age(&self) -> u8 {
        self.flags >> 2
    }
}

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
pub struct Bucket {
    pub(super) entries: [Entry; ENTRIES_PER_BUCKET],
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
pub(super) fn check_bits(key: u64) -> u32 {
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

    pub(super) fn used_in(&self, age: u8) -> usize {
        self.entries
            .iter()
            .filter(|e| e.bound().is_some() && e.age() == age)
            .count()
    }
}

/// Locks guarding the table: bucket `i` lives in stripe `i % STRIPES`. Enough stripes that two
/// or even sixteen threads rarely meet on one, few enough that the locks stay in cache.
pub const STRIPES: usize = 1024;
