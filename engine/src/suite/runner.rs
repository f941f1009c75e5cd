//! `suite::run`: the runner behind `squall suite`: every position of every file under the
//! configured limit, the table, per-file summaries, the totals, `--report` and `--compare`.

use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::time::Instant;

use super::report::{compare, read_report, report_json};
use super::{
    file_name, score_text, solve, Comparison, Config, FileResult, Limit, PositionResult, RunResult,
    Totals,
};
use crate::epd::{self, Record};
use crate::search::Engine;

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

fn seconds(ms: u64) -> String {
    format!("{:.3} s", ms as f64 / 1000.0)
}
