//! `squall bench`: a fixed set of positions searched to a fixed depth on one thread, with a
//! cleared hash table and history before each, so the total node count is a signature of the
//! search and evaluation: a change meant to be neutral must leave it unchanged.
//!
//! With more than one thread (`squall bench --threads N`) the node count depends on how the
//! threads are scheduled and varies from run to run: it is then a speed figure, not a signature.

use std::time::Instant;

use crate::board::Position;
use crate::eval::EvalStats;
use crate::search::{Control, Engine, Limits, Report, SmpStats};

/// Default bench depth (plies).
pub const BENCH_DEPTH: i32 = 11;
/// Hash size for the bench, so its signature does not depend on the engine's option.
pub const BENCH_HASH_MB: usize = 16;

/// Opening, middlegame, endgame and tactical positions, chosen for variety.
pub const POSITIONS: [&str; 48] = [
    // openings
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "rnbqk2r/ppp1bppp/4pn2/3p4/2PP4/2N2N2/PP2PPPP/R1BQKB1R w KQkq - 4 5",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5",
    "rnbq1rk1/ppp1ppbp/3p1np1/8/2PPP3/2N2N2/PP3PPP/R1BQKB1R w KQ - 1 6",
    "r1bqkb1r/5ppp/p1np1n2/1p2p1B1/4P3/N1N5/PPP2PPP/R2QKB1R w KQkq b6 0 9",
    // middlegames
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "2r5/2rk2pp/1pn1pb2/pN1p4/P2P4/1N2B3/nPR1KPPP/3R4 b - - 0 1",
    "3r2k1/p2q4/1p4p1/3rRp1p/5P1P/6PK/P3R3/3Q4 w - - 0 1",
    "2k4r/1pr1n3/p1p1q2p/5pp1/3P1P2/P1P1P3/1R2Q1PP/1RB3K1 w - - 0 1",
    "r3kb1r/1pp3p1/p3bp1p/5q2/3QN3/1P6/PBP3P1/3RR1K1 w kq - 0 1",
    "1r5r/3b1pk1/3p1np1/p1qPp3/p1N1PbP1/2P2PN1/1PB1Q1K1/R3R3 b - - 0 1",
    "4k2r/1bqnbppp/p3p3/1p2P1N1/2r2BB1/8/PPP3PP/R2Q1R1K w k - 0 1",
    "1k2rb1r/pbp1q1pp/2pp4/2PnpP2/Q7/1P3NP1/PB5P/2KR1B1R w - - 0 1",
    "2r3k1/4qpp1/2p1r3/pbQpN1Pp/3P1P1P/4P3/PP6/1KR3R1 w - - 0 1",
    "r5k1/p3qppn/2p1b2p/1p1r4/3N4/1PP4P/1P3BP1/R2QR1K1 w - - 0 1",
    "6rk/2p1bp1p/2n2pr1/pp1qpN2/3pN2P/2PP1Q2/PP3PP1/R2R2K1 w - - 0 1",
    "r5k1/1ppq1pb1/p2p1n1p/3P2p1/7Q/1P1B2RP/PBP2PP1/6K1 w - - 0 1",
    "r3r1k1/2p5/1pNp2b1/pQ3pq1/2PPp1R1/P1P1P1n1/6P1/3BR1K1 b - - 0 1",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2QK2R w KQ - 4 10",
    // tactics
    "rnbqkb1r/pppp1ppp/8/4P3/6n1/7P/PPPNPPP1/R1BQKBNR b KQkq - 0 1",
    "6k1/5p2/p5np/4B3/3P4/1PP1q3/P3r1QP/6RK w - - 0 1",
    "5rk1/p4ppp/2p1b3/3Nq3/4P1n1/1p1B2QP/1PPr2P1/1K2R2R w - - 0 1",
    "2k1r3/1p2Bq2/p2Qp3/Pb1p1p1P/2pP1P2/2P5/2P2KP1/1R6 w - - 0 1",
    "1r3rk1/3Q2pp/p3p3/6B1/3np3/6R1/PqP1B2P/3K2R1 w - - 0 1",
    "3r1r1k/pp2N1qp/3p2p1/2n1b3/8/4BR1Q/PPP4P/5R1K w - - 0 1",
    "k2r3r/ppq2p1p/n1pb1Pp1/4p3/2Q5/1R2B1P1/PPP2PBP/R5K1 w - - 0 1",
    "r3bk1r/1pp2p2/p1p1qNn1/4P1Q1/8/8/PPP2PP1/R1BR2K1 w - - 0 1",
    // endgames
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/8/8/8/K7/P7/k7 w - - 0 1",
    "8/8/7k/7p/7P/7K/8/8 w - - 0 1",
    "7k/3p4/8/8/3P4/8/8/K7 w - - 0 1",
    "3k4/p1p5/8/2p1p3/4P3/PpPP2K1/1P6/8 b - - 0 1",
    "6k1/p4pp1/Pp2r3/1QPq3p/8/6P1/2P2P1P/1R4K1 w - - 0 1",
    "3R4/1p6/2pN3k/p6p/2b2r1P/P4P2/5K2/8 w - - 0 1",
    "8/p1pk2Bp/8/1p3R2/4r2p/KP1n2P1/P1b4P/5R2 b - - 0 1",
    "8/PPPk4/8/8/8/8/4Kppp/8 b - - 0 1",
    "8/8/1p1k4/p1p5/P1P1K3/1P6/8/8 w - - 0 1",
    "8/5pk1/6p1/R7/5P1P/r5P1/5K2/8 b - - 0 1",
    "8/8/4k3/8/2B5/4K3/5N2/8 w - - 0 1",
    "2r3k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/4kp2/6p1/3B3p/2b4P/6P1/5PK1/8 w - - 0 1",
    "6k1/6p1/8/8/8/8/1Q4PP/6K1 w - - 0 1",
    "8/8/8/3k4/8/8/3K4/4Q3 w - - 0 1",
];

/// Field-by-field sum of two sets of parallel-search counters.
pub fn add_stats(a: SmpStats, b: SmpStats) -> SmpStats {
    SmpStats {
        splits: a.splits + b.splits,
        joins: a.joins + b.joins,
        split_cutoffs: a.split_cutoffs + b.split_cutoffs,
        tt_lock_waits: a.tt_lock_waits + b.tt_lock_waits,
        helper_nodes: a.helper_nodes + b.helper_nodes,
        idle_us: a.idle_us + b.idle_us,
    }
}

pub struct BenchResult {
    pub nodes: u64,
    pub seconds: f64,
    /// Evaluator counters summed over the whole bench (lazy exits, pawn-hash hits).
    pub eval: EvalStats,
    /// Parallel-search counters summed over the whole bench (all zero on one thread).
    pub smp: SmpStats,
}

/// Runs the bench on one thread; `progress` receives one line per position.
pub fn run(depth: i32, progress: impl FnMut(&str)) -> BenchResult {
    run_threads(depth, 1, progress)
}

/// Runs the bench on `threads` threads (one engine, so helper threads start once).
pub fn run_threads(depth: i32, threads: usize, mut progress: impl FnMut(&str)) -> BenchResult {
    let mut engine = Engine::new(BENCH_HASH_MB);
    engine.options.threads = threads.max(1);
    let mut smp = SmpStats::default();
    let limits = Limits::depth(depth);
    let mut nodes = 0;
    let start = Instant::now();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let Ok(pos) = Position::from_fen(fen) else {
            progress(&format!("position {}: bad FEN {fen}", i + 1));
            continue;
        };
        engine.clear();
        let control = Control::new(false);
        let r = engine.search(&pos, &limits, &control, &mut |_: &Report| {});
        nodes += r.nodes;
        smp = add_stats(smp, engine.smp_stats());
        progress(&format!(
            "position {:2}: {:>10} nodes  best {}  {}",
            i + 1,
            r.nodes,
            r.best,
            fen
        ));
    }
    BenchResult {
        nodes,
        seconds: start.elapsed().as_secs_f64(),
        eval: engine.eval_stats(),
        smp,
    }
}
