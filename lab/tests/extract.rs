//! `squall-lab extract`: extraction is reproducible, keeps only quiet positions, and labels
//! them with the game's result (on the PGN reader's fixture, `engine/tests/data/awkward.pgn`).

use std::io::Cursor;
use std::path::PathBuf;

use squall::pgn::{Game, GameResult, PgnError, PgnReader};
use squall::Position;
use squall_lab::extract::{extract, is_quiet, ExtractArgs};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../engine/tests/data/awkward.pgn"
);

fn fixture() -> Vec<u8> {
    std::fs::read(FIXTURE).expect("fixture")
}

fn read_all(bytes: &[u8]) -> Vec<Result<Game, PgnError>> {
    PgnReader::new(Cursor::new(bytes), "awkward.pgn").collect()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("squall-pgn-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn run_extract(dir: &std::path::Path, name: &str, args: impl Fn(&mut ExtractArgs)) -> String {
    let mut a = ExtractArgs {
        files: vec![PathBuf::from(FIXTURE)],
        output: dir.join(name),
        skip_plies: 16,
        per_game: 5,
        seed: 1,
        min_elo: None,
    };
    args(&mut a);
    let mut log = Vec::new();
    extract(&a, &mut log).expect("extract");
    std::fs::read_to_string(&a.output).expect("output")
}

#[test]
fn extract_is_reproducible_quiet_and_labelled() {
    let dir = temp_dir("extract");
    let a = run_extract(&dir, "a.epd", |a| {
        a.skip_plies = 4;
        a.per_game = 2;
        a.seed = 7;
    });
    let b = run_extract(&dir, "b.epd", |a| {
        a.skip_plies = 4;
        a.per_game = 2;
        a.seed = 7;
    });
    assert_eq!(a, b);
    assert!(!a.is_empty());
    // Only the two outputs: the temporary files were renamed.
    assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 2);

    // Every quiet position of every game with a result, in order, with the game's label.
    let all = run_extract(&dir, "all.epd", |a| {
        a.skip_plies = 0;
        a.per_game = 1000;
    });
    let mut expected = String::new();
    for item in read_all(&fixture()) {
        let Ok(g) = item else { continue };
        if g.result == GameResult::Unknown {
            continue;
        }
        let mut pos = g.start.clone();
        for ply in 0..=g.moves.len() {
            if is_quiet(&pos) {
                let fen = pos.to_fen();
                let four: Vec<&str> = fen.split(' ').take(4).collect();
                expected.push_str(&format!("{} c9 \"{}\";\n", four.join(" "), g.result));
            }
            if let Some(&m) = g.moves.get(ply) {
                pos.make(m);
            }
        }
    }
    assert_eq!(all, expected);
    for line in a.lines() {
        assert!(
            all.lines().any(|l| l == line),
            "{line} is not a quiet position"
        );
        let fen = line.split(" c9 ").next().expect("fen");
        let pos = Position::from_fen(fen).expect("valid FEN");
        assert!(is_quiet(&pos) && !pos.in_check());
    }
    // The mated position after 2... Qh4# is in check: never written.
    assert!(!all.contains("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w"));

    let none = run_extract(&dir, "elo.epd", |a| a.min_elo = Some(2000));
    assert!(none.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
