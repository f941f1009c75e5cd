//! One game on the server: its record (start position and moves, for the engine and the
//! PGN), both clocks as of the last board, and the bookkeeping that keeps the bot from
//! searching or moving twice for one position.

use std::time::Instant;

use super::style12::{Board12, Relation};
use super::variant::CastleFiles;
use squall::board::Position;
use squall::moves::Move;
use squall::types::Colour;

/// What a board did to the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Update {
    /// Not this game's board, or nothing new.
    Ignored,
    /// The same position again (clocks refreshed).
    Repeated,
    /// One move further, the move added to the record.
    Advanced,
    /// Moves taken back: the record cut to the board's position.
    TakenBack,
    /// The board fits no known history: the record restarts from it.
    Resynced,
}

pub struct Game {
    pub number: u32,
    pub white: String,
    pub black: String,
    pub white_rating: String,
    pub black_rating: String,
    pub we_are_white: bool,
    pub rated: bool,
    pub kind: String,
    pub base_min: u32,
    pub inc_s: u32,
    pub start: Position,
    pub start_fen: String,
    pub moves: Vec<Move>,
    pub pos: Position,
    /// Clocks in ms as of `clock_at`.
    pub wtime_ms: i64,
    pub btime_ms: i64,
    pub clock_at: Instant,
    /// Whose move the last board said it was, from our side.
    pub relation: Relation,
    /// Our move was sent for this ply (never a second one).
    pub sent_for_ply: Option<usize>,
    /// A search was started for this ply.
    pub searched_for_ply: Option<usize>,
    /// When that search started, and our clock (ms) then.
    pub searched_at: (Instant, i64),
    /// `flag` was sent while the opponent was to move at this ply.
    /// and when (a clock in whole seconds may show zero early: we call again after a while).
    pub flagged_at_ply: Option<(usize, Instant)>,
    /// `Illegal move` answers at the current ply (to stop a resync loop).
    pub illegal_at_ply: (usize, u32),
    /// Our engine's scores from our side, newest last.
    pub scores: Vec<i64>,
    pub started: Instant,
    /// Plies before `start` (a game resumed or resynced mid-way).
    pub start_ply: usize,
    /// Times the engine had not moved when our clock ran low, this game.
    pub stalls: u32,
    /// We agreed to end the game (draw, abort, adjourn): no more reports.
    pub ending: bool,
    /// A Chess960 game (`wild/fr`): its boards are read with `castle_files`, the engine
    /// plays with Chess960 castling and the PGN says `Variant "Chess960"`.
    pub chess960: bool,
    /// The castling rooks' files, from the game's first board (Chess960 only).
    pub castle_files: CastleFiles,
}

impl Game {
    /// A game seen first through `board`; `chess960` when it is Fischer random, whose
    /// castling rooks' files are read from this board and kept for the game.
    pub fn from_board(b: &Board12, our_handle: &str, chess960: bool) -> Option<Game> {
        let castle_files = if chess960 {
            CastleFiles::from_board(b)
        } else {
            CastleFiles::default()
        };
        let pos = if chess960 {
            castle_files.position(b)?
        } else {
            b.position()?
        };
        let we_are_white = b.white.eq_ignore_ascii_case(our_handle);
        let mut g = Game {
            number: b.game,
            white: b.white.clone(),
            black: b.black.clone(),
            white_rating: String::new(),
            black_rating: String::new(),
            we_are_white,
            rated: false,
            kind: String::new(),
            base_min: b.base_min,
            inc_s: b.inc_s,
            start_fen: pos.to_fen(),
            start: pos.clone(),
            moves: Vec::new(),
            pos,
            wtime_ms: 0,
            btime_ms: 0,
            clock_at: Instant::now(),
            relation: b.relation,
            sent_for_ply: None,
            searched_for_ply: None,
            searched_at: (Instant::now(), 0),
            flagged_at_ply: None,
            illegal_at_ply: (0, 0),
            scores: Vec::new(),
            started: Instant::now(),
            start_ply: b.ply().unwrap_or(0) as usize,
            stalls: 0,
            ending: false,
            chess960,
            castle_files,
        };
        g.moves.clear();
        Some(g)
    }

    /// Plies played so far.
    pub fn ply(&self) -> usize {
        self.start_ply + self.moves.len()
    }

    pub fn our_colour(&self) -> Colour {
        if self.we_are_white {
            Colour::White
        } else {
            Colour::Black
        }
    }

    pub fn our_turn(&self) -> bool {
        self.relation == Relation::MyMove && self.pos.side_to_move() == self.our_colour()
    }

    pub fn opponent(&self) -> &str {
        if self.we_are_white {
            &self.black
        } else {
            &self.white
        }
    }

    /// Clocks now, in ms: (white, black), the side to move's running since the last board.
    pub fn clocks_now(&self) -> (i64, i64) {
        let run = self.clock_at.elapsed().as_millis() as i64;
        if self.pos.side_to_move() == Colour::White {
            (self.wtime_ms - run, self.btime_ms)
        } else {
            (self.wtime_ms, self.btime_ms - run)
        }
    }

    fn set_clocks(&mut self, b: &Board12) {
        (self.wtime_ms, self.btime_ms) = b.clocks_ms();
        self.clock_at = Instant::now();
    }

    /// The position after the record's first `keep` moves.
    fn position_after(&self, keep: usize) -> Position {
        let mut p = self.start.clone();
        for &m in &self.moves[..keep] {
            p.make(m);
        }
        p
    }

    /// The board's move one ply on from the record's position, if it leads to `new_pos`.
    fn next_move(&self, b: &Board12, new_pos: &Position) -> Option<Move> {
        let mut p = self.pos.clone();
        let m = p
            .parse_move(&b.san_move)
            .or_else(|_| p.parse_move(&verbose_to_uci(&b.verbose_move)))
            .ok()?;
        p.make(m);
        same_position(&p, new_pos).then_some(m)
    }

    /// Where a board without a move number stands in the record: the same position, one
    /// move on, or an earlier position (a takeback); else the next ply (a resync).
    fn ply_of(&self, b: &Board12, new_pos: &Position) -> usize {
        if same_position(new_pos, &self.pos) {
            return self.ply();
        }
        if self.next_move(b, new_pos).is_some() {
            return self.ply() + 1;
        }
        (0..self.moves.len())
            .rev()
            .find(|&k| same_position(&self.position_after(k), new_pos))
            .map_or(self.ply() + 1, |k| self.start_ply + k)
    }

    /// Applies a board of this game.
    pub fn update(&mut self, b: &Board12) -> Update {
        if b.game != self.number {
            return Update::Ignored;
        }
        let Some(new_pos) = self.board_position(b) else {
            return Update::Ignored;
        };
        let ply = match b.ply() {
            Some(p) => p as usize,
            None => self.ply_of(b, &new_pos),
        };
        self.relation = b.relation;
        self.set_clocks(b);
        if ply == self.ply() && same_position(&new_pos, &self.pos) {
            return Update::Repeated;
        }
        if ply == self.ply() + 1 {
            if let Some(m) = self.next_move(b, &new_pos) {
                self.pos.make(m);
                self.moves.push(m);
                return Update::Advanced;
            }
        }
        if ply < self.ply() && ply >= self.start_ply {
            let keep = ply - self.start_ply;
            let p = self.position_after(keep);
            if same_position(&p, &new_pos) {
                self.moves.truncate(keep);
                self.pos = p;
                self.forget_searches();
                return Update::TakenBack;
            }
        }
        self.start = new_pos.clone();
        self.start_fen = new_pos.to_fen();
        self.pos = new_pos;
        self.moves.clear();
        self.start_ply = ply;
        self.forget_searches();
        Update::Resynced
    }

    /// The position changed in a way that voids any search or move sent for it.
    pub fn forget_searches(&mut self) {
        self.sent_for_ply = None;
        self.searched_for_ply = None;
        self.flagged_at_ply = None;
    }

    /// A board of this game as a position (Chess960: castling from the first board's
    /// rook files and this board's flags).
    fn board_position(&self, b: &Board12) -> Option<Position> {
        if self.chess960 {
            self.castle_files.position(b)
        } else {
            b.position()
        }
    }

    /// Moves of the record in coordinates, for the engine. Chess960 castling is the king
    /// taking its rook (UCI), or `O-O`/`O-O-O` with `castle_san` (xboard's `fischerandom`).
    pub fn uci_moves(&self, castle_san: bool) -> Vec<String> {
        let coords = self.start.coordinates();
        self.moves
            .iter()
            .map(|&m| match (self.chess960 && m.is_castle(), castle_san) {
                (true, true) if squall::types::file_of(m.to()) == 6 => "O-O".to_string(),
                (true, true) => "O-O-O".to_string(),
                (true, false) => coords.text(m),
                _ => m.to_uci(),
            })
            .collect()
    }
}

/// Placement, side, castling and en passant agree (move counters may differ).
fn same_position(a: &Position, b: &Position) -> bool {
    let fa = a.to_fen();
    let fb = b.to_fen();
    let key = |f: &str| f.split(' ').take(2).collect::<Vec<_>>().join(" ");
    key(&fa) == key(&fb)
}

/// `P/e7-e8=Q` -> `e7e8q`, `o-o` stays for the SAN reader.
fn verbose_to_uci(v: &str) -> String {
    let body = v.split_once('/').map(|p| p.1).unwrap_or(v);
    if body.starts_with("o-o") {
        return body.replace('o', "O");
    }
    body.replace(['-', '='], "").to_ascii_lowercase()
}

/// How we write a move for the server: coordinates, castling as `O-O`, promotion `e7e8=q`.
/// Chess960 castling is `o-o`/`o-o-o`, which lasker reads in `wild/fr` whatever the king's
/// and rook's squares (coordinates would be a king move, or ambiguous).
pub fn server_move(pos: &Position, m: Move) -> String {
    let mut p = pos.clone();
    let san = p.to_san(m);
    if san.starts_with("O-O") {
        let castle = san.trim_end_matches(['+', '#']);
        return if pos.is_chess960() {
            castle.to_ascii_lowercase()
        } else {
            castle.to_string()
        };
    }
    let u = m.to_uci();
    if u.len() == 5 {
        format!("{}={}", &u[..4], &u[4..])
    } else {
        u
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::style12;

    fn board(fen_ranks: &str, w: bool, ply_move: u32, san: &str, verbose: &str) -> Board12 {
        let line = format!(
            "<12> {fen_ranks} {} -1 1 1 1 1 0 5 Squall Opp 1 3 0 1500 1500 180 180 {ply_move} {verbose} (0:01) {san} 0 1 0",
            if w { "W" } else { "B" }
        );
        style12::parse(&line).unwrap()
    }

    const START: &str = "rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR";
    const E4: &str = "rnbqkbnr pppppppp -------- -------- ----P--- -------- PPPP-PPP RNBQKBNR";

    #[test]
    fn advances_repeats_takes_back_and_resyncs() {
        let b0 = board(START, true, 1, "none", "none");
        let mut g = Game::from_board(&b0, "squall", false).unwrap();
        assert!(g.we_are_white);
        let b1 = board(E4, false, 1, "e4", "P/e2-e4");
        assert_eq!(g.update(&b1), Update::Advanced);
        assert_eq!(g.update(&b1), Update::Repeated);
        assert_eq!(g.update(&b0), Update::TakenBack);
        assert_eq!(g.moves.len(), 0);
        let mut other = b1.clone();
        other.game = 6;
        assert_eq!(g.update(&other), Update::Ignored);
        let far = board(E4, true, 9, "Nf3", "N/g1-f3");
        assert_eq!(g.update(&far), Update::Resynced);
        assert_eq!(g.ply(), 16);
    }

    #[test]
    fn boards_without_a_move_number_after_a_takeback() {
        // lasker sends -1 for the move number after a takeback, and on after it.
        let b0 = board(START, true, 1, "none", "none");
        let mut g = Game::from_board(&b0, "squall", false).unwrap();
        assert_eq!(
            g.update(&board(E4, false, 1, "e4", "P/e2-e4")),
            Update::Advanced
        );
        let mut back = board(START, true, 1, "none", "none");
        back.move_no = None;
        assert_eq!(g.update(&back), Update::TakenBack);
        assert_eq!(g.ply(), 0);
        assert_eq!(g.update(&back), Update::Repeated);
        let mut d4 = board(
            "rnbqkbnr pppppppp -------- -------- ---P---- -------- PPP-PPPP RNBQKBNR",
            false,
            1,
            "d4",
            "P/d2-d4",
        );
        d4.move_no = None;
        assert_eq!(g.update(&d4), Update::Advanced);
        assert_eq!(g.uci_moves(false), vec!["d2d4"]);
    }
}
