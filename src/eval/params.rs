//! The weight table: every evaluation weight, by name, in one place.
//!
//! Each entry is a middlegame/endgame `Score` or a fixed-size table of them. The evaluation reads
//! the weights through the fields of `Params` (never through literals), and a tuner reads and
//! writes all of them by name through `names`, `values`, `set_values`, `get` and `set`. Table
//! entries are named `field[i]`. Weights that are counts rather than centipawns (king-attack
//! units, scale multipliers) use only the middlegame half and leave the endgame half at zero.
//!
//! Material values and square tables are weights like the others; `psqt` builds the board's
//! incremental table from the built-in ones.

use super::psqt;
use super::score::{s, Score};
use crate::types::Kind;

/// Entries of the king-danger curve: attack units beyond the last entry use the last entry.
pub const KING_SAFETY_UNITS: usize = 64;
/// Denominator of the attacker-count multipliers in `king_attackers_scale`.
pub const KING_ATTACKERS_SCALE_ONE: i32 = 64;

/// A weight slot: a single score or a table of them.
pub trait Slots {
    /// How many scores the slot holds.
    const LEN: usize;
    fn slots(&self) -> &[Score];
    fn slots_mut(&mut self) -> &mut [Score];
    /// Tables name their entries `name[i]`; single scores just `name`.
    const TABLE: bool;
}

impl Slots for Score {
    const LEN: usize = 1;
    fn slots(&self) -> &[Score] {
        std::slice::from_ref(self)
    }
    fn slots_mut(&mut self) -> &mut [Score] {
        std::slice::from_mut(self)
    }
    const TABLE: bool = false;
}

impl<const N: usize> Slots for [Score; N] {
    const LEN: usize = N;
    fn slots(&self) -> &[Score] {
        self
    }
    fn slots_mut(&mut self) -> &mut [Score] {
        self
    }
    const TABLE: bool = true;
}

fn slot_name<T: Slots>(field: &str, i: usize) -> String {
    if T::TABLE {
        format!("{field}[{i}]")
    } else {
        field.to_string()
    }
}

/// Declares the `Params` struct, its default values and the by-name iteration in one go, so a
/// new weight cannot be added without becoming visible to the tuner.
macro_rules! params {
    ($( $(#[doc = $doc:literal])* $name:ident : $ty:ty = $val:expr ; )*) => {
        /// Every evaluation weight.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Params {
            $( $(#[doc = $doc])* pub $name: $ty, )*
        }

        /// The built-in weights.
        pub const DEFAULT_PARAMS: Params = Params { $( $name: $val, )* };

        /// One variant per field of `Params`, in declaration order: the tracer names the
        /// weight it records by field and entry (`Field::offset` + index into the flat
        /// order of `names`).
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Field { $( $name, )* }

        /// Scores per field, in declaration order.
        const FIELD_LENS: &[usize] = &[ $( <$ty as Slots>::LEN, )* ];

        impl Params {
            /// The field names, in declaration order (tables once, without an index).
            pub const FIELDS: &'static [&'static str] = &[ $( stringify!($name), )* ];

            /// Calls `f(name, value)` for every weight, tables expanded.
            pub fn for_each(&self, mut f: impl FnMut(String, Score)) {
                $(
                    for (i, v) in Slots::slots(&self.$name).iter().enumerate() {
                        f(slot_name::<$ty>(stringify!($name), i), *v);
                    }
                )*
            }

            /// Calls `f(name, &mut value)` for every weight, tables expanded.
            pub fn for_each_mut(&mut self, mut f: impl FnMut(String, &mut Score)) {
                $(
                    for (i, v) in Slots::slots_mut(&mut self.$name).iter_mut().enumerate() {
                        f(slot_name::<$ty>(stringify!($name), i), v);
                    }
                )*
            }
        }
    };
}

/// Number of scores in `Params` (every table entry counted).
pub const PARAM_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < FIELD_LENS.len() {
        n += FIELD_LENS[i];
        i += 1;
    }
    n
};

impl Field {
    /// Index of the field's first score in the flat order of `Params::names`.
    #[inline]
    pub const fn offset(self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < self as usize {
            n += FIELD_LENS[i];
            i += 1;
        }
        n
    }

    /// Scores in the field (1 for a single score, N for a table).
    pub const fn len(self) -> usize {
        FIELD_LENS[self as usize]
    }
}

impl Params {
    /// Every weight's name, in a fixed order.
    pub fn names(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.for_each(|n, _| out.push(n));
        out
    }

    /// Every weight's value, in the order of `names`.
    pub fn values(&self) -> Vec<Score> {
        let mut out = Vec::new();
        self.for_each(|_, v| out.push(v));
        out
    }

    /// Overwrites the weights in the order of `names`; returns false (changing nothing) when the
    /// length differs.
    pub fn set_values(&mut self, values: &[Score]) -> bool {
        if values.len() != self.values().len() {
            return false;
        }
        let mut it = values.iter();
        self.for_each_mut(|_, v| {
            if let Some(x) = it.next() {
                *v = *x;
            }
        });
        true
    }

    pub fn get(&self, name: &str) -> Option<Score> {
        let mut found = None;
        self.for_each(|n, v| {
            if n == name {
                found = Some(v);
            }
        });
        found
    }

    /// Sets one weight by name; false when no weight has that name.
    pub fn set(&mut self, name: &str, value: Score) -> bool {
        let mut found = false;
        self.for_each_mut(|n, v| {
            if n == name {
                *v = value;
                found = true;
            }
        });
        found
    }
}

impl Default for Params {
    fn default() -> Params {
        DEFAULT_PARAMS
    }
}

/// Shape of the default king-danger curve: quadratic in the attack units, then flat.
const KING_SAFETY_QUADRATIC_NUM: i32 = 5;
const KING_SAFETY_QUADRATIC_DEN: i32 = 8;
const KING_SAFETY_CAP_MG: i32 = 700;
/// The endgame half of the danger is this fraction of the middlegame half.
const KING_SAFETY_EG_DIVISOR: i32 = 8;

const fn king_safety_curve() -> [Score; KING_SAFETY_UNITS] {
    let mut t = [Score::ZERO; KING_SAFETY_UNITS];
    let mut i = 0;
    while i < KING_SAFETY_UNITS {
        let u = i as i32;
        let mut mg = u * u * KING_SAFETY_QUADRATIC_NUM / KING_SAFETY_QUADRATIC_DEN;
        if mg > KING_SAFETY_CAP_MG {
            mg = KING_SAFETY_CAP_MG;
        }
        t[i] = s(mg, mg / KING_SAFETY_EG_DIVISOR);
        i += 1;
    }
    t
}

const Z: Score = Score::ZERO;

params! {
    // ----- material and placement (kept incrementally by the board) -----
    /// Material value by kind: pawn, knight, bishop, rook, queen.
    material: [Score; 5] = [psqt::PAWN_VALUE, psqt::KNIGHT_VALUE, psqt::BISHOP_VALUE, psqt::ROOK_VALUE, psqt::QUEEN_VALUE];
    /// Square bonus of each kind, by 64-square index from the owner's side (a1 = 0, h8 = 63).
    pawn_square: [Score; 64] = psqt::shape_table(Kind::Pawn);
    knight_square: [Score; 64] = psqt::shape_table(Kind::Knight);
    bishop_square: [Score; 64] = psqt::shape_table(Kind::Bishop);
    rook_square: [Score; 64] = psqt::shape_table(Kind::Rook);
    queen_square: [Score; 64] = psqt::shape_table(Kind::Queen);
    king_square: [Score; 64] = psqt::shape_table(Kind::King);

    // ----- pawn structure (pawn hash), tables indexed by relative rank 0..8 -----
    /// Passed pawn, by relative rank.
    passed_rank: [Score; 8] = [Z, s(5, 12), s(8, 16), s(16, 32), s(36, 62), s(66, 108), s(102, 165), Z];
    /// Candidate passer (unopposed, enough helpers to force a passer), by relative rank.
    candidate_rank: [Score; 8] = [Z, s(3, 6), s(5, 10), s(10, 20), s(20, 36), s(36, 62), Z, Z];
    /// Pawn with no friendly pawn on an adjacent file.
    isolated: Score = s(-8, -14);
    /// Extra for an isolated pawn with no enemy pawn in front (a target on a half-open file).
    isolated_open: Score = s(-10, -6);
    /// A pawn with a friendly pawn in front of it on the same file.
    doubled: Score = s(-8, -18);
    /// Pawn whose neighbours are all ahead of it and whose stop square an enemy pawn guards.
    backward: Score = s(-6, -8);
    /// Extra for a backward pawn on a half-open file.
    backward_open: Score = s(-10, -4);
    /// Pawn defended by a friendly pawn, by relative rank.
    connected_rank: [Score; 8] = [Z, Z, s(6, 3), s(8, 5), s(14, 12), s(26, 26), s(45, 45), Z];
    /// Pawn with a friendly pawn beside it on the same rank, by relative rank.
    phalanx_rank: [Score; 8] = [Z, s(2, 0), s(4, 2), s(8, 5), s(14, 10), s(26, 26), s(45, 45), Z];

    // ----- king shelter and pawn storm (pawn hash), indexed by relative rank, 0 = no pawn -----
    /// Own pawn on the king's file: the least advanced one, by its relative rank.
    shelter_king_file: [Score; 8] = [s(-44, 0), Z, Z, s(-12, 0), s(-27, 0), s(-37, 0), s(-42, 0), s(-44, 0)];
    /// Own pawn on a file beside the king.
    shelter_side_file: [Score; 8] = [s(-34, 0), Z, Z, s(-9, 0), s(-21, 0), s(-29, 0), s(-32, 0), s(-34, 0)];
    /// Enemy pawn storming the king's files: the closest one, by its rank seen from our side.
    storm: [Score; 8] = [Z, s(-4, 0), s(-32, 0), s(-20, 0), s(-10, 0), s(-4, 0), Z, Z];
    /// Storming pawn that is blocked by one of our pawns.
    storm_blocked: [Score; 8] = [Z, Z, s(-12, 0), s(-5, 0), s(-2, 0), Z, Z, Z];

    // ----- passed pawns, piece-dependent (outside the pawn hash) -----
    /// Per square of the enemy king's distance from the passer's stop square.
    passed_enemy_king_distance: [Score; 8] = [Z, Z, Z, s(0, 5), s(0, 10), s(0, 17), s(0, 25), Z];
    /// Per square of our own king's distance from the stop square.
    passed_own_king_distance: [Score; 8] = [Z, Z, Z, s(0, -2), s(0, -4), s(0, -7), s(0, -10), Z];
    /// Every square up to promotion is empty.
    passed_free_path: [Score; 8] = [Z, Z, Z, s(2, 6), s(5, 15), s(10, 30), s(20, 55), Z];
    /// ... and none of them is attacked by the enemy.
    passed_safe_path: [Score; 8] = [Z, Z, Z, s(3, 8), s(6, 20), s(12, 40), s(20, 70), Z];
    /// Passer that a bare king cannot catch (rule of the square) and nothing blocks.
    passed_unstoppable: Score = s(0, 700);

    // ----- mobility: squares reachable that are not own-occupied nor guarded by enemy pawns -----
    knight_mobility: [Score; 9] = [
        s(-38, -45), s(-25, -30), s(-12, -15), s(-4, -5), s(2, 2), s(8, 8), s(13, 12), s(17, 15), s(20, 16),
    ];
    bishop_mobility: [Score; 14] = [
        s(-35, -45), s(-22, -30), s(-10, -17), s(-3, -7), s(3, 0), s(8, 6), s(13, 11),
        s(17, 15), s(20, 19), s(23, 22), s(25, 24), s(27, 26), s(29, 27), s(30, 28),
    ];
    rook_mobility: [Score; 15] = [
        s(-25, -55), s(-16, -35), s(-9, -20), s(-5, -10), s(-2, -2), s(0, 5), s(3, 11), s(6, 17),
        s(9, 23), s(12, 28), s(14, 32), s(16, 35), s(18, 38), s(19, 40), s(20, 41),
    ];
    queen_mobility: [Score; 28] = [
        s(-20, -40), s(-15, -30), s(-10, -22), s(-7, -16), s(-5, -11), s(-3, -7), s(-1, -3),
        s(0, 0), s(2, 3), s(4, 6), s(5, 9), s(7, 12), s(8, 14), s(9, 16), s(10, 18), s(11, 20),
        s(12, 22), s(13, 23), s(14, 24), s(15, 25), s(15, 26), s(16, 27), s(16, 28), s(17, 28),
        s(17, 29), s(18, 29), s(18, 30), s(18, 30),
    ];

    // ----- pieces -----
    bishop_pair: Score = s(30, 50);
    /// Knight on relative ranks 4-6, defended by a pawn, out of reach of enemy pawns.
    knight_outpost: Score = s(18, 10);
    bishop_outpost: Score = s(9, 4);
    rook_open_file: Score = s(30, 8);
    rook_half_open_file: Score = s(12, 6);
    /// Rook on the 7th with the enemy king on the 8th or enemy pawns on the 7th.
    rook_seventh: Score = s(15, 25);
    queen_seventh: Score = s(8, 15);
    /// Bishop on a7/h7 (a2/h2) shut in by an enemy pawn on b6/g6 (b3/g3).
    bishop_trapped: Score = s(-90, -90);
    /// Rook in the corner behind its own uncastled king, with no castling right left.
    rook_trapped: Score = s(-45, -5);
    /// Knight value per own pawn above `imbalance::IMBALANCE_PAWN_BASE` (knights like closed
    /// positions).
    knight_pawn_adjust: Score = s(4, 4);
    /// Rook value per own pawn above the base (rooks like open positions).
    rook_pawn_adjust: Score = s(-5, -5);

    // ----- threats -----
    /// Minor piece attacked by an enemy pawn.
    pawn_threat_minor: Score = s(40, 35);
    /// Rook or queen attacked by an enemy pawn.
    pawn_threat_major: Score = s(55, 40);
    /// Enemy piece (not pawn) attacked by us and not defended, per piece.
    hanging: Score = s(20, 12);

    // ----- king safety: attack units (middlegame half only) -----
    /// Units per piece of each kind attacking the enemy king zone (index by kind: P N B R Q).
    king_attack_weight: [Score; 5] = [Z, s(2, 0), s(2, 0), s(3, 0), s(5, 0)];
    /// Multiplier (/64) on the summed weights by the number of attackers.
    king_attackers_scale: [Score; 8] = [Z, s(16, 0), s(64, 0), s(90, 0), s(108, 0), s(120, 0), s(128, 0), s(128, 0)];
    /// Units per attacked king-zone square (counted once per attacker).
    king_zone_hit: Score = s(1, 0);
    /// Units per safe checking square, by kind of the checker (index by kind: P N B R Q).
    king_safe_check: [Score; 5] = [Z, s(3, 0), s(2, 0), s(3, 0), s(3, 0)];
    /// Danger, in centipawns, by attack units.
    king_safety: [Score; KING_SAFETY_UNITS] = king_safety_curve();

    // ----- mop-up against a bare king (endgame half only) -----
    /// Per step the bare king stands nearer the edge.
    mopup_edge: Score = s(0, 20);
    /// Per step the two kings stand nearer each other.
    mopup_king_distance: Score = s(0, 8);

    // ----- side to move -----
    tempo: Score = s(18, 8);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_settable() {
        let mut p = DEFAULT_PARAMS;
        let names = p.names();
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        assert!(names.contains(&"tempo".to_string()));
        assert!(names.contains(&"knight_mobility[8]".to_string()));
        assert!(p.set("knight_mobility[8]", s(1, 2)));
        assert_eq!(p.knight_mobility[8], s(1, 2));
        assert_eq!(p.get("knight_mobility[8]"), Some(s(1, 2)));
        assert!(!p.set("no_such_weight", s(0, 0)));
        let v = DEFAULT_PARAMS.values();
        assert!(p.set_values(&v));
        assert_eq!(p, DEFAULT_PARAMS);
    }
}
