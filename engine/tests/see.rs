//! Static exchange evaluation and the attack sets under it: hand-checked exchanges, a
//! `see_ge`/`see` agreement property over the WAC suite, the bitboard attackers and the
//! quiet-check pre-test.
//!
//! Values: pawn 100, knight 325, bishop 325, rook 500, queen 975. Each case's comment walks the
//! exchange; "stop" marks a side standing pat.

use squall::types::Colour;
use squall::{Move, Position};

/// (FEN, move in SAN, expected SEE for the side making the move).
const CASES: &[(&str, &str, i32)] = &[
    // --- simple captures ---
    // Rook takes an undefended pawn: +100.
    ("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "Rxd5", 100),
    // Pawn takes an undefended knight: +325.
    ("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "exd5", 325),
    // Queen takes an undefended queen (the king on e8 is not next to d5): +975.
    ("4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1", "Qxd5", 975),
    // King takes an undefended (checking) pawn: +100.
    ("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "Kxd2", 100),
    // --- defended targets ---
    // PxP, cxd5: 100 - 100 = 0.
    ("4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "exd5", 0),
    // PxN, cxd5: 325 - 100 = 225.
    ("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "exd5", 225),
    // NxP, cxd5: 100 - 325 = -225.
    ("4k3/8/2p5/3p4/8/4N3/8/4K3 w - - 0 1", "Nxd5", -225),
    // RxR, Rd8xd5: 500 - 500 = 0.
    ("3rk3/8/8/3r4/8/8/8/3RK3 w - - 0 1", "Rxd5", 0),
    // BxN, exd5: 325 - 325 = 0.
    ("4k3/8/4p3/3n4/8/1B6/8/4K3 w - - 0 1", "Bxd5", 0),
    // QxP, cxd5: 100 - 975 = -875.
    ("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "Qxd5", -875),
    // RxB, cxd6: 325 - 500 = -175.
    ("4k3/2p5/3b4/8/8/8/8/3RK3 w - - 0 1", "Rxd6", -175),
    // RxQ, exd6: 975 - 500 = 475.
    ("4k3/4p3/3q4/8/8/8/8/3RK3 w - - 0 1", "Rxd6", 475),
    // --- x-rays ---
    // Doubled rooks: Rd2xd5 (+100), Rxd5 (-500), Rd1xd5 (+500) = 100; without the x-ray -400.
    ("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "Rxd5", 100),
    // Queen a2 behind bishop b3: Bxd5 (+100), Nxd5 (-325), Qxd5 (+325) = 100; black could
    // also stop after Bxd5, which gives the same 100.
    ("4k3/8/5n2/3p4/8/1B6/Q7/4K3 w - - 0 1", "Bxd5", 100),
    // Bishop b3 behind queen c4: Qxd5 (+100), exd5 (-975), Bxd5 (+100) = -775.
    ("4k3/8/4p3/3p4/2Q5/1B6/8/4K3 w - - 0 1", "Qxd5", -775),
    // X-ray through the opponent's piece: Nxd4 (+100); Rd6xd4 would uncover Rd8 (Rxd4 wins the
    // rook), so black stops: 100. Without that x-ray: 100 - 325 = -225.
    ("3R4/7k/3r4/8/3p4/5N2/8/4K3 w - - 0 1", "Nxd4", 100),
    // En passant uncovers Rd1 behind the captured d5 pawn: exd6 (+100), cxd6 (-100), Rxd6
    // (+100) = 100.
    ("4k3/2p5/8/3pP3/8/8/8/3RK3 w - d6 0 1", "exd6", 100),
    // --- pins ---
    // Pinned defender: Nf6 is pinned to h8 by Bc3 and d5 is off the pin line, so Rxd5 wins the
    // pawn: 100 (a pin-blind SEE says 100 - 500 = -400).
    ("7k/8/5n2/3p4/8/2B5/8/3RK3 w - - 0 1", "Rxd5", 100),
    // Pinned attacker: after Bxd5 exd5 white's Nc3 is pinned by Bb4, so 325 - 325 = 0 (not
    // the 100 that Nxd5 would add).
    ("4k3/8/4p3/3n4/1b6/1BN5/8/4K3 w - - 0 1", "Bxd5", 0),
    // Pinned piece capturing along its pin line: after Rxe5 (+325) the black rook on e5 pins
    // Re3 to Ke1, but Re3xe5 stays on the line: 325 - 500 = -175.
    ("4r2k/8/8/4N3/8/4R3/8/4K3 b - - 0 1", "Rxe5", -175),
    // A pin appears during the exchange: Ne5 leaves the a1-h8 diagonal, so the bishop on a1
    // now pins Nf6 to Kh8 and Nxd7 wins the pawn: 100.
    ("7k/3p4/5n2/4N3/8/8/8/B3K3 w - - 0 1", "Nxd7", 100),
    // A pin disappears: Qf5 pins Nc5 to Ka5, but Qxe4 takes the pinner off the rank, so Nxe4
    // recaptures: 100 - 975 = -875.
    ("8/8/8/k1n2Q2/4p3/8/8/7K w - - 0 1", "Qxe4", -875),
    // ...unless a rook behind the queen keeps the pin: 100.
    ("8/8/8/k1n2QR1/4p3/8/8/7K w - - 0 1", "Qxe4", 100),
    // --- the king ---
    // King may recapture on an undefended square: Rxd5 (+100), Kxd5 (-500) = -400.
    ("8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1", "Rxd5", -400),
    // Bb3 guards d5, so Kxd5 is illegal: 100.
    ("8/8/4k3/3p4/8/1B6/8/3RK3 w - - 0 1", "Rxd5", 100),
    // Rd1 guards d5 through the vacated d2, so Kxd5 is illegal: 100.
    ("8/8/4k3/3p4/8/8/3R4/3RK3 w - - 0 1", "Rxd5", 100),
    // --- en passant ---
    // Undefended: exd6 e.p. wins the pawn: 100.
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6", 100),
    // Defended by c7: exd6, cxd6 = 0.
    ("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6", 0),
    // --- promotions ---
    // axb8=Q on an undefended square: 325 + (975 - 100) = 1200.
    ("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "axb8=Q", 1200),
    // axb8=Q, Kxb8 (no white guard): 1200 - 975 = 225.
    ("1nk5/P7/8/8/8/8/8/4K3 w - - 0 1", "axb8=Q", 225),
    // bxa8=Q takes the rook, a8 unguarded: 500 + 875 = 1375.
    ("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "bxa8=Q", 1375),
    // Quiet b8=Q under the a8 rook: +875, Rxb8 -975 = -100.
    ("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=Q", -100),
    // Quiet under-promotion b8=N: +225, Rxb8 -325 = -100.
    ("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=N", -100),
    // The recapture promotes: Rxd1 (+325), cxd1=Q (-500 - 875), Kxd1 (+975) = -75.
    ("4k3/8/8/8/3R4/8/2p5/3nK3 w - - 0 1", "Rxd1", -75),
    // --- quiet moves and castling ---
    // Knight to a square the d5 pawn attacks: dxe4 = -325.
    ("4k3/8/8/3p4/8/8/5N2/4K3 w - - 0 1", "Ne4", -325),
    // Knight to a safe square: 0.
    ("4k3/8/8/3p4/8/8/5N2/4K3 w - - 0 1", "Nd3", 0),
    // Nd4 is attacked by Rd8 but guarded by e3: Rxd4 exd4 loses the exchange, black declines: 0.
    ("3rk3/8/8/8/8/4PN2/8/4K3 w - - 0 1", "Nd4", 0),
    // Castling is never an exchange: 0.
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", 0),
    // --- standing pat ---
    // exd5 (+325); Qxd5 would lose the queen to Nc3, so black stops: 325.
    ("3qk3/8/8/3n4/4P3/2N5/8/4K3 w - - 0 1", "exd5", 325),
    // Rxd5 (+100), cxd5 (-500); Qxd5 exd5 would lose the queen too, so white stops: -400.
    ("4k3/8/2p1p3/3p4/8/8/3R4/3QK3 w - - 0 1", "Rxd5", -400),
    // --- long sequences ---
    // Four attackers a side on d5. White N, B, R, Q(x-ray); black N, N, B, R.
    // Nxd5 +100, Nbxd5 -325, Bxd5 +325, Nxd5 -325, Rxd5 +325, Bxd5 -500, Qxd5 +325, Rxd5 -975.
    // Swap list 100, 225, 100, 225, 100, 400, -75, 1050 backs up to -225: white's best after
    // Nbxd5 is to stop.
    (
        "3r2k1/8/1nb2n2/3p4/8/1BN5/3R4/3Q2K1 w - - 0 1",
        "Nxd5",
        -225,
    ),
    // Six white (P, N, N, B, R, Q behind R) against six black (P, P, N, N, Q, R behind Q):
    // exd5 +100, cxd5 -100, then every further white capture loses, so white stops: 0.
    (
        "3r2k1/3q4/1np1pn2/3p4/4PN2/1BN5/3R4/3Q2K1 w - - 0 1",
        "exd5",
        0,
    ),
    // Same board, starting with the knight: Ncxd5 +100, cxd5 -325, and every continuation
    // (exd5 exd5 Nxd5 ...) is worse for white, so it stops: -225.
    (
        "3r2k1/3q4/1np1pn2/3p4/4PN2/1BN5/3R4/3Q2K1 w - - 0 1",
        "Ncxd5",
        -225,
    ),
];

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("test FEN is valid")
}

fn mv(p: &Position, san: &str) -> Move {
    p.parse_move(san)
        .unwrap_or_else(|e| panic!("{san} in {}: {e}", p.to_fen()))
}

#[test]
fn hand_checked_exchanges() {
    assert!(CASES.len() >= 30);
    for &(fen, san, expected) in CASES {
        let p = pos(fen);
        let m = mv(&p, san);
        assert_eq!(p.see(m), expected, "see({san}) in {fen}");
        assert!(p.see_ge(m, expected), "see_ge({san}, {expected}) in {fen}");
        assert!(
            !p.see_ge(m, expected + 1),
            "see_ge({san}, {}) in {fen}",
            expected + 1
        );
    }
}

#[test]
fn see_leaves_the_position_untouched() {
    for &(fen, san, _) in CASES {
        let p = pos(fen);
        let before = p.clone();
        let _ = p.see(mv(&p, san));
        assert!(p == before, "{fen}");
    }
}

/// Thresholds swept by the property test.
const THRESHOLD_MIN: i32 = -1000;
const THRESHOLD_MAX: i32 = 1000;
const THRESHOLD_STEP: usize = 25;

fn wac_positions() -> Vec<Position> {
    let out = squall::epd::suite_boards(&["wac.epd"]);
    assert_eq!(out.len(), 300, "every WAC board reads");
    out
}

/// Checks `see_ge(m, t) == (see(m) >= t)` over the threshold sweep for one move.
fn check_agreement(p: &Position, m: Move) {
    let v = p.see(m);
    if m.is_quiet() {
        assert!(v <= 0, "quiet {m} scored {v} in {}", p.to_fen());
    }
    for t in (THRESHOLD_MIN..=THRESHOLD_MAX).step_by(THRESHOLD_STEP) {
        assert_eq!(p.see_ge(m, t), v >= t, "{m} t={t} in {}", p.to_fen());
    }
    // The exact value is always a boundary.
    assert!(
        p.see_ge(m, v) && !p.see_ge(m, v + 1),
        "{m} in {}",
        p.to_fen()
    );
}

/// `see_ge(m, t) == (see(m) >= t)` for every legal move of every WAC position (captures,
/// promotions and quiet moves alike) and for every capture one ply later, and SEE never panics
/// on any of them.
#[test]
fn see_ge_agrees_with_see_on_wac() {
    let mut checked = 0;
    for mut p in wac_positions() {
        let moves = p.legal_moves();
        for &m in moves.iter() {
            check_agreement(&p, m);
            checked += 1;
            p.make(m);
            for &reply in p.legal_moves().iter().filter(|r| r.is_capture()) {
                check_agreement(&p, reply);
                checked += 1;
            }
            p.unmake();
        }
    }
    assert!(checked > 20_000, "only {checked} moves checked");
}

/// The bitboard attackers (table loads over the kind sets) against the vector-delta test of
/// every piece, on every square of each WAC position and of each position one move later.
#[test]
fn attackers_match_the_piece_by_piece_test_on_wac() {
    let check = |p: &Position| {
        let occupied = p.occupancy(Colour::White) | p.occupancy(Colour::Black);
        for i in 0..64usize {
            let sq = ((i / 8) * 16 + i % 8) as u8;
            let mut expected = 0u64;
            for c in Colour::BOTH {
                for &from in p.pieces(c).iter().chain(p.pawns(c)) {
                    if p.piece_attacks(p.piece_at(from), from, sq) {
                        expected |= 1u64 << ((from >> 4) * 8 + (from & 7));
                    }
                }
            }
            assert_eq!(
                p.attackers_of(i, occupied),
                expected,
                "{} square {i}",
                p.to_fen()
            );
        }
    };
    on_wac_and_successors(check);
}

/// The quiescence search's pre-test for quiet checks passes every quiet move (castling and
/// promotions aside) that `gives_check` calls a check, legal or not, on WAC positions and
/// their successors.
#[test]
fn check_squares_pass_every_quiet_check() {
    let check = |p: &Position| {
        if p.in_check() {
            return;
        }
        let squares = p.check_squares();
        let mut list = squall::moves::MoveList::new();
        p.generate(squall::movegen::GenType::Quiets, &mut list);
        for &m in list.iter() {
            if !m.is_promotion() && !m.is_castle() && p.gives_check(m) {
                assert!(squares.may_check(m), "{} {}", p.to_fen(), m.to_uci());
            }
        }
    };
    on_wac_and_successors(check);
}

/// Runs `check` on every WAC position and on every position one legal move later.
fn on_wac_and_successors(check: impl Fn(&Position)) {
    for mut p in wac_positions() {
        check(&p);
        for &m in p.legal_moves().clone().iter() {
            p.make(m);
            check(&p);
            p.unmake();
        }
    }
}
