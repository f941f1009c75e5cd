//! The flags by which the threads that control a search (the protocols' worker, `stop`,
//! `ponderhit`) talk to the threads that run it.

use std::sync::atomic::{AtomicBool, Ordering};

/// Flags shared between the thread that runs a search and the threads that control it.
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    ponder: AtomicBool,
}

impl Control {
    /// A fresh control; `ponder` when the search starts as a ponder search.
    pub fn new(ponder: bool) -> Control {
        Control {
            stop: AtomicBool::new(false),
            ponder: AtomicBool::new(ponder),
        }
    }

    /// Ask the search to finish as soon as possible (it still returns its best move).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: from now on the clock applies.
    pub fn ponderhit(&self) {
        self.ponder.store(false, Ordering::Relaxed);
    }

    pub fn is_pondering(&self) -> bool {
        self.ponder.load(Ordering::Relaxed)
    }
}
