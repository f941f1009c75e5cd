//! A fake lasker/FICS server on loopback for the ICS bot's tests: login texts (guest and
//! registered), prompts glued to the next output, `\`-wrapped lines, seeks and challenges,
//! style-12 boards with ticking clocks, game start and end lines, draw/takeback offers, flags,
//! adjournment when the connection drops, and Timeseal v1 clients. The opponent is scripted:
//! random legal moves from a seed, with resignations, offers, stalls and drops at given plies.
//!
//! It models lasker 2.2.3 as extended by its later maintainers (the open FICS code), as met
//! on a real server, where that differs from the bot's old expectations:
//! - `iset ms 1` is answered `ms set` but the clocks stay in whole seconds, with a move time
//!   `(0:00)` without milliseconds (`Scenario::ms_clocks` gives FICS's `(0:00.000)` and ms);
//! - after a takeback the style-12 move number is `-1` (and stays so for the game);
//! - a timeseal line stamped 0 is not timeseal (so a hello stamped 0 garbles the login), and
//!   the pings are `[G]` on a line of their own;
//! - `iset defprompt`, `iset nowrap`, `set chanoff`, `set autoflag` and `resume` are unknown;
//!   at login the adjourned opponents online are listed on the line after
//!   `1 player, who has an adjourned game with you, is online:`, and `match NAME` resumes;
//! - `;` separates commands; `whisper` with no game is refused.

#![allow(dead_code)]

pub mod fr;
pub mod harness;
pub mod relay;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use squall::{Move, Position};
use squall_ics::timeseal;

pub const OPP: &str = "Opp";

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

struct SGame {
    number: u32,
    pos: Position,
    start_fen: String,
    sans: Vec<String>,
    white: String,
    black: String,
    bot_white: bool,
    clocks: [i64; 2],
    turn_started: Instant,
    last_verbose: String,
    last_san: String,
    opp_due: Option<Instant>,
    draw_offered: bool,
    takeback_asked: bool,
    /// A takeback was made: lasker's boards then carry move number -1.
    taken_back: bool,
}

impl SGame {
    fn ply(&self) -> usize {
        self.sans.len()
    }
    fn white_to_move(&self) -> bool {
        self.pos.to_fen().split(' ').nth(1) == Some("w")
    }
    fn bot_to_move(&self) -> bool {
        self.white_to_move() == self.bot_white
    }
    fn mover(&self) -> usize {
        usize::from(!self.white_to_move())
    }
    fn clocks_now(&self) -> [i64; 2] {
        let mut c = self.clocks;
        c[self.mover()] -= self.turn_started.elapsed().as_millis() as i64;
        c
    }
}

pub struct FakeServer {
    pub port: u16,
    pub report: Arc<Mutex<Report>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl FakeServer {
    pub fn start(sc: Scenario) -> FakeServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().expect("addr").port();
        listener.set_nonblocking(true).expect("nonblocking");
        let report = Arc::new(Mutex::new(Report::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let (r, s) = (report.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            let mut world = World {
                sc,
                report: r,
                game: None,
                adjourned: None,
                next_number: 10,
                games_started: 0,
                dropped: false,
                rng: Xoshiro256PlusPlus::seed_from_u64(0),
                ms: false,
                handle: String::new(),
                ended_at: None,
                told: false,
                garbled: 0,
                challenge_sent: false,
                last_ping: Instant::now(),
            };
            world.rng = Xoshiro256PlusPlus::seed_from_u64(world.sc.seed);
            while !s.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => world.serve(stream, &s),
                    Err(_) => std::thread::sleep(Duration::from_millis(10)),
                }
            }
        });
        FakeServer {
            port,
            report,
            stop,
            thread: Some(thread),
        }
    }

    pub fn report(&self) -> std::sync::MutexGuard<'_, Report> {
        self.report.lock().expect("report lock")
    }
}

impl Drop for FakeServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

struct World {
    sc: Scenario,
    report: Arc<Mutex<Report>>,
    game: Option<SGame>,
    adjourned: Option<SGame>,
    next_number: u32,
    games_started: usize,
    dropped: bool,
    rng: Xoshiro256PlusPlus,
    ms: bool,
    handle: String,
    ended_at: Option<Instant>,
    told: bool,
    garbled: usize,
    /// A challenge was sent and is not answered yet (via_challenge).
    challenge_sent: bool,
    last_ping: Instant,
}

struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
    timeseal: Option<bool>,
    closed: bool,
}

impl Conn {
    fn send(&mut self, text: &str) {
        // Lasker style: each message opens with `\n\r`, and the prompt is glued after it.
        let msg = format!("\n\r{}\n\rfics% ", text.replace('\n', "\n\r"));
        if self.stream.write_all(msg.as_bytes()).is_err() {
            self.closed = true;
        }
    }
    fn raw(&mut self, bytes: &[u8]) {
        if self.stream.write_all(bytes).is_err() {
            self.closed = true;
        }
    }
    /// The next complete line from the client, if any arrived.
    fn line(&mut self, report: &Mutex<Report>) -> Option<String> {
        let mut tmp = [0u8; 2048];
        match self.stream.read(&mut tmp) {
            Ok(0) => self.closed = true,
            Ok(n) => self.buf.extend_from_slice(&tmp[..n]),
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(_) => self.closed = true,
        }
        let i = self.buf.iter().position(|&b| b == b'\n')?;
        let raw: Vec<u8> = self.buf.drain(..=i).collect();
        if self.timeseal.is_none() {
            // lasker: a line stamped 0 is not timeseal, the hello included.
            self.timeseal = Some(
                timeseal::decode(&raw)
                    .is_some_and(|(t, stamp)| t.starts_with("TIMESTAMP|") && stamp != 0),
            );
        }
        let text = if self.timeseal == Some(true) {
            let mut r = report.lock().unwrap();
            r.timeseal_lines += 1;
            match timeseal::decode(&raw) {
                Some((t, stamp)) if stamp != 0 => {
                    r.stamps.push(stamp);
                    t
                }
                _ => String::from_utf8_lossy(&raw).into_owned(),
            }
        } else {
            String::from_utf8_lossy(&raw)
                .trim_end_matches(['\n', '\r'])
                .to_string()
        };
        Some(text)
    }
}

fn board_fields(fen: &str) -> (String, &str, String, String, &str, &str) {
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
    fn log(&self, line: &str) {
        self.report.lock().unwrap().received.push(line.to_string());
    }

    fn style12(&self, g: &SGame, for_bot: bool) -> String {
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

    fn header(g: &SGame) -> String {
        format!("{{Game {} ({} vs. {})", g.number, g.white, g.black)
    }

    fn end(&mut self, c: &mut Conn, why: &str, result: &str) {
        let Some(g) = self.game.take() else { return };
        self.ended_at = Some(Instant::now());
        c.send(&format!("{} {why}}} {result}", World::header(&g)));
        self.report.lock().unwrap().finished.push(Finished {
            number: g.number,
            white: g.white.clone(),
            black: g.black.clone(),
            result: result.to_string(),
            why: why.to_string(),
            start_fen: g.start_fen.clone(),
            sans: g.sans.clone(),
        });
    }

    fn start_game(&mut self, c: &mut Conn) {
        if self.game.is_some() || self.games_started >= self.sc.games {
            return;
        }
        self.games_started += 1;
        let number = self.next_number;
        self.next_number += 1;
        let bot_white = if self.sc.games > 1 && !self.sc.keep_colours {
            self.games_started % 2 == 1
        } else {
            self.sc.bot_white
        };
        let (white, black) = if bot_white {
            (self.handle.clone(), OPP.to_string())
        } else {
            (OPP.to_string(), self.handle.clone())
        };
        let fen = self
            .sc
            .start_fen
            .clone()
            .unwrap_or_else(|| Position::startpos().to_fen());
        let pos = fr::start_position(&fen, self.sc.fr);
        let mut clocks = [self.sc.base_ms; 2];
        if let Some(t) = self.sc.bot_time_ms {
            clocks[usize::from(!bot_white)] = t;
        }
        let g = SGame {
            number,
            pos,
            start_fen: fen,
            sans: Vec::new(),
            white: white.clone(),
            black: black.clone(),
            bot_white,
            clocks,
            turn_started: Instant::now(),
            last_verbose: "none".into(),
            last_san: "none".into(),
            opp_due: None,
            draw_offered: false,
            takeback_asked: false,
            taken_back: false,
        };
        let (pairing, start) = fr::game_types(self.sc.fr);
        c.send(&format!(
            "Creating: {white} (1500) {black} (1600) unrated {pairing} {} {}",
            self.sc.base_ms / 60_000,
            self.sc.inc_ms / 1000
        ));
        c.send(&format!(
            "{} Creating unrated {start} match.}}",
            World::header(&g)
        ));
        let b = self.style12(&g, true);
        c.send(&b);
        self.game = Some(g);
        self.schedule_opp();
    }

    fn schedule_opp(&mut self) {
        let delay = self.sc.opp_delay_ms;
        if let Some(g) = &mut self.game {
            g.opp_due = (!g.bot_to_move()).then(|| Instant::now() + Duration::from_millis(delay));
        }
    }

    /// Plays `m` for the side to move, sends the board and ends the game when it is over.
    fn play(&mut self, c: &mut Conn, m: Move) {
        let Some(g) = &mut self.game else { return };
        let mover = g.mover();
        g.clocks = g.clocks_now();
        g.clocks[mover] += self.sc.inc_ms;
        g.turn_started = Instant::now();
        let uci = m.to_uci();
        let san = g.pos.to_san(m);
        let first = san.chars().next().unwrap_or('P');
        let piece = if "KQRBN".contains(first) { first } else { 'P' };
        g.last_verbose = if san.starts_with("O-O-O") {
            "o-o-o".into()
        } else if san.starts_with("O-O") {
            "o-o".into()
        } else if uci.len() == 5 {
            format!("P/{}-{}={}", &uci[..2], &uci[2..4], uci[4..].to_uppercase())
        } else {
            format!("{piece}/{}-{}", &uci[..2], &uci[2..4])
        };
        g.last_san = san.clone();
        g.pos.make(m);
        g.sans.push(san);
        let b = self.style12(self.game.as_ref().unwrap(), true);
        c.send(&b);
        let g = self.game.as_ref().unwrap();
        let mover_name = if mover == 0 {
            g.white.clone()
        } else {
            g.black.clone()
        };
        let loser = if mover == 0 {
            g.black.clone()
        } else {
            g.white.clone()
        };
        if g.pos.legal_moves().is_empty() {
            if g.pos.in_check() {
                let r = if mover == 0 { "1-0" } else { "0-1" };
                self.end(c, &format!("{loser} checkmated"), r);
            } else {
                self.end(c, "Game drawn by stalemate", "1/2-1/2");
            }
            return;
        }
        let _ = mover_name;
        if g.pos.is_insufficient_material() {
            self.end(c, "Neither player has mating material", "1/2-1/2");
        } else if g.pos.is_fifty_move_draw() {
            self.end(c, "Game drawn by the 50 move rule", "1/2-1/2");
        } else if g.pos.repetition_count() >= 3 {
            self.end(c, "Game drawn by repetition", "1/2-1/2");
        } else {
            self.schedule_opp();
        }
    }

    fn opp_turn(&mut self, c: &mut Conn) {
        let sc = self.sc.clone();
        let Some(g) = &mut self.game else { return };
        let Some(due) = g.opp_due else { return };
        if Instant::now() < due || g.bot_to_move() {
            return;
        }
        let ply = g.ply();
        if sc.stall_at.is_some_and(|s| ply >= s) {
            g.opp_due = None;
            return;
        }
        if sc.resign_at.is_some_and(|r| ply >= r) {
            let r = if g.bot_white { "1-0" } else { "0-1" };
            self.end(c, &format!("{OPP} resigns"), r);
            return;
        }
        if let Some((at, text)) = &sc.owner_tell {
            if ply >= *at && !self.told {
                self.told = true;
                c.send(&format!("Boss tells you: {text}"));
            }
        }
        let Some(g) = &mut self.game else { return };
        if sc.draw_offer_at.is_some_and(|d| ply >= d) && !g.draw_offered {
            g.draw_offered = true;
            c.send(&format!("{OPP} offers you a draw."));
        }
        if sc.takeback_at.is_some_and(|d| ply >= d) && !g.takeback_asked {
            // The request waits for its answer: the opponent moves after a decline.
            g.takeback_asked = true;
            g.opp_due = None;
            c.send(&format!("{OPP} would like to take back 1 half move(s)."));
            return;
        }
        let opp_index = (ply + usize::from(!self.game.as_ref().unwrap().bot_white)) / 2;
        let legal = self.game.as_ref().unwrap().pos.legal_moves();
        let scripted = sc.opp_moves.get(opp_index).and_then(|t| {
            let g = self.game.as_ref().unwrap();
            g.pos.parse_uci_move(t).ok()
        });
        let m = scripted.unwrap_or_else(|| {
            let n = legal.len();
            legal.as_slice()[(self.rng.next_u32() as usize) % n]
        });
        if sc.garble {
            self.garbage(c);
        }
        self.play(c, m);
    }

    fn garbage(&mut self, c: &mut Conn) {
        let Some(g) = &self.game else { return };
        let b = self.style12(g, true);
        let cut = (self.rng.next_u32() as usize % b.len()).max(5);
        let other = b.replacen(&format!(" {} ", g.number), " 999 ", 1);
        let junk = [
            b[..cut].to_string(),
            other,
            b.clone(),
            "\u{7}<12> garbage here".into(),
            "{Game 77 (A vs. B) A resigns} 1-0".into(),
            "Challenge: (((".into(),
            "You are now observing game 999.".into(),
            // Login texts after login: never answered, never fatal.
            "Evil tells you: password:".into(),
            "Evil(50): login:".into(),
            "Evil(C)(1): **** Invalid password! ****".into(),
        ];
        // In turn, so a game of a dozen opponent moves meets every kind.
        let pick = self.garbled % junk.len();
        self.garbled += 1;
        c.send(&junk[pick]);
        c.raw(b"\xff\xfd\x18\xff\xfa\x18\x01\xff\xf0 ");
        c.send("A long line wrapped by the server\n\\   and continued here");
    }

    /// Takes back the last half move (the bot's: the opponent asked on its turn).
    fn take_back(&mut self, c: &mut Conn) {
        let Some(g) = &mut self.game else { return };
        let Some(_) = g.sans.pop() else { return };
        let mut pos = fr::start_position(&g.start_fen, self.sc.fr);
        for san in &g.sans {
            let m = pos.parse_san(san).expect("own record");
            pos.make(m);
        }
        g.pos = pos;
        g.clocks = g.clocks_now();
        g.turn_started = Instant::now();
        g.taken_back = true;
        g.last_san = "none".into();
        g.last_verbose = "none".into();
        c.send(&format!("{OPP} accepts the takeback request."));
        let b = self.style12(self.game.as_ref().unwrap(), true);
        c.send(&b);
        self.schedule_opp();
    }

    fn flag_check(&mut self, c: &mut Conn) {
        let Some(g) = &self.game else { return };
        let clocks = g.clocks_now();
        let m = g.mover();
        if clocks[m] >= 0 {
            return;
        }
        let bot_out = g.bot_to_move();
        if !bot_out && !self.sc.autoflag {
            return;
        }
        let name = if m == 0 {
            g.white.clone()
        } else {
            g.black.clone()
        };
        let r = if m == 0 { "0-1" } else { "1-0" };
        self.end(c, &format!("{name} forfeits on time"), r);
    }

    fn command(&mut self, c: &mut Conn, line: &str) {
        // lasker splits a line into commands at `;`.
        if line.contains(';') {
            for part in line.split(';') {
                self.command(c, part);
            }
            return;
        }
        self.log(line);
        let t = line.trim();
        let word = t.split_whitespace().next().unwrap_or("");
        let is_move = is_move_text(t);
        if is_move {
            let Some(g) = &mut self.game else {
                let late = self
                    .ended_at
                    .is_some_and(|t| t.elapsed() < Duration::from_secs(1));
                let mut r = self.report.lock().unwrap();
                if late {
                    r.late += 1;
                } else {
                    r.out_of_turn += 1;
                }
                c.send("You are not playing a game.");
                return;
            };
            if !g.bot_to_move() {
                self.report.lock().unwrap().out_of_turn += 1;
                c.send("It is not your move.");
                return;
            }
            if self.sc.reject_first_move && self.report.lock().unwrap().illegal == 0 {
                self.report.lock().unwrap().illegal += 1;
                c.send(&format!("Illegal move ({t})."));
                return;
            }
            let text = t.replace('=', "").to_ascii_lowercase();
            let m = if let Some(castle) = fr::castle_san(t) {
                g.pos.parse_san(castle)
            } else {
                g.pos.parse_uci_move(&text)
            };
            match m {
                Ok(m) => self.play(c, m),
                Err(_) => {
                    self.report.lock().unwrap().illegal += 1;
                    c.send(&format!("Illegal move ({t})."));
                }
            }
            return;
        }
        let var = t.split_whitespace().nth(1).unwrap_or("?");
        match word {
            "iset" if t == "iset ms 1" => {
                self.ms = true;
                c.send("ms set.");
            }
            "iset" if ["defprompt", "nowrap"].contains(&var) => {
                self.report.lock().unwrap().unknown.push(t.to_string());
                c.send(&format!("No such ivariable \"{var}\"."));
            }
            "set" if ["chanoff", "autoflag"].contains(&var) => {
                self.report.lock().unwrap().unknown.push(t.to_string());
                c.send(&format!("No such variable \"{var}\"."));
            }
            "set" => c.send(&format!("{var} set.")),
            "seek" if !self.sc.via_challenge => self.start_game(c),
            "whisper" | "kibitz" if self.game.is_none() => {
                self.report.lock().unwrap().whisper_without_game += 1;
                c.send("You are not playing or observing a game.");
            }
            "seek" | "unseek" | "date" | "whisper" | "kibitz" | "tell" | "draw" => c.send(""),
            "accept" if t == "accept takeback" => {
                if self.game.as_ref().is_some_and(|g| g.takeback_asked) {
                    self.take_back(c);
                }
            }
            "decline" if t == "decline takeback" => {
                c.send(&format!("You decline the takeback request from {OPP}."));
                self.schedule_opp();
            }
            "decline" => {}
            "match" if t.eq_ignore_ascii_case(&format!("match {OPP}")) => {
                // The opponent accepts at once: the stored game goes on.
                if let Some(mut g) = self.adjourned.take() {
                    g.number = self.next_number;
                    self.next_number += 1;
                    g.turn_started = Instant::now();
                    c.send(&format!(
                        "{} Continuing unrated blitz match.}}",
                        World::header(&g)
                    ));
                    let b = self.style12(&g, true);
                    c.send(&b);
                    self.game = Some(g);
                    self.schedule_opp();
                }
            }
            "accept" if t == format!("accept {OPP}") => {
                self.challenge_sent = false;
                self.start_game(c);
            }
            "accept" if t == "accept draw" => {
                if self.game.as_ref().is_some_and(|g| g.draw_offered) {
                    self.end(c, "Game drawn by mutual agreement", "1/2-1/2");
                }
            }
            "resign" => {
                if let Some(g) = &self.game {
                    let (name, r) = if g.bot_white {
                        (g.white.clone(), "0-1")
                    } else {
                        (g.black.clone(), "1-0")
                    };
                    self.end(c, &format!("{name} resigns"), r);
                }
            }
            "flag" => {
                let Some(g) = &self.game else { return };
                let opp_side = usize::from(g.bot_white);
                if g.clocks_now()[opp_side] < 0 {
                    let r = if g.bot_white { "1-0" } else { "0-1" };
                    self.end(c, &format!("{OPP} forfeits on time"), r);
                } else {
                    c.send("Your opponent is not out of time.");
                }
            }
            "refresh" => {
                if let Some(g) = &self.game {
                    let b = self.style12(g, true);
                    c.send(&b);
                }
            }
            "quit" => {
                c.send("Thank you for using the fake server.");
                c.closed = true;
            }
            "" => {}
            _ => {
                self.report.lock().unwrap().unknown.push(t.to_string());
                c.send(&format!("{word}: Command not found."));
            }
        }
    }

    fn login(&mut self, c: &mut Conn, stop: &AtomicBool) -> bool {
        c.raw(b"\xff\xfb\x01");
        c.raw(b"\n\rWelcome to the fake Free Internet Chess Server\n\r\n\rlogin: ");
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut name = String::new();
        while Instant::now() < deadline && !stop.load(Ordering::Relaxed) && !c.closed {
            let Some(l) = c.line(&self.report) else {
                continue;
            };
            if l.starts_with("TIMESTAMP|") {
                continue;
            }
            self.log(&l);
            if name.is_empty() {
                name = l.trim().to_string();
                if name.eq_ignore_ascii_case("guest") {
                    c.raw(b"\n\rLogging you in as \"GuestQXYZ\"; you may use this name to play unrated games.\n\rPress return to enter the server as \"GuestQXYZ\":");
                } else {
                    c.raw(b"\n\r\"Squall\" is a registered name.  If it is yours, type the password.\n\rpassword: ");
                }
                continue;
            }
            if name.eq_ignore_ascii_case("guest") {
                self.handle = "GuestQXYZ".into();
            } else if Some(l.trim()) == self.sc.password.as_deref() {
                self.handle = name.clone();
            } else {
                c.raw(b"\n\r**** Invalid password! ****\n\r\n\rlogin: ");
                return false;
            }
            let h = self.handle.clone();
            c.raw(
                format!("\n\r**** Starting FICS session as {h}(C) ****\n\r\n\rfics% ").as_bytes(),
            );
            self.report.lock().unwrap().logins += 1;
            if self.sc.stored_game_resigned {
                // The opponent resigned the stored game while we were away.
                if let Some(g) = self.adjourned.take() {
                    self.game = Some(g);
                    let r = if self.game.as_ref().unwrap().bot_white {
                        "1-0"
                    } else {
                        "0-1"
                    };
                    let g = self.game.take().unwrap();
                    self.report.lock().unwrap().finished.push(Finished {
                        number: g.number,
                        white: g.white.clone(),
                        black: g.black.clone(),
                        result: r.to_string(),
                        why: format!("{OPP} resigns"),
                        start_fen: g.start_fen.clone(),
                        sans: g.sans.clone(),
                    });
                }
            }
            if self.adjourned.is_some() {
                // lasker's login notice; the names follow in columns on the next line.
                c.send(&format!(
                    "1 player, who has an adjourned game with you, is online:\u{7}\n{OPP}"
                ));
            }
            self.last_ping = Instant::now();
            return true;
        }
        false
    }

    fn serve(&mut self, stream: TcpStream, stop: &AtomicBool) {
        self.report.lock().unwrap().connections += 1;
        let _ = stream.set_nonblocking(false);
        let _ = stream.set_read_timeout(Some(Duration::from_millis(5)));
        let _ = stream.set_nodelay(true);
        let mut c = Conn {
            stream,
            buf: Vec::new(),
            timeseal: None,
            closed: false,
        };
        self.ms = false;
        self.challenge_sent = false;
        if !self.login(&mut c, stop) {
            // Give the client time to read the refusal before the socket goes.
            std::thread::sleep(Duration::from_millis(200));
            return;
        }
        while !stop.load(Ordering::Relaxed) && !c.closed {
            if c.timeseal == Some(true) && self.last_ping.elapsed() > Duration::from_millis(300) {
                // lasker's timeseal ping: `[G]` on a line of its own.
                self.last_ping = Instant::now();
                self.report.lock().unwrap().pings += 1;
                c.raw(b"\n\r[G]\n\r");
            }
            let challenge_due = self.sc.via_challenge
                && !self.challenge_sent
                && self.game.is_none()
                && self.games_started < self.sc.games
                && self
                    .ended_at
                    .is_none_or(|t| t.elapsed() > Duration::from_millis(50));
            if challenge_due {
                self.challenge_sent = true;
                c.send(&format!(
                    "Challenge: {OPP} (1500) {} (1600) unrated {}.",
                    self.handle,
                    fr::challenge_type(self.sc.fr, self.sc.base_ms / 60_000, self.sc.inc_ms / 1000)
                ));
            }
            if let Some(l) = c.line(&self.report) {
                if l == timeseal::PING_REPLY {
                    self.report.lock().unwrap().ping_replies += 1;
                } else {
                    self.command(&mut c, &l);
                }
            }
            self.opp_turn(&mut c);
            self.flag_check(&mut c);
            let drop_now = !self.dropped
                && self
                    .sc
                    .drop_at
                    .is_some_and(|d| self.game.as_ref().is_some_and(|g| g.ply() >= d));
            if drop_now {
                self.dropped = true;
                let mut g = self.game.take().expect("game");
                g.clocks = g.clocks_now();
                g.opp_due = None;
                self.adjourned = Some(g);
                break;
            }
        }
        if let Some(mut g) = self.game.take() {
            // The client went away mid-game: lasker adjourns it.
            g.clocks = g.clocks_now();
            self.adjourned = Some(g);
        }
        let _ = c.stream.shutdown(std::net::Shutdown::Both);
    }
}

/// Coordinates (`e2e4`, `e7e8=q`, `e7e8q`) or castling: what the bot sends as a move.
pub fn is_move_text(t: &str) -> bool {
    if fr::castle_san(t).is_some() {
        return true;
    }
    let b = t.as_bytes();
    let sq = |i: usize| {
        b.len() > i + 1 && (b'a'..=b'h').contains(&b[i]) && (b'1'..=b'8').contains(&b[i + 1])
    };
    (b.len() == 4 || b.len() == 5 || b.len() == 6) && sq(0) && sq(2)
}

/// Checks a PGN file against a finished game: result tag and every move, replayed.
pub fn check_pgn(text: &str, f: &Finished) -> Result<(), String> {
    let tag = |name: &str| {
        text.lines().find_map(|l| {
            l.strip_prefix(&format!("[{name} \""))
                .map(|r| r.trim_end_matches("\"]").to_string())
        })
    };
    if tag("Result").as_deref() != Some(f.result.as_str()) {
        return Err(format!("Result tag {:?} vs {}", tag("Result"), f.result));
    }
    if tag("White").as_deref() != Some(f.white.as_str())
        || tag("Black").as_deref() != Some(f.black.as_str())
    {
        return Err("players differ".into());
    }
    for t in [
        "Site",
        "Date",
        "TimeControl",
        "Termination",
        "WhiteElo",
        "BlackElo",
    ] {
        if tag(t).is_none() {
            return Err(format!("no {t} tag"));
        }
    }
    let start = tag("FEN").unwrap_or_else(|| Position::startpos().to_fen());
    // A Chess960 game's FEN names its castling rooks (X-FEN): read it as Chess960.
    let chess960 = tag("Variant").as_deref() == Some("Chess960");
    let read = |fen: &str| Position::from_fen_with(fen, chess960).map_err(|e| e.to_string());
    if read(&start)?.to_fen() != read(&f.start_fen)?.to_fen() {
        return Err("start position differs".into());
    }
    let mut pos = read(&start)?;
    let body: String = text
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let mut sans = Vec::new();
    for w in body.split_whitespace() {
        if w.ends_with('.') || w == f.result {
            continue;
        }
        let m = pos
            .parse_san(w)
            .map_err(|e| format!("{e} at {}", sans.len()))?;
        sans.push(pos.to_san(m));
        pos.make(m);
    }
    if sans != f.sans {
        return Err(format!(
            "moves differ: {} in PGN, {} played",
            sans.len(),
            f.sans.len()
        ));
    }
    Ok(())
}
