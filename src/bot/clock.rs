//! Clock budgeting: from the server's clock of a game to the search's limits.
//!
//! The server runs a side's clock from the moment the previous move reached it until our
//! move does; the bot starts counting when it learns that it is to move, so it keeps back
//! a margin for the time the messages spend on the way.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::search::{Clock, Limits};

/// The bot's knowledge of our clock in one game: not known yet, none, or the server's last
/// reading of it. The reading is the search's [`Clock`] (time left and increment), taken
/// at another moment: when our clock last stopped or was last read, not when the search
/// starts; [`limits`] brings it to now. (The time control of an offer, the time at the
/// start, is a [`crate::time_control::Fischer`].)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GameClock {
    /// Not known yet (ask the server with `resume_game_json`).
    Unknown,
    /// An untimed game.
    Untimed,
    /// Fischer: our time left when our clock last stopped or was last read, and the
    /// increment.
    Fischer(Clock),
}

/// The server's milliseconds as a duration: none below zero (a late server update may
/// report a time left below zero).
pub(crate) fn millis(ms: i64) -> Duration {
    Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

/// What bounds every search of the bot, whatever the clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Caps {
    /// The longest time a move may take (and the time per move in untimed games).
    pub max_move: Duration,
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// Depth per move.
    pub depth: Option<u32>,
}

/// The most kept back for message delays: network and server latency.
const MAX_MARGIN: Duration = Duration::from_millis(1000);

/// The search limits for a move whose turn began at `turn_start` with `clock`, now.
///
/// Timed: the time left now (minus what has passed since the turn began), less a margin
/// of a tenth of it (at most a second), is handed to the searcher as a Fischer clock,
/// which plans the move from it and never uses it all; `caps.max_move` bounds it too.
pub(crate) fn limits(clock: GameClock, turn_start: Instant, now: Instant, caps: &Caps) -> Limits {
    let mut limits = Limits {
        depth: caps.depth,
        nodes: caps.nodes,
        movetime: Some(caps.max_move.max(Duration::from_millis(1))),
        clock: None,
        since: None,
    };
    if let GameClock::Fischer(read) = clock {
        let left = read
            .remaining
            .saturating_sub(now.saturating_duration_since(turn_start));
        let margin = (left / 10).min(MAX_MARGIN);
        limits.clock = Some(Clock {
            remaining: left.saturating_sub(margin).max(Duration::from_millis(1)),
            increment: read.increment,
        });
    }
    limits
}

/// Milliseconds since the Unix epoch of an RFC 3339 UTC time as the server writes it
/// (`2026-11-23T21:43:18.25Z`, fraction optional); None when it is not one.
pub(crate) fn unix_ms(stamp: &str) -> Option<i64> {
    let s = stamp.strip_suffix('Z')?;
    let (date, time) = s.split_once('T')?;
    let mut d = date.split('-');
    let year: i64 = d.next()?.parse().ok()?;
    let month: i64 = d.next()?.parse().ok()?;
    let day: i64 = d.next()?.parse().ok()?;
    let (hms, frac) = time.split_once('.').unwrap_or((time, ""));
    let mut t = hms.split(':');
    let hour: i64 = t.next()?.parse().ok()?;
    let minute: i64 = t.next()?.parse().ok()?;
    let second: i64 = t.next()?.parse().ok()?;
    if d.next().is_some()
        || t.next().is_some()
        || !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
        || hour > 23
        || minute > 59
        || second > 60
        || !(0..=9999).contains(&year)
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let mut millis = 0;
    for (i, b) in frac.bytes().take(3).enumerate() {
        millis += i64::from(b - b'0') * [100, 10, 1][i];
    }
    // Days from the civil date (Howard Hinnant's days_from_civil).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis)
}

/// Milliseconds since the Unix epoch, now.
pub(crate) fn now_unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_server_timestamps() {
        assert_eq!(unix_ms("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(unix_ms("2000-03-01T00:00:01.5Z"), Some(951_868_801_500));
        assert_eq!(
            unix_ms("2026-11-23T21:43:18.254123Z"),
            Some(1_795_470_198_254)
        );
        for bad in [
            "",
            "2026-11-23 21:43:18Z",
            "2026-13-01T00:00:00Z",
            "2026-11-23T21:43:18",
        ] {
            assert_eq!(unix_ms(bad), None, "{bad}");
        }
    }

    #[test]
    fn budgets_follow_the_clock() {
        let caps = Caps {
            max_move: Duration::from_secs(30),
            ..Caps::default()
        };
        let start = Instant::now();
        let clock = GameClock::Fischer(Clock {
            remaining: millis(60_000),
            increment: millis(1_000),
        });
        let l = limits(clock, start, start + Duration::from_secs(5), &caps);
        let c = l.clock.unwrap();
        // 55 s left, a second kept back.
        assert_eq!(c.remaining, Duration::from_secs(54));
        assert_eq!(c.increment, Duration::from_secs(1));
        // Out of time: still a (tiny) budget, never a negative one.
        let gone = GameClock::Fischer(Clock {
            remaining: millis(-20),
            increment: millis(0),
        });
        let l = limits(gone, start, start, &caps);
        assert_eq!(l.clock.unwrap().remaining, Duration::from_millis(1));
        // Untimed: the cap is the time per move.
        let l = limits(GameClock::Untimed, start, start, &caps);
        assert_eq!((l.clock, l.movetime), (None, Some(Duration::from_secs(30))));
    }
}
