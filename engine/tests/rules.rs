//! Hand-checked rule cases: en passant pins, castling through check, notation, draw rules.

use squall::board::notation::MoveParseError;
use squall::Position;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("test FEN is valid")
}

fn legal_uci(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|m| m.to_uci()).collect();
    v.sort();
    v
}

#[test]
fn en_passant_horizontal_pin_is_illegal() {
    let p = pos("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    assert!(!legal_uci(&p).contains(&"e5d6".to_string()));
    assert!(p.parse_uci_move("e5d6").is_err());
    // Without the rook the capture is fine.
    let p = pos("8/8/8/K2pP3/8/8/8/7k w - d6 0 1");
    assert!(legal_uci(&p).contains(&"e5d6".to_string()));
}

#[test]
fn en_passant_removes_a_checking_pawn() {
    // Black's d5 pawn just advanced two squares and checks the king on e4.
    let p = pos("8/8/8/3pP3/4K3/8/8/7k w - d6 0 1");
    assert!(p.in_check());
    assert!(legal_uci(&p).contains(&"e5d6".to_string()));
}

#[test]
fn en_passant_diagonal_pin_is_illegal() {
    // The e4 pawn is pinned to the king on b7 by the bishop on g2; taking d4 en passant (or
    // pushing) would leave the diagonal.
    let p = pos("8/1k6/8/8/3Pp3/8/6B1/4K3 b - d3 0 1");
    assert_eq!(p.ep_square(), squall::types::parse_square("d3").unwrap());
    let l = legal_uci(&p);
    assert!(!l.contains(&"e4d3".to_string()) && !l.contains(&"e4e3".to_string()));
    // Without the bishop both are fine.
    let p = pos("8/1k6/8/8/3Pp3/8/8/4K3 b - d3 0 1");
    let l = legal_uci(&p);
    assert!(l.contains(&"e4d3".to_string()) && l.contains(&"e4e3".to_string()));
}

#[test]
fn castling_rules() {
    // Free to castle both ways.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let l = legal_uci(&p);
    assert!(l.contains(&"e1g1".into()) && l.contains(&"e1c1".into()));
    // Through check (f1 attacked) — no short castling; long is fine.
    let p = pos("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1");
    let l = legal_uci(&p);
    assert!(!l.contains(&"e1g1".into()));
    // Into check (g1 attacked by a bishop on c5... use a rook on g8).
    let p = pos("r3k1r1/8/8/8/8/8/8/R3K2R w KQq - 0 1");
    assert!(!legal_uci(&p).contains(&"e1g1".into()));
    // Out of check.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2r w Qkq - 0 1");
    assert!(!legal_uci(&p).contains(&"e1c1".into()));
    // b1 attacked does not stop long castling, b1 occupied does.
    let p = pos("r3k2r/8/8/8/8/8/8/Rr2K2R w KQkq - 0 1");
    assert!(!legal_uci(&p).contains(&"e1c1".into()));
    let p = pos("1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1");
    assert!(legal_uci(&p).contains(&"e1c1".into()));
}

#[test]
fn san_output() {
    let mut p = pos("r3k2r/1P6/8/3pP3/8/2N5/8/R3K1NR w KQkq d6 0 1");
    let san = |p: &mut Position, uci: &str| {
        let m = p.parse_uci_move(uci).unwrap();
        p.to_san(m)
    };
    assert_eq!(san(&mut p, "e5d6"), "exd6");
    assert_eq!(san(&mut p, "e1c1"), "O-O-O");
    assert_eq!(san(&mut p, "b7a8q"), "bxa8=Q+");
    assert_eq!(san(&mut p, "b7b8n"), "b8=N");
    assert_eq!(san(&mut p, "g1e2"), "Nge2");
    assert_eq!(san(&mut p, "c3e2"), "Nce2");
    let mut p = pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(san(&mut p, "e1g1"), "O-O");
    assert_eq!(san(&mut p, "a1d1"), "Rd1"); // the h1 rook is blocked by the king
    let mut p = pos("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
    assert_eq!(san(&mut p, "a1d1"), "Rad1");
    // Rank disambiguation, and a square when neither file nor rank alone suffices.
    let mut p = pos("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    assert_eq!(san(&mut p, "a1a3"), "R1a3");
    let mut p = pos("k7/8/8/8/8/2Q1Q3/8/2Q1K3 w - - 0 1");
    assert_eq!(san(&mut p, "c3d2"), "Qc3d2");
    // Mate mark.
    let mut p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    assert_eq!(san(&mut p, "a1a8"), "Ra8#");
}

#[test]
fn san_and_coordinate_input() {
    let p = pos("r3k2r/1P6/8/3pP3/8/2N5/8/R3K1NR w KQkq d6 0 1");
    let uci = |s: &str| p.parse_move(s).map(|m| m.to_uci());
    assert_eq!(uci("exd6"), Ok("e5d6".into()));
    assert_eq!(uci("exd6e.p."), Ok("e5d6".into()));
    assert_eq!(uci("O-O-O"), Ok("e1c1".into()));
    assert_eq!(uci("0-0-0"), Ok("e1c1".into()));
    assert_eq!(uci("bxa8=Q+"), Ok("b7a8q".into()));
    assert_eq!(uci("bxa8Q"), Ok("b7a8q".into()));
    assert_eq!(uci("b8=N!?"), Ok("b7b8n".into()));
    assert_eq!(uci("Nge2"), Ok("g1e2".into()));
    assert_eq!(uci("N1e2"), Ok("g1e2".into()));
    assert_eq!(uci("e1a1"), Ok("e1c1".into()));
    assert_eq!(uci("e5d6"), Ok("e5d6".into()));
    assert!(matches!(
        p.parse_move("Ne2"),
        Err(MoveParseError::Ambiguous(_))
    ));
    assert!(p.parse_move("Nf3").is_ok());
    assert!(matches!(
        p.parse_move("Qd4"),
        Err(MoveParseError::Illegal(_))
    ));
    assert!(matches!(
        p.parse_move("e1e3"),
        Err(MoveParseError::Illegal(_))
    ));
    assert!(matches!(
        p.parse_move("b8"),
        Err(MoveParseError::Illegal(_))
    ));
    for bad in [
        "", "e", "zz", "e9e4", "Nxx", "exd6x", "b8=K", "@@@", "é4", "e2e4qq",
    ] {
        assert!(
            matches!(p.parse_move(bad), Err(MoveParseError::Malformed(_))),
            "{bad:?}"
        );
    }
}

#[test]
fn repetition_and_claims() {
    let mut p = Position::startpos();
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for m in shuffle {
        let mv = p.parse_uci_move(m).unwrap();
        p.make(mv);
    }
    // Back at the start: repeated once. Inside a search of 4 plies that is a draw; as a
    // game claim it needs a third occurrence.
    assert!(p.is_repetition(4));
    assert!(!p.is_repetition(0));
    assert_eq!(p.repetition_count(), 2);
    for m in shuffle {
        let mv = p.parse_uci_move(m).unwrap();
        p.make(mv);
    }
    assert_eq!(p.repetition_count(), 3);
    assert!(p.is_repetition(0));
}

#[test]
fn fifty_move_rule_and_mate_on_the_hundredth_half_move() {
    let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 100 80");
    assert!(p.is_fifty_move_draw());
    let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert!(!p.is_fifty_move_draw());
    // Ra8 mates with the clock reaching 100: checkmate, not a draw.
    let mut p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
    let m = p.parse_uci_move("a1a8").unwrap();
    p.make(m);
    assert_eq!(p.halfmove_clock(), 100);
    assert!(p.in_check() && !p.has_legal_move());
    assert!(!p.is_fifty_move_draw());
}

#[test]
fn insufficient_material() {
    for (fen, dead) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
        ("4kb2/8/8/8/8/8/8/4K3 w - - 0 1", true),
        ("4kb2/8/8/8/8/8/8/4KB2 w - - 0 1", false), // f8 dark? f8 is dark, f1 light: mate possible
        ("4k1b1/8/8/8/8/8/8/4KB2 w - - 0 1", true), // g8 and f1 both light
        ("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/4KBN1 w - - 0 1", false),
        ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", false),
    ] {
        assert_eq!(pos(fen).is_insufficient_material(), dead, "{fen}");
    }
}
