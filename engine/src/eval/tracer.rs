//! The evaluation as a linear function of its weights, for the tuner.
//!
//! Every weight the evaluation adds is fetched through the `weight!` macros, which also tell
//! a `Tracer` which weight it was, for which colour and how many times. The engine's tracer,
//! `NoTrace`, does nothing and compiles away; `Coefficients` counts, per weight, White's uses
//! minus Black's. With the game phase and the endgame scale factor that the position had, the
//! counts give back the evaluation exactly (`EvalTrace::value`), and a tuner can evaluate
//! millions of positions under new weights with one sparse dot product each.
//!
//! What is not linear is held fixed at the weights the trace was taken with: the attack units
//! that pick the king-danger entry (`king_attack_weight`, `king_attackers_scale`,
//! `king_zone_hit`, `king_safe_check`), the choice of shelter file, and the scale factor.

use super::params::{Field, Params, PARAM_COUNT};
use super::pawns::PawnEntry;
use super::score::{s, Score};
use super::{blend_parts, collect, endgame, scale, EVAL_LIMIT};
use crate::board::Position;
use crate::types::Colour;

/// Receives every use of a weight.
pub trait Tracer {
    /// False for the engine's tracer, so traced-only work can be skipped at compile time.
    const ACTIVE: bool;
    /// Weight number `index` (flat order of `Params::names`) was added `count` times for `c`.
    fn record(&mut self, index: usize, c: Colour, count: i32);
}

/// The engine's tracer: records nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl Tracer for NoTrace {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn record(&mut self, _index: usize, _c: Colour, _count: i32) {}
}

/// Dense counts, White's uses minus Black's, one per weight.
#[derive(Clone, Debug)]
pub struct Coefficients {
    pub counts: Vec<i32>,
}

impl Default for Coefficients {
    fn default() -> Coefficients {
        Coefficients {
            counts: vec![0; PARAM_COUNT],
        }
    }
}

impl Tracer for Coefficients {
    const ACTIVE: bool = true;
    #[inline]
    fn record(&mut self, index: usize, c: Colour, count: i32) {
        match c {
            Colour::White => self.counts[index] += count,
            Colour::Black => self.counts[index] -= count,
        }
    }
}

/// Weights that the trace holds fixed (they choose which linear weight applies rather than
/// adding themselves): the gradient tuner leaves them alone, the particle swarm may move them.
pub const NONLINEAR_FIELDS: [Field; 4] = [
    Field::king_attack_weight,
    Field::king_attackers_scale,
    Field::king_zone_hit,
    Field::king_safe_check,
];

/// True when weight number `index` is one of `NONLINEAR_FIELDS`.
pub fn is_nonlinear(index: usize) -> bool {
    NONLINEAR_FIELDS
        .iter()
        .any(|f| (f.offset()..f.offset() + f.slots()).contains(&index))
}

/// One position's evaluation as counts of weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTrace {
    /// (weight index, White's uses minus Black's), the non-zero ones only.
    pub entries: Vec<(u16, i16)>,
    /// Game phase, 0 (bare kings) ..= `psqt::PHASE_TOTAL`.
    pub phase: i32,
    /// Endgame scale factor (of `scale::SCALE_NORMAL`) the position had.
    pub scale: i32,
    pub white_to_move: bool,
    /// The side to move's value when an endgame recogniser answers instead of the weights
    /// (then `entries` is empty): such positions teach the weights nothing.
    pub recognised: Option<i32>,
}

impl EvalTrace {
    /// The traced evaluation of `pos` under `p`.
    pub fn of(pos: &Position, p: &Params) -> EvalTrace {
        if let Some(r) = endgame::probe(pos) {
            return EvalTrace {
                entries: Vec::new(),
                phase: pos.phase(),
                scale: scale::SCALE_NORMAL,
                white_to_move: pos.side_to_move() == Colour::White,
                recognised: Some(r.value),
            };
        }
        let mut tracer = Coefficients::default();
        let entry = PawnEntry::compute_traced(pos, p, &mut tracer);
        let info = collect(pos, p, &entry, tracer);
        let total = super::psq_sum(pos, p) + info.balance();
        let scale = scale::factor(pos, total.eg());
        let entries = info
            .tracer
            .counts
            .iter()
            .enumerate()
            .filter(|(_, &n)| n != 0)
            .map(|(i, &n)| (i as u16, n.clamp(i16::MIN as i32, i16::MAX as i32) as i16))
            .collect();
        EvalTrace {
            entries,
            phase: pos.phase(),
            scale,
            white_to_move: pos.side_to_move() == Colour::White,
            recognised: None,
        }
    }

    /// White-relative middlegame and endgame sums under `weights` (flat order).
    pub fn sums(&self, weights: &[Score]) -> Score {
        let (mut mg, mut eg) = (0i32, 0i32);
        for &(i, n) in &self.entries {
            let w = weights[i as usize];
            mg += w.mg() * n as i32;
            eg += w.eg() * n as i32;
        }
        s(mg, eg)
    }

    /// The evaluation from the side to move's view under `weights`: exactly what
    /// `Evaluator::evaluate_full` returns when `weights` are the ones traced.
    pub fn value(&self, weights: &[Score]) -> i32 {
        if let Some(v) = self.recognised {
            return v;
        }
        let total = self.sums(weights);
        let v = blend_parts(total.mg(), total.eg(), self.phase, self.scale)
            .clamp(-EVAL_LIMIT, EVAL_LIMIT);
        if self.white_to_move {
            v
        } else {
            -v
        }
    }
}
