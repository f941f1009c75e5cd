//! The fake lasker server as a relay between logged-in clients: two bots seek, the server
//! pairs their seeks and relays the game, sending every move as a style-12 board to both
//! players (with `my relation` 1 for the side to move, -1 for the other), as lasker does.
//!
//! Same dialect as `FakeServer` (lasker 2.2.3 as extended by its later maintainers): login
//! texts, `\n\r` endings with the prompt glued after each message, `iset ms 1` answered
//! `ms set.` with clocks still in whole seconds and a move time `(0:00)`, `Creating:` and
//! `{Game N (W vs. B) Creating unrated lightning match.}` (blitz, standard by the expected
//! duration), the game-end line
//! `{Game N (W vs. B) WHY} RESULT` to both players, then `No ratings adjustment done.`
//! Games end by mate, stalemate, bare kings (at once, as lasker does), resignation, a flag
//! (the side to move out of time: lasker's autoflag for both), agreement (`draw` answered by
//! the opponent's `draw` or `accept draw`), and a `draw` claim, granted at once when the
//! position has occurred three times or the 50-move count is reached (lasker's `help draw`);
//! a repetition that nobody claims goes on, as on the server. A player who disconnects
//! mid-game gets the game adjourned (`... lost connection; game adjourned} *`).

use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use squall::{Move, Position};
use squall_ics::timeseal;

use super::conn::Conn;
use super::style12::{board_fields, move_notations};
use super::{is_move_text, Finished, Report};

pub struct RelayServer {
    pub port: u16,
    pub report: Arc<Mutex<RelayReport>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

#[derive(Default)]
pub struct RelayReport {
    pub finished: Vec<Finished>,
    pub logins: usize,
    /// (handle, line) of every command received after login.
    pub received: Vec<(String, String)>,
    pub out_of_turn: usize,
    /// Moves that crossed the end of the game on the wire (within a second of the end).
    pub late: usize,
    pub illegal: usize,
    /// Commands lasker does not know.
    pub unknown: Vec<String>,
    pub whisper_without_game: usize,
    pub adjourned: usize,
    /// Draws granted on a claim (repetition or 50 moves) and offers made.
    pub claims: usize,
    pub offers: usize,
}

struct Client {
    conn: Conn,
    /// Login progress: the name typed, then the handle once in.
    name: Option<String>,
    handle: Option<String>,
    seek: Option<(i64, i64)>,
    ended_at: Option<Instant>,
}

struct RGame {
    number: u32,
    pos: Position,
    start_fen: String,
    sans: Vec<String>,
    /// Client indices.
    white: usize,
    black: usize,
    names: [String; 2],
    base_s: i64,
    inc_s: i64,
    clocks: [i64; 2],
    turn_started: Instant,
    last_verbose: String,
    last_san: String,
    /// The side (0 white, 1 black) whose draw offer is pending.
    draw_offer: Option<usize>,
}

impl RGame {
    fn mover(&self) -> usize {
        usize::from(self.pos.to_fen().split(' ').nth(1) != Some("w"))
    }
    fn side_of(&self, client: usize) -> Option<usize> {
        if client == self.white {
            Some(0)
        } else if client == self.black {
            Some(1)
        } else {
            None
        }
    }
    fn clocks_now(&self) -> [i64; 2] {
        let mut c = self.clocks;
        c[self.mover()] -= self.turn_started.elapsed().as_millis() as i64;
        c
    }
    fn header(&self) -> String {
        format!(
            "{{Game {} ({} vs. {})",
            self.number, self.names[0], self.names[1]
        )
    }
    /// The style-12 board as `side` (0 white, 1 black) sees it: lasker's whole seconds.
    fn style12(&self, side: usize) -> String {
        let fen = self.pos.to_fen();
        let (ranks, to_move, ep, flags, half, full) = board_fields(&fen);
        let rel = if self.mover() == side { 1 } else { -1 };
        let c = self.clocks_now();
        format!(
            "<12> {ranks} {} {ep} {flags} {half} {} {} {} {rel} {} {} 39 39 {} {} {full} {} (0:00) {} {side} 1 0",
            to_move.to_uppercase(),
            self.number,
            self.names[0],
            self.names[1],
            self.base_s / 60,
            self.inc_s,
            c[0] / 1000,
            c[1] / 1000,
            self.last_verbose,
            self.last_san,
        )
    }
}

impl RelayServer {
    pub fn start() -> RelayServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().expect("addr").port();
        listener.set_nonblocking(true).expect("nonblocking");
        let report = Arc::new(Mutex::new(RelayReport::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let (r, s) = (report.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            let mut relay = Relay {
                report: r,
                clients: Vec::new(),
                game: None,
                next_number: 1,
                last_white: None,
                guests: 0,
                scratch: Mutex::new(Report::default()),
            };
            while !s.load(Ordering::Relaxed) {
                if let Ok((stream, _)) = listener.accept() {
                    relay.connect(stream);
                }
                relay.step();
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        RelayServer {
            port,
            report,
            stop,
            thread: Some(thread),
        }
    }

    pub fn report(&self) -> std::sync::MutexGuard<'_, RelayReport> {
        self.report.lock().expect("report lock")
    }
}

impl Drop for RelayServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

struct Relay {
    report: Arc<Mutex<RelayReport>>,
    clients: Vec<Client>,
    /// One game at a time: the test pairs two clients.
    game: Option<RGame>,
    next_number: u32,
    /// The handle that had white in the last game (colours alternate between the two).
    last_white: Option<String>,
    guests: usize,
    /// `Conn::line` counts timeseal lines into a `Report`; the relay does not need them.
    scratch: Mutex<Report>,
}

impl Relay {
    fn connect(&mut self, stream: std::net::TcpStream) {
        let _ = stream.set_nonblocking(false);
        let _ = stream.set_read_timeout(Some(Duration::from_millis(1)));
        let _ = stream.set_nodelay(true);
        let mut conn = Conn {
            stream,
            buf: Vec::new(),
            timeseal: None,
            closed: false,
        };
        conn.raw(b"\xff\xfb\x01");
        conn.raw(b"\n\rWelcome to the fake Free Internet Chess Server\n\r\n\rlogin: ");
        self.clients.push(Client {
            conn,
            name: None,
            handle: None,
            seek: None,
            ended_at: None,
        });
    }

    fn send(&mut self, i: usize, text: &str) {
        self.clients[i].conn.send(text);
    }

    fn step(&mut self) {
        for i in 0..self.clients.len() {
            // Every complete line that has arrived (each read waits at most 1 ms).
            for _ in 0..16 {
                if self.clients[i].conn.closed {
                    break;
                }
                let Some(l) = self.clients[i].conn.line(&self.scratch) else {
                    break;
                };
                if l == timeseal::PING_REPLY || l.starts_with("TIMESTAMP|") {
                    continue;
                }
                if self.clients[i].handle.is_none() {
                    self.login_line(i, &l);
                } else {
                    self.command(i, &l);
                }
            }
            if self.clients[i].conn.closed {
                self.gone(i);
            }
        }
        self.flag_check();
    }

    fn login_line(&mut self, i: usize, l: &str) {
        let c = &mut self.clients[i];
        match &c.name {
            None => {
                let name = l.trim().to_string();
                if name.eq_ignore_ascii_case("guest") {
                    // Distinct guest names, as the server makes up.
                    let g = ["GuestAAAA", "GuestBBBB", "GuestCCCC", "GuestDDDD"][self.guests % 4]
                        .to_string();
                    self.guests += 1;
                    c.conn.raw(format!("\n\rLogging you in as \"{g}\"; you may use this name to play unrated games.\n\rPress return to enter the server as \"{g}\":").as_bytes());
                    c.name = Some(g);
                } else {
                    c.conn.raw(format!("\n\r\"{name}\" is a registered name.  If it is yours, type the password.\n\rpassword: ").as_bytes());
                    c.name = Some(name);
                }
            }
            Some(name) => {
                let h = name.clone();
                c.conn.raw(
                    format!("\n\r**** Starting FICS session as {h}(C) ****\n\r\n\rfics% ")
                        .as_bytes(),
                );
                c.handle = Some(h);
                self.report.lock().unwrap().logins += 1;
            }
        }
    }

    fn handle(&self, i: usize) -> String {
        self.clients[i].handle.clone().unwrap_or_default()
    }

    fn command(&mut self, i: usize, line: &str) {
        if line.contains(';') {
            for part in line.split(';') {
                self.command(i, part);
            }
            return;
        }
        let me = self.handle(i);
        self.report
            .lock()
            .unwrap()
            .received
            .push((me.clone(), line.to_string()));
        let t = line.trim();
        let word = t.split_whitespace().next().unwrap_or("");
        let var = t.split_whitespace().nth(1).unwrap_or("?");
        let side = self.game.as_ref().and_then(|g| g.side_of(i));
        if is_move_text(t) {
            self.on_move(i, t);
            return;
        }
        match word {
            "iset" if t == "iset ms 1" => self.send(i, "ms set."),
            "iset" if ["defprompt", "nowrap"].contains(&var) => {
                self.report.lock().unwrap().unknown.push(t.to_string());
                self.send(i, &format!("No such ivariable \"{var}\"."));
            }
            "set" if ["chanoff", "autoflag"].contains(&var) => {
                self.report.lock().unwrap().unknown.push(t.to_string());
                self.send(i, &format!("No such variable \"{var}\"."));
            }
            "set" => self.send(i, &format!("{var} set.")),
            "seek" => self.seek(i, t),
            "unseek" => {
                self.clients[i].seek = None;
                self.send(i, "Your seeks have been removed.");
            }
            "whisper" | "kibitz" if side.is_none() => {
                self.report.lock().unwrap().whisper_without_game += 1;
                self.send(i, "You are not playing or observing a game.");
            }
            "whisper" | "kibitz" | "tell" | "date" | "abort" | "adjourn" | "takeback" => {
                self.send(i, "")
            }
            "draw" => self.draw(i, side),
            "accept" if t == "accept draw" => {
                let Some(s) = side else { return };
                if self.game.as_ref().unwrap().draw_offer == Some(1 - s) {
                    self.end("Game drawn by mutual agreement", "1/2-1/2");
                } else {
                    self.send(i, "There are no offers to accept.");
                }
            }
            "decline" if t == "decline draw" => {
                let Some(s) = side else { return };
                let g = self.game.as_mut().unwrap();
                if g.draw_offer == Some(1 - s) {
                    g.draw_offer = None;
                    let other = if s == 0 { g.black } else { g.white };
                    self.send(
                        i,
                        &format!("You decline the draw request from {}.", self.handle(other)),
                    );
                    self.send(other, &format!("{me} declines the draw request."));
                }
            }
            "decline" | "accept" => self.send(i, "There are no offers to accept."),
            "resign" => {
                let Some(s) = side else {
                    self.send(i, "You are not playing a game.");
                    return;
                };
                let r = if s == 0 { "0-1" } else { "1-0" };
                self.end(&format!("{me} resigns"), r);
            }
            "flag" => {
                let Some(s) = side else { return };
                let g = self.game.as_ref().unwrap();
                if g.clocks_now()[1 - s] < 0 {
                    let r = if s == 0 { "1-0" } else { "0-1" };
                    let name = g.names[1 - s].clone();
                    self.end(&format!("{name} forfeits on time"), r);
                } else {
                    self.send(i, "Your opponent is not out of time.");
                }
            }
            "refresh" => {
                if let Some(s) = side {
                    let b = self.game.as_ref().unwrap().style12(s);
                    self.send(i, &b);
                }
            }
            "quit" => {
                self.send(i, "Thank you for using the fake server.");
                self.clients[i].conn.closed = true;
            }
            "" => {}
            _ => {
                self.report.lock().unwrap().unknown.push(t.to_string());
                self.send(i, &format!("{word}: Command not found."));
            }
        }
    }

    /// `seek BASE INC [u|r] ...`: posted, or paired at once with another client's seek.
    fn seek(&mut self, i: usize, t: &str) {
        let w: Vec<&str> = t.split_whitespace().collect();
        let num = |k: usize| w.get(k).and_then(|x| x.parse::<i64>().ok());
        let (Some(base), Some(inc)) = (num(1), num(2)) else {
            self.send(i, "Usage: seek [time inc] [rated|unrated] [white|black] [crazyhouse] [suicide] [wild #] [auto|manual] [formula] [rating-range]");
            return;
        };
        let other = (0..self.clients.len()).find(|&j| {
            j != i
                && self.clients[j].seek == Some((base, inc))
                && !self.clients[j].conn.closed
                && self.game.as_ref().is_none_or(|g| g.side_of(j).is_none())
        });
        match other {
            Some(j) if self.game.is_none() => {
                self.clients[j].seek = None;
                self.clients[i].seek = None;
                let them = self.handle(j);
                self.send(i, &format!("Your seek matches one posted by {them}."));
                // Colours alternate; the earlier seeker has white in the first game.
                let (white, black) = if self.last_white.as_deref() == Some(them.as_str()) {
                    (i, j)
                } else {
                    (j, i)
                };
                self.create(white, black, base, inc);
            }
            _ => {
                self.clients[i].seek = Some((base, inc));
                self.send(
                    i,
                    "Your seek has been posted with index 1.\n(0 player(s) saw the seek.)",
                );
            }
        }
    }

    fn create(&mut self, white: usize, black: usize, base_min: i64, inc_s: i64) {
        let number = self.next_number;
        self.next_number += 1;
        let names = [self.handle(white), self.handle(black)];
        self.last_white = Some(names[0].clone());
        let pos = Position::startpos();
        let g = RGame {
            number,
            start_fen: pos.to_fen(),
            pos,
            sans: Vec::new(),
            white,
            black,
            names: names.clone(),
            base_s: base_min * 60,
            inc_s,
            clocks: [base_min * 60_000; 2],
            turn_started: Instant::now(),
            last_verbose: "none".into(),
            last_san: "none".into(),
            draw_offer: None,
        };
        // lasker's type from the expected duration: base + 2/3 of 60 increments.
        let kind = match base_min * 60 + inc_s * 40 {
            e if e < 180 => "lightning",
            e if e < 900 => "blitz",
            _ => "standard",
        };
        for (side, c) in [(0, white), (1, black)] {
            self.send(
                c,
                &format!(
                    "Creating: {} (++++) {} (++++) unrated {kind} {base_min} {inc_s}",
                    names[0], names[1]
                ),
            );
            self.send(
                c,
                &format!("{} Creating unrated {kind} match.}}", g.header()),
            );
            let b = g.style12(side);
            self.send(c, &b);
        }
        self.game = Some(g);
    }

    fn on_move(&mut self, i: usize, t: &str) {
        let Some(side) = self.game.as_ref().and_then(|g| g.side_of(i)) else {
            let late = self.clients[i]
                .ended_at
                .is_some_and(|e| e.elapsed() < Duration::from_secs(1));
            let mut r = self.report.lock().unwrap();
            if late {
                r.late += 1;
            } else {
                r.out_of_turn += 1;
            }
            drop(r);
            self.send(i, "You are not playing a game.");
            return;
        };
        let g = self.game.as_mut().unwrap();
        if g.mover() != side {
            self.report.lock().unwrap().out_of_turn += 1;
            self.send(i, "It is not your move.");
            return;
        }
        let text = t.replace('=', "").to_ascii_lowercase();
        let m = if let Some(castle) = super::fr::castle_san(t) {
            g.pos.parse_san(castle)
        } else {
            g.pos.parse_uci_move(&text)
        };
        match m {
            Ok(m) => self.play(m),
            Err(_) => {
                self.report.lock().unwrap().illegal += 1;
                self.send(i, &format!("Illegal move ({t})."));
            }
        }
    }

    /// Plays `m` for the side to move, sends the board to both and ends a finished game.
    fn play(&mut self, m: Move) {
        let g = self.game.as_mut().unwrap();
        let mover = g.mover();
        g.clocks = g.clocks_now();
        if g.clocks[mover] < 0 {
            // lasker checks the mover's clock when the move arrives.
            let name = g.names[mover].clone();
            let r = if mover == 0 { "0-1" } else { "1-0" };
            self.end(&format!("{name} forfeits on time"), r);
            return;
        }
        g.clocks[mover] += g.inc_s * 1000;
        g.turn_started = Instant::now();
        let (san, verbose) = move_notations(&mut g.pos, m);
        g.last_verbose = verbose;
        g.last_san = san.clone();
        g.pos.make(m);
        g.sans.push(san);
        // A move withdraws the opponent's pending offer only when it answers it.
        if g.draw_offer == Some(1 - mover) {
            g.draw_offer = None;
        }
        let (w, b) = (g.white, g.black);
        let (bw, bb) = (g.style12(0), g.style12(1));
        self.send(w, &bw);
        self.send(b, &bb);
        let g = self.game.as_ref().unwrap();
        if g.pos.legal_moves().is_empty() {
            if g.pos.in_check() {
                let loser = g.names[1 - mover].clone();
                let r = if mover == 0 { "1-0" } else { "0-1" };
                self.end(&format!("{loser} checkmated"), r);
            } else {
                self.end("Game drawn by stalemate", "1/2-1/2");
            }
        } else if g.pos.is_insufficient_material() {
            self.end("Neither player has mating material", "1/2-1/2");
        }
    }

    /// lasker's `draw`: a claim granted at once on a threefold repetition or the 50-move
    /// count, the acceptance of the opponent's pending offer, else an offer.
    fn draw(&mut self, i: usize, side: Option<usize>) {
        let Some(s) = side else {
            self.send(i, "You are not playing a game.");
            return;
        };
        let g = self.game.as_mut().unwrap();
        if g.pos.repetition_count() >= 3 {
            self.report.lock().unwrap().claims += 1;
            self.end("Game drawn by repetition", "1/2-1/2");
        } else if g.pos.is_fifty_move_draw() {
            self.report.lock().unwrap().claims += 1;
            self.end("Game drawn by the 50 move rule", "1/2-1/2");
        } else if g.draw_offer == Some(1 - s) {
            self.end("Game drawn by mutual agreement", "1/2-1/2");
        } else if g.draw_offer != Some(s) {
            g.draw_offer = Some(s);
            let other = if s == 0 { g.black } else { g.white };
            self.report.lock().unwrap().offers += 1;
            let me = self.handle(i);
            self.send(i, "Draw request sent.");
            self.send(other, &format!("{me} offers you a draw."));
        }
    }

    fn flag_check(&mut self) {
        let Some(g) = &self.game else { return };
        let m = g.mover();
        if g.clocks_now()[m] < 0 {
            let name = g.names[m].clone();
            let r = if m == 0 { "0-1" } else { "1-0" };
            self.end(&format!("{name} forfeits on time"), r);
        }
    }

    /// The game-end line to both players and the record.
    fn end(&mut self, why: &str, result: &str) {
        let Some(g) = self.game.take() else { return };
        let line = format!("{} {why}}} {result}", g.header());
        for c in [g.white, g.black] {
            self.send(c, &line);
            self.send(c, "No ratings adjustment done.");
            self.clients[c].ended_at = Some(Instant::now());
        }
        self.report.lock().unwrap().finished.push(Finished {
            number: g.number,
            white: g.names[0].clone(),
            black: g.names[1].clone(),
            result: result.to_string(),
            why: why.to_string(),
            start_fen: g.start_fen.clone(),
            sans: g.sans.clone(),
        });
    }

    /// A client closed its connection: its seek goes, its game is adjourned.
    fn gone(&mut self, i: usize) {
        self.clients[i].seek = None;
        let Some(g) = &self.game else { return };
        let Some(s) = g.side_of(i) else { return };
        let other = if s == 0 { g.black } else { g.white };
        let line = format!(
            "{} {} lost connection; game adjourned}} *",
            g.header(),
            g.names[s]
        );
        self.game = None;
        self.report.lock().unwrap().adjourned += 1;
        self.send(other, &line);
    }
}
