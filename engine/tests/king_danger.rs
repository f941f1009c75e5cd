//! The king-danger curve (`eval::danger`): the trace keeps each colour's features apart and
//! re-applies the curve, reproducing `evaluate_full` exactly under the built-in weights and
//! under others (the features do not depend on the weights), the evaluation stays
//! colour-symmetric, and the curve does move scores.

mod common;

use squall::eval::danger;
use squall::eval::linear::EvalTrace;
use squall::eval::params::{Params, DEFAULT_PARAMS};
use squall::eval::score::s;
use squall::eval::Evaluator;
use squall::types::Colour;
use squall::Position;

const GAMES: usize = if cfg!(debug_assertions) { 60 } else { 600 };
const MAX_PLIES: usize = 120;
const SEED: u64 = 0xD4_4E6E;

/// The built-in weights with every king-danger weight moved: larger, the weak squares
/// counting, and a base low enough that a lone attacker stays at the floor (with the
/// built-in weights every attack that counts is above it).
fn params() -> Params {
    let mut p = DEFAULT_PARAMS;
    for (j, f) in danger::FIELDS.iter().enumerate() {
        let name = Params::FIELDS[*f as usize];
        let w = p.get(name).expect("weight").mg();
        assert!(p.set(name, s(w * 5 / 4 + 7 * j as i32 - 20, 0)));
    }
    assert!(p.set("king_danger_base", s(-250, 0)));
    p
}

/// Positions along seeded random games (a quarter of the moves captures when one exists).
fn positions() -> Vec<Position> {
    common::games::random_game_positions(SEED, GAMES, MAX_PLIES, 4)
}

#[test]
fn trace_reproduces_the_evaluation_with_king_danger() {
    let moved = params();
    let mut plain = Evaluator::new();
    let mut ev = Evaluator::with_params(moved.clone());
    let (builtin, other) = (DEFAULT_PARAMS.values(), moved.values());
    let (mut attacks, mut floored, mut changed) = (0, 0, 0);
    let positions = positions();
    for pos in &positions {
        let (trace, v) =
            common::eval_checks::checked_trace(&mut plain, &DEFAULT_PARAMS, &builtin, pos);
        let (moved_trace, w) = common::eval_checks::checked_trace(&mut ev, &moved, &other, pos);
        // The features do not depend on the weights (the scale factor may: it follows the
        // sign of the endgame half).
        assert_eq!(moved_trace.entries, trace.entries, "{}", pos.to_fen());
        assert_eq!(
            moved_trace.king_danger,
            trace.king_danger,
            "{}",
            pos.to_fen()
        );
        if trace.recognised.is_some() {
            continue;
        }
        for c in [Colour::White, Colour::Black] {
            let d = moved_trace.danger(&other, c);
            if d > 0 {
                attacks += 1;
            } else if moved_trace.king_danger[c.index()].iter().any(|&f| f != 0) {
                floored += 1;
            }
        }
        changed += usize::from(v != w);
    }
    println!(
        "{} positions: under the moved weights {attacks} attacks above the floor, {floored} at it, {changed} values changed",
        positions.len()
    );
    assert!(
        attacks > 2000 && floored > 1000 && changed > 2000,
        "attacks {attacks}, floored {floored}, changed {changed}"
    );
}

/// Positions whose endgame half is exactly 0 are left out, as in `tests/complexity.rs`: the
/// scale factor is then Black's either way, which is not symmetric with or without the curve.
#[test]
fn king_danger_is_colour_symmetric() {
    let p = params();
    let weights = p.values();
    let mut ev = Evaluator::with_params(p.clone());
    let mut skipped = 0;
    let positions = positions();
    for pos in &positions {
        let trace = EvalTrace::of(pos, &p);
        if trace.recognised.is_none() && trace.sums(&weights).eg() == 0 {
            skipped += 1;
            continue;
        }
        let m = pos.mirrored();
        let (a, b) = (ev.evaluate_full(pos), ev.evaluate_full(&m));
        assert_eq!(a, b, "{} gives {a}, its mirror {b}", pos.to_fen());
        let mt = EvalTrace::of(&m, &p);
        assert_eq!(mt.king_danger[0], trace.king_danger[1], "{}", pos.to_fen());
        assert_eq!(mt.king_danger[1], trace.king_danger[0], "{}", pos.to_fen());
    }
    assert!(skipped * 20 < positions.len(), "{skipped} skipped");
}
