//! The PolyGlot `.bin` file: 16-byte big-endian entries (key u64, move u16, weight u16, learn
//! u32) sorted by key, read whole into memory, checked on load, searched by binary search and
//! written back atomically.
//!
//! A move is `to | from << 6 | promotion << 12` with squares numbered a1 = 0 ... h8 = 63 and the
//! promotion 1 knight, 2 bishop, 3 rook, 4 queen; castling is written as the king taking its
//! own rook (e1h1, e1a1, e8h8, e8a8).

use std::fmt;
use std::path::{Path, PathBuf};

use crate::board::Position;
use crate::moves::Move;
use crate::types::{file_of, from64, rank_of, square, to64, Kind};

/// Bytes per entry.
pub const ENTRY_BYTES: usize = 16;
/// Largest book read (entries), so that a wrong file cannot ask for all the memory there is.
pub const MAX_ENTRIES: usize = 1 << 27;

/// One book entry as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Entry {
    pub key: u64,
    pub mv: u16,
    pub weight: u16,
    pub learn: u32,
}

impl Entry {
    fn from_bytes(b: &[u8]) -> Entry {
        let mut k = [0u8; 8];
        k.copy_from_slice(&b[0..8]);
        Entry {
            key: u64::from_be_bytes(k),
            mv: u16::from_be_bytes([b[8], b[9]]),
            weight: u16::from_be_bytes([b[10], b[11]]),
            learn: u32::from_be_bytes([b[12], b[13], b[14], b[15]]),
        }
    }

    fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.key.to_be_bytes());
        out.extend_from_slice(&self.mv.to_be_bytes());
        out.extend_from_slice(&self.weight.to_be_bytes());
        out.extend_from_slice(&self.learn.to_be_bytes());
    }
}

/// Why a book cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    Io {
        path: String,
        message: String,
    },
    /// The size is not a whole number of entries.
    Truncated {
        path: String,
        bytes: u64,
    },
    /// Entry `index` (0-based) has a smaller key than the one before it.
    Unsorted {
        path: String,
        index: usize,
    },
    TooLarge {
        path: String,
        bytes: u64,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io { path, message } => write!(f, "cannot read book {path}: {message}"),
            BookError::Truncated { path, bytes } => write!(
                f,
                "book {path} is truncated or not a PolyGlot book: {bytes} bytes is not a \
                 multiple of {ENTRY_BYTES}"
            ),
            BookError::Unsorted { path, index } => write!(
                f,
                "book {path} is not a PolyGlot book: keys are not sorted at entry {index}"
            ),
            BookError::TooLarge { path, bytes } => {
                write!(f, "book {path} is too large ({bytes} bytes)")
            }
        }
    }
}

impl std::error::Error for BookError {}

/// A whole book in memory.
#[derive(Clone, Debug, Default)]
pub struct Book {
    pub path: PathBuf,
    pub entries: Vec<Entry>,
}

impl Book {
    /// Reads and checks the book at `path`.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let name = path.display().to_string();
        let io = |e: std::io::Error| BookError::Io {
            path: name.clone(),
            message: e.to_string(),
        };
        let meta = std::fs::metadata(path).map_err(io)?;
        if !meta.is_file() {
            // A folder, a device such as /dev/zero, or a pipe: never read (it may not end).
            return Err(BookError::Io {
                path: name,
                message: "not a regular file".into(),
            });
        }
        if meta.len() > (MAX_ENTRIES * ENTRY_BYTES) as u64 {
            return Err(BookError::TooLarge {
                path: name,
                bytes: meta.len(),
            });
        }
        let bytes = std::fs::read(path).map_err(io)?;
        let entries = parse(&bytes, &name)?;
        Ok(Book {
            path: path.to_path_buf(),
            entries,
        })
    }

    /// The entries of the position with this key, in file order.
    pub fn entries_for(&self, key: u64) -> &[Entry] {
        let lo = self.entries.partition_point(|e| e.key < key);
        let hi = lo + self.entries[lo..].partition_point(|e| e.key == key);
        &self.entries[lo..hi]
    }

    /// Index range of the entries with this key (empty at the place they would go).
    pub fn range_for(&self, key: u64) -> std::ops::Range<usize> {
        let lo = self.entries.partition_point(|e| e.key < key);
        lo..lo + self.entries[lo..].partition_point(|e| e.key == key)
    }

    /// The entries of `pos` whose moves are legal there, with the moves decoded.
    pub fn moves(&self, pos: &Position) -> Vec<(Move, Entry)> {
        self.entries_for(super::keys::polyglot_key(pos))
            .iter()
            .filter_map(|e| decode_move(pos, e.mv).map(|m| (m, *e)))
            .collect()
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.entries.len() * ENTRY_BYTES);
        for e in &self.entries {
            e.write_to(&mut out);
        }
        out
    }

    /// Writes the book to `path` atomically.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        crate::atomic_file::write(path, &self.to_bytes())
    }
}

/// Checks and decodes a book's bytes (`name` for messages).
pub fn parse(bytes: &[u8], name: &str) -> Result<Vec<Entry>, BookError> {
    if !bytes.len().is_multiple_of(ENTRY_BYTES) {
        return Err(BookError::Truncated {
            path: name.to_string(),
            bytes: bytes.len() as u64,
        });
    }
    let entries: Vec<Entry> = bytes
        .chunks_exact(ENTRY_BYTES)
        .map(Entry::from_bytes)
        .collect();
    if let Some(i) = entries.windows(2).position(|w| w[1].key < w[0].key) {
        return Err(BookError::Unsorted {
            path: name.to_string(),
            index: i + 1,
        });
    }
    Ok(entries)
}

/// The stored form of a legal move of `pos`.
pub fn encode_move(m: Move) -> u16 {
    let from = m.from();
    let mut to = m.to();
    if m.is_castle() {
        // PolyGlot writes castling as the king taking its own rook.
        let rook_file = if file_of(to) == 6 { 7 } else { 0 };
        to = square(rook_file, rank_of(to));
    }
    let promo = if m.is_promotion() {
        match m.promotion().kind() {
            Kind::Knight => 1,
            Kind::Bishop => 2,
            Kind::Rook => 3,
            _ => 4,
        }
    } else {
        0
    };
    (to64(to) as u16) | ((to64(from) as u16) << 6) | (promo << 12)
}

/// The legal move of `pos` that `raw` stands for, if any (a hash collision or a damaged entry
/// gives `None`).
pub fn decode_move(pos: &Position, raw: u16) -> Option<Move> {
    let to = from64((raw & 63) as usize);
    let from = from64(((raw >> 6) & 63) as usize);
    let promo = match (raw >> 12) & 7 {
        0 => None,
        1 => Some(Kind::Knight),
        2 => Some(Kind::Bishop),
        3 => Some(Kind::Rook),
        4 => Some(Kind::Queen),
        _ => return None,
    };
    let king_takes_rook = {
        let p = pos.piece_at(from);
        let t = pos.piece_at(to);
        p.is_kind(Kind::King) && t.is_kind(Kind::Rook) && t.colour() == p.colour()
    };
    pos.legal_moves().iter().copied().find(|m| {
        let target_ok = if king_takes_rook {
            m.is_castle() && (file_of(m.to()) > file_of(from)) == (file_of(to) > file_of(from))
        } else {
            // A king's two-square step (e1g1) is castling too, as books by other tools have it.
            m.to() == to
        };
        m.from() == from
            && target_ok
            && match promo {
                None => !m.is_promotion(),
                Some(k) => m.is_promotion() && m.promotion().kind() == k,
            }
    })
}
