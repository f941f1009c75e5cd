//! What the protocols share: the events their main loop receives, the one output stream, the
//! stdin reader thread, the session's channels and `drive`, the event loop each protocol's
//! `Handler` runs in.

use std::io::{BufRead, Write};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};

/// Clocks and increments beyond this (about 115 days) are treated as this.
pub const MAX_CLOCK_MS: u64 = 10_000_000_000;
/// Longest mate the `mate` limit looks for.
pub const MAX_MATE_MOVES: i64 = 500;

/// What the main loop of a protocol receives.
#[derive(Debug)]
pub enum Event {
    /// One input line, without its line ending.
    Line(String),
    /// Standard input closed.
    Eof,
    /// The search with this id has finished (its result waits in the worker).
    SearchDone(u64),
}

/// Which protocol a session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Xboard,
    Console,
}

/// The single output stream: each line is written whole under a lock and flushed at once.
#[derive(Clone)]
pub struct Out {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Out {
    pub fn stdout() -> Out {
        Out::new(Box::new(std::io::stdout()))
    }

    pub fn new(sink: Box<dyn Write + Send>) -> Out {
        Out {
            sink: Arc::new(Mutex::new(sink)),
        }
    }

    /// Writes `text` and a newline, then flushes. Write errors (a closed pipe) are ignored: the
    /// engine notices the end of its input and quits.
    pub fn line(&self, text: &str) {
        let mut w = match self.sink.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = w.write_all(text.as_bytes());
        let _ = w.write_all(b"\n");
        let _ = w.flush();
    }
}

/// Reads `input` line by line on a new thread and forwards each line to `tx`; invalid UTF-8 is
/// replaced rather than ending the input, and `\r` line endings are removed.
pub fn spawn_reader<R: BufRead + Send + 'static>(mut input: R, tx: Sender<Event>) {
    let spawned = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let mut buf = Vec::with_capacity(256);
            loop {
                buf.clear();
                match input.read_until(b'\n', &mut buf) {
                    Ok(0) => {
                        let _ = tx.send(Event::Eof);
                        return;
                    }
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buf);
                        let line = text.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(Event::Line(line)).is_err() {
                            return;
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => {
                        let _ = tx.send(Event::Eof);
                        return;
                    }
                }
            }
        });
    if spawned.is_err() {
        eprintln!("error: cannot start the input thread");
        std::process::exit(1);
    }
}

/// The channels and output one protocol session runs on.
pub struct Session {
    pub rx: Receiver<Event>,
    pub tx: Sender<Event>,
    pub out: Out,
}

/// A protocol's answer to leave for another protocol, with the line that asked for it.
pub type Switch = Option<(Protocol, String)>;

/// What each protocol does with the session's events; `drive` runs the one event loop.
pub(crate) trait Handler {
    /// One input line; `Some` ends the session (with the protocol to switch to, if any).
    fn handle(&mut self, line: &str) -> Option<Switch>;
    /// The search with this id has finished.
    fn on_done(&mut self, id: u64);
    /// Input closed: abandon any search.
    fn on_eof(&mut self);
}

/// Feeds `first` (the line that chose the protocol) and then every event to `h` until the
/// protocol ends or input closes.
pub(crate) fn drive(session: &mut Session, first: Option<String>, h: &mut impl Handler) -> Switch {
    if let Some(l) = first {
        if let Some(s) = h.handle(&l) {
            return s;
        }
    }
    loop {
        match session.rx.recv() {
            Ok(Event::Line(l)) => {
                if let Some(s) = h.handle(&l) {
                    return s;
                }
            }
            Ok(Event::SearchDone(id)) => h.on_done(id),
            Ok(Event::Eof) | Err(_) => {
                h.on_eof();
                return None;
            }
        }
    }
}
