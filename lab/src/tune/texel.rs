//! Texel's method: the mean squared error between game results and the evaluation turned
//! into an expected result, E = mean (R − σ(K·q/400))² with σ(x) = 1 / (1 + 10^−x), and its
//! minimisation over the linear weights by full-batch gradient descent (Adam).
//!
//! Weights are real numbers while tuning, two per `Score` (middlegame, endgame), in the flat
//! order of `Params::names`; `q` is the traced evaluation from White's side with the phase
//! blend and the scale factor the position had, without the engine's integer rounding.
//!
//! Each colour's king danger `d = Σ w_k·f_k` over its traced features
//! (`squall::eval::danger`, middlegame halves) adds `max(d, 0)²/720` to that colour's
//! middlegame half and `max(d, 0)/20` to its endgame half (real numbers here, integer
//! divisions in the engine), so where `d > 0`, `∂mg/∂w_k = ±2d/720·f_k` and
//! `∂eg/∂w_k = ±f_k/20` (+ for White), and 0 where `d ≤ 0`.
//!
//! The endgame half passes through the complexity step before the blend,
//! `eg' = eg + sign(eg)·max(c, −|eg|)` with `c = Σ w_j·f_j` over the traced complexity
//! features (`squall::eval::complexity`), and the gradient follows it: where the cap does
//! not bite, `∂eg'/∂eg = 1` and `∂eg'/∂w_j = sign(eg)·f_j`; where it does, `eg' = 0` and both
//! are 0. The scale factor stays the position's constant.

use squall::eval::psqt::PHASE_TOTAL;
use squall::eval::scale::SCALE_NORMAL;
use squall::eval::{complexity, danger};

use super::data::Sample;

/// Middlegame and endgame half of every weight.
pub type Weights = Vec<[f64; 2]>;

/// The expected result of evaluation `q` (centipawns, White's side) for White.
#[inline]
pub fn sigmoid(k: f64, q: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * q / 400.0))
}

/// One sample's traced evaluation under real weights, with what its gradient needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Eval {
    /// The evaluation, centipawns from White's side.
    pub q: f64,
    /// ∂q/∂(a middlegame weight's count): the phase share.
    pub mg_factor: f64,
    /// ∂q/∂eg', the final endgame half: the endgame share times the scale factor.
    pub eg_factor: f64,
    /// ∂eg'/∂eg through the complexity step: 1, or 0 where the cap holds eg' at 0.
    pub eg_slope: f64,
    /// ∂eg'/∂c: sign(eg), or 0 where the cap holds.
    pub complexity_slope: f64,
    /// Each colour's king danger `max(d, 0)`, by colour index.
    pub danger: [f64; 2],
}

/// The king danger `max(d, 0)` of each colour's traced features under `w`.
#[inline]
fn king_danger(s: &Sample, w: &[[f64; 2]]) -> [f64; 2] {
    s.trace.king_danger.map(|f| {
        danger::OFFSETS
            .iter()
            .zip(f)
            .map(|(&i, x)| w[i][0] * x as f64)
            .sum::<f64>()
            .max(0.0)
    })
}

/// The complexity step on real numbers: `eg'` and its two slopes (see the module comment).
/// At `eg = 0` the step leaves 0 and its slope in `eg` is taken as 1 when `c > 0` (the
/// right-hand limit's), a set of measure zero either way.
#[inline]
pub fn complexity_step(eg: f64, c: f64) -> (f64, f64, f64) {
    let sign = if eg > 0.0 {
        1.0
    } else if eg < 0.0 {
        -1.0
    } else {
        0.0
    };
    if c > -eg.abs() {
        (eg + sign * c, 1.0, sign)
    } else {
        (0.0, 0.0, 0.0)
    }
}

/// The traced evaluation of `s` from White's side under `w`, and the factors that turn a
/// middlegame and an endgame weight into centipawns of it.
#[inline]
pub fn evaluate(s: &Sample, w: &[[f64; 2]]) -> Eval {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, n) in &s.trace.entries {
        let v = w[i as usize];
        mg += v[0] * n as f64;
        eg += v[1] * n as f64;
    }
    let danger = king_danger(s, w);
    let (mg_div, eg_div) = (danger::MG_DIVISOR as f64, danger::EG_DIVISOR as f64);
    mg += (danger[0] * danger[0] - danger[1] * danger[1]) / mg_div;
    eg += (danger[0] - danger[1]) / eg_div;
    let c: f64 = complexity::OFFSETS
        .iter()
        .zip(s.trace.complexity)
        .map(|(&i, x)| w[i][1] * x as f64)
        .sum();
    let (eg, eg_slope, complexity_slope) = complexity_step(eg, c);
    let phase = s.trace.phase as f64 / PHASE_TOTAL as f64;
    let eg_factor = (1.0 - phase) * s.trace.scale as f64 / SCALE_NORMAL as f64;
    Eval {
        q: mg * phase + eg * eg_factor,
        mg_factor: phase,
        eg_factor,
        eg_slope,
        complexity_slope,
        danger,
    }
}

/// Runs `f` over `samples` in `threads` chunks and sums what the chunks return.
pub fn par_sum<T: Send>(
    samples: &[Sample],
    threads: usize,
    f: impl Fn(&[Sample]) -> T + Sync,
    add: impl Fn(T, T) -> T,
    zero: impl Fn() -> T,
) -> T {
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| scope.spawn(|| f(part)))
            .collect();
        handles
            .into_iter()
            .filter_map(|h| h.join().ok())
            .fold(zero(), &add)
    })
}

/// Mean of (R − σ(K·q))² over `samples`, with `q` the evaluation that `eval` gives a sample
/// (White's side).
fn mean_squared(
    samples: &[Sample],
    k: f64,
    threads: usize,
    eval: impl Fn(&Sample) -> f64 + Sync,
) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum = par_sum(
        samples,
        threads,
        |part| {
            part.iter()
                .map(|s| {
                    let d = s.result - sigmoid(k, eval(s));
                    d * d
                })
                .sum::<f64>()
        },
        |a, b| a + b,
        || 0.0,
    );
    sum / samples.len() as f64
}

/// Texel's error of `w` on `samples`.
pub fn error(samples: &[Sample], w: &[[f64; 2]], k: f64, threads: usize) -> f64 {
    mean_squared(samples, k, threads, |s| evaluate(s, w).q)
}

/// The error as a function of the integer evaluation the engine computes (rounded weights,
/// exact blend), for reporting.
pub fn engine_error(samples: &[Sample], w: &[[f64; 2]], k: f64, threads: usize) -> f64 {
    let scores = rounded(w);
    mean_squared(samples, k, threads, |s| {
        let v = s.trace.value(&scores) as f64;
        if s.trace.white_to_move {
            v
        } else {
            -v
        }
    })
}

/// The weights rounded to the engine's integer scores.
pub fn rounded(w: &[[f64; 2]]) -> Vec<squall::eval::score::Score> {
    w.iter()
        .map(|v| squall::eval::score::s(v[0].round() as i32, v[1].round() as i32))
        .collect()
}

/// The K that minimises the error of `w` (golden-section search on [0.05, 5]).
pub fn fit_k(samples: &[Sample], w: &[[f64; 2]], threads: usize) -> f64 {
    let (mut a, mut b) = (0.05f64, 5.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut ec, mut ed) = (error(samples, w, c, threads), error(samples, w, d, threads));
    while b - a > 1e-4 {
        if ec < ed {
            b = d;
            d = c;
            ed = ec;
            c = b - ratio * (b - a);
            ec = error(samples, w, c, threads);
        } else {
            a = c;
            c = d;
            ec = ed;
            d = a + ratio * (b - a);
            ed = error(samples, w, d, threads);
        }
    }
    (a + b) / 2.0
}

/// The gradient of the error with respect to every weight half.
pub fn gradient(samples: &[Sample], w: &[[f64; 2]], k: f64, threads: usize) -> Weights {
    let n = w.len();
    let mut g = par_sum(
        samples,
        threads,
        |part| {
            let mut g = vec![[0.0f64; 2]; n];
            for s in part {
                let e = evaluate(s, w);
                let p = sigmoid(k, e.q);
                // dE/dq for this sample, the constant factors folded in below.
                let dq = (p - s.result) * p * (1.0 - p);
                let (mg, eg) = (dq * e.mg_factor, dq * e.eg_factor * e.eg_slope);
                for &(i, c) in &s.trace.entries {
                    let x = c as f64;
                    g[i as usize][0] += x * mg;
                    g[i as usize][1] += x * eg;
                }
                // Through the king-danger curve: ±(2d/720 · mg + 1/20 · eg) per feature.
                for (colour, (&d, f)) in e.danger.iter().zip(&s.trace.king_danger).enumerate() {
                    if d > 0.0 {
                        let sign = if colour == 0 { 1.0 } else { -1.0 };
                        let by_f = sign
                            * (mg * 2.0 * d / danger::MG_DIVISOR as f64
                                + eg / danger::EG_DIVISOR as f64);
                        for (&i, x) in danger::OFFSETS.iter().zip(f) {
                            g[i][0] += by_f * *x as f64;
                        }
                    }
                }
                let by_c = dq * e.eg_factor * e.complexity_slope;
                if by_c != 0.0 {
                    for (&i, x) in complexity::OFFSETS.iter().zip(s.trace.complexity) {
                        g[i][1] += by_c * x as f64;
                    }
                }
            }
            g
        },
        |mut a, b| {
            for (x, y) in a.iter_mut().zip(b) {
                x[0] += y[0];
                x[1] += y[1];
            }
            a
        },
        || vec![[0.0f64; 2]; n],
    );
    let scale = 2.0 * k * std::f64::consts::LN_10 / 400.0 / samples.len().max(1) as f64;
    for x in &mut g {
        x[0] *= scale;
        x[1] *= scale;
    }
    g
}

/// Adam's state for full-batch descent.
pub struct Adam {
    pub rate: f64,
    m: Weights,
    v: Weights,
    t: i32,
}

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f64 = 1e-8;

impl Adam {
    pub fn new(n: usize, rate: f64) -> Adam {
        Adam {
            rate,
            m: vec![[0.0; 2]; n],
            v: vec![[0.0; 2]; n],
            t: 0,
        }
    }

    /// One step on the halves that `active` allows.
    pub fn step(&mut self, w: &mut [[f64; 2]], g: &[[f64; 2]], active: &[[bool; 2]]) {
        self.t += 1;
        let c1 = 1.0 - BETA1.powi(self.t);
        let c2 = 1.0 - BETA2.powi(self.t);
        for i in 0..w.len() {
            for h in 0..2 {
                if !active[i][h] {
                    continue;
                }
                self.m[i][h] = BETA1 * self.m[i][h] + (1.0 - BETA1) * g[i][h];
                self.v[i][h] = BETA2 * self.v[i][h] + (1.0 - BETA2) * g[i][h] * g[i][h];
                let m = self.m[i][h] / c1;
                let v = self.v[i][h] / c2;
                w[i][h] -= self.rate * m / (v.sqrt() + EPSILON);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::{data, to_weights};
    use squall::eval::params::{Field, DEFAULT_PARAMS};
    use squall::types::Colour;

    /// Suite positions (WAC and the endgame starts, all from games or studies) with labels
    /// that depend only on their order: the check is of the derivative, not of a fit.
    fn samples() -> Vec<Sample> {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../suites/");
        let mut lines = String::new();
        for (n, line) in ["wac.epd", "endgame_starts.epd"]
            .iter()
            .flat_map(|f| {
                let text = std::fs::read_to_string(format!("{root}{f}")).expect("suite file");
                text.lines().map(str::to_string).collect::<Vec<_>>()
            })
            .enumerate()
        {
            let fen: Vec<&str> = line.split_whitespace().take(4).collect();
            let result = ["0.0", "0.5", "1.0"][n % 3];
            lines.push_str(&format!("{} [{result}]\n", fen.join(" ")));
        }
        let (s, _) = data::read(lines.as_bytes(), &DEFAULT_PARAMS, 1, usize::MAX).expect("read");
        s
    }

    /// The built-in weights with complexity weights large enough that the cap holds in some
    /// positions, a king-danger base low enough that weak attacks stay at the curve's floor
    /// (with the built-in weights every attack that counts is above it), and every half moved
    /// by an irregular fraction so that no position sits exactly on a kink (integer weights
    /// put `c + |eg|` and `d` on integers, often at 0).
    fn weights() -> Weights {
        let mut w: Weights = to_weights(&DEFAULT_PARAMS);
        let complexity = [6.0, 25.0, 9.0, 40.0, -30.0, 7.0, -90.0];
        for (f, v) in complexity::FIELDS.iter().zip(complexity) {
            w[f.offset()][1] = v;
        }
        w[Field::king_danger_base.offset()][0] = -250.0;
        for (i, x) in w.iter_mut().enumerate() {
            let frac = ((i as f64 + 1.0) * std::f64::consts::SQRT_2).fract() - 0.5;
            x[0] += frac * 0.37;
            x[1] += frac * 0.41;
        }
        w
    }

    #[test]
    fn complexity_step_caps_at_zero() {
        assert_eq!(complexity_step(50.0, 20.0), (70.0, 1.0, 1.0));
        assert_eq!(complexity_step(-50.0, 20.0), (-70.0, 1.0, -1.0));
        assert_eq!(complexity_step(-50.0, -20.0), (-30.0, 1.0, -1.0));
        assert_eq!(complexity_step(50.0, -80.0), (0.0, 0.0, 0.0));
        assert_eq!(complexity_step(0.0, 30.0), (0.0, 1.0, 0.0));
    }

    /// The traced evaluation under integer weights is the engine's without its integer
    /// divisions, king danger and complexity included, so `evaluate` re-applies both steps
    /// as the engine does.
    #[test]
    fn evaluate_matches_the_integer_trace() {
        let w: Weights = weights()
            .iter()
            .map(|x| [x[0].round(), x[1].round()])
            .collect();
        let scores = rounded(&w);
        for s in samples() {
            let exact = blend_real(&s, &scores);
            assert!((evaluate(&s, &w).q - exact).abs() < 1e-9);
        }
    }

    /// The engine's evaluation without its integer divisions: the linear sums from the
    /// trace, each colour's danger from `EvalTrace::danger`, the curve and the blend on reals.
    fn blend_real(s: &Sample, scores: &[squall::eval::score::Score]) -> f64 {
        let linear = s.trace.sums(scores) - s.trace.king_danger(scores);
        let d = [Colour::White, Colour::Black].map(|c| s.trace.danger(scores, c).max(0) as f64);
        let mg = linear.mg() as f64 + (d[0] * d[0] - d[1] * d[1]) / danger::MG_DIVISOR as f64;
        let eg = linear.eg() as f64 + (d[0] - d[1]) / danger::EG_DIVISOR as f64;
        let (eg, _, _) = complexity_step(eg, s.trace.complexity(scores) as f64);
        let phase = s.trace.phase as f64 / PHASE_TOTAL as f64;
        mg * phase + eg * (1.0 - phase) * s.trace.scale as f64 / SCALE_NORMAL as f64
    }

    /// The integer trace applies the engine's curve: `danger::gain` of each colour's danger.
    #[test]
    fn trace_applies_the_integer_curve() {
        let scores = DEFAULT_PARAMS.values();
        let mut attacked = 0;
        for s in samples() {
            let gains =
                [Colour::White, Colour::Black].map(|c| danger::gain(s.trace.danger(&scores, c)));
            assert_eq!(s.trace.king_danger(&scores), gains[0] - gains[1]);
            attacked += gains.iter().filter(|g| g.mg() > 0).count();
        }
        assert!(attacked > 50, "{attacked} attacks worth something");
    }

    /// The analytic gradient equals central finite differences of the error, for every
    /// complexity and king-danger weight and for linear weights of both halves, with the cap
    /// holding in some positions and not in others, and the danger above its floor in some
    /// attacks and at it in others.
    #[test]
    fn gradient_matches_finite_differences() {
        let samples = samples();
        let w = weights();
        let k = 1.2;
        assert!(samples.len() > 300, "{} samples", samples.len());
        let (mut capped, mut free) = (0, 0);
        for s in &samples {
            let e = evaluate(s, &w);
            if e.eg_factor > 0.0 {
                if e.eg_slope == 0.0 {
                    capped += 1;
                } else if e.complexity_slope != 0.0 {
                    free += 1;
                }
            }
        }
        assert!(capped >= 10 && free >= 100, "capped {capped}, free {free}");
        // King danger: above the floor in some attacks, at it in others.
        let (mut above, mut floored) = (0, 0);
        for s in &samples {
            let e = evaluate(s, &w);
            for (d, f) in e.danger.iter().zip(&s.trace.king_danger) {
                if *d > 0.0 {
                    above += 1;
                } else if f.iter().any(|&x| x != 0) {
                    floored += 1;
                }
            }
        }
        assert!(
            above >= 50 && floored >= 50,
            "danger above 0 in {above}, floored in {floored}"
        );
        println!(
            "{} samples: cap holds in {capped}, free in {free}; danger above 0 in {above}, floored in {floored}",
            samples.len()
        );
        let g = gradient(&samples, &w, k, 1);
        let mut checked: Vec<(usize, usize)> = complexity::FIELDS
            .iter()
            .map(|f| (f.offset(), 1))
            .chain(danger::FIELDS.iter().map(|f| (f.offset(), 0)))
            .collect();
        for (f, j, h) in [
            (Field::material, 0, 0),
            (Field::material, 0, 1),
            (Field::material, 3, 1),
            (Field::passed_rank, 5, 1),
            (Field::rook_mobility, 7, 0),
            (Field::rook_mobility, 7, 1),
            (Field::tempo, 0, 1),
        ] {
            checked.push((f.offset() + j, h));
        }
        let step = 1e-4;
        for (i, h) in checked {
            let mut up = w.clone();
            up[i][h] += step;
            let mut down = w.clone();
            down[i][h] -= step;
            let numeric =
                (error(&samples, &up, k, 1) - error(&samples, &down, k, 1)) / (2.0 * step);
            let analytic = g[i][h];
            let tolerance = 1e-4 * numeric.abs().max(analytic.abs()) + 1e-12;
            assert!(
                (numeric - analytic).abs() <= tolerance,
                "weight {i} half {h}: analytic {analytic:e}, numeric {numeric:e}"
            );
            println!("weight {i} half {h}: analytic {analytic:.6e}, numeric {numeric:.6e}");
        }
        // The unused halves get no gradient: the complexity weights' middlegame halves, the
        // king-danger weights' endgame halves.
        for f in complexity::FIELDS {
            assert_eq!(g[f.offset()][0], 0.0);
        }
        for f in danger::FIELDS {
            assert_eq!(g[f.offset()][1], 0.0);
        }
    }
}
