//! Which game the server offers, and how a Chess960 (`wild/fr`) game is read from style-12
//! boards. A style-12 board carries only four castling flags (white short, white long, black
//! short, black long), never the rooks' files, so in Fischer random the files come from the
//! first board of the game (the rooks on the king's back rank, one on each side of the king)
//! and later boards only clear rights, as their flags say.

use super::style12::Board12;
use squall::board::Position;

/// The kind of chess a challenge, pairing or game-start line names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Standard chess (lightning, blitz, standard, untimed).
    Standard,
    /// Fischer random: lasker's `wild/fr`.
    Fischer,
    /// Anything else (other wilds, crazyhouse, suicide, ...): never played.
    Other,
}

impl Variant {
    /// Reads the words of a server line that name a game type: `blitz`, `wild fr`,
    /// `wild/fr`, and lasker's `wild 2 12 Loaded from wild/fr` (the board file named after
    /// the clocks). A `wild` with no board named is some other wild.
    pub fn from_words(words: &[&str]) -> Variant {
        let clean = |w: &&str| w.trim_end_matches(['.', ',', '}']).to_ascii_lowercase();
        let words: Vec<String> = words.iter().map(clean).collect();
        let fr = words
            .iter()
            .any(|w| w == "wild/fr" || w.ends_with("/wild/fr") || w == "fr")
            || words.windows(2).any(|p| p[0] == "wild" && p[1] == "fr");
        if fr {
            return Variant::Fischer;
        }
        let other = [
            "wild",
            "crazyhouse",
            "suicide",
            "losers",
            "atomic",
            "bughouse",
            "loaded",
        ];
        if words
            .iter()
            .any(|w| other.contains(&w.as_str()) || w.starts_with("wild/") || w.starts_with("zh"))
        {
            Variant::Other
        } else {
            Variant::Standard
        }
    }

    /// The configuration's name of the variant (`variants = [...]`).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Fischer => "fr",
            Variant::Other => "other",
        }
    }
}

/// What the lines before a game's first board said about its variant (the bot's, used up
/// by the game that follows).
#[derive(Default)]
pub struct Announced {
    /// The opponent and variant of the last challenge we accepted.
    pub challenge: Option<(String, Variant)>,
    /// Our last game-start line named Fischer random.
    pub start_line_fr: bool,
}

/// Per colour (white, black), the files of the short and the long castling rook, as the
/// first board of a Fischer random game showed them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CastleFiles {
    pub files: [[Option<u8>; 2]; 2],
}

/// Style-12 ranks run from the eighth: index 7 is white's back rank, 0 black's.
const BACK_RANK: [usize; 2] = [7, 0];
const KING: [u8; 2] = [b'K', b'k'];
const ROOK: [u8; 2] = [b'R', b'r'];

impl CastleFiles {
    /// The rooks on each side of the king on its back rank: the outermost on each side, as
    /// X-FEN's `K`/`Q` read them (in a start position there is exactly one on each side).
    pub fn from_board(b: &Board12) -> CastleFiles {
        let mut out = CastleFiles::default();
        for side in 0..2 {
            let rank = &b.ranks[BACK_RANK[side]];
            let Some(kf) = rank.iter().position(|&c| c == KING[side]) else {
                continue;
            };
            let rook = |f: &usize| rank[*f] == ROOK[side];
            out.files[side][0] = (kf + 1..8).rev().find(rook).map(|f| f as u8);
            out.files[side][1] = (0..kf).find(rook).map(|f| f as u8);
        }
        out
    }

    /// Shredder-FEN castling (`GDgd`): each right the board's flags hold whose rook file is
    /// known; `-` for none.
    pub fn shredder(&self, flags: [bool; 4]) -> String {
        let mut out = String::new();
        for side in 0..2 {
            for long in 0..2 {
                if let (true, Some(f)) = (flags[side * 2 + long], self.files[side][long]) {
                    let c = (b'a' + f) as char;
                    out.push(if side == 0 { c.to_ascii_uppercase() } else { c });
                }
            }
        }
        if out.is_empty() {
            out.push('-');
        }
        out
    }

    /// The board as a Chess960 position: placement and side from the board, castling from
    /// its flags and these files. A right whose rook has gone is dropped by the FEN reader;
    /// a board that still does not load (an impossible en-passant file) is retried without
    /// its en-passant file and castling rather than lost.
    pub fn position(&self, b: &Board12) -> Option<Position> {
        Position::from_fen_960(&b.fen_with(&self.shredder(b.castling)))
            .or_else(|_| {
                let mut plain = b.clone();
                plain.ep_file = None;
                Position::from_fen_960(&plain.fen_with("-"))
            })
            .ok()
    }

    /// Whether the board's castling rights need Chess960 (a right held with the king off the
    /// e-file or its rook off the a- or h-file): such a board cannot be standard chess.
    pub fn needs_chess960(&self, b: &Board12) -> bool {
        (0..2).any(|side| {
            let king_home = b.ranks[BACK_RANK[side]][4] == KING[side];
            (0..2).any(|long| {
                let corner = if long == 1 { 0 } else { 7 };
                b.castling[side * 2 + long]
                    && (!king_home || self.files[side][long] != Some(corner))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::style12;

    /// White K f1, rooks d1 and g1 (SP `BQNRNKRB`), after 1. O-O (king g1, rook f1).
    const FR_START: &str = "<12> bqnrnkrb pppppppp -------- -------- -------- -------- \
        PPPPPPPP BQNRNKRB W -1 1 1 1 1 0 7 Opp Squall 1 2 12 39 39 120 120 1 none (0:00) \
        none 0 0 0";
    const FR_AFTER_OO: &str = "<12> bqnrnkrb pppppppp -------- -------- -------- -------- \
        PPPPPPPP BQNRNRKB B -1 0 0 1 1 1 7 Opp Squall -1 2 12 39 39 120 120 1 o-o \
        (0:00) O-O 0 0 0";

    #[test]
    fn variant_names_in_server_lines() {
        let v = |s: &str| Variant::from_words(&s.split_whitespace().collect::<Vec<_>>());
        assert_eq!(v("blitz 3 0"), Variant::Standard);
        assert_eq!(v("wild 2 12 Loaded from wild/fr."), Variant::Fischer);
        assert_eq!(v("wild/fr 2 12"), Variant::Fischer);
        assert_eq!(v("wild fr 2 12"), Variant::Fischer);
        assert_eq!(v("Creating unrated wild/fr match."), Variant::Fischer);
        assert_eq!(v("wild 2 12 Loaded from wild/3"), Variant::Other);
        assert_eq!(v("wild 2 12"), Variant::Other);
        assert_eq!(v("crazyhouse 2 12"), Variant::Other);
        assert_eq!(v("Creating unrated blitz match."), Variant::Standard);
    }

    #[test]
    fn rook_files_from_the_first_board_and_rights_from_each() {
        let b = style12::parse(FR_START).unwrap();
        let files = CastleFiles::from_board(&b);
        assert_eq!(files.files, [[Some(6), Some(3)], [Some(6), Some(3)]]);
        assert!(files.needs_chess960(&b));
        assert_eq!(files.shredder(b.castling), "GDgd");
        let p = files.position(&b).unwrap();
        assert!(p.is_chess960());
        // After white's O-O the king stands on the rook's file: the files are kept from the
        // first board, and only the flags say which rights remain.
        let later = style12::parse(FR_AFTER_OO).unwrap();
        assert_eq!(CastleFiles::from_board(&later).files[0], [None, Some(3)]);
        let q = files.position(&later).unwrap();
        assert_eq!(q.to_fen().split(' ').nth(2), Some("kq"));
        let mut moved = p.clone();
        let m = moved.parse_san("O-O").unwrap();
        moved.make(m);
        assert_eq!(
            moved.to_fen().split(' ').take(3).collect::<Vec<_>>(),
            q.to_fen().split(' ').take(3).collect::<Vec<_>>()
        );
    }

    #[test]
    fn standard_boards_need_no_chess960() {
        let b = style12::parse(&FR_START.replace(
            "bqnrnkrb pppppppp -------- -------- -------- -------- PPPPPPPP BQNRNKRB",
            "rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR",
        ))
        .unwrap();
        assert!(!CastleFiles::from_board(&b).needs_chess960(&b));
        // A flag whose rook has gone is dropped, not an error.
        let mut gone = style12::parse(FR_START).unwrap();
        gone.ranks[7][6] = b'-';
        let p = CastleFiles::from_board(&style12::parse(FR_START).unwrap())
            .position(&gone)
            .unwrap();
        assert_eq!(p.to_fen().split(' ').nth(2), Some("Qkq"));
    }
}
