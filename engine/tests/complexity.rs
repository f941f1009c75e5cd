//! The complexity term under weights of its own, large enough that the cap holds in some
//! positions whatever a tune set: the trace still reproduces
//! `evaluate_full` exactly, the evaluation stays colour-symmetric, and the term does move
//! endgame scores, never across zero.

mod common;

use squall::eval::complexity;
use squall::eval::params::{Params, DEFAULT_PARAMS};
use squall::eval::score::s;
use squall::eval::Evaluator;
use squall::Position;

const GAMES: usize = if cfg!(debug_assertions) { 40 } else { 400 };
const MAX_PLIES: usize = 160;
const SEED: u64 = 0xC0_4E1E;

/// The built-in weights with every complexity weight set, large enough that the cap holds
/// in some positions.
fn params() -> Params {
    let mut p = DEFAULT_PARAMS;
    for (f, eg) in complexity::FIELDS.iter().zip([6, 25, 9, 40, -30, 7, -90]) {
        assert!(p.set(Params::FIELDS[*f as usize], s(0, eg)));
    }
    p
}

/// Positions along seeded random games that capture half the time, so that most reach an
/// endgame.
fn positions() -> Vec<Position> {
    common::games::random_game_positions(SEED, GAMES, MAX_PLIES, 2)
}

#[test]
fn trace_reproduces_the_evaluation_with_complexity() {
    let p = params();
    let weights = p.values();
    let mut ev = Evaluator::with_params(p.clone());
    let mut plain = Evaluator::new();
    let (mut moved, mut capped) = (0, 0);
    for pos in positions() {
        let (trace, v) = common::eval_checks::checked_trace(&mut ev, &p, &weights, &pos);
        if trace.recognised.is_some() {
            continue;
        }
        let eg = trace.sums(&weights).eg();
        let after = complexity::adjust(eg, trace.complexity(&weights));
        assert!(after.signum() == eg.signum() || after == 0);
        moved += usize::from(v != plain.evaluate_full(&pos));
        capped += usize::from(after == 0 && eg != 0);
    }
    assert!(
        moved > 1000 && capped > 50,
        "moved {moved}, capped {capped}"
    );
}

/// Every position, including those whose endgame half is exactly 0 (e.g.
/// `8/8/8/8/2P1Bbk1/8/8/7K w - -`): there the middlegame half names the strong side, so the
/// weaker side's drawish scale factor is not applied to one colour only.
#[test]
fn complexity_is_colour_symmetric() {
    let p = params();
    let mut ev = Evaluator::with_params(p.clone());
    common::eval_checks::assert_colour_symmetric(&mut ev, &positions());
}
