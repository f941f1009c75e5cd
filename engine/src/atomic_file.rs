//! Files that matter (books, learning, tuned weights, game records, training data) are replaced
//! atomically: written whole beside the target under a temporary name, flushed to disk, then
//! renamed over it, so a reader, a crash or `kill -9` sees either the old file or the new one,
//! never a torn one.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Replaces `path` with `bytes` (temporary file, fsync, rename, folder sync).
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temp_path(path);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        commit(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// The temporary name a streaming writer fills before [`commit`]: beside the target, so the
/// rename stays on one file system, and carrying the process id, so two engines that update
/// one file never share a temporary file.
pub fn temp_path(path: &Path) -> PathBuf {
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "squall".into());
    folder(path).join(format!(".{file_name}.{}.tmp", std::process::id()))
}

/// The folder holding `path` (`.` for a bare file name).
fn folder(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Renames a finished, flushed temporary file over `path`, then flushes the folder so the
/// rename itself survives a power cut. The caller removes `tmp` if this fails.
pub fn commit(tmp: &Path, path: &Path) -> std::io::Result<()> {
    std::fs::rename(tmp, path)?;
    if let Ok(d) = std::fs::File::open(folder(path)) {
        // Not every platform can sync a folder; the rename is done either way.
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_whole_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("squall-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f.bin");
        write(&path, b"old").unwrap();
        write(&path, b"new contents").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new contents");
        assert!(!temp_path(&path).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
