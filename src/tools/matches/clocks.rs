//! The clocks of one game of a match: each side's time control (time odds make them
//! differ), the time left on a Fischer clock, how long the referee waits for a move, and
//! what each engine is shown.

use std::time::Duration;

use crate::core::role::{ByRole, Role};
use crate::time_control::{Fischer, TimeControl};

/// Both sides' clocks in one game.
pub(crate) struct Clocks {
    /// Each side's time control.
    times: ByRole<TimeControl>,
    /// The time left on each side's Fischer clock (zero for a side without one).
    left: ByRole<Duration>,
}

impl Clocks {
    /// The clocks at the start of a game, each side on its time control.
    pub(crate) fn new(times: ByRole<TimeControl>) -> Clocks {
        let left = ByRole::new_with(|role| match times.get(role) {
            TimeControl::Fischer(Fischer { base, .. }) => *base,
            _ => Duration::ZERO,
        });
        Clocks { times, left }
    }

    /// How long the referee waits for `side`'s move: its time for the move or what is
    /// left on its clock, and the `margin` over it; `move_timeout` when it has no clock.
    pub(crate) fn allowance(
        &self,
        side: Role,
        margin: Duration,
        move_timeout: Duration,
    ) -> Duration {
        match self.times.get(side) {
            TimeControl::None => move_timeout,
            TimeControl::MoveTime(t) => *t + margin,
            TimeControl::Fischer(_) => *self.left.get(side) + margin,
        }
    }

    /// The clocks an engine on `side` is shown: its own and its opponent's, or its own
    /// twice when the opponent plays on no clock of its own (time odds against a fixed
    /// time per move), so that no engine sees an opponent in time trouble that is not.
    pub(crate) fn shown(&self, side: Role) -> ByRole<Duration> {
        match self.times.get(side.opponent()) {
            TimeControl::Fischer(_) => self.left,
            _ => ByRole::new_with(|_| *self.left.get(side)),
        }
    }

    /// `side`'s move took `elapsed`: taken from its Fischer clock, and its increment added.
    pub(crate) fn charge(&mut self, side: Role, elapsed: Duration) {
        if let TimeControl::Fischer(Fischer { increment, .. }) = self.times.get(side) {
            let left = self.left.get_mut(side);
            *left = left.saturating_sub(elapsed) + *increment;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fischer(base_ms: u64, increment_ms: u64) -> TimeControl {
        TimeControl::Fischer(Fischer {
            base: Duration::from_millis(base_ms),
            increment: Duration::from_millis(increment_ms),
        })
    }

    #[test]
    fn a_fischer_clock_is_charged_and_credited() {
        let mut c = Clocks::new(ByRole::new_with(|_| fischer(1000, 100)));
        let margin = Duration::from_millis(50);
        let timeout = Duration::from_secs(9);
        assert_eq!(
            c.allowance(Role::Attacker, margin, timeout),
            Duration::from_millis(1050)
        );
        c.charge(Role::Attacker, Duration::from_millis(300));
        assert_eq!(
            *c.shown(Role::Defender).get(Role::Attacker),
            Duration::from_millis(800)
        );
        c.charge(Role::Defender, Duration::from_millis(5000));
        assert_eq!(
            *c.shown(Role::Attacker).get(Role::Defender),
            Duration::from_millis(100)
        );
    }

    #[test]
    fn time_odds_show_an_engine_its_own_clock_twice() {
        let times = ByRole::new_with(|role| match role {
            Role::Attacker => fischer(2000, 0),
            Role::Defender => TimeControl::MoveTime(Duration::from_millis(100)),
        });
        let c = Clocks::new(times);
        let shown = c.shown(Role::Attacker);
        assert_eq!(*shown.get(Role::Defender), Duration::from_millis(2000));
        let margin = Duration::from_millis(5);
        assert_eq!(
            c.allowance(Role::Defender, margin, Duration::from_secs(9)),
            Duration::from_millis(105)
        );
        assert_eq!(
            c.allowance(Role::Attacker, margin, Duration::from_secs(9)),
            Duration::from_millis(2005)
        );
    }
}
