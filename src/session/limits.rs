//! What bounds a session's searches: the depth, nodes and movetime options, and the
//! mover's clock under the time control (as the controller reports it, or as the engine
//! charges its own moves to it).

use std::time::Duration;

use crate::core::role::{ByRole, Role};
use crate::search::{Clock, Limits};
use crate::time_control::Fischer;

use super::Session;

/// The search limits set by options (0 = none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct SearchLimits {
    pub(super) depth: u64,
    pub(super) nodes: u64,
    pub(super) movetime_ms: u64,
}

impl Session {
    /// The time control, if any.
    pub fn time_control(&self) -> Option<Fischer> {
        self.time
    }

    /// Sets or removes the time control; the game goes on.
    pub(crate) fn set_time_control(&mut self, time: Option<Fischer>) {
        self.time = time;
        self.time_left = ByRole::default();
    }

    /// The controller says `role` has `left` on its clock.
    pub(crate) fn set_time_left(&mut self, role: Role, left: Duration) {
        *self.time_left.get_mut(role) = Some(left);
    }

    /// The limits for the side to move: the options, and its clock if there is one.
    pub fn limits(&self) -> Limits {
        let nonzero = |v: u64| (v > 0).then_some(v);
        let clock = self.time.map(|tc| Clock {
            remaining: self.clock_of(self.to_move()).unwrap_or(tc.base),
            increment: tc.increment,
        });
        Limits {
            depth: nonzero(self.limits.depth).and_then(|d| u32::try_from(d).ok()),
            nodes: nonzero(self.limits.nodes),
            movetime: nonzero(self.limits.movetime_ms).map(Duration::from_millis),
            clock,
            since: None,
        }
    }

    fn clock_of(&self, role: Role) -> Option<Duration> {
        *self.time_left.get(role)
    }

    /// Our own estimate of the mover's clock until the controller reports it again: what
    /// it last said (or the base time if it never did), minus the time this search
    /// used, plus the increment.
    pub(super) fn charge_clock(&mut self, role: Role, used: Duration) {
        if let Some(tc) = self.time {
            let left = self.clock_of(role).unwrap_or(tc.base);
            let after = left.saturating_sub(used).saturating_add(tc.increment);
            self.set_time_left(role, after);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::moves::Move;
    use crate::session::SearchOption;

    #[test]
    fn limits_come_from_the_options_and_the_clock() {
        let mut s = Session::new();
        assert_eq!(s.limits(), Limits::default());
        s.set_option(SearchOption::Depth(3)).unwrap();
        s.set_option(SearchOption::MovetimeMs(250)).unwrap();
        s.set_option(SearchOption::Nodes(0)).unwrap();
        assert!(s.set_option(SearchOption::Threads(0)).is_err());
        s.set_time_control(Some(Fischer {
            base: Duration::from_secs(60),
            increment: Duration::from_secs(2),
        }));
        let l = s.limits();
        assert_eq!((l.depth, l.nodes), (Some(3), None));
        assert_eq!(l.movetime, Some(Duration::from_millis(250)));
        let clock = l.clock.unwrap();
        assert_eq!(clock.remaining, Duration::from_secs(60));
        assert_eq!(clock.increment, Duration::from_secs(2));
        // The clock of the side to move, as the controller reported it.
        s.set_time_left(Role::Defender, Duration::from_secs(5));
        assert_eq!(s.limits().clock.unwrap().remaining, Duration::from_secs(60));
        s.set_time_left(Role::Attacker, Duration::from_secs(7));
        assert_eq!(s.limits().clock.unwrap().remaining, Duration::from_secs(7));
        s.play(Role::Attacker, "h1-h3".parse::<Move>().unwrap().into())
            .unwrap();
        assert_eq!(s.limits().clock.unwrap().remaining, Duration::from_secs(5));
        // A new game keeps the time control but forgets the reported clocks.
        s.new_game(Some(Role::Attacker)).unwrap();
        assert_eq!(s.limits().clock.unwrap().remaining, Duration::from_secs(60));
        s.set_time_control(None);
        assert_eq!(s.limits().clock, None);
    }

    #[test]
    fn without_time_left_the_engine_charges_its_own_clock() {
        let mut s = Session::new();
        s.set_option(SearchOption::Depth(2)).unwrap();
        s.set_time_control(Some(Fischer {
            base: Duration::from_secs(60),
            increment: Duration::ZERO,
        }));
        s.generate_move().unwrap();
        let after_one = s.time_left.attacker.unwrap();
        assert!(after_one < Duration::from_secs(60), "{after_one:?}");
        s.generate_move().unwrap();
        s.generate_move().unwrap();
        let after_two = s.time_left.attacker.unwrap();
        assert!(after_two < after_one, "{after_two:?} {after_one:?}");
        assert_eq!(
            s.limits().clock.unwrap().remaining,
            s.time_left.defender.unwrap()
        );
    }

    #[test]
    fn generate_move_charges_the_engine_clock_with_the_increment() {
        let mut s = Session::new();
        s.set_option(SearchOption::Depth(1)).unwrap();
        s.set_time_control(Some(Fischer {
            base: Duration::from_secs(60),
            increment: Duration::from_secs(3600),
        }));
        s.set_time_left(Role::Attacker, Duration::from_secs(10));
        let (role, _) = s.generate_move().unwrap();
        assert_eq!(role, Role::Attacker);
        let left = s.time_left.attacker.unwrap();
        // 10 s minus the search time plus the one-hour increment: more than 10 s.
        assert!(left > Duration::from_secs(10) && left <= Duration::from_secs(3610));
    }
}
