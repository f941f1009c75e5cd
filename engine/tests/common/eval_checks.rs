//! The two checks every evaluation-term test makes: the tuner's trace gives `evaluate_full`'s
//! value exactly, and a position and its colour mirror score alike.

use squall::eval::linear::EvalTrace;
use squall::eval::params::Params;
use squall::eval::score::Score;
use squall::eval::Evaluator;
use squall::Position;

/// The trace of `pos` under `params` (whose `values()` are `weights`), after asserting that it
/// reproduces `ev`'s full evaluation (`ev` built with the same `params`); also returns that
/// value.
pub fn checked_trace(
    ev: &mut Evaluator,
    params: &Params,
    weights: &[Score],
    pos: &Position,
) -> (EvalTrace, i32) {
    let trace = EvalTrace::of(pos, params);
    let v = ev.evaluate_full(pos);
    assert_eq!(trace.value(weights), v, "trace differs in {}", pos.to_fen());
    (trace, v)
}

/// Asserts that every position scores as its colour mirror does (both from the side to move).
pub fn assert_colour_symmetric<'a>(
    ev: &mut Evaluator,
    positions: impl IntoIterator<Item = &'a Position>,
) {
    for pos in positions {
        let m = pos.mirrored();
        let (a, b) = (ev.evaluate_full(pos), ev.evaluate_full(&m));
        assert_eq!(a, b, "{} gives {a}, its mirror {b}", pos.to_fen());
    }
}
