//! A scratch folder for a test, removed when dropped. Shared by the engine's tests (`common`)
//! and the ICS bot's (`bot/tests/ics_fake/harness.rs` includes this file by path), which live
//! in two crates with no module in common.

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A scratch folder in the system's temp folder, named by the test and the process, and removed
/// when dropped (also when a failing assertion unwinds), so test runs leave nothing behind.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("squall-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("create a scratch folder");
        Scratch(d)
    }
}

impl Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
