//! The evaluation as a linear function of its weights, for the tuner.
//!
//! Every weight the evaluation adds is fetched through the `weight!` macros, which also tell
//! a `Tracer` which weight it was, for which colour and how many times. The engine's tracer,
//! `NoTrace`, does nothing and compiles away; `Coefficients` counts, per weight, White's uses
//! minus Black's. With the game phase and the endgame scale factor that the position had, the
//! counts give back the evaluation exactly (`linear::EvalTrace::value`), and a tuner can evaluate
//! millions of positions under new weights with one sparse dot product each.
//!
//! Two steps are not linear: the king-danger curve (`danger`) and the complexity step on the
//! summed endgame half (`complexity`). Their features are traced apart
//! (`linear::EvalTrace::king_danger`, `linear::EvalTrace::complexity`) and the steps
//! re-applied under new weights, so the tuner moves their weights by their true gradient.
//!
//! What is held fixed at the weights the trace was taken with: the choice of shelter file and
//! the scale factor.

use super::params::PARAM_COUNT;
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
