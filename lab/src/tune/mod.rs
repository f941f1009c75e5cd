//! `squall tune`: fits the evaluation weights to game results (Texel's method).
//!
//! The labelled positions are traced once (`eval::linear`): each becomes the counts of the
//! weights its evaluation used, so the evaluation under any linear weights is a sparse dot
//! product and an epoch over a million positions takes a fraction of a second. K, the scale
//! that turns centipawns into an expected result, is fitted first and then held. Two methods:
//! - `gradient`: full-batch Adam on every weight (or the `--fields` chosen), through the
//!   king-danger curve and the complexity step;
//! - `pso`: a particle swarm over the chosen fields (by default the king-danger weights) on
//!   the same traced error, so the two methods can be compared on the same weights.
//!
//! The result is printed as a report (error on the training and the held-back validation
//! positions before and after, per-field changes, time per epoch) and, with `--out`, written
//! as the Rust source of the built-in table (`src/eval/weights.rs`).

pub mod data;
pub mod mirror;
pub mod pso;
pub mod source;
pub mod texel;

use std::io::BufReader;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use data::Sample;
use squall::eval::complexity::is_complexity;
use squall::eval::danger::{self, is_king_danger};
use squall::eval::params::{Params, DEFAULT_PARAMS, FIELD_LENS};
use texel::{sigmoid, Weights};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    Gradient,
    Pso,
}

/// `squall tune` arguments.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// Labelled positions: lines of `FEN c9 "1-0";`, `FEN "1-0"` or `FEN [1.0]` (result from
    /// White's side).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Gradient descent (Adam) on the weights, or a particle swarm.
    #[arg(long, value_enum, default_value_t = Method::Gradient)]
    pub method: Method,
    /// Epochs of gradient descent, or iterations of the swarm.
    #[arg(long, default_value_t = 400)]
    pub epochs: usize,
    /// Share of the positions held back to measure the error on (not trained on); 0 when
    /// `--validation-data` gives a held-out file instead.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Held-out labelled positions (self-play games not in the training data) to measure
    /// the error on instead of a share of the training files.
    #[arg(long)]
    pub validation_data: Vec<PathBuf>,
    /// Weight of the game result in the target, λ·result + (1 − λ)·σ(K·score), for positions
    /// that carry a search score (`ce`); 1 fits results alone. K is fitted on results first.
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Write the tuned weights as Rust source (the built-in table, `src/eval/weights.rs`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// Use this K instead of fitting it.
    #[arg(long)]
    pub k: Option<f64>,
    /// Comma-separated `Params` fields to tune (default: every field for `gradient`, the
    /// king-danger fields for `pso`).
    #[arg(long)]
    pub fields: Option<String>,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Read at most this many positions per file (0: all).
    #[arg(long, default_value_t = 0)]
    pub limit: usize,
    /// Particles in the swarm.
    #[arg(long, default_value_t = 24)]
    pub particles: usize,
    /// Seed of the validation split and the swarm.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print the error every this many epochs.
    #[arg(long, default_value_t = 20)]
    pub print_every: usize,
    /// Weight of an L2 pull toward the starting weights, per centipawn² of every moved half
    /// (0: none). Material, square tables and mobility tables overlap (a constant can move
    /// from one to another without changing any evaluation), and sparse entries follow noise;
    /// a small pull keeps both near sensible values.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Tune each square table as 32 entries, a square tied to its file mirror (`gradient`
    /// only): both start at their mean and move together; the tables stay 64 entries.
    #[arg(long)]
    pub mirror_squares: bool,
    /// Early stopping (`gradient` only): measure the validation error at every printed epoch
    /// and keep the weights where it was lowest, the start included. A few thousand games
    /// are too few for every weight: the training error falls while the held-out error rises
    /// from the first epochs (docs/tuning.md), and this returns the start rather than worse.
    #[arg(long)]
    pub keep_best: bool,
}

/// Replaces the target of every sample that has a search score by
/// λ·result + (1 − λ)·σ(K·score); returns how many it changed.
fn blend_targets(samples: &mut [Sample], k: f64, lambda: f64) -> usize {
    if lambda >= 1.0 {
        return 0;
    }
    let mut n = 0;
    for s in samples.iter_mut() {
        if let Some(score) = s.score {
            s.result = lambda * s.result + (1.0 - lambda) * sigmoid(k, score);
            n += 1;
        }
    }
    n
}

/// Which weight halves a method may move.
pub type Mask = Vec<[bool; 2]>;

/// The mask of `fields` (the method's default fields when `None`); an unknown name is an
/// error. Only the half a weight uses is allowed: the middlegame half of a king-danger
/// weight, the endgame half of a complexity weight.
pub fn field_mask(fields: Option<&str>, method: Method) -> Result<Mask, String> {
    let names: Vec<&str> = match fields {
        Some(list) => list
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect(),
        None => match method {
            Method::Gradient => Params::FIELDS.to_vec(),
            Method::Pso => danger::FIELDS
                .iter()
                .map(|f| Params::FIELDS[*f as usize])
                .collect(),
        },
    };
    for n in &names {
        if !Params::FIELDS.contains(n) {
            return Err(format!(
                "no weight field named `{n}` (fields: {})",
                Params::FIELDS.join(", ")
            ));
        }
    }
    let mut mask = Vec::new();
    for (field, &len) in Params::FIELDS.iter().zip(FIELD_LENS) {
        let on = names.contains(field);
        let start = mask.len();
        for j in 0..len {
            let index = start + j;
            mask.push([on && !is_complexity(index), on && !is_king_danger(index)]);
        }
    }
    Ok(mask)
}

/// The weights of `p` as real numbers, middlegame and endgame half of each.
pub fn to_weights(p: &Params) -> Weights {
    p.values()
        .iter()
        .map(|v| [v.mg() as f64, v.eg() as f64])
        .collect()
}

fn to_params(w: &[[f64; 2]]) -> Params {
    let mut p = DEFAULT_PARAMS;
    let _ = p.set_values(&texel::rounded(w));
    p
}

/// Gradient descent with Adam on the halves `mask` allows; returns the seconds per epoch.
#[allow(clippy::too_many_arguments)]
pub fn descend(
    train: &[Sample],
    w: &mut Weights,
    mask: &Mask,
    k: f64,
    epochs: usize,
    rate: f64,
    l2: f64,
    tied: &[(usize, usize)],
    threads: usize,
    mut progress: impl FnMut(usize, &Weights),
) -> f64 {
    mirror::tie(w, tied);
    let mut adam = texel::Adam::new(w.len(), rate);
    let origin = w.clone();
    let start = Instant::now();
    for epoch in 1..=epochs {
        let mut g = texel::gradient(train, w, k, threads);
        if l2 > 0.0 {
            for ((g, w), o) in g.iter_mut().zip(w.iter()).zip(&origin) {
                g[0] += 2.0 * l2 * (w[0] - o[0]);
                g[1] += 2.0 * l2 * (w[1] - o[1]);
            }
        }
        // The tied pair's error gradient is the sum of both; their mean keeps Adam's step
        // size per entry as it was.
        mirror::tie(&mut g, tied);
        adam.step(w, &g, mask);
        progress(epoch, w);
    }
    start.elapsed().as_secs_f64() / epochs.max(1) as f64
}

/// Moves the halves that `mask` allows by a particle swarm; the fitness is the traced error
/// on `train`.
pub fn swarm(
    train: &[Sample],
    w: &mut Weights,
    mask: &Mask,
    k: f64,
    config: pso::Config,
    threads: usize,
    progress: impl FnMut(usize, f64),
) -> f64 {
    let slots: Vec<(usize, usize)> = (0..w.len())
        .flat_map(|i| (0..2).map(move |h| (i, h)))
        .filter(|&(i, h)| mask[i][h])
        .collect();
    let dims: Vec<pso::Dim> = slots
        .iter()
        .map(|&(i, h)| {
            let v = w[i][h];
            // Search a band around the current value wide enough to double or flip it.
            let half = (v.abs() * 1.5).max(16.0);
            pso::Dim {
                start: v,
                low: v - half,
                high: v + half,
            }
        })
        .collect();
    let base = w.clone();
    let place = |x: &[f64]| {
        let mut t = base.clone();
        for (&(i, h), &v) in slots.iter().zip(x) {
            t[i][h] = v;
        }
        t
    };
    let start = Instant::now();
    let (best, _) = pso::minimise(
        &dims,
        config,
        |x| texel::error(train, &place(x), k, threads),
        progress,
    );
    *w = place(&best);
    start.elapsed().as_secs_f64() / config.iterations.max(1) as f64
}

/// Per-field mean absolute change of the middlegame and endgame halves, largest first.
fn field_changes(before: &[[f64; 2]], after: &[[f64; 2]]) -> Vec<(String, f64, f64)> {
    let mut out = Vec::new();
    let mut at = 0;
    for (name, &len) in Params::FIELDS.iter().zip(FIELD_LENS) {
        let (mut mg, mut eg) = (0.0, 0.0);
        for i in at..at + len {
            mg += (after[i][0] - before[i][0]).abs();
            eg += (after[i][1] - before[i][1]).abs();
        }
        at += len;
        out.push((name.to_string(), mg / len as f64, eg / len as f64));
    }
    out.sort_by(|a, b| (b.1 + b.2).total_cmp(&(a.1 + a.2)));
    out
}

/// `squall tune`.
/// Reads and traces every labelled file of `paths`; `None` after printing the error when one
/// cannot be read.
fn read_files(paths: &[PathBuf], threads: usize, limit: usize) -> Option<Vec<Sample>> {
    let mut samples = Vec::new();
    for path in paths {
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return None;
            }
        };
        let limit = if limit == 0 { usize::MAX } else { limit };
        match data::read(BufReader::new(file), &DEFAULT_PARAMS, threads, limit) {
            Ok((s, stats)) => {
                println!(
                    "{}: {} lines, {} positions, {} skipped",
                    path.display(),
                    stats.lines,
                    stats.samples,
                    stats.skipped
                );
                samples.extend(s);
            }
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return None;
            }
        }
    }
    Some(samples)
}

pub fn run(args: &TuneArgs) -> ExitCode {
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let mask = match field_mask(args.fields.as_deref(), args.method) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if args.mirror_squares && args.method != Method::Gradient {
        eprintln!("error: --mirror-squares needs --method gradient");
        return ExitCode::from(2);
    }
    let started = Instant::now();
    let Some(mut samples) = read_files(&args.data, threads, args.limit) else {
        return ExitCode::from(2);
    };
    let Some(mut held_out) = read_files(&args.validation_data, threads, args.limit) else {
        return ExitCode::from(2);
    };
    if samples.len() < 10 {
        eprintln!("error: only {} labelled positions", samples.len());
        return ExitCode::from(2);
    }
    println!(
        "traced {} positions in {:.1} s",
        samples.len(),
        started.elapsed().as_secs_f64()
    );
    // Seeded split: a Fisher-Yates shuffle, then the first share is held back.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(args.seed);
    for i in (1..samples.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        samples.swap(i, j);
    }
    let share = if held_out.is_empty() {
        args.validation.clamp(0.0, 0.9)
    } else {
        0.0
    };
    let held = ((samples.len() as f64) * share) as usize;
    let before = to_weights(&DEFAULT_PARAMS);
    let k = args
        .k
        .unwrap_or_else(|| texel::fit_k(&samples[held..], &before, threads));
    let lambda = args.lambda.clamp(0.0, 1.0);
    let blended = blend_targets(&mut samples, k, lambda) + blend_targets(&mut held_out, k, lambda);
    if lambda < 1.0 {
        println!("lambda {lambda}: {blended} targets blend the result with the search score");
    }
    let (valid, train) = samples.split_at(held);
    let valid = if held_out.is_empty() {
        valid
    } else {
        &held_out[..]
    };
    let report_error = |w: &Weights| {
        (
            texel::engine_error(train, w, k, threads),
            texel::engine_error(valid, w, k, threads),
        )
    };
    let (train0, valid0) = report_error(&before);
    println!(
        "K = {k:.4}; before: E train {train0:.6}, validation {valid0:.6} ({} train, {} validation)",
        train.len(),
        valid.len()
    );
    let mut w = before.clone();
    // Early stopping: (validation error, epoch, weights) of the best printed epoch so far,
    // measured with the same traced error at every epoch, the start included.
    let mut best = (args.keep_best && args.method == Method::Gradient)
        .then(|| (texel::error(valid, &before, k, threads), 0, before.clone()));
    let per_epoch = match args.method {
        Method::Gradient => {
            let every = args.print_every.max(1);
            let tied = if args.mirror_squares {
                let pairs = mirror::pairs();
                let mut start = before.clone();
                mirror::tie(&mut start, &pairs);
                let (t, v) = report_error(&start);
                println!("mirrored square tables at the start: E train {t:.6}, validation {v:.6}");
                pairs
            } else {
                Vec::new()
            };
            descend(
                train,
                &mut w,
                &mask,
                k,
                args.epochs,
                args.rate,
                args.l2,
                &tied,
                threads,
                |epoch, w| {
                    if epoch % every == 0 || epoch == args.epochs {
                        let e = texel::error(train, w, k, threads);
                        if let Some(best) = best.as_mut() {
                            let v = texel::error(valid, w, k, threads);
                            println!("epoch {epoch}: E train {e:.6}, validation {v:.6}");
                            if v < best.0 {
                                *best = (v, epoch, w.clone());
                            }
                        } else {
                            println!("epoch {epoch}: E train {e:.6}");
                        }
                    }
                },
            )
        }
        Method::Pso => {
            let config = pso::Config {
                particles: args.particles,
                iterations: args.epochs,
                seed: args.seed,
            };
            swarm(train, &mut w, &mask, k, config, threads, |it, f| {
                println!("iteration {it}: best E {f:.6}")
            })
        }
    };
    if let Some((v, epoch, weights)) = best {
        println!("kept the weights of epoch {epoch} (validation {v:.6})");
        w = weights;
    }
    let (train1, valid1) = report_error(&w);
    println!("after: E train {train1:.6}, validation {valid1:.6}");
    println!("time per epoch: {:.3} s ({threads} threads)", per_epoch);
    println!("largest changes (mean |change| per entry, mg / eg):");
    for (name, mg, eg) in field_changes(&before, &w).iter().take(25) {
        if mg + eg > 0.0 {
            println!("  {name:<28} {mg:>7.1} {eg:>7.1}");
        }
    }
    if let Some(out) = &args.out {
        let header = vec![
            format!(
                "Tuned by `squall tune --method {:?}` on {} positions ({} held back), K = {k:.4}:",
                args.method,
                train.len(),
                valid.len()
            ),
            format!("E train {train0:.6} -> {train1:.6}, validation {valid0:.6} -> {valid1:.6}."),
        ];
        let text = source::weights_source(&to_params(&w), &header);
        if let Err(e) = squall::atomic_file::write(out, text.as_bytes()) {
            eprintln!("error: {}: {e}", out.display());
            return ExitCode::FAILURE;
        }
        println!("wrote {}", out.display());
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use squall::Position;

    #[test]
    fn lambda_blends_only_samples_with_a_score() {
        let pos = Position::startpos();
        let sample = |score| Sample {
            trace: squall::eval::linear::EvalTrace::of(&pos, &DEFAULT_PARAMS),
            result: 1.0,
            score,
        };
        let mut samples = vec![sample(Some(0.0)), sample(None)];
        assert_eq!(blend_targets(&mut samples, 1.0, 1.0), 0);
        assert_eq!(samples[0].result, 1.0);
        assert_eq!(blend_targets(&mut samples, 1.0, 0.25), 1);
        // σ(0) = ½: 0.25·1 + 0.75·½.
        assert!((samples[0].result - 0.625).abs() < 1e-12);
        assert_eq!(samples[1].result, 1.0);
    }
}
