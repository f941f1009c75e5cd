//! Criterion benches of the routines typhoon wrote in assembly: attack tests, move generation,
//! make/unmake, static exchange evaluation, the evaluation and hash-table probes.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
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
    c.bench_function("movegen/pseudo all", |b| {
        let mut list = MoveList::new();
        b.iter(|| {
            for p in &ps {
                list.clear();
                p.generate(GenType::All, &mut list);
                black_box(list.len());
            }
        })
    });
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
    bench_eval,
    bench_tt,
    bench_perft
);
criterion_main!(benches);
