//! The searches of a session that play no move: `analyze` (for a time, under the
//! options' limits, or streaming until stopped) and pondering on the reply the engine
//! expects.

use std::time::Duration;

use crate::core::any_game::AnyGame;
use crate::core::any_size::on_size;
use crate::core::any_square::AnyMove;
use crate::search::{self, Info, Limits, SearchResult};

use super::Session;
use super::error::SessionError;
use super::limits::SearchLimits;

impl Session {
    /// Searches the current position without playing: for `movetime` if given, else under
    /// the current limits, else for one second. The search reports each iteration to the
    /// session's [`InfoSink`](super::InfoSink) and to `on_info` (one report per line with
    /// `set_option multipv`).
    pub(crate) fn analyze_reporting(
        &mut self,
        movetime: Option<Duration>,
        on_info: &mut dyn FnMut(&Info<AnyMove>),
    ) -> Result<SearchResult<AnyMove>, SessionError> {
        self.check_analyzable()?;
        let mut limits = match movetime {
            Some(t) => Limits {
                movetime: Some(t),
                ..Limits::default()
            },
            None => Limits {
                clock: None,
                ..self.limits()
            },
        };
        if limits == Limits::default() {
            limits.movetime = Some(Duration::from_secs(1));
        }
        self.finish_analysis(&limits, self.multipv, on_info)
    }

    /// Searches the current position without playing for `movetime`, for the best
    /// `lines` root moves whatever the `multipv` option says (OTEP's `analyze`, whose
    /// host names how many it wants), reporting each iteration to `on_info` (one report
    /// per line).
    pub(crate) fn analyze_lines(
        &mut self,
        movetime: Duration,
        lines: usize,
        on_info: &mut dyn FnMut(&Info<AnyMove>),
    ) -> Result<SearchResult<AnyMove>, SessionError> {
        self.check_analyzable()?;
        let limits = Limits {
            movetime: Some(movetime),
            ..Limits::default()
        };
        self.finish_analysis(&limits, lines, on_info)
    }

    /// The reply the last `generate_move` expects, once (`None` with pondering off, or
    /// when its search saw no reply).
    pub(crate) fn take_expected_reply(&mut self) -> Option<AnyMove> {
        self.expected_reply.take()
    }

    /// Ponders: searches the position after `reply` (the opponent's expected move) under
    /// `limits`, or until the stop flag with none, without reporting and without changing
    /// the game. What it finds stays in the table for the next search. Returns false when
    /// `reply` is not legal here or ends the game (nothing to ponder on).
    pub(crate) fn ponder_on(&mut self, reply: AnyMove, limits: Option<Limits>) -> bool {
        // The Berserk search does not ponder.
        let Some(game) = self.game.ordinary() else {
            return false;
        };
        let mut game = game.clone();
        if game.play(reply).is_err() || game.status().is_over() {
            return false;
        }
        let limits = limits.unwrap_or(Limits {
            depth: Some(search::MAX_DEPTH),
            ..Limits::default()
        });
        self.searcher.set_multipv(1);
        let (searcher, stop) = (&mut self.searcher, &self.stop);
        on_size!(&game, AnyGame, g => {
            searcher.search(g, &limits, stop, &mut |_| {});
        });
        true
    }

    /// True when no depth, nodes or movetime option bounds a search (then `analyze`
    /// without an argument streams until the next command).
    pub(crate) fn unbounded(&self) -> bool {
        self.limits == SearchLimits::default()
    }

    /// Refuses to analyze a finished game or a position without a legal move.
    pub(crate) fn check_analyzable(&self) -> Result<(), SessionError> {
        if self.status().is_over() {
            return Err(SessionError::GameOver);
        }
        if self.legal_moves().is_empty() {
            return Err(SessionError::NothingToAnalyze);
        }
        Ok(())
    }

    /// The search of a streaming analysis: under the depth, nodes and movetime options if
    /// any are set, else until the stop flag (no one-second default), reporting each
    /// iteration to `on_info` and the [`InfoSink`](super::InfoSink).
    pub(crate) fn analyze_until_stopped(
        &mut self,
        on_info: &mut dyn FnMut(&Info<AnyMove>),
    ) -> Result<SearchResult<AnyMove>, SessionError> {
        self.check_analyzable()?;
        let mut limits = Limits {
            clock: None,
            ..self.limits()
        };
        if limits == Limits::default() {
            // The deepest search, with no time limit: only the stop flag ends it sooner.
            limits.depth = Some(search::MAX_DEPTH);
        }
        self.finish_analysis(&limits, self.multipv, on_info)
    }

    fn finish_analysis(
        &mut self,
        limits: &Limits,
        lines: usize,
        on_info: &mut dyn FnMut(&Info<AnyMove>),
    ) -> Result<SearchResult<AnyMove>, SessionError> {
        let result = self.search(limits, lines, on_info);
        if result.best.is_none() {
            return Err(SessionError::NothingToAnalyze);
        }
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use crate::core::moves::Move;
    use crate::search::Limits;
    use crate::session::{SearchOption, Session};

    #[test]
    fn pondering_the_expected_reply_warms_the_next_search() {
        // The node count of a depth-5 search after the engine's move and the reply,
        // from a fresh searcher or after pondering that reply at depth 5.
        let nodes_after = |ponder: bool| {
            let mut s = Session::new();
            s.set_option(SearchOption::Depth(5)).unwrap();
            s.set_ponder(true);
            s.generate_move().unwrap();
            let reply = s.take_expected_reply().expect("a pv of two moves");
            assert_eq!(s.take_expected_reply(), None, "taken once");
            let before = s.game().moves_played();
            if ponder {
                let depth = Limits {
                    depth: Some(5),
                    ..Limits::default()
                };
                assert!(s.ponder_on(reply, Some(depth)));
            }
            // Pondering changed nothing in the game.
            assert_eq!(s.game().moves_played(), before);
            s.play(s.game().to_move(), reply).unwrap();
            let mut nodes = 0;
            let counter = s.node_counter();
            s.generate_move().unwrap();
            nodes += counter.load(std::sync::atomic::Ordering::Relaxed);
            nodes
        };
        let (fresh, warm) = (nodes_after(false), nodes_after(true));
        assert!(warm < fresh, "after pondering {warm} nodes, fresh {fresh}");
    }

    #[test]
    fn without_ponder_generate_move_expects_no_reply() {
        let mut s = Session::new();
        s.set_option(SearchOption::Depth(3)).unwrap();
        s.generate_move().unwrap();
        assert_eq!(s.take_expected_reply(), None);
        let illegal: Move = "a1-a2".parse().unwrap();
        assert!(!s.ponder_on(illegal.into(), None));
    }
}
