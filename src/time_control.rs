//! A Fischer time control: each side's time at the start and the time added after each of
//! its moves. The one type of a time control for every tool that plays on a clock: the
//! options read it from `MIN+INC` ([`crate::options::parse_min_inc`]), the text protocol's
//! `time_settings fischer` and OTEP's `clock` set it in the session, `hnefi bot` offers
//! games under it and `hnefi match` plays them under it. What a clock reads during a game
//! (the time the mover has left now) is another thing, [`crate::search::Clock`].
//! A match is played under a Fischer clock, a fixed time a move or no clock
//! ([`TimeControl`]).

use std::time::Duration;

/// A Fischer time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fischer {
    /// Each side's time at the start.
    pub base: Duration,
    /// Time added after each of a side's moves.
    pub increment: Duration,
}

/// How the games of a match are timed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum TimeControl {
    /// No clock: each move may take up to the runner's untimed deadline.
    None,
    /// A fixed time per move.
    MoveTime(Duration),
    /// Fischer: a base time per side and an increment after each move.
    Fischer(Fischer),
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn fischer() {
        use crate::time_control::Fischer;
        use std::time::Duration;
        let tc = crate::options::parse_min_inc("1+0.5").unwrap();
        assert_eq!(
            tc,
            Fischer {
                base: Duration::from_secs(60),
                increment: Duration::from_millis(500)
            }
        );
    }
}
