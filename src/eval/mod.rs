//! Evaluation — placeholder: the tapered incremental material + piece-square sum, until the full
//! evaluation lands.

pub mod psqt;
pub mod score;

use crate::board::Position;
use crate::types::Colour;

#[derive(Clone, Copy, Debug, Default)]
pub struct EvalStats {
    pub calls: u64,
    pub lazy_exits: u64,
    pub pawn_probes: u64,
    pub pawn_hits: u64,
}

#[derive(Default)]
pub struct Evaluator {
    pub stats: EvalStats,
}

impl Evaluator {
    pub fn new() -> Evaluator {
        Evaluator::default()
    }

    pub fn clear(&mut self) {}

    pub fn evaluate(&mut self, pos: &Position, _alpha: i32, _beta: i32) -> i32 {
        self.evaluate_full(pos)
    }

    pub fn evaluate_full(&mut self, pos: &Position) -> i32 {
        self.stats.calls += 1;
        let s = pos.psq();
        let ph = pos.phase();
        let v = (s.mg() * ph + s.eg() * (psqt::PHASE_TOTAL - ph)) / psqt::PHASE_TOTAL;
        match pos.side_to_move() {
            Colour::White => v,
            Colour::Black => -v,
        }
    }
}

pub fn trace(pos: &Position) -> String {
    format!("total {}\n", Evaluator::new().evaluate_full(pos))
}
