//! The protocols that GUIs, testers and people use to drive the engine: UCI, xboard/CECP v2
//! and a small console for humans.
//!
//! Standard input is read on its own thread (`spawn_reader`) and every line is forwarded over a
//! channel, together with the notices of finished searches, so that each protocol's main loop
//! handles one ordered stream of events while a search runs on the worker thread (`worker`).
//! The first line picks the protocol: `uci`, `xboard` (or `protover`), anything else opens the
//! console. All output goes through one `Out`, one locked and flushed line at a time.
//!
//! Files: `session` (events, output, the shared event loop), `options` (the option registry
//! all three render), `worker` (the search thread), `uci`, `xboard`, `console`.

pub mod console;
pub mod options;
pub mod session;
pub mod uci;
pub mod worker;
pub mod xboard;

use std::sync::mpsc::{channel, Receiver, Sender};

pub use session::{
    spawn_reader, Event, Out, Protocol, Session, Switch, MAX_CLOCK_MS, MAX_MATE_MOVES,
};

/// The protocol a first input line asks for, `None` for the console.
pub fn protocol_of(first_line: &str) -> Protocol {
    match first_line.split_whitespace().next() {
        Some("uci") => Protocol::Uci,
        Some("xboard") | Some("protover") => Protocol::Xboard,
        _ => Protocol::Console,
    }
}

/// Engine entry point without a subcommand: read the first non-empty line and hand the session
/// to the protocol it names (or to `forced`, when the command line chose one).
pub fn run(forced: Option<Protocol>) {
    let (tx, rx) = channel();
    spawn_reader(std::io::BufReader::new(std::io::stdin()), tx.clone());
    run_with(forced, rx, tx, Out::stdout());
}

/// `run` over any event stream and output (used by tests).
pub fn run_with(forced: Option<Protocol>, rx: Receiver<Event>, tx: Sender<Event>, out: Out) {
    let mut proto = forced;
    let mut first = None;
    if proto.is_none() {
        loop {
            match rx.recv() {
                Ok(Event::Line(l)) if l.trim().is_empty() => continue,
                Ok(Event::Line(l)) => {
                    proto = Some(protocol_of(&l));
                    first = Some(l);
                    break;
                }
                Ok(Event::SearchDone(_)) => continue,
                Ok(Event::Eof) | Err(_) => return,
            }
        }
    }
    let mut session = Session { rx, tx, out };
    let mut next = proto.unwrap_or(Protocol::Console);
    loop {
        let switch = match next {
            Protocol::Uci => uci::run(&mut session, first.take()),
            Protocol::Xboard => xboard::run(&mut session, first.take()),
            Protocol::Console => console::run(&mut session, first.take()),
        };
        match switch {
            Some((p, line)) => {
                next = p;
                first = Some(line);
            }
            None => return,
        }
    }
}
