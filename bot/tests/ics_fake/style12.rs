//! Style-12 boards as lasker writes them, after every move and on `refresh`; the relay
//! shares the field layout.

use super::fr;
use super::game::SGame;
use super::world::World;

/// The move's SAN and its verbose form in style-12 (`P/e2-e4`, `P/e7-e8=Q`, `o-o`), for the
/// position before it is played; the game server and the relay write both the same way.
pub(super) fn move_notations(pos: &mut squall::Position, m: squall::Move) -> (String, String) {
    let uci = m.to_uci();
    let san = pos.to_san(m);
    let first = san.chars().next().unwrap_or('P');
    let piece = if "KQRBN".contains(first) { first } else { 'P' };
    let verbose = if san.starts_with("O-O-O") {
        "o-o-o".into()
    } else if san.starts_with("O-O") {
        "o-o".into()
    } else if uci.len() == 5 {
        format!("P/{}-{}={}", &uci[..2], &uci[2..4], uci[4..].to_uppercase())
    } else {
        format!("{piece}/{}-{}", &uci[..2], &uci[2..4])
    };
    (san, verbose)
}

pub(super) fn board_fields(fen: &str) -> (String, &str, String, String, &str, &str) {
    let f: Vec<&str> = fen.split(' ').collect();
    let mut ranks = Vec::new();
    for r in f[0].split('/') {
        let mut s = String::new();
        for c in r.chars() {
            match c.to_digit(10) {
                Some(n) => s.push_str(&"-".repeat(n as usize)),
                None => s.push(c),
            }
        }
        ranks.push(s);
    }
    let castle = f[2];
    let flags = ['K', 'Q', 'k', 'q']
        .iter()
        .map(|c| if castle.contains(*c) { "1" } else { "0" })
        .collect::<Vec<_>>()
        .join(" ");
    let ep = match f[3].chars().next() {
        Some(c @ 'a'..='h') => ((c as u8 - b'a') as i32).to_string(),
        _ => "-1".to_string(),
    };
    (ranks.join(" "), f[1], ep, flags, f[4], f[5])
}

impl World {
    pub(super) fn style12(&self, g: &SGame, for_bot: bool) -> String {
        let fen = g.pos.to_fen();
        let (ranks, side, ep, _, half, full) = board_fields(&fen);
        // From the rights, not the FEN's letters: Chess960 castling may name rook files.
        let flags = fr::castle_flags(&g.pos);
        let rel = if g.bot_to_move() == for_bot { 1 } else { -1 };
        let c = g.clocks_now();
        let (wt, bt, took) = if self.ms && self.sc.ms_clocks {
            (c[0], c[1], "(0:00.100)")
        } else {
            (c[0] / 1000, c[1] / 1000, "(0:00)")
        };
        let full = if g.taken_back { "-1" } else { full };
        format!(
            "<12> {ranks} {} {ep} {flags} {half} {} {} {} {rel} {} {} 39 39 {wt} {bt} {full} {} {took} {} {} 1 0",
            side.to_uppercase(),
            g.number,
            g.white,
            g.black,
            (self.sc.base_ms / 60_000).max(1),
            self.sc.inc_ms / 1000,
            g.last_verbose,
            g.last_san,
            u8::from(!g.bot_white)
        )
    }
}
