//! `squall wdl-fit`: fits the WDL model to labelled positions by maximum likelihood.
//!
//! The 3-class log-likelihood of the model splits into two logistic regressions that share no
//! weight: `ln D` / `ln(1 − D)` over every position (draw or not) for the draw score, and
//! `ln Wp` / `ln(1 − Wp)` over the decisive games for wilo. Each is convex with a handful of
//! weights, so Newton's method solves it in a few passes. The report compares the model's
//! validation log-loss with two 3-class baselines on the same positions: the old fixed curve
//! of `protocol::uci` and a constant draw rate beside `σ(K·score)`; and, on the expected
//! result (binary cross-entropy with the result as a soft label), with the plain logistic of
//! the score at its best K.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use squall::eval::Evaluator;
use squall::wdl::{
    sigmoid, Features, Model, C, DRAW_FEATURES, DRAW_NAMES, WILO_FEATURES, WILO_NAMES,
};

/// `squall wdl-fit` arguments.
#[derive(clap::Args, Debug)]
pub struct WdlFitArgs {
    /// Labelled positions: lines of `FEN c9 "1-0";`, `FEN "1-0"` or `FEN [1.0]` (result from
    /// White's side).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Write the fitted model as Rust source (the built-in model, `src/wdl/weights.rs`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Every this many-th position is held back for validation (not trained on).
    #[arg(long, default_value_t = 10)]
    pub validation_every: usize,
    /// Read at most this many positions per file (0: all).
    #[arg(long, default_value_t = 0)]
    pub limit: usize,
    /// Worker threads for reading and evaluating (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// A game's result from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// One labelled position: its features, the engine's static score (side to move) and result.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub features: Features,
    pub score: f64,
    pub outcome: Outcome,
}

impl Row {
    /// The result as a number for the side to move (1, ½, 0).
    pub fn result(&self) -> f64 {
        match self.outcome {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }
}

/// Reads and evaluates the labelled lines of `input` (at most `limit`, 0: all).
pub fn read(input: impl BufRead, threads: usize, limit: usize) -> std::io::Result<Vec<Row>> {
    let mut lines = Vec::new();
    for line in input.lines() {
        match line {
            Ok(l) => lines.push(l),
            // A line that is not UTF-8 cannot hold a position.
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {}
            Err(e) => return Err(e),
        }
        if limit > 0 && lines.len() >= limit {
            break;
        }
    }
    let chunk = lines.len().div_ceil(threads.clamp(1, 64)).max(1);
    let rows = std::thread::scope(|scope| {
        let handles: Vec<_> = lines
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut ev = Evaluator::new();
                    part.iter()
                        .filter_map(|line| {
                            let (pos, white) = crate::tune::data::parse_line(line)?;
                            let white_to_move = pos.side_to_move() == squall::types::Colour::White;
                            let r = if white_to_move { white } else { 1.0 - white };
                            let outcome = if r > 0.75 {
                                Outcome::Win
                            } else if r < 0.25 {
                                Outcome::Loss
                            } else {
                                Outcome::Draw
                            };
                            Some(Row {
                                features: Features::of(&pos),
                                score: ev.evaluate_full(&pos) as f64,
                                outcome,
                            })
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    Ok(rows)
}

/// Solves `a·x = b` by Gaussian elimination with partial pivoting; `None` when singular.
// Index loops read like the textbook algorithm here; iterators over two rows at once do not.
#[allow(clippy::needless_range_loop)]
fn solve<const N: usize>(mut a: [[f64; N]; N], mut b: [f64; N]) -> Option<[f64; N]> {
    for col in 0..N {
        let pivot = (col..N).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..N {
            let f = a[row][col] / a[col][col];
            for k in col..N {
                a[row][k] -= f * a[col][k];
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0.0; N];
    for row in (0..N).rev() {
        let s: f64 = (row + 1..N).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

/// Mean binary cross-entropy of `σ(β·x)` against (possibly soft) labels `y`.
pub fn logistic_loss<const N: usize>(data: &[([f64; N], f64)], beta: &[f64; N]) -> f64 {
    let sum: f64 = data
        .iter()
        .map(|(x, y)| {
            let p = sigmoid(x.iter().zip(beta).map(|(a, b)| a * b).sum());
            let p = p.clamp(1e-12, 1.0 - 1e-12);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    sum / data.len().max(1) as f64
}

/// Logistic regression by Newton's method (labels may be soft); `progress` sees each pass's
/// loss. A tiny ridge keeps the Hessian invertible when a feature never varies.
#[allow(clippy::needless_range_loop)]
pub fn logistic<const N: usize>(
    data: &[([f64; N], f64)],
    mut beta: [f64; N],
    mut progress: impl FnMut(usize, f64),
) -> [f64; N] {
    let ridge = 1e-9 * data.len().max(1) as f64;
    for pass in 1..=50 {
        let mut g = [0.0; N];
        let mut h = [[0.0; N]; N];
        for (x, y) in data {
            let p = sigmoid(x.iter().zip(&beta).map(|(a, b)| a * b).sum());
            let w = p * (1.0 - p);
            for i in 0..N {
                g[i] += (p - y) * x[i];
                for j in 0..=i {
                    h[i][j] += w * x[i] * x[j];
                }
            }
        }
        for i in 0..N {
            h[i][i] += ridge;
            for j in 0..i {
                h[j][i] = h[i][j];
            }
        }
        let Some(step) = solve(h, g) else { break };
        // Newton's step can overshoot from a poor start: halve it until the loss falls.
        let before = logistic_loss(data, &beta);
        let mut t = 1.0;
        let mut next = beta;
        let mut after = f64::INFINITY;
        while t > 1e-4 {
            for i in 0..N {
                next[i] = beta[i] - t * step[i];
            }
            after = logistic_loss(data, &next);
            if after <= before {
                break;
            }
            t /= 2.0;
        }
        if after > before {
            break;
        }
        beta = next;
        progress(pass, after);
        if before - after < 1e-12 {
            break;
        }
    }
    beta
}

/// Fits both scores of the model on `rows`.
pub fn fit(rows: &[Row], mut progress: impl FnMut(&str, usize, f64)) -> Model {
    let draws: Vec<([f64; DRAW_FEATURES], f64)> = rows
        .iter()
        .map(|r| {
            let y = (r.outcome == Outcome::Draw) as u8 as f64;
            (r.features.draw_inputs(r.score), y)
        })
        .collect();
    let draw = logistic(&draws, [0.0; DRAW_FEATURES], |i, l| progress("draw", i, l));
    // Wp = σ(C·wilo): the regression's inputs carry C so that its weights are wilo's.
    let decisive: Vec<([f64; WILO_FEATURES], f64)> = rows
        .iter()
        .filter(|r| r.outcome != Outcome::Draw)
        .map(|r| {
            let x = r.features.wilo_inputs(r.score).map(|v| C * v);
            (x, (r.outcome == Outcome::Win) as u8 as f64)
        })
        .collect();
    let wilo = logistic(&decisive, [1.0, 0.0], |i, l| progress("wilo", i, l));
    Model { wilo, draw }
}

/// Mean 3-class log-loss of `chances` (win, draw, loss for the side to move) over `rows`.
pub fn log_loss(rows: &[Row], chances: impl Fn(&Row) -> (f64, f64, f64)) -> f64 {
    let sum: f64 = rows
        .iter()
        .map(|r| {
            let (w, d, l) = chances(r);
            let p = match r.outcome {
                Outcome::Win => w,
                Outcome::Draw => d,
                Outcome::Loss => l,
            };
            -p.max(1e-12).ln()
        })
        .sum();
    sum / rows.len().max(1) as f64
}

/// Mean binary cross-entropy of an expected result against the result (½ for a draw).
pub fn expected_loss(rows: &[Row], expected: impl Fn(&Row) -> f64) -> f64 {
    let sum: f64 = rows
        .iter()
        .map(|r| {
            let p = expected(r).clamp(1e-12, 1.0 - 1e-12);
            let y = r.result();
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    sum / rows.len().max(1) as f64
}

/// The model as the Rust source of `src/wdl/weights.rs`.
pub fn to_source(m: &Model, note: &str) -> String {
    let list = |names: &[&str], v: &[f64]| -> String {
        names
            .iter()
            .zip(v)
            .map(|(n, x)| format!("        {x:?}, // {n}\n"))
            .collect()
    };
    format!(
        "//! The built-in WDL model, written by `squall wdl-fit` ({note}).\n\
         //! Regenerate it rather than editing it by hand.\n\n\
         use super::Model;\n\n\
         #[rustfmt::skip]\n\
         pub const MODEL: Model = Model {{\n    wilo: [\n{}    ],\n    draw: [\n{}    ],\n}};\n",
        list(&WILO_NAMES, &m.wilo),
        list(&DRAW_NAMES, &m.draw)
    )
}

/// Runs `squall wdl-fit`.
pub fn run(args: &WdlFitArgs) -> ExitCode {
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let every = args.validation_every.max(2);
    let start = Instant::now();
    let mut rows = Vec::new();
    for path in &args.data {
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("error: cannot open {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        };
        match read(BufReader::new(file), threads, args.limit) {
            Ok(r) => {
                println!("{}: {} positions", path.display(), r.len());
                rows.extend(r);
            }
            Err(e) => {
                eprintln!("error: reading {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
    }
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for (i, r) in rows.into_iter().enumerate() {
        if i % every == every - 1 {
            valid.push(r);
        } else {
            train.push(r);
        }
    }
    if train.is_empty() || valid.is_empty() {
        eprintln!("error: too few labelled positions to fit and validate");
        return ExitCode::FAILURE;
    }
    let count = |rows: &[Row], o: Outcome| rows.iter().filter(|r| r.outcome == o).count();
    println!(
        "train {} (W {} D {} L {}), validation {} (W {} D {} L {}), read in {:.1}s",
        train.len(),
        count(&train, Outcome::Win),
        count(&train, Outcome::Draw),
        count(&train, Outcome::Loss),
        valid.len(),
        count(&valid, Outcome::Win),
        count(&valid, Outcome::Draw),
        count(&valid, Outcome::Loss),
        start.elapsed().as_secs_f64()
    );
    let model = fit(&train, |which, pass, loss| {
        println!("  {which} pass {pass}: train loss {loss:.6}")
    });
    println!("wilo weights (pawns of wilo per pawn of score):");
    for (n, v) in WILO_NAMES.iter().zip(&model.wilo) {
        println!("  {n:>18} {v:+.6}");
    }
    println!("draw weights (logit of the draw chance):");
    for (n, v) in DRAW_NAMES.iter().zip(&model.draw) {
        println!("  {n:>18} {v:+.6}");
    }
    report(&model, &train, &valid);
    if let Some(out) = &args.out {
        let note = format!(
            "{} training positions of {}",
            train.len(),
            args.data
                .iter()
                .filter_map(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        );
        let text = to_source(&model, &note);
        if let Err(e) = squall::atomic_file::write(out, text.as_bytes()) {
            eprintln!("error: writing {}: {e}", out.display());
            return ExitCode::FAILURE;
        }
        println!("wrote {}", out.display());
    }
    ExitCode::SUCCESS
}

/// The fixed curve `UCI_ShowWDL` used before the model (a baseline): the win chance per mille
/// is `1 / (1 + exp((200 − score) / 80))`, the loss chance the same for `−score`, and the
/// draw chance the rest.
pub fn old_curve(score: i32) -> (u32, u32, u32) {
    let p = |s: f64| 1.0 / (1.0 + ((200.0 - s) / 80.0).exp());
    let w = (p(score as f64) * 1000.0).round() as u32;
    let l = (p(-(score as f64)) * 1000.0).round() as u32;
    (w, 1000u32.saturating_sub(w + l), l)
}

/// Prints the log-loss table: the model against the baselines, on the validation positions.
fn report(model: &Model, train: &[Row], valid: &[Row]) {
    let draw_rate =
        train.iter().filter(|r| r.outcome == Outcome::Draw).count() as f64 / train.len() as f64;
    // Constant draw rate: K from the decisive games (its maximum-likelihood value in the
    // 3-class model); plain logistic: K that fits the expected result best.
    let decisive: Vec<([f64; 1], f64)> = train
        .iter()
        .filter(|r| r.outcome != Outcome::Draw)
        .map(|r| ([r.score / 100.0], (r.outcome == Outcome::Win) as u8 as f64))
        .collect();
    let k3 = logistic(&decisive, [1.0], |_, _| {})[0];
    let soft: Vec<([f64; 1], f64)> = train
        .iter()
        .map(|r| ([r.score / 100.0], r.result()))
        .collect();
    let k2 = logistic(&soft, [1.0], |_, _| {})[0];
    let old = |r: &Row| {
        // The old curve reports per mille; a 0 there is a probability under 0.0005.
        let (w, d, l) = old_curve(r.score.round() as i32);
        let p = |x: u32| (x as f64).max(0.5) / 1000.0;
        (p(w), p(d), p(l))
    };
    let constant = |r: &Row| {
        let wp = sigmoid(k3 * r.score / 100.0);
        (
            (1.0 - draw_rate) * wp,
            draw_rate,
            (1.0 - draw_rate) * (1.0 - wp),
        )
    };
    let fitted = |r: &Row| {
        let x = model.wdl(&r.features, r.score);
        (x.win, x.draw, x.loss)
    };
    println!(
        "3-class log-loss (nats per position; train / validation, {} / {} positions):",
        train.len(),
        valid.len()
    );
    let row = |name: &str, f: &dyn Fn(&Row) -> (f64, f64, f64)| {
        println!(
            "  {name:<44} {:.5} / {:.5}",
            log_loss(train, f),
            log_loss(valid, f)
        )
    };
    row("uniform (1/3 each)", &|_| (1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0));
    row("old uci::wdl curve (200 cp midpoint, 80 cp)", &old);
    row(
        &format!("constant draw {draw_rate:.4}, Wp = σ({k3:.4}·pawns)"),
        &constant,
    );
    row("WDL model", &fitted);
    println!("expected-result cross-entropy (train / validation):");
    let erow = |name: &str, f: &dyn Fn(&Row) -> f64| {
        println!(
            "  {name:<44} {:.5} / {:.5}",
            expected_loss(train, f),
            expected_loss(valid, f)
        )
    };
    erow(&format!("plain logistic σ({k2:.4}·pawns)"), &|r| {
        sigmoid(k2 * r.score / 100.0)
    });
    erow("WDL model P = D/2 + Wp − Wp·D", &|r| {
        model.wdl(&r.features, r.score).expected()
    });
    println!(
        "  (plain logistic K per pawn {k2:.4} = {:.4}·C; model wilo per pawn at phase 1 / 0: {:.4} / {:.4})",
        k2 / C,
        model.wilo[0] + model.wilo[1],
        model.wilo[0]
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn uniform(rng: &mut Xoshiro256PlusPlus) -> f64 {
        (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    #[test]
    fn fitting_recovers_a_known_model() {
        let truth = Model {
            wilo: [0.8, 0.4],
            draw: [0.5, 0.6, 0.4, -0.5, -0.6, 0.6, -0.8, 0.5],
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let rows: Vec<Row> = (0..60_000)
            .map(|_| {
                let features = Features {
                    phase: uniform(&mut rng),
                    pawns: uniform(&mut rng),
                    opposite_bishops: (uniform(&mut rng) < 0.2) as u8 as f64,
                    pawn_asymmetry: uniform(&mut rng),
                };
                let score = (uniform(&mut rng) - 0.5) * 1200.0;
                let x = truth.wdl(&features, score);
                let u = uniform(&mut rng);
                let outcome = if u < x.win {
                    Outcome::Win
                } else if u < x.win + x.draw {
                    Outcome::Draw
                } else {
                    Outcome::Loss
                };
                Row {
                    features,
                    score,
                    outcome,
                }
            })
            .collect();
        let m = fit(&rows, |_, _, _| {});
        for (got, want) in m.wilo.iter().zip(&truth.wilo) {
            assert!((got - want).abs() < 0.1, "wilo {:?}", m.wilo);
        }
        for (got, want) in m.draw.iter().zip(&truth.draw) {
            assert!((got - want).abs() < 0.25, "draw {:?}", m.draw);
        }
        // The fitted model explains the data at least as well as the truth does.
        let ll = |m: &Model| {
            log_loss(&rows, |r| {
                let x = m.wdl(&r.features, r.score);
                (x.win, x.draw, x.loss)
            })
        };
        assert!(ll(&m) <= ll(&truth) + 1e-9);
    }

    #[test]
    fn solve_handles_pivoting() {
        let x = solve([[0.0, 2.0], [3.0, 1.0]], [4.0, 5.0]).unwrap();
        assert!((x[0] - 1.0).abs() < 1e-12 && (x[1] - 2.0).abs() < 1e-12);
        assert!(solve([[1.0, 2.0], [2.0, 4.0]], [1.0, 2.0]).is_none());
    }

    #[test]
    fn reads_labelled_lines_from_the_side_to_move() {
        let text = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 \"1-0\";\n\
                    not a position\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1/2-1/2\";\n";
        let rows = read(text.as_bytes(), 2, 0).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].outcome, Outcome::Loss);
        assert_eq!(rows[1].outcome, Outcome::Draw);
    }
}
