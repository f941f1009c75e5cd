//! The strength limit (`UCI_LimitStrength`, `UCI_Elo`) through the engine: limited moves are
//! legal and in time, seeded choices repeat, and with the limit off the search is as before.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use squall::search::strength::{MAX_ELO, MIN_ELO};
use squall::search::{Control, Engine, Limits};
use squall::{Move, Position};

fn random_positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::startpos();
        let plies = 4 + rng.next_u32() as usize % 60;
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal.iter().nth(rng.next_u32() as usize % legal.len());
            pos.make(*m.expect("index below the length"));
        }
        if !pos.legal_moves().is_empty() {
            out.push(pos);
        }
    }
    out
}

fn limited_engine(elo: u32, seed: u64) -> Engine {
    let mut e = Engine::new(1);
    e.options.limit_elo = Some(elo);
    e.options.strength_seed = seed;
    e.options.threads = 2;
    e
}

#[test]
fn limited_moves_are_legal_and_in_time() {
    for (k, elo) in [MIN_ELO, 1234, 1500, 1900, 2300, MAX_ELO]
        .into_iter()
        .enumerate()
    {
        let mut e = limited_engine(elo, 0);
        for pos in random_positions(12, k as u64) {
            let t = std::time::Instant::now();
            let r = e.search(
                &pos,
                &Limits::move_time(40),
                &Control::new(false),
                &mut |_| {},
            );
            // The node rate slows the search but never past its budget (the first
            // iteration, always completed, is tiny). The bound is loose: debug builds on
            // a loaded machine run many times slower, and only a runaway should fail.
            assert!(t.elapsed().as_millis() < 3000, "{elo} {:?}", t.elapsed());
            assert!(
                pos.legal_moves().contains(r.best),
                "{elo} {}",
                r.best.to_uci()
            );
            if !r.ponder.is_none() {
                let mut after = pos.clone();
                after.make(r.best);
                assert!(after.legal_moves().contains(r.ponder));
            }
        }
    }
}

#[test]
fn seeded_choices_repeat() {
    let positions = random_positions(6, 99);
    let play = || {
        let mut e = limited_engine(MIN_ELO, 42);
        positions
            .iter()
            .map(|p| {
                e.search(p, &Limits::depth(2), &Control::new(false), &mut |_| {})
                    .best
            })
            .collect::<Vec<Move>>()
    };
    assert_eq!(play(), play());
}

#[test]
fn limit_off_searches_as_before() {
    let positions = random_positions(4, 5);
    let run = |e: &mut Engine| {
        e.clear();
        positions
            .iter()
            .map(|p| {
                let r = e.search(p, &Limits::depth(6), &Control::new(false), &mut |_| {});
                (r.best, r.score, r.nodes)
            })
            .collect::<Vec<_>>()
    };
    let plain = run(&mut Engine::new(1));
    let mut e = limited_engine(MIN_ELO, 3);
    e.search(
        &positions[0],
        &Limits::depth(1),
        &Control::new(false),
        &mut |_| {},
    );
    e.options.limit_elo = None;
    e.options.threads = 1;
    assert_eq!(run(&mut e), plain);
}
