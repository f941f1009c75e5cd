//! A particle swarm (MadChess 3.0 minimised Texel's error this way): a set of candidate
//! weight vectors flies through weight space, each pulled toward the best point it has seen
//! and the best any has seen. It needs no gradient; `tune --method pso` runs it on the traced
//! error, so it can be compared with gradient descent on the same weights.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Clerc's constriction coefficients: inertia and the pulls toward the particle's own best
/// and the swarm's best; with them the swarm converges without a velocity schedule.
const INERTIA: f64 = 0.7298;
const PULL_OWN: f64 = 1.496_18;
const PULL_SWARM: f64 = 1.496_18;
/// Velocities are held within this share of a dimension's range.
const MAX_SPEED: f64 = 0.2;

/// Swarm settings.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub particles: usize,
    pub iterations: usize,
    pub seed: u64,
}

/// One dimension: its starting value and the interval the particles may search.
#[derive(Clone, Copy, Debug)]
pub struct Dim {
    pub start: f64,
    pub low: f64,
    pub high: f64,
}

fn uniform(rng: &mut Xoshiro256PlusPlus) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Minimises `fitness` over `dims`; particle 0 starts at the starting values. `progress` is
/// called after each iteration with the iteration number and the best fitness so far.
/// Returns the best point and its fitness.
pub fn minimise(
    dims: &[Dim],
    config: Config,
    fitness: impl Fn(&[f64]) -> f64,
    mut progress: impl FnMut(usize, f64),
) -> (Vec<f64>, f64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    let n = dims.len();
    let count = config.particles.max(2);
    let mut pos: Vec<Vec<f64>> = (0..count)
        .map(|p| {
            dims.iter()
                .map(|d| {
                    if p == 0 {
                        d.start
                    } else {
                        d.low + uniform(&mut rng) * (d.high - d.low)
                    }
                })
                .collect()
        })
        .collect();
    let mut vel: Vec<Vec<f64>> = (0..count)
        .map(|_| {
            dims.iter()
                .map(|d| (uniform(&mut rng) - 0.5) * MAX_SPEED * (d.high - d.low))
                .collect()
        })
        .collect();
    let mut own_best = pos.clone();
    let mut own_fit: Vec<f64> = pos.iter().map(|x| fitness(x)).collect();
    let first = (0..count)
        .min_by(|&a, &b| own_fit[a].total_cmp(&own_fit[b]))
        .unwrap_or(0);
    let mut best = own_best[first].clone();
    let mut best_fit = own_fit[first];
    progress(0, best_fit);
    for iteration in 1..=config.iterations {
        for p in 0..count {
            for i in 0..n {
                let range = dims[i].high - dims[i].low;
                let v = INERTIA * vel[p][i]
                    + PULL_OWN * uniform(&mut rng) * (own_best[p][i] - pos[p][i])
                    + PULL_SWARM * uniform(&mut rng) * (best[i] - pos[p][i]);
                let limit = MAX_SPEED * range;
                vel[p][i] = v.clamp(-limit, limit);
                pos[p][i] = (pos[p][i] + vel[p][i]).clamp(dims[i].low, dims[i].high);
            }
            let f = fitness(&pos[p]);
            if f < own_fit[p] {
                own_fit[p] = f;
                own_best[p].clone_from(&pos[p]);
                if f < best_fit {
                    best_fit = f;
                    best.clone_from(&pos[p]);
                }
            }
        }
        progress(iteration, best_fit);
    }
    (best, best_fit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_bottom_of_a_bowl() {
        let dims = vec![
            Dim {
                start: 40.0,
                low: -100.0,
                high: 100.0
            };
            4
        ];
        let target = [3.0, -7.0, 12.0, 0.0];
        let config = Config {
            particles: 16,
            iterations: 200,
            seed: 1,
        };
        let (x, f) = minimise(
            &dims,
            config,
            |x| x.iter().zip(target).map(|(a, b)| (a - b) * (a - b)).sum(),
            |_, _| {},
        );
        assert!(f < 1e-3, "{f} at {x:?}");
    }
}
