//! The `--report` JSON of a suite run: writing it, reading an earlier one back, and comparing
//! a run with it (newly solved, newly failed, much faster or slower).

use std::collections::HashMap;
use std::path::Path;

use serde_json::{json, Value};

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
    let doc: Value = serde_json::from_str(text).map_err(|e| format!("JSON: {e}"))?;
    let positions = doc
        .get("positions")
        .and_then(Value::as_array)
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
            .and_then(Value::as_f64)
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

/// The `--report` JSON of a run: the run's settings one per line, then one line per file
/// and one per position (so that reports diff and grep well).
pub fn report_json(run: &RunResult, config: &Config) -> String {
    let limit = match config.limit {
        Limit::MoveTime(ms) => json!({ "movetime": ms }),
        Limit::Depth(d) => json!({ "depth": d }),
        Limit::Nodes(n) => json!({ "nodes": n }),
    };
    let files: Vec<Value> = run
        .files
        .iter()
        .map(|f| {
            let t = Totals::of(&f.results);
            let malformed: Vec<Value> = f
                .malformed
                .iter()
                .map(|e| json!({ "line": e.line, "error": e.kind.to_string() }))
                .collect();
            json!({
                "file": f.file,
                "solved": t.solved,
                "total": t.total,
                "solution_ms": t.solution_ms,
                "nodes": t.nodes,
                "points": t.points,
                "max_points": t.max_points,
                "unreadable": f.unreadable,
                "malformed": malformed,
            })
        })
        .collect();
    let positions: Vec<Value> = run
        .files
        .iter()
        .flat_map(|f| &f.results)
        .map(|r| {
            json!({
                "file": r.file,
                "index": r.index,
                "line": r.line,
                "id": r.id,
                "solved": r.solved,
                "solution_ms": r.solution_ms,
                "solution_depth": r.solution_depth,
                "best": r.best,
                "best_uci": r.best_uci,
                "expected": r.expected,
                "score": r.score,
                "depth": r.depth,
                "nodes": r.nodes,
                "time_ms": r.time_ms,
                "points": r.points.map(|(p, _)| p),
            })
        })
        .collect();
    let fields = [
        (
            "engine",
            json!(concat!("squall ", env!("CARGO_PKG_VERSION"))),
        ),
        ("date", json!(utc_now())),
        ("limit", limit),
        ("threads", json!(config.threads.max(1))),
        ("hash_mb", json!(config.hash_mb)),
        ("files", Value::Array(files)),
        ("positions", Value::Array(positions)),
    ];
    let lines: Vec<String> = fields
        .iter()
        .map(|(k, v)| {
            let value = match v {
                Value::Array(items) if !items.is_empty() => {
                    let rows: Vec<String> = items.iter().map(|i| format!("    {i}")).collect();
                    format!("[\n{}\n  ]", rows.join(",\n"))
                }
                v => v.to_string(),
            };
            format!("  {}: {value}", Value::from(*k))
        })
        .collect();
    format!("{{\n{}\n}}\n", lines.join(",\n"))
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
