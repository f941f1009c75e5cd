//! Criterion benches of the routines typhoon wrote in assembly: attack tests, move generation,
//! make/unmake, static exchange evaluation, the evaluation and hash-table probes; and the
//! lock-striped transposition table against the lockless one, on one thread and on two.

use std::time::{Duration, Instant};

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use squall::eval::Evaluator;
use squall::movegen::GenType;
use squall::{Move, MoveList, Position};

/// A spread of positions: opening, busy middlegames, an endgame.
const FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

fn positions() -> Vec<Position> {
    FENS.iter()
        .map(|f| Position::from_fen(f).expect("bench FEN is valid"))
        .collect()
}

fn bench_attacks(c: &mut Criterion) {
    let ps = positions();
    c.bench_function("attackers/all squares", |b| {
        b.iter(|| {
            let mut n = 0u32;
            for p in &ps {
                for sq in (0..128u8).filter(|s| s & 0x88 == 0) {
                    n += p.attackers(sq, p.side_to_move()).count_ones();
                }
            }
            black_box(n)
        })
    });
    c.bench_function("attacks/check_info", |b| {
        b.iter(|| {
            for p in &ps {
                black_box(p.check_info());
            }
        })
    });
}

fn bench_movegen(c: &mut Criterion) {
    let ps = positions();
    // Every pseudo-legal move, and the captures that the quiescence search and the picker's
    // first stage ask for at almost every node.
    for (name, gen) in [
        ("movegen/pseudo all", GenType::All),
        ("movegen/captures", GenType::Captures),
    ] {
        c.bench_function(name, |b| {
            let mut list = MoveList::new();
            b.iter(|| {
                for p in &ps {
                    list.clear();
                    p.generate(gen, &mut list);
                    black_box(list.len());
                }
            })
        });
    }
    c.bench_function("movegen/legal", |b| {
        let mut list = MoveList::new();
        b.iter(|| {
            for p in &ps {
                list.clear();
                p.generate_legal(&mut list);
                black_box(list.len());
            }
        })
    });
}

fn bench_make_unmake(c: &mut Criterion) {
    let mut ps = positions();
    let lists: Vec<MoveList> = ps.iter().map(|p| p.legal_moves()).collect();
    c.bench_function("make+unmake/every legal move", |b| {
        b.iter(|| {
            for (p, list) in ps.iter_mut().zip(&lists) {
                for &m in list.iter() {
                    p.make(m);
                    black_box(p.key());
                    p.unmake();
                }
            }
        })
    });
}

fn bench_see(c: &mut Criterion) {
    let ps = positions();
    // Only the captures: that is what quiescence asks SEE about.
    let captures: Vec<Vec<Move>> = ps
        .iter()
        .map(|p| {
            p.legal_moves()
                .iter()
                .copied()
                .filter(|m| m.is_capture())
                .collect()
        })
        .collect();
    c.bench_function("see/captures", |b| {
        b.iter(|| {
            let mut sum = 0i32;
            for (p, list) in ps.iter().zip(&captures) {
                for &m in list {
                    sum = sum.wrapping_add(p.see(m));
                }
            }
            black_box(sum)
        })
    });
}

/// The quiet moves SEE pruning asks about (is the move worth at least -60 cp?), and the
/// check test the search makes for every move.
fn bench_quiet_tests(c: &mut Criterion) {
    let ps = positions();
    let lists: Vec<MoveList> = ps.iter().map(|p| p.legal_moves()).collect();
    c.bench_function("see/quiet moves", |b| {
        b.iter(|| {
            let mut n = 0u32;
            for (p, list) in ps.iter().zip(&lists) {
                for &m in list.iter().filter(|m| m.is_quiet()) {
                    n += p.see_ge(m, -60) as u32;
                }
            }
            black_box(n)
        })
    });
    c.bench_function("gives_check/every legal move", |b| {
        b.iter(|| {
            let mut n = 0u32;
            for (p, list) in ps.iter().zip(&lists) {
                for &m in list.iter() {
                    n += p.gives_check(m) as u32;
                }
            }
            black_box(n)
        })
    });
}

/// A pawn-hash miss: the structure of a skeleton computed from scratch.
fn bench_pawn_structure(c: &mut Criterion) {
    let ps = positions();
    let params = &squall::eval::weights::DEFAULT_PARAMS;
    c.bench_function("pawns/entry from scratch", |b| {
        b.iter(|| {
            for p in &ps {
                black_box(squall::eval::pawns::PawnEntry::compute(p, params));
            }
        })
    });
}

fn bench_eval(c: &mut Criterion) {
    let ps = positions();
    // The pawn hash stays warm across iterations, as in a search where most probes hit.
    let mut ev = Evaluator::new();
    c.bench_function("eval/full", |b| {
        b.iter(|| {
            let mut sum = 0;
            for p in &ps {
                sum += ev.evaluate_full(p);
            }
            black_box(sum)
        })
    });
}

fn bench_tt(c: &mut Criterion) {
    use squall::search::tt::{Bound, TranspositionTable};
    // A 64 MB table, far larger than the caches, probed at pseudo-random keys: the cost is the
    // memory access, as in a search.
    let tt = TranspositionTable::new(64);
    let keys: Vec<u64> = (0..4096u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (i << 29))
        .collect();
    for (i, &k) in keys.iter().enumerate().step_by(2) {
        tt.store(k, Move::NONE, i as i32, 0, 8, Bound::Exact, 0);
    }
    c.bench_function("tt/probe 4096", |b| {
        b.iter(|| {
            let mut hits = 0;
            for &k in &keys {
                hits += tt.probe(k, 0).is_some() as u32;
            }
            black_box(hits)
        })
    });
}

/// The two shared tables behind one interface, so one bench body measures both.
trait SharedTable: Sync {
    fn probe(&self, key: u64) -> bool;
    fn store(&self, key: u64, depth: i32);
}

macro_rules! shared_table {
    ($t:ty) => {
        impl SharedTable for $t {
            #[inline]
            fn probe(&self, key: u64) -> bool {
                <$t>::probe(self, key, 0).is_some()
            }
            #[inline]
            fn store(&self, key: u64, depth: i32) {
                use squall::search::tt::Bound;
                <$t>::store(
                    self,
                    key,
                    Move(key as u32 & 0xfff),
                    0,
                    0,
                    depth,
                    Bound::Lower,
                    0,
                );
            }
        }
    };
}
shared_table!(squall::search::tt::StripedTable);
shared_table!(squall::search::tt::LocklessTable);

/// Table operations per bench iteration (per thread).
const TT_BATCH: u64 = 1024;
/// Stores between storing a position and probing it again: 16 MB of other buckets are touched in
/// between, so its bucket has left the caches.
const TT_LAG: u64 = 1 << 18;

/// Pseudo-random keys: MurmurHash3's 64-bit finaliser of a counter.
#[inline]
fn tt_key(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// One batch of `TT_BATCH` operations at pseudo-random keys, three probes to a store, roughly
/// as a search uses the table: probe the position `n` (new: a miss), probe the position stored
/// `TT_LAG` stores ago (a hit unless replaced), probe a position never stored (a miss), store
/// position `n`. Every probe is a new place in a table far larger than the caches; the store
/// finds its bucket in cache, as a search's store after its probe does.
#[inline]
fn tt_batch<T: SharedTable>(tt: &T, n: &mut u64) -> u32 {
    let mut hits = 0;
    for _ in 0..TT_BATCH / 4 {
        let key = tt_key(*n);
        hits += tt.probe(key) as u32;
        hits += tt.probe(tt_key(n.wrapping_sub(TT_LAG))) as u32;
        hits += tt.probe(tt_key(*n | 1 << 63)) as u32;
        tt.store(key, (key >> 58) as i32);
        *n += 1;
    }
    hits
}

/// The counter ranges the bench threads draw positions from (one each; the first for one thread,
/// the other two for two threads), and where each starts.
const TT_STREAMS: [u64; 3] = [0, 1 << 40, 2 << 40];
const TT_START: u64 = TT_LAG;

/// As many stores as the table has buckets (a quarter of its entries), so that probes and stores
/// meet a working table; and the `TT_LAG` positions before each stream's start.
fn tt_fill<T: SharedTable>(tt: &T, mb: u64) {
    let filler = (0..(mb << 20) / 64).map(|i| i | 1 << 62);
    let streams = TT_STREAMS.iter().flat_map(|&s| s..s + TT_START);
    for key in filler.chain(streams).map(tt_key) {
        tt.store(key, (key >> 58) as i32);
    }
}

fn bench_tt_tables(c: &mut Criterion) {
    use squall::search::tt::{LocklessTable, StripedTable};
    const MB: usize = 64;
    let striped = StripedTable::new(MB);
    let lockless = LocklessTable::new(MB);
    tt_fill(&striped, MB as u64);
    tt_fill(&lockless, MB as u64);

    fn one_thread<T: SharedTable>(c: &mut Criterion, name: &str, tt: &T) {
        let mut g = c.benchmark_group("tt");
        g.throughput(Throughput::Elements(TT_BATCH));
        let mut n = TT_STREAMS[0] + TT_START;
        g.bench_function(format!("{name} probe+store"), |b| {
            b.iter(|| black_box(tt_batch(tt, &mut n)))
        });
        g.finish();
    }

    // Two threads, each running `iters` batches on the shared table: the time is wall time until
    // both are done, so the per-iteration figure is the time for 2 x TT_BATCH operations.
    fn two_threads<T: SharedTable>(c: &mut Criterion, name: &str, tt: &T) {
        let mut g = c.benchmark_group("tt");
        g.throughput(Throughput::Elements(2 * TT_BATCH));
        // Each thread its own positions, in the same buckets as the other's now and then.
        let mut ns = [TT_STREAMS[1] + TT_START, TT_STREAMS[2] + TT_START];
        g.bench_function(format!("{name} probe+store 2 threads"), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                std::thread::scope(|scope| {
                    for n in ns.iter_mut() {
                        scope.spawn(move || {
                            for _ in 0..iters {
                                black_box(tt_batch(tt, n));
                            }
                        });
                    }
                });
                start.elapsed().max(Duration::from_nanos(1))
            })
        });
        g.finish();
    }

    one_thread(c, "striped", &striped);
    one_thread(c, "lockless", &lockless);
    two_threads(c, "striped", &striped);
    two_threads(c, "lockless", &lockless);
}

fn bench_perft(c: &mut Criterion) {
    let mut p = positions().swap_remove(1);
    c.bench_function("perft/kiwipete depth 3", |b| {
        b.iter(|| black_box(squall::perft::perft(&mut p, 3)))
    });
}

criterion_group!(
    benches,
    bench_attacks,
    bench_movegen,
    bench_make_unmake,
    bench_see,
    bench_quiet_tests,
    bench_pawn_structure,
    bench_eval,
    bench_tt,
    bench_tt_tables,
    bench_perft
);
criterion_main!(benches);
