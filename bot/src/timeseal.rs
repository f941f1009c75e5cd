//! Timeseal v1, FICS's lag-compensation wrapper: every line we send carries our own clock
//! reading, scrambled with a fixed key, so the server can charge us the time we really used
//! rather than the time the line spent on the network. The server's side is plain text except
//! for its pings, `[G]` followed by a NUL (FICS) or on a line of its own (lasker 2.2.3), which
//! we answer with an encoded `\x02` `9` (see `LineSplitter`). lasker reads a stamp of 0 as "not
//! timeseal", so every stamp, the first line's included, is a real clock reading above 0.

const KEY: &[u8] = b"Timestamp (FICS) v1.0 - programmed by Henrik Gram.";

/// The first line a timeseal client sends: who it is and on what.
pub fn hello(handle: &str) -> String {
    format!("TIMESTAMP|{handle}|squall {}|", env!("CARGO_PKG_VERSION"))
}

/// What a ping is answered with (before encoding).
pub const PING_REPLY: &str = "\u{2}9";

/// The stamps wrap at this many milliseconds (about 2.8 hours).
const WRAP_MS: u64 = 10_000_000;

/// A connection's first stamp: the wall clock's milliseconds, in the first half of the range,
/// so that a session runs for over an hour before its stamps wrap.
pub fn clock_base() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    1_000 + now % (WRAP_MS / 2)
}

/// Encodes one line (without its newline) stamped with `ms`, our clock in milliseconds.
pub fn encode(line: &str, ms: u64) -> Vec<u8> {
    let mut s: Vec<u8> = line.as_bytes().to_vec();
    s.push(0x18);
    // The server only compares stamps with each other, so a reading modulo 10^7 is enough
    // and keeps the number short, like the original client's; 0 means "no timeseal".
    s.extend_from_slice((ms % WRAP_MS).max(1).to_string().as_bytes());
    s.push(0x19);
    while !s.len().is_multiple_of(12) {
        s.push(b'1');
    }
    for block in s.chunks_mut(12) {
        block.swap(0, 11);
        block.swap(2, 9);
        block.swap(4, 7);
    }
    for (n, b) in s.iter_mut().enumerate() {
        *b = ((*b | 0x80) ^ KEY[n % KEY.len()]).wrapping_sub(32);
    }
    s.push(0x80);
    s.push(b'\n');
    s
}

/// The inverse of `encode`, for the fake server in the tests: the line and its stamp.
pub fn decode(bytes: &[u8]) -> Option<(String, u64)> {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let body = body.strip_suffix(&[0x80]).unwrap_or(body);
    if body.is_empty() || !body.len().is_multiple_of(12) {
        return None;
    }
    let mut s: Vec<u8> = body
        .iter()
        .enumerate()
        .map(|(n, &b)| (b.wrapping_add(32) ^ KEY[n % KEY.len()]) & 0x7f)
        .collect();
    for block in s.chunks_mut(12) {
        block.swap(0, 11);
        block.swap(2, 9);
        block.swap(4, 7);
    }
    let start = s.iter().rposition(|&b| b == 0x18)?;
    let end = s.iter().rposition(|&b| b == 0x19)?;
    if end <= start {
        return None;
    }
    let stamp = std::str::from_utf8(&s[start + 1..end]).ok()?.parse().ok()?;
    let text = String::from_utf8(s[..start].to_vec()).ok()?;
    Some((text, stamp))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for line in [
            "",
            "e2e4",
            "tell Boss a much longer line with spaces",
            "\u{2}9",
        ] {
            let e = encode(line, 1234567);
            assert_eq!(e.len() % 12, 2);
            assert!(e[..e.len() - 2].iter().all(|&b| b != b'\n'));
            assert_eq!(decode(&e), Some((line.to_string(), 1234567)));
        }
        assert_eq!(decode(&encode("x", 0)), Some(("x".to_string(), 1)));
        assert!(clock_base() >= 1_000);
    }
}
