//! Syzygy probing against python-chess's `chess.syzygy` on the same files: WDL and DTZ of
//! random 3- and 4-piece positions (both sides to move, en-passant squares where a capture is
//! possible, random fifty-move counters), and root ranking consistent with the WDL tables.
//!
//! The tables: `$SQUALL_SYZYGY`, else the project's `shared/syzygy` beside the repository.
//! Python: `$SQUALL_PYTHON`, else `python3`. Either missing skips the test with a message.

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;

use common::{secs, Engine, Scratch};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use squall::tablebase::{self, Wdl};
use squall::types::Colour;
use squall::Position;

/// The tables are process-wide: one test at a time touches them.
static LOCK: Mutex<()> = Mutex::new(());

fn tables() -> Option<PathBuf> {
    let dir = std::env::var_os("SQUALL_SYZYGY")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/syzygy"));
    if dir.join("KQvK.rtbw").is_file() {
        Some(dir)
    } else {
        eprintln!(
            "skipped: no Syzygy tables at {} (set SQUALL_SYZYGY)",
            dir.display()
        );
        None
    }
}

fn load(dir: &std::path::Path) {
    let loaded = tablebase::load(dir.to_str().unwrap()).expect("tables load");
    assert_eq!(loaded.largest, 4);
    assert_eq!(tablebase::max_pieces(), 4);
}

/// Every 3- and 4-piece material split, stronger side first.
const TABLES: &[&str] = &[
    "KQvK", "KRvK", "KBvK", "KNvK", "KPvK", "KQQvK", "KQRvK", "KQBvK", "KQNvK", "KQPvK", "KRRvK",
    "KRBvK", "KRNvK", "KRPvK", "KBBvK", "KBNvK", "KBPvK", "KNNvK", "KNPvK", "KPPvK", "KQvKQ",
    "KQvKR", "KQvKB", "KQvKN", "KQvKP", "KRvKR", "KRvKB", "KRvKN", "KRvKP", "KBvKB", "KBvKN",
    "KBvKP", "KNvKN", "KNvKP", "KPvKP",
];

fn rand(rng: &mut Xoshiro256PlusPlus, n: u64) -> u64 {
    rng.next_u64() % n
}

/// A random legal position of `table` as a FEN, or `None` when the draw was illegal.
fn random_fen(rng: &mut Xoshiro256PlusPlus, table: &str) -> Option<String> {
    let (strong, weak) = table.split_once('v').unwrap();
    let strong_white = rand(rng, 2) == 0;
    let white_to_move = rand(rng, 2) == 0;
    let mut board = [' '; 64];
    let mut ep = String::from("-");
    // Pawns of both sides: a third of the time, the side not to move has just pushed two
    // squares next to an enemy pawn, so that en passant is possible.
    let both_pawns = strong.contains('P') && weak.contains('P');
    let mut placed_pawns = false;
    if both_pawns && rand(rng, 3) == 0 {
        let file = rand(rng, 8) as usize;
        let side = if rand(rng, 2) == 0 { -1i32 } else { 1 };
        let adj = file as i32 + side;
        if !(0..8).contains(&adj) {
            return None;
        }
        // The mover's pawn stands on its fifth rank; the other pawn arrived beside it.
        let (mover_rank, ep_rank, pusher, mover) = if white_to_move {
            (4usize, 5usize, 'p', 'P')
        } else {
            (3, 2, 'P', 'p')
        };
        board[mover_rank * 8 + file] = pusher;
        board[mover_rank * 8 + adj as usize] = mover;
        ep = format!("{}{}", (b'a' + file as u8) as char, ep_rank + 1);
        placed_pawns = true;
    }
    for (i, side) in [strong, weak].iter().enumerate() {
        let white = (i == 0) == strong_white;
        for ch in side.chars() {
            let c = if white { ch } else { ch.to_ascii_lowercase() };
            if placed_pawns && ch == 'P' {
                continue;
            }
            loop {
                let sq = rand(rng, 64) as usize;
                if board[sq] != ' ' {
                    continue;
                }
                if ch == 'P' && !(8..56).contains(&sq) {
                    continue;
                }
                board[sq] = c;
                break;
            }
        }
    }
    // The en-passant square and the square the pawn came from must be empty.
    if ep != "-" {
        let f = (ep.as_bytes()[0] - b'a') as usize;
        let r = (ep.as_bytes()[1] - b'1') as usize;
        let from_r = if r == 5 { 6 } else { 1 };
        if board[r * 8 + f] != ' ' || board[from_r * 8 + f] != ' ' {
            return None;
        }
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let c = board[rank * 8 + file];
            if c == ' ' {
                empty += 1;
            } else {
                if empty > 0 {
                    fen.push_str(&empty.to_string());
                    empty = 0;
                }
                fen.push(c);
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let halfmove = if ep != "-" || rand(rng, 2) == 0 {
        0
    } else {
        rand(rng, 100)
    };
    let fen = format!(
        "{fen} {} - {ep} {halfmove} 1",
        if white_to_move { 'w' } else { 'b' }
    );
    let pos = Position::from_fen(&fen).ok()?;
    // Kings apart, and the side not to move not in check.
    let us = pos.side_to_move();
    let them = us.flip();
    if pos.is_attacked(pos.king(them), us) {
        return None;
    }
    Some(fen)
}

/// Runs one python-chess process over `fens`; each answer is `Some((wdl, dtz))`, or `None` where
/// python-chess calls the position invalid.
fn python_probes(py: &str, dir: &std::path::Path, fens: &[String]) -> Vec<Option<(i32, i32)>> {
    let scratch = Scratch::new("tb-fens");
    let tmp = scratch.join("positions.fens");
    let mut f = std::fs::File::create(&tmp).unwrap();
    for fen in fens {
        writeln!(f, "{fen}").unwrap();
    }
    drop(f);
    let script = r#"
import sys, chess, chess.syzygy
tb = chess.syzygy.open_tablebase(sys.argv[1])
out = []
for line in open(sys.argv[2]):
    b = chess.Board(line.strip())
    if not b.is_valid():
        out.append("invalid")
        continue
    out.append("%d %d" % (tb.probe_wdl(b), tb.probe_dtz(b)))
print("\n".join(out))
"#;
    let out = Command::new(py)
        .args(["-c", script, dir.to_str().unwrap(), tmp.to_str().unwrap()])
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "python-chess failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let mut it = l.split_whitespace();
            let a = it.next()?;
            if a == "invalid" {
                return None;
            }
            Some((a.parse().unwrap(), it.next()?.parse().unwrap()))
        })
        .collect()
}

#[test]
fn wdl_and_dtz_match_python_chess() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let (Some(dir), Some(py)) = (tables(), common::python_with("chess.syzygy")) else {
        return;
    };
    load(&dir);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(48);
    let mut fens = Vec::new();
    let mut i = 0;
    while fens.len() < 12_000 {
        let table = TABLES[i % TABLES.len()];
        i += 1;
        if let Some(fen) = random_fen(&mut rng, table) {
            fens.push(fen);
        }
    }
    let answers = python_probes(&py, &dir, &fens);
    assert_eq!(answers.len(), fens.len());
    let (mut compared, mut with_ep, mut black, mut mismatches) = (0, 0, 0, Vec::new());
    for (fen, answer) in fens.iter().zip(&answers) {
        let Some((wdl, dtz)) = *answer else {
            continue;
        };
        let pos = Position::from_fen(fen).unwrap();
        let ours_wdl = tablebase::probe_wdl(&pos).map(|w| w as i32);
        let ours_dtz = tablebase::probe_dtz(&pos);
        compared += 1;
        if !fen.contains(" - - ") {
            with_ep += 1;
        }
        if pos.side_to_move() == Colour::Black {
            black += 1;
        }
        if ours_wdl != Some(wdl) || ours_dtz != Some(dtz) {
            mismatches.push(format!(
                "{fen}: python-chess wdl {wdl} dtz {dtz}, squall {ours_wdl:?} {ours_dtz:?}"
            ));
        }
    }
    eprintln!(
        "compared {compared} positions ({black} Black to move, {with_ep} with an en-passant \
         square): {} mismatches",
        mismatches.len()
    );
    assert!(compared >= 10_000, "only {compared} valid positions");
    assert!(with_ep >= 50, "only {with_ep} en-passant positions");
    assert!(
        mismatches.is_empty(),
        "{} mismatches, first: {:#?}",
        mismatches.len(),
        &mismatches[..mismatches.len().min(10)]
    );
}

/// Root ranking: the best-ranked moves keep the root's WDL (a win stays a win, a draw is never
/// thrown away), and every move's DTZ agrees with the WDL of the position after it.
#[test]
fn root_ranking_preserves_the_result() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(dir) = tables() else {
        return;
    };
    load(&dir);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4848);
    let mut checked = 0;
    let mut i = 0;
    while checked < 1000 {
        let table = TABLES[i % TABLES.len()];
        i += 1;
        let Some(fen) = random_fen(&mut rng, table) else {
            continue;
        };
        // Fifty-move counter 0: ranks are the pure WDL order.
        let fields: Vec<&str> = fen.split(' ').collect();
        let fen = format!(
            "{} {} {} {} 0 1",
            fields[0], fields[1], fields[2], fields[3]
        );
        let mut pos = Position::from_fen(&fen).unwrap();
        if pos.legal_moves().is_empty() {
            continue;
        }
        let root_wdl = tablebase::probe_wdl(&pos).unwrap();
        let probe = tablebase::probe_root(&pos, true, false).unwrap();
        assert_eq!(probe.moves.len(), pos.legal_moves().len(), "{fen}");
        let best = probe.moves[0];
        let best_sign = best.dtz.signum();
        let root_sign = (root_wdl as i32).signum();
        assert_eq!(
            best_sign, root_sign,
            "{fen}: best move {best:?}, root {root_wdl:?}"
        );
        for m in &probe.moves {
            pos.make(m.mv);
            let after = tablebase::probe_wdl(&pos);
            let mated = pos.legal_moves().is_empty() && pos.in_check();
            pos.unmake();
            let after = if mated {
                -2
            } else {
                after.map(|w| w as i32).unwrap_or(0)
            };
            assert_eq!(
                m.dtz.signum(),
                (-after).signum(),
                "{fen}: {} dtz {} but WDL after it {after}",
                m.mv.to_uci(),
                m.dtz
            );
        }
        checked += 1;
    }
    assert_eq!(Wdl::CursedWin.under_rule50(true), Wdl::Draw);
}

/// A path without tables fails cleanly and leaves none loaded; an empty path unloads.
#[test]
fn bad_paths() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    assert!(tablebase::load("/nonexistent/squall/syzygy").is_err());
    assert_eq!(tablebase::max_pieces(), 0);
    let empty = Scratch::new("tb-empty");
    assert!(tablebase::load(empty.to_str().unwrap()).is_err());
    assert_eq!(tablebase::max_pieces(), 0);
    assert_eq!(tablebase::load("").unwrap().largest, 0);
    assert_eq!(tablebase::load("<empty>").unwrap().largest, 0);
    let pos = Position::from_fen("8/8/8/8/8/2k5/8/K6Q w - - 0 1").unwrap();
    assert_eq!(tablebase::probe_wdl(&pos), None);
    if let Some(dir) = tables() {
        let loaded = tablebase::load(&format!("/nonexistent/x:{}", dir.display())).unwrap();
        assert_eq!(loaded.largest, 4);
        assert_eq!(loaded.missing, vec!["/nonexistent/x".to_string()]);
        assert_eq!(tablebase::probe_wdl(&pos), Some(Wdl::Win));
        tablebase::unload();
    }
}

/// Fifty-move awareness at the root: with many plies on the counter, the kept moves are those
/// that still reach a zeroing move in time, or the fastest ones when none does; with
/// `Syzygy50MoveRule` off, a win beyond the counter still shows as a tablebase win.
#[test]
fn root_ranking_under_the_fifty_move_counter() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(dir) = tables() else {
        return;
    };
    load(&dir);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(50);
    let (mut checked, mut strict) = (0, 0);
    let mut i = 0;
    while checked < 300 {
        let table = ["KQvK", "KRvK", "KBNvK", "KQvKR", "KRvKN", "KBBvK"][i % 6];
        i += 1;
        let Some(fen) = random_fen(&mut rng, table) else {
            continue;
        };
        let fields: Vec<&str> = fen.split(' ').collect();
        let pos0 = Position::from_fen(&format!("{} {} - - 0 1", fields[0], fields[1])).unwrap();
        if tablebase::probe_wdl(&pos0) != Some(Wdl::Win) {
            continue;
        }
        let cnt50 = 60 + rand(&mut rng, 40) as i32;
        let pos =
            Position::from_fen(&format!("{} {} - - {cnt50} 1", fields[0], fields[1])).unwrap();
        let probe = tablebase::probe_root(&pos, true, false).unwrap();
        let wins: Vec<_> = probe.moves.iter().filter(|m| m.dtz > 0).collect();
        let min = wins.iter().map(|m| m.dtz).min().unwrap();
        let best_rank = probe.moves[0].rank;
        let kept: Vec<_> = probe.moves.iter().filter(|m| m.rank == best_rank).collect();
        let allowed = min.max(99 - cnt50);
        for m in &kept {
            assert!(
                m.dtz > 0 && m.dtz <= allowed,
                "{fen} with {cnt50} plies: kept {} of dtz {} (fastest {min})",
                m.mv.to_uci(),
                m.dtz
            );
        }
        if min + cnt50 > 100 {
            strict += 1;
            // A cursed win (the zeroing move comes after the hundredth ply): a draw under the
            // rule, a small plus; a win without it.
            assert!(tablebase::rank_score(best_rank, true) < 100, "{fen}");
            assert_eq!(
                tablebase::rank_score(best_rank, false),
                tablebase::TB_WIN,
                "{fen}"
            );
        } else {
            assert_eq!(
                tablebase::rank_score(best_rank, true),
                tablebase::TB_WIN,
                "{fen}"
            );
        }
        checked += 1;
    }
    eprintln!("{checked} won roots with 60-99 plies on the counter, {strict} past it");
    assert!(strict > 0);
}

/// The protocols: bad paths are reported and the engine plays on; with tables, `tbhits` counts
/// probes and a won root shows the tablebase score.
#[test]
fn uci_and_xboard_options() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mut e = Engine::start(&[]);
    e.send("uci");
    let lines = e.until(|l| l == "uciok", secs(10.0));
    for name in [
        "SyzygyPath type string default <empty>",
        "SyzygyProbeDepth type spin default 1 min 1 max 100",
        "SyzygyProbeLimit type spin default 7 min 0 max 7",
        "Syzygy50MoveRule type check default true",
    ] {
        assert!(
            lines.iter().any(|l| l == &format!("option name {name}")),
            "{name}: {lines:?}"
        );
    }
    e.send("setoption name SyzygyPath value /nonexistent/squall-syzygy");
    let l = e.expect("info string", secs(10.0));
    assert!(
        l.starts_with("info string error: no Syzygy tablebases found"),
        "{l}"
    );
    e.send("position fen 8/8/8/4k3/8/8/8/KBN5 w - - 0 1");
    e.send("go depth 3");
    let lines = e.until(|l| l.starts_with("bestmove"), secs(20.0));
    assert!(lines.iter().any(|l| l.contains(" tbhits 0 ")), "{lines:?}");
    if let Some(dir) = tables() {
        e.send(&format!(
            "setoption name SyzygyPath value {}",
            dir.display()
        ));
        let l = e.expect("info string", secs(10.0));
        assert!(l.contains("up to 4 pieces"), "{l}");
        // KQvK after Qxr: the search probes after the capture.
        e.send("position fen 8/8/8/3k4/8/8/2r5/KQ6 w - - 0 1");
        e.send("go depth 6");
        let lines = e.until(|l| l.starts_with("bestmove"), secs(20.0));
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap();
        let hits: u64 = last
            .split(" tbhits ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(hits > 0, "{last}");
        assert!(
            last.contains(&format!("score cp {}", tablebase::TB_WIN))
                || last.contains("score mate"),
            "{last}"
        );
        assert_eq!(
            lines.last().unwrap().split(' ').nth(1),
            Some("b1c2"),
            "{lines:?}"
        );
    }
    e.quit_within(secs(10.0));

    let mut x = Engine::start(&[]);
    x.send_all(&["xboard", "protover 2"]);
    let lines = x.until(|l| l == "feature done=1", secs(10.0));
    assert!(
        lines.iter().any(|l| l.contains("egt=\"syzygy\"")),
        "{lines:?}"
    );
    x.send("egtpath syzygy /nonexistent/squall-syzygy");
    let l = x.expect("Error", secs(10.0));
    assert!(l.contains("no Syzygy tablebases found"), "{l}");
    if let Some(dir) = tables() {
        x.send(&format!("egtpath syzygy {}", dir.display()));
        let l = x.expect("#", secs(10.0));
        assert!(l.contains("up to 4 pieces"), "{l}");
    }
    x.quit_within(secs(10.0));
}

/// Conversion: from won positions of several tables, Squall with tables playing both sides
/// mates within the fifty-move rule (zeroing moves reset the counter), without repetitions.
#[test]
fn converts_won_endings() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(dir) = tables() else {
        return;
    };
    load(&dir);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4949);
    let mut starts = Vec::new();
    for table in [
        "KBNvK", "KQvKR", "KRvK", "KBBvK", "KPvK", "KQvKP", "KRvKN", "KQvKN",
    ] {
        loop {
            let Some(fen) = random_fen(&mut rng, table) else {
                continue;
            };
            let pos = Position::from_fen(&fen).unwrap();
            if pos.halfmove_clock() == 0
                && tablebase::probe_wdl(&pos) == Some(Wdl::Win)
                && tablebase::probe_dtz(&pos).unwrap() >= 15
            {
                starts.push(fen);
                break;
            }
        }
    }
    tablebase::unload();
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until(|l| l == "uciok", secs(10.0));
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    e.expect("info string", secs(10.0));
    for fen in &starts {
        let mut pos = Position::from_fen(fen).unwrap();
        let winner = pos.side_to_move();
        let mut moves: Vec<String> = Vec::new();
        loop {
            assert!(moves.len() < 400, "{fen}: no mate in 400 plies: {moves:?}");
            let legal = pos.legal_moves();
            if legal.is_empty() {
                assert!(
                    pos.in_check() && pos.side_to_move() != winner,
                    "{fen}: {moves:?}"
                );
                break;
            }
            assert!(pos.halfmove_clock() < 100, "{fen}: fifty moves: {moves:?}");
            assert!(pos.repetition_count() < 3, "{fen}: threefold: {moves:?}");
            e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
            e.send("go nodes 4000");
            let best = e.expect("bestmove", secs(20.0));
            let mv = best.split(' ').nth(1).unwrap().to_string();
            let m = pos.parse_uci_move(&mv).unwrap();
            pos.make(m);
            moves.push(mv);
        }
        eprintln!("{fen}: mate in {} plies", moves.len());
    }
    e.quit_within(secs(10.0));
}
