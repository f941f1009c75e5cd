//! Runs `squall-ics` as a child process against a `FakeServer`, with a generated
//! configuration, and collects its exit code, stderr, PGN files and wire log.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::FakeServer;

// The engine tests' scratch folder, one file shared by path across the two crates' tests.
#[path = "../../../engine/tests/common/scratch.rs"]
mod scratch;
pub use scratch::Scratch;

pub struct Run {
    pub code: Option<i32>,
    pub stderr: String,
    pub pgns: Vec<String>,
    pub wire: String,
    pub dir: Scratch,
}

/// A fresh `squall-ics-NAME-PID` folder, removed when the returned guard drops.
pub fn temp_dir(name: &str) -> Scratch {
    Scratch::new(&format!("ics-{name}"))
}

/// Runs the bot with `extra` appended to a base configuration until it exits or `limit`.
pub fn run_bot(name: &str, server: &FakeServer, extra: &str, limit: Duration) -> Run {
    run_bot_watched(name, server, extra, limit, &mut |_| {})
}

/// `run_bot` against any server on loopback at `port` (the relay, say).
pub fn run_bot_on(name: &str, port: u16, extra: &str, limit: Duration) -> Run {
    run_bot_at(name, port, extra, limit, &mut |_| {})
}

/// `run_bot`, calling `watch` with the bot's process id every 20 ms while it runs.
pub fn run_bot_watched(
    name: &str,
    server: &FakeServer,
    extra: &str,
    limit: Duration,
    watch: &mut dyn FnMut(u32),
) -> Run {
    run_bot_at(name, server.port, extra, limit, watch)
}

fn run_bot_at(
    name: &str,
    port: u16,
    extra: &str,
    limit: Duration,
    watch: &mut dyn FnMut(u32),
) -> Run {
    let dir = temp_dir(name);
    let exe = engine_exe();
    let bot = env!("CARGO_BIN_EXE_squall-ics");
    let pgn_dir = dir.join("games");
    let wire = dir.join("wire.log");
    let cfg = format!(
        "[server]\nhost = \"127.0.0.1\"\nport = {}\nreconnect_min_s = 0\nreconnect_max_s = 1\n\
         reconnect_tries = 3\n{extra_server}\n[engine]\n{engine}\n\
         movetime_ms = {movetime}\noptions = [\"Hash=4\"]\n[games]\nmax_games = {games}\n{games_extra}\n\
         [play]\n{play}\n[owner]\nhandle = \"Boss\"\n[log]\npgn_dir = \"{}\"\nwire_log = \"{}\"\n",
        port,
        pgn_dir.display(),
        wire.display(),
        extra_server = section(extra, "server"),
        engine = match section(extra, "engine") {
            e if e.trim().is_empty() => format!("command = \"\\\"{exe}\\\" --uci\""),
            e => e.replace("EXE", &exe),
        },
        movetime = section(extra, "movetime").trim().parse::<u64>().unwrap_or(15),
        games = section(extra, "games_n").trim().parse::<u64>().unwrap_or(1),
        games_extra = section(extra, "games"),
        play = section(extra, "play"),
    );
    let path = dir.join("bot.toml");
    std::fs::write(&path, cfg).expect("write config");
    let mut child = Command::new(bot)
        .arg("--config")
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start squall-ics");
    let start = Instant::now();
    let code = loop {
        if let Ok(Some(st)) = child.try_wait() {
            break st.code();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        watch(child.id());
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        use std::io::Read;
        let _ = e.read_to_string(&mut stderr);
    }
    let mut pgns: Vec<(PathBuf, String)> = std::fs::read_dir(&pgn_dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
                .map(|p| (p.clone(), std::fs::read_to_string(&p).unwrap_or_default()))
                .collect()
        })
        .unwrap_or_default();
    pgns.sort();
    Run {
        code,
        stderr,
        pgns: pgns.into_iter().map(|p| p.1).collect(),
        wire: std::fs::read_to_string(&wire).unwrap_or_default(),
        dir,
    }
}

/// `extra` holds `#name` blocks: the lines after `#name` up to the next `#`.
pub fn section(extra: &str, name: &str) -> String {
    let mut out = String::new();
    let mut on = false;
    for l in extra.lines() {
        if let Some(n) = l.strip_prefix('#') {
            on = n.trim() == name;
            continue;
        }
        if on {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

/// The engine binary the bot drives: `squall`, built beside `squall-ics` in the same target
/// folder (the workspace's `cargo test` builds both).
pub fn engine_exe() -> String {
    let bot = std::path::Path::new(env!("CARGO_BIN_EXE_squall-ics"));
    let exe = bot.with_file_name(format!("squall{}", std::env::consts::EXE_SUFFIX));
    assert!(
        exe.exists(),
        "{} not found: build the engine too (cargo build --workspace, or cargo test --workspace)",
        exe.display()
    );
    exe.display().to_string()
}
