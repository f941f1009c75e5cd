//! The option registry: one table of engine options (name, kind, default, range and the hook
//! that applies a value), rendered by each protocol — UCI `option name ...`, CECP
//! `feature option="..."` and the console's `set`. Values land in `Settings`, which the worker
//! hands to the engine before each search (and at once when it is idle).

use std::fmt;

use crate::book::{BookSettings, Variety, MAX_BOOK_DEPTH};
use crate::search::strength::{DEFAULT_ELO, MAX_ELO, MIN_ELO};
use crate::search::time::DEFAULT_MOVE_OVERHEAD_MS;
use crate::search::tt::{DEFAULT_HASH_MB, MAX_HASH_MB};

/// Most search threads the option accepts.
pub const MAX_THREADS: i64 = crate::search::MAX_THREADS as i64;

/// A command line's `--threads N` checked against the range the Threads option accepts.
pub fn check_threads(threads: usize) -> Result<usize, String> {
    let max = MAX_THREADS as usize;
    if (1..=max).contains(&threads) {
        Ok(threads)
    } else {
        Err(format!("--threads must be 1 to {max}"))
    }
}
/// Most principal variations reported at once.
pub const MAX_MULTIPV: i64 = 256;
/// Largest move overhead, milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: i64 = 5000;
/// Largest contempt either way, pseudo-Elo.
pub const MAX_CONTEMPT: i64 = 1000;
/// Largest `Strength Seed` (GUIs keep spin values in 32 bits).
pub const MAX_STRENGTH_SEED: i64 = i32::MAX as i64;

/// Everything the options control, as the protocols keep it between searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub hash_mb: usize,
    pub threads: usize,
    pub ponder: bool,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub show_wdl: bool,
    /// Pseudo-Elo by which the engine expects to outscore its opponent (`Contempt`).
    pub contempt: i32,
    pub analyse_mode: bool,
    /// `UCI_Chess960`: castling as king takes rook, Chess960 FENs accepted.
    pub chess960: bool,
    /// `Clear Hash` was pressed (or a new game began): clear before the next search.
    pub clear_pending: bool,
    /// `OwnBook`, `Book File`, `Book Depth`, `Book Variety`, `Book Learning`.
    pub book: BookSettings,
    /// `UCI_LimitStrength`: play at `elo` rather than full strength.
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub elo: u32,
    /// `Strength Seed`: the strength limit's random choices (0: from the clock).
    pub strength_seed: u64,
    /// `SyzygyPath`: directories of Syzygy tables (empty: none).
    pub syzygy_path: String,
    /// `SyzygyProbeDepth`, `SyzygyProbeLimit`, `Syzygy50MoveRule`.
    pub syzygy_probe_depth: i32,
    pub syzygy_probe_limit: usize,
    pub syzygy_50_move_rule: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            ponder: false,
            multipv: 1,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            show_wdl: false,
            contempt: 0,
            analyse_mode: false,
            chess960: false,
            clear_pending: false,
            book: BookSettings::default(),
            limit_strength: false,
            elo: DEFAULT_ELO,
            strength_seed: 0,
            syzygy_path: String::new(),
            syzygy_probe_depth: 1,
            syzygy_probe_limit: 7,
            syzygy_50_move_rule: true,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Check,
    Spin {
        min: i64,
        max: i64,
    },
    Button,
    /// Free text (a file name): UCI `string`, CECP `-file`.
    Text,
    /// One of a fixed list of words.
    Combo(&'static [&'static str]),
}

/// A parsed option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Press,
    Text(String),
}

/// One registry entry.
#[derive(Clone, Copy)]
pub struct Spec {
    pub name: &'static str,
    pub kind: Kind,
    /// Default in the protocols' text form (`true`, `64`; empty for buttons).
    pub default: &'static str,
    /// Rendered as a CECP `feature option`; false where CECP has a command of its own
    /// (`memory`, `cores`, `hard`/`easy`) or the option is UCI-only.
    pub cecp: bool,
    pub apply: fn(&mut Settings, &Value),
}

fn int(v: &Value) -> i64 {
    match v {
        Value::Int(n) => *n,
        Value::Bool(b) => *b as i64,
        Value::Press | Value::Text(_) => 0,
    }
}

fn text(v: &Value) -> String {
    match v {
        Value::Text(t) => t.clone(),
        _ => String::new(),
    }
}

fn flag(v: &Value) -> bool {
    matches!(v, Value::Bool(true))
}

/// The engine's options. Under the `tune` feature `REGISTRY` also lists the search's tunables
/// after these (see `tuned`).
#[cfg(not(feature = "tune"))]
pub static REGISTRY: &[Spec] = BASE;

const BASE: &[Spec] = &[
    Spec {
        name: "Hash",
        kind: Kind::Spin {
            min: 1,
            max: MAX_HASH_MB as i64,
        },
        default: "64",
        cecp: false,
        apply: |s, v| s.hash_mb = int(v) as usize,
    },
    Spec {
        name: "Clear Hash",
        kind: Kind::Button,
        default: "",
        cecp: true,
        apply: |s, _| s.clear_pending = true,
    },
    Spec {
        name: "Threads",
        kind: Kind::Spin {
            min: 1,
            max: MAX_THREADS,
        },
        default: "1",
        cecp: false,
        apply: |s, v| s.threads = int(v) as usize,
    },
    Spec {
        name: "Ponder",
        kind: Kind::Check,
        default: "false",
        cecp: false,
        apply: |s, v| s.ponder = flag(v),
    },
    Spec {
        name: "MultiPV",
        kind: Kind::Spin {
            min: 1,
            max: MAX_MULTIPV,
        },
        default: "1",
        cecp: true,
        apply: |s, v| s.multipv = int(v) as usize,
    },
    Spec {
        name: "Move Overhead",
        kind: Kind::Spin {
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS,
        },
        default: "30",
        cecp: true,
        apply: |s, v| s.move_overhead_ms = int(v) as u64,
    },
    Spec {
        name: "UCI_ShowWDL",
        kind: Kind::Check,
        default: "false",
        cecp: false,
        apply: |s, v| s.show_wdl = flag(v),
    },
    Spec {
        name: "Contempt",
        kind: Kind::Spin {
            min: -MAX_CONTEMPT,
            max: MAX_CONTEMPT,
        },
        default: "0",
        cecp: true,
        apply: |s, v| s.contempt = int(v) as i32,
    },
    Spec {
        name: "UCI_AnalyseMode",
        kind: Kind::Check,
        default: "false",
        cecp: false,
        apply: |s, v| s.analyse_mode = flag(v),
    },
    Spec {
        name: "UCI_Chess960",
        kind: Kind::Check,
        default: "false",
        cecp: false,
        apply: |s, v| s.chess960 = flag(v),
    },
    Spec {
        name: "OwnBook",
        kind: Kind::Check,
        default: "true",
        cecp: true,
        apply: |s, v| s.book.own_book = flag(v),
    },
    Spec {
        name: "Book File",
        kind: Kind::Text,
        default: crate::book::DEFAULT_BOOK,
        cecp: true,
        apply: |s, v| s.book.file = text(v),
    },
    Spec {
        name: "Book Depth",
        kind: Kind::Spin {
            min: 1,
            max: MAX_BOOK_DEPTH,
        },
        default: "40",
        cecp: true,
        apply: |s, v| s.book.depth = int(v) as u32,
    },
    Spec {
        name: "Book Variety",
        kind: Kind::Combo(Variety::NAMES),
        default: "weighted",
        cecp: true,
        apply: |s, v| s.book.variety = Variety::from_name(&text(v)).unwrap_or_default(),
    },
    Spec {
        name: "Book Learning",
        kind: Kind::Check,
        default: "false",
        cecp: true,
        apply: |s, v| s.book.learning = flag(v),
    },
    Spec {
        name: "UCI_LimitStrength",
        kind: Kind::Check,
        default: "false",
        cecp: true,
        apply: |s, v| s.limit_strength = flag(v),
    },
    Spec {
        name: "UCI_Elo",
        kind: Kind::Spin {
            min: MIN_ELO as i64,
            max: MAX_ELO as i64,
        },
        default: "1500",
        cecp: true,
        apply: |s, v| s.elo = int(v) as u32,
    },
    Spec {
        name: "Strength Seed",
        kind: Kind::Spin {
            min: 0,
            max: MAX_STRENGTH_SEED,
        },
        default: "0",
        cecp: true,
        apply: |s, v| s.strength_seed = int(v) as u64,
    },
    Spec {
        name: "SyzygyPath",
        kind: Kind::Text,
        // Shown as `<empty>` over UCI.
        default: "",
        cecp: true,
        apply: |s, v| s.syzygy_path = text(v),
    },
    Spec {
        name: "SyzygyProbeDepth",
        kind: Kind::Spin { min: 1, max: 100 },
        default: "1",
        cecp: true,
        apply: |s, v| s.syzygy_probe_depth = int(v) as i32,
    },
    Spec {
        name: "SyzygyProbeLimit",
        kind: Kind::Spin { min: 0, max: 7 },
        default: "7",
        cecp: true,
        apply: |s, v| s.syzygy_probe_limit = int(v) as usize,
    },
    Spec {
        name: "Syzygy50MoveRule",
        kind: Kind::Check,
        default: "true",
        cecp: true,
        apply: |s, v| s.syzygy_50_move_rule = flag(v),
    },
];

/// The registry under the `tune` feature: `BASE`, then one spin option per search tunable
/// (`crate::search::tune`), named as its constant, UCI only. Their values live in the tunables
/// themselves (`set` stores them there), not in `Settings`.
#[cfg(feature = "tune")]
pub static REGISTRY: tuned::Registry = tuned::Registry;

#[cfg(feature = "tune")]
mod tuned {
    use std::sync::LazyLock;

    use super::{Kind, Spec, BASE};

    static ALL: LazyLock<Vec<Spec>> = LazyLock::new(|| {
        let tunables = crate::search::params::all().map(|t| Spec {
            name: t.name(),
            kind: Kind::Spin {
                min: t.min(),
                max: t.max(),
            },
            default: Box::leak(t.default().to_string().into_boxed_str()),
            cecp: false,
            apply: |_, _| {},
        });
        BASE.iter().copied().chain(tunables).collect()
    });

    /// Reads as the slice of every option, as `REGISTRY` does without the feature.
    #[derive(Clone, Copy)]
    pub struct Registry;

    impl std::ops::Deref for Registry {
        type Target = [Spec];
        fn deref(&self) -> &[Spec] {
            &ALL
        }
    }

    impl IntoIterator for Registry {
        type Item = &'static Spec;
        type IntoIter = std::slice::Iter<'static, Spec>;
        fn into_iter(self) -> Self::IntoIter {
            ALL.iter()
        }
    }
}

/// Why an option could not be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    MissingValue(String),
    BadValue {
        name: &'static str,
        value: String,
    },
    OutOfRange {
        name: &'static str,
        value: i64,
        min: i64,
        max: i64,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "unknown option '{n}'"),
            OptionError::MissingValue(n) => write!(f, "option '{n}' needs a value"),
            OptionError::BadValue { name, value } => {
                write!(f, "'{value}' is not a valid value for option '{name}'")
            }
            OptionError::OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(f, "{value} is outside {min}..{max} for option '{name}'"),
        }
    }
}

/// The registry entry called `name`: case-insensitive, and `_` matches a space (CECP names
/// are rendered without spaces, since some clients split option names at spaces).
pub fn find(name: &str) -> Option<&'static Spec> {
    let name = name.trim().replace('_', " ");
    REGISTRY
        .iter()
        .find(|s| s.name.replace('_', " ").eq_ignore_ascii_case(&name))
}

/// An option's name as CECP shows it (spaces as underscores).
pub fn cecp_name(spec: &Spec) -> String {
    spec.name.replace(' ', "_")
}

/// Parses `text` as a value of `spec` (`None`: no value given).
pub fn parse_value(spec: &'static Spec, text: Option<&str>) -> Result<Value, OptionError> {
    let text = text.map(str::trim).filter(|t| !t.is_empty());
    match spec.kind {
        Kind::Button => Ok(Value::Press),
        // GUIs send `<empty>` for an empty string.
        Kind::Text => Ok(Value::Text(
            text.filter(|t| *t != "<empty>").unwrap_or("").to_string(),
        )),
        Kind::Combo(words) => {
            let t = text.ok_or_else(|| OptionError::MissingValue(spec.name.to_string()))?;
            words
                .iter()
                .find(|w| w.eq_ignore_ascii_case(t))
                .map(|w| Value::Text(w.to_string()))
                .ok_or_else(|| OptionError::BadValue {
                    name: spec.name,
                    value: t.to_string(),
                })
        }
        Kind::Check => {
            let t = text.ok_or_else(|| OptionError::MissingValue(spec.name.to_string()))?;
            match t.to_ascii_lowercase().as_str() {
                "true" | "1" | "on" | "yes" => Ok(Value::Bool(true)),
                "false" | "0" | "off" | "no" => Ok(Value::Bool(false)),
                _ => Err(OptionError::BadValue {
                    name: spec.name,
                    value: t.to_string(),
                }),
            }
        }
        Kind::Spin { min, max } => {
            let t = text.ok_or_else(|| OptionError::MissingValue(spec.name.to_string()))?;
            let n: i64 = t.parse().map_err(|_| OptionError::BadValue {
                name: spec.name,
                value: t.to_string(),
            })?;
            if n < min || n > max {
                return Err(OptionError::OutOfRange {
                    name: spec.name,
                    value: n,
                    min,
                    max,
                });
            }
            Ok(Value::Int(n))
        }
    }
}

/// Sets option `name` from `value` text; on error nothing changes.
pub fn set(
    settings: &mut Settings,
    name: &str,
    value: Option<&str>,
) -> Result<&'static Spec, OptionError> {
    let spec = find(name).ok_or_else(|| OptionError::Unknown(name.trim().to_string()))?;
    let v = parse_value(spec, value)?;
    (spec.apply)(settings, &v);
    #[cfg(feature = "tune")]
    if let Some(t) = crate::search::params::find(spec.name) {
        t.set_raw(int(&v));
    }
    Ok(spec)
}

/// The current value of `spec` in `settings`, in text form.
pub fn current(spec: &Spec, s: &Settings) -> String {
    match spec.name {
        "Hash" => s.hash_mb.to_string(),
        "Threads" => s.threads.to_string(),
        "Ponder" => s.ponder.to_string(),
        "MultiPV" => s.multipv.to_string(),
        "Move Overhead" => s.move_overhead_ms.to_string(),
        "UCI_ShowWDL" => s.show_wdl.to_string(),
        "Contempt" => s.contempt.to_string(),
        "UCI_AnalyseMode" => s.analyse_mode.to_string(),
        "UCI_Chess960" => s.chess960.to_string(),
        "OwnBook" => s.book.own_book.to_string(),
        "Book File" => s.book.file.clone(),
        "Book Depth" => s.book.depth.to_string(),
        "Book Variety" => s.book.variety.name().to_string(),
        "Book Learning" => s.book.learning.to_string(),
        "UCI_LimitStrength" => s.limit_strength.to_string(),
        "UCI_Elo" => s.elo.to_string(),
        "Strength Seed" => s.strength_seed.to_string(),
        "SyzygyPath" => s.syzygy_path.clone(),
        "SyzygyProbeDepth" => s.syzygy_probe_depth.to_string(),
        "SyzygyProbeLimit" => s.syzygy_probe_limit.to_string(),
        "Syzygy50MoveRule" => s.syzygy_50_move_rule.to_string(),
        #[cfg(feature = "tune")]
        name if crate::search::params::find(name).is_some() => crate::search::params::find(name)
            .map_or(0, |t| t.raw())
            .to_string(),
        _ => String::new(),
    }
}

/// UCI: `option name Hash type spin default 64 min 1 max 65536`.
pub fn uci_line(spec: &Spec) -> String {
    match spec.kind {
        Kind::Check => format!(
            "option name {} type check default {}",
            spec.name, spec.default
        ),
        Kind::Spin { min, max } => format!(
            "option name {} type spin default {} min {min} max {max}",
            spec.name, spec.default
        ),
        Kind::Button => format!("option name {} type button", spec.name),
        Kind::Text => format!(
            "option name {} type string default {}",
            spec.name,
            if spec.default.is_empty() {
                "<empty>"
            } else {
                spec.default
            }
        ),
        Kind::Combo(words) => {
            let vars: Vec<String> = words.iter().map(|w| format!(" var {w}")).collect();
            format!(
                "option name {} type combo default {}{}",
                spec.name,
                spec.default,
                vars.concat()
            )
        }
    }
}

/// CECP: `feature option="MultiPV -spin 1 1 256"`.
pub fn cecp_feature(spec: &Spec) -> String {
    let name = cecp_name(spec);
    let body = match spec.kind {
        Kind::Check => format!(
            "{name} -check {}",
            if spec.default == "true" { 1 } else { 0 }
        ),
        Kind::Spin { min, max } => format!("{name} -spin {} {min} {max}", spec.default),
        Kind::Button => format!("{name} -button"),
        Kind::Text => format!("{name} -file {}", spec.default),
        // CECP marks the default choice with `*`.
        Kind::Combo(words) => {
            let choices: Vec<String> = words
                .iter()
                .map(|w| {
                    if *w == spec.default {
                        format!("*{w}")
                    } else {
                        w.to_string()
                    }
                })
                .collect();
            format!("{name} -combo {}", choices.join(" /// "))
        }
    };
    format!("feature option=\"{body}\"")
}

/// Console: `Hash = 64 (spin 1..65536, default 64)`.
pub fn console_line(spec: &Spec, s: &Settings) -> String {
    match spec.kind {
        Kind::Check => format!(
            "{} = {} (check, default {})",
            spec.name,
            current(spec, s),
            spec.default
        ),
        Kind::Spin { min, max } => format!(
            "{} = {} (spin {min}..{max}, default {})",
            spec.name,
            current(spec, s),
            spec.default
        ),
        Kind::Button => format!("{} (button)", spec.name),
        Kind::Text => format!(
            "{} = {} (text, default {})",
            spec.name,
            current(spec, s),
            spec.default
        ),
        Kind::Combo(words) => format!(
            "{} = {} ({}, default {})",
            spec.name,
            current(spec, s),
            words.join("/"),
            spec.default
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_settings_default() {
        let mut s = Settings::default();
        for spec in REGISTRY {
            if spec.kind != Kind::Button {
                let v = parse_value(spec, Some(spec.default)).unwrap();
                (spec.apply)(&mut s, &v);
            }
        }
        assert_eq!(s, Settings::default());
        assert_eq!(DEFAULT_HASH_MB.to_string(), find("hash").unwrap().default);
        assert_eq!(
            DEFAULT_MOVE_OVERHEAD_MS.to_string(),
            find("move overhead").unwrap().default
        );
        assert_eq!(DEFAULT_ELO.to_string(), find("UCI_Elo").unwrap().default);
    }

    #[test]
    fn strength_options() {
        let mut s = Settings::default();
        assert!(!s.limit_strength);
        for bad in ["999", "2401", "-5", "x", ""] {
            assert!(set(&mut s, "UCI_Elo", Some(bad)).is_err(), "{bad}");
        }
        assert!(matches!(
            set(&mut s, "UCI_Elo", Some("3000")),
            Err(OptionError::OutOfRange {
                min: 1000,
                max: 2400,
                ..
            })
        ));
        assert!(set(&mut s, "UCI_LimitStrength", Some("perhaps")).is_err());
        assert!(set(&mut s, "Strength Seed", Some("-1")).is_err());
        assert_eq!(s, Settings::default());
        set(&mut s, "uci_limitstrength", Some("true")).unwrap();
        set(&mut s, "UCI_Elo", Some("1900")).unwrap();
        set(&mut s, "Strength_Seed", Some("42")).unwrap();
        assert!(s.limit_strength);
        assert_eq!((s.elo, s.strength_seed), (1900, 42));
        assert_eq!(current(find("UCI_Elo").unwrap(), &s), "1900");
        assert_eq!(
            uci_line(find("UCI_Elo").unwrap()),
            "option name UCI_Elo type spin default 1500 min 1000 max 2400"
        );
        assert_eq!(
            cecp_feature(find("UCI_LimitStrength").unwrap()),
            "feature option=\"UCI_LimitStrength -check 0\""
        );
        assert_eq!(
            cecp_feature(find("UCI_Elo").unwrap()),
            "feature option=\"UCI_Elo -spin 1500 1000 2400\""
        );
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut s = Settings::default();
        assert!(matches!(
            set(&mut s, "Hash", Some("0")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(set(&mut s, "Hash", Some("x")).is_err());
        assert!(set(&mut s, "Ponder", Some("maybe")).is_err());
        assert!(set(&mut s, "Nope", Some("1")).is_err());
        assert!(set(&mut s, "MultiPV", None).is_err());
        assert_eq!(s, Settings::default());
        set(&mut s, "move overhead", Some("100")).unwrap();
        set(&mut s, "Clear Hash", None).unwrap();
        assert_eq!(s.move_overhead_ms, 100);
        assert!(s.clear_pending);
        set(&mut s, "UCI_ShowWDL", Some("true")).unwrap();
        assert!(s.show_wdl);
        let before = s.clone();
        for bad in ["1001", "-1001", "x", ""] {
            assert!(set(&mut s, "Contempt", Some(bad)).is_err(), "{bad}");
        }
        assert_eq!(s, before);
        set(&mut s, "contempt", Some("-40")).unwrap();
        assert_eq!(s.contempt, -40);
        assert_eq!(current(find("Contempt").unwrap(), &s), "-40");
    }

    #[test]
    fn renderings() {
        let h = find("Hash").unwrap();
        assert_eq!(
            uci_line(h),
            format!("option name Hash type spin default 64 min 1 max {MAX_HASH_MB}")
        );
        assert_eq!(
            uci_line(find("Contempt").unwrap()),
            "option name Contempt type spin default 0 min -1000 max 1000"
        );
        assert_eq!(
            cecp_feature(find("Contempt").unwrap()),
            "feature option=\"Contempt -spin 0 -1000 1000\""
        );
        let m = find("MultiPV").unwrap();
        assert_eq!(cecp_feature(m), "feature option=\"MultiPV -spin 1 1 256\"");
        assert_eq!(
            cecp_feature(find("Move_Overhead").unwrap()),
            "feature option=\"Move_Overhead -spin 30 0 5000\""
        );
        assert_eq!(
            uci_line(find("Clear Hash").unwrap()),
            "option name Clear Hash type button"
        );
        assert_eq!(
            uci_line(find("Book Variety").unwrap()),
            "option name Book Variety type combo default weighted var best var weighted"
        );
        assert_eq!(
            cecp_feature(find("Book_Variety").unwrap()),
            "feature option=\"Book_Variety -combo best /// *weighted\""
        );
        assert_eq!(
            cecp_feature(find("Book_File").unwrap()),
            "feature option=\"Book_File -file book/squall.bin\""
        );
        let mut s = Settings::default();
        set(&mut s, "book file", Some("<empty>")).unwrap();
        assert_eq!(s.book.file, "");
        set(&mut s, "Book Variety", Some("BEST")).unwrap();
        assert_eq!(s.book.variety, Variety::Best);
        assert!(set(&mut s, "Book Variety", Some("worst")).is_err());
        assert_eq!(
            crate::book::DEFAULT_BOOK_DEPTH.to_string(),
            find("Book Depth").unwrap().default
        );
    }
}
