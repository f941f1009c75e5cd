//! The win/draw/loss model (issue #17, the draw-model idea). Two scores per position:
//! - *wilo*, a score that pretends draws do not exist: `Wp = σ(C·wilo)` with `C = ln 10 / 4`
//!   per pawn, so one pawn of wilo is 100 pseudo-Elo. Here wilo is the engine's centipawn
//!   score (side to move's view) scaled by a factor that depends on the game phase;
//! - *draw*, a weighted sum of a few cheap features of the position and of the score:
//!   `D = σ(draw)`.
//!
//! Then `W = (1 − D)·Wp`, `L = (1 − D)·(1 − Wp)` and the expected result
//! `P = D/2 + Wp − Wp·D`. The model is evaluated for reports and once at the root for
//! contempt, never in the tree, so its features only need to be cheap at the root.
//! `squall wdl-fit` fits both scores by maximum likelihood (`fit`) and writes `weights.rs`.

pub mod weights;

use crate::board::Position;
use crate::eval::psqt::PHASE_TOTAL;
use crate::score::mate_in;
use crate::types::{file_of, Colour, Kind};

/// `C` of `Wp = σ(C·wilo)` with wilo in pawns: `ln 10 / 4`, the Elo curve at 100 per pawn.
pub const C: f64 = std::f64::consts::LN_10 / 4.0;

/// Scores are clamped to this many centipawns in the draw features, so that a known win's
/// large value does not dominate them.
pub const EVAL_CLAMP_CP: f64 = 1000.0;
const EVAL_CLAMP_PAWNS: f64 = EVAL_CLAMP_CP / 100.0;

/// Inputs of the wilo score: the score in pawns, and the score times the game phase.
pub const WILO_FEATURES: usize = 2;
/// Inputs of the draw score, in the order of `DRAW_NAMES`: a bias, the phase, the pawns, the
/// absolute score, its square, opposite-coloured bishops, pawn asymmetry and the absolute
/// score times the phase. (The fifty-move counter was left out: the training positions carry
/// no clocks.)
pub const DRAW_FEATURES: usize = 8;
pub const WILO_NAMES: [&str; WILO_FEATURES] = ["eval", "eval_phase"];
pub const DRAW_NAMES: [&str; DRAW_FEATURES] = [
    "bias",
    "phase",
    "pawns",
    "abs_eval",
    "abs_eval_sq",
    "opposite_bishops",
    "pawn_asymmetry",
    "abs_eval_phase",
];

/// The fitted weights of both scores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// Wilo in pawns per pawn of score, as `wilo · inputs`.
    pub wilo: [f64; WILO_FEATURES],
    /// Draw score weights (the logit of the draw chance).
    pub draw: [f64; DRAW_FEATURES],
}

/// The score-independent features of a position, computed once per root.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Features {
    /// Non-pawn material as a share of the opening's, 1 (opening) ..= 0 (bare kings).
    pub phase: f64,
    /// Pawns on the board / 16.
    pub pawns: f64,
    /// 1 when each side has one bishop and they run on squares of different colours.
    pub opposite_bishops: f64,
    /// Files with pawns of one side only / 8 (0: a symmetric pawn structure).
    pub pawn_asymmetry: f64,
}

impl Features {
    pub fn of(pos: &Position) -> Features {
        let mut files = [[false; 8]; 2];
        for c in Colour::BOTH {
            for &sq in pos.pawns(c) {
                files[c.index()][file_of(sq) as usize] = true;
            }
        }
        let asym = (0..8).filter(|&f| files[0][f] != files[1][f]).count();
        let bishop_colour = |c: Colour| {
            if pos.count_of(c, Kind::Bishop) != 1 {
                return None;
            }
            crate::eval::scale::bishop_colour(pos, c)
        };
        let ocb = match (bishop_colour(Colour::White), bishop_colour(Colour::Black)) {
            (Some(a), Some(b)) => a != b,
            _ => false,
        };
        let pawns = pos.pawns(Colour::White).len() + pos.pawns(Colour::Black).len();
        Features {
            phase: pos.phase() as f64 / PHASE_TOTAL as f64,
            pawns: pawns as f64 / 16.0,
            opposite_bishops: ocb as u8 as f64,
            pawn_asymmetry: asym as f64 / 8.0,
        }
    }

    /// The wilo inputs for a score (centipawns).
    pub fn wilo_inputs(&self, score_cp: f64) -> [f64; WILO_FEATURES] {
        let e = score_cp / 100.0;
        [e, e * self.phase]
    }

    /// The draw inputs for a score (centipawns), as the fit sees them.
    pub fn draw_inputs(&self, score_cp: f64) -> [f64; DRAW_FEATURES] {
        self.draw_inputs_abs(score_cp.abs().min(EVAL_CLAMP_CP) / 100.0)
    }

    /// The draw inputs for an absolute score of `a` pawns.
    fn draw_inputs_abs(&self, a: f64) -> [f64; DRAW_FEATURES] {
        [
            1.0,
            self.phase,
            self.pawns,
            a,
            // Scaled so that the clamp is 1: keeps the fit's Hessian well conditioned.
            a * a / EVAL_CLAMP_PAWNS,
            self.opposite_bishops,
            self.pawn_asymmetry,
            a * self.phase,
        ]
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn dot<const N: usize>(a: &[f64; N], b: &[f64; N]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Win, draw and loss chances (they sum to 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wdl {
    pub win: f64,
    pub draw: f64,
    pub loss: f64,
}

impl Wdl {
    /// The expected result `D/2 + W`.
    pub fn expected(&self) -> f64 {
        self.win + self.draw / 2.0
    }

    /// Per mille, rounded so that the three sum to exactly 1000.
    pub fn per_mille(&self) -> (u32, u32, u32) {
        let w = (self.win * 1000.0).round().clamp(0.0, 1000.0) as u32;
        let l = ((self.loss * 1000.0).round().clamp(0.0, 1000.0) as u32).min(1000 - w);
        (w, 1000 - w - l, l)
    }
}

impl Model {
    /// Wilo in pawns for a score (centipawns) in a position with `f`.
    pub fn wilo(&self, f: &Features, score_cp: f64) -> f64 {
        dot(&self.wilo, &f.wilo_inputs(score_cp))
    }

    /// How many wilo pawns one pawn of score is worth in a position with `f`; at least a small
    /// positive number, so that the conversion back to centipawns is always defined.
    pub fn wilo_per_pawn(&self, f: &Features) -> f64 {
        dot(&self.wilo, &f.wilo_inputs(100.0)).max(0.05)
    }

    /// The draw chance for a score (centipawns) in a position with `f`. The draw score is
    /// quadratic in the absolute score; past its lowest point (far from an equal position,
    /// where the data is thin) it is held there, so that a better score never makes a draw
    /// likelier and W/D/L stays monotone in the score.
    pub fn draw_chance(&self, f: &Features, score_cp: f64) -> f64 {
        let mut a = score_cp.abs().min(EVAL_CLAMP_CP) / 100.0;
        let slope = self.draw[3] + self.draw[7] * f.phase;
        let curve = self.draw[4] / EVAL_CLAMP_PAWNS;
        if slope < 0.0 && curve > 0.0 {
            a = a.min(-slope / (2.0 * curve));
        }
        sigmoid(dot(&self.draw, &f.draw_inputs_abs(a)))
    }

    /// W/D/L for a score (centipawns, no mate) in a position with `f`, with `offset` pawns of
    /// wilo added (contempt).
    pub fn wdl_with(&self, f: &Features, score_cp: f64, offset: f64) -> Wdl {
        let wp = sigmoid(C * (self.wilo(f, score_cp) + offset));
        let d = self.draw_chance(f, score_cp);
        Wdl {
            win: (1.0 - d) * wp,
            draw: d,
            loss: (1.0 - d) * (1.0 - wp),
        }
    }

    pub fn wdl(&self, f: &Features, score_cp: f64) -> Wdl {
        self.wdl_with(f, score_cp, 0.0)
    }

    /// W/D/L per mille for an engine score (side to move's view); mates are certain.
    pub fn per_mille(&self, f: &Features, score: i32) -> (u32, u32, u32) {
        match mate_in(score) {
            Some(m) if m > 0 => (1000, 0, 0),
            Some(_) => (0, 0, 1000),
            None => self.wdl(f, score as f64).per_mille(),
        }
    }

    /// The centipawn score of an expected result `p` in a position with `f`:
    /// `logit(P) / C` is wilo pawns, turned into the engine's centipawns by the wilo scale.
    pub fn score_of(&self, f: &Features, p: f64) -> f64 {
        let p = p.clamp(1e-6, 1.0 - 1e-6);
        let wilo = (p / (1.0 - p)).ln() / C;
        100.0 * wilo / self.wilo_per_pawn(f)
    }

    /// Contempt the model's way: a side that expects to outscore its opponent by `elo`
    /// pseudo-Elo (`elo / 100` pawns of wilo) in an equal position with `f` expects the
    /// result `P`; a draw is worth `P`'s score less to it. Returns that score (centipawns),
    /// which the search subtracts from the draw score of the side that has the contempt.
    pub fn contempt_cp(&self, f: &Features, elo: f64) -> i32 {
        if elo == 0.0 {
            return 0;
        }
        let p = self.wdl_with(f, 0.0, elo / 100.0).expected();
        self.score_of(f, p).round().clamp(-1000.0, 1000.0) as i32
    }
}

#[cfg(test)]
mod tests {
    fn model() -> &'static super::Model {
        &super::weights::MODEL
    }

    use super::*;

    fn start() -> Features {
        Features::of(&Position::startpos())
    }

    /// W − L (twice the expected result less one) rises with the score everywhere; W rises on
    /// the winning side and L falls on the losing side. W alone may dip a little just below an
    /// equal score, where the fitted draw chance rises faster than Wp: the test bounds the dip.
    #[test]
    fn per_mille_sums_to_1000_and_is_monotone() {
        let m = model();
        let positions = [
            Position::startpos(),
            Position::from_fen("8/5pk1/6p1/8/8/6P1/5PK1/8 w - - 0 1").unwrap(),
            Position::from_fen("r3k2r/pp3ppp/8/8/8/8/PPP2PPP/R3K2R b KQkq - 0 1").unwrap(),
        ];
        for pos in &positions {
            let f = Features::of(pos);
            let mut worst_dip = 0.0f64;
            let mut best_w = 0.0f64;
            let mut last = m.wdl(&f, -2000.0);
            for s in -2000..=2000 {
                let (w, d, l) = m.per_mille(&f, s);
                assert_eq!(w + d + l, 1000, "score {s}");
                let x = m.wdl(&f, s as f64);
                assert!(
                    x.win - x.loss >= last.win - last.loss - 1e-12,
                    "W − L at {s}"
                );
                if s > 0 {
                    assert!(x.win >= last.win - 1e-12, "W at {s}");
                }
                if s <= 0 {
                    assert!(x.loss <= last.loss + 1e-12, "L at {s}");
                }
                best_w = best_w.max(x.win);
                worst_dip = worst_dip.max(best_w - x.win);
                last = x;
            }
            assert!(
                worst_dip < 0.01,
                "W dips by {worst_dip} in {}",
                pos.to_fen()
            );
            let (w, _, l) = m.per_mille(&f, 0);
            assert_eq!(w, l);
        }
        let f = start();
        assert_eq!(m.per_mille(&f, crate::score::MATE - 5), (1000, 0, 0));
        assert_eq!(m.per_mille(&f, -crate::score::MATE + 4), (0, 0, 1000));
    }

    #[test]
    fn rounding_keeps_the_sum() {
        for (w, l) in [
            (0.4995, 0.4995),
            (0.0004, 0.9996),
            (1.0, 0.0),
            (0.3335, 0.3335),
        ] {
            let x = Wdl {
                win: w,
                draw: 1.0 - w - l,
                loss: l,
            };
            let (a, b, c) = x.per_mille();
            assert_eq!(a + b + c, 1000);
        }
    }

    #[test]
    fn score_of_inverts_the_expected_result() {
        let m = model();
        let f = start();
        for s in [-300.0, -40.0, 0.0, 25.0, 180.0] {
            // Without draws the expected result is Wp, and its score is the score itself.
            let no_draws = Model {
                draw: [-50.0; DRAW_FEATURES],
                ..*m
            };
            let p = no_draws.wdl(&f, s).expected();
            assert!((no_draws.score_of(&f, p) - s).abs() < 1e-6);
        }
    }

    #[test]
    fn contempt_is_odd_and_grows() {
        let m = model();
        let f = start();
        assert_eq!(m.contempt_cp(&f, 0.0), 0);
        let (a, b) = (m.contempt_cp(&f, 50.0), m.contempt_cp(&f, 200.0));
        assert!(a > 0 && b > a, "{a} {b}");
        assert_eq!(m.contempt_cp(&f, -50.0), -a);
    }

    #[test]
    fn features_see_opposite_bishops_and_asymmetry() {
        let p = Position::from_fen("4kb2/pp6/8/8/8/8/5PPP/1B2K3 w - - 12 40").unwrap();
        let f = Features::of(&p);
        assert_eq!(f.opposite_bishops, 1.0);
        assert_eq!(f.pawn_asymmetry, 5.0 / 8.0);
        assert_eq!(f.pawns, 5.0 / 16.0);
        assert_eq!(start().pawn_asymmetry, 0.0);
        assert_eq!(start().phase, 1.0);
    }
}
