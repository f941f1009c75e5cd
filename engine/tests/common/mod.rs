//! Runs the built `squall` binary as a child process and talks to it line by line, with
//! timeouts so that a hang fails the test instead of blocking it.

#![allow(dead_code)]

pub mod eval_checks;
pub mod games;
mod scratch;

// Not every test crate that includes `common` takes a scratch folder.
#[allow(unused_imports)]
pub use scratch::Scratch;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
    /// Every line read so far (for failure messages).
    pub log: Vec<String>,
}

pub fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(s)
}

impl Engine {
    pub fn start(args: &[&str]) -> Engine {
        // No default opening book: these tests expect searches from the start position.
        Engine::start_with_book_env(args, "")
    }

    /// `start` with the default book taken from `SQUALL_BOOK=book`.
    pub fn start_with_book_env(args: &[&str], book: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_squall"))
            .args(args)
            .env("SQUALL_BOOK", book)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start squall");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            rx,
            log: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        let w = self.stdin.as_mut().expect("stdin open");
        writeln!(w, "{line}").expect("write to engine");
        w.flush().expect("flush");
        self.log.push(format!("> {line}"));
    }

    pub fn send_all(&mut self, lines: &[&str]) {
        for l in lines {
            self.send(l);
        }
    }

    /// Writes raw bytes (for bulk and invalid input).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let w = self.stdin.as_mut().expect("stdin open");
        w.write_all(bytes).expect("write to engine");
        w.flush().expect("flush");
    }

    /// Takes the engine's stdin (to write from another thread).
    pub fn take_stdin(&mut self) -> ChildStdin {
        self.stdin.take().expect("stdin open")
    }

    fn tail(&self) -> String {
        let start = self.log.len().saturating_sub(40);
        self.log[start..].join("\n")
    }

    /// Reads lines until one satisfies `pred` and returns every line read, the match last.
    pub fn until(&mut self, pred: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(line) => {
                    self.log.push(line.clone());
                    let done = pred(&line);
                    got.push(line);
                    if done {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("timed out after {timeout:?}; last lines:\n{}", self.tail())
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine closed its output; last lines:\n{}", self.tail())
                }
            }
        }
    }

    /// The first line that starts with `prefix`.
    pub fn expect(&mut self, prefix: &str, timeout: Duration) -> String {
        let p = prefix.to_string();
        self.until(move |l| l.starts_with(&p), timeout)
            .pop()
            .unwrap_or_default()
    }

    /// Lines that arrive within `d` (no failure when none do).
    pub fn collect_for(&mut self, d: Duration) -> Vec<String> {
        let deadline = Instant::now() + d;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return got;
            }
            match self.rx.recv_timeout(left) {
                Ok(line) => {
                    self.log.push(line.clone());
                    got.push(line);
                }
                Err(_) => return got,
            }
        }
    }

    /// Sends `quit` (or closes stdin) and waits for the process to end.
    pub fn quit_within(&mut self, timeout: Duration) {
        if self.stdin.is_some() {
            self.send("quit");
        }
        self.stdin = None;
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            if Instant::now() > deadline {
                panic!("engine did not exit within {timeout:?}");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move in `text` (coordinates) is legal in `pos`.
pub fn is_legal(pos: &squall::Position, text: &str) -> bool {
    pos.parse_uci_move(text).is_ok()
}

/// A Python that can import `module` (a part of python-chess): `$SQUALL_PYTHON`, else `python3`.
/// None, with a message saying the test is skipped, where it cannot.
pub fn python_with(module: &str) -> Option<String> {
    let py = std::env::var("SQUALL_PYTHON").unwrap_or_else(|_| "python3".into());
    let ok = Command::new(&py)
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        Some(py)
    } else {
        eprintln!("skipped: no {module} in {py}; set SQUALL_PYTHON to a Python with python-chess");
        None
    }
}
