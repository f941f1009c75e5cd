//! The TCP connection to the server: a reader thread turns bytes into lines (through the
//! `LineSplitter`), and `send` writes one command, Timeseal-encoded when asked. Everything
//! sent and received goes to the wire log, the password masked.

use std::fs::File;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::lines::LineSplitter;
use super::timeseal;

/// What the reader thread passes on.
pub enum Incoming {
    Line(String),
    /// A Timeseal ping that needs its reply.
    Ping,
    Closed,
}

/// How long the reader waits for bytes before it decides a partial line is a prompt.
const QUIET: Duration = Duration::from_millis(60);

pub struct WireLog {
    file: Option<File>,
    echo: bool,
    secret: String,
    epoch: Instant,
}

impl WireLog {
    pub fn new(path: &str, echo: bool, secret: &str) -> std::io::Result<WireLog> {
        let file = if path.is_empty() {
            None
        } else {
            Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)?,
            )
        };
        Ok(WireLog {
            file,
            echo,
            secret: secret.to_string(),
            epoch: Instant::now(),
        })
    }

    /// Logs a change of the bot's state (connecting, logged in, seeking, in a game,
    /// reconnecting, why it resigned): to the wire log, and to stderr as one line always.
    pub fn state(&mut self, text: &str) {
        self.log("--", text);
        if !self.echo {
            eprintln!("squall-ics: {text}");
        }
    }

    /// Logs one line with its direction; the password never reaches the log.
    pub fn log(&mut self, dir: &str, text: &str) {
        if self.file.is_none() && !self.echo {
            return;
        }
        let masked = if self.secret.is_empty() {
            text.to_string()
        } else {
            text.replace(&self.secret, "********")
        };
        let line = format!(
            "{:>9.3} {dir} {masked}\n",
            self.epoch.elapsed().as_secs_f64()
        );
        if let Some(f) = &mut self.file {
            let _ = f.write_all(line.as_bytes());
        }
        if self.echo {
            eprint!("{line}");
        }
    }
}

pub struct Connection {
    stream: TcpStream,
    rx: Receiver<Incoming>,
    timeseal: bool,
    epoch: Instant,
    /// Timeseal's clock at `epoch`: a wall-clock reading, so that no stamp is ever 0 (lasker
    /// takes a line stamped 0 for one that is not timeseal, the hello included).
    stamp_base: u64,
    pub last_sent: Instant,
}

impl Connection {
    /// Connects and starts the reader; with Timeseal the hello goes first.
    pub fn open(
        host: &str,
        port: u16,
        prompt: &str,
        timeseal: bool,
    ) -> std::io::Result<Connection> {
        let addrs: Vec<_> = (host, port).to_socket_addrs()?.collect();
        let mut last = std::io::Error::new(std::io::ErrorKind::NotFound, "no address");
        let mut found = None;
        for a in addrs {
            match TcpStream::connect_timeout(&a, Duration::from_secs(15)) {
                Ok(s) => {
                    found = Some(s);
                    break;
                }
                Err(e) => last = e,
            }
        }
        let stream = found.ok_or(last)?;
        stream.set_nodelay(true)?;
        let mut reader = stream.try_clone()?;
        reader.set_read_timeout(Some(QUIET))?;
        let (tx, rx) = channel();
        let prompt = prompt.to_string();
        std::thread::spawn(move || {
            let mut split = LineSplitter::new(&prompt);
            let mut buf = [0u8; 4096];
            loop {
                let lines = match reader.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => split.feed(&buf[..n]),
                    Err(e)
                        if e.kind() == std::io::ErrorKind::WouldBlock
                            || e.kind() == std::io::ErrorKind::TimedOut =>
                    {
                        split.flush()
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                };
                for _ in 0..split.take_pings() {
                    if tx.send(Incoming::Ping).is_err() {
                        return;
                    }
                }
                for l in lines {
                    if tx.send(Incoming::Line(l)).is_err() {
                        return;
                    }
                }
            }
            for l in split.flush() {
                let _ = tx.send(Incoming::Line(l));
            }
            let _ = tx.send(Incoming::Closed);
        });
        let now = Instant::now();
        Ok(Connection {
            stream,
            rx,
            timeseal,
            epoch: now,
            stamp_base: timeseal::clock_base(),
            last_sent: now,
        })
    }

    /// Sends one line; false when the connection is gone.
    pub fn send_raw(&mut self, line: &str) -> bool {
        self.last_sent = Instant::now();
        let bytes = if self.timeseal {
            let ms = self.stamp_base + self.epoch.elapsed().as_millis() as u64;
            timeseal::encode(line, ms)
        } else {
            format!("{line}\n").into_bytes()
        };
        self.stream
            .write_all(&bytes)
            .and_then(|_| self.stream.flush())
            .is_ok()
    }

    pub fn send_hello(&mut self, handle: &str) -> bool {
        self.timeseal && self.send_raw(&timeseal::hello(handle))
    }

    pub fn recv(&self, timeout: Duration) -> Option<Incoming> {
        match self.rx.recv_timeout(timeout) {
            Ok(i) => Some(i),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Incoming::Closed),
        }
    }

    pub fn close(&self) {
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.close();
    }
}
