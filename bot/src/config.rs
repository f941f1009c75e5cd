//! The bot's configuration file: a small subset of TOML (`[section]` headers, `key = value`
//! with strings, integers, booleans and one-line arrays, `#` comments), read by hand so the
//! engine keeps its short dependency list. Every key is declared once in [`KEYS`], which
//! drives parsing, validation, defaults and the `squall ics --help` text, so the three cannot
//! drift apart. Any unknown key, wrong type or bad value is reported with its line number
//! before the bot opens a connection.

use std::collections::HashMap;
use std::fmt;

/// One parsed value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Str(String),
    Int(i64),
    Bool(bool),
    List(Vec<Value>),
}

pub use super::keys::{KeySpec, Kind, KEYS};

/// A configuration error, with its line when it comes from the file.
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

/// Parses one value (string, integer, boolean or one-line array of those).
pub fn parse_value(text: &str) -> Result<Value, String> {
    let t = text.trim();
    let (v, rest) = parse_value_prefix(t)?;
    if !rest.trim().is_empty() {
        return Err(format!(
            "unexpected text after the value: '{}'",
            rest.trim()
        ));
    }
    Ok(v)
}

fn parse_value_prefix(t: &str) -> Result<(Value, &str), String> {
    if let Some(body) = t.strip_prefix('"') {
        let mut out = String::new();
        let mut chars = body.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => return Ok((Value::Str(out), &body[i + 1..])),
                '\\' => match chars.next() {
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, '"')) => out.push('"'),
                    Some((_, '\\')) => out.push('\\'),
                    Some((_, other)) => return Err(format!("unknown escape '\\{other}'")),
                    None => break,
                },
                _ => out.push(c),
            }
        }
        return Err("unterminated string".into());
    }
    if let Some(mut body) = t.strip_prefix('[') {
        let mut items = Vec::new();
        loop {
            body = body.trim_start();
            if let Some(rest) = body.strip_prefix(']') {
                return Ok((Value::List(items), rest));
            }
            let (v, rest) = parse_value_prefix(body)?;
            if matches!(v, Value::List(_)) {
                return Err("nested arrays are not supported".into());
            }
            items.push(v);
            body = rest.trim_start();
            if let Some(rest) = body.strip_prefix(',') {
                body = rest;
            } else if !body.starts_with(']') {
                return Err("expected ',' or ']' in the array".into());
            }
        }
    }
    let end = t.find([',', ']', ' ', '\t']).unwrap_or(t.len());
    let (word, rest) = t.split_at(end);
    match word {
        "true" => Ok((Value::Bool(true), rest)),
        "false" => Ok((Value::Bool(false), rest)),
        "" => Err("missing value".into()),
        _ => word
            .replace('_', "")
            .parse::<i64>()
            .map(|n| (Value::Int(n), rest))
            .map_err(|_| format!("'{word}' is not a string, integer, boolean or array")),
    }
}

/// Strips a `#` comment that is outside any string.
fn strip_comment(line: &str) -> &str {
    let mut in_str = false;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match c {
            '\\' if in_str && !escaped => {
                escaped = true;
                continue;
            }
            '"' if !escaped => in_str = !in_str,
            '#' if !in_str => return &line[..i],
            _ => {}
        }
        escaped = false;
    }
    line
}

fn kind_matches(kind: Kind, v: &Value) -> bool {
    match (kind, v) {
        (Kind::Str, Value::Str(_)) | (Kind::Int, Value::Int(_)) | (Kind::Bool, Value::Bool(_)) => {
            true
        }
        (Kind::StrList, Value::List(items)) => items.iter().all(|i| matches!(i, Value::Str(_))),
        _ => false,
    }
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Str => "a string",
        Kind::Int => "an integer",
        Kind::Bool => "true or false",
        Kind::StrList => "an array of strings",
    }
}

/// The raw table: `section.key` -> (value, line). Lines are kept for the value checks.
pub struct Raw {
    values: HashMap<String, (Value, usize)>,
}

impl Raw {
    fn get(&self, section: &str, name: &str) -> (Value, usize) {
        if let Some((v, l)) = self.values.get(&format!("{section}.{name}")) {
            return (v.clone(), *l);
        }
        let spec = KEYS.iter().find(|k| k.section == section && k.name == name);
        // The defaults are constants of this file, checked by a unit test.
        let v = spec.and_then(|s| parse_value(s.default).ok());
        (v.unwrap_or(Value::Str(String::new())), 0)
    }
}

/// Reads the file text into the raw table, checking section, key and type of every line.
pub fn parse_raw(text: &str) -> Result<Raw, ConfigError> {
    let mut section = String::new();
    let mut values = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = strip_comment(line).trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let Some(name) = rest.strip_suffix(']') else {
                return Err(err(n, "section header without ']'"));
            };
            let name = name.trim();
            if !KEYS.iter().any(|k| k.section == name) {
                return Err(err(n, format!("unknown section [{name}]")));
            }
            section = name.to_string();
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            return Err(err(n, "expected 'key = value'"));
        };
        let k = k.trim();
        let Some(spec) = KEYS.iter().find(|s| s.section == section && s.name == k) else {
            return Err(err(n, format!("unknown key '{k}' in section [{section}]")));
        };
        let value = parse_value(v).map_err(|m| err(n, format!("{k}: {m}")))?;
        if !kind_matches(spec.kind, &value) {
            return Err(err(n, format!("{k} must be {}", kind_name(spec.kind))));
        }
        let full = format!("{section}.{k}");
        if values.insert(full, (value, n)).is_some() {
            return Err(err(n, format!("{k} is given twice")));
        }
    }
    Ok(Raw { values })
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

fn s(raw: &Raw, sec: &str, k: &str) -> String {
    match raw.get(sec, k).0 {
        Value::Str(s) => s,
        _ => String::new(),
    }
}

fn b(raw: &Raw, sec: &str, k: &str) -> bool {
    matches!(raw.get(sec, k).0, Value::Bool(true))
}

fn list(raw: &Raw, sec: &str, k: &str) -> Vec<String> {
    match raw.get(sec, k).0 {
        Value::List(items) => items
            .into_iter()
            .filter_map(|v| match v {
                Value::Str(s) => Some(s),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn int(raw: &Raw, sec: &str, k: &str, lo: i64, hi: i64) -> Result<i64, ConfigError> {
    let (v, line) = raw.get(sec, k);
    let n = match v {
        Value::Int(n) => n,
        _ => 0,
    };
    if n < lo || n > hi {
        return Err(err(
            line,
            format!("{k} must be between {lo} and {hi}, not {n}"),
        ));
    }
    Ok(n)
}

fn uint(raw: &Raw, sec: &str, k: &str, hi: i64) -> Result<u64, ConfigError> {
    // int() has checked the range, so the value is not negative.
    int(raw, sec, k, 0, hi).map(|n| n.unsigned_abs())
}

fn choice<T: Copy>(raw: &Raw, sec: &str, k: &str, options: &[(&str, T)]) -> Result<T, ConfigError> {
    let (v, line) = raw.get(sec, k);
    let text = match v {
        Value::Str(s) => s,
        _ => String::new(),
    };
    options
        .iter()
        .find(|(name, _)| *name == text)
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
            err(
                line,
                format!("{k} must be one of {}, not \"{text}\"", names.join(", ")),
            )
        })
}

/// Parses and checks the whole file.
pub fn parse(text: &str) -> Result<Config, ConfigError> {
    let raw = parse_raw(text)?;
    let handle = s(&raw, "server", "handle");
    if handle.is_empty() || !handle.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(err(
            raw.get("server", "handle").1,
            "handle must be letters and digits",
        ));
    }
    let mut engine_options = Vec::new();
    let (_, opt_line) = raw.get("engine", "options");
    for o in list(&raw, "engine", "options") {
        let Some((n, v)) = o.split_once('=') else {
            return Err(err(opt_line, format!("option \"{o}\" is not Name=value")));
        };
        engine_options.push((n.trim().to_string(), v.trim().to_string()));
    }
    for (sec, k) in [("server", "setup"), ("games", "seeks")] {
        let (_, line) = raw.get(sec, k);
        if list(&raw, sec, k).iter().any(|c| c.contains(['\n', '\r'])) {
            return Err(err(
                line,
                format!("{k}: a command may not hold a line break"),
            ));
        }
    }
    let cfg = Config {
        host: s(&raw, "server", "host"),
        port: u16::try_from(int(&raw, "server", "port", 1, 65535)?).unwrap_or(5000),
        password: s(&raw, "server", "password"),
        timeseal: b(&raw, "server", "timeseal"),
        prompt: s(&raw, "server", "prompt"),
        keepalive_s: uint(&raw, "server", "keepalive_s", 3600)?,
        reconnect_min_s: uint(&raw, "server", "reconnect_min_s", 3600)?,
        reconnect_max_s: uint(&raw, "server", "reconnect_max_s", 86400)?,
        reconnect_tries: uint(&raw, "server", "reconnect_tries", 1_000_000)?,
        setup: list(&raw, "server", "setup"),
        engine_command: s(&raw, "engine", "command"),
        protocol: choice(
            &raw,
            "engine",
            "protocol",
            &[
                ("uci", EngineProtocol::Uci),
                ("xboard", EngineProtocol::Xboard),
            ],
        )?,
        engine_options,
        movetime_ms: uint(&raw, "engine", "movetime_ms", 3_600_000)?,
        lag_margin_ms: uint(&raw, "engine", "lag_margin_ms", 60_000)?,
        min_think_ms: uint(&raw, "engine", "min_think_ms", 60_000)?,
        seeks: list(&raw, "games", "seeks"),
        accept_challenges: b(&raw, "games", "accept_challenges"),
        base_min: (
            uint(&raw, "games", "min_base_min", 10_000)?,
            uint(&raw, "games", "max_base_min", 10_000)?,
        ),
        inc_s: (
            uint(&raw, "games", "min_inc_s", 10_000)?,
            uint(&raw, "games", "max_inc_s", 10_000)?,
        ),
        rated: choice(
            &raw,
            "games",
            "rated",
            &[
                ("any", RatedFilter::Any),
                ("rated", RatedFilter::Rated),
                ("unrated", RatedFilter::Unrated),
            ],
        )?,
        allow: list(&raw, "games", "allow"),
        deny: list(&raw, "games", "deny"),
        max_consecutive: uint(&raw, "games", "max_consecutive", 1_000_000)?,
        max_games: uint(&raw, "games", "max_games", 1_000_000_000)?,
        draw_accept_cp: int(&raw, "play", "draw_accept_cp", -100_000, 100_000)?,
        draw_min_moves: uint(&raw, "play", "draw_min_moves", 10_000)?,
        resign_cp: int(&raw, "play", "resign_cp", 0, 100_000)?,
        accept_abort: b(&raw, "play", "accept_abort"),
        accept_adjourn: b(&raw, "play", "accept_adjourn"),
        accept_takeback: b(&raw, "play", "accept_takeback"),
        flag: b(&raw, "play", "flag"),
        report: choice(
            &raw,
            "play",
            "report",
            &[
                ("whisper", Report::Whisper),
                ("kibitz", Report::Kibitz),
                ("none", Report::None),
            ],
        )?,
        owner: s(&raw, "owner", "handle"),
        pgn_dir: s(&raw, "log", "pgn_dir"),
        wire_log: s(&raw, "log", "wire_log"),
        verbose: b(&raw, "log", "verbose"),
        handle,
    };
    if cfg.base_min.0 > cfg.base_min.1 || cfg.inc_s.0 > cfg.inc_s.1 {
        return Err(err(0, "a [games] minimum is above its maximum"));
    }
    if cfg.reconnect_min_s > cfg.reconnect_max_s {
        return Err(err(0, "reconnect_min_s is above reconnect_max_s"));
    }
    if cfg.pgn_dir.is_empty() {
        return Err(err(raw.get("log", "pgn_dir").1, "pgn_dir may not be empty"));
    }
    Ok(cfg)
}

impl Config {
    /// Whether a challenge passes the filters: standard chess with a clock, time control
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
        self.accept_challenges
            && ["blitz", "lightning", "standard"].contains(&c.kind.as_str())
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
    let mut out =
        String::from("Configuration keys (TOML subset; section.key = default: meaning):\n");
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
    fn defaults_parse_and_match_their_kind() {
        for k in KEYS {
            let v = parse_value(k.default).expect(k.name);
            assert!(kind_matches(k.kind, &v), "{}", k.name);
        }
        assert!(parse("").is_ok());
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
        ];
        for (text, line) in cases {
            let e = parse(text).expect_err(text);
            assert_eq!(e.line, line, "{text}: {e}");
        }
    }
}
