//! Seeded random games: after every move, check every invariant the board promises.
//! - unmake restores the position exactly (every field, lists in order, history);
//! - incremental keys, material key and piece-square sums equal a full recompute;
//! - the legal move list equals pseudo-legal moves filtered by make-and-test;
//! - `gives_check` agrees with making the move;
//! - SAN and coordinate text round-trip for every legal move.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use squall::movegen::GenType;
use squall::{Move, MoveList, Position};

/// Debug builds also validate inside every make/unmake, so they play fewer games.
const GAMES: usize = if cfg!(debug_assertions) { 40 } else { 2000 };
const MAX_PLIES: usize = 160;
const SEED: u64 = 0x2026_1121;

fn sorted(mut v: Vec<Move>) -> Vec<Move> {
    v.sort_by_key(|m| m.0);
    v
}

/// Legal moves by brute force: every pseudo-legal move that does not leave the king attacked.
fn make_and_test(pos: &mut Position) -> Vec<Move> {
    // Brute force over *all* pseudo-legal moves even in check, so that a move wrongly omitted
    // from the evasion generator is caught.
    let mut pseudo = MoveList::new();
    pos.generate(GenType::All, &mut pseudo);
    let us = pos.side_to_move();
    let mut legal = Vec::new();
    for &m in pseudo.iter() {
        // Castling legality depends on attacked transit squares, which make-and-test cannot
        // see; test it separately below.
        if m.is_castle() {
            let d: i16 = if m.to() > m.from() { 1 } else { -1 };
            let them = us.flip();
            if pos.in_check()
                || pos.is_attacked((m.from() as i16 + d) as u8, them)
                || pos.is_attacked(m.to(), them)
            {
                continue;
            }
        }
        pos.make(m);
        let ok = !pos.is_attacked(pos.king(us), us.flip());
        pos.unmake();
        if ok {
            legal.push(m);
        }
    }
    legal
}

fn check_position(pos: &mut Position) {
    pos.validate()
        .unwrap_or_else(|e| panic!("{e} in {}", pos.to_fen()));
    let legal = pos.legal_moves();
    assert_eq!(
        sorted(legal.as_slice().to_vec()),
        sorted(make_and_test(pos)),
        "legal list differs from make-and-test in {}",
        pos.to_fen()
    );
    // Captures and quiets split the full list exactly (when not in check).
    if !pos.in_check() {
        let (mut caps, mut quiets, mut all) = (MoveList::new(), MoveList::new(), MoveList::new());
        pos.generate(GenType::Captures, &mut caps);
        pos.generate(GenType::Quiets, &mut quiets);
        pos.generate(GenType::All, &mut all);
        let mut joined = caps.as_slice().to_vec();
        joined.extend_from_slice(quiets.as_slice());
        assert_eq!(sorted(joined), sorted(all.as_slice().to_vec()));
    }
    let before = pos.clone();
    for &m in legal.iter() {
        let san = pos.to_san(m);
        assert_eq!(pos.parse_san(&san), Ok(m), "SAN {san} in {}", pos.to_fen());
        assert_eq!(
            pos.parse_uci_move(&m.to_uci()),
            Ok(m),
            "coordinate {m} in {}",
            pos.to_fen()
        );
        let gives = pos.gives_check(m);
        let discovered = pos.gives_discovered_check(m);
        pos.make(m);
        pos.validate()
            .unwrap_or_else(|e| panic!("{e} after {m} in {}", before.to_fen()));
        assert_eq!(
            gives,
            pos.in_check(),
            "gives_check({m}) wrong in {}",
            before.to_fen()
        );
        // Discovered: a checker other than the piece on the destination (castles never count).
        let them = pos.side_to_move();
        let checkers = pos.attackers(pos.king(them), them.flip());
        let expected = !m.is_castle() && checkers & !squall::types::bit(m.to()) != 0;
        assert_eq!(
            discovered,
            expected,
            "gives_discovered_check({m}) wrong in {}",
            before.to_fen()
        );
        pos.unmake();
        assert!(
            *pos == before,
            "unmake of {m} did not restore {}",
            before.to_fen()
        );
    }
    if !pos.in_check() {
        pos.make_null();
        pos.validate()
            .unwrap_or_else(|e| panic!("{e} after null in {}", before.to_fen()));
        pos.unmake_null();
        assert!(
            *pos == before,
            "null move not undone in {}",
            before.to_fen()
        );
    }
}

#[test]
fn random_games_keep_every_invariant() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    let mut plies = 0usize;
    for _ in 0..GAMES {
        let mut pos = Position::startpos();
        for _ in 0..MAX_PLIES {
            check_position(&mut pos);
            let legal = pos.legal_moves();
            if legal.is_empty() || pos.is_insufficient_material() || pos.halfmove_clock() >= 100 {
                break;
            }
            // Prefer captures half the time so that games reach endgames and promotions.
            let caps: Vec<Move> = legal.iter().copied().filter(|m| m.is_capture()).collect();
            let m = if !caps.is_empty() && rng.next_u32() & 1 == 0 {
                caps[rng.next_u32() as usize % caps.len()]
            } else {
                legal.as_slice()[rng.next_u32() as usize % legal.len()]
            };
            pos.make(m);
            plies += 1;
        }
        // Unwinding the whole game returns to the start position.
        while pos.ply_count() > 0 {
            pos.unmake();
        }
        assert!(pos == Position::startpos());
    }
    assert!(
        plies > GAMES * 20,
        "games too short to mean much: {plies} plies"
    );
}
