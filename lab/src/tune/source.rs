//! Writes weights as the Rust source of the built-in table (`src/eval/weights.rs`), so tuned
//! values are regenerated, never copied by hand.

use std::fmt::Write;

use squall::eval::params::{Params, FIELD_LENS};
use squall::eval::score::Score;

/// Table entries per source line.
const PER_LINE: usize = 8;

/// The whole `weights.rs` for `p`; `header` lines become the module comment after the
/// standard first line.
pub fn weights_source(p: &Params, header: &[String]) -> String {
    let values = p.values();
    let mut out = String::new();
    out.push_str(
        "//! The built-in evaluation weights, written by `squall tune --out` (regenerate them;\n",
    );
    out.push_str(
        "//! do not edit by hand). What each weight means is documented in `params.rs`; square\n",
    );
    out.push_str("//! tables run a1..h8 from the owner's side, one rank per line.\n");
    for line in header {
        let _ = writeln!(out, "//! {line}");
    }
    out.push_str("\nuse super::params::Params;\nuse super::score::s;\n\n");
    out.push_str("#[rustfmt::skip]\npub const DEFAULT_PARAMS: Params = Params {\n");
    let mut at = 0;
    for (name, &len) in Params::FIELDS.iter().zip(FIELD_LENS) {
        let slots = &values[at..at + len];
        at += len;
        if len == 1 && !is_table(name) {
            let _ = writeln!(out, "    {name}: {},", score(slots[0]));
            continue;
        }
        let _ = writeln!(out, "    {name}: [");
        for row in slots.chunks(PER_LINE) {
            let cells: Vec<String> = row.iter().map(|&v| score(v)).collect();
            let _ = writeln!(out, "        {},", cells.join(", "));
        }
        out.push_str("    ],\n");
    }
    out.push_str("};\n");
    out
}

/// Every field with one score is a single `Score`, except tables declared with one entry
/// (none now); the names of `Params` say which (`name[0]` for tables).
fn is_table(name: &str) -> bool {
    Params::default()
        .names()
        .iter()
        .any(|n| n.starts_with(name) && n[name.len()..].starts_with('['))
}

fn score(v: Score) -> String {
    format!("s({}, {})", v.mg(), v.eg())
}

#[cfg(test)]
mod tests {
    use super::*;
    use squall::eval::params::DEFAULT_PARAMS;

    /// The checked-in table is what the writer gives for the built-in weights (header aside),
    /// so `--out` regenerates it faithfully.
    #[test]
    fn writer_reproduces_the_built_in_table() {
        let strip = |t: &str| -> String {
            t.lines()
                .filter(|l| !l.starts_with("//!"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let written = weights_source(&DEFAULT_PARAMS, &[]);
        let file = include_str!("../../../engine/src/eval/weights.rs");
        assert_eq!(strip(&written), strip(file));
    }
}
