//! The suite runner end to end, kept tiny: a few mates at a small depth, a malformed line
//! that is reported and skipped, and a `--report` / `--compare` round trip.

mod common;

use std::path::Path;

use common::Scratch;

use squall::suite::{self, Config, Limit, Selection};

const EASY: &str = "\
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"mate1.rook\";
r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#!; id \"mate1.scholar\";
# a comment line, not a position
k7/8/2K5/8/8/8/8/7R w - - dm 2;
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e5; id \"broken\";
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - am Ra2; c0 \"Ra8=10, Ra7=2\"; id \"avoid\";
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Kf1; id \"wrong-on-purpose\";
";

fn config(file: &Path) -> Config {
    Config {
        files: vec![file.to_path_buf()],
        limit: Limit::Depth(4),
        threads: 1,
        hash_mb: 4,
        selection: Selection::default(),
        report: None,
        compare: None,
        progress: false,
    }
}

#[test]
fn runs_reports_and_compares() {
    let dir = Scratch::new("suite-easy");
    let file = dir.join("easy.epd");
    let report = dir.join("report.json");
    std::fs::write(&file, EASY).unwrap();

    let mut cfg = config(&file);
    cfg.report = Some(report.clone());
    let mut out = Vec::new();
    let run = suite::run(&cfg, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let f = &run.files[0];
    assert_eq!(f.results.len(), 5, "{text}");
    assert_eq!(f.malformed.len(), 1);
    assert_eq!(f.malformed[0].line, 5);
    assert!(text.contains("skipped malformed line 5:"), "{text}");
    let solved: Vec<&str> = f
        .results
        .iter()
        .filter(|r| r.solved)
        .map(|r| r.id.as_str())
        .collect();
    assert_eq!(
        solved,
        vec!["mate1.rook", "mate1.scholar", "#3", "avoid"],
        "{text}"
    );
    let t = run.totals();
    assert_eq!((t.solved, t.total), (4, 5));
    assert_eq!((t.points, t.max_points), (10, 10));
    let m2 = &f.results[2];
    assert_eq!(m2.index, 3);
    assert!(m2.solution_depth.is_some_and(|d| d <= 4));
    assert!(text.contains("4/5 solved (80.0%)"), "{text}");
    assert!(text.contains("failed (1): wrong-on-purpose"), "{text}");
    assert!(text.contains("points: 10/10"), "{text}");

    // The report reads back, and comparing a run with itself shows no change.
    let previous = suite::read_report(&report).unwrap();
    assert_eq!(previous.len(), 5);
    let mut cfg = config(&file);
    cfg.compare = Some(report.clone());
    cfg.selection = Selection::parse("1..3").unwrap();
    let mut out = Vec::new();
    let again = suite::run(&cfg, &mut out).unwrap();
    let c = again.comparison.unwrap();
    assert_eq!(c.common, 3);
    assert_eq!((c.solved_before, c.solved_now), (3, 3));
    assert!(c.newly_solved.is_empty() && c.newly_failed.is_empty());
    assert_eq!((c.only_now, c.only_before), (0, 2));

    // An earlier report in which the scholar's mate failed and the rook mate was slow.
    let name = file.file_name().unwrap().to_str().unwrap();
    let json = format!(
        "{{\"positions\": [\
         {{\"file\": \"elsewhere/{name}\", \"id\": \"mate1.rook\", \"solved\": true, \"solution_ms\": 5000}},\
         {{\"file\": \"{name}\", \"id\": \"mate1.scholar\", \"solved\": false, \"solution_ms\": null}},\
         {{\"file\": \"{name}\", \"id\": \"wrong-on-purpose\", \"solved\": true, \"solution_ms\": 1}},\
         {{\"file\": \"{name}\", \"id\": \"avoid\", \"solved\": true}}]}}"
    );
    let previous = suite::parse_report(&json).unwrap();
    let c = suite::compare(&run, &previous);
    assert_eq!(c.common, 4);
    assert_eq!(c.newly_solved, vec![format!("{name}:mate1.scholar")]);
    assert_eq!(c.newly_failed, vec![format!("{name}:wrong-on-purpose")]);
    assert_eq!(c.faster.len(), 1, "5 s before, milliseconds now");
    assert_eq!(c.faster[0].0, format!("{name}:mate1.rook"));
    assert!(c.slower.is_empty());
}

#[test]
fn unreadable_files_and_bad_reports_are_errors_not_panics() {
    let dir = Scratch::new("suite-unreadable");
    let missing = dir.join("does-not-exist.epd");
    let mut out = Vec::new();
    let run = suite::run(&config(&missing), &mut out).unwrap();
    assert!(run.files[0].unreadable.is_some());
    let mut cfg = config(&missing);
    cfg.compare = Some(dir.join("no-report.json"));
    assert!(suite::run(&cfg, &mut Vec::new()).is_err());
    for bad in [
        "",
        "{",
        "[]",
        "{\"positions\": [{\"id\": 3}]}",
        "{\"a\": tru}",
    ] {
        assert!(suite::parse_report(bad).is_err(), "{bad}");
    }
}

#[test]
fn selections() {
    let s = Selection::parse("1..3, 10, 20.., WAC.29").unwrap();
    assert!(s.selects(1, "x") && s.selects(3, "x") && !s.selects(4, "x"));
    assert!(s.selects(10, "x") && !s.selects(11, "x") && s.selects(250, "x"));
    assert!(s.selects(15, "WAC.291"));
    assert!(Selection::default().selects(7, "anything"));
    let s = Selection::parse("..2").unwrap();
    assert!(s.selects(1, "") && s.selects(2, "") && !s.selects(3, ""));
    for bad in ["0..3", "5..2", "x..3", "", "0"] {
        assert!(Selection::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn utc_dates() {
    assert_eq!(suite::utc_text(0), "1970-01-01T00:00:00Z");
    assert_eq!(suite::utc_text(951_782_400), "2000-02-29T00:00:00Z");
    assert_eq!(suite::utc_text(1_735_689_599), "2024-12-31T23:59:59Z");
}

#[test]
fn command_line() {
    let dir = Scratch::new("suite-cli");
    let file = dir.join("cli.epd");
    std::fs::write(&file, EASY).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_squall"))
        .args([
            "suite",
            file.to_str().unwrap(),
            "--depth",
            "3",
            "--hash",
            "4",
        ])
        .args(["--ids", "1..2"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("2/2 solved (100.0%) at depth 3"), "{text}");
    assert!(text.contains("skipped malformed line 5"), "{text}");
}
