//! Zobrist keys: the full position key, the pawn-only key and the material key.
//!
//! The keys come from `rand_xoshiro` with a fixed seed, so every build and every run hashes a
//! position to the same value (bench signatures and stored tables stay comparable). The material
//! key hashes *counts*: the n-th piece of a kind toggles `material[piece][n]`, so it identifies the
//! material balance regardless of where the pieces stand.

use std::sync::LazyLock;

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256StarStar;

use crate::types::{Piece, Square};

/// Seed of the key generator; changing it changes every key (and the bench signature).
const ZOBRIST_SEED: u64 = 0x5351_5541_4C4C_2026; // "SQUALL" 2026

/// Rows for every 4-bit piece code (codes 14 and 15 stay zero, like the empty code 0), so that
/// `piece_square` and `material` index with masks and no bounds checks.
pub const PIECE_ROWS: usize = 16;

pub struct Zobrist {
    pub piece_square: [[u64; 128]; PIECE_ROWS],
    pub castling: [u64; 16],
    pub ep_file: [u64; 8],
    pub side: u64,
    /// `castle_file[right][file]`: added for a castling right (bit index of `WHITE_OO` ..
    /// `BLACK_OOO`) whose rook stands on `file`; zero on the standard file (h for short, a for
    /// long), so standard chess keeps its keys.
    pub castle_file: [[u64; 8]; 4],
    /// `material[piece][n]`: toggled when the (n+1)-th piece of that code appears.
    pub material: [[u64; 16]; PIECE_ROWS],
}

pub static ZOBRIST: LazyLock<Zobrist> = LazyLock::new(|| {
    let mut rng = Xoshiro256StarStar::seed_from_u64(ZOBRIST_SEED);
    let mut z = Zobrist {
        piece_square: [[0; 128]; PIECE_ROWS],
        castling: [0; 16],
        ep_file: [0; 8],
        side: 0,
        castle_file: [[0; 8]; 4],
        material: [[0; 16]; PIECE_ROWS],
    };
    // Empty squares (piece code 0) keep zero keys so that toggling "nothing" is a no-op.
    for p in 2..Piece::COUNT {
        for sq in 0..128 {
            if sq & 0x88 == 0 {
                z.piece_square[p][sq] = rng.next_u64();
            }
        }
        for n in 0..16 {
            z.material[p][n] = rng.next_u64();
        }
    }
    // Castling keys are XOR-combined per right so that the key of a rights set is the XOR of
    // its single-right keys.
    let single: [u64; 4] = [
        rng.next_u64(),
        rng.next_u64(),
        rng.next_u64(),
        rng.next_u64(),
    ];
    for (rights, key) in z.castling.iter_mut().enumerate() {
        *key = (0..4)
            .filter(|i| rights & (1 << i) != 0)
            .fold(0, |k, i| k ^ single[i]);
    }
    for f in z.ep_file.iter_mut() {
        *f = rng.next_u64();
    }
    z.side = rng.next_u64();
    // Drawn last, so every earlier key is what it was before Chess960 came in.
    for (right, files) in z.castle_file.iter_mut().enumerate() {
        let standard = if right % 2 == 0 { 7 } else { 0 };
        for (file, key) in files.iter_mut().enumerate() {
            let k = rng.next_u64();
            if file != standard {
                *key = k;
            }
        }
    }
    z
});

impl Zobrist {
    /// Key of `p` on `sq` (the masks only spare bounds checks; for a piece on a board square
    /// they change nothing).
    #[inline]
    pub fn piece(&self, p: Piece, sq: Square) -> u64 {
        self.piece_square[(p.0 & 15) as usize][(sq & 0x7f) as usize]
    }

    /// Key toggled when the (n+1)-th piece with code `p` appears or the last of n+1 goes.
    #[inline]
    pub fn material_count(&self, p: Piece, n: u8) -> u64 {
        self.material[(p.0 & 15) as usize][(n & 15) as usize]
    }
}

#[inline]
pub fn piece_square(p: Piece, sq: Square) -> u64 {
    ZOBRIST.piece(p, sq)
}
