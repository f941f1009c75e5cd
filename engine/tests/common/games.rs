//! Positions along seeded random games, for tests that need many varied positions.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use squall::Position;

/// Every position of `games` random games of at most `max_plies` plies from the start
/// position; where a capture exists, one move in `capture_one_in` is a random capture (the
/// more captures, the more games reach an endgame).
pub fn random_game_positions(
    seed: u64,
    games: usize,
    max_plies: usize,
    capture_one_in: u64,
) -> Vec<Position> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Position::startpos();
        for _ in 0..max_plies {
            let moves = p.legal_moves();
            if moves.is_empty() || p.is_fifty_move_draw() {
                break;
            }
            let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
            let m = if !captures.is_empty() && rng.next_u64() % capture_one_in == 0 {
                *captures[(rng.next_u64() % captures.len() as u64) as usize]
            } else {
                moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]
            };
            p.make(m);
            out.push(p.clone());
        }
    }
    out
}
