//! Every configuration key, declared once: section, name, default and meaning. The defaults
//! (read as a TOML document by `config`) and `squall-ics --help` both come from this table;
//! the types live in `config`'s serde structs, which reject a key missing from either side.

/// A declared key: section, name, default (as TOML text) and its documentation.
pub struct KeySpec {
    pub section: &'static str,
    pub name: &'static str,
    pub default: &'static str,
    pub doc: &'static str,
}

const fn key(
    section: &'static str,
    name: &'static str,
    default: &'static str,
    doc: &'static str,
) -> KeySpec {
    KeySpec {
        section,
        name,
        default,
        doc,
    }
}

/// Every key the file may hold.
pub const KEYS: &[KeySpec] = &[
    key(
        "server",
        "host",
        "\"127.0.0.1\"",
        "server host name or address",
    ),
    key("server", "port", "5000", "TCP port (FICS: 5000 or 23)"),
    key(
        "server",
        "handle",
        "\"guest\"",
        "login name; \"guest\" logs in as a guest",
    ),
    key(
        "server",
        "password",
        "\"\"",
        "password of a registered handle (masked in the wire log)",
    ),
    key(
        "server",
        "timeseal",
        "false",
        "speak Timeseal v1 (lag compensation on FICS)",
    ),
    key(
        "server",
        "prompt",
        "\"fics% \"",
        "the server's prompt, stripped from lines",
    ),
    key(
        "server",
        "keepalive_s",
        "300",
        "seconds of silence before a harmless command is sent (0: never)",
    ),
    key(
        "server",
        "reconnect_min_s",
        "2",
        "first wait before reconnecting after a drop",
    ),
    key(
        "server",
        "reconnect_max_s",
        "300",
        "longest wait between reconnects (the wait doubles)",
    ),
    key(
        "server",
        "reconnect_tries",
        "0",
        "give up after this many failed reconnects in a row (0: never)",
    ),
    key(
        "server",
        "setup",
        "[]",
        "extra commands sent after login, after the built-in setup",
    ),
    key(
        "engine",
        "command",
        "\"\"",
        "engine command line; empty runs squall --uci (beside squall-ics, else on PATH)",
    ),
    key("engine", "protocol", "\"uci\"", "\"uci\" or \"xboard\""),
    key(
        "engine",
        "options",
        "[]",
        "engine options as \"Name=value\" (UCI setoption; xboard option)",
    ),
    key(
        "engine",
        "movetime_ms",
        "0",
        "fixed time per move instead of the clocks (0: use the clocks)",
    ),
    key(
        "engine",
        "lag_margin_ms",
        "500",
        "taken off our clock before the engine sees it",
    ),
    key(
        "engine",
        "min_think_ms",
        "20",
        "the least time the engine is given per move",
    ),
    key(
        "games",
        "seeks",
        "[]",
        "seeks posted after login and after each game, e.g. \"3 0 u\"",
    ),
    key(
        "games",
        "variants",
        "[\"standard\"]",
        "games played: \"standard\" chess, \"fr\" (Fischer random, the server's wild fr)",
    ),
    key(
        "games",
        "accept_challenges",
        "true",
        "accept challenges that pass the filters",
    ),
    key(
        "games",
        "min_base_min",
        "0",
        "challenge filter: least initial time (minutes)",
    ),
    key(
        "games",
        "max_base_min",
        "120",
        "challenge filter: most initial time (minutes)",
    ),
    key(
        "games",
        "min_inc_s",
        "0",
        "challenge filter: least increment (seconds)",
    ),
    key(
        "games",
        "max_inc_s",
        "60",
        "challenge filter: most increment (seconds)",
    ),
    key(
        "games",
        "rated",
        "\"any\"",
        "challenge filter: \"any\", \"rated\" or \"unrated\"",
    ),
    key(
        "games",
        "allow",
        "[]",
        "accept challenges only from these handles (empty: anyone)",
    ),
    key(
        "games",
        "deny",
        "[]",
        "never accept challenges from these handles",
    ),
    key(
        "games",
        "max_consecutive",
        "0",
        "most games in a row against one opponent (0: no limit)",
    ),
    key(
        "games",
        "max_games",
        "0",
        "log out and exit after this many games (0: run until told)",
    ),
    key(
        "play",
        "draw_accept_cp",
        "0",
        "accept a draw offer when the engine's score is at or below this (centipawns)",
    ),
    key(
        "play",
        "draw_min_moves",
        "20",
        "never accept a draw offer before this move number",
    ),
    key(
        "play",
        "resign_cp",
        "0",
        "resign after 3 scores below -resign_cp in a row (0: only when the engine resigns)",
    ),
    key(
        "play",
        "accept_abort",
        "false",
        "agree to the opponent's abort request",
    ),
    key(
        "play",
        "accept_adjourn",
        "false",
        "agree to the opponent's adjourn request",
    ),
    key(
        "play",
        "accept_takeback",
        "false",
        "agree to the opponent's takeback request",
    ),
    key(
        "play",
        "flag",
        "true",
        "call the opponent's flag when the server does not",
    ),
    key(
        "play",
        "report",
        "\"whisper\"",
        "search report after each move: \"whisper\", \"kibitz\" or \"none\"",
    ),
    key(
        "owner",
        "handle",
        "\"\"",
        "who may send tells: pause, resume, quit, status (empty: nobody)",
    ),
    key(
        "log",
        "pgn_dir",
        "\"ics-games\"",
        "folder for one PGN file per game",
    ),
    key(
        "log",
        "wire_log",
        "\"\"",
        "file for everything sent and received (password masked; empty: none)",
    ),
    key("log", "verbose", "false", "echo the wire log on stderr"),
];
