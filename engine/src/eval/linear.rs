//! `EvalTrace`: one position's evaluation as counts of weights (through the `Coefficients`
//! tracer, see `tracer`), so that the tuner can re-evaluate it under new weights with one
//! sparse dot product, plus the features of the two non-linear steps it re-applies: the king
//! danger curve of each colour (`danger`), added to the sum, and complexity on the summed
//! endgame half (`complexity`).

use super::params::Params;
use super::pawns::PawnEntry;
use super::score::{s, Score};
use super::tracer::Coefficients;
use super::{blend_parts, collect, complexity, danger, endgame, psq_sum, scale, EVAL_LIMIT};
use crate::board::Position;
use crate::types::Colour;

/// One position's evaluation as counts of weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTrace {
    /// (weight index, White's uses minus Black's), the non-zero ones only.
    pub entries: Vec<(u16, i16)>,
    /// Game phase, 0 (bare kings) ..= `psqt::PHASE_TOTAL`.
    pub phase: i32,
    /// Endgame scale factor (of `scale::SCALE_NORMAL`) the position had; chosen by the sign
    /// of the endgame half before complexity, and held fixed under new weights.
    pub scale: i32,
    /// The complexity features (`complexity::features`, weights `complexity::FIELDS`): they
    /// are not among `entries`, since complexity is applied to the summed endgame half.
    pub complexity: [i8; complexity::FEATURES],
    /// The king-danger features of each colour's attack (`danger::features`, weights
    /// `danger::FIELDS`; all 0 where the attack does not count), by colour index: the curve
    /// is not linear, so they are not among `entries`.
    pub king_danger: [[i16; danger::FEATURES]; 2],
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
                complexity: [0; complexity::FEATURES],
                king_danger: [[0; danger::FEATURES]; 2],
                white_to_move: pos.side_to_move() == Colour::White,
                recognised: Some(r.value),
            };
        }
        let mut tracer = Coefficients::default();
        let entry = PawnEntry::compute_traced(pos, p, &mut tracer);
        let info = collect(pos, p, &entry, tracer);
        let total = psq_sum(pos, p) + info.balance();
        let scale = scale::factor(pos, total.mg(), total.eg());
        // Pawn counts, passers, distances and flags: all within an i8.
        let features = complexity::features(pos, &entry).map(|f| f as i8);
        // Counts of pieces, squares and checks: all within an i16.
        let king_danger = Colour::BOTH.map(|c| {
            danger::features(pos, &info, c).map_or([0; danger::FEATURES], |f| f.map(|x| x as i16))
        });
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
            complexity: features,
            king_danger,
            white_to_move: pos.side_to_move() == Colour::White,
            recognised: None,
        }
    }

    /// White-relative middlegame and endgame sums under `weights` (flat order), king danger
    /// included, before complexity.
    pub fn sums(&self, weights: &[Score]) -> Score {
        let danger = self.king_danger(weights);
        let (mut mg, mut eg) = (danger.mg(), danger.eg());
        for &(i, n) in &self.entries {
            let w = weights[i as usize];
            mg += w.mg() * n as i32;
            eg += w.eg() * n as i32;
        }
        s(mg, eg)
    }

    /// The danger `d` of `c`'s attack under `weights` (flat order): `danger::value` on the
    /// traced features.
    pub fn danger(&self, weights: &[Score], c: Colour) -> i32 {
        danger::OFFSETS
            .iter()
            .zip(self.king_danger[c.index()])
            .map(|(&i, x)| weights[i].mg() * x as i32)
            .sum()
    }

    /// The White-relative king-danger score under `weights`: White's gain minus Black's.
    pub fn king_danger(&self, weights: &[Score]) -> Score {
        danger::gain(self.danger(weights, Colour::White))
            - danger::gain(self.danger(weights, Colour::Black))
    }

    /// The complexity under `weights` (flat order): `complexity::value` on the traced
    /// features.
    pub fn complexity(&self, weights: &[Score]) -> i32 {
        complexity::OFFSETS
            .iter()
            .zip(self.complexity)
            .map(|(&i, x)| weights[i].eg() * x as i32)
            .sum()
    }

    /// The evaluation from the side to move's view under `weights`: exactly what
    /// `Evaluator::evaluate_full` returns when `weights` are the ones traced.
    pub fn value(&self, weights: &[Score]) -> i32 {
        if let Some(v) = self.recognised {
            return v;
        }
        let total = self.sums(weights);
        let eg = complexity::adjust(total.eg(), self.complexity(weights));
        let v = blend_parts(total.mg(), eg, self.phase, self.scale).clamp(-EVAL_LIMIT, EVAL_LIMIT);
        if self.white_to_move {
            v
        } else {
            -v
        }
    }
}
