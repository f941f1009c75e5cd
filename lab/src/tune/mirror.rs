//! File-mirrored square tables for the tuner (`--mirror-squares`): each piece's 64-square
//! table tuned as 32 free entries, the square on the a-file tied to its twin on the h-file
//! and so on, so that the engine's tables stay 64 entries and its evaluation is unchanged.
//!
//! Sparse squares (a rook on h1 at move 30 is rare, its twin a1 is not) then learn from both
//! wings' positions; what the tie costs is any real asymmetry (castled kings sit on g1 far more
//! often than on b1). The tie holds because both entries start at their mean and Adam, moving
//! each coordinate only by its own gradient history, gives equal gradients equal steps.

use squall::eval::psqt::square_field;
use squall::types::Kind;

use super::texel::Weights;

/// Every tied pair of flat weight indices: a square and its file mirror (`square ^ 7`), the
/// one on the queen's wing first; the square tables run a1 = 0 .. h8 = 63 from the owner's side.
pub fn pairs() -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(Kind::ALL.len() * 32);
    for kind in Kind::ALL {
        let base = square_field(kind).offset();
        for square in 0..64usize {
            if square & 7 < 4 {
                out.push((base + square, base + (square ^ 7)));
            }
        }
    }
    out
}

/// Sets both entries of every pair to their mean, both halves.
pub fn tie(w: &mut Weights, pairs: &[(usize, usize)]) {
    for &(a, b) in pairs {
        let mean = [(w[a][0] + w[b][0]) / 2.0, (w[a][1] + w[b][1]) / 2.0];
        w[a] = mean;
        w[b] = mean;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use squall::eval::params::FIELD_LENS;

    #[test]
    fn pairs_cover_each_table_once_with_mirrored_squares() {
        let pairs = pairs();
        assert_eq!(pairs.len(), 6 * 32);
        let mut seen = std::collections::HashSet::new();
        for (i, &(a, b)) in pairs.iter().enumerate() {
            assert!(seen.insert(a) && seen.insert(b));
            let square = a - square_field(Kind::ALL[i / 32]).offset();
            assert!(square & 7 < 4);
            assert_eq!(b - a, 7 - 2 * (square & 7));
        }
        for kind in Kind::ALL {
            assert_eq!(square_field(kind).slots(), 64);
        }
    }

    #[test]
    fn tie_sets_both_to_the_mean() {
        let n: usize = FIELD_LENS.iter().sum();
        let mut w: Weights = (0..n).map(|i| [i as f64, 2.0 * i as f64]).collect();
        let pairs = pairs();
        tie(&mut w, &pairs);
        for &(a, b) in &pairs {
            assert_eq!(w[a], w[b]);
            assert_eq!(w[a][0], (a + b) as f64 / 2.0);
        }
    }
}
