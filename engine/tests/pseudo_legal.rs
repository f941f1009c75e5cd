//! `is_pseudo_legal` guards the search against moves from the hash table and killer slots that
//! belong to another position: it must accept exactly the generator's moves. Checked on seeded
//! random games, against every generated move and against moves generated in *other*
//! positions (the realistic source of foreign moves) and random bit patterns.

use std::collections::HashSet;

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use squall::movegen::GenType;
use squall::{Move, MoveList, Position};

const GAMES: usize = if cfg!(debug_assertions) { 10 } else { 300 };
const MAX_PLIES: usize = 120;
const RANDOM_PATTERNS: usize = 200;
const SEED: u64 = 0x5053_4C47;

fn generated(pos: &Position) -> HashSet<u32> {
    let mut list = MoveList::new();
    if pos.in_check() {
        pos.generate_evasions(&pos.check_info(), &mut list);
    } else {
        pos.generate(GenType::All, &mut list);
    }
    list.iter().map(|m| m.0).collect()
}

#[test]
fn accepts_exactly_the_generated_moves() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    let mut foreign: Vec<Move> = Vec::new();
    for _ in 0..GAMES {
        let mut pos = Position::startpos();
        for _ in 0..MAX_PLIES {
            let gen = generated(&pos);
            let mut all = MoveList::new();
            pos.generate(GenType::All, &mut all);
            // Every move of the full generator is pseudo-legal (in check too).
            for &m in all.iter() {
                assert!(pos.is_pseudo_legal(m), "{} rejected in {}", m, pos.to_fen());
            }
            // Foreign moves are accepted only when this position generates them too (when not
            // in check: in check the search checks evasions separately).
            if !pos.in_check() {
                for &m in &foreign {
                    assert_eq!(
                        pos.is_pseudo_legal(m),
                        gen.contains(&m.0),
                        "{} in {}",
                        m,
                        pos.to_fen()
                    );
                }
                for _ in 0..RANDOM_PATTERNS {
                    let m = Move(rng.next_u32() & 0x1fff_ffff);
                    if pos.is_pseudo_legal(m) {
                        assert!(gen.contains(&m.0), "{:#x} in {}", m.0, pos.to_fen());
                    }
                }
            }
            let legal = pos.legal_moves();
            if legal.is_empty() || pos.is_fifty_move_draw() {
                break;
            }
            foreign.extend(all.iter().copied().take(3));
            if foreign.len() > 400 {
                foreign.drain(..200);
            }
            let m = legal.as_slice()[rng.next_u32() as usize % legal.len()];
            pos.make(m);
        }
    }
}
