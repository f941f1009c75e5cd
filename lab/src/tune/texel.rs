//! Texel's method: the mean squared error between game results and the evaluation turned
//! into an expected result, E = mean (R − σ(K·q/400))² with σ(x) = 1 / (1 + 10^−x), and its
//! minimisation over the linear weights by full-batch gradient descent (Adam).
//!
//! Weights are real numbers while tuning, two per `Score` (middlegame, endgame), in the flat
//! order of `Params::names`; `q` is the traced evaluation from White's side with the phase
//! blend and the scale factor the position had, without the engine's integer rounding.

use squall::eval::psqt::PHASE_TOTAL;
use squall::eval::scale::SCALE_NORMAL;

use super::data::Sample;

/// Middlegame and endgame half of every weight.
pub type Weights = Vec<[f64; 2]>;

/// The expected result of evaluation `q` (centipawns, White's side) for White.
#[inline]
pub fn sigmoid(k: f64, q: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * q / 400.0))
}

/// The traced evaluation of `s` from White's side under `w`, and the factors that turn a
/// middlegame and an endgame weight into centipawns of it.
#[inline]
pub fn evaluate(s: &Sample, w: &[[f64; 2]]) -> (f64, f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, n) in &s.trace.entries {
        let v = w[i as usize];
        mg += v[0] * n as f64;
        eg += v[1] * n as f64;
    }
    let phase = s.trace.phase as f64 / PHASE_TOTAL as f64;
    let eg_factor = (1.0 - phase) * s.trace.scale as f64 / SCALE_NORMAL as f64;
    (mg * phase + eg * eg_factor, phase, eg_factor)
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
    mean_squared(samples, k, threads, |s| evaluate(s, w).0)
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
                let (q, phase, eg_factor) = evaluate(s, w);
                let p = sigmoid(k, q);
                // dE/dq for this sample, the constant factors folded in below.
                let dq = (p - s.result) * p * (1.0 - p);
                for &(i, c) in &s.trace.entries {
                    let x = dq * c as f64;
                    g[i as usize][0] += x * phase;
                    g[i as usize][1] += x * eg_factor;
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
