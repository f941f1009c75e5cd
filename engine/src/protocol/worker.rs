//! The search thread shared by all protocols. The engine moves into a new thread for each
//! search and comes back with the result, so the protocol's main loop keeps reading commands
//! while the search runs; `stop`/`ponderhit` reach the search through its `Control`, and the
//! end of a search arrives in the main loop as `Event::SearchDone(id)`.

use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::JoinHandle;

use super::options::Settings;
use super::session::Event;
use crate::board::Position;
use crate::search::smp::SEARCH_STACK_BYTES;
use crate::search::{Control, Engine, Limits, Report, SearchResult};

/// Reports from a running search, formatted by the protocol that started it.
pub type Reporter = Box<dyn FnMut(&Report) + Send>;

struct Active {
    id: u64,
    control: Arc<Control>,
    handle: JoinHandle<(Engine, SearchResult)>,
}

pub struct Worker {
    engine: Option<Engine>,
    active: Option<Active>,
    next_id: u64,
    tx: Sender<Event>,
    /// Hash size last applied (the table may round the size it reports).
    hash_applied: usize,
}

impl Worker {
    pub fn new(settings: &Settings, tx: Sender<Event>) -> Worker {
        Worker {
            engine: Some(Engine::new(settings.hash_mb)),
            active: None,
            next_id: 1,
            tx,
            hash_applied: settings.hash_mb,
        }
    }

    pub fn is_searching(&self) -> bool {
        self.active.is_some()
    }

    /// Id of the running search.
    pub fn active_id(&self) -> Option<u64> {
        self.active.as_ref().map(|a| a.id)
    }

    /// Hands the settings to the engine now if it is idle (otherwise before the next search).
    pub fn apply(&mut self, settings: &mut Settings) {
        let hash_applied = &mut self.hash_applied;
        let Some(engine) = self.engine.as_mut() else {
            return;
        };
        if settings.hash_mb != *hash_applied {
            engine.set_hash(settings.hash_mb);
            *hash_applied = settings.hash_mb;
            settings.clear_pending = false;
        }
        if settings.clear_pending {
            engine.clear();
            settings.clear_pending = false;
        }
        engine.options.multipv = settings.multipv.max(1);
        engine.options.threads = settings.threads.max(1);
        engine.options.move_overhead_ms = settings.move_overhead_ms;
        engine.options.contempt = settings.contempt;
        engine.options.limit_elo = settings.limit_strength.then_some(settings.elo);
        engine.options.strength_seed = settings.strength_seed;
        crate::tablebase::set_probe_options(
            settings.syzygy_probe_depth,
            settings.syzygy_probe_limit,
            settings.syzygy_50_move_rule,
        );
    }

    /// The idle engine (None while a search runs).
    pub fn engine(&mut self) -> Option<&mut Engine> {
        self.engine.as_mut()
    }

    /// Starts a search of `pos` and returns its id. A search still running is stopped and its
    /// result dropped first (protocols that must answer it call `wait` before).
    pub fn start(
        &mut self,
        pos: &Position,
        limits: Limits,
        settings: &mut Settings,
        mut reporter: Reporter,
    ) -> u64 {
        if self.active.is_some() {
            self.stop();
            let _ = self.wait();
        }
        self.apply(settings);
        let mut engine = match self.engine.take() {
            Some(e) => e,
            None => Engine::new(settings.hash_mb),
        };
        let id = self.next_id;
        self.next_id += 1;
        let control = Arc::new(Control::new(limits.ponder));
        let c = Arc::clone(&control);
        let tx = self.tx.clone();
        let pos = pos.clone();
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let r = engine.search(&pos, &limits, &c, &mut *reporter);
                let _ = tx.send(Event::SearchDone(id));
                (engine, r)
            });
        match spawned {
            Ok(handle) => {
                self.active = Some(Active {
                    id,
                    control,
                    handle,
                })
            }
            Err(_) => {
                // No thread: report a finished search with no move rather than hang.
                eprintln!("error: cannot start the search thread");
                self.engine = Some(Engine::new(settings.hash_mb));
                let _ = self.tx.send(Event::SearchDone(id));
            }
        }
        id
    }

    /// Asks the running search to stop (it still returns its best move).
    pub fn stop(&self) {
        if let Some(a) = &self.active {
            a.control.stop();
        }
    }

    /// The opponent played the expected move: the ponder search goes on under the clock.
    pub fn ponderhit(&self) {
        if let Some(a) = &self.active {
            a.control.ponderhit();
        }
    }

    /// Is the running search still in ponder mode?
    pub fn is_pondering(&self) -> bool {
        self.active
            .as_ref()
            .is_some_and(|a| a.control.is_pondering())
    }

    /// Waits for the running search to end and returns its id and result. A search thread
    /// that died gives no result and a fresh engine.
    pub fn wait(&mut self) -> Option<(u64, SearchResult)> {
        let a = self.active.take()?;
        match a.handle.join() {
            Ok((engine, r)) => {
                self.engine = Some(engine);
                Some((a.id, r))
            }
            Err(_) => {
                self.engine = Some(Engine::new(self.hash_applied));
                None
            }
        }
    }

    /// Stops the running search and waits for it, dropping its result.
    pub fn cancel(&mut self) {
        self.stop();
        let _ = self.wait();
    }

    /// Called on `Event::SearchDone(id)`: the result if `id` is the running search (a notice
    /// of a search already waited for is stale and gives `None`).
    pub fn finished(&mut self, id: u64) -> Option<SearchResult> {
        if self.active_id() != Some(id) {
            return None;
        }
        self.wait().map(|(_, r)| r)
    }
}
