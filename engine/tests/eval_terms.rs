//! The terms taken from Ethereal 12 (threats on the attacked-twice maps, space, closedness,
//! knights far from the kings, long-diagonal bishops, bishops behind rammed pawns, stacked
//! passers). The checks use weights of their own, one distinct value per field, so that they
//! do not depend on what a tune set (some tuned weights may be zero): each term counts what it
//! should on hand-made positions, the trace reproduces `evaluate_full` exactly, and the
//! evaluation stays colour-symmetric.

use std::collections::HashMap;

use squall::eval::linear::EvalTrace;
use squall::eval::params::{Params, DEFAULT_PARAMS};
use squall::eval::pawns::PawnEntry;
use squall::eval::pieces::closedness;
use squall::eval::score::s;
use squall::eval::Evaluator;
use squall::Position;

mod common;

/// Every weight field this work added.
const NEW_FIELDS: [&str; 18] = [
    "passed_stacked",
    "knight_closedness",
    "rook_closedness",
    "knight_king_distance",
    "bishop_long_diagonal",
    "bishop_rammed_pawns",
    "weak_pawn",
    "poorly_defended",
    "overloaded",
    "queen_attacked",
    "king_threat_minor",
    "king_threat_rook",
    "space_restricted_piece",
    "space_restricted_empty",
    "space_centre_control",
    // Entries of the tables above, named apart so that each is checked to fire.
    "knight_closedness[7]",
    "knight_king_distance[0]",
    "knight_king_distance[3]",
];

const SHELTER: &str = "r3k3/8/8/8/8/8/5PPP/6K1 w - - 0 1";

const GAMES: usize = if cfg!(debug_assertions) { 20 } else { 200 };
const MAX_PLIES: usize = 160;
const SEED: u64 = 0xE7E4_0012;

fn is_new(name: &str) -> bool {
    let field = name.split('[').next().unwrap_or(name);
    NEW_FIELDS.contains(&field)
}

/// The built-in weights with every new weight set to a value of its own.
fn params() -> Params {
    let mut p = DEFAULT_PARAMS;
    let names = p.names();
    let mut set = 0;
    for (i, name) in names.iter().enumerate().filter(|(_, n)| is_new(n)) {
        let k = i as i32 % 13;
        assert!(p.set(name, s(5 + 3 * k, 9 - 2 * k)));
        set += 1;
    }
    assert_eq!(set, 12 + 9 + 9 + 4, "every new weight set");
    p
}

/// White's uses minus Black's of each weight in `fen`'s trace under the built-in weights, by
/// name.
fn counts(fen: &str) -> HashMap<String, i32> {
    let pos = Position::from_fen(fen).expect("fen");
    let trace = EvalTrace::of(&pos, &DEFAULT_PARAMS);
    assert!(trace.recognised.is_none(), "{fen} is a recognised ending");
    let names = DEFAULT_PARAMS.names();
    trace
        .entries
        .iter()
        .map(|&(i, n)| (names[i as usize].clone(), i32::from(n)))
        .collect()
}

/// Each new term on a position made for it: (FEN, weight, White's count minus Black's).
#[test]
fn new_terms_count_what_they_should() {
    let cases: &[(&str, &str, i32)] = &[
        // The rook attacks d5, which nothing defends.
        ("4k3/p6p/8/3p4/8/8/P6P/3RK3 w - - 0 1", "weak_pawn", 1),
        // Rook and bishop attack d5, the king alone defends it.
        (
            "8/p6p/4k3/3n4/8/5B2/P6P/3R2K1 w - - 0 1",
            "poorly_defended",
            1,
        ),
        ("8/p6p/4k3/3n4/8/5B2/P6P/3R2K1 w - - 0 1", "overloaded", 0),
        // One attacker, one defender.
        ("8/p6p/4k3/3n4/8/8/P6P/3R2K1 w - - 0 1", "overloaded", 1),
        (
            "8/p6p/4k3/3n4/8/8/P6P/3R2K1 w - - 0 1",
            "poorly_defended",
            0,
        ),
        // The knight attacks the queen, which hangs (and so is not "poorly defended").
        ("4k3/p6p/q7/8/1N6/8/P6P/4K3 w - - 0 1", "queen_attacked", 1),
        ("4k3/p6p/q7/8/1N6/8/P6P/4K3 w - - 0 1", "hanging", 1),
        ("4k3/p6p/q7/8/1N6/8/P6P/4K3 w - - 0 1", "poorly_defended", 0),
        (
            "4k3/p6p/8/3n4/4K3/8/P6P/8 w - - 0 1",
            "king_threat_minor",
            1,
        ),
        ("4k3/p6p/8/3r4/4K3/8/P6P/8 w - - 0 1", "king_threat_rook", 1),
        // Both knights cover d5 and d7, which only White's rook contests.
        (
            "4k3/p6p/1n3n2/8/8/8/P6P/3R2K1 w - - 0 1",
            "space_restricted_empty",
            2,
        ),
        (
            "4k3/p6p/1n3n2/3B4/8/8/P6P/3R2K1 w - - 0 1",
            "space_restricted_piece",
            1,
        ),
        (
            "4k3/p6p/1n3n2/3B4/8/8/P6P/3R2K1 w - - 0 1",
            "space_restricted_empty",
            0,
        ),
        // After 1.e4 White holds c3-f3, c4, e4, d5, f5; Black c6-f6.
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "space_centre_control",
            4,
        ),
        // 16 pawns, 2 rammed pairs, no open file: (16 + 6) / 3 = 7.
        (
            "r3k3/pp3ppp/2p1p3/3pP3/3P4/2P5/PP3PPP/1N2K1N1 w - - 0 1",
            "knight_closedness[7]",
            2,
        ),
        (
            "r3k3/pp3ppp/2p1p3/3pP3/3P4/2P5/PP3PPP/1N2K1N1 w - - 0 1",
            "rook_closedness[7]",
            -1,
        ),
        (
            "4k3/p6p/8/8/N7/8/P6P/4K3 w - - 0 1",
            "knight_king_distance[0]",
            1,
        ),
        (
            "7k/p6p/7K/8/8/8/P6P/N7 w - - 0 1",
            "knight_king_distance[3]",
            1,
        ),
        (
            "4k3/p6p/8/8/8/8/P5BP/4K3 w - - 0 1",
            "bishop_long_diagonal",
            1,
        ),
        // A pawn on f3 shuts the bishop in.
        (
            "4k3/p6p/8/8/8/5P2/P5BP/4K3 w - - 0 1",
            "bishop_long_diagonal",
            0,
        ),
        // The light-squared bishop behind the rammed d3 pawn.
        (
            "4k3/p6p/8/8/3p4/3P4/P6P/4KB2 w - - 0 1",
            "bishop_rammed_pawns",
            1,
        ),
        ("4k3/7p/8/P7/P7/8/7P/4K3 w - - 0 1", "passed_stacked", 1),
        // Shelter by file: White's g1 king behind f2-g2-h2 (g-file entry 6 * 8 + 1, h-file
        // 7 * 8 + 1); Black's e8 king bare, stormed on the f-file (edge distance 2, rank 6).
        (SHELTER, "shelter_king_file[49]", 1),
        (SHELTER, "shelter_side_file[57]", 1),
        (SHELTER, "shelter_king_file[32]", -1),
        (SHELTER, "storm[22]", -1),
        // White's king stands on a pawn file, Black's is one file from the nearest.
        (SHELTER, "king_pawn_file_distance[0]", 1),
        (SHELTER, "king_pawn_file_distance[1]", -1),
        // White's area (f1-h3) holds three pawns, Black's (d8-f6) none.
        (SHELTER, "king_defenders[3]", 1),
        (SHELTER, "king_defenders[0]", -1),
        // An h1 king's area is four files wide: f1-h3 holds the f2 and g2 pawns (e2 lies
        // outside); Black's b8 king has only its a7 pawn in a6-c8.
        ("1k6/p7/8/8/8/8/4PPP1/7K w - - 0 1", "king_defenders[2]", 1),
        ("1k6/p7/8/8/8/8/4PPP1/7K w - - 0 1", "king_defenders[1]", -1),
        // The a4 bishop x-rays the e8 queen through d7, the e1 rook through e5; a bishop
        // with nothing in between attacks the queen instead.
        ("3kq3/3n4/8/8/B7/8/8/4K2R w - - 0 1", "queen_xrayed", 1),
        ("4q1k1/8/8/4p3/8/8/8/4R1K1 w - - 0 1", "queen_xrayed", 1),
        ("3kq3/8/8/8/B7/8/8/4K3 w - - 0 1", "queen_xrayed", 0),
        // White's e3 bishop stands behind the e4 pawn, Black's c6 knight behind c5.
        (
            "4k3/8/2n5/2p5/4P3/4B3/8/4K3 w - - 0 1",
            "bishop_behind_pawn",
            1,
        ),
        (
            "4k3/8/2n5/2p5/4P3/4B3/8/4K3 w - - 0 1",
            "knight_behind_pawn",
            -1,
        ),
    ];
    for &(fen, field, expected) in cases {
        let got = counts(fen).get(field).copied().unwrap_or(0);
        assert_eq!(got, expected, "{field} in {fen}");
        let mirrored = Position::from_fen(fen).expect("fen").mirrored().to_fen();
        let got = counts(&mirrored).get(field).copied().unwrap_or(0);
        assert_eq!(got, -expected, "{field} in {mirrored}");
    }
    // Every new field is among the cases with a count.
    for field in NEW_FIELDS {
        assert!(
            cases
                .iter()
                .any(|&(_, f, n)| n != 0 && (f == field || f.starts_with(&format!("{field}[")))),
            "no case for {field}"
        );
    }
}

#[test]
fn closedness_runs_from_open_to_closed() {
    let at = |fen: &str| {
        let pos = Position::from_fen(fen).expect("fen");
        closedness(&PawnEntry::compute(&pos, &DEFAULT_PARAMS))
    };
    assert_eq!(at("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), 0);
    // 16 pawns, nothing rammed, no open file: 16 / 3.
    assert_eq!(
        at("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        5
    );
    assert_eq!(at("4k3/8/8/pppppppp/PPPPPPPP/8/8/4K3 w - - 0 1"), 8);
}

/// Positions along seeded random games that capture half the time, so that they reach every
/// phase.
fn positions() -> Vec<Position> {
    common::games::random_game_positions(SEED, GAMES, MAX_PLIES, 2)
}

#[test]
fn trace_reproduces_the_evaluation_with_the_new_terms() {
    let p = params();
    let weights = p.values();
    let names = p.names();
    let mut ev = Evaluator::with_params(p.clone());
    let mut plain = Evaluator::new();
    let mut fired: HashMap<&str, usize> = HashMap::new();
    let (mut checked, mut moved) = (0, 0);
    for pos in positions() {
        let (trace, v) = common::eval_checks::checked_trace(&mut ev, &p, &weights, &pos);
        checked += 1;
        moved += usize::from(v != plain.evaluate_full(&pos));
        for &(i, _) in &trace.entries {
            let name = names[i as usize].as_str();
            let field = name.split('[').next().unwrap_or(name);
            if is_new(field) {
                *fired.entry(field).or_default() += 1;
            }
        }
    }
    assert!(
        checked > 1000 && moved > 1000,
        "{checked} positions, {moved} moved"
    );
    for field in &NEW_FIELDS[..15] {
        assert!(fired.contains_key(field), "{field} never fired: {fired:?}");
    }
}

#[test]
fn new_terms_are_colour_symmetric() {
    let p = params();
    let mut ev = Evaluator::with_params(p);
    common::eval_checks::assert_colour_symmetric(&mut ev, &positions());
}
