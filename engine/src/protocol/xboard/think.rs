//! Thinking: the search limits from the clock and level, the reporter that turns search
//! reports into thinking output, starting a search on our move, pondering or analysis, the
//! book, and playing the result.

use super::*;

impl Xboard {
    /// Limits for thinking on our move (also used for pondering, from the estimated clock).
    pub(super) fn think_limits(&self) -> Limits {
        let mut l = Limits {
            depth: self.sd,
            ..Limits::default()
        };
        let mtg = (self.level.mps > 0)
            .then(|| self.level.mps - self.moves_made_by_side_to_move() % self.level.mps);
        let budget_ms;
        if let Some(st) = self.st_ms {
            l.move_time = Some(st);
            budget_ms = st;
        } else {
            let time = self.my_ms.unwrap_or(self.level.base_ms).min(MAX_CLOCK_MS);
            l.time = Some(time);
            l.increment = self.level.inc_ms;
            l.moves_to_go = mtg;
            budget_ms = time / mtg.unwrap_or(30).max(1) as u64 + self.level.inc_ms;
        }
        if let Some(nps) = self.nps {
            // Time is counted in nodes: the budget becomes a node limit.
            l.time = None;
            l.move_time = None;
            l.moves_to_go = None;
            l.increment = 0;
            l.nodes = Some(((budget_ms as u128 * nps as u128 / 1000) as u64).max(1));
        }
        l
    }

    pub(super) fn reporter(&self, root: &Position, always_post: bool) -> Reporter {
        let out = self.out.clone();
        let post = Arc::clone(&self.post);
        let stat = Arc::clone(&self.stat);
        let root = root.clone();
        let total = root.legal_moves().len();
        if let Ok(mut s) = self.stat.lock() {
            *s = Stat {
                move_total: total,
                ..Stat::default()
            };
        }
        Box::new(move |r: &Report| match r {
            Report::Iteration(it) => {
                // A fail low keeps the move and waits for its score; a fail high is a new
                // move (the one played if the search stops before its re-search ends), shown
                // with the score it is known to reach.
                if it.bound == Bound::Upper {
                    return;
                }
                let pv = san_line(&root, &it.pv);
                if let Ok(mut s) = stat.lock() {
                    s.depth = it.depth;
                    s.score = it.score;
                    s.nodes = it.nodes;
                    s.time_ms = it.time_ms;
                    if it.multipv == 1 {
                        s.pv = pv.clone();
                    }
                }
                if always_post || post.load(Ordering::Relaxed) {
                    out.line(&thinking_line(
                        it.depth,
                        crate::tablebase::shown_score(it.score),
                        it.time_ms,
                        it.nodes,
                        &pv,
                    ));
                }
            }
            Report::CurrMove { depth, mv, number } => {
                if let Ok(mut s) = stat.lock() {
                    s.depth = *depth;
                    s.move_number = *number;
                    s.move_name = mv.to_uci();
                }
            }
        })
    }

    /// Starts thinking on our move if it is ours and the game goes on.
    pub(super) fn start_thinking(&mut self) {
        if self.paused.is_some() || self.edit.is_some() || self.analyzing || self.job.is_some() {
            return;
        }
        if self.engine_side != Some(self.pos.side_to_move()) {
            return;
        }
        // Without a legal move the game is over: claim it. A draw that a rule allows (50
        // moves, repetition, material) is claimed after a move, never instead of one, since
        // testers count a claim in place of an asked-for move as a loss.
        if self.pos.legal_moves().is_empty() {
            if let Some(res) = game_result(&self.pos) {
                self.out.line(res);
            }
            self.game_over = true;
            return;
        }
        if self.game_over {
            return;
        }
        if let Some(note) = self.book.missing_default_notice(&self.settings.book) {
            self.out.line(&format!("# {note}"));
        }
        if let Some(m) = self.book_move() {
            // Shown as a thinking line of depth 0 with the static evaluation, like a search's.
            if self.post.load(Ordering::Relaxed) {
                let score = crate::eval::Evaluator::new().evaluate_full(&self.pos);
                let pv = san_line(&self.pos, &[m]);
                self.out.line(&thinking_line(0, score, 0, 0, &pv));
            }
            let r = SearchResult {
                best: m,
                ponder: Move::NONE,
                // Not a search's score: the resignation and draw-offer rules ignore it.
                score: 0,
                depth: 0,
                nodes: 0,
                time_ms: 0,
            };
            self.debug_note(&format!("book move {}", m.to_uci()));
            return self.play(r, Instant::now());
        }
        let limits = self.think_limits();
        self.debug_note(&format!("limits {limits:?}"));
        let rep = self.reporter(&self.pos, false);
        let id = self
            .worker
            .start(&self.pos, limits, &mut self.settings, rep);
        self.job = Some(Job {
            id,
            kind: Kind::Think,
            started: Instant::now(),
        });
    }

    pub(super) fn book_move(&mut self) -> Option<Move> {
        match self.book.probe(&self.pos, &self.settings.book) {
            Ok(m) => m,
            Err(e) => {
                self.error(&e, "book");
                None
            }
        }
    }

    /// The game is over: learn from the book moves played in it.
    pub(super) fn book_game_over(&mut self, end: GameEnd) {
        match self.book.game_over(end, &self.settings.book) {
            Ok(Some(note)) => self.debug_note(&note),
            Ok(None) => {}
            Err(e) => self.error(&e, "result"),
        }
    }

    /// Starts the search that runs while nobody asked for a move: analysis, or pondering on
    /// the expected reply.
    pub(super) fn start_background(&mut self) {
        if self.paused.is_some() || self.edit.is_some() || self.job.is_some() {
            return;
        }
        if self.analyzing {
            let mut limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            let legal = self.pos.legal_moves();
            if legal.is_empty() {
                return;
            }
            if !self.excluded.is_empty() {
                limits.search_moves = legal
                    .iter()
                    .copied()
                    .filter(|m| !self.excluded.contains(m))
                    .collect();
                if limits.search_moves.is_empty() {
                    return;
                }
            }
            let rep = self.reporter(&self.pos, true);
            let id = self
                .worker
                .start(&self.pos, limits, &mut self.settings, rep);
            self.job = Some(Job {
                id,
                kind: Kind::Analyze,
                started: Instant::now(),
            });
            return;
        }
        let stm = self.pos.side_to_move();
        if !self.settings.ponder
            || self.game_over
            || self.engine_side != Some(stm.flip())
            || self.hint.is_none()
            || !self.pos.legal_moves().contains(self.hint)
        {
            return;
        }
        let guess = self.hint;
        let mut after = self.pos.clone();
        after.make(guess);
        if game_result(&after).is_some() {
            return;
        }
        // Clocks as they will be when the guess is played: ours is the one to move then.
        let mut limits = {
            let saved = std::mem::replace(&mut self.pos, after.clone());
            let l = self.think_limits();
            self.pos = saved;
            l
        };
        limits.ponder = true;
        let rep = self.reporter(&after, false);
        let id = self.worker.start(&after, limits, &mut self.settings, rep);
        self.job = Some(Job {
            id,
            kind: Kind::Ponder(guess),
            started: Instant::now(),
        });
    }

    /// After any change of position or mode: whatever should run now.
    pub(super) fn resume_work(&mut self) {
        self.start_thinking();
        self.start_background();
    }

    /// Posts a line for the move about to be played when the last line posted starts with
    /// another: a search can end on a move whose only lines were fail lows, which xboard's
    /// thinking output has no way to mark as bounds and so does not show, and a GUI reads the
    /// last line posted as the reason for the move.
    fn post_move_played(&mut self, r: &SearchResult) {
        if !self.post.load(Ordering::Relaxed) || !self.pos.legal_moves().contains(r.best) {
            return;
        }
        let san = self.pos.to_san(r.best);
        let posted = self
            .stat
            .lock()
            .map(|s| s.pv.split_whitespace().next() == Some(san.as_str()))
            .unwrap_or(true);
        if !posted {
            self.out.line(&thinking_line(
                r.depth.max(1),
                crate::tablebase::shown_score(r.score),
                r.time_ms,
                r.nodes,
                &san,
            ));
        }
    }

    /// Our search for a move has ended: play its move (or resign, or claim).
    pub(super) fn play(&mut self, r: SearchResult, started: Instant) {
        if r.best.is_none() || !self.pos.legal_moves().contains(r.best) {
            if let Some(res) = game_result(&self.pos) {
                self.out.line(res);
                self.game_over = true;
            }
            return;
        }
        let elapsed = started.elapsed().as_millis() as u64;
        if let Some(t) = self.my_ms {
            self.my_ms = Some(t.saturating_sub(elapsed) + self.level.inc_ms);
        }
        self.scores.push(r.score);
        self.last_score = Some(r.score);
        let n = self.scores.len();
        if n >= RESIGN_SEARCHES
            && self.scores[n - RESIGN_SEARCHES..]
                .iter()
                .all(|&s| s <= RESIGN_SCORE_CP)
        {
            self.out.line("resign");
            self.game_over = true;
            return;
        }
        if n >= DRAW_OFFER_SEARCHES
            && self.pos.fullmove_number() >= DRAW_OFFER_MIN_MOVE
            && self.scores[n - DRAW_OFFER_SEARCHES..]
                .iter()
                .all(|&s| s.abs() <= DRAW_OFFER_MAX_CP)
        {
            self.out.line("offer draw");
        }
        let san = self.pos.to_san(r.best);
        self.out
            .line(&format!("move {}", super::move_text(&self.pos, r.best)));
        self.pos.make(r.best);
        self.hint = if !r.ponder.is_none() && self.pos.legal_moves().contains(r.ponder) {
            r.ponder
        } else {
            Move::NONE
        };
        if self.ics {
            let pv = self.stat.lock().map(|s| s.pv.clone()).unwrap_or_default();
            let score = match mate_in(r.score) {
                Some(m) => format!("mate {m}"),
                None => format!("{:+.2}", r.score as f64 / 100.0),
            };
            self.out.line(&format!(
                "tellothers {} played {san}: depth {}, score {score}, {} nodes in {:.1} s, pv {pv}",
                uci::ENGINE_NAME,
                r.depth,
                r.nodes,
                r.time_ms as f64 / 1000.0
            ));
        }
        if let Some(res) = game_result(&self.pos) {
            self.out.line(res);
            self.game_over = true;
            return;
        }
        self.start_background();
    }

    pub(super) fn on_done(&mut self, id: u64) {
        let Some(r) = self.worker.finished(id) else {
            return;
        };
        let Some(job) = self.job.take() else {
            return;
        };
        if job.id != id {
            return;
        }
        match job.kind {
            Kind::Think => {
                self.book.searched(r.score);
                self.post_move_played(&r);
                self.play(r, job.started)
            }
            // Analysis and pondering end only when stopped, which drops the result.
            Kind::Analyze | Kind::Ponder(_) => self.start_background(),
        }
    }
}
