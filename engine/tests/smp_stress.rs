//! Start/stop stress of the (parallel) search: thousands of short searches on one engine, the
//! thread count changed at random between them (2 to 8), random positions, random limits (until
//! stopped, depth, nodes, move time) and a stopper thread that calls `stop` after a random
//! 0-1500 µs. Now and then the hash table is cleared or resized between searches.
//!
//! Checked: no panic; every best move is legal (and the ponder move legal after it); the score
//! is within the mate range and the depth within the limit; the search returns soon after
//! `stop`; nothing hangs (a watchdog on the test thread fails the test when the searching
//! thread stops making progress or the whole run exceeds its bound).
//!
//! Environment: `SQUALL_STRESS_CYCLES` (default 10,000; 500 in debug builds),
//! `SQUALL_STRESS_SEED`, `SQUALL_STRESS_STOP_LIMIT_MS` (most time from `stop` to the return,
//! default 2,000; 10,000 in debug builds; raise it under ThreadSanitizer, see tools/tsan.sh).

use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use squall::bench::POSITIONS;
use squall::search::{Control, Engine, Limits, Report, SearchResult, MATE};
use squall::{Move, Position};

/// Debug builds validate the board in every make/unmake and search some 30 times slower; a
/// stopped search there takes tens of milliseconds to notice the stop (the search polls every
/// 2048 nodes), so they run fewer cycles and allow a longer stop-to-return time.
const DEFAULT_CYCLES: usize = if cfg!(debug_assertions) { 500 } else { 10_000 };
const DEFAULT_STOP_LIMIT_MS: u64 = if cfg!(debug_assertions) {
    10_000
} else {
    2_000
};
const DEFAULT_SEED: u64 = 0x5a11_5ea2_c4b0_0001;
/// Longest wait for the next cycle to start before the watchdog calls it a hang.
const STALL: Duration = Duration::from_secs(60);
/// Bound on the whole run (the release default takes well under a minute).
const OVERALL: Duration = Duration::from_secs(900);
const HASH_SIZES_MB: [usize; 5] = [1, 2, 3, 4, 8];
const MIN_THREADS: u64 = 2;
const MAX_THREADS: u64 = 8;

fn env_number(name: &str) -> Option<u64> {
    let text = std::env::var(name).ok()?;
    let text = text.trim();
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.replace('_', "").parse(),
    };
    Some(parsed.unwrap_or_else(|_| panic!("{name}={text} is not a number")))
}

/// A uniform number in `0..n` (the tiny modulo bias does not matter here).
fn below(rng: &mut Xoshiro256PlusPlus, n: u64) -> u64 {
    rng.next_u64() % n.max(1)
}

fn legal(pos: &Position, m: Move) -> bool {
    !m.is_none() && pos.legal_moves().contains(m)
}

/// A random position reached by a random playout (0-79 plies) from the start position or a
/// bench position, with its move history (repetitions count); never one without a legal move.
fn random_position(rng: &mut Xoshiro256PlusPlus) -> Position {
    loop {
        let fen = POSITIONS[below(rng, POSITIONS.len() as u64) as usize];
        let mut pos = if below(rng, 3) == 0 {
            Position::startpos()
        } else {
            // (One bench FEN, position 44, is illegal: the side to move gives check.)
            match Position::from_fen(fen) {
                Ok(p) => p,
                Err(_) => continue,
            }
        };
        let plies = below(rng, 80);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make(moves.as_slice()[below(rng, moves.len() as u64) as usize]);
        }
        if !pos.legal_moves().is_empty() {
            return pos;
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    /// `infinite`: only `stop` ends it.
    Infinite,
    Depth(i32),
    Nodes(u64),
    MoveTime(u64),
}

/// What one cycle does (also what the watchdog reports when that cycle hangs).
#[derive(Clone)]
struct Plan {
    cycle: usize,
    fen: String,
    threads: usize,
    kind: Kind,
    /// When the stopper calls `stop` (None: no stopper, the limit alone ends the search).
    stop_after_us: Option<u64>,
    clear: bool,
    hash_mb: Option<usize>,
}

impl std::fmt::Display for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cycle {}: {} threads, {:?}, stop after {:?} µs{}{}, fen {}",
            self.cycle,
            self.threads,
            self.kind,
            self.stop_after_us,
            if self.clear { ", cleared" } else { "" },
            self.hash_mb
                .map_or(String::new(), |mb| format!(", hash {mb} MB")),
            self.fen
        )
    }
}

fn plan(rng: &mut Xoshiro256PlusPlus, cycle: usize) -> (Plan, Position) {
    let pos = random_position(rng);
    let stop = below(rng, 1501);
    let (kind, stop_after_us) = match below(rng, 8) {
        0..=2 => (Kind::Infinite, Some(stop)),
        3 | 4 => {
            // Now and then a small depth with no stopper, so searches also end on their own
            // while helpers are busy.
            if below(rng, 4) == 0 {
                (Kind::Depth(1 + below(rng, 5) as i32), None)
            } else {
                (Kind::Depth(1 + below(rng, 40) as i32), Some(stop))
            }
        }
        5 | 6 => {
            if below(rng, 4) == 0 {
                (Kind::Nodes(1 + below(rng, 5_000)), None)
            } else {
                (Kind::Nodes(1 + below(rng, 500_000)), Some(stop))
            }
        }
        _ => (Kind::MoveTime(below(rng, 4)), Some(stop)),
    };
    let threads = (MIN_THREADS + below(rng, MAX_THREADS - MIN_THREADS + 1)) as usize;
    // About one cycle in 50 clears the engine and one in 120 resizes its hash table, the first
    // ones early enough that short runs have both.
    let clear = cycle % 50 == 17;
    let hash_mb =
        (cycle % 120 == 41).then(|| HASH_SIZES_MB[below(rng, HASH_SIZES_MB.len() as u64) as usize]);
    let p = Plan {
        cycle,
        fen: pos.to_fen(),
        threads,
        kind,
        stop_after_us,
        clear,
        hash_mb,
    };
    (p, pos)
}

fn limits(kind: Kind) -> Limits {
    match kind {
        Kind::Infinite => Limits {
            infinite: true,
            ..Limits::default()
        },
        Kind::Depth(d) => Limits::depth(d),
        Kind::Nodes(n) => Limits {
            nodes: Some(n),
            ..Limits::default()
        },
        Kind::MoveTime(ms) => Limits::move_time(ms),
    }
}

/// One search: runs it (with its stopper) and returns the result, when `stop` was called (if
/// before the search returned) and when the search returned.
fn search_once(
    engine: &mut Engine,
    pos: &Position,
    p: &Plan,
) -> (SearchResult, Option<Instant>, Instant) {
    let control = Control::new(false);
    let limits = limits(p.kind);
    let stopped_at: Mutex<Option<Instant>> = Mutex::new(None);
    let done = std::sync::atomic::AtomicBool::new(false);
    let mut returned = None;
    let r = std::thread::scope(|s| {
        if let Some(us) = p.stop_after_us {
            let (control, stopped_at, done) = (&control, &stopped_at, &done);
            s.spawn(move || {
                std::thread::sleep(Duration::from_micros(us));
                // The time is taken before the flag is set, so the latency covers all the wait.
                let mut at = stopped_at.lock().unwrap();
                if !done.load(std::sync::atomic::Ordering::SeqCst) {
                    *at = Some(Instant::now());
                }
                control.stop();
            });
        }
        let r = engine.search(pos, &limits, &control, &mut |_: &Report| {});
        returned = Some(Instant::now());
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        r
    });
    let at = *stopped_at.lock().unwrap();
    (r, at, returned.expect("search returned"))
}

fn check(pos: &Position, p: &Plan, r: &SearchResult) {
    assert!(
        legal(pos, r.best),
        "illegal best move {} in {}: {r:?}",
        r.best,
        p
    );
    if !r.ponder.is_none() {
        let mut after = pos.clone();
        after.make(r.best);
        assert!(
            legal(&after, r.ponder),
            "illegal ponder move {} after {} in {}: {r:?}",
            r.ponder,
            r.best,
            p
        );
    }
    assert!(r.score.abs() <= MATE, "score out of range in {}: {r:?}", p);
    if let Kind::Depth(d) = p.kind {
        assert!(
            (1..=d.max(1)).contains(&r.depth),
            "depth {} beyond the limit {d} in {}",
            r.depth,
            p
        );
    }
}

#[derive(Default, Debug)]
struct Tally {
    cycles: usize,
    stopped: usize,
    natural: usize,
    clears: usize,
    resizes: usize,
    max_stop_latency: Duration,
    total_latency: Duration,
    /// Time inside `search_once` (the search with its stopper), all cycles.
    searching: Duration,
}

fn run_cycles(cycles: usize, seed: u64, stop_limit: Duration, beat: impl Fn(Plan)) -> Tally {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut engine = Engine::new(HASH_SIZES_MB[1]);
    let mut tally = Tally::default();
    for cycle in 0..cycles {
        let (p, pos) = plan(&mut rng, cycle);
        beat(p.clone());
        if p.clear {
            engine.clear();
            tally.clears += 1;
        }
        if let Some(mb) = p.hash_mb {
            engine.set_hash(mb);
            tally.resizes += 1;
        }
        engine.options.threads = p.threads;
        let began = Instant::now();
        let (r, stopped_at, returned) = search_once(&mut engine, &pos, &p);
        tally.searching += began.elapsed();
        check(&pos, &p, &r);
        match stopped_at {
            Some(at) => {
                let latency = returned.saturating_duration_since(at);
                assert!(
                    latency < stop_limit,
                    "search returned {latency:?} after stop (limit {stop_limit:?}) in {p}"
                );
                tally.stopped += 1;
                tally.total_latency += latency;
                tally.max_stop_latency = tally.max_stop_latency.max(latency);
            }
            None => tally.natural += 1,
        }
        tally.cycles += 1;
    }
    tally
}

fn describe(p: &Option<Plan>) -> String {
    p.as_ref()
        .map_or("(none started)".into(), |p| p.to_string())
}

#[test]
fn start_stop_stress_with_changing_thread_counts() {
    let cycles = env_number("SQUALL_STRESS_CYCLES").map_or(DEFAULT_CYCLES, |n| n as usize);
    let seed = env_number("SQUALL_STRESS_SEED").unwrap_or(DEFAULT_SEED);
    let stop_limit = Duration::from_millis(
        env_number("SQUALL_STRESS_STOP_LIMIT_MS").unwrap_or(DEFAULT_STOP_LIMIT_MS),
    );
    let (tx, rx) = channel::<Plan>();
    let worker = std::thread::Builder::new()
        .name("stress".into())
        .spawn(move || run_cycles(cycles, seed, stop_limit, |p| tx.send(p).unwrap()))
        .expect("spawn the stress thread");

    // Watchdog: every cycle announces itself; a silent worker is hung.
    let start = Instant::now();
    let mut last: Option<Plan> = None;
    loop {
        let wait = STALL.min(OVERALL.saturating_sub(start.elapsed()));
        match rx.recv_timeout(wait) {
            Ok(p) => last = Some(p),
            Err(RecvTimeoutError::Timeout) if start.elapsed() >= OVERALL => panic!(
                "stress run exceeded {OVERALL:?} (seed {seed:#x}); last {}",
                describe(&last)
            ),
            Err(RecvTimeoutError::Timeout) => panic!(
                "no progress for {STALL:?} (seed {seed:#x}): hung in {}",
                describe(&last)
            ),
            // The worker finished (or panicked): its result says which.
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    let tally = match worker.join() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("stress failed (seed {seed:#x}); last {}", describe(&last));
            std::panic::resume_unwind(e)
        }
    };
    let mean = tally.total_latency / tally.stopped.max(1) as u32;
    eprintln!(
        "{} cycles in {:.1} s ({:.1} s searching; seed {seed:#x}): {} stopped (stop to return: mean {mean:?}, \
         max {:?}), {} ended on their limit, {} clears, {} resizes",
        tally.cycles,
        start.elapsed().as_secs_f64(),
        tally.searching.as_secs_f64(),
        tally.stopped,
        tally.max_stop_latency,
        tally.natural,
        tally.clears,
        tally.resizes
    );
    assert_eq!(tally.cycles, cycles);
    if cycles >= 50 {
        // The run must really stop searches in flight, clear and resize.
        assert!(tally.stopped > cycles / 10, "{tally:?}");
        assert!(tally.clears > 0 && tally.resizes > 0, "{tally:?}");
    }
}
