//! The SPSA driver `tools/spsa.py` against the `tune` build (`cargo test --features tune`, as
//! `make test` runs it): two iterations at 300 nodes per move over two parameters, resumed from
//! its state file, then `--write-params` into a copy of `params.rs`. Skipped without
//! python-chess.
#![cfg(feature = "tune")]

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo_root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).to_path_buf()
}

fn spsa(py: &str, args: &[&str]) -> Output {
    let script = repo_root().join("tools/spsa.py");
    let out = Command::new(py)
        .arg(&script)
        .args(args)
        .output()
        .expect("run tools/spsa.py");
    eprintln!(
        "spsa.py {}\n{}{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn spsa_runs_resumes_and_writes_the_source() {
    let Some(py) = common::python_with("chess") else {
        return;
    };
    let openings = repo_root().join("../shared/openings/8moves_v3.pgn");
    let dir = std::env::temp_dir().join(format!("squall-spsa-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("src")).unwrap();
    let (params, state, history) = (
        dir.join("params.json"),
        dir.join("state.json"),
        dir.join("history.csv"),
    );
    fs::write(
        &params,
        r#"{"parameters": [
            {"name": "LMR_BASE", "c_end": 10, "r_end": 0.05},
            {"name": "REVERSE_FUTILITY_MARGIN", "min": 40, "max": 200, "c_end": 8}
        ]}"#,
    )
    .unwrap();
    let p = |path: &Path| path.to_str().unwrap().to_string();
    let mut run: Vec<String> = [
        "--engine",
        env!("CARGO_BIN_EXE_squall"),
        "--params",
        &p(&params),
        "--state",
        &p(&state),
        "--history",
        &p(&history),
        "--iterations",
        "2",
        "--pairs-per-iteration",
        "2",
        "--concurrency",
        "2",
        "--batch",
        "1",
        "--batches",
        "1",
        "--nodes",
        "300",
        "--max-moves",
        "120",
        "--r-end",
        "0.004",
    ]
    .map(String::from)
    .to_vec();
    if openings.exists() {
        run.extend(["--openings".to_string(), p(&openings)]);
    } else {
        // Without the shared openings: a small PGN of our own.
        let pgn = dir.join("openings.pgn");
        fs::write(&pgn, "1. e4 e5 2. Nf3 Nc6 *\n\n1. d4 d5 2. c4 e6 *\n").unwrap();
        run.extend(["--openings".to_string(), p(&pgn)]);
    }
    let run: Vec<&str> = run.iter().map(String::as_str).collect();

    // One batch of one iteration (two pairs, four games), then the rerun plays the second.
    for (iteration, games) in [(1, 4), (2, 8)] {
        let out = spsa(&py, &run);
        assert!(out.status.success(), "spsa.py failed");
        let s = json(&state);
        assert_eq!(s["iteration"], iteration);
        assert_eq!(s["games"], games);
        assert_eq!(s["pairs"], games / 2);
        let wdl: i64 = (0..3).map(|i| s["wdl"][i].as_i64().unwrap()).sum();
        assert_eq!(wdl, games, "W/D/L counts every game: {s}");
        let pairs: i64 = ["-2", "-1", "0", "+1", "+2"]
            .iter()
            .map(|k| s["pair_results"][k].as_i64().unwrap())
            .sum();
        assert_eq!(pairs, games / 2);
        let lmr = s["theta"]["LMR_BASE"].as_f64().unwrap();
        let rfp = s["theta"]["REVERSE_FUTILITY_MARGIN"].as_f64().unwrap();
        assert!((0.0..=300.0).contains(&lmr) && (40.0..=200.0).contains(&rfp));
        assert_eq!(s["params"][0]["start"], 75.0, "start: the engine's default");
        // --r-end replaces the file's default, not a parameter's own.
        assert_eq!(s["params"][0]["r_end"], 0.05);
        assert_eq!(s["params"][1]["r_end"], 0.004);
        let lines: Vec<String> = fs::read_to_string(&history)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        assert_eq!(lines[0], "iteration,games,LMR_BASE,REVERSE_FUTILITY_MARGIN");
        assert_eq!(lines.len(), 1 + iteration as usize, "{lines:?}");
        assert!(lines[iteration as usize].starts_with(&format!("{iteration},{games},")));
        let progress = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            progress.contains(&format!("iter {iteration}/2 games {games} ")),
            "{progress}"
        );
    }
    // Finished: a third run plays nothing.
    let before = fs::read_to_string(&state).unwrap();
    assert!(spsa(&py, &run).status.success());
    assert_eq!(fs::read_to_string(&state).unwrap(), before);

    // --write-params into a copy of params.rs: only the two constants' lines change.
    let original = fs::read_to_string(repo_root().join("engine/src/search/params.rs")).unwrap();
    let copy = dir.join("src/params.rs");
    fs::write(&copy, &original).unwrap();
    let mut s = json(&state);
    s["theta"]["LMR_BASE"] = 81.4.into(); // hundredths: 0.81
    s["theta"]["REVERSE_FUTILITY_MARGIN"] = 97.6.into();
    fs::write(&state, s.to_string()).unwrap();
    let write = [
        "--state",
        &p(&state),
        "--write-params",
        "--source-dir",
        &p(&dir.join("src")),
    ];
    assert!(spsa(&py, &write).status.success());
    let written = fs::read_to_string(&copy).unwrap();
    let changed: Vec<(&str, &str)> = original
        .lines()
        .zip(written.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(original.lines().count(), written.lines().count());
    let expected = [
        (
            "pub const REVERSE_FUTILITY_MARGIN: i32 = 90;",
            "pub const REVERSE_FUTILITY_MARGIN: i32 = 98;",
        ),
        (
            "pub const LMR_BASE: f64 = 0.75;",
            "pub const LMR_BASE: f64 = 0.81;",
        ),
    ];
    assert_eq!(changed, expected);

    // A value outside the #[tune] range is refused and nothing is written.
    s["theta"]["LMR_BASE"] = 301.0.into();
    s["theta"]["REVERSE_FUTILITY_MARGIN"] = 120.0.into();
    fs::write(&state, s.to_string()).unwrap();
    let out = spsa(&py, &write);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("LMR_BASE: 301 is outside"));
    assert_eq!(fs::read_to_string(&copy).unwrap(), written);
    let _ = fs::remove_dir_all(&dir);
}
