//! Bytes from the server into text lines: telnet negotiation stripped, `\n\r` and `\r\n`
//! endings, the prompt glued to the front of the next output removed, and FICS's wrapped
//! lines (a continuation starts with `\` and spaces) joined back into one.

/// Telnet's "interpret as command" byte and the commands that carry an option byte.
const IAC: u8 = 255;
const SB: u8 = 250;
const SE: u8 = 240;
const WILL_TO_DONT: std::ops::RangeInclusive<u8> = 251..=254;

/// Longest line kept; anything longer is cut, so a server that never sends a newline cannot
/// make the bot grow without bound.
pub const MAX_LINE: usize = 16 * 1024;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Telnet {
    Data,
    Iac,
    Option,
    Sub,
    SubIac,
}

pub struct LineSplitter {
    prompt: String,
    telnet: Telnet,
    partial: Vec<u8>,
    /// The last complete line, held back until we know the next is not its continuation.
    held: Option<String>,
    /// Timeseal's pings (`[G]\0`, or a `[G]` line) seen since the last call to `take_pings`.
    pings: usize,
}

impl LineSplitter {
    pub fn new(prompt: &str) -> LineSplitter {
        LineSplitter {
            prompt: prompt.to_string(),
            telnet: Telnet::Data,
            partial: Vec::new(),
            held: None,
            pings: 0,
        }
    }

    /// Timeseal pings counted since the last call (each needs an answer).
    pub fn take_pings(&mut self) -> usize {
        std::mem::take(&mut self.pings)
    }

    /// Feeds raw bytes; returns the lines completed by them (a held line stays back until the
    /// next line or `flush` shows it is whole).
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        for &b in bytes {
            self.telnet = match (self.telnet, b) {
                (Telnet::Data, IAC) => Telnet::Iac,
                (Telnet::Data, _) => {
                    self.data_byte(b, &mut out);
                    Telnet::Data
                }
                (Telnet::Iac, IAC) => {
                    // An escaped 255 is a data byte; not valid text, so it is dropped.
                    Telnet::Data
                }
                (Telnet::Iac, SB) => Telnet::Sub,
                (Telnet::Iac, c) if WILL_TO_DONT.contains(&c) => Telnet::Option,
                (Telnet::Iac, _) | (Telnet::Option, _) => Telnet::Data,
                (Telnet::Sub, IAC) => Telnet::SubIac,
                (Telnet::Sub, _) => Telnet::Sub,
                (Telnet::SubIac, SE) => Telnet::Data,
                (Telnet::SubIac, _) => Telnet::Sub,
            };
        }
        out
    }

    fn data_byte(&mut self, b: u8, out: &mut Vec<String>) {
        match b {
            b'\n' => {
                let bytes = std::mem::take(&mut self.partial);
                let line = String::from_utf8_lossy(&bytes).into_owned();
                self.complete(line, out);
            }
            b'\r' => {}
            0 => {
                // Timeseal's ping is `[G]` followed by a NUL: count it and drop it.
                if self.partial.ends_with(b"[G]") {
                    let n = self.partial.len() - 3;
                    self.partial.truncate(n);
                    self.pings += 1;
                }
            }
            _ => {
                if self.partial.len() < MAX_LINE {
                    self.partial.push(b);
                }
            }
        }
    }

    fn strip_prompts<'a>(&self, mut line: &'a str) -> &'a str {
        let p = self.prompt.trim_end();
        if p.is_empty() {
            return line;
        }
        loop {
            let t = line.trim_start();
            match t.strip_prefix(p) {
                Some(rest) => line = rest.trim_start(),
                None => return line,
            }
        }
    }

    fn complete(&mut self, raw: String, out: &mut Vec<String>) {
        let line = self.strip_prompts(&raw).trim_end().to_string();
        if line == "[G]" {
            // lasker's timeseal ping comes on a line of its own, without the NUL.
            self.pings += 1;
            return;
        }
        if let Some(rest) = line.strip_prefix('\\') {
            // A wrapped line goes on: join it to the held one.
            match &mut self.held {
                Some(h) => {
                    if h.len() < MAX_LINE {
                        h.push(' ');
                        h.push_str(rest.trim_start());
                    }
                }
                None => self.held = Some(rest.trim_start().to_string()),
            }
            return;
        }
        if let Some(h) = self.held.take() {
            out.push(h);
        }
        if !line.is_empty() {
            self.held = Some(line);
        }
    }

    /// Called when no bytes came for a while: the held line is whole, and a partial line
    /// that is a question (`login:`, `password:`) is given out as a line, since the server
    /// waits for our answer and sends no newline.
    pub fn flush(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(h) = self.held.take() {
            out.push(h);
        }
        if !self.partial.is_empty() {
            let text = String::from_utf8_lossy(&self.partial).into_owned();
            let text = self.strip_prompts(&text).trim().to_string();
            if text.is_empty() {
                // Only the prompt: nothing to report, and the prompt is done with.
                self.partial.clear();
            } else if text.ends_with(':') {
                self.partial.clear();
                out.push(text);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(s: &mut LineSplitter, bytes: &[u8]) -> Vec<String> {
        let mut v = s.feed(bytes);
        v.extend(s.flush());
        v
    }

    #[test]
    fn endings_prompts_and_continuations() {
        let mut s = LineSplitter::new("fics% ");
        let got = all(
            &mut s,
            b"\xff\xfb\x01hello\n\rfics% <12> a b\n\r\\   c d\n\rfics% fics% last\r\nlogin: ",
        );
        assert_eq!(got, vec!["hello", "<12> a b c d", "last", "login:"]);
    }

    #[test]
    fn split_anywhere_gives_the_same_lines() {
        let text: &[u8] = b"one\n\rfics% two\n\r\\ more\n\rthree\n\r";
        for cut in 0..text.len() {
            let mut s = LineSplitter::new("fics% ");
            let mut got = s.feed(&text[..cut]);
            got.extend(s.feed(&text[cut..]));
            got.extend(s.flush());
            assert_eq!(got, vec!["one", "two more", "three"], "cut {cut}");
        }
    }

    #[test]
    fn timeseal_pings_are_counted_and_dropped() {
        let mut s = LineSplitter::new("fics% ");
        let got = all(&mut s, b"ab[G]\0c\n");
        assert_eq!(got, vec!["abc"]);
        assert_eq!(s.take_pings(), 1);
        // lasker 2.2.3: the ping on a line of its own, no NUL, perhaps after a prompt.
        let got = all(&mut s, b"x\n\r[G]\n\rfics% [G]\n\ry\n\r");
        assert_eq!(got, vec!["x", "y"]);
        assert_eq!(s.take_pings(), 2);
    }

    #[test]
    fn subnegotiation_is_skipped() {
        let mut s = LineSplitter::new("fics% ");
        assert_eq!(all(&mut s, b"x\xff\xfa\x18\x01\xff\xf0y\n"), vec!["xy"]);
    }
}
