//! The tuner's linear trace reproduces the evaluation exactly: on 100,000 positions from
//! seeded random games (10,000 in debug builds) and on every suite position, the traced
//! counts with the built-in weights give `evaluate_full`'s value to the centipawn.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use squall::eval::params::{Field, DEFAULT_PARAMS, PARAM_COUNT};
use squall::eval::tracer::EvalTrace;
use squall::eval::Evaluator;
use squall::Position;

const POSITIONS: usize = if cfg!(debug_assertions) {
    10_000
} else {
    100_000
};
const MAX_PLIES: usize = 160;
const SEED: u64 = 0x7ACE_0001;

fn check(ev: &mut Evaluator, weights: &[squall::eval::score::Score], pos: &Position) {
    let trace = EvalTrace::of(pos, &DEFAULT_PARAMS);
    assert_eq!(
        trace.value(weights),
        ev.evaluate_full(pos),
        "trace differs in {}",
        pos.to_fen()
    );
}

#[test]
fn trace_reproduces_the_evaluation_on_random_games() {
    let weights = DEFAULT_PARAMS.values();
    assert_eq!(weights.len(), PARAM_COUNT);
    let mut ev = Evaluator::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    let mut seen = 0;
    while seen < POSITIONS {
        let mut p = Position::startpos();
        for _ in 0..MAX_PLIES {
            let moves = p.legal_moves();
            if moves.is_empty() || p.is_fifty_move_draw() {
                break;
            }
            let pick = (rng.next_u64() % moves.len() as u64) as usize;
            let m = moves.as_slice()[pick];
            p.make(m);
            check(&mut ev, &weights, &p);
            seen += 1;
        }
    }
}

#[test]
fn trace_reproduces_the_evaluation_on_suite_positions() {
    let weights = DEFAULT_PARAMS.values();
    let mut ev = Evaluator::new();
    let mut n = 0;
    for path in [
        "suites/wac.epd",
        "suites/ecm.epd",
        "suites/wcsac.epd",
        "suites/perftsuite.epd",
    ] {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for line in text.lines() {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            if fields.len() < 4 {
                continue;
            }
            if let Ok(p) = Position::from_fen(&format!("{} 0 1", fields.join(" "))) {
                check(&mut ev, &weights, &p);
                n += 1;
            }
        }
    }
    assert!(n > 2000);
}

#[test]
fn field_offsets_follow_the_names() {
    let names = DEFAULT_PARAMS.names();
    assert_eq!(names[Field::material.offset()], "material[0]");
    assert_eq!(names[Field::tempo.offset()], "tempo");
    assert_eq!(names[Field::king_safety.offset() + 3], "king_safety[3]");
    assert_eq!(Field::king_square.slots(), 64);
}
