//! Perft against the reference EPD suites, to the depths that fit in about two minutes of a
//! release build on two cores. `make perft` runs every depth.

use squall::perft::{parse_perft_line, perft, perft_every_leaf, PerftCase};
use squall::Position;

/// Largest expected leaf count checked here; deeper entries belong to `make perft`. Debug
/// builds validate the whole position after every make/unmake, so they go much less deep.
const MAX_NODES: u64 = if cfg!(debug_assertions) {
    20_000
} else {
    20_000_000
};

fn cases(path: &str) -> Vec<PerftCase> {
    let text = std::fs::read_to_string(path).expect("suite file is in the repository");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| parse_perft_line(l).expect("suite line parses"))
        .collect()
}

fn check(path: &str) {
    let mut checked = 0;
    for case in cases(path) {
        let pos = Position::from_fen(&case.fen).expect("suite FEN parses");
        for &(depth, want) in case.expected.iter().filter(|(_, n)| *n <= MAX_NODES) {
            let mut p = pos.clone();
            assert_eq!(perft(&mut p, depth), want, "{} depth {depth}", case.fen);
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn perftsuite() {
    check(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../suites/perftsuite.epd"
    ));
}

#[test]
fn perft_cpw() {
    check(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../suites/perft_cpw.epd"
    ));
}

/// The every-leaf count makes every move, so it checks make/unmake and the plain legal-move
/// generator; the bulk count's own legality shortcuts (`count_legal`) must agree with it. Checked
/// at the smaller depths of every suite position (every node of a debug build is validated).
#[test]
fn every_leaf_matches_bulk_count() {
    let limit = if cfg!(debug_assertions) {
        2_000
    } else {
        200_000
    };
    for file in ["/../suites/perftsuite.epd", "/../suites/perft_cpw.epd"] {
        for case in cases(&format!("{}{file}", env!("CARGO_MANIFEST_DIR"))) {
            let pos = Position::from_fen(&case.fen).expect("suite FEN parses");
            for &(depth, want) in case.expected.iter().filter(|(_, n)| *n <= limit) {
                let mut p = pos.clone();
                assert_eq!(
                    perft_every_leaf(&mut p, depth),
                    want,
                    "{} depth {depth}",
                    case.fen
                );
                assert_eq!(
                    p.count_legal(),
                    p.legal_moves().len() as u64,
                    "{}",
                    case.fen
                );
            }
        }
    }
}
