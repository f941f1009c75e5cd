//! `squall imbalance`: material imbalances measured by self-play games, as the engine iCE did.
//!
//! For each class (queen against three minors with both rook pairs, one and none; rook against
//! two minors; rook and pawn against two minors; the exchange; the bishop pair; and an extra
//! pawn, the unit) start positions are built by taking pieces off the end positions of the
//! 8-move openings (`starts`), each played twice with the measured side once White and once
//! Black, both sides searching a fixed number of nodes per move on one thread with datagen's
//! game loop and adjudication (`datagen::play_game`). Each class's score is turned into pawns
//! by iCE's method, the extra pawn's score in the same run as the unit (`stats`), and printed
//! beside iCE's published figures and beside what Squall's static evaluation says the same
//! change is worth.
//!
//! Reproducible: the starts depend on the seed only, a node-limited one-thread search is
//! deterministic, and results are collected by game index, so the report does not depend on
//! the thread count.

pub mod starts;
pub mod stats;

use std::convert::Infallible;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::datagen::{play_game, play_on_threads, read_openings, DEFAULT_OPENINGS};
use squall::board::Position;
use squall::eval::Evaluator;
use squall::pgn::GameResult;
use squall::types::Colour;
use starts::{measured_side, opening_order, start_pairs, Class, StartPair};
use stats::{elo, pawn_units, pawn_units_error, Tally};

/// How often the progress line is printed.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);
/// The most threads, games per class, and hash per game accepted.
const MAX_THREADS: usize = 256;
const MAX_GAMES_PER_CLASS: usize = 1_000_000;
const MAX_HASH_MB: usize = 4096;

/// Arguments of `squall imbalance`.
#[derive(clap::Args, Clone, Debug)]
pub struct ImbalanceArgs {
    /// Games per class; rounded up to an even number (each opening is played with both
    /// colours).
    #[arg(long, default_value_t = 1000)]
    pub games_per_class: usize,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Games played at once, one per thread (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed of the opening order and of which pieces are taken off.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Opening lines (PGN); starts are built from their end positions.
    #[arg(long, default_value = DEFAULT_OPENINGS)]
    pub openings: PathBuf,
    /// Classes to play, comma-separated (default: all). The extra pawn, the unit, is always
    /// played.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub classes: Vec<Class>,
    /// Hash table per game, MB.
    #[arg(long, default_value_t = 8)]
    pub hash: usize,
}

/// One class's games: its class and its tally once played.
#[derive(Clone, Debug)]
pub struct Row {
    pub class: Class,
    pub pairs_wanted: usize,
    pub tally: Tally,
    /// What the static evaluation says the imbalance is worth: the mean over the starts of
    /// the start's full evaluation less its opening's, both from the measured side's view,
    /// centipawns. Beside the measured value it shows how far the evaluation is off.
    pub eval_cp: Option<f64>,
}

/// One game of the schedule: row, start pair and which of its two starts.
#[derive(Clone, Copy)]
struct Job {
    row: usize,
    pair: usize,
    start: usize,
}

/// A usage error (exit code 2) or a failure while running (exit code 1).
enum Failure {
    Usage(String),
    Run(String),
}

/// `squall imbalance`.
pub fn run(args: &ImbalanceArgs) -> ExitCode {
    match measure(args, |line| eprintln!("{line}")) {
        Ok(rows) => {
            for line in format_report(&rows, args) {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Err(Failure::Usage(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
        Err(Failure::Run(e)) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The classes to play, in the report's order, the unit always among them.
fn chosen_classes(asked: &[Class]) -> Vec<Class> {
    Class::ALL
        .iter()
        .copied()
        .filter(|c| asked.is_empty() || asked.contains(c) || *c == Class::Pawn)
        .collect()
}

fn check_args(args: &ImbalanceArgs) -> Result<usize, Failure> {
    if !(1..=MAX_GAMES_PER_CLASS).contains(&args.games_per_class) {
        return Err(Failure::Usage(format!(
            "--games-per-class must be 1 to {MAX_GAMES_PER_CLASS}"
        )));
    }
    if args.nodes == 0 {
        return Err(Failure::Usage("--nodes must be at least 1".into()));
    }
    if !(1..=MAX_HASH_MB).contains(&args.hash) {
        return Err(Failure::Usage(format!("--hash must be 1 to {MAX_HASH_MB}")));
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(Failure::Usage(format!(
            "--threads must be 1 to {MAX_THREADS}"
        )));
    }
    Ok(threads)
}

/// The points of the measured side of start `start` for `result`.
fn points(result: GameResult, start: usize) -> f64 {
    let white = match result {
        GameResult::WhiteWins => 1.0,
        GameResult::BlackWins => 0.0,
        GameResult::Draw | GameResult::Unknown => 0.5,
    };
    if measured_side(start) == Colour::White {
        white
    } else {
        1.0 - white
    }
}

/// Builds the starts and plays every game; `progress` gets the progress lines.
fn measure(args: &ImbalanceArgs, mut progress: impl FnMut(&str)) -> Result<Vec<Row>, Failure> {
    let threads = check_args(args)?;
    let classes = chosen_classes(&args.classes);
    if !args.classes.is_empty() && !args.classes.contains(&Class::Pawn) {
        progress("the extra pawn is played too: it is the unit of the values");
    }
    let openings = read_openings(&args.openings).map_err(Failure::Run)?;
    let order = opening_order(openings.len(), args.seed);
    let pairs_wanted = args.games_per_class.div_ceil(2);
    let mut rows = Vec::new();
    let mut pairs: Vec<Vec<StartPair>> = Vec::new();
    for &class in &classes {
        let found = start_pairs(&openings, &order, class, args.seed, pairs_wanted);
        if found.len() < pairs_wanted {
            progress(&format!(
                "{}: only {} of {} openings give a fair start; playing {} games",
                class.name(),
                found.len(),
                openings.len(),
                2 * found.len()
            ));
        }
        rows.push(Row {
            class,
            pairs_wanted,
            tally: Tally::default(),
            eval_cp: static_worth(&openings, &found),
        });
        pairs.push(found);
    }
    // Classes interleaved, so the progress line shows every class from the start.
    let most = pairs.iter().map(Vec::len).max().unwrap_or(0);
    let mut jobs = Vec::new();
    for pair in 0..most {
        for (row, found) in pairs.iter().enumerate() {
            if pair < found.len() {
                jobs.extend((0..2).map(|start| Job { row, pair, start }));
            }
        }
    }
    let results = play_all(args, threads, &pairs, &jobs, &mut rows, &mut progress);
    // Pair means, in pair order, for the error bars.
    let mut per_pair: Vec<Vec<[Option<f64>; 2]>> = pairs
        .iter()
        .map(|found| vec![[None; 2]; found.len()])
        .collect();
    for (job, &points) in jobs.iter().zip(&results) {
        per_pair[job.row][job.pair][job.start] = points;
    }
    for (row, games) in rows.iter_mut().zip(&per_pair) {
        row.tally.pair_scores = games
            .iter()
            .filter_map(|g| Some((g[0]? + g[1]?) / 2.0))
            .collect();
    }
    Ok(rows)
}

/// The mean static worth of the imbalance over `pairs` (see [`Row::eval_cp`]); `None`
/// without starts.
fn static_worth(openings: &[Position], pairs: &[StartPair]) -> Option<f64> {
    let mut evaluator = Evaluator::new();
    let mut view = |pos: &Position, measured: Colour| {
        let v = f64::from(evaluator.evaluate_full(pos));
        if pos.side_to_move() == measured {
            v
        } else {
            -v
        }
    };
    let mut sum = 0.0;
    let mut n = 0usize;
    for pair in pairs {
        let opening = openings.get(pair.opening)?;
        for (i, start) in pair.starts.iter().enumerate() {
            let measured = measured_side(i);
            sum += view(start, measured) - view(opening, measured);
            n += 1;
        }
    }
    (n > 0).then(|| sum / n as f64)
}

/// Plays `jobs` on `threads` threads; returns each job's points for the measured side and
/// counts them into `rows` as they come.
fn play_all(
    args: &ImbalanceArgs,
    threads: usize,
    pairs: &[Vec<StartPair>],
    jobs: &[Job],
    rows: &mut [Row],
    progress: &mut impl FnMut(&str),
) -> Vec<Option<f64>> {
    let started = Instant::now();
    let mut results = vec![None; jobs.len()];
    let mut last_print = Instant::now();
    let mut done = 0usize;
    let finished: Result<(), Infallible> = play_on_threads(
        threads,
        args.hash,
        0..jobs.len(),
        |engine, i| {
            let job = jobs[i];
            let start = pairs[job.row][job.pair].starts[job.start].clone();
            let result = play_game(engine, start, args.nodes, |_, _, _| {});
            (i, points(result, job.start))
        },
        |(i, p)| {
            results[i] = Some(p);
            rows[jobs[i].row].tally.add(p);
            done += 1;
            if last_print.elapsed() >= PROGRESS_EVERY {
                last_print = Instant::now();
                progress(&progress_line(rows, done, jobs.len(), started));
            }
            Ok(())
        },
    );
    let Ok(()) = finished;
    let secs = started.elapsed().as_secs_f64();
    progress(&format!(
        "{} games in {secs:.1} s on {threads} threads ({:.2} s per game per thread)",
        jobs.len(),
        secs * threads.min(jobs.len()).max(1) as f64 / jobs.len().max(1) as f64
    ));
    results
}

fn progress_line(rows: &[Row], done: usize, total: usize, started: Instant) -> String {
    let mut line = format!(
        "games {done} of {total}, {:.0} s:",
        started.elapsed().as_secs_f64()
    );
    for row in rows {
        if let Some(s) = row.tally.score() {
            line.push_str(&format!(
                " {} {:.1}% ({})",
                row.class.name(),
                100.0 * s,
                row.tally.games()
            ));
        }
    }
    line
}

/// A number with a sign, or a dash where there is none.
fn signed(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{v:+.decimals$}"))
}

/// The report: settings, one line per class, and how the values were computed.
pub fn format_report(rows: &[Row], args: &ImbalanceArgs) -> Vec<String> {
    let unit = rows.iter().find(|r| r.class == Class::Pawn);
    let pawn = unit.and_then(|r| r.tally.score());
    let pawn_error = unit.and_then(|r| r.tally.score_error());
    let mut out = vec![
        format!(
            "imbalance by self-play: {} nodes per move, seed {}, openings {}",
            args.nodes,
            args.seed,
            args.openings.display()
        ),
        String::new(),
        format!(
            "{:<30} {:>6} {:>6} {:>6} {:>6} {:>7} {:>6} {:>8} {:>6} {:>6} {:>7}",
            "class (measured side's view)",
            "games",
            "+W",
            "=D",
            "-L",
            "score",
            "Elo",
            "value cp",
            "± cp",
            "iCE cp",
            "eval cp"
        ),
    ];
    for row in rows {
        let t = &row.tally;
        let score = t.score();
        let value = score.zip(pawn).and_then(|(s, p)| pawn_units(s, p));
        let error = match (score, t.score_error(), pawn, pawn_error) {
            // The unit is one pawn by definition; its own error is in every other row.
            _ if row.class == Class::Pawn => None,
            (Some(s), Some(se), Some(p), Some(pe)) => pawn_units_error(s, se, p, pe),
            _ => None,
        };
        out.push(format!(
            "{:<30} {:>6} {:>6} {:>6} {:>6} {:>7} {:>6} {:>8} {:>6} {:>6} {:>7}",
            row.class.label(),
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            score.map_or_else(|| "-".to_string(), |s| format!("{:.1}%", 100.0 * s)),
            signed(score.and_then(elo), 0),
            signed(value.map(|v| 100.0 * v), 0),
            error.map_or_else(|| "-".to_string(), |e| format!("{:.0}", 100.0 * e)),
            signed(row.class.ice_pawns().map(|v| 100.0 * v), 0),
            signed(row.eval_cp, 0),
        ));
        if t.games() < 2 * row.pairs_wanted {
            out.push(format!(
                "  ({} games asked; too few openings gave a fair start)",
                2 * row.pairs_wanted
            ));
        }
    }
    out.push(String::new());
    out.push("value = 100 logit(class score) / logit(extra-pawn score) (iCE's method);".into());
    out.push(
        "± = one standard error: the spread of the two-game pair means, carried by the delta \
         method"
            .into(),
    );
    out.push(
        "eval = Squall's static evaluation of the starts less that of their openings, mean".into(),
    );
    out
}
