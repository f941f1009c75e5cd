//! `squall datagen`: the same seed writes the same file, whatever the thread count; a run on
//! a file that a killed run left half written drops the partial game and finishes the same
//! file; every written line is a quiet labelled position.

use std::path::Path;
use std::process::Command;

const OPENINGS: &str = "[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Result \"*\"]\n\n1. d4 d5 2. c4 e6 *\n\n[Result \"*\"]\n\n1. c4 Nf6 2. Nc3 g6 *\n";

fn datagen(out: &Path, openings: &Path, games: usize, threads: usize) {
    let run = Command::new(env!("CARGO_BIN_EXE_squall-lab"))
        .args(["datagen", "--nodes", "400", "--seed", "7", "--hash", "1"])
        .args([
            "--games",
            &games.to_string(),
            "--threads",
            &threads.to_string(),
        ])
        .arg("--openings")
        .arg(openings)
        .arg("-o")
        .arg(out)
        .output()
        .expect("run squall datagen");
    assert!(
        run.status.success(),
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
}

#[test]
fn same_seed_same_file_and_resume_after_a_kill() {
    let dir = std::env::temp_dir().join(format!("squall-datagen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let openings = dir.join("openings.pgn");
    std::fs::write(&openings, OPENINGS).expect("openings");
    let (a, b, c) = (dir.join("a.epd"), dir.join("b.epd"), dir.join("c.epd"));
    datagen(&a, &openings, 4, 2);
    datagen(&b, &openings, 4, 1);
    let first = std::fs::read_to_string(&a).expect("a");
    assert_eq!(first, std::fs::read_to_string(&b).expect("b"));
    assert!(first.ends_with("# game 4\n"), "{first}");

    // Two games, then a half-written third as a killed run leaves it; resuming to four games
    // gives the same file.
    datagen(&c, &openings, 2, 2);
    let mut partial = std::fs::read_to_string(&c).expect("c");
    partial.push_str("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1-");
    std::fs::write(&c, partial).expect("c");
    datagen(&c, &openings, 4, 2);
    assert_eq!(first, std::fs::read_to_string(&c).expect("c"));

    let mut positions = 0;
    for line in first.lines().filter(|l| !l.starts_with('#')) {
        let (fen, labels) = line.split_once(" c9 ").expect("labelled");
        let (label, score) = labels.split_once(" ce ").expect("a search score");
        assert!(
            ["\"1-0\";", "\"0-1\";", "\"1/2-1/2\";"].contains(&label),
            "{line}"
        );
        let score: i32 = score.trim_end_matches(';').parse().expect("centipawns");
        assert!(score.abs() < squall::search::MATE_BOUND, "{line}");
        assert!(
            squall_lab::tune::data::parse_score(line).is_some(),
            "{line}"
        );
        let pos = squall::Position::from_fen(&format!("{fen} 0 1")).expect("FEN");
        assert!(squall_lab::extract::is_quiet(&pos), "{line}");
        positions += 1;
    }
    assert!(positions > 20, "{positions}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Chess960 starts from an EPD file (the perft table's first lines, EPD operations after the
/// FEN): the games play, and every written line reads back as a labelled position.
#[test]
fn chess960_starts_from_an_epd_file() {
    let dir = std::env::temp_dir().join(format!("squall-datagen960-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let openings = dir.join("starts.epd");
    std::fs::write(
        &openings,
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 ;D1 20 ;D2 400\n\
         # a comment line\n\
         rkrqbbnn/pppppppp/8/8/8/8/PPPPPPPP/RKRQBBNN w CAca - 0 1 ;D1 20\n",
    )
    .expect("openings");
    let out = dir.join("a.epd");
    datagen(&out, &openings, 2, 1);
    let text = std::fs::read_to_string(&out).expect("a");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines.len() > 10, "{text}");
    for line in lines {
        assert!(squall_lab::tune::data::parse_line(line).is_some(), "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
