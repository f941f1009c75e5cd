//! Syzygy probing against python-chess's `chess.syzygy` on the same files: WDL and DTZ of
//! random 3- and 4-piece positions (both sides to move, en-passant squares where a capture is
//! possible, random fifty-move counters), and root ranking consistent with the WDL tables.
//!
//! The tables: `$SQUALL_SYZYGY`, else the project's `shared/syzygy` beside the repository.
//! Python: `$SQUALL_PYTHON`, else `python3`. Either missing skips the test with a message.

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;

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

fn python_chess() -> Option<String> {
    let py = std::env::var("SQUALL_PYTHON").unwrap_or_else(|_| "python3".into());
    let ok = Command::new(&py)
        .args(["-c", "import chess.syzygy"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if ok {
        Some(py)
    } else {
        eprintln!("skipped: {py} has no python-chess (pip install chess)");
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
    let tmp = std::env::temp_dir().join(format!("squall-tb-{}.fens", std::process::id()));
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
    let _ = std::fs::remove_file(&tmp);
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
    let (Some(dir), Some(py)) = (tables(), python_chess()) else {
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
    let empty = std::env::temp_dir().join(format!("squall-tb-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    assert!(tablebase::load(empty.to_str().unwrap()).is_err());
    assert_eq!(tablebase::max_pieces(), 0);
    let _ = std::fs::remove_dir(&empty);
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
