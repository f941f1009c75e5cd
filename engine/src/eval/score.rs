//! A packed middlegame/endgame score pair.
//!
//! Both halves live in one `i32` (`eg << 16` plus `mg`), so adding piece-square contributions
//! costs one integer add; the halves are unpacked only when the game phase blends them.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Score(i32);

/// Builds a packed score from its middlegame and endgame halves.
#[inline]
pub const fn s(mg: i32, eg: i32) -> Score {
    Score((eg << 16).wrapping_add(mg))
}

impl Score {
    pub const ZERO: Score = Score(0);

    #[inline]
    pub const fn mg(self) -> i32 {
        self.0 as i16 as i32
    }

    #[inline]
    pub const fn eg(self) -> i32 {
        ((self.0 + 0x8000) >> 16) as i16 as i32
    }
}

impl Add for Score {
    type Output = Score;
    #[inline]
    fn add(self, o: Score) -> Score {
        Score(self.0.wrapping_add(o.0))
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline]
    fn sub(self, o: Score) -> Score {
        Score(self.0.wrapping_sub(o.0))
    }
}

impl AddAssign for Score {
    #[inline]
    fn add_assign(&mut self, o: Score) {
        self.0 = self.0.wrapping_add(o.0);
    }
}

impl SubAssign for Score {
    #[inline]
    fn sub_assign(&mut self, o: Score) {
        self.0 = self.0.wrapping_sub(o.0);
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score(self.0.wrapping_neg())
    }
}

impl Mul<i32> for Score {
    type Output = Score;
    #[inline]
    fn mul(self, k: i32) -> Score {
        Score(self.0.wrapping_mul(k))
    }
}

impl std::fmt::Debug for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "S({}, {})", self.mg(), self.eg())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips_signed_halves() {
        for (mg, eg) in [(0, 0), (1, -1), (-300, 450), (12000, -12000), (-5, -7)] {
            let x = s(mg, eg);
            assert_eq!((x.mg(), x.eg()), (mg, eg));
            assert_eq!(((-x).mg(), (-x).eg()), (-mg, -eg));
            let y = x + s(3, -9) - s(1, 1);
            assert_eq!((y.mg(), y.eg()), (mg + 2, eg - 10));
        }
    }
}
