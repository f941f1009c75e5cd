//! Evaluation properties: colour symmetry on every suite position and on random playouts, the
//! mirror round trip, lazy-exit soundness inside the window, drawish-material scaling, passed
//! pawn ordering, the pawn hash, and the trace.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use squall::eval::term::{Term, TERMS};
use squall::eval::{trace, Evaluator, EVAL_LIMIT, LAZY_MARGIN};
use squall::Position;

const SUITES: [&str; 4] = ["wac.epd", "ecm.epd", "wcsac.epd", "perftsuite.epd"];
const PLAYOUTS: usize = if cfg!(debug_assertions) { 15 } else { 150 };
const MAX_PLIES: usize = 120;
const SEED: u64 = 0x5EA1_E7A1;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("test FEN {fen}: {e}"))
}

/// Every parsable position of the suites (first four EPD fields plus clocks).
fn suite_positions() -> Vec<Position> {
    let out = squall::epd::suite_boards(&SUITES);
    assert!(out.len() > 2000, "suites gave only {} positions", out.len());
    out
}

/// Positions along seeded random games.
fn playout_positions() -> Vec<Position> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    let mut out = Vec::new();
    for _ in 0..PLAYOUTS {
        let mut p = Position::startpos();
        for _ in 0..MAX_PLIES {
            let moves = p.legal_moves();
            if moves.is_empty() || p.is_fifty_move_draw() {
                break;
            }
            let m = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
            p.make(m);
            let mut fresh = pos(&p.to_fen());
            fresh.clear_history();
            out.push(fresh);
        }
    }
    out
}

fn check_symmetry(ev: &mut Evaluator, p: &Position) {
    let m = p.mirrored();
    let a = ev.evaluate_full(p);
    let b = ev.evaluate_full(&m);
    assert_eq!(
        a,
        b,
        "asymmetric: {} gives {a}, mirror {} gives {b}",
        p.to_fen(),
        m.to_fen()
    );
    assert!(
        a.abs() < EVAL_LIMIT + 1,
        "out of range {a} in {}",
        p.to_fen()
    );
}

#[test]
fn symmetric_on_suite_positions() {
    let mut ev = Evaluator::new();
    for p in suite_positions() {
        check_symmetry(&mut ev, &p);
    }
}

#[test]
fn symmetric_on_random_playouts() {
    let mut ev = Evaluator::new();
    for p in playout_positions() {
        check_symmetry(&mut ev, &p);
    }
}

#[test]
fn mirror_twice_is_identity() {
    for p in suite_positions().iter().chain(playout_positions().iter()) {
        assert_eq!(p.mirrored().mirrored().to_fen(), p.to_fen());
    }
    let p = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQq f6 0 3");
    assert_eq!(
        p.mirrored().to_fen(),
        "rnbqkbnr/pppp1ppp/8/8/3PpP2/8/PPP1P1PP/RNBQKBNR b Qkq f3 0 3"
    );
}

#[test]
fn lazy_exit_never_inside_the_window() {
    let mut ev = Evaluator::new();
    let mut worst = 0;
    let positions: Vec<Position> = suite_positions()
        .into_iter()
        .chain(playout_positions())
        .collect();
    for p in &positions {
        let full = ev.evaluate_full(p);
        assert_eq!(ev.evaluate(p, full - 1, full + 1), full, "{}", p.to_fen());
        assert_eq!(ev.evaluate(p, -EVAL_LIMIT - 1, EVAL_LIMIT + 1), full);
        // A window far away takes the lazy exit, and the estimate it returns lies beyond it.
        let lazy = ev.evaluate(p, full + 3 * LAZY_MARGIN, full + 3 * LAZY_MARGIN + 1);
        if lazy != full {
            worst = worst.max((lazy - full).abs());
        }
    }
    assert!(ev.stats.lazy_exits > 0);
    assert!(ev.stats.calls >= 4 * positions.len() as u64);
    assert!(
        worst < 3 * LAZY_MARGIN,
        "estimate {worst} away from the full score"
    );
}

#[test]
fn insufficient_material_is_zero() {
    let mut ev = Evaluator::new();
    for fen in [
        "8/8/4k3/8/8/3NN3/8/4K3 w - - 0 1",
        "8/8/4k3/8/8/3NN3/8/4K3 b - - 0 1",
        "8/8/4k3/8/8/3B4/8/4K3 w - - 0 1",
        "8/8/4k3/8/8/3N4/8/4K3 b - - 0 1",
        "8/8/4k3/8/8/8/8/4K3 w - - 0 1",
    ] {
        assert_eq!(ev.evaluate_full(&pos(fen)), 0, "{fen}");
    }
    // Two bishops on opposite colours, or bishop and knight, can mate.
    assert!(ev.evaluate_full(&pos("8/8/4k3/8/8/3BB3/8/4K3 w - - 0 1")) > 300);
    assert!(ev.evaluate_full(&pos("8/8/4k3/8/8/3BN3/8/4K3 w - - 0 1")) > 300);
}

#[test]
fn wrong_bishop_rook_pawn_is_a_draw() {
    let mut ev = Evaluator::new();
    // The a8 corner is light; a dark-squared bishop cannot drive the king out of it.
    assert_eq!(ev.evaluate_full(&pos("k7/8/8/P7/8/8/8/2B1K3 w - - 0 1")), 0);
    assert_eq!(
        ev.evaluate_full(&pos("1k6/8/8/P7/8/8/8/2B1K3 b - - 0 1")),
        0
    );
    // The right bishop wins; so does the wrong one while the king is far from the corner.
    assert!(ev.evaluate_full(&pos("k7/8/8/P7/8/8/8/3BK3 w - - 0 1")) > 300);
    assert!(ev.evaluate_full(&pos("8/8/8/P7/8/7k/8/2B1K3 w - - 0 1")) > 300);
    // King and rook pawn against a king in the corner.
    assert_eq!(ev.evaluate_full(&pos("k7/8/8/P7/8/8/8/4K3 w - - 0 1")), 0);
}

#[test]
fn opposite_bishops_scale_down() {
    let mut ev = Evaluator::new();
    let opposite = ev.evaluate_full(&pos("4k3/5p2/8/5b2/8/8/4PP2/2B1K3 w - - 0 1"));
    let same = ev.evaluate_full(&pos("4k3/5p2/3b4/8/8/8/4PP2/2B1K3 w - - 0 1"));
    assert!(
        same > 0 && opposite >= 0,
        "same {same}, opposite {opposite}"
    );
    assert!(2 * opposite < same, "same {same}, opposite {opposite}");
}

#[test]
fn drawish_endings_scale_down() {
    let mut ev = Evaluator::new();
    // Rook against bishop without pawns: a rook's worth of material, little of it counted.
    let rb = ev.evaluate_full(&pos("4k3/8/8/3b4/8/8/8/R3K3 w - - 0 1"));
    assert!(rb < 100, "KRKB {rb}");
    // Queen against rook stays clearly White's (a pawn or more: see endgame.rs).
    assert!(ev.evaluate_full(&pos("4k3/8/8/3r4/8/8/8/Q3K3 w - - 0 1")) > 100);
    // A rook ending a pawn up is worth less than the same pawns without the rooks.
    let rook = ev.evaluate_full(&pos("4k3/5pp1/r7/8/8/R7/5PPP/6K1 w - - 0 1"));
    let pawns = ev.evaluate_full(&pos("4k3/5pp1/8/8/8/8/5PPP/6K1 w - - 0 1"));
    assert!(
        rook > 0 && rook < pawns,
        "rook ending {rook}, pawn ending {pawns}"
    );
}

#[test]
fn advanced_passer_is_worth_more() {
    let mut ev = Evaluator::new();
    let sixth = ev.evaluate_full(&pos("r3k3/8/2P5/8/8/8/8/R3K3 w - - 0 1"));
    let third = ev.evaluate_full(&pos("r3k3/8/8/8/8/2P5/8/R3K3 w - - 0 1"));
    // Half a pawn or so: 101 against 51 with the sp3 weights learned from self-play.
    assert!(sixth > third + 30, "sixth {sixth}, third {third}");
    // Against a bare king, a passer outside the king's square runs through.
    let runs = ev.evaluate_full(&pos("7k/8/8/P7/8/8/8/4K3 w - - 0 1"));
    let caught = ev.evaluate_full(&pos("2k5/8/8/P7/8/8/8/4K3 w - - 0 1"));
    assert!(runs > caught + 300, "runs {runs}, caught {caught}");
}

#[test]
fn pawn_hash_hits_on_repeated_evaluations() {
    let mut ev = Evaluator::new();
    let positions = suite_positions();
    for _ in 0..2 {
        for p in positions.iter().take(200) {
            ev.evaluate_full(p);
        }
    }
    assert_eq!(ev.stats.pawn_probes, 400);
    // Index collisions between different skeletons may cost a few hits.
    assert!(ev.stats.pawn_hits >= 180, "{:?}", ev.stats);
    ev.clear();
    let before = ev.stats.pawn_hits;
    ev.evaluate_full(&positions[0]);
    assert_eq!(ev.stats.pawn_hits, before, "clear must empty the pawn hash");
}

#[test]
fn trace_names_every_term_and_agrees() {
    let mut ev = Evaluator::new();
    for fen in [
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "8/8/4k3/8/8/3NN3/8/4K3 b - - 0 1",
    ] {
        let p = pos(fen);
        let t = trace(&p);
        for term in TERMS {
            assert!(t.contains(term.name()), "trace lacks {}", term.name());
        }
        for word in ["phase", "scale", "total", "white", "black", "tapered"] {
            assert!(t.contains(word), "trace lacks {word}");
        }
        let full = ev.evaluate_full(&p);
        assert!(
            t.contains(&format!("final (side to move's view): {full}\n")),
            "trace disagrees with evaluate_full {full}:\n{t}"
        );
    }
    assert_eq!(Term::Tempo.name(), "tempo");
}

/// The search's king-threat test for reverse futility: a rook lifted to an open file next to
/// the king bears on it (WAC.055 after Qxg7+ Kxg7 Bf6+ Kg8 Rh4), the same rook on a closed
/// file does not, and an empty square never does.
#[test]
fn piece_bears_on_king_sees_rook_lifts() {
    use squall::eval::king::piece_bears_on_king;
    use squall::types::parse_square;
    let sq = |s: &str| parse_square(s).expect("square");
    let lifted = pos("r3r1k1/pp1q1p2/4bBp1/3p4/7R/8/PPP3PP/4R1K1 b - - 0 1");
    assert!(piece_bears_on_king(&lifted, sq("h4")));
    assert!(!piece_bears_on_king(&lifted, sq("e1")));
    assert!(!piece_bears_on_king(&lifted, sq("h5")));
    let closed = pos("r3r1k1/pp1q1p2/4bBp1/3p3p/7R/8/PPP3PP/4R1K1 b - - 0 1");
    assert!(!piece_bears_on_king(&closed, sq("h4")));
}
