//! One client's connection as lasker speaks it: `\n\r` line ends with the prompt glued
//! after each message, and the client's lines read back, Timeseal-decoded when it speaks that.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Mutex;

use squall_ics::timeseal;

use super::report::Report;

pub(super) struct Conn {
    pub(super) stream: TcpStream,
    pub(super) buf: Vec<u8>,
    pub(super) timeseal: Option<bool>,
    pub(super) closed: bool,
}

impl Conn {
    pub(super) fn send(&mut self, text: &str) {
        // Lasker style: each message opens with `\n\r`, and the prompt is glued after it.
        let msg = format!("\n\r{}\n\rfics% ", text.replace('\n', "\n\r"));
        if self.stream.write_all(msg.as_bytes()).is_err() {
            self.closed = true;
        }
    }
    pub(super) fn raw(&mut self, bytes: &[u8]) {
        if self.stream.write_all(bytes).is_err() {
            self.closed = true;
        }
    }
    /// The next complete line from the client, if any arrived.
    pub(super) fn line(&mut self, report: &Mutex<Report>) -> Option<String> {
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
