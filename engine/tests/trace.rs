//! The tuner's linear trace reproduces the evaluation exactly: on 100,000 positions from
//! seeded random games (10,000 in debug builds) and on every suite position, the traced
//! counts with the built-in weights give `evaluate_full`'s value to the centipawn.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use squall::eval::linear::EvalTrace;
use squall::eval::params::{Field, DEFAULT_PARAMS, PARAM_COUNT};
use squall::eval::Evaluator;
use squall::Position;

mod common;

const POSITIONS: usize = if cfg!(debug_assertions) {
    10_000
} else {
    100_000
};
const MAX_PLIES: usize = 160;
const SEED: u64 = 0x7ACE_0001;

fn check(ev: &mut Evaluator, weights: &[squall::eval::score::Score], pos: &Position) {
    common::eval_checks::checked_trace(ev, &DEFAULT_PARAMS, weights, pos);
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
    let positions =
        squall::epd::suite_boards(&["wac.epd", "ecm.epd", "wcsac.epd", "perftsuite.epd"]);
    for p in &positions {
        check(&mut ev, &weights, p);
    }
    assert!(positions.len() > 2000);
}

#[test]
fn field_offsets_follow_the_names() {
    let names = DEFAULT_PARAMS.names();
    assert_eq!(names[Field::material.offset()], "material[0]");
    assert_eq!(names[Field::tempo.offset()], "tempo");
    assert_eq!(names[Field::storm.offset() + 3], "storm[3]");
    assert_eq!(names[Field::king_danger_base.offset()], "king_danger_base");
    assert_eq!(Field::king_square.slots(), 64);
}

/// The trade weights of `imbalance` fire for the side with the heavier piece, once per
/// position, indexed by what the games measured (a queen against three minors by the rook
/// pairs left), and the trace still reproduces the evaluation there.
#[test]
fn trade_weights_fire_for_the_measured_imbalances() {
    let cases = [
        // queen against three minors, no rooks: White has the queen
        (
            "4k3/pppp1ppp/2n1b3/8/8/2n5/PPPP1PPP/3QK3 w - - 0 1",
            "queen_vs_minors[0]",
            1,
        ),
        // the same with both rook pairs, Black has the queen
        (
            "r2qk2r/pppp1ppp/8/8/8/8/PPPP1PPP/RNB1KB1R w KQkq - 0 1",
            "queen_vs_minors[2]",
            -1,
        ),
        // a rook against two minors, queens on
        (
            "r2qk2r/pppp1ppp/8/8/8/8/PPPP1PPP/RNBQK3 w Qkq - 0 1",
            "rook_vs_minors",
            -1,
        ),
        // the exchange: White has the rook, Black the knight
        (
            "rn1qk3/pppp1ppp/8/8/8/8/PPPP1PPP/R2QK2R w KQq - 0 1",
            "exchange",
            1,
        ),
    ];
    let names = DEFAULT_PARAMS.names();
    let weights = DEFAULT_PARAMS.values();
    let mut ev = Evaluator::new();
    for (fen, name, count) in cases {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let trace = EvalTrace::of(&pos, &DEFAULT_PARAMS);
        let got: Vec<(String, i16)> = trace
            .entries
            .iter()
            .filter(|(i, _)| {
                let n = &names[*i as usize];
                n.starts_with("queen_vs_minors") || n == "rook_vs_minors" || n == "exchange"
            })
            .map(|&(i, n)| (names[i as usize].clone(), n))
            .collect();
        assert_eq!(got, vec![(name.to_string(), count)], "{fen}");
        check(&mut ev, &weights, &pos);
    }
}
