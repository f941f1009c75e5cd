//! `squall suite`: runs EPD test suites (WAC, ECM, WCSAC, STS...) the way engine authors
//! measure tactical changes.
//!
//! Each position is searched from a cleared engine under the same limit. It counts as solved
//! when the final best move is correct (in `bm`, not in `am`, and with `dm N` a mate in at most
//! N). The solution time and depth are those of the first iteration report from which on the
//! reported best move stayed correct until the end of the search.
//!
//! The results can be written as JSON (`--report`) and compared with an earlier report
//! (`--compare`): newly solved, newly failed, and more than twice faster or slower.

use std::path::{Path, PathBuf};

mod report;
mod runner;

pub use report::{compare, parse_report, read_report, report_json, utc_text, PreviousResult};
pub use runner::run;

use crate::epd::{EpdError, Record};
use crate::search::{mate_in, Control, Engine, Limits, Report};

/// The per-position search limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    MoveTime(u64),
    Depth(i32),
    Nodes(u64),
}

impl Limit {
    fn limits(self) -> Limits {
        match self {
            Limit::MoveTime(ms) => Limits::move_time(ms),
            Limit::Depth(d) => Limits::depth(d),
            Limit::Nodes(n) => Limits {
                nodes: Some(n),
                ..Limits::default()
            },
        }
    }

    /// `movetime 1000 ms`, `depth 8`, `nodes 100000`.
    pub fn describe(self) -> String {
        match self {
            Limit::MoveTime(ms) => format!("movetime {ms} ms"),
            Limit::Depth(d) => format!("depth {d}"),
            Limit::Nodes(n) => format!("nodes {n}"),
        }
    }
}

/// Which positions of each file to run: 1-based index ranges and/or id prefixes (a position
/// is run when it matches any of them; an empty selection runs everything).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    pub ranges: Vec<(usize, usize)>,
    pub prefixes: Vec<String>,
}

impl Selection {
    /// Parses a comma-separated list of `A..B`, `A..`, `..B`, `N` (1-based position indexes
    /// within each file, inclusive) and id prefixes (anything not starting with a digit or
    /// `..`, e.g. `WAC.01`).
    pub fn parse(text: &str) -> Result<Selection, String> {
        let mut sel = Selection::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let number = |s: &str, default: usize| -> Result<usize, String> {
                if s.is_empty() {
                    Ok(default)
                } else {
                    s.parse::<usize>()
                        .map_err(|_| format!("'{s}' is not a position number"))
                }
            };
            if let Some((a, b)) = part.split_once("..") {
                let (a, b) = (number(a, 1)?, number(b, usize::MAX)?);
                if a == 0 || a > b {
                    return Err(format!("'{part}' is not a range of positions (1-based)"));
                }
                sel.ranges.push((a, b));
            } else if part.starts_with(|c: char| c.is_ascii_digit()) {
                let n = number(part, 0)?;
                if n == 0 {
                    return Err("positions are numbered from 1".into());
                }
                sel.ranges.push((n, n));
            } else {
                sel.prefixes.push(part.to_string());
            }
        }
        if sel.ranges.is_empty() && sel.prefixes.is_empty() {
            return Err(format!("'{text}' selects nothing"));
        }
        Ok(sel)
    }

    pub fn selects(&self, index: usize, id: &str) -> bool {
        (self.ranges.is_empty() && self.prefixes.is_empty())
            || self.ranges.iter().any(|&(a, b)| (a..=b).contains(&index))
            || self.prefixes.iter().any(|p| id.starts_with(p.as_str()))
    }
}

/// Everything `squall suite` was asked to do.
#[derive(Clone, Debug)]
pub struct Config {
    pub files: Vec<PathBuf>,
    pub limit: Limit,
    pub threads: usize,
    pub hash_mb: usize,
    pub selection: Selection,
    pub report: Option<PathBuf>,
    pub compare: Option<PathBuf>,
    /// Show a progress line on stderr while searching.
    pub progress: bool,
}

/// The outcome of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionResult {
    pub file: String,
    /// 1-based position index in its file.
    pub index: usize,
    pub line: usize,
    /// The EPD `id`, or `#index` when the line has none.
    pub id: String,
    pub solved: bool,
    /// When the engine settled on a correct move for good (solved positions only).
    pub solution_ms: Option<u64>,
    pub solution_depth: Option<i32>,
    /// The final best move, SAN (`-` when there was none).
    pub best: String,
    pub best_uci: String,
    /// What the line expects, e.g. `bm Qg6; am Rd6`.
    pub expected: String,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    pub time_ms: u64,
    /// Points earned and the most available, for lines with a point list.
    pub points: Option<(i32, i32)>,
}

/// One file's results.
#[derive(Clone, Debug, Default)]
pub struct FileResult {
    pub file: String,
    pub results: Vec<PositionResult>,
    /// Lines skipped as malformed.
    pub malformed: Vec<EpdError>,
    /// Set when the file itself could not be read.
    pub unreadable: Option<String>,
}

/// Totals over a set of results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub solved: usize,
    pub total: usize,
    pub solution_ms: u64,
    pub nodes: u64,
    pub time_ms: u64,
    pub points: i32,
    pub max_points: i32,
    pub has_points: bool,
}

impl Totals {
    pub fn of<'a>(results: impl IntoIterator<Item = &'a PositionResult>) -> Totals {
        let mut t = Totals::default();
        for r in results {
            t.total += 1;
            if r.solved {
                t.solved += 1;
                t.solution_ms += r.solution_ms.unwrap_or(r.time_ms);
            }
            t.nodes += r.nodes;
            t.time_ms += r.time_ms;
            if let Some((p, m)) = r.points {
                t.points += p;
                t.max_points += m;
                t.has_points = true;
            }
        }
        t
    }
}

/// What changed against an earlier report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    /// Keys (`file-name:id`) in both reports.
    pub common: usize,
    pub solved_before: usize,
    pub solved_now: usize,
    pub newly_solved: Vec<String>,
    pub newly_failed: Vec<String>,
    /// `(key, before ms, now ms)`.
    pub faster: Vec<(String, u64, u64)>,
    pub slower: Vec<(String, u64, u64)>,
    /// Positions only in this run, and only in the earlier report.
    pub only_now: usize,
    pub only_before: usize,
}

/// The whole run.
#[derive(Clone, Debug, Default)]
pub struct RunResult {
    pub files: Vec<FileResult>,
    pub comparison: Option<Comparison>,
}

impl RunResult {
    pub fn totals(&self) -> Totals {
        Totals::of(self.files.iter().flat_map(|f| &f.results))
    }

    pub fn malformed(&self) -> usize {
        self.files.iter().map(|f| f.malformed.len()).sum()
    }
}

/// Times below this count as this in the faster/slower comparison, so that noise in
/// millisecond solutions is not reported as a twofold change.
pub const COMPARE_FLOOR_MS: u64 = 10;

/// Searches one record and scores the result.
pub fn solve(engine: &mut Engine, record: &Record, limit: Limit) -> SolveOutcome {
    let pos = record.position();
    let limits = limit.limits();
    let control = Control::new(false);
    // (time, depth) since when the reported best move has been correct.
    let mut since: Option<(u64, i32)> = None;
    let r = engine.search(&pos, &limits, &control, &mut |rep: &Report| {
        if let Report::Iteration(it) = rep {
            if it.multipv > 1 || it.pv.is_empty() {
                return;
            }
            if record.move_is_correct(it.pv[0]) && record.score_is_correct(it.score) {
                since.get_or_insert((it.time_ms, it.depth));
            } else {
                since = None;
            }
        }
    });
    let solved = record.move_is_correct(r.best) && record.score_is_correct(r.score);
    let solution = if solved {
        Some(since.unwrap_or((r.time_ms, r.depth)))
    } else {
        None
    };
    SolveOutcome {
        best: r.best,
        solved,
        solution,
        score: r.score,
        depth: r.depth,
        nodes: r.nodes,
        time_ms: r.time_ms,
    }
}

/// What [`solve`] found.
#[derive(Clone, Copy, Debug)]
pub struct SolveOutcome {
    pub best: crate::Move,
    pub solved: bool,
    /// (time ms, depth) of the solution.
    pub solution: Option<(u64, i32)>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    pub time_ms: u64,
}

/// UCI-style score text.
pub fn score_text(score: i32) -> String {
    match mate_in(score) {
        Some(m) => format!("mate {m}"),
        None => format!("cp {score}"),
    }
}

fn file_name(file: &str) -> &str {
    Path::new(file)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(file)
}
