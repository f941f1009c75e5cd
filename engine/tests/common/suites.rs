//! Positions from the repository's EPD suites, for tests that need many real ones.

use squall::Position;

/// The board of every line of each file under `suites/` (e.g. `"wac.epd"`) that has one; a
/// missing file panics, since a test that silently checks nothing is worse.
pub fn suite_boards(files: &[&str]) -> Vec<Position> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../suites/");
    files
        .iter()
        .flat_map(|f| {
            let path = format!("{root}{f}");
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            squall::epd::boards(&text)
        })
        .collect()
}
