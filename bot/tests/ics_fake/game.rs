//! The server's own record of the game in progress, the truth it builds boards from and
//! judges turns, clocks and results by.

use std::time::Instant;

use squall::Position;

pub(super) struct SGame {
    pub(super) number: u32,
    pub(super) pos: Position,
    pub(super) start_fen: String,
    pub(super) sans: Vec<String>,
    pub(super) white: String,
    pub(super) black: String,
    pub(super) bot_white: bool,
    pub(super) clocks: [i64; 2],
    pub(super) turn_started: Instant,
    pub(super) last_verbose: String,
    pub(super) last_san: String,
    pub(super) opp_due: Option<Instant>,
    pub(super) draw_offered: bool,
    pub(super) takeback_asked: bool,
    /// A takeback was made: lasker's boards then carry move number -1.
    pub(super) taken_back: bool,
}

impl SGame {
    pub(super) fn ply(&self) -> usize {
        self.sans.len()
    }
    pub(super) fn white_to_move(&self) -> bool {
        self.pos.to_fen().split(' ').nth(1) == Some("w")
    }
    pub(super) fn bot_to_move(&self) -> bool {
        self.white_to_move() == self.bot_white
    }
    pub(super) fn mover(&self) -> usize {
        usize::from(!self.white_to_move())
    }
    pub(super) fn clocks_now(&self) -> [i64; 2] {
        let mut c = self.clocks;
        c[self.mover()] -= self.turn_started.elapsed().as_millis() as i64;
        c
    }
}
