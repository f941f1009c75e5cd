//! The lasker/FICS style-12 board line:
//! `<12> RANK8 .. RANK1 SIDE EPFILE WK WQ BK BQ HALFMOVES GAME WHITE BLACK RELATION BASE INC
//! WSTR BSTR WTIME BTIME MOVENO VERBOSE (TIME) SAN FLIP [TICKING LAG]` (ranks from the eighth,
//! `-` for an empty square; times in seconds, or milliseconds after `iset ms 1` on servers
//! that honour it: lasker 2.2.3 answers `ms set` and still sends seconds, so the unit is read
//! from each board's move-time field, `(0:00.000)` with milliseconds, `(0:00)` without, as
//! xboard's zippy does).

use squall::board::Position;

/// How we relate to the game on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// We play and it is our move.
    MyMove,
    /// We play and it is the opponent's move.
    TheirMove,
    /// Anything else (observing, examining, isolated position).
    Other,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Board12 {
    /// Rank 8 first, file a first.
    pub ranks: [[u8; 8]; 8],
    pub white_to_move: bool,
    /// File of a double pawn push just made (for en passant), or none.
    pub ep_file: Option<u8>,
    /// White short, white long, black short, black long.
    pub castling: [bool; 4],
    pub halfmove_clock: u32,
    pub game: u32,
    pub white: String,
    pub black: String,
    pub relation: Relation,
    pub base_min: u32,
    pub inc_s: u32,
    /// Remaining times as sent: milliseconds when `ms_clocks`, else seconds.
    pub white_time: i64,
    pub black_time: i64,
    /// The board's times are milliseconds: its move-time field has a `.`.
    pub ms_clocks: bool,
    /// Number of the move about to be made; `None` when the server does not know it (lasker
    /// sends `-1` after a takeback).
    pub move_no: Option<u32>,
    /// Previous move in the server's verbose form (`P/e2-e4`, `o-o`, `none`).
    pub verbose_move: String,
    /// Previous move in SAN (`e4`, `none`).
    pub san_move: String,
}

fn piece_ok(c: u8) -> bool {
    b"-PNBRQKpnbrqk".contains(&c)
}

/// Parses a style-12 line; `None` for anything malformed (never panics).
pub fn parse(line: &str) -> Option<Board12> {
    let rest = line.trim_start().strip_prefix("<12>")?;
    let f: Vec<&str> = rest.split_whitespace().collect();
    if f.len() < 30 {
        return None;
    }
    let mut ranks = [[b'-'; 8]; 8];
    for (r, text) in f[..8].iter().enumerate() {
        let bytes = text.as_bytes();
        if bytes.len() != 8 || !bytes.iter().all(|&c| piece_ok(c)) {
            return None;
        }
        ranks[r].copy_from_slice(bytes);
    }
    let white_to_move = match f[8] {
        "W" => true,
        "B" => false,
        _ => return None,
    };
    let ep: i32 = f[9].parse().ok()?;
    let ep_file = match ep {
        -1 => None,
        0..=7 => Some(ep as u8),
        _ => return None,
    };
    let flag = |s: &str| match s {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    };
    let castling = [flag(f[10])?, flag(f[11])?, flag(f[12])?, flag(f[13])?];
    let relation = match f[18].parse::<i32>().ok()? {
        1 => Relation::MyMove,
        -1 => Relation::TheirMove,
        -3..=2 => Relation::Other,
        _ => return None,
    };
    // The previous move's time is `(m:ss)` or `(m:ss.mmm)`: one field, as are the others.
    Some(Board12 {
        ranks,
        white_to_move,
        ep_file,
        castling,
        halfmove_clock: f[14].parse().ok()?,
        game: f[15].parse().ok()?,
        white: f[16].to_string(),
        black: f[17].to_string(),
        relation,
        base_min: f[19].parse().ok()?,
        inc_s: f[20].parse().ok()?,
        white_time: f[23].parse().ok()?,
        black_time: f[24].parse().ok()?,
        ms_clocks: f[27].contains('.'),
        move_no: match f[25].parse::<i64>().ok()? {
            n @ 1..=100_000 => Some(n as u32),
            _ => None,
        },
        verbose_move: f[26].to_string(),
        san_move: f[28].to_string(),
    })
}

impl Board12 {
    /// The position as FEN (the en-passant square only when a capture is possible is not
    /// needed: our FEN reader accepts any consistent square).
    pub fn fen(&self) -> String {
        let mut castle = String::new();
        for (on, c) in self.castling.iter().zip(['K', 'Q', 'k', 'q']) {
            if *on {
                castle.push(c);
            }
        }
        if castle.is_empty() {
            castle.push('-');
        }
        self.fen_with(&castle)
    }

    /// The position as FEN with `castle` as its castling field (a Chess960 game's rights
    /// need the rooks' files, which the board does not carry: `variant::CastleFiles`).
    pub fn fen_with(&self, castle: &str) -> String {
        let mut placement = String::new();
        for (i, rank) in self.ranks.iter().enumerate() {
            let mut empty = 0;
            for &c in rank {
                if c == b'-' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        placement.push_str(&empty.to_string());
                        empty = 0;
                    }
                    placement.push(c as char);
                }
            }
            if empty > 0 {
                placement.push_str(&empty.to_string());
            }
            if i < 7 {
                placement.push('/');
            }
        }
        let ep = match self.ep_file {
            Some(f) => format!(
                "{}{}",
                (b'a' + f) as char,
                if self.white_to_move { '6' } else { '3' }
            ),
            None => "-".to_string(),
        };
        format!(
            "{placement} {} {castle} {ep} {} {}",
            if self.white_to_move { 'w' } else { 'b' },
            self.halfmove_clock,
            self.move_no.unwrap_or(1).max(1)
        )
    }

    /// The position, if the board is a legal one.
    pub fn position(&self) -> Option<Position> {
        match Position::from_fen(&self.fen()) {
            Ok(p) => Some(p),
            // A castling flag without its king and rook at home, or an impossible en-passant
            // square: retry without them rather than lose the board.
            Err(_) => {
                let mut b = self.clone();
                b.ep_file = None;
                b.castling = [false; 4];
                Position::from_fen(&b.fen()).ok()
            }
        }
    }

    /// Plies played before this position (0 at the start), when the board says.
    pub fn ply(&self) -> Option<u32> {
        self.move_no
            .map(|n| (n.max(1) - 1) * 2 + u32::from(!self.white_to_move))
    }

    /// Remaining times in milliseconds, (white, black).
    pub fn clocks_ms(&self) -> (i64, i64) {
        let scale = if self.ms_clocks { 1 } else { 1000 };
        (
            self.white_time.saturating_mul(scale),
            self.black_time.saturating_mul(scale),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub const AFTER_E4: &str = "<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- \
        PPPP-PPP RNBQKBNR B 4 1 1 1 1 0 7 Newton Einstein -1 2 12 39 39 119 122 1 P/e2-e4 \
        (0:06) e4 0 1 0";

    #[test]
    fn parses_the_example_board() {
        let b = parse(AFTER_E4).unwrap();
        assert!(!b.white_to_move);
        assert_eq!(b.ep_file, Some(4));
        assert_eq!(b.game, 7);
        assert_eq!((b.white.as_str(), b.black.as_str()), ("Newton", "Einstein"));
        assert_eq!(b.relation, Relation::TheirMove);
        assert_eq!((b.white_time, b.black_time), (119, 122));
        assert_eq!(b.san_move, "e4");
        assert_eq!(b.ply(), Some(1));
        assert!(!b.ms_clocks);
        assert_eq!(b.clocks_ms(), (119_000, 122_000));
        assert_eq!(
            b.position().unwrap().to_fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
    }

    #[test]
    fn clock_unit_from_the_move_time_and_unknown_move_numbers() {
        let ms = parse(&AFTER_E4.replace("(0:06)", "(0:06.130)")).unwrap();
        assert!(ms.ms_clocks);
        assert_eq!(ms.clocks_ms(), (119, 122));
        // lasker after a takeback: the move counter is -1.
        let tb = parse(&AFTER_E4.replace(" 119 122 1 P", " 119 122 -1 P")).unwrap();
        assert_eq!(tb.move_no, None);
        assert_eq!(tb.ply(), None);
        assert!(tb.position().is_some());
    }

    #[test]
    fn rejects_every_truncation() {
        for cut in 0..AFTER_E4.len() - 8 {
            // Cuts inside the trailing optional fields still give 30 fields.
            let _ = parse(&AFTER_E4[..cut]);
        }
        assert!(parse(&AFTER_E4[..100]).is_none());
        assert!(parse("<12>").is_none());
        assert!(parse(&AFTER_E4.replace(" B 4 ", " X 4 ")).is_none());
    }
}
