//! `squall smp-test`: time to depth of the parallel search against one thread.
//!
//! The first 32 bench positions (openings, middlegames and tactics; the endgames are left out
//! because they are too small to share between threads) are searched to a fixed depth on one
//! thread and on N threads, as many times each as `--repeat` asks, interleaved, each search
//! with a cleared hash table and history; each N-thread time is compared with the geometric
//! mean of the position's one-thread times. One
//! engine is kept per thread count, so helper threads are started once and parked between
//! searches. The figures are the wall time around `Engine::search`, the node counts and the
//! parallel-search counters (`SmpStats`) of every search; the summary gives the geometric mean
//! of the time-to-depth speedups, the node overhead of N threads and the summed counters.

use std::time::Instant;

use squall::bench::{self, add_stats};
use squall::board::Position;
use squall::moves::Move;
use squall::search::params::MAX_DEPTH;
use squall::search::{Bound, Control, Engine, Limits, Report, SmpStats};
use squall::suite::Selection;

/// Default hash size for both engines (MB).
pub const SMP_TEST_HASH_MB: usize = 64;
/// Default thread count compared with one thread.
pub const SMP_TEST_THREADS: usize = 2;
/// Most N-thread searches per position (`--repeat`).
pub const SMP_TEST_MAX_REPEAT: usize = 100;
/// How many of the bench positions the test uses (all before the endgames).
pub const SMP_TEST_POSITIONS: usize = 32;

/// The positions of the test: the opening, middlegame and tactical bench positions.
pub fn positions() -> &'static [&'static str] {
    &bench::POSITIONS[..SMP_TEST_POSITIONS]
}

/// The positions a selection picks, with their 1-based indexes.
pub fn selected_positions(selection: &Selection) -> Vec<(usize, &'static str)> {
    positions()
        .iter()
        .enumerate()
        .map(|(i, &fen)| (i + 1, fen))
        .filter(|&(n, _)| selection.selects(n, ""))
        .collect()
}

/// Default for calibrated depths: each position is searched to the first depth that one
/// thread completes after this many seconds.
pub const SMP_TEST_SECONDS: f64 = 2.0;

/// How deep each position is searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DepthRule {
    /// The same depth for every position.
    Fixed(i32),
    /// Per position, the first depth one thread completes after this many seconds (so that
    /// every position takes one thread a few seconds, whatever its branching factor).
    Calibrated(f64),
}

/// What `squall smp-test` was asked to do.
#[derive(Clone, Debug)]
pub struct Config {
    pub depth: DepthRule,
    /// Threads of the parallel run (the reference run always has one).
    pub threads: usize,
    pub hash_mb: usize,
    /// Which positions (1-based indexes; empty: all).
    pub selection: Selection,
    /// All threads share the main thread's history (instead of each helper keeping its own).
    pub shared_history: bool,
    /// N-thread searches per position, each a row compared with the same one-thread search.
    pub repeat: usize,
    /// An A/B run: the N-thread searches alternate between the defaults (A) and these
    /// settings (B); empty for a plain run.
    pub ab: Vec<Setting>,
}

/// A setting of the B arm of an A/B run.
#[derive(Clone, Copy)]
pub enum Setting {
    /// Helpers share the main thread's history (true) or keep their own.
    SharedHistory(bool),
    /// A search tunable (option units, as UCI shows them); only in a `tune` build.
    #[cfg(feature = "tune")]
    Tunable(&'static dyn squall::search::tune::Tunable, i64),
}

/// As the command line writes it, `NAME=VALUE`.
impl std::fmt::Display for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Setting::SharedHistory(on) => write!(f, "shared-history={}", u8::from(*on)),
            #[cfg(feature = "tune")]
            Setting::Tunable(t, v) => write!(f, "{}={v}", t.name()),
        }
    }
}

/// The tunable's reference has no `Debug`; its name and value are all there is to show.
impl std::fmt::Debug for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

impl Setting {
    /// Parses `NAME=VALUE`: `shared-history=0|1`, or (in a `tune` build) a search tunable
    /// within its range.
    pub fn parse(text: &str) -> Result<Setting, String> {
        let (name, value) = text
            .split_once('=')
            .ok_or_else(|| format!("{text:?}: expected NAME=VALUE"))?;
        let value: i64 = value
            .trim()
            .parse()
            .map_err(|_| format!("{text:?}: the value is not an integer"))?;
        let name = name.trim();
        if name == "shared-history" {
            return match value {
                0 | 1 => Ok(Setting::SharedHistory(value == 1)),
                _ => Err(format!("{text:?}: shared-history is 0 or 1")),
            };
        }
        Self::tunable(name, value)
    }

    #[cfg(feature = "tune")]
    fn tunable(name: &str, value: i64) -> Result<Setting, String> {
        let t = squall::search::params::find(name)
            .ok_or_else(|| format!("{name}: no such search tunable"))?;
        if !(t.min()..=t.max()).contains(&value) {
            return Err(format!(
                "{name}: {value} is outside {}..{}",
                t.min(),
                t.max()
            ));
        }
        Ok(Setting::Tunable(t, value))
    }

    #[cfg(not(feature = "tune"))]
    fn tunable(name: &str, _value: i64) -> Result<Setting, String> {
        Err(format!(
            "{name}: not a setting of this build (search tunables need \
             `cargo build --release -p squall-lab --features tune`)"
        ))
    }

    /// Puts this setting on `engine` (and the process's tunables); returns the setting that
    /// undoes it.
    fn apply(self, engine: &mut Engine) -> Setting {
        match self {
            Setting::SharedHistory(on) => {
                let old = engine.options.share_history;
                engine.options.share_history = on;
                Setting::SharedHistory(old)
            }
            #[cfg(feature = "tune")]
            Setting::Tunable(t, v) => {
                let old = t.raw();
                t.set_raw(v);
                Setting::Tunable(t, old)
            }
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            depth: DepthRule::Calibrated(SMP_TEST_SECONDS),
            threads: SMP_TEST_THREADS,
            hash_mb: SMP_TEST_HASH_MB,
            selection: Selection::default(),
            shared_history: false,
            repeat: 1,
            ab: Vec::new(),
        }
    }
}

/// One search of one position.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Time from the start of `Engine::search` to the report of the target depth, seconds.
    pub seconds: f64,
    /// The depth completed.
    pub depth: i32,
    pub nodes: u64,
    pub best: Move,
    pub score: i32,
    pub stats: SmpStats,
}

/// One position searched on one thread and on N threads.
#[derive(Clone, Debug)]
pub struct Row {
    /// 1-based index into `positions()`.
    pub index: usize,
    pub fen: &'static str,
    /// The first (calibrating) one-thread search.
    pub one: Sample,
    pub many: Sample,
    /// The one-thread time the row is compared with: the geometric mean of the position's
    /// one-thread searches (one per run, to the same depth), seconds.
    pub reference: f64,
    /// In an A/B run, whether this N-thread search had the B settings.
    pub b: bool,
}

impl Row {
    /// Time to depth on one thread over time to depth on N threads.
    pub fn speedup(&self) -> f64 {
        self.reference.max(1e-6) / self.many.seconds.max(1e-6)
    }
}

/// The whole run.
#[derive(Clone, Debug)]
pub struct Summary {
    pub threads: usize,
    pub depth: DepthRule,
    /// N-thread searches per position: each position has this many rows.
    pub repeat: usize,
    pub rows: Vec<Row>,
}

/// An A/B run: the same positions and one-thread searches, N-thread searches alternating
/// between the arms (A first in odd runs, B first in even ones, so neither always runs on a
/// warmer machine).
#[derive(Clone, Debug)]
pub struct AbSummary {
    pub a: Summary,
    pub b: Summary,
    pub settings: Vec<Setting>,
}

impl AbSummary {
    /// Per (position, run), ln(time A / time B) over the counted rows: positive where B
    /// was faster.
    pub fn log_ratios(&self) -> Vec<f64> {
        self.a
            .rows
            .iter()
            .zip(&self.b.rows)
            .filter(|(ra, _)| self.a.counts(ra))
            .map(|(ra, rb)| (ra.many.seconds.max(1e-6) / rb.many.seconds.max(1e-6)).ln())
            .collect()
    }

    /// B's time-to-depth speedup over A (geometric mean of the paired ratios) with its 95 %
    /// interval (normal approximation on the logs).
    pub fn paired(&self) -> (f64, f64, f64) {
        let d = self.log_ratios();
        let n = d.len().max(1) as f64;
        let mean = d.iter().sum::<f64>() / n;
        let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        let half = 1.96 * (var / n).sqrt();
        (mean.exp(), (mean - half).exp(), (mean + half).exp())
    }
}

impl Summary {
    /// Does this row measure a search of the intended length? With calibrated depths, a
    /// position whose one-thread search ends (every depth done, e.g. a forced mate) before
    /// the calibration time does not: no depth makes it take seconds, and its time measures
    /// little but starting the helpers. Such rows are shown but left out of the figures.
    pub fn counts(&self, r: &Row) -> bool {
        match self.depth {
            DepthRule::Fixed(_) => true,
            DepthRule::Calibrated(secs) => r.one.seconds >= secs,
        }
    }

    /// The rows the figures are taken over.
    pub fn counted(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|r| self.counts(r))
    }

    /// Geometric mean of the per-position speedups over the counted rows (1.0 with none).
    pub fn geomean_speedup(&self) -> f64 {
        geomean(self.counted())
    }

    /// The same over every row, the ones left out included.
    pub fn geomean_speedup_all(&self) -> f64 {
        geomean(self.rows.iter())
    }

    /// Total time on one thread over total time on N threads (counted rows).
    pub fn total_speedup(&self) -> f64 {
        self.seconds_one().max(1e-6) / self.seconds_many().max(1e-6)
    }

    pub fn seconds_one(&self) -> f64 {
        self.counted().map(|r| r.reference).sum()
    }

    pub fn seconds_many(&self) -> f64 {
        self.counted().map(|r| r.many.seconds).sum()
    }

    pub fn nodes_one(&self) -> u64 {
        self.counted().map(|r| r.one.nodes).sum()
    }

    pub fn nodes_many(&self) -> u64 {
        self.counted().map(|r| r.many.nodes).sum()
    }

    /// Extra nodes searched by N threads to reach the same depth, percent of one thread's.
    pub fn node_overhead_pct(&self) -> f64 {
        100.0 * (self.nodes_many() as f64 / self.nodes_one().max(1) as f64 - 1.0)
    }

    /// Nodes per second of N threads over those of one thread.
    pub fn nps_ratio(&self) -> f64 {
        let nps = |nodes: u64, secs: f64| nodes as f64 / secs.max(1e-6);
        nps(self.nodes_many(), self.seconds_many())
            / nps(self.nodes_one(), self.seconds_one()).max(1e-9)
    }

    /// Counted positions whose best move differs between the two runs.
    pub fn best_move_differences(&self) -> usize {
        self.counted().filter(|r| r.one.best != r.many.best).count()
    }

    /// Parallel-search counters summed over the counted N-thread searches.
    pub fn stats_many(&self) -> SmpStats {
        self.counted()
            .fold(SmpStats::default(), |a, r| add_stats(a, r.many.stats))
    }
}

/// Geometric mean of the speedups of some rows (1.0 with none).
fn geomean<'a>(rows: impl Iterator<Item = &'a Row>) -> f64 {
    let (n, logs) = rows.fold((0usize, 0.0f64), |(n, s), r| (n + 1, s + r.speedup().ln()));
    if n == 0 {
        1.0
    } else {
        (logs / n as f64).exp()
    }
}

/// Runs the test; `progress` gets a line before each search (meant for stderr), `row` every
/// finished position.
pub fn run(
    config: &Config,
    mut progress: impl FnMut(&str),
    mut row: impl FnMut(&Row),
) -> Result<Outcome, String> {
    let selected = selected_positions(&config.selection);
    if selected.is_empty() {
        return Err(format!(
            "no position selected (there are {SMP_TEST_POSITIONS})"
        ));
    }
    let threads = config.threads.max(1);
    let mut one = Engine::new(config.hash_mb);
    one.options.threads = 1;
    let mut many = Engine::new(config.hash_mb);
    many.options.threads = threads;
    many.options.share_history = config.shared_history;
    let repeat = config.repeat.max(1);
    let mut summary = Summary {
        threads,
        depth: config.depth,
        repeat,
        rows: Vec::new(),
    };
    let mut summary_b = summary.clone();
    let ab = !config.ab.is_empty();
    for (k, &(index, fen)) in selected.iter().enumerate() {
        let pos = Position::from_fen(fen).map_err(|e| format!("position {index}: {e}"))?;
        let step = format!("[{}/{}] position {index}", k + 1, selected.len());
        let a = match config.depth {
            DepthRule::Fixed(d) => {
                progress(&format!("{step}: 1 thread, depth {d}"));
                sample(&mut one, &pos, d, None)
            }
            DepthRule::Calibrated(secs) => {
                progress(&format!(
                    "{step}: 1 thread, until a depth ends after {secs} s"
                ));
                sample(&mut one, &pos, MAX_DEPTH, Some(secs))
            }
        };
        // The one-thread search is timed again before each N-thread run and the position's
        // reference is the geometric mean of those times: the same search (same nodes) takes
        // ±10 % from one run to the next on a shared machine, and a single timing would carry
        // that error into every row of the position.
        let mut one_logs = vec![a.seconds.max(1e-6).ln()];
        let mut rows = Vec::new();
        for run in 1..=repeat {
            if run > 1 {
                progress(&format!("{step}: 1 thread, depth {}, run {run}", a.depth));
                let again = sample(&mut one, &pos, a.depth, None);
                one_logs.push(again.seconds.max(1e-6).ln());
            }
            let arms: &[bool] = match (ab, run % 2 == 1) {
                (false, _) => &[false],
                (true, true) => &[false, true],
                (true, false) => &[true, false],
            };
            for &arm_b in arms {
                let arm = match (ab, arm_b) {
                    (false, _) => "",
                    (true, false) => " A",
                    (true, true) => " B",
                };
                progress(&format!(
                    "{step}: {threads} threads{arm}, depth {}, run {run}",
                    a.depth
                ));
                let undo: Vec<Setting> = if arm_b {
                    config.ab.iter().map(|s| s.apply(&mut many)).collect()
                } else {
                    Vec::new()
                };
                let b = sample(&mut many, &pos, a.depth, None);
                for s in undo.into_iter().rev() {
                    s.apply(&mut many);
                }
                rows.push(Row {
                    index,
                    fen,
                    one: a,
                    many: b,
                    reference: a.seconds,
                    b: arm_b,
                });
            }
        }
        let reference = (one_logs.iter().sum::<f64>() / one_logs.len() as f64).exp();
        for mut r in rows {
            r.reference = reference;
            row(&r);
            if r.b {
                summary_b.rows.push(r);
            } else {
                summary.rows.push(r);
            }
        }
    }
    Ok(if ab {
        Outcome::Ab(AbSummary {
            a: summary,
            b: summary_b,
            settings: config.ab.clone(),
        })
    } else {
        Outcome::Plain(summary)
    })
}

/// What `run` measured: a plain run, or an A/B run.
#[derive(Clone, Debug)]
pub enum Outcome {
    Plain(Summary),
    Ab(AbSummary),
}

/// One search from a cleared engine to `depth`, or (with `after`) to the first depth that
/// ends after that many seconds; timed from the start of `Engine::search` to the report of
/// the last completed depth.
fn sample(engine: &mut Engine, pos: &Position, depth: i32, after: Option<f64>) -> Sample {
    engine.clear();
    let control = Control::new(false);
    let limits = Limits::depth(depth);
    let start = Instant::now();
    let mut reached = (0, 0.0, 0);
    let r = engine.search(pos, &limits, &control, &mut |rep: &Report| {
        if let Report::Iteration(it) = rep {
            if it.multipv == 1 && it.bound == Bound::Exact && it.depth > reached.0 {
                let t = start.elapsed().as_secs_f64();
                reached = (it.depth, t, it.nodes);
                if after.is_some_and(|s| t >= s) {
                    control.stop();
                }
            }
        }
    });
    let (depth, seconds, nodes) = if reached.0 > 0 {
        reached
    } else {
        (r.depth, start.elapsed().as_secs_f64(), r.nodes)
    };
    Sample {
        seconds,
        depth,
        nodes,
        best: r.best,
        score: r.score,
        stats: engine.smp_stats(),
    }
}

/// The column heads of the table (`threads` of the parallel run).
pub fn header(threads: usize) -> String {
    let n = format!("{threads}T");
    format!(
        "{:>3}  {:>5}  {:>8}  {:>8}  {:>7}  {:>11}  {:>11}  {:>6}  {:>6}",
        "pos",
        "depth",
        "time 1T",
        format!("time {n}"),
        "speedup",
        "nodes 1T",
        format!("nodes {n}"),
        "best1",
        format!("best{threads}")
    )
}

/// One line of the table.
pub fn format_row(r: &Row) -> String {
    let mark = if r.one.best == r.many.best { "" } else { " *" };
    let arm = if r.b { " [B]" } else { "" };
    format!(
        "{:>3}  {:>5}  {:>8.3}  {:>8.3}  {:>7.2}  {:>11}  {:>11}  {:>6}  {:>6}{mark}{arm}",
        r.index,
        r.one.depth,
        r.reference,
        r.many.seconds,
        r.speedup(),
        r.one.nodes,
        r.many.nodes,
        r.one.best.to_string(),
        r.many.best.to_string()
    )
}

/// The summary lines under the table.
pub fn format_summary(s: &Summary) -> Vec<String> {
    let st = s.stats_many();
    let t = s.threads;
    let one = s.seconds_one();
    let many = s.seconds_many();
    let counted = s.counted().count();
    let mut left_out: Vec<String> = s
        .rows
        .iter()
        .filter(|r| !s.counts(r))
        .map(|r| {
            format!(
                "{} (depth {} in {:.3} s)",
                r.index, r.one.depth, r.one.seconds
            )
        })
        .collect();
    left_out.dedup();
    let r = s.repeat.max(1);
    let runs = if r > 1 {
        format!(" ({r} runs each: every figure is over all runs)")
    } else {
        String::new()
    };
    let mut lines = vec![format!(
        "{} positions, {}, 1 thread vs {t} threads{runs}",
        counted / r,
        match s.depth {
            DepthRule::Fixed(d) => format!("depth {d}"),
            DepthRule::Calibrated(secs) => format!(
                "each to the first depth one thread completes after {secs} s (depths {}..{})",
                s.counted().map(|r| r.one.depth).min().unwrap_or(0),
                s.counted().map(|r| r.one.depth).max().unwrap_or(0)
            ),
        }
    )];
    if !left_out.is_empty() {
        lines.push(format!(
            "left out: position {}: one thread ends the whole search sooner than that; \
             over all {} positions the geometric mean speedup is {:.3}",
            left_out.join(", "),
            s.rows.len() / r,
            s.geomean_speedup_all()
        ));
    }
    lines.extend([
        format!(
            "time to depth: geometric mean speedup {:.3} (total {one:.2} s vs {many:.2} s: {:.3})",
            s.geomean_speedup(),
            s.total_speedup()
        ),
        format!(
            "nodes: {} vs {}, overhead {:+.1}%, nps ratio {:.3}",
            s.nodes_one(),
            s.nodes_many(),
            s.node_overhead_pct(),
            s.nps_ratio()
        ),
        format!(
            "best move differs in {} of {counted} searches (marked *)",
            s.best_move_differences(),
        ),
        format!(
            "smp ({t} threads, summed): {} splits, {} joins, {} split cutoffs, {} tt lock waits, \
             {} helper nodes ({:.1}% of nodes), {:.2} thread-seconds idle",
            st.splits,
            st.joins,
            st.split_cutoffs,
            st.tt_lock_waits,
            st.helper_nodes,
            100.0 * st.helper_nodes as f64 / s.nodes_many().max(1) as f64,
            st.idle_us as f64 / 1e6
        ),
    ]);
    lines
}

/// The summary of an A/B run: each arm's figures, then B against A search by search.
pub fn format_ab_summary(ab: &AbSummary) -> Vec<String> {
    let settings: Vec<String> = ab.settings.iter().map(|s| s.to_string()).collect();
    let mut lines = vec!["A (defaults):".to_string()];
    lines.extend(format_summary(&ab.a).into_iter().map(|l| format!("  {l}")));
    lines.push(format!("B ({}):", settings.join(", ")));
    lines.extend(format_summary(&ab.b).into_iter().map(|l| format!("  {l}")));
    let (mid, lo, hi) = ab.paired();
    lines.push(format!(
        "paired, B against A: time to depth {mid:.3} times as fast (95 %: {lo:.3} .. {hi:.3}) \
         over {} searches",
        ab.log_ratios().len()
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_valid_and_not_endgames() {
        assert_eq!(positions().len(), SMP_TEST_POSITIONS);
        for fen in positions() {
            let p = Position::from_fen(fen).expect("bench FEN");
            assert!(!p.legal_moves().is_empty(), "{fen}");
            assert!(p.phase() > 0, "{fen}");
        }
    }

    /// A small, fast test configuration: depth 3, two threads, 1 MB.
    fn small(selection: &str) -> Config {
        Config {
            depth: DepthRule::Fixed(3),
            threads: 2,
            hash_mb: 1,
            selection: Selection::parse(selection).unwrap(),
            ..Config::default()
        }
    }

    #[test]
    fn small_run_fills_rows_and_summary() {
        let config = small("2..3");
        let mut rows = 0;
        let s = plain(run(&config, |_| {}, |_| rows += 1).unwrap());
        assert_eq!(rows, 2);
        assert_eq!(s.rows.iter().map(|r| r.index).collect::<Vec<_>>(), [2, 3]);
        assert!(s.rows.iter().all(|r| r.one.nodes > 0 && r.many.nodes > 0));
        assert!(s.geomean_speedup() > 0.0);
        assert_eq!(format_summary(&s).len(), 5);
        let twice = Config {
            selection: Selection::parse("4").unwrap(),
            repeat: 2,
            ..config.clone()
        };
        let s = plain(run(&twice, |_| {}, |_| {}).unwrap());
        assert_eq!(s.rows.iter().map(|r| r.index).collect::<Vec<_>>(), [4, 4]);
        assert!(format_summary(&s)[0].starts_with("1 positions"));
        assert!(format_summary(&s)[0].contains("2 runs each"));
        let none = Config {
            selection: Selection::parse("40..").unwrap(),
            ..config
        };
        assert!(run(&none, |_| {}, |_| {}).is_err());
    }

    fn plain(o: Outcome) -> Summary {
        match o {
            Outcome::Plain(s) => s,
            Outcome::Ab(_) => panic!("an A/B outcome from a plain run"),
        }
    }

    #[test]
    fn ab_run_alternates_the_arms_and_pairs_them() {
        let config = Config {
            repeat: 2,
            ab: vec![Setting::parse("shared-history=1").unwrap()],
            ..small("2")
        };
        let mut arms = Vec::new();
        let Outcome::Ab(ab) = run(&config, |_| {}, |r| arms.push(r.b)).unwrap() else {
            panic!("a plain outcome from an A/B run");
        };
        // Run 1 plays A first, run 2 B first.
        assert_eq!(arms, [false, true, true, false]);
        assert_eq!((ab.a.rows.len(), ab.b.rows.len()), (2, 2));
        assert!(ab.b.rows.iter().all(|r| r.b) && ab.a.rows.iter().all(|r| !r.b));
        assert_eq!(ab.log_ratios().len(), 2);
        let (mid, lo, hi) = ab.paired();
        assert!(lo <= mid && mid <= hi && lo > 0.0);
        let lines = format_ab_summary(&ab);
        assert_eq!(lines.len(), 13);
        assert!(lines[6].starts_with("B (shared-history=1)"), "{}", lines[6]);
        assert!(
            lines[12].starts_with("paired, B against A"),
            "{}",
            lines[12]
        );
    }

    #[test]
    fn settings_parse_and_refuse_bad_input() {
        assert!(matches!(
            Setting::parse("shared-history=0"),
            Ok(Setting::SharedHistory(false))
        ));
        for bad in [
            "shared-history",
            "shared-history=2",
            "shared-history=x",
            "NOPE=3",
        ] {
            assert!(Setting::parse(bad).is_err(), "{bad}");
        }
    }

    fn sample(seconds: f64, depth: i32) -> Sample {
        Sample {
            seconds,
            depth,
            nodes: 1000,
            best: Move::NONE,
            score: 0,
            stats: SmpStats::default(),
        }
    }

    #[test]
    fn calibrated_runs_leave_out_searches_that_end_too_soon() {
        let row = |index, one: f64, many: f64, depth| Row {
            index,
            fen: positions()[0],
            one: sample(one, depth),
            many: sample(many, depth),
            reference: one,
            b: false,
        };
        let mut s = Summary {
            threads: 2,
            depth: DepthRule::Calibrated(2.0),
            repeat: 1,
            rows: vec![
                row(1, 4.0, 2.0, 20),
                row(2, 0.04, 0.04, 100),
                row(3, 3.0, 1.0, 21),
            ],
        };
        // Positions 1 and 3 count: speedups 2 and 3.
        assert!((s.geomean_speedup() - 6f64.sqrt()).abs() < 1e-9);
        assert!((s.geomean_speedup_all() - 6f64.cbrt()).abs() < 1e-9);
        assert!((s.total_speedup() - 7.0 / 3.0).abs() < 1e-9);
        assert_eq!(s.nodes_one(), 2000);
        let lines = format_summary(&s);
        assert!(lines[0].starts_with("2 positions"), "{}", lines[0]);
        assert!(
            lines[1].contains("left out: position 2 (depth 100"),
            "{}",
            lines[1]
        );
        // A fixed depth counts every position.
        s.depth = DepthRule::Fixed(20);
        assert_eq!(s.counted().count(), 3);
        assert_eq!(format_summary(&s).len(), 5);
    }
}
