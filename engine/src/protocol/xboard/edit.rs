//! v1 `edit` mode: the board being set up square by square, read back as a FEN.

use crate::board::Position;
use crate::types::Colour;

/// The board being set up in v1 edit mode: FEN letters by rank (8 first) and file.
pub(super) struct Edit {
    board: [[char; 8]; 8],
    white: bool,
}

impl Edit {
    pub(super) fn from(pos: &Position) -> Edit {
        let mut board = [['.'; 8]; 8];
        let fen = pos.to_fen();
        let placement = fen.split(' ').next().unwrap_or("");
        for (r, row) in placement.split('/').take(8).enumerate() {
            let mut f = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    f += d as usize;
                } else if f < 8 {
                    board[r][f] = c;
                    f += 1;
                }
            }
        }
        Edit { board, white: true }
    }

    /// Applies one edit command; false when it is not one.
    pub(super) fn command(&mut self, cmd: &str) -> bool {
        match cmd {
            "c" => self.white = !self.white,
            "#" => self.board = [['.'; 8]; 8],
            _ => {
                let b = cmd.as_bytes();
                if b.len() != 3 || !(b'a'..=b'h').contains(&b[1]) || !(b'1'..=b'8').contains(&b[2])
                {
                    return false;
                }
                let (f, r) = ((b[1] - b'a') as usize, 7 - (b[2] - b'1') as usize);
                let letter = (b[0] as char).to_ascii_lowercase();
                self.board[r][f] = match letter {
                    'x' => '.',
                    'p' | 'n' | 'b' | 'r' | 'q' | 'k' => {
                        if self.white {
                            letter.to_ascii_uppercase()
                        } else {
                            letter
                        }
                    }
                    _ => return false,
                };
            }
        }
        true
    }

    /// FEN of the edited board with `side` to move; castling where king and rook stand at home.
    pub(super) fn fen(&self, side: Colour) -> String {
        let mut placement = String::new();
        for (r, row) in self.board.iter().enumerate() {
            let mut empty = 0;
            for &c in row {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        placement.push_str(&empty.to_string());
                        empty = 0;
                    }
                    placement.push(c);
                }
            }
            if empty > 0 {
                placement.push_str(&empty.to_string());
            }
            if r < 7 {
                placement.push('/');
            }
        }
        let at = |sq: &str| {
            let b = sq.as_bytes();
            self.board[7 - (b[1] - b'1') as usize][(b[0] - b'a') as usize]
        };
        let mut castling = String::new();
        if at("e1") == 'K' {
            if at("h1") == 'R' {
                castling.push('K');
            }
            if at("a1") == 'R' {
                castling.push('Q');
            }
        }
        if at("e8") == 'k' {
            if at("h8") == 'r' {
                castling.push('k');
            }
            if at("a8") == 'r' {
                castling.push('q');
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        let side = if side == Colour::White { 'w' } else { 'b' };
        format!("{placement} {side} {castling} - 0 1")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_board_round_trip() {
        let mut e = Edit::from(&Position::startpos());
        assert_eq!(
            e.fen(Colour::White),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert!(e.command("#"));
        assert!(e.command("Ke1"));
        assert!(e.command("c"));
        assert!(e.command("Ke8"));
        assert!(e.command("Ra8"));
        assert!(!e.command("Zz9"));
        assert_eq!(e.fen(Colour::Black), "r3k3/8/8/8/8/8/8/4K3 b q - 0 1");
    }
}
