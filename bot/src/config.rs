//! The bot's configuration file, in TOML, read with `serde` + `toml`. Every key is declared
//! once in [`KEYS`] (section, name, default, meaning), which gives the defaults and the
//! `squall-ics --help` text; the serde structs below give each key its type and reject
//! unknown sections and keys. Any unknown key, wrong type or bad value is reported with its
//! line number before the bot opens a connection.

use std::fmt;

use serde::Deserialize;
use toml::Spanned;

use super::variant::Variant;

pub use super::keys::{KeySpec, KEYS};

/// A configuration error, with its line when it comes from the file (0: not from one line).
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for ConfigError {}

fn err(line: usize, message: impl Into<String>) -> ConfigError {
    ConfigError {
        line,
        message: message.into(),
    }
}

/// A key as read: its value and where it stood in the file (absent: the default).
type Field<T> = Option<Spanned<T>>;

/// The file as serde reads it: sections and keys by name, each key optional. The field
/// names are the key names of [`KEYS`]; a unit test checks that both agree.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct RawFile {
    server: RawServer,
    engine: RawEngine,
    games: RawGames,
    play: RawPlay,
    owner: RawOwner,
    log: RawLog,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct RawServer {
    host: Field<String>,
    port: Field<i64>,
    handle: Field<String>,
    password: Field<String>,
    timeseal: Field<bool>,
    prompt: Field<String>,
    keepalive_s: Field<i64>,
    reconnect_min_s: Field<i64>,
    reconnect_max_s: Field<i64>,
    reconnect_tries: Field<i64>,
    setup: Field<Vec<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct RawEngine {
    command: Field<String>,
    protocol: Field<String>,
    options: Field<Vec<String>>,
    movetime_ms: Field<i64>,
    lag_margin_ms: Field<i64>,
    min_think_ms: Field<i64>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct RawGames {
    seeks: Field<Vec<String>>,
    variants: Field<Vec<String>>,
    accept_challenges: Field<bool>,
    min_base_min: Field<i64>,
    max_base_min: Field<i64>,
    min_inc_s: Field<i64>,
    max_inc_s: Field<i64>,
    rated: Field<String>,
    allow: Field<Vec<String>>,
    deny: Field<Vec<String>>,
    max_consecutive: Field<i64>,
    max_games: Field<i64>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct RawPlay {
    draw_accept_cp: Field<i64>,
    draw_min_moves: Field<i64>,
    resign_cp: Field<i64>,
    accept_abort: Field<bool>,
    accept_adjourn: Field<bool>,
    accept_takeback: Field<bool>,
    flag: Field<bool>,
    report: Field<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct RawOwner {
    handle: Field<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct RawLog {
    pgn_dir: Field<String>,
    wire_log: Field<String>,
    verbose: Field<bool>,
}

/// The 1-based line of a byte offset in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    let line = text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1;
    // An error at the very end (an unclosed string or array) belongs to the last line.
    line.min(text.lines().count().max(1))
}

/// Reads a TOML text into the raw structs; a TOML or type error becomes a [`ConfigError`]
/// with the line of its span and the key written on that line.
fn read(text: &str) -> Result<RawFile, ConfigError> {
    toml::from_str(text).map_err(|e| {
        let message = e.message().trim().to_string();
        let Some(span) = e.span() else {
            return err(0, message);
        };
        let line = line_of(text, span.start);
        let source = text.lines().nth(line - 1).unwrap_or("");
        let key = source
            .split_once('=')
            .map(|(k, _)| k.trim())
            .filter(|k| !k.is_empty() && !k.starts_with('[') && !message.contains(k));
        match key {
            Some(k) => err(line, format!("{k}: {message}")),
            None => err(line, message),
        }
    })
}

/// The defaults of [`KEYS`] as a TOML document.
fn defaults_text() -> String {
    let mut out = String::new();
    let mut section = "";
    for k in KEYS {
        if k.section != section {
            section = k.section;
            out.push_str(&format!("[{section}]\n"));
        }
        out.push_str(&format!("{} = {}\n", k.name, k.default));
    }
    out
}

/// A key's value and its line: the file's, else the default's (line 0).
struct Val<T> {
    value: T,
    line: usize,
}

fn pick<T>(
    text: &str,
    name: &str,
    user: Field<T>,
    default: Field<T>,
) -> Result<Val<T>, ConfigError> {
    match (user, default) {
        (Some(s), _) => Ok(Val {
            line: line_of(text, s.span().start),
            value: s.into_inner(),
        }),
        (None, Some(d)) => Ok(Val {
            value: d.into_inner(),
            line: 0,
        }),
        (None, None) => Err(err(0, format!("{name} has no default in the key table"))),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineProtocol {
    Uci,
    Xboard,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RatedFilter {
    Any,
    Rated,
    Unrated,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Report {
    Whisper,
    Kibitz,
    None,
}

/// The checked configuration.
#[derive(Clone, Debug)]
pub struct Config {
    pub host: String,
    pub port: u16,
    pub handle: String,
    pub password: String,
    pub timeseal: bool,
    pub prompt: String,
    pub keepalive_s: u64,
    pub reconnect_min_s: u64,
    pub reconnect_max_s: u64,
    pub reconnect_tries: u64,
    pub setup: Vec<String>,
    pub engine_command: String,
    pub protocol: EngineProtocol,
    pub engine_options: Vec<(String, String)>,
    pub movetime_ms: u64,
    pub lag_margin_ms: u64,
    pub min_think_ms: u64,
    pub seeks: Vec<String>,
    /// The games the bot plays (challenges of any other kind are declined).
    pub variants: Vec<Variant>,
    pub accept_challenges: bool,
    pub base_min: (u64, u64),
    pub inc_s: (u64, u64),
    pub rated: RatedFilter,
    pub allow: Vec<String>,
    pub deny: Vec<String>,
    pub max_consecutive: u64,
    pub max_games: u64,
    pub draw_accept_cp: i64,
    pub draw_min_moves: u64,
    pub resign_cp: i64,
    pub accept_abort: bool,
    pub accept_adjourn: bool,
    pub accept_takeback: bool,
    pub flag: bool,
    pub report: Report,
    pub owner: String,
    pub pgn_dir: String,
    pub wire_log: String,
    pub verbose: bool,
}

fn int(v: Val<i64>, k: &str, lo: i64, hi: i64) -> Result<i64, ConfigError> {
    if v.value < lo || v.value > hi {
        return Err(err(
            v.line,
            format!("{k} must be between {lo} and {hi}, not {}", v.value),
        ));
    }
    Ok(v.value)
}

fn uint(v: Val<i64>, k: &str, hi: i64) -> Result<u64, ConfigError> {
    // int() has checked the range, so the value is not negative.
    int(v, k, 0, hi).map(|n| n.unsigned_abs())
}

fn choice<T: Copy>(v: Val<String>, k: &str, options: &[(&str, T)]) -> Result<T, ConfigError> {
    options
        .iter()
        .find(|(name, _)| *name == v.value)
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
            err(
                v.line,
                format!(
                    "{k} must be one of {}, not \"{}\"",
                    names.join(", "),
                    v.value
                ),
            )
        })
}

/// Checks a seek the way lasker's `seek` reads it: `BASE INC` (minutes, seconds), then
/// any of rated/unrated, white/black, auto/manual, formula, a rating range `MIN-MAX`, and a
/// variant (`wild N`, crazyhouse, suicide, ...).
pub fn check_seek(seek: &str) -> Result<(), String> {
    let words: Vec<&str> = seek.split_whitespace().collect();
    let number = |w: Option<&&str>| w.is_some_and(|w| w.parse::<u32>().is_ok());
    if !number(words.first()) || !number(words.get(1)) {
        return Err("must start with the base minutes and the increment seconds".into());
    }
    const WORDS: &[&str] = &[
        "rated",
        "unrated",
        "r",
        "u",
        "white",
        "black",
        "w",
        "b",
        "auto",
        "manual",
        "a",
        "m",
        "formula",
        "f",
        "wild",
        "fr",
        "crazyhouse",
        "zh",
        "suicide",
        "losers",
        "atomic",
        "bughouse",
    ];
    for w in &words[2..] {
        let lower = w.to_ascii_lowercase();
        let range = lower
            .split_once('-')
            .is_some_and(|(a, b)| a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok());
        let wild = lower.starts_with('w') && lower[1..].parse::<u32>().is_ok();
        if !(WORDS.contains(&lower.as_str()) || range || wild || lower.parse::<u32>().is_ok()) {
            return Err(format!("'{w}' is not a seek option"));
        }
    }
    Ok(())
}

/// Parses and checks the whole file.
pub fn parse(text: &str) -> Result<Config, ConfigError> {
    let user = read(text)?;
    let defaults = read(&defaults_text())?;
    // `get!(section.key)`: the key's `Val`, from the file or its default.
    macro_rules! get {
        ($sec:ident . $k:ident) => {
            pick(text, stringify!($k), user.$sec.$k, defaults.$sec.$k)?
        };
    }
    macro_rules! plain {
        ($sec:ident . $k:ident) => {
            get!($sec.$k).value
        };
    }
    let handle = get!(server.handle);
    if handle.value.is_empty() || !handle.value.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(err(handle.line, "handle must be letters and digits"));
    }
    let options = get!(engine.options);
    let mut engine_options = Vec::new();
    for o in &options.value {
        let Some((n, v)) = o.split_once('=') else {
            return Err(err(
                options.line,
                format!("option \"{o}\" is not Name=value"),
            ));
        };
        engine_options.push((n.trim().to_string(), v.trim().to_string()));
    }
    let setup = get!(server.setup);
    let seeks = get!(games.seeks);
    for (k, list) in [("setup", &setup), ("seeks", &seeks)] {
        if list.value.iter().any(|c| c.contains(['\n', '\r'])) {
            return Err(err(
                list.line,
                format!("{k}: a command may not hold a line break"),
            ));
        }
    }
    let variants = get!(games.variants);
    let mut games = Vec::new();
    for v in &variants.value {
        games.push(match v.as_str() {
            "standard" => Variant::Standard,
            "fr" => Variant::Fischer,
            _ => {
                return Err(err(
                    variants.line,
                    format!("variants: \"{v}\" is not \"standard\" or \"fr\""),
                ))
            }
        });
    }
    if games.is_empty() {
        return Err(err(variants.line, "variants may not be empty"));
    }
    for seek in &seeks.value {
        if let Err(m) = check_seek(seek) {
            return Err(err(seeks.line, format!("seeks: \"{seek}\": {m}")));
        }
        // A seek is answered by the server pairing us, with no challenge to filter: it may
        // only ask for a game the bot plays.
        let v = Variant::from_words(&seek.split_whitespace().skip(2).collect::<Vec<_>>());
        if !games.contains(&v) {
            return Err(err(
                seeks.line,
                format!(
                    "seeks: \"{seek}\" asks for {} games, which variants leaves out",
                    v.name()
                ),
            ));
        }
    }
    let pgn_dir = get!(log.pgn_dir);
    if pgn_dir.value.is_empty() {
        return Err(err(pgn_dir.line, "pgn_dir may not be empty"));
    }
    let cfg = Config {
        host: plain!(server.host),
        port: u16::try_from(int(get!(server.port), "port", 1, 65535)?).unwrap_or(5000),
        password: plain!(server.password),
        timeseal: plain!(server.timeseal),
        prompt: plain!(server.prompt),
        keepalive_s: uint(get!(server.keepalive_s), "keepalive_s", 3600)?,
        reconnect_min_s: uint(get!(server.reconnect_min_s), "reconnect_min_s", 3600)?,
        reconnect_max_s: uint(get!(server.reconnect_max_s), "reconnect_max_s", 86400)?,
        reconnect_tries: uint(get!(server.reconnect_tries), "reconnect_tries", 1_000_000)?,
        setup: setup.value,
        engine_command: plain!(engine.command),
        protocol: choice(
            get!(engine.protocol),
            "protocol",
            &[
                ("uci", EngineProtocol::Uci),
                ("xboard", EngineProtocol::Xboard),
            ],
        )?,
        engine_options,
        movetime_ms: uint(get!(engine.movetime_ms), "movetime_ms", 3_600_000)?,
        lag_margin_ms: uint(get!(engine.lag_margin_ms), "lag_margin_ms", 60_000)?,
        min_think_ms: uint(get!(engine.min_think_ms), "min_think_ms", 60_000)?,
        seeks: seeks.value,
        variants: games,
        accept_challenges: plain!(games.accept_challenges),
        base_min: (
            uint(get!(games.min_base_min), "min_base_min", 10_000)?,
            uint(get!(games.max_base_min), "max_base_min", 10_000)?,
        ),
        inc_s: (
            uint(get!(games.min_inc_s), "min_inc_s", 10_000)?,
            uint(get!(games.max_inc_s), "max_inc_s", 10_000)?,
        ),
        rated: choice(
            get!(games.rated),
            "rated",
            &[
                ("any", RatedFilter::Any),
                ("rated", RatedFilter::Rated),
                ("unrated", RatedFilter::Unrated),
            ],
        )?,
        allow: plain!(games.allow),
        deny: plain!(games.deny),
        max_consecutive: uint(get!(games.max_consecutive), "max_consecutive", 1_000_000)?,
        max_games: uint(get!(games.max_games), "max_games", 1_000_000_000)?,
        draw_accept_cp: int(
            get!(play.draw_accept_cp),
            "draw_accept_cp",
            -100_000,
            100_000,
        )?,
        draw_min_moves: uint(get!(play.draw_min_moves), "draw_min_moves", 10_000)?,
        resign_cp: int(get!(play.resign_cp), "resign_cp", 0, 100_000)?,
        accept_abort: plain!(play.accept_abort),
        accept_adjourn: plain!(play.accept_adjourn),
        accept_takeback: plain!(play.accept_takeback),
        flag: plain!(play.flag),
        report: choice(
            get!(play.report),
            "report",
            &[
                ("whisper", Report::Whisper),
                ("kibitz", Report::Kibitz),
                ("none", Report::None),
            ],
        )?,
        owner: plain!(owner.handle),
        pgn_dir: pgn_dir.value,
        wire_log: plain!(log.wire_log),
        verbose: plain!(log.verbose),
        handle: handle.value,
    };
    if cfg.base_min.0 > cfg.base_min.1 || cfg.inc_s.0 > cfg.inc_s.1 {
        return Err(err(0, "a [games] minimum is above its maximum"));
    }
    if cfg.reconnect_min_s > cfg.reconnect_max_s {
        return Err(err(0, "reconnect_min_s is above reconnect_max_s"));
    }
    Ok(cfg)
}

impl Config {
    /// Whether a challenge passes the filters: a variant we play (standard chess unless
    /// `variants` adds Fischer random) with a clock, time control
    /// in range, rated or not as asked, allow and deny lists, and the limit on games in a row
    /// against one opponent (`streak`: last opponent and games in a row against them).
    pub fn challenge_ok(&self, c: &super::events::Challenge, streak: &(String, u64)) -> bool {
        let named = |list: &[String]| list.iter().any(|n| n.eq_ignore_ascii_case(&c.from));
        let rated_ok = match self.rated {
            RatedFilter::Any => true,
            RatedFilter::Rated => c.rated,
            RatedFilter::Unrated => !c.rated,
        };
        let streak_ok = self.max_consecutive == 0
            || !streak.0.eq_ignore_ascii_case(&c.from)
            || streak.1 < self.max_consecutive;
        let kind_ok = match c.variant {
            Variant::Standard => ["blitz", "lightning", "standard"].contains(&c.kind.as_str()),
            // lasker's type for every wild is `wild`, whatever the clocks.
            Variant::Fischer => true,
            Variant::Other => false,
        };
        self.accept_challenges
            && kind_ok
            && self.variants.contains(&c.variant)
            && (self.base_min.0..=self.base_min.1).contains(&u64::from(c.base_min))
            && (self.inc_s.0..=self.inc_s.1).contains(&u64::from(c.inc_s))
            && (c.base_min > 0 || c.inc_s > 0)
            && rated_ok
            && (self.allow.is_empty() || named(&self.allow))
            && !named(&self.deny)
            && streak_ok
    }

    /// A guest logs in with the handle `guest` and no password.
    pub fn is_guest(&self) -> bool {
        self.handle.eq_ignore_ascii_case("guest")
    }
}

/// The key reference printed by `squall ics --help`.
pub fn key_help() -> String {
    let mut out = String::from("Configuration keys (TOML; section.key = default: meaning):\n");
    let mut section = "";
    for k in KEYS {
        if k.section != section {
            section = k.section;
            out.push_str(&format!("\n[{section}]\n"));
        }
        out.push_str(&format!("  {} = {}\n      {}\n", k.name, k.default, k.doc));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_cover_every_key_and_parse() {
        // The key table and the serde structs agree: every table key is a field (the
        // defaults document parses with unknown keys denied), and every field has a
        // default (parse("") would report "has no default" otherwise).
        read(&defaults_text()).expect("the key table's defaults");
        let c = parse("").expect("an empty file is all defaults");
        assert_eq!(c.port, 5000);
        assert_eq!(c.handle, "guest");
        assert_eq!(c.prompt, "fics% ");
    }

    #[test]
    fn reads_a_full_file() {
        let text =
            "# bot\n[server]\nhost = \"127.0.0.1\" # here\nport = 5001\nhandle = \"Squallbot\"\n\
                    password = \"a#b\\\"c\"\n[games]\nseeks = [\"3 0 u\", \"5 0 r\"]\nallow = []\n\
                    [engine]\noptions = [\"Hash=16\"]\nprotocol = \"xboard\"\n";
        let c = parse(text).unwrap();
        assert_eq!(c.port, 5001);
        assert_eq!(c.password, "a#b\"c");
        assert_eq!(c.seeks, vec!["3 0 u", "5 0 r"]);
        assert_eq!(c.protocol, EngineProtocol::Xboard);
        assert_eq!(c.engine_options, vec![("Hash".into(), "16".into())]);
    }

    #[test]
    fn challenge_filters() {
        let c = |from: &str, rated, kind: &str, base, inc| super::super::events::Challenge {
            from: from.into(),
            rated,
            kind: kind.into(),
            base_min: base,
            inc_s: inc,
            variant: Variant::from_words(&[kind]),
        };
        let cfg = parse(
            "[games]\nmax_base_min = 10\nrated = \"unrated\"\ndeny = [\"Bad\"]\nmax_consecutive = 2\n",
        )
        .unwrap();
        let none = (String::new(), 0);
        assert!(cfg.challenge_ok(&c("Opp", false, "blitz", 3, 0), &none));
        assert!(!cfg.challenge_ok(&c("Opp", true, "blitz", 3, 0), &none));
        assert!(!cfg.challenge_ok(&c("Opp", false, "blitz", 15, 0), &none));
        assert!(!cfg.challenge_ok(&c("Opp", false, "wild/fr", 3, 0), &none));
        assert!(!cfg.challenge_ok(&c("bad", false, "blitz", 3, 0), &none));
        assert!(!cfg.challenge_ok(&c("Opp", false, "blitz", 0, 0), &none));
        assert!(!cfg.challenge_ok(&c("Opp", false, "blitz", 3, 0), &("opp".into(), 2)));
        assert!(cfg.challenge_ok(&c("Opp", false, "blitz", 3, 0), &("other".into(), 5)));
        // Fischer random only when `variants` names it, with the same clock filters.
        let fr = parse("[games]\nvariants = [\"standard\", \"fr\"]\nmax_base_min = 10\n").unwrap();
        assert!(fr.challenge_ok(&c("Opp", false, "wild/fr", 3, 0), &none));
        assert!(!fr.challenge_ok(&c("Opp", false, "wild/fr", 15, 0), &none));
        assert!(!fr.challenge_ok(&c("Opp", false, "wild", 3, 0), &none));
        assert!(fr.challenge_ok(&c("Opp", false, "blitz", 3, 0), &none));
        let only_fr = parse("[games]\nvariants = [\"fr\"]\n").unwrap();
        assert!(!only_fr.challenge_ok(&c("Opp", false, "blitz", 3, 0), &none));
        assert!(parse("[games]\nvariants = [\"fr\"]\nseeks = [\"2 12 wild fr\"]\n").is_ok());
    }

    #[test]
    fn errors_carry_their_line() {
        let cases = [
            ("[server]\nport = \"x\"\n", 2),
            ("[server]\n\nbogus = 1\n", 3),
            ("[nope]\n", 1),
            ("[server]\nport = 70000\n", 2),
            ("[engine]\nprotocol = \"cecp\"\n", 2),
            ("[server]\nhost = \"x\nport=1\n", 2),
            ("[games]\nseeks = [\"a\", 3]\n", 2),
            ("[server]\nport = 1\nport = 2\n", 3),
            ("[server]\nport\n", 2),
            ("[server]\nport = 5000\nhost = 42\n", 3),
            ("[log]\npgn_dir = \"\"\n", 2),
            ("[engine]\n\noptions = [\"Hash\"]\n", 3),
            ("[games]\nseeks = [\"3 0 u\", \"abc\"]\n", 2),
            ("[games]\nseeks = [\"3 0 q\"]\n", 2),
            ("[games]\nvariants = [\"zh\"]\n", 2),
            ("[games]\nvariants = []\n", 2),
            ("[games]\nseeks = [\"2 12 wild fr\"]\n", 2),
            ("[games]\nvariants = [\"fr\"]\nseeks = [\"3 0\"]\n", 3),
        ];
        for (text, line) in cases {
            let e = parse(text).expect_err(text);
            assert_eq!(e.line, line, "{text}: {e}");
        }
        let e = parse("[server]\nport = 5000\nhost = 42\n").unwrap_err();
        assert!(e.to_string().contains("host"), "{e}");
        assert!(check_seek("5 3 rated white 1200-1800 manual formula").is_ok());
        assert!(check_seek("2 12 u wild 22").is_ok());
        let e = parse("[server]\nbogus = 1\n").unwrap_err();
        assert!(e.to_string().contains("bogus"), "{e}");
    }
}
