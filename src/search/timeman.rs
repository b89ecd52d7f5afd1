//! Time management: from the limits, a soft budget (no new iteration after it) and a hard
//! deadline that the search checks every [`POLL_INTERVAL`](super::alphabeta::POLL_INTERVAL)
//! nodes.

use std::time::{Duration, Instant};

use super::interface::Limits;

/// The time plan of one search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TimePlan {
    /// When the move's time started: the request's arrival ([`Limits::since`]) if it is
    /// known, else the search's start.
    pub(crate) start: Instant,
    /// No new iteration starts after this much time.
    pub(crate) soft: Option<Duration>,
    /// The search stops at once after this much time.
    pub(crate) hard: Option<Duration>,
}

/// Kept back from every budget for the reply and the process around the search.
const OVERHEAD: Duration = Duration::from_millis(5);
/// The time used when no limit at all is given.
pub(crate) const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

impl TimePlan {
    /// The plan for `limits` of a search that starts at `start`; its budgets count from
    /// the request's arrival ([`Limits::since`]) when that is earlier.
    pub(crate) fn new(limits: &Limits, start: Instant) -> TimePlan {
        let start = limits.since.map_or(start, |since| since.min(start));
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        let mut tighten = |s: Duration, h: Duration| {
            soft = Some(soft.map_or(s, |x| x.min(s)));
            hard = Some(hard.map_or(h, |x| x.min(h)));
        };
        let none = limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.clock.is_none();
        let movetime = if none {
            Some(DEFAULT_MOVETIME)
        } else {
            limits.movetime
        };
        if let Some(mt) = movetime {
            // A fixed time per move saves nothing for later, and an interrupted
            // iteration still yields every root move it searched in full: search to
            // the deadline.
            let h = mt.saturating_sub(OVERHEAD.min(mt / 10));
            tighten(h, h);
        }
        if let Some(c) = limits.clock {
            // Keep a reserve: never plan to use more than a fifth of the clock on one
            // move, and always leave at least 30 ms (or a tenth of what is left).
            let reserve = Duration::from_millis(30).min(c.remaining / 10);
            let usable = c.remaining.saturating_sub(reserve);
            let base = c.remaining / 30 + c.increment.mul_f64(0.8);
            let h = (base * 3)
                .min(usable / 5 + c.increment.min(usable / 2))
                .min(usable);
            let h = h.saturating_sub(OVERHEAD.min(h / 10));
            tighten(base.min(h).mul_f64(0.6), h);
        }
        TimePlan { start, soft, hard }
    }

    /// True once the soft budget is spent.
    pub(crate) fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|s| self.start.elapsed() >= s)
    }

    /// True once the hard deadline has passed.
    #[inline]
    pub(crate) fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    /// The plan for a Fischer clock alone.
    fn clock_plan(remaining: Duration, increment: Duration, now: Instant) -> TimePlan {
        TimePlan::new(
            &Limits {
                clock: Some(Clock {
                    remaining,
                    increment,
                }),
                ..Limits::default()
            },
            now,
        )
    }

    #[test]
    fn budgets() {
        let now = Instant::now();
        let p = TimePlan::new(&Limits::default(), now);
        assert!(p.hard.unwrap() <= DEFAULT_MOVETIME);
        let p = TimePlan::new(
            &Limits {
                depth: Some(3),
                ..Limits::default()
            },
            now,
        );
        assert!(p.hard.is_none());
        let p = clock_plan(Duration::from_millis(100), Duration::ZERO, now);
        assert!(p.hard.unwrap() <= Duration::from_millis(20));
        let p = clock_plan(Duration::from_secs(60), Duration::from_secs(1), now);
        assert!(p.hard.unwrap() > Duration::from_secs(2));
        assert!(p.hard.unwrap() < Duration::from_secs(12));
    }

    /// The budgets count from the request's arrival: a move whose command waited longer
    /// than its time is out of time as its search starts, and an arrival after the start
    /// (a clock read in another order) changes nothing.
    #[test]
    fn budgets_count_from_the_arrival() {
        let now = Instant::now();
        let Some(arrived) = now.checked_sub(Duration::from_secs(2)) else {
            return;
        };
        let limits = Limits {
            movetime: Some(Duration::from_secs(1)),
            since: Some(arrived),
            ..Limits::default()
        };
        let p = TimePlan::new(&limits, now);
        assert_eq!(p.start, arrived);
        assert!(p.hard_expired());
        assert!(p.soft_expired());
        let later = now + Duration::from_secs(60);
        let p = TimePlan::new(
            &Limits {
                since: Some(later),
                ..limits
            },
            now,
        );
        assert_eq!(p.start, now);
        let p = TimePlan::new(
            &Limits {
                since: None,
                ..limits
            },
            now,
        );
        assert_eq!(p.start, now);
    }
}
