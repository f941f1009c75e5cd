//! Soak: `squall-ics` plays many consecutive games (100 by default; `SQUALL_SOAK_GAMES`)
//! against the fake server's scripted opponent, colours alternating, at 15 ms per move, with
//! the fake's lasker behaviour: clocks in seconds despite `ms set`, a takeback asked (and
//! accepted) every game, boards numbered -1 after it, Timeseal on with `[G]` pings.
//! Checks: every game finished and saved as a PGN that replays to the server's record, no
//! move out of turn, no false stall, every ping answered, never more than one engine process. Ignored by default (a few
//! minutes): `cargo test --release --test ics_soak -- --ignored --nocapture`.

mod ics_fake;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use ics_fake::harness::run_bot_watched;
use ics_fake::{check_pgn, FakeServer, Scenario};

/// Child processes of `pid` (from /proc; empty where there is none).
fn children(pid: u32) -> Vec<u32> {
    let Ok(rd) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    rd.filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()))
        .filter(|p| {
            std::fs::read_to_string(format!("/proc/{p}/stat"))
                .ok()
                .is_some_and(|st| {
                    // Field 4 is the parent; the name (field 2) is in parentheses and may hold spaces.
                    st.rsplit_once(')')
                        .and_then(|(_, rest)| {
                            rest.split_whitespace()
                                .nth(1)
                                .map(|pp| pp == pid.to_string())
                        })
                        .unwrap_or(false)
                })
        })
        .collect()
}

#[test]
#[ignore]
fn soak_consecutive_games() {
    let games: usize = std::env::var("SQUALL_SOAK_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let sc = Scenario {
        games,
        resign_at: Some(80),
        takeback_at: Some(9),
        seed: 2026,
        ..Scenario::default()
    };
    let server = FakeServer::start(sc);
    let mut max_children = 0;
    let mut engine_pids = HashSet::new();
    let started = Instant::now();
    let extra = format!(
        "#games\nseeks = [\"1 0 u\"]\n#games_n\n{games}\n#play\naccept_takeback = true\n\
         #server\ntimeseal = true\n"
    );
    let run = run_bot_watched(
        "soak",
        &server,
        &extra,
        Duration::from_secs(60 * 30),
        &mut |pid| {
            let c = children(pid);
            max_children = max_children.max(c.len());
            engine_pids.extend(c);
        },
    );
    let secs = started.elapsed().as_secs_f64();
    let rep = server.report();
    let mut bad_pgn = 0;
    for (i, f) in rep.finished.iter().enumerate() {
        let ok = run.pgns.iter().any(|p| check_pgn(p, f).is_ok());
        if !ok {
            bad_pgn += 1;
            eprintln!("game {i} ({}): no matching PGN", f.number);
        }
    }
    let results = |r: &str| rep.finished.iter().filter(|f| f.result == r).count();
    let plies: usize = rep.finished.iter().map(|f| f.sans.len()).sum();
    println!(
        "soak: {} games in {secs:.1} s (exit {:?}); results 1-0 {} 0-1 {} draw {}; {plies} plies; \
         {} PGN files, {bad_pgn} without a match; {} moves out of turn, {} late, {} illegal; \
         engine processes at once: at most {max_children}; distinct engine pids {}; connections {}",
        rep.finished.len(),
        run.code,
        results("1-0"),
        results("0-1"),
        results("1/2-1/2"),
        run.pgns.len(),
        rep.out_of_turn,
        rep.late,
        rep.illegal,
        engine_pids.len(),
        rep.connections,
    );
    if let Some(first) = run.pgns.first() {
        println!("first PGN:\n{first}");
    }
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(rep.finished.len(), games);
    assert_eq!(run.pgns.len(), games);
    assert_eq!(bad_pgn, 0);
    assert_eq!(rep.out_of_turn, 0);
    assert_eq!(rep.illegal, 0);
    assert!(
        !run.stderr.contains("restarting it"),
        "false stall:\n{}",
        run.stderr
    );
    assert!(rep.unknown.is_empty(), "unknown commands {:?}", rep.unknown);
    assert!(
        rep.pings > 0 && rep.ping_replies + 1 >= rep.pings,
        "{} pings, {} replies",
        rep.pings,
        rep.ping_replies
    );
    assert!(max_children <= 1, "more than one engine at once");
}
