//! The CECP features xboard's zippy mode relies on when Squall plays on a server through
//! `xboard -ics -zp`: `feature ics=1 name=1`, `ics HOST` switching the ICS mode on and
//! `ics -` off, `name` accepted, and in ICS mode one `tellothers` line (zippy whispers it)
//! after each move, never in local mode.

mod common;

use common::{secs, Engine};

fn xboard() -> Engine {
    let mut e = Engine::start(&[]);
    e.send("xboard");
    e.send("protover 2");
    let lines = e.until(|l| l.contains("done=1"), secs(5.0));
    let features = lines.join(" ");
    assert!(
        features.contains("ics=1") && features.contains("name=1"),
        "{features}"
    );
    e.send("memory 16");
    e
}

#[test]
fn tellothers_only_in_ics_mode() {
    let mut e = xboard();
    e.send_all(&[
        "ics freechess.org",
        "new",
        "name Some Opponent",
        "rating 1500 1400",
        "sd 2",
    ]);
    e.send("usermove e2e4");
    let lines = e.until(|l| l.starts_with("tellothers "), secs(10.0));
    let moved = lines.iter().position(|l| l.starts_with("move "));
    let told = lines.iter().position(|l| l.starts_with("tellothers "));
    assert!(moved.is_some() && told > moved, "{lines:?}");
    let tell = lines.last().cloned().unwrap_or_default();
    assert!(tell.contains("depth") && !tell.contains('\n'), "{tell}");

    e.send_all(&["ics -", "new", "sd 2", "usermove d2d4"]);
    let lines = e.until(|l| l.starts_with("move "), secs(10.0));
    let after = e.collect_for(secs(0.3));
    assert!(
        !lines
            .iter()
            .chain(after.iter())
            .any(|l| l.starts_with("tellothers")),
        "tellothers in local mode: {lines:?} {after:?}"
    );
    e.quit_within(secs(5.0));
}
