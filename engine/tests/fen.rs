//! FEN: round trips on every suite position, and typed errors (never a panic) on malformed input.

use squall::board::fen::FenError;
use squall::Position;

const SUITES: [&str; 6] = [
    "wac.epd",
    "wacnew.epd",
    "ecm.epd",
    "wcsac.epd",
    "perftsuite.epd",
    "perft_cpw.epd",
];

/// The FEN part of an EPD or perft line: the first four fields, plus the counters when the line
/// carries them.
fn fen_of(line: &str) -> String {
    let head = line.split(';').next().unwrap_or("");
    let fields: Vec<&str> = head.split_whitespace().collect();
    let counters =
        fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok();
    let n = if counters { 6 } else { 4 };
    fields[..n.min(fields.len())].join(" ")
}

#[test]
fn every_suite_position_round_trips() {
    let mut total = 0;
    for suite in SUITES {
        let path = format!("{}/../suites/{suite}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("suite present");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let fen = fen_of(line);
            let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{suite}: {fen}: {e}"));
            let out = pos.to_fen();
            // Board, side and castling survive verbatim; the en-passant field survives whenever
            // a capture is possible (otherwise it is dropped by design).
            let a: Vec<&str> = fen.split_whitespace().collect();
            let b: Vec<&str> = out.split_whitespace().collect();
            assert_eq!(a[..3], b[..3], "{suite}: {fen} -> {out}");
            if b[3] != "-" {
                assert_eq!(a[3], b[3]);
            }
            let again = Position::from_fen(&out).expect("own output parses");
            assert_eq!(again.to_fen(), out);
            assert_eq!(again.key(), pos.key());
            total += 1;
        }
    }
    assert!(total > 2500, "only {total} positions read");
}

#[test]
fn en_passant_field_kept_only_when_capturable() {
    let with = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    assert_eq!(Position::from_fen(with).unwrap().to_fen(), with);
    let without = "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 2";
    let p = Position::from_fen(without).unwrap();
    assert!(p.to_fen().contains(" - "));
}

#[test]
fn counters_are_optional() {
    let p = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").unwrap();
    assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn inconsistent_castling_rights_are_dropped() {
    let p = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1").unwrap();
    assert_eq!(p.castling(), 0);
}

#[test]
fn malformed_fens_give_typed_errors() {
    use FenError::*;
    type Expect = fn(&FenError) -> bool;
    let cases: Vec<(&str, Expect)> = vec![
        ("", |e| *e == Empty),
        ("   ", |e| *e == Empty),
        ("8/8/8/8/8/8/8/8", |e| matches!(e, MissingFields(1))),
        ("4k3/8/8/8/8/8/8/4K3 w", |e| matches!(e, MissingFields(2))),
        ("4k3/8/8/8/8/8/8/4K3 w -", |e| matches!(e, MissingFields(3))),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", |e| {
            matches!(e, TooManyFields(7))
        }),
        ("4k3/8/8/8/8/8/4K3 w - - 0 1", |e| {
            matches!(e, WrongRankCount(7))
        }),
        ("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", |e| {
            matches!(e, WrongRankCount(9))
        }),
        ("4k3/8/8/8/8/8/8/4K2 w - - 0 1", |e| {
            matches!(e, RankLength { .. })
        }),
        ("4k4/8/8/8/8/8/8/4K3 w - - 0 1", |e| {
            matches!(e, RankLength { .. })
        }),
        ("4k3/8/8/8/8/8/8/4K3p w - - 0 1", |e| {
            matches!(e, RankLength { .. })
        }),
        ("4k3/8/8/8/8/8/8/44K w - - 0 1", |e| {
            matches!(e, RankLength { .. })
        }),
        ("4k3/8/8/8/8/8/8/4X3 w - - 0 1", |e| {
            matches!(e, BadPieceChar('X'))
        }),
        ("4k3/8/8/8/8/8/8/4K2* w - - 0 1", |e| {
            matches!(e, BadPieceChar('*'))
        }),
        ("4k3/8/8/8/8/8/8/4K0 w - - 0 1", |e| {
            matches!(e, BadDigit('0'))
        }),
        ("4k3/8/8/8/8/8/8/9 w - - 0 1", |e| {
            matches!(e, BadDigit('9'))
        }),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", |e| {
            matches!(e, KingCount { count: 0, .. })
        }),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", |e| {
            matches!(e, KingCount { count: 0, .. })
        }),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", |e| {
            matches!(e, KingCount { count: 2, .. })
        }),
        ("kk6/8/8/8/8/8/8/4K3 w - - 0 1", |e| {
            matches!(e, KingCount { count: 2, .. })
        }),
        ("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", |e| {
            matches!(e, TooManyPieces(_))
        }),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", |e| *e == PawnOnBackRank),
        ("p3k3/8/8/8/8/8/8/4K3 w - - 0 1", |e| *e == PawnOnBackRank),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", |e| matches!(e, BadSide(_))),
        ("4k3/8/8/8/8/8/8/4K3 W - - 0 1", |e| matches!(e, BadSide(_))),
        ("4k3/8/8/8/8/8/8/4K3 w KX - 0 1", |e| {
            matches!(e, BadCastling(_))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w KK - 0 1", |e| {
            matches!(e, BadCastling(_))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w -- - 0 1", |e| {
            matches!(e, BadCastling(_))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", |e| {
            matches!(e, BadEnPassant(_))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w - x6 0 1", |e| {
            matches!(e, BadEnPassant(_))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", |e| {
            matches!(e, EnPassantWrongRank(_))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", |e| {
            matches!(e, EnPassantNoPawn(_))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", |e| {
            matches!(e, BadHalfmove(_))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", |e| {
            matches!(e, BadHalfmove(_))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 y", |e| {
            matches!(e, BadFullmove(_))
        }),
        ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", |e| *e == OpponentInCheck),
        ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", |e| *e == OpponentInCheck),
        ("4k3/8/8/8/8/8/8/3K1k2 w - - 0 1", |e| {
            matches!(e, KingCount { .. })
        }),
        ("4k3/8/8/8/8/8/8/4Kk2 b - - 0 1", |e| {
            *e == OpponentInCheck || matches!(e, KingCount { .. })
        }),
        ("4k3/8/8/8/7b/3n4/8/r3K3 w - - 0 1", |e| {
            *e == TooManyCheckers
        }),
    ];
    let mut errors = 0;
    for (fen, ok) in &cases {
        match Position::from_fen(fen) {
            Err(e) => {
                assert!(ok(&e), "{fen:?} gave unexpected error {e:?}");
                assert!(!e.to_string().is_empty());
                errors += 1;
            }
            Ok(_) => panic!("{fen:?} parsed but should not"),
        }
    }
    assert!(errors >= 30, "only {errors} malformed FENs rejected");
}

#[test]
fn mutated_fens_never_panic() {
    // Byte-level mutations of valid FENs: every result is either a position or an error.
    let base = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let alphabet = b"pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0x9";
    let bytes = base.as_bytes();
    let mut state = 12345u64;
    for _ in 0..20_000 {
        let mut v = bytes.to_vec();
        for _ in 0..3 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let i = (state >> 33) as usize % v.len();
            let c = alphabet[(state >> 17) as usize % alphabet.len()];
            match state % 3 {
                0 => v[i] = c,
                1 => v.insert(i, c),
                _ => {
                    v.remove(i);
                }
            }
        }
        let s = String::from_utf8_lossy(&v);
        if let Ok(p) = Position::from_fen(&s) {
            p.validate()
                .expect("accepted FEN gives a consistent position");
            let _ = p.legal_moves();
        }
    }
}

/// The correction history's per-colour key of the pieces other than pawns: pawn moves leave
/// it alone, a piece move changes only its own colour's, and make/unmake restores it.
#[test]
fn non_pawn_keys_follow_the_pieces_only() {
    use squall::types::Colour::{Black, White};
    let mut pos =
        Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .expect("valid FEN");
    let (w, b) = (pos.non_pawn_key(White), pos.non_pawn_key(Black));
    assert_ne!(w, b);
    let pawn_move = pos.parse_uci_move("d2d3").expect("legal");
    pos.make(pawn_move);
    assert_eq!((pos.non_pawn_key(White), pos.non_pawn_key(Black)), (w, b));
    let knight_move = pos.parse_uci_move("g8f6").expect("legal");
    pos.make(knight_move);
    assert_eq!(pos.non_pawn_key(White), w);
    assert_ne!(pos.non_pawn_key(Black), b);
    pos.unmake();
    pos.unmake();
    assert_eq!((pos.non_pawn_key(White), pos.non_pawn_key(Black)), (w, b));
}
