//! The position: a 128-square 0x88 mailbox with per-side piece lists and incremental state.
//!
//! Layout (typhoon's, tidied):
//! - `board[sq]` holds the piece code on every 0x88 square (the off-board half stays empty);
//! - each side has a list of non-pawn pieces with the king always in slot 0 and a separate pawn
//!   list; `slot[sq]` gives a piece's index in its list, so a capture removes it in O(1) by
//!   moving the list's last entry into the hole;
//! - `counts[piece]` counts every piece code, which drives the material key and game phase;
//! - the full, pawn and material Zobrist keys and the White-relative material + piece-square
//!   score are updated by the three primitives `put`, `remove` and `shift`, and nothing else
//!   writes to the board.
//!
//! Submodules: `geometry` (vector-delta tables), `zobrist`, `attacks` (attack tests, pins,
//! checks), `make` (make/unmake/null), `fen`, `notation` (SAN and coordinates), `draw`
//! (repetition, fifty moves, insufficient material), `see` (static exchange evaluation) and
//! `validate` (full recompute).

pub mod attacks;
pub mod bitboard;
pub mod draw;
pub mod fen;
pub mod geometry;
pub mod make;
pub mod mirror;
pub mod notation;
pub mod see;
pub mod validate;
pub mod zobrist;

use crate::eval::psqt;
use crate::eval::score::Score;
use crate::moves::Move;
use crate::types::{Colour, Kind, Piece, Square, NO_SQUARE};

/// Castling-right bits.
pub const WHITE_OO: u8 = 1;
pub const WHITE_OOO: u8 = 2;
pub const BLACK_OO: u8 = 4;
pub const BLACK_OOO: u8 = 8;
pub const ALL_CASTLING: u8 = 15;

/// The castling-right bits of colour `c`: short, long.
#[inline]
pub const fn castle_rights(c: Colour) -> (u8, u8) {
    match c {
        Colour::White => (WHITE_OO, WHITE_OOO),
        Colour::Black => (BLACK_OO, BLACK_OOO),
    }
}

/// The castling rooks' squares of standard chess: per colour, short (h-file) and long (a-file).
pub const STANDARD_CASTLE_ROOKS: [[Square; 2]; 2] = [[0x07, 0x00], [0x77, 0x70]];

/// Maximum non-pawn pieces per side (king + 15 promoted or original pieces).
pub const MAX_PIECES: usize = 16;
pub const MAX_PAWNS: usize = 8;

/// The irreversible part of a position, saved by make and restored by unmake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub mv: Move,
    pub castling: u8,
    pub ep: Square,
    pub halfmove: u16,
    pub plies_from_null: u16,
    pub key: u64,
    pub pawn_key: u64,
    pub non_pawn_key: [u64; 2],
    pub material_key: u64,
    pub psq: Score,
    pub checkers: u8,
    /// List slots of the captured piece and of a promoting pawn, so unmake restores the piece
    /// lists in their exact order (move generation order, and so node counts, depend on it).
    pub cap_slot: u8,
    pub pawn_slot: u8,
}

#[derive(Clone)]
pub struct Position {
    board: [Piece; 128],
    slot: [u8; 128],
    pieces: [[Square; MAX_PIECES]; 2],
    piece_len: [u8; 2],
    pawns: [[Square; MAX_PAWNS]; 2],
    pawn_len: [u8; 2],
    counts: [u8; Piece::COUNT],
    side: Colour,
    castling: u8,
    /// Chess960 notation: castling written king-takes-rook in coordinates, X-FEN castling
    /// fields, any king and rook files in FEN input. The rules are the same either way.
    chess960: bool,
    /// Each colour's castling rooks, short `[0]` and long `[1]` (the standard corners where a
    /// right is missing); fixed for the game, since a right goes when its rook or king moves.
    castle_rooks: [[Square; 2]; 2],
    /// Castling rights that survive a move touching each square: `rights &= mask[from] &
    /// mask[to]` (the king's and castling rooks' home squares clear their rights).
    castle_mask: [u8; 128],
    /// The Zobrist key of each rights set: the standard per-right keys, plus a key for each
    /// right whose rook stands on a non-standard file (so standard keys are unchanged).
    castle_keys: [u64; 16],
    /// Per colour and side: the squares (64-bit) that must be empty to castle, the king's and
    /// the castling rook's own squares left out.
    castle_empty: [[u64; 2]; 2],
    ep: Square,
    halfmove: u16,
    fullmove: u16,
    /// Plies since the last null move (or the root of the known history); bounds repetition scans.
    plies_from_null: u16,
    key: u64,
    pawn_key: u64,
    /// Each colour's pieces other than pawns, king included, by colour index (the correction
    /// history's keys).
    non_pawn_key: [u64; 2],
    material_key: u64,
    psq: Score,
    /// Number of pieces giving check to the side to move (0, 1 or 2).
    checkers: u8,
    /// Each side's occupied squares as a 64-bit set (bit `to64(sq)`), kept by the raw
    /// primitives for the bitboard attack sets of the evaluation and perft's bulk count.
    occupancy: [u64; 2],
    /// The squares of each kind, both colours together, indexed by `Piece::kind_index()` (slot
    /// 0 unused): with `occupancy` they give the attackers of a square in a few table loads
    /// (static exchange, pins) instead of a walk over the piece lists.
    by_kind: [u64; 7],
    /// Undo stack: one entry per made move (including null moves).
    undo: Vec<State>,
    /// Keys of every earlier position in the game and the search, oldest first.
    keys: Vec<u64>,
}

impl Position {
    /// An empty board with White to move; used by the FEN parser.
    pub(crate) fn empty() -> Position {
        Position {
            board: [Piece::NONE; 128],
            slot: [0; 128],
            pieces: [[NO_SQUARE; MAX_PIECES]; 2],
            piece_len: [0; 2],
            pawns: [[NO_SQUARE; MAX_PAWNS]; 2],
            pawn_len: [0; 2],
            counts: [0; Piece::COUNT],
            side: Colour::White,
            castling: 0,
            chess960: false,
            castle_rooks: STANDARD_CASTLE_ROOKS,
            castle_mask: [ALL_CASTLING; 128],
            castle_keys: zobrist::ZOBRIST.castling,
            castle_empty: [[0; 2]; 2],
            ep: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            plies_from_null: 0,
            key: 0,
            pawn_key: 0,
            non_pawn_key: [0; 2],
            material_key: 0,
            psq: Score::ZERO,
            checkers: 0,
            occupancy: [0; 2],
            by_kind: [0; 7],
            undo: Vec::with_capacity(256),
            keys: Vec::with_capacity(512),
        }
    }

    // ----- accessors -----

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Piece {
        // The mask keeps the index in the 128-square array without a bounds check; for a board
        // square it changes nothing (and `NO_SQUARE` reads an off-board, always empty, square).
        self.board[(sq & 0x7f) as usize]
    }

    #[inline]
    pub fn side_to_move(&self) -> Colour {
        self.side
    }

    #[inline]
    pub fn castling(&self) -> u8 {
        self.castling
    }

    /// Chess960 notation (king-takes-rook castling in coordinates, X-FEN castling fields).
    #[inline]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switches Chess960 notation on or off; the position and its rules do not change.
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// The square of `c`'s castling rook, short (`long == false`) or long; meaningful while
    /// that right is held.
    #[inline]
    pub fn castle_rook(&self, c: Colour, long: bool) -> Square {
        self.castle_rooks[c.index()][long as usize]
    }

    /// The castling rook's origin and destination for `c`'s king castling to `king_to`
    /// (g-file: short, c-file: long).
    #[inline]
    pub fn castle_rook_squares(&self, c: Colour, king_to: Square) -> (Square, Square) {
        let long = crate::types::file_of(king_to) != 6;
        let back = king_to & 0x70;
        (
            self.castle_rooks[c.index()][long as usize],
            back | if long { 3 } else { 5 },
        )
    }

    /// The squares (64-bit) that must be empty for `c` to castle short or long.
    #[inline]
    pub(crate) fn castle_empty(&self, c: Colour, long: bool) -> u64 {
        self.castle_empty[c.index()][long as usize]
    }

    /// Is every castling right held the standard one (king on the e-file, rook in its
    /// corner)? A position where this is false can only be played as Chess960.
    pub fn is_standard_castling(&self) -> bool {
        Colour::BOTH.iter().all(|&c| {
            let (short, long) = castle_rights(c);
            let rights = self.castling & (short | long);
            let home = crate::types::square(4, c.relative_rank(0));
            rights == 0
                || (self.king(c) == home
                    && (rights & short == 0
                        || self.castle_rook(c, false) == STANDARD_CASTLE_ROOKS[c.index()][0])
                    && (rights & long == 0
                        || self.castle_rook(c, true) == STANDARD_CASTLE_ROOKS[c.index()][1]))
        })
    }

    /// Sets the castling rights and rooks (at set-up) and derives the masks, empty-square
    /// sets and keys from them and the kings' squares.
    pub(crate) fn set_castling(&mut self, rights: u8, rooks: [[Square; 2]; 2]) {
        let z = &*zobrist::ZOBRIST;
        self.castling = rights;
        self.castle_rooks = rooks;
        self.castle_mask = [ALL_CASTLING; 128];
        self.castle_empty = [[0; 2]; 2];
        let mut extra = [0u64; 4];
        for c in Colour::BOTH {
            let ci = c.index();
            let (short, long) = castle_rights(c);
            let king = self.king(c);
            for (side, bit) in [(0usize, short), (1, long)] {
                if rights & bit == 0 {
                    self.castle_rooks[ci][side] = STANDARD_CASTLE_ROOKS[ci][side];
                    continue;
                }
                let rook = self.castle_rooks[ci][side];
                self.castle_mask[king as usize] &= !(short | long);
                self.castle_mask[rook as usize] &= !bit;
                let back = king & 0x70;
                let (king_to, rook_to) = if side == 0 {
                    (back | 6, back | 5)
                } else {
                    (back | 2, back | 3)
                };
                let span = |a: Square, b: Square| {
                    (a.min(b)..=a.max(b)).fold(0u64, |s, sq| s | bitboard::bit64(sq))
                };
                self.castle_empty[ci][side] = (span(king, king_to) | span(rook, rook_to))
                    & !bitboard::bit64(king)
                    & !bitboard::bit64(rook);
                let i = bit.trailing_zeros() as usize;
                extra[i] = z.castle_file[i][crate::types::file_of(rook) as usize];
            }
        }
        for (r, key) in self.castle_keys.iter_mut().enumerate() {
            *key = (0..4)
                .filter(|i| r & (1 << i) != 0)
                .fold(z.castling[r], |k, i| k ^ extra[i]);
        }
    }

    /// En-passant target square, set only when a pawn of the side to move stands ready to take.
    #[inline]
    pub fn ep_square(&self) -> Square {
        self.ep
    }

    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    #[inline]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// The zobrist key of `c`'s pieces other than pawns, king included.
    #[inline]
    pub fn non_pawn_key(&self, c: Colour) -> u64 {
        self.non_pawn_key[c.index()]
    }

    #[inline]
    pub fn material_key(&self) -> u64 {
        self.material_key
    }

    /// Material plus piece-square sum, White-relative.
    #[inline]
    pub fn psq(&self) -> Score {
        self.psq
    }

    #[inline]
    pub fn king(&self, c: Colour) -> Square {
        self.pieces[c.index()][0]
    }

    /// Non-pawn pieces of `c`, king first.
    #[inline]
    pub fn pieces(&self, c: Colour) -> &[Square] {
        &self.pieces[c.index()][..self.piece_len[c.index()] as usize]
    }

    /// The squares side `c` occupies, as a 64-bit set (bit `to64(sq)`).
    #[inline]
    pub fn occupancy(&self, c: Colour) -> u64 {
        self.occupancy[c.index()]
    }

    /// Every occupied square, as a 64-bit set.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.occupancy(Colour::White) | self.occupancy(Colour::Black)
    }

    /// The squares of every piece of `kind`, both colours, as a 64-bit set.
    #[inline]
    pub fn kind_set(&self, kind: Kind) -> u64 {
        self.by_kind[kind as usize % 7]
    }

    #[inline]
    pub fn pawns(&self, c: Colour) -> &[Square] {
        &self.pawns[c.index()][..self.pawn_len[c.index()] as usize]
    }

    /// How many pieces with this code stand on the board.
    #[inline]
    pub fn count(&self, p: Piece) -> u8 {
        self.counts[p.index()]
    }

    #[inline]
    pub fn count_of(&self, c: Colour, k: Kind) -> u8 {
        self.counts[Piece::new(c, k).index()]
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers != 0
    }

    /// Number of pieces giving check (0, 1 or 2).
    #[inline]
    pub fn checker_count(&self) -> u8 {
        self.checkers
    }

    /// True when `c` has a piece other than king and pawns (null-move safety).
    #[inline]
    pub fn has_non_pawn_material(&self, c: Colour) -> bool {
        self.piece_len[c.index()] > 1
    }

    /// Game phase from the remaining non-pawn material, 0 (bare) ..= `PHASE_TOTAL` (opening);
    /// promotions can push the raw sum above the total, so it is clamped.
    pub fn phase(&self) -> i32 {
        // From the kind sets, both colours at once: four population counts instead of eight
        // count-table reads (it runs at every evaluation).
        let p: i32 = [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen]
            .iter()
            .map(|&k| psqt::phase_weight(k) * self.kind_set(k).count_ones() as i32)
            .sum();
        p.min(psqt::PHASE_TOTAL)
    }

    /// Number of plies made on this position object (the undo stack depth).
    #[inline]
    pub fn ply_count(&self) -> usize {
        self.undo.len()
    }

    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.undo.last().map(|s| s.mv)
    }

    /// Keys of the earlier positions, oldest first.
    pub fn key_history(&self) -> &[u64] {
        &self.keys
    }

    /// Forgets the undo stack and key history; the position becomes a fresh root.
    pub fn clear_history(&mut self) {
        self.undo.clear();
        self.keys.clear();
        self.plies_from_null = 0;
    }

    // ----- the three mutation primitives -----

    /// XORs `delta`, the Zobrist keys of squares of the piece `p`, into the full key and into
    /// the pawn key or `p`'s colour's non-pawn key.
    #[inline]
    fn toggle_keys(&mut self, p: Piece, delta: u64) {
        self.key ^= delta;
        if p.is_kind(Kind::Pawn) {
            self.pawn_key ^= delta;
        } else {
            self.non_pawn_key[p.colour().index()] ^= delta;
        }
    }

    /// Places `p` on the empty square `sq`, updating lists, counts, keys and the psq sum.
    #[inline]
    fn put(&mut self, p: Piece, sq: Square) {
        self.put_raw(p, sq);
        let z = &*zobrist::ZOBRIST;
        self.toggle_keys(p, z.piece(p, sq));
        self.material_key ^= z.material_count(p, self.counts[p.index()] - 1);
        self.psq += psqt::psq(p, sq);
    }

    /// Removes and returns the piece on `sq`, updating every incremental field.
    #[inline]
    fn remove(&mut self, sq: Square) -> (Piece, u8) {
        let (p, slot) = self.remove_raw(sq);
        let z = &*zobrist::ZOBRIST;
        self.toggle_keys(p, z.piece(p, sq));
        self.material_key ^= z.material_count(p, self.counts[p.index()]);
        self.psq -= psqt::psq(p, sq);
        (p, slot)
    }

    /// Moves the piece on `from` to the empty square `to`.
    #[inline]
    fn shift(&mut self, from: Square, to: Square) {
        let p = self.shift_raw(from, to);
        let z = &*zobrist::ZOBRIST;
        self.toggle_keys(p, z.piece(p, from) ^ z.piece(p, to));
        self.psq += psqt::psq(p, to) - psqt::psq(p, from);
    }

    // Raw versions touch only the board, lists and counts; unmake uses them and restores the
    // saved keys and sums wholesale.

    #[inline]
    fn put_raw(&mut self, p: Piece, sq: Square) {
        debug_assert!(self.board[sq as usize].is_none());
        let c = p.colour().index();
        self.board[sq as usize] = p;
        self.occupancy[c] |= bitboard::bit64(sq);
        self.by_kind[p.kind_index() as usize % 7] |= bitboard::bit64(sq);
        self.counts[p.index()] += 1;
        if p.is_kind(Kind::Pawn) {
            let n = self.pawn_len[c] as usize;
            self.pawns[c][n] = sq;
            self.slot[sq as usize] = n as u8;
            self.pawn_len[c] += 1;
        } else {
            let n = self.piece_len[c] as usize;
            if p.is_kind(Kind::King) && n > 0 {
                // Keep the king in slot 0 (only happens while setting up a position).
                let first = self.pieces[c][0];
                self.pieces[c][n] = first;
                self.slot[first as usize] = n as u8;
                self.pieces[c][0] = sq;
                self.slot[sq as usize] = 0;
            } else {
                self.pieces[c][n] = sq;
                self.slot[sq as usize] = n as u8;
            }
            self.piece_len[c] += 1;
        }
    }

    /// Puts `p` back into list slot `slot`, exactly undoing a `remove_raw` that returned that
    /// slot: the piece that was moved into the hole goes back to the end of the list.
    #[inline]
    fn put_raw_at(&mut self, p: Piece, sq: Square, slot: u8) {
        self.put_raw(p, sq);
        let c = p.colour().index();
        let list = if p.is_kind(Kind::Pawn) {
            &mut self.pawns[c][..self.pawn_len[c] as usize]
        } else {
            &mut self.pieces[c][..self.piece_len[c] as usize]
        };
        let last = list.len() - 1;
        let slot = slot as usize;
        if slot != last {
            let moved = list[slot];
            list[slot] = sq;
            list[last] = moved;
            self.slot[sq as usize] = slot as u8;
            self.slot[moved as usize] = last as u8;
        }
    }

    /// Removes the piece on `sq` and returns it with the list slot it occupied.
    #[inline]
    fn remove_raw(&mut self, sq: Square) -> (Piece, u8) {
        let p = self.board[sq as usize];
        debug_assert!(p.is_some() && !p.is_kind(Kind::King));
        let c = p.colour().index();
        self.board[sq as usize] = Piece::NONE;
        self.occupancy[c] ^= bitboard::bit64(sq);
        self.by_kind[p.kind_index() as usize % 7] ^= bitboard::bit64(sq);
        self.counts[p.index()] -= 1;
        let i = self.slot[sq as usize] as usize;
        if p.is_kind(Kind::Pawn) {
            self.pawn_len[c] -= 1;
            let last = self.pawns[c][self.pawn_len[c] as usize];
            self.pawns[c][i] = last;
            self.slot[last as usize] = i as u8;
        } else {
            self.piece_len[c] -= 1;
            let last = self.pieces[c][self.piece_len[c] as usize];
            self.pieces[c][i] = last;
            self.slot[last as usize] = i as u8;
        }
        // Empty squares keep slot 0 so that equal positions compare equal field by field.
        self.slot[sq as usize] = 0;
        (p, i as u8)
    }

    #[inline]
    fn shift_raw(&mut self, from: Square, to: Square) -> Piece {
        let p = self.board[from as usize];
        debug_assert!(p.is_some() && self.board[to as usize].is_none());
        let c = p.colour().index();
        self.board[from as usize] = Piece::NONE;
        self.board[to as usize] = p;
        let moved = bitboard::bit64(from) | bitboard::bit64(to);
        self.occupancy[c] ^= moved;
        self.by_kind[p.kind_index() as usize % 7] ^= moved;
        let i = self.slot[from as usize];
        // Empty squares keep slot 0 so that equal positions compare equal field by field.
        self.slot[from as usize] = 0;
        self.slot[to as usize] = i;
        if p.is_kind(Kind::Pawn) {
            self.pawns[c][i as usize] = to;
        } else {
            self.pieces[c][i as usize] = to;
        }
        p
    }

    /// Captures the current irreversible state for the undo stack.
    #[inline]
    fn state(&self, mv: Move) -> State {
        State {
            mv,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            plies_from_null: self.plies_from_null,
            key: self.key,
            pawn_key: self.pawn_key,
            non_pawn_key: self.non_pawn_key,
            material_key: self.material_key,
            psq: self.psq,
            checkers: self.checkers,
            cap_slot: 0,
            pawn_slot: 0,
        }
    }

    #[inline]
    fn restore(&mut self, s: &State) {
        self.castling = s.castling;
        self.ep = s.ep;
        self.halfmove = s.halfmove;
        self.plies_from_null = s.plies_from_null;
        self.key = s.key;
        self.pawn_key = s.pawn_key;
        self.non_pawn_key = s.non_pawn_key;
        self.material_key = s.material_key;
        self.psq = s.psq;
        self.checkers = s.checkers;
    }

    /// ASCII diagram of the board, White at the bottom.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        for rank in (0..8u8).rev() {
            out.push_str(&format!("{} ", rank + 1));
            for file in 0..8u8 {
                out.push(' ');
                out.push(self.piece_at(crate::types::square(file, rank)).to_char());
            }
            out.push('\n');
        }
        out.push_str("   a b c d e f g h\n");
        out
    }
}

/// Equality compares every field, undo stack and key history included (unmake must restore all
/// of it); piece lists are compared in order up to their length, since slots past the end hold
/// stale squares.
impl PartialEq for Position {
    fn eq(&self, o: &Position) -> bool {
        Colour::BOTH
            .iter()
            .all(|&c| self.pieces(c) == o.pieces(c) && self.pawns(c) == o.pawns(c))
            && self.board == o.board
            && self.slot == o.slot
            && self.counts == o.counts
            && self.side == o.side
            && self.castling == o.castling
            && self.chess960 == o.chess960
            && self.castle_rooks == o.castle_rooks
            && self.ep == o.ep
            && self.halfmove == o.halfmove
            && self.fullmove == o.fullmove
            && self.plies_from_null == o.plies_from_null
            && self.key == o.key
            && self.pawn_key == o.pawn_key
            && self.non_pawn_key == o.non_pawn_key
            && self.material_key == o.material_key
            && self.psq == o.psq
            && self.checkers == o.checkers
            && self.occupancy == o.occupancy
            && self.by_kind == o.by_kind
            && self.undo == o.undo
            && self.keys == o.keys
    }
}

impl Eq for Position {}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
