//! What a test asks of the fake server: the bot's colour, clocks and login, how many games
//! and how they start, and what the scripted opponent does at which ply.

#[derive(Clone)]
pub struct Scenario {
    pub bot_white: bool,
    pub start_fen: Option<String>,
    pub base_ms: i64,
    pub inc_ms: i64,
    /// The bot's own starting clock, when it differs (to make it lose on time).
    pub bot_time_ms: Option<i64>,
    /// Registered login `Squall` with this password; None: guest.
    pub password: Option<String>,
    pub autoflag: bool,
    pub via_challenge: bool,
    pub games: usize,
    pub seed: u64,
    /// The opponent's fixed first moves (coordinates), then random ones.
    pub opp_moves: Vec<String>,
    pub resign_at: Option<usize>,
    pub draw_offer_at: Option<usize>,
    pub takeback_at: Option<usize>,
    /// From this ply on the opponent no longer moves.
    pub stall_at: Option<usize>,
    /// Close the connection once when the game reaches this ply.
    pub drop_at: Option<usize>,
    /// Send junk, truncated boards, other games' boards and repeats during play.
    pub garble: bool,
    /// The opponent's delay before moving.
    pub opp_delay_ms: u64,
    /// The bot's owner `Boss` tells it this once the game reaches the ply.
    pub owner_tell: Option<(usize, String)>,
    /// Answer the bot's first move with `Illegal move` (a server that disagrees).
    pub reject_first_move: bool,
    /// Honour `iset ms 1` (FICS): clocks in ms, move times with milliseconds. lasker 2.2.3
    /// (false) answers `ms set` and goes on in seconds.
    pub ms_clocks: bool,
    /// After a drop, the opponent resigns the stored game (`resign NAME`) while the bot is
    /// away, and the next game against them is a new one.
    pub stored_game_resigned: bool,
    /// Games after the first keep the bot's colour (they alternate otherwise).
    pub keep_colours: bool,
    /// Fischer random (`wild/fr`): `start_fen` is a Chess960 position (X-FEN or
    /// Shredder-FEN castling), offered and announced as lasker does (`fr.rs`).
    pub fr: bool,
}

impl Default for Scenario {
    fn default() -> Scenario {
        Scenario {
            bot_white: true,
            start_fen: None,
            base_ms: 60_000,
            inc_ms: 0,
            bot_time_ms: None,
            password: None,
            autoflag: true,
            via_challenge: false,
            games: 1,
            seed: 1,
            opp_moves: Vec::new(),
            resign_at: Some(160),
            draw_offer_at: None,
            takeback_at: None,
            stall_at: None,
            drop_at: None,
            garble: false,
            opp_delay_ms: 5,
            owner_tell: None,
            reject_first_move: false,
            ms_clocks: false,
            stored_game_resigned: false,
            keep_colours: false,
            fr: false,
        }
    }
}
