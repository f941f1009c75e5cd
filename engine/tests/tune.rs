//! The `tune` feature (`cargo test --features tune`): every search tunable is a UCI spin option
//! with its default and range, and `setoption` changes the search at once.
#![cfg(feature = "tune")]

mod common;

use common::{secs, Engine};

/// Nodes of a fresh single-threaded search of the start position to `depth`.
fn nodes_to_depth(e: &mut Engine, depth: u32) -> u64 {
    e.send("ucinewgame");
    e.send("position startpos");
    e.send(&format!("go depth {depth}"));
    let lines = e.until(|l| l.starts_with("bestmove"), secs(60.0));
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with(&format!("info depth {depth} ")))
        .expect("a report of the last iteration");
    let words: Vec<&str> = last.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "nodes").unwrap();
    words[at + 1].parse().unwrap()
}

#[test]
fn tunables_are_options_and_setoption_changes_them() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    let lines = e.until(|l| l == "uciok", secs(5.0));
    for opt in [
        "option name Hash type spin default 64 min 1 max 65536",
        "option name LMR_BASE type spin default 75 min 0 max 300",
        "option name REVERSE_FUTILITY_MARGIN type spin default 90 min 0 max 400",
        "option name SINGULAR_MIN_DEPTH type spin default 32 min 4 max 80",
        "option name UNSTABLE_STRETCH type spin default 400 min 0 max 2000",
    ] {
        assert!(
            lines.iter().any(|l| l == opt),
            "missing '{opt}' in {lines:?}"
        );
    }
    e.send("setoption name Hash value 16");
    e.send("debug on");
    let before = nodes_to_depth(&mut e, 8);
    e.send("setoption name LMR_BASE value 150");
    e.expect("info string debug: LMR_BASE = 150", secs(5.0));
    let changed = nodes_to_depth(&mut e, 8);
    assert_ne!(before, changed, "LMR_BASE 1.50 searched the same tree");
    e.send("setoption name LMR_BASE value 75");
    e.expect("info string debug: LMR_BASE = 75", secs(5.0));
    assert_eq!(nodes_to_depth(&mut e, 8), before, "back at the default");
    e.send("setoption name LMR_BASE value 301");
    e.expect("info string error: 301 is outside 0..300", secs(5.0));
    e.quit_within(secs(5.0));
}
