//! The README stays a guide: at most 260 lines, and its architecture table names every folder
//! and top-level module of each crate's `src/` (`engine/src/`, `bot/src/`, `lab/src/`).
//!
//! A row of that table starts with its path in backticks: `` | `engine/src/search/` | ... ``
//! for a folder (trailing slash), `` | `engine/src/bench.rs` | ... `` for a top-level file.
//! Files inside the folders are not checked, so moving code within a folder needs no README
//! change; adding, removing or renaming a folder or a top-level module does.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

const CRATES: [&str; 3] = ["engine", "bot", "lab"];
const MAX_LINES: usize = 260;

fn repo_root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).to_path_buf()
}

fn readme() -> String {
    let path = repo_root().join("README.md");
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The paths in the first column of the table under `## Architecture`.
fn table_paths(readme: &str) -> BTreeSet<String> {
    let mut in_section = false;
    let mut paths = BTreeSet::new();
    for line in readme.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            in_section = heading.trim() == "Architecture";
            continue;
        }
        if !in_section || !line.starts_with('|') {
            continue;
        }
        let first = line[1..].split('|').next().unwrap_or("");
        // Every backticked word of the first cell (normally one).
        for (i, part) in first.split('`').enumerate() {
            if i % 2 == 1 && !part.trim().is_empty() {
                paths.insert(part.trim().to_string());
            }
        }
    }
    paths
}

/// `CRATE/src/DIR/` for each folder and `CRATE/src/FILE.rs` for each top-level Rust file.
fn source_entries() -> BTreeSet<String> {
    let mut entries = BTreeSet::new();
    for krate in CRATES {
        let src = repo_root().join(krate).join("src");
        let dir = fs::read_dir(&src).unwrap_or_else(|e| panic!("{}: {e}", src.display()));
        for entry in dir {
            let entry = entry.expect("directory entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            let kind = entry.file_type().expect("file type");
            if kind.is_dir() {
                entries.insert(format!("{krate}/src/{name}/"));
            } else if name.ends_with(".rs") {
                entries.insert(format!("{krate}/src/{name}"));
            }
        }
    }
    entries
}

#[test]
fn readme_is_short() {
    let lines = readme().lines().count();
    assert!(
        lines <= MAX_LINES,
        "README.md has {lines} lines, at most {MAX_LINES}: move detail into docs/"
    );
}

#[test]
fn architecture_table_names_every_source_folder_and_module() {
    let table = table_paths(&readme());
    assert!(
        !table.is_empty(),
        "README.md has no `## Architecture` table with backticked paths in its first column"
    );
    let missing: Vec<String> = source_entries()
        .into_iter()
        .filter(|e| !table.contains(e))
        .collect();
    assert!(
        missing.is_empty(),
        "README.md's architecture table lacks a row for: {} (one row each, the path in backticks first)",
        missing.join(", ")
    );
}

#[test]
fn architecture_table_names_no_missing_source_path() {
    let root = repo_root();
    let stale: Vec<String> = table_paths(&readme())
        .into_iter()
        .filter(|p| CRATES.iter().any(|k| p.starts_with(&format!("{k}/src/"))))
        .filter(|p| !root.join(p).exists())
        .collect();
    assert!(
        stale.is_empty(),
        "README.md's architecture table names paths that do not exist: {}",
        stale.join(", ")
    );
}
