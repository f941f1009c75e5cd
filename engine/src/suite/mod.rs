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

use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

mod report;

pub use report::{compare, parse_report, read_report, report_json, utc_text, PreviousResult};

use crate::epd::{self, EpdError, Record};
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

fn seconds(ms: u64) -> String {
    format!("{:.3} s", ms as f64 / 1000.0)
}

fn file_name(file: &str) -> &str {
    Path::new(file)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(file)
}

/// Runs the configured suites, printing the table and summaries to `out` (and progress to
/// stderr when asked). I/O errors on `out` and an unreadable `--compare` file are errors;
/// malformed lines and unreadable suite files are reported and skipped.
pub fn run(config: &Config, out: &mut dyn Write) -> io::Result<RunResult> {
    let previous = match &config.compare {
        Some(path) => Some(read_report(path).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("cannot use {} for --compare: {e}", path.display()),
            )
        })?),
        None => None,
    };
    let mut engine = Engine::new(config.hash_mb);
    engine.options.threads = config.threads.max(1);
    // In-process: no GUI or pipe latency to allow for, so the whole movetime is searched.
    engine.options.move_overhead_ms = 0;
    let tty = config.progress && io::stderr().is_terminal();
    let mut run = RunResult::default();
    writeln!(
        out,
        "squall {} suite: {}, {} thread(s), {} MB hash",
        env!("CARGO_PKG_VERSION"),
        config.limit.describe(),
        engine.options.threads,
        config.hash_mb
    )?;
    for path in &config.files {
        let file = path.display().to_string();
        let mut fr = FileResult {
            file: file.clone(),
            ..FileResult::default()
        };
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                writeln!(out, "\n== {file}: cannot read: {e}")?;
                fr.unreadable = Some(e.to_string());
                run.files.push(fr);
                continue;
            }
        };
        let entries = epd::parse_text(&text);
        let mut todo: Vec<(usize, Record)> = Vec::new();
        let mut warnings = Vec::new();
        for entry in entries {
            match entry.result {
                Ok(rec) => {
                    for w in &rec.warnings {
                        warnings.push(format!("line {}: {w}", rec.line));
                    }
                    let id = rec
                        .id
                        .clone()
                        .unwrap_or_else(|| format!("#{}", entry.index));
                    if config.selection.selects(entry.index, &id) {
                        todo.push((entry.index, rec));
                    }
                }
                Err(e) => fr.malformed.push(e),
            }
        }
        writeln!(out, "\n== {file}: {} positions", todo.len())?;
        for e in &fr.malformed {
            writeln!(out, "skipped malformed {e}")?;
        }
        for w in &warnings {
            writeln!(out, "warning: {w}")?;
        }
        let id_width = todo
            .iter()
            .map(|(i, r)| r.id.as_ref().map_or(format!("#{i}").len(), |s| s.len()))
            .max()
            .unwrap_or(2)
            .max(2);
        writeln!(
            out,
            "{:>5} {:<id_width$} {:<6} {:>8} {:>5}  {:<8} {:<9} expected",
            "#", "id", "result", "solution", "depth", "best", "score"
        )?;
        let started = Instant::now();
        let count = todo.len();
        for (n, (index, rec)) in todo.iter().enumerate() {
            let id = rec.id.clone().unwrap_or_else(|| format!("#{index}"));
            if tty {
                let line = progress_line(&fr, &file, &id, n, count, &started, config.limit);
                eprint!("\r\x1b[K{line}");
            }
            engine.clear();
            let o = solve(&mut engine, rec, config.limit);
            let mut pos = rec.position();
            let (best, best_uci) = if o.best.is_none() {
                ("-".to_string(), "-".to_string())
            } else {
                (pos.to_san(o.best), o.best.to_uci())
            };
            let result = PositionResult {
                file: file.clone(),
                index: *index,
                line: rec.line,
                id,
                solved: o.solved,
                solution_ms: o.solution.map(|s| s.0),
                solution_depth: o.solution.map(|s| s.1),
                best,
                best_uci,
                expected: rec.expected(),
                score: o.score,
                depth: o.depth,
                nodes: o.nodes,
                time_ms: o.time_ms,
                points: if rec.points.is_empty() {
                    None
                } else {
                    Some((rec.points_for(o.best), rec.max_points()))
                },
            };
            if tty {
                eprint!("\r\x1b[K");
            }
            write_row(out, &result, id_width)?;
            fr.results.push(result);
            if config.progress && !tty && ((n + 1) % 25 == 0 || n + 1 == count) {
                // Not a terminal (a log): an occasional plain line instead.
                out.flush()?;
                let next = n + 1;
                eprintln!(
                    "{}",
                    progress_line(&fr, &file, "done", next, count, &started, config.limit)
                );
            }
        }
        if tty {
            eprint!("\r\x1b[K");
        }
        write_summary(out, &fr, config.limit)?;
        run.files.push(fr);
    }
    if run.files.len() > 1 {
        let t = run.totals();
        writeln!(
            out,
            "\n== total: {}/{} solved ({:.1}%), {} malformed line(s) skipped",
            t.solved,
            t.total,
            percent(t.solved, t.total),
            run.malformed()
        )?;
        if t.has_points {
            writeln!(out, "   points: {}/{}", t.points, t.max_points)?;
        }
    }
    if let Some(path) = &config.report {
        let json = report_json(&run, config);
        std::fs::write(path, json).map_err(|e| {
            io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display()))
        })?;
        writeln!(out, "\nreport written to {}", path.display())?;
    }
    if let (Some(prev), Some(path)) = (previous, &config.compare) {
        let c = compare(&run, &prev);
        write_comparison(out, &c, &path.display().to_string())?;
        run.comparison = Some(c);
    }
    Ok(run)
}

/// `[12/300] wac.epd WAC.012: solved 10/11, 11 s elapsed, ~289 s left`.
fn progress_line(
    fr: &FileResult,
    file: &str,
    id: &str,
    done: usize,
    count: usize,
    started: &Instant,
    limit: Limit,
) -> String {
    let solved = fr.results.iter().filter(|r| r.solved).count();
    let mut line = format!(
        "[{}/{count}] {} {id}: solved {solved}/{done}, {:.0} s elapsed",
        (done + 1).min(count),
        file_name(file),
        started.elapsed().as_secs_f64(),
    );
    if let Limit::MoveTime(ms) = limit {
        let _ = write!(line, ", ~{} s left", ((count - done) as u64 * ms) / 1000);
    }
    line
}

fn percent(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

fn write_row(out: &mut dyn Write, r: &PositionResult, id_width: usize) -> io::Result<()> {
    let solution = r.solution_ms.map_or("-".to_string(), seconds);
    let depth = r.solution_depth.map_or("-".to_string(), |d| d.to_string());
    let points = match r.points {
        Some((p, m)) => format!(" ({p}/{m} points)"),
        None => String::new(),
    };
    writeln!(
        out,
        "{:>5} {:<id_width$} {:<6} {:>8} {:>5}  {:<8} {:<9} {}{points}",
        r.index,
        r.id,
        if r.solved { "solved" } else { "FAILED" },
        solution,
        depth,
        r.best,
        score_text(r.score),
        r.expected
    )
}

fn write_summary(out: &mut dyn Write, fr: &FileResult, limit: Limit) -> io::Result<()> {
    let t = Totals::of(&fr.results);
    writeln!(
        out,
        "-- {}: {}/{} solved ({:.1}%) at {}",
        fr.file,
        t.solved,
        t.total,
        percent(t.solved, t.total),
        limit.describe()
    )?;
    let mean = if t.solved > 0 {
        t.solution_ms as f64 / t.solved as f64 / 1000.0
    } else {
        0.0
    };
    writeln!(
        out,
        "   solution time {} in all, {mean:.3} s mean; searched {}, {} nodes, {:.0} nps",
        seconds(t.solution_ms),
        seconds(t.time_ms),
        t.nodes,
        t.nodes as f64 * 1000.0 / t.time_ms.max(1) as f64
    )?;
    if t.has_points {
        writeln!(out, "   points: {}/{}", t.points, t.max_points)?;
    }
    let failed: Vec<&str> = fr
        .results
        .iter()
        .filter(|r| !r.solved)
        .map(|r| r.id.as_str())
        .collect();
    writeln!(out, "   failed ({}): {}", failed.len(), failed.join(" "))?;
    if !fr.malformed.is_empty() {
        let lines: Vec<String> = fr.malformed.iter().map(|e| e.line.to_string()).collect();
        writeln!(
            out,
            "   malformed lines skipped ({}): {}",
            lines.len(),
            lines.join(" ")
        )?;
    }
    Ok(())
}

fn write_comparison(out: &mut dyn Write, c: &Comparison, path: &str) -> io::Result<()> {
    writeln!(out, "\n== compared with {path}")?;
    let diff = c.solved_now as i64 - c.solved_before as i64;
    writeln!(
        out,
        "   solved {} -> {} ({diff:+}) of {} positions in both",
        c.solved_before, c.solved_now, c.common
    )?;
    writeln!(
        out,
        "   newly solved ({}): {}",
        c.newly_solved.len(),
        c.newly_solved.join(" ")
    )?;
    writeln!(
        out,
        "   newly failed ({}): {}",
        c.newly_failed.len(),
        c.newly_failed.join(" ")
    )?;
    for (label, list) in [("faster", &c.faster), ("slower", &c.slower)] {
        let items: Vec<String> = list
            .iter()
            .map(|(k, a, b)| format!("{k} {}->{}", seconds(*a), seconds(*b)))
            .collect();
        writeln!(
            out,
            "   {label} by over 2x ({}): {}",
            items.len(),
            items.join(", ")
        )?;
    }
    if c.only_now > 0 || c.only_before > 0 {
        writeln!(
            out,
            "   positions only in this run: {}, only in the earlier report: {}",
            c.only_now, c.only_before
        )?;
    }
    Ok(())
}
