//! No server line, byte stream or configuration text makes the ICS bot's parsers panic:
//! random and mutated inputs, seeded so a failure repeats.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use squall_ics::{config, events, lines::LineSplitter, style12, timeseal};

const SAMPLES: &[&str] = &[
    "<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- PPPP-PPP RNBQKBNR B 4 1 1 1 1 0 7 Newton Einstein -1 2 12 39 39 119 122 1 P/e2-e4 (0:06) e4 0 1 0",
    "<12> r---k--r pppppppp -------- -------- -------- -------- PPPPPPPP R---K--R W -1 1 1 1 1 0 12 Squall Opp 1 3 0 1500 1500 180000 179000 9 o-o (0:00.123) O-O 0 1 35",
    "Challenge: Opp (1500) [white] Squall (1600) rated blitz 5 0.",
    "Creating: Opp (1500) Squall (----) unrated blitz 3 2",
    "{Game 4 (Opp vs. Squall) Creating unrated blitz match.}",
    "{Game 4 (Opp vs. Squall) Opp forfeits on time} 0-1",
    "Opp offers you a draw.",
    "Opp would like to take back 2 half move(s).",
    "Opp would like to abort the game; type \"abort\" to accept.",
    "Boss tells you: quit",
    "**** Starting FICS session as Squall(C) ****",
    "**** Invalid password! ****",
    "Illegal move (e2e5).",
    "Notification: Opp, who has an adjourned game with you, has arrived.",
    "login:",
    "password:",
];

fn mutate(rng: &mut Xoshiro256PlusPlus, s: &str) -> String {
    let mut b: Vec<u8> = s.as_bytes().to_vec();
    let n = 1 + rng.next_u32() % 6;
    for _ in 0..n {
        let len = b.len().max(1);
        let i = rng.next_u32() as usize % len;
        match rng.next_u32() % 6 {
            0 => b.truncate(i),
            1 if i < b.len() => b[i] = (rng.next_u32() % 256) as u8,
            2 => b.insert(
                i.min(b.len()),
                b" -()[]{}:.0123456789/"[rng.next_u32() as usize % 21],
            ),
            3 if i < b.len() => {
                b.remove(i);
            }
            4 => {
                let j = rng.next_u32() as usize % len;
                if i < b.len() && j < b.len() {
                    b.swap(i, j);
                }
            }
            _ => {
                let w = s
                    .split(' ')
                    .nth(rng.next_u32() as usize % 40)
                    .unwrap_or("x");
                let at = i.min(b.len());
                b.splice(at..at, w.bytes());
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
fn server_lines_never_panic() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(16);
    let mut boards = 0;
    for round in 0..60_000 {
        let base = SAMPLES[round % SAMPLES.len()];
        let line = mutate(&mut rng, base);
        let _ = events::classify(&line);
        if let Some(b) = style12::parse(&line) {
            boards += 1;
            let _ = b.fen();
            let _ = b.position();
            let _ = b.ply();
        }
    }
    assert!(
        boards > 100,
        "mutations kept too few boards parseable ({boards})"
    );
}

#[test]
fn byte_streams_never_panic() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
    for _ in 0..3_000 {
        let mut split = LineSplitter::new("fics% ");
        let len = rng.next_u32() % 600;
        let mut bytes = Vec::new();
        for _ in 0..len {
            let r = rng.next_u32();
            let b = match r % 8 {
                0 => 255,
                1 => b'\n',
                2 => b'\r',
                3 => b'\\',
                4 => 0,
                _ => (r >> 8) as u8,
            };
            bytes.push(b);
        }
        let mut at = 0;
        while at < bytes.len() {
            let n = 1 + rng.next_u32() as usize % 64;
            let end = (at + n).min(bytes.len());
            for l in split.feed(&bytes[at..end]) {
                let _ = events::classify(&l);
            }
            at = end;
        }
        for l in split.flush() {
            let _ = events::classify(&l);
        }
        let _ = timeseal::decode(&bytes);
    }
}

#[test]
fn config_texts_never_panic() {
    let text =
        "[server]\nhost = \"h\"\nport = 5000\nhandle = \"bot\"\n[games]\nseeks = [\"3 0 u\"]\n\
                [play]\ndraw_accept_cp = -10\n[engine]\noptions = [\"Hash=1\"]\n";
    assert!(config::parse(text).is_ok());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(18);
    for _ in 0..20_000 {
        let t = mutate(&mut rng, text);
        if let Err(e) = config::parse(&t) {
            assert!(e.line <= t.lines().count(), "{e} for {t:?}");
        }
    }
}

#[test]
fn example_config_parses_and_shows_every_key() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tools/ics-example.toml"
    ))
    .expect("tools/ics-example.toml");
    config::parse(&text).expect("example parses");
    for k in config::KEYS {
        let shown = text
            .lines()
            .any(|l| l.trim_start().starts_with(&format!("{} =", k.name)));
        assert!(shown, "example lacks {}.{}", k.section, k.name);
    }
    // The example says its values are the defaults unless a line says `# default: ...`.
    let mut section = "";
    for l in text.lines().map(str::trim) {
        if let Some(name) = l.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            section = name;
            continue;
        }
        let Some((key, value)) = l.split_once(" = ") else {
            continue;
        };
        if l.starts_with('#') {
            continue;
        }
        let (value, claim) = match value.split_once("  # default: ") {
            Some((v, d)) => (v.trim(), d.trim()),
            None => (value.trim(), value.trim()),
        };
        let k = config::KEYS
            .iter()
            .find(|k| k.section == section && k.name == key)
            .unwrap_or_else(|| panic!("{section}.{key} is no key"));
        assert_eq!(
            claim, k.default,
            "{section}.{key}: the example's claimed default"
        );
        if claim == value {
            continue;
        }
        assert_ne!(
            value, k.default,
            "{section}.{key} is marked but is the default"
        );
    }
}
