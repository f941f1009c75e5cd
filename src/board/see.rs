//! Static exchange evaluation — placeholder (captured minus mover value when defended) until the
//! full swap-list SEE lands.

use super::Position;
use crate::moves::Move;
use crate::types::Kind;

pub const SEE_VALUES: [i32; 7] = [0, 100, 325, 325, 500, 975, 20000];

fn value(k: u8) -> i32 {
    SEE_VALUES[k as usize]
}

impl Position {
    pub fn see(&self, m: Move) -> i32 {
        let gain = value(m.captured().kind_index());
        let defended = self.is_attacked(m.to(), self.side_to_move().flip());
        if defended {
            gain - value(m.moved().kind_index())
        } else {
            gain
        }
    }

    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let _ = Kind::Pawn;
        self.see(m) >= threshold
    }
}
