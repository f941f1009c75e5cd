//! The listener on loopback and its thread: one client at a time, each a lasker login
//! (guest or registered) and then a session until the client quits or drops, or the
//! scenario drops it.

use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use squall_ics::timeseal;

use super::conn::Conn;
use super::report::{Finished, Report};
use super::scenario::Scenario;
use super::world::World;
use super::{fr, OPP};

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

impl World {
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
