//! Move generation on the 0x88 board.
//!
//! Generators produce *pseudo-legal* moves into a `MoveList`; `is_legal` then decides legality
//! from the pin and check information of `CheckInfo` (computed once per node from the
//! vector-delta tables), without making the move. Only en passant, whose capture can uncover a
//! check along the rank through both pawns, gets an occupancy-after-the-move test.
//!
//! The three kinds split all moves into two disjoint halves for a staged search:
//! - `Captures`: every capture (all promotion pieces) plus quiet queen promotions;
//! - `Quiets`: every other move, including quiet under-promotions and castling;
//! - `All`: both.
//!
//! When in check, `generate_evasions` produces king moves plus moves that capture the checker or
//! block its line.

use crate::board::attacks::CheckInfo;
use crate::board::bitboard;
use crate::board::geometry::{step, BISHOP_DIRS, QUEEN_DIRS, ROOK_DIRS};
use crate::board::{castle_rights, Position, MAX_PIECES};
use crate::moves::{Move, MoveList, FLAG_CASTLE, FLAG_DOUBLE_PUSH, FLAG_EN_PASSANT};
use crate::types::{
    bit, from64, on_board, rank_of, to64, Colour, Kind, Piece, Square, SquareSet, NO_SQUARE,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenType {
    Captures,
    Quiets,
    All,
}

const ALL_SQUARES: SquareSet = u128::MAX;

/// Each colour's seventh rank as a 64-bit set: a pawn there promotes with its next step.
const PROMOTING_RANK: [u64; 2] = [0xff << 48, 0xff << 8];

/// `dirs` as `bitboard::ray` directions (a slider delta that is not a ray fails the build).
const fn rays_of<const N: usize>(dirs: [i16; N]) -> [usize; N] {
    let mut rays = [0; N];
    let mut i = 0;
    while i < N {
        rays[i] = match bitboard::direction_of(dirs[i]) {
            Some(d) => d,
            None => panic!("slider delta without a bitboard ray"),
        };
        i += 1;
    }
    rays
}

/// Each slider's directions as bitboard rays, in the order of its 0x88 deltas (which sets the
/// order its moves are generated in).
struct SliderRays {
    bishop: [usize; 4],
    rook: [usize; 4],
    queen: [usize; 8],
}

const SLIDER_RAYS: SliderRays = SliderRays {
    bishop: rays_of(BISHOP_DIRS),
    rook: rays_of(ROOK_DIRS),
    queen: rays_of(QUEEN_DIRS),
};

/// Where the generators put their moves: a `MoveList`, or a counter that keeps only the
/// number of legal moves (perft's bulk count, which then never stores a move).
pub trait MoveSink {
    fn push(&mut self, m: Move);
}

impl MoveSink for MoveList {
    #[inline]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
}

/// Counts every move it is given (moves already known to be legal).
struct Counter(u64);

impl MoveSink for Counter {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Counts the king's steps to squares the enemy does not attack. At the first step it lists the
/// enemy pieces that could attack a square next to the king (often the king has no step at all,
/// and then the list is never made); each step is tested against those pieces only.
struct KingStepCounter<'a> {
    pos: &'a Position,
    near: [Square; MAX_PIECES],
    near_len: Option<usize>,
    count: u64,
}

impl MoveSink for KingStepCounter<'_> {
    #[inline]
    fn push(&mut self, m: Move) {
        let them = self.pos.side_to_move().flip();
        let n = match self.near_len {
            Some(n) => n,
            None => {
                let n = self.pos.near_king_pieces(m.from(), them, &mut self.near);
                self.near_len = Some(n);
                n
            }
        };
        let near = &self.near[..n];
        self.count += !self.pos.is_attacked_near(m.to(), them, m.from(), near) as u64;
    }
}

/// Counts the legal moves it is given.
struct LegalCounter<'a> {
    pos: &'a Position,
    ci: &'a CheckInfo,
    count: u64,
}

impl MoveSink for LegalCounter<'_> {
    #[inline]
    fn push(&mut self, m: Move) {
        self.count += self.pos.is_legal(m, self.ci) as u64;
    }
}

impl Position {
    /// Pseudo-legal moves of the given type for a side not in check.
    pub fn generate(&self, gen: GenType, list: &mut MoveList) {
        match gen {
            GenType::Captures => self.gen_moves::<true, false, _>(ALL_SQUARES, true, list),
            GenType::Quiets => self.gen_moves::<false, true, _>(ALL_SQUARES, true, list),
            GenType::All => self.gen_moves::<true, true, _>(ALL_SQUARES, true, list),
        }
    }

    /// Pseudo-legal check evasions: king moves, and when in single check, captures of the
    /// checker and interpositions.
    pub fn generate_evasions(&self, ci: &CheckInfo, list: &mut MoveList) {
        self.gen_evasions(ci, list);
    }

    /// `generate_evasions` into any sink: in double check only the king may move.
    fn gen_evasions<S: MoveSink>(&self, ci: &CheckInfo, list: &mut S) {
        let targets = if ci.checker_count >= 2 {
            0
        } else {
            ci.evasion_targets
        };
        self.gen_moves::<true, true, _>(targets, false, list);
    }

    /// All legal moves.
    pub fn generate_legal(&self, list: &mut MoveList) {
        let ci = self.check_info();
        if ci.checker_count > 0 {
            self.generate_evasions(&ci, list);
        } else {
            self.generate(GenType::All, list);
        }
        list.retain(|m| self.is_legal(m, &ci));
    }

    /// The number of legal moves, decided move by move as the generators produce them, without
    /// storing them (perft's bulk count at depth 1).
    pub fn count_legal(&self) -> u64 {
        let ci = self.check_info();
        let mut counter = LegalCounter {
            pos: self,
            ci: &ci,
            count: 0,
        };
        if ci.checker_count > 0 {
            self.gen_evasions(&ci, &mut counter);
            return counter.count;
        }
        // Not in check: a piece other than the king that is not pinned cannot expose the king,
        // so its moves are counted without a legality test; pawns (en passant) and pinned
        // pieces go through `is_legal`, and the king's moves through the attack test.
        let us = self.side_to_move();
        let mut free = Counter(0);
        // Unpinned knights and sliders: their moves are the attack set less our own squares,
        // counted at once from 64-bit sets rather than walked square by square.
        let own = self.occupancy(us);
        let occupied = own | self.occupancy(us.flip());
        let mut by_set = 0u64;
        for &from in self.pawns(us) {
            if ci.pinned & bit(from) != 0 {
                self.gen_pawn::<true, true, _>(us, from, ALL_SQUARES, &mut counter);
            } else {
                self.gen_pawn::<true, true, _>(us, from, ALL_SQUARES, &mut free);
            }
        }
        self.gen_en_passant(us, ALL_SQUARES, &mut counter);
        for &from in self.pieces(us) {
            let p = self.piece_at(from);
            if ci.pinned & bit(from) != 0 {
                self.gen_piece::<true, true, _>(p, from, ALL_SQUARES, &mut counter);
            } else if p.is_kind(Kind::King) {
                let mut steps = KingStepCounter {
                    pos: self,
                    near: [NO_SQUARE; MAX_PIECES],
                    near_len: None,
                    count: 0,
                };
                self.gen_leaper::<true, true, _>(p, from, &bitboard::KING, ALL_SQUARES, &mut steps);
                counter.count += steps.count;
                self.gen_castles(us, from, &mut counter);
            } else {
                let sq = to64(from);
                let reach = match p.kind() {
                    Kind::Knight => bitboard::KNIGHT[sq],
                    Kind::Bishop => bitboard::bishop(sq, occupied),
                    Kind::Rook => bitboard::rook(sq, occupied),
                    _ => bitboard::queen(sq, occupied),
                };
                by_set += (reach & !own).count_ones() as u64;
            }
        }
        counter.count + free.0 + by_set
    }

    /// The pseudo-legal moves of the knight or slider `p` on `from` to `targets`.
    #[inline(always)]
    fn gen_piece<const CAPS: bool, const QUIETS: bool, S: MoveSink>(
        &self,
        p: Piece,
        from: Square,
        targets: SquareSet,
        list: &mut S,
    ) {
        match p.kind() {
            Kind::Knight => {
                self.gen_leaper::<CAPS, QUIETS, S>(p, from, &bitboard::KNIGHT, targets, list)
            }
            Kind::Bishop => {
                self.gen_slider::<CAPS, QUIETS, S>(p, from, &SLIDER_RAYS.bishop, targets, list)
            }
            Kind::Rook => {
                self.gen_slider::<CAPS, QUIETS, S>(p, from, &SLIDER_RAYS.rook, targets, list)
            }
            _ => self.gen_slider::<CAPS, QUIETS, S>(p, from, &SLIDER_RAYS.queen, targets, list),
        }
    }

    /// Legal moves as a fresh list.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// Is a pseudo-legal move (from `generate` or `generate_evasions`) legal?
    #[inline]
    pub fn is_legal(&self, m: Move, ci: &CheckInfo) -> bool {
        let from = m.from();
        let to = m.to();
        let them = self.side_to_move().flip();
        if m.moved().is_kind(Kind::King) {
            if m.is_castle() {
                return ci.checker_count == 0 && self.castle_path_safe(m);
            }
            return !self.is_attacked_ignoring(to, them, from);
        }
        if m.is_en_passant() {
            return !self.en_passant_exposes_king(m);
        }
        ci.pinned & bit(from) == 0 || step(ci.king, from) == step(ci.king, to)
    }

    /// The generator proper. `targets` restricts the destination of non-king moves (evasions);
    /// `castles` allows castling.
    fn gen_moves<const CAPS: bool, const QUIETS: bool, S: MoveSink>(
        &self,
        targets: SquareSet,
        castles: bool,
        list: &mut S,
    ) {
        let us = self.side_to_move();
        self.gen_pawn_moves::<CAPS, QUIETS, S>(us, targets, list);
        for &from in self.pieces(us) {
            let p = self.piece_at(from);
            match p.kind() {
                Kind::King => {
                    self.gen_leaper::<CAPS, QUIETS, S>(p, from, &bitboard::KING, ALL_SQUARES, list);
                    if QUIETS && castles {
                        self.gen_castles(us, from, list);
                    }
                }
                Kind::Pawn => {}
                _ => self.gen_piece::<CAPS, QUIETS, S>(p, from, targets, list),
            }
        }
    }

    /// A knight's or king's moves, from its `reach` table (`bitboard::KNIGHT` or `KING`). The
    /// set is walked by ascending square, which is the order of the piece's ascending 0x88
    /// deltas: the moves come out exactly as a walk over the deltas would give them, so the
    /// search orders ties as it always has.
    #[inline(always)]
    fn gen_leaper<const CAPS: bool, const QUIETS: bool, S: MoveSink>(
        &self,
        p: Piece,
        from: Square,
        reach: &[u64; 64],
        targets: SquareSet,
        list: &mut S,
    ) {
        let us = p.colour();
        let reach = reach[to64(from) & 63];
        let occupied = self.occupied();
        let mut wanted = 0;
        if CAPS {
            wanted |= self.occupancy(us.flip());
        }
        if QUIETS {
            wanted |= !occupied;
        }
        let mut set = reach & wanted;
        while set != 0 {
            let to = from64(set.trailing_zeros() as usize);
            set &= set - 1;
            if targets & bit(to) != 0 {
                list.push(Move::new(from, to, p, self.piece_at(to)));
            }
        }
    }

    /// A slider's moves, ray by ray in the order of `dirs` (bitboard directions, see
    /// `SLIDER_RAYS`): each ray's empty squares nearest first, then the piece that blocks it
    /// when it is an enemy. That is the order of a square-by-square walk along the 0x88 deltas,
    /// found here from one table lookup and a bit scan per ray instead of a step per square.
    #[inline(always)]
    fn gen_slider<const CAPS: bool, const QUIETS: bool, S: MoveSink>(
        &self,
        p: Piece,
        from: Square,
        dirs: &[usize],
        targets: SquareSet,
        list: &mut S,
    ) {
        let us = p.colour();
        let sq = to64(from) & 63;
        let occupied = self.occupied();
        let enemy = self.occupancy(us.flip());
        for &d in dirs {
            let reach = bitboard::ray(d, sq, occupied);
            if QUIETS {
                let mut empty = reach & !occupied;
                while empty != 0 {
                    // Rays 0..4 run toward higher squares: their nearest square is the lowest.
                    let s = if d < 4 {
                        empty.trailing_zeros()
                    } else {
                        63 - empty.leading_zeros()
                    } as usize;
                    empty &= !(1u64 << s);
                    let to = from64(s);
                    if targets & bit(to) != 0 {
                        list.push(Move::new(from, to, p, Piece::NONE));
                    }
                }
            }
            if CAPS {
                let hit = reach & enemy;
                if hit != 0 {
                    let to = from64(hit.trailing_zeros() as usize);
                    if targets & bit(to) != 0 {
                        list.push(Move::new(from, to, p, self.piece_at(to)));
                    }
                }
            }
        }
    }

    fn gen_castles<S: MoveSink>(&self, us: Colour, king: Square, list: &mut S) {
        let (short, long) = castle_rights(us);
        let rights = self.castling();
        if rights & (short | long) == 0 {
            return;
        }
        let k = Piece::new(us, Kind::King);
        let occupied = self.occupied();
        let back = king & 0x70;
        // The king lands on the g-file (short) or the c-file (long), wherever it starts.
        for (bit, long, king_to) in [(short, false, back | 6), (long, true, back | 2)] {
            if rights & bit != 0 && occupied & self.castle_empty(us, long) == 0 {
                list.push(Move::new(king, king_to, k, Piece::NONE).with_flag(FLAG_CASTLE));
            }
        }
    }

    /// For a castle out of no check: no square on the king's way, its target included, is
    /// attacked, and the target is not attacked along the rank once the castling rook has
    /// left (in Chess960 the rook can stand between the target and an enemy rook or queen).
    fn castle_path_safe(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let us = self.side_to_move();
        let them = us.flip();
        let d: i16 = if to > from { 1 } else { -1 };
        let mut s = from;
        while s != to {
            s = (s as i16 + d) as Square;
            if s != to && self.is_attacked(s, them) {
                return false;
            }
        }
        let (rook, _) = self.castle_rook_squares(us, to);
        !self.is_attacked_ignoring(to, them, rook)
    }

    fn gen_pawn_moves<const CAPS: bool, const QUIETS: bool, S: MoveSink>(
        &self,
        us: Colour,
        targets: SquareSet,
        list: &mut S,
    ) {
        // The capture stage (captures and queen promotions only) wants few pawns, and most
        // nodes have none that can take anything: a set test finds the ones worth a look, and
        // the piece list keeps the order the moves have always come out in.
        let candidates = if CAPS && !QUIETS {
            let own = self.kind_set(Kind::Pawn) & self.occupancy(us);
            let captors = bitboard::pawn_attacks(us.flip(), self.occupancy(us.flip()));
            own & (captors | PROMOTING_RANK[us.index()])
        } else {
            !0
        };
        if candidates != 0 {
            for &from in self.pawns(us) {
                if candidates & bitboard::bit64(from) != 0 {
                    self.gen_pawn::<CAPS, QUIETS, S>(us, from, targets, list);
                }
            }
        }
        if CAPS {
            self.gen_en_passant(us, targets, list);
        }
    }

    /// The moves of the pawn on `from` other than en passant.
    #[inline(always)]
    fn gen_pawn<const CAPS: bool, const QUIETS: bool, S: MoveSink>(
        &self,
        us: Colour,
        from: Square,
        targets: SquareSet,
        list: &mut S,
    ) {
        let fwd = us.forward();
        let pawn = Piece::new(us, Kind::Pawn);
        let promoting = rank_of(from) == us.relative_rank(6);
        let ahead = (from as i16 + fwd) as Square;
        if CAPS {
            for side in [-1i16, 1] {
                let t = ahead as i16 + side;
                if !on_board(t) {
                    continue;
                }
                let to = t as Square;
                let q = self.piece_at(to);
                if q.is_some() && q.colour() != us && targets & bit(to) != 0 {
                    let m = Move::new(from, to, pawn, q);
                    if promoting {
                        for k in Kind::PROMOTIONS {
                            list.push(m.with_promotion(Piece::new(us, k)));
                        }
                    } else {
                        list.push(m);
                    }
                }
            }
        }
        if self.piece_at(ahead).is_some() {
            return;
        }
        let m = Move::new(from, ahead, pawn, Piece::NONE);
        if promoting {
            if targets & bit(ahead) != 0 {
                if CAPS {
                    list.push(m.with_promotion(Piece::new(us, Kind::Queen)));
                }
                if QUIETS {
                    for k in [Kind::Knight, Kind::Rook, Kind::Bishop] {
                        list.push(m.with_promotion(Piece::new(us, k)));
                    }
                }
            }
        } else if QUIETS {
            if targets & bit(ahead) != 0 {
                list.push(m);
            }
            if rank_of(from) == us.relative_rank(1) {
                let two = (ahead as i16 + fwd) as Square;
                if self.piece_at(two).is_none() && targets & bit(two) != 0 {
                    list.push(Move::new(from, two, pawn, Piece::NONE).with_flag(FLAG_DOUBLE_PUSH));
                }
            }
        }
    }

    /// En-passant captures, if any.
    #[inline]
    fn gen_en_passant<S: MoveSink>(&self, us: Colour, targets: SquareSet, list: &mut S) {
        let ep = self.ep_square();
        if ep == NO_SQUARE {
            return;
        }
        let pawn = Piece::new(us, Kind::Pawn);
        let captured_sq = (ep as i16 - us.forward()) as Square;
        // In check, en passant helps only by removing the checking pawn (or by landing on
        // a blocking square).
        if targets & (bit(captured_sq) | bit(ep)) == 0 {
            return;
        }
        let enemy = Piece::new(us.flip(), Kind::Pawn);
        for side in [-1i16, 1] {
            let f = captured_sq as i16 + side;
            if on_board(f) && self.piece_at(f as Square) == pawn {
                list.push(Move::new(f as Square, ep, pawn, enemy).with_flag(FLAG_EN_PASSANT));
            }
        }
    }
}

impl Position {
    /// Could `m` have come from this position's generators? Checks a move from an untrusted
    /// source (the transposition table, a killer slot) before the search plays it: the moving and
    /// captured pieces must be where the move says, the geometry and path must fit, and the flags
    /// must agree. Castling and en passant are checked against the generators themselves. In
    /// check, callers must still make sure the move is an evasion.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        if m.is_none() {
            return false;
        }
        let (from, to) = (m.from(), m.to());
        let us = self.side_to_move();
        let p = m.moved();
        if from & 0x88 != 0 || to & 0x88 != 0 || p.is_none() || self.piece_at(from) != p {
            return false;
        }
        if p.colour() != us {
            return false;
        }
        if m.is_castle() || m.is_en_passant() {
            let mut list = MoveList::new();
            if m.is_castle() {
                // The generator works from the king's own square (its home while a right holds).
                if !p.is_kind(Kind::King) {
                    return false;
                }
                self.gen_castles(us, from, &mut list);
            } else {
                self.gen_pawn_moves::<true, false, _>(us, ALL_SQUARES, &mut list);
            }
            return list.contains(m);
        }
        let target = self.piece_at(to);
        if target != m.captured()
            || (target.is_some() && (target.colour() == us || target.is_kind(Kind::King)))
        {
            return false;
        }
        if !p.is_kind(Kind::Pawn) {
            if m.is_promotion() || m.is_double_push() {
                return false;
            }
            let mask = crate::board::geometry::attack_mask(from, to)
                & crate::board::geometry::piece_bit(p);
            return mask != 0
                && (mask & crate::board::geometry::SLIDER_BITS == 0 || self.path_clear(from, to));
        }
        // Pawns: the promotion piece must match the destination rank.
        let fwd = us.forward();
        let last_rank = us.relative_rank(7);
        if (rank_of(to) == last_rank) != m.is_promotion() {
            return false;
        }
        if m.is_promotion() {
            let q = m.promotion();
            if q.colour() != us || q.is_kind(Kind::Pawn) || q.is_kind(Kind::King) {
                return false;
            }
        }
        let d = to as i16 - from as i16;
        if target.is_some() {
            return !m.is_double_push() && (d == fwd - 1 || d == fwd + 1);
        }
        if d == fwd {
            return !m.is_double_push();
        }
        d == 2 * fwd
            && m.is_double_push()
            && rank_of(from) == us.relative_rank(1)
            && self.piece_at((from as i16 + fwd) as Square).is_none()
    }
}
