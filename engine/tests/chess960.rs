//! Chess960: the published perft table, FEN in X-FEN and Shredder-FEN, castling with king and
//! rook anywhere, and seeded random games from all 960 start positions replayed through
//! make/unmake with full state checks and compared with python-chess (`chess960=True`).

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use squall::movegen::GenType;
use squall::{Move, MoveList, Position};

/// Perft depth for every line of the table: debug builds validate inside every make.
const PERFT_DEPTH: u32 = if cfg!(debug_assertions) { 2 } else { 4 };
/// Random games: one from each start position in release, every 16th in debug builds.
const GAME_STEP: usize = if cfg!(debug_assertions) { 16 } else { 1 };
const MAX_PLIES: usize = 120;
const SEED: u64 = 0x960_2026;

/// The back rank of Chess960 start position `n` (Scharnagl numbering: 518 is the standard one).
fn start_rank(n: usize) -> [char; 8] {
    let mut rank = [' '; 8];
    let (n2, light) = (n / 4, n % 4);
    rank[2 * light + 1] = 'B';
    let (n3, dark) = (n2 / 4, n2 % 4);
    rank[2 * dark] = 'B';
    let (n4, queen) = (n3 / 6, n3 % 6);
    let place = |rank: &mut [char; 8], i: usize, piece: char| {
        let f = (0..8).filter(|&f| rank[f] == ' ').nth(i).unwrap();
        rank[f] = piece;
    };
    place(&mut rank, queen, 'Q');
    let knights = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ][n4];
    // The second knight's index counts the squares left after the first is placed.
    place(&mut rank, knights.0, 'N');
    place(&mut rank, knights.1 - 1, 'N');
    for piece in ['R', 'K', 'R'] {
        place(&mut rank, 0, piece);
    }
    rank
}

fn start_fen(n: usize) -> String {
    let white: String = start_rank(n).iter().collect();
    let black = white.to_ascii_lowercase();
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1")
}

#[test]
fn start_positions() {
    assert_eq!(start_fen(518), squall::board::fen::START_FEN);
    assert_eq!(start_rank(0).iter().collect::<String>(), "BBQNNRKR");
    assert_eq!(start_rank(959).iter().collect::<String>(), "RKRNNQBB");
    let mut seen = std::collections::HashSet::new();
    for n in 0..960 {
        let pos = Position::from_fen_960(&start_fen(n)).unwrap();
        assert_eq!(pos.castling(), 15, "{n}");
        assert_eq!(pos.to_fen(), start_fen(n));
        assert!(seen.insert(pos.key()));
        let r = start_rank(n);
        let standard = r[0] == 'R' && r[4] == 'K' && r[7] == 'R';
        assert_eq!(pos.is_standard_castling(), standard, "{n}");
    }
}

#[test]
fn fen_forms() {
    // Shredder-FEN and X-FEN give the same position; output is X-FEN.
    let shredder = Position::from_fen_960("qbbnnrkr/8/8/8/8/8/8/QBBNNRKR w HFhf - 0 1").unwrap();
    let xfen = Position::from_fen_960("qbbnnrkr/8/8/8/8/8/8/QBBNNRKR w KQkq - 0 1").unwrap();
    assert_eq!(shredder, xfen);
    assert_eq!(xfen.to_fen(), "qbbnnrkr/8/8/8/8/8/8/QBBNNRKR w KQkq - 0 1");
    // An inner rook's right needs its file letter; the outer one keeps K.
    let inner = Position::from_fen_960("4k3/8/8/8/8/8/8/R2K1RR1 w F - 0 1").unwrap();
    assert_eq!(inner.to_fen(), "4k3/8/8/8/8/8/8/R2K1RR1 w F - 0 1");
    let outer = Position::from_fen_960("4k3/8/8/8/8/8/8/R2K1RR1 w K - 0 1").unwrap();
    assert_eq!(outer.to_fen(), "4k3/8/8/8/8/8/8/R2K1RR1 w K - 0 1");
    assert_ne!(inner.key(), outer.key());
    // Standard parsing keeps only standard rights; `from_fen_auto` picks the variant.
    let fen = "r2k3r/8/8/8/8/8/8/R2K3R w KQkq - 0 1";
    assert_eq!(Position::from_fen(fen).unwrap().castling(), 0);
    let auto = Position::from_fen_auto(fen).unwrap();
    assert!(auto.is_chess960() && auto.castling() == 15);
    let std = Position::from_fen_auto("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").unwrap();
    assert!(!std.is_chess960() && std.castling() == 15);
    assert_eq!(
        std.key(),
        Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
            .unwrap()
            .key()
    );
}

fn castle_moves(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.is_castle())
        .map(|&m| pos.move_to_uci(m))
        .collect();
    v.sort();
    v
}

#[test]
fn castling_corner_cases() {
    // King already on g1, rook on h1: castling short moves only the rook. The long right is
    // the inner rook's (b1), so it needs its file letter.
    let mut pos = Position::from_fen_960("4k3/8/8/8/8/8/8/RR4KR w KB - 0 1").unwrap();
    assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/RR4KR w KB - 0 1");
    assert_eq!(castle_moves(&pos), ["g1b1", "g1h1"]);
    let before = pos.clone();
    let m = pos.parse_uci_move("g1h1").unwrap();
    assert_eq!(pos.to_san(m), "O-O");
    pos.make(m);
    assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/RR3RK1 b - - 1 1");
    pos.unmake();
    assert_eq!(pos, before);
    // The plain king step g1f1 is not a castle, and says so in coordinates.
    assert!(!pos.parse_uci_move("g1f1").unwrap().is_castle());
    // Long: the king travels g1 -> c1 and the rook b1 -> d1.
    let m = pos.parse_uci_move("g1b1").unwrap();
    assert_eq!(pos.to_san(m), "O-O-O");
    pos.make(m);
    assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/R1KR3R b - - 1 1");
    pos.unmake();
    assert_eq!(pos, before);
    // The rook lands where the king stood: king f1 -> g1, rook h1 -> f1.
    let mut pos = Position::from_fen_960("4k3/8/8/8/8/8/8/5K1R w K - 0 1").unwrap();
    let m = pos.parse_uci_move("f1h1").unwrap();
    pos.make(m);
    assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    // The castling rook shields the king's target: a1's rook sees c1 once b1's rook has gone.
    let pos = Position::from_fen_960("4k3/8/8/8/8/8/8/rR1K4 w Q - 0 1").unwrap();
    assert!(castle_moves(&pos).is_empty());
    let pos = Position::from_fen_960("4k3/8/8/8/8/8/8/1R1K4 w Q - 0 1").unwrap();
    assert_eq!(castle_moves(&pos), ["d1b1"]);
    // The king's path is attacked (e1 by the rook on e8): no short castle from d1.
    let pos = Position::from_fen_960("4r1k1/8/8/8/8/8/8/3K3R w K - 0 1").unwrap();
    assert!(castle_moves(&pos).is_empty());
    // A piece between rook and its target blocks; the king and rook themselves do not.
    let pos = Position::from_fen_960("4k3/8/8/8/8/8/8/1KR2B2 w K - 0 1").unwrap();
    assert!(castle_moves(&pos).is_empty());
    let pos = Position::from_fen_960("4k3/8/8/8/8/8/8/1KR5 w K - 0 1").unwrap();
    assert_eq!(castle_moves(&pos), ["b1c1"]);
}

#[test]
fn perft960_table() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/suites/perft960.epd");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: no {}", path.display());
        return;
    };
    let mut lines = 0;
    for (i, line) in text.lines().enumerate() {
        let case = squall::perft::parse_perft_line(line).unwrap();
        let mut pos = Position::from_fen_960(&case.fen).unwrap();
        for &(depth, want) in case.expected.iter().filter(|(d, _)| *d <= PERFT_DEPTH) {
            let got = squall::perft::perft(&mut pos, depth);
            assert_eq!(got, want, "line {}: D{depth} {}", i + 1, case.fen);
        }
        lines += 1;
    }
    assert_eq!(lines, 960);
}

/// Legal moves by brute force: pseudo-legal moves that do not leave the king attacked, and
/// castles whose king path is safe (checked square by square on the board after the move).
fn make_and_test(pos: &mut Position) -> Vec<Move> {
    let mut pseudo = MoveList::new();
    pos.generate(GenType::All, &mut pseudo);
    let us = pos.side_to_move();
    let them = us.flip();
    let mut legal = Vec::new();
    for &m in pseudo.iter() {
        if m.is_castle() {
            if pos.in_check() {
                continue;
            }
            let d: i16 = if m.to() > m.from() { 1 } else { -1 };
            let mut s = m.from();
            let mut safe = true;
            while s != m.to() {
                s = (s as i16 + d) as u8;
                safe &= !pos.is_attacked(s, them);
            }
            pos.make(m);
            safe &= !pos.is_attacked(pos.king(us), them);
            pos.unmake();
            if safe {
                legal.push(m);
            }
            continue;
        }
        pos.make(m);
        if !pos.is_attacked(pos.king(us), them) {
            legal.push(m);
        }
        pos.unmake();
    }
    legal.sort_by_key(|m| m.0);
    legal
}

/// Plays the seeded random games; returns every position's FEN and its legal moves in
/// Chess960 coordinates, sorted.
fn random_games() -> Vec<(String, Vec<String>)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    let mut out = Vec::new();
    let mut castles = 0;
    for n in (0..960).step_by(GAME_STEP) {
        let mut pos = Position::from_fen_960(&start_fen(n)).unwrap();
        for _ in 0..MAX_PLIES {
            let mut legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
            legal.sort_by_key(|m| m.0);
            assert_eq!(legal, make_and_test(&mut pos), "{}", pos.to_fen());
            let fen = pos.to_fen();
            let again = Position::from_fen_960(&fen).unwrap();
            assert_eq!(again.key(), pos.key(), "{fen}");
            assert_eq!(again.to_fen(), fen);
            let mut text: Vec<String> = legal.iter().map(|&m| pos.move_to_uci(m)).collect();
            text.sort();
            out.push((fen, text));
            if legal.is_empty() || pos.halfmove_clock() >= 100 {
                break;
            }
            for &m in &legal {
                let uci = pos.move_to_uci(m);
                assert_eq!(pos.parse_uci_move(&uci), Ok(m), "{uci}");
                let san = pos.to_san(m);
                assert_eq!(pos.parse_san(&san), Ok(m), "{san}");
                assert_eq!(pos.gives_check(m), {
                    pos.make(m);
                    let c = pos.in_check();
                    pos.unmake();
                    c
                });
            }
            // Castle whenever possible half the time, so that castling is well exercised.
            let castle: Vec<Move> = legal.iter().copied().filter(|m| m.is_castle()).collect();
            let m = if !castle.is_empty() && rng.next_u32() % 2 == 0 {
                castles += 1;
                castle[rng.next_u32() as usize % castle.len()]
            } else {
                legal[rng.next_u32() as usize % legal.len()]
            };
            let before = pos.clone();
            pos.make(m);
            pos.validate().unwrap();
            pos.unmake();
            assert_eq!(pos, before, "unmake of {m:?} in {}", before.to_fen());
            pos.make(m);
        }
    }
    assert!(castles > 960 / GAME_STEP / 2, "only {castles} castles");
    out
}

const PY_LEGAL: &str = "
import sys, chess
for line in sys.stdin:
    b = chess.Board(line.strip(), chess960=True)
    print(' '.join(sorted(b.uci(m, chess960=True) for m in b.legal_moves)))
";

#[test]
fn random_games_agree_with_python_chess() {
    let games = random_games();
    let Some(py) = common::python_with("chess") else {
        return;
    };
    let mut child = Command::new(py)
        .args(["-c", PY_LEGAL])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input: String = games.iter().map(|(fen, _)| format!("{fen}\n")).collect();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), games.len());
    for ((fen, ours), theirs) in games.iter().zip(lines) {
        assert_eq!(ours.join(" "), theirs, "{fen}");
    }
    eprintln!("{} positions agree with python-chess", games.len());
}
