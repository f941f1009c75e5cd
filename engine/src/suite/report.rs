//! The `--report` JSON of a suite run: writing it, reading an earlier one back, and comparing
//! a run with it (newly solved, newly failed, much faster or slower).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use super::json;
use super::{file_name, Comparison, Config, Limit, RunResult, Totals, COMPARE_FLOOR_MS};

/// One position of an earlier report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreviousResult {
    pub solved: bool,
    pub solution_ms: Option<u64>,
}

/// The comparison key of a position: its file's name (not path) and id.
fn key(file: &str, id: &str) -> String {
    format!("{}:{id}", file_name(file))
}

/// Compares this run with an earlier report's positions (keyed as by [`read_report`]).
pub fn compare(run: &RunResult, previous: &HashMap<String, PreviousResult>) -> Comparison {
    let mut c = Comparison::default();
    let mut seen = 0;
    for r in run.files.iter().flat_map(|f| &f.results) {
        let k = key(&r.file, &r.id);
        let Some(p) = previous.get(&k) else {
            c.only_now += 1;
            continue;
        };
        seen += 1;
        c.common += 1;
        c.solved_before += p.solved as usize;
        c.solved_now += r.solved as usize;
        match (p.solved, r.solved) {
            (false, true) => c.newly_solved.push(k),
            (true, false) => c.newly_failed.push(k),
            (true, true) => {
                // A report without solution times (e.g. from tools/suite_peers.py) has
                // nothing to compare them with.
                let (Some(before), Some(now)) = (p.solution_ms, r.solution_ms) else {
                    continue;
                };
                let (b, n) = (before.max(COMPARE_FLOOR_MS), now.max(COMPARE_FLOOR_MS));
                if n * 2 < b {
                    c.faster.push((k, before, now));
                } else if b * 2 < n {
                    c.slower.push((k, before, now));
                }
            }
            (false, false) => {}
        }
    }
    c.only_before = previous.len() - seen;
    c
}

/// Reads a `--report` file into its positions, keyed by file name and id.
pub fn read_report(path: &Path) -> Result<HashMap<String, PreviousResult>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    parse_report(&text)
}

/// Parses the JSON of a report (see [`read_report`]).
pub fn parse_report(text: &str) -> Result<HashMap<String, PreviousResult>, String> {
    let doc = json::parse(text)?;
    let positions = doc
        .get("positions")
        .and_then(json::Value::as_array)
        .ok_or("no \"positions\" array")?;
    let mut map = HashMap::new();
    for (i, p) in positions.iter().enumerate() {
        let field = |name: &str| p.get(name).ok_or(format!("position {i} has no \"{name}\""));
        let file = field("file")?.as_str().ok_or("\"file\" is not a string")?;
        let id = field("id")?.as_str().ok_or("\"id\" is not a string")?;
        let solved = field("solved")?
            .as_bool()
            .ok_or("\"solved\" is not a boolean")?;
        let solution_ms = p
            .get("solution_ms")
            .and_then(json::Value::as_f64)
            .map(|v| v.max(0.0) as u64);
        map.insert(
            key(file, id),
            PreviousResult {
                solved,
                solution_ms,
            },
        );
    }
    Ok(map)
}

/// The `--report` JSON of a run.
pub fn report_json(run: &RunResult, config: &Config) -> String {
    use json::{quote, Value};
    let opt_u64 = |v: Option<u64>| v.map_or("null".to_string(), |x| x.to_string());
    let mut s = String::from("{\n");
    let _ = writeln!(
        s,
        "  \"engine\": {},",
        quote(concat!("squall ", env!("CARGO_PKG_VERSION")))
    );
    let _ = writeln!(s, "  \"date\": {},", quote(&utc_now()));
    let (kind, value) = match config.limit {
        Limit::MoveTime(ms) => ("movetime", ms.to_string()),
        Limit::Depth(d) => ("depth", d.to_string()),
        Limit::Nodes(n) => ("nodes", n.to_string()),
    };
    let _ = writeln!(s, "  \"limit\": {{\"{kind}\": {value}}},");
    let _ = writeln!(s, "  \"threads\": {},", config.threads.max(1));
    let _ = writeln!(s, "  \"hash_mb\": {},", config.hash_mb);
    s.push_str("  \"files\": [");
    for (i, f) in run.files.iter().enumerate() {
        let t = Totals::of(&f.results);
        let malformed: Vec<String> = f
            .malformed
            .iter()
            .map(|e| {
                format!(
                    "{{\"line\": {}, \"error\": {}}}",
                    e.line,
                    quote(&e.kind.to_string())
                )
            })
            .collect();
        let _ = write!(
            s,
            "{}\n    {{\"file\": {}, \"solved\": {}, \"total\": {}, \"solution_ms\": {}, \"nodes\": {}, \"points\": {}, \"max_points\": {}, \"unreadable\": {}, \"malformed\": [{}]}}",
            if i > 0 { "," } else { "" },
            quote(&f.file),
            t.solved,
            t.total,
            t.solution_ms,
            t.nodes,
            t.points,
            t.max_points,
            f.unreadable.as_deref().map_or("null".into(), quote),
            malformed.join(", ")
        );
    }
    s.push_str("\n  ],\n  \"positions\": [");
    let mut first = true;
    for r in run.files.iter().flat_map(|f| &f.results) {
        let _ = write!(
            s,
            "{}\n    {{\"file\": {}, \"index\": {}, \"line\": {}, \"id\": {}, \"solved\": {}, \"solution_ms\": {}, \"solution_depth\": {}, \"best\": {}, \"best_uci\": {}, \"expected\": {}, \"score\": {}, \"depth\": {}, \"nodes\": {}, \"time_ms\": {}, \"points\": {}}}",
            if first { "" } else { "," },
            quote(&r.file),
            r.index,
            r.line,
            quote(&r.id),
            r.solved,
            opt_u64(r.solution_ms),
            r.solution_depth.map_or("null".into(), |d| d.to_string()),
            quote(&r.best),
            quote(&r.best_uci),
            quote(&r.expected),
            r.score,
            r.depth,
            r.nodes,
            r.time_ms,
            r.points.map_or("null".into(), |(p, _)| p.to_string()),
        );
        first = false;
    }
    s.push_str("\n  ]\n}\n");
    // The writer and the reader must agree; a cheap self-check in debug builds.
    debug_assert!(json::parse(&s).is_ok_and(|v| matches!(v, Value::Object(_))));
    s
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc_text(secs)
}

/// `YYYY-MM-DDTHH:MM:SSZ` of a Unix time.
pub fn utc_text(secs: u64) -> String {
    let mut days = secs / 86_400;
    let rem = secs % 86_400;
    let leap = |y: u64| (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400);
    let mut year = 1970;
    loop {
        let len = if leap(year) { 366 } else { 365 };
        if days < len {
            break;
        }
        days -= len;
        year += 1;
    }
    let month_days = [
        31,
        if leap(year) { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let mut month = 0;
    while days >= month_days[month] {
        days -= month_days[month];
        month += 1;
    }
    format!(
        "{year:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        month + 1,
        days + 1,
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}
