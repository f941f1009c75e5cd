//! What the fake server saw, for the tests to check: the games as the server ended them,
//! and the bot's lines with what a real server would have refused or frowned on.

#[derive(Clone, Debug)]
pub struct Finished {
    pub number: u32,
    pub white: String,
    pub black: String,
    pub result: String,
    pub why: String,
    pub start_fen: String,
    pub sans: Vec<String>,
}

#[derive(Default)]
pub struct Report {
    pub finished: Vec<Finished>,
    pub received: Vec<String>,
    pub out_of_turn: usize,
    /// Moves that crossed the end of the game on the wire (sent while the bot's last board
    /// said it was its move): a server rejects them, they are not out of turn.
    pub late: usize,
    pub illegal: usize,
    pub logins: usize,
    pub connections: usize,
    pub timeseal_lines: usize,
    /// Timeseal ping replies (`\x02` `9`) received, and pings sent.
    pub ping_replies: usize,
    pub pings: usize,
    /// Timeseal stamps of the lines received (the first is the hello's).
    pub stamps: Vec<u64>,
    /// Commands lasker does not know (`Command not found`, unknown (i)variables).
    pub unknown: Vec<String>,
    /// Whispers and kibitzes with no game running.
    pub whisper_without_game: usize,
}
